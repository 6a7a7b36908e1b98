//! The element types a tensor can hold, and the casts between them.

use std::fmt;

use bytemuck::{Pod, Zeroable};
use half::{bf16, f16};
use num_complex::Complex;

use crate::DType;
use crate::float8::{F8E4M3Fn, F8E4M3FnUz, F8E5M2, F8E5M2FnUz};

/// A boolean element: one byte, 0 is false and anything else is true.
///
/// Rust's `bool` cannot be viewed from arbitrary bytes, and a tensor's storage is
/// plain bytes that anyone may write; this newtype is the one-byte [`Pod`]
/// boolean PyTorch's `torch.bool` is.
///
/// # Example
/// ```
/// use axial_core::Bool;
/// assert!(Bool::from(true).get());
/// assert_eq!(Bool::TRUE.to_string(), "True");
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Pod, Zeroable)]
#[repr(transparent)]
pub struct Bool(u8);

impl Bool {
    /// `False` (byte 0).
    ///
    /// ```
    /// use axial_core::Bool;
    /// assert_eq!(Bool::FALSE, Bool::default());
    /// assert_eq!(Bool::FALSE.to_string(), "False");
    /// ```
    pub const FALSE: Bool = Bool(0);
    /// `True` (byte 1).
    ///
    /// ```
    /// use axial_core::Bool;
    /// assert!(Bool::FALSE < Bool::TRUE);
    /// assert_eq!(Bool::TRUE.to_string(), "True");
    /// ```
    pub const TRUE: Bool = Bool(1);

    /// The value as a Rust `bool`.
    ///
    /// ```
    /// # use axial_core::Bool;
    /// assert!(!Bool::FALSE.get());
    /// ```
    pub const fn get(self) -> bool {
        self.0 != 0
    }
}

impl From<bool> for Bool {
    fn from(b: bool) -> Self {
        Bool(b as u8)
    }
}

impl From<Bool> for bool {
    fn from(b: Bool) -> Self {
        b.get()
    }
}

impl fmt::Debug for Bool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.get(), f)
    }
}

impl fmt::Display for Bool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.get() { "True" } else { "False" })
    }
}

/// Which family an element type belongs to; decides how casts convert.
///
/// # Example
/// ```
/// use axial_core::{Bool, Element, Kind};
/// assert_eq!(<u8 as Element>::KIND, Kind::Int);
/// assert_eq!(<half::f16 as Element>::KIND, Kind::Float);
/// assert_eq!(<Bool as Element>::KIND, Kind::Bool);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// [`Bool`].
    Bool,
    /// Signed and unsigned integers.
    Int,
    /// f16, bf16, f32, f64 and the float8s.
    Float,
    /// `Complex<f32>`, `Complex<f64>`.
    Complex,
}

mod sealed {
    pub trait Sealed {}
}

/// A type a tensor can hold: plain bytes ([`Pod`]) with a runtime [`DType`] tag.
///
/// The trait is sealed: the dtypes of PyTorch that axial supports are
/// `f64 f32 bf16 f16 i64 i32 i16 i8 u8`, [`Bool`], `u16 u32 u64`,
/// `Complex<f32>` and `Complex<f64>` (num-complex's, PyTorch's
/// `complex64` and `complex128`), and the [float8s](crate::float8). Complex
/// numbers have no order: code that compares elements asks for
/// `T: Element + PartialOrd`.
///
/// # Example
/// ```
/// use axial_core::{DType, Element};
/// assert_eq!(<half::bf16 as Element>::DTYPE, DType::BF16);
/// assert_eq!(f32::from_f64(2.5), 2.5f32);
/// ```
pub trait Element:
    Pod + Default + PartialEq + fmt::Debug + Send + Sync + 'static + sealed::Sealed
{
    /// The runtime tag.
    const DTYPE: DType;
    /// The family (bool, integer, float).
    const KIND: Kind;
    /// Zero (false).
    const ZERO: Self;
    /// One (true).
    const ONE: Self;

    /// The value as an f64 (exact for every type but i64 beyond 2⁵³).
    ///
    /// ```
    /// # use axial_core::{Bool, Element};
    /// assert_eq!((-3i8).to_f64(), -3.0);
    /// assert_eq!(Bool::TRUE.to_f64(), 1.0);
    /// assert_eq!(((1i64 << 53) + 1).to_f64(), 9_007_199_254_740_992.0); // rounded
    /// ```
    fn to_f64(self) -> f64;
    /// The value as an f32 (exact for f16, bf16 and f32).
    ///
    /// ```
    /// # use axial_core::Element;
    /// assert_eq!(Element::to_f32(half::bf16::from_f32(0.5)), 0.5);
    /// assert_eq!(255u8.to_f32(), 255.0);
    /// ```
    fn to_f32(self) -> f32;
    /// The value as an i64: floats truncate toward zero.
    ///
    /// ```
    /// # use axial_core::Element;
    /// assert_eq!((-2.9f32).to_i64(), -2);
    /// assert_eq!(200u8.to_i64(), 200);
    /// ```
    fn to_i64(self) -> i64;
    /// From an f64, as PyTorch converts a double: floats round to nearest even
    /// (f16 and bf16 through f32, as `c10::Half(float)` does), integers truncate
    /// toward zero through i64 and then wrap, bool is `v != 0`.
    ///
    /// ```
    /// # use axial_core::{Bool, Element};
    /// assert_eq!(u8::from_f64(257.9), 1); // 257, wrapped
    /// assert_eq!(i32::from_f64(-7.5), -7);
    /// assert_eq!(Bool::from_f64(-0.1), Bool::TRUE);
    /// ```
    fn from_f64(v: f64) -> Self;
    /// From an f32, as [`Element::from_f64`].
    ///
    /// ```
    /// # use axial_core::Element;
    /// assert_eq!(i8::from_f32(130.0), -126); // 130 wraps in i8
    /// assert_eq!(<half::f16 as Element>::from_f32(65520.0), half::f16::INFINITY);
    /// ```
    fn from_f32(v: f32) -> Self;
    /// From an i64: integers wrap (two's complement), floats round to nearest.
    ///
    /// ```
    /// # use axial_core::Element;
    /// assert_eq!(u8::from_i64(-1), 255);
    /// assert_eq!(f32::from_i64(16_777_217), 16_777_216.0);
    /// ```
    fn from_i64(v: i64) -> Self;
    /// `v != 0` (NaN counts as non-zero, as in PyTorch).
    ///
    /// ```
    /// # use axial_core::Element;
    /// assert!(f32::NAN.is_nonzero());
    /// assert!(!(-0.0f64).is_nonzero());
    /// ```
    fn is_nonzero(self) -> bool;
    /// The value as a complex number (the imaginary part 0 but for the
    /// complex dtypes).
    ///
    /// ```
    /// # use axial_core::Element;
    /// # use num_complex::Complex;
    /// assert_eq!(2u8.to_c128(), Complex::new(2.0, 0.0));
    /// assert_eq!(Complex::new(1.0f32, -2.0).to_c128(), Complex::new(1.0, -2.0));
    /// ```
    #[inline(always)]
    fn to_c128(self) -> Complex<f64> {
        Complex::new(self.to_f64(), 0.0)
    }
    /// From a complex number: its real part as [`Element::from_f64`]
    /// converts it (PyTorch discards the imaginary part, with a warning),
    /// both parts for the complex dtypes.
    ///
    /// ```
    /// # use axial_core::Element;
    /// # use num_complex::Complex;
    /// assert_eq!(i32::from_c128(Complex::new(-2.5, 7.0)), -2);
    /// assert_eq!(Complex::<f32>::from_c128(Complex::new(0.5, 1.0)), Complex::new(0.5f32, 1.0));
    /// ```
    #[inline(always)]
    fn from_c128(v: Complex<f64>) -> Self {
        Self::from_f64(v.re)
    }
}

/// Converts one element to another dtype with PyTorch's results (its
/// `c10::convert`: float to int truncates toward zero, bool is 0/1, f16/bf16
/// round to nearest even).
///
/// # Example
/// ```
/// use axial_core::{cast, Bool};
/// assert_eq!(cast::<f32, i32>(-2.7), -2);
/// assert_eq!(cast::<f32, u8>(-1.0), 255);
/// assert_eq!(cast::<f64, Bool>(0.5), Bool::TRUE);
/// assert_eq!(cast::<i64, f32>(16_777_217), 16_777_216.0);
/// ```
#[inline(always)]
pub fn cast<S: Element, T: Element>(s: S) -> T {
    match (S::KIND, T::KIND) {
        (Kind::Complex, Kind::Bool) | (_, Kind::Complex) => T::from_c128(s.to_c128()),
        (Kind::Complex, _) => T::from_f64(s.to_f64()),
        (_, Kind::Bool) => {
            if s.is_nonzero() {
                T::ONE
            } else {
                T::ZERO
            }
        }
        (Kind::Float, Kind::Float) if S::DTYPE.size() <= 4 && T::DTYPE.size() <= 4 => {
            T::from_f32(s.to_f32())
        }
        (Kind::Float, _) => T::from_f64(s.to_f64()),
        (Kind::Int, Kind::Float) if S::DTYPE == DType::U64 => T::from_f64(s.to_f64()),
        (Kind::Int | Kind::Bool, _) => T::from_i64(s.to_i64()),
    }
}

/// The primitive element types: every conversion is an `as` cast, a float
/// going to an integer through `$via` (i64, so that it truncates toward zero
/// and then wraps, as PyTorch's) and to a float directly (`$via` is itself).
macro_rules! primitive_element {
    ($($t:ty => $d:ident, $kind:ident via $via:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            const KIND: Kind = Kind::$kind;
            const ZERO: Self = 0 as $t;
            const ONE: Self = 1 as $t;
            #[inline(always)] fn to_f64(self) -> f64 { self as f64 }
            #[inline(always)] fn to_f32(self) -> f32 { self as f32 }
            #[inline(always)] fn to_i64(self) -> i64 { self as i64 }
            #[inline(always)] fn from_f64(v: f64) -> Self { (v as $via) as $t }
            #[inline(always)] fn from_f32(v: f32) -> Self { (v as $via) as $t }
            #[inline(always)] fn from_i64(v: i64) -> Self { v as $t }
            #[inline(always)] fn is_nonzero(self) -> bool { self != Self::ZERO }
        }
    )*};
}
primitive_element!(
    u8 => U8, Int via i64,
    u16 => U16, Int via i64,
    u32 => U32, Int via i64,
    u64 => U64, Int via i64,
    i8 => I8, Int via i64,
    i16 => I16, Int via i64,
    i32 => I32, Int via i64,
    i64 => I64, Int via i64,
    f32 => F32, Float via f32,
    f64 => F64, Float via f64
);

macro_rules! half_element {
    ($($t:ident => $d:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            const KIND: Kind = Kind::Float;
            const ZERO: Self = $t::ZERO;
            const ONE: Self = $t::ONE;
            #[inline(always)] fn to_f64(self) -> f64 { self.to_f64() }
            #[inline(always)] fn to_f32(self) -> f32 { self.to_f32() }
            #[inline(always)] fn to_i64(self) -> i64 { self.to_f32() as i64 }
            #[inline(always)] fn from_f64(v: f64) -> Self { $t::from_f32(v as f32) }
            #[inline(always)] fn from_f32(v: f32) -> Self { $t::from_f32(v) }
            #[inline(always)] fn from_i64(v: i64) -> Self { $t::from_f32(v as f32) }
            #[inline(always)] fn is_nonzero(self) -> bool { self.to_f32() != 0.0 }
        }
    )*};
}
half_element!(f16 => F16, bf16 => BF16);

/// The float8s: every conversion through f32, as PyTorch's `c10` types
/// convert (a double or an integer becomes a float first).
macro_rules! float8_element {
    ($($t:ident => $d:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            const KIND: Kind = Kind::Float;
            const ZERO: Self = $t::ZERO;
            const ONE: Self = $t::ONE;
            #[inline(always)] fn to_f64(self) -> f64 { f64::from(self.to_f32()) }
            #[inline(always)] fn to_f32(self) -> f32 { $t::to_f32(self) }
            #[inline(always)] fn to_i64(self) -> i64 { $t::to_f32(self) as i64 }
            #[inline(always)] fn from_f64(v: f64) -> Self { $t::from_f32(v as f32) }
            #[inline(always)] fn from_f32(v: f32) -> Self { $t::from_f32(v) }
            #[inline(always)] fn from_i64(v: i64) -> Self { $t::from_f32(v as f32) }
            #[inline(always)] fn is_nonzero(self) -> bool { $t::to_f32(self) != 0.0 }
        }
    )*};
}
float8_element!(F8E4M3Fn => F8E4M3Fn, F8E5M2 => F8E5M2, F8E4M3FnUz => F8E4M3FnUz, F8E5M2FnUz => F8E5M2FnUz);

/// `Complex<f32>` and `Complex<f64>`: a real number is the real part, a
/// complex one becomes a real one by its real part, and it is non-zero
/// when either part is.
macro_rules! complex_element {
    ($($t:ty => $d:ident),*) => {$(
        impl sealed::Sealed for Complex<$t> {}
        impl Element for Complex<$t> {
            const DTYPE: DType = DType::$d;
            const KIND: Kind = Kind::Complex;
            const ZERO: Self = Complex::new(0.0, 0.0);
            const ONE: Self = Complex::new(1.0, 0.0);
            #[inline(always)] fn to_f64(self) -> f64 { self.re as f64 }
            #[inline(always)] fn to_f32(self) -> f32 { self.re as f32 }
            #[inline(always)] fn to_i64(self) -> i64 { self.re as i64 }
            #[inline(always)] fn from_f64(v: f64) -> Self { Complex::new(v as $t, 0.0) }
            #[inline(always)] fn from_f32(v: f32) -> Self { Complex::new(v as $t, 0.0) }
            #[inline(always)] fn from_i64(v: i64) -> Self { Complex::new(v as $t, 0.0) }
            #[inline(always)] fn is_nonzero(self) -> bool { self.re != 0.0 || self.im != 0.0 }
            #[inline(always)] fn to_c128(self) -> Complex<f64> { Complex::new(self.re as f64, self.im as f64) }
            #[inline(always)] fn from_c128(v: Complex<f64>) -> Self { Complex::new(v.re as $t, v.im as $t) }
        }
    )*};
}
complex_element!(f32 => C64, f64 => C128);

impl sealed::Sealed for Bool {}
impl Element for Bool {
    const DTYPE: DType = DType::Bool;
    const KIND: Kind = Kind::Bool;
    const ZERO: Self = Bool::FALSE;
    const ONE: Self = Bool::TRUE;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self.get() as u8 as f64
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        self.get() as u8 as f32
    }
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self.get() as i64
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        Bool::from(v != 0.0)
    }
    #[inline(always)]
    fn from_f32(v: f32) -> Self {
        Bool::from(v != 0.0)
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        Bool::from(v != 0)
    }
    #[inline(always)]
    fn is_nonzero(self) -> bool {
        self.get()
    }
}

/// Calls `$body` with `$T` bound to the Rust type of a runtime [`DType`],
/// any of them (the body asks only what [`Element`] gives: moving,
/// converting, comparing for equality).
///
/// The one place a runtime tag becomes a static type; kernels use it to
/// monomorphise once per dtype. Kernels that order or compute use
/// [`with_real_dtype!`](crate::with_real_dtype).
///
/// ```
/// use axial_core::{with_dtype, DType, Element};
/// let size = with_dtype!(DType::BF16, T => std::mem::size_of::<T>());
/// assert_eq!(size, 2);
/// assert_eq!(with_dtype!(DType::C128, T => std::mem::size_of::<T>()), 16);
/// ```
#[macro_export]
macro_rules! with_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {{
        match $dtype {
            $crate::DType::C64 => {
                type $T = $crate::num_complex::Complex<f32>;
                $body
            }
            $crate::DType::C128 => {
                type $T = $crate::num_complex::Complex<f64>;
                $body
            }
            $crate::DType::F8E4M3Fn => {
                type $T = $crate::float8::F8E4M3Fn;
                $body
            }
            $crate::DType::F8E5M2 => {
                type $T = $crate::float8::F8E5M2;
                $body
            }
            $crate::DType::F8E4M3FnUz => {
                type $T = $crate::float8::F8E4M3FnUz;
                $body
            }
            $crate::DType::F8E5M2FnUz => {
                type $T = $crate::float8::F8E5M2FnUz;
                $body
            }
            d => $crate::with_real_dtype!(d, $T => $body, _ => unreachable!("{d} is real")),
        }
    }};
}

/// As [`with_dtype!`], for the dtypes with arithmetic kernels: the real
/// numbers but the float8s ([`DType::ALL`] and `u16 u32 u64`); `$other`
/// runs for the complex dtypes and the float8s.
///
/// ```
/// use axial_core::{with_real_dtype, DType, Element, Error};
/// fn one(d: DType) -> axial_core::Result<f64> {
///     Ok(with_real_dtype!(d, T => <T as Element>::ONE.to_f64(),
///         _ => return Err(Error::Unsupported { op: "one", dtype: d })))
/// }
/// assert_eq!(one(DType::U16)?, 1.0);
/// assert!(one(DType::C64).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
#[macro_export]
macro_rules! with_real_dtype {
    ($dtype:expr, $T:ident => $body:expr, _ => $other:expr) => {{
        match $dtype {
            $crate::DType::Bool => {
                type $T = $crate::Bool;
                $body
            }
            $crate::DType::U8 => {
                type $T = u8;
                $body
            }
            $crate::DType::I8 => {
                type $T = i8;
                $body
            }
            $crate::DType::I16 => {
                type $T = i16;
                $body
            }
            $crate::DType::I32 => {
                type $T = i32;
                $body
            }
            $crate::DType::I64 => {
                type $T = i64;
                $body
            }
            $crate::DType::U16 => {
                type $T = u16;
                $body
            }
            $crate::DType::U32 => {
                type $T = u32;
                $body
            }
            $crate::DType::U64 => {
                type $T = u64;
                $body
            }
            $crate::DType::F16 => {
                type $T = $crate::half::f16;
                $body
            }
            $crate::DType::BF16 => {
                type $T = $crate::half::bf16;
                $body
            }
            $crate::DType::F32 => {
                type $T = f32;
                $body
            }
            $crate::DType::F64 => {
                type $T = f64;
                $body
            }
            _ => $other,
        }
    }};
}

/// As [`with_dtype!`], for the float dtypes only; `$other` runs for the rest.
///
/// ```
/// use axial_core::{with_float_dtype, DType};
/// let bits = with_float_dtype!(DType::I32, T => 8 * std::mem::size_of::<T>(), _ => 0);
/// assert_eq!(bits, 0);
/// ```
#[macro_export]
macro_rules! with_float_dtype {
    ($dtype:expr, $T:ident => $body:expr, _ => $other:expr) => {{
        match $dtype {
            $crate::DType::F16 => {
                type $T = $crate::half::f16;
                $body
            }
            $crate::DType::BF16 => {
                type $T = $crate::half::bf16;
                $body
            }
            $crate::DType::F32 => {
                type $T = f32;
                $body
            }
            $crate::DType::F64 => {
                type $T = f64;
                $body
            }
            _ => $other,
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_follow_pytorch() {
        assert_eq!(cast::<f32, i64>(2.9), 2);
        assert_eq!(cast::<f32, i64>(-2.9), -2);
        assert_eq!(cast::<f64, u8>(-1.0), 255);
        assert_eq!(cast::<i32, u8>(300), 44);
        assert_eq!(cast::<i64, i8>(200), -56);
        assert_eq!(cast::<Bool, f32>(Bool::TRUE), 1.0);
        assert_eq!(cast::<f32, Bool>(f32::NAN), Bool::TRUE);
        assert_eq!(cast::<f32, Bool>(-0.0), Bool::FALSE);
        assert_eq!(cast::<i8, Bool>(-3), Bool::TRUE);
        // Round to nearest even: 1 + 2^-8 is halfway between two bf16 values.
        assert_eq!(cast::<f32, bf16>(1.0 + 1.0 / 256.0), bf16::from_f32(1.0));
        assert_eq!(
            cast::<f32, bf16>(1.0 + 3.0 / 256.0).to_f32(),
            1.0 + 4.0 / 256.0
        );
        assert_eq!(cast::<f32, f16>(65520.0), f16::INFINITY);
        assert_eq!(cast::<bf16, f16>(bf16::from_f32(0.5)), f16::from_f32(0.5));
        assert_eq!(cast::<f16, i32>(f16::from_f32(-7.5)), -7);
    }
}
