//! einops patterns at the type level: what the `rearrange!`, `reduce!`,
//! `repeat!` and `einsum!` macros of `axial` expand to.
//!
//! A macro parses its pattern while the program compiles and writes it as
//! types: the left side as a list of dims ([`Axis`], [`Unit`], [`Group`] of
//! [`Part`]s, in [`Plain`] or [`Around`] a `...`), the output side as a list
//! of [`OutAxis`], [`OutNew`], [`OutEllipsis`] and [`OutGroup`]. [`Einops`]
//! then matches the left side against the tensor's shape (each mistake a
//! compile error of [`report`] naming the axes) and builds the output shape.
//! The run-time work is `axial_core::einops`' recipe, so views are exactly
//! einops' views.
//!
//! # Example
//! ```
//! use axial_shape::einops::{Axis, Einops, OutAxis, OutGroup, PartAxis, Plain};
//! use axial_shape::{Cons, Nil, Shape, axes, shape};
//! axes!(B, C, H, W);
//! // "B C H W -> B (C H W)"
//! type Left = Plain<Cons<Axis<B>, Cons<Axis<C>, Cons<Axis<H>, Cons<Axis<W>, Nil>>>>>;
//! type Right = Cons<OutAxis<B>, Cons<OutGroup<Cons<PartAxis<C>, Cons<PartAxis<H>, Cons<PartAxis<W>, Nil>>>, ()>, Nil>>;
//! type Out = <shape![B: 2, C: 3, H: 4, W: 5] as Einops<Left, Right, Nil, (B, C, H, W)>>::Output;
//! let mut names = [None; 2];
//! Out::write_names(&mut names);
//! assert_eq!(names, [Some("B"), Some("(C H W)")]);
//! let mut sizes = [None; 2];
//! Out::write_static_sizes(&mut sizes);
//! assert_eq!(sizes, [Some(2), Some(60)]);
//! ```

mod einsum;
mod group;
mod group_on;
mod left;
mod names;
mod output;
pub mod report;

pub use einsum::{Agree, AgreeOn, EinsumOf, Operand, Operands, SameAxes, Widen};
pub use group::{Decompose, Given, GivenSize, Infer, Part, Resolve, SizeDiv, SizeOr, Solve};
pub use group_on::{
    GroupOn, ListMentions, Mentions, PartIds, PartsUsed, PartsUsedBesides, ShapeMentions, UsedIn,
};
pub use left::{
    Around, Axis, Continue, Group, Lockstep, MatchDim, MatchDims, MatchLeft, Plain, SizedAxis,
    Skip, SplitBack, Unit, Unmatched,
};
pub use names::{
    Composed, ComposedId, ComposedParts, IdCons, IdListEq, IdNil, Length, Spelling, ThenTails,
    Unnamed, UnnamedId,
};
pub use output::{
    Build, ComposedName, Gather, OutAxis, OutEllipsis, OutGroup, OutNew, PartAxis, PartEllipsis,
    PartNew, Place,
};

use report::PatternOnce;

use crate::find::{Append, Concat, Contains};
use crate::logic::{And, AndWith, False, Not, NotBit, True};
use crate::ops::Distinct;
use crate::shape::{Ax, Nil, Shape};

/// The display of a shape.
type Disp<S> = <S as Shape>::Display;
/// The elementary axes of `S` under the left side `L` (display `P`).
type Elementary<S, L, P> = <S as MatchLeft<L, P, Disp<S>>>::Elementary;
/// The axes `...` stands for.
type EllipsisOf<S, L, P> = <S as MatchLeft<L, P, Disp<S>>>::Ellipsis;
/// The elementary axes followed by the new axes `News`.
type Known<S, L, N, P> = Concat<Elementary<S, L, P>, N>;

/// A pattern applied to this shape: the left side `Left` (as it prints,
/// `Pat`) matches it, and the output side `Out` gives `Output`. `News` lists
/// the new named axes of `repeat` with their sizes (`Nil` otherwise).
///
/// The left side names the axes in order; a group takes the axis at its
/// place when it is made of that axis' name and names the tensor does not
/// have (a merged axis: when it is exactly its parts, or new names; an
/// anonymous axis: any group); `1` takes an axis of size 1; `...` the axes
/// not named. The elementary axes (and `News`) must name no axis twice, and so
/// must the output.
///
/// # Example
/// ```
/// use axial_shape::einops::{Axis, Einops, OutAxis, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(H, W, C);
/// // repeat: "H W -> H W C" with C = 3, the new axis listed in `News`
/// type Left = Plain<Cons<Axis<H>, Cons<Axis<W>, Nil>>>;
/// type Right = Cons<OutAxis<H>, Cons<OutAxis<W>, Cons<OutAxis<C>, Nil>>>;
/// type Out = <shape![H: 2, W: 4] as Einops<Left, Right, shape![C: 3], (H, W)>>::Output;
/// let mut sizes = [None; 3];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(4), Some(3)]);
/// ```
pub trait Einops<Left, Out, News, Pat>: Shape {
    /// The output shape.
    type Output: Shape;
}

impl<S, Left, Out, News, Pat> Einops<Left, Out, News, Pat> for S
where
    S: Shape + MatchLeft<Left, Pat, Disp<S>>,
    Elementary<S, Left, Pat>: Append<News>,
    Known<S, Left, News, Pat>: OnceEach<Pat, Disp<S>>,
    Out: Build<Known<S, Left, News, Pat>, EllipsisOf<S, Left, Pat>>,
    <Out as Build<Known<S, Left, News, Pat>, EllipsisOf<S, Left, Pat>>>::Out: Shape,
    <Known<S, Left, News, Pat> as OnceEach<Pat, Disp<S>>>::Verdict:
        DistinctIfOnce<<Out as Build<Known<S, Left, News, Pat>, EllipsisOf<S, Left, Pat>>>::Out>,
{
    type Output = <Out as Build<Known<S, Left, News, Pat>, EllipsisOf<S, Left, Pat>>>::Out;
}

/// The elementary axes name each axis once (a pattern name is not also one
/// of the axes `...` stands for).
///
/// ```
/// use axial_shape::einops::OnceEach;
/// use axial_shape::{axes, shape};
/// axes!(B, H, W);
/// fn once_each<Known: OnceEach<Pat, Disp>, Pat, Disp>() {}
/// // "B ... -> ..." on (B, H, W): B, then the axes of `...`
/// once_each::<shape![B: 2, H: 3, W: 4], (B, axial_shape::Ellipsis), (B, H, W)>();
/// ```
pub trait OnceEach<Pat, Disp> {
    /// `True` when they do (else the error is this trait's, and the output
    /// is not checked again: [`DistinctIfOnce`]).
    type Verdict;
}
impl<Pat, Disp> OnceEach<Pat, Disp> for Nil {
    type Verdict = True;
}
impl<N, Sz, T: Contains<N> + OnceEach<Pat, Disp>, Pat, Disp> OnceEach<Pat, Disp> for Ax<N, Sz, T>
where
    T::Out: PatternOnce<N, Pat, Disp> + NotBit,
    Not<T::Out>: AndWith<T::Verdict>,
{
    type Verdict = And<Not<T::Out>, T::Verdict>;
}

/// The output names each axis once, when the elementary axes do (`Self`);
/// when they do not, that is the one error ([`OnceEach`]) and the output,
/// which repeats the same name, is not reported again.
///
/// ```
/// use axial_shape::einops::DistinctIfOnce;
/// use axial_shape::{Ax, False, Nil, Sz, True, axes, shape};
/// axes!(B, C);
/// fn checked<V: DistinctIfOnce<Out>, Out>() {}
/// checked::<True, shape![B: 2, C: 3]>();
/// checked::<False, Ax<B, Sz<2>, Ax<B, Sz<3>, Nil>>>();
/// ```
pub trait DistinctIfOnce<Out> {}
impl<Out: Distinct> DistinctIfOnce<Out> for True {}
impl<Out> DistinctIfOnce<Out> for False {}
