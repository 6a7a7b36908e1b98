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
}

impl Scalar {
    /// The value converted to `T` as a cast would.
    pub fn to<T: Element>(self) -> T {
        match self {
            Scalar::Bool(b) => cast(Bool::from(b)),
            Scalar::Int(i) => cast(i),
            Scalar::Float(f) => cast(f),
        }
    }

    /// The value as an f64.
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
        }
    }

    /// The scalar of an element.
    pub fn of<T: Element>(v: T) -> Scalar {
        match T::KIND {
            crate::Kind::Bool => Scalar::Bool(v.is_nonzero()),
            crate::Kind::Int => Scalar::Int(v.to_i64()),
            crate::Kind::Float => Scalar::Float(v.to_f64()),
        }
    }
}

impl From<f64> for Scalar {
    fn from(v: f64) -> Self {
        Scalar::Float(v)
    }
}

impl From<f32> for Scalar {
    fn from(v: f32) -> Self {
        Scalar::Float(v as f64)
    }
}

impl From<i64> for Scalar {
    fn from(v: i64) -> Self {
        Scalar::Int(v)
    }
}

impl From<i32> for Scalar {
    fn from(v: i32) -> Self {
        Scalar::Int(v as i64)
    }
}

impl From<bool> for Scalar {
    fn from(v: bool) -> Self {
        Scalar::Bool(v)
    }
}
