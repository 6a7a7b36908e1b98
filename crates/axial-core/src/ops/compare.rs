//! Comparisons: the table ([`compare_table`]), one row per op with its
//! name and its operator (Rust's and C's alike), and the op's rules. Every
//! dtype compares (halves as f32, bool as `false < true`); the result is
//! bool. The CUDA kernel is `compare_<dtype>`, with the op's number
//! ([`CmpOp::code`]). A row is `every` dtype's, or `ordered`: PyTorch has
//! no kernel of it (named in the row) for complex numbers, the wide
//! unsigned integers and the float8s, which compare for equality only.

use super::{Derivative, Lowering, Op, OpInfo};

/// Invokes `$then!` with every row of the comparison table.
macro_rules! compare_table {
    ($then:ident) => {
        $then! {
            /// `==`.
            Eq = "eq" (==) every, derivative: -;
            /// `!=`.
            Ne = "ne" (!=) every, derivative: -;
            /// `<`.
            Lt = "lt" (<) ordered "lt_cpu", derivative: -;
            /// `<=`.
            Le = "le" (<=) ordered "le_cpu", derivative: -;
            /// `>`.
            Gt = "gt" (>) ordered "gt_cpu", derivative: -;
            /// `>=`.
            Ge = "ge" (>=) ordered "ge_cpu", derivative: -;
        }
    };
}
pub(crate) use compare_table;

macro_rules! define_compare {
    ($(
        $(#[$doc:meta])*
        $op:ident = $name:literal ($cmp:tt) $kind:ident $($kernel:literal)?, derivative: $derivative:tt;
    )*) => {
        /// Comparisons; the result is bool.
        ///
        /// # Example
        /// ```
        /// use axial_core::{Bool, CmpOp, RawTensor};
        /// let x = RawTensor::from_vec(vec![1.0f32, f32::NAN], &[2])?;
        /// let ne = x.view().compare(CmpOp::Ne, &x.view())?; // NaN != NaN
        /// assert_eq!(ne.to_vec::<Bool>()?, vec![Bool::FALSE, Bool::TRUE]);
        /// # Ok::<(), axial_core::Error>(())
        /// ```
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub enum CmpOp {
            $($(#[$doc])* $op,)*
        }

        impl CmpOp {
            /// Every comparison, in the table's order ([`CmpOp::code`] is the index).
            ///
            /// ```
            /// # use axial_core::CmpOp;
            /// assert_eq!(CmpOp::ALL.len(), 6);
            /// ```
            pub const ALL: &'static [CmpOp] = &[$(CmpOp::$op,)*];

            /// PyTorch's name of the op.
            ///
            /// ```
            /// # use axial_core::CmpOp;
            /// assert_eq!(CmpOp::Ge.name(), "ge");
            /// ```
            pub fn name(self) -> &'static str {
                match self {
                    $(CmpOp::$op => $name,)*
                }
            }

            /// PyTorch's refusal of the comparison on `dtype`: the ordering
            /// ones have no kernel for complex numbers, the wide unsigned
            /// integers and the float8s.
            ///
            /// ```
            /// # use axial_core::{CmpOp, DType};
            /// assert!(CmpOp::Eq.check(DType::C64).is_ok());
            /// assert_eq!(CmpOp::Lt.check(DType::C64).unwrap_err().to_string(), "\"lt_cpu\" not implemented for 'ComplexFloat'");
            /// assert!(CmpOp::Ge.check(DType::U16).is_err());
            /// ```
            pub fn check(self, dtype: crate::DType) -> crate::Result<()> {
                match self {
                    $(CmpOp::$op => define_compare!(@check $kind $($kernel)?, dtype),)*
                }
            }

            /// The operator, as C and Rust spell it (for the CUDA header).
            pub(crate) fn operator(self) -> &'static str {
                match self {
                    $(CmpOp::$op => stringify!($cmp),)*
                }
            }
        }
    };
    (@check every, $dtype:ident) => { Ok(()) };
    (@check ordered $kernel:literal, $dtype:ident) => {
        if $dtype.is_basic() {
            Ok(())
        } else {
            Err(crate::Error::Unsupported { op: $kernel, dtype: $dtype })
        }
    };
}
compare_table!(define_compare);

impl CmpOp {
    /// The op's number in the table: what the CUDA kernels take
    /// (`AXIAL_CMP_<NAME>` of the generated header).
    ///
    /// ```
    /// # use axial_core::CmpOp;
    /// assert_eq!(CmpOp::Lt.code(), 2);
    /// ```
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|&op| op == self).unwrap_or(0) as u32
    }
}

impl Op for CmpOp {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: CmpOp::name(*self),
            lowering: Lowering::Primitive,
            derivative: Derivative::None,
        }
    }
}
