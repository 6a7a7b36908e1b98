//! Names: a new name is fresh, a shape names each axis once, and the lists of
//! `align_to` and `permute` name the tensor's axes.

use crate::logic::B0;

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
