//! Elementwise ops of two operands, by method: `add`, `sub`, `mul`, `div`,
//! ..., each with its `try_` twin and, where the result keeps the dtype, the
//! in-place `_` twins. The other operand is a tensor or a scalar
//! ([`Operand`]); shapes broadcast by name ([`BroadcastWith`]); dtypes are
//! equal ([`SameDType`]).

use axial_core::{Backend, BinaryOp, Element, Result};
use axial_shape::{BroadcastWith, Broadcasted, InPlace, Shape};

use super::dtype::{
    Addable, Divisible, Logical, Number, RealNumber, RealValued, ResultTypes, SameDType,
};
use super::mismatch;
use super::operand::{Operand, Value};
use crate::access::owned;
use crate::device::SameDevice;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::{Data, DataMut};
use crate::tensor::{Tensor, TensorBase};

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `op(self, other)` into a new tensor of `U` and shape `Out`; a `Dyn`
    /// size that does not broadcast is reported with the axes' names.
    pub(crate) fn binary_op<U, Out, Rhs: Operand<D>>(
        &self,
        op: BinaryOp,
        other: &Rhs,
    ) -> Result<Tensor<U, Out, D>>
    where
        Rhs::Device: SameDevice<D>,
    {
        let lhs = self.raw();
        let raw = match other.value() {
            Value::Tensor(rhs) => lhs.binary(op, &rhs).map_err(|e| {
                mismatch::broadcast::<S, Rhs::Shape>(op.name(), e, lhs.shape(), rhs.shape())
            })?,
            Value::Scalar(s) => lhs.binary_scalar(op, s)?,
        };
        Ok(owned(raw))
    }

    /// `self = op(self, other)`; a `Dyn` size that does not broadcast to
    /// self's is reported with the axes' names.
    pub(crate) fn binary_op_<Rhs: Operand<D>>(&mut self, op: BinaryOp, other: &Rhs) -> Result<()>
    where
        R: DataMut<D>,
        Rhs::Device: SameDevice<D>,
    {
        let rhs = other.value();
        let out_sizes = self.layout.clone();
        let mut lhs = self.raw_mut_disjoint()?;
        match rhs {
            Value::Tensor(rhs) => lhs.binary_(op, &rhs).map_err(|e| {
                mismatch::in_place::<S, Rhs::Shape>(op.name(), e, out_sizes.shape(), rhs.shape())
            }),
            Value::Scalar(s) => lhs.binary_scalar_(op, s),
        }
    }
}

/// The out-of-place twins of a binary op, with generated docs and examples.
macro_rules! binary_ops {
    ($(
        $(#[$doc:meta])*
        $name:ident, $try_name:ident: $op:ident, T: $bound:ident => $out:ty,
        $ty:ty: $a:tt, $b:tt => $expected:tt;
    )*) => {$(
        impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
            $(#[$doc])*
            ///
            /// # Errors
            /// A `Dyn` size that does not broadcast, named by its axis with both
            /// shapes (static sizes that do not are a compile error), or a
            /// failure of the device or the kernel.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let a = Tensor::<", stringify!($ty), ", shape![Rows: 2, Cols: 2]>::from_array(", stringify!($a), ");")]
            #[doc = concat!("let b = Tensor::<", stringify!($ty), ", shape![Cols: Dyn]>::from_vec_dyn(vec!", stringify!($b), ", 2);")]
            #[doc = concat!("assert_eq!(a.", stringify!($try_name), "(&b)?.to_vec(), vec!", stringify!($expected), ");")]
            #[doc = concat!("let c = Tensor::<", stringify!($ty), ", shape![Cols: Dyn]>::ones_dyn(3);")]
            #[doc = concat!("let err = a.", stringify!($try_name), "(&c).unwrap_err();")]
            /// assert!(err.to_string().ends_with(
            ///     "the size of axis `Cols` in tensor a (2) must match its size in tensor b (3), or one of them be 1: a is (Rows: 2, Cols: 2), b is (Cols: 3)"
            /// ));
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name<Rhs>(&self, other: Rhs) -> Result<Tensor<$out, Broadcasted<S, Rhs::Shape>, D>>
            where
                T: $bound,
                Rhs: Operand<D>,
                Rhs::Elem: SameDType<T>,
                Rhs::Device: SameDevice<D>,
                S: BroadcastWith<Rhs::Shape>,
            {
                self.binary_op(BinaryOp::$op, &other)
            }

            $(#[$doc])*
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message (a `Dyn` size that does not broadcast).")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let a = Tensor::<", stringify!($ty), ", shape![Rows: 2, Cols: 2]>::from_array(", stringify!($a), ");")]
            #[doc = concat!("let b = Tensor::<", stringify!($ty), ", shape![Cols: 2]>::from_array(", stringify!($b), ");")]
            #[doc = concat!("assert_eq!(a.", stringify!($name), "(&b).to_vec(), vec!", stringify!($expected), ");")]
            /// ```
            #[track_caller]
            pub fn $name<Rhs>(&self, other: Rhs) -> Tensor<$out, Broadcasted<S, Rhs::Shape>, D>
            where
                T: $bound,
                Rhs: Operand<D>,
                Rhs::Elem: SameDType<T>,
                Rhs::Device: SameDevice<D>,
                S: BroadcastWith<Rhs::Shape>,
            {
                or_panic(self.binary_op(BinaryOp::$op, &other))
            }
        }
    )*};
}

/// The in-place twins of a binary op.
macro_rules! binary_ops_ {
    ($(
        $(#[$doc:meta])*
        $name:ident, $try_name:ident: $op:ident, T: $bound:ident,
        $ty:ty: $a:tt, $b:tt => $expected:tt;
    )*) => {$(
        impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
            $(#[$doc])*
            /// The other operand broadcasts to `self`'s shape and names
            /// ([`InPlace`]).
            ///
            /// # Errors
            /// A `Dyn` size that does not broadcast to `self`'s, named by its
            /// axis with both shapes, or a failure of the device or the kernel.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let mut a = Tensor::<", stringify!($ty), ", shape![Rows: 2, Cols: Dyn]>::from_vec_dyn(vec!", stringify!($a), ".concat(), 2);")]
            #[doc = concat!("let b = Tensor::<", stringify!($ty), ", shape![Cols: 2]>::from_array(", stringify!($b), ");")]
            #[doc = concat!("a.", stringify!($try_name), "(&b)?;")]
            #[doc = concat!("assert_eq!(a.to_vec(), vec!", stringify!($expected), ");")]
            #[doc = concat!("let c = Tensor::<", stringify!($ty), ", shape![Rows: 2, Cols: 1]>::ones();")]
            #[doc = concat!("assert!(a.", stringify!($try_name), "(&c).is_ok()); // size 1 stretches")]
            #[doc = concat!("let d = Tensor::<", stringify!($ty), ", shape![Cols: 3]>::ones();")]
            #[doc = concat!("let err = a.", stringify!($try_name), "(&d).unwrap_err();")]
            /// assert!(err.to_string().ends_with(
            ///     "the size of axis `Cols` in tensor a (2) must match its size in tensor b (3), or one of them be 1: a is (Rows: 2, Cols: 2), b is (Cols: 3)"
            /// ));
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name<Rhs>(&mut self, other: Rhs) -> Result<()>
            where
                T: $bound,
                R: DataMut<D>,
                Rhs: Operand<D>,
                Rhs::Elem: SameDType<T>,
                Rhs::Device: SameDevice<D>,
                S: InPlace<Rhs::Shape>,
            {
                self.binary_op_(BinaryOp::$op, &other)
            }

            $(#[$doc])*
            /// The other operand broadcasts to `self`'s shape and names
            /// ([`InPlace`]).
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message (only with `Dyn` sizes or a `self` with elements that share memory).")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            #[doc = concat!("let mut a = Tensor::<", stringify!($ty), ", shape![Rows: 2, Cols: 2]>::from_array(", stringify!($a), ");")]
            #[doc = concat!("let b = Tensor::<", stringify!($ty), ", shape![Cols: 2]>::from_array(", stringify!($b), ");")]
            #[doc = concat!("a.", stringify!($name), "(&b);")]
            #[doc = concat!("assert_eq!(a.to_vec(), vec!", stringify!($expected), ");")]
            /// ```
            #[track_caller]
            pub fn $name<Rhs>(&mut self, other: Rhs)
            where
                T: $bound,
                R: DataMut<D>,
                Rhs: Operand<D>,
                Rhs::Elem: SameDType<T>,
                Rhs::Device: SameDevice<D>,
                S: InPlace<Rhs::Shape>,
            {
                or_panic(self.binary_op_(BinaryOp::$op, &other))
            }
        }
    )*};
}

binary_ops! {
    /// `self + other`, elementwise with broadcasting (PyTorch's `add`; on
    /// bool tensors, `or`).
    add, try_add: Add, T: Addable => T,
    f32: [[1.0, 2.0], [3.0, 4.0]], [10.0, 20.0] => [11.0, 22.0, 13.0, 24.0];
    /// `self - other`, elementwise with broadcasting (PyTorch's `sub`).
    sub, try_sub: Sub, T: Number => T,
    f32: [[1.0, 2.0], [3.0, 4.0]], [10.0, 20.0] => [-9.0, -18.0, -7.0, -16.0];
    /// `self * other`, elementwise with broadcasting (PyTorch's `mul`; on
    /// bool tensors, `and`).
    mul, try_mul: Mul, T: Element => T,
    i64: [[1, 2], [3, 4]], [10, 20] => [10, 40, 30, 80];
    /// `self / other`, true division with broadcasting (PyTorch's `div`):
    /// integer and bool operands give `f32` (`7 / 2 = 3.5`).
    div, try_div: Div, T: Divisible => <T as ResultTypes>::Quotient,
    i32: [[7, 2], [3, -4]], [2, 4] => [3.5f32, 0.5, 1.5, -1.0];
    /// `self % other` with the sign of the divisor, as Python's (PyTorch's
    /// `remainder`; an integer division by zero is an error).
    rem, try_rem: Rem, T: RealNumber => T,
    i64: [[-7, 7], [5, -5]], [2, 3] => [1, 1, 1, 1];
    /// `self // other`, rounding toward −∞ (PyTorch's `floor_divide`; an
    /// integer division by zero is an error).
    floor_divide, try_floor_divide: FloorDiv, T: RealNumber => T,
    i64: [[-7, 7], [5, -5]], [2, 3] => [-4, 2, 2, -2];
    /// `self` to the power `other`, elementwise (PyTorch's `pow`; a negative
    /// integer power of an integer is an error).
    pow, try_pow: Pow, T: Number => T,
    i64: [[2, 3], [4, 5]], [2, 0] => [4, 1, 16, 1];
    /// The larger of the two, elementwise (NaN propagates; PyTorch's `maximum`).
    maximum, try_maximum: Maximum, T: RealValued => T,
    f32: [[1.0, 5.0], [3.0, -4.0]], [2.0, 2.0] => [2.0, 5.0, 3.0, 2.0];
    /// The smaller of the two, elementwise (NaN propagates; PyTorch's `minimum`).
    minimum, try_minimum: Minimum, T: RealValued => T,
    f32: [[1.0, 5.0], [3.0, -4.0]], [2.0, 2.0] => [1.0, 2.0, 2.0, -4.0];
    /// `atan2(self, other)` elementwise (integer operands give `f32`).
    atan2, try_atan2: Atan2, T: RealValued => <T as ResultTypes>::Quotient,
    f64: [[0.0, 1.0], [0.0, -1.0]], [1.0, 0.0] => [0.0, std::f64::consts::FRAC_PI_2, 0.0, -std::f64::consts::FRAC_PI_2];
    /// `self && other`, elementwise on truth values (non-zero is true); a
    /// bool tensor.
    logical_and, try_logical_and: LogicalAnd, T: Logical => axial_core::Bool,
    i32: [[0, 1], [2, 0]], [1, 1] => [Bool::FALSE, Bool::TRUE, Bool::TRUE, Bool::FALSE];
    /// `self || other`, elementwise on truth values (non-zero is true); a
    /// bool tensor.
    logical_or, try_logical_or: LogicalOr, T: Logical => axial_core::Bool,
    i32: [[0, 1], [2, 0]], [0, 0] => [Bool::FALSE, Bool::TRUE, Bool::TRUE, Bool::FALSE];
}

binary_ops_! {
    /// `self += other` in place (PyTorch's `add_`).
    add_, try_add_: Add, T: Addable,
    f32: [[1.0, 2.0], [3.0, 4.0]], [10.0, 20.0] => [11.0, 22.0, 13.0, 24.0];
    /// `self -= other` in place (PyTorch's `sub_`).
    sub_, try_sub_: Sub, T: Number,
    f32: [[1.0, 2.0], [3.0, 4.0]], [10.0, 20.0] => [-9.0, -18.0, -7.0, -16.0];
    /// `self *= other` in place (PyTorch's `mul_`).
    mul_, try_mul_: Mul, T: Element,
    i64: [[1, 2], [3, 4]], [10, 20] => [10, 40, 30, 80];
    /// `self /= other` in place (PyTorch's `div_`): floats only, since true
    /// division of integers gives floats.
    div_, try_div_: Div, T: Float,
    f32: [[1.0, 2.0], [3.0, 4.0]], [2.0, 4.0] => [0.5, 0.5, 1.5, 1.0];
    /// `self %= other` in place (PyTorch's `remainder_`).
    rem_, try_rem_: Rem, T: RealNumber,
    i64: [[-7, 7], [5, -5]], [2, 3] => [1, 1, 1, 1];
    /// `self //= other` in place (PyTorch's `floor_divide_`).
    floor_divide_, try_floor_divide_: FloorDiv, T: RealNumber,
    i64: [[-7, 7], [5, -5]], [2, 3] => [-4, 2, 2, -2];
    /// `self` raised to the power `other` in place (PyTorch's `pow_`).
    pow_, try_pow_: Pow, T: Number,
    i64: [[2, 3], [4, 5]], [2, 0] => [4, 1, 16, 1];
    /// The larger of the two, in place (PyTorch's `maximum` into `self`).
    maximum_, try_maximum_: Maximum, T: RealValued,
    f32: [[1.0, 5.0], [3.0, -4.0]], [2.0, 2.0] => [2.0, 5.0, 3.0, 2.0];
    /// The smaller of the two, in place (PyTorch's `minimum` into `self`).
    minimum_, try_minimum_: Minimum, T: RealValued,
    f32: [[1.0, 5.0], [3.0, -4.0]], [2.0, 2.0] => [1.0, 2.0, 2.0, -4.0];
}
