//! Broadcasting two shapes (the operands of `+`, comparisons, `where`), and
//! the in-place rule that the result be the left operand's shape.
//!
//! Axes pair up from the right (PyTorch's `infer_size`); a missing axis
//! counts as size 1. Each pair must have one name or an anonymous side
//! (PyTorch's `unify_from_right`): the result takes the name. Sizes must be equal or
//! one of them 1; a `Dyn` size leaves that check to run time, and the result
//! takes the static size when the other is `Dyn` and not 1 (the run time
//! check makes them agree). Two axes of one symbol ([`Sym`](crate::Sym))
//! are proven equal and keep it; a symbol against a static size is checked
//! at run time like `Dyn` and gives the static size (or the symbol, against
//! 1); a symbol against `Dyn` gives `Dyn`.

use typenum::{IsGreaterOrEqual, U1};

use super::Disp;
use super::expand::Reverse;
use crate::find::Contains;
use crate::id::IdKind;
use crate::logic::{Answer, B0, B1, Or, OrWith, TruthOf, Unknown};
use crate::name::{AxisName, SameName};
use crate::report::{
    BroadcastNames, BroadcastPlace, BroadcastSizes, InPlaceNames, InPlaceRank, InPlaceSize,
};
use crate::shape::{Ax, Nil, Shape};
use crate::size::{Dyn, SizeEq};

/// The shape of an elementwise op between `Self` and `S2`: the broadcast
/// result, each pair of axes proven compatible.
///
/// # Example
/// ```
/// use axial_shape::{BroadcastWith, Shape, axes, shape};
/// axes!(Batch, Rows, Cols);
/// type Out = <shape![Batch: 2, Rows: 3, Cols: 1] as BroadcastWith<shape![Cols: 4]>>::Output;
/// let mut sizes = [None; 3];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3), Some(4)]);
/// // An anonymous axis takes the other side's name.
/// type Named = <shape![2, 3] as BroadcastWith<shape![Cols: 3]>>::Output;
/// let mut names = [None; 2];
/// Named::write_names(&mut names);
/// assert_eq!(names, [None, Some("Cols")]);
/// ```
pub trait BroadcastWith<S2>: Shape {
    /// The broadcast shape.
    type Output: Shape;
}

/// The shape an elementwise op between tensors of shapes `S1` and `S2` gives.
///
/// ```
/// use axial_shape::{Broadcasted, Shape, axes, shape};
/// axes!(Rows, Cols);
/// type Out = Broadcasted<shape![Rows: 3, 1], shape![Cols: 4]>;
/// let (mut names, mut sizes) = ([None; 2], [None; 2]);
/// Out::write_names(&mut names);
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(names, [Some("Rows"), Some("Cols")]);
/// assert_eq!(sizes, [Some(3), Some(4)]);
/// ```
pub type Broadcasted<S1, S2> = <S2 as BroadcastOutput<S1>>::Output;

/// [`Broadcasted`]'s trait, with the right operand first (see
/// [`Aligned`](crate::Aligned) for why).
///
/// ```
/// use axial_shape::{BroadcastOutput, Shape, shape};
/// fn rank_of_sum<S1, S2: BroadcastOutput<S1>>() -> usize {
///     <S2::Output as Shape>::RANK
/// }
/// assert_eq!(rank_of_sum::<shape![2, 3], shape![4, 1, 3]>(), 3);
/// ```
pub trait BroadcastOutput<S1> {
    /// The broadcast shape.
    type Output: Shape;
}
impl<S2, S1: BroadcastWith<S2>> BroadcastOutput<S1> for S2 {
    type Output = S1::Output;
}

/// Whether the left operand has at least as many axes: its anonymous names
/// win when both sides of a pair are anonymous, so positional names stay
/// those of the longer shape.
type LeftLonger<S1, S2> =
    TruthOf<<<S1 as Shape>::Rank as IsGreaterOrEqual<<S2 as Shape>::Rank>>::Output>;

type Zipped<S1, S2> = <<S1 as Reverse<Nil>>::Out as BroadcastZip<
    <S2 as Reverse<Nil>>::Out,
    LeftLonger<S1, S2>,
    Disp<S1>,
    Disp<S2>,
    Nil,
>>::Out;

impl<S1, S2> BroadcastWith<S2> for S1
where
    S1: Shape + Reverse<Nil>,
    S2: Shape + Reverse<Nil>,
    S1::Rank: IsGreaterOrEqual<S2::Rank, Output: Answer>,
    <S1 as Reverse<Nil>>::Out:
        BroadcastZip<<S2 as Reverse<Nil>>::Out, LeftLonger<S1, S2>, Disp<S1>, Disp<S2>, Nil>,
    Zipped<S1, S2>: Shape + OncePerShape<Disp<S1>, Disp<S2>>,
{
    type Output = Zipped<S1, S2>;
}

/// The pairwise walk of two reversed shapes, building the result in `Acc`
/// (front first). `Left` and `Right` are what messages print.
pub trait BroadcastZip<Rev2, PreferLeft, Left, Right, Acc> {
    /// The broadcast shape.
    type Out;
}
impl<PreferLeft, Left, Right, Acc> BroadcastZip<Nil, PreferLeft, Left, Right, Acc> for Nil {
    type Out = Acc;
}
impl<B, SB, T2, PreferLeft, Left, Right, Acc>
    BroadcastZip<Ax<B, SB, T2>, PreferLeft, Left, Right, Acc> for Nil
where
    Ax<B, SB, T2>: Reverse<Acc>,
{
    type Out = <Ax<B, SB, T2> as Reverse<Acc>>::Out;
}
impl<A, SA, T1, PreferLeft, Left, Right, Acc> BroadcastZip<Nil, PreferLeft, Left, Right, Acc>
    for Ax<A, SA, T1>
where
    Self: Reverse<Acc>,
{
    type Out = <Self as Reverse<Acc>>::Out;
}
impl<A, SA, T1, B, SB, T2, PreferLeft, Left, Right, Acc>
    BroadcastZip<Ax<B, SB, T2>, PreferLeft, Left, Right, Acc> for Ax<A, SA, T1>
where
    A: PairName<B, PreferLeft, Left, Right>,
    A::Fits: SizeIfNamed<SA, SB, A, B, Left, Right>,
    T1: BroadcastZip<
            T2,
            PreferLeft,
            Left,
            Right,
            Ax<A::Out, PairedSize<A, B, SA, SB, PreferLeft, Left, Right>, Acc>,
        >,
{
    type Out = <T1 as BroadcastZip<
        T2,
        PreferLeft,
        Left,
        Right,
        Ax<A::Out, PairedSize<A, B, SA, SB, PreferLeft, Left, Right>, Acc>,
    >>::Out;
}

/// The size of a pair whose names were checked.
type PairedSize<A, B, SA, SB, PreferLeft, Left, Right> = <<A as PairName<
    B,
    PreferLeft,
    Left,
    Right,
>>::Fits as SizeIfNamed<SA, SB, A, B, Left, Right>>::Out;

/// The size of a pair of axes (`Self`: whether their names pair up): the
/// sizes are compared only when they do, so two axes of different names
/// are one error (their names), not a second one about their sizes.
pub trait SizeIfNamed<SA, SB, A, B, Left, Right> {
    /// The result's size.
    type Out;
}
impl<SA: PairSize<SB, A, B, Left, Right>, SB, A, B, Left, Right>
    SizeIfNamed<SA, SB, A, B, Left, Right> for B1
{
    type Out = SA::Out;
}
impl<SA, SB, A, B, Left, Right> SizeIfNamed<SA, SB, A, B, Left, Right> for B0 {
    type Out = SA;
}

/// The name of a pair of axes: the same name, or the named side of an
/// anonymous one.
pub trait PairName<B, PreferLeft, Left, Right> {
    /// The result's name.
    type Out;
    /// `B1` when the names pair up (else the error is [`BroadcastNames`]).
    type Fits;
}
impl<A, B, PreferLeft, Left, Right> PairName<B, PreferLeft, Left, Right> for A
where
    A: AxisName + SameName<B>,
    B: AxisName,
    A::Id: IdKind,
    B::Id: IdKind,
    (
        <A as SameName<B>>::Out,
        <A::Id as IdKind>::Anon,
        <B::Id as IdKind>::Anon,
        PreferLeft,
    ): NameOf<A, B, Left, Right>,
{
    type Out = <(
        <A as SameName<B>>::Out,
        <A::Id as IdKind>::Anon,
        <B::Id as IdKind>::Anon,
        PreferLeft,
    ) as NameOf<A, B, Left, Right>>::Out;
    type Fits = <(
        <A as SameName<B>>::Out,
        <A::Id as IdKind>::Anon,
        <B::Id as IdKind>::Anon,
        PreferLeft,
    ) as NameOf<A, B, Left, Right>>::Fits;
}

/// [`PairName`] by (same name, left anonymous, right anonymous, left longer).
pub trait NameOf<A, B, Left, Right> {
    /// The result's name.
    type Out;
    /// `B1` when the names pair up.
    type Fits;
}
impl<X, Y, P, A, B, Left, Right> NameOf<A, B, Left, Right> for (B1, X, Y, P) {
    type Out = A;
    type Fits = B1;
}
impl<P, A, B, Left, Right> NameOf<A, B, Left, Right> for (B0, B1, B0, P) {
    type Out = B;
    type Fits = B1;
}
impl<P, A, B, Left, Right> NameOf<A, B, Left, Right> for (B0, B0, B1, P) {
    type Out = A;
    type Fits = B1;
}
impl<A, B, Left, Right> NameOf<A, B, Left, Right> for (B0, B1, B1, B1) {
    type Out = A;
    type Fits = B1;
}
impl<A, B, Left, Right> NameOf<A, B, Left, Right> for (B0, B1, B1, B0) {
    type Out = B;
    type Fits = B1;
}
impl<P, A, B: BroadcastNames<A, Left, Right>, Left, Right> NameOf<A, B, Left, Right>
    for (B0, B0, B0, P)
{
    type Out = A;
    type Fits = B0;
}

/// The size of a pair of axes `A` and `B`: equal, or the one that is not 1.
pub trait PairSize<SB, A, B, Left, Right> {
    /// The result's size.
    type Out;
}
impl<SA, SB, A, B, Left, Right> PairSize<SB, A, B, Left, Right> for SA
where
    SA: SizeEq<SB> + SizeEq<U1>,
    SB: SizeEq<U1>,
    (
        <SA as SizeEq<SB>>::Out,
        <SA as SizeEq<U1>>::Out,
        <SB as SizeEq<U1>>::Out,
    ): SizeOf<SA, SB, A, B, Left, Right>,
{
    type Out = <(
        <SA as SizeEq<SB>>::Out,
        <SA as SizeEq<U1>>::Out,
        <SB as SizeEq<U1>>::Out,
    ) as SizeOf<SA, SB, A, B, Left, Right>>::Out;
}

/// [`PairSize`] by (equal, left is 1, right is 1); `Unknown` where a `Dyn`
/// size leaves it open, the run-time check then holding the rest.
pub trait SizeOf<SA, SB, A, B, Left, Right> {
    /// The result's size.
    type Out;
}
impl<X, Y, SA, SB, A, B, Left, Right> SizeOf<SA, SB, A, B, Left, Right> for (B1, X, Y) {
    type Out = SA;
}
impl<Y, SA, SB, A, B, Left, Right> SizeOf<SA, SB, A, B, Left, Right> for (B0, B1, Y) {
    type Out = SB;
}
impl<SA, SB, A, B, Left, Right> SizeOf<SA, SB, A, B, Left, Right> for (B0, B0, B1) {
    type Out = SA;
}
impl<SA, SB, A, B: BroadcastSizes<A, Left, Right>, Left, Right> SizeOf<SA, SB, A, B, Left, Right>
    for (B0, B0, B0)
{
    type Out = SA;
}
/// The right side is `Dyn`: the left's size unless it is 1.
impl<SA, SB, A, B, Left, Right> SizeOf<SA, SB, A, B, Left, Right> for (Unknown, B0, Unknown) {
    type Out = SA;
}
impl<SA, SB, A, B, Left, Right> SizeOf<SA, SB, A, B, Left, Right> for (Unknown, B1, Unknown) {
    type Out = SB;
}
/// The left side is `Dyn`: the right's size unless it is 1.
impl<SA, SB, A, B, Left, Right> SizeOf<SA, SB, A, B, Left, Right> for (Unknown, Unknown, B0) {
    type Out = SB;
}
impl<SA, SB, A, B, Left, Right> SizeOf<SA, SB, A, B, Left, Right> for (Unknown, Unknown, B1) {
    type Out = SA;
}
/// Neither side static, and not one symbol: at least one is `Dyn` (or both
/// are), so the result is `Dyn` (a symbol against `Dyn` may be 1 and stretch,
/// so the result cannot keep it).
impl<SA, SB, A, B, Left, Right> SizeOf<SA, SB, A, B, Left, Right> for (Unknown, Unknown, Unknown) {
    type Out = Dyn;
}

/// Each name once in the result: a name at different positions from the
/// right in the two operands would appear twice (PyTorch's "misaligned dims").
pub trait OncePerShape<Left, Right> {}
impl<Left, Right> OncePerShape<Left, Right> for Nil {}
impl<N, Sz, T, Left, Right> OncePerShape<Left, Right> for Ax<N, Sz, T>
where
    T: Contains<N> + OncePerShape<Left, Right>,
    <T as Contains<N>>::Out: BroadcastPlace<N, Left, Right>,
{
}

/// `self.op_(other)` in place: `S2` broadcasts to this shape exactly
/// (PyTorch: the broadcast result must be self's shape, with self's names).
/// Each axis of `S2` pairs from the right with one of the same name or is
/// anonymous, and has the same size or 1; `S2` has no more axes.
///
/// # Example
/// ```
/// use axial_shape::{InPlace, axes, shape};
/// axes!(Rows, Cols);
/// fn ok<S: InPlace<S2>, S2>() {}
/// ok::<shape![Rows: 3, Cols: 4], shape![Cols: 4]>();
/// ok::<shape![Rows: 3, Cols: 4], shape![Rows: 1, Cols: 4]>();
/// ```
pub trait InPlace<S2>: Shape {}

impl<S: Shape + Reverse<Nil>, S2: Shape + Reverse<Nil>> InPlace<S2> for S where
    <S2 as Reverse<Nil>>::Out: InPlaceZip<<S as Reverse<Nil>>::Out, Disp<S>, Disp<S2>>
{
}

/// The pairwise check of [`InPlace`] over the reversed operand (`Self`) and
/// the reversed output.
pub trait InPlaceZip<Out, OutDisp, OperandDisp> {}
impl<Out, OutDisp, OperandDisp> InPlaceZip<Out, OutDisp, OperandDisp> for Nil {}
impl<B, SB, T2, OutDisp, OperandDisp> InPlaceZip<Nil, OutDisp, OperandDisp> for Ax<B, SB, T2> where
    InPlaceLeftOver: InPlaceRank<OutDisp, OperandDisp>
{
}
impl<B, SB, T2, A, SA, T1, OutDisp, OperandDisp> InPlaceZip<Ax<A, SA, T1>, OutDisp, OperandDisp>
    for Ax<B, SB, T2>
where
    B: AxisName + SameName<A>,
    B::Id: IdKind,
    <B::Id as IdKind>::Anon: OrWith<<B as SameName<A>>::Out>,
    Or<<B::Id as IdKind>::Anon, <B as SameName<A>>::Out>: InPlaceNames<A, B, OutDisp, OperandDisp>,
    SB: SizeEq<SA> + SizeEq<U1>,
    <SB as SizeEq<SA>>::Out: OrWith<<SB as SizeEq<U1>>::Out>,
    Or<<SB as SizeEq<SA>>::Out, <SB as SizeEq<U1>>::Out>: InPlaceSize<A, B, OutDisp, OperandDisp>,
    T2: InPlaceZip<T1, OutDisp, OperandDisp>,
{
}

/// Axes of the operand beyond the output's.
pub struct InPlaceLeftOver;
