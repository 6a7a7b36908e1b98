//! The compile errors: each trait here is a leaf, implemented only for the
//! answer that is fine (`B1`, or `Unknown` when a run-time check follows), so
//! a wrong program stops at one of them and rustc prints its message. The
//! messages name axes and shapes as tuples of names, never typenum numbers.
//!
//! Each is shown failing, with the compiler's full output, by a case of the
//! repository's `ui-tests/fail` (one per mistake).
//!
//! ```compile_fail
//! use axial_shape::{HasAxis, axes, shape};
//! axes!(Batch, Channels, Height);
//! fn select<S: HasAxis<A>, A>() {}
//! // error: tensor of shape `(Batch, Channels)` has no axis `Height`
//! select::<shape![Batch: 2, Channels: 3], Height>();
//! ```

use crate::logic::{B0, B1, Unknown};

pub use crate::ops::gather::{GatherNames, GatherRank, GatherSizes};
pub use crate::ops::join::{CatNames, CatRank, CatSizes};
pub use crate::ops::pick::{TopkFits, TriangleAxes, WindowFits, WindowStep};
pub use crate::sum::SameSymbolicSize;

/// The answer is true, or unknown until run time.
macro_rules! holds_or_unknown {
    ($trait:ident < $($p:ident),* > $(, const $c:ident)?) => {
        #[diagnostic::do_not_recommend]
        impl<$(const $c: usize,)? $($p),*> $trait<$($c,)? $($p),*> for B1 {}
        #[diagnostic::do_not_recommend]
        impl<$(const $c: usize,)? $($p),*> $trait<$($c,)? $($p),*> for Unknown {}
    };
}

/// No other axis has this name (`Self` is whether one does).
///
/// What `unsqueeze`, `rename`, `merge` and `diagonal` ask of a new name: the
/// answer of [`Contains`](crate::Contains) is `B0`.
/// ```
/// use axial_shape::report::Fresh;
/// use axial_shape::{Contains, Shape, Truth, axes, shape};
/// axes!(Batch, Channels, Heads);
/// fn new_name<S: Shape + Contains<A>, A>() -> Option<bool>
/// where
///     S::Out: Fresh<A, S::Display>,
/// {
///     <S::Out as Truth>::VALUE
/// }
/// assert_eq!(new_name::<shape![Batch: 2, Channels: 3], Heads>(), Some(false));
/// ```
#[diagnostic::on_unimplemented(
    message = "tensor of shape `{Disp}` already has an axis `{A}`",
    label = "`{A}` is already an axis of `{Disp}`",
    note = "axis names must be unique; pick another name or `rename` the other axis first"
)]
pub trait Fresh<A, Disp> {}
#[diagnostic::do_not_recommend]
impl<A, Disp> Fresh<A, Disp> for B0 {}

/// A shape names each axis once (`Self` is whether the rest repeats `A`).
///
/// What [`Distinct`](crate::Distinct) asks of each axis: the axes after it do
/// not name it again.
/// ```
/// use axial_shape::report::Unique;
/// use axial_shape::{Contains, Distinct, Shape, Truth, axes, shape};
/// axes!(Batch, Channels);
/// fn not_again<Rest: Shape + Contains<A>, A>() -> Option<bool>
/// where
///     Rest::Out: Unique<A, Rest::Display>,
/// {
///     <Rest::Out as Truth>::VALUE
/// }
/// assert_eq!(not_again::<shape![Channels: 3], Batch>(), Some(false));
/// fn distinct<S: Distinct>() {}
/// distinct::<shape![Batch: 2, Channels: 3]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "shape `{Disp}` names axis `{A}` twice",
    label = "`{A}` appears twice in `{Disp}`",
    note = "axis names must be unique"
)]
pub trait Unique<A, Disp> {}
#[diagnostic::do_not_recommend]
impl<A, Disp> Unique<A, Disp> for B0 {}

/// `align_to` takes each axis once (`Self`: the name asked for again).
///
/// Never implemented: reached only for a name `align_to` takes a second time,
/// so an [`AlignTo`](crate::AlignTo) that holds names each axis once.
/// ```
/// use axial_shape::{AlignTo, Aligned, Shape, axes, names, shape};
/// axes!(N, C);
/// fn align<S: AlignTo<L>, L>() -> usize {
///     <Aligned<S, L> as Shape>::RANK
/// }
/// assert_eq!(align::<shape![N: 2, C: 3], names![C, N]>(), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`align_to` names axis `{Self}` twice in `{List}`",
    label = "`{Self}` named twice",
    note = "each axis of `{Disp}` goes to exactly one place"
)]
pub trait NamedOnce<List, Disp> {}

/// `align_to` takes only axes the tensor has (`Self`: the missing name).
///
/// Never implemented: reached only for a name the tensor lacks, so an
/// [`AlignTo`](crate::AlignTo) that holds takes existing axes and `New` ones.
/// ```
/// use axial_shape::{AlignTo, Shape, axes, names, shape};
/// axes!(N, C, H);
/// type Out = <shape![N: 2, C: 3] as AlignTo<names![N, New<H>, C]>>::Output;
/// let mut sizes = [None; 3];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(1), Some(3)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "tensor of shape `{Disp}` has no axis `{Self}`",
    label = "no axis `{Self}` in `{Disp}`",
    note = "to insert a new axis of size 1, write `New<{Self}>`"
)]
pub trait AxisOf<Disp> {}

/// `align_to` without `...` names every axis (`Self`: the axes left out).
///
/// Implemented for `()` (no axis left out); `...` takes the axes not named.
/// ```
/// use axial_shape::report::AllNamed;
/// use axial_shape::{AlignTo, Shape, axes, names, shape};
/// axes!(N, C, H);
/// fn nothing_left<Left: AllNamed<List, Disp>, List, Disp>() {}
/// nothing_left::<(), (C, N), (N, C)>();
/// let mut plan = [None; 3];
/// <shape![N: 2, C: 3, H: 4] as AlignTo<names![H, ...]>>::plan(&mut plan);
/// assert_eq!(plan, [Some(2), Some(0), Some(1)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`align_to::<{List}>` leaves out axes `{Self}` of `{Disp}`",
    label = "`{Self}` not named",
    note = "name every axis, or add `...` for the rest in their order"
)]
pub trait AllNamed<List, Disp> {}
#[diagnostic::do_not_recommend]
impl<List, Disp> AllNamed<List, Disp> for () {}

/// `permute` is a permutation: names only (`Self`: the item that is not).
///
/// Never implemented: reached only for a `New<_>` or `...` in the list of
/// `permute`, so a [`Permute`](crate::Permute) that holds lists names only.
/// ```
/// use axial_shape::{Permute, axes, names, shape};
/// axes!(N, C, H);
/// fn permute<S: Permute<L>, L>() {}
/// permute::<shape![N: 2, C: 3, H: 4], names![H, N, C]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`permute::<{List}>` takes axis names only, not `{Self}`",
    note = "use `align_to` for `...` and new axes"
)]
pub trait PlainName<List> {}

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

/// `refine_names` only names anonymous axes (`Self`: whether the names agree).
///
/// What [`RefineNames`](crate::RefineNames) asks of each axis: the name it
/// has is the one asked for, or the axis is anonymous.
/// ```
/// use axial_shape::{RefineNames, Shape, axes, names, shape};
/// axes!(N, C);
/// type Out = <shape![N: 2, 3] as RefineNames<names![N, C]>>::Output;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("N"), Some("C")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot refine `{From}` to `{To}`: `{Had}` is different from `{Wanted}`",
    label = "`{Had}` cannot become `{Wanted}`",
    note = "`refine_names` only names anonymous axes; use `rename::<Old, New>()` to change a name"
)]
pub trait Coerces<Had, Wanted, From, To> {}
#[diagnostic::do_not_recommend]
impl<Had, Wanted, From, To> Coerces<Had, Wanted, From, To> for B1 {}

/// `refine_names` takes one name (or `_`) per axis (`Self`: the shorter side's rest).
///
/// Never implemented: reached only when the list and the shape differ in
/// length, so a [`RefineNames`](crate::RefineNames) that holds gives one item
/// (a name or `_`) per axis.
/// ```
/// use axial_shape::{RefineNames, axes, names, shape};
/// axes!(N, C);
/// fn refine<S: RefineNames<L>, L>() {}
/// refine::<shape![2, 3, 4], names![N, _, C]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot refine `{From}` to `{To}`: one name (or `_`) per axis is needed",
    label = "not one name per axis"
)]
pub trait OneNamePerAxis<From, To> {}

/// Realizing keeps the names (`Self`: whether this axis' names agree).
///
/// What [`Realize`](crate::Realize) asks of each axis: the target has the
/// same name there.
/// ```
/// use axial_shape::report::RealizeNames;
/// use axial_shape::{Realize, axes, shape};
/// axes!(Batch, Channels);
/// fn same_name<Answer: RealizeNames<Batch, Batch, (Batch,), (Batch,)>>() {}
/// same_name::<axial_shape::B1>();
/// fn realize<S: Realize<S2>, S2>() {}
/// realize::<shape![Batch: Dyn, Channels: 3], shape![Batch: 8, Channels: 3]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot realize `{From}` as `{To}`: axis `{Had}` is `{Wanted}` there",
    label = "names differ",
    note = "`realize` checks sizes; `rename` or `align_to` change names"
)]
pub trait RealizeNames<Had, Wanted, From, To> {}
#[diagnostic::do_not_recommend]
impl<Had, Wanted, From, To> RealizeNames<Had, Wanted, From, To> for B1 {}

/// Realizing keeps the rank (`Self`: the axes one side has beyond the other).
///
/// Never implemented: reached only when one shape has axes the other lacks,
/// so a [`Realize`](crate::Realize) that holds keeps the rank.
/// ```
/// use axial_shape::{Realize, Shape, axes, shape};
/// axes!(Batch, Channels);
/// fn realize<S: Realize<S2>, S2: Shape>() -> usize {
///     S2::RANK
/// }
/// assert_eq!(realize::<shape![Batch: Dyn, Channels: Dyn], shape![Batch: 8, Channels: 3]>(), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot realize `{From}` as `{To}`: they have different numbers of axes",
    label = "ranks differ"
)]
pub trait RealizeRank<From, To> {}

/// Realizing agrees with the static sizes the tensor has.
///
/// What [`Realize`](crate::Realize) asks of each size: the same static size
/// (`B1`), or a `Dyn` side (`Unknown`, checked at run time).
/// ```
/// use axial_shape::report::RealizeSize;
/// use axial_shape::{Realize, SizeEq, Truth, axes, shape};
/// axes!(Batch);
/// fn fits<Sz: SizeEq<To>, To>() -> Option<bool>
/// where
///     Sz::Out: RealizeSize<Batch, (Batch,), (Batch,)>,
/// {
///     <Sz::Out as Truth>::VALUE
/// }
/// assert_eq!(fits::<typenum::U8, typenum::U8>(), Some(true));
/// assert_eq!(fits::<axial_shape::Dyn, typenum::U8>(), None);
/// fn realize<S: Realize<S2>, S2>() {}
/// realize::<shape![Batch: 8], shape![Batch: 8]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot realize `{From}` as `{To}`: axis `{A}` already has another static size",
    label = "static sizes differ for `{A}`"
)]
pub trait RealizeSize<A, From, To> {}
holds_or_unknown!(RealizeSize<A, From, To>);

/// Broadcasting pairs axes of one name from the right.
///
/// What [`ExpandTo`](crate::ExpandTo) asks of each pair of axes from the
/// right: one name, or an anonymous axis that takes the target's.
/// ```
/// use axial_shape::{ExpandTo, axes, shape};
/// axes!(Batch, Rows, Cols);
/// fn expand<S: ExpandTo<S2>, S2>() {}
/// expand::<shape![Rows: 1, Cols: 4], shape![Batch: 2, Rows: 3, Cols: 4]>();
/// expand::<shape![1, 4], shape![Rows: 3, Cols: 4]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot expand `{From}` to `{To}`: axis `{Had}` meets `{Wanted}` at the same position from the right",
    label = "names differ",
    note = "line the axes up first with `align_to` (a view)"
)]
pub trait ExpandNames<Had, Wanted, From, To> {}
#[diagnostic::do_not_recommend]
impl<Had, Wanted, From, To> ExpandNames<Had, Wanted, From, To> for B1 {}

/// Broadcasting stretches only size-1 axes.
///
/// What [`ExpandTo`](crate::ExpandTo) asks of each pair of sizes: equal, or 1
/// on the side expanded (`Unknown` with a `Dyn` one, checked at run time).
/// ```
/// use axial_shape::{ExpandTo, axes, shape};
/// axes!(Rows, Cols);
/// fn expand<S: ExpandTo<S2>, S2>() {}
/// expand::<shape![Rows: 1, Cols: 4], shape![Rows: 3, Cols: 4]>();
/// expand::<shape![Rows: Dyn, Cols: 4], shape![Rows: 3, Cols: 4]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot expand axis `{A}` of `{From}` to `{To}`: its size is neither 1 nor the target's",
    label = "only a size-1 axis can be expanded"
)]
pub trait ExpandSize<A, From, To> {}
holds_or_unknown!(ExpandSize<A, From, To>);

/// Broadcasting never drops axes (`Self`: the axes left over).
///
/// Never implemented: reached only when the target has fewer axes, so an
/// [`ExpandTo`](crate::ExpandTo) that holds only adds axes in front.
/// ```
/// use axial_shape::{ExpandTo, axes, shape};
/// axes!(Batch, Cols);
/// fn expand<S: ExpandTo<S2>, S2>() {}
/// expand::<shape![Cols: 4], shape![Batch: 2, Cols: 4]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot expand `{From}` to `{To}`: the target has fewer axes",
    label = "too few axes in the target"
)]
pub trait ExpandRank<From, To> {}

/// A static constructor needs every size in the type.
///
/// What [`StaticShape`](crate::StaticShape) asks: no `Dyn` axis (`B1`).
/// ```
/// use axial_shape::report::AllStatic;
/// use axial_shape::{Shape, StaticShape, axes, shape};
/// use axial_shape::{Answer, Truth, TruthOf};
/// use typenum::{IsEqual, U0};
/// axes!(Rows, Cols);
/// fn all_static<S: Shape>() -> bool
/// where
///     S::NumDyn: IsEqual<U0, Output: Answer>,
///     TruthOf<<S::NumDyn as IsEqual<U0>>::Output>: AllStatic<S::Display>,
/// {
///     <TruthOf<<S::NumDyn as IsEqual<U0>>::Output> as Truth>::VALUE == Some(true)
/// }
/// assert!(all_static::<shape![Rows: 2, Cols: 3]>());
/// fn constructor<S: StaticShape>() {}
/// constructor::<shape![Rows: 2, Cols: 3]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "shape `{Disp}` has `Dyn` axes, so this constructor needs their sizes",
    label = "sizes of `Dyn` axes missing",
    note = "use the `_dyn` twin, giving one size per `Dyn` axis"
)]
pub trait AllStatic<Disp> {}
#[diagnostic::do_not_recommend]
impl<Disp> AllStatic<Disp> for B1 {}

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

/// Broadcasting pairs equal sizes or a size 1 (`Self`: the right operand's
/// axis, `A` the left's).
///
/// Never implemented: reached only for two static sizes that differ and are
/// not 1, so a [`BroadcastWith`](crate::BroadcastWith) that holds pairs equal
/// sizes, a 1, or a `Dyn` (checked at run time).
/// ```
/// use axial_shape::{BroadcastWith, Shape, axes, shape};
/// axes!(Rows, Cols);
/// type Out = <shape![Rows: 3, Cols: 1] as BroadcastWith<shape![Rows: 1, Cols: 4]>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(4)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{Left}` with `{Right}`: the sizes of `{A}` (left) and `{Self}` (right) differ and neither is 1",
    label = "sizes differ",
    note = "axes pair up from the right; a `Dyn` size would defer this check to run time"
)]
pub trait BroadcastSizes<A, Left, Right> {}

/// A name has one position from the right in both operands (`Self`:
/// whether the broadcast result would name `A` twice).
///
/// What [`BroadcastWith`](crate::BroadcastWith) asks of each axis of the
/// result: the rest does not name it again (`B0`).
/// ```
/// use axial_shape::report::BroadcastPlace;
/// use axial_shape::{BroadcastWith, Contains, Shape, Truth, axes, shape};
/// axes!(Batch, Rows, Cols);
/// fn once<Rest: Contains<A>, A>() -> Option<bool>
/// where
///     Rest::Out: BroadcastPlace<A, (Rows, Cols), (Batch, Cols)>,
/// {
///     <Rest::Out as Truth>::VALUE
/// }
/// assert_eq!(once::<shape![Rows: 3, Cols: 4], Batch>(), Some(false));
/// type Out = <shape![Rows: 3, Cols: 4] as BroadcastWith<shape![Batch: 2, Rows: 1, Cols: 4]>>::Output;
/// assert_eq!(Out::RANK, 3);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{Left}` with `{Right}`: axis `{A}` is at different positions from the right",
    label = "`{A}` would appear twice in the result",
    note = "line the axes up first: `x.align_as(&y)` is a view of `x` in `y`'s order, with a size-1 axis for each name `x` lacks; or `align_to`"
)]
pub trait BroadcastPlace<A, Left, Right> {}
#[diagnostic::do_not_recommend]
impl<A, Left, Right> BroadcastPlace<A, Left, Right> for B0 {}

/// In place, the operand's axis has the output's name or none (`Self`:
/// whether so; `B` the operand's axis, `A` self's).
///
/// What [`InPlace`](crate::InPlace) asks of each operand axis: self's name at
/// its place from the right, or none.
/// ```
/// use axial_shape::{InPlace, axes, shape};
/// axes!(Rows, Cols);
/// fn add_assign<S: InPlace<S2>, S2>() {}
/// add_assign::<shape![Rows: 3, Cols: 4], shape![Cols: 4]>();
/// add_assign::<shape![Rows: 3, Cols: 4], shape![3, 1]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "an in-place op keeps self's shape `{Out}`, but the operand `{Operand}` has axis `{B}` where self has `{A}`",
    label = "names differ",
    note = "the result of an in-place op has self's names and sizes: use the op that returns a new tensor, or `align_as` first"
)]
pub trait InPlaceNames<A, B, Out, Operand> {}
#[diagnostic::do_not_recommend]
impl<A, B, Out, Operand> InPlaceNames<A, B, Out, Operand> for B1 {}

/// In place, the operand's axis has the output's size or 1.
///
/// What [`InPlace`](crate::InPlace) asks of each operand axis: self's size
/// there, or 1 (`Unknown` with a `Dyn` one, checked at run time).
/// ```
/// use axial_shape::{InPlace, axes, shape};
/// axes!(Rows, Cols);
/// fn add_assign<S: InPlace<S2>, S2>() {}
/// add_assign::<shape![Rows: 3, Cols: 4], shape![Rows: 1, Cols: 4]>();
/// add_assign::<shape![Rows: 3, Cols: Dyn], shape![Rows: 3, Cols: 4]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "an in-place op keeps self's shape `{Out}`, but axis `{B}` of the operand `{Operand}` has neither the size of self's `{A}` nor 1",
    label = "the broadcast result would not be self's shape",
    note = "the result of an in-place op has self's names and sizes: use the op that returns a new tensor"
)]
pub trait InPlaceSize<A, B, Out, Operand> {}
holds_or_unknown!(InPlaceSize<A, B, Out, Operand>);

/// In place, the operand has no more axes than the output (`Self`: the
/// axes left over).
///
/// Never implemented: reached only for an operand with more axes than self,
/// so an [`InPlace`](crate::InPlace) that holds keeps self's shape.
/// ```
/// use axial_shape::{BroadcastWith, InPlace, Shape, axes, shape};
/// axes!(Rows, Cols);
/// type S = shape![Rows: 3, Cols: 4];
/// fn add_assign<S: InPlace<S2>, S2>() {}
/// add_assign::<S, shape![Cols: 4]>();
/// // In place, the result is self's shape, as broadcasting gives it.
/// let mut sizes = [None; 2];
/// <<S as BroadcastWith<shape![Cols: 4]>>::Output as Shape>::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(4)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "an in-place op keeps self's shape `{Out}`, but the operand `{Operand}` has more axes",
    label = "more axes than self",
    note = "the result of an in-place op has self's names and sizes: use the op that returns a new tensor"
)]
pub trait InPlaceRank<Out, Operand> {}

/// A reduction takes each axis once (`Self`: whether the rest of the list
/// names `A` again).
///
/// What [`Reduce`](crate::Reduce) asks of each axis of its list: the rest of
/// the list does not name it again (`B0`).
/// ```
/// use axial_shape::report::ReducedOnce;
/// use axial_shape::{Contains, Reduce, Truth, axes, names, shape};
/// axes!(N, C, H);
/// fn once<Rest: Contains<A>, A>() -> Option<bool>
/// where
///     Rest::Out: ReducedOnce<A, (C, H)>,
/// {
///     <Rest::Out as Truth>::VALUE
/// }
/// assert_eq!(once::<names![H], C>(), Some(false));
/// assert_eq!(<shape![N: 2, C: 3, H: 4] as Reduce<names![C, H]>>::COUNT, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot reduce over `{List}`: it names axis `{A}` twice",
    label = "`{A}` named twice"
)]
pub trait ReducedOnce<A, List> {}
#[diagnostic::do_not_recommend]
impl<A, List> ReducedOnce<A, List> for B0 {}

/// `matmul` contracts axes of one name, or an anonymous one (`Self`:
/// whether so).
///
/// What [`MatMul`](crate::MatMul) asks of the contracted axes: one name, or
/// an anonymous one.
/// ```
/// use axial_shape::{MatMul, Shape, axes, shape};
/// axes!(Rows, Inner, Cols);
/// type Out = <shape![Rows: 2, Inner: 3] as MatMul<shape![3, Cols: 4]>>::Output;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("Rows"), Some("Cols")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Left}` by `{Right}`: the contracted axes `{A}` and `{B}` have different names",
    label = "contracted axes differ",
    note = "`matmul` contracts the last axis of the left operand with the second-to-last of the right; `align_to` or `rename` to line them up"
)]
pub trait ContractNames<A, B, Left, Right> {}
#[diagnostic::do_not_recommend]
impl<A, B, Left, Right> ContractNames<A, B, Left, Right> for B1 {}

/// `matmul` contracts axes of one size.
///
/// What [`MatMul`](crate::MatMul) asks of the contracted axes: one size
/// (`Unknown` with a `Dyn` one, checked at run time).
/// ```
/// use axial_shape::report::ContractSizes;
/// use axial_shape::{Dyn, SizeEq, Truth, axes};
/// use typenum::U3;
/// axes!(Inner);
/// fn contract<SA: SizeEq<SB>, SB>() -> Option<bool>
/// where
///     SA::Out: ContractSizes<Inner, Inner, (Inner,), (Inner,)>,
/// {
///     <SA::Out as Truth>::VALUE
/// }
/// assert_eq!(contract::<U3, U3>(), Some(true));
/// assert_eq!(contract::<Dyn, U3>(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Left}` by `{Right}`: the contracted axes `{A}` (left) and `{B}` (right) have different sizes",
    label = "contracted sizes differ",
    note = "a `Dyn` size would defer this check to run time"
)]
pub trait ContractSizes<A, B, Left, Right> {}
holds_or_unknown!(ContractSizes<A, B, Left, Right>);

/// The product of `matmul` names each axis once (`Self`: whether the rest
/// names `A` again).
///
/// What [`MatMul`](crate::MatMul) asks of each axis of the product: the rest
/// does not name it again (`B0`).
/// ```
/// use axial_shape::report::MatMulNames;
/// use axial_shape::{Contains, Truth, axes, shape};
/// axes!(Rows, Inner, Cols);
/// fn once<Rest: Contains<A>, A>() -> Option<bool>
/// where
///     Rest::Out: MatMulNames<A, (Rows, Inner), (Inner, Cols)>,
/// {
///     <Rest::Out as Truth>::VALUE
/// }
/// assert_eq!(once::<shape![Cols: 4], Rows>(), Some(false));
/// ```
#[diagnostic::on_unimplemented(
    message = "`matmul` of `{Left}` by `{Right}` would name axis `{A}` twice",
    label = "`{A}` twice in the product",
    note = "`rename::<Old, New>()` one of them first"
)]
pub trait MatMulNames<A, Left, Right> {}
#[diagnostic::do_not_recommend]
impl<A, Left, Right> MatMulNames<A, Left, Right> for B0 {}

/// `matmul` needs an axis on each side (`Self`: the empty shape).
///
/// Never implemented: reached only for an operand without axes, so a
/// [`MatMul`](crate::MatMul) that holds has at least one axis on each side.
/// ```
/// use axial_shape::{MatMul, Shape, axes, shape};
/// axes!(Inner, Cols);
/// type Out = <shape![Inner: 3] as MatMul<shape![Inner: 3, Cols: 4]>>::Output;
/// let mut names = [None; 1];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("Cols")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Left}` by `{Right}`: both operands need at least one axis",
    label = "a tensor without axes"
)]
pub trait MatMulRank<Left, Right> {}
