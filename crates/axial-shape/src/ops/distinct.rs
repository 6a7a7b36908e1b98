//! Every axis named once.

use super::Disp;
use crate::find::Contains;
use crate::report::Unique;
use crate::shape::{Ax, Nil, Shape};

/// The shape names each axis once (checked where a shape comes from the user:
/// constructors, `reshape`, `split`, `refine_names`).
///
/// # Example
/// ```
/// use axial_shape::{Distinct, axes, shape};
/// axes!(Rows, Cols);
/// fn ok<S: Distinct>() {}
/// ok::<shape![Rows: 2, Cols: 3]>();
/// ```
pub trait Distinct: Shape {}

impl<S: Shape + DistinctIn<Disp<S>>> Distinct for S {}

/// [`Distinct`], with the display of the whole shape for the message.
pub trait DistinctIn<D> {}
impl<D> DistinctIn<D> for Nil {}
impl<N, Sz, T: Contains<N> + DistinctIn<D>, D> DistinctIn<D> for Ax<N, Sz, T> where
    T::Out: Unique<N, D>
{
}
