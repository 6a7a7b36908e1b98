//! The output side of a pattern as a shape: each dim an elementary axis
//! found by name, a new axis, the axes of `...`, or a group merged into one
//! axis named [`Composed`] of its parts (the product of their sizes).

use super::names::Composed;
use crate::display::Flat;
use crate::find::{Append, Concat, Find};
use crate::shape::{Ax, Cons, DisplayOf, Marker, Nil, Shape};

/// An output dim: the elementary axis `A` (of the left side, or new in
/// `repeat`), with its size.
pub struct OutAxis<A>(Marker<A>);

/// An output dim: a new axis `A` of size `Sz` (a unit, or an anonymous
/// length of `repeat`), named `Unnamed<i>`.
pub struct OutNew<A, Sz>(Marker<(A, Sz)>);

/// An output dim: the axes `...` stands for, each as it is.
pub struct OutEllipsis;

/// An output dim: a group of parts (a list of [`PartAxis`], [`PartNew`] and
/// [`PartEllipsis`]) merged into one axis.
/// `Empty` names it when it has no parts (`(...)` of no axes: size 1).
pub struct OutGroup<Parts, Empty>(Marker<(Parts, Empty)>);

/// In an output group: the elementary axis `A`.
pub struct PartAxis<A>(Marker<A>);
/// In an output group: a new axis `A` of size `Sz`.
pub struct PartNew<A, Sz>(Marker<(A, Sz)>);
/// In an output group: the axes `...` stands for.
pub struct PartEllipsis;

/// The output dims `Self` as a shape, from the elementary axes `E` and the
/// axes of `...`, `Ell`.
pub trait Build<E, Ell> {
    /// The shape.
    type Out;
}
impl<E, Ell> Build<E, Ell> for Nil {
    type Out = Nil;
}
impl<H: Place<E, Ell, T::Out>, T: Build<E, Ell>, E, Ell> Build<E, Ell> for Cons<H, T> {
    type Out = H::Out;
}

/// One output dim in front of the shape `Rest`.
pub trait Place<E, Ell, Rest> {
    /// The shape.
    type Out;
}

type Found<E, A> = <E as Find<A, DisplayOf<E>>>::Size;

impl<A, E: Flat + Find<A, DisplayOf<E>>, Ell, Rest> Place<E, Ell, Rest> for OutAxis<A> {
    type Out = Ax<<E as Find<A, DisplayOf<E>>>::Name, Found<E, A>, Rest>;
}
impl<A, Sz, E, Ell, Rest> Place<E, Ell, Rest> for OutNew<A, Sz> {
    type Out = Ax<A, Sz, Rest>;
}
impl<E, Ell: Append<Rest>, Rest> Place<E, Ell, Rest> for OutEllipsis {
    type Out = Concat<Ell, Rest>;
}
impl<Parts: Gather<E, Ell>, Empty, E, Ell, Rest> Place<E, Ell, Rest> for OutGroup<Parts, Empty>
where
    Parts::Out: Shape + ComposedName<Empty>,
{
    type Out = Ax<<Parts::Out as ComposedName<Empty>>::Out, <Parts::Out as Shape>::Numel, Rest>;
}

/// The axes of an output group's parts, in order.
pub trait Gather<E, Ell> {
    /// The axes.
    type Out;
}
impl<E, Ell> Gather<E, Ell> for Nil {
    type Out = Nil;
}
impl<A, T: Gather<E, Ell>, E: Flat + Find<A, DisplayOf<E>>, Ell> Gather<E, Ell>
    for Cons<PartAxis<A>, T>
{
    type Out = Ax<<E as Find<A, DisplayOf<E>>>::Name, Found<E, A>, T::Out>;
}
impl<A, Sz, T: Gather<E, Ell>, E, Ell> Gather<E, Ell> for Cons<PartNew<A, Sz>, T> {
    type Out = Ax<A, Sz, T::Out>;
}
impl<T: Gather<E, Ell>, E, Ell: Append<T::Out>> Gather<E, Ell> for Cons<PartEllipsis, T> {
    type Out = Concat<Ell, T::Out>;
}

/// The name of a group of these axes: `Empty` for none, the axis itself for
/// one, [`Composed`] of their names for more.
pub trait ComposedName<Empty> {
    /// The name.
    type Out;
}
impl<Empty> ComposedName<Empty> for Nil {
    type Out = Empty;
}
impl<A, Sz, Empty> ComposedName<Empty> for Ax<A, Sz, Nil> {
    type Out = A;
}
impl<A, SA, B, SB, T, Empty> ComposedName<Empty> for Ax<A, SA, Ax<B, SB, T>>
where
    Self: Flat,
{
    type Out = Composed<DisplayOf<Self>>;
}
