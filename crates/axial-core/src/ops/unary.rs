//! Elementwise ops of one operand: the table ([`unary_table`]), one row per
//! op, and PyTorch's rules for each op and dtype by the row's class.
//!
//! A row holds, in order: the variant and PyTorch's name; its class (which
//! dtypes it takes and what it gives them: [`Class`]); its integer kernel
//! (an element function over the integer type `I`, for the class `any`);
//! what it does to bool; its float kernel (an element function over the
//! compute type, f32 or f64: f16 and bf16 load into f32 and round once);
//! its vectorised f32 kernel (a [`Lanewise`](crate::cpu::vmath) type of
//! `cpu/vmath`, or `-`); the work of one element (`cheap` or `costly`,
//! for the CPU's threads); its CUDA kernel's name (`unary_<name>_<dtype>`
//! for floats; integers run `unary_int_<dtype>` with the op's number,
//! [`UnaryOp::code`]); and its derivative (`-`: not written yet).
//!
//! The table is read by [`UnaryOp`]'s definition here, by the CPU's kernels
//! (`cpu/unary.rs`), and by the CUDA header ([`super::cuda`]). Three rows
//! are special (their class names them): `pow` and `clamp` take scalar
//! arguments, `logical_not` gives bool for every dtype; their kernels are
//! written beside the table's in each consumer.

use super::grad::{
    add_scalar, bin, bin_, bin_scalar_, cmp_scalar, div, keep_where, mul, neg, piecewise,
    rsub_scalar, scale, un, un_, zero_where, zeros_like,
};
use super::scalar::{checked_scalar, limits};
use super::{Derivative, Lowering, Op, OpInfo, Saves};
use crate::autograd::Grad;
use crate::{
    Backend, BinaryOp, CmpOp, DType, Device, Element, Error, RawTensor, Result, Scalar, TensorRef,
    with_dtype,
};

/// Negation of a bool, in PyTorch's words.
const NEG_BOOL: &str = "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.";

/// Invokes `$then!` with every row of the unary table (see the module's
/// docs for the columns).
macro_rules! unary_table {
    ($then:ident) => {
        $then! {
            /// `-x`.
            Neg = "neg" (any) {
                int: (I::wrapping_neg), bool: (refused NEG_BOOL), float: (|x| -x),
                complex: (|z: Complex<F>| -z), uint: (unsupported "neg_cpu"), float8: (unsupported "neg_cpu"),
                simd: -, cost: cheap, cuda: "neg", derivative: (nothing: c => neg(&c.g)),
            }
            /// `|x|`.
            Abs = "abs" (any) {
                int: (I::wrapping_abs), bool: (unsupported "abs_cpu"),
                float: (crate::cpu::math::Float::abs),
                complex: (modulus), uint: (unsupported "abs_cpu"), float8: ok,
                simd: -, cost: cheap, cuda: "abs", derivative: (input: c => mul(&c.g, &un(UnaryOp::Sign, c.x()?)?)),
            }
            /// `√x`.
            Sqrt = "sqrt" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::sqrt),
                complex: (|z: Complex<F>| z.sqrt()), uint: ok, float8: (unsupported "sqrt_vml_cpu"),
                simd: -, cost: cheap, cuda: "sqrt", derivative: (output: c => div(&c.g, &scale(c.y()?, 2.0)?)),
            }
            /// `1/√x`.
            Rsqrt = "rsqrt" (math) {
                int: -, bool: -, float: (crate::cpu::math::rsqrt),
                complex: (|z: Complex<F>| crate::cpu::math::complex_div(Complex::new(F::one(), F::zero()), z.sqrt())), uint: ok, float8: (unsupported "rsqrt_cpu"),
                simd: (crate::cpu::vmath::RsqrtOp), cost: cheap, cuda: "rsqrt", derivative: (output: c => mul(&c.g, &scale(&mul(&mul(c.y()?, c.y()?)?, c.y()?)?, -0.5)?)),
            }
            /// `eˣ`.
            Exp = "exp" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::exp),
                complex: (|z: Complex<F>| z.exp()), uint: ok, float8: (unsupported "exp_vml_cpu"),
                simd: (crate::cpu::vmath::explog::ExpOp), cost: costly, cuda: "exp", derivative: (output: c => mul(&c.g, c.y()?)),
            }
            /// `ln x`.
            Log = "log" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::ln),
                complex: (|z: Complex<F>| z.ln()), uint: ok, float8: (unsupported "log_vml_cpu"),
                simd: (crate::cpu::vmath::explog::LogOp), cost: costly, cuda: "log", derivative: (input: c => div(&c.g, c.x()?)),
            }
            /// `ln(1+x)`.
            Log1p = "log1p" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::ln_1p),
                complex: (|z: Complex<F>| (z + F::one()).ln()), uint: ok, float8: (unsupported "log1p_vml_cpu"),
                simd: -, cost: costly, cuda: "log1p", derivative: (input: c => div(&c.g, &add_scalar(c.x()?, 1.0)?)),
            }
            /// `eˣ-1`.
            Expm1 = "expm1" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::exp_m1),
                complex: (|z: Complex<F>| z.exp() - F::one()), uint: ok, float8: (unsupported "expm1_vml_cpu"),
                simd: -, cost: costly, cuda: "expm1", derivative: (output: c => mul(&c.g, &add_scalar(c.y()?, 1.0)?)),
            }
            /// `sin x`.
            Sin = "sin" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::sin),
                complex: (|z: Complex<F>| z.sin()), uint: ok, float8: (unsupported "sin_vml_cpu"),
                simd: (crate::cpu::vmath::trig::SinOp), cost: costly, cuda: "sin", derivative: (input: c => mul(&c.g, &un(UnaryOp::Cos, c.x()?)?)),
            }
            /// `cos x`.
            Cos = "cos" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::cos),
                complex: (|z: Complex<F>| z.cos()), uint: ok, float8: (unsupported "cos_vml_cpu"),
                simd: (crate::cpu::vmath::trig::CosOp), cost: costly, cuda: "cos", derivative: (input: c => mul(&c.g, &neg(&un(UnaryOp::Sin, c.x()?)?)?)),
            }
            /// `tan x`.
            Tan = "tan" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::tan),
                complex: (|z: Complex<F>| z.tan()), uint: ok, float8: (unsupported "tan_vml_cpu"),
                simd: -, cost: costly, cuda: "tan", derivative: (output: c => mul(&c.g, &add_scalar(&mul(c.y()?, c.y()?)?, 1.0)?)),
            }
            /// `tanh x`.
            Tanh = "tanh" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::tanh),
                complex: (|z: Complex<F>| z.tanh()), uint: ok, float8: (unsupported "tanh_vml_cpu"),
                simd: (crate::cpu::vmath::logistic::TanhOp), cost: costly, cuda: "tanh", derivative: (output: c => mul(&c.g, &rsub_scalar(1.0, &mul(c.y()?, c.y()?)?)?)),
            }
            /// `1/(1+e⁻ˣ)`.
            Sigmoid = "sigmoid" (math) {
                int: -, bool: -, float: (crate::cpu::math::sigmoid),
                complex: (crate::cpu::math::complex_sigmoid), uint: ok, float8: (unsupported "sigmoid_cpu_reduced_float"),
                simd: (crate::cpu::vmath::logistic::SigmoidOp), cost: costly, cuda: "sigmoid", derivative: (output: c => mul(&c.g, &mul(c.y()?, &rsub_scalar(1.0, c.y()?)?)?)),
            }
            /// `max(x, 0)`.
            Relu = "relu" (any) {
                int: (|x: I| if x < I::ZERO { I::ZERO } else { x }),
                bool: (refused "Boolean inputs not supported for relu"),
                float: (crate::cpu::math::relu),
                complex: (refused "clamp is not supported for complex types"), uint: ok, float8: (unsupported "clamp_min_scalar_cpu"),
                simd: -, cost: cheap, cuda: "relu", derivative: (output: c => zero_where(&cmp_scalar(CmpOp::Le, c.y()?, 0.0)?, &c.g)),
            }
            /// `x·Φ(x)` (the exact, erf-based GELU, PyTorch's default).
            Gelu = "gelu" (float) {
                int: -, bool: -, float: (crate::cpu::math::gelu),
                complex: (unsupported "GeluKernelImpl"), uint: (unsupported "GeluKernelImpl"), float8: (unsupported "GeluKernelImpl"),
                simd: (crate::cpu::vmath::erf::GeluOp), cost: costly, cuda: "gelu", derivative: (input: c => gelu_backward(c)),
            }
            /// `½x(1 + tanh(√(2/π)(x + 0.044715x³)))`: PyTorch's
            /// `gelu(approximate='tanh')`.
            GeluTanh = "gelu" (float) {
                int: -, bool: -, float: (crate::cpu::math::gelu_tanh),
                complex: (unsupported "GeluKernelImpl"), uint: (unsupported "GeluKernelImpl"), float8: (unsupported "GeluKernelImpl"),
                simd: (crate::cpu::vmath::logistic::GeluTanhOp), cost: costly, cuda: "gelu_tanh", derivative: (input: c => gelu_tanh_backward(c)),
            }
            /// `x·sigmoid(x)`.
            Silu = "silu" (float) {
                int: -, bool: -, float: (crate::cpu::math::silu),
                complex: (|z: Complex<F>| z * crate::cpu::math::complex_sigmoid(z)), uint: (unsupported "silu_cpu"), float8: (unsupported "silu_cpu"),
                simd: (crate::cpu::vmath::logistic::SiluOp), cost: costly, cuda: "silu", derivative: (input: c => silu_backward(c)),
            }
            /// The error function.
            Erf = "erf" (math) {
                int: -, bool: -, float: (crate::cpu::math::Float::erf),
                complex: (unsupported "erf_vml_cpu"), uint: ok, float8: (unsupported "erf_vml_cpu"),
                simd: (crate::cpu::vmath::erf::ErfOp), cost: costly, cuda: "erf", derivative: (input: c => erf_backward(c)),
            }
            /// Round toward −∞.
            Floor = "floor" (rounding) {
                int: -, bool: (unsupported "floor_vml_cpu"), float: (crate::cpu::math::Float::floor),
                complex: (refused "floor is not supported for complex inputs"), uint: ok, float8: (unsupported "floor_vml_cpu"),
                simd: -, cost: cheap, cuda: "floor", derivative: (nothing: c => zeros_like(&c.g)),
            }
            /// Round toward +∞.
            Ceil = "ceil" (rounding) {
                int: -, bool: (unsupported "ceil_vml_cpu"), float: (crate::cpu::math::Float::ceil),
                complex: (refused "ceil is not supported for complex inputs"), uint: ok, float8: (unsupported "ceil_vml_cpu"),
                simd: -, cost: cheap, cuda: "ceil", derivative: (nothing: c => zeros_like(&c.g)),
            }
            /// Round half to even.
            Round = "round" (rounding) {
                int: -, bool: (unsupported "round_vml_cpu"),
                float: (crate::cpu::math::Float::round_ties_even),
                complex: (unsupported "round_vml_cpu"), uint: ok, float8: (unsupported "round_vml_cpu"),
                simd: -, cost: cheap, cuda: "round", derivative: (nothing: c => zeros_like(&c.g)),
            }
            /// Round toward 0.
            Trunc = "trunc" (rounding) {
                int: -, bool: (unsupported "trunc_vml_cpu"), float: (crate::cpu::math::Float::trunc),
                complex: (refused "trunc is not supported for complex inputs"), uint: ok, float8: (unsupported "trunc_vml_cpu"),
                simd: -, cost: cheap, cuda: "trunc", derivative: (nothing: c => zeros_like(&c.g)),
            }
            /// −1, 0 or 1 (NaN gives 0, as in PyTorch's CPU kernel).
            Sign = "sign" (any) {
                int: (crate::cpu::math::int_sign::<I>), bool: (identity),
                float: (crate::cpu::math::sign),
                complex: (refused "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead."), uint: (unsupported "sign_cpu"), float8: (unsupported "sign_cpu"),
                simd: -, cost: cheap, cuda: "sign", derivative: (nothing: c => zeros_like(&c.g)),
            }
            /// `1/x`.
            Reciprocal = "reciprocal" (math) {
                int: -, bool: -, float: (crate::cpu::math::reciprocal),
                complex: (|z: Complex<F>| crate::cpu::math::complex_div(Complex::new(F::one(), F::zero()), z)), uint: ok, float8: (unsupported "reciprocal_cpu"),
                simd: -, cost: cheap, cuda: "reciprocal", derivative: (output: c => mul(&c.g, &neg(&mul(c.y()?, c.y()?)?)?)),
            }
            /// `x²`.
            Square = "square" (any) {
                int: (|x: I| x.wrapping_mul(x)), bool: (to_i64), float: (|x| x * x),
                complex: (|z: Complex<F>| z * z), uint: (unsupported "pow"), float8: (unsupported "pow"),
                simd: -, cost: cheap, cuda: "square", derivative: (input: c => mul(&c.g, &scale(c.x()?, 2.0)?)),
            }
            /// `ln(1 + eˣ)`, and `x` itself above 20: PyTorch's `softplus` with
            /// its defaults (`beta` 1, `threshold` 20).
            Softplus = "softplus" (float) {
                int: -, bool: -,
                float: (|x| {
                    use crate::cpu::math::Float;
                    let threshold = <E as crate::Element>::from_f64(20.0).load();
                    if x > threshold { x } else { x.exp().ln_1p() }
                }),
                complex: (unsupported "softplus_cpu"), uint: (unsupported "softplus_cpu"), float8: (unsupported "softplus_cpu"),
                simd: (crate::cpu::vmath::explog::SoftplusOp), cost: costly, cuda: "softplus",
                derivative: (input: c => mul(&c.g, &un(UnaryOp::Sigmoid, c.x()?)?)),
            }
            /// `xᵖ` for a scalar exponent.
            PowScalar with (f64) = "pow" (pow) {
                int: -, bool: -, float: -, complex: (power), uint: (power), float8: (unsupported "pow"),
                simd: -, cost: costly, cuda: "pow", derivative: (input: c => pow_backward(c)),
            }
            /// `min(max(x, min), max)`; either bound may be absent.
            Clamp with {
                /// Lower bound.
                min: Option<f64>,
                /// Upper bound.
                max: Option<f64>,
            } = "clamp" (clamp) {
                int: -, bool: -, float: -, complex: (refused "clamp is not supported for complex types"), uint: ok, float8: (unsupported "clamp_scalar_cpu"),
                simd: -, cost: cheap, cuda: "clamp", derivative: (input: c => clamp_backward(c)),
            }
            /// `!x` (output bool).
            LogicalNot = "logical_not" (logical_not) {
                int: -, bool: -, float: -, complex: ok, uint: (unsupported "logical_not_cpu"), float8: (unsupported "logical_not_cpu"),
                simd: -, cost: cheap, cuda: "logical_not", derivative: -,
            }
        }
    };
}
pub(crate) use unary_table;

/// The grammar of a row, for the consumers of [`unary_table`].
macro_rules! define_unary {
    ($(
        $(#[$doc:meta])*
        $op:ident $(with $fields:tt)? = $name:literal ($class:ident) {
            int: $int:tt, bool: $bool:tt, float: $float:tt,
            complex: $complex:tt, uint: $uint:tt, float8: $float8:tt, simd: $simd:tt,
            cost: $cost:ident, cuda: $cuda:literal, derivative: $derivative:tt,
        }
    )*) => {
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
            $($(#[$doc])* $op $($fields)?,)*
        }

        /// The rows of the table, in order: [`UnaryOp::code`] is the index.
        #[derive(Copy, Clone)]
        enum Row {
            $($op,)*
        }

        /// Each row's name, class and CUDA kernel, by [`Row`].
        const ROWS: &[(&str, Class, &str)] = &[$(($name, Class::$class, $cuda),)*];

        impl UnaryOp {
            fn row(self) -> Row {
                match self {
                    $(UnaryOp::$op { .. } => Row::$op,)*
                }
            }
        }
    };
}
unary_table!(define_unary);

/// Which dtypes a unary op takes and what it gives them, as PyTorch (the
/// variants are spelt as the table's rows name them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub(crate) enum Class {
    /// Every dtype, kept: floats and integers have kernels; bool as its
    /// row says.
    any,
    /// Math on floats; integers and bool give f32 (computed in f32).
    math,
    /// Floats only.
    float,
    /// Rounding: the identity on integers; bool as its row says.
    rounding,
    /// `pow` with a scalar exponent.
    pow,
    /// `clamp` with scalar bounds.
    clamp,
    /// `logical_not`: bool for every dtype.
    logical_not,
}

/// What a row says of bool input, for [`UnaryOp::resolve`].
enum BoolRule {
    /// No rule of its own: the class decides.
    None,
    /// The input unchanged.
    Identity,
    /// The identity in bool, but an i64 result at the tensor level.
    ToI64,
    /// PyTorch's "not implemented for 'Bool'" with its kernel's name.
    Unsupported(&'static str),
    /// PyTorch's own message.
    Refused(&'static str),
}

/// What a row says of the dtypes PyTorch gives few kernels (complex,
/// uint16/32/64, the float8s), for [`UnaryOp::output_dtype`] and
/// [`UnaryOp::resolve`].
#[derive(Copy, Clone)]
enum Rule {
    /// The op runs: its element function of the dtype's column (a complex
    /// one, the float kernel on f32 for a float8), or, for the unsigned
    /// integers, as the class says.
    Ok,
    /// `abs` of a complex number: its modulus, a real number.
    Modulus,
    /// `pow` with a scalar exponent: complex numbers have it; the unsigned
    /// integers only with a fractional exponent (computed in f32).
    Power,
    /// PyTorch's "not implemented for" with its kernel's name.
    Unsupported(&'static str),
    /// PyTorch's own message.
    Refused(&'static str),
}

/// Each row's [`Rule`] by dtype.
macro_rules! dtype_rules {
    ($(
        $(#[$doc:meta])*
        $op:ident $(with $fields:tt)? = $name:literal ($class:ident) {
            int: $int:tt, bool: $bool:tt, float: $float:tt,
            complex: $complex:tt, uint: $uint:tt, float8: $float8:tt, simd: $simd:tt,
            cost: $cost:ident, cuda: $cuda:literal, derivative: $derivative:tt,
        }
    )*) => {
        impl UnaryOp {
            fn rule(self, dtype: DType) -> Rule {
                match self {
                    $(UnaryOp::$op { .. } => if dtype.is_complex() {
                        dtype_rules!(@rule $complex)
                    } else if dtype.is_wide_unsigned() {
                        dtype_rules!(@rule $uint)
                    } else if dtype.is_float8() {
                        dtype_rules!(@rule $float8)
                    } else {
                        Rule::Ok
                    },)*
                }
            }
        }
    };
    (@rule ok) => { Rule::Ok };
    (@rule (modulus)) => { Rule::Modulus };
    (@rule (power)) => { Rule::Power };
    (@rule (unsupported $k:literal)) => { Rule::Unsupported($k) };
    (@rule (refused $m:literal)) => { Rule::Refused($m) };
    (@rule ($f:expr)) => { Rule::Ok };
}
unary_table!(dtype_rules);

/// Each row's [`BoolRule`].
macro_rules! bool_rules {
    ($(
        $(#[$doc:meta])*
        $op:ident $(with $fields:tt)? = $name:literal ($class:ident) {
            int: $int:tt, bool: $bool:tt, float: $float:tt,
            complex: $complex:tt, uint: $uint:tt, float8: $float8:tt, simd: $simd:tt,
            cost: $cost:ident, cuda: $cuda:literal, derivative: $derivative:tt,
        }
    )*) => {
        impl UnaryOp {
            fn bool_rule(self) -> BoolRule {
                match self {
                    $(UnaryOp::$op { .. } => bool_rules!(@rule $bool),)*
                }
            }
        }
    };
    (@rule -) => { BoolRule::None };
    (@rule (identity)) => { BoolRule::Identity };
    (@rule (to_i64)) => { BoolRule::ToI64 };
    (@rule (unsupported $k:literal)) => { BoolRule::Unsupported($k) };
    (@rule (refused $m:expr)) => { BoolRule::Refused($m) };
}
unary_table!(bool_rules);

impl Op for UnaryOp {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: UnaryOp::name(*self),
            lowering: Lowering::Primitive,
            derivative: self.derivative(),
        }
    }
}

/// What a unary op's derivative reads: the gradient `g` of its output,
/// and the input `x` or the output `y` it kept (its [`Saves`]).
pub(crate) struct UnaryGrad<'a, D: Device> {
    /// The op.
    pub(crate) op: UnaryOp,
    /// The gradient of the output.
    pub(crate) g: Grad<D>,
    /// The input, when kept.
    pub(crate) x: Option<TensorRef<'a, D>>,
    /// The output, when kept.
    pub(crate) y: Option<TensorRef<'a, D>>,
}

impl<'a, D: Device> UnaryGrad<'a, D> {
    /// The input.
    fn x(&self) -> Result<&TensorRef<'a, D>> {
        self.x
            .as_ref()
            .ok_or_else(|| unsaved(self.op.name(), "input"))
    }

    /// The output.
    fn y(&self) -> Result<&TensorRef<'a, D>> {
        self.y
            .as_ref()
            .ok_or_else(|| unsaved(self.op.name(), "output"))
    }
}

/// A formula asked for a tensor its op does not keep (a bug of the table).
pub(crate) fn unsaved(op: &'static str, what: &str) -> Error {
    Error::invalid(
        op,
        format!("the backward pass needs the {what}, which the op does not keep"),
    )
}

/// PyTorch's error for an op without a derivative.
pub(crate) fn no_derivative(op: &'static str) -> Error {
    Error::invalid(op, format!("derivative for aten::{op} is not implemented"))
}

/// Each row's derivative: what it keeps ([`UnaryOp::derivative`]) and its
/// formula ([`UnaryOp::backward`]).
macro_rules! unary_derivatives {
    ($(
        $(#[$doc:meta])*
        $op:ident $(with $fields:tt)? = $name:literal ($class:ident) {
            int: $int:tt, bool: $bool:tt, float: $float:tt,
            complex: $complex:tt, uint: $uint:tt, float8: $float8:tt, simd: $simd:tt,
            cost: $cost:ident, cuda: $cuda:literal, derivative: $derivative:tt,
        }
    )*) => {
        impl UnaryOp {
            /// The op's derivative: what its backward pass keeps, or none.
            ///
            /// ```
            /// use axial_core::ops::{Derivative, Saves};
            /// use axial_core::UnaryOp;
            /// assert_eq!(UnaryOp::Sigmoid.derivative(), Derivative::Written(Saves::OUTPUT));
            /// assert_eq!(UnaryOp::Gelu.derivative(), Derivative::Written(Saves::INPUT));
            /// assert_eq!(UnaryOp::LogicalNot.derivative(), Derivative::None);
            /// ```
            pub fn derivative(self) -> Derivative {
                match self {
                    $(UnaryOp::$op { .. } => unary_derivatives!(@saves $derivative),)*
                }
            }

            /// The gradient of the op's input from `c`, written with forward ops.
            pub(crate) fn backward<D: Backend>(self, ctx: &UnaryGrad<'_, D>) -> Result<RawTensor<D>> {
                match self {
                    $(UnaryOp::$op { .. } => unary_derivatives!(@formula ctx $derivative),)*
                }
            }
        }
    };
    (@saves -) => { Derivative::None };
    (@saves (nothing: $c:ident => $f:expr)) => { Derivative::Written(Saves::NOTHING) };
    (@saves (input: $c:ident => $f:expr)) => { Derivative::Written(Saves::INPUT) };
    (@saves (output: $c:ident => $f:expr)) => { Derivative::Written(Saves::OUTPUT) };
    (@formula $ctx:ident -) => { Err(no_derivative($ctx.op.name())) };
    (@formula $ctx:ident ($keep:ident: $c:ident => $f:expr)) => {{
        let $c = $ctx;
        $f
    }};
}
unary_table!(unary_derivatives);

/// The device's one-pass `g · op′(x)` ([`Backend::unary_backward`]),
/// when it has a kernel for these operands; `None` sends the caller to the
/// composed formula.
fn fused_backward<D: Backend>(c: &UnaryGrad<'_, D>) -> Result<Option<RawTensor<D>>> {
    let (x, g) = (c.x()?, c.g.view());
    if g.shape() != x.shape() || g.dtype() != x.dtype() {
        return Ok(None);
    }
    let device = x.storage().device();
    let layout = crate::Layout::contiguous(x.shape());
    let mut out = crate::tensor::alloc_output(device, layout, x.dtype())?;
    let done = device.unary_backward(c.op, x.input(), g.input(), out.output())?;
    Ok(done.then_some(out))
}

/// `g·(Φ(x) + x·φ(x))`: the exact GELU's derivative, from the device's
/// fused kernel where it has one, else a piece at a time ([`piecewise`])
/// with its steps in place.
fn gelu_backward<D: Backend>(c: &UnaryGrad<'_, D>) -> Result<RawTensor<D>> {
    if let Some(fused) = fused_backward(c)? {
        return Ok(fused);
    }
    piecewise(c.x()?, &c.g.view(), |x, g| {
        let cdf = un_(scale(x, std::f64::consts::FRAC_1_SQRT_2)?, UnaryOp::Erf)?;
        let cdf = bin_scalar_(bin_scalar_(cdf, BinaryOp::Add, 1.0)?, BinaryOp::Mul, 0.5)?;
        let pdf = un_(bin_scalar_(mul(x, x)?, BinaryOp::Mul, -0.5)?, UnaryOp::Exp)?;
        let pdf = bin_scalar_(
            pdf,
            BinaryOp::Mul,
            0.5 * std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2,
        )?;
        let slope = bin_(cdf, BinaryOp::Add, &bin_(pdf, BinaryOp::Mul, x)?)?;
        bin_(slope, BinaryOp::Mul, g)
    })
}

/// The tanh GELU's derivative, as PyTorch's `gelu_backward` writes it:
/// the device's fused kernel, or a piece at a time ([`piecewise`]) with its
/// steps in place.
fn gelu_tanh_backward<D: Backend>(c: &UnaryGrad<'_, D>) -> Result<RawTensor<D>> {
    if let Some(fused) = fused_backward(c)? {
        return Ok(fused);
    }
    const KAPPA: f64 = 0.044715;
    let beta = std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5;
    piecewise(c.x()?, &c.g.view(), |x, g| {
        let x_sq = mul(x, x)?;
        let inner = bin_scalar_(mul(&x_sq, x)?, BinaryOp::Mul, KAPPA)?;
        let inner = bin_scalar_(bin_(inner, BinaryOp::Add, x)?, BinaryOp::Mul, beta)?;
        let t = un_(inner, UnaryOp::Tanh)?;
        // 1 − t², as −t² + 1 (the same rounding).
        let sech_sq = bin_scalar_(un_(mul(&t, &t)?, UnaryOp::Neg)?, BinaryOp::Add, 1.0)?;
        let slope = bin_scalar_(x_sq, BinaryOp::Mul, 3.0 * KAPPA)?;
        let slope = bin_scalar_(bin_scalar_(slope, BinaryOp::Add, 1.0)?, BinaryOp::Mul, beta)?;
        // (sech² · slope) · x · ½: the halving is exact.
        let right = bin_(bin_(sech_sq, BinaryOp::Mul, &slope)?, BinaryOp::Mul, x)?;
        let right = bin_scalar_(right, BinaryOp::Mul, 0.5)?;
        let left = bin_scalar_(bin_scalar_(t, BinaryOp::Add, 1.0)?, BinaryOp::Mul, 0.5)?;
        bin_(bin_(left, BinaryOp::Add, &right)?, BinaryOp::Mul, g)
    })
}

/// `g·s·(1 + x·(1 − s))` with `s = sigmoid(x)`: SiLU's derivative, the
/// device's fused kernel or a piece at a time ([`piecewise`]).
fn silu_backward<D: Backend>(c: &UnaryGrad<'_, D>) -> Result<RawTensor<D>> {
    if let Some(fused) = fused_backward(c)? {
        return Ok(fused);
    }
    piecewise(c.x()?, &c.g.view(), |x, g| {
        let s = un(UnaryOp::Sigmoid, x)?;
        let inner = bin_(rsub_scalar(1.0, &s)?, BinaryOp::Mul, x)?;
        let inner = bin_scalar_(inner, BinaryOp::Add, 1.0)?;
        bin_(bin_(inner, BinaryOp::Mul, &s)?, BinaryOp::Mul, g)
    })
}

/// `2/√π · e^(−x²)`: erf's derivative.
fn erf_backward<D: Backend>(c: &UnaryGrad<'_, D>) -> Result<RawTensor<D>> {
    let x = c.x()?;
    let e = un(UnaryOp::Exp, &neg(&mul(x, x)?)?)?;
    mul(&c.g, &scale(&e, std::f64::consts::FRAC_2_SQRT_PI)?)
}

/// `p·x^(p−1)`, zero for `p = 0` (PyTorch's `pow_backward`).
fn pow_backward<D: Backend>(c: &UnaryGrad<'_, D>) -> Result<RawTensor<D>> {
    let UnaryOp::PowScalar(p) = c.op else {
        return Err(unsaved(c.op.name(), "exponent"));
    };
    if p == 0.0 {
        return zeros_like(&c.g);
    }
    let x = c.x()?;
    mul(&c.g, &scale(&un(UnaryOp::PowScalar(p - 1.0), x)?, p)?)
}

/// The gradient where `min < x < max`, zero elsewhere (at the bounds, and
/// at NaN), as PyTorch's `clamp_backward` (checked against torch 2.15).
fn clamp_backward<D: Backend>(c: &UnaryGrad<'_, D>) -> Result<RawTensor<D>> {
    let UnaryOp::Clamp { min, max } = c.op else {
        return Err(unsaved(c.op.name(), "bounds"));
    };
    let x = c.x()?;
    let above = min.map(|m| cmp_scalar(CmpOp::Gt, x, m)).transpose()?;
    let below = max.map(|m| cmp_scalar(CmpOp::Lt, x, m)).transpose()?;
    let inside = match (above, below) {
        (Some(a), Some(b)) => bin(BinaryOp::LogicalAnd, &a, &b)?,
        (Some(m), None) | (None, Some(m)) => m,
        (None, None) => return c.g.view().to_contiguous(),
    };
    keep_where(&inside, &c.g)
}

impl UnaryOp {
    /// One value of each op, the parameters of `pow` and `clamp` chosen so
    /// that every dtype takes them (for tests and the CUDA header).
    ///
    /// ```
    /// # use axial_core::UnaryOp;
    /// assert!(UnaryOp::every().any(|op| op == UnaryOp::Exp));
    /// ```
    pub fn every() -> impl Iterator<Item = UnaryOp> {
        macro_rules! every {
            ($(
                $(#[$doc:meta])*
                $op:ident $(with $fields:tt)? = $name:literal ($class:ident) {
                    int: $int:tt, bool: $bool:tt, float: $float:tt,
            complex: $complex:tt, uint: $uint:tt, float8: $float8:tt, simd: $simd:tt,
                    cost: $cost:ident, cuda: $cuda:literal, derivative: $derivative:tt,
                }
            )*) => {
                [$(every!(@one $op $(with $fields)?),)*]
            };
            (@one PowScalar with $f:tt) => { UnaryOp::PowScalar(3.0) };
            (@one Clamp with $f:tt) => { UnaryOp::Clamp { min: Some(0.0), max: Some(1.0) } };
            (@one $op:ident) => { UnaryOp::$op };
        }
        unary_table!(every).into_iter()
    }

    /// PyTorch's name of the op.
    ///
    /// ```
    /// # use axial_core::UnaryOp;
    /// assert_eq!(UnaryOp::Rsqrt.name(), "rsqrt");
    /// ```
    pub fn name(self) -> &'static str {
        ROWS[self.row() as usize].0
    }

    /// The op's number in the table: what the CUDA kernels of integers
    /// take (`AXIAL_UNARY_<NAME>` of the generated header).
    ///
    /// ```
    /// # use axial_core::UnaryOp;
    /// assert_eq!(UnaryOp::Neg.code(), 0);
    /// ```
    pub fn code(self) -> u32 {
        self.row() as u32
    }

    /// The name of the op's CUDA kernels (`unary_<kernel>_<dtype>`): PyTorch's
    /// name but for the tanh-form GELU, which has a kernel of its own.
    ///
    /// ```
    /// # use axial_core::UnaryOp;
    /// assert_eq!(UnaryOp::GeluTanh.cuda_kernel(), "gelu_tanh");
    /// ```
    pub fn cuda_kernel(self) -> &'static str {
        ROWS[self.row() as usize].2
    }

    pub(crate) fn class(self) -> Class {
        ROWS[self.row() as usize].1
    }

    /// The rows' names, classes and kernel names, in order (for the CUDA
    /// header).
    pub(crate) fn rows() -> impl Iterator<Item = (UnaryOp, Class, &'static str)> {
        Self::every().map(|op| (op, op.class(), op.cuda_kernel()))
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
        matches!(self.class(), Class::math | Class::float)
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
        if let Some(out) = self.narrow_output(dtype)? {
            return Ok(out);
        }
        match self.class() {
            Class::logical_not => Ok(DType::Bool),
            Class::math if !dtype.is_float() => Ok(DType::F32),
            Class::float if !dtype.is_float() => Err(self.unsupported(dtype)),
            Class::pow => match self {
                UnaryOp::PowScalar(p) if !dtype.is_float() && p.fract() != 0.0 => Ok(DType::F32),
                UnaryOp::PowScalar(p) if !dtype.is_float() && p < 0.0 => Err(negative_power()),
                _ => Ok(dtype),
            },
            Class::any if dtype == DType::Bool => match self.bool_rule() {
                BoolRule::ToI64 => Ok(DType::I64),
                BoolRule::Refused(message) => Err(Error::invalid(self.name(), message)),
                _ => Ok(dtype),
            },
            _ => Ok(dtype),
        }
    }

    /// The dtype the op's kernel reads for an input of `dtype`: the
    /// output's, but for `logical_not` and a complex `abs` (the input's).
    ///
    /// ```
    /// # use axial_core::{DType, UnaryOp};
    /// assert_eq!(UnaryOp::Exp.compute_dtype(DType::I64)?, DType::F32);
    /// assert_eq!(UnaryOp::Abs.compute_dtype(DType::C64)?, DType::C64);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn compute_dtype(self, dtype: DType) -> Result<DType> {
        let out = self.output_dtype(dtype)?;
        Ok(
            if self.class() == Class::logical_not || dtype.is_complex() {
                dtype
            } else {
                out
            },
        )
    }

    /// The kernel a device runs for this op on `dtype` (the dtype of both
    /// input and output, bool output for `logical_not`), or PyTorch's error.
    ///
    /// # Errors
    /// The op has no kernel for the dtype, or a scalar argument does not fit
    /// it (a clamp bound, an exponent).
    ///
    /// ```
    /// # use axial_core::{DType, Scalar, UnaryOp, ops::Resolved};
    /// assert_eq!(UnaryOp::PowScalar(0.0).resolve(DType::Bool)?, Resolved::Fill(Scalar::Bool(true)));
    /// let err = UnaryOp::Abs.resolve(DType::Bool).unwrap_err();
    /// assert_eq!(err.to_string(), "\"abs_cpu\" not implemented for 'Bool'");
    /// let below = UnaryOp::Clamp { min: Some(-1.0), max: None }.resolve(DType::U8)?;
    /// assert_eq!(below, Resolved::Identity); // a lower bound below 0 cannot bind on u8
    /// assert!(UnaryOp::Clamp { min: None, max: Some(300.0) }.resolve(DType::U8).is_ok());
    /// assert!(UnaryOp::Clamp { min: Some(300.0), max: None }.resolve(DType::U8).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn resolve(self, dtype: DType) -> Result<Resolved> {
        if self.narrow_output(dtype)?.is_some() {
            return Ok(Resolved::Op(self));
        }
        match (self, self.class()) {
            (_, Class::logical_not) => Ok(Resolved::Op(self)),
            (UnaryOp::Clamp { min, max }, _) if dtype.is_float() => float_clamp(dtype, min, max),
            (UnaryOp::Clamp { min, max }, _) if dtype != DType::Bool => int_clamp(dtype, min, max),
            (UnaryOp::PowScalar(p), _) if !dtype.is_float() => int_pow(dtype, p),
            _ if dtype.is_float() => Ok(Resolved::Op(self)),
            (_, Class::any) if dtype != DType::Bool => Ok(Resolved::Op(self)),
            (_, Class::rounding) if dtype != DType::Bool => Ok(Resolved::Identity),
            _ if dtype != DType::Bool => Err(self.unsupported(dtype)),
            _ => self.resolve_bool(),
        }
    }

    /// [`UnaryOp::resolve`] of bool.
    fn resolve_bool(self) -> Result<Resolved> {
        match self.bool_rule() {
            BoolRule::Identity | BoolRule::ToI64 => Ok(Resolved::Identity),
            BoolRule::Refused(message) => Err(Error::invalid(self.name(), message)),
            BoolRule::Unsupported(kernel) => Err(Error::Unsupported {
                op: kernel,
                dtype: DType::Bool,
            }),
            BoolRule::None => {
                // PyTorch names its CPU kernel of a clamp with one bound.
                let kernel = match self {
                    UnaryOp::Clamp {
                        min: Some(_),
                        max: None,
                    } => "clamp_min_scalar_cpu",
                    UnaryOp::Clamp {
                        min: None,
                        max: Some(_),
                    } => "clamp_max_scalar_cpu",
                    UnaryOp::Clamp { .. } => "clamp_scalar_cpu",
                    _ => self.name(),
                };
                Err(Error::Unsupported {
                    op: kernel,
                    dtype: DType::Bool,
                })
            }
        }
    }

    /// The row's rule for a complex, wide unsigned or float8 `dtype`:
    /// PyTorch's refusal, or the output's dtype where the row's own column
    /// runs (complex numbers and float8s); `None` where the class decides
    /// (the unsigned integers the row lets through).
    ///
    /// ```
    /// # use axial_core::{DType, UnaryOp};
    /// assert_eq!(UnaryOp::Abs.output_dtype(DType::C128)?, DType::F64);
    /// assert_eq!(UnaryOp::Exp.output_dtype(DType::U32)?, DType::F32);
    /// assert_eq!(UnaryOp::Neg.output_dtype(DType::U16).unwrap_err().to_string(), "\"neg_cpu\" not implemented for 'UInt16'");
    /// assert_eq!(UnaryOp::Floor.output_dtype(DType::C64).unwrap_err().to_string(), "floor is not supported for complex inputs");
    /// assert_eq!(UnaryOp::Abs.output_dtype(DType::F8E4M3Fn)?, DType::F8E4M3Fn);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn narrow_output(self, dtype: DType) -> Result<Option<DType>> {
        if dtype.is_basic() {
            return Ok(None);
        }
        match self.rule(dtype) {
            Rule::Unsupported(op) => Err(Error::Unsupported { op, dtype }),
            Rule::Refused(message) => Err(Error::Refused(message)),
            Rule::Modulus => Ok(Some(dtype.to_real())),
            Rule::Power if dtype.is_wide_unsigned() => match self {
                UnaryOp::PowScalar(p) if p.fract() != 0.0 => Ok(None),
                _ => Err(Error::Unsupported { op: "pow", dtype }),
            },
            _ if dtype.is_wide_unsigned() => Ok(None),
            _ if self.class() == Class::logical_not => Ok(Some(DType::Bool)),
            _ => Ok(Some(dtype)),
        }
    }

    fn unsupported(self, dtype: DType) -> Error {
        Error::Unsupported {
            op: self.name(),
            dtype,
        }
    }
}

/// What a kernel computes for a unary op on one dtype, after PyTorch's checks.
///
/// # Example
/// ```
/// use axial_core::{DType, UnaryOp, ops::Resolved};
/// assert_eq!(UnaryOp::Floor.resolve(DType::I32)?, Resolved::Identity); // floor of an integer
/// assert_eq!(UnaryOp::Exp.resolve(DType::F32)?, Resolved::Op(UnaryOp::Exp));
/// // A clamp's bounds come back rounded to the element type.
/// let clamp = UnaryOp::Clamp { min: Some(0.1), max: None }.resolve(DType::F16)?;
/// assert_eq!(clamp, Resolved::Op(UnaryOp::Clamp { min: Some(0.0999755859375), max: None }));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Resolved {
    /// The op's own element kernel for the dtype. A `Clamp` has at least one
    /// bound, each exactly representable in the dtype (an integer dtype's
    /// bounds that cannot bind are dropped); a `PowScalar` of an integer
    /// dtype has a non-negative integer exponent that fits the dtype.
    Op(UnaryOp),
    /// The input unchanged (`floor` of an integer, `sign` of a bool).
    Identity,
    /// Every element this value (`x ** 0` of a bool, a clamp to a NaN bound).
    Fill(Scalar),
}

/// How PyTorch computes `x ** p` for a scalar `p` on a float dtype: 0 and 1
/// exactly for every dtype; for f32, f64 and bf16, ½ and −½ as `sqrt` and
/// `1/sqrt`, −1 as a reciprocal, 2, 3 and −2 as products (bf16 rounding the
/// square first, as its own arithmetic does); else `pow`, in f64 for f32 and
/// f64, in f32 with the exponent rounded to the dtype for f16 and bf16.
///
/// [`PowScalarKind::code`] numbers the kinds for the CUDA kernels
/// (`AXIAL_POW_<KIND>` of the generated header).
///
/// # Example
/// ```
/// use axial_core::{DType, ops::PowScalarKind};
/// assert_eq!(PowScalarKind::of(0.5, DType::F32), PowScalarKind::Sqrt);
/// assert_eq!(PowScalarKind::of(0.5, DType::F16), PowScalarKind::InF32(0.5)); // no special cases
/// assert_eq!(PowScalarKind::of(1.5, DType::F64), PowScalarKind::InF64(1.5));
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum PowScalarKind {
    /// 1.
    One,
    /// `x`.
    Identity,
    /// `√x`.
    Sqrt,
    /// `1/√x`.
    Rsqrt,
    /// `1/x`.
    Reciprocal,
    /// `x·x`.
    Square,
    /// `(x·x)·x`, the square rounded to the dtype first.
    Cube,
    /// `1/(x·x)`, the square rounded to the dtype first.
    InverseSquare,
    /// `pow(x, p)` in f64.
    InF64(f64),
    /// `pow(x, p)` in f32.
    InF32(f32),
}

impl PowScalarKind {
    /// Every kind's name in the CUDA header, in the order of [`PowScalarKind::code`].
    pub(crate) const NAMES: [&'static str; 10] = [
        "ONE",
        "IDENTITY",
        "SQRT",
        "RSQRT",
        "RECIPROCAL",
        "SQUARE",
        "CUBE",
        "INVERSE_SQUARE",
        "IN_F64",
        "IN_F32",
    ];

    /// The kind for exponent `p` on float `dtype`.
    ///
    /// ```
    /// # use axial_core::{DType, ops::PowScalarKind};
    /// assert_eq!(PowScalarKind::of(-2.0, DType::BF16), PowScalarKind::InverseSquare);
    /// ```
    pub fn of(p: f64, dtype: DType) -> Self {
        let specialised = dtype != DType::F16;
        match p {
            0.0 => PowScalarKind::One,
            1.0 => PowScalarKind::Identity,
            0.5 if specialised => PowScalarKind::Sqrt,
            -0.5 if specialised => PowScalarKind::Rsqrt,
            -1.0 if specialised => PowScalarKind::Reciprocal,
            2.0 if specialised => PowScalarKind::Square,
            3.0 if specialised => PowScalarKind::Cube,
            -2.0 if specialised => PowScalarKind::InverseSquare,
            _ if dtype.size() == 2 => {
                PowScalarKind::InF32(with_dtype!(dtype, T => T::from_f64(p).to_f32()))
            }
            _ => PowScalarKind::InF64(p),
        }
    }

    /// The kind's number (`AXIAL_POW_<KIND>` of the CUDA header), and the
    /// exponent the kernel takes with it.
    ///
    /// ```
    /// # use axial_core::ops::PowScalarKind;
    /// assert_eq!(PowScalarKind::InF64(1.5).code(), (8, 1.5));
    /// ```
    pub fn code(self) -> (u32, f64) {
        match self {
            PowScalarKind::One => (0, 0.0),
            PowScalarKind::Identity => (1, 0.0),
            PowScalarKind::Sqrt => (2, 0.0),
            PowScalarKind::Rsqrt => (3, 0.0),
            PowScalarKind::Reciprocal => (4, 0.0),
            PowScalarKind::Square => (5, 0.0),
            PowScalarKind::Cube => (6, 0.0),
            PowScalarKind::InverseSquare => (7, 0.0),
            PowScalarKind::InF64(p) => (8, p),
            PowScalarKind::InF32(p) => (9, p as f64),
        }
    }
}

/// `clamp` on floats: bounds rounded to the dtype; a NaN bound fills NaN.
fn float_clamp(dtype: DType, min: Option<f64>, max: Option<f64>) -> Result<Resolved> {
    let bound = |v: Option<f64>| v.map(|v| checked_scalar("clamp", dtype, v)).transpose();
    let (lo, hi) = (bound(min)?, bound(max)?);
    if min.is_some_and(f64::is_nan) || max.is_some_and(f64::is_nan) {
        return Ok(Resolved::Fill(Scalar::Float(f64::NAN)));
    }
    if lo.is_none() && hi.is_none() {
        return Err(no_clamp_bounds());
    }
    Ok(Resolved::Op(UnaryOp::Clamp { min: lo, max: hi }))
}

/// `clamp` on integers: a bound beyond the type's range on the side that
/// cannot bind is dropped; on the other side PyTorch refuses it.
fn int_clamp(dtype: DType, min: Option<f64>, max: Option<f64>) -> Result<Resolved> {
    let name = "clamp";
    let (lowest, highest, _) = limits(dtype);
    let out_of_range = |which: &str, v: f64| {
        Error::invalid(
            name,
            format!(
                "Clamp {which} value {v} is outside the representable range of {}",
                dtype.scalar_type_name()
            ),
        )
    };
    let lo = match min {
        Some(v) if v < lowest => None,
        Some(v) if v > highest => return Err(out_of_range("min", v)),
        Some(v) => Some(checked_scalar(name, dtype, v)?),
        None => None,
    };
    let hi = match max {
        Some(v) if v > highest => None,
        Some(v) if v < lowest => return Err(out_of_range("max", v)),
        Some(v) => Some(checked_scalar(name, dtype, v)?),
        None => None,
    };
    if min.is_none() && max.is_none() {
        return Err(no_clamp_bounds());
    }
    Ok(match (lo, hi) {
        (None, None) => Resolved::Identity,
        (min, max) => Resolved::Op(UnaryOp::Clamp { min, max }),
    })
}

/// `x ** p` on integers and bool: a non-negative integer exponent (bool:
/// `x ** 0` is true, any other power the identity).
fn int_pow(dtype: DType, p: f64) -> Result<Resolved> {
    let op = UnaryOp::PowScalar(p);
    if p.fract() != 0.0 || p.is_nan() {
        return Err(op.unsupported(dtype));
    }
    if p < 0.0 {
        return Err(negative_power());
    }
    match dtype {
        DType::Bool if p == 0.0 => Ok(Resolved::Fill(Scalar::Bool(true))),
        DType::Bool => Ok(Resolved::Identity),
        _ => Ok(Resolved::Op(UnaryOp::PowScalar(checked_scalar(
            "pow", dtype, p,
        )?))),
    }
}

/// PyTorch's error for an integer to a negative power (`pow` of a scalar
/// or a tensor).
pub(crate) fn negative_power() -> Error {
    Error::invalid(
        "pow",
        "Integers to negative integer powers are not allowed.",
    )
}

fn no_clamp_bounds() -> Error {
    Error::invalid(
        "clamp",
        "torch.clamp: At least one of 'min' or 'max' must not be None",
    )
}
