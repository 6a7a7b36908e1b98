//! Constant and regular fills: zeros, ones, full, arange, linspace, eye.

use axial_core::layout::checked_numel;
use axial_core::{Backend, Element, RawTensor, Result};
use axial_shape::report::TwoAxes;
use axial_shape::{Answer, Distinct, DynSizes, Shape, StaticShape, TruthOf};
use typenum::{IsEqual, U2};

use crate::access::owned;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Owned;
use crate::tensor::TensorBase;

/// Marks `eye` in its error message: the `Op` of
/// [`TwoAxes`](axial_shape::report::TwoAxes) when the shape is not a matrix.
///
/// ```
/// use axial::prelude::*;
/// use axial::Eye;
/// use axial_shape::Shape;
/// use axial_shape::report::TwoAxes;
/// use axial_shape::{Answer, Truth, TruthOf};
/// use typenum::{IsEqual, U2};
/// fn is_matrix<S: Shape>() -> bool
/// where
///     S::Rank: IsEqual<U2, Output: Answer>,
///     TruthOf<<S::Rank as IsEqual<U2>>::Output>: TwoAxes<Eye, S::Display>,
/// {
///     <TruthOf<<S::Rank as IsEqual<U2>>::Output> as Truth>::VALUE == Some(true)
/// }
/// assert!(is_matrix::<shape![2, 3]>());
/// assert_eq!(Tensor::<f32, shape![2, 2]>::eye().to_vec(), [1.0, 0.0, 0.0, 1.0]);
/// ```
pub struct Eye;

impl<T: Element, S: Shape, D: Backend + Default> TensorBase<T, S, D, Owned<D>> {
    /// A tensor of zeros.
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    /// assert_eq!(x.to_vec(), vec![0.0; 6]);
    /// ```
    #[track_caller]
    pub fn zeros() -> Self
    where
        S: StaticShape + Distinct,
    {
        Self::zeros_dyn(())
    }

    /// A tensor of zeros, with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 3]>::try_zeros_dyn(2)?;
    /// assert_eq!(x.to_vec(), vec![0.0; 6]);
    /// assert!(Tensor::<f32, shape![Dyn, Dyn]>::try_zeros_dyn([usize::MAX, 2]).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_zeros_dyn(sizes: impl DynSizes<S>) -> Result<Self>
    where
        S: Distinct,
    {
        Self::try_zeros_on(&D::default(), sizes)
    }

    /// A tensor of zeros, with the sizes of the `Dyn` axes.
    ///
    /// # Panics
    /// As [`try_zeros_dyn`](Self::try_zeros_dyn), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Batch, Channels);
    /// let x = Tensor::<f32, shape![Batch: Dyn, Channels: 3]>::zeros_dyn(2);
    /// assert_eq!(x.sizes().as_slice(), &[2, 3]);
    /// ```
    #[track_caller]
    pub fn zeros_dyn(sizes: impl DynSizes<S>) -> Self
    where
        S: Distinct,
    {
        or_panic(Self::try_zeros_dyn(sizes))
    }

    /// A tensor of ones.
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<i32, shape![2]>::ones().to_vec(), vec![1, 1]);
    /// ```
    #[track_caller]
    pub fn ones() -> Self
    where
        S: StaticShape + Distinct,
    {
        Self::full_dyn((), T::ONE)
    }

    /// A tensor of ones, with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<i32, shape![Dyn]>::try_ones_dyn(2)?;
    /// assert_eq!(x.to_vec(), vec![1, 1]);
    /// assert!(Tensor::<i32, shape![Dyn]>::try_ones_dyn(usize::MAX).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_ones_dyn(sizes: impl DynSizes<S>) -> Result<Self>
    where
        S: Distinct,
    {
        Self::try_full_dyn(sizes, T::ONE)
    }

    /// A tensor of ones, with the sizes of the `Dyn` axes.
    ///
    /// # Panics
    /// As [`try_ones_dyn`](Self::try_ones_dyn), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<u8, shape![Dyn]>::ones_dyn(3).to_vec(), vec![1, 1, 1]);
    /// ```
    #[track_caller]
    pub fn ones_dyn(sizes: impl DynSizes<S>) -> Self
    where
        S: Distinct,
    {
        or_panic(Self::try_ones_dyn(sizes))
    }

    /// A tensor filled with `value`.
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<f64, shape![2, 2]>::full(1.5).to_vec(), vec![1.5; 4]);
    /// ```
    #[track_caller]
    pub fn full(value: T) -> Self
    where
        S: StaticShape + Distinct,
    {
        Self::full_dyn((), value)
    }

    /// A tensor filled with `value`, with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<i64, shape![Dyn, 2]>::try_full_dyn(2, 7)?;
    /// assert_eq!(x.to_vec(), vec![7; 4]);
    /// assert!(Tensor::<i64, shape![Dyn, 2]>::try_full_dyn(usize::MAX, 7).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_full_dyn(sizes: impl DynSizes<S>, value: T) -> Result<Self>
    where
        S: Distinct,
    {
        Self::try_full_on(&D::default(), sizes, value)
    }

    /// A tensor filled with `value`, with the sizes of the `Dyn` axes.
    ///
    /// # Panics
    /// As [`try_full_dyn`](Self::try_full_dyn), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<i64, shape![Dyn, 2]>::full_dyn(2, 7).to_vec(), vec![7; 4]);
    /// ```
    #[track_caller]
    pub fn full_dyn(sizes: impl DynSizes<S>, value: T) -> Self
    where
        S: Distinct,
    {
        or_panic(Self::try_full_dyn(sizes, value))
    }

    /// `0, 1, 2, ...` in row-major order (`torch.arange(numel).view(shape)`).
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let grid = Tensor::<i64, shape![2, 3]>::arange();
    /// assert_eq!(grid.to_vec(), vec![0, 1, 2, 3, 4, 5]);
    /// ```
    #[track_caller]
    pub fn arange() -> Self
    where
        S: StaticShape + Distinct,
    {
        Self::arange_dyn(())
    }

    /// `0, 1, 2, ...` in row-major order, with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<i64, shape![Dyn, 2]>::try_arange_dyn(2)?;
    /// assert_eq!(x.to_vec(), vec![0, 1, 2, 3]);
    /// assert!(Tensor::<i64, shape![Dyn, Dyn]>::try_arange_dyn([usize::MAX, 3]).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_arange_dyn(sizes: impl DynSizes<S>) -> Result<Self>
    where
        S: Distinct,
    {
        Self::try_arange_on(&D::default(), sizes)
    }

    /// `0, 1, 2, ...` in row-major order, with the sizes of the `Dyn` axes.
    ///
    /// # Panics
    /// As [`try_arange_dyn`](Self::try_arange_dyn), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<f32, shape![Dyn]>::arange_dyn(3).to_vec(), vec![0.0, 1.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn arange_dyn(sizes: impl DynSizes<S>) -> Self
    where
        S: Distinct,
    {
        or_panic(Self::try_arange_dyn(sizes))
    }

    /// `numel` values evenly spaced from `start` to `end`, both included, in
    /// row-major order (`torch.linspace(start, end, numel).view(shape)`).
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![5]>::linspace(0.0, 1.0);
    /// assert_eq!(x.to_vec(), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    /// ```
    #[track_caller]
    pub fn linspace(start: f64, end: f64) -> Self
    where
        S: StaticShape + Distinct,
        T: Float,
    {
        Self::linspace_dyn((), start, end)
    }

    /// As [`linspace`](Self::linspace), with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn]>::try_linspace_dyn(3, 0.0, 1.0)?;
    /// assert_eq!(x.to_vec(), vec![0.0, 0.5, 1.0]);
    /// assert!(Tensor::<f32, shape![Dyn, Dyn]>::try_linspace_dyn([usize::MAX, 2], 0.0, 1.0).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_linspace_dyn(sizes: impl DynSizes<S>, start: f64, end: f64) -> Result<Self>
    where
        S: Distinct,
        T: Float,
    {
        let sizes = sizes.sizes();
        let numel = checked_numel("linspace", &sizes)?;
        let flat = RawTensor::linspace_on(&D::default(), start, end, numel, T::DTYPE)?;
        Ok(Self::contiguous_as(flat, &sizes))
    }

    /// As [`linspace`](Self::linspace), with the sizes of the `Dyn` axes.
    ///
    /// # Panics
    /// As [`try_linspace_dyn`](Self::try_linspace_dyn), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![Dyn]>::linspace_dyn(3, -1.0, 1.0);
    /// assert_eq!(x.to_vec(), vec![-1.0, 0.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn linspace_dyn(sizes: impl DynSizes<S>, start: f64, end: f64) -> Self
    where
        S: Distinct,
        T: Float,
    {
        or_panic(Self::try_linspace_dyn(sizes, start, end))
    }

    /// The identity: ones on the main diagonal of a tensor with two axes.
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<i64, shape![2, 3]>::eye().to_vec(), vec![1, 0, 0, 0, 1, 0]);
    /// ```
    #[track_caller]
    pub fn eye() -> Self
    where
        S: StaticShape + Distinct,
        S::Rank: IsEqual<U2, Output: Answer>,
        TruthOf<<S::Rank as IsEqual<U2>>::Output>: TwoAxes<Eye, S::Display>,
    {
        Self::eye_dyn(())
    }

    /// The identity, with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let i = Tensor::<u8, shape![Dyn, Dyn]>::try_eye_dyn([2, 3])?;
    /// assert_eq!(i.to_vec(), vec![1, 0, 0, 0, 1, 0]);
    /// assert!(Tensor::<u8, shape![Dyn, Dyn]>::try_eye_dyn([usize::MAX, 2]).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_eye_dyn(sizes: impl DynSizes<S>) -> Result<Self>
    where
        S: Distinct,
        S::Rank: IsEqual<U2, Output: Answer>,
        TruthOf<<S::Rank as IsEqual<U2>>::Output>: TwoAxes<Eye, S::Display>,
    {
        let sizes = sizes.sizes();
        let (n, m) = (sizes[0], sizes[1]);
        Ok(owned(RawTensor::eye_on(&D::default(), n, m, T::DTYPE)?))
    }

    /// The identity, with the sizes of the `Dyn` axes.
    ///
    /// # Panics
    /// As [`try_eye_dyn`](Self::try_eye_dyn), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let i = Tensor::<f32, shape![Dyn, Dyn]>::eye_dyn([2, 2]);
    /// assert_eq!(i.to_vec(), vec![1.0, 0.0, 0.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn eye_dyn(sizes: impl DynSizes<S>) -> Self
    where
        S: Distinct,
        S::Rank: IsEqual<U2, Output: Answer>,
        TruthOf<<S::Rank as IsEqual<U2>>::Output>: TwoAxes<Eye, S::Display>,
    {
        or_panic(Self::try_eye_dyn(sizes))
    }
}
