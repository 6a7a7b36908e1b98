//! Reshapes and axis views: element counts, indices, squeezes, splits and merges,
//! `t()`, `transpose` and `diagonal`.

use crate::logic::{B0, B1};

/// Two static element counts are equal.
///
/// What [`ReshapeTo`](crate::ReshapeTo) asks of the element counts: `B1`
/// (equal) or `Unknown` (a `Dyn` size, checked at run time).
/// ```
/// use axial_shape::report::SameNumel;
/// use axial_shape::{Shape, SizeEq, Truth, axes, shape};
/// axes!(Rows, Cols, Pixels);
/// fn same<From: Shape, To: Shape>() -> Option<bool>
/// where
///     From::Numel: SizeEq<To::Numel>,
///     <From::Numel as SizeEq<To::Numel>>::Out: SameNumel<From::Display, To::Display>,
/// {
///     <<From::Numel as SizeEq<To::Numel>>::Out as Truth>::VALUE
/// }
/// assert_eq!(same::<shape![Rows: 3, Cols: 4], shape![Pixels: 12]>(), Some(true));
/// assert_eq!(same::<shape![Rows: Dyn, Cols: 4], shape![Pixels: 12]>(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot reshape a tensor of shape `{From}` into `{To}`: they hold different numbers of elements",
    label = "element counts differ",
    note = "a `Dyn` size would defer this check to run time"
)]
pub trait SameNumel<From, To> {}
holds_or_unknown!(SameNumel<From, To>);

/// A literal index lies inside its axis.
///
/// What [`SelectAt`](crate::SelectAt) asks of a literal index: below the
/// axis' size (`B1`), or an axis of `Dyn` size (`Unknown`, checked at run
/// time).
/// ```
/// use axial_shape::{SelectAt, axes, shape};
/// axes!(Rows, Cols);
/// fn select<S: SelectAt<A, I>, A, const I: usize>() {}
/// select::<shape![Rows: 3, Cols: 4], Cols, 3>();
/// select::<shape![Rows: Dyn, Cols: 4], Rows, 100>();
/// ```
#[diagnostic::on_unimplemented(
    message = "index {I} is out of range for axis `{A}` of `{Disp}`",
    label = "index {I} is past the end of `{A}`"
)]
pub trait InRange<const I: usize, A, Disp> {}
holds_or_unknown!(InRange<A, Disp>, const I);

/// A position at which to insert an axis (0 to the rank).
///
/// What [`Unsqueeze`](crate::Unsqueeze) asks of its position: at most the
/// rank.
/// ```
/// use axial_shape::{Shape, Unsqueeze, axes, shape};
/// axes!(Rows, Cols, One);
/// type Last = <shape![Rows: 3, Cols: 4] as Unsqueeze<One, 2>>::Output;
/// let mut names = [None; 3];
/// Last::write_names(&mut names);
/// assert_eq!(names, [Some("Rows"), Some("Cols"), Some("One")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot insert an axis at position {AT} of `{Disp}`",
    label = "position {AT} is past the last axis"
)]
pub trait InsertPosition<const AT: usize, Disp> {}
#[diagnostic::do_not_recommend]
impl<const AT: usize, Disp> InsertPosition<AT, Disp> for B1 {}

/// `squeeze` removes only an axis of size 1.
///
/// What [`Squeeze`](crate::Squeeze) asks of the axis: size 1 (`B1`), or
/// `Dyn` (`Unknown`, checked at run time).
/// ```
/// use axial_shape::report::SizeOne;
/// use axial_shape::{Size, SizeEq, Squeeze, Truth, axes, shape};
/// axes!(One, Rows);
/// fn size_one<Sz: Size + SizeEq<typenum::U1>>() -> Option<bool>
/// where
///     Sz::Out: SizeOne<One, (One,)>,
/// {
///     <Sz::Out as Truth>::VALUE
/// }
/// assert_eq!(size_one::<typenum::U1>(), Some(true));
/// assert_eq!(size_one::<axial_shape::Dyn>(), None);
/// fn squeeze<S: Squeeze<A>, A>() {}
/// squeeze::<shape![One: 1, Rows: 3], One>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot squeeze axis `{A}` of `{Disp}`: its size is not 1",
    label = "`{A}` does not have size 1"
)]
pub trait SizeOne<A, Disp> {}
holds_or_unknown!(SizeOne<A, Disp>);

/// `split`'s new sizes multiply to the axis' size.
///
/// What [`Split`](crate::Split) asks of the new sizes: their product is the
/// axis' size (or either is `Dyn`, checked at run time).
/// ```
/// use axial_shape::{Shape, Split, axes, shape};
/// axes!(Pixels, Rows, Cols);
/// type Out = <shape![Pixels: 12] as Split<Pixels, shape![Rows: 3, Cols: 4]>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(4)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot split axis `{A}` of `{Disp}` into `{Into}`: the sizes do not multiply to its size",
    label = "sizes do not multiply to the size of `{A}`"
)]
pub trait SplitFits<A, Disp, Into> {}
holds_or_unknown!(SplitFits<A, Disp, Into>);

/// `merge` takes adjacent axes, in order (`Self`: whether the next one follows).
///
/// What [`Merge`](crate::Merge) asks of each axis after the first: it comes
/// next (`B1`).
/// ```
/// use axial_shape::{Merge, axes, names, shape};
/// axes!(N, C, H, W, HW);
/// type S = shape![N: 2, C: 3, H: 4, W: 5];
/// assert_eq!(<S as Merge<names![H, W], HW>>::POS, 2);
/// assert_eq!(<S as Merge<names![H, W], HW>>::LEN, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot merge `{List}` in `{Disp}`: the axes must be adjacent and in this order",
    label = "not adjacent in this order",
    note = "`align_to` can bring them together first (a view), then `merge`"
)]
pub trait Adjacent<List, Disp> {}
#[diagnostic::do_not_recommend]
impl<List, Disp> Adjacent<List, Disp> for B1 {}

/// `t()` takes at most two axes (`Self`: the shape).
///
/// Never implemented: reached only for a shape of three or more axes, so a
/// [`TransposeT`](crate::TransposeT) that holds has at most two.
/// ```
/// use axial_shape::{Shape, TransposeT, TransposedT, axes, shape};
/// axes!(Rows, Cols);
/// fn t<S: TransposeT>() -> [Option<&'static str>; 2]
/// where
///     S::Output: Shape,
/// {
///     let mut names = [None; 2];
///     <S::Output as Shape>::write_names(&mut names);
///     names
/// }
/// assert_eq!(t::<shape![Rows: 2, Cols: 3]>(), [Some("Cols"), Some("Rows")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`t()` needs a tensor with at most 2 axes, but `{Self}` has more",
    label = "more than 2 axes",
    note = "name the two axes to swap with `transpose::<A, B>()`"
)]
pub trait AtMostTwoAxes {}

/// `diagonal` takes two different axes.
///
/// What [`Diagonal`](crate::Diagonal) asks of its two axes: different names
/// (`B0` from [`SameName`](crate::SameName)).
/// ```
/// use axial_shape::report::DifferentAxes;
/// use axial_shape::{Diagonal, SameName, Truth, axes, shape};
/// axes!(Rows, Cols, Diag);
/// fn different<A: SameName<B>, B>() -> Option<bool>
/// where
///     A::Out: DifferentAxes<A, (Rows, Cols)>,
/// {
///     <A::Out as Truth>::VALUE
/// }
/// assert_eq!(different::<Rows, Cols>(), Some(false));
/// assert_eq!(<shape![Rows: 3, Cols: 3] as Diagonal<Cols, Rows, Diag>>::POSITIONS, (1, 0));
/// ```
#[diagnostic::on_unimplemented(
    message = "`diagonal` needs two different axes of `{Disp}`, got `{A}` twice",
    label = "the same axis twice"
)]
pub trait DifferentAxes<A, Disp> {}
#[diagnostic::do_not_recommend]
impl<A, Disp> DifferentAxes<A, Disp> for B0 {}

/// `transpose` takes two different axes.
///
/// What [`Transpose`](crate::Transpose) asks of its two axes: different
/// names (`B0` from [`SameName`](crate::SameName)).
/// ```
/// use axial_shape::report::SwapDifferent;
/// use axial_shape::{SameName, Transpose, Truth, axes, shape};
/// axes!(Rows, Cols);
/// fn different<A: SameName<B>, B>() -> Option<bool>
/// where
///     A::Out: SwapDifferent<A, (Rows, Cols)>,
/// {
///     <A::Out as Truth>::VALUE
/// }
/// assert_eq!(different::<Rows, Cols>(), Some(false));
/// assert_eq!(<shape![Rows: 2, Cols: 3] as Transpose<Cols, Rows>>::POSITIONS, (1, 0));
/// ```
#[diagnostic::on_unimplemented(
    message = "`transpose` needs two different axes of `{Disp}`, got `{A}` twice",
    label = "the same axis twice",
    note = "swapping an axis with itself changes nothing; name the other axis"
)]
pub trait SwapDifferent<A, Disp> {}
#[diagnostic::do_not_recommend]
impl<A, Disp> SwapDifferent<A, Disp> for B0 {}
