//! Reductions by name: over one axis (`sum::<Rows>()`) or several
//! (`sum::<names![Rows, Cols]>()`), the axes removed or kept as size 1
//! (`_keepdim`), or over every axis (`_all`); output dtypes as PyTorch's
//! (`sum` of integers is `i64`, `mean` needs floats). `argmax`, `argmin`,
//! and `max`/`min` with their indices, along one axis.

use axial_core::{Backend, Element, ReduceOp, Result};
use axial_shape::{GenericArray, Nil, Reduce, Reduced, ReducedKeep, Shape};

use super::dtype::ResultTypes;
use crate::access::owned;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `op` over the axes `L`, into a tensor of `U` and shape `Out`.
    fn reduce_by<L, U, Out>(&self, op: ReduceOp, keepdim: bool) -> Result<Tensor<U, Out, D>>
    where
        S: Reduce<L>,
    {
        let mut dims = GenericArray::<isize, S::Rank>::default();
        <S as Reduce<L>>::positions(&mut dims);
        let dims = &dims[..<S as Reduce<L>>::COUNT];
        self.raw().reduce(op, dims, keepdim).map(owned)
    }

    /// `op` over every axis.
    fn reduce_all<U>(&self, op: ReduceOp) -> Result<Tensor<U, Nil, D>> {
        self.raw().reduce(op, &[], false).map(owned)
    }
}

/// The six twins of a reduction (by name, keeping the axes, over every
/// axis; each with `try_`), with generated docs and examples.
macro_rules! reductions {
    ($(
        $(#[$doc:meta])*
        $name:ident, $try_name:ident, $keep:ident, $try_keep:ident, $all:ident, $try_all:ident
        ($($arg:ident: $arg_ty:ty),*): $op:expr, T: $bound:ident => $out:ty,
        $ty:ty: $input:tt ($($val:expr),*) => $by_cols:tt, $by_rows:tt, $total:expr;
    )*) => {$(
        impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
            $(#[$doc])*
            /// Over the axes `L`, a name or a names list, which leave the shape.
            ///
            /// # Errors
            /// An empty axis where the reduction has no value (`amax`,
            /// `amin`), or a failure of the device or the kernel.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<", stringify!($ty), ", shape![Rows: 2, Cols: 3]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("let by_cols = x.", stringify!($try_name), "::<Cols>(", stringify!($($val),*), ")?;")]
            /// assert_eq!(by_cols.names().as_slice(), &[Some("Rows")]);
            #[doc = concat!("assert_eq!(by_cols.to_vec(), vec!", stringify!($by_cols), ");")]
            #[doc = concat!("let total = x.", stringify!($try_name), "::<names![Rows, Cols]>(", stringify!($($val),*), ")?;")]
            #[doc = concat!("assert_eq!(total.item(), ", stringify!($total), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name<L>(&self, $($arg: $arg_ty),*) -> Result<Tensor<$out, Reduced<S, L>, D>>
            where
                T: $bound,
                S: Reduce<L>,
            {
                self.reduce_by::<L, _, _>($op, false)
            }

            $(#[$doc])*
            /// Over the axes `L`, a name or a names list, which leave the shape.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<", stringify!($ty), ", shape![Rows: 2, Cols: 3]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($name), "::<Cols>(", stringify!($($val),*), ").to_vec(), vec!", stringify!($by_cols), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($name), "::<Rows>(", stringify!($($val),*), ").to_vec(), vec!", stringify!($by_rows), ");")]
            /// ```
            #[track_caller]
            pub fn $name<L>(&self, $($arg: $arg_ty),*) -> Tensor<$out, Reduced<S, L>, D>
            where
                T: $bound,
                S: Reduce<L>,
            {
                or_panic(self.reduce_by::<L, _, _>($op, false))
            }

            $(#[$doc])*
            /// Over the axes `L`, which stay with size 1 (PyTorch's `keepdim=True`).
            ///
            /// # Errors
            /// An empty axis where the reduction has no value (`amax`,
            /// `amin`), or a failure of the device or the kernel.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<", stringify!($ty), ", shape![Rows: 2, Cols: 3]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("let k = x.", stringify!($try_keep), "::<Cols>(", stringify!($($val),*), ")?;")]
            /// assert_eq!(k.sizes().as_slice(), &[2, 1]);
            #[doc = concat!("assert_eq!(k.to_vec(), vec!", stringify!($by_cols), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_keep<L>(&self, $($arg: $arg_ty),*) -> Result<Tensor<$out, ReducedKeep<S, L>, D>>
            where
                T: $bound,
                S: Reduce<L>,
            {
                self.reduce_by::<L, _, _>($op, true)
            }

            $(#[$doc])*
            /// Over the axes `L`, which stay with size 1 (PyTorch's `keepdim=True`).
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_keep), "`](Self::", stringify!($try_keep), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<", stringify!($ty), ", shape![Rows: 2, Cols: 3]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("let k = x.", stringify!($keep), "::<Rows>(", stringify!($($val),*), ");")]
            /// assert_eq!(k.sizes().as_slice(), &[1, 3]);
            #[doc = concat!("assert_eq!(k.to_vec(), vec!", stringify!($by_rows), ");")]
            /// ```
            #[track_caller]
            pub fn $keep<L>(&self, $($arg: $arg_ty),*) -> Tensor<$out, ReducedKeep<S, L>, D>
            where
                T: $bound,
                S: Reduce<L>,
            {
                or_panic(self.reduce_by::<L, _, _>($op, true))
            }

            $(#[$doc])*
            /// Over every axis: a tensor without axes.
            ///
            /// # Errors
            /// An empty tensor where the reduction has no value (`amax`,
            /// `amin`), or a failure of the device or the kernel.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<", stringify!($ty), ", shape![2, 3]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($try_all), "(", stringify!($($val),*), ")?.item(), ", stringify!($total), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_all(&self, $($arg: $arg_ty),*) -> Result<Tensor<$out, Nil, D>>
            where
                T: $bound,
            {
                self.reduce_all($op)
            }

            $(#[$doc])*
            /// Over every axis: a tensor without axes.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_all), "`](Self::", stringify!($try_all), "), with its message.")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<", stringify!($ty), ", shape![2, 3]>::from_array(", stringify!($input), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($all), "(", stringify!($($val),*), ").item(), ", stringify!($total), ");")]
            /// ```
            #[track_caller]
            pub fn $all(&self, $($arg: $arg_ty),*) -> Tensor<$out, Nil, D>
            where
                T: $bound,
            {
                or_panic(self.reduce_all($op))
            }
        }
    )*};
}

reductions! {
    /// The sum (integers and bool give `i64`, floats keep their dtype).
    sum, try_sum, sum_keepdim, try_sum_keepdim, sum_all, try_sum_all
    (): ReduceOp::Sum, T: ResultTypes => <T as ResultTypes>::Sum,
    i32: [[0, 1, 2], [3, 4, 5]] () => [3i64, 12], [3i64, 5, 7], 15i64;
    /// The product (integers and bool give `i64`, floats keep their dtype).
    prod, try_prod, prod_keepdim, try_prod_keepdim, prod_all, try_prod_all
    (): ReduceOp::Prod, T: ResultTypes => <T as ResultTypes>::Sum,
    i64: [[1, 2, 3], [4, 5, 6]] () => [6, 120], [4, 10, 18], 720;
    /// The mean (floats only: cast integers first).
    mean, try_mean, mean_keepdim, try_mean_keepdim, mean_all, try_mean_all
    (): ReduceOp::Mean, T: Float => T,
    f32: [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] () => [1.0, 4.0], [1.5, 2.5, 3.5], 2.5;
    /// The largest value (NaN propagates; PyTorch's `amax`).
    amax, try_amax, amax_keepdim, try_amax_keepdim, amax_all, try_amax_all
    (): ReduceOp::Max, T: Element => T,
    i64: [[0, 7, 2], [3, 4, -5]] () => [7, 4], [3, 7, 2], 7;
    /// The smallest value (NaN propagates; PyTorch's `amin`).
    amin, try_amin, amin_keepdim, try_amin_keepdim, amin_all, try_amin_all
    (): ReduceOp::Min, T: Element => T,
    i64: [[0, 7, 2], [3, 4, -5]] () => [0, -5], [0, 4, -5], -5;
    /// Whether every element is non-zero (a bool tensor; `u8` stays `u8`).
    all, try_all, all_keepdim, try_all_keepdim, all_all, try_all_all
    (): ReduceOp::All, T: ResultTypes => <T as ResultTypes>::AllAny,
    i32: [[1, 2, 3], [4, 0, 6]] () => [Bool::TRUE, Bool::FALSE], [Bool::TRUE, Bool::FALSE, Bool::TRUE], Bool::FALSE;
    /// Whether some element is non-zero (a bool tensor; `u8` stays `u8`).
    any, try_any, any_keepdim, try_any_keepdim, any_all, try_any_all
    (): ReduceOp::Any, T: ResultTypes => <T as ResultTypes>::AllAny,
    i32: [[0, 0, 0], [4, 0, 6]] () => [Bool::FALSE, Bool::TRUE], [Bool::TRUE, Bool::FALSE, Bool::TRUE], Bool::TRUE;
    /// The variance, with `correction` subtracted from the count in the
    /// divisor (1 is Bessel's; floats only).
    var, try_var, var_keepdim, try_var_keepdim, var_all, try_var_all
    (correction: f64): ReduceOp::Var { correction }, T: Float => T,
    f64: [[0.0, 2.0, 1.0], [2.0, 0.0, 1.0]] (1.0) => [1.0, 1.0], [2.0, 2.0, 0.0], 0.8;
    /// The standard deviation, with `correction` subtracted from the count
    /// in the divisor (1 is Bessel's; floats only).
    std, try_std, std_keepdim, try_std_keepdim, std_all, try_std_all
    (correction: f64): ReduceOp::Std { correction }, T: Float => T,
    f64: [[0.0, 2.0, 1.0], [2.0, 0.0, 1.0]] (1.0) => [1.0, 1.0], [std::f64::consts::SQRT_2, std::f64::consts::SQRT_2, 0.0], 0.8f64.sqrt();
}
