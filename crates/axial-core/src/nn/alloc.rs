//! Outputs of the window ops: allocated on their input's device, laid out
//! as their input.

use super::conv::ConvAxes;
use crate::{Cpu, DType, Device, Layout, Output, RawTensor, Result, Storage};

/// An uninitialised tensor of `layout` (dense, offset 0); the kernel that
/// fills it writes every element.
pub(crate) fn alloc(layout: Layout, dtype: DType) -> Result<RawTensor<Cpu>> {
    alloc_on(&Cpu, layout, dtype)
}

/// [`alloc`] on `device`.
pub(crate) fn alloc_on<D: Device>(
    device: &D,
    layout: Layout,
    dtype: DType,
) -> Result<RawTensor<D>> {
    let nbytes = layout
        .required_len()
        .checked_mul(dtype.size())
        .ok_or_else(|| crate::Error::invalid("alloc", "size overflows"))?;
    let storage = Storage::uninit(device, nbytes)?;
    RawTensor::from_parts(storage, layout, dtype)
}

/// The kernel operand that writes `t`.
pub(crate) fn output<D: Device>(t: &mut RawTensor<D>) -> Output<'_, D> {
    let (layout, dtype) = (t.layout().clone(), t.dtype());
    Output {
        storage: t.storage_mut(),
        layout,
        dtype,
    }
}

/// Dense strides for `shape` with the dims in `order` (outermost first).
pub(crate) fn dense_in_order(shape: &[usize], order: &[usize]) -> Layout {
    let mut strides = vec![0isize; shape.len()];
    let mut acc = 1isize;
    for &d in order.iter().rev() {
        strides[d] = acc;
        acc *= shape[d].max(1) as isize;
    }
    Layout::from_parts(shape, &strides, 0)
}

/// `shape` laid out in `like`'s memory order (PyTorch's `preserve_format`).
pub(crate) fn like(like: &Layout, shape: &[usize]) -> Layout {
    let mut order: Vec<usize> = like.dims_by_stride().into_iter().collect();
    order.reverse();
    dense_in_order(shape, &order)
}

/// The layout of a convolution's or pooling's output of `shape`: the batch
/// dims outermost, then the channel and spatial dims, channels innermost
/// when they are innermost in the input `x` (channels-last stays
/// channels-last), else outermost. The spatial dims are adjacent and in
/// order, so their positions merge into one stride.
pub(crate) fn conv_output_layout(x: &Layout, shape: &[usize], axes: &ConvAxes) -> Layout {
    let inner: Vec<usize> = x.dims_by_stride().into_iter().collect();
    let rank = |d: usize| inner.iter().position(|&e| e == d).unwrap_or(0);
    let channels_last = axes.spatial.iter().all(|&s| rank(axes.channel) < rank(s));
    let mut order: Vec<usize> = (0..shape.len())
        .filter(|&d| d != axes.channel && !axes.spatial.contains(&d))
        .collect();
    if channels_last {
        order.extend(&axes.spatial);
        order.push(axes.channel);
    } else {
        order.push(axes.channel);
        order.extend(&axes.spatial);
    }
    dense_in_order(shape, &order)
}
