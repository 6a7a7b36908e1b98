//! Fused derivatives: the backward formulas that the op table writes with
//! forward ops (`ops::unary`, `ops::softmax`, `ops::norm`), computed here in
//! one pass over contiguous f32 operands, with the CPU's best vectors.
//! Other dtypes and layouts are declined (`Ok(false)`) and the caller runs
//! the composed formula.
//!
//! Each element's (or each row's) result is computed by one thread in an
//! order fixed by the shape, so the bits do not depend on the number of
//! threads.

mod layer_norm;
mod softmax;
mod unary;

pub(crate) use layer_norm::layer_norm_backward;
pub(crate) use softmax::softmax_backward;
pub(crate) use unary::unary_backward;

use crate::cpu::simd::Isa;
use crate::{Cpu, DType, Input, Output, Result};

/// The vectors of a run of `len` elements: the start of each and its
/// lanes (the last may be partial).
fn vectors<I: Isa>(len: usize) -> impl Iterator<Item = (usize, usize)> + Clone {
    (0..len)
        .step_by(I::LANES)
        .map(move |i| (i, I::LANES.min(len - i)))
}

/// The vector at `p + i` of `lanes` elements, its other lanes 0.
///
/// # Safety
/// `p` is valid for reads of `i + lanes` f32, and `lanes ≤ I::LANES`.
#[inline(always)]
unsafe fn load<I: Isa>(isa: I, p: *const f32, (i, lanes): (usize, usize)) -> I::F {
    // SAFETY: the caller's contract.
    unsafe { isa.load_n(p.add(i), lanes) }
}

/// Writes the first `lanes` of `v` to `p + i`.
///
/// # Safety
/// `p` is valid for writes of `i + lanes` f32, and `lanes ≤ I::LANES`.
#[inline(always)]
unsafe fn store<I: Isa>(isa: I, p: *mut f32, (i, lanes): (usize, usize), v: I::F) {
    // SAFETY: the caller's contract.
    unsafe { isa.store_n(p.add(i), lanes, v) }
}

/// Contiguous f32 operands: the inputs' elements and the output's.
type Plain<'a, const N: usize> = ([&'a [f32]; N], &'a mut [f32]);

/// The f32 elements of `inputs` and of `dst` when all are contiguous f32
/// tensors of `dst`'s shape, each input with a storage of its own; `None`
/// otherwise.
fn plain_f32<'a, const N: usize>(
    inputs: [&'a Input<'_, Cpu>; N],
    dst: &'a mut Output<'_, Cpu>,
) -> Result<Option<Plain<'a, N>>> {
    let shape = dst.layout.shape();
    let n = dst.layout.numel();
    let fits = |dtype: DType, layout: &crate::Layout| {
        dtype == DType::F32 && layout.is_contiguous() && layout.shape() == shape
    };
    if !fits(dst.dtype, &dst.layout) || inputs.iter().any(|i| !fits(i.dtype, &i.layout)) {
        return Ok(None);
    }
    let mut slices = [&[][..]; N];
    for (slot, input) in slices.iter_mut().zip(inputs) {
        let Some(storage) = input.storage else {
            return Ok(None);
        };
        let at = input.layout.offset();
        *slot = elements(storage.as_slice::<f32>()?, at, n)?;
    }
    let at = dst.layout.offset();
    let out = dst.storage.as_mut_slice::<f32>()?;
    let end = at.checked_add(n).filter(|&e| e <= out.len());
    let Some(end) = end else {
        return Err(out_of_bounds(at, n, out.len()));
    };
    Ok(Some((slices, &mut out[at..end])))
}

/// `n` elements of `all` from `at`, or the error of a layout past its
/// storage.
fn elements(all: &[f32], at: usize, n: usize) -> Result<&[f32]> {
    at.checked_add(n)
        .and_then(|end| all.get(at..end))
        .ok_or_else(|| out_of_bounds(at, n, all.len()))
}

fn out_of_bounds(at: usize, n: usize, len: usize) -> crate::Error {
    crate::Error::invalid(
        "backward",
        format!("{n} elements from offset {at} do not fit a storage of {len}"),
    )
}

#[cfg(test)]
mod tests;
