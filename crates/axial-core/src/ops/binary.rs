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
//! integers ([`BinaryOp::code`]). Three columns say what the op does to
//! the dtypes PyTorch gives few kernels: `complex` (its element function
//! over `Complex<f32>`/`Complex<f64>`, or PyTorch's refusal), `uint`
//! (uint16, uint32, uint64: `ok` runs the integer kernel) and `float8`
//! (`ok` computes in f32 and rounds once).

use super::grad::{add, add_scalar, bin, cmp, cmp_scalar, div, mul, neg, scale, un, zero_where};
use super::unary::{no_derivative, unsaved};
use super::{Derivative, Keep, Lowering, Op, OpInfo, Saves};
use crate::autograd::Grad;
use crate::{Backend, CmpOp, DType, Device, Error, RawTensor, Result, TensorRef, UnaryOp};

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
                complex: (|a, b| a + b), uint: (unsupported "add_stub"), float8: (unsupported "add_stub"),
                rhs: -, cost: cheap, derivative: (NOTHING: c => add_backward(c)),
            }
            /// `a - b`.
            Sub = "sub" (any) {
                int: (I::wrapping_sub), bool: (refused SUB_BOOL), float: (|a, b| a - b),
                complex: (|a, b| a - b), uint: (unsupported "add_stub"), float8: (unsupported "add_stub"),
                rhs: -, cost: cheap, derivative: (NOTHING: c => sub_backward(c)),
            }
            /// `a * b`.
            Mul = "mul" (any) {
                int: (I::wrapping_mul), bool: (as LogicalAnd), float: (|a, b| a * b),
                complex: (|a, b| a * b), uint: ok, float8: ok,
                rhs: -, cost: cheap, derivative: (EACH_OTHER: c => mul_backward(c)),
            }
            /// `a / b`, true division (integers give f32).
            Div = "div" (math) {
                int: -, bool: -, float: (|a, b| a / b),
                complex: (crate::cpu::math::complex_div), uint: ok, float8: (unsupported "div_cpu"),
                rhs: -, cost: cheap, derivative: (DIVISION: c => div_backward(c)),
            }
            /// `a % b`, with the sign of the divisor (Python's).
            Rem = "remainder" (any) {
                int: (crate::cpu::math::int_remainder::<I>), bool: (unsupported "remainder_cpu"),
                float: (crate::cpu::math::remainder),
                complex: (unsupported "remainder_cpu"), uint: (unsupported "remainder_cpu"), float8: (unsupported "remainder_cpu"),
                rhs: (NonZero), cost: costly, derivative: (BOTH: c => rem_backward(c)),
            }
            /// `a // b`, rounding toward −∞.
            FloorDiv = "floor_divide" (any) {
                int: (crate::cpu::math::int_floor_divide::<I>), bool: (unsupported "div_floor_cpu"),
                float: (crate::cpu::math::floor_divide::<E>),
                complex: (unsupported "div_floor_cpu"), uint: (unsupported "div_floor_cpu"), float8: (unsupported "div_floor_cpu"),
                rhs: (NonZero), cost: costly, derivative: -,
            }
            /// `aᵇ`.
            Pow = "pow" (any) {
                int: (crate::cpu::math::int_pow::<I>), bool: (unsupported "pow"),
                float: (crate::cpu::math::Float::powf),
                complex: (crate::cpu::math::complex_pow), uint: (unsupported "pow"), float8: (unsupported "pow"),
                rhs: (NonNegative), cost: costly, derivative: (POWER: c => pow_backward(c)),
            }
            /// Larger of the two (NaN propagates).
            Maximum = "maximum" (any) {
                int: (|a: I, b: I| a.max(b)), bool: (as LogicalOr), float: (crate::cpu::math::maximum),
                complex: (refused "maximum not implemented for complex tensors."), uint: ok, float8: (unsupported "maximum_cpu"),
                rhs: -, cost: cheap, derivative: (BOTH: c => extremum_backward(c, CmpOp::Lt)),
            }
            /// Smaller of the two (NaN propagates).
            Minimum = "minimum" (any) {
                int: (|a: I, b: I| a.min(b)), bool: (as LogicalAnd), float: (crate::cpu::math::minimum),
                complex: (refused "minimum not implemented for complex tensors."), uint: ok, float8: (unsupported "minimum_cpu"),
                rhs: -, cost: cheap, derivative: (BOTH: c => extremum_backward(c, CmpOp::Gt)),
            }
            /// `atan2(a, b)`.
            Atan2 = "atan2" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::atan2),
                complex: (unsupported "atan2_cpu"), uint: ok, float8: (unsupported "atan2_cpu"),
                rhs: -, cost: costly, derivative: (BOTH: c => atan2_backward(c)),
            }
            /// `a && b` (output bool).
            LogicalAnd = "logical_and" (logical) {
                int: -, bool: -, float: -, complex: -, uint: (unsupported "logical_and_cpu"), float8: (unsupported "logical_and_cpu"),
                rhs: -, cost: cheap, derivative: -,
            }
            /// `a || b` (output bool).
            LogicalOr = "logical_or" (logical) {
                int: -, bool: -, float: -, complex: -, uint: (unsupported "logical_or_cpu"), float8: (unsupported "logical_or_cpu"),
                rhs: -, cost: cheap, derivative: -,
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

/// What a row says of the dtypes PyTorch gives few kernels.
#[derive(Copy, Clone)]
enum Rule {
    /// The op runs (on its kernel for the dtype).
    Ok,
    /// PyTorch's "not implemented for" with its kernel's name.
    Unsupported(&'static str),
    /// PyTorch's own message.
    Refused(&'static str),
}

macro_rules! define_binary {
    ($(
        $(#[$doc:meta])*
        $op:ident = $name:literal ($class:ident) {
            int: $int:tt, bool: $bool:tt, float: $float:tt,
            complex: $complex:tt, uint: $uint:tt, float8: $float8:tt,
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

            /// The row's rule for `dtype` when it is complex, a wide
            /// unsigned integer or a float8.
            fn rule(self, dtype: DType) -> Rule {
                match self {
                    $(BinaryOp::$op => if dtype.is_complex() {
                        define_binary!(@rule $complex)
                    } else if dtype.is_wide_unsigned() {
                        define_binary!(@rule $uint)
                    } else if dtype.is_float8() {
                        define_binary!(@rule $float8)
                    } else {
                        Rule::Ok
                    },)*
                }
            }
        }
    };
    (@bool -) => { BoolRule::None };
    (@bool (as $other:ident)) => { BoolRule::As(BinaryOp::$other) };
    (@bool (unsupported $k:literal)) => { BoolRule::Unsupported($k) };
    (@bool (refused $m:expr)) => { BoolRule::Refused($m) };
    (@rhs -) => { None };
    (@rule -) => { Rule::Ok };
    (@rule ok) => { Rule::Ok };
    (@rule (unsupported $k:literal)) => { Rule::Unsupported($k) };
    (@rule (refused $m:expr)) => { Rule::Refused($m) };
    (@rule ($f:expr)) => { Rule::Ok };
    (@rhs ($rule:ident)) => { Some(RhsRule::$rule) };
}
binary_table!(define_binary);

impl Op for BinaryOp {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: BinaryOp::name(*self),
            lowering: Lowering::Primitive,
            derivative: self.derivative(),
        }
    }
}

/// Keeps neither operand (`add`, `sub`).
const NOTHING: Saves = Saves {
    inputs: &[Keep::Never, Keep::Never],
    output: false,
};
/// Keeps each operand when the other needs a gradient (`mul`).
const EACH_OTHER: Saves = Saves {
    inputs: &[Keep::IfGradOf(1), Keep::IfGradOf(0)],
    output: false,
};
/// Keeps the denominator, and the numerator when the denominator needs a
/// gradient (`div`).
const DIVISION: Saves = Saves {
    inputs: &[Keep::IfGradOf(1), Keep::Always],
    output: false,
};
/// Keeps both operands (`maximum`, `atan2`, `remainder`).
const BOTH: Saves = Saves {
    inputs: &[Keep::Always, Keep::Always],
    output: false,
};
/// Keeps both operands and the output (`pow`).
const POWER: Saves = Saves {
    inputs: &[Keep::Always, Keep::Always],
    output: true,
};

/// What a binary op's derivative reads: the gradient `g` of its output
/// (of the broadcast shape), the operands and output it kept, and which
/// operands need a gradient.
pub(crate) struct BinaryGrad<'a, D: Device> {
    /// The op.
    pub(crate) op: BinaryOp,
    /// The gradient of the output.
    pub(crate) g: Grad<D>,
    /// The left operand, when kept.
    pub(crate) a: Option<TensorRef<'a, D>>,
    /// The right operand, when kept.
    pub(crate) b: Option<TensorRef<'a, D>>,
    /// The output, when kept.
    pub(crate) y: Option<TensorRef<'a, D>>,
    /// Which operands need a gradient.
    pub(crate) needs: [bool; 2],
}

/// The operands' gradients, of the output's (broadcast) shape.
pub(crate) type Pair<D> = [Option<Grad<D>>; 2];

impl<'a, D: Device> BinaryGrad<'a, D> {
    fn a(&self) -> Result<&TensorRef<'a, D>> {
        self.a
            .as_ref()
            .ok_or_else(|| unsaved(self.op.name(), "left operand"))
    }

    fn b(&self) -> Result<&TensorRef<'a, D>> {
        self.b
            .as_ref()
            .ok_or_else(|| unsaved(self.op.name(), "right operand"))
    }

    fn y(&self) -> Result<&TensorRef<'a, D>> {
        self.y
            .as_ref()
            .ok_or_else(|| unsaved(self.op.name(), "output"))
    }

    /// `f()` for the operand `i` that needs a gradient.
    fn each(&self, i: usize, f: impl FnOnce() -> Result<RawTensor<D>>) -> Result<Option<Grad<D>>> {
        self.needs[i].then(|| f().map(Grad::new)).transpose()
    }
}

/// Each row's derivative: what it keeps ([`BinaryOp::derivative`]) and
/// its formula.
macro_rules! binary_derivatives {
    ($(
        $(#[$doc:meta])*
        $op:ident = $name:literal ($class:ident) {
            int: $int:tt, bool: $bool:tt, float: $float:tt,
            complex: $complex:tt, uint: $uint:tt, float8: $float8:tt,
            rhs: $rhs:tt, cost: $cost:ident, derivative: $derivative:tt,
        }
    )*) => {
        impl BinaryOp {
            /// The op's derivative: what its backward pass keeps, or none.
            ///
            /// ```
            /// use axial_core::ops::{Derivative, Keep};
            /// use axial_core::BinaryOp;
            /// let Derivative::Written(div) = BinaryOp::Div.derivative() else { unreachable!() };
            /// assert_eq!(div.inputs, &[Keep::IfGradOf(1), Keep::Always]); // the denominator
            /// assert_eq!(BinaryOp::LogicalAnd.derivative(), Derivative::None);
            /// ```
            pub fn derivative(self) -> Derivative {
                match self {
                    $(BinaryOp::$op => binary_derivatives!(@saves $derivative),)*
                }
            }

            /// The operands' gradients (of the output's shape) from `ctx`.
            pub(crate) fn backward<D: Backend>(self, ctx: &BinaryGrad<'_, D>) -> Result<Pair<D>> {
                match self {
                    $(BinaryOp::$op => binary_derivatives!(@formula ctx $derivative),)*
                }
            }
        }
    };
    (@saves -) => { Derivative::None };
    (@saves ($saves:ident: $c:ident => $f:expr)) => { Derivative::Written($saves) };
    (@formula $ctx:ident -) => { Err(no_derivative($ctx.op.name())) };
    (@formula $ctx:ident ($saves:ident: $c:ident => $f:expr)) => {{
        let $c = $ctx;
        $f
    }};
}
binary_table!(binary_derivatives);

fn add_backward<D: Backend>(c: &BinaryGrad<'_, D>) -> Result<Pair<D>> {
    Ok([0, 1].map(|i| c.needs[i].then(|| c.g.clone())))
}

fn sub_backward<D: Backend>(c: &BinaryGrad<'_, D>) -> Result<Pair<D>> {
    Ok([c.needs[0].then(|| c.g.clone()), c.each(1, || neg(&c.g))?])
}

fn mul_backward<D: Backend>(c: &BinaryGrad<'_, D>) -> Result<Pair<D>> {
    Ok([
        c.each(0, || mul(&c.g, c.b()?))?,
        c.each(1, || mul(&c.g, c.a()?))?,
    ])
}

/// `g/b` and `−g·(a/b)/b`, as PyTorch.
fn div_backward<D: Backend>(c: &BinaryGrad<'_, D>) -> Result<Pair<D>> {
    Ok([
        c.each(0, || div(&c.g, c.b()?))?,
        c.each(1, || {
            let (a, b) = (c.a()?, c.b()?);
            neg(&mul(&c.g, &div(&div(a, b)?, b)?)?)
        })?,
    ])
}

/// `g` and `−g·⌊a/b⌋`.
fn rem_backward<D: Backend>(c: &BinaryGrad<'_, D>) -> Result<Pair<D>> {
    Ok([
        c.needs[0].then(|| c.g.clone()),
        c.each(1, || {
            let q = bin(BinaryOp::FloorDiv, c.a()?, c.b()?)?;
            neg(&mul(&c.g, &q)?)
        })?,
    ])
}

/// `g·b·a^(b−1)` (zero where `b = 0`) and `g·y·ln a` (zero where `a = 0`
/// and `b ≥ 0`), as PyTorch's `pow_backward_self` and `_exponent`.
fn pow_backward<D: Backend>(c: &BinaryGrad<'_, D>) -> Result<Pair<D>> {
    Ok([
        c.each(0, || {
            let (a, b) = (c.a()?, c.b()?);
            let d = mul(b, &bin(BinaryOp::Pow, a, &add_scalar(b, -1.0)?)?)?;
            zero_where(&cmp_scalar(CmpOp::Eq, b, 0.0)?, &mul(&c.g, &d)?)
        })?,
        c.each(1, || {
            let (a, b) = (c.a()?, c.b()?);
            let d = mul(c.y()?, &un(UnaryOp::Log, a)?)?;
            let zero_base = cmp_scalar(CmpOp::Eq, a, 0.0)?;
            let cond = bin(
                BinaryOp::LogicalAnd,
                &zero_base,
                &cmp_scalar(CmpOp::Ge, b, 0.0)?,
            )?;
            zero_where(&cond, &mul(&c.g, &d)?)
        })?,
    ])
}

/// `maximum` (`loses = Lt`) and `minimum` (`loses = Gt`): the gradient to
/// the operand chosen, halved between equal operands (PyTorch's rule).
fn extremum_backward<D: Backend>(c: &BinaryGrad<'_, D>, loses: CmpOp) -> Result<Pair<D>> {
    let (a, b) = (c.a()?, c.b()?);
    let tie = cmp(CmpOp::Eq, a, b)?;
    let half = scale(&c.g, 0.5)?;
    let split = tie.view().where_(&half.view(), &c.g.view())?;
    let wins = if loses == CmpOp::Lt {
        CmpOp::Gt
    } else {
        CmpOp::Lt
    };
    Ok([
        c.each(0, || zero_where(&cmp(loses, a, b)?, &split))?,
        c.each(1, || zero_where(&cmp(wins, a, b)?, &split))?,
    ])
}

/// `g·b/(a² + b²)` and `−g·a/(a² + b²)`.
fn atan2_backward<D: Backend>(c: &BinaryGrad<'_, D>) -> Result<Pair<D>> {
    let (a, b) = (c.a()?, c.b()?);
    let d = add(&mul(a, a)?, &mul(b, b)?)?;
    Ok([
        c.each(0, || mul(&c.g, &div(b, &d)?))?,
        c.each(1, || neg(&mul(&c.g, &div(a, &d)?)?))?,
    ])
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
        self.check_rule(dtype)?;
        match self.class() {
            Class::logical => Ok(DType::Bool),
            Class::math if !dtype.is_float() && !dtype.is_complex() => Ok(DType::F32),
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
        self.check_rule(dtype)?;
        match self.class() {
            Class::logical => Ok(self),
            _ if dtype == DType::Bool => match self.bool_rule() {
                BoolRule::As(op) => Ok(op),
                BoolRule::Refused(message) => Err(Error::invalid(self.name(), message)),
                BoolRule::Unsupported(kernel) => Err(unsupported(kernel)),
                BoolRule::None => Err(unsupported(self.name())),
            },
            Class::math if !dtype.is_float() && !dtype.is_complex() => {
                Err(unsupported(self.name()))
            }
            _ => Ok(self),
        }
    }

    /// PyTorch's refusal of the op on a complex, wide unsigned or float8
    /// `dtype`, where its row has one.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, DType};
    /// assert_eq!(BinaryOp::Add.check_rule(DType::U32).unwrap_err().to_string(), "\"add_stub\" not implemented for 'UInt32'");
    /// assert_eq!(BinaryOp::Maximum.check_rule(DType::C64).unwrap_err().to_string(), "maximum not implemented for complex tensors.");
    /// assert!(BinaryOp::Mul.check_rule(DType::F8E5M2).is_ok());
    /// ```
    pub fn check_rule(self, dtype: DType) -> Result<()> {
        match self.rule(dtype) {
            Rule::Ok => Ok(()),
            Rule::Unsupported(op) => Err(Error::Unsupported { op, dtype }),
            Rule::Refused(message) => Err(Error::Refused(message)),
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
        if !dtype.is_int() {
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
