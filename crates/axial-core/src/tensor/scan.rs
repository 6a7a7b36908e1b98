//! `cumsum`: the running sum along a dim.

use super::{RawTensor, TensorRef, alloc_output};
use crate::ops::Cumsum;
use crate::{Backend, Layout, Result};

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.cumsum(x, dim)`: running sums along `dim`; integers and bool
    /// give i64 (as PyTorch), floats keep their dtype (f16 and bf16 add in f32).
    ///
    /// # Errors
    /// A dim out of range.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let mask = RawTensor::from_vec(vec![1u8, 1, 0, 1], &[4])?;
    /// let pos = mask.view().cumsum(0)?;
    /// assert_eq!((pos.dtype(), pos.to_vec::<i64>()?), (DType::I64, vec![1, 2, 2, 3]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn cumsum(&self, dim: isize) -> Result<RawTensor<D>> {
        let (op, dtype) = Cumsum::new(dim, self.dtype, self.dim())?;
        let converted = if dtype == self.dtype {
            None
        } else {
            Some(self.to_dtype(dtype)?)
        };
        let src = converted
            .as_ref()
            .map_or_else(|| self.clone(), RawTensor::view);
        let layout = Layout::contiguous(self.shape());
        let mut out = alloc_output(self.storage.device(), layout, dtype)?;
        self.storage
            .device()
            .cumsum(src.input(), op.dim, out.output())?;
        Ok(out)
    }
}
