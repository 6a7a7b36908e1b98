//! `realize::<S2>()`: the same axes with sizes checked against `S2`.

use crate::name::SameName;
use crate::report::{RealizeNames, RealizeRank, RealizeSize};
use crate::shape::{Ax, Nil, Shape};
use crate::size::SizeEq;

use super::Disp;

/// `realize::<S2>()`: the shape `S2`, whose names are this shape's; sizes
/// proven equal where both are static, else checked at run time.
///
/// # Example
/// ```
/// use axial_shape::{Realize, axes, shape};
/// axes!(Batch, Channels);
/// fn ok<S: Realize<S2>, S2>() {}
/// ok::<shape![Batch: Dyn, Channels: 3], shape![Batch: 8, Channels: 3]>();
/// ```
pub trait Realize<S2>: Shape {}

impl<S: Shape + RealizeZip<S2, Disp<S>, Disp<S2>>, S2: Shape> Realize<S2> for S {}

/// Axes one side has beyond the other.
pub struct LeftOver;

/// The pairwise check of [`Realize`].
pub trait RealizeZip<S2, From, To> {}
impl<From, To> RealizeZip<Nil, From, To> for Nil {}
impl<B, SB, T2, From, To> RealizeZip<Ax<B, SB, T2>, From, To> for Nil where
    LeftOver: RealizeRank<From, To>
{
}
impl<N, Sz, T, From, To> RealizeZip<Nil, From, To> for Ax<N, Sz, T> where
    LeftOver: RealizeRank<From, To>
{
}
impl<N: SameName<B>, Sz: SizeEq<SB>, T: RealizeZip<T2, From, To>, B, SB, T2, From, To>
    RealizeZip<Ax<B, SB, T2>, From, To> for Ax<N, Sz, T>
where
    N::Out: RealizeNames<N, B, From, To>,
    Sz::Out: RealizeSize<N, From, To>,
{
}
