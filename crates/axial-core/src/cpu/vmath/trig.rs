//! `sin` and `cos` of f32: in f32 lanes for |x| < 64, the common case,
//! else the whole vector in f64 lanes.
//!
//! The f32 path reduces with π/2 in three parts (`x − k·P1` exact, the
//! next step's rounding kept by TwoSum), so the reduced argument is a pair
//! `rh + rl`, good to about 2⁻⁴⁸ of itself even at the f32 nearest a
//! multiple of π/2; the kernels take `rl` into account to first order and
//! round once at the end (checked on every f32 below 64: within 0.76 ulp).
//!
//! The f64 path:
//! The argument is reduced by multiples of π/2: `x = k·π/2 + r`, |r| ≤ π/4,
//! with π/2 in two f64 parts and fused multiply-adds, exact enough for
//! |x| ≤ 2²⁰. Larger arguments (rare) are reduced lane by lane with the bits
//! of 2/π (Payne and Hanek's method) in integer arithmetic. Then one of the
//! two polynomials, by the quadrant `k mod 4`.

use super::coeffs::{COS, COS_F32, SIN, SIN_F32};
use super::lanewise;
use super::{horner, horner_d, patch, two_sum};
use crate::cpu::simd::Isa;

lanewise! {
    /// `sin x`: in f32 lanes below |x| = 64, else in f64 lanes.
    SinOp => |isa, x| sin_wide(isa, x), common sin_f32, rare beyond_f32;
    /// `cos x`: in f32 lanes below |x| = 64, else in f64 lanes.
    CosOp => |isa, x| cos_wide(isa, x), common cos_f32, rare beyond_f32;
}

/// π/2 in three f32 parts, the first two of 18 significant bits, so that
/// `k·P1` and `k·P2` are exact for |k| < 64.
const PIO2_1: f32 = 1.570_793_2;
const PIO2_2: f32 = 3.174_936_9e-6;
const PIO2_3: f32 = 2.563_344e-12;
/// The f32-lane path takes |x| below this (|k| ≤ 41).
const F32_BELOW: f32 = 64.0;

const PIO2_HI: f64 = std::f64::consts::FRAC_PI_2;
const PIO2_LO: f64 = 6.123_233_995_736_766e-17;
/// Beyond this the two-part reduction loses bits: the lane is reduced exactly.
const HUGE: f32 = 1_048_576.0;

/// The first 256 bits of 2/π after the binary point.
const TWO_OVER_PI: [u64; 4] = [
    0xa2f9_836e_4e44_1529,
    0xfc27_57d1_f534_ddc0,
    0xdb62_9599_3c43_9041,
    0xfe51_63ab_debb_c561,
];

/// Which function of the quadrant's pair.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Which {
    Sin,
    Cos,
}

/// `sin(r)` and `cos(r)` for |r| ≤ π/4, f64 lanes.
#[inline(always)]
fn kernels<I: Isa>(isa: I, r: I::D) -> (I::D, I::D) {
    let z = isa.mul_d(r, r);
    let s = isa.fma_d(isa.mul_d(r, z), horner_d(isa, z, &SIN), r);
    let c0 = isa.fma_d(isa.splat_d(-0.5), z, isa.splat_d(1.0));
    let c = isa.fma_d(isa.mul_d(z, z), horner_d(isa, z, &COS), c0);
    (s, c)
}

/// `sin` or `cos` of f64 lanes holding f32 values of magnitude ≤ 2²⁰.
#[inline(always)]
fn half<I: Isa>(isa: I, x: I::D, which: Which) -> I::D {
    let k = isa.round_d(isa.mul_d(x, isa.splat_d(std::f64::consts::FRAC_2_PI)));
    let r = isa.fma_d(k, isa.splat_d(-PIO2_HI), x);
    let r = isa.fma_d(k, isa.splat_d(-PIO2_LO), r);
    let (s, c) = kernels(isa, r);
    // q = k mod 4; cos is sin a quadrant on.
    let floor4 = isa.round_d(isa.fma_d(k, isa.splat_d(0.25), isa.splat_d(-0.375)));
    let mut q = isa.fma_d(floor4, isa.splat_d(-4.0), k);
    if which == Which::Cos {
        q = isa.add_d(q, isa.splat_d(1.0));
    }
    // q in 0..=4 now; sin's sign flips from quadrant 2 on (4 is 0 again).
    let upper = isa.and_md(isa.le_d(isa.splat_d(2.0), q), isa.lt_d(q, isa.splat_d(4.0)));
    let odd_q = isa.select_d(upper, isa.sub_d(q, isa.splat_d(2.0)), q);
    let odd = isa.and_md(
        isa.lt_d(isa.splat_d(0.5), odd_q),
        isa.lt_d(odd_q, isa.splat_d(1.5)),
    );
    let v = isa.select_d(odd, c, s);
    isa.select_d(upper, isa.sub_d(isa.splat_d(0.0), v), v)
}

/// `sin x` or `cos x` of one f32 lane of any finite magnitude, the argument
/// reduced with 2/π's bits: `x = m·2ᵉ` with a 24-bit integer `m`, and
/// `x·2/π mod 4` is `m` times a 92-bit window of those bits (the bits
/// before it give multiples of 4, those after it less than 2⁻⁶⁶).
fn huge(x: f32, which: Which) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    let bits = x.to_bits();
    let field = ((bits >> 23) & 0xff) as i32;
    let m = ((bits & 0x007f_ffff) | 0x0080_0000) as u128;
    let e = field - 150;
    // Bit i of 2/π (1-based after the point) weighs 2^(e - i) in x·2/π;
    // the window starts at bit e - 1 (weight 2) and holds 92 bits.
    let window = bits_of_two_over_pi(e - 1, 92);
    let p = (m * window) & ((1u128 << 92) - 1);
    let mut q = (p >> 90) as i32;
    let mut frac = (p & ((1u128 << 90) - 1)) as f64 * (-90f64).exp2();
    if frac >= 0.5 {
        frac -= 1.0;
        q += 1;
    }
    let r = frac * std::f64::consts::FRAC_PI_2;
    let r = if x < 0.0 { -r } else { r };
    let q = if x < 0.0 { -q } else { q };
    let q = (q + if which == Which::Cos { 1 } else { 0 }).rem_euclid(4);
    let v = match q {
        0 => r.sin(),
        1 => r.cos(),
        2 => -r.sin(),
        _ => -r.cos(),
    };
    v as f32
}

/// `len ≤ 92` bits of 2/π from bit `start` (1-based; bits before the point,
/// `start ≤ 0`, are 0) as an integer.
fn bits_of_two_over_pi(start: i32, len: u32) -> u128 {
    let mut out = 0u128;
    for i in 0..len as i32 {
        let pos = start + i;
        let bit = if (1..=256).contains(&pos) {
            let b = (pos - 1) as usize;
            (TWO_OVER_PI[b / 64] >> (63 - b % 64)) & 1
        } else {
            0
        };
        out = (out << 1) | bit as u128;
    }
    out
}

/// The lanes of `x` that the f32-lane path cannot take: |x| ≥ 64, NaN.
#[inline(always)]
pub(crate) fn beyond_f32<I: Isa>(isa: I, x: I::F) -> I::MF {
    isa.or_m(isa.le(isa.splat(F32_BELOW), isa.abs(x)), isa.is_nan(x))
}

/// `sin x` or `cos x` in f32 lanes, for lanes not [`beyond_f32`].
#[inline(always)]
fn sin_cos_f32<I: Isa>(isa: I, x: I::F, which: Which) -> I::F {
    let one = isa.splat(1.0);
    let k = isa.round(isa.mul(x, isa.splat(std::f32::consts::FRAC_2_PI)));
    let r1 = isa.fma(k, isa.splat(-PIO2_1), x);
    let p2 = isa.mul(k, isa.splat(-PIO2_2));
    // r1 + p2 = s + e2 exactly (TwoSum), then the third part.
    let (s, e2) = two_sum(isa, r1, p2);
    let c = isa.fma(k, isa.splat(-PIO2_3), e2);
    let rh = isa.add(s, c);
    let rl = isa.sub(c, isa.sub(rh, s));
    // sin(rh + rl) = rh + rh³·S(rh²) + rl·(1 − rh²/2)
    let z = isa.mul(rh, rh);
    let sl = isa.mul(rl, isa.fma(z, isa.splat(-0.5), one));
    let sin = isa.add(rh, isa.fma(isa.mul(rh, z), horner(isa, z, &SIN_F32), sl));
    // cos(rh + rl) = 1 − (rh² + 2·rh·rl)/2 + rh⁴·C(rh²), `1 − rh²/2` by Fast2Sum
    let zl = isa.fms(rh, rh, z);
    let zl = isa.fma(isa.add(rh, rh), rl, zl);
    let h = isa.mul(z, isa.splat(0.5));
    let w = isa.sub(one, h);
    let e = isa.sub(isa.sub(one, w), h);
    let tail = isa.fma(
        isa.mul(z, z),
        horner(isa, z, &COS_F32),
        isa.fma(zl, isa.splat(-0.5), e),
    );
    let cos = isa.add(w, tail);
    // The quadrant q = (k, or k + 1 for cos) mod 4.
    let kq = if which == Which::Cos {
        isa.add(k, one)
    } else {
        k
    };
    let floor4 = isa.round(isa.fma(kq, isa.splat(0.25), isa.splat(-0.375)));
    let q = isa.fma(floor4, isa.splat(-4.0), kq);
    let upper = isa.le(isa.splat(2.0), q);
    let q2 = isa.select(upper, isa.sub(q, isa.splat(2.0)), q);
    let v = isa.select(isa.eq(q2, one), cos, sin);
    isa.select(upper, isa.sub(isa.splat(0.0), v), v)
}

/// `sin x` or `cos x` for any lanes: through f64 lanes, and for lanes of
/// magnitude 2²⁰ and more, infinite or NaN, one lane at a time.
#[inline(always)]
fn sin_cos_wide<I: Isa>(isa: I, x: I::F, which: Which) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.narrow(half(isa, lo, which), half(isa, hi, which));
    // Huge, infinite and NaN lanes.
    let big = isa.le(isa.splat(HUGE), isa.abs(x));
    let odd = isa.or_m(big, isa.is_nan(x));
    if !isa.any(odd) {
        return v;
    }
    patch(
        isa,
        v,
        x,
        |x| x.abs() >= HUGE || x.is_nan(),
        |x| huge(x, which),
    )
}

/// `sin x` in f32 lanes, within an ulp for every finite `x`, for any lanes;
/// a vector without lanes [`beyond_f32`] takes [`sin_f32`].
#[inline(always)]
pub(crate) fn sin_wide<I: Isa>(isa: I, x: I::F) -> I::F {
    sin_cos_wide(isa, x, Which::Sin)
}

/// `cos x` in f32 lanes, within an ulp for every finite `x`, for any lanes;
/// a vector without lanes [`beyond_f32`] takes [`cos_f32`].
#[inline(always)]
pub(crate) fn cos_wide<I: Isa>(isa: I, x: I::F) -> I::F {
    sin_cos_wide(isa, x, Which::Cos)
}

/// `sin x` for a vector without lanes [`beyond_f32`].
#[inline(always)]
pub(crate) fn sin_f32<I: Isa>(isa: I, x: I::F) -> I::F {
    sin_cos_f32(isa, x, Which::Sin)
}

/// `cos x` for a vector without lanes [`beyond_f32`].
#[inline(always)]
pub(crate) fn cos_f32<I: Isa>(isa: I, x: I::F) -> I::F {
    sin_cos_f32(isa, x, Which::Cos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_reduction_agrees_with_f64_where_f64_is_exact_enough() {
        // Below 2²⁰ the f64 reduction is good to far below an f32 ulp.
        for &x in &[3.0f32, 1000.5, -12345.678, 524_287.9, 1.0e6] {
            for which in [Which::Sin, Which::Cos] {
                let want = if which == Which::Sin {
                    (x as f64).sin()
                } else {
                    (x as f64).cos()
                };
                let got = huge(x, which) as f64;
                assert!(
                    (got - want).abs() <= 1e-7 * want.abs().max(1e-3),
                    "{x}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn huge_reduction_of_known_values() {
        // sin(2¹⁰⁰) and cos(1e30 as f32), from a 100-digit computation.
        assert_eq!(huge(2f32.powi(100), Which::Sin), -0.872_183_6);
        assert_eq!(huge(1.0e30, Which::Cos), -0.611_604_8);
        assert!(huge(f32::INFINITY, Which::Sin).is_nan());
    }
}
