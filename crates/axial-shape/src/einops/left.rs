//! The left side of a pattern matched against a tensor's shape, dim by dim:
//! its elementary axes (each group decomposed, each unit dropped, the axes of
//! `...` in their place) and the axes `...` stands for.
//!
//! Without `...` the dims take the axes in order and none may be left over.
//! With it, the dims before `...` take the first axes, the dims after it the
//! last ones, and `...` what lies between (found by walking the shape beside
//! a copy shortened by the dims after `...`, so no position is computed).

use typenum::U1;

use super::group::{Decompose, Part, SizeOr};
use super::group_on::GroupOn;
use super::report::{
    PatternAxis, PatternGroup, PatternRegroup, PatternSize, PatternTooLong, PatternTooShort,
    PatternUnit,
};
use crate::display::Flat;
use crate::find::{Append, Concat};
use crate::id::IdKind;
use crate::logic::{False, Or, OrWith, True, Unknown};
use crate::name::{AxisName, SameName};
use crate::shape::{Ax, Cons, DisplayOf, Marker, Nil};
use crate::size::Dyn;
use crate::size::SizeEq;

/// A dim of the left side: the tensor's axis `A` (an anonymous axis takes
/// the name `A`).
///
/// ```
/// use axial_shape::einops::{Axis, MatchLeft, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W);
/// // "H W" takes the axes `H` and `W` as they are
/// type Left = Plain<Cons<Axis<H>, Cons<Axis<W>, Nil>>>;
/// type Elementary = <shape![H: 2, W: 3] as MatchLeft<Left, (H, W), (H, W)>>::Elementary;
/// let mut sizes = [None; 2];
/// Elementary::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3)]);
/// ```
pub struct Axis<A>(Marker<A>);

/// A dim of the left side: the tensor's axis `A`, whose size the call also
/// gives (`Given`: a typenum number, or `Dyn` for a run-time value).
///
/// ```
/// use axial_shape::einops::{MatchLeft, Plain, SizedAxis};
/// use axial_shape::{Cons, Dyn, Nil, Shape, axes, shape};
/// axes!(W);
/// // "W" with W = 3, on an axis of `Dyn` size: the match has size 3
/// type Left = Plain<Cons<SizedAxis<W, typenum::U3>, Nil>>;
/// type Elementary = <shape![W: Dyn] as MatchLeft<Left, (W,), (W,)>>::Elementary;
/// let mut sizes = [None; 1];
/// Elementary::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3)]);
/// ```
pub struct SizedAxis<A, Given>(Marker<(A, Given)>);

/// A dim of the left side: `1` or `()`, an axis of size 1, dropped.
///
/// ```
/// use axial_shape::einops::{Axis, MatchLeft, Plain, Unit};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H);
/// // "1 H": the axis of size 1 is no elementary axis
/// type Left = Plain<Cons<Unit, Cons<Axis<H>, Nil>>>;
/// type Elementary = <shape![1, H: 4] as MatchLeft<Left, ((), H), (H,)>>::Elementary;
/// assert_eq!(Elementary::RANK, 1);
/// ```
pub struct Unit;

/// A dim of the left side: a group `(H P)` that decomposes the axis at its
/// place, which it names (`H` here; [`GroupOn`] says which groups may
/// split which axis). `Parts` lists a [`Part`](super::Part) per axis;
/// `Disp` is how the group prints.
///
/// ```
/// use axial_shape::einops::{Group, Infer, MatchLeft, Part, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, P);
/// // "(H P)" with P = 2 decomposes `H` of 8
/// type Parts = Cons<Part<H, Infer>, Cons<Part<P, typenum::U2>, Nil>>;
/// type Left = Plain<Cons<Group<Parts, (H, P)>, Nil>>;
/// type Elementary = <shape![H: 8] as MatchLeft<Left, ((H, P),), (H,)>>::Elementary;
/// let mut sizes = [None; 2];
/// Elementary::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(4), Some(2)]);
/// ```
pub struct Group<Parts, Disp>(Marker<(Parts, Disp)>);

/// The left side without `...`: its dims, a list of [`Axis`], [`Unit`] and
/// [`Group`].
///
/// ```
/// use axial_shape::einops::{Axis, MatchLeft, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W);
/// type Left = Plain<Cons<Axis<H>, Cons<Axis<W>, Nil>>>;
/// // without `...`, no axis for `...` to stand for
/// type Ellipsis = <shape![H: 2, W: 3] as MatchLeft<Left, (H, W), (H, W)>>::Ellipsis;
/// assert_eq!(Ellipsis::RANK, 0);
/// ```
pub struct Plain<Dims>(Marker<Dims>);

/// The left side with `...` between the dims `Front` and `Back`.
///
/// ```
/// use axial_shape::einops::{Around, Axis, MatchLeft};
/// use axial_shape::{Cons, Ellipsis, Nil, Shape, axes, shape};
/// axes!(B, H, W, C);
/// // "B ... C"
/// type Left = Around<Cons<Axis<B>, Nil>, Cons<Axis<C>, Nil>>;
/// type S = shape![B: 2, H: 3, W: 4, C: 5];
/// type Middle = <S as MatchLeft<Left, (B, Ellipsis, C), (B, H, W, C)>>::Ellipsis;
/// let mut names = [None; 2];
/// Middle::write_names(&mut names);
/// assert_eq!(names, [Some("H"), Some("W")]);
/// ```
pub struct Around<Front, Back>(Marker<(Front, Back)>);

/// The left side `Left` of a pattern (its display `Pat`) matched against this
/// shape (its display `Disp`).
///
/// ```
/// use axial_shape::einops::{Around, Axis, MatchLeft};
/// use axial_shape::{Cons, Ellipsis, Nil, Shape, axes, shape};
/// axes!(B, H, W);
/// // "B ...": `B`, then `...` for the rest
/// type Left = Around<Cons<Axis<B>, Nil>, Nil>;
/// type S = shape![B: 2, H: 3, W: 4];
/// // the elementary axes: `B` and, in their place, those of `...`
/// type Elementary = <S as MatchLeft<Left, (B, Ellipsis), (B, H, W)>>::Elementary;
/// type Rest = <S as MatchLeft<Left, (B, Ellipsis), (B, H, W)>>::Ellipsis;
/// assert_eq!((Elementary::RANK, Rest::RANK), (3, 2));
/// ```
pub trait MatchLeft<Left, Pat, Disp> {
    /// The elementary axes, in order.
    type Elementary;
    /// The axes `...` stands for (none without `...`).
    type Ellipsis;
}

impl<S, Dims, Pat, Disp> MatchLeft<Plain<Dims>, Pat, Disp> for S
where
    S: MatchDims<Dims, Pat, Disp, S>,
    <S as MatchDims<Dims, Pat, Disp, S>>::Rest: Flat,
    DisplayOf<<S as MatchDims<Dims, Pat, Disp, S>>::Rest>: PatternTooShort<Pat, Disp>,
{
    type Elementary = <S as MatchDims<Dims, Pat, Disp, S>>::Out;
    type Ellipsis = Nil;
}

type FrontOut<S, F, Pat, Disp> = <S as MatchDims<F, Pat, Disp, S>>::Out;
type FrontRest<S, F, Pat, Disp> = <S as MatchDims<F, Pat, Disp, S>>::Rest;
type Middle<S, F, B, Pat, Disp> = <FrontRest<S, F, Pat, Disp> as SplitBack<B, Pat, Disp>>::Ellipsis;
type Last<S, F, B, Pat, Disp> = <FrontRest<S, F, Pat, Disp> as SplitBack<B, Pat, Disp>>::Last;
type BackOut<S, F, B, Pat, Disp> = <Last<S, F, B, Pat, Disp> as MatchDims<B, Pat, Disp, S>>::Out;

impl<S, Front, Back, Pat, Disp> MatchLeft<Around<Front, Back>, Pat, Disp> for S
where
    S: MatchDims<Front, Pat, Disp, S>,
    FrontRest<S, Front, Pat, Disp>: SplitBack<Back, Pat, Disp>,
    Last<S, Front, Back, Pat, Disp>: MatchDims<Back, Pat, Disp, S>,
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

/// The dims `Dims` matched against the first axes of this shape, a part of
/// the tensor's shape `Whole`.
///
/// ```
/// use axial_shape::einops::{Axis, MatchDims};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W, C);
/// type S = shape![H: 2, W: 3, C: 4];
/// type Dims = Cons<Axis<H>, Nil>;
/// assert_eq!(<<S as MatchDims<Dims, (H,), (H, W, C), S>>::Out as Shape>::RANK, 1);
/// assert_eq!(<<S as MatchDims<Dims, (H,), (H, W, C), S>>::Rest as Shape>::RANK, 2);
/// ```
pub trait MatchDims<Dims, Pat, Disp, Whole> {
    /// Their elementary axes.
    type Out;
    /// The axes after them.
    type Rest;
}

impl<S, Pat, Disp, Whole> MatchDims<Nil, Pat, Disp, Whole> for S {
    type Out = Nil;
    type Rest = S;
}

impl<D, DT, Pat, Disp, Whole> MatchDims<Cons<D, DT>, Pat, Disp, Whole> for Nil
where
    Cons<D, DT>: PatternTooLong<Pat, Disp> + Unmatched,
{
    type Out = <Cons<D, DT> as Unmatched>::Axes;
    type Rest = Nil;
}

/// The axes the dims of a left side past the tensor's last axis name, with
/// `Dyn` sizes: what a pattern longer than its tensor matches, so that its
/// one error is that it is too long (the output finds the axes it names).
///
/// ```
/// use axial_shape::einops::{Axis, Unmatched};
/// use axial_shape::{Cons, Nil, Shape, axes};
/// axes!(H, W);
/// type Axes = <Cons<Axis<H>, Cons<Axis<W>, Nil>> as Unmatched>::Axes;
/// assert_eq!(<Axes as Shape>::RANK, 2);
/// ```
pub trait Unmatched {
    /// The axes.
    type Axes;
}
impl Unmatched for Nil {
    type Axes = Nil;
}
impl<A, T: Unmatched> Unmatched for Cons<Axis<A>, T> {
    type Axes = Ax<A, Dyn, T::Axes>;
}
impl<A, G, T: Unmatched> Unmatched for Cons<SizedAxis<A, G>, T> {
    type Axes = Ax<A, Dyn, T::Axes>;
}
impl<A, G, T: Unmatched> Unmatched for Cons<Part<A, G>, T> {
    type Axes = Ax<A, Dyn, T::Axes>;
}
impl<T: Unmatched> Unmatched for Cons<Unit, T> {
    type Axes = T::Axes;
}
impl<Parts: Unmatched, GDisp, T: Unmatched> Unmatched for Cons<Group<Parts, GDisp>, T>
where
    Parts::Axes: Append<T::Axes>,
{
    type Axes = Concat<Parts::Axes, T::Axes>;
}

type Next<V, T, DT, Pat, Disp, Whole> = <V as Continue<T, DT, Pat, Disp, Whole>>::Out;

impl<D, DT, N, Sz, T, Pat, Disp, Whole> MatchDims<Cons<D, DT>, Pat, Disp, Whole> for Ax<N, Sz, T>
where
    D: MatchDim<N, Sz, Pat, Disp, Whole>,
    D::Verdict: Continue<T, DT, Pat, Disp, Whole>,
    D::Out: Append<Next<D::Verdict, T, DT, Pat, Disp, Whole>>,
{
    type Out = Concat<D::Out, Next<D::Verdict, T, DT, Pat, Disp, Whole>>;
    type Rest = <D::Verdict as Continue<T, DT, Pat, Disp, Whole>>::Rest;
}

/// After one dim (`Self`: whether it matched its axis): a dim that matched,
/// or whose check is left to run time, goes on with the rest; one that did
/// not ends the walk, taking the rest unmatched ([`Unmatched`]), so that a
/// mistake in one dim is one error, not one more for each dim after it.
///
/// ```
/// use axial_shape::einops::{Axis, Continue};
/// use axial_shape::{Cons, False, Nil, Shape, True, axes, shape};
/// axes!(H, W);
/// type Rest = Cons<Axis<W>, Nil>;
/// type Whole = shape![H: 2, W: 3];
/// type Matched = <True as Continue<shape![W: 3], Rest, (H, W), (H, W), Whole>>::Out;
/// type Unchecked = <False as Continue<shape![W: 3], Rest, (H, W), (H, W), Whole>>::Out;
/// assert_eq!((<Matched as Shape>::RANK, <Unchecked as Shape>::RANK), (1, 1));
/// ```
pub trait Continue<T, DT, Pat, Disp, Whole> {
    /// The elementary axes of the rest.
    type Out;
    /// The tensor's axes after the dims.
    type Rest;
}
impl<T: MatchDims<DT, Pat, Disp, Whole>, DT, Pat, Disp, Whole> Continue<T, DT, Pat, Disp, Whole>
    for True
{
    type Out = T::Out;
    type Rest = T::Rest;
}
impl<T: MatchDims<DT, Pat, Disp, Whole>, DT, Pat, Disp, Whole> Continue<T, DT, Pat, Disp, Whole>
    for Unknown
{
    type Out = T::Out;
    type Rest = T::Rest;
}
impl<T: Skip<DT, Pat, Disp>, DT: Unmatched, Pat, Disp, Whole> Continue<T, DT, Pat, Disp, Whole>
    for False
{
    type Out = DT::Axes;
    type Rest = T::Out;
}

/// One dim matched against the axis `N` of size `Sz` of the tensor's shape
/// `Whole`.
///
/// ```
/// use axial_shape::einops::{Axis, MatchDim, Unit};
/// use axial_shape::{Shape, axes, shape};
/// use typenum::{U1, U3};
/// axes!(W);
/// type Whole = shape![W: 3];
/// assert_eq!(<<Axis<W> as MatchDim<W, U3, (W,), (W,), Whole>>::Out as Shape>::RANK, 1);
/// assert_eq!(<<Unit as MatchDim<W, U1, ((),), (W,), Whole>>::Out as Shape>::RANK, 0);
/// ```
pub trait MatchDim<N, Sz, Pat, Disp, Whole> {
    /// Its elementary axes.
    type Out;
    /// Whether it matched the axis ([`Unknown`] when left to run time).
    type Verdict;
}

/// Whether the axis `N` is the pattern's `A`: the same name, or an
/// anonymous axis (which takes the pattern's name).
type Names<N, A> = Or<<<N as AxisName>::Id as IdKind>::Anon, <N as SameName<A>>::Out>;

impl<A, N, Sz, Pat, Disp, Whole> MatchDim<N, Sz, Pat, Disp, Whole> for Axis<A>
where
    N: SameName<A> + AxisName,
    N::Id: IdKind,
    <N::Id as IdKind>::Anon: OrWith<<N as SameName<A>>::Out>,
    Names<N, A>: PatternAxis<A, N, Pat, Disp>,
{
    type Out = Ax<A, Sz, Nil>;
    type Verdict = Names<N, A>;
}

/// The given size when static (the run-time check makes the axis' `Dyn`
/// size agree), else the axis' size.
impl<A, G: SizeEq<Sz> + SizeOr<Sz>, N, Sz, Pat, Disp, Whole> MatchDim<N, Sz, Pat, Disp, Whole>
    for SizedAxis<A, G>
where
    Axis<A>: MatchDim<N, Sz, Pat, Disp, Whole>,
    <G as SizeEq<Sz>>::Out: PatternSize<N, Pat, Disp>,
{
    type Out = Ax<A, <G as SizeOr<Sz>>::Out, Nil>;
    type Verdict = <Axis<A> as MatchDim<N, Sz, Pat, Disp, Whole>>::Verdict;
}

impl<N, Sz: SizeEq<U1>, Pat, Disp, Whole> MatchDim<N, Sz, Pat, Disp, Whole> for Unit
where
    Sz::Out: PatternUnit<N, Pat, Disp>,
{
    type Out = Nil;
    type Verdict = Sz::Out;
}

/// A group splits the axis at its place when it names it or is made of
/// new names (see [`GroupOn`]), then its sizes are checked or inferred.
impl<Parts, GDisp, N, Sz, Pat, Disp, Whole> MatchDim<N, Sz, Pat, Disp, Whole>
    for Group<Parts, GDisp>
where
    N: AxisName,
    N::Id: GroupOn<Parts, Whole>,
    <N::Id as GroupOn<Parts, Whole>>::Named: PatternGroup<N, GDisp, Pat, Disp>,
    <N::Id as GroupOn<Parts, Whole>>::Merged: PatternRegroup<N, GDisp, Pat, Disp>,
    Parts: Decompose<Sz, N, GDisp, Pat, Disp>,
{
    type Out = Parts::Out;
    type Verdict = <N::Id as GroupOn<Parts, Whole>>::Out;
}

/// This shape cut into the axes `...` stands for and the last ones, as many
/// as the dims `Back`.
///
/// ```
/// use axial_shape::einops::{Axis, SplitBack};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(B, H, W);
/// // the last axis for "... W", the others for `...`
/// type S = shape![B: 2, H: 3, W: 4];
/// type Back = Cons<Axis<W>, Nil>;
/// assert_eq!(<<S as SplitBack<Back, (), ()>>::Ellipsis as Shape>::RANK, 2);
/// assert_eq!(<<S as SplitBack<Back, (), ()>>::Last as Shape>::RANK, 1);
/// ```
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
///
/// ```
/// use axial_shape::einops::{Axis, Skip};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(B, H, W);
/// type Out = <shape![B: 2, H: 3, W: 4] as Skip<Cons<Axis<W>, Nil>, (), ()>>::Out;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("H"), Some("W")]);
/// ```
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
///
/// ```
/// use axial_shape::einops::Lockstep;
/// use axial_shape::{Shape, axes, shape};
/// axes!(B, H, W);
/// type S = shape![B: 2, H: 3, W: 4];
/// type Front = <S as Lockstep<shape![5, 6]>>::Front;
/// let mut names = [None; 2];
/// Front::write_names(&mut names);
/// assert_eq!(names, [Some("B"), Some("H")]);
/// assert_eq!(<<S as Lockstep<shape![5, 6]>>::Back as Shape>::RANK, 1);
/// ```
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
