//! `align_to`, `permute` and `align_as`: a new order of the axes by name,
//! with `...` for the axes not named and `New<Name>` for a new size-1 axis.
//!
//! One pass over the names list takes each named axis out of the shape (it is
//! marked [`Taken`], so positions stay those of the original). A name not
//! found is either absent from the tensor or named twice, and the error says
//! which. `...` becomes the axes never taken, in their order.

use super::Disp;
use crate::display::Flat;
use crate::find::{Append, Concat, Contains};
use crate::id::IdKind;
use crate::logic::{B0, B1};
use crate::name::{AxisName, Ellipsis, IsEllipsis, IsName, IsNew, Item, New, SameName, Taken};
use crate::report::{AllNamed, AxisOf, Fresh, NamedOnce, PlainName};
use crate::shape::{Ax, Cons, DisplayOf, Nil, Shape};
use crate::size::{Dyn, Sz};

/// `align_to::<L>()`: the axes in the order of the names list `L`.
///
/// `plan` gives, per output axis, the position of the input axis it is, or
/// `None` for a new axis (size 1, stride 0).
///
/// # Example
/// ```
/// use axial_shape::{AlignTo, Shape, axes, names, shape};
/// axes!(N, C, H, W);
/// type S = shape![N: 2, C: 3, H: 4, W: 5];
/// let mut plan = [None; 4];
/// <S as AlignTo<names![W, ..., N]>>::plan(&mut plan);
/// assert_eq!(plan, [Some(3), Some(1), Some(2), Some(0)]);
/// let mut plan = [None; 5];
/// <S as AlignTo<names![N, C, New<HW>, H, W]>>::plan(&mut plan);
/// # axes!(HW);
/// assert_eq!(plan, [Some(0), Some(1), None, Some(2), Some(3)]);
/// ```
pub trait AlignTo<L>: Shape {
    /// The aligned shape.
    type Output: Shape;
    /// Writes the source position of each output axis into `out` (`None`: new).
    fn plan(out: &mut [Option<usize>]);
}

type PassOut<S, L> = <S as AlignPass<L, S, Disp<S>, DisplayOf<L>>>::Out;
type PassRest<S, L> = <S as AlignPass<L, S, Disp<S>, DisplayOf<L>>>::Rest;
type PassEllipsis<S, L> = <S as AlignPass<L, S, Disp<S>, DisplayOf<L>>>::HasEllipsis;

impl<S: Shape, L: Flat> AlignTo<L> for S
where
    S: AlignPass<L, S, Disp<S>, DisplayOf<L>>,
    PassRest<S, L>: Untaken,
    <PassRest<S, L> as Untaken>::Out: Flat,
    (
        PassEllipsis<S, L>,
        DisplayOf<<PassRest<S, L> as Untaken>::Out>,
    ): Covered<DisplayOf<L>, Disp<S>>,
    PassOut<S, L>: Shape,
{
    type Output = PassOut<S, L>;

    fn plan(out: &mut [Option<usize>]) {
        <S as AlignPass<L, S, Disp<S>, DisplayOf<L>>>::plan(out);
    }
}

/// `permute::<L>()`: `align_to` with axis names only, every axis once.
///
/// ```
/// use axial_shape::{Permute, axes, names, shape};
/// axes!(N, C);
/// fn ok<S: Permute<names![C, N]>>() {}
/// ok::<shape![N: 2, C: 3]>();
/// ```
pub trait Permute<L>: AlignTo<L> {}

impl<S: AlignTo<L>, L: Flat + PlainNames<DisplayOf<L>>> Permute<L> for S {}

/// `align_as(&other)`: `align_to` the other's names, a name this tensor
/// lacks becoming a new size-1 axis.
///
/// ```
/// use axial_shape::{AlignAs, axes, shape};
/// axes!(N, C, H);
/// let mut plan = [None; 3];
/// <shape![C: 3] as AlignAs<shape![N: 2, C: 3, H: 4]>>::plan(&mut plan);
/// assert_eq!(plan, [None, Some(0), None]);
/// ```
pub trait AlignAs<Other>: Shape {
    /// The aligned shape.
    type Output: Shape;
    /// As [`AlignTo::plan`].
    fn plan(out: &mut [Option<usize>]);
}

impl<S: Shape, Other> AlignAs<Other> for S
where
    Other: AlignList<S>,
    S: AlignTo<<Other as AlignList<S>>::Out>,
{
    type Output = <S as AlignTo<<Other as AlignList<S>>::Out>>::Output;

    fn plan(out: &mut [Option<usize>]) {
        <S as AlignTo<<Other as AlignList<S>>::Out>>::plan(out);
    }
}

/// The names list of a shape, each name `S` lacks as `New<Name>`.
pub trait AlignList<S> {
    /// The list.
    type Out;
}
impl<S> AlignList<S> for Nil {
    type Out = Nil;
}
impl<B, SB, T: AlignList<S>, S: Contains<B>> AlignList<S> for Ax<B, SB, T>
where
    <S as Contains<B>>::Out: NewIfAbsent<B>,
{
    type Out = Cons<<<S as Contains<B>>::Out as NewIfAbsent<B>>::Out, T::Out>;
}

/// `B` when present, `New<B>` when not.
pub trait NewIfAbsent<B> {
    /// The item.
    type Out;
}
impl<B> NewIfAbsent<B> for B1 {
    type Out = B;
}
impl<B> NewIfAbsent<B> for B0 {
    type Out = New<B>;
}

/// The pass over the names list `L` against the shape `Self`, whose taken
/// axes are marked. `W` is the whole shape, `Disp` and `ListDisp` what
/// messages print.
pub trait AlignPass<L, W, Disp, ListDisp> {
    /// The output axes.
    type Out;
    /// The shape after the whole list, taken axes marked.
    type Rest;
    /// `B1` when the list has `...`.
    type HasEllipsis;
    /// Writes the source positions and returns the unwritten rest of `out`.
    fn plan(out: &mut [Option<usize>]) -> &mut [Option<usize>];
}

impl<R, W, Disp, ListDisp> AlignPass<Nil, W, Disp, ListDisp> for R {
    type Out = Nil;
    type Rest = R;
    type HasEllipsis = B0;

    fn plan(out: &mut [Option<usize>]) -> &mut [Option<usize>] {
        out
    }
}

impl<H: Item, LT, R, W, Disp, ListDisp> AlignPass<Cons<H, LT>, W, Disp, ListDisp> for R
where
    (H::Kind, H): AlignItem<LT, R, W, Disp, ListDisp>,
{
    type Out = <(H::Kind, H) as AlignItem<LT, R, W, Disp, ListDisp>>::Out;
    type Rest = <(H::Kind, H) as AlignItem<LT, R, W, Disp, ListDisp>>::Rest;
    type HasEllipsis = <(H::Kind, H) as AlignItem<LT, R, W, Disp, ListDisp>>::HasEllipsis;

    fn plan(out: &mut [Option<usize>]) -> &mut [Option<usize>] {
        <(H::Kind, H) as AlignItem<LT, R, W, Disp, ListDisp>>::plan(out)
    }
}

/// One item of [`AlignPass`], by kind.
pub trait AlignItem<LT, R, W, Disp, ListDisp> {
    /// As [`AlignPass::Out`].
    type Out;
    /// As [`AlignPass::Rest`].
    type Rest;
    /// As [`AlignPass::HasEllipsis`].
    type HasEllipsis;
    /// As [`AlignPass::plan`].
    fn plan(out: &mut [Option<usize>]) -> &mut [Option<usize>];
}

type Marked<R, A, W, Disp, ListDisp> = <R as Take<A, W, Disp, ListDisp>>::Marked;

impl<A, LT, R, W, Disp, ListDisp> AlignItem<LT, R, W, Disp, ListDisp> for (IsName, A)
where
    R: Take<A, W, Disp, ListDisp>,
    R::Marked: AlignPass<LT, W, Disp, ListDisp>,
{
    type Out = Ax<
        R::Name,
        R::Size,
        <Marked<R, A, W, Disp, ListDisp> as AlignPass<LT, W, Disp, ListDisp>>::Out,
    >;
    type Rest = <Marked<R, A, W, Disp, ListDisp> as AlignPass<LT, W, Disp, ListDisp>>::Rest;
    type HasEllipsis =
        <Marked<R, A, W, Disp, ListDisp> as AlignPass<LT, W, Disp, ListDisp>>::HasEllipsis;

    fn plan(out: &mut [Option<usize>]) -> &mut [Option<usize>] {
        <Marked<R, A, W, Disp, ListDisp> as AlignPass<LT, W, Disp, ListDisp>>::plan(write_first(
            out,
            Some(R::POS),
        ))
    }
}

impl<A: AxisName, LT, R, W, Disp, ListDisp> AlignItem<LT, R, W, Disp, ListDisp> for (IsNew, New<A>)
where
    W: Contains<A>,
    <W as Contains<A>>::Out: Fresh<A, Disp>,
    R: AlignPass<LT, W, Disp, ListDisp>,
{
    type Out = Ax<A, Sz<1>, <R as AlignPass<LT, W, Disp, ListDisp>>::Out>;
    type Rest = <R as AlignPass<LT, W, Disp, ListDisp>>::Rest;
    type HasEllipsis = <R as AlignPass<LT, W, Disp, ListDisp>>::HasEllipsis;

    fn plan(out: &mut [Option<usize>]) -> &mut [Option<usize>] {
        <R as AlignPass<LT, W, Disp, ListDisp>>::plan(write_first(out, None))
    }
}

impl<LT, R, W, Disp, ListDisp> AlignItem<LT, R, W, Disp, ListDisp> for (IsEllipsis, Ellipsis)
where
    R: AlignPass<LT, W, Disp, ListDisp>,
    RestOf<R, LT, W, Disp, ListDisp>: Untaken,
    <RestOf<R, LT, W, Disp, ListDisp> as Untaken>::Out:
        Append<<R as AlignPass<LT, W, Disp, ListDisp>>::Out>,
{
    type Out = Concat<
        <RestOf<R, LT, W, Disp, ListDisp> as Untaken>::Out,
        <R as AlignPass<LT, W, Disp, ListDisp>>::Out,
    >;
    type Rest = <R as AlignPass<LT, W, Disp, ListDisp>>::Rest;
    type HasEllipsis = B1;

    fn plan(out: &mut [Option<usize>]) -> &mut [Option<usize>] {
        let rest = <RestOf<R, LT, W, Disp, ListDisp> as Untaken>::positions(out, 0);
        <R as AlignPass<LT, W, Disp, ListDisp>>::plan(rest)
    }
}

type RestOf<R, LT, W, Disp, ListDisp> = <R as AlignPass<LT, W, Disp, ListDisp>>::Rest;

/// Takes the axis `A` out of a shape whose taken axes are marked: its
/// original position, name and size, and the shape with it marked.
pub trait Take<A, W, Disp, ListDisp> {
    /// Its position in the original shape.
    const POS: usize;
    /// Its marker.
    type Name;
    /// Its size.
    type Size;
    /// The shape with it marked as taken.
    type Marked;
}

impl<N: SameName<A>, Sz, T, A, W, Disp, ListDisp> Take<A, W, Disp, ListDisp> for Ax<N, Sz, T>
where
    Self: TakeStep<A, W, Disp, ListDisp, N::Out>,
{
    const POS: usize = <Self as TakeStep<A, W, Disp, ListDisp, N::Out>>::POS;
    type Name = <Self as TakeStep<A, W, Disp, ListDisp, N::Out>>::Name;
    type Size = <Self as TakeStep<A, W, Disp, ListDisp, N::Out>>::Size;
    type Marked = <Self as TakeStep<A, W, Disp, ListDisp, N::Out>>::Marked;
}

/// Not found: absent from the tensor, or already taken (named twice).
impl<A, W: Contains<A>, Disp, ListDisp> Take<A, W, Disp, ListDisp> for Nil
where
    W::Out: Missing<A, Disp, ListDisp>,
{
    const POS: usize = 0;
    type Name = A;
    type Size = Dyn;
    type Marked = Nil;
}

/// Why a name was not found: `B0` the tensor lacks it, `B1` it was taken.
pub trait Missing<A, Disp, ListDisp> {}
impl<A: AxisOf<Disp>, Disp, ListDisp> Missing<A, Disp, ListDisp> for B0 {}
impl<A: NamedOnce<ListDisp, Disp>, Disp, ListDisp> Missing<A, Disp, ListDisp> for B1 {}

/// One step of [`Take`].
pub trait TakeStep<A, W, Disp, ListDisp, IsHere> {
    /// As [`Take::POS`].
    const POS: usize;
    /// As [`Take::Name`].
    type Name;
    /// As [`Take::Size`].
    type Size;
    /// As [`Take::Marked`].
    type Marked;
}
impl<N, Sz, T, A, W, Disp, ListDisp> TakeStep<A, W, Disp, ListDisp, B1> for Ax<N, Sz, T> {
    const POS: usize = 0;
    type Name = N;
    type Size = Sz;
    type Marked = Ax<Taken<N>, Sz, T>;
}
impl<N, Sz, T: Take<A, W, Disp, ListDisp>, A, W, Disp, ListDisp> TakeStep<A, W, Disp, ListDisp, B0>
    for Ax<N, Sz, T>
{
    const POS: usize = 1 + T::POS;
    type Name = T::Name;
    type Size = T::Size;
    type Marked = Ax<N, Sz, T::Marked>;
}

/// The axes of a marked shape not taken, and their positions.
pub trait Untaken {
    /// The untaken axes.
    type Out;
    /// Writes their positions (counting from `at`) and returns the rest of `out`.
    fn positions(out: &mut [Option<usize>], at: usize) -> &mut [Option<usize>];
}
impl Untaken for Nil {
    type Out = Nil;

    fn positions(out: &mut [Option<usize>], _: usize) -> &mut [Option<usize>] {
        out
    }
}
impl<N: AxisName, Sz, T> Untaken for Ax<N, Sz, T>
where
    N::Id: IdKind,
    Self: UntakenStep<<N::Id as IdKind>::Taken>,
{
    type Out = <Self as UntakenStep<<N::Id as IdKind>::Taken>>::Out;

    fn positions(out: &mut [Option<usize>], at: usize) -> &mut [Option<usize>] {
        <Self as UntakenStep<<N::Id as IdKind>::Taken>>::positions(out, at)
    }
}

/// One step of [`Untaken`], by whether the head is taken.
pub trait UntakenStep<IsTaken> {
    /// As [`Untaken::Out`].
    type Out;
    /// As [`Untaken::positions`].
    fn positions(out: &mut [Option<usize>], at: usize) -> &mut [Option<usize>];
}
impl<N, Sz, T: Untaken> UntakenStep<B1> for Ax<N, Sz, T> {
    type Out = T::Out;

    fn positions(out: &mut [Option<usize>], at: usize) -> &mut [Option<usize>] {
        T::positions(out, at + 1)
    }
}
impl<N, Sz, T: Untaken> UntakenStep<B0> for Ax<N, Sz, T> {
    type Out = Ax<N, Sz, T::Out>;

    fn positions(out: &mut [Option<usize>], at: usize) -> &mut [Option<usize>] {
        T::positions(write_first(out, Some(at)), at + 1)
    }
}

/// Without `...`, every axis must be named (`Self`: whether there was `...`,
/// and the display of the axes left out).
pub trait Covered<ListDisp, Disp> {}
impl<Left, ListDisp, Disp> Covered<ListDisp, Disp> for (B1, Left) {}
impl<Left: AllNamed<ListDisp, Disp>, ListDisp, Disp> Covered<ListDisp, Disp> for (B0, Left) {}

/// Every item of a names list is an axis name.
pub trait PlainNames<ListDisp> {}
impl<ListDisp> PlainNames<ListDisp> for Nil {}
impl<H: Item, T: PlainNames<ListDisp>, ListDisp> PlainNames<ListDisp> for Cons<H, T> where
    (H::Kind, H): PlainItem<ListDisp>
{
}

/// One item of [`PlainNames`].
pub trait PlainItem<ListDisp> {}
impl<A, ListDisp> PlainItem<ListDisp> for (IsName, A) {}
impl<A, ListDisp> PlainItem<ListDisp> for (IsNew, New<A>) where New<A>: PlainName<ListDisp> {}
impl<ListDisp> PlainItem<ListDisp> for (IsEllipsis, Ellipsis) where Ellipsis: PlainName<ListDisp> {}

/// Writes `value` first and returns the rest of `out`.
fn write_first(out: &mut [Option<usize>], value: Option<usize>) -> &mut [Option<usize>] {
    match out {
        [first, rest @ ..] => {
            *first = value;
            rest
        }
        [] => &mut [],
    }
}
