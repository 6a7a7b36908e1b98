//! Several outputs reduced side by side: `K` unit-stride runs of one
//! length stepped in one loop, each with its own [`LANES`] accumulators,
//! with the steps and combines of each run in the order of one run alone
//! (so the results are the same bits). One run at a time reads one memory
//! stream per thread; a row sum reading four rows at once measured 1.2–1.5×
//! faster, the memory serving several streams in flight.
//!
//! For the plain folds ([`Reducer::SIDE_BY_SIDE`]) of types that widen an
//! element at a time.

use super::ops::Reducer;
use super::walk::{LANES, LEAF, settle};
use super::widen::Widen;

/// Runs reduced side by side.
pub(super) const G: usize = 4;

/// The partial results of the runs `xs` (of one length), each as the walk
/// reduces one run: a leaf directly, a longer run in leaves combined
/// pairwise.
pub(super) fn reduce<R: Reducer, const K: usize>(r: R, xs: [&[R::In]; K]) -> [R::Acc; K] {
    let len = xs.first().map_or(0, |x| x.len());
    if len <= LEAF {
        lanes(r, xs, 0)
    } else {
        range(r, xs, 0, len)
    }
}

/// Positions `lo..hi` of each run, split as the walk's `inner_range` splits
/// them.
fn range<R: Reducer, const K: usize>(r: R, xs: [&[R::In]; K], lo: usize, hi: usize) -> [R::Acc; K] {
    let n = hi - lo;
    if n <= LEAF {
        let parts = lanes(r, xs.map(|x| &x[lo..hi]), lo);
        return parts.map(|part| r.combine(r.identity(), part));
    }
    let mid = lo + (n / 2).next_multiple_of(LANES).min(n - 1);
    let (a, b) = (range(r, xs, lo, mid), range(r, xs, mid, hi));
    std::array::from_fn(|q| r.combine(a[q], b[q]))
}

/// [`lanes_here`] compiled for the widest vectors the CPU has (as the
/// walk's one-run `lanes`, with AVX-512 F alone).
#[inline(always)]
fn lanes<R: Reducer, const K: usize>(r: R, xs: [&[R::In]; K], first: usize) -> [R::Acc; K] {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512 F.
            return unsafe { lanes_avx512(r, xs, first) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { lanes_avx2(r, xs, first) };
        }
    }
    lanes_here(r, xs, first)
}

/// # Safety
/// The CPU has AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn lanes_avx512<R: Reducer, const K: usize>(
    r: R,
    xs: [&[R::In]; K],
    first: usize,
) -> [R::Acc; K] {
    lanes_here(r, xs, first)
}

/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn lanes_avx2<R: Reducer, const K: usize>(
    r: R,
    xs: [&[R::In]; K],
    first: usize,
) -> [R::Acc; K] {
    lanes_here(r, xs, first)
}

/// The runs `xs` (of one length, at flat positions from `first`), each
/// with [`LANES`] accumulators stepped chunk by chunk, all runs in one
/// loop, then settled as the walk's `lanes_of` settles one.
#[inline(always)]
fn lanes_here<R: Reducer, const K: usize>(r: R, xs: [&[R::In]; K], first: usize) -> [R::Acc; K] {
    let len = xs.first().map_or(0, |x| x.len());
    let whole = len / LANES * LANES;
    if whole == 0 {
        // As `lanes_of`: a fold of the few elements.
        return xs.map(|x| settle(r, [r.identity(); LANES], x, first, Widen::widen));
    }
    let mut acc = [[r.identity(); LANES]; K];
    for c in (0..whole).step_by(LANES) {
        for (acc, x) in acc.iter_mut().zip(xs) {
            for (j, a) in acc.iter_mut().enumerate() {
                *a = r.step(*a, x[c + j].widen(), first + c + j);
            }
        }
    }
    std::array::from_fn(|q| settle(r, acc[q], &xs[q][whole..], first + whole, Widen::widen))
}

#[cfg(test)]
mod tests {
    use super::super::ops::{Max, Sum};
    use super::super::walk::lanes_of;
    use super::*;

    /// Deterministic values of mixed sign and magnitude.
    fn values(n: usize, seed: u32) -> Vec<f32> {
        let mut s = seed.wrapping_mul(2_654_435_761).max(1);
        (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                (s as f32 / u32::MAX as f32 - 0.5) * 2f32.powi((s % 20) as i32 - 10)
            })
            .collect()
    }

    #[test]
    fn side_by_side_gives_the_bits_of_one_run_alone() {
        for len in [0, 1, 15, 16, 17, 1000, 1024, 1025, 3000, 4103] {
            let runs: Vec<Vec<f32>> = (0..G as u32).map(|q| values(len, q + 1)).collect();
            let xs: [&[f32]; G] = std::array::from_fn(|q| runs[q].as_slice());
            let sums = reduce(Sum::<f32>::default(), xs);
            let maxes = reduce(Max::<f32>::default(), xs);
            for q in 0..G {
                let alone = reduce(Sum::<f32>::default(), [xs[q]])[0];
                assert_eq!(sums[q].to_bits(), alone.to_bits(), "sum, length {len}");
                assert_eq!(maxes[q], reduce(Max::<f32>::default(), [xs[q]])[0]);
                if len <= LEAF {
                    let walk = lanes_of(Sum::<f32>::default(), xs[q], 0, |x| x);
                    assert_eq!(sums[q].to_bits(), walk.to_bits(), "length {len}");
                }
            }
        }
    }
}
