//! `tanh`, `sigmoid`, `silu` and the tanh-form GELU of f32, from `exp` of a
//! non-positive argument (so nothing overflows), each rounded once to f32
//! at the end. `tanh`, `sigmoid` and `silu` compute in f32 lanes, twice as
//! many as f64's, carrying the rounding errors of their few critical steps
//! (`exp_parts`, Fast2Sum, a division's residual); the tanh-form GELU
//! computes in f64 lanes. A vector within |x| < 6 of `sigmoid` or `silu`
//! skips the exponential: one of eight polynomial pieces of `sigmoid(−|x|)`
//! per lane.

use super::coeffs::{SIGMOID_PIECES, TANH_SMALL};
use super::explog::{exp_d, exp_parts, pow2};
use super::lanewise;
use super::{fast_two_sum, horner, one_minus_pair, three_quarter_piece};
use crate::cpu::simd::Isa;

lanewise! {
    /// `tanh x` ([`tanh`]).
    TanhOp => |isa, x| tanh(isa, x);
    /// `sigmoid x`: the pieces below |x| = 6, else through `exp`.
    SigmoidOp => |isa, x| sigmoid_exp(isa, x), common sigmoid_near, rare beyond_pieces;
    /// `silu x`: the pieces below |x| = 6, else through `exp`.
    SiluOp => |isa, x| silu_exp(isa, x), common silu_near, rare beyond_pieces;
    /// The tanh-form GELU ([`gelu_tanh`]).
    GeluTanhOp => |isa, x| gelu_tanh(isa, x);
}

/// Below this |x|, `tanh` by its odd polynomial (`1 − e⁻²ˣ` would cancel).
const TANH_SMALL_BELOW: f32 = 0.55;

/// `tanh x` in f32 lanes, within an ulp: `a + a³·T(a²)` below |x| = 0.55,
/// else `1 − 2t/(1 + t)` with `t = e⁻²ᵃ` from [`exp_parts`], the quotient
/// and the difference carried with their rounding errors (Fast2Sum and a
/// residual) and rounded once at the end.
#[inline(always)]
pub(crate) fn tanh<I: Isa>(isa: I, x: I::F) -> I::F {
    let a = isa.abs(x);
    let z = isa.mul(a, a);
    let small = isa.fma(a, isa.mul(z, horner(isa, z, &TANH_SMALL)), a);
    let v = if isa.any(isa.le(isa.splat(TANH_SMALL_BELOW), a)) {
        let big = tanh_large(isa, a);
        isa.select(isa.lt(a, isa.splat(TANH_SMALL_BELOW)), small, big)
    } else {
        small
    };
    isa.select(isa.is_nan(x), x, isa.copysign(v, x))
}

/// `tanh a` for `a ≥ 0.55` (and ∞): `1 − u`, `u = 2t/(1 + t)` ≤ ½.
#[inline(always)]
fn tanh_large<I: Isa>(isa: I, a: I::F) -> I::F {
    // Past |x| = 10 the result is 1 (t < 2⁻⁵⁷): the clamp keeps 2ⁿ normal.
    let a = isa.min(a, isa.splat(10.0));
    let (hi, lo, n) = exp_parts(isa, isa.mul(a, isa.splat(-2.0)));
    let p = pow2(isa, n);
    let (t, tl) = (isa.mul(hi, p), isa.mul(lo, p));
    let (dh, dl) = one_plus(isa, t, tl);
    let (uh, ul) = quotient(isa, (isa.add(t, t), isa.add(tl, tl)), (dh, dl));
    one_minus(isa, uh, ul)
}

/// `1 + (h + l)` for `0 ≤ h ≤ 1` as `hi + lo` (Fast2Sum).
#[inline(always)]
fn one_plus<I: Isa>(isa: I, h: I::F, l: I::F) -> (I::F, I::F) {
    let (hi, lo) = fast_two_sum(isa, isa.splat(1.0), h);
    (hi, isa.add(lo, l))
}

/// `1 − (h + l)` for `0 ≤ h ≤ 1`, rounded once: `1 − h` exactly as
/// `s + e` (Fast2Sum), then the low parts.
#[inline(always)]
fn one_minus<I: Isa>(isa: I, h: I::F, l: I::F) -> I::F {
    let one = isa.splat(1.0);
    let s = isa.sub(one, h);
    let e = isa.sub(isa.sub(one, s), h);
    isa.add(s, isa.sub(e, l))
}

/// `(nh + nl)/(dh + dl)` as `qh + ql`, about 40 bits: `qh = nh·(1/dh)`,
/// and the residual `nh − qh·dh` (exact in a fused multiply-add) with the
/// low parts, divided by `dh`. One division.
#[inline(always)]
fn quotient<I: Isa>(isa: I, (nh, nl): (I::F, I::F), (dh, dl): (I::F, I::F)) -> (I::F, I::F) {
    let rec = isa.div(isa.splat(1.0), dh);
    let qh = isa.mul(nh, rec);
    let res = isa.fnma(qh, dh, nh);
    let res = isa.fnma(qh, dl, isa.add(res, nl));
    (qh, isa.mul(res, rec))
}

/// Below this `x`, `sigmoid` (and `silu`) of a vector goes the way that
/// keeps subnormal results exact: `2ⁿ` through [`Isa::scale`].
const SUBNORMAL_BELOW: f32 = -87.0;

/// `sigmoid(x)` as `(qh + ql)·m`: `1/(1 + e)` for `x ≥ 0` and `e/(1 + e)`
/// below, `e = e^−|x|` from [`exp_parts`], with `m` the power of two that
/// scales `e`'s unscaled numerator (1 for `x ≥ 0`), applied by the caller
/// so that the result is rounded once. With `SUBNORMAL`, `m` is returned
/// as the exponent `n` for [`Isa::scale`] (subnormal results round once
/// there); without, `x ≥ −87` and `m = 2ⁿ` is built from its bits.
#[inline(always)]
fn sigmoid_parts<I: Isa, const SUBNORMAL: bool>(isa: I, x: I::F) -> (I::F, I::F, I::F) {
    let a = isa.abs(x);
    let a = if SUBNORMAL {
        a
    } else {
        isa.min(a, isa.splat(87.0))
    };
    let (eh, el, n) = exp_parts(isa, isa.sub(isa.splat(0.0), a));
    let one = isa.splat(1.0);
    let (e, e_lo, m) = if SUBNORMAL {
        (isa.scale(eh, n), isa.scale(el, n), n)
    } else {
        let p = pow2(isa, n);
        (isa.mul(eh, p), isa.mul(el, p), p)
    };
    let (dh, dl) = one_plus(isa, e, e_lo);
    let neg = isa.lt(x, isa.splat(0.0));
    // Numerator 1, or e unscaled (the quotient is scaled by 2ⁿ after).
    let nh = isa.select(neg, eh, one);
    let nl = isa.select(neg, el, isa.splat(0.0));
    let (qh, ql) = quotient(isa, (nh, nl), (dh, dl));
    let unit = if SUBNORMAL { isa.splat(0.0) } else { one };
    (qh, ql, isa.select(neg, m, unit))
}

/// Below this |x|, `sigmoid` (and `silu`) of a vector take the pieces of
/// [`sigmoid_near`].
const PIECES_END: f32 = 6.0;

/// The lanes of `x` beyond the pieces of [`sigmoid_near`] (|x| ≥ 6, ±∞;
/// NaN lanes are not: the pieces' paths replace them after).
#[inline(always)]
pub(crate) fn beyond_pieces<I: Isa>(isa: I, x: I::F) -> I::MF {
    isa.le(isa.splat(PIECES_END), isa.abs(x))
}

/// `sigmoid(x)` for |x| < 6 as `hi + lo`: `q = sigmoid(−|x|)` from one of
/// eight polynomial pieces ¾ wide chosen by `trunc(4|x|/3)`
/// ([`Pieces`](super::Pieces)), so that it keeps its relative accuracy as
/// it falls to 2.5·10⁻³, and `1 − q` for `x ≥ 0`. No exponential: about
/// half the operations of [`sigmoid_parts`].
#[inline(always)]
fn sigmoid_pieces<I: Isa>(isa: I, x: I::F) -> (I::F, I::F) {
    let b = isa.abs(x);
    let (piece, dh, dl) = three_quarter_piece(isa, b);
    let (qh, ql) = SIGMOID_PIECES.eval(isa, piece, dh, dl);
    one_minus_pair(isa, isa.le(isa.splat(0.0), x), qh, ql)
}

/// [`sigmoid_exp`] of a vector without lanes [`beyond_pieces`].
#[inline(always)]
pub(crate) fn sigmoid_near<I: Isa>(isa: I, x: I::F) -> I::F {
    let (h, l) = sigmoid_pieces(isa, x);
    isa.select(isa.is_nan(x), x, isa.add(h, l))
}

/// `1/(1+e⁻ˣ)` in f32 lanes through the exponential, within an ulp,
/// subnormal results included: for any lanes, and taken by a vector with
/// lanes [`beyond_pieces`] (the others take [`sigmoid_near`]).
#[inline(always)]
pub(crate) fn sigmoid_exp<I: Isa>(isa: I, x: I::F) -> I::F {
    let v = if isa.any(isa.lt(x, isa.splat(SUBNORMAL_BELOW))) {
        let (qh, ql, n) = sigmoid_parts::<I, true>(isa, x);
        isa.scale(isa.add(qh, ql), n)
    } else {
        let (qh, ql, m) = sigmoid_parts::<I, false>(isa, x);
        isa.mul(isa.add(qh, ql), m)
    };
    isa.select(isa.is_nan(x), x, v)
}

/// [`silu_exp`] of a vector without lanes [`beyond_pieces`].
#[inline(always)]
pub(crate) fn silu_near<I: Isa>(isa: I, x: I::F) -> I::F {
    // The pieces' low part holds their small terms (up to 1 % of the
    // value): renormalised, so that `x·l` of a subnormal `x` rounds by
    // nothing that shows.
    let (h, l) = sigmoid_pieces(isa, x);
    let (h, l) = fast_two_sum(isa, h, l);
    let v = isa.fma(x, h, isa.mul(x, l));
    isa.select(isa.is_nan(x), isa.splat(f32::NAN), v)
}

/// `x·sigmoid(x)` in f32 lanes through the exponential, within an ulp;
/// −∞ gives NaN (PyTorch's `x/(1+e⁻ˣ)` is −∞/∞ there). For any lanes, and
/// taken by a vector with lanes [`beyond_pieces`] (the others take
/// [`silu_near`]).
#[inline(always)]
pub(crate) fn silu_exp<I: Isa>(isa: I, x: I::F) -> I::F {
    let v = if isa.any(isa.lt(x, isa.splat(SUBNORMAL_BELOW))) {
        let (qh, ql, n) = sigmoid_parts::<I, true>(isa, x);
        // Below −120 the result is −0: `x` is clamped there as `e` is (a
        // huge `x` times the clamped `e` would not underflow).
        let xc = isa.max(x, isa.splat(-120.0));
        isa.scale(isa.fma(xc, qh, isa.mul(xc, ql)), n)
    } else {
        let (qh, ql, m) = sigmoid_parts::<I, false>(isa, x);
        isa.mul(isa.fma(x, qh, isa.mul(x, ql)), m)
    };
    let v = isa.select(isa.eq(x, isa.splat(f32::INFINITY)), x, v);
    let bad = isa.or_m(isa.is_nan(x), isa.eq(x, isa.splat(f32::NEG_INFINITY)));
    isa.select(bad, isa.splat(f32::NAN), v)
}

/// √(2/π).
const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;

/// `½x(1 + tanh(y)) = x/(1 + e⁻²ʸ)`, `y = √(2/π)(x + 0.044715x³)`.
#[inline(always)]
fn gelu_tanh_d<I: Isa>(isa: I, x: I::D) -> I::D {
    let x3 = isa.mul_d(isa.mul_d(x, x), x);
    let y = isa.mul_d(
        isa.fma_d(x3, isa.splat_d(0.044715), x),
        isa.splat_d(SQRT_2_OVER_PI),
    );
    // e⁻²ʸ, and for y > 0 the same through e^(−2|y|) to stay in range.
    let e = exp_d(isa, isa.mul_d(isa.abs_d(y), isa.splat_d(-2.0)));
    let one = isa.splat_d(1.0);
    let pos = isa.mul_d(x, isa.recip_d(isa.add_d(one, e)));
    let neg = isa.mul_d(isa.mul_d(x, e), isa.recip_d(isa.add_d(one, e)));
    isa.select_d(isa.lt_d(y, isa.splat_d(0.0)), neg, pos)
}

/// The tanh-form GELU (`approximate='tanh'`) in f32 lanes (through f64),
/// within an ulp of its formula; −∞ gives NaN, as PyTorch.
#[inline(always)]
pub(crate) fn gelu_tanh<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.narrow(gelu_tanh_d(isa, lo), gelu_tanh_d(isa, hi));
    let v = isa.select(isa.eq(x, isa.splat(f32::INFINITY)), x, v);
    let bad = isa.or_m(isa.is_nan(x), isa.eq(x, isa.splat(f32::NEG_INFINITY)));
    isa.select(bad, isa.splat(f32::NAN), v)
}
