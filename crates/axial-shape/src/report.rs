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

/// The answer is true, or unknown until run time.
macro_rules! holds_or_unknown {
    ($trait:ident < $($p:ident),* > $(, const $c:ident)?) => {
        impl<$(const $c: usize,)? $($p),*> $trait<$($c,)? $($p),*> for B1 {}
        impl<$(const $c: usize,)? $($p),*> $trait<$($c,)? $($p),*> for Unknown {}
    };
}

/// No other axis has this name (`Self` is whether one does).
#[diagnostic::on_unimplemented(
    message = "tensor of shape `{Disp}` already has an axis `{A}`",
    label = "`{A}` is already an axis of `{Disp}`",
    note = "axis names must be unique; pick another name or `rename` the other axis first"
)]
pub trait Fresh<A, Disp> {}
impl<A, Disp> Fresh<A, Disp> for B0 {}

/// A shape names each axis once (`Self` is whether the rest repeats `A`).
#[diagnostic::on_unimplemented(
    message = "shape `{Disp}` names axis `{A}` twice",
    label = "`{A}` appears twice in `{Disp}`",
    note = "axis names must be unique"
)]
pub trait Unique<A, Disp> {}
impl<A, Disp> Unique<A, Disp> for B0 {}

/// `align_to` takes each axis once (`Self`: the name asked for again).
#[diagnostic::on_unimplemented(
    message = "`align_to` names axis `{Self}` twice in `{List}`",
    label = "`{Self}` named twice",
    note = "each axis of `{Disp}` goes to exactly one place"
)]
pub trait NamedOnce<List, Disp> {}

/// `align_to` takes only axes the tensor has (`Self`: the missing name).
#[diagnostic::on_unimplemented(
    message = "tensor of shape `{Disp}` has no axis `{Self}`",
    label = "no axis `{Self}` in `{Disp}`",
    note = "to insert a new axis of size 1, write `New<{Self}>`"
)]
pub trait AxisOf<Disp> {}

/// `align_to` without `...` names every axis (`Self`: the axes left out).
#[diagnostic::on_unimplemented(
    message = "`align_to::<{List}>` leaves out axes `{Self}` of `{Disp}`",
    label = "`{Self}` not named",
    note = "name every axis, or add `...` for the rest in their order"
)]
pub trait AllNamed<List, Disp> {}
impl<List, Disp> AllNamed<List, Disp> for () {}

/// `permute` is a permutation: names only (`Self`: the item that is not).
#[diagnostic::on_unimplemented(
    message = "`permute::<{List}>` takes axis names only, not `{Self}`",
    note = "use `align_to` for `...` and new axes"
)]
pub trait PlainName<List> {}

/// Two static element counts are equal.
#[diagnostic::on_unimplemented(
    message = "cannot reshape a tensor of shape `{From}` into `{To}`: they hold different numbers of elements",
    label = "element counts differ",
    note = "a `Dyn` size would defer this check to run time"
)]
pub trait SameNumel<From, To> {}
holds_or_unknown!(SameNumel<From, To>);

/// A literal index lies inside its axis.
#[diagnostic::on_unimplemented(
    message = "index {I} is out of range for axis `{A}` of `{Disp}`",
    label = "index {I} is past the end of `{A}`"
)]
pub trait InRange<const I: usize, A, Disp> {}
holds_or_unknown!(InRange<A, Disp>, const I);

/// A position at which to insert an axis (0 to the rank).
#[diagnostic::on_unimplemented(
    message = "cannot insert an axis at position {AT} of `{Disp}`",
    label = "position {AT} is past the last axis"
)]
pub trait InsertPosition<const AT: usize, Disp> {}
impl<const AT: usize, Disp> InsertPosition<AT, Disp> for B1 {}

/// `squeeze` removes only an axis of size 1.
#[diagnostic::on_unimplemented(
    message = "cannot squeeze axis `{A}` of `{Disp}`: its size is not 1",
    label = "`{A}` does not have size 1"
)]
pub trait SizeOne<A, Disp> {}
holds_or_unknown!(SizeOne<A, Disp>);

/// `split`'s new sizes multiply to the axis' size.
#[diagnostic::on_unimplemented(
    message = "cannot split axis `{A}` of `{Disp}` into `{Into}`: the sizes do not multiply to its size",
    label = "sizes do not multiply to the size of `{A}`"
)]
pub trait SplitFits<A, Disp, Into> {}
holds_or_unknown!(SplitFits<A, Disp, Into>);

/// `merge` takes adjacent axes, in order (`Self`: whether the next one follows).
#[diagnostic::on_unimplemented(
    message = "cannot merge `{List}` in `{Disp}`: the axes must be adjacent and in this order",
    label = "not adjacent in this order",
    note = "`align_to` can bring them together first (a view), then `merge`"
)]
pub trait Adjacent<List, Disp> {}
impl<List, Disp> Adjacent<List, Disp> for B1 {}

/// `t()` takes at most two axes (`Self`: the shape).
#[diagnostic::on_unimplemented(
    message = "`t()` needs a tensor with at most 2 axes, but `{Self}` has more",
    label = "more than 2 axes",
    note = "name the two axes to swap with `transpose::<A, B>()`"
)]
pub trait AtMostTwoAxes {}

/// `diagonal` takes two different axes.
#[diagnostic::on_unimplemented(
    message = "`diagonal` needs two different axes of `{Disp}`, got `{A}` twice",
    label = "the same axis twice"
)]
pub trait DifferentAxes<A, Disp> {}
impl<A, Disp> DifferentAxes<A, Disp> for B0 {}

/// `refine_names` only names anonymous axes (`Self`: whether the names agree).
#[diagnostic::on_unimplemented(
    message = "cannot refine `{From}` to `{To}`: `{Had}` is different from `{Wanted}`",
    label = "`{Had}` cannot become `{Wanted}`",
    note = "`refine_names` only names anonymous axes; use `rename::<Old, New>()` to change a name"
)]
pub trait Coerces<Had, Wanted, From, To> {}
impl<Had, Wanted, From, To> Coerces<Had, Wanted, From, To> for B1 {}

/// `refine_names` takes one name (or `_`) per axis (`Self`: the shorter side's rest).
#[diagnostic::on_unimplemented(
    message = "cannot refine `{From}` to `{To}`: one name (or `_`) per axis is needed",
    label = "not one name per axis"
)]
pub trait OneNamePerAxis<From, To> {}

/// Realizing keeps the names (`Self`: whether this axis' names agree).
#[diagnostic::on_unimplemented(
    message = "cannot realize `{From}` as `{To}`: axis `{Had}` is `{Wanted}` there",
    label = "names differ",
    note = "`realize` checks sizes; `rename` or `align_to` change names"
)]
pub trait RealizeNames<Had, Wanted, From, To> {}
impl<Had, Wanted, From, To> RealizeNames<Had, Wanted, From, To> for B1 {}

/// Realizing keeps the rank (`Self`: the axes one side has beyond the other).
#[diagnostic::on_unimplemented(
    message = "cannot realize `{From}` as `{To}`: they have different numbers of axes",
    label = "ranks differ"
)]
pub trait RealizeRank<From, To> {}

/// Realizing agrees with the static sizes the tensor has.
#[diagnostic::on_unimplemented(
    message = "cannot realize `{From}` as `{To}`: axis `{A}` already has another static size",
    label = "static sizes differ for `{A}`"
)]
pub trait RealizeSize<A, From, To> {}
holds_or_unknown!(RealizeSize<A, From, To>);

/// Broadcasting pairs axes of one name from the right.
#[diagnostic::on_unimplemented(
    message = "cannot expand `{From}` to `{To}`: axis `{Had}` meets `{Wanted}` at the same position from the right",
    label = "names differ",
    note = "line the axes up first with `align_to` (a view)"
)]
pub trait ExpandNames<Had, Wanted, From, To> {}
impl<Had, Wanted, From, To> ExpandNames<Had, Wanted, From, To> for B1 {}

/// Broadcasting stretches only size-1 axes.
#[diagnostic::on_unimplemented(
    message = "cannot expand axis `{A}` of `{From}` to `{To}`: its size is neither 1 nor the target's",
    label = "only a size-1 axis can be expanded"
)]
pub trait ExpandSize<A, From, To> {}
holds_or_unknown!(ExpandSize<A, From, To>);

/// Broadcasting never drops axes (`Self`: the axes left over).
#[diagnostic::on_unimplemented(
    message = "cannot expand `{From}` to `{To}`: the target has fewer axes",
    label = "too few axes in the target"
)]
pub trait ExpandRank<From, To> {}

/// A static constructor needs every size in the type.
#[diagnostic::on_unimplemented(
    message = "shape `{Disp}` has `Dyn` axes, so this constructor needs their sizes",
    label = "sizes of `Dyn` axes missing",
    note = "use the `_dyn` twin, giving one size per `Dyn` axis"
)]
pub trait AllStatic<Disp> {}
impl<Disp> AllStatic<Disp> for B1 {}

/// One run-time size per `Dyn` axis (`Self`: what was given).
#[diagnostic::on_unimplemented(
    message = "expected one size per `Dyn` axis of `{Disp}`, found `{Self}`",
    label = "wrong number of sizes"
)]
pub trait SizePerDyn<Disp> {}

/// One coordinate per axis.
#[diagnostic::on_unimplemented(
    message = "an index of {N} coordinates does not fit a tensor of shape `{Disp}`",
    label = "one coordinate per axis is needed"
)]
pub trait Coordinates<const N: usize, Disp> {}
impl<const N: usize, Disp> Coordinates<N, Disp> for B1 {}

/// A statically sized tensor holds one element.
#[diagnostic::on_unimplemented(
    message = "`item()` needs exactly one element, but a tensor of shape `{Disp}` holds another number",
    label = "not one element"
)]
pub trait OneElement<Disp> {}
holds_or_unknown!(OneElement<Disp>);

/// A shape of exactly two axes.
#[diagnostic::on_unimplemented(
    message = "`{Op}` makes a tensor with two axes, not `{Disp}`",
    label = "not two axes"
)]
pub trait TwoAxes<Op, Disp> {}
impl<Op, Disp> TwoAxes<Op, Disp> for B1 {}

/// A nested array has the nesting of the shape (`Self`: the array at the
/// level that does not fit).
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not nest like a tensor of shape `{Disp}`",
    label = "nesting differs from the shape",
    note = "one array level per axis, the outermost axis outermost"
)]
pub trait NestsLike<Disp> {}

/// A nested array's extent matches the axis' static size.
#[diagnostic::on_unimplemented(
    message = "an array of extent {K} cannot fill axis `{A}` of `{Disp}`",
    label = "extent {K} differs from the size of `{A}`"
)]
pub trait ExtentFits<const K: usize, A, Disp> {}
holds_or_unknown!(ExtentFits<A, Disp>, const K);

/// Broadcasting pairs axes of one name from the right (`Self`: the right
/// operand's axis, `A` the left's).
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{Left}` with `{Right}`: axis `{A}` meets `{Self}` at the same position from the right",
    label = "names differ",
    note = "line the axes up first with `align_as` or `align_to` (views), or `rename` one of them"
)]
pub trait BroadcastNames<A, Left, Right> {}

/// Broadcasting pairs equal sizes or a size 1 (`Self`: the right operand's
/// axis, `A` the left's).
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{Left}` with `{Right}`: the sizes of `{A}` (left) and `{Self}` (right) differ and neither is 1",
    label = "sizes differ",
    note = "axes pair up from the right; a `Dyn` size would defer this check to run time"
)]
pub trait BroadcastSizes<A, Left, Right> {}

/// A name has one position from the right in both operands (`Self`:
/// whether the broadcast result would name `A` twice).
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{Left}` with `{Right}`: axis `{A}` is at different positions from the right",
    label = "`{A}` would appear twice in the result",
    note = "line the axes up first with `align_as` or `align_to` (views)"
)]
pub trait BroadcastPlace<A, Left, Right> {}
impl<A, Left, Right> BroadcastPlace<A, Left, Right> for B0 {}

/// In place, the operand's axis has the output's name or none (`Self`:
/// whether so; `B` the operand's axis, `A` self's).
#[diagnostic::on_unimplemented(
    message = "an in-place op keeps self's shape `{Out}`, but the operand `{Operand}` has axis `{B}` where self has `{A}`",
    label = "names differ",
    note = "the result of an in-place op has self's names and sizes: use the op that returns a new tensor, or `align_as` first"
)]
pub trait InPlaceNames<A, B, Out, Operand> {}
impl<A, B, Out, Operand> InPlaceNames<A, B, Out, Operand> for B1 {}

/// In place, the operand's axis has the output's size or 1.
#[diagnostic::on_unimplemented(
    message = "an in-place op keeps self's shape `{Out}`, but axis `{B}` of the operand `{Operand}` has neither the size of self's `{A}` nor 1",
    label = "the broadcast result would not be self's shape",
    note = "the result of an in-place op has self's names and sizes: use the op that returns a new tensor"
)]
pub trait InPlaceSize<A, B, Out, Operand> {}
holds_or_unknown!(InPlaceSize<A, B, Out, Operand>);

/// In place, the operand has no more axes than the output (`Self`: the
/// axes left over).
#[diagnostic::on_unimplemented(
    message = "an in-place op keeps self's shape `{Out}`, but the operand `{Operand}` has more axes",
    label = "more axes than self",
    note = "the result of an in-place op has self's names and sizes: use the op that returns a new tensor"
)]
pub trait InPlaceRank<Out, Operand> {}

/// A reduction takes each axis once (`Self`: whether the rest of the list
/// names `A` again).
#[diagnostic::on_unimplemented(
    message = "cannot reduce over `{List}`: it names axis `{A}` twice",
    label = "`{A}` named twice"
)]
pub trait ReducedOnce<A, List> {}
impl<A, List> ReducedOnce<A, List> for B0 {}

/// `matmul` contracts axes of one name, or an anonymous one (`Self`:
/// whether so).
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Left}` by `{Right}`: the contracted axes `{A}` and `{B}` have different names",
    label = "contracted axes differ",
    note = "`matmul` contracts the last axis of the left operand with the second-to-last of the right; `align_to` or `rename` to line them up"
)]
pub trait ContractNames<A, B, Left, Right> {}
impl<A, B, Left, Right> ContractNames<A, B, Left, Right> for B1 {}

/// `matmul` contracts axes of one size.
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Left}` by `{Right}`: the contracted axes `{A}` (left) and `{B}` (right) have different sizes",
    label = "contracted sizes differ",
    note = "a `Dyn` size would defer this check to run time"
)]
pub trait ContractSizes<A, B, Left, Right> {}
holds_or_unknown!(ContractSizes<A, B, Left, Right>);

/// The product of `matmul` names each axis once (`Self`: whether the rest
/// names `A` again).
#[diagnostic::on_unimplemented(
    message = "`matmul` of `{Left}` by `{Right}` would name axis `{A}` twice",
    label = "`{A}` twice in the product",
    note = "`rename::<Old, New>()` one of them first"
)]
pub trait MatMulNames<A, Left, Right> {}
impl<A, Left, Right> MatMulNames<A, Left, Right> for B0 {}

/// `matmul` needs an axis on each side (`Self`: the empty shape).
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Left}` by `{Right}`: both operands need at least one axis",
    label = "a tensor without axes"
)]
pub trait MatMulRank<Left, Right> {}
