//! The CPU's [`Backend`]: each entry point in its own module.

use super::{Cpu, arg_reduce, binary, compare, copy, fill, matmul, reduce, select, unary};
use crate::{
    Arg, ArgReduceOp, Backend, BinaryOp, CmpOp, Input, Output, ReduceOp, Result, Scalar, UnaryOp,
};

impl Backend for Cpu {
    fn copy(&self, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        copy::copy(src, dst)
    }

    fn fill(&self, dst: Output<'_, Self>, value: Scalar) -> Result<()> {
        fill::fill(dst, value)
    }

    fn unary(&self, op: UnaryOp, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        unary::unary(op, src, dst)
    }

    fn binary(
        &self,
        op: BinaryOp,
        lhs: Arg<'_, Self>,
        rhs: Arg<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        binary::binary(op, lhs, rhs, dst)
    }

    fn compare(
        &self,
        op: CmpOp,
        lhs: Arg<'_, Self>,
        rhs: Arg<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        compare::compare(op, lhs, rhs, dst)
    }

    fn select_where(
        &self,
        cond: Input<'_, Self>,
        a: Input<'_, Self>,
        b: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        select::select_where(cond, a, b, dst)
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
