//! `matmul`: the last axis of the left operand contracted with the
//! second-to-last of the right (its only axis when it has one), the leading
//! axes broadcast as batch axes (PyTorch's `torch.matmul`).

use super::Disp;
use super::broadcast::{BroadcastOutput, Broadcasted};
use super::expand::Reverse;
use crate::find::{Append, Concat, Contains};
use crate::id::IdKind;
use crate::logic::{Or, OrWith};
use crate::name::{AxisName, SameName};
use crate::report::{ContractNames, ContractSizes, MatMulNames, MatMulRank};
use crate::shape::{Ax, Marker, Nil, Shape};
use crate::size::SizeEq;

/// `matmul` of a tensor of this shape by one of shape `S2`: the contracted
/// axes have one name (or one is anonymous) and one size; the batch axes
/// broadcast; the result names no axis twice.
///
/// A left operand of one axis is a row vector and a right operand of one
/// axis a column vector; their unit axis is dropped from the result, as in
/// PyTorch.
///
/// # Example
/// ```
/// use axial_shape::{MatMul, Shape, axes, shape};
/// axes!(Batch, Rows, Inner, Cols);
/// type Out = <shape![Batch: 8, Rows: 2, Inner: 3] as MatMul<shape![Inner: 3, Cols: 4]>>::Output;
/// let mut names = [None; 3];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("Batch"), Some("Rows"), Some("Cols")]);
/// type Dot = <shape![Inner: 3] as MatMul<shape![Inner: 3]>>::Output;
/// assert_eq!(Dot::RANK, 0);
/// ```
pub trait MatMul<S2>: Shape {
    /// The product's shape.
    type Output: Shape;
}

/// The shape `matmul` gives for operands of shapes `S1` and `S2`.
///
/// ```
/// use axial_shape::{MatMulOut, Shape, axes, shape};
/// axes!(Rows, Inner, Cols);
/// type Out = MatMulOut<shape![Rows: 2, Inner: 3], shape![Inner: 3, Cols: 4]>;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(4)]);
/// ```
pub type MatMulOut<S1, S2> = <S2 as MatMulOutput<S1>>::Output;

/// [`MatMulOut`]'s trait, with the right operand first (see
/// [`Aligned`](crate::Aligned)).
///
/// ```
/// use axial_shape::{MatMulOutput, Shape, axes, shape};
/// axes!(Batch, Rows, Inner);
/// fn product_rank<S1, S2: MatMulOutput<S1>>() -> usize {
///     <S2::Output as Shape>::RANK
/// }
/// assert_eq!(product_rank::<shape![Batch: 5, Rows: 2, Inner: 3], shape![Inner: 3]>(), 2);
/// ```
pub trait MatMulOutput<S1> {
    /// The product's shape.
    type Output: Shape;
}
impl<S2, S1: MatMul<S2>> MatMulOutput<S1> for S2 {
    type Output = S1::Output;
}

type Lhs<S1, S2> = <<S1 as Reverse<Nil>>::Out as LeftOperand<Disp<S1>, Disp<S2>>>::Parts;
type Rhs<S1, S2> = <<S2 as Reverse<Nil>>::Out as RightOperand<Disp<S1>, Disp<S2>>>::Parts;
type Product<S1, S2> = Concat<
    Broadcasted<<Lhs<S1, S2> as Parts>::Batch, <Rhs<S1, S2> as Parts>::Batch>,
    Concat<<Lhs<S1, S2> as Parts>::Outer, <Rhs<S1, S2> as Parts>::Outer>,
>;

impl<S1, S2> MatMul<S2> for S1
where
    S1: Shape + Reverse<Nil>,
    S2: Shape + Reverse<Nil>,
    <S1 as Reverse<Nil>>::Out: LeftOperand<Disp<S1>, Disp<S2>>,
    <S2 as Reverse<Nil>>::Out: RightOperand<Disp<S1>, Disp<S2>>,
    Lhs<S1, S2>: Parts,
    Rhs<S1, S2>: Parts,
    <Lhs<S1, S2> as Parts>::Inner: Contracts<<Rhs<S1, S2> as Parts>::Inner, Disp<S1>, Disp<S2>>,
    <Rhs<S1, S2> as Parts>::Batch: BroadcastOutput<<Lhs<S1, S2> as Parts>::Batch>,
    <Lhs<S1, S2> as Parts>::Outer: Append<<Rhs<S1, S2> as Parts>::Outer>,
    Broadcasted<<Lhs<S1, S2> as Parts>::Batch, <Rhs<S1, S2> as Parts>::Batch>:
        Append<Concat<<Lhs<S1, S2> as Parts>::Outer, <Rhs<S1, S2> as Parts>::Outer>>,
    Product<S1, S2>: Shape + NamedOnceIn<Disp<S1>, Disp<S2>>,
{
    type Output = Product<S1, S2>;
}

/// An operand cut into its batch axes, its outer axis (none, or the one that
/// stays in the product) and its contracted axis.
pub trait Parts {
    /// The leading axes.
    type Batch;
    /// `Nil`, or the one axis kept next to the contracted one.
    type Outer;
    /// The contracted axis, `(Name, Size)`.
    type Inner;
}

/// The parts of `(Batch, Outer, Inner)`.
pub struct Cut<Batch, Outer, Inner>(Marker<(Batch, Outer, Inner)>);
impl<Batch, Outer, Inner> Parts for Cut<Batch, Outer, Inner> {
    type Batch = Batch;
    type Outer = Outer;
    type Inner = Inner;
}

/// The left operand, reversed: `K` last, `M` before it, then the batch axes.
pub trait LeftOperand<Left, Right> {
    /// Its parts.
    type Parts;
}
impl<Left, Right> LeftOperand<Left, Right> for Nil
where
    Nil: MatMulRank<Left, Right>,
{
    type Parts = Cut<Nil, Nil, (Nil, Nil)>;
}
impl<K, SK, Left, Right> LeftOperand<Left, Right> for Ax<K, SK, Nil> {
    type Parts = Cut<Nil, Nil, (K, SK)>;
}
impl<K, SK, M, SM, RevBatch: Reverse<Nil>, Left, Right> LeftOperand<Left, Right>
    for Ax<K, SK, Ax<M, SM, RevBatch>>
{
    type Parts = Cut<RevBatch::Out, Ax<M, SM, Nil>, (K, SK)>;
}

/// The right operand, reversed: `N` last, `K` before it, then the batch
/// axes; or `K` alone.
pub trait RightOperand<Left, Right> {
    /// Its parts.
    type Parts;
}
impl<Left, Right> RightOperand<Left, Right> for Nil
where
    Nil: MatMulRank<Left, Right>,
{
    type Parts = Cut<Nil, Nil, (Nil, Nil)>;
}
impl<K, SK, Left, Right> RightOperand<Left, Right> for Ax<K, SK, Nil> {
    type Parts = Cut<Nil, Nil, (K, SK)>;
}
impl<N, SN, K, SK, RevBatch: Reverse<Nil>, Left, Right> RightOperand<Left, Right>
    for Ax<N, SN, Ax<K, SK, RevBatch>>
{
    type Parts = Cut<RevBatch::Out, Ax<N, SN, Nil>, (K, SK)>;
}

/// The contracted axes `(Name, Size)` agree: one name (or an anonymous
/// side) and one size (checked at run time with `Dyn`).
pub trait Contracts<Other, Left, Right> {}
impl<KA, SA, KB, SB, Left, Right> Contracts<(KB, SB), Left, Right> for (KA, SA)
where
    KA: AxisName + SameName<KB>,
    KB: AxisName,
    KA::Id: IdKind,
    KB::Id: IdKind,
    <KA::Id as IdKind>::Anon: OrWith<<KB::Id as IdKind>::Anon>,
    Or<<KA::Id as IdKind>::Anon, <KB::Id as IdKind>::Anon>: OrWith<<KA as SameName<KB>>::Out>,
    Or<Or<<KA::Id as IdKind>::Anon, <KB::Id as IdKind>::Anon>, <KA as SameName<KB>>::Out>:
        ContractNames<KA, KB, Left, Right>,
    SA: SizeEq<SB>,
    <SA as SizeEq<SB>>::Out: ContractSizes<KA, KB, Left, Right>,
{
}

/// The product names each axis once.
pub trait NamedOnceIn<Left, Right> {}
impl<Left, Right> NamedOnceIn<Left, Right> for Nil {}
impl<N, Sz, T, Left, Right> NamedOnceIn<Left, Right> for Ax<N, Sz, T>
where
    T: Contains<N> + NamedOnceIn<Left, Right>,
    <T as Contains<N>>::Out: MatMulNames<N, Left, Right>,
{
}
