//! Broadcasting, `expand` and in-place ops: axes meeting from the right.

use crate::logic::{B0, B1};

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
