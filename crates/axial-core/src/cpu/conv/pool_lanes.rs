//! Max pooling of f32 with channels innermost (NHWC), without indices: a
//! window's maximum over its taps, the channels the vector lanes of
//! [`Isa`], a NaN in any tap winning as PyTorch's `max_pool` lets it.

use crate::cpu::simd::{Isa, WithIsa, dispatch};

/// `acc[i] = max(acc[i], x[tap + i])` for every offset `tap` of `taps`, in
/// order; a NaN replaces the running maximum.
///
/// # Safety
/// `x.offset(tap)` is valid for reads of `acc.len()` f32 for every `tap`.
pub(crate) unsafe fn max_taps(x: *const f32, taps: &[isize], acc: &mut [f32]) {
    dispatch(MaxTaps { x, taps, acc });
}

struct MaxTaps<'a> {
    x: *const f32,
    taps: &'a [isize],
    acc: &'a mut [f32],
}

impl WithIsa for MaxTaps<'_> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let MaxTaps { x, taps, acc } = self;
        let c = acc.len();
        let mut i = 0;
        while i < c {
            let lanes = I::LANES.min(c - i);
            // SAFETY: `acc` has `c` elements; each tap's run of `c` is
            // readable (the caller's contract); `i + lanes ≤ c`.
            unsafe {
                let mut m = isa.load_n(acc.as_ptr().add(i), lanes);
                for &tap in taps {
                    let v = isa.load_n(x.offset(tap).add(i), lanes);
                    m = isa.select(isa.or_m(isa.lt(m, v), isa.is_nan(v)), v, m);
                }
                isa.store_n(acc.as_mut_ptr().add(i), lanes, m);
            }
            i += lanes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vectors' maximum is the element-by-element rule's, NaN and ±∞
    /// included, for channel counts with and without a partial vector.
    #[test]
    fn the_lanes_take_the_scalar_rules_maximum() {
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0];
        for c in [1, 5, 16, 17, 64, 70] {
            let x: Vec<f32> = (0..9 * c)
                .map(|i| match i % 23 {
                    0..=4 => specials[i % 23],
                    _ => ((i * 7919) % 1000) as f32 - 500.0,
                })
                .collect();
            let taps: Vec<isize> = (0..9).map(|t| (t * c) as isize).collect();
            let mut got = vec![f32::NEG_INFINITY; c];
            // SAFETY: nine runs of `c` elements.
            unsafe { max_taps(x.as_ptr(), &taps, &mut got) };
            let mut want = vec![f32::NEG_INFINITY; c];
            for &t in &taps {
                for (m, &v) in want.iter_mut().zip(&x[t as usize..]) {
                    *m = if v > *m || v.is_nan() { v } else { *m };
                }
            }
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                    "c {c}, {i}: {g} against {w}"
                );
            }
        }
    }
}
