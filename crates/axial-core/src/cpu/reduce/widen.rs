//! How an element enters a reduction: floats widen to the float they are
//! computed in (f16 and bf16 to f32), integers and bool to i64; complex
//! numbers stay as they are.

use half::{bf16, f16};
use num_complex::Complex;

use crate::cpu::convert::{self, bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use crate::{Bool, Element};

/// The number a reduction computes in: f32, f64, i64 (wrapping), or a
/// complex number of f32 or f64.
pub(crate) trait Num: Copy + Send + Sync + PartialEq + 'static {
    /// `0`.
    const ZERO: Self;
    /// `1`.
    const ONE: Self;
    /// `a + b` (wrapping for integers).
    fn add(self, other: Self) -> Self;
    /// `a * b` (wrapping for integers).
    fn mul(self, other: Self) -> Self;
}

/// The numbers with an order (not the complex ones): what `max`, `min`
/// and the arg reductions compare.
pub(crate) trait Ordered: Num + PartialOrd {
    /// The identity of `max`: −∞ or the smallest integer.
    const LOWEST: Self;
    /// The identity of `min`: +∞ or the largest integer.
    const HIGHEST: Self;
    /// True for a NaN (never for integers).
    fn is_nan(self) -> bool;
    /// The value as an f64.
    fn to_f64(self) -> f64;
}

/// The float numbers: what `mean` divides in.
pub(crate) trait Real: Ordered {
    /// `self / n`.
    fn div_count(self, n: usize) -> Self;
}

macro_rules! float_num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self + other
            }
            #[inline(always)]
            fn mul(self, other: Self) -> Self {
                self * other
            }
        }
        impl Ordered for $t {
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;
            #[inline(always)]
            fn is_nan(self) -> bool {
                self != self
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
        impl Real for $t {
            #[inline(always)]
            fn div_count(self, n: usize) -> Self {
                self / n as $t
            }
        }
    )*};
}
float_num!(f32, f64);

impl Num for i64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        self.wrapping_mul(other)
    }
}

impl Ordered for i64 {
    const LOWEST: Self = i64::MIN;
    const HIGHEST: Self = i64::MAX;
    #[inline(always)]
    fn is_nan(self) -> bool {
        false
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
}

/// Complex numbers: products as num-complex (and PyTorch's `c10::complex`)
/// write them, `(ac − bd) + (ad + bc)i`, in the parts' precision.
macro_rules! complex_num {
    ($($t:ty),*) => {$(
        impl Num for Complex<$t> {
            const ZERO: Self = Complex::new(0.0, 0.0);
            const ONE: Self = Complex::new(1.0, 0.0);
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self + other
            }
            #[inline(always)]
            fn mul(self, other: Self) -> Self {
                self * other
            }
        }
        impl Widen for Complex<$t> {
            type W = Self;
            type SumOut = Self;
            #[inline(always)]
            fn widen(self) -> Self {
                self
            }
            #[inline(always)]
            fn narrow(w: Self) -> Self {
                w
            }
            #[inline(always)]
            fn sum_out(w: Self) -> Self {
                w
            }
        }
    )*};
}
complex_num!(f32, f64);

/// A kernel summing four runs side by side ([`Widen::SUM4`]).
pub(crate) type FourSums<T> = fn([&[T]; 4]) -> [<T as Widen>::W; 4];

/// An element as a reduction sees it.
pub(crate) trait Widen: Element {
    /// The number it is computed in.
    type W: Num;
    /// What `sum` and `prod` return: the element's own type for floats, i64
    /// for integers and bool (PyTorch's `promote_integers`).
    type SumOut: Element;
    /// The value as a `W` (exact).
    fn widen(self) -> Self::W;
    /// A `W` back to this type (rounding to nearest for f16/bf16; exact for a
    /// value that came from `widen`).
    fn narrow(w: Self::W) -> Self;
    /// A sum or product back to [`Widen::SumOut`].
    fn sum_out(w: Self::W) -> Self::SumOut;
    /// True when widening is faster a block at a time ([`Widen::widen_block`])
    /// than one element at a time.
    const BLOCK: bool = false;
    /// Widens `src` into `dst` (of the same length).
    #[inline(always)]
    fn widen_block(src: &[Self], dst: &mut [Self::W]) {
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = s.widen();
        }
    }
    /// A kernel that sums four runs of the same length read side by side,
    /// each to the bits of `sum` of the run alone, where the type has one.
    const SUM4: Option<FourSums<Self>> = None;
}

macro_rules! int_widen {
    ($($t:ty),*) => {$(
        impl Widen for $t {
            type W = i64;
            type SumOut = i64;
            #[inline(always)]
            fn widen(self) -> i64 {
                self as i64
            }
            #[inline(always)]
            fn narrow(w: i64) -> Self {
                w as $t
            }
            #[inline(always)]
            fn sum_out(w: i64) -> i64 {
                w
            }
        }
    )*};
}
int_widen!(u8, i8, i16, i32, i64, u16, u32, u64);

impl Widen for Bool {
    type W = i64;
    type SumOut = i64;
    #[inline(always)]
    fn widen(self) -> i64 {
        self.get() as i64
    }
    #[inline(always)]
    fn narrow(w: i64) -> Self {
        Bool::from(w != 0)
    }
    #[inline(always)]
    fn sum_out(w: i64) -> i64 {
        w
    }
}

macro_rules! float_widen {
    ($($t:ty $(: $sum4:path)?),*) => {$(
        impl Widen for $t {
            type W = $t;
            type SumOut = $t;
            $(const SUM4: Option<FourSums<$t>> = Some($sum4);)?
            #[inline(always)]
            fn widen(self) -> $t {
                self
            }
            #[inline(always)]
            fn narrow(w: $t) -> Self {
                w
            }
            #[inline(always)]
            fn sum_out(w: $t) -> $t {
                w
            }
        }
    )*};
}
float_widen!(f32: super::side_by_side::sum4_f32, f64);

impl Widen for bf16 {
    type W = f32;
    type SumOut = bf16;
    #[inline(always)]
    fn widen(self) -> f32 {
        bf16_to_f32(self)
    }
    #[inline(always)]
    fn narrow(w: f32) -> Self {
        f32_to_bf16(w)
    }
    #[inline(always)]
    fn sum_out(w: f32) -> bf16 {
        f32_to_bf16(w)
    }
}

impl Widen for f16 {
    type W = f32;
    type SumOut = f16;
    const BLOCK: bool = true;
    #[inline(always)]
    fn widen_block(src: &[Self], dst: &mut [f32]) {
        // F16C where the instruction set in use has it.
        <f16 as convert::Half>::widen_run(src, dst);
    }
    #[inline(always)]
    fn widen(self) -> f32 {
        f16_to_f32(self)
    }
    #[inline(always)]
    fn narrow(w: f32) -> Self {
        f32_to_f16(w)
    }
    #[inline(always)]
    fn sum_out(w: f32) -> f16 {
        f32_to_f16(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_widening_is_exact_for_every_bit_pattern() {
        for bits in 0..=u16::MAX {
            let h = f16::from_bits(bits);
            let (ours, theirs) = (h.widen(), h.to_f32());
            assert!(
                ours.to_bits() == theirs.to_bits() || (ours.is_nan() && theirs.is_nan()),
                "{bits:#06x}: {ours} != {theirs}"
            );
        }
    }

    #[test]
    fn bf16_widening_is_exact() {
        for bits in (0..=u16::MAX).step_by(7) {
            let h = bf16::from_bits(bits);
            let (ours, theirs) = (h.widen(), h.to_f32());
            assert!(ours.to_bits() == theirs.to_bits() || (ours.is_nan() && theirs.is_nan()));
        }
    }
}
