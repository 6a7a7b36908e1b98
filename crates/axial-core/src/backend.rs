//! What a device computes: the kernel entry points, over operands that are
//! already broadcast to one shape and cast to the dtypes the op needs.
//!
//! The device-independent layer ([`crate::TensorRef`] and friends) does
//! broadcasting, promotion, output allocation and the overlap checks; a device
//! implements only the loops.

use crate::{
    ArgReduceOp, BinaryOp, CmpOp, DType, Device, Layout, ReduceOp, Result, Scalar, Storage, UnaryOp,
};

/// An operand a kernel reads: a layout over a storage, or over the output's
/// own storage (an in-place op reading what it writes).
pub struct Input<'a, D: Device> {
    /// The storage, or `None` for the output's storage.
    pub storage: Option<&'a Storage<D>>,
    /// Where the elements are; the same shape as the output.
    pub layout: Layout,
    /// Their dtype.
    pub dtype: DType,
}

/// The operand a kernel writes.
pub struct Output<'a, D: Device> {
    /// The storage written.
    pub storage: &'a mut Storage<D>,
    /// Where the elements go; without internal overlap.
    pub layout: Layout,
    /// Their dtype.
    pub dtype: DType,
}

/// The kernels of a device. Every method checks that each layout fits in its
/// storage before it reads or writes, and returns `Err` otherwise.
pub trait Backend: Device {
    /// `dst.copy_(src)`: same shapes; converts between any two dtypes.
    fn copy(&self, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()>;

    /// `dst.fill_(value)`, the value converted to `dst`'s dtype.
    fn fill(&self, dst: Output<'_, Self>, value: Scalar) -> Result<()>;

    /// `dst = op(src)`: `src` and `dst` share a dtype (for
    /// [`UnaryOp::LogicalNot`], `dst` is bool).
    fn unary(&self, op: UnaryOp, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()>;

    /// `dst = op(lhs, rhs)`: all three share a dtype (for the logical ops, `dst` is bool).
    fn binary(
        &self,
        op: BinaryOp,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = op(lhs, rhs)`: `lhs` and `rhs` share a dtype; `dst` is bool.
    fn compare(
        &self,
        op: CmpOp,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = where(cond, a, b)`: `cond` is bool; `a`, `b`, `dst` share a dtype.
    fn select_where(
        &self,
        cond: Input<'_, Self>,
        a: Input<'_, Self>,
        b: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// Reduces `src` over `dims` into `dst`, whose layout is `src`'s shape with
    /// those dims of size 1; `dst`'s dtype is [`ReduceOp::output_dtype`].
    fn reduce(
        &self,
        op: ReduceOp,
        src: Input<'_, Self>,
        dims: &[usize],
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// Index of the max/min along `dim` into the i64 `dst` (shape as in `reduce`).
    fn arg_reduce(
        &self,
        op: ArgReduceOp,
        src: Input<'_, Self>,
        dim: usize,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = lhs @ rhs` for `[..., M, K] @ [..., K, N] -> [..., M, N]`, with the
    /// batch dims equal (already broadcast); one float dtype throughout.
    fn matmul(
        &self,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;
}
