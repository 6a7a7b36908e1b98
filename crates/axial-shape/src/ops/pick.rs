//! Ops that pick along named axes with sizes in the type: `tril`/`triu`
//! (two axes), `topk::<A, K>` (`K` elements of `A`) and `unfold_windows`
//! (windows of a static size and step).

use core::ops::{Add, Div, Sub};

use typenum::{IsGreater, U0, U1};

use super::gather::AtMost;
use super::join::ResizeAxis;
use super::{Disp, HasAxis};
use crate::find::{Append, Concat, Contains, Find};
use crate::logic::{Answer, B0, B1, TruthOf, Unknown};
use crate::name::{AxisName, SameName};
use crate::report::Fresh;
use crate::shape::{Ax, Nil, Shape};
use crate::size::{Canon, Canonical, Dyn, Size, StaticSize, Sz};
use crate::sum::{IsDyn, IsStatic, IsSymbolic, SizeKind};

/// `tril::<A, B>()` and `triu`: the two axes of the matrices (rows `A`,
/// columns `B`), two different axes of the shape.
///
/// # Example
/// ```
/// use axial_shape::{Triangle, axes, shape};
/// axes!(Heads, Query, Key);
/// assert_eq!(<shape![Heads: 2, Query: 3, Key: 4] as Triangle<Query, Key>>::POSITIONS, (1, 2));
/// ```
pub trait Triangle<A, B>: Shape {
    /// The positions of `A` and `B`.
    const POSITIONS: (usize, usize);
}

impl<S, A, B> Triangle<A, B> for S
where
    S: Shape + Find<A, Disp<S>> + Find<B, Disp<S>>,
    A: SameName<B>,
    <A as SameName<B>>::Out: TriangleAxes<A, Disp<S>>,
{
    const POSITIONS: (usize, usize) = (<S as Find<A, Disp<S>>>::POS, <S as Find<B, Disp<S>>>::POS);
}

/// `tril` and `triu` take two different axes.
///
/// What [`Triangle`] asks of its axes: different names (`B0` from
/// [`SameName`]).
/// ```
/// use axial_shape::report::TriangleAxes;
/// fn different<T: TriangleAxes<(), ()>>() {}
/// different::<axial_shape::B0>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`tril` and `triu` take the rows and the columns as two different axes of `{Disp}`, got `{A}` twice",
    label = "the same axis twice"
)]
pub trait TriangleAxes<A, Disp> {}
#[diagnostic::do_not_recommend]
impl<A, Disp> TriangleAxes<A, Disp> for B0 {}

/// `topk::<A, K>()`: `K` elements of the axis `A`, proven to be at most its
/// size where that is static; the result's `A` has size `K`.
///
/// ```
/// use axial_shape::{Shape, TopK, axes, shape};
/// axes!(Batch, Classes);
/// let mut sizes = [None; 2];
/// <<shape![Batch: 4, Classes: 10] as TopK<Classes, 3>>::Output as Shape>::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(4), Some(3)]);
/// ```
pub trait TopK<A, const K: usize>: HasAxis<A> {
    /// The shape with `A` of size `K`.
    type Output: Shape;
}

impl<S, A, const K: usize> TopK<A, K> for S
where
    S: HasAxis<A> + ResizeAxis<A, Sz<K>>,
    Sz<K>: AtMost<S::Size>,
    <Sz<K> as AtMost<S::Size>>::Out: TopkFits<K, A, Disp<S>>,
{
    type Output = <S as ResizeAxis<A, Sz<K>>>::Output;
}

/// `topk` takes at most the elements the axis has.
///
/// What [`TopK`] asks: `K` at most `A`'s size (`Unknown` with a run-time
/// size, checked then).
/// ```
/// use axial_shape::{TopK, axes, shape};
/// axes!(Classes);
/// fn topk<S: TopK<A, K>, A, const K: usize>() {}
/// topk::<shape![Classes: 10], Classes, 10>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`topk` of {K} elements along `{A}` of `{Disp}`: the axis has fewer",
    label = "{K} is more than the size of `{A}`"
)]
pub trait TopkFits<const K: usize, A, Disp> {}
#[diagnostic::do_not_recommend]
impl<const K: usize, A, Disp> TopkFits<K, A, Disp> for B1 {}
#[diagnostic::do_not_recommend]
impl<const K: usize, A, Disp> TopkFits<K, A, Disp> for Unknown {}

/// `unfold_windows::<A, New, SIZE, STEP>()`: windows of `SIZE` elements
/// every `STEP` along `A`, each the new last axis `New` of size `SIZE`; `A`
/// becomes the number of windows, `(n - SIZE) / STEP + 1`, static where
/// `A` is (where it is not, `Dyn`).
///
/// ```
/// use axial_shape::{Shape, UnfoldBy, axes, shape};
/// axes!(Time, Window);
/// let mut sizes = [None; 2];
/// <<shape![Time: 10] as UnfoldBy<Time, Window, 3, 2>>::Output as Shape>::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(4), Some(3)]);
/// ```
pub trait UnfoldBy<A, New, const SIZE: usize, const STEP: usize>: HasAxis<A> {
    /// The shape with the windows.
    type Output: Shape;
}

type Counted<S, A, const SIZE: usize, const STEP: usize> =
    <<S as HasAxis<A>>::Size as WindowCount<SIZE, STEP, A, Disp<S>>>::Out;

impl<S, A, New: AxisName, const SIZE: usize, const STEP: usize> UnfoldBy<A, New, SIZE, STEP> for S
where
    S: HasAxis<A> + Contains<New>,
    <S as Contains<New>>::Out: Fresh<New, Disp<S>>,
    S::Size: WindowCount<SIZE, STEP, A, Disp<S>>,
    S: ResizeAxis<A, Counted<S, A, SIZE, STEP>>,
    <S as ResizeAxis<A, Counted<S, A, SIZE, STEP>>>::Output: Append<Ax<New, Sz<SIZE>, Nil>>,
    Concat<<S as ResizeAxis<A, Counted<S, A, SIZE, STEP>>>::Output, Ax<New, Sz<SIZE>, Nil>>: Shape,
{
    type Output =
        Concat<<S as ResizeAxis<A, Counted<S, A, SIZE, STEP>>>::Output, Ax<New, Sz<SIZE>, Nil>>;
}

/// The number of windows of `SIZE` every `STEP` in a size: static for a
/// static size (the windows proven to fit, the step at least 1), else
/// `Dyn`.
///
/// ```
/// use axial_shape::ops::pick::WindowCount;
/// use axial_shape::{Dyn, Size, Sz};
/// assert_eq!(<<Sz<10> as WindowCount<4, 3, (), ()>>::Out as Size>::STATIC, Some(3));
/// let _: Option<<Dyn as WindowCount<4, 3, (), ()>>::Out> = None::<Dyn>;
/// ```
pub trait WindowCount<const SIZE: usize, const STEP: usize, A, Disp> {
    /// The number of windows.
    type Out: Size;
}
impl<Z: SizeKind, const SIZE: usize, const STEP: usize, A, Disp> WindowCount<SIZE, STEP, A, Disp>
    for Z
where
    Z::Kind: CountByKind<Z, SIZE, STEP, A, Disp>,
{
    type Out = <Z::Kind as CountByKind<Z, SIZE, STEP, A, Disp>>::Out;
}

/// [`WindowCount`] by the kind of the size.
pub trait CountByKind<Z, const SIZE: usize, const STEP: usize, A, Disp> {
    /// The number of windows.
    type Out: Size;
}
impl<Z, const SIZE: usize, const STEP: usize, A, Disp> CountByKind<Z, SIZE, STEP, A, Disp>
    for IsDyn
{
    type Out = Dyn;
}
impl<Z, const SIZE: usize, const STEP: usize, A, Disp> CountByKind<Z, SIZE, STEP, A, Disp>
    for IsSymbolic
{
    type Out = Dyn;
}
impl<Z: StaticSize, const SIZE: usize, const STEP: usize, A, Disp>
    CountByKind<Z, SIZE, STEP, A, Disp> for IsStatic
where
    Sz<SIZE>: AtMost<Z>,
    Sz<STEP>: StaticSize<Number: IsGreater<U0, Output: Answer>>,
    (
        <Sz<SIZE> as AtMost<Z>>::Out,
        TruthOf<<<Sz<STEP> as StaticSize>::Number as IsGreater<U0>>::Output>,
    ): Windows<Z, SIZE, STEP, A, Disp>,
{
    type Out = <(
        <Sz<SIZE> as AtMost<Z>>::Out,
        TruthOf<<<Sz<STEP> as StaticSize>::Number as IsGreater<U0>>::Output>,
    ) as Windows<Z, SIZE, STEP, A, Disp>>::Out;
}

/// The count of windows, by (the windows fit, the step is at least 1).
pub trait Windows<Z, const SIZE: usize, const STEP: usize, A, Disp> {
    /// The number of windows.
    type Out: Size;
}
impl<Z: StaticSize, const SIZE: usize, const STEP: usize, A, Disp> Windows<Z, SIZE, STEP, A, Disp>
    for (B1, B1)
where
    Sz<SIZE>: StaticSize,
    Sz<STEP>: StaticSize,
    Z::Number: Sub<<Sz<SIZE> as StaticSize>::Number>,
    <Z::Number as Sub<<Sz<SIZE> as StaticSize>::Number>>::Output:
        Div<<Sz<STEP> as StaticSize>::Number>,
    <<Z::Number as Sub<<Sz<SIZE> as StaticSize>::Number>>::Output as Div<
        <Sz<STEP> as StaticSize>::Number,
    >>::Output: Add<U1>,
    <<<Z::Number as Sub<<Sz<SIZE> as StaticSize>::Number>>::Output as Div<
        <Sz<STEP> as StaticSize>::Number,
    >>::Output as Add<U1>>::Output: Canonical<Out: Size>,
{
    type Out = Canon<
        <<<Z::Number as Sub<<Sz<SIZE> as StaticSize>::Number>>::Output as Div<
            <Sz<STEP> as StaticSize>::Number,
        >>::Output as Add<U1>>::Output,
    >;
}
impl<Z, const SIZE: usize, const STEP: usize, A, Disp> Windows<Z, SIZE, STEP, A, Disp> for (B0, B1)
where
    B0: WindowFits<SIZE, A, Disp>,
{
    type Out = Dyn;
}
impl<Z, Fit, const SIZE: usize, const STEP: usize, A, Disp> Windows<Z, SIZE, STEP, A, Disp>
    for (Fit, B0)
where
    B0: WindowStep<STEP>,
{
    type Out = Dyn;
}

/// Windows no longer than their axis (`Self`: whether they fit).
///
/// ```
/// use axial_shape::report::WindowFits;
/// fn fits<T: WindowFits<3, (), ()>>() {}
/// fits::<axial_shape::B1>();
/// ```
#[diagnostic::on_unimplemented(
    message = "windows of {SIZE} elements do not fit in axis `{A}` of `{Disp}`",
    label = "{SIZE} is more than the size of `{A}`"
)]
pub trait WindowFits<const SIZE: usize, A, Disp> {}
#[diagnostic::do_not_recommend]
impl<const SIZE: usize, A, Disp> WindowFits<SIZE, A, Disp> for B1 {}

/// Windows a step of at least 1 apart (`Self`: whether the step is).
///
/// ```
/// use axial_shape::report::WindowStep;
/// fn step<T: WindowStep<1>>() {}
/// step::<axial_shape::B1>();
/// ```
#[diagnostic::on_unimplemented(
    message = "windows {STEP} elements apart: the step must be at least 1",
    label = "a step of {STEP}"
)]
pub trait WindowStep<const STEP: usize> {}
#[diagnostic::do_not_recommend]
impl<const STEP: usize> WindowStep<STEP> for B1 {}
