//! Reads by index along a named axis: `gather` (an index of the input's
//! axes) and `index_select` (an index of one axis).

use typenum::IsLessOrEqual;

use super::join::{End, Node, Uncons};
use super::{Disp, HasAxis};
use crate::logic::{Answer, B0, B1, Truth, TruthOf, Unknown};
use crate::name::{AxisName, SameName};
use crate::shape::{Ax, Nil, Shape};
use crate::size::{Size, StaticSize};
use crate::sum::{IsDyn, IsStatic, IsSymbolic, SizeKind};

/// `gather::<A>(index)` on a tensor of this shape with an index of shape
/// `SI`: the index has the same axes in the same order (PyTorch: the same
/// number of dims), each at most as long as the input's but along `A`;
/// the result has the index's shape.
///
/// # Example
/// ```
/// use axial_shape::{GatherBy, axes, shape};
/// axes!(Batch, Classes);
/// fn gather<S: GatherBy<SI, A>, SI, A>() -> usize {
///     <S as GatherBy<SI, A>>::POS
/// }
/// assert_eq!(gather::<shape![Batch: 4, Classes: 10], shape![Batch: 4, Classes: 1], Classes>(), 1);
/// ```
pub trait GatherBy<SI, A>: HasAxis<A> {
    /// The position of `A`.
    const POS: usize;
}

impl<S, SI: Shape, A> GatherBy<SI, A> for S
where
    S: HasAxis<A> + GatherZip<SI, A, Disp<S>, Disp<SI>>,
{
    const POS: usize = <S as HasAxis<A>>::POS;
}

/// The pairwise check of [`GatherBy`] (`Input` and `Index` are what
/// messages print), the index taken apart by [`Uncons`] (see
/// [`CatZip`](super::join::CatZip) for why).
pub trait GatherZip<SI, A, Input, Index> {}
impl<SI: Uncons, A, Input, Index> GatherZip<SI, A, Input, Index> for Nil where
    SI::Kind: GatherAfterNil<Input, Index>
{
}
impl<N, Z, T, SI: Uncons, A, Input, Index> GatherZip<SI, A, Input, Index> for Ax<N, Z, T> where
    SI::Kind: GatherAfterAx<N, Z, T, SI, A, Input, Index>
{
}

/// [`GatherZip`] of the end of the input, by the index's kind.
pub trait GatherAfterNil<Input, Index> {}
impl<Input, Index> GatherAfterNil<Input, Index> for End {}
impl<Input, Index> GatherAfterNil<Input, Index> for Node where
    GatherLeftOver: GatherRank<Input, Index>
{
}

/// [`GatherZip`] of an axis `N` of size `Z` of the input, by the index's kind.
pub trait GatherAfterAx<N, Z, T, SI, A, Input, Index> {}
impl<N, Z, T, SI, A, Input, Index> GatherAfterAx<N, Z, T, SI, A, Input, Index> for End where
    GatherLeftOver: GatherRank<Input, Index>
{
}
impl<N, Z, T, SI: Uncons, A, Input, Index> GatherAfterAx<N, Z, T, SI, A, Input, Index> for Node
where
    N: SameName<SI::Name> + SameName<A>,
    <N as SameName<SI::Name>>::Out: GatherNames<N, SI::Name, Input, Index>,
    SI::Size: AtMost<Z>,
    <N as SameName<A>>::Out: GatherFits<<SI::Size as AtMost<Z>>::Out, N, Input, Index>,
    T: GatherZip<SI::Tail, A, Input, Index>,
{
}

/// Whether a size is at most another (known when both are static).
///
/// ```
/// use axial_shape::ops::gather::AtMost;
/// use axial_shape::{Dyn, Sz, Truth};
/// assert_eq!(<<Sz<2> as AtMost<Sz<3>>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<Sz<4> as AtMost<Sz<3>>>::Out as Truth>::VALUE, Some(false));
/// assert_eq!(<<Dyn as AtMost<Sz<3>>>::Out as Truth>::VALUE, None);
/// ```
pub trait AtMost<Z> {
    /// The answer.
    type Out: Truth;
}
impl<ZI: SizeKind, Z: SizeKind> AtMost<Z> for ZI
where
    (ZI::Kind, Z::Kind): AtMostKinds<ZI, Z>,
{
    type Out = <(ZI::Kind, Z::Kind) as AtMostKinds<ZI, Z>>::Out;
}

/// [`AtMost`] by the kinds of the two sizes.
pub trait AtMostKinds<ZI, Z> {
    /// The answer.
    type Out: Truth;
}
impl<ZI: StaticSize, Z: StaticSize> AtMostKinds<ZI, Z> for (IsStatic, IsStatic)
where
    ZI::Number: IsLessOrEqual<Z::Number, Output: Answer>,
{
    type Out = TruthOf<<ZI::Number as IsLessOrEqual<Z::Number>>::Output>;
}
macro_rules! at_most_unknown {
    ($(($a:ty, $b:ty)),*) => {$(
        impl<ZI, Z> AtMostKinds<ZI, Z> for ($a, $b) {
            type Out = Unknown;
        }
    )*};
}
at_most_unknown!(
    (IsStatic, IsDyn),
    (IsStatic, IsSymbolic),
    (IsDyn, IsStatic),
    (IsDyn, IsDyn),
    (IsDyn, IsSymbolic),
    (IsSymbolic, IsStatic),
    (IsSymbolic, IsDyn),
    (IsSymbolic, IsSymbolic)
);

/// One axis of the index fits the input's (`Self`: whether it is the axis
/// gathered along, where any length goes; `Fits`: whether it is at most
/// the input's).
pub trait GatherFits<Fits, N, Input, Index> {}
impl<Fits, N, Input, Index> GatherFits<Fits, N, Input, Index> for B1 {}
impl<Fits: GatherSizes<N, Input, Index>, N, Input, Index> GatherFits<Fits, N, Input, Index> for B0 {}

/// Axes one of `gather`'s operands has beyond the other.
pub struct GatherLeftOver;

/// `gather`'s index has the input's axes (`Self`: whether this pair has one
/// name).
///
/// What [`GatherBy`] asks of each pair of axes.
/// ```
/// use axial_shape::{GatherBy, axes, shape};
/// axes!(Rows, Cols);
/// fn gather<S: GatherBy<SI, A>, SI, A>() {}
/// gather::<shape![Rows: 2, Cols: 3], shape![Rows: 2, Cols: 7], Cols>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot gather from `{Input}` with an index of shape `{Index}`: axis `{Had}` meets `{Wanted}`",
    label = "the axes differ here",
    note = "`gather`'s index has the input's axes in the input's order; `align_as` lines them up"
)]
pub trait GatherNames<Had, Wanted, Input, Index> {}
#[diagnostic::do_not_recommend]
impl<Had, Wanted, Input, Index> GatherNames<Had, Wanted, Input, Index> for B1 {}

/// `gather`'s index is at most as long as the input along every axis but
/// the one gathered along.
///
/// What [`GatherBy`] asks of each other axis: the index's size is at most
/// the input's (`Unknown` with a run-time size, checked then).
/// ```
/// use axial_shape::{GatherBy, axes, shape};
/// axes!(Rows, Cols);
/// fn gather<S: GatherBy<SI, A>, SI, A>() {}
/// gather::<shape![Rows: 3, Cols: 3], shape![Rows: 2, Cols: 5], Cols>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot gather from `{Input}` with an index of shape `{Index}`: the index is longer along `{N}`",
    label = "the index's `{N}` is longer than the input's",
    note = "only along the axis gathered may the index be longer than the input"
)]
pub trait GatherSizes<N, Input, Index> {}
#[diagnostic::do_not_recommend]
impl<N, Input, Index> GatherSizes<N, Input, Index> for B1 {}
#[diagnostic::do_not_recommend]
impl<N, Input, Index> GatherSizes<N, Input, Index> for Unknown {}

/// `gather`'s index has as many axes as the input (`Self`: the axes left
/// over).
///
/// Never implemented: reached only when one side has axes the other lacks.
/// ```
/// use axial_shape::{GatherBy, axes, shape};
/// axes!(Rows);
/// fn gather<S: GatherBy<SI, A>, SI, A>() {}
/// gather::<shape![Rows: 3], shape![Rows: 5], Rows>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot gather from `{Input}` with an index of shape `{Index}`: they have different numbers of axes",
    label = "ranks differ",
    note = "`gather`'s index has the input's axes (`unsqueeze` adds one of size 1); `index_select` takes an index of one axis"
)]
pub trait GatherRank<Input, Index> {}

/// The index of `index_select`: one axis, whose name and size the result
/// takes at the place of the axis selected along.
///
/// ```
/// use axial_shape::{IndexAxis, Size, axes, shape};
/// axes!(Token);
/// fn one<I: IndexAxis>() -> Option<usize> {
///     <I::Size as Size>::STATIC
/// }
/// assert_eq!(one::<shape![Token: 5]>(), Some(5));
/// ```
#[diagnostic::on_unimplemented(
    message = "the index of `index_select` has one axis, not `{Self}`",
    label = "not a one-axis index",
    note = "`gather` takes an index of the input's axes"
)]
pub trait IndexAxis: Shape {
    /// The axis' name.
    type Name: AxisName;
    /// Its size.
    type Size: Size;
}
impl<N: AxisName, Z: Size> IndexAxis for Ax<N, Z, Nil>
where
    Ax<N, Z, Nil>: Shape,
{
    type Name = N;
    type Size = Z;
}
