//! Layer norm's three gradients (PyTorch's `native_layer_norm_backward`)
//! over `[rows, n]` f32 operands: one task per block of rows recomputes a
//! row's mean and `1/σ` and writes its input gradient while the row is in
//! cache; the weight's and the bias's gradients are then summed down the
//! rows, one task per block of columns, each column in row order.

use rayon::prelude::*;

use super::{store, vectors};
use crate::cpu::simd::{Isa, WithIsa, dispatch};
use crate::cpu::strided::PARALLEL_THRESHOLD;
use crate::ops::LayerNorm;
use crate::{Cpu, DType, Input, Output, Result};

/// The gradients of the input, the weight and the bias (each where its
/// output is given) of `layer_norm` over the rows of `x` (`[rows, n]`),
/// from the output's gradient `g`; `false` (nothing written) unless every
/// operand is a contiguous f32 tensor of its expected shape.
pub(crate) fn layer_norm_backward(
    op: LayerNorm,
    x: Input<'_, Cpu>,
    g: Input<'_, Cpu>,
    weight: Option<Input<'_, Cpu>>,
    grads: [Option<Output<'_, Cpu>>; 3],
) -> Result<bool> {
    let &[rows, n] = x.layout.shape() else {
        return Ok(false);
    };
    let plain = |dtype: DType, layout: &crate::Layout, shape: &[usize]| {
        dtype == DType::F32 && layout.is_contiguous() && layout.shape() == shape
    };
    let inputs_plain = plain(x.dtype, &x.layout, &[rows, n])
        && plain(g.dtype, &g.layout, &[rows, n])
        && weight
            .as_ref()
            .is_none_or(|w| plain(w.dtype, &w.layout, &[n]));
    let shapes: [&[usize]; 3] = [&[rows, n], &[n], &[n]];
    let outputs_plain = grads
        .iter()
        .zip(shapes)
        .all(|(o, s)| o.as_ref().is_none_or(|o| plain(o.dtype, &o.layout, s)));
    let owned = [Some(&x), Some(&g), weight.as_ref()]
        .iter()
        .all(|i| i.is_none_or(|i| i.storage.is_some()));
    if !inputs_plain || !outputs_plain || !owned || rows * n == 0 {
        return Ok(false);
    }
    let x = slice(&x, rows * n)?;
    let g = slice(&g, rows * n)?;
    let w = weight.as_ref().map(|w| slice(w, n)).transpose()?;
    let [gx, gw, gb] = grads;
    let mut stats = vec![(0f32, 0f32); rows];
    let eps = op.eps as f32;
    let rows_per_task = (PARALLEL_THRESHOLD / n).max(1);
    let row_task = |stats: &mut [(f32, f32)], x: &[f32], g: &[f32], gx: Option<&mut [f32]>| {
        let mut gx = gx.map(|gx| gx.chunks_exact_mut(n));
        for ((s, x), g) in stats
            .iter_mut()
            .zip(x.chunks_exact(n))
            .zip(g.chunks_exact(n))
        {
            let out = gx.as_mut().and_then(|it| it.next());
            *s = dispatch(Row { x, g, w, out, eps });
        }
    };
    let mut gx_storage = gx;
    let gx_slice = match gx_storage.as_mut() {
        Some(o) => Some(slice_mut(o, rows * n)?),
        None => None,
    };
    let piece = rows_per_task * n;
    match gx_slice {
        Some(gx) => stats
            .par_chunks_mut(rows_per_task)
            .zip(x.par_chunks(piece).zip(g.par_chunks(piece)))
            .zip(gx.par_chunks_mut(piece))
            .for_each(|((s, (x, g)), gx)| row_task(s, x, g, Some(gx))),
        None => stats
            .par_chunks_mut(rows_per_task)
            .zip(x.par_chunks(piece).zip(g.par_chunks(piece)))
            .for_each(|(s, (x, g))| row_task(s, x, g, None)),
    }
    let mut gw_storage = gw;
    let mut gb_storage = gb;
    let gw = match gw_storage.as_mut() {
        Some(o) => Some(slice_mut(o, n)?),
        None => None,
    };
    let gb = match gb_storage.as_mut() {
        Some(o) => Some(slice_mut(o, n)?),
        None => None,
    };
    if gw.is_some() || gb.is_some() {
        columns(x, g, &stats, n, gw, gb);
    }
    Ok(true)
}

/// The weight's gradient `Σ g·x̂` and the bias's `Σ g` down the rows, in
/// row order, a block of columns per task.
fn columns(
    x: &[f32],
    g: &[f32],
    stats: &[(f32, f32)],
    n: usize,
    gw: Option<&mut [f32]>,
    gb: Option<&mut [f32]>,
) {
    const COLUMNS: usize = 64;
    let rows = stats.len();
    let block = |start: usize, gw: Option<&mut [f32]>, gb: Option<&mut [f32]>| {
        let width = gw
            .as_ref()
            .map(|s| s.len())
            .or(gb.as_ref().map(|s| s.len()))
            .unwrap_or(0);
        let mut sw = [0f32; COLUMNS];
        let mut sb = [0f32; COLUMNS];
        for (r, &(mean, rstd)) in stats.iter().enumerate() {
            let at = r * n + start;
            let (xr, gr) = (&x[at..at + width], &g[at..at + width]);
            for j in 0..width {
                sw[j] += gr[j] * ((xr[j] - mean) * rstd);
                sb[j] += gr[j];
            }
        }
        if let Some(gw) = gw {
            gw.copy_from_slice(&sw[..width]);
        }
        if let Some(gb) = gb {
            gb.copy_from_slice(&sb[..width]);
        }
    };
    let starts: Vec<usize> = (0..n).step_by(COLUMNS).collect();
    let serial = rows * n < PARALLEL_THRESHOLD || rayon::current_num_threads() == 1;
    fn split(s: Option<&mut [f32]>, blocks: usize) -> Vec<Option<&mut [f32]>> {
        match s {
            Some(s) => s.chunks_mut(COLUMNS).map(Some).collect(),
            None => (0..blocks).map(|_| None).collect(),
        }
    }
    let blocks = starts.len();
    let tasks: Vec<_> = starts
        .iter()
        .copied()
        .zip(split(gw, blocks).into_iter().zip(split(gb, blocks)))
        .collect();
    match serial {
        true => tasks.into_iter().for_each(|(s, (w, b))| block(s, w, b)),
        false => tasks.into_par_iter().for_each(|(s, (w, b))| block(s, w, b)),
    }
}

/// An input's `len` f32 elements from its offset.
fn slice<'a>(input: &Input<'a, Cpu>, len: usize) -> Result<&'a [f32]> {
    let storage = input.storage.ok_or_else(|| {
        crate::Error::invalid("layer_norm_backward", "an input aliases an output")
    })?;
    super::elements(storage.as_slice::<f32>()?, input.layout.offset(), len)
}

/// An output's `len` f32 elements from its offset.
fn slice_mut<'a>(output: &'a mut Output<'_, Cpu>, len: usize) -> Result<&'a mut [f32]> {
    let at = output.layout.offset();
    let all = output.storage.as_mut_slice::<f32>()?;
    let total = all.len();
    at.checked_add(len)
        .and_then(move |end| all.get_mut(at..end))
        .ok_or_else(|| super::out_of_bounds(at, len, total))
}

/// One row: its mean and `1/σ`, and, where `out` is given, its input
/// gradient `(g·w − mean(g·w) − x̂·mean(g·w·x̂))/σ`.
struct Row<'a> {
    x: &'a [f32],
    g: &'a [f32],
    w: Option<&'a [f32]>,
    out: Option<&'a mut [f32]>,
    eps: f32,
}

impl WithIsa for Row<'_> {
    type Output = (f32, f32);

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) -> (f32, f32) {
        let Row { x, g, w, out, eps } = self;
        let len = x.len();
        let lanes = I::LANES;
        let load = |s: &[f32], at| {
            // SAFETY: every slice has `len` elements (the caller's chunks
            // of one row; the weight has the row's length); accesses stay
            // below.
            unsafe { super::load(isa, s.as_ptr(), at) }
        };
        let len_f = len as f32;
        let mut acc = isa.splat(0.0);
        for at in vectors::<I>(len) {
            acc = isa.add(acc, load(x, at));
        }
        let mean = isa.sum(acc) / len_f;
        let mv = isa.splat(mean);
        // The full vectors, then the rest one by one: a partial vector's
        // zero lanes would add mean² each.
        let full = len - len % lanes;
        let mut acc = isa.splat(0.0);
        for i in (0..full).step_by(lanes) {
            let c = isa.sub(load(x, (i, lanes)), mv);
            acc = isa.fma(c, c, acc);
        }
        let rest: f32 = x[full..].iter().map(|&v| (v - mean) * (v - mean)).sum();
        let rstd = 1.0 / ((isa.sum(acc) + rest) / len_f + eps).sqrt();
        let Some(out) = out else {
            return (mean, rstd);
        };
        let rv = isa.splat(rstd);
        let gxhat = |at| match w {
            Some(w) => isa.mul(load(g, at), load(w, at)),
            None => load(g, at),
        };
        let (mut sa, mut sb) = (isa.splat(0.0), isa.splat(0.0));
        for at in vectors::<I>(len) {
            let xhat = isa.mul(isa.sub(load(x, at), mv), rv);
            let d = gxhat(at);
            sa = isa.add(sa, d);
            sb = isa.fma(d, xhat, sb);
        }
        let a = isa.splat(isa.sum(sa) / len_f);
        let b = isa.splat(isa.sum(sb) / len_f);
        for at in vectors::<I>(len) {
            let xhat = isa.mul(isa.sub(load(x, at), mv), rv);
            let v = isa.mul(isa.sub(isa.sub(gxhat(at), a), isa.mul(xhat, b)), rv);
            // SAFETY: `out` has `len` elements, as the inputs.
            unsafe { store(isa, out.as_mut_ptr(), at, v) };
        }
        (mean, rstd)
    }
}
