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
            (0..rows)
                .into_par_iter()
                .for_each(|r| dispatch(Row(self, r)));
        } else {
            (0..rows).for_each(|r| dispatch(Row(self, r)));
        }
    }
}

/// One output row of a [`Lanes`] problem.
struct Row<'a, 'b>(&'a Lanes<'b>, usize);

/// What the positions of one row and channel block share (plain
/// functions rather than closures, so that they inline into the caller
/// compiled with the instruction set's features).
struct Ctx<'a, I: Isa> {
    isa: I,
    k: &'a Lanes<'a>,
    /// `(input offset of the row at column 0, first tap)` of each (depth,
    /// row) tap inside the input.
    taps: &'a [(isize, usize)],
    yrow: isize,
    c0: usize,
    n: usize,
    bias: I::F,
    bounds: Option<(I::F, I::F)>,
}

impl<I: Isa> Ctx<'_, I> {
    /// The clamp, if any; `max(lo, v)` then `min(hi, ·)` keep NaN (the
    /// second operand wins).
    #[inline(always)]
    fn finish(&self, v: I::F) -> I::F {
        match self.bounds {
            Some((lo, hi)) => self.isa.min(hi, self.isa.max(lo, v)),
            None => v,
        }
    }

    /// Output column `ow` over the taps `t0..t1` along the row.
    ///
    /// # Safety
    /// Those taps read inside the input; the output position is in range.
    #[inline(always)]
    unsafe fn one(&self, ow: usize, t0: usize, t1: usize) {
        let (isa, k, c, n, c0) = (self.isa, self.k, self.k.p.y.channels, self.n, self.c0);
        let win = k.p.win;
        let xs = k.p.x.s[2];
        let iw0 = (ow * win.stride[2]) as isize - win.pad[2] as isize;
        let mut acc = self.bias;
        for &(xrow, tdh) in self.taps {
            for t in t0..t1 {
                let at = xrow + (iw0 + (t * win.dil[2]) as isize) * xs;
                // SAFETY: the caller's contract; the weight holds `taps × c`.
                unsafe {
                    let xv = isa.load_n(k.x.offset(at).add(c0), n);
                    let wv = isa.load_n(k.w.as_ptr().add((tdh + t) * c + c0), n);
                    acc = isa.fma(xv, wv, acc);
                }
            }
        }
        let at = self.yrow + ow as isize * k.p.y.s[2];
        // SAFETY: the caller's contract.
        unsafe { isa.store_n(k.y.offset(at).add(c0), n, self.finish(acc)) };
    }

    /// An edge column: over the taps along the row that read inside.
    ///
    /// # Safety
    /// The output position is in range.
    #[inline(always)]
    unsafe fn edge(&self, ow: usize) {
        let (win, n) = (self.k.p.win, self.k.p.x.size[2]);
        let kw = win.k[2];
        let mut t0 = 0;
        while t0 < kw && win.source(2, ow, t0, n).is_none() {
            t0 += 1;
        }
        let mut t1 = t0;
        while t1 < kw && win.source(2, ow, t1, n).is_some() {
            t1 += 1;
        }
        // SAFETY: taps t0..t1 read inside (checked above).
        unsafe { self.one(ow, t0, t1) };
    }

    /// Columns `ow..ow + BLOCK`, every tap inside: each weight vector
    /// loaded once for the block.
    ///
    /// # Safety
    /// Every tap of those columns reads inside; they are in range.
    #[inline(always)]
    unsafe fn block(&self, ow: usize) {
        let (isa, k, c, n, c0) = (self.isa, self.k, self.k.p.y.channels, self.n, self.c0);
        let win = k.p.win;
        let xs = k.p.x.s[2];
        let step = win.stride[2] as isize * xs;
        let iw0 = (ow * win.stride[2]) as isize - win.pad[2] as isize;
        let mut acc = [self.bias; BLOCK];
        for &(xrow, tdh) in self.taps {
            for t in 0..win.k[2] {
                // SAFETY: the caller's contract; the weight holds `taps × c`.
                unsafe {
                    let wv = isa.load_n(k.w.as_ptr().add((tdh + t) * c + c0), n);
                    let base =
                        k.x.offset(xrow + (iw0 + (t * win.dil[2]) as isize) * xs)
                            .add(c0);
                    for (j, a) in acc.iter_mut().enumerate() {
                        *a = isa.fma(isa.load_n(base.offset(j as isize * step), n), wv, *a);
                    }
                }
            }
        }
        for (j, a) in acc.into_iter().enumerate() {
            let at = self.yrow + (ow + j) as isize * k.p.y.s[2];
            // SAFETY: the caller's contract.
            unsafe { isa.store_n(k.y.offset(at).add(c0), n, self.finish(a)) };
        }
    }
}

impl<I: Isa> Ctx<'_, I> {
    /// Columns `ow..ow + BLOCK` of a row with unit stride and dilation
    /// along it and `KW` taps: each input vector of the `BLOCK + KW − 1`
    /// the block reads is loaded once and serves every position whose
    /// window holds it (the taps along the row share their inputs), the
    /// `KW` weight vectors of a kernel row loaded once for the block.
    ///
    /// # Safety
    /// As [`Ctx::block`]; the window has `KW` taps along the row, unit
    /// stride and dilation.
    #[inline(always)]
    unsafe fn block_unit<const KW: usize>(&self, ow: usize) {
        let (isa, k, c, n, c0) = (self.isa, self.k, self.k.p.y.channels, self.n, self.c0);
        let xs = k.p.x.s[2];
        let iw0 = ow as isize - k.p.win.pad[2] as isize;
        let mut acc = [self.bias; BLOCK];
        for &(xrow, tdh) in self.taps {
            // SAFETY: the caller's contract; the weight holds `taps × c`,
            // and inputs `iw0 .. iw0 + BLOCK + KW − 1` of this row are
            // inside (every tap of the block's columns reads inside).
            unsafe {
                let w: [I::F; KW] =
                    std::array::from_fn(|t| isa.load_n(k.w.as_ptr().add((tdh + t) * c + c0), n));
                let base = k.x.offset(xrow + iw0 * xs).add(c0);
                for i in 0..BLOCK + KW - 1 {
                    let xv = isa.load_n(base.offset(i as isize * xs), n);
                    for (j, a) in acc.iter_mut().enumerate() {
                        if i >= j && i - j < KW {
                            *a = isa.fma(xv, w[i - j], *a);
                        }
                    }
                }
            }
        }
        for (j, a) in acc.into_iter().enumerate() {
            let at = self.yrow + (ow + j) as isize * k.p.y.s[2];
            // SAFETY: the caller's contract.
            unsafe { isa.store_n(k.y.offset(at).add(c0), n, self.finish(a)) };
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
        let mut taps = Vec::with_capacity(win.k[0] * win.k[1]);
        for kd in 0..win.k[0] {
            for kh in 0..win.k[1] {
                let (Some(id), Some(ih)) = (
                    win.source(0, od, kd, p.x.size[0]),
                    win.source(1, oh, kh, p.x.size[1]),
                ) else {
                    continue;
                };
                taps.push((
                    p.x.batch[b] + p.x.at(id, ih, 0),
                    (kd * win.k[1] + kh) * win.k[2],
                ));
            }
        }
        let kw = win.k[2];
        // Columns whose every tap along the row is inside: [lo, hi).
        let (lo, _) = win.valid_outputs(2, 0, p.x.size[2], out[2]);
        let (_, hi) = win.valid_outputs(2, kw - 1, p.x.size[2], out[2]);
        let hi = hi.max(lo);
        let bounds = k.clamp.map(|(a, z)| (isa.splat(a), isa.splat(z)));
        // One context per block of channels; the columns are the outer
        // loop, so that each position's channels are read in one sweep.
        let yrow = p.y.batch[b] + p.y.at(od, oh, 0);
        let mut blocks: Vec<Ctx<'_, I>> = Vec::with_capacity(c.div_ceil(I::LANES));
        let mut c0 = 0;
        while c0 < c {
            let n = (c - c0).min(I::LANES);
            blocks.push(Ctx {
                isa,
                k,
                taps: &taps,
                yrow,
                c0,
                n,
                // SAFETY: `c` bias values.
                bias: unsafe { isa.load_n(k.bias.as_ptr().add(c0), n) },
                bounds,
            });
            c0 += n;
        }
        // SAFETY: columns below `lo` and from `hi` on are edges (their
        // valid taps found by `source`), those in between read inside at
        // every tap (`valid_outputs`); all are below `out[2]`; this row's
        // outputs are this job's alone.
        unsafe {
            for ow in 0..lo {
                for ctx in &blocks {
                    ctx.edge(ow);
                }
            }
            let mut ow = lo;
            let unit = win.stride[2] == 1 && win.dil[2] == 1;
            while ow + BLOCK <= hi {
                for ctx in &blocks {
                    match (unit, kw) {
                        (true, 3) => ctx.block_unit::<3>(ow),
                        (true, 5) => ctx.block_unit::<5>(ow),
                        _ => ctx.block(ow),
                    }
                }
                ow += BLOCK;
            }
            while ow < hi {
                for ctx in &blocks {
                    ctx.one(ow, 0, kw);
                }
                ow += 1;
            }
            for ow in hi..out[2] {
                for ctx in &blocks {
                    ctx.edge(ow);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::nn::{ConvOptions, Padding};
    use crate::{DType, Generator, RawTensor};

    /// The f32 vector kernel against the scalar f64 one, NHWC, over
    /// channel counts around the lane widths, strides, dilations and
    /// paddings that leave edge columns, rows narrower than a block, with
    /// and without a bias and a clamp.
    #[test]
    fn lanes_match_the_scalar_kernel() {
        let mut rng = Generator::seed(7);
        for (i, &(c, h, w, k, s, d, p)) in [
            (1, 5, 5, 3, 1, 1, 1),
            (7, 6, 9, 3, 2, 1, 1),
            (16, 4, 13, 5, 1, 1, 2),
            (17, 7, 7, 3, 1, 2, 2),
            (33, 3, 2, 3, 1, 1, 1),
            (40, 9, 11, 5, 2, 1, 0),
            (8, 1, 20, 1, 3, 1, 0),
        ]
        .iter()
        .enumerate()
        {
            let x = RawTensor::randn(&[2, h, w, c], DType::F64, &mut rng).unwrap();
            let wt = RawTensor::randn(&[c, 1, k, k], DType::F64, &mut rng).unwrap();
            let b = RawTensor::randn(&[c], DType::F64, &mut rng).unwrap();
            let mut o = ConvOptions::new()
                .stride(&[s])
                .dilation(&[d])
                .padding(Padding::Both(vec![p]))
                .groups(c);
            if i % 2 == 1 {
                o = o.clamp(-0.5, 1.0);
            }
            let bias = (i % 3 != 2).then_some(&b);
            let exact = super::super::f32_within_f64(i, &x, &wt, bias, &o);
            if o.clamp.is_some() {
                assert!(exact.iter().all(|v| (-0.5..=1.0).contains(v)), "case {i}");
            }
        }
    }
}
