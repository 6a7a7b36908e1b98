//! Constructors on a device named by value (`cuda:1`), where the others use
//! the device type's default. Each takes the sizes of the `Dyn` axes
//! (`()` for a static shape), as the `_dyn` constructors do.

use axial_core::layout::checked_numel;
use axial_core::{Backend, Element, Generator, RawTensor, Result, Scalar};
use axial_shape::{Distinct, DynSizes, Shape, StaticShape};

use crate::access::owned;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Owned;
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Backend> TensorBase<T, S, D, Owned<D>> {
    /// A tensor of zeros on `device`, with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 3]>::try_zeros_on(&Cpu, 2)?;
    /// assert_eq!(x.to_vec(), vec![0.0; 6]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_zeros_on(device: &D, sizes: impl DynSizes<S>) -> Result<Self>
    where
        S: Distinct,
    {
        Ok(owned(RawTensor::zeros_on(
            device,
            &sizes.sizes(),
            T::DTYPE,
        )?))
    }

    /// A tensor of zeros on `device`.
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::zeros_on(&Cpu);
    /// assert_eq!(x.device(), &Cpu);
    /// ```
    #[track_caller]
    pub fn zeros_on(device: &D) -> Self
    where
        S: StaticShape + Distinct,
    {
        or_panic(Self::try_zeros_on(device, ()))
    }

    /// A tensor filled with `value` on `device`, with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<i64, shape![Dyn]>::try_full_on(&Cpu, 2, 7)?;
    /// assert_eq!(x.to_vec(), vec![7, 7]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_full_on(device: &D, sizes: impl DynSizes<S>, value: T) -> Result<Self>
    where
        S: Distinct,
    {
        let sizes = sizes.sizes();
        Ok(owned(RawTensor::full_on(
            device,
            &sizes,
            Scalar::of(value),
            T::DTYPE,
        )?))
    }

    /// A tensor filled with `value` on `device`.
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<u8, shape![2]>::full_on(&Cpu, 3).to_vec(), vec![3, 3]);
    /// ```
    #[track_caller]
    pub fn full_on(device: &D, value: T) -> Self
    where
        S: StaticShape + Distinct,
    {
        or_panic(Self::try_full_on(device, (), value))
    }

    /// `0, 1, 2, ...` in row-major order on `device`, with the sizes of the
    /// `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<i32, shape![Dyn, 2]>::try_arange_on(&Cpu, 2)?;
    /// assert_eq!(x.to_vec(), vec![0, 1, 2, 3]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_arange_on(device: &D, sizes: impl DynSizes<S>) -> Result<Self>
    where
        S: Distinct,
    {
        let sizes = sizes.sizes();
        let numel = checked_numel("arange", &sizes)?;
        let flat = RawTensor::arange_on(device, 0.0, numel as f64, 1.0, T::DTYPE)?;
        Ok(Self::contiguous_as(flat, &sizes))
    }

    /// `0, 1, 2, ...` in row-major order on `device`.
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<f32, shape![3]>::arange_on(&Cpu).to_vec(), vec![0.0, 1.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn arange_on(device: &D) -> Self
    where
        S: StaticShape + Distinct,
    {
        or_panic(Self::try_arange_on(device, ()))
    }

    /// A tensor holding `data` in row-major order on `device`, with the
    /// sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// `data` does not hold exactly the shape's number of elements, or the
    /// device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn]>::try_from_vec_on(&Cpu, vec![1.0, 2.0], 2)?;
    /// assert_eq!(x.to_vec(), vec![1.0, 2.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_from_vec_on(device: &D, data: Vec<T>, sizes: impl DynSizes<S>) -> Result<Self>
    where
        S: Distinct,
    {
        Ok(owned(RawTensor::from_slice_on(
            device,
            &data,
            &sizes.sizes(),
        )?))
    }

    /// A tensor holding `data` in row-major order on `device`.
    ///
    /// # Panics
    /// `data` does not hold exactly the shape's number of elements, or the
    /// device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<i8, shape![2]>::from_vec_on(&Cpu, vec![1, 2]).to_vec(), vec![1, 2]);
    /// ```
    #[track_caller]
    pub fn from_vec_on(device: &D, data: Vec<T>) -> Self
    where
        S: StaticShape + Distinct,
    {
        or_panic(Self::try_from_vec_on(device, data, ()))
    }

    /// Uniform random values in `[0, 1)` on `device`, with the sizes of the
    /// `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn]>::try_rand_on(&Cpu, 3, &mut Generator::seed(1))?;
    /// assert!(x.to_vec().iter().all(|v| (0.0..1.0).contains(v)));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_rand_on(device: &D, sizes: impl DynSizes<S>, rng: &mut Generator) -> Result<Self>
    where
        S: Distinct,
        T: Float,
    {
        Ok(owned(RawTensor::rand_on(
            device,
            &sizes.sizes(),
            T::DTYPE,
            rng,
        )?))
    }

    /// Standard normal random values on `device`, with the sizes of the
    /// `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![Dyn]>::try_randn_on(&Cpu, 4, &mut Generator::seed(1))?;
    /// assert_eq!(x.numel(), 4);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_randn_on(device: &D, sizes: impl DynSizes<S>, rng: &mut Generator) -> Result<Self>
    where
        S: Distinct,
        T: Float,
    {
        Ok(owned(RawTensor::randn_on(
            device,
            &sizes.sizes(),
            T::DTYPE,
            rng,
        )?))
    }

    /// A contiguous 1-D tensor of `sizes`' element count, seen with `sizes`.
    pub(crate) fn contiguous_as(flat: RawTensor<D>, sizes: &[usize]) -> Self {
        let (storage, _, _) = flat.into_parts();
        Self::from_parts(Owned(storage), axial_core::Layout::contiguous(sizes))
    }
}
