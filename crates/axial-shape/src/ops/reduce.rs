//! Reductions by name: the axes a reduction takes (one name or a names
//! list), their positions, and the shapes with them removed or kept as size 1.

use super::Disp;
use crate::display::Flat;
use crate::find::{Contains, Find};
use crate::logic::{B0, B1};
use crate::name::AxisName;
use crate::report::ReducedOnce;
use crate::shape::{Ax, Cons, DisplayOf, Nil, Shape};

/// The axes of a reduction: one axis name (`sum::<Rows>()`) or a names list
/// (`sum::<names![Rows, Cols]>()`), as a list.
///
/// # Example
/// ```
/// use axial_shape::{AxesList, Cons, Nil, axes, names};
/// axes!(Rows, Cols);
/// let _: Option<<Rows as AxesList>::List> = None::<Cons<Rows, Nil>>;
/// let _: Option<<names![Rows, Cols] as AxesList>::List> = None::<names![Rows, Cols]>;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an axis name or a list of names",
    label = "not the axes to reduce",
    note = "reduce over one axis with `sum::<Name>()`, several with `sum::<names![A, B]>()`, every axis with `sum_all()`"
)]
pub trait AxesList {
    /// The names as a list.
    type List;
}
impl<A: AxisName> AxesList for A {
    type List = Cons<A, Nil>;
}
impl<H, T> AxesList for Cons<H, T> {
    type List = Cons<H, T>;
}

/// `sum::<L>()` and the other reductions: the axes `L` (a name or a names
/// list, each an axis of this shape, none twice) reduced away (`Output`) or
/// kept as size 1 (`Kept`, PyTorch's `keepdim=True`).
///
/// # Example
/// ```
/// use axial_shape::{Reduce, Shape, axes, names, shape};
/// axes!(N, C, H, W);
/// type S = shape![N: 2, C: 3, H: 4, W: 5];
/// let mut dims = [0; 4];
/// <S as Reduce<names![W, C]>>::positions(&mut dims);
/// assert_eq!(&dims[..<S as Reduce<names![W, C]>>::COUNT], &[3, 1]);
/// let mut names = [None; 2];
/// <<S as Reduce<names![C, H]>>::Output as Shape>::write_names(&mut names);
/// assert_eq!(names, [Some("N"), Some("W")]);
/// let mut sizes = [None; 4];
/// <<S as Reduce<H>>::Kept as Shape>::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3), Some(1), Some(5)]);
/// ```
pub trait Reduce<L>: Shape {
    /// How many axes are reduced.
    const COUNT: usize;
    /// The shape without the reduced axes.
    type Output: Shape;
    /// The shape with the reduced axes of size 1.
    type Kept: Shape;
    /// Writes the positions of the reduced axes into the first `COUNT` of `out`.
    fn positions(out: &mut [isize]);
}

type ListOf<L> = <L as AxesList>::List;

impl<S: Shape, L: AxesList> Reduce<L> for S
where
    ListOf<L>: Flat + ReduceList<S, Disp<S>, DisplayOf<ListOf<L>>>,
    S: ReduceWalk<ListOf<L>>,
    <S as ReduceWalk<ListOf<L>>>::Output: Shape,
    <S as ReduceWalk<ListOf<L>>>::Kept: Shape,
{
    const COUNT: usize = <ListOf<L> as ReduceList<S, Disp<S>, DisplayOf<ListOf<L>>>>::COUNT;
    type Output = <S as ReduceWalk<ListOf<L>>>::Output;
    type Kept = <S as ReduceWalk<ListOf<L>>>::Kept;

    fn positions(out: &mut [isize]) {
        <ListOf<L> as ReduceList<S, Disp<S>, DisplayOf<ListOf<L>>>>::positions(out);
    }
}

/// The shape a reduction over `L` gives on `S`.
///
/// ```
/// use axial_shape::{Reduced, Shape, axes, names, shape};
/// axes!(N, C, H);
/// type Out = Reduced<shape![N: 2, C: 3, H: 4], names![N, H]>;
/// let mut names = [None; 1];
/// Out::write_names(&mut names);
/// assert_eq!((Out::RANK, names), (1, [Some("C")]));
/// ```
pub type Reduced<S, L> = <L as ReduceOutput<S>>::Output;
/// The shape a reduction over `L` with `keepdim` gives on `S`.
///
/// ```
/// use axial_shape::{ReducedKeep, Shape, axes, shape};
/// axes!(N, C);
/// type Out = ReducedKeep<shape![N: 2, C: 3], C>;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(1)]);
/// ```
pub type ReducedKeep<S, L> = <L as ReduceOutput<S>>::Kept;

/// [`Reduced`]'s trait, with the axes first (see [`Aligned`](crate::Aligned)).
///
/// ```
/// use axial_shape::{ReduceOutput, Shape, axes, shape};
/// axes!(N, C);
/// fn ranks<S, L: ReduceOutput<S>>() -> (usize, usize) {
///     (<L::Output as Shape>::RANK, <L::Kept as Shape>::RANK)
/// }
/// assert_eq!(ranks::<shape![N: 2, C: 3], N>(), (1, 2));
/// ```
pub trait ReduceOutput<S> {
    /// As [`Reduce::Output`].
    type Output: Shape;
    /// As [`Reduce::Kept`].
    type Kept: Shape;
}
impl<L, S: Reduce<L>> ReduceOutput<S> for L {
    type Output = S::Output;
    type Kept = S::Kept;
}

/// The list's axes, each found in `S` and named once.
pub trait ReduceList<S, Disp, ListDisp> {
    /// The list's length.
    const COUNT: usize;
    /// Writes each axis' position in `S`.
    fn positions(out: &mut [isize]);
}
impl<S, Disp, ListDisp> ReduceList<S, Disp, ListDisp> for Nil {
    const COUNT: usize = 0;
    fn positions(_: &mut [isize]) {}
}
impl<H, T, S, Disp, ListDisp> ReduceList<S, Disp, ListDisp> for Cons<H, T>
where
    S: Find<H, Disp>,
    T: Contains<H> + ReduceList<S, Disp, ListDisp>,
    <T as Contains<H>>::Out: ReducedOnce<H, ListDisp>,
{
    const COUNT: usize = 1 + T::COUNT;
    fn positions(out: &mut [isize]) {
        if let Some((first, rest)) = out.split_first_mut() {
            *first = <S as Find<H, Disp>>::POS as isize;
            T::positions(rest);
        }
    }
}

/// The shape with the axes of `L` removed or set to size 1 (never an error).
pub trait ReduceWalk<L> {
    /// Removed.
    type Output;
    /// Set to size 1.
    type Kept;
}
impl<L> ReduceWalk<L> for Nil {
    type Output = Nil;
    type Kept = Nil;
}
impl<N, Sz, T: ReduceWalk<L>, L: Contains<N>> ReduceWalk<L> for Ax<N, Sz, T>
where
    L::Out: ReduceNode<N, Sz, T::Output, T::Kept>,
{
    type Output = <L::Out as ReduceNode<N, Sz, T::Output, T::Kept>>::Output;
    type Kept = <L::Out as ReduceNode<N, Sz, T::Output, T::Kept>>::Kept;
}

/// One axis of [`ReduceWalk`], by whether it is reduced.
pub trait ReduceNode<N, Sz, Rest, RestKept> {
    /// As [`ReduceWalk::Output`].
    type Output;
    /// As [`ReduceWalk::Kept`].
    type Kept;
}
impl<N, Sz, Rest, RestKept> ReduceNode<N, Sz, Rest, RestKept> for B0 {
    type Output = Ax<N, Sz, Rest>;
    type Kept = Ax<N, Sz, RestKept>;
}
impl<N, Sz, Rest, RestKept> ReduceNode<N, Sz, Rest, RestKept> for B1 {
    type Output = Rest;
    type Kept = Ax<N, crate::size::Sz<1>, RestKept>;
}
