//! Convolution, pooling and batch norm's per-channel affine map through the
//! kernels of `cnn.cu` (f32 and f64; the tensor layer widens f16 and bf16).
//! Each operand is permuted to the canonical order `[batch..., C, spatial...]`
//! ([`canonical_order`]) and, where that is not dense, copied contiguous by
//! the move kernels (an NHWC tensor is copied to NCHW); the output is
//! written through a contiguous buffer and copied back likewise, so every
//! layout works, at the cost of those copies. The convolution is direct
//! (one thread per output element summing its window), not `im2col` and a
//! product.

use axial_core::ops::{ChannelAffine, ConvArgs, PoolArgs, PoolReduction, canonical_order};
use axial_core::{DType, Error, Input, Layout, Output, Result, Storage};

use crate::Cuda;
use crate::backend::{
    Operand, contiguous, contiguous_copy, contiguous_target, output, source, state_of, write_back,
};
use crate::launch::{THREADS, arg, blocks_for, launch};

/// `ConvShape` of `cnn.cu`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct ConvShape {
    batch: u64,
    cin: u64,
    cout: u64,
    groups: u64,
    input: [u64; 3],
    out: [u64; 3],
    k: [u64; 3],
    stride: [u64; 3],
    dil: [u64; 3],
    pad: [u64; 3],
    clamp: i32,
    pad_: i32,
    lo: f64,
    hi: f64,
}

/// `PoolShape` of `cnn.cu`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct PoolShape {
    planes: u64,
    input: [u64; 3],
    out: [u64; 3],
    k: [u64; 3],
    stride: [u64; 3],
    dil: [u64; 3],
    pad: [u64; 3],
    max: i32,
    count_include_pad: i32,
    divisor: u64,
}

/// `AffineShape` of `cnn.cu`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub(crate) struct AffineShape {
    n: u64,
    channels: u64,
    inner: u64,
    per_item: u64,
}

crate::launch::by_value!(ConvShape, PoolShape, AffineShape);

/// The refusal of operands that do not fit the op's parameters.
fn bad(op: &'static str, what: &str) -> Error {
    Error::invalid(op, format!("kernel operands: {what}"))
}

/// The kernels' dtype suffix: f32 or f64.
fn suffix(op: &'static str, dtype: DType) -> Result<&'static str> {
    match dtype {
        DType::F32 => Ok("f32"),
        DType::F64 => Ok("f64"),
        dtype => Err(Error::Unsupported { op, dtype }),
    }
}

/// `layout` with its dims in `order`.
fn permuted(layout: &Layout, order: &[usize]) -> Result<Layout> {
    let dims: Vec<isize> = order.iter().map(|&d| d as isize).collect();
    layout.permute(&dims)
}

/// Per spatial dim values, as three with leading ones.
fn three(v: &[usize], fill: u64) -> [u64; 3] {
    let mut out = [fill; 3];
    for (o, &x) in out[3 - v.len()..].iter_mut().zip(v) {
        *o = x as u64;
    }
    out
}

/// Whether the spatial dims and per-dim values are one to three, distinct,
/// in range and away from `channel`.
fn dims_ok(rank: usize, channel: Option<usize>, spatial: &[usize], per_dim: &[usize]) -> bool {
    let n = spatial.len();
    let mut seen = vec![false; rank];
    (1..=3).contains(&n)
        && channel.is_none_or(|c| c < rank && !spatial.contains(&c))
        && spatial
            .iter()
            .all(|&d| d < rank && !std::mem::replace(&mut seen[d], true))
        && per_dim.iter().all(|&len| len == n)
}

/// An input operand in canonical order, contiguous, and not the output's
/// memory (a copy when it is).
fn canonical_input(
    device: &Cuda,
    op: &'static str,
    src: &Input<'_, Cuda>,
    dtype: DType,
    order: &[usize],
    out_base: u64,
    spill: &mut Vec<Storage<Cuda>>,
) -> Result<Operand> {
    let mut o = source(device, op, src, dtype)?;
    o.layout = permuted(&o.layout, order)?;
    if o.base == out_base {
        return contiguous_copy(device, &o, spill);
    }
    contiguous(device, o, spill)
}

/// `y = conv(x, w) + bias`, direct.
pub(crate) fn conv(
    device: &Cuda,
    a: &ConvArgs,
    x: Input<'_, Cuda>,
    w: Input<'_, Cuda>,
    bias: Option<Input<'_, Cuda>>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let op = "conv";
    let dtype = dst.dtype;
    let dt = suffix(op, dtype)?;
    let (xs, ws, ys) = (x.layout.shape(), w.layout.shape(), dst.layout.shape());
    let rank = xs.len();
    let n = a.spatial.len();
    let per_dim = [a.stride.len(), a.dilation.len(), a.pad.len()];
    if !dims_ok(rank, Some(a.channel), &a.spatial, &per_dim)
        || ys.len() != rank
        || ws.len() != n + 2
        || a.groups == 0
        || a.stride.contains(&0)
        || a.dilation.contains(&0)
    {
        return Err(bad(op, "dims or hyper-parameters"));
    }
    let (cout, cg) = (ws[0], ws[1]);
    let order = canonical_order(rank, Some(a.channel), &a.spatial);
    let batch_ok = order[..rank - n - 1].iter().all(|&d| xs[d] == ys[d]);
    if xs[a.channel] != cg * a.groups || ys[a.channel] != cout || cout % a.groups != 0 || !batch_ok
    {
        return Err(bad(op, "channels or batch dims"));
    }
    if bias.as_ref().is_some_and(|b| b.layout.shape() != [cout]) {
        return Err(bad(op, "bias"));
    }
    let s = state_of(device)?;
    let mut to = output(device, op, &dst, dtype)?;
    to.layout = permuted(&to.layout, &order)?;
    let mut spill = vec![];
    let xo = canonical_input(device, op, &x, dtype, &order, to.base, &mut spill)?;
    let all: Vec<usize> = (0..n + 2).collect();
    let wo = canonical_input(device, op, &w, dtype, &all, to.base, &mut spill)?;
    let bo = match &bias {
        Some(b) => Some(canonical_input(
            device,
            op,
            b,
            dtype,
            &[0],
            to.base,
            &mut spill,
        )?),
        None => None,
    };
    if to.layout.numel() == 0 {
        return Ok(());
    }
    let target = contiguous_target(device, &to, &mut spill)?;
    let spatial_of =
        |shape: &[usize]| -> Vec<usize> { a.spatial.iter().map(|&d| shape[d]).collect() };
    let p = ConvShape {
        batch: (to.layout.numel() / (cout * spatial_of(ys).iter().product::<usize>())) as u64,
        cin: xs[a.channel] as u64,
        cout: cout as u64,
        groups: a.groups as u64,
        input: three(&spatial_of(xs), 1),
        out: three(&spatial_of(ys), 1),
        k: three(&ws[2..], 1),
        stride: three(&a.stride, 1),
        dil: three(&a.dilation, 1),
        pad: three(&a.pad, 0),
        clamp: a.clamp.is_some() as i32,
        pad_: 0,
        lo: a.clamp.map_or(0.0, |c| c.0),
        hi: a.clamp.map_or(0.0, |c| c.1),
    };
    let at = |o: &Operand| o.at(o.layout.offset() as i64);
    let (yp, xp, wp) = (at(&target), at(&xo), at(&wo));
    let bp = bo.as_ref().map_or(0, at);
    let args = [arg(&yp), arg(&xp), arg(&wp), arg(&bp), arg(&p)];
    let grid = blocks_for(s, target.layout.numel() as u64);
    // SAFETY: `conv_direct_<dt>(T*, const T*, const T*, const T*, ConvShape)`;
    // `y`, `x`, `w` (and `b`, or null) are contiguous runs of this dtype in
    // their buffers of `[batch, cout, out]`, `[batch, cin, in]`, `[cout,
    // cin / groups, k]` and `[cout]` elements (checked above: the channels
    // agree with the weight and the groups, the batch dims with each other),
    // every input index the kernel forms is checked against `in`, and the
    // output is not the memory of any input (copied aside when it was).
    unsafe {
        launch(
            s,
            "cnn",
            &format!("conv_direct_{dt}"),
            (grid, 1, 1),
            (THREADS, 1, 1),
            0,
            &args,
        )?
    };
    write_back(device, &target, &to)
}

/// Max or average pooling (and max pooling's indices).
pub(crate) fn pool(
    device: &Cuda,
    a: &PoolArgs,
    x: Input<'_, Cuda>,
    dst: Output<'_, Cuda>,
    indices: Option<Output<'_, Cuda>>,
) -> Result<()> {
    let op = "pool";
    let dtype = dst.dtype;
    let dt = suffix(op, dtype)?;
    let (xs, ys) = (x.layout.shape(), dst.layout.shape());
    let rank = xs.len();
    let n = a.spatial.len();
    let per_dim = [
        a.kernel.len(),
        a.stride.len(),
        a.dilation.len(),
        a.pad.len(),
    ];
    if !dims_ok(rank, a.channel, &a.spatial, &per_dim)
        || ys.len() != rank
        || a.kernel.contains(&0)
        || a.stride.contains(&0)
        || a.dilation.contains(&0)
    {
        return Err(bad(op, "dims or hyper-parameters"));
    }
    let order = canonical_order(rank, a.channel, &a.spatial);
    if order[..rank - n].iter().any(|&d| xs[d] != ys[d]) {
        return Err(bad(op, "batch or channel dims"));
    }
    let max = a.reduction == PoolReduction::Max;
    if indices
        .as_ref()
        .is_some_and(|i| !max || i.layout.shape() != ys)
    {
        return Err(bad(op, "indices"));
    }
    let s = state_of(device)?;
    let mut to = output(device, op, &dst, dtype)?;
    to.layout = permuted(&to.layout, &order)?;
    let mut idx = match &indices {
        Some(i) => {
            let mut o = output(device, op, i, DType::I64)?;
            o.layout = permuted(&o.layout, &order)?;
            Some(o)
        }
        None => None,
    };
    let mut spill = vec![];
    let mut xo = canonical_input(device, op, &x, dtype, &order, to.base, &mut spill)?;
    if idx.as_ref().is_some_and(|i| i.base == xo.base) {
        xo = contiguous_copy(device, &xo, &mut spill)?;
    }
    if to.layout.numel() == 0 {
        return Ok(());
    }
    let target = contiguous_target(device, &to, &mut spill)?;
    let idx_target = match &mut idx {
        Some(i) => Some(contiguous_target(device, i, &mut spill)?),
        None => None,
    };
    let spatial_of =
        |shape: &[usize]| -> Vec<usize> { a.spatial.iter().map(|&d| shape[d]).collect() };
    let (divisor, count_include_pad) = match a.reduction {
        PoolReduction::Max => (0, 0),
        PoolReduction::Avg {
            count_include_pad,
            divisor,
        } => (divisor.unwrap_or(0) as u64, count_include_pad as i32),
    };
    let p = PoolShape {
        planes: (to.layout.numel() / spatial_of(ys).iter().product::<usize>()) as u64,
        input: three(&spatial_of(xs), 1),
        out: three(&spatial_of(ys), 1),
        k: three(&a.kernel, 1),
        stride: three(&a.stride, 1),
        dil: three(&a.dilation, 1),
        pad: three(&a.pad, 0),
        max: max as i32,
        count_include_pad,
        divisor,
    };
    let at = |o: &Operand| o.at(o.layout.offset() as i64);
    let (yp, xp) = (at(&target), at(&xo));
    let ip = idx_target.as_ref().map_or(0, at);
    let args = [arg(&yp), arg(&ip), arg(&xp), arg(&p)];
    let grid = blocks_for(s, target.layout.numel() as u64);
    // SAFETY: `pool_<dt>(T*, i64*, const T*, PoolShape)`; `y` (and `idx`,
    // or null) are contiguous runs of `planes · out` elements, `x` of
    // `planes · in` (the batch and channel dims of both agree, checked
    // above), every input index the kernel forms is checked against `in`,
    // and no output is the memory of the input (copied aside when it was).
    unsafe {
        launch(
            s,
            "cnn",
            &format!("pool_{dt}"),
            (grid, 1, 1),
            (THREADS, 1, 1),
            0,
            &args,
        )?
    };
    write_back(device, &target, &to)?;
    match (&idx_target, &idx) {
        (Some(t), Some(i)) => write_back(device, t, i),
        _ => Ok(()),
    }
}

/// `y = x·scale[c] + shift[c]` per channel (or per batch item and channel).
pub(crate) fn channel_affine(
    device: &Cuda,
    a: &ChannelAffine,
    x: Input<'_, Cuda>,
    scale: &[f64],
    shift: &[f64],
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let op = "norm";
    let dtype = dst.dtype;
    let dt = suffix(op, dtype)?;
    let xs = x.layout.shape();
    let rank = xs.len();
    let ok = a.channel < rank
        && a.spatial.len() <= 3
        && a.spatial.iter().all(|&d| d < rank && d != a.channel)
        && xs == dst.layout.shape();
    if !ok {
        return Err(bad(op, "dims"));
    }
    let order = canonical_order(rank, Some(a.channel), &a.spatial);
    let c = xs[a.channel];
    let items: usize = order[..rank - a.spatial.len() - 1]
        .iter()
        .map(|&d| xs[d])
        .product();
    let per_item = scale.len() != c;
    if scale.len() != shift.len() || (per_item && scale.len() != c * items) {
        return Err(bad(op, "scale"));
    }
    let s = state_of(device)?;
    let mut to = output(device, op, &dst, dtype)?;
    to.layout = permuted(&to.layout, &order)?;
    let mut spill = vec![];
    let xo = canonical_input(device, op, &x, dtype, &order, to.base, &mut spill)?;
    if to.layout.numel() == 0 {
        return Ok(());
    }
    let target = contiguous_target(device, &to, &mut spill)?;
    // Each value rounded to the dtype, as the CPU's kernel rounds it.
    let params = |v: &[f64], spill: &mut Vec<Storage<Cuda>>| -> Result<Operand> {
        let bytes: Vec<u8> = match dtype {
            DType::F32 => v.iter().flat_map(|&f| (f as f32).to_ne_bytes()).collect(),
            _ => v.iter().flat_map(|&f| f.to_ne_bytes()).collect(),
        };
        let storage = Storage::from_host_bytes(device, &bytes)?;
        let o = Operand {
            base: storage.buffer().ptr,
            layout: Layout::contiguous(&[v.len()]),
            dtype,
        };
        spill.push(storage);
        Ok(o)
    };
    let so = params(scale, &mut spill)?;
    let ho = params(shift, &mut spill)?;
    let p = AffineShape {
        n: target.layout.numel() as u64,
        channels: c as u64,
        inner: a.spatial.iter().map(|&d| xs[d]).product::<usize>() as u64,
        per_item: per_item as u64,
    };
    let at = |o: &Operand| o.at(o.layout.offset() as i64);
    let (yp, xp, sp, hp) = (at(&target), at(&xo), at(&so), at(&ho));
    let args = [arg(&yp), arg(&xp), arg(&sp), arg(&hp), arg(&p)];
    let grid = blocks_for(s, p.n);
    // SAFETY: `channel_affine_<dt>(T*, const T*, const T*, const T*,
    // AffineShape)`; `y` and `x` are contiguous runs of `n = items · C ·
    // inner` elements of this dtype, the scale and shift runs of `C` (or
    // `items · C` with `per_item`) written above, and the output is not
    // the input's memory (copied aside when it was).
    unsafe {
        launch(
            s,
            "cnn",
            &format!("channel_affine_{dt}"),
            (grid, 1, 1),
            (THREADS, 1, 1),
            0,
            &args,
        )?
    };
    write_back(device, &target, &to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_have_the_layout_of_cnn_cu() {
        assert_eq!(size_of::<ConvShape>(), 4 * 8 + 18 * 8 + 8 + 16);
        assert_eq!(size_of::<PoolShape>(), 8 + 18 * 8 + 8 + 8);
        assert_eq!(size_of::<AffineShape>(), 32);
    }

    #[test]
    fn per_dim_values_lead_with_ones() {
        assert_eq!(three(&[4, 5], 1), [1, 4, 5]);
        assert_eq!(three(&[2], 0), [0, 0, 2]);
    }
}
