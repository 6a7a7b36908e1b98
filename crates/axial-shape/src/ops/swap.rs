//! `transpose::<A, B>()` and `t()`.

use super::{Disp, FName, FSize};
use crate::find::Find;
use crate::logic::{B0, B1};
use crate::name::SameName;
use crate::report::{AtMostTwoAxes, SwapDifferent};
use crate::shape::{Ax, Nil, Shape};

/// `transpose::<A, B>()`: the axes `A` and `B` swapped, with their sizes.
/// `A` and `B` are two different axes (`transpose::<A, A>()` would do
/// nothing, and is far more likely a typo than a wish).
///
/// # Example
/// ```
/// use axial_shape::{Shape, Transpose, axes, shape};
/// axes!(N, C, H);
/// type S = shape![N: 2, C: 3, H: 4];
/// assert_eq!(<S as Transpose<N, H>>::POSITIONS, (0, 2));
/// let mut names = [None; 3];
/// <S as Transpose<N, H>>::Output::write_names(&mut names);
/// assert_eq!(names, [Some("H"), Some("C"), Some("N")]);
/// ```
pub trait Transpose<A, B>: Shape {
    /// The positions of `A` and `B`.
    const POSITIONS: (usize, usize);
    /// The shape with the two swapped.
    type Output: Shape;
}

impl<S, A, B> Transpose<A, B> for S
where
    S: Shape + Find<A, Disp<S>> + Find<B, Disp<S>>,
    A: SameName<B>,
    <A as SameName<B>>::Out: SwapDifferent<A, Disp<S>>,
    S: SwapWalk<A, B, (FName<S, B>, FSize<S, B>), (FName<S, A>, FSize<S, A>)>,
    <S as SwapWalk<A, B, (FName<S, B>, FSize<S, B>), (FName<S, A>, FSize<S, A>)>>::Out: Shape,
{
    const POSITIONS: (usize, usize) = (<S as Find<A, Disp<S>>>::POS, <S as Find<B, Disp<S>>>::POS);
    type Output =
        <S as SwapWalk<A, B, (FName<S, B>, FSize<S, B>), (FName<S, A>, FSize<S, A>)>>::Out;
}

/// Rewrites the axis `A` as `ForA` and `B` as `ForB` (each a `(name, size)`),
/// keeping the rest; never an error (the lookups check the names).
pub trait SwapWalk<A, B, ForA, ForB> {
    /// The rewritten shape.
    type Out;
}

impl<A, B, ForA, ForB> SwapWalk<A, B, ForA, ForB> for Nil {
    type Out = Nil;
}

impl<N, Sz, T, A, B, ForA, ForB> SwapWalk<A, B, ForA, ForB> for Ax<N, Sz, T>
where
    N: SameName<A> + SameName<B>,
    (<N as SameName<A>>::Out, <N as SameName<B>>::Out): SwapNode<Ax<N, Sz, T>, A, B, ForA, ForB>,
{
    type Out = <(<N as SameName<A>>::Out, <N as SameName<B>>::Out) as SwapNode<
        Ax<N, Sz, T>,
        A,
        B,
        ForA,
        ForB,
    >>::Out;
}

/// One node of [`SwapWalk`], chosen by whether it is `A`, `B` or neither.
pub trait SwapNode<Node, A, B, ForA, ForB> {
    /// The rewritten node and tail.
    type Out;
}

impl<N, Sz, T: SwapWalk<A, B, ForA, ForB>, A, B, ForA, ForB>
    SwapNode<Ax<N, Sz, T>, A, B, ForA, ForB> for (B0, B0)
{
    type Out = Ax<N, Sz, T::Out>;
}
impl<N, Sz, T: SwapWalk<A, B, (NA, SA), ForB>, A, B, NA, SA, ForB>
    SwapNode<Ax<N, Sz, T>, A, B, (NA, SA), ForB> for (B1, B0)
{
    type Out = Ax<NA, SA, T::Out>;
}
impl<N, Sz, T: SwapWalk<A, B, ForA, (NB, SB)>, A, B, ForA, NB, SB>
    SwapNode<Ax<N, Sz, T>, A, B, ForA, (NB, SB)> for (B0, B1)
{
    type Out = Ax<NB, SB, T::Out>;
}
/// `A` and `B` the same axis: refused by [`Transpose`] (`SwapDifferent`);
/// the walk still goes through, so that the refusal is the only error.
impl<N, Sz, T: SwapWalk<A, B, ForA, ForB>, A, B, ForA, ForB>
    SwapNode<Ax<N, Sz, T>, A, B, ForA, ForB> for (B1, B1)
{
    type Out = Ax<N, Sz, T::Out>;
}

/// `t()`: a tensor of at most two axes with them swapped (0 and 1 axes are
/// unchanged). The output is [`TransposedT`]; the check that there are
/// at most two axes is this trait, kept apart so a failed check never hides
/// the method.
///
/// ```
/// use axial_shape::{Shape, TransposeT, TransposedT, axes, shape};
/// axes!(Rows, Cols);
/// fn ok<S: TransposeT>() {}
/// ok::<shape![Rows: 2, Cols: 3]>();
/// let mut names = [None; 2];
/// <<shape![Rows: 2, Cols: 3] as TransposedT>::Output as Shape>::write_names(&mut names);
/// assert_eq!(names, [Some("Cols"), Some("Rows")]);
/// ```
pub trait TransposeT: Shape + TransposedT {}

impl TransposeT for Nil {}
impl<A, SA> TransposeT for Ax<A, SA, Nil> where Self: Shape {}
impl<A, SA, B, SB> TransposeT for Ax<A, SA, Ax<B, SB, Nil>> where Self: Shape {}
impl<A, SA, B, SB, C, SC, T> TransposeT for Ax<A, SA, Ax<B, SB, Ax<C, SC, T>>>
where
    Self: Shape,
    Disp<Self>: AtMostTwoAxes,
{
}

/// The shape `t()` gives (any rank; a tensor of more than two axes is
/// unchanged here and refused by [`TransposeT`]).
///
/// ```
/// use axial_shape::{Shape, TransposedT, axes, shape};
/// axes!(Rows, Cols);
/// fn swapped_names<S: TransposedT>() -> [Option<&'static str>; 2]
/// where
///     S::Output: Shape,
/// {
///     let mut names = [None; 2];
///     <S::Output as Shape>::write_names(&mut names);
///     names
/// }
/// assert_eq!(swapped_names::<shape![Rows: 2, Cols: 3]>(), [Some("Cols"), Some("Rows")]);
/// ```
pub trait TransposedT {
    /// The swapped shape.
    type Output;
}
impl TransposedT for Nil {
    type Output = Nil;
}
impl<A, SA> TransposedT for Ax<A, SA, Nil> {
    type Output = Self;
}
impl<A, SA, B, SB> TransposedT for Ax<A, SA, Ax<B, SB, Nil>> {
    type Output = Ax<B, SB, Ax<A, SA, Nil>>;
}
impl<A, SA, B, SB, C, SC, T> TransposedT for Ax<A, SA, Ax<B, SB, Ax<C, SC, T>>> {
    type Output = Self;
}
