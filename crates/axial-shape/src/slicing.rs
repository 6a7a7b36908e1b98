//! NumPy-style slicing at the type level: what `s![.., 1..3, 0]` expands to.
//! One entry per leading axis: [`Full`] keeps it, [`Index`] drops it,
//! [`Range`] gives it the size of the range (static for literal bounds on a
//! static axis, proven inside it; `Dyn` otherwise), [`DynIndex`] and
//! [`DynRange`] leave their checks to run time. Axes past the last entry
//! are kept.

use core::ops::{Add, Div, Sub};

use typenum::{Diff, IsLess, IsLessOrEqual, Max, Maximum, Sum, U0, U1};

use crate::logic::{Answer, Truth, TruthOf, Unknown};
use crate::shape::{Ax, Marker, Nil, Shape};
use crate::size::{Canon, Canonical, Dyn, Size, StaticSize};

/// An entry `..`: the axis as it is.
///
/// ```
/// use axial_shape::slicing::{Full, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A, B);
/// // s![..]: every axis kept
/// type Out = <shape![A: 3, B: 4] as SliceBy<Cons<Full, Nil>>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(4)]);
/// ```
pub struct Full;

/// An entry that is a literal index: the axis dropped. `B` is [`At`] or
/// [`FromEnd`].
///
/// ```
/// use axial_shape::slicing::{FromEnd, Index, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A, B);
/// // s![-1]: the last row, axis `A` dropped
/// type Out = <shape![A: 3, B: 4] as SliceBy<Cons<Index<FromEnd<typenum::U1, -1>>, Nil>>>::Output;
/// let mut names = [None; 1];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("B")]);
/// ```
pub struct Index<B>(Marker<B>);

/// An entry that is an index known at run time: the axis dropped.
///
/// ```
/// use axial_shape::slicing::{DynIndex, Full, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A, B);
/// // s![.., i]
/// type Out = <shape![A: 3, B: 4] as SliceBy<Cons<Full, Cons<DynIndex, Nil>>>>::Output;
/// let mut names = [None; 1];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("A")]);
/// ```
pub struct DynIndex;

/// An entry that is a range of literal bounds (each [`At`], [`FromEnd`] or
/// [`Open`]) and a literal step (a typenum number, at least 1).
///
/// ```
/// use axial_shape::slicing::{At, FromEnd, Range, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// use typenum::{U1, U2};
/// axes!(A);
/// // s![1..-1;2] on 10: 1, 3, 5, 7
/// type Out = <shape![A: 10] as SliceBy<Cons<Range<At<U1, 1>, FromEnd<U1, -1>, U2>, Nil>>>::Output;
/// let mut sizes = [None; 1];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(4)]);
/// ```
pub struct Range<Start, End, Step>(Marker<(Start, End, Step)>);

/// An entry that is a range with a bound or the step known at run time: the
/// axis becomes `Dyn`.
///
/// ```
/// use axial_shape::slicing::{DynRange, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A, B);
/// // s![start..]
/// type Out = <shape![A: 3, B: 4] as SliceBy<Cons<DynRange, Nil>>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [None, Some(4)]);
/// ```
pub struct DynRange;

/// A literal bound `V` from the start: `K` is `V` as a typenum number.
///
/// ```
/// use axial_shape::slicing::{At, Open, Range, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A);
/// // s![2..]
/// type Out = <shape![A: 5] as SliceBy<Cons<Range<At<typenum::U2, 2>, Open, typenum::U1>, Nil>>>::Output;
/// let mut sizes = [None; 1];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3)]);
/// ```
pub struct At<K, const V: isize>(Marker<K>);

/// A literal bound `V` counted from the end (`V < 0`): `K` is `-V`.
///
/// ```
/// use axial_shape::slicing::{FromEnd, Open, Range, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A);
/// // s![-2..]: the last two
/// type Out = <shape![A: 5] as SliceBy<Cons<Range<FromEnd<typenum::U2, -2>, Open, typenum::U1>, Nil>>>::Output;
/// let mut sizes = [None; 1];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2)]);
/// ```
pub struct FromEnd<K, const V: isize>(Marker<K>);

/// A bound left out (`a..` or `..b`).
///
/// ```
/// use axial_shape::slicing::{Open, Range, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A);
/// // s![..;3] on 7: 0, 3, 6
/// type Out = <shape![A: 7] as SliceBy<Cons<Range<Open, Open, typenum::U3>, Nil>>>::Output;
/// let mut sizes = [None; 1];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3)]);
/// ```
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
///
/// ```
/// use axial_shape::slicing::{DynIndex, SliceWalk};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A, B);
/// type Out = <shape![A: 3, B: 4] as SliceWalk<Cons<DynIndex, Nil>, (A, B)>>::Out;
/// assert_eq!(<Out as Shape>::RANK, 1);
/// ```
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
///
/// ```
/// use axial_shape::slicing::{DynRange, Full, SliceAxis};
/// use axial_shape::{Dyn, Size, axes};
/// axes!(A);
/// assert_eq!(<<Full as SliceAxis<A, typenum::U4, (A,)>>::Kept as Size>::STATIC, Some(4));
/// let _: Option<<DynRange as SliceAxis<A, typenum::U4, (A,)>>::Kept> = None::<Dyn>;
/// ```
pub trait SliceAxis<N, Sz, Disp> {
    /// The axis' new size, or [`Dropped`].
    type Kept;
}

/// What [`SliceAxis`] gives for an index.
///
/// ```
/// use axial_shape::slicing::{DynIndex, Dropped, SliceAxis};
/// use axial_shape::axes;
/// axes!(A);
/// let _: Option<<DynIndex as SliceAxis<A, typenum::U4, (A,)>>::Kept> = None::<Dropped>;
/// ```
pub struct Dropped;

/// The axis `N` of the new size `Self` in front of `Rest`, or nothing.
///
/// ```
/// use axial_shape::slicing::{Dropped, Prepend};
/// use axial_shape::{Shape, axes, shape};
/// axes!(A, B);
/// type Rest = shape![B: 4];
/// assert_eq!(<<typenum::U3 as Prepend<A, Rest>>::Out as Shape>::RANK, 2);
/// assert_eq!(<<Dropped as Prepend<A, Rest>>::Out as Shape>::RANK, 1);
/// ```
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
///
/// ```
/// use axial_shape::slicing::{AsBound, AsIndex, At, Bounds, FromEnd, Literal, Open};
/// use axial_shape::axes;
/// use typenum::{U2, U3, U5};
/// axes!(A);
/// fn fits<B: Literal<<U5 as Bounds<B>>::IndexInside, A, (A,), Role>, Role>()
/// where
///     U5: Bounds<B>,
/// {
/// }
/// fits::<At<U3, 3>, AsIndex>(); // 3 is an index of an axis of 5
/// fits::<FromEnd<U2, -2>, AsBound>(); // and -2 a bound
/// fits::<Open, AsBound>();
/// ```
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
///
/// ```
/// use axial_shape::slicing::{AsIndex, Check};
/// use axial_shape::{B1, axes};
/// axes!(A);
/// fn index<Role: Check<B1, 4, A, (A,)>>() {}
/// index::<AsIndex>();
/// ```
pub struct AsIndex;
/// A literal used as a range bound.
///
/// ```
/// use axial_shape::slicing::{AsBound, Check};
/// use axial_shape::{B1, axes};
/// axes!(A);
/// fn bound<Role: Check<B1, 5, A, (A,)>>() {}
/// bound::<AsBound>();
/// ```
pub struct AsBound;

/// The check of a literal `V` by its role.
///
/// ```
/// use axial_shape::slicing::{AsBound, AsIndex, Check};
/// use axial_shape::{B1, Unknown, axes};
/// axes!(A);
/// fn check<Role: Check<Inside, 2, A, (A,)>, Inside>() {}
/// check::<AsIndex, B1>();
/// check::<AsBound, Unknown>(); // on a `Dyn` axis: checked at run time
/// ```
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
///
/// ```
/// use axial_shape::slicing::{At, Bounds, FromEnd, Open};
/// use axial_shape::{Dyn, Truth};
/// use typenum::{U1, U5, U6, Unsigned};
/// assert_eq!(<<U5 as Bounds<FromEnd<U1, -1>>>::Start as Unsigned>::USIZE, 4);
/// assert_eq!(<<U5 as Bounds<Open>>::End as Unsigned>::USIZE, 5);
/// assert_eq!(<<U5 as Bounds<At<U5, 5>>>::BoundInside as Truth>::VALUE, Some(true));
/// assert_eq!(<<U5 as Bounds<At<U5, 5>>>::IndexInside as Truth>::VALUE, Some(false));
/// assert_eq!(<<U5 as Bounds<At<U6, 6>>>::BoundInside as Truth>::VALUE, Some(false));
/// assert_eq!(<<Dyn as Bounds<At<U6, 6>>>::BoundInside as Truth>::VALUE, None);
/// ```
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
    type End = Sz::Number;
    type BoundInside = crate::logic::True;
    type IndexInside = crate::logic::True;
}
impl<Sz, K, const V: isize> Bounds<At<K, V>> for Sz
where
    Sz: StaticSize,
    K: StaticSize<
        Number: IsLessOrEqual<Sz::Number, Output: Answer> + IsLess<Sz::Number, Output: Answer>,
    >,
{
    type Start = K::Number;
    type End = K::Number;
    type BoundInside = TruthOf<<K::Number as IsLessOrEqual<Sz::Number>>::Output>;
    type IndexInside = TruthOf<<K::Number as IsLess<Sz::Number>>::Output>;
}
impl<Sz, K, const V: isize> Bounds<FromEnd<K, V>> for Sz
where
    Sz: StaticSize<Number: Max<K::Number>>,
    K: StaticSize<Number: IsLessOrEqual<Sz::Number, Output: Answer>>,
    Maximum<Sz::Number, K::Number>: Sub<K::Number>,
{
    type Start = Diff<Maximum<Sz::Number, K::Number>, K::Number>;
    type End = Diff<Maximum<Sz::Number, K::Number>, K::Number>;
    type BoundInside = TruthOf<<K::Number as IsLessOrEqual<Sz::Number>>::Output>;
    type IndexInside = TruthOf<<K::Number as IsLessOrEqual<Sz::Number>>::Output>;
}

/// The length of `start..end` by `step` on an axis of this size:
/// `ceil((end - start) / step)`, 0 when `end <= start`.
///
/// ```
/// use axial_shape::slicing::RangeLength;
/// use axial_shape::{Dyn, Size};
/// use typenum::{U1, U2, U3, U8, U10};
/// // 1..8 by 3: 1, 4, 7
/// assert_eq!(<<U10 as RangeLength<U1, U8, U3>>::Length as Size>::STATIC, Some(3));
/// // 8..2: empty
/// assert_eq!(<<U10 as RangeLength<U8, U2, U1>>::Length as Size>::STATIC, Some(0));
/// assert_eq!(<<Dyn as RangeLength<U1, U8, U3>>::Length as Size>::STATIC, None);
/// ```
pub trait RangeLength<Start, End, Step> {
    /// The length (`Dyn` on a `Dyn` axis).
    type Length: Size;
}
impl<Start, End, Step> RangeLength<Start, End, Step> for Dyn {
    type Length = Dyn;
}
/// `(max(end, start) - start + step - 1) / step` in typenum.
type Length<Start, End, P> = <Diff<Sum<Diff<Maximum<End, Start>, Start>, P>, U1> as Div<P>>::Output;

impl<Sz: StaticSize, Start, End, Step: StaticSize> RangeLength<Start, End, Step> for Sz
where
    End: Max<Start>,
    Maximum<End, Start>: Sub<Start>,
    Diff<Maximum<End, Start>, Start>: Add<Step::Number>,
    Sum<Diff<Maximum<End, Start>, Start>, Step::Number>: Sub<U1>,
    Diff<Sum<Diff<Maximum<End, Start>, Start>, Step::Number>, U1>: Div<Step::Number>,
    Length<Start, End, Step::Number>: Canonical<Out: Size>,
{
    type Length = Canon<Length<Start, End, Step::Number>>;
}

/// A literal index lies inside its axis (`-size <= i < size`).
///
/// What a literal index asks: inside its axis (`B1`), or the axis is `Dyn`
/// (`Unknown`, checked at run time).
/// ```
/// use axial_shape::slicing::{Bounds, FromEnd, IndexInRange};
/// use axial_shape::{Truth, axes};
/// use typenum::{U3, U4};
/// axes!(A);
/// fn index<Inside: IndexInRange<-3, A, (A,)> + Truth>() -> Option<bool> {
///     Inside::VALUE
/// }
/// // -3 on an axis of 4
/// assert_eq!(index::<<U4 as Bounds<FromEnd<U3, -3>>>::IndexInside>(), Some(true));
/// assert_eq!(index::<axial_shape::Unknown>(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "index {V} is out of range for axis `{A}` of `{Disp}`",
    label = "index {V} is past the end of `{A}`",
    note = "a literal index on an axis of static size must lie inside it; an index known at run time is checked then"
)]
pub trait IndexInRange<const V: isize, A, Disp> {}
#[diagnostic::do_not_recommend]
impl<const V: isize, A, Disp> IndexInRange<V, A, Disp> for crate::logic::True {}
#[diagnostic::do_not_recommend]
impl<const V: isize, A, Disp> IndexInRange<V, A, Disp> for Unknown {}

/// A literal bound of a range lies inside its axis (`-size <= b <= size`).
///
/// What a literal bound asks: inside its axis or at its end (`B1`), or the
/// axis is `Dyn` (`Unknown`: a bound is clamped at run time).
/// ```
/// use axial_shape::slicing::{At, BoundInRange, Bounds};
/// use axial_shape::{Truth, axes};
/// use typenum::U4;
/// axes!(A);
/// fn bound<Inside: BoundInRange<4, A, (A,)> + Truth>() -> Option<bool> {
///     Inside::VALUE
/// }
/// // `..4` on an axis of 4 (an end, though not an index)
/// assert_eq!(bound::<<U4 as Bounds<At<U4, 4>>>::BoundInside>(), Some(true));
/// ```
#[diagnostic::on_unimplemented(
    message = "slice bound {V} is out of range for axis `{A}` of `{Disp}`",
    label = "bound {V} is past the end of `{A}`",
    note = "a literal bound on an axis of static size must lie inside it; a bound known at run time is clamped, as in PyTorch"
)]
pub trait BoundInRange<const V: isize, A, Disp> {}
#[diagnostic::do_not_recommend]
impl<const V: isize, A, Disp> BoundInRange<V, A, Disp> for crate::logic::True {}
#[diagnostic::do_not_recommend]
impl<const V: isize, A, Disp> BoundInRange<V, A, Disp> for Unknown {}

/// Entries of `s!` past the last axis.
///
/// Where entries remain past the last axis, [`SliceWalk`] asks this type for
/// [`TooManyEntries`], which it never has: slicing holds only with one entry
/// per axis or fewer.
/// ```
/// use axial_shape::slicing::{Full, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A, B);
/// type Two = Cons<Full, Cons<Full, Nil>>;
/// assert_eq!(<<shape![A: 3, B: 4] as SliceBy<Two>>::Output as Shape>::RANK, 2);
/// ```
pub struct ExtraEntries;

/// `s!` has at most one entry per axis.
///
/// Never implemented: reached only by [`ExtraEntries`], so a [`SliceBy`]
/// that holds has at most one entry per axis (the axes after the last entry
/// are kept).
/// ```
/// use axial_shape::slicing::{DynIndex, SliceBy};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(A, B, C);
/// type Out = <shape![A: 3, B: 4, C: 5] as SliceBy<Cons<DynIndex, Nil>>>::Output;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("B"), Some("C")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`s!` has more entries than a tensor of shape `{Disp}` has axes",
    label = "more entries than axes",
    note = "one entry per leading axis; the axes after the last entry are kept"
)]
pub trait TooManyEntries<Disp> {}
