//! Scalars: a number of any kind, for `fill`, `full` and ops with a scalar.

use crate::{Bool, DType, Element, cast};

/// One number, as Python passes it to PyTorch: a bool, an int or a float.
///
/// # Example
/// ```
/// use axial_core::Scalar;
/// assert_eq!(Scalar::from(2.5).to::<i32>(), 2);
/// assert_eq!(Scalar::from(-1i64).to::<u8>(), 255);
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Scalar {
    /// A bool.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A complex number.
    Complex(num_complex::Complex<f64>),
}

impl Scalar {
    /// The value converted to `T` as a cast would.
    ///
    /// ```
    /// # use axial_core::{Bool, Scalar};
    /// assert_eq!(Scalar::Float(-2.7).to::<i8>(), -2);
    /// assert_eq!(Scalar::Int(2).to::<Bool>(), Bool::TRUE);
    /// ```
    pub fn to<T: Element>(self) -> T {
        match self {
            Scalar::Bool(b) => cast(Bool::from(b)),
            Scalar::Int(i) => cast(i),
            Scalar::Float(f) => cast(f),
            Scalar::Complex(c) => cast(c),
        }
    }

    /// The value as an f64.
    ///
    /// ```
    /// # use axial_core::Scalar;
    /// assert_eq!(Scalar::Bool(true).to_f64(), 1.0);
    /// ```
    pub fn to_f64(self) -> f64 {
        self.to::<f64>()
    }

    /// The dtype PyTorch gives a Python number of this kind (f32, i64, bool).
    ///
    /// ```
    /// # use axial_core::{DType, Scalar};
    /// assert_eq!(Scalar::Float(1.0).default_dtype(), DType::F32);
    /// ```
    pub fn default_dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(_) => DType::I64,
            Scalar::Float(_) => DType::F32,
            Scalar::Complex(_) => DType::C64,
        }
    }

    /// The scalar of an element.
    ///
    /// ```
    /// # use axial_core::{Bool, Scalar};
    /// assert_eq!(Scalar::of(3u8), Scalar::Int(3));
    /// assert_eq!(Scalar::of(half::f16::ONE), Scalar::Float(1.0));
    /// assert_eq!(Scalar::of(Bool::TRUE), Scalar::Bool(true));
    /// ```
    pub fn of<T: Element>(v: T) -> Scalar {
        match T::KIND {
            crate::Kind::Bool => Scalar::Bool(v.is_nonzero()),
            crate::Kind::Int => Scalar::Int(v.to_i64()),
            crate::Kind::Float => Scalar::Float(v.to_f64()),
            crate::Kind::Complex => Scalar::Complex(v.to_c128()),
        }
    }
}

/// `Scalar::from` a Rust number of each kind (widened to the variant's type).
macro_rules! scalar_from {
    ($($t:ty => $variant:ident),*) => {$(
        impl From<$t> for Scalar {
            fn from(v: $t) -> Self {
                Scalar::$variant(v.into())
            }
        }
    )*};
}
scalar_from!(f64 => Float, f32 => Float, i64 => Int, i32 => Int, bool => Bool);

impl From<num_complex::Complex<f64>> for Scalar {
    fn from(v: num_complex::Complex<f64>) -> Self {
        Scalar::Complex(v)
    }
}

impl From<num_complex::Complex<f32>> for Scalar {
    fn from(v: num_complex::Complex<f32>) -> Self {
        Scalar::Complex(num_complex::Complex::new(v.re.into(), v.im.into()))
    }
}
