//! Reductions of tracked tensors by axis name: over the axes `L` (a name or
//! a names list, which leave the shape), keeping them as size 1
//! (`_keepdim`), or over every axis (`_all`). `sum` and `mean` keep
//! nothing; `var` keeps its input; `std`, `amax`, `amin` and `logsumexp`
//! keep their input and output (PyTorch's choices).

use axial_core::{Backend, ReduceOp, Result};
use axial_shape::{GenericArray, Nil, Reduce, Reduced, ReducedKeep, Shape};

use super::var::{Kept, Var, Writable};
use crate::float::Float;
use crate::or_panic::or_panic;

impl<'g, T: Float, S: Shape, D: Backend, W> Var<'g, T, S, D, W> {
    /// The positions of the axes `L`.
    fn positions<L>() -> Vec<isize>
    where
        S: Reduce<L>,
    {
        let mut dims = GenericArray::<isize, S::Rank>::default();
        <S as Reduce<L>>::positions(&mut dims);
        dims[..<S as Reduce<L>>::COUNT].to_vec()
    }

    /// `op` over `dims` (empty: every axis) into any shape and access.
    fn reduced<S2, W2>(
        &self,
        op: ReduceOp,
        dims: &[isize],
        keepdim: bool,
    ) -> Result<Var<'g, T, S2, D, W2>> {
        Ok(Var::from_core(self.core()?.reduce(op, dims, keepdim)?))
    }
}

/// The three forms of a reduction (by name, keeping the axes, over every
/// axis), each with its `try_` twin, in one impl block: `[impl header]`
/// and the receiver's `&` (a reduction that keeps its input consumes a
/// writable one).
macro_rules! reduction {
    (
        [$($header:tt)*] [$($r:tt)?] $example_input:literal;
        $(#[$doc:meta])*
        $name:ident, $try_name:ident, $keep:ident, $try_keep:ident, $all:ident, $try_all:ident
        ($($arg:ident: $arg_ty:ty),*): $op:expr => $acc:ty,
        $input:tt => $total:expr;
    ) => {
        impl $($header)* {
            $(#[$doc])*
            /// Over the axes `L`, a name or a names list, which leave the shape.
            ///
            /// # Errors
            /// An empty axis where the reduction has no value (`amax`,
            /// `amin`), or a failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f64, shape![Rows: 2, Cols: 2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!($("# let ", stringify!($arg), " = 1.0;"),*)]
            #[doc = concat!("let total = ", $example_input, ".", stringify!($try_name), "::<names![Rows, Cols]>(", stringify!($($arg),*), ")?;")]
            #[doc = concat!("assert!((total.value().item() - ", stringify!($total), ").abs() < 1e-12);")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name<L>($($r)? self, $($arg: $arg_ty),*) -> Result<Var<'g, T, Reduced<S, L>, D, $acc>>
            where
                S: Reduce<L>,
            {
                self.reduced($op, &Self::positions::<L>(), false)
            }

            $(#[$doc])*
            /// Over the axes `L`, which leave the shape.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f64, shape![Rows: 2, Cols: 2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!($("# let ", stringify!($arg), " = 1.0;"),*)]
            #[doc = concat!("let by_rows = ", $example_input, ".", stringify!($name), "::<Cols>(", stringify!($($arg),*), ");")]
            /// assert_eq!(by_rows.value().names().as_slice(), &[Some("Rows")]);
            /// ```
            #[track_caller]
            pub fn $name<L>($($r)? self, $($arg: $arg_ty),*) -> Var<'g, T, Reduced<S, L>, D, $acc>
            where
                S: Reduce<L>,
            {
                or_panic(self.$try_name::<L>($($arg),*))
            }

            $(#[$doc])*
            /// Over the axes `L`, which stay with size 1 (PyTorch's `keepdim=True`).
            ///
            /// # Errors
            /// As the reduction over `L`.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f64, shape![Rows: 2, Cols: 2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!($("# let ", stringify!($arg), " = 1.0;"),*)]
            #[doc = concat!("let k = ", $example_input, ".", stringify!($try_keep), "::<Cols>(", stringify!($($arg),*), ")?;")]
            /// assert_eq!(k.value().sizes().as_slice(), &[2, 1]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_keep<L>($($r)? self, $($arg: $arg_ty),*) -> Result<Var<'g, T, ReducedKeep<S, L>, D, $acc>>
            where
                S: Reduce<L>,
            {
                self.reduced($op, &Self::positions::<L>(), true)
            }

            $(#[$doc])*
            /// Over the axes `L`, which stay with size 1.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_keep), "`](Self::", stringify!($try_keep), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f64, shape![Rows: 2, Cols: 2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!($("# let ", stringify!($arg), " = 1.0;"),*)]
            #[doc = concat!("assert_eq!(", $example_input, ".", stringify!($keep), "::<Rows>(", stringify!($($arg),*), ").value().sizes().as_slice(), &[1, 2]);")]
            /// ```
            #[track_caller]
            pub fn $keep<L>($($r)? self, $($arg: $arg_ty),*) -> Var<'g, T, ReducedKeep<S, L>, D, $acc>
            where
                S: Reduce<L>,
            {
                or_panic(self.$try_keep::<L>($($arg),*))
            }

            $(#[$doc])*
            /// Over every axis: a tensor of no axes (a loss).
            ///
            /// # Errors
            /// As the reduction over `L`.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f64, shape![Rows: 2, Cols: 2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!($("# let ", stringify!($arg), " = 1.0;"),*)]
            #[doc = concat!("let total = ", $example_input, ".", stringify!($try_all), "(", stringify!($($arg),*), ")?;")]
            #[doc = concat!("assert!((total.value().item() - ", stringify!($total), ").abs() < 1e-12);")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_all($($r)? self, $($arg: $arg_ty),*) -> Result<Var<'g, T, Nil, D, $acc>> {
                self.reduced($op, &[], false)
            }

            $(#[$doc])*
            /// Over every axis.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_all), "`](Self::", stringify!($try_all), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f64, shape![Rows: 2, Cols: 2]>::from_array(", stringify!($input), ");")]
            #[doc = concat!($("# let ", stringify!($arg), " = 1.0;"),*)]
            #[doc = concat!("let total = ", $example_input, ".", stringify!($all), "(", stringify!($($arg),*), ");")]
            #[doc = concat!("assert!((total.value().item() - ", stringify!($total), ").abs() < 1e-12);")]
            /// ```
            #[track_caller]
            pub fn $all($($r)? self, $($arg: $arg_ty),*) -> Var<'g, T, Nil, D, $acc> {
                or_panic(self.$try_all($($arg),*))
            }
        }
    };
}

/// A reduction that keeps nothing (one impl for every access), or one that
/// keeps its input (consuming a writable tensor, reading a kept one).
macro_rules! reductions {
    ($(
        $kind:ident: $(#[$doc:meta])*
        $name:ident, $try_name:ident, $keep:ident, $try_keep:ident, $all:ident, $try_all:ident
        ($($arg:ident: $arg_ty:ty),*): $op:expr => $acc:ty,
        $input:tt => $total:expr;
    )*) => {$(
        reductions!(@$kind $(#[$doc])* $name, $try_name, $keep, $try_keep, $all, $try_all
            ($($arg: $arg_ty),*): $op => $acc, $input => $total;);
    )*};
    (@free $($row:tt)*) => {
        reduction!([<'g, T: Float, S: Shape, D: Backend, W> Var<'g, T, S, D, W>] [&] "x.track()"; $($row)*);
    };
    (@keeps $($row:tt)*) => {
        reduction!([<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Writable>] [] "(x.track() * 1.0)"; $($row)*);
        reduction!([<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Kept>] [&] "x.track()"; $($row)*);
    };
}

reductions! {
    free: /// The sum (keeps nothing).
    sum, try_sum, sum_keepdim, try_sum_keepdim, sum_all, try_sum_all
    (): ReduceOp::Sum => Writable,
    [[1.0, 2.0], [3.0, 4.0]] => 10.0;
    free: /// The mean (keeps nothing).
    mean, try_mean, mean_keepdim, try_mean_keepdim, mean_all, try_mean_all
    (): ReduceOp::Mean => Writable,
    [[1.0, 2.0], [3.0, 4.0]] => 2.5;
    keeps: /// The variance with `correction` (1: Bessel's, PyTorch's default).
    /// Keeps its input: a writable one is consumed, a kept one read.
    var, try_var, var_keepdim, try_var_keepdim, var_all, try_var_all
    (correction: f64): ReduceOp::Var { correction } => Writable,
    [[1.0, 2.0], [3.0, 4.0]] => 5.0 / 3.0;
    keeps: /// The standard deviation with `correction`. Keeps its input and
    /// output ([`Kept`]).
    std, try_std, std_keepdim, try_std_keepdim, std_all, try_std_all
    (correction: f64): ReduceOp::Std { correction } => Kept,
    [[1.0, 2.0], [3.0, 4.0]] => (5.0f64 / 3.0).sqrt();
    keeps: /// The largest element (PyTorch's `amax`; ties share the gradient
    /// equally). Keeps its input and output ([`Kept`]).
    amax, try_amax, amax_keepdim, try_amax_keepdim, amax_all, try_amax_all
    (): ReduceOp::Max => Kept,
    [[1.0, 4.0], [4.0, 2.0]] => 4.0;
    keeps: /// The smallest element (PyTorch's `amin`; ties share the gradient
    /// equally). Keeps its input and output ([`Kept`]).
    amin, try_amin, amin_keepdim, try_amin_keepdim, amin_all, try_amin_all
    (): ReduceOp::Min => Kept,
    [[1.0, 4.0], [1.0, 2.0]] => 1.0;
}

/// `logsumexp`, which keeps its input and output.
macro_rules! logsumexp {
    ($([$($header:tt)*] [$($r:tt)?] $x:literal;)*) => {$(
        impl $($header)* {
            /// `log Σ exp(x)` over the axes `L` (PyTorch's `logsumexp`),
            /// without overflow. Keeps its input and output ([`Kept`]).
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            /// let x = Tensor::<f64, shape![Rows: 1, Cols: 2]>::from_array([[1000.0, 1000.0]]);
            #[doc = concat!("let y = ", $x, ".try_logsumexp::<Cols>()?;")]
            /// assert_eq!(y.value().to_vec(), vec![1000.0 + 2f64.ln()]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_logsumexp<L>($($r)? self) -> Result<Var<'g, T, Reduced<S, L>, D, Kept>>
            where
                S: Reduce<L>,
            {
                let dims = Self::positions::<L>();
                Ok(Var::from_core(self.core()?.logsumexp(&dims, false)?))
            }

            /// `log Σ exp(x)` over the axes `L`.
            ///
            /// # Panics
            /// As [`try_logsumexp`](Self::try_logsumexp), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows);
            /// let x = Tensor::<f64, shape![Rows: 2]>::zeros();
            #[doc = concat!("assert_eq!(", $x, ".logsumexp::<Rows>().value().item(), 2f64.ln());")]
            /// ```
            #[track_caller]
            pub fn logsumexp<L>($($r)? self) -> Var<'g, T, Reduced<S, L>, D, Kept>
            where
                S: Reduce<L>,
            {
                or_panic(self.try_logsumexp::<L>())
            }
        }
    )*};
}

logsumexp! {
    [<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Writable>] [] "(x.track() * 1.0)";
    [<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Kept>] [&] "x.track()";
}
