//! The four 8-bit floats of PyTorch, with its conversions from and to
//! `f32`.
//!
//! | type | PyTorch | exponent, mantissa bits | bias | largest | infinity | NaN | an `f32` too large becomes |
//! |---|---|---|---|---|---|---|---|
//! | [`F8E4M3Fn`] | `float8_e4m3fn` | 4, 3 | 7 | 448 | none | `S.1111.111` | ±448 (saturated) |
//! | [`F8E5M2`] | `float8_e5m2` | 5, 2 | 15 | 57344 | `S.11111.00` | `S.11111.xx` | ±inf |
//! | [`F8E4M3FnUz`] | `float8_e4m3fnuz` | 4, 3 | 8 | 240 | none | `1.0000.000` | NaN |
//! | [`F8E5M2FnUz`] | `float8_e5m2fnuz` | 5, 2 | 16 | 57344 | none | `1.00000.00` | NaN |
//!
//! Every conversion rounds to nearest, ties to even; the `fnuz` types have
//! no negative zero (−0 and what rounds to it become +0). The conversions
//! equal `torch.Tensor.to`'s on all 256 bit patterns and on every probe of
//! `tests/float8.rs` (its record is written by `oracle/torch_float8.py`).
//!
//! ```
//! use axial_core::float8::{F8E4M3Fn, F8E5M2};
//! assert_eq!(F8E4M3Fn::from_f32(0.3).to_f32(), 0.3125);
//! assert_eq!(F8E4M3Fn::from_f32(1e4).to_f32(), 448.0); // saturated
//! assert_eq!(F8E5M2::from_f32(1e5).to_f32(), f32::INFINITY);
//! assert_eq!(F8E4M3Fn::from_bits(0x7f).to_f32().is_nan(), true);
//! ```

use std::fmt;

use bytemuck::{Pod, Zeroable};

/// How a format spells its special values and what an overflow becomes.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Specials {
    /// IEEE: the top exponent is infinity (mantissa 0) or NaN; overflow is infinity.
    Ieee,
    /// `fn`: no infinity, the all-ones pattern is NaN; overflow saturates.
    Fn,
    /// `fnuz`: no infinity, no −0, `0x80` is NaN; overflow is NaN.
    FnUz,
}

/// A float8 format's parameters.
#[derive(Copy, Clone)]
struct Format {
    mantissa: u32,
    bias: i32,
    specials: Specials,
    /// The largest finite value's bits.
    max: u8,
}

impl Format {
    const fn exponent_bits(self) -> u32 {
        7 - self.mantissa
    }

    const fn nan(self, sign: u8) -> u8 {
        match self.specials {
            Specials::Ieee | Specials::Fn => sign | 0x7f,
            Specials::FnUz => 0x80,
        }
    }

    fn decode(self, bits: u8) -> f32 {
        let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
        let exp_max = (1u32 << self.exponent_bits()) - 1;
        let exp = u32::from(bits & 0x7f) >> self.mantissa;
        let mant = u32::from(bits) & ((1 << self.mantissa) - 1);
        match self.specials {
            Specials::FnUz if bits == 0x80 => return f32::NAN,
            Specials::Fn if bits & 0x7f == 0x7f => return f32::NAN,
            Specials::Ieee if exp == exp_max => {
                return if mant == 0 {
                    sign * f32::INFINITY
                } else {
                    f32::NAN
                };
            }
            _ => {}
        }
        // Every value is exact in f32: at most 4 significant bits, exponents
        // within [-17, 16].
        let (significand, power) = if exp == 0 {
            (mant, 1 - self.bias - self.mantissa as i32)
        } else {
            (
                mant | (1 << self.mantissa),
                exp as i32 - self.bias - self.mantissa as i32,
            )
        };
        sign * significand as f32 * 2f32.powi(power)
    }

    fn encode(self, x: f32) -> u8 {
        let sign = if x.is_sign_negative() { 0x80u8 } else { 0 };
        if x.is_nan() {
            return self.nan(sign);
        }
        let overflow = match self.specials {
            Specials::Ieee => sign | 0x7c,
            Specials::Fn => sign | self.max,
            Specials::FnUz => 0x80,
        };
        let a = f64::from(x.abs());
        if a.is_infinite() {
            return overflow;
        }
        let min_exp = 1 - self.bias;
        let m = self.mantissa as i32;
        // The quantum at `a`'s binade (the subnormals' below the normal
        // range), then `a` in quanta rounded to nearest even: exact, as `a`
        // has 24 significant bits and the scaling is a power of two.
        let binade = if a == 0.0 {
            min_exp
        } else {
            (exponent_of(a)).max(min_exp)
        };
        let quantum = binade - m;
        let n = (a * 2f64.powi(-quantum)).round_ties_even();
        if n == 0.0 {
            return if self.specials == Specials::FnUz {
                0
            } else {
                sign
            };
        }
        let rounded = n * 2f64.powi(quantum);
        if rounded > f64::from(self.decode(self.max)) {
            return overflow;
        }
        let bits = if rounded < 2f64.powi(min_exp) {
            n as u8
        } else {
            let e = exponent_of(rounded);
            let mant = (rounded * 2f64.powi(m - e)) as u32 - (1 << m);
            (((e + self.bias) as u32) << m | mant) as u8
        };
        sign | bits
    }
}

/// `floor(log2(a))` of a positive finite f64.
fn exponent_of(a: f64) -> i32 {
    let bits = a.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // An f64 subnormal: never an f32's value, but kept exact.
        -1074 + (63 - bits.leading_zeros() as i32)
    } else {
        exp - 1023
    }
}

macro_rules! float8 {
    ($(
        $(#[$doc:meta])*
        $t:ident = $name:literal { mantissa: $m:literal, bias: $bias:literal, specials: $sp:ident, max: $max:literal }
    )*) => {$(
        $(#[$doc])*
        #[derive(Copy, Clone, Default, Pod, Zeroable)]
        #[repr(transparent)]
        pub struct $t(u8);

        impl $t {
            const FORMAT: Format = Format { mantissa: $m, bias: $bias, specials: Specials::$sp, max: $max };
            /// Zero.
            pub const ZERO: Self = $t(0);
            /// One.
            pub const ONE: Self = $t(($bias as u8) << $m);
            /// PyTorch's name of the dtype.
            pub const NAME: &'static str = $name;

            /// The value of these bits.
            pub const fn from_bits(bits: u8) -> Self {
                $t(bits)
            }

            /// The bits.
            pub const fn to_bits(self) -> u8 {
                self.0
            }

            /// The nearest value to `x` (ties to even) as PyTorch converts
            /// a float32: see the [module docs](self) for overflow.
            pub fn from_f32(x: f32) -> Self {
                $t(Self::FORMAT.encode(x))
            }

            /// The value, exactly.
            pub fn to_f32(self) -> f32 {
                Self::FORMAT.decode(self.0)
            }

            /// True for the NaN patterns.
            pub fn is_nan(self) -> bool {
                self.to_f32().is_nan()
            }
        }

        /// Equality of values: NaN is unequal to itself, `-0 == 0`.
        impl PartialEq for $t {
            fn eq(&self, other: &Self) -> bool {
                self.to_f32() == other.to_f32()
            }
        }

        impl PartialOrd for $t {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                self.to_f32().partial_cmp(&other.to_f32())
            }
        }

        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.to_f32(), f)
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.to_f32(), f)
            }
        }
    )*};
}

float8! {
    /// `torch.float8_e4m3fn`: 4 exponent bits, 3 mantissa bits, no
    /// infinity; a float too large saturates to ±448.
    ///
    /// ```
    /// use axial_core::float8::F8E4M3Fn;
    /// assert_eq!(F8E4M3Fn::from_f32(f32::INFINITY).to_f32(), 448.0);
    /// assert_eq!(F8E4M3Fn::from_f32(-0.0).to_bits(), 0x80);
    /// assert_eq!(F8E4M3Fn::ONE.to_f32(), 1.0);
    /// ```
    F8E4M3Fn = "float8_e4m3fn" { mantissa: 3, bias: 7, specials: Fn, max: 0x7e }
    /// `torch.float8_e5m2`: 5 exponent bits, 2 mantissa bits, IEEE
    /// infinities and NaNs; a float too large becomes ±inf.
    ///
    /// ```
    /// use axial_core::float8::F8E5M2;
    /// assert_eq!(F8E5M2::from_f32(57344.0).to_bits(), 0x7b);
    /// assert_eq!(F8E5M2::from_f32(-1e9).to_f32(), f32::NEG_INFINITY);
    /// ```
    F8E5M2 = "float8_e5m2" { mantissa: 2, bias: 15, specials: Ieee, max: 0x7b }
    /// `torch.float8_e4m3fnuz`: as e4m3fn with bias 8, no −0, one NaN
    /// (`0x80`), and overflow to NaN.
    ///
    /// ```
    /// use axial_core::float8::F8E4M3FnUz;
    /// assert_eq!(F8E4M3FnUz::from_f32(240.0).to_f32(), 240.0);
    /// assert!(F8E4M3FnUz::from_f32(250.0).is_nan());
    /// assert_eq!(F8E4M3FnUz::from_f32(-0.0).to_bits(), 0);
    /// ```
    F8E4M3FnUz = "float8_e4m3fnuz" { mantissa: 3, bias: 8, specials: FnUz, max: 0x7f }
    /// `torch.float8_e5m2fnuz`: as e5m2 with bias 16, no infinity, no −0,
    /// one NaN (`0x80`), and overflow to NaN.
    ///
    /// ```
    /// use axial_core::float8::F8E5M2FnUz;
    /// assert!(F8E5M2FnUz::from_f32(f32::INFINITY).is_nan());
    /// assert_eq!(F8E5M2FnUz::from_f32(1.0).to_bits(), 0x40);
    /// ```
    F8E5M2FnUz = "float8_e5m2fnuz" { mantissa: 2, bias: 16, specials: FnUz, max: 0x7f }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_round_trips_through_f32() {
        for bits in 0..=255u8 {
            for (x, back) in [
                (F8E4M3Fn::from_bits(bits).to_f32(), |x| {
                    F8E4M3Fn::from_f32(x).to_bits()
                }),
                (F8E5M2::from_bits(bits).to_f32(), |x| {
                    F8E5M2::from_f32(x).to_bits()
                }),
                (F8E4M3FnUz::from_bits(bits).to_f32(), |x| {
                    F8E4M3FnUz::from_f32(x).to_bits()
                }),
                (F8E5M2FnUz::from_bits(bits).to_f32(), |x| {
                    F8E5M2FnUz::from_f32(x).to_bits()
                }),
            ] as [(f32, fn(f32) -> u8); 4]
            {
                if !x.is_nan() {
                    assert_eq!(back(x), bits, "{bits:#04x} = {x}");
                }
            }
        }
    }
}
