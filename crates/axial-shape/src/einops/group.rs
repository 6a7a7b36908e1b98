//! A group of the left side, `(H P)`, decomposing one axis: the sizes given
//! (a literal is a typenum number, a run-time value `Dyn`), and the one size
//! left to infer, which is the axis' size divided by the others (static when
//! every size involved is, proven to divide; else `Dyn`, checked at run time).

use core::ops::{Div, Rem};

use typenum::{IsEqual, U0, U1, UInt, UTerm, Unsigned};

use super::report::{PatternDivides, PatternProduct};
use crate::logic::{B0, B1, Truth, Unknown};
use crate::shape::{Ax, Cons, Marker, Nil};
use crate::size::{Dyn, Size, SizeEq, SizeMul, SizeProd, StaticSize};

/// In a group: the axis `A` of the size `Given`, a typenum number, `Dyn`
/// (given at run time), or [`Infer`].
pub struct Part<A, Given>(Marker<(A, Given)>);

/// In a group: the one size inferred from the axis' size and the others.
pub struct Infer;

/// The parts `Self` of a group decomposing the axis `N` of size `Sz`: its
/// elementary axes, sizes checked or inferred. `GDisp` is the group as it
/// prints, `Pat` and `Disp` the left side and the shape.
pub trait Decompose<Sz, N, GDisp, Pat, Disp> {
    /// The elementary axes.
    type Out;
}

impl<Parts, Sz, N, GDisp, Pat, Disp> Decompose<Sz, N, GDisp, Pat, Disp> for Parts
where
    Parts: Given,
    Parts::Infers: Solve<Parts::Known, Sz, N, GDisp, Pat, Disp>,
    Parts: Resolve<<Parts::Infers as Solve<Parts::Known, Sz, N, GDisp, Pat, Disp>>::Inferred>,
{
    type Out = <Parts as Resolve<
        <Parts::Infers as Solve<Parts::Known, Sz, N, GDisp, Pat, Disp>>::Inferred,
    >>::Out;
}

/// What the sizes given in a group say.
pub trait Given {
    /// Their product.
    type Known: Size;
    /// `B1` when a size is to be inferred.
    type Infers;
}
impl Given for Nil {
    type Known = U1;
    type Infers = B0;
}
impl<A, G: GivenSize<T::Known, T::Infers>, T: Given> Given for Cons<Part<A, G>, T> {
    type Known = G::Known;
    type Infers = G::Infers;
}

/// One part's size folded into the product `K` of the others.
pub trait GivenSize<K, I> {
    /// The new product.
    type Known: Size;
    /// Whether a size is inferred.
    type Infers;
}
impl<K: Size, I> GivenSize<K, I> for Infer {
    type Known = K;
    type Infers = B1;
}
impl<K: Size, I> GivenSize<K, I> for Dyn {
    type Known = Dyn;
    type Infers = I;
}
impl<K: Size, I> GivenSize<K, I> for UTerm
where
    UTerm: SizeMul<K>,
{
    type Known = SizeProd<UTerm, K>;
    type Infers = I;
}
impl<U, B, K: Size, I> GivenSize<K, I> for UInt<U, B>
where
    UInt<U, B>: SizeMul<K>,
{
    type Known = SizeProd<UInt<U, B>, K>;
    type Infers = I;
}

/// The check of a group (`Self`: whether a size is inferred) and the
/// inferred size.
pub trait Solve<Known, Sz, N, GDisp, Pat, Disp> {
    /// The inferred size (`Dyn` when none is inferred; unused then).
    type Inferred;
}
impl<Known: SizeEq<Sz>, Sz, N, GDisp, Pat, Disp> Solve<Known, Sz, N, GDisp, Pat, Disp> for B0
where
    Known::Out: PatternProduct<N, GDisp, Pat, Disp>,
{
    type Inferred = Dyn;
}
impl<Known, Sz: SizeDiv<Known>, N, GDisp, Pat, Disp> Solve<Known, Sz, N, GDisp, Pat, Disp> for B1
where
    Sz::Divides: PatternDivides<N, GDisp, Pat, Disp>,
{
    type Inferred = Sz::Quot;
}

/// The parts as axes, [`Infer`] given the inferred size.
pub trait Resolve<Inferred> {
    /// The axes.
    type Out;
}
impl<Inferred> Resolve<Inferred> for Nil {
    type Out = Nil;
}
impl<A, G: SizeOr<Inferred>, T: Resolve<Inferred>, Inferred> Resolve<Inferred>
    for Cons<Part<A, G>, T>
{
    type Out = Ax<A, G::Out, T::Out>;
}

/// A given size, or the other one (`Inferred`) for [`Infer`] and `Dyn`
/// (a `Dyn` given size is checked at run time against an inferred one, so
/// the inferred one is as good and may be static).
pub trait SizeOr<Inferred> {
    /// The size.
    type Out;
}
impl<Inferred> SizeOr<Inferred> for Infer {
    type Out = Inferred;
}
impl<Inferred> SizeOr<Inferred> for Dyn {
    type Out = Inferred;
}
impl<Inferred> SizeOr<Inferred> for UTerm {
    type Out = UTerm;
}
impl<U, B, Inferred> SizeOr<Inferred> for UInt<U, B> {
    type Out = UInt<U, B>;
}

/// The quotient of two sizes and whether it is exact: static when both are,
/// else `Dyn` (and the check is left to run time).
///
/// ```
/// use axial_shape::Truth;
/// use axial_shape::einops::SizeDiv;
/// use typenum::{U2, U3, U4, U6};
/// assert_eq!(<<U6 as SizeDiv<U2>>::Quot as typenum::Unsigned>::USIZE, 3);
/// assert_eq!(<<U6 as SizeDiv<U4>>::Divides as Truth>::VALUE, Some(false));
/// assert_eq!(<<axial_shape::Dyn as SizeDiv<U3>>::Divides as Truth>::VALUE, None);
/// ```
pub trait SizeDiv<B> {
    /// The quotient.
    type Quot: Size;
    /// `B1` when `B` divides `Self`, `B0` when not, `Unknown` with `Dyn`.
    type Divides: Truth;
}
impl<B: Size> SizeDiv<B> for Dyn {
    type Quot = Dyn;
    type Divides = Unknown;
}
impl<A: StaticSize> SizeDiv<Dyn> for A {
    type Quot = Dyn;
    type Divides = Unknown;
}
impl<A, B> SizeDiv<B> for A
where
    A: StaticSize + Div<B> + Rem<B>,
    B: StaticSize,
    <A as Div<B>>::Output: Size + Unsigned,
    <A as Rem<B>>::Output: IsEqual<U0>,
    <<A as Rem<B>>::Output as IsEqual<U0>>::Output: Truth,
{
    type Quot = <A as Div<B>>::Output;
    type Divides = <<A as Rem<B>>::Output as IsEqual<U0>>::Output;
}
