//! `rename::<Old, New>()` and `refine_names::<L>()`: names only, the same
//! layout.

use super::{Disp, FAfter, FBefore, FSize};
use crate::display::Flat;
use crate::find::{Append, Concat, Contains, Find};
use crate::id::IdKind;
use crate::logic::{B0, B1};
use crate::name::{AxisName, IsKeep, IsName, Item, Keep, SameName};
use crate::report::{Coerces, Fresh, OneNamePerAxis};
use crate::shape::{Ax, Cons, DisplayOf, Nil, Shape};

use super::Distinct;

/// `rename::<Old, New>()`: the axis `Old` called `New` (which no other axis
/// may be called).
///
/// # Example
/// ```
/// use axial_shape::{Rename, Shape, axes, shape};
/// axes!(N, C, Batch);
/// let mut names = [None; 2];
/// <<shape![N: 2, C: 3] as Rename<N, Batch>>::Output as Shape>::write_names(&mut names);
/// assert_eq!(names, [Some("Batch"), Some("C")]);
/// ```
pub trait Rename<Old, New>: Shape {
    /// The renamed shape.
    type Output: Shape;
}

impl<S, Old: SameName<New>, New: AxisName> Rename<Old, New> for S
where
    S: Shape + Find<Old, Disp<S>> + Contains<New>,
    (Old::Out, <S as Contains<New>>::Out): RenameFresh<New, Disp<S>>,
    FBefore<S, Old>: Append<Ax<New, FSize<S, Old>, FAfter<S, Old>>>,
    Concat<FBefore<S, Old>, Ax<New, FSize<S, Old>, FAfter<S, Old>>>: Shape,
{
    type Output = Concat<FBefore<S, Old>, Ax<New, FSize<S, Old>, FAfter<S, Old>>>;
}

/// Renaming to the same name, or to a name no axis has.
pub trait RenameFresh<New, Disp> {}
impl<Has, New, Disp> RenameFresh<New, Disp> for (B1, Has) {}
impl<Has: Fresh<New, Disp>, New, Disp> RenameFresh<New, Disp> for (B0, Has) {}

/// `refine_names::<L>()`: anonymous axes named by `L`, one item per axis
/// (`_` keeps an axis as it is); a named axis must keep its name.
///
/// ```
/// use axial_shape::{RefineNames, Shape, axes, names, shape};
/// axes!(N, C);
/// let mut names = [None; 2];
/// <<shape![2, C: 3] as RefineNames<names![N, _]>>::Output as Shape>::write_names(&mut names);
/// assert_eq!(names, [Some("N"), Some("C")]);
/// ```
pub trait RefineNames<L>: Shape {
    /// The refined shape.
    type Output: Shape;
}

impl<S: Shape, L: Flat> RefineNames<L> for S
where
    S: RefineWalk<L, Disp<S>, DisplayOf<L>>,
    <S as RefineWalk<L, Disp<S>, DisplayOf<L>>>::Out: Distinct,
{
    type Output = <S as RefineWalk<L, Disp<S>, DisplayOf<L>>>::Out;
}

/// The pairwise walk of [`RefineNames`].
pub trait RefineWalk<L, From, To> {
    /// The refined axes.
    type Out;
}

/// Marks the side with names or axes left over.
pub struct LeftOver;

impl<From, To> RefineWalk<Nil, From, To> for Nil {
    type Out = Nil;
}
impl<H, LT, From, To> RefineWalk<Cons<H, LT>, From, To> for Nil
where
    LeftOver: OneNamePerAxis<From, To>,
{
    type Out = Nil;
}
impl<N, Sz, T, From, To> RefineWalk<Nil, From, To> for Ax<N, Sz, T>
where
    LeftOver: OneNamePerAxis<From, To>,
{
    type Out = Nil;
}
impl<N, Sz, T, H: Item, LT, From, To> RefineWalk<Cons<H, LT>, From, To> for Ax<N, Sz, T>
where
    (H::Kind, H): RefineItem<N, Sz, T, LT, From, To>,
{
    type Out = <(H::Kind, H) as RefineItem<N, Sz, T, LT, From, To>>::Out;
}

/// One pair of [`RefineWalk`], by the item's kind.
pub trait RefineItem<N, Sz, T, LT, From, To> {
    /// The refined axis and tail.
    type Out;
}
impl<N, Sz, T: RefineWalk<LT, From, To>, LT, From, To> RefineItem<N, Sz, T, LT, From, To>
    for (IsKeep, Keep)
{
    type Out = Ax<N, Sz, T::Out>;
}
impl<N: AxisName, B, Sz, T, LT, From, To> RefineItem<N, Sz, T, LT, From, To> for (IsName, B)
where
    N::Id: IdKind,
    <N::Id as IdKind>::Anon: RefineName<N, B, From, To>,
    T: RefineWalk<LT, From, To>,
{
    type Out = Ax<<<N::Id as IdKind>::Anon as RefineName<N, B, From, To>>::Out, Sz, T::Out>;
}

/// The name an axis gets: the new one when anonymous, else its own (which
/// must be the same).
pub trait RefineName<N, B, From, To> {
    /// The name.
    type Out;
}
impl<N, B, From, To> RefineName<N, B, From, To> for B1 {
    type Out = B;
}
impl<N: SameName<B>, B, From, To> RefineName<N, B, From, To> for B0
where
    N::Out: Coerces<N, B, From, To>,
{
    type Out = N;
}
