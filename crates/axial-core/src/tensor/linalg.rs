//! `matmul` with PyTorch's rules for 1-D operands and broadcast batch dims.

use super::{RawTensor, TensorRef, alloc_output};
use crate::ops::Matmul;
use crate::ops::compose::sizes;
use crate::{Backend, Layout, Result};

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.matmul`: dot for 1-D·1-D, matrix products over the last two dims
    /// with the batch dims broadcast; a 1-D operand gets a unit dim that is
    /// dropped from the result. One dtype on both sides, of those PyTorch
    /// multiplies on the CPU: the floats (f16 and bf16 in f32, rounded
    /// once), the complex dtypes, and the integers but uint16/32/64; the
    /// float8s for a right operand of rank 2 (PyTorch's `mm`; in f32,
    /// rounded once).
    ///
    /// # Overflow
    /// Integer products wrap around, as integer `add` and `mul` do (and
    /// PyTorch's integer products): the result is the exact one modulo
    /// 2^bits, whatever the order of the sums.
    ///
    /// # Errors
    /// Contracted sizes that differ, batch dims that do not broadcast, mixed
    /// dtypes or a dtype PyTorch's kernel for these ranks lacks (with its
    /// message), or a 0-dim operand.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let a = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let b = RawTensor::from_vec(vec![1.0f32, 1.0], &[2])?;
    /// assert_eq!(a.view().matmul(&b.view())?.to_vec::<f32>()?, vec![3.0, 7.0]);
    ///
    /// let x = RawTensor::from_vec(vec![100i8, 100], &[1, 2])?;
    /// let y = RawTensor::from_vec(vec![2i8, 1], &[2, 1])?;
    /// assert_eq!(x.view().matmul(&y.view())?.to_vec::<i8>()?, vec![44]); // 300 − 256
    ///
    /// let f8 = a.view().to_dtype(DType::F8E4M3Fn)?;
    /// assert!(f8.view().matmul(&f8.view()).is_ok());
    /// assert_eq!(
    ///     f8.view().matmul(&f8.view().select(1, 0)?).err().unwrap().to_string(),
    ///     "\"addmv_impl_cpu\" not implemented for 'Float8_e4m3fn'"
    /// );
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
