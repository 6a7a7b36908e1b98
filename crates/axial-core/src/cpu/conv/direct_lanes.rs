//! The convolution of f32 with one group and few input channels (a CNN's
//! stem: 3 → 32 channels, 3×3), channels innermost in the input and the
//! output (NHWC): the output channels are the vector lanes of [`Isa`].
//! Each output position sums, over its taps inside the input and its input
//! channels, one input value broadcast times a vector of weights (packed
//! `taps × in × out`, the output channels padded to [`PAD`]), the bias and
//! the clamp applied in registers before the one store. With so short a
//! reduction (27 products for the stem) `im2col` and a product spend more
//! time packing than multiplying.

use rayon::prelude::*;

use super::forward::Problem;
use crate::cpu::simd::{Isa, WithIsa, dispatch};
use crate::cpu::strided::PARALLEL_THRESHOLD;

/// The output channels of the packed weight are padded to a multiple of
/// this (the widest vector's lanes), so that every weight load is whole.
pub(crate) const PAD: usize = 16;

/// The most input channels per tap this kernel takes.
pub(crate) const MAX_IN: usize = 4;

/// The most output channels it takes (eight vectors of eight lanes).
pub(crate) const MAX_OUT: usize = 64;

/// Whether `p` (one group, channels innermost in input and output) is one
/// this kernel runs.
pub(crate) fn fits(p: &Problem) -> bool {
    p.groups == 1
        && p.cg <= MAX_IN
        && p.y.channels <= MAX_OUT
        && p.x.c == 1
        && p.y.c == 1
        && !p.win.is_pointwise()
}

/// The operands, as the kernel reads them.
pub(crate) struct Direct<'a> {
    pub(crate) p: &'a Problem,
    pub(crate) x: *const f32,
    pub(crate) y: *mut f32,
    /// The weight packed `taps × in × out` (out padded to [`PAD`]).
    pub(crate) w: &'a [f32],
    /// One value per output channel, padded to [`PAD`] (zeros without a
    /// bias).
    pub(crate) bias: &'a [f32],
    /// The clamp, if any: `(min, max)`.
    pub(crate) clamp: Option<(f32, f32)>,
}

// SAFETY: the pointers reach the operands of a checked problem; each job
// writes its own output row.
unsafe impl Sync for Direct<'_> {}

impl Direct<'_> {
    /// Packs the weight of `p` (read through `w_at`) as this kernel reads it.
    pub(crate) fn pack(p: &Problem, read: impl Fn(isize) -> f32) -> Vec<f32> {
        let (taps, cin, cout) = (p.win.taps(), p.cg, p.y.channels);
        let cp = cout.next_multiple_of(PAD);
        let mut w = vec![0.0f32; taps * cin * cp];
        for t in 0..taps {
            for ci in 0..cin {
                for co in 0..cout {
                    w[(t * cin + ci) * cp + co] = read(p.w_at(co, ci, t));
                }
            }
        }
        w
    }

    /// Runs every output row, in parallel when it pays.
    pub(crate) fn run(&self) {
        let out = self.p.y.size;
        let rows = self.p.y.batch.len() * out[0] * out[1];
        let each = out[2] * self.p.y.channels * self.p.win.taps() * self.p.cg;
        if rayon::current_num_threads() > 1
            && rows > 1
            && rows.saturating_mul(each) >= PARALLEL_THRESHOLD
        {
            (0..rows)
                .into_par_iter()
                .for_each(|r| dispatch(Row(self, r)));
        } else {
            (0..rows).for_each(|r| dispatch(Row(self, r)));
        }
    }
}

/// One output row of a [`Direct`] problem.
struct Row<'a, 'b>(&'a Direct<'b>, usize);

impl WithIsa for Row<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        match self.0.p.y.channels.div_ceil(I::LANES) {
            0 | 1 => self.vectors::<I, 1>(isa),
            2 => self.vectors::<I, 2>(isa),
            3 | 4 => self.vectors::<I, 4>(isa),
            _ => self.vectors::<I, 8>(isa),
        }
    }
}

impl Row<'_, '_> {
    /// The row with `V` vectors of output channels per position (the last
    /// ones partly or wholly past the channels: computed on the padding,
    /// not stored).
    #[inline(always)]
    fn vectors<I: Isa, const V: usize>(self, isa: I) {
        let Row(k, r) = self;
        let p = k.p;
        let (win, out, cout, cin) = (p.win, p.y.size, p.y.channels, p.cg);
        let cp = cout.next_multiple_of(PAD);
        let (b, od, oh) = (r / (out[0] * out[1]), r / out[1] % out[0], r % out[1]);
        // The (input offset of the row at column 0, first tap) of each
        // (depth, row) tap inside the input.
        let mut taps = Vec::with_capacity(win.k[0] * win.k[1]);
        for kd in 0..win.k[0] {
            for kh in 0..win.k[1] {
                if let (Some(id), Some(ih)) = (
                    win.source(0, od, kd, p.x.size[0]),
                    win.source(1, oh, kh, p.x.size[1]),
                ) {
                    taps.push((
                        p.x.batch[b] + p.x.at(id, ih, 0),
                        (kd * win.k[1] + kh) * win.k[2],
                    ));
                }
            }
        }
        let lanes = |v: usize| cout.saturating_sub(v * I::LANES).min(I::LANES);
        let bias: [I::F; V] = std::array::from_fn(|v| {
            if lanes(v) == 0 {
                isa.splat(0.0)
            } else {
                // SAFETY: `v·LANES < cout`, and the bias holds `cp` values,
                // a multiple of 16 (which LANES divides), so the whole
                // vector is inside.
                unsafe { isa.load(k.bias.as_ptr().add(v * I::LANES)) }
            }
        });
        let bounds = k.clamp.map(|(a, z)| (isa.splat(a), isa.splat(z)));
        let yrow = p.y.batch[b] + p.y.at(od, oh, 0);
        for ow in 0..out[2] {
            let mut acc = bias;
            for &(xrow, tdh) in &taps {
                for kw in 0..win.k[2] {
                    let Some(iw) = win.source(2, ow, kw, p.x.size[2]) else {
                        continue;
                    };
                    let xat = xrow + iw as isize * p.x.s[2];
                    let wt = (tdh + kw) * cin;
                    for ci in 0..cin {
                        // SAFETY: an input element inside (its position
                        // found by `source`, channel below `cin`); the
                        // weight holds `taps × cin × cp` values.
                        unsafe {
                            let xv = isa.splat(*k.x.offset(xat + ci as isize));
                            let wp = k.w.as_ptr().add((wt + ci) * cp);
                            for (v, a) in acc.iter_mut().enumerate() {
                                if lanes(v) > 0 {
                                    *a = isa.fma(xv, isa.load(wp.add(v * I::LANES)), *a);
                                }
                            }
                        }
                    }
                }
            }
            let yat = yrow + ow as isize * p.y.s[2];
            for (v, a) in acc.into_iter().enumerate() {
                let n = lanes(v);
                if n == 0 {
                    continue;
                }
                let a = match bounds {
                    Some((lo, hi)) => isa.min(hi, isa.max(lo, a)),
                    None => a,
                };
                // SAFETY: output channels `v·LANES ..+ n` of an in-range
                // position, this job's alone.
                unsafe {
                    isa.store_n(k.y.offset(yat).add(v * I::LANES), n, a);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::nn::{ConvOptions, Padding};
    use crate::{DType, Generator, RawTensor};

    /// The f32 direct kernel against the f64 product (`im2col`), NHWC,
    /// over input and output channel counts around the lane widths,
    /// strides, dilations and paddings that leave edge taps, 1-d and 2-d,
    /// with and without a bias and a clamp.
    #[test]
    fn direct_matches_the_product() {
        let mut rng = Generator::seed(11);
        for (i, &(cin, cout, h, w, k, s, d, p)) in [
            (3, 32, 9, 9, 3, 2, 1, 1),
            (1, 1, 5, 6, 3, 1, 1, 1),
            (2, 7, 6, 9, 3, 2, 1, 0),
            (4, 17, 7, 5, 5, 1, 2, 2),
            (3, 40, 4, 13, 2, 3, 1, 1),
            (4, 64, 8, 8, 3, 1, 1, 1),
            (1, 16, 1, 20, 1, 1, 1, 0),
        ]
        .iter()
        .enumerate()
        {
            let x = RawTensor::randn(&[2, h, w, cin], DType::F64, &mut rng).unwrap();
            let wt = RawTensor::randn(&[cout, cin, k, k], DType::F64, &mut rng).unwrap();
            let b = RawTensor::randn(&[cout], DType::F64, &mut rng).unwrap();
            let mut o = ConvOptions::new()
                .stride(&[s])
                .dilation(&[d])
                .padding(Padding::Both(vec![p]));
            if i % 2 == 1 {
                o = o.clamp(-0.5, 1.0);
            }
            let bias = (i % 3 != 2).then_some(&b);
            super::super::f32_within_f64(i, &x, &wt, bias, &o);
        }
    }
}
