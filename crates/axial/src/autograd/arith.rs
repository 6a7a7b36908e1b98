//! `+ − × ÷` between tracked tensors, untracked tensors and numbers, with
//! broadcasting by name (each gradient summed over the axes its operand
//! was broadcast along), and the in-place `+= −= ×= ÷=` on [`Writable`]
//! tracked tensors.
//!
//! What each op keeps decides the result's lifetime, as PyTorch decides
//! what it saves: a sum keeps nothing, so `&a + &b` borrows neither; a
//! product keeps each factor when the other needs a gradient, so `&a * &b`
//! of two writable tracked tensors borrows both (a kept one cannot be
//! written, and one given by value is gone, so neither is borrowed), and
//! `&a * &w` with `w` untracked borrows `w` only (`a` may then be written
//! in place, as in PyTorch); a quotient keeps its denominator, and its
//! numerator when the denominator needs a gradient.

use std::borrow::Borrow;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use axial_core::autograd::Var as CoreVar;
use axial_core::{Backend, BinaryOp, Result, Scalar};
use axial_shape::{BroadcastWith, Broadcasted, InPlace, Shape};
use half::{bf16, f16};

use super::var::{Kept, Var, Writable, WriteInPlace};
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::TensorBase;

/// `op(a, b)` of two tracked tensors (their lifetimes unified to `'o`, a
/// shortening: the result lives no longer than either).
fn tracked<'o, T, S, S2, S3, D: Backend, W, W2>(
    op: BinaryOp,
    a: &Var<'o, T, S, D, W>,
    b: &Var<'o, T, S2, D, W2>,
) -> Result<Var<'o, T, S3, D>> {
    Ok(Var::from_core(a.core()?.binary(op, &*b.core()?)?))
}

/// `op(a, t)` (or `op(t, a)` when `t_first`) with `t` untracked and kept
/// (the result borrows it).
fn kept_tensor<'o, T: Float, S, S2, S3, D: Backend, W, R: Data<D>>(
    op: BinaryOp,
    a: &Var<'o, T, S, D, W>,
    t: &'o TensorBase<T, S2, D, R>,
    t_first: bool,
) -> Result<Var<'o, T, S3, D>> {
    let c = CoreVar::constant_ref(t.raw());
    let a = a.core()?;
    let out = match t_first {
        true => c.binary(op, &a)?,
        false => a.binary(op, &c)?,
    };
    Ok(Var::from_core(out))
}

/// `op(a, t)` (or `op(t, a)`) with `t` untracked and not kept.
fn free_tensor<'g, T: Float, S, S2, S3, D: Backend, W, R: Data<D>>(
    op: BinaryOp,
    a: &Var<'g, T, S, D, W>,
    t: &TensorBase<T, S2, D, R>,
    t_first: bool,
) -> Result<Var<'g, T, S3, D>> {
    Ok(Var::from_core(a.core()?.binary_untracked(
        op,
        &t.raw(),
        t_first,
    )?))
}

/// `op(a, s)` (or `op(s, a)` when `s_first`) with a number.
fn number<'g, T: Float, S, D: Backend, W>(
    op: BinaryOp,
    a: &Var<'g, T, S, D, W>,
    s: T,
    s_first: bool,
) -> Result<Var<'g, T, S, D>> {
    let s = Scalar::Float(s.to_f64());
    let a = a.core()?;
    Ok(Var::from_core(match s_first {
        true => a.scalar_binary(op, s)?,
        false => a.binary_scalar(op, s)?,
    }))
}

/// The operators that keep nothing (`+`, `−`): no borrow in the result.
macro_rules! free_ops {
    ($($Trait:ident $method:ident $op:ident;)*) => {$(
        free_ops!(@lhs [&] $Trait $method $op);
        free_ops!(@lhs [] $Trait $method $op);
        free_ops!(@number $Trait $method $op: f16, bf16, f32, f64);
    )*};
    (@lhs [$($r:tt)?] $Trait:ident $method:ident $op:ident) => {
        impl<'g, T: Float, S, S2, D: Backend, W, W2> $Trait<&Var<'g, T, S2, D, W2>>
            for $($r)? Var<'g, T, S, D, W>
        where
            S: BroadcastWith<S2>,
        {
            type Output = Var<'g, T, Broadcasted<S, S2>, D>;

            #[track_caller]
            fn $method(self, rhs: &Var<'g, T, S2, D, W2>) -> Self::Output {
                or_panic(tracked(BinaryOp::$op, &self, rhs))
            }
        }

        impl<'g, T: Float, S, S2, D: Backend, W, W2> $Trait<Var<'g, T, S2, D, W2>>
            for $($r)? Var<'g, T, S, D, W>
        where
            S: BroadcastWith<S2>,
        {
            type Output = Var<'g, T, Broadcasted<S, S2>, D>;

            #[track_caller]
            fn $method(self, rhs: Var<'g, T, S2, D, W2>) -> Self::Output {
                or_panic(tracked(BinaryOp::$op, &self, &rhs))
            }
        }

        impl<'g, T: Float, S, S2, D: Backend, W, R: Data<D>> $Trait<&TensorBase<T, S2, D, R>>
            for $($r)? Var<'g, T, S, D, W>
        where
            S: BroadcastWith<S2>,
        {
            type Output = Var<'g, T, Broadcasted<S, S2>, D>;

            #[track_caller]
            fn $method(self, rhs: &TensorBase<T, S2, D, R>) -> Self::Output {
                or_panic(free_tensor(BinaryOp::$op, &self, rhs, false))
            }
        }

        impl<'g, T: Float, S, D: Backend, W> $Trait<T> for $($r)? Var<'g, T, S, D, W> {
            type Output = Var<'g, T, S, D>;

            #[track_caller]
            fn $method(self, rhs: T) -> Self::Output {
                or_panic(number(BinaryOp::$op, &self, rhs, false))
            }
        }
    };
    (@number $Trait:ident $method:ident $op:ident: $($t:ty),*) => {$(
        impl<'g, S, D: Backend, W> $Trait<&Var<'g, $t, S, D, W>> for $t {
            type Output = Var<'g, $t, S, D>;

            #[track_caller]
            fn $method(self, rhs: &Var<'g, $t, S, D, W>) -> Self::Output {
                or_panic(number(BinaryOp::$op, rhs, self, true))
            }
        }

        impl<'g, S, D: Backend, W> $Trait<Var<'g, $t, S, D, W>> for $t {
            type Output = Var<'g, $t, S, D>;

            #[track_caller]
            fn $method(self, rhs: Var<'g, $t, S, D, W>) -> Self::Output {
                or_panic(number(BinaryOp::$op, &rhs, self, true))
            }
        }
    )*};
}

free_ops! {
    Add add Add;
    Sub sub Sub;
}

/// One impl of `×` or `÷` between two tracked tensors: the operand forms
/// and the result's lifetime (a writable operand given by reference is
/// borrowed, since the op keeps it; a kept one cannot be written, and one
/// given by value is gone, so neither is).
macro_rules! kept_pair {
    ($Trait:ident $method:ident $op:ident: [$($generics:tt)*] $L:ty, $R:ty => $out:lifetime) => {
        impl<$($generics)* T: Float, S, S2, D: Backend> $Trait<$R> for $L
        where
            S: BroadcastWith<S2>,
        {
            type Output = Var<$out, T, Broadcasted<S, S2>, D>;

            #[track_caller]
            fn $method(self, rhs: $R) -> Self::Output {
                or_panic(tracked(BinaryOp::$op, self.borrow(), rhs.borrow()))
            }
        }
    };
}

/// The operators that keep their operands (`×`, `÷`): each tracked operand
/// is kept for the other's gradient, an untracked tensor is kept (and
/// borrowed) while the tracked one is not (PyTorch keeps a factor only
/// when the other needs a gradient, and a numerator only when the
/// denominator does).
macro_rules! kept_ops {
    ($($Trait:ident $method:ident $op:ident;)*) => {$(
        kept_pair!($Trait $method $op: ['a, 'g: 'a,] &'a Var<'g, T, S, D, Writable>, &'a Var<'g, T, S2, D, Writable> => 'a);
        kept_pair!($Trait $method $op: ['a, 'g: 'a,] &'a Var<'g, T, S, D, Writable>, &Var<'g, T, S2, D, Kept> => 'a);
        kept_pair!($Trait $method $op: ['a, 'g: 'a, W2,] &'a Var<'g, T, S, D, Writable>, Var<'g, T, S2, D, W2> => 'a);
        kept_pair!($Trait $method $op: ['a, 'g: 'a,] &Var<'g, T, S, D, Kept>, &'a Var<'g, T, S2, D, Writable> => 'a);
        kept_pair!($Trait $method $op: ['g,] &Var<'g, T, S, D, Kept>, &Var<'g, T, S2, D, Kept> => 'g);
        kept_pair!($Trait $method $op: ['g, W2,] &Var<'g, T, S, D, Kept>, Var<'g, T, S2, D, W2> => 'g);
        kept_pair!($Trait $method $op: ['a, 'g: 'a, W,] Var<'g, T, S, D, W>, &'a Var<'g, T, S2, D, Writable> => 'a);
        kept_pair!($Trait $method $op: ['g, W,] Var<'g, T, S, D, W>, &Var<'g, T, S2, D, Kept> => 'g);
        kept_pair!($Trait $method $op: ['g, W, W2,] Var<'g, T, S, D, W>, Var<'g, T, S2, D, W2> => 'g);

        // An untracked tensor: kept (the tracked side needs a gradient), so
        // borrowed; the tracked side is not kept.
        impl<'t, 'g: 't, T: Float, S, S2, D: Backend, W, R: Data<D>> $Trait<&'t TensorBase<T, S2, D, R>>
            for &Var<'g, T, S, D, W>
        where
            S: BroadcastWith<S2>,
        {
            type Output = Var<'t, T, Broadcasted<S, S2>, D>;

            #[track_caller]
            fn $method(self, rhs: &'t TensorBase<T, S2, D, R>) -> Self::Output {
                or_panic(kept_tensor(BinaryOp::$op, self, rhs, false))
            }
        }

        impl<'t, 'g: 't, T: Float, S, S2, D: Backend, W, R: Data<D>> $Trait<&'t TensorBase<T, S2, D, R>>
            for Var<'g, T, S, D, W>
        where
            S: BroadcastWith<S2>,
        {
            type Output = Var<'t, T, Broadcasted<S, S2>, D>;

            #[track_caller]
            fn $method(self, rhs: &'t TensorBase<T, S2, D, R>) -> Self::Output {
                or_panic(kept_tensor(BinaryOp::$op, &self, rhs, false))
            }
        }

        impl<'g, T: Float, S, D: Backend, W> $Trait<T> for &Var<'g, T, S, D, W> {
            type Output = Var<'g, T, S, D>;

            #[track_caller]
            fn $method(self, rhs: T) -> Self::Output {
                or_panic(number(BinaryOp::$op, self, rhs, false))
            }
        }

        impl<'g, T: Float, S, D: Backend, W> $Trait<T> for Var<'g, T, S, D, W> {
            type Output = Var<'g, T, S, D>;

            #[track_caller]
            fn $method(self, rhs: T) -> Self::Output {
                or_panic(number(BinaryOp::$op, &self, rhs, false))
            }
        }

        kept_ops!(@number $Trait $method $op: f16, bf16, f32, f64);
    )*};
    (@number $Trait:ident $method:ident $op:ident: $($t:ty),*) => {$(
        impl<'g, S, D: Backend, W> $Trait<&Var<'g, $t, S, D, W>> for $t {
            type Output = Var<'g, $t, S, D>;

            #[track_caller]
            fn $method(self, rhs: &Var<'g, $t, S, D, W>) -> Self::Output {
                or_panic(number(BinaryOp::$op, rhs, self, true))
            }
        }

        impl<'g, S, D: Backend, W> $Trait<Var<'g, $t, S, D, W>> for $t {
            type Output = Var<'g, $t, S, D>;

            #[track_caller]
            fn $method(self, rhs: Var<'g, $t, S, D, W>) -> Self::Output {
                or_panic(number(BinaryOp::$op, &rhs, self, true))
            }
        }
    )*};
}

kept_ops! {
    Mul mul Mul;
    Div div Div;
}

impl<'g, T: Float, S, D: Backend, W> Neg for &Var<'g, T, S, D, W>
where
    S: Shape,
{
    type Output = Var<'g, T, S, D>;

    #[track_caller]
    fn neg(self) -> Self::Output {
        Var::neg(self)
    }
}

impl<'g, T: Float, S, D: Backend, W> Neg for Var<'g, T, S, D, W>
where
    S: Shape,
{
    type Output = Var<'g, T, S, D>;

    #[track_caller]
    fn neg(self) -> Self::Output {
        Var::neg(&self)
    }
}

impl<'g, T: Float, S, D: Backend, W> Var<'g, T, S, D, W> {
    /// `self = op(self, other)` with a tracked `other` (kept for `'g` when
    /// the op keeps it).
    fn tracked_(
        &mut self,
        op: BinaryOp,
        other: &Var<'g, T, impl Sized, D, impl Sized>,
    ) -> Result<()> {
        self.own_base()?;
        let other = other.core()?;
        self.var.binary_(op, &other)
    }

    /// `self = op(self, t)` with an untracked `t` kept for `'g`.
    fn kept_tensor_<R: Data<D>>(
        &mut self,
        op: BinaryOp,
        t: &'g TensorBase<T, impl Sized, D, R>,
    ) -> Result<()> {
        self.own_base()?;
        self.var.binary_(op, &CoreVar::constant_ref(t.raw()))?;
        Ok(())
    }

    /// `self = op(self, t)` with an untracked `t` the op does not keep.
    fn free_tensor_<R: Data<D>>(
        &mut self,
        op: BinaryOp,
        t: &TensorBase<T, impl Sized, D, R>,
    ) -> Result<()> {
        self.own_base()?;
        self.var.binary_untracked_(op, &t.raw())
    }

    /// `self = op(self, s)` with a number.
    fn number_(&mut self, op: BinaryOp, s: T) -> Result<()> {
        self.own_base()?;
        self.var.binary_scalar_(op, Scalar::Float(s.to_f64()))
    }

    /// `self += s` in place with a number (PyTorch's `add_`), recorded.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![2]>::ones();
    /// let mut h = x.track() * 2.0;
    /// h.try_add_(1.0)?;
    /// assert_eq!(h.value().to_vec(), vec![3.0, 3.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_add_(&mut self, s: T) -> Result<()>
    where
        W: WriteInPlace,
    {
        self.number_(BinaryOp::Add, s)
    }

    /// `self += s` in place with a number.
    ///
    /// # Panics
    /// As [`try_add_`](Self::try_add_), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![2]>::ones();
    /// let mut h = x.track() * 2.0;
    /// h.add_(1.0);
    /// assert_eq!(h.value().to_vec(), vec![3.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn add_(&mut self, s: T)
    where
        W: WriteInPlace,
    {
        or_panic(self.try_add_(s));
    }

    /// `self *= s` in place with a number (PyTorch's `mul_`), recorded.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![2]>::ones();
    /// let mut h = x.track() + 1.0;
    /// h.try_mul_(0.5)?;
    /// assert_eq!(h.value().to_vec(), vec![1.0, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_mul_(&mut self, s: T) -> Result<()>
    where
        W: WriteInPlace,
    {
        self.number_(BinaryOp::Mul, s)
    }

    /// `self *= s` in place with a number.
    ///
    /// # Panics
    /// As [`try_mul_`](Self::try_mul_), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![2]>::ones();
    /// let mut h = x.track() + 1.0;
    /// h.mul_(0.5);
    /// assert_eq!(h.value().to_vec(), vec![1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn mul_(&mut self, s: T)
    where
        W: WriteInPlace,
    {
        or_panic(self.try_mul_(s));
    }
}

/// The compound assignments on writable tracked tensors. `+=` and `−=`
/// keep nothing of the other operand; `×=` and `÷=` keep it (a tracked
/// operand, or an untracked tensor), so it stays borrowed for the graph's
/// lifetime `'g`.
macro_rules! assign_ops {
    ($($Trait:ident $method:ident $op:ident: [$($kept:lifetime)?] $tensor:ident;)*) => {$(
        impl<'g, T: Float, S, S2, D: Backend, W: WriteInPlace, W2> $Trait<&$($kept)? Var<'g, T, S2, D, W2>>
            for Var<'g, T, S, D, W>
        where
            S: InPlace<S2>,
        {
            #[track_caller]
            fn $method(&mut self, rhs: &$($kept)? Var<'g, T, S2, D, W2>) {
                or_panic(self.tracked_(BinaryOp::$op, rhs));
            }
        }

        impl<'g, T: Float, S, S2, D: Backend, W: WriteInPlace, R: Data<D>> $Trait<&$($kept)? TensorBase<T, S2, D, R>>
            for Var<'g, T, S, D, W>
        where
            S: InPlace<S2>,
        {
            #[track_caller]
            fn $method(&mut self, rhs: &$($kept)? TensorBase<T, S2, D, R>) {
                or_panic(self.$tensor(BinaryOp::$op, rhs));
            }
        }

        impl<'g, T: Float, S, D: Backend, W: WriteInPlace> $Trait<T> for Var<'g, T, S, D, W> {
            #[track_caller]
            fn $method(&mut self, rhs: T) {
                or_panic(self.number_(BinaryOp::$op, rhs));
            }
        }
    )*};
}

assign_ops! {
    AddAssign add_assign Add: [] free_tensor_;
    SubAssign sub_assign Sub: [] free_tensor_;
    MulAssign mul_assign Mul: ['g] kept_tensor_;
    DivAssign div_assign Div: ['g] kept_tensor_;
}
