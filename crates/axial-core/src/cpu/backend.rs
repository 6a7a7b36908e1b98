//! The CPU's [`Backend`]: each entry point in its own module; the CPU runs
//! every fused op with a kernel of its own.

use super::{
    Cpu, arg_reduce, binary, compare, copy, cumsum, fill, gather, matmul, norm, reduce, scatter,
    select, softmax, unary,
};
use crate::ops::{LayerNorm, ScatterAdd, Softmax};
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

    fn addmm(
        &self,
        bias: Input<'_, Self>,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        matmul::addmm(bias, lhs, rhs, dst)
    }

    fn softmax(&self, op: Softmax, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        softmax::softmax(op, src, dst)
    }

    fn layer_norm(
        &self,
        op: LayerNorm,
        src: Input<'_, Self>,
        weight: Option<Input<'_, Self>>,
        bias: Option<Input<'_, Self>>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        norm::layer_norm(op, src, weight, bias, dst)
    }

    fn index_select(
        &self,
        src: Input<'_, Self>,
        dim: usize,
        index: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        gather::index_select(src, dim, index, dst)
    }

    fn gather(
        &self,
        src: Input<'_, Self>,
        dim: usize,
        index: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        gather::gather(src, dim, index, dst)
    }

    fn cumsum(&self, src: Input<'_, Self>, dim: usize, dst: Output<'_, Self>) -> Result<()> {
        cumsum::cumsum(src, dim, dst)
    }

    fn scatter_add(
        &self,
        op: ScatterAdd,
        dst: Output<'_, Self>,
        index: Input<'_, Self>,
        src: Input<'_, Self>,
    ) -> Result<()> {
        scatter::scatter_add(op, dst, index, src)
    }
}
