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
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not known to name each axis once",
    label = "needs `Distinct`",
    note = "code generic over a shape that creates or renames tensors asks `{Self}: Distinct`: add the bound `Distinct` (in `axial::prelude`, or `axial::shape::Distinct`)"
)]
pub trait Distinct: Shape {}

// One impl per list form rather than a blanket one, so that a shape
// parameter without the bound is an error about `Distinct` itself (whose
// message says where it lives), not about the helper below.
impl Distinct for Nil {}
impl<N, Sz, T> Distinct for Ax<N, Sz, T> where Self: Shape + DistinctIn<Disp<Self>> {}

/// [`Distinct`], with the display of the whole shape for the message.
pub trait DistinctIn<D> {}
impl<D> DistinctIn<D> for Nil {}
impl<N, Sz, T: Contains<N> + DistinctIn<D>, D> DistinctIn<D> for Ax<N, Sz, T> where
    T::Out: Unique<N, D>
{
}
