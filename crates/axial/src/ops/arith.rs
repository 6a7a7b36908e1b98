//! The operators: `+ - * / %` and unary `-` between tensors (borrowed or
//! owned) and with scalars on either side, and the compound assignments
//! `+= -= *= /= %=` in place. Each is its method (`add`, `add_`, ...); the
//! operators panic where the `try_` methods return an error, which static
//! sizes rule out.
//!
//! ```
//! use axial::prelude::*;
//! axes!(Batch, Features);
//! let x = Tensor::<f32, shape![Batch: 2, Features: 3]>::ones();
//! let bias = Tensor::<f32, shape![Features: 3]>::from_array([1.0, 2.0, 3.0]);
//! let y = &x * 2.0 + &bias; // (Batch, Features)
//! assert_eq!(y.to_vec(), vec![3.0, 4.0, 5.0, 3.0, 4.0, 5.0]);
//! let z = 1.0 - -&y;
//! assert_eq!(z.get([0, 0]), 4.0);
//! let mut acc = Tensor::<f32, shape![Batch: 2, Features: 3]>::zeros();
//! acc += &y;
//! acc /= 2.0;
//! assert_eq!(acc.get([1, 2]), 2.5);
//! ```

use std::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use axial_core::{Backend, BinaryOp, Element, Result, Scalar};
use axial_shape::{BroadcastWith, Broadcasted, InPlace, Shape};
use half::{bf16, f16};

use super::dtype::{Number, ResultTypes, SameDType};
use super::operand::Operand;
use crate::access::owned;
use crate::device::SameDevice;
use crate::float::Float;
use crate::repr::{Data, DataMut};
use crate::tensor::{Tensor, TensorBase};
use crate::views::or_panic;

/// `tensor op rhs` for borrowed and owned tensors, as the method `add` and
/// its kin. The element bound is on the operand's type (equal to `T`),
/// which makes rustc print its message instead of "cannot subtract".
macro_rules! operator {
    ($($Trait:ident $op:ident $bin:ident: $bound:ident => $out:ty;)*) => {$(
        operator!(@impl [&] $Trait $op $bin: $bound => $out);
        operator!(@impl [] $Trait $op $bin: $bound => $out);
    )*};
    (@impl [$($by_ref:tt)?] $Trait:ident $op:ident $bin:ident: $bound:ident => $out:ty) => {
        impl<T, S, D, R, Rhs> $Trait<Rhs> for $($by_ref)? TensorBase<T, S, D, R>
        where
            T: ResultTypes,
            S: Shape + BroadcastWith<Rhs::Shape>,
            D: Backend,
            R: Data<D>,
            Rhs: Operand<D>,
            Rhs::Elem: SameDType<T> + $bound,
            Rhs::Device: SameDevice<D>,
        {
            type Output = Tensor<$out, Broadcasted<S, Rhs::Shape>, D>;

            #[track_caller]
            fn $op(self, rhs: Rhs) -> Self::Output {
                or_panic(self.binary_op(BinaryOp::$bin, &rhs))
            }
        }
    };
}

operator! {
    Add add Add: Element => T;
    Sub sub Sub: Number => T;
    Mul mul Mul: Element => T;
    Div div Div: Element => <T as ResultTypes>::Quotient;
    Rem rem Rem: Number => T;
}

/// `tensor op= rhs` in place, as the method `add_` and its kin.
///
/// The element bound is on the operand's type (equal to `T`), which makes
/// rustc print its message instead of "cannot use `/=`".
macro_rules! assign {
    ($($Trait:ident $op:ident $bin:ident: $bound:ident;)*) => {$(
        impl<T, S, D, R, Rhs> $Trait<Rhs> for TensorBase<T, S, D, R>
        where
            T: Element,
            S: Shape + InPlace<Rhs::Shape>,
            D: Backend,
            R: DataMut<D>,
            Rhs: Operand<D>,
            Rhs::Elem: SameDType<T> + $bound,
            Rhs::Device: SameDevice<D>,
        {
            #[track_caller]
            fn $op(&mut self, rhs: Rhs) {
                or_panic(self.binary_op_(BinaryOp::$bin, &rhs));
            }
        }
    )*};
}

assign! {
    AddAssign add_assign Add: Element;
    SubAssign sub_assign Sub: Number;
    MulAssign mul_assign Mul: Element;
    DivAssign div_assign Div: Float;
    RemAssign rem_assign Rem: Number;
}

/// `-tensor` for borrowed and owned tensors, as the method `neg`.
macro_rules! negation {
    ($([$($by_ref:tt)?])*) => {$(
        impl<T: Number, S: Shape, D: Backend, R: Data<D>> Neg for $($by_ref)? TensorBase<T, S, D, R> {
            type Output = Tensor<T, S, D>;

            #[track_caller]
            fn neg(self) -> Tensor<T, S, D> {
                TensorBase::neg(&self)
            }
        }
    )*};
}
negation!([&] []);

/// `op(scalar, tensor)`: the scalar on the left, passed to the kernel as an
/// argument.
fn scalar_first<T: Element, U, S: Shape, D: Backend, R: Data<D>>(
    op: BinaryOp,
    scalar: T,
    tensor: &TensorBase<T, S, D, R>,
) -> Result<Tensor<U, S, D>> {
    tensor
        .raw()
        .scalar_binary(op, Scalar::of(scalar))
        .map(owned)
}

/// `scalar op tensor` for each number type.
macro_rules! scalar_first {
    ($($t:ty),*) => {$(
        scalar_first!(@op $t, Add add Add => $t);
        scalar_first!(@op $t, Sub sub Sub => $t);
        scalar_first!(@op $t, Mul mul Mul => $t);
        scalar_first!(@op $t, Div div Div => <$t as ResultTypes>::Quotient);
    )*};
    (@op $t:ty, $Trait:ident $op:ident $bin:ident => $out:ty) => {
        scalar_first!(@impl [&] $t, $Trait $op $bin => $out);
        scalar_first!(@impl [] $t, $Trait $op $bin => $out);
    };
    (@impl [$($by_ref:tt)?] $t:ty, $Trait:ident $op:ident $bin:ident => $out:ty) => {
        impl<S: Shape, D: Backend, R: Data<D>> $Trait<$($by_ref)? TensorBase<$t, S, D, R>> for $t {
            type Output = Tensor<$out, S, D>;

            #[track_caller]
            fn $op(self, rhs: $($by_ref)? TensorBase<$t, S, D, R>) -> Self::Output {
                or_panic(scalar_first(BinaryOp::$bin, self, &rhs))
            }
        }
    };
}

scalar_first!(u8, i8, i16, i32, i64, f16, bf16, f32, f64);
