//! `matmul` with PyTorch's rules for 1-D operands and broadcast batch dims.

use super::{RawTensor, TensorRef, alloc_output};
use crate::ops::Matmul;
use crate::ops::compose::sizes;
use crate::{Backend, Layout, Result};

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.matmul`: dot for 1-D·1-D, matrix products over the last two dims
    /// with the batch dims broadcast; a 1-D operand gets a unit dim that is
    /// dropped from the result. Float dtypes (f16/bf16 included), equal on both sides.
    ///
    /// # Errors
    /// Contracted sizes that differ, batch dims that do not broadcast, mixed or
    /// integer dtypes, or a 0-dim operand.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let a = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let b = RawTensor::from_vec(vec![1.0f32, 1.0], &[2])?;
    /// assert_eq!(a.view().matmul(&b.view())?.to_vec::<f32>()?, vec![3.0, 7.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn matmul(&self, other: &TensorRef<'_, D>) -> Result<RawTensor<D>> {
        let shapes = Matmul::shapes(self.shape(), other.shape(), [self.dtype, other.dtype])?;
        let a = if self.dim() == 1 {
            self.unsqueeze(0)?
        } else {
            self.clone()
        };
        let b = if other.dim() == 1 {
            other.unsqueeze(-1)?
        } else {
            other.clone()
        };
        let (a, b) = (
            a.expand(&sizes(&shapes.lhs))?,
            b.expand(&sizes(&shapes.rhs))?,
        );
        let layout = Layout::contiguous(&shapes.out);
        let mut out = alloc_output(self.storage.device(), layout, self.dtype)?;
        self.storage
            .device()
            .matmul(a.input(), b.input(), out.output())?;
        out.layout = Layout::contiguous(&shapes.result);
        Ok(out)
    }
}
