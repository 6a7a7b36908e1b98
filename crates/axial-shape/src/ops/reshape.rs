//! Element-count views: `reshape`/`view` to a shape, `merge` of adjacent axes,
//! `split` of one axis.

use super::{Disp, FAfter, FBefore, FName, FSize, HasAxis};
use crate::display::Flat;
use crate::find::{Append, Concat, Contains, Find};
use crate::logic::B0;
use crate::name::{AxisName, SameName};
use crate::report::{Adjacent, Fresh, SameNumel, SplitFits};
use crate::shape::{Ax, Cons, DisplayOf, Nil, Shape};
use crate::size::{SizeEq, SizeMul, SizeProd};

use super::Distinct;

/// `reshape::<S2>()` / `view::<S2>()`: the same elements as the shape `S2`;
/// static element counts proven equal (checked at run time with `Dyn`).
///
/// # Example
/// ```
/// use axial_shape::{ReshapeTo, axes, shape};
/// axes!(Rows, Cols, Pixels);
/// fn ok<S: ReshapeTo<shape![Pixels: 12]>>() {}
/// ok::<shape![Rows: 3, Cols: 4]>();
/// ```
pub trait ReshapeTo<S2>: Shape {}

impl<S: Shape, S2: Distinct> ReshapeTo<S2> for S
where
    S::Numel: SizeEq<S2::Numel>,
    <S::Numel as SizeEq<S2::Numel>>::Out: SameNumel<Disp<S>, Disp<S2>>,
{
}

/// `merge::<L, New>()`: the adjacent axes `L` (in this order) flattened into
/// one axis `New`, whose size is their product.
///
/// ```
/// use axial_shape::{Merge, Shape, axes, names, shape};
/// axes!(N, C, H, W, CHW);
/// type S = shape![N: 2, C: 3, H: 4, W: 5];
/// assert_eq!(<S as Merge<names![C, H, W], CHW>>::POS, 1);
/// assert_eq!(<S as Merge<names![C, H, W], CHW>>::LEN, 3);
/// let mut sizes = [None; 2];
/// <<S as Merge<names![C, H, W], CHW>>::Output as Shape>::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(60)]);
/// ```
pub trait Merge<L, New>: Shape {
    /// The position of the first merged axis.
    const POS: usize;
    /// How many axes merge.
    const LEN: usize;
    /// The merged shape.
    type Output: Shape;
}

type Run<S, First> = Ax<FName<S, First>, FSize<S, First>, FAfter<S, First>>;
type RunSize<S, First, L> = <Run<S, First> as MergeRun<L, Disp<S>, DisplayOf<L>>>::Size;
type RunRest<S, First, L> = <Run<S, First> as MergeRun<L, Disp<S>, DisplayOf<L>>>::Rest;

impl<S, First, LT, New: AxisName> Merge<Cons<First, LT>, New> for S
where
    S: Shape + Find<First, Disp<S>>,
    Cons<First, LT>: Flat,
    Run<S, First>: MergeRun<Cons<First, LT>, Disp<S>, DisplayOf<Cons<First, LT>>>,
    FBefore<S, First>: Append<RunRest<S, First, Cons<First, LT>>>
        + Append<Ax<New, RunSize<S, First, Cons<First, LT>>, RunRest<S, First, Cons<First, LT>>>>,
    Concat<FBefore<S, First>, RunRest<S, First, Cons<First, LT>>>: Contains<New>,
    <Concat<FBefore<S, First>, RunRest<S, First, Cons<First, LT>>> as Contains<New>>::Out:
        Fresh<New, Disp<S>>,
    Concat<
        FBefore<S, First>,
        Ax<New, RunSize<S, First, Cons<First, LT>>, RunRest<S, First, Cons<First, LT>>>,
    >: Shape,
{
    const POS: usize = <S as Find<First, Disp<S>>>::POS;
    const LEN: usize =
        <Run<S, First> as MergeRun<Cons<First, LT>, Disp<S>, DisplayOf<Cons<First, LT>>>>::LEN;
    type Output = Concat<
        FBefore<S, First>,
        Ax<New, RunSize<S, First, Cons<First, LT>>, RunRest<S, First, Cons<First, LT>>>,
    >;
}

/// Matches the names list `L` against the axes from here on: their size
/// product, how many, and the axes after them.
pub trait MergeRun<L, Disp, ListDisp> {
    /// How many axes matched.
    const LEN: usize;
    /// The product of their sizes.
    type Size;
    /// The axes after them.
    type Rest;
}
impl<S, Disp, ListDisp> MergeRun<Nil, Disp, ListDisp> for S {
    const LEN: usize = 0;
    type Size = crate::size::Sz<1>;
    type Rest = S;
}
impl<H, LT, Disp, ListDisp> MergeRun<Cons<H, LT>, Disp, ListDisp> for Nil
where
    B0: Adjacent<ListDisp, Disp>,
{
    const LEN: usize = 0;
    type Size = crate::size::Sz<1>;
    type Rest = Nil;
}
impl<N: SameName<H>, Sz, T, H, LT, Disp, ListDisp> MergeRun<Cons<H, LT>, Disp, ListDisp>
    for Ax<N, Sz, T>
where
    N::Out: Adjacent<ListDisp, Disp>,
    T: MergeRun<LT, Disp, ListDisp>,
    Sz: SizeMul<T::Size>,
{
    const LEN: usize = 1 + T::LEN;
    type Size = SizeProd<Sz, T::Size>;
    type Rest = T::Rest;
}

/// `split::<A, Sub>()`: the axis `A` unflattened into the axes of the shape
/// `Sub`, whose sizes must multiply to `A`'s (proven when static; with one
/// `Dyn` in `Sub` it is inferred at run time).
///
/// ```
/// use axial_shape::{Shape, Split, axes, shape};
/// axes!(N, Pixels, Rows, Cols);
/// type S = <shape![N: 2, Pixels: 784] as Split<Pixels, shape![Rows: 28, Cols: 28]>>::Output;
/// assert_eq!(S::RANK, 3);
/// ```
pub trait Split<A, Sub>: HasAxis<A> {
    /// The split shape.
    type Output: Shape;
}

impl<S, A, Sub: Shape> Split<A, Sub> for S
where
    S: HasAxis<A> + Find<A, Disp<S>>,
    Sub::Numel: SizeEq<FSize<S, A>>,
    <Sub::Numel as SizeEq<FSize<S, A>>>::Out: SplitFits<A, Disp<S>, Disp<Sub>>,
    Sub: Append<FAfter<S, A>>,
    FBefore<S, A>: Append<Concat<Sub, FAfter<S, A>>>,
    Concat<FBefore<S, A>, Concat<Sub, FAfter<S, A>>>: Distinct,
{
    type Output = Concat<FBefore<S, A>, Concat<Sub, FAfter<S, A>>>;
}
