//! The CPU's [`Backend`]: each entry point in its own module.

use super::{Cpu, arg_reduce, copy, fill, matmul, reduce};
use crate::{
    ArgReduceOp, Backend, BinaryOp, CmpOp, Error, Input, Output, ReduceOp, Result, Scalar, UnaryOp,
};

impl Backend for Cpu {
    fn copy(&self, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        copy::copy(src, dst)
    }

    fn fill(&self, dst: Output<'_, Self>, value: Scalar) -> Result<()> {
        fill::fill(dst, value)
    }

    fn unary(&self, op: UnaryOp, src: Input<'_, Self>, _dst: Output<'_, Self>) -> Result<()> {
        Err(Error::Unsupported {
            op: op.name(),
            dtype: src.dtype,
        })
    }

    fn binary(
        &self,
        op: BinaryOp,
        lhs: Input<'_, Self>,
        _rhs: Input<'_, Self>,
        _dst: Output<'_, Self>,
    ) -> Result<()> {
        Err(Error::Unsupported {
            op: op.name(),
            dtype: lhs.dtype,
        })
    }

    fn compare(
        &self,
        op: CmpOp,
        lhs: Input<'_, Self>,
        _rhs: Input<'_, Self>,
        _dst: Output<'_, Self>,
    ) -> Result<()> {
        Err(Error::Unsupported {
            op: op.name(),
            dtype: lhs.dtype,
        })
    }

    fn select_where(
        &self,
        _cond: Input<'_, Self>,
        a: Input<'_, Self>,
        _b: Input<'_, Self>,
        _dst: Output<'_, Self>,
    ) -> Result<()> {
        Err(Error::Unsupported {
            op: "where",
            dtype: a.dtype,
        })
    }

    fn reduce(
        &self,
        op: ReduceOp,
        src: Input<'_, Self>,
        dims: &[usize],
        dst: Output<'_, Self>,
    ) -> Result<()> {
        reduce::reduce(op, src, dims, dst)
    }

    fn arg_reduce(
        &self,
        op: ArgReduceOp,
        src: Input<'_, Self>,
        dim: usize,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        arg_reduce::arg_reduce(op, src, dim, dst)
    }

    fn matmul(
        &self,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        matmul::matmul(lhs, rhs, dst)
    }
}
