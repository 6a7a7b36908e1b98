//! `erf` and the exact GELU of f32, computed in f64 lanes.
//!
//! Below |z| = 1, `erf(z) = z·P(z²)`; above, `erfc(z) = t·exp(G(t) − z²)`
//! with `t = 1/(1 + z/2)` (the form of Numerical Recipes' `erfcc`, fitted
//! afresh to 4·10⁻⁹, well within what the f32 result can show), so that `1 − erf` of a large argument keeps its
//! digits: GELU's left tail `x·½·erfc(−x/√2)` stays accurate down to the
//! smallest subnormal instead of rounding to 0 at x ≈ −5.

use super::coeffs::{ERF_SMALL, ERFC};
use super::explog::exp_d;
use super::horner_d;
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

#[inline(always)]
fn erf_d<I: Isa>(isa: I, x: I::D) -> I::D {
    let a = isa.abs_d(x);
    let small = erf_small(isa, x);
    let near = isa.lt_d(a, isa.splat_d(1.0));
    if !isa.any_d(isa.le_d(isa.splat_d(1.0), a)) {
        return small;
    }
    let one_minus = isa.sub_d(isa.splat_d(1.0), erfc_large(isa, a, isa.mul_d(x, x)));
    let neg = isa.lt_d(x, isa.splat_d(0.0));
    let large = isa.select_d(neg, isa.sub_d(isa.splat_d(0.0), one_minus), one_minus);
    isa.select_d(near, small, large)
}

/// `erf x` in f32 lanes (through f64), within an ulp.
#[inline(always)]
pub(crate) fn erf<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.narrow(erf_d(isa, lo), erf_d(isa, hi));
    isa.select(isa.is_nan(x), x, v)
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
