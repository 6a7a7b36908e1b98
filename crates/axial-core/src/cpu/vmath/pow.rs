//! `xᵖ` of f32 lanes for a scalar exponent, computed in f64 as PyTorch's
//! `std::pow(double, double)`: `exp(p·ln x)` for finite positive `x`; zero,
//! negative, infinite and NaN lanes go through the C library's `pow` (their
//! sign and NaN rules), one lane at a time.

use super::explog::{exp_d, log_d};
use super::lanewise;
use super::patch;
use crate::cpu::simd::Isa;

lanewise! {
    /// `xᵖ` with the exponent ([`pow`]).
    PowOp(p: f64) => |isa, x| pow(isa, x, p);
}

#[inline(always)]
fn pow_d<I: Isa>(isa: I, x: I::D, p: f64) -> I::D {
    // f32's subnormals are f64 normals, so `log_d` applies.
    exp_d(
        isa,
        isa.mul_d(
            log_d(isa, isa.max_d(x, isa.splat_d(f64::MIN_POSITIVE))),
            isa.splat_d(p),
        ),
    )
}

/// `xᵖ` in f32 lanes, within an ulp.
#[inline(always)]
pub(crate) fn pow<I: Isa>(isa: I, x: I::F, p: f64) -> I::F {
    let (lo, hi) = isa.widen(x);
    let v = isa.narrow(pow_d(isa, lo, p), pow_d(isa, hi, p));
    let special = isa.or_m(
        isa.or_m(isa.le(x, isa.splat(0.0)), isa.is_nan(x)),
        isa.eq(x, isa.splat(f32::INFINITY)),
    );
    if !isa.any(special) {
        return v;
    }
    patch(
        isa,
        v,
        x,
        |x| !(x > 0.0 && x < f32::INFINITY),
        |x| (x as f64).powf(p) as f32,
    )
}
