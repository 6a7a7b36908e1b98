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
    /// `u16` (PyTorch's `uint16`: a storage dtype with few ops).
    U16,
    /// `u32`.
    U32,
    /// `u64`.
    U64,
    /// Two `f32`s, real then imaginary.
    C64,
    /// Two `f64`s, real then imaginary.
    C128,
    /// [`F8E4M3Fn`](crate::float8::F8E4M3Fn).
    F8E4M3Fn,
    /// [`F8E5M2`](crate::float8::F8E5M2).
    F8E5M2,
    /// [`F8E4M3FnUz`](crate::float8::F8E4M3FnUz).
    F8E4M3FnUz,
    /// [`F8E5M2FnUz`](crate::float8::F8E5M2FnUz).
    F8E5M2FnUz,
}

impl DType {
    /// The dtypes every op has, in PyTorch's promotion order (the
    /// unsigned integers wider than a byte, the complex and the 8-bit
    /// floats are in [`DType::EVERY`]).
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

    /// Every dtype axial has: [`DType::ALL`], then `uint16`, `uint32`,
    /// `uint64`, `complex64`, `complex128` and the four float8s.
    ///
    /// ```
    /// use axial_core::DType;
    /// assert_eq!(DType::EVERY.len(), 19);
    /// assert_eq!(DType::EVERY.iter().filter(|d| d.is_complex()).count(), 2);
    /// ```
    pub const EVERY: [DType; 19] = [
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
        DType::U16,
        DType::U32,
        DType::U64,
        DType::C64,
        DType::C128,
        DType::F8E4M3Fn,
        DType::F8E5M2,
        DType::F8E4M3FnUz,
        DType::F8E5M2FnUz,
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
            DType::Bool
            | DType::U8
            | DType::I8
            | DType::F8E4M3Fn
            | DType::F8E5M2
            | DType::F8E4M3FnUz
            | DType::F8E5M2FnUz => 1,
            DType::I16 | DType::U16 | DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }

    /// True for the floating dtypes with arithmetic (f16, bf16, f32, f64);
    /// the float8s are [`is_float8`](DType::is_float8).
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert!(DType::BF16.is_float() && !DType::I32.is_float());
    /// assert!(!DType::F8E5M2.is_float() && !DType::C64.is_float());
    /// ```
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    /// True for the four 8-bit floats.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert!(DType::F8E4M3FnUz.is_float8() && !DType::F16.is_float8());
    /// ```
    pub const fn is_float8(self) -> bool {
        matches!(
            self,
            DType::F8E4M3Fn | DType::F8E5M2 | DType::F8E4M3FnUz | DType::F8E5M2FnUz
        )
    }

    /// True for complex64 and complex128.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert!(DType::C128.is_complex() && !DType::F64.is_complex());
    /// ```
    pub const fn is_complex(self) -> bool {
        matches!(self, DType::C64 | DType::C128)
    }

    /// True for PyTorch's floating point dtypes (`torch.is_floating_point`):
    /// the floats and the float8s.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert!(DType::F8E5M2.is_floating_point() && !DType::C64.is_floating_point());
    /// ```
    pub const fn is_floating_point(self) -> bool {
        self.is_float() || self.is_float8()
    }

    /// True for the integral dtypes, bool excluded.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert!(DType::U8.is_int() && !DType::Bool.is_int());
    /// assert!(DType::U64.is_int());
    /// ```
    pub const fn is_int(self) -> bool {
        matches!(
            self,
            DType::U8
                | DType::I8
                | DType::I16
                | DType::I32
                | DType::I64
                | DType::U16
                | DType::U32
                | DType::U64
        )
    }

    /// True for the unsigned integers wider than a byte (`uint16`,
    /// `uint32`, `uint64`), which PyTorch gives few ops.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert!(DType::U32.is_wide_unsigned() && !DType::U8.is_wide_unsigned());
    /// ```
    pub const fn is_wide_unsigned(self) -> bool {
        matches!(self, DType::U16 | DType::U32 | DType::U64)
    }

    /// True for the dtypes every op has ([`DType::ALL`]): not the wide
    /// unsigned integers, the complex dtypes or the float8s.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert!(DType::I64.is_basic() && !DType::C64.is_basic());
    /// ```
    pub const fn is_basic(self) -> bool {
        !(self.is_wide_unsigned() || self.is_complex() || self.is_float8())
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
            DType::U16 => "uint16",
            DType::U32 => "uint32",
            DType::U64 => "uint64",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
            DType::F8E4M3Fn => "float8_e4m3fn",
            DType::F8E5M2 => "float8_e5m2",
            DType::F8E4M3FnUz => "float8_e4m3fnuz",
            DType::F8E5M2FnUz => "float8_e5m2fnuz",
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
            DType::U16 => "UInt16",
            DType::U32 => "UInt32",
            DType::U64 => "UInt64",
            DType::C64 => "ComplexFloat",
            DType::C128 => "ComplexDouble",
            DType::F8E4M3Fn => "Float8_e4m3fn",
            DType::F8E5M2 => "Float8_e5m2",
            DType::F8E4M3FnUz => "Float8_e4m3fnuz",
            DType::F8E5M2FnUz => "Float8_e5m2fnuz",
        }
    }

    /// The real dtype of a complex one (`torch.finfo(...)`'s, what `abs`
    /// and `angle` give), the dtype itself for the others.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert_eq!(DType::C64.to_real(), DType::F32);
    /// assert_eq!(DType::I32.to_real(), DType::I32);
    /// ```
    pub const fn to_real(self) -> DType {
        match self {
            DType::C64 => DType::F32,
            DType::C128 => DType::F64,
            d => d,
        }
    }

    /// The complex dtype of a float one (`complex64` for float32 and the
    /// halves, `complex128` for float64), `None` for the others.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert_eq!(DType::F64.to_complex(), Some(DType::C128));
    /// assert_eq!(DType::I8.to_complex(), None);
    /// ```
    pub const fn to_complex(self) -> Option<DType> {
        match self {
            DType::F16 | DType::BF16 | DType::F32 | DType::C64 => Some(DType::C64),
            DType::F64 | DType::C128 => Some(DType::C128),
            _ => None,
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
        if self.is_float() || self.is_complex() {
            self
        } else {
            DType::I64
        }
    }

    /// PyTorch's `promote_types` (`c10/core/ScalarType.cpp`): the dtype both operands convert to.
    ///
    /// # Errors
    /// PyTorch promotes `uint16`, `uint32` and `uint64` only with themselves
    /// and the floats, and a float8 only with itself.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert_eq!(DType::U8.promote(DType::I8)?, DType::I16);
    /// assert_eq!(DType::BF16.promote(DType::F16)?, DType::F32);
    /// assert_eq!(DType::I64.promote(DType::F16)?, DType::F16);
    /// assert_eq!(DType::C64.promote(DType::F64)?, DType::C128);
    /// assert_eq!(
    ///     DType::U16.promote(DType::Bool).unwrap_err().to_string(),
    ///     "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote UInt16 and Bool"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn promote(self, other: DType) -> crate::Result<DType> {
        self.try_promote(other)
            .ok_or(crate::Error::Promotion { a: self, b: other })
    }

    /// [`promote`](DType::promote), `None` where PyTorch refuses.
    ///
    /// ```
    /// # use axial_core::DType;
    /// assert_eq!(DType::U32.try_promote(DType::F16), Some(DType::F16));
    /// assert_eq!(DType::F8E5M2.try_promote(DType::F32), None);
    /// ```
    pub const fn try_promote(self, other: DType) -> Option<DType> {
        use DType::*;
        let (a, b) = if (self as u8) <= (other as u8) {
            (self, other)
        } else {
            (other, self)
        };
        Some(match (a, b) {
            _ if a as u8 == b as u8 => a,
            _ if a.is_float8() || b.is_float8() => return None,
            (F16 | BF16 | F32 | F64, U16 | U32 | U64) => a,
            (_, U16 | U32 | U64) | (U16 | U32 | U64, _) => return None,
            (F64, C64) => C128,
            (_, C64 | C128) => b,
            (Bool, _) => b,
            (U8, I8) => I16,
            (F16, BF16) => F32,
            _ => b,
        })
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
            assert_eq!(a.promote(b).unwrap(), want, "{a:?} + {b:?}");
            assert_eq!(b.promote(a).unwrap(), want, "{b:?} + {a:?}");
        }
        for a in DType::EVERY {
            assert_eq!(a.promote(a).unwrap(), a);
        }
    }
}
