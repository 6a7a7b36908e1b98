//! The compile errors of einops patterns, one leaf trait per mistake (see the
//! crate's `report` module for how leaves work). `Pat` is the left side of
//! the pattern as a tuple, `(B, C, (H, P), W)` for `"B C (H P) W -> ..."`
//! (`()` a unit, `Ellipsis` the `...`), and `Disp` the tensor's shape.

use crate::logic::{B1, Unknown};

/// The left side names the tensor's axes in order (`Self`: whether this one does).
#[diagnostic::on_unimplemented(
    message = "the pattern expects axis `{Want}` where the tensor of shape `{Disp}` has `{Have}`",
    label = "`{Want}` is not the axis `{Have}` of `{Disp}`",
    note = "the left side `{Pat}` names the tensor's axes in order; `align_to` or `rename` first, or decompose with a group `(..)`"
)]
pub trait PatternAxis<Want, Have, Pat, Disp> {}
impl<Want, Have, Pat, Disp> PatternAxis<Want, Have, Pat, Disp> for B1 {}

/// The tensor has as many axes as the left side (`Self`: the pattern's dims left over).
#[diagnostic::on_unimplemented(
    message = "the left side `{Pat}` of the pattern has more axes than the tensor of shape `{Disp}`",
    label = "too few axes in `{Disp}` for `{Pat}`"
)]
pub trait PatternTooLong<Pat, Disp> {}

/// The left side matches every axis (`Self`: the axes left over).
#[diagnostic::on_unimplemented(
    message = "the left side `{Pat}` of the pattern leaves out axes `{Self}` of the tensor of shape `{Disp}`",
    label = "`{Self}` not matched",
    note = "name every axis, or write `...` for the axes not named"
)]
pub trait PatternTooShort<Pat, Disp> {}
impl<Pat, Disp> PatternTooShort<Pat, Disp> for () {}

/// A `1` or `()` on the left takes an axis of size 1.
#[diagnostic::on_unimplemented(
    message = "the pattern has `1` where the tensor of shape `{Disp}` has axis `{Have}`, whose size is not 1",
    label = "`{Have}` does not have size 1",
    note = "the left side reads `{Pat}`"
)]
pub trait PatternUnit<Have, Pat, Disp> {}
impl<Have, Pat, Disp> PatternUnit<Have, Pat, Disp> for B1 {}
impl<Have, Pat, Disp> PatternUnit<Have, Pat, Disp> for Unknown {}

/// A size given for an axis of the left side is its size.
#[diagnostic::on_unimplemented(
    message = "the size given for axis `{Have}` is not its size in the tensor of shape `{Disp}`",
    label = "another size than `{Have}` has",
    note = "the left side reads `{Pat}`"
)]
pub trait PatternSize<Have, Pat, Disp> {}
impl<Have, Pat, Disp> PatternSize<Have, Pat, Disp> for B1 {}
impl<Have, Pat, Disp> PatternSize<Have, Pat, Disp> for Unknown {}

/// A group on the left whose sizes are all given multiplies to its axis' size.
#[diagnostic::on_unimplemented(
    message = "cannot decompose axis `{Have}` of `{Disp}` into `{Group}`: the given sizes do not multiply to its size",
    label = "sizes of `{Group}` do not multiply to the size of `{Have}`",
    note = "the left side reads `{Pat}`"
)]
pub trait PatternProduct<Have, Group, Pat, Disp> {}
impl<Have, Group, Pat, Disp> PatternProduct<Have, Group, Pat, Disp> for B1 {}
impl<Have, Group, Pat, Disp> PatternProduct<Have, Group, Pat, Disp> for Unknown {}

/// A group on the left with one size to infer: the given sizes divide its axis' size.
#[diagnostic::on_unimplemented(
    message = "cannot decompose axis `{Have}` of `{Disp}` into `{Group}`: its size is not a multiple of the given sizes",
    label = "the size of `{Have}` is not divisible by the sizes given in `{Group}`",
    note = "the left side reads `{Pat}`"
)]
pub trait PatternDivides<Have, Group, Pat, Disp> {}
impl<Have, Group, Pat, Disp> PatternDivides<Have, Group, Pat, Disp> for B1 {}
impl<Have, Group, Pat, Disp> PatternDivides<Have, Group, Pat, Disp> for Unknown {}

/// After matching, each axis has one name (`Self`: whether `A` comes again).
#[diagnostic::on_unimplemented(
    message = "the pattern names axis `{A}`, which the tensor of shape `{Disp}` also has among the axes `...` stands for",
    label = "`{A}` twice",
    note = "the left side reads `{Pat}`; pick another name"
)]
pub trait PatternOnce<A, Pat, Disp> {}
impl<A, Pat, Disp> PatternOnce<A, Pat, Disp> for crate::logic::B0 {}

/// The operands of `einsum!` agree on the size of a shared axis (`Left`:
/// the axes of the operands before, `Right`: this operand's shape).
#[diagnostic::on_unimplemented(
    message = "`einsum!` operands disagree on the size of axis `{A}`: `{Left}` and `{Right}`",
    label = "`{A}` has another size in `{Right}`"
)]
pub trait EinsumSize<A, Left, Right> {}
impl<A, Left, Right> EinsumSize<A, Left, Right> for B1 {}
impl<A, Left, Right> EinsumSize<A, Left, Right> for Unknown {}

/// The `...` of `einsum!` operands stand for the same axes where both stand
/// for some (`Before`: those so far; `Disp`: this operand's shape).
#[diagnostic::on_unimplemented(
    message = "`einsum!` operands' `...` stand for different axes: `{Before}` and those of `{Disp}`",
    label = "`...` differs between operands",
    note = "by name, the axes `...` stands for are one set: align the operands first"
)]
pub trait EinsumEllipsis<Before, Disp> {}
impl<Before, Disp> EinsumEllipsis<Before, Disp> for B1 {}
