//! Padding of any dims by position, for the convolutions' padding modes:
//! one gather on the CPU. Its checks and source positions are
//! [`RawTensor`]'s `pad`'s (`tensor/pad.rs`), whose mode this is.

use super::alloc::{alloc, like, output};
use super::conv::PaddingMode;
use crate::cpu::conv::pad::gather_padded;
use crate::tensor::pad::{check_pad, source_index};
use crate::{Cpu, PadMode, RawTensor, Result, Scalar, TensorRef};

/// The source index of each output index of a dim of `n` padded by `lo`
/// and `hi` (`None`: the constant).
fn index_map(mode: PadMode, n: usize, (lo, hi): (usize, usize)) -> Vec<Option<usize>> {
    (0..n + lo + hi)
        .map(|o| {
            let i = o as i64 - lo as i64;
            let s = source_index(mode, i, n as i64);
            (0..n as i64).contains(&s).then_some(s as usize)
        })
        .collect()
}

/// PyTorch's checks of padding the dims `dims` of a tensor of `shape` by
/// `(before, after)` each in `mode`, the last dim first, with its messages.
pub(crate) fn check_sides(
    shape: &[usize],
    dims: &[usize],
    sides: &[(usize, usize)],
    mode: PadMode,
) -> Result<()> {
    let mut order: Vec<(usize, (usize, usize))> =
        dims.iter().copied().zip(sides.iter().copied()).collect();
    order.sort_by_key(|&(d, _)| std::cmp::Reverse(d));
    for (k, (d, (lo, hi))) in order.into_iter().enumerate() {
        check_pad("pad", k, mode, shape, d, lo, hi)?;
    }
    Ok(())
}

/// Pads the dims `dims` of `x` by `(before, after)` each, in `mode`;
/// checks each dim as PyTorch's `F.pad` does.
pub(crate) fn pad_dims(
    x: &TensorRef<'_, Cpu>,
    dims: &[usize],
    sides: &[(usize, usize)],
    mode: PadMode,
) -> Result<RawTensor<Cpu>> {
    let shape = x.shape().to_vec();
    check_sides(&shape, dims, sides, mode)?;
    let mut maps: Vec<Vec<Option<usize>>> =
        shape.iter().map(|&n| (0..n).map(Some).collect()).collect();
    let mut out_shape = shape.clone();
    for (&d, &s) in dims.iter().zip(sides) {
        maps[d] = index_map(mode, shape[d], s);
        out_shape[d] = maps[d].len();
    }
    let fill_value = match mode {
        PadMode::Constant(v) => v,
        _ => Scalar::Int(0),
    };
    let fill = RawTensor::full_on(&Cpu, &[1], fill_value, x.dtype())?;
    let fill = fill.storage().as_bytes().to_vec();
    let mut out = alloc(like(x.layout(), &out_shape), x.dtype())?;
    gather_padded(x.input(), output(&mut out), &maps, &fill)?;
    Ok(out)
}

/// A convolution's padding of the spatial dims (zeros never reach here).
pub(crate) fn pad_sides(
    x: &TensorRef<'_, Cpu>,
    dims: &[usize],
    sides: &[(usize, usize)],
    mode: PaddingMode,
    value: f64,
) -> Result<RawTensor<Cpu>> {
    let mode = match mode {
        PaddingMode::Zeros => PadMode::Constant(Scalar::Float(value)),
        PaddingMode::Reflect => PadMode::Reflect,
        PaddingMode::Replicate => PadMode::Replicate,
        PaddingMode::Circular => PadMode::Circular,
    };
    pad_dims(x, dims, sides, mode)
}
