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
use axial_shape::{InPlace, Shape};
use half::{bf16, f16};

use super::dtype::{Addable, Divisible, Number, RealNumber, ResultTypes, SameDType};
use super::operand::{OpShape, Operand};
use crate::access::owned;
use crate::device::SameDevice;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::{Data, DataMut};
use crate::tensor::{Tensor, TensorBase};

/// `tensor op rhs` for borrowed and owned tensors, as the method `add` and
/// its kin. The element bound is on the operand's type (equal to `T`),
/// which makes rustc print its message instead of "cannot subtract".
///
/// One impl per operator and `self` kind, generic over the operand, so that
/// a wrong operand reports the bound it fails (two impls would give "cannot
/// add"). The result's shape is [`OpShape`]'s: a scalar operand gives
/// `self`'s shape as it is, so `Tensor::randn(rng) * 0.125` takes its shape
/// from the type it is assigned to.
macro_rules! operator {
    ($($Trait:ident $op:ident $bin:ident: $bound:ident => $out:ty;)*) => {$(
        operator!(@impl [&] $Trait $op $bin: $bound => $out);
        operator!(@impl [] $Trait $op $bin: $bound => $out);
    )*};
    (@impl [$($by_ref:tt)?] $Trait:ident $op:ident $bin:ident: $bound:ident => $out:ty) => {
        impl<T, S, D, R, Rhs> $Trait<Rhs> for $($by_ref)? TensorBase<T, S, D, R>
        where
            T: Element,
            S: Shape,
            D: Backend,
            R: Data<D>,
            Rhs: Operand<D> + OpShape<S>,
            Rhs::Elem: SameDType<T> + $bound,
            Rhs::Device: SameDevice<D>,
        {
            type Output = Tensor<$out, <Rhs as OpShape<S>>::Out, D>;

            #[track_caller]
            fn $op(self, rhs: Rhs) -> Self::Output {
                or_panic(self.binary_op(BinaryOp::$bin, &rhs))
            }
        }
    };
}

operator! {
    Add add Add: Addable => T;
    Sub sub Sub: Number => T;
    Mul mul Mul: Element => T;
    // The quotient's type from the operand's (equal to `T`), so that `T`
    // needs no bound that would hide `Divisible`'s message.
    Div div Div: Divisible => <Rhs::Elem as ResultTypes>::Quotient;
    Rem rem Rem: RealNumber => T;
}

/// The operand of `tensor op= rhs`, writing into a tensor over the storage
/// kind `R`: the write needs `R: DataMut<D>`, asked here, on the operand,
/// so that on a read-only tensor rustc says so in [`DataMut`]'s words (a
/// bound on `R` itself gives "cannot use `+=` on type `TensorBase<…>`").
#[doc(hidden)]
pub trait AssignInto<R, D: Backend>: Operand<D> {
    /// `target = op(target, self)`.
    fn assign_into<T: Element, S: Shape>(
        &self,
        op: BinaryOp,
        target: &mut TensorBase<T, S, D, R>,
    ) -> Result<()>
    where
        Self::Device: SameDevice<D>;
}

impl<Rhs: Operand<D>, R: DataMut<D>, D: Backend> AssignInto<R, D> for Rhs {
    fn assign_into<T: Element, S: Shape>(
        &self,
        op: BinaryOp,
        target: &mut TensorBase<T, S, D, R>,
    ) -> Result<()>
    where
        Self::Device: SameDevice<D>,
    {
        target.binary_op_(op, self)
    }
}

/// `tensor op= rhs` in place, as the method `add_` and its kin.
///
/// The element bound is on the operand's type (equal to `T`), and so is the
/// writability of `self` ([`AssignInto`]), which makes rustc print their
/// messages instead of "cannot use `/=`".
macro_rules! assign {
    ($($Trait:ident $op:ident $bin:ident: $bound:ident;)*) => {$(
        impl<T, S, D, R, Rhs> $Trait<Rhs> for TensorBase<T, S, D, R>
        where
            T: Element,
            S: Shape + InPlace<Rhs::Shape>,
            D: Backend,
            R: Data<D>,
            Rhs: AssignInto<R, D>,
            Rhs::Elem: SameDType<T> + $bound,
            Rhs::Device: SameDevice<D>,
        {
            #[track_caller]
            fn $op(&mut self, rhs: Rhs) {
                or_panic(rhs.assign_into(BinaryOp::$bin, self));
            }
        }
    )*};
}

assign! {
    AddAssign add_assign Add: Addable;
    SubAssign sub_assign Sub: Number;
    MulAssign mul_assign Mul: Element;
    DivAssign div_assign Div: Float;
    RemAssign rem_assign Rem: RealNumber;
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
