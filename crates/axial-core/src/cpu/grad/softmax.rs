//! The softmax's and log-softmax's input gradient along the last dim in
//! one pass per row (PyTorch's `_softmax_backward_data`): a row's sum is
//! taken and used while the row is in cache, where the composed formula
//! makes four passes over the whole tensor.

use rayon::prelude::*;

use super::{load, plain_f32, store, vectors};
use crate::cpu::simd::{Isa, WithIsa, dispatch};
use crate::cpu::strided::PARALLEL_THRESHOLD;
use crate::cpu::vmath::exp;
use crate::ops::Softmax;
use crate::{Cpu, Input, Output, Result};

/// `dst = y·(g − Σ g·y)` (softmax) or `g − exp(y)·Σ g` (log-softmax), the
/// sums along `op.dim`, from the op's output `y` and its gradient `g`,
/// when `op.dim` is the last dim and every operand is a contiguous f32
/// tensor of one shape; `false` (nothing written) otherwise.
pub(crate) fn softmax_backward(
    op: Softmax,
    y: Input<'_, Cpu>,
    g: Input<'_, Cpu>,
    mut dst: Output<'_, Cpu>,
) -> Result<bool> {
    let shape = op.shape_of(dst.layout.shape());
    if shape.inner != 1 || shape.len == 0 {
        return Ok(false);
    }
    let Some(([y, g], out)) = plain_f32([&y, &g], &mut dst)? else {
        return Ok(false);
    };
    let len = shape.len;
    let rows = |out: &mut [f32], y: &[f32], g: &[f32]| {
        for ((out, y), g) in out
            .chunks_exact_mut(len)
            .zip(y.chunks_exact(len))
            .zip(g.chunks_exact(len))
        {
            dispatch(Row {
                log: op.log,
                y: y.as_ptr(),
                g: g.as_ptr(),
                out: out.as_mut_ptr(),
                len,
            });
        }
    };
    let piece = len * (PARALLEL_THRESHOLD / len).max(1);
    if out.len() <= piece || rayon::current_num_threads() == 1 {
        rows(out, y, g);
        return Ok(true);
    }
    out.par_chunks_mut(piece)
        .zip(y.par_chunks(piece).zip(g.par_chunks(piece)))
        .for_each(|(out, (y, g))| rows(out, y, g));
    Ok(true)
}

/// One row of `len` elements of each operand.
struct Row {
    log: bool,
    y: *const f32,
    g: *const f32,
    out: *mut f32,
    len: usize,
}

impl WithIsa for Row {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let Row {
            log,
            y,
            g,
            out,
            len,
        } = self;
        let load = |p: *const f32, at| {
            // SAFETY: the three pointers are of rows of `len` elements
            // (`softmax_backward`'s chunks), the output a distinct buffer;
            // every access is below `len`.
            unsafe { load(isa, p, at) }
        };
        // Lanewise sums in the order of the row, then across lanes: an
        // order fixed by the row's length.
        let mut acc = isa.splat(0.0);
        for at in vectors::<I>(len) {
            let gv = load(g, at);
            acc = match log {
                true => isa.add(acc, gv),
                false => isa.fma(gv, load(y, at), acc),
            };
        }
        let sum = isa.splat(isa.sum(acc));
        for at in vectors::<I>(len) {
            let (yv, gv) = (load(y, at), load(g, at));
            let v = match log {
                true => isa.fnma(exp(isa, yv), sum, gv),
                false => isa.mul(yv, isa.sub(gv, sum)),
            };
            // SAFETY: as above.
            unsafe { store(isa, out, at, v) };
        }
    }
}
