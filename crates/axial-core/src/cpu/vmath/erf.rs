//! `erf` of f32 in f32 lanes (see [`erf`]), and the exact GELU, computed
//! in f64 lanes.
//!
//! GELU's left tail `x·Φ(x) = x·½·erfc(−x/√2)` needs `erfc` to within a
//! fraction of an ulp *relative* to its tiny value, down to the smallest
//! subnormal result; f64 lanes give that directly. Below |z| = 1
//! (`z = x/√2`), `erf(z) = z·P(z²)`; above, `erfc(z) = t·exp(G(t) − z²)`
//! with `t = 1/(1 + z/2)` (the form of Numerical Recipes' `erfcc`, fitted
//! afresh to 4·10⁻⁹, well within what the f32 result can show), so that
//! the tail stays accurate instead of rounding to 0 at x ≈ −5.

use super::coeffs::{ERF_C0, ERF_C1, ERF_F32_SMALL, ERF_SMALL, ERFC, ERFC_LOG_F32};
use super::explog::{exp_d, exp_parts_df, pow2};
use super::logistic::one_minus;
use super::{fast_two_sum, horner, horner_d};
use crate::cpu::simd::Isa;

/// `erf(z)` for |z| < 1.
#[inline(always)]
fn erf_small<I: Isa>(isa: I, z: I::D) -> I::D {
    isa.mul_d(z, horner_d(isa, isa.mul_d(z, z), &ERF_SMALL))
}

/// `erfc(a)` for `a ≥ 1`, given `a²` exactly.
#[inline(always)]
fn erfc_large<I: Isa>(isa: I, a: I::D, a2: I::D) -> I::D {
    let ac = isa.min_d(a, isa.splat_d(10.5));
    let t = isa.recip_d(isa.fma_d(ac, isa.splat_d(0.5), isa.splat_d(1.0)));
    let g = horner_d(isa, t, &ERFC);
    isa.mul_d(t, exp_d(isa, isa.sub_d(g, a2)))
}

/// `erf x` in f32 lanes, within an ulp. With `a = min(|x|, 4)` (past 4,
/// erf is 1 in f32) and `z = a²` exactly as `zh + zl`:
/// - below 1, `erf a = a·(c0 + c1·z + z²·P(z))`, with `c0` and `c1` as
///   pairs of f32, `c1·zh` exact (a fused multiply-add gives its error) and
///   `c0 + c1·zh` by Fast2Sum, so that only the small `z²·P` term rounds;
/// - from 1, `erf a = 1 − e^(−z + R(a))`, `R = ln erfc + a²` a polynomial,
///   the exponent taken as a pair by [`exp_parts_df`] and `1 − erfc` by
///   Fast2Sum (erfc ≤ 0.16 there, so its relative error counts less).
#[inline(always)]
pub(crate) fn erf<I: Isa>(isa: I, x: I::F) -> I::F {
    let zero = isa.splat(0.0);
    let one = isa.splat(1.0);
    let a = isa.min(isa.abs(x), isa.splat(4.0));
    let zh = isa.mul(a, a);
    let zl = isa.fma(a, a, isa.sub(zero, zh));
    let (c0, c1) = (
        (isa.splat(ERF_C0[0]), isa.splat(ERF_C0[1])),
        isa.splat(ERF_C1[0]),
    );
    let ph = isa.mul(zh, c1);
    let pe = isa.fma(zh, c1, isa.sub(zero, ph));
    let p2 = horner(isa, zh, &ERF_F32_SMALL);
    let rest = isa.fma(zh, isa.fma(zh, p2, isa.splat(ERF_C1[1])), isa.mul(zl, c1));
    let (s, e) = fast_two_sum(isa, c0.0, ph);
    let tail = isa.add(isa.add(e, pe), isa.add(rest, c0.1));
    // Formed at 2³² times its size, so that `a·tail` of a tiny `a` keeps its
    // digits instead of underflowing, then scaled back (exactly, or with
    // the one rounding of a subnormal result).
    let a32 = isa.mul(a, isa.splat(4_294_967_296.0));
    let small = isa.mul(
        isa.fma(a32, s, isa.mul(a32, tail)),
        isa.splat(1.0 / 4_294_967_296.0),
    );
    let v = if isa.any(isa.le(one, a)) {
        let r = horner(isa, isa.sub(a, isa.splat(2.5)), &ERFC_LOG_F32);
        let (hi, lo, n) = exp_parts_df(isa, isa.sub(zero, zh), isa.sub(r, zl));
        let p = pow2(isa, n);
        let (ch, cl) = (isa.mul(hi, p), isa.mul(lo, p));
        let large = one_minus(isa, ch, cl);
        isa.select(isa.lt(a, one), small, large)
    } else {
        small
    };
    isa.select(isa.is_nan(x), x, isa.copysign(v, x))
}

#[inline(always)]
fn gelu_d<I: Isa>(isa: I, x: I::D) -> I::D {
    let z = isa.mul_d(x, isa.splat_d(std::f64::consts::FRAC_1_SQRT_2));
    let a = isa.abs_d(z);
    let hx = isa.mul_d(isa.splat_d(0.5), x);
    let small = isa.fma_d(hx, erf_small(isa, z), hx);
    let near = isa.lt_d(a, isa.splat_d(1.0));
    if !isa.any_d(isa.le_d(isa.splat_d(1.0), a)) {
        return small;
    }
    // z² = x²/2 exactly: an f32's square fits in an f64.
    let c = erfc_large(isa, a, isa.mul_d(hx, x));
    let neg = isa.lt_d(x, isa.splat_d(0.0));
    let large = isa.select_d(
        neg,
        isa.mul_d(hx, c),
        isa.mul_d(hx, isa.sub_d(isa.splat_d(2.0), c)),
    );
    isa.select_d(near, small, large)
}

/// The exact GELU `x·Φ(x) = x·½·(1 + erf(x/√2))` in f32 lanes (through
/// f64), within an ulp; −∞ gives NaN (∞·0, as PyTorch), ∞ gives ∞.
#[inline(always)]
pub(crate) fn gelu<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.narrow(gelu_d(isa, lo), gelu_d(isa, hi));
    let bad = isa.or_m(isa.is_nan(x), isa.eq(x, isa.splat(f32::NEG_INFINITY)));
    let v = isa.select(isa.eq(x, isa.splat(f32::INFINITY)), x, v);
    isa.select(bad, isa.splat(f32::NAN), v)
}
