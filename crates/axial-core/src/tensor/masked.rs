//! Masks: `masked_fill` (an attention mask's `-inf`), `tril` and `triu`
//! (a causal mask), written with `where` over broadcast operands.

use super::{RawTensor, TensorRef};
use crate::ops::{MaskedFill, Triangle};
use crate::{Backend, BinaryOp, CmpOp, DType, Result, Scalar};

impl<D: Backend> TensorRef<'_, D> {
    /// `x.masked_fill(mask, value)`: `value` where the bool `mask` (broadcast
    /// to `x`'s shape) is true, `x` elsewhere.
    ///
    /// # Errors
    /// A mask that is not bool or does not broadcast to `x`'s shape, or a
    /// value out of the dtype's range.
    ///
    /// ```
    /// # use axial_core::{Bool, RawTensor, Scalar};
    /// let scores = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let padded = RawTensor::from_vec(vec![Bool::FALSE, Bool::TRUE], &[2])?; // per key
    /// let m = scores.view().masked_fill(&padded.view(), Scalar::Float(f64::NEG_INFINITY))?;
    /// assert_eq!(m.to_vec::<f32>()?, vec![1.0, f32::NEG_INFINITY, 3.0, f32::NEG_INFINITY]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn masked_fill(&self, mask: &TensorRef<'_, D>, value: Scalar) -> Result<RawTensor<D>> {
        MaskedFill::check(self.shape(), mask.shape(), mask.dtype())?;
        let fill = RawTensor::full_on(self.storage().device(), &[], value, self.dtype())?;
        mask.where_(&fill.view(), self)
    }

    /// `torch.tril(x, diagonal)`: the elements on and below the `diagonal`-th
    /// diagonal of the last two dims, zeros above.
    ///
    /// # Errors
    /// Fewer than 2 dims.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1i32; 9], &[3, 3])?;
    /// assert_eq!(x.view().tril(0)?.to_vec::<i32>()?, vec![1, 0, 0, 1, 1, 0, 1, 1, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn tril(&self, diagonal: i64) -> Result<RawTensor<D>> {
        self.triangle(Triangle {
            upper: false,
            diagonal,
        })
    }

    /// `torch.triu(x, diagonal)`: the elements on and above the `diagonal`-th
    /// diagonal of the last two dims, zeros below.
    ///
    /// # Errors
    /// Fewer than 2 dims.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1i32; 6], &[2, 3])?;
    /// assert_eq!(x.view().triu(1)?.to_vec::<i32>()?, vec![0, 1, 1, 0, 0, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn triu(&self, diagonal: i64) -> Result<RawTensor<D>> {
        self.triangle(Triangle {
            upper: true,
            diagonal,
        })
    }

    /// Keeps the elements whose `col − row` is at most (`tril`) or at least
    /// (`triu`) the diagonal.
    fn triangle(&self, op: Triangle) -> Result<RawTensor<D>> {
        op.check(self.shape())?;
        let (r, diagonal) = (self.dim(), op.diagonal);
        let cmp = if op.upper { CmpOp::Ge } else { CmpOp::Le };
        let (m, n) = (self.shape()[r - 2], self.shape()[r - 1]);
        let device = self.storage().device();
        let rows = RawTensor::arange_on(device, 0.0, m as f64, 1.0, DType::I64)?;
        let cols = RawTensor::arange_on(device, 0.0, n as f64, 1.0, DType::I64)?;
        let offset = cols
            .view()
            .view(&[1, n as isize])?
            .binary(BinaryOp::Sub, &rows.view().view(&[m as isize, 1])?)?;
        let k = RawTensor::full_on(device, &[], Scalar::Int(diagonal), DType::I64)?;
        let keep = offset.view().compare(cmp, &k.view())?;
        let zero = RawTensor::zeros_on(device, &[], self.dtype())?;
        keep.view().where_(self, &zero.view())
    }
}
