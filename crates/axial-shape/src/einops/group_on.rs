//! Which groups of a left side may split which axis.
//!
//! A group on a named axis is made of that axis' name and of names the
//! tensor does not have: `(Inner P)` on `Inner` (the part `Inner` keeps the
//! name, with the size left after the others) or `(Heads HeadDim)` on
//! `Inner` (the axis is gone, its parts are new axes). What it may not do is
//! use the name of another axis of the tensor: `(Width P)` on `Height` gives
//! the name `Width` to a part of `Height`, and `(Height Width)` on `Height`
//! does too, so the patches of an image cut with its axes mixed up would
//! have the type of the right ones. A merged axis `(H W)` splits back into
//! exactly `(H W)`, or into names the tensor does not have; an anonymous axis
//! takes any group.
//!
//! "The names the tensor has" are its axes' names and, for a merged axis,
//! the names it is made of (at any depth), so `(W H)` is no new name on
//! `(H W)`. The anonymous lengths of a group (`(Rows 2)`) are no names.

use super::group::Part;
use super::names::{ComposedId, IdCons, IdListEq, IdNil, UnnamedId};
use crate::id::{Gone, IdEq, Named, Pos};
use crate::logic::{And, AndWith, B0, B1, Not, NotBit, Or, OrWith, Truth};
use crate::name::AxisName;
use crate::shape::{Ax, Cons, Nil};

/// Whether a group of the left side (its parts `Parts`) may split the axis
/// whose identity is `Self`, in the tensor of shape `Whole` (see the module
/// doc). `Named` answers for a named axis and `Merged` for a merged one
/// (each the verdict of its own compile error, the other `B1`); `Out` is
/// the one that applies.
///
/// ```
/// use axial_shape::einops::{GroupOn, Infer, Part};
/// use axial_shape::{AxisName, Cons, Nil, Truth, axes, shape};
/// use typenum::U4;
/// axes!(Height, Width, P, Heads, HeadDim);
/// type Image = shape![Height: 32, Width: 32];
/// type HeightPatches = Cons<Part<Height, Infer>, Cons<Part<P, U4>, Nil>>;
/// type WidthPatches = Cons<Part<Width, Infer>, Cons<Part<P, U4>, Nil>>;
/// type NewNames = Cons<Part<Heads, U4>, Cons<Part<HeadDim, Infer>, Nil>>;
/// fn on<A: AxisName, Parts>() -> Option<bool>
/// where
///     A::Id: GroupOn<Parts, Image>,
/// {
///     <<A::Id as GroupOn<Parts, Image>>::Out as Truth>::VALUE
/// }
/// assert_eq!(on::<Height, HeightPatches>(), Some(true));
/// assert_eq!(on::<Height, NewNames>(), Some(true));
/// // `Width` is another axis of the tensor, beside `Height` or not.
/// assert_eq!(on::<Height, WidthPatches>(), Some(false));
/// type Both = Cons<Part<Height, Infer>, Cons<Part<Width, U4>, Nil>>;
/// assert_eq!(on::<Height, Both>(), Some(false));
/// assert_eq!(on::<axial_shape::Anon<0>, WidthPatches>(), Some(true));
/// ```
pub trait GroupOn<Parts, Whole> {
    /// On a named axis: whether the group names it or uses new names only.
    type Named: Truth;
    /// On a merged axis: whether the group is its parts or new names only.
    type Merged: Truth;
    /// The verdict.
    type Out: Truth;
}

/// No part of the group is a name the tensor has.
type Fresh<Parts, Whole> = Not<<Parts as PartsUsed<Whole>>::Out>;

impl<Bits, Parts, Whole> GroupOn<Parts, Whole> for Named<Bits>
where
    Parts: PartsUsedBesides<Whole, Named<Bits>>,
    <Parts as PartsUsedBesides<Whole, Named<Bits>>>::Out: NotBit,
{
    type Named = Not<<Parts as PartsUsedBesides<Whole, Named<Bits>>>::Out>;
    type Merged = B1;
    type Out = Self::Named;
}
impl<L, Parts, Whole> GroupOn<Parts, Whole> for ComposedId<L>
where
    Parts: PartIds + PartsUsed<Whole>,
    <Parts as PartsUsed<Whole>>::Out: NotBit,
    Parts::Ids: IdListEq<L>,
    <Parts::Ids as IdListEq<L>>::Out: OrWith<Fresh<Parts, Whole>>,
{
    type Named = B1;
    type Merged = Or<<Parts::Ids as IdListEq<L>>::Out, Fresh<Parts, Whole>>;
    type Out = Self::Merged;
}
/// The anonymous identities take any group.
macro_rules! any_group {
    ($([$($p:ident),*] $id:ty;)*) => {$(
        impl<$($p,)* Parts, Whole> GroupOn<Parts, Whole> for $id {
            type Named = B1;
            type Merged = B1;
            type Out = B1;
        }
    )*};
}
any_group! {
    [U] Pos<U>;
    [U] UnnamedId<U>;
    [] Gone;
}

/// `Out` is `B1` when a part of a group other than the axis `Id` it splits
/// is a name the tensor of shape `Whole` has (an anonymous length never is).
///
/// ```
/// use axial_shape::einops::{Infer, Part, PartsUsedBesides};
/// use axial_shape::{AxisName, Cons, Nil, Truth, axes, shape};
/// use typenum::U2;
/// axes!(H, W, P);
/// type Image = shape![H: 4, W: 6];
/// type Parts<A, B> = Cons<Part<A, Infer>, Cons<Part<B, U2>, Nil>>;
/// fn used<Parts: PartsUsedBesides<Image, <H as AxisName>::Id>>() -> Option<bool> {
///     <Parts::Out as Truth>::VALUE
/// }
/// assert_eq!(used::<Parts<H, P>>(), Some(false));
/// assert_eq!(used::<Parts<H, W>>(), Some(true));
/// ```
pub trait PartsUsedBesides<Whole, Id> {
    /// The answer.
    type Out: Truth;
}
impl<Whole, Id> PartsUsedBesides<Whole, Id> for Nil {
    type Out = B0;
}
impl<A: AxisName, G, T: PartsUsedBesides<Whole, Id>, Whole, Id> PartsUsedBesides<Whole, Id>
    for Cons<Part<A, G>, T>
where
    A::Id: UsedIn<Whole> + IdEq<Id>,
    <A::Id as IdEq<Id>>::Out: NotBit,
    Not<<A::Id as IdEq<Id>>::Out>: AndWith<<A::Id as UsedIn<Whole>>::Out>,
    UsedBesides<A, Whole, Id>: OrWith<T::Out>,
{
    type Out = Or<UsedBesides<A, Whole, Id>, T::Out>;
}

/// The part `A` is not the axis `Id` and is a name the tensor has.
type UsedBesides<A, Whole, Id> =
    And<Not<<<A as AxisName>::Id as IdEq<Id>>::Out>, <<A as AxisName>::Id as UsedIn<Whole>>::Out>;

/// The identities of a group's parts, in order (to compare with a
/// `Composed<..>` axis).
///
/// ```
/// use std::any::TypeId;
/// use axial_shape::einops::{ComposedParts, Infer, Part, PartIds};
/// use axial_shape::{Cons, Nil, axes};
/// axes!(C, H);
/// type Parts = Cons<Part<C, Infer>, Cons<Part<H, typenum::U2>, Nil>>;
/// assert_eq!(TypeId::of::<<Parts as PartIds>::Ids>(), TypeId::of::<<(C, H) as ComposedParts>::Ids>());
/// ```
pub trait PartIds {
    /// The list of identities.
    type Ids;
}
impl PartIds for Nil {
    type Ids = IdNil;
}
impl<A: AxisName, G, T: PartIds> PartIds for Cons<Part<A, G>, T> {
    type Ids = IdCons<A::Id, T::Ids>;
}

/// `Out` is `B1` when a part of a group is a name the tensor of shape
/// `Whole` has (an anonymous length never is).
///
/// ```
/// use axial_shape::einops::{Infer, Part, PartsUsed};
/// use axial_shape::{Composed, Cons, Nil, Truth, Unnamed, axes, shape};
/// use typenum::U2;
/// axes!(H, W, P);
/// type Parts<A> = Cons<Part<A, Infer>, Cons<Part<Unnamed<1>, U2>, Nil>>;
/// type Image = shape![H: 2, W: 6];
/// assert_eq!(<<Parts<W> as PartsUsed<Image>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<Parts<P> as PartsUsed<Image>>::Out as Truth>::VALUE, Some(false));
/// // The names a merged axis is made of are the tensor's too.
/// type Flat = shape![Composed<(H, W)>: 12];
/// assert_eq!(<<Parts<W> as PartsUsed<Flat>>::Out as Truth>::VALUE, Some(true));
/// ```
pub trait PartsUsed<Whole> {
    /// The answer.
    type Out: Truth;
}
impl<Whole> PartsUsed<Whole> for Nil {
    type Out = B0;
}
impl<A: AxisName, G, T: PartsUsed<Whole>, Whole> PartsUsed<Whole> for Cons<Part<A, G>, T>
where
    A::Id: UsedIn<Whole>,
    <A::Id as UsedIn<Whole>>::Out: OrWith<T::Out>,
{
    type Out = Or<<A::Id as UsedIn<Whole>>::Out, T::Out>;
}

/// `Out` is `B1` when the name of identity `Self` is one the tensor of
/// shape `Whole` has; an anonymous length (`Unnamed`) is none.
///
/// ```
/// use axial_shape::einops::UsedIn;
/// use axial_shape::{AxisName, Truth, Unnamed, axes, shape};
/// axes!(H, W);
/// type S = shape![H: 2, Unnamed<1>: 3];
/// assert_eq!(<<<H as AxisName>::Id as UsedIn<S>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<<W as AxisName>::Id as UsedIn<S>>::Out as Truth>::VALUE, Some(false));
/// assert_eq!(<<<Unnamed<1> as AxisName>::Id as UsedIn<S>>::Out as Truth>::VALUE, Some(false));
/// ```
pub trait UsedIn<Whole> {
    /// The answer.
    type Out: Truth;
}
impl<Bits, Whole: ShapeMentions<Named<Bits>>> UsedIn<Whole> for Named<Bits> {
    type Out = Whole::Out;
}
impl<U, Whole: ShapeMentions<Pos<U>>> UsedIn<Whole> for Pos<U> {
    type Out = Whole::Out;
}
impl<L, Whole: ShapeMentions<ComposedId<L>>> UsedIn<Whole> for ComposedId<L> {
    type Out = Whole::Out;
}
impl<U, Whole> UsedIn<Whole> for UnnamedId<U> {
    type Out = B0;
}
impl<Whole> UsedIn<Whole> for Gone {
    type Out = B0;
}

/// `Out` is `B1` when an axis of this shape is the name of identity `Id`
/// or a merged axis made of it ([`Mentions`]).
///
/// ```
/// use axial_shape::einops::ShapeMentions;
/// use axial_shape::{AxisName, Composed, Truth, axes, shape};
/// axes!(B, H, W, C);
/// type S = shape![B: 2, Composed<(H, W)>: 12];
/// assert_eq!(<<S as ShapeMentions<<W as AxisName>::Id>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<S as ShapeMentions<<C as AxisName>::Id>>::Out as Truth>::VALUE, Some(false));
/// ```
pub trait ShapeMentions<Id> {
    /// The answer.
    type Out: Truth;
}
impl<Id> ShapeMentions<Id> for Nil {
    type Out = B0;
}
impl<N: AxisName, Sz, T: ShapeMentions<Id>, Id> ShapeMentions<Id> for Ax<N, Sz, T>
where
    N::Id: Mentions<Id>,
    <N::Id as Mentions<Id>>::Out: OrWith<T::Out>,
{
    type Out = Or<<N::Id as Mentions<Id>>::Out, T::Out>;
}

/// `Out` is `B1` when the identity `Self` is `Id` or, for a merged name,
/// is made of it at any depth (`((H W) C)` mentions `W`).
///
/// ```
/// use axial_shape::einops::Mentions;
/// use axial_shape::{AxisName, Composed, Truth, axes};
/// axes!(H, W, C);
/// type Nested = Composed<(Composed<(H, W)>, C)>;
/// fn mentions<A: AxisName, B: AxisName>() -> Option<bool>
/// where
///     A::Id: Mentions<B::Id>,
/// {
///     <<A::Id as Mentions<B::Id>>::Out as Truth>::VALUE
/// }
/// assert_eq!(mentions::<Nested, W>(), Some(true));
/// assert_eq!(mentions::<Nested, C>(), Some(true));
/// assert_eq!(mentions::<H, W>(), Some(false));
/// ```
pub trait Mentions<Id> {
    /// The answer.
    type Out: Truth;
}
/// Identities that are not made of others mention only themselves.
macro_rules! mentions_itself {
    ($([$($p:ident),*] $id:ty;)*) => {$(
        impl<$($p,)* Id> Mentions<Id> for $id
        where
            $id: IdEq<Id>,
        {
            type Out = <$id as IdEq<Id>>::Out;
        }
    )*};
}
mentions_itself! {
    [Bits] Named<Bits>;
    [U] Pos<U>;
    [U] UnnamedId<U>;
    [] Gone;
}
impl<L: ListMentions<Id>, Id> Mentions<Id> for ComposedId<L>
where
    ComposedId<L>: IdEq<Id>,
    <ComposedId<L> as IdEq<Id>>::Out: OrWith<L::Out>,
{
    type Out = Or<<ComposedId<L> as IdEq<Id>>::Out, L::Out>;
}

/// `Out` is `B1` when an identity of this list [`Mentions`] `Id`.
///
/// ```
/// use axial_shape::einops::{ComposedParts, ListMentions};
/// use axial_shape::{AxisName, Truth, axes};
/// axes!(H, W, C);
/// type Ids = <(H, W) as ComposedParts>::Ids;
/// assert_eq!(<<Ids as ListMentions<<W as AxisName>::Id>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<Ids as ListMentions<<C as AxisName>::Id>>::Out as Truth>::VALUE, Some(false));
/// ```
pub trait ListMentions<Id> {
    /// The answer.
    type Out: Truth;
}
impl<Id> ListMentions<Id> for IdNil {
    type Out = B0;
}
impl<H: Mentions<Id>, T: ListMentions<Id>, Id> ListMentions<Id> for IdCons<H, T>
where
    H::Out: OrWith<T::Out>,
{
    type Out = Or<H::Out, T::Out>;
}
