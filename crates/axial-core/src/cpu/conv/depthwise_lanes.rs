//! The depthwise convolution of f32 with channels innermost in the input
//! and the output (NHWC): the channels are the vector lanes of [`Isa`], the
//! bias and the clamp (ReLU6) applied in registers before the one store.
//!
//! One job is one output row. Inside the row, positions whose every tap
//! along the row lies inside the input are computed [`BLOCK`] at a time,
//! so that each weight vector loaded serves that many positions; the
//! positions at the edges are computed one at a time over their valid taps.

use rayon::prelude::*;

use super::forward::Problem;
use crate::cpu::simd::{Isa, WithIsa, dispatch};
use crate::cpu::strided::PARALLEL_THRESHOLD;

/// Output positions computed together in the interior of a row.
const BLOCK: usize = 4;

/// The operands, as the kernel reads them.
pub(crate) struct Lanes<'a> {
    pub(crate) p: &'a Problem,
    pub(crate) x: *const f32,
    pub(crate) y: *mut f32,
    /// The weight packed tap-major: `taps × channels`.
    pub(crate) w: &'a [f32],
    /// One value per channel (zeros without a bias).
    pub(crate) bias: &'a [f32],
    /// The clamp, if any: `(min, max)`.
    pub(crate) clamp: Option<(f32, f32)>,
}

// SAFETY: the pointers reach the operands of a checked problem; each job
// writes its own output row.
unsafe impl Sync for Lanes<'_> {}

impl Lanes<'_> {
    /// Runs every output row, in parallel when it pays.
    pub(crate) fn run(&self) {
        let out = self.p.y.size;
        let rows = self.p.y.batch.len() * out[0] * out[1];
        let each = out[2] * self.p.y.channels * self.p.win.taps();
        let threads = rayon::current_num_threads() > 1;
        if threads && rows > 1 && rows.saturating_mul(each) >= PARALLEL_THRESHOLD {
            (0..rows).into_par_iter().for_each(|r| dispatch(Row(self, r)));
        } else {
            (0..rows).for_each(|r| dispatch(Row(self, r)));
        }
    }
}

/// One output row of a [`Lanes`] problem.
struct Row<'a, 'b>(&'a Lanes<'b>, usize);

/// Loads `n ≤ LANES` lanes.
///
/// # Safety
/// `p` is readable for `n` f32.
#[inline(always)]
unsafe fn load<I: Isa>(isa: I, p: *const f32, n: usize) -> I::F {
    // SAFETY: the caller's contract.
    unsafe {
        if n == I::LANES {
            isa.load(p)
        } else {
            isa.load_part(p, n)
        }
    }
}

/// Stores `n ≤ LANES` lanes.
///
/// # Safety
/// `p` is writable for `n` f32.
#[inline(always)]
unsafe fn store<I: Isa>(isa: I, p: *mut f32, n: usize, v: I::F) {
    // SAFETY: the caller's contract.
    unsafe {
        if n == I::LANES {
            isa.store(p, v)
        } else {
            isa.store_part(p, n, v)
        }
    }
}

impl WithIsa for Row<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let Row(k, r) = self;
        let p = k.p;
        let (win, out, c) = (p.win, p.y.size, p.y.channels);
        let (b, od, oh) = (r / (out[0] * out[1]), r / out[1] % out[0], r % out[1]);
        // The (depth, row) taps inside the input: the input offset of their
        // row at column 0 and the index of their first tap.
        let mut taps_dh = Vec::with_capacity(win.k[0] * win.k[1]);
        for kd in 0..win.k[0] {
            for kh in 0..win.k[1] {
                let (Some(id), Some(ih)) = (
                    win.source(0, od, kd, p.x.size[0]),
                    win.source(1, oh, kh, p.x.size[1]),
                ) else {
                    continue;
                };
                taps_dh.push((p.x.batch[b] + p.x.at(id, ih, 0), (kd * win.k[1] + kh) * win.k[2]));
            }
        }
        let (kw, sw, dw, pw) = (win.k[2], win.stride[2], win.dil[2], win.pad[2]);
        let xs = p.x.s[2];
        // Columns whose every tap along the row is inside: [lo, hi).
        let (lo, _) = win.valid_outputs(2, 0, p.x.size[2], out[2]);
        let (_, hi) = win.valid_outputs(2, kw - 1, p.x.size[2], out[2]);
        let hi = hi.max(lo);
        let yrow = p.y.batch[b] + p.y.at(od, oh, 0);
        let (lo_v, hi_v) = match k.clamp {
            Some((a, z)) => (isa.splat(a), isa.splat(z)),
            None => (isa.splat(0.0), isa.splat(0.0)),
        };
        let finish = |v: I::F| match k.clamp {
            // max(lo, v) then min(hi, ·) keep NaN (the second operand wins).
            Some(_) => isa.min(hi_v, isa.max(lo_v, v)),
            None => v,
        };
        let mut c0 = 0;
        while c0 < c {
            let n = (c - c0).min(I::LANES);
            // SAFETY (the loads and stores below): channels c0..c0 + n of
            // in-range positions (taps checked by `source`/`valid_outputs`),
            // the weight and bias of `taps × c` and `c` elements; this row's
            // outputs are this job's alone.
            unsafe {
                let bias = load(isa, k.bias.as_ptr().add(c0), n);
                let one = |ow: usize, t0: usize, t1: usize| {
                    let mut acc = bias;
                    let iw0 = (ow * sw) as isize - pw as isize;
                    for &(xrow, tdh) in &taps_dh {
                        for t in t0..t1 {
                            let at = xrow + (iw0 + (t * dw) as isize) * xs;
                            let xv = load(isa, k.x.offset(at).add(c0), n);
                            let wv = load(isa, k.w.as_ptr().add((tdh + t) * c + c0), n);
                            acc = isa.fma(xv, wv, acc);
                        }
                    }
                    store(isa, k.y.offset(yrow + ow as isize * p.y.s[2]).add(c0), n, finish(acc));
                };
                let edge = |ow: usize| {
                    let mut t0 = 0;
                    while t0 < kw && win.source(2, ow, t0, p.x.size[2]).is_none() {
                        t0 += 1;
                    }
                    let mut t1 = t0;
                    while t1 < kw && win.source(2, ow, t1, p.x.size[2]).is_some() {
                        t1 += 1;
                    }
                    one(ow, t0, t1);
                };
                for ow in 0..lo.min(out[2]) {
                    edge(ow);
                }
                let mut ow = lo;
                while ow + BLOCK <= hi {
                    let mut acc = [bias; BLOCK];
                    let iw0 = (ow * sw) as isize - pw as isize;
                    for &(xrow, tdh) in &taps_dh {
                        for t in 0..kw {
                            let wv = load(isa, k.w.as_ptr().add((tdh + t) * c + c0), n);
                            let base = xrow + (iw0 + (t * dw) as isize) * xs;
                            for (j, a) in acc.iter_mut().enumerate() {
                                let at = base + (j * sw) as isize * xs;
                                *a = isa.fma(load(isa, k.x.offset(at).add(c0), n), wv, *a);
                            }
                        }
                    }
                    for (j, a) in acc.into_iter().enumerate() {
                        let at = yrow + (ow + j) as isize * p.y.s[2];
                        store(isa, k.y.offset(at).add(c0), n, finish(a));
                    }
                    ow += BLOCK;
                }
                while ow < hi {
                    one(ow, 0, kw);
                    ow += 1;
                }
                for ow in hi.max(lo.min(out[2]))..out[2] {
                    edge(ow);
                }
            }
            c0 += n;
        }
    }
}
