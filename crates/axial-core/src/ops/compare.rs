//! Comparisons: the table ([`compare_table`]), one row per op with its
//! name and its operator (Rust's and C's alike), and the op's rules. Every
//! dtype compares (halves as f32, bool as `false < true`); the result is
//! bool. The CUDA kernel is `compare_<dtype>`, with the op's number
//! ([`CmpOp::code`]).

use super::{Derivative, Lowering, Op, OpInfo};

/// Invokes `$then!` with every row of the comparison table.
macro_rules! compare_table {
    ($then:ident) => {
        $then! {
            /// `==`.
            Eq = "eq" (==), derivative: -;
            /// `!=`.
            Ne = "ne" (!=), derivative: -;
            /// `<`.
            Lt = "lt" (<), derivative: -;
            /// `<=`.
            Le = "le" (<=), derivative: -;
            /// `>`.
            Gt = "gt" (>), derivative: -;
            /// `>=`.
            Ge = "ge" (>=), derivative: -;
        }
    };
}
pub(crate) use compare_table;

macro_rules! define_compare {
    ($(
        $(#[$doc:meta])*
        $op:ident = $name:literal ($cmp:tt), derivative: $derivative:tt;
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

            /// The operator, as C and Rust spell it (for the CUDA header).
            pub(crate) fn operator(self) -> &'static str {
                match self {
                    $(CmpOp::$op => stringify!($cmp),)*
                }
            }
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
