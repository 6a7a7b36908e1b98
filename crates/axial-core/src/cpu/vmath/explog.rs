//! `exp` and `log`: in f32 lanes for the ops themselves, in f64 lanes as
//! the building blocks of the functions computed in f64 (`tanh`, `erf`,
//! `pow`, ...).
//!
//! Both reduce the argument by powers of two: `eˣ = 2ⁿ · eʳ` with
//! `r = x − n·ln 2` (ln 2 split in two so that `n·hi` is exact), and
//! `ln x = e·ln 2 + ln(1+f)` with `1+f` in [√½, √2) and
//! `ln(1+f) = 2·atanh(s)`, `s = f/(2+f)`, as in fdlibm.

use super::coeffs::{EXP_F32, EXP_F64, LOG_F32, LOG_F64};
use super::lanewise;
use super::{fast_two_sum, horner, horner_d};
use crate::cpu::simd::Isa;

lanewise! {
    /// `eˣ` ([`exp`]).
    ExpOp => |isa, x| exp(isa, x), memory bound true;
    /// `ln x` ([`log`]).
    LogOp => |isa, x| log(isa, x);
    /// `ln(1 + eˣ)` ([`softplus`]).
    SoftplusOp => |isa, x| softplus(isa, x);
}

const LOG2E: f32 = std::f32::consts::LOG2_E;
/// ln 2 rounded to f32, and the rest.
const LN2_HI: f32 = std::f32::consts::LN_2;
const LN2_LO: f32 = -1.904_654_2e-9;
/// ln 2 with its low 7 bits clear (so `e·hi` is exact), and the rest.
const LN2_HI_17: f32 = 0.693_138_1;
const LN2_LO_17: f32 = 9.058_001_5e-6;
const LN2_HI_D: f64 = std::f64::consts::LN_2;
const LN2_LO_D: f64 = 2.319_046_813_846_299_6e-17;

/// Where `2ⁿ`, `n = round(x·log₂e)`, is a normal f32 for every `x`
/// between (`n` in [−126, 126]).
const EXP_NORMAL: (f32, f32) = (-87.5, 87.5);

/// `eˣ` in f32 lanes, within an ulp: NaN stays NaN, below −103.97 gives 0,
/// above 88.72 infinity. A vector within ±87.5 (or NaN) takes one product
/// by `2ⁿ` built from its bits ([`pow2`]); others clamp and scale in two
/// steps ([`Isa::scale`]: subnormal results, overflow), about twice the
/// operations.
#[inline(always)]
pub(crate) fn exp<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = (isa.splat(EXP_NORMAL.0), isa.splat(EXP_NORMAL.1));
    let e = if isa.any(isa.or_m(isa.lt(x, lo), isa.lt(hi, x))) {
        let c = isa.min(isa.max(x, isa.splat(-104.0)), isa.splat(89.0));
        let (m, n) = exp_mantissa(isa, c);
        isa.scale(m, n)
    } else {
        let (m, n) = exp_mantissa(isa, x);
        isa.mul(m, pow2(isa, n))
    };
    isa.select(isa.is_nan(x), x, e)
}

/// `eˣ = m·2ⁿ` for |x| ≤ 104 as `(m, n)`, `m` rounded to f32 in [0.7, 1.42].
#[inline(always)]
fn exp_mantissa<I: Isa>(isa: I, x: I::F) -> (I::F, I::F) {
    let n = isa.round(isa.mul(x, isa.splat(LOG2E)));
    let r = isa.fma(n, isa.splat(-LN2_HI), x);
    let r = isa.fma(n, isa.splat(-LN2_LO), r);
    // eʳ = 1 + (r + r²·P(r)), the small part summed before the 1.
    let p = horner(isa, r, &EXP_F32);
    let s = isa.fma(isa.mul(r, r), p, r);
    (isa.add(isa.splat(1.0), s), n)
}

/// `eʸ` for `y ≤ 0` as `(hi + lo)·2ⁿ`, returned as `(hi, lo, n)` with `hi`
/// in [0.7, 1.42]: about 30 bits where [`exp`] rounds to 24, for the f32-lane
/// functions built on it (`tanh`, `sigmoid`, `silu`, `gelu`), whose last
/// steps would otherwise add that rounding to their own. `y` is clamped at
/// −120, where `2ⁿ` is far below f32's smallest subnormal; NaN is not
/// handled.
///
/// The reduced argument `r = y − n·ln 2` is kept as a pair: ln 2's high
/// part has 17 significant bits, so `y − n·hi` is exact, and the rounding
/// of its sum with `n·lo` is recovered (Fast2Sum). `eʳ − 1 = r + r²·P(r)`
/// is summed without losing the rounding of that sum (Fast2Sum), and so is
/// `1 + (eʳ − 1)`.
#[inline(always)]
pub(crate) fn exp_parts<I: Isa>(isa: I, y: I::F) -> (I::F, I::F, I::F) {
    let c = isa.max(y, isa.splat(-120.0));
    let n = isa.round(isa.mul(c, isa.splat(LOG2E)));
    let r = isa.fma(n, isa.splat(-LN2_HI_17), c);
    let (r, re) = fast_two_sum(isa, r, isa.mul(n, isa.splat(-LN2_LO_17)));
    exp_reduced(isa, r, re, n)
}

/// [`exp_parts`] of `yh + yl ≤ 0` given as a normalised pair (|`yl`| at most
/// half an ulp of `yh`, as a product's exact error is): the reduction takes
/// `yh` exactly, and `yl` joins the reduced argument's low part.
#[inline(always)]
pub(crate) fn exp_parts_df<I: Isa>(isa: I, yh: I::F, yl: I::F) -> (I::F, I::F, I::F) {
    let c = isa.max(yh, isa.splat(-120.0));
    let n = isa.round(isa.mul(c, isa.splat(LOG2E)));
    let r = isa.fma(n, isa.splat(-LN2_HI_17), c);
    let (r, re) = fast_two_sum(isa, r, isa.fma(n, isa.splat(-LN2_LO_17), yl));
    exp_reduced(isa, r, re, n)
}

/// `e^(r + re)` for |r| ≤ ln 2/2 and a small `re` as `(hi, lo, n)`, `·2ⁿ`
/// being wanted. (When |r| is below |re|, Fast2Sum's `re` is not exact,
/// but then both are so small that its error does not show.)
#[inline(always)]
fn exp_reduced<I: Isa>(isa: I, r: I::F, re: I::F, n: I::F) -> (I::F, I::F, I::F) {
    let t = isa.mul(isa.mul(r, r), horner(isa, r, &EXP_F32));
    // eʳ − 1 = qh + ql exactly (|r| ≥ |t|) and 1 + qh = hi + lo exactly;
    // e^(r + re) = eʳ·(1 + re) to first order, and eʳ·re ≈ re.
    let (qh, ql) = fast_two_sum(isa, r, t);
    let (hi, lo) = fast_two_sum(isa, isa.splat(1.0), qh);
    (hi, isa.add(lo, isa.add(ql, re)), n)
}

/// `2ⁿ` for integral `n` in [−126, 127], from its bits: `n + 127` is
/// brought into the low mantissa bits by adding 1.5·2²³ and shifted into
/// the exponent field (the bits above it leave the word).
#[inline(always)]
pub(crate) fn pow2<I: Isa>(isa: I, n: I::F) -> I::F {
    let biased = isa.add(n, isa.splat(12_582_912.0 + 127.0));
    isa.f_from_bits(isa.shl23(isa.to_bits(biased)))
}

/// `ln x` in f32 lanes, within an ulp: −∞ at ±0, NaN below 0 and for NaN,
/// ∞ at ∞; subnormals are scaled up first.
#[inline(always)]
pub(crate) fn log<I: Isa>(isa: I, x: I::F) -> I::F {
    let tiny = isa.lt(x, isa.splat(f32::MIN_POSITIVE));
    let xs = isa.select(tiny, isa.mul(x, isa.splat(8_388_608.0)), x);
    let bias = isa.select(tiny, isa.splat(-23.0), isa.splat(0.0));
    // The exponent that puts the mantissa in [√½, √2).
    let bits = isa.sub_i(isa.to_bits(xs), isa.splat_i(0x3f35_04f3));
    let k = isa.sra23(bits);
    let m = isa.f_from_bits(isa.sub_i(isa.to_bits(xs), isa.shl23(k)));
    let e = isa.add(isa.i_to_f(k), bias);
    let f = isa.sub(m, isa.splat(1.0));
    let s = isa.div(f, isa.add(isa.splat(2.0), f));
    let z = isa.mul(s, s);
    let r = isa.mul(z, horner(isa, z, &LOG_F32));
    let hfsq = isa.mul(isa.mul(isa.splat(0.5), f), f);
    // e·hi − ((hfsq − (s·(hfsq + R) + e·lo)) − f)
    let tail = isa.fma(s, isa.add(hfsq, r), isa.mul(e, isa.splat(LN2_LO_17)));
    let log = isa.fma(e, isa.splat(LN2_HI_17), isa.sub(f, isa.sub(hfsq, tail)));
    let special = isa.or_m(
        isa.le(x, isa.splat(0.0)),
        isa.eq(x, isa.splat(f32::INFINITY)),
    );
    if !isa.any(isa.or_m(special, isa.is_nan(x))) {
        return log;
    }
    let zero = isa.eq(x, isa.splat(0.0));
    let out = isa.select(isa.lt(x, isa.splat(0.0)), isa.splat(f32::NAN), log);
    let out = isa.select(zero, isa.splat(f32::NEG_INFINITY), out);
    let out = isa.select(isa.eq(x, isa.splat(f32::INFINITY)), x, out);
    isa.select(isa.is_nan(x), x, out)
}

/// `eʸ` in f64 lanes for results that are then rounded to f32: within a few
/// f64 ulps for `y` in [−200, 200]; `y` is clamped to that range (whose
/// ends are 0 and ∞ in f32). NaN is not handled.
#[inline(always)]
pub(crate) fn exp_d<I: Isa>(isa: I, y: I::D) -> I::D {
    let c = isa.min_d(isa.max_d(y, isa.splat_d(-200.0)), isa.splat_d(200.0));
    let n = isa.round_d(isa.mul_d(c, isa.splat_d(std::f64::consts::LOG2_E)));
    let r = isa.fma_d(n, isa.splat_d(-LN2_HI_D), c);
    let r = isa.fma_d(n, isa.splat_d(-LN2_LO_D), r);
    let p = horner_d(isa, r, &EXP_F64);
    let s = isa.fma_d(isa.mul_d(r, r), p, r);
    isa.scale_d(isa.add_d(isa.splat_d(1.0), s), n)
}

/// `ln x` in f64 lanes for finite positive normal `x`, within a few f64 ulps.
#[inline(always)]
pub(crate) fn log_d<I: Isa>(isa: I, x: I::D) -> I::D {
    let (m, e) = isa.frexp_d(x);
    let high = isa.lt_d(isa.splat_d(std::f64::consts::SQRT_2), m);
    let m = isa.select_d(high, isa.mul_d(m, isa.splat_d(0.5)), m);
    let e = isa.select_d(high, isa.add_d(e, isa.splat_d(1.0)), e);
    let f = isa.sub_d(m, isa.splat_d(1.0));
    let s = isa.div_d(f, isa.add_d(isa.splat_d(2.0), f));
    let z = isa.mul_d(s, s);
    let r = isa.mul_d(z, horner_d(isa, z, &LOG_F64));
    let hfsq = isa.mul_d(isa.mul_d(isa.splat_d(0.5), f), f);
    let tail = isa.fma_d(s, isa.add_d(hfsq, r), isa.mul_d(e, isa.splat_d(LN2_LO_D)));
    isa.fma_d(
        e,
        isa.splat_d(LN2_HI_D),
        isa.sub_d(f, isa.sub_d(hfsq, tail)),
    )
}

/// `ln(1 + eˣ)` in f32 lanes, within an ulp, and `x` itself above 20
/// (PyTorch's threshold). Computed in f64 lanes and rounded once: `1 + e`
/// carried as an exact pair `s + err` (TwoSum), so that
/// `ln(1 + e) = ln s + err/s` keeps the bits of an `e` far below 1, down to
/// the subnormal results.
#[inline(always)]
pub(crate) fn softplus<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.narrow(softplus_d(isa, lo), softplus_d(isa, hi));
    let v = isa.select(isa.lt(isa.splat(20.0), x), x, v);
    isa.select(isa.is_nan(x), x, v)
}

/// `ln(1 + eˣ)` in f64 lanes for `x ≤ 20` (larger lanes, and NaN, give
/// what 20 gives: the caller replaces them).
#[inline(always)]
fn softplus_d<I: Isa>(isa: I, x: I::D) -> I::D {
    let one = isa.splat_d(1.0);
    let e = exp_d(isa, isa.min_d(x, isa.splat_d(20.0)));
    let s = isa.add_d(one, e);
    let b = isa.sub_d(s, one);
    let err = isa.add_d(isa.sub_d(one, isa.sub_d(s, b)), isa.sub_d(e, b));
    isa.add_d(log_d(isa, s), isa.div_d(err, s))
}
