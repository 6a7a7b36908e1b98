//! Four f32 sums side by side: one thread reading one run at a time keeps
//! one stream of memory reads in flight, and a row sum of a large matrix
//! then waits on memory; four runs read together keep four (a hand-written
//! loop measured 36–48 GB/s against 27–32 one run at a time).
//!
//! Each run is added exactly as [`lanes_of`](super::walk::lanes_of) adds
//! it alone, so the results do not depend on how the walker groups runs:
//! sixteen lanes, lane `j` taking the elements at `j` modulo 16 in order,
//! the lanes combined pairwise (`j + 8`, then `j + 4`, …), then the tail.

use super::walk::LANES;
use crate::cpu::simd::{Isa, WithIsa, dispatch, prefetch};

/// The f32 sums of four runs of the same length, with the CPU's best
/// vectors; the same bits as four calls of `lanes_of` with `Sum`.
pub(super) fn sum4_f32(runs: [&[f32]; 4]) -> [f32; 4] {
    dispatch(Sum4 { runs })
}

/// The work of [`sum4_f32`].
struct Sum4<'a> {
    runs: [&'a [f32]; 4],
}

/// Vectors of accumulators per run, at most (`LANES` over the narrowest
/// [`Isa::LANES`], 8).
const MAX_VECTORS: usize = LANES / 8;

impl WithIsa for Sum4<'_> {
    type Output = [f32; 4];

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) -> [f32; 4] {
        let Sum4 { runs } = self;
        let len = runs[0].len();
        assert!(runs.iter().all(|xs| xs.len() == len));
        let vectors = LANES / I::LANES;
        debug_assert!(vectors <= MAX_VECTORS && vectors * I::LANES == LANES);
        let chunks = if len < LANES { 0 } else { len / LANES };
        let mut acc = [[isa.splat(0.0); MAX_VECTORS]; 4];
        for c in 0..chunks {
            for (row, xs) in acc.iter_mut().zip(&runs) {
                let p = xs.as_ptr().wrapping_add(c * LANES);
                prefetch(p.wrapping_add(PREFETCH_AHEAD));
                for (v, a) in row.iter_mut().enumerate().take(vectors) {
                    // SAFETY: `c < chunks`: the run holds `LANES` f32 from
                    // `c * LANES`, of which this vector reads its share.
                    *a = isa.add(*a, unsafe { isa.load(p.add(v * I::LANES)) });
                }
            }
        }
        // (Loops, not closures: a closure left not inlined is compiled
        // without the instruction set's features, each intrinsic a call.)
        let mut sums = [0f32; 4];
        for ((sum, row), xs) in sums.iter_mut().zip(&acc).zip(&runs) {
            let mut lanes = [0f32; LANES];
            for (v, &a) in row.iter().enumerate().take(vectors) {
                // SAFETY: `lanes` holds `LANES` f32, this vector its share.
                unsafe { isa.store(lanes.as_mut_ptr().add(v * I::LANES), a) };
            }
            *sum = finish(lanes, &xs[chunks * LANES..], chunks > 0);
        }
        sums
    }
}

/// Elements ahead of the reads that each run prefetches (its streams are
/// four; one buffer's loops ask 4 KiB ahead).
const PREFETCH_AHEAD: usize = 256;

/// The sum of the sixteen lanes combined pairwise, then of the `tail`
/// folded from 0 (all of a run shorter than the lanes, as `lanes_of`).
#[inline(always)]
fn finish(mut lanes: [f32; LANES], tail: &[f32], had_chunks: bool) -> f32 {
    let rest = tail.iter().fold(0.0, |a, &x| a + x);
    if !had_chunks {
        return rest;
    }
    let mut width = LANES / 2;
    while width > 0 {
        for j in 0..width {
            lanes[j] += lanes[j + width];
        }
        width /= 2;
    }
    lanes[0] + rest
}

#[cfg(test)]
mod tests {
    use super::super::ops::Sum;
    use super::super::walk::lanes_of;
    use super::*;
    use crate::cpu::simd::{available, dispatch_at};

    #[test]
    fn the_same_bits_as_one_run_alone_with_every_instruction_set() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 2f32.powi((s % 30) as i32)
        };
        for len in [0, 1, 15, 16, 17, 31, 32, 33, 100, 1024, 1031] {
            let data: Vec<Vec<f32>> = (0..4).map(|_| (0..len).map(|_| next()).collect()).collect();
            let runs = [&data[0][..], &data[1], &data[2], &data[3]];
            let want = runs.map(|xs| lanes_of(Sum::<f32>::default(), xs, 0, |x| x));
            for level in available() {
                let got = dispatch_at(level, Sum4 { runs });
                assert_eq!(
                    got.map(f32::to_bits),
                    want.map(f32::to_bits),
                    "{level:?}, {len}"
                );
            }
        }
    }
}
