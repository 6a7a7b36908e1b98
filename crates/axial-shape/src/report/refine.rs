//! `refine_names` and `realize`: a shape given new names, or sizes it already
//! had.

use crate::logic::B1;

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
