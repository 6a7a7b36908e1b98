//! Index reductions along one axis by name: `argmax`, `argmin` (i64
//! indices, the first on ties, NaN wins), and `max`/`min` with their indices.

use axial_core::{ArgReduceOp, Backend, Element, Result};
use axial_shape::{HasAxis, Nil, Reduce, ReducedKeep, Shape};

use crate::access::owned;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// Values and their `i64` indices along an axis, as `max::<A>()` gives them.
///
/// ```
/// use axial::prelude::*;
/// use axial::WithIndices;
/// axes!(Rows, Cols);
/// let x = Tensor::<f32, shape![Rows: 2, Cols: 2]>::from_vec(vec![1.0, 5.0, 4.0, 2.0]);
/// let (values, indices): WithIndices<f32, shape![Rows: 2], Cpu> = x.max::<Cols>();
/// assert_eq!(values.to_vec(), [5.0, 4.0]);
/// assert_eq!(indices.to_vec(), [1, 0]);
/// ```
pub type WithIndices<T, S, D> = (Tensor<T, S, D>, Tensor<i64, S, D>);

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `op` along `dim` (`None`: of the flattened tensor).
    fn arg_reduce_at<Out>(
        &self,
        op: ArgReduceOp,
        dim: Option<usize>,
        keepdim: bool,
    ) -> Result<Tensor<i64, Out, D>> {
        let dim = dim.map(|d| d as isize);
        self.raw().arg_reduce(op, dim, keepdim).map(owned)
    }

    /// Values and indices of `op` along `dim`.
    fn max_min_at<Out>(
        &self,
        op: ArgReduceOp,
        dim: usize,
        keepdim: bool,
    ) -> Result<WithIndices<T, Out, D>> {
        let (values, indices) = self.raw().max_min_dim(op, dim as isize, keepdim)?;
        Ok((owned(values), owned(indices)))
    }
}

/// The twins of an index reduction, with generated docs and examples.
macro_rules! arg_reductions {
    ($(
        $(#[$doc:meta])*
        $arg:ident, $try_arg:ident, $arg_keep:ident, $try_arg_keep:ident, $arg_all:ident, $try_arg_all:ident,
        $values:ident, $try_values:ident, $values_keep:ident, $try_values_keep:ident: $op:ident,
        [$($input:tt)*] => $by_cols:tt, $by_rows:tt, $flat:expr, $vals_by_cols:tt;
    )*) => {$(
        impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
            $(#[$doc])*
            /// Along the axis `A`, which leaves the shape.
            ///
            /// # Errors
            /// `A` is empty (PyTorch: `Expected reduction dim ... to have non-zero size.`).
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($try_arg), "::<Cols>()?.to_vec(), vec!", stringify!($by_cols), ");")]
            /// let empty = Tensor::<f32, shape![Rows: 2, Cols: Dyn]>::zeros_dyn(0);
            #[doc = concat!("assert!(empty.", stringify!($try_arg), "::<Cols>().is_err());")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_arg<A>(&self) -> Result<Tensor<i64, S::Without, D>>
            where
                S: HasAxis<A>,
            {
                self.arg_reduce_at(ArgReduceOp::$op, Some(S::POS), false)
            }

            $(#[$doc])*
            /// Along the axis `A`, which leaves the shape.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_arg), "`](Self::", stringify!($try_arg), "), with its message (only with an empty axis).")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($arg), "::<Cols>().to_vec(), vec!", stringify!($by_cols), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($arg), "::<Rows>().to_vec(), vec!", stringify!($by_rows), ");")]
            /// ```
            #[track_caller]
            pub fn $arg<A>(&self) -> Tensor<i64, S::Without, D>
            where
                S: HasAxis<A>,
            {
                or_panic(self.$try_arg::<A>())
            }

            $(#[$doc])*
            /// Along the axis `A`, which stays with size 1.
            ///
            /// # Errors
            /// `A` is empty.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("let k = x.", stringify!($try_arg_keep), "::<Cols>()?;")]
            /// assert_eq!(k.sizes().as_slice(), &[2, 1]);
            #[doc = concat!("assert_eq!(k.to_vec(), vec!", stringify!($by_cols), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_arg_keep<A>(&self) -> Result<Tensor<i64, ReducedKeep<S, A>, D>>
            where
                S: HasAxis<A> + Reduce<A>,
            {
                self.arg_reduce_at(ArgReduceOp::$op, Some(<S as HasAxis<A>>::POS), true)
            }

            $(#[$doc])*
            /// Along the axis `A`, which stays with size 1.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_arg_keep), "`](Self::", stringify!($try_arg_keep), "), with its message (only with an empty axis).")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($arg_keep), "::<Rows>().sizes().as_slice(), &[1, 3]);")]
            /// ```
            #[track_caller]
            pub fn $arg_keep<A>(&self) -> Tensor<i64, ReducedKeep<S, A>, D>
            where
                S: HasAxis<A> + Reduce<A>,
            {
                or_panic(self.$try_arg_keep::<A>())
            }

            $(#[$doc])*
            /// Of the flattened tensor: a row-major index.
            ///
            /// # Errors
            /// The tensor is empty.
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f32, shape![2, 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($try_arg_all), "()?.item(), ", stringify!($flat), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_arg_all(&self) -> Result<Tensor<i64, Nil, D>> {
                self.arg_reduce_at(ArgReduceOp::$op, None, false)
            }

            $(#[$doc])*
            /// Of the flattened tensor: a row-major index.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_arg_all), "`](Self::", stringify!($try_arg_all), "), with its message (only for an empty tensor).")]
            ///
            /// ```
            /// use axial::prelude::*;
            #[doc = concat!("let x = Tensor::<f32, shape![2, 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("assert_eq!(x.", stringify!($arg_all), "().item(), ", stringify!($flat), ");")]
            /// ```
            #[track_caller]
            pub fn $arg_all(&self) -> Tensor<i64, Nil, D> {
                or_panic(self.$try_arg_all())
            }

            $(#[$doc])*
            /// The values with their indices along the axis `A`, which
            /// leaves the shape (PyTorch's `max(dim)`/`min(dim)`).
            ///
            /// # Errors
            /// `A` is empty.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("let (values, indices) = x.", stringify!($try_values), "::<Cols>()?;")]
            #[doc = concat!("assert_eq!(values.to_vec(), vec!", stringify!($vals_by_cols), ");")]
            #[doc = concat!("assert_eq!(indices.to_vec(), vec!", stringify!($by_cols), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_values<A>(&self) -> Result<WithIndices<T, S::Without, D>>
            where
                S: HasAxis<A>,
            {
                self.max_min_at(ArgReduceOp::$op, S::POS, false)
            }

            $(#[$doc])*
            /// The values with their indices along the axis `A`, which
            /// leaves the shape (PyTorch's `max(dim)`/`min(dim)`).
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_values), "`](Self::", stringify!($try_values), "), with its message (only with an empty axis).")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("let (values, indices) = x.", stringify!($values), "::<Cols>();")]
            #[doc = concat!("assert_eq!(values.to_vec(), vec!", stringify!($vals_by_cols), ");")]
            #[doc = concat!("assert_eq!(indices.to_vec(), vec!", stringify!($by_cols), ");")]
            /// ```
            #[track_caller]
            pub fn $values<A>(&self) -> WithIndices<T, S::Without, D>
            where
                S: HasAxis<A>,
            {
                or_panic(self.$try_values::<A>())
            }

            $(#[$doc])*
            /// The values with their indices along the axis `A`, which stays
            /// with size 1.
            ///
            /// # Errors
            /// `A` is empty.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("let (values, indices) = x.", stringify!($try_values_keep), "::<Cols>()?;")]
            /// assert_eq!(values.sizes().as_slice(), &[2, 1]);
            #[doc = concat!("assert_eq!(indices.to_vec(), vec!", stringify!($by_cols), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_values_keep<A>(&self) -> Result<WithIndices<T, ReducedKeep<S, A>, D>>
            where
                S: HasAxis<A> + Reduce<A>,
            {
                self.max_min_at(ArgReduceOp::$op, <S as HasAxis<A>>::POS, true)
            }

            $(#[$doc])*
            /// The values with their indices along the axis `A`, which stays
            /// with size 1.
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_values_keep), "`](Self::", stringify!($try_values_keep), "), with its message (only with an empty axis).")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array(", stringify!([$($input)*]), ");")]
            #[doc = concat!("let (values, _) = x.", stringify!($values_keep), "::<Cols>();")]
            #[doc = concat!("assert_eq!(values.to_vec(), vec!", stringify!($vals_by_cols), ");")]
            /// ```
            #[track_caller]
            pub fn $values_keep<A>(&self) -> WithIndices<T, ReducedKeep<S, A>, D>
            where
                S: HasAxis<A> + Reduce<A>,
            {
                or_panic(self.$try_values_keep::<A>())
            }
        }
    )*};
}

arg_reductions! {
    /// The index of the largest value (the first on ties; NaN wins).
    argmax, try_argmax, argmax_keepdim, try_argmax_keepdim, argmax_all, try_argmax_all,
    max, try_max, max_keepdim, try_max_keepdim: ArgMax,
    [[0.0, 7.0, 7.0], [3.0, 1.0, -5.0]] => [1, 0], [1, 0, 0], 1, [7.0, 3.0];
    /// The index of the smallest value (the first on ties; NaN wins).
    argmin, try_argmin, argmin_keepdim, try_argmin_keepdim, argmin_all, try_argmin_all,
    min, try_min, min_keepdim, try_min_keepdim: ArgMin,
    [[0.0, 7.0, 7.0], [3.0, 1.0, -5.0]] => [0, 2], [0, 1, 1], 5, [0.0, -5.0];
}
