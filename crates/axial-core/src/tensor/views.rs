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
            pub fn select(self: $recv, dim: isize, index: isize) -> Result<Self> {
                let l = self.layout.select(dim, index)?;
                Ok(self.$get(l))
            }

            /// `x.narrow(dim, start, length)` (see [`Layout::narrow`]).
            ///
            /// # Errors
            /// As [`Layout::narrow`].
            pub fn narrow(self: $recv, dim: isize, start: isize, length: usize) -> Result<Self> {
                let l = self.layout.narrow(dim, start, length)?;
                Ok(self.$get(l))
            }

            /// `x.unsqueeze(dim)` (see [`Layout::unsqueeze`]).
            ///
            /// # Errors
            /// As [`Layout::unsqueeze`].
            pub fn unsqueeze(self: $recv, dim: isize) -> Result<Self> {
                let l = self.layout.unsqueeze(dim)?;
                Ok(self.$get(l))
            }

            /// `x.squeeze()`: every size-1 dim dropped.
            pub fn squeeze(self: $recv) -> Self {
                let l = self.layout.squeeze();
                self.$get(l)
            }

            /// `x.squeeze(dims)` (see [`Layout::squeeze_dims`]).
            ///
            /// # Errors
            /// As [`Layout::squeeze_dims`].
            pub fn squeeze_dims(self: $recv, dims: &[isize]) -> Result<Self> {
                let l = self.layout.squeeze_dims(dims)?;
                Ok(self.$get(l))
            }

            /// `x.transpose(d0, d1)`.
            ///
            /// # Errors
            /// A dim out of range.
            pub fn transpose(self: $recv, d0: isize, d1: isize) -> Result<Self> {
                let l = self.layout.transpose(d0, d1)?;
                Ok(self.$get(l))
            }

            /// `x.t()` (see [`Layout::t`]).
            ///
            /// # Errors
            /// Rank above 2.
            pub fn t(self: $recv) -> Result<Self> {
                let l = self.layout.t()?;
                Ok(self.$get(l))
            }

            /// `x.permute(dims)` (see [`Layout::permute`]).
            ///
            /// # Errors
            /// As [`Layout::permute`].
            pub fn permute(self: $recv, dims: &[isize]) -> Result<Self> {
                let l = self.layout.permute(dims)?;
                Ok(self.$get(l))
            }

            /// `x.movedim(source, destination)` (see [`Layout::movedim`]).
            ///
            /// # Errors
            /// As [`Layout::movedim`].
            pub fn movedim(self: $recv, source: &[isize], destination: &[isize]) -> Result<Self> {
                let l = self.layout.movedim(source, destination)?;
                Ok(self.$get(l))
            }

            /// `x.diagonal(offset, d1, d2)` (see [`Layout::diagonal`]).
            ///
            /// # Errors
            /// As [`Layout::diagonal`].
            pub fn diagonal(self: $recv, offset: isize, d1: isize, d2: isize) -> Result<Self> {
                let l = self.layout.diagonal(offset, d1, d2)?;
                Ok(self.$get(l))
            }

            /// `x.unfold(dim, size, step)` (see [`Layout::unfold`]).
            ///
            /// # Errors
            /// As [`Layout::unfold`].
            pub fn unfold(self: $recv, dim: isize, size: usize, step: usize) -> Result<Self> {
                let l = self.layout.unfold(dim, size, step)?;
                Ok(self.$get(l))
            }

            /// `x.view(shape)` (see [`Layout::view`]).
            ///
            /// # Errors
            /// As [`Layout::view`].
            pub fn view(self: $recv, shape: &[isize]) -> Result<Self> {
                let l = self.layout.view(shape)?;
                Ok(self.$get(l))
            }

            /// `x.unflatten(dim, sizes)` (see [`Layout::unflatten`]).
            ///
            /// # Errors
            /// As [`Layout::unflatten`].
            pub fn unflatten(self: $recv, dim: isize, sizes: &[isize]) -> Result<Self> {
                let l = self.layout.unflatten(dim, sizes)?;
                Ok(self.$get(l))
            }

            /// `x.as_strided(size, stride, offset)`, checked against the storage
            /// (see [`Layout::as_strided`]).
            ///
            /// # Errors
            /// As [`Layout::as_strided`].
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
