//! Primitives run on a device into new tensors: the steps of the fused
//! ops' composite defaults (a device without a kernel of its own for
//! softmax, layer norm, ... runs these).

use crate::tensor::alloc_output;
use crate::{
    Backend, BinaryOp, DType, Input, Layout, Output, RawTensor, ReduceOp, Result, TensorRef,
    UnaryOp,
};

/// The dtype a composite computes `dtype` in: f32 for f16 and bf16.
pub(crate) fn wide(dtype: DType) -> DType {
    match dtype {
        DType::F16 | DType::BF16 => DType::F32,
        other => other,
    }
}

/// A contiguous copy of `src` (the output's storage when it has none) in
/// `dtype`.
pub(crate) fn own<D: Backend>(
    device: &D,
    src: &Input<'_, D>,
    dst: &Output<'_, D>,
    dtype: DType,
) -> Result<RawTensor<D>> {
    let mut out = alloc_output(device, Layout::contiguous(src.layout.shape()), dtype)?;
    let input = Input {
        storage: Some(src.storage.unwrap_or(&*dst.storage)),
        layout: src.layout.clone(),
        dtype: src.dtype,
    };
    device.copy(input, out.output())?;
    Ok(out)
}

/// `op` of `x` over `dims`, the dims kept as size 1.
pub(crate) fn reduced<D: Backend>(
    device: &D,
    op: ReduceOp,
    x: &RawTensor<D>,
    dims: &[usize],
) -> Result<RawTensor<D>> {
    let shape: Vec<usize> = (x.shape().iter().enumerate())
        .map(|(d, &n)| if dims.contains(&d) { 1 } else { n })
        .collect();
    let mut out = alloc_output(
        device,
        Layout::contiguous(&shape),
        op.output_dtype(x.dtype())?,
    )?;
    device.reduce(op, x.view().input(), dims, out.output())?;
    Ok(out)
}

/// `op(a, b)` with `b` broadcast to `a`'s shape, into a new tensor.
pub(crate) fn elementwise<D: Backend>(
    device: &D,
    op: BinaryOp,
    a: &RawTensor<D>,
    b: &TensorRef<'_, D>,
) -> Result<RawTensor<D>> {
    let mut out = alloc_output(
        device,
        Layout::contiguous(a.shape()),
        op.output_dtype(a.dtype())?,
    )?;
    let b = b.expand(&sizes(a.shape()))?;
    device.binary(op, a.view().input().into(), b.input().into(), out.output())?;
    Ok(out)
}

/// `a = op(a, b)`, `b` broadcast to `a`'s shape.
pub(crate) fn in_place<D: Backend>(
    device: &D,
    op: BinaryOp,
    a: &mut RawTensor<D>,
    b: &TensorRef<'_, D>,
) -> Result<()> {
    let b = b.expand(&sizes(a.shape()))?;
    let lhs = Input {
        storage: None,
        layout: a.layout().clone(),
        dtype: a.dtype(),
    };
    device.binary(op, lhs.into(), b.input().into(), a.output())
}

/// `op(x)` into a new tensor.
pub(crate) fn unary<D: Backend>(device: &D, op: UnaryOp, x: &RawTensor<D>) -> Result<RawTensor<D>> {
    let mut out = alloc_output(
        device,
        Layout::contiguous(x.shape()),
        op.output_dtype(x.dtype())?,
    )?;
    device.unary(op, x.view().input(), out.output())?;
    Ok(out)
}

/// `shape` as the sizes `expand` takes.
pub(crate) fn sizes(shape: &[usize]) -> Vec<isize> {
    shape.iter().map(|&n| n as isize).collect()
}
