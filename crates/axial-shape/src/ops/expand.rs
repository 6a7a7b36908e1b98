//! `expand::<S2>()`: broadcasting to a shape, pairing axes from the right.

use typenum::U1;

use crate::id::IdKind;
use crate::logic::{Or, OrWith};
use crate::name::{AxisName, SameName};
use crate::report::{ExpandNames, ExpandRank, ExpandSize};
use crate::shape::{Ax, Nil, Shape};
use crate::size::SizeEq;

use super::Disp;

/// `expand::<S2>()`: this tensor broadcast to `S2`. Axes pair up from the
/// right; each pair has one name (an anonymous axis takes the target's), and
/// each size is 1 or the target's. A `Dyn` size defers its check to run time.
///
/// # Example
/// ```
/// use axial_shape::{ExpandTo, axes, shape};
/// axes!(Batch, Rows, Cols);
/// fn ok<S: ExpandTo<S2>, S2>() {}
/// ok::<shape![Rows: 1, Cols: 4], shape![Batch: 2, Rows: 3, Cols: 4]>();
/// ```
pub trait ExpandTo<S2>: Shape {}

impl<S: Shape + Reverse<Nil>, S2: Shape + Reverse<Nil>> ExpandTo<S2> for S where
    <S as Reverse<Nil>>::Out: ExpandZip<<S2 as Reverse<Nil>>::Out, Disp<S>, Disp<S2>>
{
}

/// The axes in reverse order, in front of `Acc`.
pub trait Reverse<Acc> {
    /// The reversed list.
    type Out;
}
impl<Acc> Reverse<Acc> for Nil {
    type Out = Acc;
}
impl<N, Sz, T: Reverse<Ax<N, Sz, Acc>>, Acc> Reverse<Acc> for Ax<N, Sz, T> {
    type Out = T::Out;
}

/// Axes of the source that the target lacks.
pub struct LeftOver;

/// The pairwise check of reversed source and target.
pub trait ExpandZip<Target, From, To> {}
impl<Target, From, To> ExpandZip<Target, From, To> for Nil {}
impl<N, Sz, T, From, To> ExpandZip<Nil, From, To> for Ax<N, Sz, T> where
    LeftOver: ExpandRank<From, To>
{
}
impl<N: AxisName, Sz, T, B, SB, T2, From, To> ExpandZip<Ax<B, SB, T2>, From, To> for Ax<N, Sz, T>
where
    N::Id: IdKind,
    N: SameName<B>,
    <N::Id as IdKind>::Anon: OrWith<<N as SameName<B>>::Out>,
    Or<<N::Id as IdKind>::Anon, <N as SameName<B>>::Out>: ExpandNames<N, B, From, To>,
    Sz: SizeEq<U1> + SizeEq<SB>,
    <Sz as SizeEq<U1>>::Out: OrWith<<Sz as SizeEq<SB>>::Out>,
    Or<<Sz as SizeEq<U1>>::Out, <Sz as SizeEq<SB>>::Out>: ExpandSize<N, From, To>,
    T: ExpandZip<T2, From, To>,
{
}
