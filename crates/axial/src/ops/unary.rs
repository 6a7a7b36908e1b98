//! Elementwise ops of one operand, each with its `try_` twin and in-place
//! `_` twins. Float-only ops (`sqrt`, `exp`, ...) require a [`Float`]
//! element type, so on an integer tensor they are a compile error that says
//! to cast first (PyTorch computes them in f32, and refuses the in-place ones).

use axial_core::{Backend, Bool, Element, Result, UnaryOp};
use axial_shape::Shape;

use super::dtype::{Clampable, Logical, Magnitude, Number, Ordered, Transcendental};
use crate::access::owned;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::{Data, DataMut};
use crate::tensor::{Tensor, TensorBase};

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `op(self)` into a new tensor of `U`.
    pub(crate) fn unary_op<U>(&self, op: UnaryOp) -> Result<Tensor<U, S, D>> {
        self.raw().unary(op).map(owned)
    }

    /// `self = op(self)`.
    pub(crate) fn unary_op_(&mut self, op: UnaryOp) -> Result<()>
    where
        R: DataMut<D>,
    {
        self.raw_mut_disjoint()?.unary_(op)
    }
}

/// The four twins of a unary op, with generated docs and examples.
macro_rules! unary_ops {
    ($(
        $(#[$doc:meta])*
        $name:ident, $try_name:ident, $name_:ident, $try_name_:ident: $op:expr, T: $bound:ident,
        $ty:ty: $input:tt => $expected:tt;
    )*) => {$(
        impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
            $(#[$doc])*
            ///
            /// # Errors
            /// The device or the kernel failed.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<", stringify!($ty), ", shape![2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($try_name), "()?.to_vec(), vec!", stringify!($expected), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name(&self) -> Result<Tensor<T, S, D>>
            where
                T: $bound,
            {
                self.unary_op($op)
            }

            $(#[$doc])*
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<", stringify!($ty), ", shape![2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($name), "().to_vec(), vec!", stringify!($expected), ");")]
            /// ```
            #[track_caller]
            pub fn $name(&self) -> Tensor<T, S, D>
            where
                T: $bound,
            {
                or_panic(self.unary_op($op))
            }

            $(#[$doc])*
            /// In place.
            ///
            /// # Errors
            /// `self` has elements that share memory, or the device or the
            /// kernel failed.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let mut x = Tensor::<", stringify!($ty), ", shape![2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("x.", stringify!($try_name_), "()?;")]
            #[doc = concat!("assert_eq!(x.to_vec(), vec!", stringify!($expected), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name_(&mut self) -> Result<()>
            where
                T: $bound,
                R: DataMut<D>,
            {
                self.unary_op_($op)
            }

            $(#[$doc])*
            /// In place.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name_), "`](Self::", stringify!($try_name_), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let mut x = Tensor::<", stringify!($ty), ", shape![2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("x.", stringify!($name_), "();")]
            #[doc = concat!("assert_eq!(x.to_vec(), vec!", stringify!($expected), ");")]
            /// ```
            #[track_caller]
            pub fn $name_(&mut self)
            where
                T: $bound,
                R: DataMut<D>,
            {
                or_panic(self.unary_op_($op))
            }
        }
    )*};
}

unary_ops! {
    /// `-x` elementwise (PyTorch's `neg`; unsigned integers wrap).
    neg, try_neg, neg_, try_neg_: UnaryOp::Neg, T: Number, i32: [3, -4] => [-3, 4];
    /// `|x|` elementwise.
    abs, try_abs, abs_, try_abs_: UnaryOp::Abs, T: Magnitude, i64: [3, -4] => [3, 4];
    /// −1, 0 or 1 by the sign of each element (NaN stays NaN).
    sign, try_sign, sign_, try_sign_: UnaryOp::Sign, T: Ordered, f32: [-2.5, 0.0] => [-1.0, 0.0];
    /// `x²` elementwise.
    square, try_square, square_, try_square_: UnaryOp::Square, T: Number, i64: [3, -4] => [9, 16];
    /// `max(x, 0)` elementwise.
    relu, try_relu, relu_, try_relu_: UnaryOp::Relu, T: Clampable, f32: [2.0, -1.0] => [2.0, 0.0];
    /// `√x` elementwise (floats only: cast integers first).
    sqrt, try_sqrt, sqrt_, try_sqrt_: UnaryOp::Sqrt, T: Transcendental, f32: [4.0, 9.0] => [2.0, 3.0];
    /// `1/√x` elementwise.
    rsqrt, try_rsqrt, rsqrt_, try_rsqrt_: UnaryOp::Rsqrt, T: Transcendental, f32: [4.0, 0.25] => [0.5, 2.0];
    /// `eˣ` elementwise.
    exp, try_exp, exp_, try_exp_: UnaryOp::Exp, T: Transcendental, f64: [0.0, 1.0] => [1.0, std::f64::consts::E];
    /// `ln x` elementwise.
    log, try_log, log_, try_log_: UnaryOp::Log, T: Transcendental, f64: [1.0, std::f64::consts::E] => [0.0, 1.0];
    /// `ln(1 + x)` elementwise, accurate near 0.
    log1p, try_log1p, log1p_, try_log1p_: UnaryOp::Log1p, T: Transcendental, f32: [0.0, 0.0] => [0.0, 0.0];
    /// `eˣ − 1` elementwise, accurate near 0.
    expm1, try_expm1, expm1_, try_expm1_: UnaryOp::Expm1, T: Transcendental, f32: [0.0, 0.0] => [0.0, 0.0];
    /// `sin x` elementwise.
    sin, try_sin, sin_, try_sin_: UnaryOp::Sin, T: Transcendental, f64: [0.0, std::f64::consts::FRAC_PI_2] => [0.0, 1.0];
    /// `cos x` elementwise.
    cos, try_cos, cos_, try_cos_: UnaryOp::Cos, T: Transcendental, f64: [0.0, 0.0] => [1.0, 1.0];
    /// `tan x` elementwise.
    tan, try_tan, tan_, try_tan_: UnaryOp::Tan, T: Transcendental, f64: [0.0, 0.0] => [0.0, 0.0];
    /// `tanh x` elementwise.
    tanh, try_tanh, tanh_, try_tanh_: UnaryOp::Tanh, T: Transcendental, f32: [0.0, 0.0] => [0.0, 0.0];
    /// `1 / (1 + e⁻ˣ)` elementwise.
    sigmoid, try_sigmoid, sigmoid_, try_sigmoid_: UnaryOp::Sigmoid, T: Transcendental, f32: [0.0, 0.0] => [0.5, 0.5];
    /// `x·Φ(x)` elementwise (the exact, erf-based GELU, PyTorch's default).
    gelu, try_gelu, gelu_, try_gelu_: UnaryOp::Gelu, T: Float, f32: [0.0, 0.0] => [0.0, 0.0];
    /// `½x(1 + tanh(√(2/π)(x + 0.044715x³)))` elementwise (PyTorch's
    /// `gelu(approximate='tanh')`).
    gelu_tanh, try_gelu_tanh, gelu_tanh_, try_gelu_tanh_: UnaryOp::GeluTanh, T: Float, f32: [0.0, 0.0] => [0.0, 0.0];
    /// `x·sigmoid(x)` elementwise.
    silu, try_silu, silu_, try_silu_: UnaryOp::Silu, T: Transcendental, f32: [0.0, 0.0] => [0.0, 0.0];
    /// `ln(1 + eˣ)` elementwise, `x` itself above 20 (PyTorch's `softplus`
    /// with its defaults, `beta` 1 and `threshold` 20).
    softplus, try_softplus, softplus_, try_softplus_: UnaryOp::Softplus, T: Float, f64: [0.0, 30.0] => [std::f64::consts::LN_2, 30.0];
    /// The error function, elementwise.
    erf, try_erf, erf_, try_erf_: UnaryOp::Erf, T: Float, f32: [0.0, 0.0] => [0.0, 0.0];
    /// Rounded toward −∞.
    floor, try_floor, floor_, try_floor_: UnaryOp::Floor, T: Float, f32: [1.5, -1.5] => [1.0, -2.0];
    /// Rounded toward +∞.
    ceil, try_ceil, ceil_, try_ceil_: UnaryOp::Ceil, T: Float, f32: [1.5, -1.5] => [2.0, -1.0];
    /// Rounded to the nearest integer, half to even.
    round, try_round, round_, try_round_: UnaryOp::Round, T: Float, f32: [2.5, -1.5] => [2.0, -2.0];
    /// Rounded toward 0.
    trunc, try_trunc, trunc_, try_trunc_: UnaryOp::Trunc, T: Float, f32: [1.5, -1.5] => [1.0, -1.0];
    /// `1/x` elementwise.
    reciprocal, try_reciprocal, reciprocal_, try_reciprocal_: UnaryOp::Reciprocal, T: Transcendental, f32: [2.0, -0.5] => [0.5, -2.0];
}

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// Each element limited to `[min, max]` (PyTorch's `clamp`; NaN stays NaN).
    ///
    /// # Errors
    /// The device or the kernel failed.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<i64, shape![3]>::from_array([-5, 3, 9]);
    /// assert_eq!(x.try_clamp(0, 4)?.to_vec(), vec![0, 3, 4]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_clamp(&self, min: T, max: T) -> Result<Tensor<T, S, D>>
    where
        T: Clampable,
    {
        self.unary_op(clamp(min, max))
    }

    /// Each element limited to `[min, max]`.
    ///
    /// # Panics
    /// As [`try_clamp`](Self::try_clamp), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![3]>::from_array([-5.0, 0.5, 9.0]);
    /// assert_eq!(x.clamp(0.0, 1.0).to_vec(), vec![0.0, 0.5, 1.0]);
    /// ```
    #[track_caller]
    pub fn clamp(&self, min: T, max: T) -> Tensor<T, S, D>
    where
        T: Clampable,
    {
        or_panic(self.try_clamp(min, max))
    }

    /// Each element limited to `[min, max]`, in place.
    ///
    /// # Errors
    /// `self` has elements that share memory, or the device or the kernel failed.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let mut x = Tensor::<i64, shape![3]>::from_array([-5, 3, 9]);
    /// x.try_clamp_(0, 4)?;
    /// assert_eq!(x.to_vec(), vec![0, 3, 4]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_clamp_(&mut self, min: T, max: T) -> Result<()>
    where
        T: Clampable,
        R: DataMut<D>,
    {
        self.unary_op_(clamp(min, max))
    }

    /// Each element limited to `[min, max]`, in place.
    ///
    /// # Panics
    /// As [`try_clamp_`](Self::try_clamp_), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let mut x = Tensor::<f32, shape![3]>::from_array([-5.0, 0.5, 9.0]);
    /// x.clamp_(0.0, 1.0);
    /// assert_eq!(x.to_vec(), vec![0.0, 0.5, 1.0]);
    /// ```
    #[track_caller]
    pub fn clamp_(&mut self, min: T, max: T)
    where
        T: Clampable,
        R: DataMut<D>,
    {
        or_panic(self.try_clamp_(min, max))
    }

    /// `!x` elementwise on truth values (non-zero is true): a bool tensor.
    ///
    /// # Errors
    /// The device or the kernel failed.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<i32, shape![2]>::from_array([0, 7]);
    /// assert_eq!(x.try_logical_not()?.to_vec(), vec![Bool::TRUE, Bool::FALSE]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_logical_not(&self) -> Result<Tensor<Bool, S, D>>
    where
        T: Logical,
    {
        self.unary_op(UnaryOp::LogicalNot)
    }

    /// `!x` elementwise on truth values: a bool tensor.
    ///
    /// # Panics
    /// As [`try_logical_not`](Self::try_logical_not), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::from_array([0.0, 0.5]);
    /// assert_eq!(x.logical_not().to_vec(), vec![Bool::TRUE, Bool::FALSE]);
    /// ```
    #[track_caller]
    pub fn logical_not(&self) -> Tensor<Bool, S, D>
    where
        T: Logical,
    {
        or_panic(self.try_logical_not())
    }
}

/// The core's clamp of two bounds.
fn clamp<T: Element>(min: T, max: T) -> UnaryOp {
    UnaryOp::Clamp {
        min: Some(min.to_f64()),
        max: Some(max.to_f64()),
    }
}
