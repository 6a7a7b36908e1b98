//! `einsum!` at the type level: each operand's shape matched against its
//! subscripts (a left side of plain names and `...`), the sizes of a name
//! shared by operands proven equal (checked at run time with `Dyn`), and the
//! output built from the names of all operands.
//!
//! The `...` of the output stands for the axes of the operands' `...`:
//! these must be the same axes wherever two operands' `...` are not empty
//! (PyTorch would broadcast them; by name they are one set of axes).

use super::left::MatchLeft;
use super::output::Build;
use super::report::{EinsumEllipsis, EinsumSize};
use crate::display::Flat;
use crate::find::{Append, Concat, Contains, Find};
use crate::logic::{B0, B1};
use crate::name::SameName;
use crate::ops::Distinct;
use crate::shape::{Ax, Cons, DisplayOf, Marker, Nil, Shape};
use crate::size::SizeEq;

/// The subscripts of one operand: a left side (`Plain` or `Around` of
/// `Axis` dims) and its display.
///
/// ```
/// use axial_shape::einops::{Axis, Operand, Operands, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(I, J);
/// // The subscripts `i j` of one operand.
/// type Ij = Operand<Plain<Cons<Axis<I>, Cons<Axis<J>, Nil>>>, (I, J)>;
/// type Known = <Cons<shape![I: 2, J: 3], Nil> as Operands<Cons<Ij, Nil>, Nil, Nil>>::Known;
/// let mut sizes = [None; 2];
/// Known::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3)]);
/// ```
pub struct Operand<Left, Pat>(Marker<(Left, Pat)>);

/// `einsum!` of operands whose shapes are the list `Self`, with the
/// subscripts `Specs` (a list of [`Operand`]) and the output side `Right`.
///
/// # Example
/// ```
/// use axial_shape::einops::{Axis, EinsumOf, Operand, OutAxis, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(I, J, K);
/// type Ij = Operand<Plain<Cons<Axis<I>, Cons<Axis<J>, Nil>>>, (I, J)>;
/// type Jk = Operand<Plain<Cons<Axis<J>, Cons<Axis<K>, Nil>>>, (J, K)>;
/// type Shapes = Cons<shape![I: 2, J: 3], Cons<shape![J: 3, K: 4], Nil>>;
/// type Out = <Shapes as EinsumOf<Cons<Ij, Cons<Jk, Nil>>, Cons<OutAxis<I>, Cons<OutAxis<K>, Nil>>>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(4)]);
/// ```
pub trait EinsumOf<Specs, Right> {
    /// The output shape.
    type Output: Shape;
}

impl<Shapes, Specs, Right> EinsumOf<Specs, Right> for Shapes
where
    Shapes: Operands<Specs, Nil, Nil>,
    Right: Build<Shapes::Known, Shapes::Ellipsis>,
    <Right as Build<Shapes::Known, Shapes::Ellipsis>>::Out: Distinct,
{
    type Output = <Right as Build<Shapes::Known, Shapes::Ellipsis>>::Out;
}

type Disp<S> = <S as Shape>::Display;
type Elem<S, L, P> = <S as MatchLeft<L, P, Disp<S>>>::Elementary;
type EllOf<S, L, P> = <S as MatchLeft<L, P, Disp<S>>>::Ellipsis;

/// The operands folded: every axis of those so far (`Known`, a name shared
/// by two operands appearing twice) and the axes of `...` (`Ell`).
///
/// ```
/// use axial_shape::einops::{Axis, Operand, Operands, Plain};
/// use axial_shape::{Cons, Nil, Shape, axes, shape};
/// axes!(I, J, K);
/// type Ij = Operand<Plain<Cons<Axis<I>, Cons<Axis<J>, Nil>>>, (I, J)>;
/// type Jk = Operand<Plain<Cons<Axis<J>, Cons<Axis<K>, Nil>>>, (J, K)>;
/// type Shapes = Cons<shape![I: 2, J: 3], Cons<shape![J: 3, K: 4], Nil>>;
/// type Folded = <Shapes as Operands<Cons<Ij, Cons<Jk, Nil>>, Nil, Nil>>::Known;
/// type NoEllipsis = <Shapes as Operands<Cons<Ij, Cons<Jk, Nil>>, Nil, Nil>>::Ellipsis;
/// let mut names = [None; 4];
/// Folded::write_names(&mut names);
/// assert_eq!(names, [Some("I"), Some("J"), Some("J"), Some("K")]);
/// assert_eq!(NoEllipsis::RANK, 0);
/// ```
pub trait Operands<Specs, Known, Ell> {
    /// Every axis of every operand.
    type Known;
    /// The axes of `...`.
    type Ellipsis;
}
impl<Known, Ell> Operands<Nil, Known, Ell> for Nil {
    type Known = Known;
    type Ellipsis = Ell;
}
impl<S, ST, L, P, SpecT, Known, Ell> Operands<Cons<Operand<L, P>, SpecT>, Known, Ell>
    for Cons<S, ST>
where
    S: Shape + MatchLeft<L, P, Disp<S>>,
    Known: Flat,
    Elem<S, L, P>: Agree<Known, DisplayOf<Known>, Disp<S>>,
    Ell: Flat + Widen<EllOf<S, L, P>, DisplayOf<Ell>, Disp<S>>,
    Known: Append<Elem<S, L, P>>,
    ST: Operands<
            SpecT,
            Concat<Known, Elem<S, L, P>>,
            <Ell as Widen<EllOf<S, L, P>, DisplayOf<Ell>, Disp<S>>>::Out,
        >,
{
    type Known = ST::Known;
    type Ellipsis = ST::Ellipsis;
}

/// Each axis of an operand has the size it has in the operands before it.
///
/// ```
/// use axial_shape::einops::Agree;
/// use axial_shape::{Shape, axes, shape};
/// axes!(I, J, K);
/// fn agreed<S: Shape + Agree<Known, (), ()>, Known>() -> usize {
///     S::RANK
/// }
/// // `J` has size 3 in both; `K` is new.
/// assert_eq!(agreed::<shape![J: 3, K: 4], shape![I: 2, J: 3]>(), 2);
/// ```
pub trait Agree<Known, Before, Disp> {}
impl<Known, Before, Disp> Agree<Known, Before, Disp> for Nil {}
impl<A, Sz, T, Known, Before, Disp> Agree<Known, Before, Disp> for Ax<A, Sz, T>
where
    Known: Contains<A>,
    <Known as Contains<A>>::Out: AgreeOn<A, Sz, Known, Before, Disp>,
    T: Agree<Known, Before, Disp>,
{
}

/// [`Agree`] for one axis, by whether an earlier operand has it.
///
/// ```
/// use axial_shape::einops::AgreeOn;
/// use axial_shape::{B0, B1, Dyn, axes, shape};
/// use typenum::U3;
/// axes!(I, J);
/// fn agrees<Found: AgreeOn<J, Sz, Known, (), ()>, Sz, Known>() -> bool {
///     true
/// }
/// assert!(agrees::<B1, U3, shape![I: 2, J: 3]>());
/// assert!(agrees::<B1, Dyn, shape![I: 2, J: 3]>()); // checked at run time
/// assert!(agrees::<B0, U3, shape![I: 2]>());
/// ```
pub trait AgreeOn<A, Sz, Known, Before, Disp> {}
impl<A, Sz, Known, Before, Disp> AgreeOn<A, Sz, Known, Before, Disp> for B0 {}
impl<A, Sz, Known, Before, Disp> AgreeOn<A, Sz, Known, Before, Disp> for B1
where
    Known: Find<A, Before>,
    <Known as Find<A, Before>>::Size: SizeEq<Sz>,
    <<Known as Find<A, Before>>::Size as SizeEq<Sz>>::Out: EinsumSize<A, Before, Disp>,
{
}

/// The axes of `...` so far (`Self`) and an operand's (`E`): the longer,
/// the same axes when both have some.
///
/// ```
/// use axial_shape::einops::Widen;
/// use axial_shape::{Nil, Shape, axes, shape};
/// axes!(B);
/// type FromNone = <Nil as Widen<shape![B: 5], (), ()>>::Out;
/// type KeptSome = <shape![B: 5] as Widen<Nil, (), ()>>::Out;
/// assert_eq!((FromNone::RANK, KeptSome::RANK), (1, 1));
/// ```
pub trait Widen<E, Before, Disp> {
    /// The axes of `...`.
    type Out;
}
impl<E, Before, Disp> Widen<E, Before, Disp> for Nil {
    type Out = E;
}
impl<A, Sz, T, Before, Disp> Widen<Nil, Before, Disp> for Ax<A, Sz, T> {
    type Out = Self;
}
impl<A, Sz, T, B, SB, T2, Before, Disp> Widen<Ax<B, SB, T2>, Before, Disp> for Ax<A, Sz, T>
where
    Self: SameAxes<Ax<B, SB, T2>, Before, Disp>,
{
    type Out = Self;
}

/// Two lists of axes with the same names in the same order.
///
/// ```
/// use axial_shape::einops::SameAxes;
/// use axial_shape::{Shape, axes, shape};
/// axes!(B, T);
/// fn same<S: Shape + SameAxes<O, (), ()>, O>() -> usize {
///     S::RANK
/// }
/// // Names decide, not sizes.
/// assert_eq!(same::<shape![B: 2, T: 3], shape![B: 2, T: Dyn]>(), 2);
/// ```
pub trait SameAxes<Other, Before, Disp> {}
impl<Before, Disp> SameAxes<Nil, Before, Disp> for Nil {}
impl<A, Sz, T, Before, Disp> SameAxes<Nil, Before, Disp> for Ax<A, Sz, T> where
    B0: EinsumEllipsis<Before, Disp>
{
}
impl<B, SB, T, Before, Disp> SameAxes<Ax<B, SB, T>, Before, Disp> for Nil where
    B0: EinsumEllipsis<Before, Disp>
{
}
impl<A: SameName<B>, Sz, T, B, SB, T2, Before, Disp> SameAxes<Ax<B, SB, T2>, Before, Disp>
    for Ax<A, Sz, T>
where
    A::Out: EinsumEllipsis<Before, Disp>,
    T: SameAxes<T2, Before, Disp>,
{
}
