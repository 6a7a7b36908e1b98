//! Reads by index: `index_select`, `embedding` and `gather`, every index
//! checked on the device before anything is written.

use super::{RawTensor, TensorRef, alloc_output};
use crate::ops::{Embedding, Gather, IndexSelect};
use crate::{Backend, Layout, Result};

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.index_select(x, dim, index)`: the slices of `x` along `dim` at
    /// the positions in `index` (1-D, i64), in that order.
    ///
    /// # Errors
    /// An index out of `0..size` (PyTorch's CPU kernel does not check every
    /// such index; axial refuses them all, and writes nothing), an index
    /// that is not a 1-D i64 tensor, or a dim out of range.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1i32, 2, 3, 4, 5, 6], &[2, 3])?;
    /// let i = RawTensor::from_vec(vec![2i64, 0, 2], &[3])?;
    /// assert_eq!(x.view().index_select(1, &i.view())?.to_vec::<i32>()?, vec![3, 1, 3, 6, 4, 6]);
    /// let bad = RawTensor::from_vec(vec![3i64], &[1])?;
    /// let e = x.view().index_select(1, &bad.view()).err().unwrap();
    /// assert_eq!(e.to_string(), "index_select: index 3 is out of bounds for dimension 1 with size 3");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn index_select(&self, dim: isize, index: &TensorRef<'_, D>) -> Result<RawTensor<D>> {
        let (op, shape) = IndexSelect::new(dim, self.shape(), index.numel())?;
        let layout = Layout::contiguous(&shape);
        let mut out = alloc_output(self.storage.device(), layout, self.dtype)?;
        self.storage
            .device()
            .index_select(self.input(), op.dim, index.input(), out.output())?;
        Ok(out)
    }

    /// `torch.nn.functional.embedding(ids, table)` with `self` the table
    /// `[Vocab, Dim]`: the rows at `ids` (i64, any shape), shaped
    /// `[*ids.shape, Dim]`.
    ///
    /// # Errors
    /// An id out of `0..Vocab` (PyTorch's "index out of range in self"), a
    /// table that is not 2-D, or ids that are not i64.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let table = RawTensor::from_vec(vec![0.0f32, 0.0, 1.0, 1.0, 2.0, 2.0], &[3, 2])?;
    /// let ids = RawTensor::from_vec(vec![2i64, 1, 1, 0], &[2, 2])?;
    /// let e = table.view().embedding(&ids.view())?;
    /// assert_eq!(e.shape(), &[2, 2, 2]);
    /// assert_eq!(e.to_vec::<f32>()?, vec![2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn embedding(&self, ids: &TensorRef<'_, D>) -> Result<RawTensor<D>> {
        let shape = Embedding::shape(self.shape(), ids.shape())?;
        let flat = ids.reshape(&[-1])?;
        let mut rows = self.index_select(0, &flat.as_ref())?;
        rows.layout = Layout::contiguous(&shape);
        Ok(rows)
    }

    /// `torch.gather(x, dim, index)`: `out[..., i, ...] = x[..., index[..., i,
    /// ...], ...]` along `dim`; `index` (i64) has the output's shape, its
    /// other dims at most `x`'s.
    ///
    /// # Errors
    /// An index out of range (refused before anything is written), or shapes
    /// that do not fit.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let i = RawTensor::from_vec(vec![0i64, 0, 1, 0], &[2, 2])?;
    /// assert_eq!(x.view().gather(1, &i.view())?.to_vec::<f32>()?, vec![1.0, 1.0, 4.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn gather(&self, dim: isize, index: &TensorRef<'_, D>) -> Result<RawTensor<D>> {
        let op = Gather::new(dim, self.dim())?;
        let layout = Layout::contiguous(index.shape());
        let mut out = alloc_output(self.storage.device(), layout, self.dtype)?;
        self.storage
            .device()
            .gather(self.input(), op.dim, index.input(), out.output())?;
        Ok(out)
    }
}
