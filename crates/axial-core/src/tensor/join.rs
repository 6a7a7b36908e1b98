//! Joining and cutting along a dim: `cat` and `stack` copy each input into
//! its slice of one new tensor; `split` and `chunk` are views.

use super::{RawTensor, TensorRef, alloc_output};
use crate::layout::wrap_dim;
use crate::ops::{Cat, Stack};
use crate::{Backend, DType, Error, Layout, Result};

impl<D: Backend> RawTensor<D> {
    /// `torch.cat(tensors, dim)`: the tensors one after another along `dim`;
    /// every other dim and the dtype must agree (axial does not promote).
    ///
    /// # Errors
    /// No tensors, ranks, sizes or dtypes that differ, or a dim out of range.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let a = RawTensor::from_vec(vec![1i64, 2], &[1, 2])?;
    /// let b = RawTensor::from_vec(vec![3i64, 4, 5, 6], &[2, 2])?;
    /// let c = RawTensor::cat(&[a.view(), b.view()], 0)?;
    /// assert_eq!((c.shape(), c.to_vec::<i64>()?), (&[3, 2][..], vec![1, 2, 3, 4, 5, 6]));
    /// let e = RawTensor::cat(&[a.view(), b.view()], 1).err().unwrap();
    /// assert!(e.to_string().contains("Expected size 1 but got size 2 for tensor number 1"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn cat(tensors: &[TensorRef<'_, D>], dim: isize) -> Result<RawTensor<D>> {
        let metas: Vec<(&[usize], DType)> =
            tensors.iter().map(|t| (t.shape(), t.dtype())).collect();
        let (op, shape) = Cat::new(dim, &metas)?;
        let (first, dim) = (&tensors[0], op.dim);
        let device = first.storage().device();
        let mut out = alloc_output(device, Layout::contiguous(&shape), first.dtype())?;
        let mut start = 0;
        for t in tensors {
            let n = t.shape()[dim];
            let mut slot = out.view_mut().narrow(dim as isize, start as isize, n)?;
            slot.copy_(t)?;
            start += n;
        }
        Ok(out)
    }

    /// `torch.stack(tensors, dim)`: the tensors, all of one shape, along a
    /// new dim at `dim`.
    ///
    /// # Errors
    /// No tensors, shapes or dtypes that differ, or a dim out of `0..=rank`.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let a = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// let b = RawTensor::from_vec(vec![3.0f32, 4.0], &[2])?;
    /// let s = RawTensor::stack(&[a.view(), b.view()], 1)?;
    /// assert_eq!((s.shape(), s.to_vec::<f32>()?), (&[2, 2][..], vec![1.0, 3.0, 2.0, 4.0]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn stack(tensors: &[TensorRef<'_, D>], dim: isize) -> Result<RawTensor<D>> {
        let shapes: Vec<&[usize]> = tensors.iter().map(|t| t.shape()).collect();
        let dim = Stack::new(dim, &shapes)?.dim as isize;
        let lifted = tensors
            .iter()
            .map(|t| t.unsqueeze(dim))
            .collect::<Result<Vec<_>>>()?;
        RawTensor::cat(&lifted, dim)
    }
}

impl<'a, D: Backend> TensorRef<'a, D> {
    /// `torch.split(x, sizes, dim)` with the sizes listed: views, one per
    /// size, which must add up to the dim's size.
    ///
    /// # Errors
    /// Sizes that do not add up, or a dim out of range.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec((0..6i32).collect(), &[6])?;
    /// let parts = x.view().split_with_sizes(&[1, 2, 3], 0)?;
    /// assert_eq!(parts[2].to_vec::<i32>()?, vec![3, 4, 5]);
    /// assert_eq!(parts[2].offset(), 3); // a view
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn split_with_sizes(&self, sizes: &[usize], dim: isize) -> Result<Vec<TensorRef<'a, D>>> {
        let d = wrap_dim(dim, self.dim())?;
        let total = self.shape()[d];
        if sizes.iter().sum::<usize>() != total {
            return Err(Error::invalid(
                "split_with_sizes",
                format!(
                    "split_with_sizes expects split_sizes to sum exactly to {total} (input tensor's size at dimension {d}), but got split_sizes={sizes:?}"
                ),
            ));
        }
        let mut start = 0;
        sizes
            .iter()
            .map(|&n| {
                let v = self.clone().narrow(d as isize, start as isize, n);
                start += n;
                v
            })
            .collect()
    }

    /// `torch.split(x, size, dim)`: views of `size` along `dim`, the last one
    /// shorter when `size` does not divide it.
    ///
    /// # Errors
    /// A zero `size` on a non-empty dim, or a dim out of range.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec((0..5i32).collect(), &[5])?;
    /// let sizes: Vec<usize> = x.view().split(2, 0)?.iter().map(|p| p.numel()).collect();
    /// assert_eq!(sizes, vec![2, 2, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn split(&self, size: usize, dim: isize) -> Result<Vec<TensorRef<'a, D>>> {
        let d = wrap_dim(dim, self.dim())?;
        let total = self.shape()[d];
        if size == 0 && total != 0 {
            return Err(Error::invalid(
                "split",
                format!(
                    "split_size can only be 0 if dimension size is 0, but got dimension size of {total}"
                ),
            ));
        }
        let mut sizes = vec![size; total.checked_div(size).unwrap_or(0)];
        if size != 0 && !total.is_multiple_of(size) {
            sizes.push(total % size);
        }
        if sizes.is_empty() {
            sizes.push(0);
        }
        self.split_with_sizes(&sizes, dim)
    }

    /// `torch.chunk(x, chunks, dim)`: views of `⌈size / chunks⌉` along `dim`
    /// (fewer than `chunks` when that size leaves none for the last ones, as
    /// PyTorch's).
    ///
    /// # Errors
    /// Zero chunks, or a dim out of range.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let qkv = RawTensor::zeros(&[2, 12], axial_core::DType::F32)?;
    /// let parts = qkv.view().chunk(3, -1)?;
    /// assert_eq!(parts.iter().map(|p| p.shape()[1]).collect::<Vec<_>>(), vec![4, 4, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn chunk(&self, chunks: usize, dim: isize) -> Result<Vec<TensorRef<'a, D>>> {
        if chunks == 0 {
            return Err(Error::invalid(
                "chunk",
                "chunk expects `chunks` to be greater than 0, got: 0",
            ));
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.shape()[d].div_ceil(chunks);
        self.split(size, dim)
    }
}
