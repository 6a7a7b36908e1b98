//! The identity of an axis name, compared without the names' types.
//!
//! Names are equal when they are spelled alike (as PyTorch's string names).
//! `axes!` gives each name a 64-bit hash of its spelling as a balanced tree of
//! bits ([`Nd`] of [`B0`]/[`B1`]), so two names compare in a few steps when
//! they differ and in log2(64) levels of recursion when they are equal. An
//! anonymous axis `Anon<i>` is [`Pos`] of its position. Because equality is a
//! type-level truth and not type unification, the compiler can prove two
//! names *different*, which duplicate checks need.

use core::marker::PhantomData;

use typenum::IsEqual;

use crate::logic::{B0, B1, Truth};

/// A named axis' identity: a tree of the bits of its spelling's hash.
pub struct Named<Bits>(PhantomData<fn() -> Bits>);
/// A node of an identity tree.
pub struct Nd<L, R>(PhantomData<fn() -> (L, R)>);
/// An anonymous axis' identity: its position in `shape!` (a typenum number).
pub struct Pos<U>(PhantomData<fn() -> U>);
/// The identity of an axis already taken by an alignment: equal to nothing.
pub struct Gone;

/// `Out` is [`B1`] when two identities are the same name, else [`B0`].
pub trait IdEq<Other> {
    /// The answer.
    type Out: Truth;
}

impl<A: TreeEq<B>, B> IdEq<Named<B>> for Named<A> {
    type Out = A::Out;
}
impl<U: IsEqual<V>, V> IdEq<Pos<V>> for Pos<U>
where
    U::Output: crate::logic::Answer,
{
    type Out = crate::logic::TruthOf<U::Output>;
}
impl<A, V> IdEq<Pos<V>> for Named<A> {
    type Out = B0;
}
impl<U, B> IdEq<Named<B>> for Pos<U> {
    type Out = B0;
}
impl<A> IdEq<Gone> for Named<A> {
    type Out = B0;
}
impl<U> IdEq<Gone> for Pos<U> {
    type Out = B0;
}
impl<Other> IdEq<Other> for Gone {
    type Out = B0;
}

/// Equality of two bit trees of the same shape, leftmost bit first, stopping
/// at the first difference.
pub trait TreeEq<Other> {
    /// The answer.
    type Out: Truth;
}

impl TreeEq<B0> for B0 {
    type Out = B1;
}
impl TreeEq<B1> for B1 {
    type Out = B1;
}
impl TreeEq<B1> for B0 {
    type Out = B0;
}
impl TreeEq<B0> for B1 {
    type Out = B0;
}
impl<L1: TreeEq<L2>, R1, L2, R2> TreeEq<Nd<L2, R2>> for Nd<L1, R1>
where
    L1::Out: ThenCompare<R1, R2>,
{
    type Out = <L1::Out as ThenCompare<R1, R2>>::Out;
}

/// After the left halves: unequal stops, equal compares the right halves.
pub trait ThenCompare<R1, R2> {
    /// The answer.
    type Out: Truth;
}
impl<R1, R2> ThenCompare<R1, R2> for B0 {
    type Out = B0;
}
impl<R1: TreeEq<R2>, R2> ThenCompare<R1, R2> for B1 {
    type Out = R1::Out;
}

/// What kind of identity: `Taken` is `B1` for an axis an alignment took,
/// `Anon` is `B1` for an anonymous axis.
pub trait IdKind {
    /// `B1` for [`Gone`].
    type Taken;
    /// `B1` for [`Pos`].
    type Anon;
}
impl<T> IdKind for Named<T> {
    type Taken = B0;
    type Anon = B0;
}
impl<U> IdKind for Pos<U> {
    type Taken = B0;
    type Anon = B1;
}
impl IdKind for Gone {
    type Taken = B1;
    type Anon = B0;
}

/// The identity of a declared (not anonymous, not taken) name.
pub trait NamedId {}
impl<Bits> NamedId for Named<Bits> {}
