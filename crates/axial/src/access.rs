//! Elements: read one, write one, fill, copy out, convert, move devices.

use std::ops::{Index, IndexMut};

use axial_core::layout::AxisIndex;
use axial_core::{Backend, Cpu, Device, Element, RawTensor, Result, Scalar};
use axial_shape::report::OneElement;
use axial_shape::{RankIs, Shape, SizeEq};
use typenum::U1;

use crate::or_panic::or_panic;
use crate::repr::{Data, DataMut, Owned, Shared};
use crate::tensor::{ArcTensor, Tensor, TensorBase};

/// A shape with exactly one element (proven when its sizes are static).
///
/// What [`item`](crate::TensorBase::item) asks of the shape; a `Dyn` size is
/// checked at run time.
///
/// ```
/// use axial::prelude::*;
/// use axial::OneElementShape;
/// fn only<S: OneElementShape>(x: &Tensor<i32, S>) -> i32 {
///     x.item()
/// }
/// assert_eq!(only(&Tensor::<i32, shape![1, 1]>::full(7)), 7);
/// assert_eq!(only(&Tensor::<i32, shape![Dyn]>::full_dyn(1, 3)), 3);
/// ```
pub trait OneElementShape: Shape {}

impl<S: Shape> OneElementShape for S
where
    S::Numel: SizeEq<U1>,
    <S::Numel as SizeEq<U1>>::Out: OneElement<S::Display>,
{
}

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// The element at `index`, one coordinate per axis: unsigned, as
    /// [`sizes`](Self::sizes) are, or signed, negative counting from the end
    /// (any [`AxisIndex`](crate::AxisIndex)).
    ///
    /// # Errors
    /// A coordinate outside its axis.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let m = Tensor::<f32, shape![3, 4]>::arange();
    /// assert_eq!(m.try_get([1, -1])?, 7.0);
    /// assert!(m.try_get([3, 0]).is_err());
    /// let [rows, cols] = [m.sizes()[0], m.sizes()[1]];
    /// assert_eq!(m.try_get([rows - 1, cols - 1])?, 11.0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_get<const N: usize>(&self, index: [impl AxisIndex; N]) -> Result<T>
    where
        S: RankIs<N>,
    {
        self.raw().get(&index)
    }

    /// The element at `index`.
    ///
    /// # Panics
    /// As [`try_get`](Self::try_get), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<i64, shape![2, 3]>::arange().get([1, 2]), 5);
    /// ```
    #[track_caller]
    pub fn get<const N: usize>(&self, index: [impl AxisIndex; N]) -> T
    where
        S: RankIs<N>,
    {
        or_panic(self.try_get(index))
    }

    /// The one element of a one-element tensor (`x.item()`).
    ///
    /// # Errors
    /// The tensor has another number of elements (only possible with `Dyn` sizes).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<f32, shape![Dyn]>::full_dyn(1, 2.5).try_item()?, 2.5);
    /// assert!(Tensor::<f32, shape![Dyn]>::zeros_dyn(2).try_item().is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_item(&self) -> Result<T>
    where
        S: OneElementShape,
    {
        self.raw().item()
    }

    /// The one element of a one-element tensor.
    ///
    /// # Panics
    /// As [`try_item`](Self::try_item), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<i32, shape![1, 1]>::full(4).item(), 4);
    /// ```
    #[track_caller]
    pub fn item(&self) -> T
    where
        S: OneElementShape,
    {
        or_panic(self.try_item())
    }

    /// The elements in row-major order, copied to the host.
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows, Cols);
    /// let m = Tensor::<i64, shape![Rows: 2, Cols: 3]>::arange();
    /// assert_eq!(m.t().try_to_vec()?, vec![0, 3, 1, 4, 2, 5]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_vec(&self) -> Result<Vec<T>> {
        self.raw().to_vec()
    }

    /// The elements in row-major order.
    ///
    /// # Panics
    /// As [`try_to_vec`](Self::try_to_vec), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<u8, shape![3]>::arange().to_vec(), vec![0, 1, 2]);
    /// ```
    #[track_caller]
    pub fn to_vec(&self) -> Vec<T> {
        or_panic(self.try_to_vec())
    }

    /// A copy in a new storage, dense strides kept (PyTorch's `clone()`).
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows, Cols);
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
    /// let c = m.as_view().t().try_to_owned()?;
    /// assert_eq!(c.strides().as_slice(), &[1, 3]);
    /// assert!(!c.shares_storage_with(&m));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_owned(&self) -> Result<Tensor<T, S, D>> {
        Ok(owned(self.raw().to_owned()?))
    }

    /// A copy in a new storage.
    ///
    /// # Panics
    /// As [`try_to_owned`](Self::try_to_owned), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::ones();
    /// assert_eq!(x.as_view().to_owned().to_vec(), vec![1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn to_owned(&self) -> Tensor<T, S, D> {
        or_panic(self.try_to_owned())
    }

    /// The elements converted to `U`, with PyTorch's conversions (float to
    /// integer truncates toward zero).
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::from_array([1.5, -2.7]);
    /// assert_eq!(x.try_cast::<i32>()?.to_vec(), vec![1, -2]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cast<U: Element>(&self) -> Result<Tensor<U, S, D>> {
        Ok(owned(self.raw().to_dtype(U::DTYPE)?))
    }

    /// The elements converted to `U`.
    ///
    /// # Panics
    /// As [`try_cast`](Self::try_cast), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<i64, shape![2]>::arange().cast::<f64>().to_vec(), vec![0.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn cast<U: Element>(&self) -> Tensor<U, S, D> {
        or_panic(self.try_cast())
    }

    /// A contiguous copy on `device` (PyTorch's `to(device)`), the bytes
    /// moving straight between the two devices' memory.
    ///
    /// # Errors
    /// Either device failed, or is out of memory.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::ones();
    /// let y = x.try_to_device(&Cpu)?;
    /// assert!(!y.shares_storage_with(&x));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_device<D2: Device>(&self, device: &D2) -> Result<Tensor<T, S, D2>> {
        Ok(owned(axial_core::device::transfer(&self.raw(), device)?))
    }

    /// A contiguous copy on `device`.
    ///
    /// # Panics
    /// As [`try_to_device`](Self::try_to_device), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::ones().to_device(&Cpu);
    /// assert_eq!(x.to_vec(), vec![1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn to_device<D2: Device>(&self, device: &D2) -> Tensor<T, S, D2> {
        or_panic(self.try_to_device(device))
    }

    /// A contiguous copy in host memory.
    ///
    /// # Panics
    /// The device failed.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<f32, shape![1]>::ones().to_cpu().to_vec(), vec![1.0]);
    /// ```
    #[track_caller]
    pub fn to_cpu(&self) -> Tensor<T, S, Cpu> {
        self.to_device(&Cpu)
    }
}

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// Writes `value` at `index` (negative coordinates count from the end).
    ///
    /// # Errors
    /// A coordinate outside its axis.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let mut x = Tensor::<i32, shape![2, 2]>::zeros();
    /// x.try_set([0, 1], 5)?;
    /// assert!(x.try_set([2, 0], 5).is_err());
    /// assert_eq!(x.to_vec(), vec![0, 5, 0, 0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_set<const N: usize>(&mut self, index: [impl AxisIndex; N], value: T) -> Result<()>
    where
        S: RankIs<N>,
        R: DataMut<D>,
    {
        let at = self.layout.storage_index(&index)?;
        let size = T::DTYPE.size();
        let bytes = bytemuck::bytes_of(&value);
        let storage = self.data.storage_mut();
        let device = storage.device().clone();
        device.copy_from_host(storage.buffer_mut(), at * size, bytes)
    }

    /// Writes `value` at `index`.
    ///
    /// # Panics
    /// As [`try_set`](Self::try_set), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let mut x = Tensor::<f32, shape![3]>::zeros();
    /// x.set([-1], 2.0);
    /// assert_eq!(x.to_vec(), vec![0.0, 0.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn set<const N: usize>(&mut self, index: [impl AxisIndex; N], value: T)
    where
        S: RankIs<N>,
        R: DataMut<D>,
    {
        or_panic(self.try_set(index, value))
    }

    /// Writes `value` to every element (`x.fill_(value)`).
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let mut x = Tensor::<f32, shape![2]>::zeros();
    /// x.try_fill_(3.0)?;
    /// assert_eq!(x.to_vec(), vec![3.0, 3.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_fill_(&mut self, value: T) -> Result<()>
    where
        R: DataMut<D>,
    {
        self.raw_mut().fill_(Scalar::of(value))
    }

    /// Writes `value` to every element.
    ///
    /// # Panics
    /// As [`try_fill_`](Self::try_fill_), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows, Cols);
    /// let mut m = Tensor::<i64, shape![Rows: 2, Cols: 2]>::zeros();
    /// m.as_view_mut().select::<Cols>(0).fill_(1);
    /// assert_eq!(m.to_vec(), vec![1, 0, 1, 0]);
    /// ```
    #[track_caller]
    pub fn fill_(&mut self, value: T)
    where
        R: DataMut<D>,
    {
        or_panic(self.try_fill_(value))
    }

    /// Writes zeros to every element.
    ///
    /// # Panics
    /// The device failed.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let mut x = Tensor::<f32, shape![2]>::ones();
    /// x.zero_();
    /// assert_eq!(x.to_vec(), vec![0.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn zero_(&mut self)
    where
        R: DataMut<D>,
    {
        self.fill_(T::ZERO)
    }
}

impl<T: Element, S: Shape, D: Device> Tensor<T, S, D> {
    /// This tensor as an [`ArcTensor`], without copying: clones share the
    /// storage until one writes.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let a = Tensor::<f32, shape![2]>::zeros().into_shared();
    /// let b = a.clone();
    /// assert!(a.shares_storage_with(&b));
    /// ```
    pub fn into_shared(self) -> ArcTensor<T, S, D> {
        TensorBase::from_parts(Shared(std::sync::Arc::new(self.data.0)), self.layout)
    }
}

/// A core tensor as a typed one (the shape type is the caller's to get right).
pub(crate) fn owned<T, S, D: Device>(raw: RawTensor<D>) -> Tensor<T, S, D> {
    let (storage, layout, _) = raw.into_parts();
    TensorBase::from_parts(Owned(storage), layout)
}

/// The element of a CPU tensor at `index`, by reference.
fn element_at<T: Element>(storage: &[u8], at: usize) -> &T {
    let size = T::DTYPE.size();
    bytemuck::from_bytes(&storage[at * size..(at + 1) * size])
}

impl<T: Element, S: RankIs<N>, R: Data<Cpu>, I: AxisIndex, const N: usize> Index<[I; N]>
    for TensorBase<T, S, Cpu, R>
{
    type Output = T;

    /// `x[[i, j]]`.
    ///
    /// # Panics
    /// A coordinate outside its axis.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let m = Tensor::<f32, shape![2, 3]>::arange();
    /// assert_eq!(m[[1, 2]], 5.0);
    /// ```
    #[track_caller]
    fn index(&self, index: [I; N]) -> &T {
        let at = or_panic(self.layout.storage_index(&index));
        element_at(self.data.storage().as_bytes(), at)
    }
}

impl<T: Element, S: RankIs<N>, R: DataMut<Cpu>, I: AxisIndex, const N: usize> IndexMut<[I; N]>
    for TensorBase<T, S, Cpu, R>
{
    /// `x[[i, j]] = v`.
    ///
    /// # Panics
    /// A coordinate outside its axis.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let mut m = Tensor::<f32, shape![2, 3]>::zeros();
    /// m[[0, 1]] = 4.0;
    /// assert_eq!(m.to_vec(), vec![0.0, 4.0, 0.0, 0.0, 0.0, 0.0]);
    /// ```
    #[track_caller]
    fn index_mut(&mut self, index: [I; N]) -> &mut T {
        let at = or_panic(self.layout.storage_index(&index));
        let size = T::DTYPE.size();
        let bytes = self.data.storage_mut().as_bytes_mut();
        bytemuck::from_bytes_mut(&mut bytes[at * size..(at + 1) * size])
    }
}
