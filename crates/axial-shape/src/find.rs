//! Finding an axis by name: its position, size, and the shape around it.
//!
//! Lookups compare identities ([`SameName`]), so the position is an
//! associated constant and never a type the user spells: `t.sum::<Rows>()`
//! needs no index. The shape's display rides along unchanged so the error at
//! the end of the list can name the whole shape.

use crate::logic::{B0, B1, Truth};
use crate::name::{AxisName, Ellipsis, Item, Keep, New, SameName};
use crate::shape::{Ax, Cons, Nil};

/// The axis named `A` in a shape, found by name. `Disp` is the display of the
/// whole shape, for the error when there is no such axis.
///
/// # Example
/// ```
/// use axial_shape::{Find, Shape, axes, shape};
/// axes!(Batch, Channels, Rows);
/// type S = shape![Batch: 2, Channels: 3, Rows: 4];
/// assert_eq!(<S as Find<Channels, <S as Shape>::Display>>::POS, 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "tensor of shape `{Disp}` has no axis `{A}`",
    label = "no axis `{A}` in `{Disp}`"
)]
pub trait Find<A, Disp> {
    /// Its position, outermost 0.
    const POS: usize;
    /// Its marker as the shape spells it.
    type Name;
    /// Its size.
    type Size;
    /// The axes before it.
    type Before;
    /// The axes after it.
    type After;
}

/// One step of [`Find`], chosen by whether the head is the name.
pub trait FindStep<A, Disp, IsHere> {
    /// As [`Find::POS`].
    const POS: usize;
    /// As [`Find::Name`].
    type Name;
    /// As [`Find::Size`].
    type Size;
    /// As [`Find::Before`].
    type Before;
    /// As [`Find::After`].
    type After;
}

impl<N: SameName<A>, Sz, T, A, Disp> Find<A, Disp> for Ax<N, Sz, T>
where
    Self: FindStep<A, Disp, N::Out>,
{
    const POS: usize = <Self as FindStep<A, Disp, N::Out>>::POS;
    type Name = <Self as FindStep<A, Disp, N::Out>>::Name;
    type Size = <Self as FindStep<A, Disp, N::Out>>::Size;
    type Before = <Self as FindStep<A, Disp, N::Out>>::Before;
    type After = <Self as FindStep<A, Disp, N::Out>>::After;
}

impl<N, Sz, T, A, Disp> FindStep<A, Disp, B1> for Ax<N, Sz, T> {
    const POS: usize = 0;
    type Name = N;
    type Size = Sz;
    type Before = Nil;
    type After = T;
}

impl<N, Sz, T: Find<A, Disp>, A, Disp> FindStep<A, Disp, B0> for Ax<N, Sz, T> {
    const POS: usize = 1 + T::POS;
    type Name = T::Name;
    type Size = T::Size;
    type Before = Ax<N, Sz, T::Before>;
    type After = T::After;
}

/// `Out` is `B1` when a shape or names list has the name `A`, else `B0`
/// (never an error).
///
/// ```
/// use axial_shape::{Contains, Truth, axes, shape};
/// axes!(Rows, Cols, Depth);
/// type S = shape![Rows: 2, Cols: 3];
/// assert_eq!(<<S as Contains<Cols>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<S as Contains<Depth>>::Out as Truth>::VALUE, Some(false));
/// ```
pub trait Contains<A> {
    /// The answer.
    type Out: Truth;
}

impl<A> Contains<A> for Nil {
    type Out = B0;
}

impl<N: SameName<A>, Sz, T, A> Contains<A> for Ax<N, Sz, T>
where
    N::Out: OrContains<T, A>,
{
    type Out = <N::Out as OrContains<T, A>>::Out;
}

impl<H, T, A> Contains<A> for Cons<H, T>
where
    H: ItemName,
    H::Named: SameName<A>,
    <H::Named as SameName<A>>::Out: OrContains<T, A>,
{
    type Out = <<H::Named as SameName<A>>::Out as OrContains<T, A>>::Out;
}

/// After comparing the head: found, or look in the tail.
pub trait OrContains<T, A> {
    /// The answer.
    type Out: Truth;
}
impl<T, A> OrContains<T, A> for B1 {
    type Out = B1;
}
impl<T: Contains<A>, A> OrContains<T, A> for B0 {
    type Out = T::Out;
}

/// The name a names-list item carries (`New<A>` carries `A`; `...` and `_`
/// carry none).
///
/// ```
/// use axial_shape::{AxisName, ItemName, Keep, New, axes};
/// axes!(Rows);
/// fn carried<H: ItemName>() -> Option<&'static str> {
///     H::Named::NAME
/// }
/// assert_eq!(carried::<Rows>(), Some("Rows"));
/// assert_eq!(carried::<New<Rows>>(), Some("Rows"));
/// assert_eq!(carried::<Keep>(), None);
/// ```
pub trait ItemName {
    /// The name, or a marker equal to nothing.
    type Named: AxisName;
}
impl<H: Item> ItemName for H
where
    (H::Kind, H): NamedBy,
{
    type Named = <(H::Kind, H) as NamedBy>::Named;
}

/// [`ItemName`] by kind.
pub trait NamedBy {
    /// The name.
    type Named: AxisName;
}
impl<A: AxisName> NamedBy for (crate::name::IsName, A) {
    type Named = A;
}
impl<A: AxisName> NamedBy for (crate::name::IsNew, New<A>) {
    type Named = A;
}
impl NamedBy for (crate::name::IsEllipsis, Ellipsis) {
    type Named = crate::name::Taken<Nothing>;
}
impl NamedBy for (crate::name::IsKeep, Keep) {
    type Named = crate::name::Taken<Nothing>;
}

/// A name that is no axis (what `...` and `_` carry).
pub struct Nothing;
impl AxisName for Nothing {
    const NAME: Option<&'static str> = None;
    type Id = crate::id::Gone;
}

/// `Front` followed by `Back` (two shapes joined).
///
/// ```
/// use axial_shape::{Concat, Shape, axes, shape};
/// axes!(A, B, C);
/// type Joined = Concat<shape![A: 2], shape![B: 3, C: Dyn]>;
/// let mut names = [None; 3];
/// Joined::write_names(&mut names);
/// assert_eq!(names, [Some("A"), Some("B"), Some("C")]);
/// ```
pub type Concat<Front, Back> = <Front as Append<Back>>::Out;

/// The trait behind [`Concat`].
///
/// ```
/// use axial_shape::{Append, Shape, axes, shape};
/// axes!(A, B);
/// fn rank_joined<F: Append<B>, B>() -> usize
/// where
///     F::Out: Shape,
/// {
///     <F::Out as Shape>::RANK
/// }
/// assert_eq!(rank_joined::<shape![A: 2], shape![B: 3, 4]>(), 3);
/// ```
pub trait Append<Back> {
    /// The joined list.
    type Out;
}
impl<Back> Append<Back> for Nil {
    type Out = Back;
}
impl<N, Sz, T: Append<Back>, Back> Append<Back> for Ax<N, Sz, T> {
    type Out = Ax<N, Sz, T::Out>;
}

/// `S` with the axis `A` replaced by `Name` of `Sz` (positions unchanged).
///
/// ```
/// use axial_shape::{Dyn, Replace, Shape, axes, shape};
/// axes!(A, B, C, D);
/// type R = Replace<shape![A: 2, B: 3, C: 4], B, D, Dyn>;
/// let (mut names, mut sizes) = ([None; 3], [None; 3]);
/// R::write_names(&mut names);
/// R::write_static_sizes(&mut sizes);
/// assert_eq!(names, [Some("A"), Some("D"), Some("C")]);
/// assert_eq!(sizes, [Some(2), None, Some(4)]);
/// ```
pub type Replace<S, A, Name, Sz> = Concat<
    <S as Find<A, <S as crate::shape::Shape>::Display>>::Before,
    Ax<Name, Sz, <S as Find<A, <S as crate::shape::Shape>::Display>>::After>,
>;

/// `S` without the axis `A`.
///
/// ```
/// use axial_shape::{Remove, Shape, axes, shape};
/// axes!(A, B, C);
/// type R = Remove<shape![A: 2, B: 3, C: 4], B>;
/// let mut sizes = [None; 2];
/// R::write_static_sizes(&mut sizes);
/// assert_eq!((R::RANK, sizes), (2, [Some(2), Some(4)]));
/// ```
pub type Remove<S, A> = Concat<
    <S as Find<A, <S as crate::shape::Shape>::Display>>::Before,
    <S as Find<A, <S as crate::shape::Shape>::Display>>::After,
>;
