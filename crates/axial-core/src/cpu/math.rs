//! The scalar math of the elementwise kernels, with PyTorch's CPU formulas
//! (`aten/src/ATen/native/cpu/*Kernel.cpp`, `c10/util/generic_math.h`).
//!
//! Float math is written once over [`Float`] (f32 and f64); f16 and bf16
//! elements are widened to f32, computed, and rounded back ([`FloatElem`]).
//! Integer math wraps as C++'s does on two's complement machines.

use std::ops::{Add, Div, Mul, Neg, Sub};

use half::{bf16, f16};

use super::convert::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use crate::Element;

/// f32 or f64: the types float kernels compute in.
pub(crate) trait Float:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Send
    + Sync
    + 'static
{
    const ZERO: Self;
    const ONE: Self;
    const HALF: Self;
    const NAN: Self;
    const INFINITY: Self;
    /// `1/√2`.
    const FRAC_1_SQRT_2: Self;
    /// `2/√π`.
    const FRAC_2_SQRT_PI: Self;
    /// The cubic coefficient of the tanh-form GELU, 0.044715.
    const GELU_CUBIC: Self;

    fn is_nan(self) -> bool;
    fn abs(self) -> Self;
    fn sqrt(self) -> Self;
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn ln_1p(self) -> Self;
    fn exp_m1(self) -> Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
    fn tan(self) -> Self;
    fn tanh(self) -> Self;
    fn erf(self) -> Self;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    fn round_ties_even(self) -> Self;
    fn trunc(self) -> Self;
    fn copysign(self, sign: Self) -> Self;
    fn fmod(self, b: Self) -> Self;
    fn powf(self, e: Self) -> Self;
    fn atan2(self, x: Self) -> Self;
    /// `selfᵉ` for an exponent given as an f64, as `std::pow(scalar_t, double)`.
    fn pow_f64(self, e: f64) -> Self;
    /// `selfᵉ` computed in f32, as `std::pow(float, float)`.
    fn pow_f32(self, e: f32) -> Self;
}

macro_rules! float_impl {
    ($t:ident, $erf:path) => {
        impl Float for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const HALF: Self = 0.5;
            const NAN: Self = $t::NAN;
            const INFINITY: Self = $t::INFINITY;
            const FRAC_1_SQRT_2: Self = std::$t::consts::FRAC_1_SQRT_2;
            const FRAC_2_SQRT_PI: Self = std::$t::consts::FRAC_2_SQRT_PI;
            const GELU_CUBIC: Self = 0.044715;

            #[inline(always)]
            fn is_nan(self) -> bool {
                $t::is_nan(self)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                $t::abs(self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                $t::sqrt(self)
            }
            #[inline(always)]
            fn exp(self) -> Self {
                $t::exp(self)
            }
            #[inline(always)]
            fn ln(self) -> Self {
                $t::ln(self)
            }
            #[inline(always)]
            fn ln_1p(self) -> Self {
                $t::ln_1p(self)
            }
            #[inline(always)]
            fn exp_m1(self) -> Self {
                $t::exp_m1(self)
            }
            #[inline(always)]
            fn sin(self) -> Self {
                $t::sin(self)
            }
            #[inline(always)]
            fn cos(self) -> Self {
                $t::cos(self)
            }
            #[inline(always)]
            fn tan(self) -> Self {
                $t::tan(self)
            }
            #[inline(always)]
            fn tanh(self) -> Self {
                $t::tanh(self)
            }
            #[inline(always)]
            fn erf(self) -> Self {
                $erf(self)
            }
            #[inline(always)]
            fn floor(self) -> Self {
                $t::floor(self)
            }
            #[inline(always)]
            fn ceil(self) -> Self {
                $t::ceil(self)
            }
            #[inline(always)]
            fn round_ties_even(self) -> Self {
                $t::round_ties_even(self)
            }
            #[inline(always)]
            fn trunc(self) -> Self {
                $t::trunc(self)
            }
            #[inline(always)]
            fn copysign(self, sign: Self) -> Self {
                $t::copysign(self, sign)
            }
            #[inline(always)]
            fn fmod(self, b: Self) -> Self {
                self % b
            }
            #[inline(always)]
            fn powf(self, e: Self) -> Self {
                $t::powf(self, e)
            }
            #[inline(always)]
            fn atan2(self, x: Self) -> Self {
                $t::atan2(self, x)
            }
            #[inline(always)]
            fn pow_f64(self, e: f64) -> Self {
                (self as f64).powf(e) as $t
            }
            #[inline(always)]
            fn pow_f32(self, e: f32) -> Self {
                (self as f32).powf(e) as $t
            }
        }
    };
}
float_impl!(f32, libm::erff);
float_impl!(f64, libm::erf);

/// A float element and the type it is computed in.
pub(crate) trait FloatElem: Element {
    /// f32 for f16, bf16 and f32; f64 for f64.
    type F: Float;
    /// Widens to the compute type (exact).
    fn load(self) -> Self::F;
    /// Rounds back to the element type (to nearest even).
    fn store(v: Self::F) -> Self;
    /// `v` rounded to the element type, kept in the compute type: what one
    /// operation of the element type's own arithmetic gives.
    #[inline(always)]
    fn round(v: Self::F) -> Self::F {
        Self::store(v).load()
    }
}

macro_rules! float_elem {
    ($($t:ty => $f:ty, $load:expr, $store:expr;)*) => {$(
        impl FloatElem for $t {
            type F = $f;
            #[inline(always)]
            fn load(self) -> $f {
                $load(self)
            }
            #[inline(always)]
            fn store(v: $f) -> Self {
                $store(v)
            }
        }
    )*};
}
float_elem! {
    f32 => f32, |x| x, |x| x;
    f64 => f64, |x| x, |x| x;
    f16 => f32, f16_to_f32, f32_to_f16;
    bf16 => f32, bf16_to_f32, f32_to_bf16;
}

/// `1 / (1 + e⁻ˣ)`.
#[inline(always)]
pub(crate) fn sigmoid<F: Float>(x: F) -> F {
    F::ONE / (F::ONE + (-x).exp())
}

/// `x / (1 + e⁻ˣ)`.
#[inline(always)]
pub(crate) fn silu<F: Float>(x: F) -> F {
    x / (F::ONE + (-x).exp())
}

/// The exact GELU: `x · ½ · (1 + erf(x/√2))`.
#[inline(always)]
pub(crate) fn gelu<F: Float>(x: F) -> F {
    x * F::HALF * (F::ONE + (x * F::FRAC_1_SQRT_2).erf())
}

/// The tanh-form GELU: `½x(1 + tanh(√(2/π)(x + 0.044715x³)))`.
#[inline(always)]
pub(crate) fn gelu_tanh<F: Float>(x: F) -> F {
    let k = F::FRAC_1_SQRT_2 * F::FRAC_2_SQRT_PI; // √(2/π)
    let inner = k * (x + F::GELU_CUBIC * x * x * x);
    F::HALF * x * (F::ONE + inner.tanh())
}

/// `1 / √x`, rounded twice as PyTorch's.
#[inline(always)]
pub(crate) fn rsqrt<F: Float>(x: F) -> F {
    F::ONE / x.sqrt()
}

/// `1/x`.
#[inline(always)]
pub(crate) fn reciprocal<F: Float>(x: F) -> F {
    F::ONE / x
}

/// `(0 < x) − (x < 0)`: NaN gives 0, as PyTorch's CPU kernel does.
#[inline(always)]
pub(crate) fn sign<F: Float>(x: F) -> F {
    let pos = if F::ZERO < x { F::ONE } else { F::ZERO };
    let neg = if x < F::ZERO { F::ONE } else { F::ZERO };
    pos - neg
}

/// `max(x, 0)` as `std::max(x, 0)`: NaN and −0 pass through.
#[inline(always)]
pub(crate) fn relu<F: Float>(x: F) -> F {
    if x < F::ZERO { F::ZERO } else { x }
}

/// Python's `a % b`: `fmod`, moved into the divisor's sign.
#[inline(always)]
pub(crate) fn remainder<F: Float>(a: F, b: F) -> F {
    let m = a.fmod(b);
    if m != F::ZERO && ((b < F::ZERO) != (m < F::ZERO)) {
        m + b
    } else {
        m
    }
}

/// Python's `a // b` as PyTorch's vectorised kernel computes it
/// (`div_floor_floating_vec`), each step rounded to the element type: f16 and
/// bf16 round every operation, as their `Vectorized` arithmetic does.
#[inline(always)]
pub(crate) fn floor_divide<E: FloatElem>(a: E::F, b: E::F) -> E::F {
    let (zero, one) = (E::F::ZERO, E::F::ONE);
    let r = E::round;
    let quotient = r(a / b);
    let m = r(a.fmod(b));
    // fmod is exact, so a − m is a multiple of b; when a / b overflows, a is.
    let multiple = if quotient.abs() == E::F::INFINITY && a.abs() != E::F::INFINITY {
        a
    } else {
        r(a - m)
    };
    let mut div = r(multiple / b);
    if m != zero && ((b < zero) != (m < zero)) {
        div = r(div - one);
    }
    let mut floor = div.floor();
    if r(div - floor) > E::F::HALF {
        floor = r(floor + one);
    }
    if div == zero {
        floor = zero.copysign(quotient);
    }
    if b == zero { quotient } else { floor }
}

/// The larger, NaN if either is (`std::max` otherwise: ties keep `a`).
#[inline(always)]
pub(crate) fn maximum<F: Float>(a: F, b: F) -> F {
    if a.is_nan() || b.is_nan() {
        F::NAN
    } else if a < b {
        b
    } else {
        a
    }
}

/// The smaller, NaN if either is (`std::min` otherwise: ties keep `a`).
#[inline(always)]
pub(crate) fn minimum<F: Float>(a: F, b: F) -> F {
    if a.is_nan() || b.is_nan() {
        F::NAN
    } else if b < a {
        b
    } else {
        a
    }
}

/// `xᵖ` for a scalar exponent, as PyTorch's `pow_tensor_scalar` computes it
/// for the element type `E` ([`crate::ops::PowScalarKind`]).
pub(crate) fn pow_scalar<E: FloatElem>(p: f64) -> impl Fn(E::F) -> E::F + Copy + Sync {
    use crate::ops::PowScalarKind as Kind;
    let kind = Kind::of(p, E::DTYPE);
    // The square as an element: bf16 rounds it before the next operation.
    let square = |x: E::F| E::store(x * x).load();
    move |x: E::F| match kind {
        Kind::One => E::F::ONE,
        Kind::Identity => x,
        Kind::Sqrt => x.sqrt(),
        Kind::Rsqrt => rsqrt(x),
        Kind::Reciprocal => E::F::ONE / x,
        Kind::Square => x * x,
        Kind::Cube => square(x) * x,
        Kind::InverseSquare => E::F::ONE / square(x),
        Kind::InF64(p) => x.pow_f64(p),
        Kind::InF32(p) => x.pow_f32(p),
    }
}

/// Integer elements, with the wrapping arithmetic of C++ on them.
pub(crate) trait Int: Element + Ord {
    fn wrapping_add(self, b: Self) -> Self;
    fn wrapping_sub(self, b: Self) -> Self;
    fn wrapping_mul(self, b: Self) -> Self;
    fn wrapping_neg(self) -> Self;
    fn wrapping_abs(self) -> Self;
    /// Truncating division (`MIN / -1` wraps to `MIN`).
    fn wrapping_div(self, b: Self) -> Self;
    /// Truncating remainder (`MIN % -1` is 0).
    fn wrapping_rem(self, b: Self) -> Self;
    /// True below zero.
    fn is_negative(self) -> bool;
    /// The exponent's bits as a u64 (a non-negative value).
    fn as_u64(self) -> u64;
}

macro_rules! int_impl {
    ($($t:ty, $abs:expr;)*) => {$(
        impl Int for $t {
            #[inline(always)]
            fn wrapping_add(self, b: Self) -> Self {
                <$t>::wrapping_add(self, b)
            }
            #[inline(always)]
            fn wrapping_sub(self, b: Self) -> Self {
                <$t>::wrapping_sub(self, b)
            }
            #[inline(always)]
            fn wrapping_mul(self, b: Self) -> Self {
                <$t>::wrapping_mul(self, b)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn wrapping_abs(self) -> Self {
                $abs(self)
            }
            #[inline(always)]
            fn wrapping_div(self, b: Self) -> Self {
                <$t>::wrapping_div(self, b)
            }
            #[inline(always)]
            fn wrapping_rem(self, b: Self) -> Self {
                <$t>::wrapping_rem(self, b)
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn is_negative(self) -> bool {
                self < 0
            }
            #[inline(always)]
            fn as_u64(self) -> u64 {
                self as u64
            }
        }
    )*};
}
int_impl! {
    u8, |x: u8| x;
    i8, i8::wrapping_abs;
    i16, i16::wrapping_abs;
    i32, i32::wrapping_abs;
    i64, i64::wrapping_abs;
    u16, |x: u16| x;
    u32, |x: u32| x;
    u64, |x: u64| x;
}

/// `(0 < x) − (x < 0)`.
#[inline(always)]
pub(crate) fn int_sign<I: Int>(x: I) -> I {
    let pos = if I::ZERO < x { I::ONE } else { I::ZERO };
    let neg = if x.is_negative() { I::ONE } else { I::ZERO };
    pos.wrapping_sub(neg)
}

/// Floor division (`c10::div_floor_integer`); `b` is not 0.
#[inline(always)]
pub(crate) fn int_floor_divide<I: Int>(a: I, b: I) -> I {
    let q = a.wrapping_div(b);
    if a.is_negative() != b.is_negative() && a.wrapping_rem(b) != I::ZERO {
        q.wrapping_sub(I::ONE)
    } else {
        q
    }
}

/// Python's `a % b` on integers; `b` is not 0.
#[inline(always)]
pub(crate) fn int_remainder<I: Int>(a: I, b: I) -> I {
    let r = a.wrapping_rem(b);
    if r != I::ZERO && r.is_negative() != b.is_negative() {
        r.wrapping_add(b)
    } else {
        r
    }
}

/// `aᵇ` by squaring, wrapping; `b` is not negative.
#[inline(always)]
pub(crate) fn int_pow<I: Int>(a: I, b: I) -> I {
    let (mut base, mut e, mut acc) = (a, b.as_u64(), I::ONE);
    while e != 0 {
        if e & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        e >>= 1;
    }
    acc
}

/// Complex division as PyTorch's `c10::complex` divides (Smith's
/// algorithm: the larger part of the divisor scaled out first, so that
/// no intermediate overflows where the quotient does not).
#[inline(always)]
pub(crate) fn complex_div<F: num_traits::Float>(
    x: num_complex::Complex<F>,
    y: num_complex::Complex<F>,
) -> num_complex::Complex<F> {
    let (a, b, c, d) = (x.re, x.im, y.re, y.im);
    if c.abs() >= d.abs() {
        if c == F::zero() && d == F::zero() {
            return num_complex::Complex::new(a / c.abs(), b / d.abs());
        }
        let rat = d / c;
        let scl = F::one() / (c + d * rat);
        num_complex::Complex::new((a + b * rat) * scl, (b - a * rat) * scl)
    } else {
        let rat = c / d;
        let scl = F::one() / (d + c * rat);
        num_complex::Complex::new((a * rat + b) * scl, (b * rat - a) * scl)
    }
}

/// `1/(1 + e⁻ᶻ)` for complex numbers.
#[inline(always)]
pub(crate) fn complex_sigmoid<F: num_traits::Float>(
    z: num_complex::Complex<F>,
) -> num_complex::Complex<F> {
    let one = num_complex::Complex::new(F::one(), F::zero());
    complex_div(one, one + (-z).exp())
}

/// `xʸ = e^(y·ln x)` for complex numbers, with `0ʸ` as C++'s `std::pow`
/// gives it (1 for `y = 0`, 0 for a `y` of positive real part).
#[inline(always)]
pub(crate) fn complex_pow<F: num_traits::Float>(
    x: num_complex::Complex<F>,
    y: num_complex::Complex<F>,
) -> num_complex::Complex<F> {
    if x.re == F::zero() && x.im == F::zero() {
        if y.re == F::zero() && y.im == F::zero() {
            return num_complex::Complex::new(F::one(), F::zero());
        }
        if y.im == F::zero() && y.re > F::zero() {
            return num_complex::Complex::new(F::zero(), F::zero());
        }
    }
    x.powc(y)
}

/// Runs the arm of a runtime dtype's family, with `$F` or `$I` bound to its
/// element type: float (f32, f64, f16, bf16), integer or bool; `other`
/// for the dtypes with no arithmetic kernel (complex, float8).
macro_rules! by_kind {
    ($dtype:expr, float $F:ident => $float:expr, int $I:ident => $int:expr, bool => $bool:expr, other => $other:expr) => {
        match $dtype {
            $crate::DType::F32 => {
                type $F = f32;
                $float
            }
            $crate::DType::F64 => {
                type $F = f64;
                $float
            }
            $crate::DType::F16 => {
                type $F = half::f16;
                $float
            }
            $crate::DType::BF16 => {
                type $F = half::bf16;
                $float
            }
            $crate::DType::U8 => {
                type $I = u8;
                $int
            }
            $crate::DType::I8 => {
                type $I = i8;
                $int
            }
            $crate::DType::I16 => {
                type $I = i16;
                $int
            }
            $crate::DType::I32 => {
                type $I = i32;
                $int
            }
            $crate::DType::I64 => {
                type $I = i64;
                $int
            }
            $crate::DType::U16 => {
                type $I = u16;
                $int
            }
            $crate::DType::U32 => {
                type $I = u32;
                $int
            }
            $crate::DType::U64 => {
                type $I = u64;
                $int
            }
            $crate::DType::Bool => $bool,
            _ => $other,
        }
    };
}
pub(crate) use by_kind;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_division_and_remainder_follow_python() {
        assert_eq!(int_floor_divide(-7i32, 2), -4);
        assert_eq!(int_floor_divide(7i32, -2), -4);
        assert_eq!(int_floor_divide(-8i32, 2), -4);
        assert_eq!(int_floor_divide(i8::MIN, -1), i8::MIN);
        assert_eq!(int_remainder(-7i64, 2), 1);
        assert_eq!(int_remainder(7i64, -2), -1);
        assert_eq!(int_remainder(i16::MIN, -1), 0);
        assert_eq!(floor_divide::<f32>(-7.0, 2.0), -4.0);
        assert_eq!(floor_divide::<f64>(7.5, -2.0), -4.0);
        assert_eq!(floor_divide::<f32>(1.0, 0.0), f32::INFINITY);
        assert!(floor_divide::<f64>(-0.5, 2.0).is_sign_negative());
        assert_eq!(floor_divide::<f32>(f32::MAX, 0.5), f32::INFINITY);
        assert_eq!(remainder(-7.0f32, 2.0), 1.0);
        assert_eq!(remainder(5.5f64, -2.0), -0.5);
        assert!(remainder(1.0f32, 0.0).is_nan());
    }

    #[test]
    fn integer_power_wraps() {
        assert_eq!(int_pow(3i8, 5), 3i8.wrapping_pow(5));
        assert_eq!(int_pow(2u8, 9), 0);
        assert_eq!(int_pow(-2i64, 63), i64::MIN);
        assert_eq!(int_pow(7i32, 0), 1);
    }

    #[test]
    fn sign_and_extrema_handle_nan_like_pytorch() {
        assert_eq!(sign(f32::NAN), 0.0);
        assert_eq!(sign(-0.0f64).to_bits(), 0.0f64.to_bits());
        assert_eq!(int_sign(-5i8), -1);
        assert_eq!(int_sign(200u8), 1);
        assert!(maximum(1.0f32, f32::NAN).is_nan());
        assert!(minimum(f64::NAN, 1.0).is_nan());
        assert!(relu(f32::NAN).is_nan());
        assert!(relu(-0.0f32).is_sign_negative());
    }
}
