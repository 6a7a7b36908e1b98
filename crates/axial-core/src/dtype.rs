//! Runtime dtype tags.

use std::fmt;

/// The element type of a tensor, as a runtime tag.
///
/// Names print as PyTorch prints them (`torch.float32`, `torch.bfloat16`, ...).
///
/// # Example
/// ```
/// use axial_core::DType;
/// assert_eq!(DType::F32.size(), 4);
/// assert_eq!(DType::BF16.to_string(), "torch.bfloat16");
/// assert!(DType::F16.is_float());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `bool`, one byte holding 0 or 1.
    Bool,
    /// `u8`.
    U8,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// IEEE half precision.
    F16,
    /// bfloat16.
    BF16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl DType {
    /// Every dtype, in PyTorch's promotion order.
    ///
    /// ```
    /// use axial_core::DType;
    /// assert_eq!(DType::ALL.len(), 10);
    /// assert_eq!((DType::ALL[0], DType::ALL[9]), (DType::Bool, DType::F64));
    /// assert_eq!(DType::ALL.iter().filter(|d| d.is_float()).count(), 4);
    /// ```
    pub const ALL: [DType; 10] = [
        DType::Bool,
        DType::U8,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
    ];

    /// Size of one element in bytes (`element_size()` in PyTorch).
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert_eq!(DType::Bool.size(), 1);
    /// assert_eq!(DType::I64.size(), 8);
    /// ```
    pub const fn size(self) -> usize {
        match self {
            DType::Bool | DType::U8 | DType::I8 => 1,
            DType::I16 | DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::F32 => 4,
            DType::I64 | DType::F64 => 8,
        }
    }

    /// True for the floating dtypes (f16, bf16, f32, f64).
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert!(DType::BF16.is_float() && !DType::I32.is_float());
    /// ```
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    /// True for the integral dtypes, bool excluded.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert!(DType::U8.is_int() && !DType::Bool.is_int());
    /// ```
    pub const fn is_int(self) -> bool {
        matches!(
            self,
            DType::U8 | DType::I8 | DType::I16 | DType::I32 | DType::I64
        )
    }

    /// PyTorch's short name (`float32`, `int64`, `bool`, ...).
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert_eq!(DType::I64.name(), "int64");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "uint8",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
        }
    }

    /// The name PyTorch uses in error messages (`Float`, `Long`, `BFloat16`, ...).
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert_eq!(DType::I64.scalar_type_name(), "Long");
    /// ```
    pub const fn scalar_type_name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::U8 => "Byte",
            DType::I8 => "Char",
            DType::I16 => "Short",
            DType::I32 => "Int",
            DType::I64 => "Long",
            DType::F16 => "Half",
            DType::BF16 => "BFloat16",
            DType::F32 => "Float",
            DType::F64 => "Double",
        }
    }

    /// The dtype `sum`/`prod` return for this input: integers and bool widen to i64.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert_eq!(DType::U8.sum_dtype(), DType::I64);
    /// assert_eq!(DType::F16.sum_dtype(), DType::F16);
    /// ```
    pub const fn sum_dtype(self) -> DType {
        if self.is_float() { self } else { DType::I64 }
    }

    /// PyTorch's `promote_types` (`c10/core/ScalarType.cpp`): the dtype both operands convert to.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert_eq!(DType::U8.promote(DType::I8), DType::I16);
    /// assert_eq!(DType::BF16.promote(DType::F16), DType::F32);
    /// assert_eq!(DType::I64.promote(DType::F16), DType::F16);
    /// ```
    pub const fn promote(self, other: DType) -> DType {
        use DType::*;
        let (a, b) = if (self as u8) <= (other as u8) {
            (self, other)
        } else {
            (other, self)
        };
        match (a, b) {
            _ if a as u8 == b as u8 => a,
            (Bool, _) => b,
            (U8, I8) => I16,
            (F16, BF16) => F32,
            _ => b,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "torch.{}", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::DType::{self, *};

    #[test]
    fn promotion_table_matches_pytorch() {
        let cases = [
            (Bool, U8, U8),
            (U8, I8, I16),
            (U8, I16, I16),
            (I8, I64, I64),
            (I32, F16, F16),
            (I64, BF16, BF16),
            (F16, BF16, F32),
            (BF16, F32, F32),
            (F16, F64, F64),
            (Bool, Bool, Bool),
            (U8, Bool, U8),
        ];
        for (a, b, want) in cases {
            assert_eq!(a.promote(b), want, "{a:?} + {b:?}");
            assert_eq!(b.promote(a), want, "{b:?} + {a:?}");
        }
        for a in DType::ALL {
            assert_eq!(a.promote(a), a);
        }
    }
}
