//! Elementwise math on tracked tensors. What each op keeps decides its
//! signature: an op that keeps its input borrows it for as long as its
//! result lives (`log`, `gelu`, `silu`, `pow`, ...); one that keeps its
//! output gives a [`Kept`] result (`exp`, `sigmoid`, `tanh`, `sqrt`,
//! `rsqrt`, `relu`, ...); the others neither.

use axial_core::{Backend, Result, UnaryOp};
use axial_shape::Shape;

use super::var::{Kept, Var, Writable};
use crate::float::Float;
use crate::or_panic::or_panic;

/// Unary ops that keep their input. A [`Writable`] input is consumed (so
/// nothing can write it while the graph reads it; `x.as_kept().log()` keeps
/// `x` usable, borrowed); a [`Kept`] one, which nothing can write, is read
/// in place.
macro_rules! keeps_input {
    ($(
        $(#[$doc:meta])*
        $name:ident, $try_name:ident: $op:expr, $x:literal => $y:literal;
    )*) => {$(
        impl<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Writable> {
            $(#[$doc])*
            /// Keeps its input, which it consumes.
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f64, shape![1]>::full(", stringify!($x), ");")]
            /// let h = x.track() * 1.0; // a writable result
            #[doc = concat!("let y = h.", stringify!($try_name), "()?;")]
            #[doc = concat!("assert!((y.value().item() - ", stringify!($y), ").abs() < 1e-12);")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name(self) -> Result<Var<'g, T, S, D>> {
                Ok(Var::from_core(self.core()?.unary($op)?))
            }

            $(#[$doc])*
            /// Keeps its input, which it consumes.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f64, shape![1]>::full(", stringify!($x), ");")]
            #[doc = concat!("let y = (x.track() * 1.0).", stringify!($name), "();")]
            #[doc = concat!("assert!((y.value().item() - ", stringify!($y), ").abs() < 1e-12);")]
            /// ```
            #[track_caller]
            pub fn $name(self) -> Var<'g, T, S, D> {
                or_panic(self.$try_name())
            }
        }

        impl<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Kept> {
            $(#[$doc])*
            /// Keeps its input, read in place (a kept tensor cannot be written).
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f64, shape![1]>::full(", stringify!($x), ");")]
            /// let xv = x.track();
            #[doc = concat!("let y = xv.", stringify!($try_name), "()?;")]
            #[doc = concat!("assert!((y.value().item() - ", stringify!($y), ").abs() < 1e-12);")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name(&self) -> Result<Var<'g, T, S, D>> {
                Ok(Var::from_core(self.core()?.unary($op)?))
            }

            $(#[$doc])*
            /// Keeps its input, read in place.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f64, shape![1]>::full(", stringify!($x), ");")]
            #[doc = concat!("let y = x.track().", stringify!($name), "();")]
            #[doc = concat!("assert!((y.value().item() - ", stringify!($y), ").abs() < 1e-12);")]
            /// ```
            #[track_caller]
            pub fn $name(&self) -> Var<'g, T, S, D> {
                or_panic(self.$try_name())
            }
        }
    )*};
}

/// Unary ops that keep their output: the result is [`Kept`].
macro_rules! keeps_output {
    ($(
        $(#[$doc:meta])*
        $name:ident, $try_name:ident: $op:expr, $x:literal => $y:literal;
    )*) => {$(
        impl<'g, T: Float, S: Shape, D: Backend, W> Var<'g, T, S, D, W> {
            $(#[$doc])*
            /// Keeps its output, which cannot be written in place ([`Kept`]);
            /// `self` stays free.
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f64, shape![1]>::full(", stringify!($x), ");")]
            #[doc = concat!("let y = x.track().", stringify!($try_name), "()?;")]
            #[doc = concat!("assert!((y.value().item() - ", stringify!($y), ").abs() < 1e-12);")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name(&self) -> Result<Var<'g, T, S, D, Kept>> {
                Ok(Var::from_core(self.core()?.unary($op)?))
            }

            $(#[$doc])*
            /// Keeps its output ([`Kept`]).
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f64, shape![1]>::full(", stringify!($x), ");")]
            #[doc = concat!("let y = x.track().", stringify!($name), "();")]
            #[doc = concat!("assert!((y.value().item() - ", stringify!($y), ").abs() < 1e-12);")]
            /// ```
            #[track_caller]
            pub fn $name(&self) -> Var<'g, T, S, D, Kept> {
                or_panic(self.$try_name())
            }
        }
    )*};
}

/// Unary ops that keep nothing.
macro_rules! keeps_nothing {
    ($(
        $(#[$doc:meta])*
        $name:ident, $try_name:ident: $op:expr, $x:literal => $y:literal;
    )*) => {$(
        impl<'g, T: Float, S: Shape, D: Backend, W> Var<'g, T, S, D, W> {
            $(#[$doc])*
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f64, shape![1]>::full(", stringify!($x), ");")]
            #[doc = concat!("let y = x.track().", stringify!($try_name), "()?;")]
            #[doc = concat!("assert_eq!(y.value().item(), ", stringify!($y), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name(&self) -> Result<Var<'g, T, S, D>> {
                Ok(Var::from_core(self.core()?.unary($op)?))
            }

            $(#[$doc])*
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f64, shape![1]>::full(", stringify!($x), ");")]
            #[doc = concat!("assert_eq!(x.track().", stringify!($name), "().value().item(), ", stringify!($y), ");")]
            /// ```
            #[track_caller]
            pub fn $name(&self) -> Var<'g, T, S, D> {
                or_panic(self.$try_name())
            }
        }
    )*};
}

keeps_input! {
    /// `|x|` elementwise.
    abs, try_abs: UnaryOp::Abs, -2.0 => 2.0;
    /// `ln x` elementwise.
    log, try_log: UnaryOp::Log, 1.0 => 0.0;
    /// `ln(1 + x)` elementwise.
    log1p, try_log1p: UnaryOp::Log1p, 0.0 => 0.0;
    /// `sin x` elementwise.
    sin, try_sin: UnaryOp::Sin, 0.0 => 0.0;
    /// `cos x` elementwise.
    cos, try_cos: UnaryOp::Cos, 0.0 => 1.0;
    /// GELU, `x·Φ(x)` (the exact form, PyTorch's default).
    gelu, try_gelu: UnaryOp::Gelu, 0.0 => 0.0;
    /// GELU's tanh approximation (PyTorch's `approximate='tanh'`).
    gelu_tanh, try_gelu_tanh: UnaryOp::GeluTanh, 0.0 => 0.0;
    /// SiLU, `x·sigmoid(x)`.
    silu, try_silu: UnaryOp::Silu, 0.0 => 0.0;
    /// The error function.
    erf, try_erf: UnaryOp::Erf, 0.0 => 0.0;
    /// `x²` elementwise.
    square, try_square: UnaryOp::Square, 3.0 => 9.0;
    /// `max(x, 0)` then `min(·, 6)`, its gradient zero at 0 and 6
    /// (PyTorch's `relu6`, a `hardtanh`).
    relu6, try_relu6: UnaryOp::Clamp { min: Some(0.0), max: Some(6.0) }, 7.0 => 6.0;
}

keeps_output! {
    /// `eˣ` elementwise.
    exp, try_exp: UnaryOp::Exp, 0.0 => 1.0;
    /// `eˣ − 1` elementwise.
    expm1, try_expm1: UnaryOp::Expm1, 0.0 => 0.0;
    /// `tan x` elementwise.
    tan, try_tan: UnaryOp::Tan, 0.0 => 0.0;
    /// `tanh x` elementwise.
    tanh, try_tanh: UnaryOp::Tanh, 0.0 => 0.0;
    /// `1/(1 + e⁻ˣ)` elementwise.
    sigmoid, try_sigmoid: UnaryOp::Sigmoid, 0.0 => 0.5;
    /// `max(x, 0)` elementwise.
    relu, try_relu: UnaryOp::Relu, -1.0 => 0.0;
    /// `√x` elementwise.
    sqrt, try_sqrt: UnaryOp::Sqrt, 4.0 => 2.0;
    /// `1/√x` elementwise.
    rsqrt, try_rsqrt: UnaryOp::Rsqrt, 4.0 => 0.5;
    /// `1/x` elementwise.
    reciprocal, try_reciprocal: UnaryOp::Reciprocal, 4.0 => 0.25;
}

keeps_nothing! {
    /// `−x` elementwise.
    neg, try_neg: UnaryOp::Neg, 2.0 => -2.0;
    /// −1, 0 or 1 by the sign of each element (gradient 0).
    sign, try_sign: UnaryOp::Sign, -2.0 => -1.0;
    /// Rounded toward −∞ (gradient 0).
    floor, try_floor: UnaryOp::Floor, 1.5 => 1.0;
}

/// Unary ops with arguments that keep their input: consumed when
/// [`Writable`], read in place when [`Kept`].
macro_rules! keeps_input_with {
    ($(
        $(#[$doc:meta])*
        $name:ident, $try_name:ident ($($arg:ident: $ty:ty),*) => |$x:ident| $body:expr;
        $example:literal;
    )*) => {$(
        impl<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Writable> {
            $(#[$doc])*
            /// Keeps its input, which it consumes.
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = $example]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name(self, $($arg: $ty),*) -> Result<Var<'g, T, S, D>> {
                let $x = self.core()?;
                Ok(Var::from_core($body?))
            }

            $(#[$doc])*
            /// Keeps its input, which it consumes.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = $example]
            /// # Ok::<(), axial::Error>(())
            /// ```
            #[track_caller]
            pub fn $name(self, $($arg: $ty),*) -> Var<'g, T, S, D> {
                or_panic(self.$try_name($($arg),*))
            }
        }

        impl<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Kept> {
            $(#[$doc])*
            /// Keeps its input, read in place.
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = $example]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name(&self, $($arg: $ty),*) -> Result<Var<'g, T, S, D>> {
                let $x = self.core()?;
                Ok(Var::from_core($body?))
            }

            $(#[$doc])*
            /// Keeps its input, read in place.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = $example]
            /// # Ok::<(), axial::Error>(())
            /// ```
            #[track_caller]
            pub fn $name(&self, $($arg: $ty),*) -> Var<'g, T, S, D> {
                or_panic(self.$try_name($($arg),*))
            }
        }
    )*};
}

keeps_input_with! {
    /// `xᵖ` elementwise for a number `p` (PyTorch's `pow`).
    pow, try_pow (p: f64) => |x| x.unary(UnaryOp::PowScalar(p));
    "let x = Tensor::<f64, shape![1]>::full(2.0);\nlet xv = x.track();\nlet grads = xv.try_pow(3.0)?.sum_all().backward();\nassert_eq!(grads.of(&xv).unwrap().item(), 12.0);";
    /// `x` clamped to `[min, max]` (either may be absent); the gradient is
    /// zero outside and at the bounds, as PyTorch's.
    clamp, try_clamp (min: Option<f64>, max: Option<f64>) => |x| x.unary(UnaryOp::Clamp { min, max });
    "let x = Tensor::<f64, shape![3]>::from_array([-2.0, 0.5, 2.0]);\nlet xv = x.track();\nlet grads = xv.try_clamp(Some(-1.0), Some(1.0))?.sum_all().backward();\nassert_eq!(grads.of(&xv).unwrap().to_vec(), vec![0.0, 1.0, 0.0]);";
    /// `x` where positive, `slope · x` elsewhere (PyTorch's `leaky_relu`).
    leaky_relu, try_leaky_relu (slope: f64) => |x| x.leaky_relu(slope);
    "let x = Tensor::<f64, shape![2]>::from_array([-1.0, 1.0]);\nassert_eq!(x.track().try_leaky_relu(0.5)?.value().to_vec(), vec![-0.5, 1.0]);";
    /// `min(max(x + 3, 0), 6) / 6` (PyTorch's `hardsigmoid`); the gradient
    /// is 1/6 strictly between −3 and 3, zero elsewhere.
    hardsigmoid, try_hardsigmoid () => |x| x.hardsigmoid();
    "let x = Tensor::<f64, shape![2]>::from_array([0.0, 4.0]);\nassert_eq!(x.track().try_hardsigmoid()?.value().to_vec(), vec![0.5, 1.0]);";
    /// `x · min(max(x + 3, 0), 6) / 6` (PyTorch's `hardswish`); the gradient
    /// is 0 below −3, `x/3 + 1/2` up to 3, 1 above.
    hardswish, try_hardswish () => |x| x.hardswish();
    "let x = Tensor::<f64, shape![2]>::from_array([-4.0, 4.0]);\nassert_eq!(x.track().try_hardswish()?.value().to_vec(), vec![0.0, 4.0]);";
}

/// Ops without a derivative, spelled on tracked tensors so that calling one
/// is a compile error that says so (no silent cut of the graph): each asks
/// a trait no type implements.
macro_rules! no_derivative {
    ($(
        $(#[$doc:meta])*
        $name:ident, $Marker:ident, $Trait:ident: $message:literal;
    )*) => {$(
        #[doc = concat!("The op `", stringify!($name), "`, which has no derivative.")]
        ///
        /// ```
        /// use axial::autograd::Var;
        /// use axial::prelude::*;
        /// let x = Tensor::<f32, shape![2]>::ones();
        #[doc = concat!("let v = x.track().value().", stringify!($name), "(2.0); // untracked: fine")]
        /// ```
        #[derive(Copy, Clone, Debug)]
        pub struct $Marker<T>(std::marker::PhantomData<T>);

        $(#[$doc])*
        #[diagnostic::on_unimplemented(
            message = $message,
            label = "a tracked tensor",
            note = "compute it on the value, which is not tracked (`x.value()`), or on the elements without history (`x.detach()`)"
        )]
        pub trait $Trait {}

        impl<'g, T: Float, S: Shape, D: Backend, W> Var<'g, T, S, D, W> {
            $(#[$doc])*
            ///
            /// ```compile_fail
            /// use axial::prelude::*;
            /// let x = Tensor::<f32, shape![2]>::ones();
            #[doc = concat!("let y = x.track().", stringify!($name), "(2.0);")]
            /// ```
            pub fn $name<Rhs>(&self, _other: Rhs) -> Var<'g, T, S, D>
            where
                $Marker<T>: $Trait,
            {
                unreachable!("no type implements the trait this method asks")
            }
        }
    )*};
}

no_derivative! {
    /// `floor_divide` has no derivative (PyTorch has none either): on a
    /// tracked tensor it does not compile.
    floor_divide, FloorDivide, FloorDivideHasNoDerivative:
        "`floor_divide` has no derivative: a tracked tensor cannot go through it";
}
