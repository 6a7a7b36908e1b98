//! `tanh`, `sigmoid`, `silu` and the tanh-form GELU of f32, computed in f64
//! lanes from `exp` of a non-positive argument (so nothing overflows), each
//! rounded once to f32 at the end.

use super::explog::exp_d;
use crate::cpu::simd::Isa;

/// Below this |x|, `tanh` by its series (`1 − e⁻²ˣ` would cancel).
const TANH_SERIES: f64 = 0.0625;

#[inline(always)]
fn tanh_d<I: Isa>(isa: I, x: I::D) -> I::D {
    let a = isa.abs_d(x);
    let t = exp_d(isa, isa.mul_d(a, isa.splat_d(-2.0)));
    let one = isa.splat_d(1.0);
    let big = isa.mul_d(isa.sub_d(one, t), isa.recip_d(isa.add_d(one, t)));
    // a − a³/3 + 2a⁵/15 − 17a⁷/315
    let z = isa.mul_d(a, a);
    let p = isa.fma_d(z, isa.splat_d(-17.0 / 315.0), isa.splat_d(2.0 / 15.0));
    let p = isa.fma_d(z, p, isa.splat_d(-1.0 / 3.0));
    let small = isa.fma_d(isa.mul_d(a, z), p, a);
    isa.select_d(isa.lt_d(a, isa.splat_d(TANH_SERIES)), small, big)
}

/// `tanh x` in f32 lanes (through f64), within an ulp.
#[inline(always)]
pub(crate) fn tanh<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.copysign(isa.narrow(tanh_d(isa, lo), tanh_d(isa, hi)), x);
    isa.select(isa.is_nan(x), x, v)
}

/// `sigmoid(x)`: `1/(1+e)` or `e/(1+e)` with `e = exp(−|x|)`.
#[inline(always)]
fn sigmoid_d<I: Isa>(isa: I, x: I::D) -> I::D {
    let e = exp_d(isa, isa.sub_d(isa.splat_d(0.0), isa.abs_d(x)));
    let q = isa.recip_d(isa.add_d(isa.splat_d(1.0), e));
    isa.select_d(isa.lt_d(x, isa.splat_d(0.0)), isa.mul_d(e, q), q)
}

/// `1/(1+e⁻ˣ)` in f32 lanes (through f64), within an ulp, subnormal
/// results included.
#[inline(always)]
pub(crate) fn sigmoid<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.narrow(sigmoid_d(isa, lo), sigmoid_d(isa, hi));
    isa.select(isa.is_nan(x), x, v)
}

/// `x·sigmoid(x)` in f32 lanes (through f64), within an ulp; −∞ gives NaN
/// (PyTorch's `x/(1+e⁻ˣ)` is −∞/∞ there).
#[inline(always)]
pub(crate) fn silu<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.narrow(
        isa.mul_d(lo, sigmoid_d(isa, lo)),
        isa.mul_d(hi, sigmoid_d(isa, hi)),
    );
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
