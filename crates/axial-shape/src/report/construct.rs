//! Constructors and element access: the sizes a constructor needs, indices,
//! `item()`, nested arrays.

use crate::logic::B1;

/// One run-time size per `Dyn` axis (`Self`: whether `Given` has as many).
///
/// What [`DynSizes`](crate::DynSizes) asks of the sizes given (a `usize`
/// for one `Dyn` axis, `[usize; N]` for `N`): as many as `Dyn` axes, so a
/// `DynSizes` that holds gives each `Dyn` axis its size.
/// ```
/// use axial_shape::{DynSizes, axes, shape};
/// axes!(Batch, Channels, Time);
/// type S = shape![Batch: Dyn, Channels: 3, Time: Dyn];
/// assert_eq!(DynSizes::<S>::sizes([4, 9]).as_slice(), &[4, 3, 9]);
/// ```
#[diagnostic::on_unimplemented(
    message = "expected one size per `Dyn` axis of `{Disp}`, found `{Given}`",
    label = "wrong number of sizes",
    note = "give a `usize` for a shape with one `Dyn` axis, `[usize; N]` for `N` of them, in their order"
)]
pub trait SizePerDyn<Given, Disp> {}
#[diagnostic::do_not_recommend]
impl<Given, Disp> SizePerDyn<Given, Disp> for B1 {}

/// Run-time sizes are for `Dyn` axes; a shape with a symbolic size takes
/// none (`Self`: whether it has one).
///
/// What [`DynSizes`](crate::DynSizes) asks of a shape before counting its
/// sizes: no symbol (`B0` has no impl here, and is never asked); a symbol is
/// bound by `realize_in`, which checks it against its scope.
/// ```
/// use axial_shape::{DynSizes, axes, shape};
/// axes!(Batch, Model);
/// fn sizes<G: DynSizes<S>, S: axial_shape::Shape>(g: G) -> usize {
///     g.sizes().len()
/// }
/// assert_eq!(sizes::<usize, shape![Batch: Dyn, Model: 4]>(2), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "shape `{Disp}` has symbolic sizes, which no constructor takes: its tensors come from `realize_in`",
    label = "sizes given for a shape with symbolic sizes",
    note = "create the tensor with `Dyn` where the shape has `Sym<..>` (`zeros_dyn`, `ones_dyn`, ...), then bind its symbols with `x.realize_in(scope)`"
)]
pub trait SymbolicSizes<Disp> {}

/// One coordinate per axis.
///
/// What [`RankIs`](crate::RankIs) asks: as many coordinates as axes (`B1`).
/// ```
/// use axial_shape::report::Coordinates;
/// use axial_shape::{RankIs, Shape, axes, shape};
/// use axial_shape::{Answer, Truth, TruthOf};
/// use typenum::{IsEqual, U2};
/// axes!(Rows, Cols);
/// fn two_coordinates<S: Shape>() -> bool
/// where
///     U2: IsEqual<S::Rank, Output: Answer>,
///     TruthOf<<U2 as IsEqual<S::Rank>>::Output>: Coordinates<2, S::Display>,
/// {
///     <TruthOf<<U2 as IsEqual<S::Rank>>::Output> as Truth>::VALUE == Some(true)
/// }
/// assert!(two_coordinates::<shape![Rows: 2, Cols: 3]>());
/// fn index<S: RankIs<2>>() {}
/// index::<shape![Rows: 2, Cols: 3]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "an index of {N} coordinates does not fit a tensor of shape `{Disp}`",
    label = "one coordinate per axis is needed"
)]
pub trait Coordinates<const N: usize, Disp> {}
#[diagnostic::do_not_recommend]
impl<const N: usize, Disp> Coordinates<N, Disp> for B1 {}

/// A statically sized tensor holds one element.
///
/// What `item()` of `axial` asks: a number of elements that is 1 (`B1`) or
/// `Dyn` (`Unknown`, checked at run time).
/// ```
/// use axial_shape::report::OneElement;
/// use axial_shape::{Shape, SizeEq, Truth, axes, shape};
/// use typenum::U1;
/// axes!(Rows, Cols);
/// fn one_element<S: Shape>() -> Option<bool>
/// where
///     S::Numel: SizeEq<U1>,
///     <S::Numel as SizeEq<U1>>::Out: OneElement<S::Display>,
/// {
///     <<S::Numel as SizeEq<U1>>::Out as Truth>::VALUE
/// }
/// assert_eq!(one_element::<shape![Rows: 1, Cols: 1]>(), Some(true));
/// assert_eq!(one_element::<shape![Rows: Dyn]>(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`item()` needs exactly one element, but a tensor of shape `{Disp}` holds another number",
    label = "not one element"
)]
pub trait OneElement<Disp> {}
holds_or_unknown!(OneElement<Disp>);

/// A shape of exactly two axes.
///
/// What the constructors of matrices in `axial` (`eye`) ask: rank 2 (`B1`).
/// ```
/// use axial_shape::report::TwoAxes;
/// use axial_shape::{Shape, axes, shape};
/// use axial_shape::{Answer, Truth, TruthOf};
/// use typenum::{IsEqual, U2};
/// axes!(Rows, Cols);
/// struct Eye;
/// fn matrix<S: Shape>() -> bool
/// where
///     S::Rank: IsEqual<U2, Output: Answer>,
///     TruthOf<<S::Rank as IsEqual<U2>>::Output>: TwoAxes<Eye, S::Display>,
/// {
///     <TruthOf<<S::Rank as IsEqual<U2>>::Output> as Truth>::VALUE == Some(true)
/// }
/// assert!(matrix::<shape![Rows: 3, Cols: 3]>());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Op}` makes a tensor with two axes, not `{Disp}`",
    label = "not two axes"
)]
pub trait TwoAxes<Op, Disp> {}
#[diagnostic::do_not_recommend]
impl<Op, Disp> TwoAxes<Op, Disp> for B1 {}

/// A nested array has the nesting of the shape (`Self`: the array at the
/// level that does not fit).
///
/// Never implemented: reached only for an array level with no axis left, or a
/// scalar where axes remain; a nested array that fits has one level per axis,
/// each extent checked by [`ExtentFits`].
/// ```
/// use axial_shape::report::ExtentFits;
/// use axial_shape::{ExtentIs, axes};
/// use typenum::{U2, U3};
/// axes!(Rows, Cols);
/// fn fits<Sz: ExtentIs<K>, A, const K: usize>()
/// where
///     Sz::Out: ExtentFits<K, A, (Rows, Cols)>,
/// {
/// }
/// let nested = [[1.0_f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
/// fits::<U2, Rows, 2>(); // the outer array: two rows
/// fits::<U3, Cols, 3>(); // each inner array: three columns
/// assert_eq!((nested.len(), nested[0].len()), (2, 3));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not nest like a tensor of shape `{Disp}`",
    label = "nesting differs from the shape",
    note = "one array level per axis, the outermost axis outermost"
)]
pub trait NestsLike<Disp> {}

/// A nested array's extent matches the axis' static size.
///
/// What a nested array asks of each level: its extent is the axis' static
/// size (`B1`), or the axis is `Dyn` (`Unknown`: it takes the extent).
/// ```
/// use axial_shape::report::ExtentFits;
/// use axial_shape::{Dyn, ExtentIs, Truth, axes};
/// use typenum::U3;
/// axes!(Cols);
/// fn fits<Sz: ExtentIs<K>, const K: usize>() -> Option<bool>
/// where
///     Sz::Out: ExtentFits<K, Cols, (Cols,)>,
/// {
///     <Sz::Out as Truth>::VALUE
/// }
/// assert_eq!(fits::<U3, 3>(), Some(true));
/// assert_eq!(fits::<Dyn, 5>(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "an array of extent {K} cannot fill axis `{A}` of `{Disp}`",
    label = "extent {K} differs from the size of `{A}`"
)]
pub trait ExtentFits<const K: usize, A, Disp> {}
holds_or_unknown!(ExtentFits<A, Disp>, const K);

/// Broadcasting pairs axes of one name from the right (`Self`: the right
/// operand's axis, `A` the left's).
///
/// Never implemented: reached only for two named axes of different names at
/// one position from the right, so a [`BroadcastWith`](crate::BroadcastWith)
/// that holds pairs equal names (or an anonymous axis with any).
/// ```
/// use axial_shape::{BroadcastWith, Shape, axes, shape};
/// axes!(Rows, Cols);
/// type Out = <shape![Rows: 3, Cols: 4] as BroadcastWith<shape![Rows: 3, 1]>>::Output;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("Rows"), Some("Cols")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{Left}` with `{Right}`: axis `{A}` meets `{Self}` at the same position from the right",
    label = "names differ",
    note = "line the axes up first: `x.align_as(&y)` is a view of `x` in `y`'s order, with a size-1 axis for each name `x` lacks (an `[Out]` bias on `[Batch, Out, Rows, Cols]` becomes `[1, Out, 1, 1]`); or `align_to`, or `rename` one of them"
)]
pub trait BroadcastNames<A, Left, Right> {}
