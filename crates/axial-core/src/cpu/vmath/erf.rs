//! `erf` and the exact GELU of f32 in f32 lanes, each from eight
//! polynomial pieces chosen per lane ([`Pieces`](super::Pieces)): one
//! table lookup per coefficient instead of computing every form for every
//! lane.
//!
//! `erf` takes pieces of `erf` itself (see [`erf`]). GELU's left tail
//! `x·Φ(x)` needs `Φ(x)` to a fraction of an ulp *relative* to its tiny
//! value, so GELU takes pieces of `e^(x²/2)·Φ(−|x|)`, which varies slowly,
//! times `e^(−x²/2)` from [`exp_parts_df`] (see [`gelu_pieces`]); below −6, down
//! to the subnormal results, it computes in f64 lanes: there, below
//! |z| = 1 (`z = x/√2`), `erf(z) = z·P(z²)`; above, `erfc(z) =
//! t·exp(G(t) − z²)` with `t = 1/(1 + z/2)` (the form of Numerical
//! Recipes' `erfcc`, fitted afresh to 4·10⁻⁹).

use super::coeffs::{ERF_PIECES, ERF_SMALL, ERFC, GELU_PIECES};
use super::explog::{exp_d, exp_parts_df, pow2};
use super::lanewise;
use super::{horner_d, one_minus_pair, three_quarter_piece};
use crate::cpu::simd::Isa;

lanewise! {
    /// `erf x` ([`erf`]).
    ErfOp => |isa, x| erf(isa, x);
    /// The exact GELU: its pieces above x = −6, else in f64 lanes.
    GeluOp => |isa, x| gelu_wide(isa, x), common gelu_pieces, rare below_gelu_pieces;
}

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

/// Where the pieces of [`erf`] end: the f32 below 4 (erf rounds to 1 past
/// it), so that `trunc(2a)` is below 8.
const PIECES_END: f32 = 3.999_999_8;

/// `erf x` in f32 lanes, within an ulp, as one of eight polynomial pieces
/// of `a = |x|` per lane, chosen by `trunc(2a)` ([`Isa::lookup8`]), each
/// `c0 + c1·v + v²·P(v)` with `c0` and `c1` as pairs of f32:
/// - below ½, `erf a = a·(c0 + c1·z + z²·P(z))` in `z = a²` (exact as
///   `zh + zl`), formed at 2³² times its size so that `a·tail` of a tiny
///   `a` keeps its digits, then scaled back;
/// - above, `erf a` itself in `d = a − centre` (exact), on a piece ½ wide.
///
/// Only the small terms of the piece round
/// ([`Pieces::eval`](super::Pieces::eval)) before the one rounding of the
/// result.
#[inline(always)]
pub(crate) fn erf<I: Isa>(isa: I, x: I::F) -> I::F {
    let zero = isa.splat(0.0);
    let a = isa.min(isa.abs(x), isa.splat(PIECES_END));
    let piece = isa.trunc_i(isa.add(a, a));
    let first = isa.lt(a, isa.splat(0.5));
    let zh = isa.mul(a, a);
    let zl = isa.fms(a, a, zh);
    let centre = isa.fma(isa.i_to_f(piece), isa.splat(0.5), isa.splat(0.25));
    let v = isa.select(first, zh, isa.sub(a, centre));
    let vl = isa.select(first, zl, zero);
    let (s, tail) = ERF_PIECES.eval(isa, piece, v, vl);
    let scale = isa.splat(4_294_967_296.0);
    let m = isa.select(first, isa.mul(a, scale), isa.splat(1.0));
    let back = isa.select(first, isa.splat(1.0 / 4_294_967_296.0), isa.splat(1.0));
    let v = isa.mul(isa.fma(m, s, isa.mul(m, tail)), back);
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

/// Where the pieces of [`gelu_pieces`] end: the f32 below 6 (past it `Φ(x)`
/// rounds to 1 in `x·Φ(x)`), so that `trunc(4b/3)` is below 8.
const GELU_END: f32 = 5.999_999_5;

/// The lanes of `x` below the pieces of [`gelu_pieces`] (−6 and less).
#[inline(always)]
pub(crate) fn below_gelu_pieces<I: Isa>(isa: I, x: I::F) -> I::MF {
    isa.lt(x, isa.splat(-GELU_END))
}

/// The exact GELU `x·Φ(x) = x·½·(1 + erf(x/√2))` in f32 lanes, within an
/// ulp, for a vector without lanes [`below_gelu_pieces`] (others take
/// [`gelu_wide`]); ∞ gives ∞.
///
/// With `b = |x|`, `Φ(−b) = e^(−b²/2)·M(b)` where `M(b) = e^(b²/2)·Φ(−b)`
/// varies slowly (from ½ to `1/(b√2π)`): one of eight pieces ¾ wide
/// ([`Pieces`](super::Pieces)) on [0, 6). `b²/2` is exact as a pair and
/// its exponential comes from [`exp_parts_df`], so that `Φ(−b)` keeps its
/// relative accuracy however small it is; `Φ(x) = 1 − Φ(−b)` for `x ≥ 0`.
#[inline(always)]
pub(crate) fn gelu_pieces<I: Isa>(isa: I, x: I::F) -> I::F {
    let zero = isa.splat(0.0);
    let b = isa.min(isa.abs(x), isa.splat(GELU_END));
    let (piece, dh, dl) = three_quarter_piece(isa, b);
    let (mh, ml) = GELU_PIECES.eval(isa, piece, dh, dl);
    // e^(−b²/2), b² exact as qh + ql.
    let qh = isa.mul(b, b);
    let ql = isa.fms(b, b, qh);
    let half = isa.splat(-0.5);
    let (eh, el, n) = exp_parts_df(isa, isa.mul(qh, half), isa.mul(ql, half));
    let p = pow2(isa, n);
    let (eh, el) = (isa.mul(eh, p), isa.mul(el, p));
    // Φ(−b) = (eh + el)·(mh + ml) as th + tl.
    let th = isa.mul(eh, mh);
    let tl = isa.fms(eh, mh, th);
    let tl = isa.add(tl, isa.fma(eh, ml, isa.mul(el, mh)));
    // Φ(x): Φ(−b) below 0, 1 − Φ(−b) from 0.
    let (ph, pl) = one_minus_pair(isa, isa.le(zero, x), th, tl);
    let v = isa.fma(x, ph, isa.mul(x, pl));
    let v = isa.select(isa.eq(x, isa.splat(f32::INFINITY)), x, v);
    isa.select(isa.is_nan(x), x, v)
}

/// The exact GELU of any f32 through f64 lanes, within an ulp: for a vector
/// with a lane in the left tail, below −6, where the results fall below
/// 10⁻⁸ and down to the subnormals (others take [`gelu_pieces`]); −∞ gives
/// NaN (∞·0, as PyTorch), ∞ gives ∞. (Inlined: a function of its own would
/// be compiled without the instruction set's target features.)
#[inline(always)]
pub(crate) fn gelu_wide<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.narrow(gelu_d(isa, lo), gelu_d(isa, hi));
    let bad = isa.or_m(isa.is_nan(x), isa.eq(x, isa.splat(f32::NEG_INFINITY)));
    let v = isa.select(isa.eq(x, isa.splat(f32::INFINITY)), x, v);
    isa.select(bad, isa.splat(f32::NAN), v)
}
