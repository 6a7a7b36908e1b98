//! NumPy-style slicing at the type level: what `s![.., 1..3, 0]` expands to.
//! One entry per leading axis: [`Full`] keeps it, [`Index`] drops it,
//! [`Range`] gives it the size of the range (static for literal bounds on a
//! static axis, proven inside it; `Dyn` otherwise), [`DynIndex`] and
//! [`DynRange`] leave their checks to run time. Axes past the last entry
//! are kept.

use core::ops::{Add, Div, Sub};

use typenum::{Diff, IsLess, IsLessOrEqual, Max, Maximum, Sum, U0, U1};

use crate::logic::{Truth, Unknown};
use crate::shape::{Ax, Marker, Nil, Shape};
use crate::size::{Dyn, Size, StaticSize};

/// An entry `..`: the axis as it is.
pub struct Full;

/// An entry that is a literal index: the axis dropped. `B` is [`At`] or
/// [`FromEnd`].
pub struct Index<B>(Marker<B>);

/// An entry that is an index known at run time: the axis dropped.
pub struct DynIndex;

/// An entry that is a range of literal bounds (each [`At`], [`FromEnd`] or
/// [`Open`]) and a literal step (a typenum number, at least 1).
pub struct Range<Start, End, Step>(Marker<(Start, End, Step)>);

/// An entry that is a range with a bound or the step known at run time: the
/// axis becomes `Dyn`.
pub struct DynRange;

/// A literal bound `V` from the start: `K` is `V` as a typenum number.
pub struct At<K, const V: isize>(Marker<K>);

/// A literal bound `V` counted from the end (`V < 0`): `K` is `-V`.
pub struct FromEnd<K, const V: isize>(Marker<K>);

/// A bound left out (`a..` or `..b`).
pub struct Open;

/// Slicing this shape by the entries `Entries` (a `Cons` list).
///
/// # Example
/// ```
/// use axial_shape::slicing::{At, Full, Index, Open, Range, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// use typenum::{U0, U1, U2, U3};
/// axes!(A, B, C);
/// // s![1.., 0, ..;2]
/// type Entries = Cons<Range<At<U1, 1>, Open, U1>, Cons<Index<At<U0, 0>>, Cons<Range<Open, Open, U2>, Nil>>>;
/// type Out = <shape![A: 3, B: 4, C: 5] as SliceBy<Entries>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3)]);
/// ```
pub trait SliceBy<Entries>: Shape {
    /// The sliced shape.
    type Output: Shape;
}

impl<S: Shape, Entries> SliceBy<Entries> for S
where
    S: SliceWalk<Entries, Disp<S>>,
    <S as SliceWalk<Entries, Disp<S>>>::Out: Shape,
{
    type Output = <S as SliceWalk<Entries, Disp<S>>>::Out;
}

type Disp<S> = <S as Shape>::Display;

/// The entries `Entries` applied to the axes from here on.
pub trait SliceWalk<Entries, Disp> {
    /// The sliced axes.
    type Out;
}
impl<S, Disp> SliceWalk<Nil, Disp> for S {
    type Out = S;
}
impl<E, ET, Disp> SliceWalk<crate::shape::Cons<E, ET>, Disp> for Nil
where
    ExtraEntries: TooManyEntries<Disp>,
{
    type Out = Nil;
}
impl<E, ET, N, Sz, T, Disp> SliceWalk<crate::shape::Cons<E, ET>, Disp> for Ax<N, Sz, T>
where
    E: SliceAxis<N, Sz, Disp>,
    T: SliceWalk<ET, Disp>,
    E::Kept: Prepend<N, T::Out>,
{
    type Out = <E::Kept as Prepend<N, T::Out>>::Out;
}

/// An entry applied to the axis `N` of size `Sz`.
pub trait SliceAxis<N, Sz, Disp> {
    /// The axis' new size, or [`Dropped`].
    type Kept;
}

/// What [`SliceAxis`] gives for an index.
pub struct Dropped;

/// The axis `N` of the new size `Self` in front of `Rest`, or nothing.
pub trait Prepend<N, Rest> {
    /// The axes.
    type Out;
}
impl<N, Rest> Prepend<N, Rest> for Dropped {
    type Out = Rest;
}
impl<N, Rest, Sz: Size> Prepend<N, Rest> for Sz {
    type Out = Ax<N, Sz, Rest>;
}

impl<N, Sz, Disp> SliceAxis<N, Sz, Disp> for Full {
    type Kept = Sz;
}
impl<N, Sz, Disp> SliceAxis<N, Sz, Disp> for DynIndex {
    type Kept = Dropped;
}
impl<N, Sz, Disp> SliceAxis<N, Sz, Disp> for DynRange {
    type Kept = Dyn;
}
impl<N, Sz: Bounds<B>, B: Literal<Sz::IndexInside, N, Disp, AsIndex>, Disp> SliceAxis<N, Sz, Disp>
    for Index<B>
{
    type Kept = Dropped;
}
impl<N, Sz, Start, End, Step, Disp> SliceAxis<N, Sz, Disp> for Range<Start, End, Step>
where
    Sz: Bounds<Start> + Bounds<End>,
    Sz: RangeLength<<Sz as Bounds<Start>>::Start, <Sz as Bounds<End>>::End, Step>,
    Start: Literal<<Sz as Bounds<Start>>::BoundInside, N, Disp, AsBound>,
    End: Literal<<Sz as Bounds<End>>::BoundInside, N, Disp, AsBound>,
{
    type Kept =
        <Sz as RangeLength<<Sz as Bounds<Start>>::Start, <Sz as Bounds<End>>::End, Step>>::Length;
}

/// A literal index or bound, and whether it lies inside the axis `N`
/// (`Inside`): checked as `Role` says, with the literal as written for the
/// message.
pub trait Literal<Inside, N, Disp, Role> {}
impl<Inside, N, Disp, Role> Literal<Inside, N, Disp, Role> for Open {}
impl<Inside, K, N, Disp, Role: Check<Inside, V, N, Disp>, const V: isize>
    Literal<Inside, N, Disp, Role> for At<K, V>
{
}
impl<Inside, K, N, Disp, Role: Check<Inside, V, N, Disp>, const V: isize>
    Literal<Inside, N, Disp, Role> for FromEnd<K, V>
{
}

/// A literal used as an index.
pub struct AsIndex;
/// A literal used as a range bound.
pub struct AsBound;

/// The check of a literal `V` by its role.
pub trait Check<Inside, const V: isize, N, Disp> {}
impl<Inside: IndexInRange<V, N, Disp>, const V: isize, N, Disp> Check<Inside, V, N, Disp>
    for AsIndex
{
}
impl<Inside: BoundInRange<V, N, Disp>, const V: isize, N, Disp> Check<Inside, V, N, Disp>
    for AsBound
{
}

/// A literal bound `B` on an axis of this size: where it lands and whether
/// it lies inside (`Unknown` on a `Dyn` axis).
pub trait Bounds<B> {
    /// The bound as a start (`Open`: 0).
    type Start;
    /// The bound as an end (`Open`: the size).
    type End;
    /// Whether the bound is at most the size.
    type BoundInside: Truth;
    /// Whether the bound is an index of the axis (below the size).
    type IndexInside: Truth;
}
impl<B> Bounds<B> for Dyn {
    type Start = Dyn;
    type End = Dyn;
    type BoundInside = Unknown;
    type IndexInside = Unknown;
}
impl<Sz: StaticSize> Bounds<Open> for Sz {
    type Start = U0;
    type End = Sz;
    type BoundInside = typenum::B1;
    type IndexInside = typenum::B1;
}
impl<Sz, K, const V: isize> Bounds<At<K, V>> for Sz
where
    Sz: StaticSize,
    K: IsLessOrEqual<Sz> + IsLess<Sz>,
    <K as IsLessOrEqual<Sz>>::Output: Truth,
    <K as IsLess<Sz>>::Output: Truth,
{
    type Start = K;
    type End = K;
    type BoundInside = <K as IsLessOrEqual<Sz>>::Output;
    type IndexInside = <K as IsLess<Sz>>::Output;
}
impl<Sz, K, const V: isize> Bounds<FromEnd<K, V>> for Sz
where
    Sz: StaticSize + Max<K>,
    K: IsLessOrEqual<Sz>,
    <K as IsLessOrEqual<Sz>>::Output: Truth,
    Maximum<Sz, K>: Sub<K>,
{
    type Start = Diff<Maximum<Sz, K>, K>;
    type End = Diff<Maximum<Sz, K>, K>;
    type BoundInside = <K as IsLessOrEqual<Sz>>::Output;
    type IndexInside = <K as IsLessOrEqual<Sz>>::Output;
}

/// The length of `start..end` by `step` on an axis of this size:
/// `ceil((end - start) / step)`, 0 when `end <= start`.
pub trait RangeLength<Start, End, Step> {
    /// The length (`Dyn` on a `Dyn` axis).
    type Length: Size;
}
impl<Start, End, Step> RangeLength<Start, End, Step> for Dyn {
    type Length = Dyn;
}
impl<Sz: StaticSize, Start, End, Step> RangeLength<Start, End, Step> for Sz
where
    End: Max<Start>,
    Maximum<End, Start>: Sub<Start>,
    Diff<Maximum<End, Start>, Start>: Add<Step>,
    Sum<Diff<Maximum<End, Start>, Start>, Step>: Sub<U1>,
    Diff<Sum<Diff<Maximum<End, Start>, Start>, Step>, U1>: Div<Step>,
    <Diff<Sum<Diff<Maximum<End, Start>, Start>, Step>, U1> as Div<Step>>::Output: Size,
{
    type Length = <Diff<Sum<Diff<Maximum<End, Start>, Start>, Step>, U1> as Div<Step>>::Output;
}

/// A literal index lies inside its axis (`-size <= i < size`).
#[diagnostic::on_unimplemented(
    message = "index {V} is out of range for axis `{A}` of `{Disp}`",
    label = "index {V} is past the end of `{A}`",
    note = "a literal index on an axis of static size must lie inside it; an index known at run time is checked then"
)]
pub trait IndexInRange<const V: isize, A, Disp> {}
impl<const V: isize, A, Disp> IndexInRange<V, A, Disp> for typenum::B1 {}
impl<const V: isize, A, Disp> IndexInRange<V, A, Disp> for Unknown {}

/// A literal bound of a range lies inside its axis (`-size <= b <= size`).
#[diagnostic::on_unimplemented(
    message = "slice bound {V} is out of range for axis `{A}` of `{Disp}`",
    label = "bound {V} is past the end of `{A}`",
    note = "a literal bound on an axis of static size must lie inside it; a bound known at run time is clamped, as in PyTorch"
)]
pub trait BoundInRange<const V: isize, A, Disp> {}
impl<const V: isize, A, Disp> BoundInRange<V, A, Disp> for typenum::B1 {}
impl<const V: isize, A, Disp> BoundInRange<V, A, Disp> for Unknown {}

/// Entries of `s!` past the last axis.
pub struct ExtraEntries;

/// `s!` has at most one entry per axis.
#[diagnostic::on_unimplemented(
    message = "`s!` has more entries than a tensor of shape `{Disp}` has axes",
    label = "more entries than axes",
    note = "one entry per leading axis; the axes after the last entry are kept"
)]
pub trait TooManyEntries<Disp> {}
