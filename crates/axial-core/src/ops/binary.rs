//! Elementwise ops of two operands: the table ([`binary_table`]), one row
//! per op, and PyTorch's rules for each op and dtype.
//!
//! A row holds, in order: the variant and PyTorch's name; its class (`any`:
//! every dtype keeps its dtype; `math`: integers and bool give f32;
//! `logical`: bool for every dtype); its integer kernel (over the integer
//! type `I`); what it does to bool (`as <Op>`: C++'s arithmetic on `bool`
//! is another op; `refused`, `unsupported`: PyTorch's errors); its float
//! kernel (over the compute type); the values of the right operand an
//! integer kernel refuses ([`RhsRule`]); the work of one element; and its
//! derivative. The CUDA kernels are `binary_<name>_<dtype>` for floats and
//! the logical ops, `binary_int_<dtype>` with the op's number for
//! integers ([`BinaryOp::code`]).

use super::{Derivative, Lowering, Op, OpInfo};
use crate::{DType, Error, Result};

/// Subtraction of bools, in PyTorch's words.
const SUB_BOOL: &str = "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.";

/// Invokes `$then!` with every row of the binary table (see the module's
/// docs for the columns).
macro_rules! binary_table {
    ($then:ident) => {
        $then! {
            /// `a + b`.
            Add = "add" (any) {
                int: (I::wrapping_add), bool: (as LogicalOr), float: (|a, b| a + b),
                rhs: -, cost: cheap, derivative: -,
            }
            /// `a - b`.
            Sub = "sub" (any) {
                int: (I::wrapping_sub), bool: (refused SUB_BOOL), float: (|a, b| a - b),
                rhs: -, cost: cheap, derivative: -,
            }
            /// `a * b`.
            Mul = "mul" (any) {
                int: (I::wrapping_mul), bool: (as LogicalAnd), float: (|a, b| a * b),
                rhs: -, cost: cheap, derivative: -,
            }
            /// `a / b`, true division (integers give f32).
            Div = "div" (math) {
                int: -, bool: -, float: (|a, b| a / b),
                rhs: -, cost: cheap, derivative: -,
            }
            /// `a % b`, with the sign of the divisor (Python's).
            Rem = "remainder" (any) {
                int: (crate::cpu::math::int_remainder::<I>), bool: (unsupported "remainder_cpu"),
                float: (crate::cpu::math::remainder),
                rhs: (NonZero), cost: costly, derivative: -,
            }
            /// `a // b`, rounding toward −∞.
            FloorDiv = "floor_divide" (any) {
                int: (crate::cpu::math::int_floor_divide::<I>), bool: (unsupported "div_floor_cpu"),
                float: (crate::cpu::math::floor_divide::<E>),
                rhs: (NonZero), cost: costly, derivative: -,
            }
            /// `aᵇ`.
            Pow = "pow" (any) {
                int: (crate::cpu::math::int_pow::<I>), bool: (unsupported "pow"),
                float: (crate::cpu::math::Float::powf),
                rhs: (NonNegative), cost: costly, derivative: -,
            }
            /// Larger of the two (NaN propagates).
            Maximum = "maximum" (any) {
                int: (|a: I, b: I| a.max(b)), bool: (as LogicalOr), float: (crate::cpu::math::maximum),
                rhs: -, cost: cheap, derivative: -,
            }
            /// Smaller of the two (NaN propagates).
            Minimum = "minimum" (any) {
                int: (|a: I, b: I| a.min(b)), bool: (as LogicalAnd), float: (crate::cpu::math::minimum),
                rhs: -, cost: cheap, derivative: -,
            }
            /// `atan2(a, b)`.
            Atan2 = "atan2" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::atan2),
                rhs: -, cost: costly, derivative: -,
            }
            /// `a && b` (output bool).
            LogicalAnd = "logical_and" (logical) {
                int: -, bool: -, float: -, rhs: -, cost: cheap, derivative: -,
            }
            /// `a || b` (output bool).
            LogicalOr = "logical_or" (logical) {
                int: -, bool: -, float: -, rhs: -, cost: cheap, derivative: -,
            }
        }
    };
}
pub(crate) use binary_table;

/// Which dtypes a binary op takes and what it gives them (the variants are
/// spelt as the table's rows name them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub(crate) enum Class {
    /// Every dtype, kept: floats and integers have kernels; bool as its
    /// row says.
    any,
    /// Floats; integers and bool give f32.
    math,
    /// Every dtype, bool output.
    logical,
}

/// What a row says of bool operands.
enum BoolRule {
    /// The class decides.
    None,
    /// C++'s arithmetic on `bool` is this op.
    As(BinaryOp),
    /// PyTorch's "not implemented for 'Bool'" with its kernel's name.
    Unsupported(&'static str),
    /// PyTorch's own message.
    Refused(&'static str),
}

macro_rules! define_binary {
    ($(
        $(#[$doc:meta])*
        $op:ident = $name:literal ($class:ident) {
            int: $int:tt, bool: $bool:tt, float: $float:tt,
            rhs: $rhs:tt, cost: $cost:ident, derivative: $derivative:tt,
        }
    )*) => {
        /// Elementwise ops of two operands (broadcast).
        ///
        /// # Example
        /// ```
        /// use axial_core::{BinaryOp, RawTensor};
        /// let a = RawTensor::from_vec(vec![5i64, -5], &[2, 1])?;
        /// let b = RawTensor::from_vec(vec![3i64, -3], &[2])?;
        /// let r = a.view().binary(BinaryOp::Rem, &b.view())?; // [2, 1] and [2] broadcast to [2, 2]
        /// assert_eq!(r.to_vec::<i64>()?, vec![2, -1, 1, -2]);
        /// # Ok::<(), axial_core::Error>(())
        /// ```
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub enum BinaryOp {
            $($(#[$doc])* $op,)*
        }

        impl BinaryOp {
            /// Every op, in the table's order ([`BinaryOp::code`] is the index).
            ///
            /// ```
            /// # use axial_core::BinaryOp;
            /// assert_eq!(BinaryOp::ALL[0], BinaryOp::Add);
            /// ```
            pub const ALL: &'static [BinaryOp] = &[$(BinaryOp::$op,)*];

            /// PyTorch's name of the op.
            ///
            /// ```
            /// # use axial_core::BinaryOp;
            /// assert_eq!(BinaryOp::Rem.name(), "remainder");
            /// ```
            pub fn name(self) -> &'static str {
                match self {
                    $(BinaryOp::$op => $name,)*
                }
            }

            pub(crate) fn class(self) -> Class {
                match self {
                    $(BinaryOp::$op => Class::$class,)*
                }
            }

            fn bool_rule(self) -> BoolRule {
                match self {
                    $(BinaryOp::$op => define_binary!(@bool $bool),)*
                }
            }

            fn rhs(self) -> Option<RhsRule> {
                match self {
                    $(BinaryOp::$op => define_binary!(@rhs $rhs),)*
                }
            }
        }
    };
    (@bool -) => { BoolRule::None };
    (@bool (as $other:ident)) => { BoolRule::As(BinaryOp::$other) };
    (@bool (unsupported $k:literal)) => { BoolRule::Unsupported($k) };
    (@bool (refused $m:expr)) => { BoolRule::Refused($m) };
    (@rhs -) => { None };
    (@rhs ($rule:ident)) => { Some(RhsRule::$rule) };
}
binary_table!(define_binary);

impl Op for BinaryOp {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: BinaryOp::name(*self),
            lowering: Lowering::Primitive,
            derivative: Derivative::Missing,
        }
    }
}

impl BinaryOp {
    /// The op's number in the table: what the CUDA kernels of integers take
    /// (`AXIAL_BINARY_<NAME>` of the generated header).
    ///
    /// ```
    /// # use axial_core::BinaryOp;
    /// assert_eq!(BinaryOp::Sub.code(), 1);
    /// ```
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|&op| op == self).unwrap_or(0) as u32
    }

    /// True for the ops whose result is bool (`logical_and`, `logical_or`):
    /// their operands keep their common dtype.
    ///
    /// ```
    /// # use axial_core::BinaryOp;
    /// assert!(BinaryOp::LogicalOr.is_logical() && !BinaryOp::Add.is_logical());
    /// ```
    pub fn is_logical(self) -> bool {
        self.class() == Class::logical
    }

    /// The dtype of the result for operands of (promoted) `dtype`, or PyTorch's error.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, DType};
    /// assert_eq!(BinaryOp::Div.output_dtype(DType::I64)?, DType::F32);
    /// assert_eq!(BinaryOp::FloorDiv.output_dtype(DType::I64)?, DType::I64);
    /// assert!(BinaryOp::Sub.output_dtype(DType::Bool).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn output_dtype(self, dtype: DType) -> Result<DType> {
        match self.class() {
            Class::logical => Ok(DType::Bool),
            Class::math if !dtype.is_float() => Ok(DType::F32),
            _ if dtype == DType::Bool => match self.bool_rule() {
                BoolRule::Refused(message) => Err(Error::invalid(self.name(), message)),
                _ => Ok(dtype),
            },
            _ => Ok(dtype),
        }
    }

    /// The op a kernel runs on operands of `dtype`, or PyTorch's error. Bool
    /// arithmetic is C++'s on `bool`: `+` and `maximum` come back as
    /// `logical_or`, `*` and `minimum` as `logical_and`; every other op comes
    /// back as itself.
    ///
    /// # Errors
    /// The op has no kernel for the dtype.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, DType};
    /// assert_eq!(BinaryOp::Add.resolve(DType::Bool)?, BinaryOp::LogicalOr);
    /// assert_eq!(BinaryOp::Rem.resolve(DType::I8)?, BinaryOp::Rem);
    /// assert!(BinaryOp::Sub.resolve(DType::Bool).is_err());
    /// assert!(BinaryOp::Atan2.resolve(DType::I32).is_err()); // promoted to f32 first
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn resolve(self, dtype: DType) -> Result<BinaryOp> {
        let unsupported = |op| Error::Unsupported { op, dtype };
        match self.class() {
            Class::logical => Ok(self),
            _ if dtype == DType::Bool => match self.bool_rule() {
                BoolRule::As(op) => Ok(op),
                BoolRule::Refused(message) => Err(Error::invalid(self.name(), message)),
                BoolRule::Unsupported(kernel) => Err(unsupported(kernel)),
                BoolRule::None => Err(unsupported(self.name())),
            },
            Class::math if !dtype.is_float() => Err(unsupported(self.name())),
            _ => Ok(self),
        }
    }

    /// The values of the right operand the op refuses on `dtype`, if any:
    /// a device checks them before it writes anything.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, DType, ops::RhsRule};
    /// assert_eq!(BinaryOp::Pow.rhs_rule(DType::I32), Some(RhsRule::NonNegative));
    /// assert_eq!(BinaryOp::Add.rhs_rule(DType::I32), None);
    /// assert_eq!(BinaryOp::FloorDiv.rhs_rule(DType::F32), None); // floats divide by zero
    /// ```
    pub fn rhs_rule(self, dtype: DType) -> Option<RhsRule> {
        if dtype.is_float() || dtype == DType::Bool {
            return None;
        }
        self.rhs()
    }
}

/// A value of the right operand that an integer op refuses before it writes
/// anything (PyTorch raises on it).
///
/// # Example
/// ```
/// use axial_core::{BinaryOp, DType, ops::RhsRule};
/// assert_eq!(BinaryOp::FloorDiv.rhs_rule(DType::I64), Some(RhsRule::NonZero));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RhsRule {
    /// No element may be 0 (integer `%` and `//`).
    NonZero,
    /// No element may be negative (integer `**`).
    NonNegative,
}

impl RhsRule {
    /// True when `v` breaks the rule.
    ///
    /// ```
    /// # use axial_core::ops::RhsRule;
    /// assert!(RhsRule::NonZero.breaks(0) && !RhsRule::NonZero.breaks(-3));
    /// assert!(RhsRule::NonNegative.breaks(-1));
    /// ```
    pub fn breaks(self, v: i64) -> bool {
        match self {
            RhsRule::NonZero => v == 0,
            RhsRule::NonNegative => v < 0,
        }
    }

    /// The rule's number for the CUDA kernel that looks for a breaking
    /// value (`AXIAL_RHS_<RULE>` of the generated header).
    ///
    /// ```
    /// # use axial_core::ops::RhsRule;
    /// assert_eq!(RhsRule::NonNegative.code(), 2);
    /// ```
    pub fn code(self) -> u32 {
        match self {
            RhsRule::NonZero => 1,
            RhsRule::NonNegative => 2,
        }
    }

    /// PyTorch's error when an element breaks the rule.
    ///
    /// ```
    /// # use axial_core::ops::RhsRule;
    /// assert_eq!(RhsRule::NonZero.error("remainder").to_string(), "remainder: ZeroDivisionError");
    /// ```
    pub fn error(self, op: &'static str) -> Error {
        match self {
            RhsRule::NonZero => Error::invalid(op, "ZeroDivisionError"),
            RhsRule::NonNegative => super::unary::negative_power(),
        }
    }
}
