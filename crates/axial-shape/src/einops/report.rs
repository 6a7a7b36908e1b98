//! The compile errors of einops patterns, one leaf trait per mistake (see the
//! crate's `report` module for how leaves work). `Pat` is the left side of
//! the pattern as a tuple, `(B, C, (H, P), W)` for `"B C (H P) W -> ..."`
//! (`()` a unit, `Ellipsis` the `...`), and `Disp` the tensor's shape.

use crate::logic::{B1, Unknown};

/// The left side names the tensor's axes in order (`Self`: whether this one does).
///
/// What each [`Axis`](super::Axis) of the left side asks: the tensor's axis
/// there has its name, or none (an anonymous axis takes the pattern's name).
/// ```
/// use axial_shape::einops::{Axis, Einops, OutAxis, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W);
/// // "H W -> W H" on a tensor whose first axis is anonymous
/// type Left = Plain<Cons<Axis<H>, Cons<Axis<W>, Nil>>>;
/// type Right = Cons<OutAxis<W>, Cons<OutAxis<H>, Nil>>;
/// type Out = <shape![2, W: 3] as Einops<Left, Right, Nil, (H, W)>>::Output;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("W"), Some("H")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "the pattern expects axis `{Want}` where the tensor of shape `{Disp}` has `{Have}`",
    label = "`{Want}` is not the axis `{Have}` of `{Disp}`",
    note = "the left side `{Pat}` names the tensor's axes in order; `align_to` or `rename` first, or decompose with a group `(..)`"
)]
pub trait PatternAxis<Want, Have, Pat, Disp> {}
#[diagnostic::do_not_recommend]
impl<Want, Have, Pat, Disp> PatternAxis<Want, Have, Pat, Disp> for B1 {}

/// The tensor has as many axes as the left side (`Self`: the pattern's dims left over).
///
/// Never implemented: reached only for a left side with more dims than the
/// tensor has axes, so a match that holds has one dim per axis, or `...` for
/// none or more.
/// ```
/// use axial_shape::einops::{Around, Axis, Einops, OutAxis, OutEllipsis};
/// use axial_shape::{Cons, Ellipsis, Nil, Shape, axes, shape};
/// axes!(W);
/// // "... W -> W ...": here `...` stands for no axis
/// type Left = Around<Nil, Cons<Axis<W>, Nil>>;
/// type Right = Cons<OutAxis<W>, Cons<OutEllipsis, Nil>>;
/// type Out = <shape![W: 3] as Einops<Left, Right, Nil, (Ellipsis, W)>>::Output;
/// assert_eq!(Out::RANK, 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "the left side `{Pat}` of the pattern has more axes than the tensor of shape `{Disp}`",
    label = "too few axes in `{Disp}` for `{Pat}`"
)]
pub trait PatternTooLong<Pat, Disp> {}

/// The left side matches every axis (`Self`: the axes left over).
///
/// Implemented for `()` (no axis left over); `...` takes the axes not named.
/// ```
/// use axial_shape::einops::{Around, Axis, Einops, OutAxis, OutEllipsis};
/// use axial_shape::{Cons, Ellipsis, Nil, Shape, axes, shape};
/// axes!(H, W, C);
/// // "H ... -> ... H"
/// type Left = Around<Cons<Axis<H>, Nil>, Nil>;
/// type Right = Cons<OutEllipsis, Cons<OutAxis<H>, Nil>>;
/// type Out = <shape![H: 2, W: 3, C: 4] as Einops<Left, Right, Nil, (H, Ellipsis)>>::Output;
/// let mut names = [None; 3];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("W"), Some("C"), Some("H")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "the left side `{Pat}` of the pattern leaves out axes `{Self}` of the tensor of shape `{Disp}`",
    label = "`{Self}` not matched",
    note = "name every axis, or write `...` for the axes not named"
)]
pub trait PatternTooShort<Pat, Disp> {}
#[diagnostic::do_not_recommend]
impl<Pat, Disp> PatternTooShort<Pat, Disp> for () {}

/// A `1` or `()` on the left takes an axis of size 1.
///
/// What a [`Unit`](super::Unit) of the left side asks of its axis: size 1
/// (`B1`), or `Dyn` (`Unknown`, checked at run time).
/// ```
/// use axial_shape::einops::{Axis, Einops, OutAxis, Plain, Unit};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H);
/// // "H 1 -> H"
/// type Left = Plain<Cons<Axis<H>, Cons<Unit, Nil>>>;
/// type Out = <shape![H: 2, 1] as Einops<Left, Cons<OutAxis<H>, Nil>, Nil, (H, ())>>::Output;
/// assert_eq!(Out::RANK, 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "the pattern has `1` where the tensor of shape `{Disp}` has axis `{Have}`, whose size is not 1",
    label = "`{Have}` does not have size 1",
    note = "the left side reads `{Pat}`"
)]
pub trait PatternUnit<Have, Pat, Disp> {}
#[diagnostic::do_not_recommend]
impl<Have, Pat, Disp> PatternUnit<Have, Pat, Disp> for B1 {}
#[diagnostic::do_not_recommend]
impl<Have, Pat, Disp> PatternUnit<Have, Pat, Disp> for Unknown {}

/// A size given for an axis of the left side is its size.
///
/// What a [`SizedAxis`](super::SizedAxis) asks: the size given is the axis'
/// (`Unknown` on a `Dyn` axis, checked at run time; the output then has the
/// given size).
/// ```
/// use axial_shape::einops::{Axis, Einops, OutAxis, Plain, SizedAxis};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W);
/// // "H W -> H W" with W = 3
/// type Left = Plain<Cons<Axis<H>, Cons<SizedAxis<W, typenum::U3>, Nil>>>;
/// type Right = Cons<OutAxis<H>, Cons<OutAxis<W>, Nil>>;
/// type Out = <shape![H: 2, W: Dyn] as Einops<Left, Right, Nil, (H, W)>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "the size given for axis `{Have}` is not its size in the tensor of shape `{Disp}`",
    label = "another size than `{Have}` has",
    note = "the left side reads `{Pat}`"
)]
pub trait PatternSize<Have, Pat, Disp> {}
#[diagnostic::do_not_recommend]
impl<Have, Pat, Disp> PatternSize<Have, Pat, Disp> for B1 {}
#[diagnostic::do_not_recommend]
impl<Have, Pat, Disp> PatternSize<Have, Pat, Disp> for Unknown {}

/// A group on the left that splits a named axis is made of its name and of
/// names the tensor does not have (`Self`: whether so).
///
/// What a [`Group`](super::Group) asks of a named axis at its place: each
/// of the group's names is the axis' own (`(Inner P)` on `Inner`: the part
/// `Inner` keeps the name) or one the tensor does not have (`(Heads
/// HeadDim)` on `Inner`: new axes in its place). So neither `(Width P)` nor
/// `(Height Width)` can stand on `Height`: the patches of an NCHW tensor cut
/// with H and W mixed up would have the same type as the right ones.
/// ```
/// use axial_shape::einops::{Einops, Group, Infer, OutAxis, Part, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// use typenum::U2;
/// axes!(Inner, Heads, HeadDim);
/// // "(Heads HeadDim) -> Heads HeadDim" with Heads = 2, on the axis `Inner` of 6
/// type Parts = Cons<Part<Heads, U2>, Cons<Part<HeadDim, Infer>, Nil>>;
/// type Left = Plain<Cons<Group<Parts, (Heads, HeadDim)>, Nil>>;
/// type Right = Cons<OutAxis<Heads>, Cons<OutAxis<HeadDim>, Nil>>;
/// type Out = <shape![Inner: 6] as Einops<Left, Right, Nil, ((Heads, HeadDim),)>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "the group `{Group}` splits axis `{Have}` of the tensor of shape `{Disp}`, but uses a name of another of its axes",
    label = "`{Group}` stands on `{Have}`",
    note = "a group on a named axis is made of its name, `({Have} ..)`, and of names the tensor does not have; the left side reads `{Pat}`"
)]
pub trait PatternGroup<Have, Group, Pat, Disp> {}
#[diagnostic::do_not_recommend]
impl<Have, Group, Pat, Disp> PatternGroup<Have, Group, Pat, Disp> for B1 {}

/// A group on the left that splits a merged axis is its parts in order, or
/// is made of names the tensor does not have (`Self`: whether so).
///
/// What a [`Group`](super::Group) asks of a `Composed<..>` axis at its
/// place: `(H W)` on `(H W)` splits it back; `(W H)` on it would give each
/// name the other's size, and is refused.
/// ```
/// use axial_shape::einops::{Einops, Group, Infer, OutAxis, Part, Plain};
/// use axial_shape::{Composed, Cons, Nil, Shape, axes, shape};
/// use typenum::U2;
/// axes!(H, W);
/// // "(H W) -> W H" with W = 2, on the axis `(H W)` of 6
/// type Parts = Cons<Part<H, Infer>, Cons<Part<W, U2>, Nil>>;
/// type Left = Plain<Cons<Group<Parts, (H, W)>, Nil>>;
/// type Right = Cons<OutAxis<W>, Cons<OutAxis<H>, Nil>>;
/// type Out = <shape![Composed<(H, W)>: 6] as Einops<Left, Right, Nil, ((H, W),)>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "the group `{Group}` splits the merged axis `{Have}` of the tensor of shape `{Disp}`, but is not its parts in order",
    label = "`{Group}` stands on `{Have}`",
    note = "a merged axis splits back into its parts in their order, or into names the tensor does not have; the left side reads `{Pat}`"
)]
pub trait PatternRegroup<Have, Group, Pat, Disp> {}
#[diagnostic::do_not_recommend]
impl<Have, Group, Pat, Disp> PatternRegroup<Have, Group, Pat, Disp> for B1 {}

/// A group on the left whose sizes are all given multiplies to its axis' size.
///
/// What a [`Group`](super::Group) with every size given asks: their product
/// is the axis' size.
/// ```
/// use axial_shape::einops::{Einops, Group, OutAxis, Part, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// use typenum::{U2, U3};
/// axes!(H, P);
/// // "(H P) -> H P" with H = 2, P = 3
/// type Left = Plain<Cons<Group<Cons<Part<H, U2>, Cons<Part<P, U3>, Nil>>, (H, P)>, Nil>>;
/// type Right = Cons<OutAxis<H>, Cons<OutAxis<P>, Nil>>;
/// type Out = <shape![H: 6] as Einops<Left, Right, Nil, ((H, P),)>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot decompose axis `{Have}` of `{Disp}` into `{Group}`: the given sizes do not multiply to its size",
    label = "sizes of `{Group}` do not multiply to the size of `{Have}`",
    note = "the left side reads `{Pat}`"
)]
pub trait PatternProduct<Have, Group, Pat, Disp> {}
#[diagnostic::do_not_recommend]
impl<Have, Group, Pat, Disp> PatternProduct<Have, Group, Pat, Disp> for B1 {}
#[diagnostic::do_not_recommend]
impl<Have, Group, Pat, Disp> PatternProduct<Have, Group, Pat, Disp> for Unknown {}

/// A group on the left with one size to infer: the given sizes divide its axis' size.
///
/// What a [`Group`](super::Group) with one size to [`Infer`](super::Infer)
/// asks: the sizes given divide the axis' size.
/// ```
/// use axial_shape::einops::{Einops, Group, Infer, OutAxis, Part, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// use typenum::U2;
/// axes!(H, P);
/// // "(H P) -> H P" with P = 2, on an anonymous axis of 6
/// type Left = Plain<Cons<Group<Cons<Part<H, Infer>, Cons<Part<P, U2>, Nil>>, (H, P)>, Nil>>;
/// type Right = Cons<OutAxis<H>, Cons<OutAxis<P>, Nil>>;
/// type Out = <shape![6] as Einops<Left, Right, Nil, ((H, P),)>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(2)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot decompose axis `{Have}` of `{Disp}` into `{Group}`: its size is not a multiple of the given sizes",
    label = "the size of `{Have}` is not divisible by the sizes given in `{Group}`",
    note = "the left side reads `{Pat}`"
)]
pub trait PatternDivides<Have, Group, Pat, Disp> {}
#[diagnostic::do_not_recommend]
impl<Have, Group, Pat, Disp> PatternDivides<Have, Group, Pat, Disp> for B1 {}
#[diagnostic::do_not_recommend]
impl<Have, Group, Pat, Disp> PatternDivides<Have, Group, Pat, Disp> for Unknown {}

/// After matching, each axis has one name (`Self`: whether `A` comes again).
///
/// What [`OnceEach`](super::OnceEach) asks of each elementary axis: the rest
/// do not name it again (`B0`).
/// ```
/// use axial_shape::einops::report::PatternOnce;
/// use axial_shape::{Contains, Ellipsis, Truth, axes, shape};
/// axes!(B, H, W);
/// fn once<Rest: Contains<A>, A>() -> Option<bool>
/// where
///     Rest::Out: PatternOnce<A, (B, Ellipsis), (B, H, W)>,
/// {
///     <Rest::Out as Truth>::VALUE
/// }
/// assert_eq!(once::<shape![H: 2, W: 3], B>(), Some(false));
/// ```
#[diagnostic::on_unimplemented(
    message = "the pattern names axis `{A}`, which the tensor of shape `{Disp}` also has among the axes `...` stands for",
    label = "`{A}` twice",
    note = "the left side reads `{Pat}`; pick another name"
)]
pub trait PatternOnce<A, Pat, Disp> {}
#[diagnostic::do_not_recommend]
impl<A, Pat, Disp> PatternOnce<A, Pat, Disp> for crate::logic::B0 {}

/// The operands of `einsum!` agree on the size of a shared axis (`Left`:
/// the axes of the operands before, `Right`: this operand's shape).
///
/// What [`EinsumOf`](super::EinsumOf) asks of an axis two operands share: one
/// size (`Unknown` with a `Dyn` one, checked at run time).
/// ```
/// use axial_shape::einops::report::EinsumSize;
/// use axial_shape::{Dyn, SizeEq, Truth, axes};
/// use typenum::U3;
/// axes!(I, J, K);
/// fn agree<SA: SizeEq<SB>, SB>() -> Option<bool>
/// where
///     SA::Out: EinsumSize<J, (I, J), (J, K)>,
/// {
///     <SA::Out as Truth>::VALUE
/// }
/// assert_eq!(agree::<U3, U3>(), Some(true));
/// assert_eq!(agree::<U3, Dyn>(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`einsum!` operands disagree on the size of axis `{A}`: `{Left}` and `{Right}`",
    label = "`{A}` has another size in `{Right}`"
)]
pub trait EinsumSize<A, Left, Right> {}
#[diagnostic::do_not_recommend]
impl<A, Left, Right> EinsumSize<A, Left, Right> for B1 {}
#[diagnostic::do_not_recommend]
impl<A, Left, Right> EinsumSize<A, Left, Right> for Unknown {}

/// The `...` of `einsum!` operands stand for the same axes where both stand
/// for some (`Before`: those so far; `Disp`: this operand's shape).
///
/// What [`EinsumOf`](super::EinsumOf) asks of the `...` of its operands: the
/// same axes, by name, where both stand for some.
/// ```
/// use axial_shape::einops::{Around, Axis, EinsumOf, Operand, OutAxis, OutEllipsis};
/// use axial_shape::{Cons, Ellipsis, Nil, Shape, axes, shape};
/// axes!(B, J);
/// // "... J, ... J -> ..."
/// type Spec = Operand<Around<Nil, Cons<Axis<J>, Nil>>, (Ellipsis, J)>;
/// type Shapes = Cons<shape![B: 2, J: 3], Cons<shape![B: 2, J: 3], Nil>>;
/// type Out = <Shapes as EinsumOf<Cons<Spec, Cons<Spec, Nil>>, Cons<OutEllipsis, Nil>>>::Output;
/// let mut names = [None; 1];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("B")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`einsum!` operands' `...` stand for different axes: `{Before}` and those of `{Disp}`",
    label = "`...` differs between operands",
    note = "by name, the axes `...` stands for are one set: align the operands first"
)]
pub trait EinsumEllipsis<Before, Disp> {}
#[diagnostic::do_not_recommend]
impl<Before, Disp> EinsumEllipsis<Before, Disp> for B1 {}
