//! Views that take two axes or add one at the end: `diagonal` and `unfold`.

use super::Disp;
use crate::find::{Append, Concat, Contains, Find};
use crate::logic::{B0, B1};
use crate::name::{AxisName, SameName};
use crate::report::{DifferentAxes, Fresh};
use crate::shape::{Ax, Nil, Shape};
use crate::size::Dyn;

use super::HasAxis;

/// `diagonal::<A, B, New>(offset)`: `A` and `B` removed, their diagonal
/// appended as the axis `New` (its length depends on the offset: `Dyn`).
///
/// # Example
/// ```
/// use axial_shape::{Diagonal, Shape, axes, shape};
/// axes!(Rows, Cols, Diag);
/// type S = shape![Rows: 3, Cols: 4];
/// assert_eq!(<S as Diagonal<Rows, Cols, Diag>>::POSITIONS, (0, 1));
/// assert_eq!(<<S as Diagonal<Rows, Cols, Diag>>::Output as Shape>::RANK, 1);
/// ```
pub trait Diagonal<A, B, New>: Shape {
    /// The positions of `A` and `B`.
    const POSITIONS: (usize, usize);
    /// The shape with the diagonal last.
    type Output: Shape;
}

type Kept<S, A, B> = <S as DropTwo<A, B>>::Out;

impl<S, A: AxisName, B, New: AxisName> Diagonal<A, B, New> for S
where
    S: Shape + Find<A, Disp<S>> + Find<B, Disp<S>> + DropTwo<A, B>,
    A: SameName<B>,
    <A as SameName<B>>::Out: DifferentAxes<A, Disp<S>>,
    Kept<S, A, B>: Contains<New> + Append<Ax<New, Dyn, Nil>>,
    <Kept<S, A, B> as Contains<New>>::Out: Fresh<New, Disp<S>>,
    Concat<Kept<S, A, B>, Ax<New, Dyn, Nil>>: Shape,
{
    const POSITIONS: (usize, usize) = (<S as Find<A, Disp<S>>>::POS, <S as Find<B, Disp<S>>>::POS);
    type Output = Concat<Kept<S, A, B>, Ax<New, Dyn, Nil>>;
}

/// The shape without the axes `A` and `B` (never an error).
pub trait DropTwo<A, B> {
    /// The remaining axes.
    type Out;
}
impl<A, B> DropTwo<A, B> for Nil {
    type Out = Nil;
}
impl<N, Sz, T, A, B> DropTwo<A, B> for Ax<N, Sz, T>
where
    N: SameName<A> + SameName<B>,
    (<N as SameName<A>>::Out, <N as SameName<B>>::Out): DropNode<Ax<N, Sz, T>, A, B>,
{
    type Out =
        <(<N as SameName<A>>::Out, <N as SameName<B>>::Out) as DropNode<Ax<N, Sz, T>, A, B>>::Out;
}

/// One node of [`DropTwo`].
pub trait DropNode<Node, A, B> {
    /// The node kept or dropped, and the tail.
    type Out;
}
impl<N, Sz, T: DropTwo<A, B>, A, B> DropNode<Ax<N, Sz, T>, A, B> for (B0, B0) {
    type Out = Ax<N, Sz, T::Out>;
}
impl<N, Sz, T: DropTwo<A, B>, A, B> DropNode<Ax<N, Sz, T>, A, B> for (B1, B0) {
    type Out = T::Out;
}
impl<N, Sz, T: DropTwo<A, B>, A, B> DropNode<Ax<N, Sz, T>, A, B> for (B0, B1) {
    type Out = T::Out;
}
impl<N, Sz, T: DropTwo<A, B>, A, B> DropNode<Ax<N, Sz, T>, A, B> for (B1, B1) {
    type Out = T::Out;
}

/// `unfold::<A, New>(size, step)`: `A` becomes the number of windows (`Dyn`)
/// and each window is the new last axis `New` (`Dyn`).
///
/// ```
/// use axial_shape::{Shape, Unfold, axes, shape};
/// axes!(Time, Window);
/// assert_eq!(<<shape![Time: 10] as Unfold<Time, Window>>::Output as Shape>::RANK, 2);
/// ```
pub trait Unfold<A, New>: HasAxis<A> {
    /// The shape with the windows.
    type Output: Shape;
}

impl<S, A, New: AxisName> Unfold<A, New> for S
where
    S: HasAxis<A> + Contains<New>,
    <S as Contains<New>>::Out: Fresh<New, Disp<S>>,
    S::Resized: Append<Ax<New, Dyn, Nil>>,
    Concat<S::Resized, Ax<New, Dyn, Nil>>: Shape,
{
    type Output = Concat<S::Resized, Ax<New, Dyn, Nil>>;
}
