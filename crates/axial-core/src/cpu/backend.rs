//! The CPU's [`Backend`]: each entry point in its own module; the CPU runs
//! every fused op with a kernel of its own.

use super::{
    Cpu, arg_reduce, binary, compare, conv, copy, cumsum, fill, gather, grad, infer, matmul, norm,
    optim, reduce, scatter, select, softmax, unary,
};
use crate::ops::{AdamUpdate, ChannelAffine, ConvArgs, LayerNorm, PoolArgs, ScatterAdd, Softmax};
use crate::{
    Arg, ArgReduceOp, Backend, BinaryOp, CmpOp, DType, Input, Output, RawTensor, ReduceOp, Result,
    Scalar, TensorRef, UnaryOp,
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

    fn conv(
        &self,
        op: &ConvArgs,
        x: Input<'_, Self>,
        weight: Input<'_, Self>,
        bias: Option<Input<'_, Self>>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        conv::forward::conv(x, weight, bias, dst, &conv_dims(op))
    }

    fn conv_transpose(
        &self,
        op: &ConvArgs,
        x: Input<'_, Self>,
        weight: Input<'_, Self>,
        bias: Option<Input<'_, Self>>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        let dims = conv::forward::ConvDims {
            clamp: None,
            ..conv_dims(op)
        };
        conv::transposed::conv_transpose(x, weight, bias, dst, &dims)
    }

    fn pool(
        &self,
        op: &PoolArgs,
        x: Input<'_, Self>,
        dst: Output<'_, Self>,
        indices: Option<Output<'_, Self>>,
    ) -> Result<()> {
        let dims = conv::pool::PoolDims {
            channel: op.channel,
            spatial: &op.spatial,
            kernel: &op.kernel,
            stride: &op.stride,
            dilation: &op.dilation,
            pad: &op.pad,
        };
        conv::pool::pool(x, dst, indices, &dims, op.reduction)
    }

    fn channel_affine(
        &self,
        op: &ChannelAffine,
        x: Input<'_, Self>,
        scale: &[f64],
        shift: &[f64],
        dst: Output<'_, Self>,
    ) -> Result<()> {
        conv::norm::affine(x, dst, op.channel, &op.spatial, scale, shift)
    }

    fn adam_update(
        &self,
        op: &AdamUpdate,
        param: Output<'_, Self>,
        grad: Input<'_, Self>,
        exp_avg: Output<'_, Self>,
        exp_avg_sq: Output<'_, Self>,
    ) -> Result<bool> {
        optim::adam_update(op, param, grad, exp_avg, exp_avg_sq)
    }

    fn unary_backward(
        &self,
        op: UnaryOp,
        x: Input<'_, Self>,
        g: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<bool> {
        grad::unary_backward(op, x, g, dst)
    }

    fn softmax_backward(
        &self,
        op: Softmax,
        y: Input<'_, Self>,
        g: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<bool> {
        grad::softmax_backward(op, y, g, dst)
    }

    fn layer_norm_backward(
        &self,
        op: LayerNorm,
        x: Input<'_, Self>,
        g: Input<'_, Self>,
        weight: Option<Input<'_, Self>>,
        grads: [Option<Output<'_, Self>>; 3],
    ) -> Result<bool> {
        grad::layer_norm_backward(op, x, g, weight, grads)
    }

    fn attention(
        &self,
        query: &TensorRef<'_, Self>,
        key: &TensorRef<'_, Self>,
        value: &TensorRef<'_, Self>,
        keep: Option<&TensorRef<'_, Self>>,
        scale: f64,
    ) -> Result<Option<RawTensor>> {
        // The kernel's case: f32, 4-D, the leading dims equal (no
        // broadcasting), the value's dim the query's, a bool mask.
        let f32s = [query, key, value].iter().all(|t| t.dtype() == DType::F32);
        let shapes = match (query.shape(), key.shape(), value.shape()) {
            (&[b, h, _, d], &[kb, kh, t, kd], &[vb, vh, vt, vd]) => {
                (kb, kh, kd) == (b, h, d) && (vb, vh, vt, vd) == (b, h, t, d)
            }
            _ => false,
        };
        let mask = keep.is_none_or(|m| m.dtype() == DType::Bool);
        if !(f32s && shapes && mask) {
            return Ok(None);
        }
        infer::attention(query, key, value, keep, scale).map(Some)
    }
}

/// The CPU kernels' view of a convolution's parameters.
fn conv_dims(op: &ConvArgs) -> conv::forward::ConvDims<'_> {
    conv::forward::ConvDims {
        channel: op.channel,
        spatial: &op.spatial,
        stride: &op.stride,
        dilation: &op.dilation,
        pad: &op.pad,
        groups: op.groups,
        clamp: op.clamp,
    }
}
