//! The op table: every elementwise, comparison and reduction op by name, with
//! its PyTorch name and output dtype, and PyTorch's rules for each op and
//! dtype ([`rules`](self::Resolved)). Devices implement these; nothing here is
//! device-specific.

mod index;
mod rules;

pub use index::{check_dim, check_gather, check_index_dtype, check_index_select, checked_index};
pub use rules::{PowScalarKind, Resolved, RhsRule, checked_scalar, matmul_plan};

use crate::{DType, Error, Result};

/// Elementwise ops of one operand.
///
/// # Example
/// ```
/// use axial_core::{RawTensor, UnaryOp};
/// let x = RawTensor::from_vec(vec![-1.5f32, 0.5, 2.0], &[3])?;
/// let clamped = x.view().unary(UnaryOp::Clamp { min: Some(0.0), max: Some(1.0) })?;
/// assert_eq!(clamped.to_vec::<f32>()?, vec![0.0, 0.5, 1.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum UnaryOp {
    /// `-x`.
    Neg,
    /// `|x|`.
    Abs,
    /// `√x`.
    Sqrt,
    /// `1/√x`.
    Rsqrt,
    /// `eˣ`.
    Exp,
    /// `ln x`.
    Log,
    /// `ln(1+x)`.
    Log1p,
    /// `eˣ-1`.
    Expm1,
    /// `sin x`.
    Sin,
    /// `cos x`.
    Cos,
    /// `tan x`.
    Tan,
    /// `tanh x`.
    Tanh,
    /// `1/(1+e⁻ˣ)`.
    Sigmoid,
    /// `max(x, 0)`.
    Relu,
    /// `x·Φ(x)` (the exact, erf-based GELU, PyTorch's default).
    Gelu,
    /// `½x(1 + tanh(√(2/π)(x + 0.044715x³)))`: PyTorch's
    /// `gelu(approximate='tanh')`.
    GeluTanh,
    /// `x·sigmoid(x)`.
    Silu,
    /// The error function.
    Erf,
    /// Round toward −∞.
    Floor,
    /// Round toward +∞.
    Ceil,
    /// Round half to even.
    Round,
    /// Round toward 0.
    Trunc,
    /// −1, 0 or 1 (NaN gives 0, as in PyTorch's CPU kernel).
    Sign,
    /// `1/x`.
    Reciprocal,
    /// `x²`.
    Square,
    /// `xᵖ` for a scalar exponent.
    PowScalar(f64),
    /// `min(max(x, min), max)`; either bound may be absent.
    Clamp {
        /// Lower bound.
        min: Option<f64>,
        /// Upper bound.
        max: Option<f64>,
    },
    /// `!x` (output bool).
    LogicalNot,
}

impl UnaryOp {
    /// PyTorch's name of the op.
    ///
    /// ```
    /// # use axial_core::UnaryOp;
    /// assert_eq!(UnaryOp::Rsqrt.name(), "rsqrt");
    /// ```
    pub fn name(self) -> &'static str {
        use UnaryOp::*;
        match self {
            Neg => "neg",
            Abs => "abs",
            Sqrt => "sqrt",
            Rsqrt => "rsqrt",
            Exp => "exp",
            Log => "log",
            Log1p => "log1p",
            Expm1 => "expm1",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Tanh => "tanh",
            Sigmoid => "sigmoid",
            Relu => "relu",
            Gelu | GeluTanh => "gelu",
            Silu => "silu",
            Erf => "erf",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            Trunc => "trunc",
            Sign => "sign",
            Reciprocal => "reciprocal",
            Square => "square",
            PowScalar(_) => "pow",
            Clamp { .. } => "clamp",
            LogicalNot => "logical_not",
        }
    }

    /// True for the ops whose result is a float even for integer input
    /// (`sqrt(i64)` is f32 in PyTorch).
    ///
    /// ```
    /// # use axial_core::UnaryOp;
    /// assert!(UnaryOp::Exp.is_float_op());
    /// assert!(!UnaryOp::Abs.is_float_op());
    /// ```
    pub fn is_float_op(self) -> bool {
        use UnaryOp::*;
        matches!(
            self,
            Sqrt | Rsqrt
                | Exp
                | Log
                | Log1p
                | Expm1
                | Sin
                | Cos
                | Tan
                | Tanh
                | Sigmoid
                | Gelu
                | GeluTanh
                | Silu
                | Erf
                | Reciprocal
        )
    }

    /// The dtype of the result for an input of `dtype`, or PyTorch's error.
    ///
    /// ```
    /// # use axial_core::{DType, UnaryOp};
    /// assert_eq!(UnaryOp::Sqrt.output_dtype(DType::I64)?, DType::F32);
    /// assert_eq!(UnaryOp::Abs.output_dtype(DType::I32)?, DType::I32);
    /// assert!(UnaryOp::Neg.output_dtype(DType::Bool).is_err());
    /// assert!(UnaryOp::Gelu.output_dtype(DType::I32).is_err());
    /// assert_eq!(UnaryOp::Square.output_dtype(DType::Bool)?, DType::I64);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn output_dtype(self, dtype: DType) -> Result<DType> {
        use UnaryOp::*;
        match self {
            LogicalNot => Ok(DType::Bool),
            Gelu | GeluTanh | Silu if !dtype.is_float() => Err(Error::Unsupported {
                op: self.name(),
                dtype,
            }),
            _ if self.is_float_op() && !dtype.is_float() => Ok(DType::F32),
            Square if dtype == DType::Bool => Ok(DType::I64),
            Neg if dtype == DType::Bool => Err(Error::invalid(
                "neg",
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
            )),
            PowScalar(p) if !dtype.is_float() && p.fract() != 0.0 => Ok(DType::F32),
            PowScalar(p) if !dtype.is_float() && p < 0.0 => Err(Error::invalid(
                "pow",
                "Integers to negative integer powers are not allowed.",
            )),
            _ => Ok(dtype),
        }
    }
}

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
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`, true division (integers give f32).
    Div,
    /// `a % b`, with the sign of the divisor (Python's).
    Rem,
    /// `a // b`, rounding toward −∞.
    FloorDiv,
    /// `aᵇ`.
    Pow,
    /// Larger of the two (NaN propagates).
    Maximum,
    /// Smaller of the two (NaN propagates).
    Minimum,
    /// `atan2(a, b)`.
    Atan2,
    /// `a && b` (output bool).
    LogicalAnd,
    /// `a || b` (output bool).
    LogicalOr,
}

impl BinaryOp {
    /// PyTorch's name of the op.
    ///
    /// ```
    /// # use axial_core::BinaryOp;
    /// assert_eq!(BinaryOp::Rem.name(), "remainder");
    /// ```
    pub fn name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            Div => "div",
            Rem => "remainder",
            FloorDiv => "floor_divide",
            Pow => "pow",
            Maximum => "maximum",
            Minimum => "minimum",
            Atan2 => "atan2",
            LogicalAnd => "logical_and",
            LogicalOr => "logical_or",
        }
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
        use BinaryOp::*;
        match self {
            LogicalAnd | LogicalOr => Ok(DType::Bool),
            Div | Atan2 if !dtype.is_float() => Ok(DType::F32),
            Sub if dtype == DType::Bool => Err(Error::invalid(
                "sub",
                "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.",
            )),
            _ => Ok(dtype),
        }
    }
}

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
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl CmpOp {
    /// PyTorch's name of the op.
    ///
    /// ```
    /// # use axial_core::CmpOp;
    /// assert_eq!(CmpOp::Ge.name(), "ge");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Lt => "lt",
            CmpOp::Le => "le",
            CmpOp::Gt => "gt",
            CmpOp::Ge => "ge",
        }
    }
}

/// Reductions over one or several dims.
///
/// # Example
/// ```
/// use axial_core::{RawTensor, ReduceOp};
/// let x = RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?;
/// let var = x.view().reduce(ReduceOp::Var { correction: 1.0 }, &[1], false)?;
/// assert_eq!(var.to_vec::<f64>()?, vec![0.5, 0.5]);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ReduceOp {
    /// Sum (integers and bool give i64).
    Sum,
    /// Product (integers and bool give i64).
    Prod,
    /// Mean (floats only).
    Mean,
    /// Largest value (`amax`; NaN propagates).
    Max,
    /// Smallest value (`amin`; NaN propagates).
    Min,
    /// True when every element is non-zero (bool; u8 stays u8).
    All,
    /// True when some element is non-zero (bool; u8 stays u8).
    Any,
    /// Variance with `correction` (1 is Bessel's; floats only).
    Var {
        /// Subtracted from the count in the divisor.
        correction: f64,
    },
    /// Standard deviation with `correction` (floats only).
    Std {
        /// Subtracted from the count in the divisor.
        correction: f64,
    },
}

impl ReduceOp {
    /// PyTorch's name of the op.
    ///
    /// ```
    /// # use axial_core::ReduceOp;
    /// assert_eq!(ReduceOp::Max.name(), "amax");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Prod => "prod",
            ReduceOp::Mean => "mean",
            ReduceOp::Max => "amax",
            ReduceOp::Min => "amin",
            ReduceOp::All => "all",
            ReduceOp::Any => "any",
            ReduceOp::Var { .. } => "var",
            ReduceOp::Std { .. } => "std",
        }
    }

    /// The dtype of the result (semantics.md §7), or PyTorch's error.
    ///
    /// ```
    /// # use axial_core::{DType, ReduceOp};
    /// assert_eq!(ReduceOp::Sum.output_dtype(DType::I32)?, DType::I64);
    /// assert_eq!(ReduceOp::All.output_dtype(DType::U8)?, DType::U8);
    /// assert_eq!(
    ///     ReduceOp::Mean.output_dtype(DType::I64).unwrap_err().to_string(),
    ///     "mean: could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn output_dtype(self, dtype: DType) -> Result<DType> {
        match self {
            ReduceOp::Sum | ReduceOp::Prod => Ok(dtype.sum_dtype()),
            ReduceOp::Max | ReduceOp::Min => Ok(dtype),
            ReduceOp::All | ReduceOp::Any if dtype == DType::U8 => Ok(DType::U8),
            ReduceOp::All | ReduceOp::Any => Ok(DType::Bool),
            ReduceOp::Mean | ReduceOp::Var { .. } | ReduceOp::Std { .. } if !dtype.is_float() => {
                Err(Error::Invalid {
                    op: self.name(),
                    message: format!(
                        "could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                        dtype.scalar_type_name()
                    ),
                })
            }
            _ => Ok(dtype),
        }
    }

    /// True when an empty reduction has no value (max, min): PyTorch errors.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, ReduceOp};
    /// assert!(ReduceOp::Max.needs_elements() && !ReduceOp::Sum.needs_elements());
    /// let empty = RawTensor::zeros(&[0], DType::F32)?;
    /// assert_eq!(empty.view().reduce(ReduceOp::Sum, &[0], false)?.to_vec::<f32>()?, vec![0.0]);
    /// assert!(empty.view().reduce(ReduceOp::Max, &[0], false).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn needs_elements(self) -> bool {
        matches!(self, ReduceOp::Max | ReduceOp::Min)
    }
}

/// Index reductions; the result is i64.
///
/// # Example
/// ```
/// use axial_core::{ArgReduceOp, RawTensor};
/// let x = RawTensor::from_vec(vec![2i32, 7, 7, 1], &[4])?;
/// let i = x.view().arg_reduce(ArgReduceOp::ArgMax, Some(0), false)?;
/// assert_eq!(i.to_vec::<i64>()?, vec![1]); // the first of the ties
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArgReduceOp {
    /// Index of the largest value (first on ties; NaN wins).
    ArgMax,
    /// Index of the smallest value (first on ties; NaN wins).
    ArgMin,
}

impl ArgReduceOp {
    /// PyTorch's name of the op.
    ///
    /// ```
    /// # use axial_core::ArgReduceOp;
    /// assert_eq!(ArgReduceOp::ArgMin.name(), "argmin");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ArgReduceOp::ArgMax => "argmax",
            ArgReduceOp::ArgMin => "argmin",
        }
    }
}
