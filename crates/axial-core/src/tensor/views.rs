//! View ops on [`TensorRef`] and [`TensorMut`]: the [`Layout`] op, applied to
//! the same storage. Each returns a view; none copies.

use super::{MaybeOwned, TensorMut, TensorRef};
use crate::{Backend, Device, Layout, Result};

macro_rules! view_ops {
    ($ty:ident, $recv:ty, $get:ident) => {
        impl<'a, D: Device> $ty<'a, D> {
            /// `x[start:end:step]` along `dim` (see [`Layout::slice`]).
            ///
            /// # Errors
            /// As [`Layout::slice`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::from_vec((0..6i64).collect(), &[2, 3])?;
            /// let odd = x.view().slice(1, Some(1), None, 2)?; // x[:, 1::2]
            /// assert_eq!(odd.to_vec::<i64>()?, vec![1, 4]);
            /// assert_eq!(x.view_mut().slice(0, Some(-1), None, 1)?.shape(), &[1, 3]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn slice(
                self: $recv,
                dim: isize,
                start: Option<isize>,
                end: Option<isize>,
                step: isize,
            ) -> Result<Self> {
                let l = self.layout.slice(dim, start, end, step)?;
                Ok(self.$get(l))
            }

            /// `x.select(dim, index)` (see [`Layout::select`]).
            ///
            /// # Errors
            /// As [`Layout::select`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::from_vec((0..6i64).collect(), &[2, 3])?;
            /// assert_eq!(x.view().select(1, -1)?.to_vec::<i64>()?, vec![2, 5]); // x[:, -1]
            /// assert!(x.view_mut().select(0, 2).is_err());
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn select(self: $recv, dim: isize, index: isize) -> Result<Self> {
                let l = self.layout.select(dim, index)?;
                Ok(self.$get(l))
            }

            /// `x.narrow(dim, start, length)` (see [`Layout::narrow`]).
            ///
            /// # Errors
            /// As [`Layout::narrow`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::from_vec((0..6i64).collect(), &[2, 3])?;
            /// assert_eq!(x.view().narrow(1, 1, 2)?.to_vec::<i64>()?, vec![1, 2, 4, 5]);
            /// assert!(x.view_mut().narrow(1, 2, 2).is_err()); // past the end
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn narrow(self: $recv, dim: isize, start: isize, length: usize) -> Result<Self> {
                let l = self.layout.narrow(dim, start, length)?;
                Ok(self.$get(l))
            }

            /// `x.unsqueeze(dim)` (see [`Layout::unsqueeze`]).
            ///
            /// # Errors
            /// As [`Layout::unsqueeze`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::from_vec((0..6i64).collect(), &[2, 3])?;
            /// assert_eq!(x.view().unsqueeze(1)?.shape(), &[2, 1, 3]);
            /// assert_eq!(x.view_mut().unsqueeze(-1)?.shape(), &[2, 3, 1]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn unsqueeze(self: $recv, dim: isize) -> Result<Self> {
                let l = self.layout.unsqueeze(dim)?;
                Ok(self.$get(l))
            }

            /// `x.squeeze()`: every size-1 dim dropped.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[1, 3, 1], DType::F32)?;
            /// assert_eq!(x.view().squeeze().shape(), &[3]);
            /// assert_eq!(x.view_mut().squeeze().strides(), &[1]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn squeeze(self: $recv) -> Self {
                let l = self.layout.squeeze();
                self.$get(l)
            }

            /// `x.squeeze(dims)` (see [`Layout::squeeze_dims`]).
            ///
            /// # Errors
            /// As [`Layout::squeeze_dims`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[1, 3, 1], DType::F32)?;
            /// assert_eq!(x.view().squeeze_dims(&[0])?.shape(), &[3, 1]);
            /// assert_eq!(x.view_mut().squeeze_dims(&[1])?.shape(), &[1, 3, 1]); // size 3 stays
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn squeeze_dims(self: $recv, dims: &[isize]) -> Result<Self> {
                let l = self.layout.squeeze_dims(dims)?;
                Ok(self.$get(l))
            }

            /// `x.transpose(d0, d1)`.
            ///
            /// # Errors
            /// A dim out of range.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 3, 4], DType::F32)?;
            /// assert_eq!(x.view().transpose(0, -1)?.strides(), &[1, 4, 12]);
            /// assert!(x.view_mut().transpose(0, 3).is_err());
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn transpose(self: $recv, d0: isize, d1: isize) -> Result<Self> {
                let l = self.layout.transpose(d0, d1)?;
                Ok(self.$get(l))
            }

            /// `x.t()` (see [`Layout::t`]).
            ///
            /// # Errors
            /// Rank above 2.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::from_vec((0..6i64).collect(), &[2, 3])?;
            /// assert_eq!(x.view().t()?.to_vec::<i64>()?, vec![0, 3, 1, 4, 2, 5]);
            /// assert_eq!(x.view_mut().t()?.shape(), &[3, 2]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn t(self: $recv) -> Result<Self> {
                let l = self.layout.t()?;
                Ok(self.$get(l))
            }

            /// `x.permute(dims)` (see [`Layout::permute`]).
            ///
            /// # Errors
            /// As [`Layout::permute`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 3, 4], DType::F32)?;
            /// assert_eq!(x.view().permute(&[2, 0, 1])?.shape(), &[4, 2, 3]);
            /// assert!(x.view_mut().permute(&[0, 0, 1]).is_err()); // a repeated dim
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn permute(self: $recv, dims: &[isize]) -> Result<Self> {
                let l = self.layout.permute(dims)?;
                Ok(self.$get(l))
            }

            /// `x.movedim(source, destination)` (see [`Layout::movedim`]).
            ///
            /// # Errors
            /// As [`Layout::movedim`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 3, 4], DType::F32)?;
            /// assert_eq!(x.view().movedim(&[0], &[-1])?.shape(), &[3, 4, 2]);
            /// assert_eq!(x.view_mut().movedim(&[2], &[0])?.strides(), &[1, 12, 4]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn movedim(self: $recv, source: &[isize], destination: &[isize]) -> Result<Self> {
                let l = self.layout.movedim(source, destination)?;
                Ok(self.$get(l))
            }

            /// `x.diagonal(offset, d1, d2)` (see [`Layout::diagonal`]).
            ///
            /// # Errors
            /// As [`Layout::diagonal`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::from_vec((0..9i64).collect(), &[3, 3])?;
            /// assert_eq!(x.view().diagonal(0, 0, 1)?.to_vec::<i64>()?, vec![0, 4, 8]);
            /// assert_eq!(x.view_mut().diagonal(1, 0, 1)?.strides(), &[4]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn diagonal(self: $recv, offset: isize, d1: isize, d2: isize) -> Result<Self> {
                let l = self.layout.diagonal(offset, d1, d2)?;
                Ok(self.$get(l))
            }

            /// `x.unfold(dim, size, step)` (see [`Layout::unfold`]).
            ///
            /// # Errors
            /// As [`Layout::unfold`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::arange(0.0, 5.0, 1.0, DType::I64)?;
            /// let windows = x.view().unfold(0, 2, 1)?; // every window of 2
            /// assert_eq!(windows.to_vec::<i64>()?, vec![0, 1, 1, 2, 2, 3, 3, 4]);
            /// assert_eq!(x.view_mut().unfold(0, 2, 2)?.shape(), &[2, 2]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn unfold(self: $recv, dim: isize, size: usize, step: usize) -> Result<Self> {
                let l = self.layout.unfold(dim, size, step)?;
                Ok(self.$get(l))
            }

            /// `x.view(shape)` (see [`Layout::view`]).
            ///
            /// # Errors
            /// As [`Layout::view`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 6], DType::F32)?;
            /// assert_eq!(x.view().view(&[3, -1])?.shape(), &[3, 4]);
            /// assert!(x.view_mut().t()?.view(&[12]).is_err()); // a transpose needs a copy
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn view(self: $recv, shape: &[isize]) -> Result<Self> {
                let l = self.layout.view(shape)?;
                Ok(self.$get(l))
            }

            /// `x.unflatten(dim, sizes)` (see [`Layout::unflatten`]).
            ///
            /// # Errors
            /// As [`Layout::unflatten`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 6], DType::F32)?;
            /// assert_eq!(x.view().unflatten(1, &[2, -1])?.shape(), &[2, 2, 3]);
            /// assert!(x.view_mut().unflatten(1, &[4, 2]).is_err());
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn unflatten(self: $recv, dim: isize, sizes: &[isize]) -> Result<Self> {
                let l = self.layout.unflatten(dim, sizes)?;
                Ok(self.$get(l))
            }

            /// `x.as_strided(size, stride, offset)`, checked against the storage
            /// (see [`Layout::as_strided`]).
            ///
            /// # Errors
            /// As [`Layout::as_strided`].
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::arange(0.0, 4.0, 1.0, DType::I64)?;
            /// let pairs = x.view().as_strided(&[3, 2], &[1, 1], None)?; // overlapping windows
            /// assert_eq!(pairs.to_vec::<i64>()?, vec![0, 1, 1, 2, 2, 3]);
            /// assert!(x.view_mut().as_strided(&[5], &[1], None).is_err()); // past the storage
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn as_strided(
                self: $recv,
                size: &[usize],
                stride: &[isize],
                offset: Option<usize>,
            ) -> Result<Self> {
                let len = self.storage.len_of(self.dtype);
                let l = self
                    .layout
                    .as_strided(size, stride, offset, len, self.dtype.size())?;
                Ok(self.$get(l))
            }
        }
    };
}

impl<'a, D: Device> TensorRef<'a, D> {
    fn relayout(&self, layout: Layout) -> TensorRef<'a, D> {
        self.with_layout(layout)
    }

    /// `x.expand(sizes)` (see [`Layout::expand`]); read-only, so only on
    /// [`TensorRef`].
    ///
    /// # Errors
    /// As [`Layout::expand`].
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::zeros(&[3, 1], DType::F32)?;
    /// assert_eq!(x.view().expand(&[2, 3, 4])?.strides(), &[0, 1, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn expand(&self, sizes: &[isize]) -> Result<Self> {
        Ok(self.with_layout(self.layout.expand(sizes)?))
    }
}

impl<'a, D: Backend> TensorRef<'a, D> {
    /// `x.reshape(shape)`: a view when [`Layout::view`] succeeds, else a
    /// contiguous copy.
    ///
    /// # Errors
    /// A bad shape.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?;
    /// let m = x.view().view(&[2, 3])?;
    /// assert!(m.reshape(&[3, 2])?.is_view());
    /// assert!(!m.t()?.reshape(&[6])?.is_view());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reshape(&self, shape: &[isize]) -> Result<MaybeOwned<'a, D>> {
        match self.layout.reshape_view(shape)? {
            Some(l) => Ok(MaybeOwned::View(self.with_layout(l))),
            None => {
                let c = self.to_contiguous()?;
                let shape: Vec<isize> = crate::layout::infer_size(shape, self.numel())?
                    .iter()
                    .map(|&n| n as isize)
                    .collect();
                let (storage, _, dtype) = c.into_parts();
                let layout =
                    Layout::contiguous(&shape.iter().map(|&n| n as usize).collect::<Vec<_>>());
                Ok(MaybeOwned::Owned(super::RawTensor::from_parts(
                    storage, layout, dtype,
                )?))
            }
        }
    }

    /// `x.flatten(start, end)`: `self` unchanged when there is nothing to
    /// merge, else [`TensorRef::reshape`].
    ///
    /// # Errors
    /// A dim out of range, or `start` after `end`.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::zeros(&[2, 3, 4], DType::F32)?;
    /// assert_eq!(x.view().flatten(1, -1)?.as_ref().shape(), &[2, 12]);
    /// assert!(x.view().flatten(0, 1)?.is_view());
    /// assert!(!x.view().transpose(0, 2)?.flatten(0, -1)?.is_view());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn flatten(&self, start: isize, end: isize) -> Result<MaybeOwned<'a, D>> {
        let shape = self.layout.flatten_shape(start, end)?;
        if shape.as_slice() == self.shape() {
            return Ok(MaybeOwned::View(self.clone()));
        }
        let shape: Vec<isize> = shape.iter().map(|&n| n as isize).collect();
        self.reshape(&shape)
    }

    /// `x.contiguous()`: this view when already contiguous (the same storage),
    /// else a contiguous copy.
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?;
    /// let t = x.view().view(&[2, 3])?.t()?;
    /// let c = t.contiguous()?;
    /// assert!(!c.is_view() && c.as_ref().is_contiguous());
    /// assert_eq!(c.as_ref().to_vec::<f32>()?, vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn contiguous(&self) -> Result<MaybeOwned<'a, D>> {
        if self.is_contiguous() {
            return Ok(MaybeOwned::View(self.clone()));
        }
        Ok(MaybeOwned::Owned(self.to_contiguous()?))
    }
}

impl<'a, D: Device> TensorMut<'a, D> {
    fn relayout(self, layout: Layout) -> TensorMut<'a, D> {
        self.with_layout(layout)
    }
}

view_ops!(TensorRef, &Self, relayout);
view_ops!(TensorMut, Self, relayout);
