//! The output side of a pattern as a shape: each dim an elementary axis
//! found by name, a new axis, the axes of `...`, or a group merged into one
//! axis named [`Composed`] of its parts (the product of their sizes).

use super::names::Composed;
use crate::display::{Flat, FlatNames};
use crate::find::{Append, Concat, Find};
use crate::shape::{Ax, Cons, DisplayOf, Marker, Nil, Shape};

/// An output dim: the elementary axis `A` (of the left side, or new in
/// `repeat`), with its size.
///
/// ```
/// use axial_shape::einops::{Build, OutAxis};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W);
/// // "-> W H" from the elementary axes (H: 2, W: 3)
/// type Out = <Cons<OutAxis<W>, Cons<OutAxis<H>, Nil>> as Build<shape![H: 2, W: 3], Nil>>::Out;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(2)]);
/// ```
pub struct OutAxis<A>(Marker<A>);

/// An output dim: a new axis `A` of size `Sz` (a unit, or an anonymous
/// length of `repeat`), named `Unnamed<i>`.
///
/// ```
/// use axial_shape::einops::{Build, OutAxis, OutNew};
/// use axial_shape::{Cons, Nil, Shape, Unnamed, axes, shape};
/// axes!(H);
/// // "-> H 1"
/// type Right = Cons<OutAxis<H>, Cons<OutNew<Unnamed<1>, typenum::U1>, Nil>>;
/// type Out = <Right as Build<shape![H: 2], Nil>>::Out;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("H"), None]);
/// ```
pub struct OutNew<A, Sz>(Marker<(A, Sz)>);

/// An output dim: the axes `...` stands for, each as it is.
///
/// ```
/// use axial_shape::einops::{Build, OutAxis, OutEllipsis};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(B, H, W);
/// // "-> ... B" where `...` stood for (H, W)
/// type Right = Cons<OutEllipsis, Cons<OutAxis<B>, Nil>>;
/// type Out = <Right as Build<shape![B: 2], shape![H: 3, W: 4]>>::Out;
/// let mut names = [None; 3];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("H"), Some("W"), Some("B")]);
/// ```
pub struct OutEllipsis;

/// An output dim: a group of parts (a list of [`PartAxis`], [`PartNew`] and
/// [`PartEllipsis`]) merged into one axis.
/// `Empty` names it when it has no parts (`(...)` of no axes: size 1).
///
/// ```
/// use axial_shape::einops::{Build, OutGroup, PartAxis};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W);
/// // "-> (H W)"
/// type Right = Cons<OutGroup<Cons<PartAxis<H>, Cons<PartAxis<W>, Nil>>, ()>, Nil>;
/// type Out = <Right as Build<shape![H: 2, W: 3], Nil>>::Out;
/// let mut names = [None; 1];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("(H W)")]);
/// let mut sizes = [None; 1];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(6)]);
/// ```
pub struct OutGroup<Parts, Empty>(Marker<(Parts, Empty)>);

/// In an output group: the elementary axis `A`.
///
/// ```
/// use axial_shape::einops::{Gather, PartAxis};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W);
/// type Parts = Cons<PartAxis<W>, Cons<PartAxis<H>, Nil>>;
/// let mut names = [None; 2];
/// <<Parts as Gather<shape![H: 2, W: 3], Nil>>::Out as Shape>::write_names(&mut names);
/// assert_eq!(names, [Some("W"), Some("H")]);
/// ```
pub struct PartAxis<A>(Marker<A>);
/// In an output group: a new axis `A` of size `Sz`.
///
/// ```
/// use axial_shape::einops::{Gather, PartAxis, PartNew};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, R);
/// // "(H R)" in `repeat` with R = 2
/// type Parts = Cons<PartAxis<H>, Cons<PartNew<R, typenum::U2>, Nil>>;
/// type Out = <Parts as Gather<shape![H: 3], Nil>>::Out;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(2)]);
/// ```
pub struct PartNew<A, Sz>(Marker<(A, Sz)>);
/// In an output group: the axes `...` stands for.
///
/// ```
/// use axial_shape::einops::{Gather, PartAxis, PartEllipsis};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(B, H, W);
/// // "(B ...)" where `...` stood for (H, W)
/// type Parts = Cons<PartAxis<B>, Cons<PartEllipsis, Nil>>;
/// type Out = <Parts as Gather<shape![B: 2], shape![H: 3, W: 4]>>::Out;
/// assert_eq!(Out::RANK, 3);
/// ```
pub struct PartEllipsis;

/// The output dims `Self` as a shape, from the elementary axes `E` and the
/// axes of `...`, `Ell`.
///
/// ```
/// use axial_shape::einops::{Build, OutAxis, OutGroup, PartAxis};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(B, C, H);
/// // "-> B (C H)"
/// type Right = Cons<OutAxis<B>, Cons<OutGroup<Cons<PartAxis<C>, Cons<PartAxis<H>, Nil>>, ()>, Nil>>;
/// type Out = <Right as Build<shape![B: 2, C: 3, H: 4], Nil>>::Out;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(12)]);
/// ```
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
///
/// ```
/// use axial_shape::einops::{OutAxis, Place};
/// use axial_shape::{Shape, axes, shape};
/// axes!(H, W);
/// type Out = <OutAxis<W> as Place<shape![H: 2, W: 3], (), shape![H: 2]>>::Out;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("W"), Some("H")]);
/// ```
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
///
/// ```
/// use axial_shape::einops::{Gather, PartAxis};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W);
/// type Out = <Cons<PartAxis<H>, Cons<PartAxis<W>, Nil>> as Gather<shape![H: 2, W: 3], Nil>>::Out;
/// assert_eq!(<Out as Shape>::RANK, 2);
/// ```
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
///
/// ```
/// use axial_shape::einops::ComposedName;
/// use axial_shape::{AxisName, Unnamed, axes, shape};
/// axes!(H, W);
/// assert_eq!(<<shape![H: 2, W: 3] as ComposedName<()>>::Out as AxisName>::NAME, Some("(H W)"));
/// assert_eq!(<<shape![H: 2] as ComposedName<()>>::Out as AxisName>::NAME, Some("H"));
/// assert_eq!(<<axial_shape::Nil as ComposedName<Unnamed<0>>>::Out as AxisName>::NAME, None);
/// ```
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
    Self: FlatNames,
{
    type Out = Composed<<Self as FlatNames>::Out>;
}
