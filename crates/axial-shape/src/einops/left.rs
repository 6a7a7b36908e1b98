//! The left side of a pattern matched against a tensor's shape, dim by dim:
//! its elementary axes (each group decomposed, each unit dropped, the axes of
//! `...` in their place) and the axes `...` stands for.
//!
//! Without `...` the dims take the axes in order and none may be left over.
//! With it, the dims before `...` take the first axes, the dims after it the
//! last ones, and `...` what lies between (found by walking the shape beside
//! a copy shortened by the dims after `...`, so no position is computed).

use typenum::U1;

use super::group::{Decompose, SizeOr};
use super::report::{PatternAxis, PatternSize, PatternTooLong, PatternTooShort, PatternUnit};
use crate::display::Flat;
use crate::find::{Append, Concat};
use crate::id::IdKind;
use crate::logic::{Or, OrWith};
use crate::name::{AxisName, SameName};
use crate::shape::{Ax, Cons, DisplayOf, Marker, Nil};
use crate::size::SizeEq;

/// A dim of the left side: the tensor's axis `A` (an anonymous axis takes
/// the name `A`).
pub struct Axis<A>(Marker<A>);

/// A dim of the left side: the tensor's axis `A`, whose size the call also
/// gives (`Given`: a typenum number, or `Dyn` for a run-time value).
pub struct SizedAxis<A, Given>(Marker<(A, Given)>);

/// A dim of the left side: `1` or `()`, an axis of size 1, dropped.
pub struct Unit;

/// A dim of the left side: a group `(H P)` that decomposes the axis at its
/// place, whatever that axis is called. `Parts` lists a
/// [`Part`](super::Part) per axis; `Disp` is how the group prints.
pub struct Group<Parts, Disp>(Marker<(Parts, Disp)>);

/// The left side without `...`: its dims, a list of [`Axis`], [`Unit`] and
/// [`Group`].
pub struct Plain<Dims>(Marker<Dims>);

/// The left side with `...` between the dims `Front` and `Back`.
pub struct Around<Front, Back>(Marker<(Front, Back)>);

/// The left side `Left` of a pattern (its display `Pat`) matched against this
/// shape (its display `Disp`).
pub trait MatchLeft<Left, Pat, Disp> {
    /// The elementary axes, in order.
    type Elementary;
    /// The axes `...` stands for (none without `...`).
    type Ellipsis;
}

impl<S, Dims, Pat, Disp> MatchLeft<Plain<Dims>, Pat, Disp> for S
where
    S: MatchDims<Dims, Pat, Disp>,
    <S as MatchDims<Dims, Pat, Disp>>::Rest: Flat,
    DisplayOf<<S as MatchDims<Dims, Pat, Disp>>::Rest>: PatternTooShort<Pat, Disp>,
{
    type Elementary = <S as MatchDims<Dims, Pat, Disp>>::Out;
    type Ellipsis = Nil;
}

type FrontOut<S, F, Pat, Disp> = <S as MatchDims<F, Pat, Disp>>::Out;
type FrontRest<S, F, Pat, Disp> = <S as MatchDims<F, Pat, Disp>>::Rest;
type Middle<S, F, B, Pat, Disp> = <FrontRest<S, F, Pat, Disp> as SplitBack<B, Pat, Disp>>::Ellipsis;
type Last<S, F, B, Pat, Disp> = <FrontRest<S, F, Pat, Disp> as SplitBack<B, Pat, Disp>>::Last;
type BackOut<S, F, B, Pat, Disp> = <Last<S, F, B, Pat, Disp> as MatchDims<B, Pat, Disp>>::Out;

impl<S, Front, Back, Pat, Disp> MatchLeft<Around<Front, Back>, Pat, Disp> for S
where
    S: MatchDims<Front, Pat, Disp>,
    FrontRest<S, Front, Pat, Disp>: SplitBack<Back, Pat, Disp>,
    Last<S, Front, Back, Pat, Disp>: MatchDims<Back, Pat, Disp>,
    Middle<S, Front, Back, Pat, Disp>: Append<BackOut<S, Front, Back, Pat, Disp>>,
    FrontOut<S, Front, Pat, Disp>:
        Append<Concat<Middle<S, Front, Back, Pat, Disp>, BackOut<S, Front, Back, Pat, Disp>>>,
{
    type Elementary = Concat<
        FrontOut<S, Front, Pat, Disp>,
        Concat<Middle<S, Front, Back, Pat, Disp>, BackOut<S, Front, Back, Pat, Disp>>,
    >;
    type Ellipsis = Middle<S, Front, Back, Pat, Disp>;
}

/// The dims `Dims` matched against the first axes of this shape.
pub trait MatchDims<Dims, Pat, Disp> {
    /// Their elementary axes.
    type Out;
    /// The axes after them.
    type Rest;
}

impl<S, Pat, Disp> MatchDims<Nil, Pat, Disp> for S {
    type Out = Nil;
    type Rest = S;
}

impl<D, DT, Pat, Disp> MatchDims<Cons<D, DT>, Pat, Disp> for Nil
where
    Cons<D, DT>: PatternTooLong<Pat, Disp>,
{
    type Out = Nil;
    type Rest = Nil;
}

impl<D, DT, N, Sz, T, Pat, Disp> MatchDims<Cons<D, DT>, Pat, Disp> for Ax<N, Sz, T>
where
    D: MatchDim<N, Sz, Pat, Disp>,
    T: MatchDims<DT, Pat, Disp>,
    D::Out: Append<T::Out>,
{
    type Out = Concat<D::Out, T::Out>;
    type Rest = T::Rest;
}

/// One dim matched against the axis `N` of size `Sz`.
pub trait MatchDim<N, Sz, Pat, Disp> {
    /// Its elementary axes.
    type Out;
}

/// Whether the axis `N` is the pattern's `A`: the same name, or an
/// anonymous axis (which takes the pattern's name).
type Names<N, A> = Or<<<N as AxisName>::Id as IdKind>::Anon, <N as SameName<A>>::Out>;

impl<A, N, Sz, Pat, Disp> MatchDim<N, Sz, Pat, Disp> for Axis<A>
where
    N: SameName<A> + AxisName,
    N::Id: IdKind,
    <N::Id as IdKind>::Anon: OrWith<<N as SameName<A>>::Out>,
    Names<N, A>: PatternAxis<A, N, Pat, Disp>,
{
    type Out = Ax<A, Sz, Nil>;
}

/// The given size when static (the run-time check makes the axis' `Dyn`
/// size agree), else the axis' size.
impl<A, G: SizeEq<Sz> + SizeOr<Sz>, N, Sz, Pat, Disp> MatchDim<N, Sz, Pat, Disp> for SizedAxis<A, G>
where
    Axis<A>: MatchDim<N, Sz, Pat, Disp>,
    <G as SizeEq<Sz>>::Out: PatternSize<N, Pat, Disp>,
{
    type Out = Ax<A, <G as SizeOr<Sz>>::Out, Nil>;
}

impl<N, Sz: SizeEq<U1>, Pat, Disp> MatchDim<N, Sz, Pat, Disp> for Unit
where
    Sz::Out: PatternUnit<N, Pat, Disp>,
{
    type Out = Nil;
}

impl<Parts, GDisp, N, Sz, Pat, Disp> MatchDim<N, Sz, Pat, Disp> for Group<Parts, GDisp>
where
    Parts: Decompose<Sz, N, GDisp, Pat, Disp>,
{
    type Out = Parts::Out;
}

/// This shape cut into the axes `...` stands for and the last ones, as many
/// as the dims `Back`.
pub trait SplitBack<Back, Pat, Disp> {
    /// The axes before the last ones.
    type Ellipsis;
    /// The last axes.
    type Last;
}

impl<S, Back, Pat, Disp> SplitBack<Back, Pat, Disp> for S
where
    S: Skip<Back, Pat, Disp> + Lockstep<<S as Skip<Back, Pat, Disp>>::Out>,
{
    type Ellipsis = <S as Lockstep<<S as Skip<Back, Pat, Disp>>::Out>>::Front;
    type Last = <S as Lockstep<<S as Skip<Back, Pat, Disp>>::Out>>::Back;
}

/// This shape without one axis per dim of `Dims`.
pub trait Skip<Dims, Pat, Disp> {
    /// The axes left.
    type Out;
}
impl<S, Pat, Disp> Skip<Nil, Pat, Disp> for S {
    type Out = S;
}
impl<D, DT, Pat, Disp> Skip<Cons<D, DT>, Pat, Disp> for Nil
where
    Cons<D, DT>: PatternTooLong<Pat, Disp>,
{
    type Out = Nil;
}
impl<D, DT, N, Sz, T: Skip<DT, Pat, Disp>, Pat, Disp> Skip<Cons<D, DT>, Pat, Disp>
    for Ax<N, Sz, T>
{
    type Out = T::Out;
}

/// This shape walked beside the shorter `Lag`: the axes taken while `Lag`
/// lasts, and the rest.
pub trait Lockstep<Lag> {
    /// The axes taken.
    type Front;
    /// The rest.
    type Back;
}
impl<S> Lockstep<Nil> for S {
    type Front = Nil;
    type Back = S;
}
impl<N, Sz, T: Lockstep<LT>, LN, LS, LT> Lockstep<Ax<LN, LS, LT>> for Ax<N, Sz, T> {
    type Front = Ax<N, Sz, T::Front>;
    type Back = T::Back;
}
