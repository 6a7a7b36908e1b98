//! The type-level rules of nested tensors: the shape `(Batch, Ragged: Dyn,
//! rest...)`, items that fit it, and which axis an op names (the ragged
//! one, a fixed one, never the batch).

use axial_core::nested::NestedTensor;
use axial_core::{Element, ReduceOp, Result, Scalar};
use axial_shape::{Ax, B0, B1, Cons, Dyn, HasAxis, Nil, SameName, Shape, SizeEq, Unknown};

use super::Nested;
use crate::access::owned;
use crate::tensor::Tensor;

/// A shape with a batch axis first: the shape of a nested tensor, whose
/// other axes are its items' (the ragged ones among them, wherever a
/// transpose moved them).
///
/// ```
/// use axial::prelude::*;
/// use axial::{Batched, Shape};
/// axes!(Batch, Features, Seq);
/// fn items<S: Batched>() -> usize { <S::Items as Shape>::RANK }
/// assert_eq!(items::<shape![Batch: Dyn, Features: 3, Seq: Dyn]>(), 2);
/// ```
pub trait Batched: Shape {
    /// The batch axis' name.
    type Batch;
    /// The batch axis' size.
    type Size;
    /// The items' axes.
    type Items: Shape;
}

impl<B, SB, I> Batched for Ax<B, SB, I>
where
    Self: Shape,
    I: Shape,
{
    type Batch = B;
    type Size = SB;
    type Items = I;
}

/// The shape of a nested tensor as built: a batch axis, then the ragged
/// axis (size `Dyn`: each item has its own length), then the items' fixed
/// axes.
///
/// ```
/// use axial::Shape;
/// use axial::prelude::*;
/// use axial::RaggedShape;
/// axes!(Batch, Seq, Features);
/// fn fixed<S: RaggedShape>() -> usize { <S::Rest as Shape>::RANK }
/// assert_eq!(fixed::<shape![Batch: Dyn, Seq: Dyn, Features: 3]>(), 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the shape of a nested tensor",
    label = "not `(Batch, Ragged: Dyn, ...)`",
    note = "a nested tensor's shape is a batch axis, then the ragged axis of size `Dyn` (each item has its own length), then the items' fixed axes"
)]
pub trait RaggedShape: Batched {
    /// The ragged axis' name.
    type Ragged;
    /// The items' fixed axes.
    type Rest: Shape;
}

impl<B, SB, L, Rest> RaggedShape for Ax<B, SB, Ax<L, Dyn, Rest>>
where
    Self: Shape,
    Rest: Shape,
    Ax<L, Dyn, Rest>: Shape,
{
    type Ragged = L;
    type Rest = Rest;
}

/// An item of shape `Self` fits a nested tensor of shape `S`: its first
/// axis is the ragged one (any length), and its other axes are `S`'s fixed
/// axes, with their names and sizes.
///
/// ```
/// use axial::prelude::*;
/// use axial::ItemOf;
/// axes!(Batch, Seq, Features);
/// fn fits<I: ItemOf<shape![Batch: Dyn, Seq: Dyn, Features: 3]>>() {}
/// fits::<shape![Seq: 5, Features: 3]>();
/// fits::<shape![Seq: Dyn, Features: Dyn]>(); // checked at run time
/// ```
pub trait ItemOf<S: RaggedShape>: Shape {}

impl<S, L2, SL2, RestI> ItemOf<S> for Ax<L2, SL2, RestI>
where
    S: RaggedShape,
    Self: Shape,
    L2: SameName<S::Ragged>,
    <L2 as SameName<S::Ragged>>::Out: RaggedAxisFits<L2, S::Ragged>,
    RestI: FixedAxes<S::Rest, Self::Display, S::Display>,
{
}

/// The item's first axis is the nested tensor's ragged axis.
#[diagnostic::on_unimplemented(
    message = "a nested item's first axis `{Item}` is not the ragged axis `{Ragged}`",
    label = "the items' first axis is the ragged one",
    note = "`rename` the item's axis, or name the nested tensor's ragged axis `{Item}`"
)]
pub trait RaggedAxisFits<Item, Ragged> {}
impl<Item, Ragged> RaggedAxisFits<Item, Ragged> for B1 {}
impl<Item, Ragged> RaggedAxisFits<Item, Ragged> for Unknown {}

/// The item's axes after the first are the nested tensor's fixed axes.
pub trait FixedAxes<Rest, ItemDisp, NestedDisp> {}

impl<ItemDisp, NestedDisp> FixedAxes<Nil, ItemDisp, NestedDisp> for Nil {}

impl<N1, S1, T1, N2, S2, T2, ItemDisp, NestedDisp> FixedAxes<Ax<N2, S2, T2>, ItemDisp, NestedDisp>
    for Ax<N1, S1, T1>
where
    N1: SameName<N2>,
    <N1 as SameName<N2>>::Out: FixedAxisFits<ItemDisp, NestedDisp>,
    S1: SizeEq<S2>,
    <S1 as SizeEq<S2>>::Out: FixedAxisFits<ItemDisp, NestedDisp>,
    T1: FixedAxes<T2, ItemDisp, NestedDisp>,
{
}

impl<N2, S2, T2, ItemDisp, NestedDisp> FixedAxes<Ax<N2, S2, T2>, ItemDisp, NestedDisp> for Nil where
    B0: FixedAxisFits<ItemDisp, NestedDisp>
{
}

impl<N1, S1, T1, ItemDisp, NestedDisp> FixedAxes<Nil, ItemDisp, NestedDisp> for Ax<N1, S1, T1> where
    B0: FixedAxisFits<ItemDisp, NestedDisp>
{
}

/// One fixed axis of the item is the nested tensor's, by name and size.
#[diagnostic::on_unimplemented(
    message = "a nested item of shape `{ItemDisp}` does not fit a nested tensor of shape `{NestedDisp}`: their fixed axes differ",
    label = "the items' axes after the ragged one must be the nested tensor's, with their sizes",
    note = "only the ragged axis may differ between the items of a nested tensor"
)]
pub trait FixedAxisFits<ItemDisp, NestedDisp> {}
impl<ItemDisp, NestedDisp> FixedAxisFits<ItemDisp, NestedDisp> for B1 {}
impl<ItemDisp, NestedDisp> FixedAxisFits<ItemDisp, NestedDisp> for Unknown {}

/// The axis `A` of a nested tensor is not its batch axis.
#[diagnostic::on_unimplemented(
    message = "`{A}` is the batch axis of the nested tensor `{Disp}`: ops run within each item",
    label = "the batch axis",
    note = "name the ragged axis or one of the items' fixed axes"
)]
pub trait NotBatch<A, Disp> {}
impl<A, Disp> NotBatch<A, Disp> for B0 {}
impl<A, Disp> NotBatch<A, Disp> for Unknown {}

/// An axis of the nested tensor other than its batch axis.
///
/// ```
/// use axial::prelude::*;
/// use axial::ItemAxis;
/// axes!(Batch, Seq, Features);
/// fn dim<S: ItemAxis<A>, A>() -> usize { <S as ItemAxis<A>>::DIM }
/// assert_eq!(dim::<shape![Batch: Dyn, Seq: Dyn, Features: 3], Features>(), 2);
/// ```
pub trait ItemAxis<A>: Batched {
    /// The axis' position in the nested tensor (1 for the ragged axis as
    /// built).
    const DIM: usize;
}

impl<S, A> ItemAxis<A> for S
where
    S: Batched + HasAxis<A>,
    S::Batch: SameName<A>,
    <S::Batch as SameName<A>>::Out: NotBatch<A, S::Display>,
{
    const DIM: usize = <S as HasAxis<A>>::POS;
}

/// A reduction of a nested tensor whose ragged axis is `R` over its axis
/// `A`: over the ragged axis, one result per item (a dense tensor without
/// `A`); over a fixed axis, a nested tensor without `A`.
///
/// ```
/// use axial::prelude::*;
/// use axial::ReduceNested;
/// axes!(Batch, Seq, Features);
/// type S = shape![Batch: Dyn, Seq: Dyn, Features: 3];
/// fn out<A, X: ReduceNested<A, Seq>>() -> &'static str { std::any::type_name::<X::Out<f32>>() }
/// assert!(out::<Seq, S>().contains("TensorBase")); // dense
/// assert!(out::<Features, S>().contains("Nested"));
/// ```
pub trait ReduceNested<A, R>: ItemAxis<A> {
    /// The result, for `T` elements.
    type Out<T: Element>;
    /// `op` over `A`.
    #[doc(hidden)]
    fn reduce<T: Element>(n: &NestedTensor, op: ReduceOp) -> Result<Self::Out<T>>;
    /// `op` over `A`, an empty item giving `empty` when `A` is ragged.
    #[doc(hidden)]
    fn reduce_or<T: Element>(n: &NestedTensor, op: ReduceOp, empty: Scalar)
    -> Result<Self::Out<T>>;
}

/// Which axis `A` is: (whether it is the ragged axis `R`, whether it is
/// the batch axis).
type Which<S, A, R> = (
    <R as SameName<A>>::Out,
    <<S as Batched>::Batch as SameName<A>>::Out,
);

impl<S, A, R> ReduceNested<A, R> for S
where
    S: ItemAxis<A>,
    R: SameName<A>,
    S::Batch: SameName<A>,
    Which<S, A, R>: ReduceKind<S, A, R>,
{
    type Out<T: Element> = <Which<S, A, R> as ReduceKind<S, A, R>>::Out<T>;

    fn reduce<T: Element>(n: &NestedTensor, op: ReduceOp) -> Result<Self::Out<T>> {
        <Which<S, A, R> as ReduceKind<S, A, R>>::reduce(n, op)
    }

    fn reduce_or<T: Element>(
        n: &NestedTensor,
        op: ReduceOp,
        empty: Scalar,
    ) -> Result<Self::Out<T>> {
        <Which<S, A, R> as ReduceKind<S, A, R>>::reduce_or(n, op, empty)
    }
}

/// [`ReduceNested`] by which axis `A` is: `(B1, B0)` the ragged axis `R`,
/// `(B0, B0)` a fixed one, `(B0, B1)` the batch axis (refused by
/// [`ItemAxis`], whose error is then the only one).
pub trait ReduceKind<S, A, R> {
    /// The result.
    type Out<T: Element>;
    /// `op` over `A`.
    fn reduce<T: Element>(n: &NestedTensor, op: ReduceOp) -> Result<Self::Out<T>>;
    /// `op` over `A`, an empty item giving `empty` when `A` is ragged.
    fn reduce_or<T: Element>(n: &NestedTensor, op: ReduceOp, empty: Scalar)
    -> Result<Self::Out<T>>;
}

impl<S: ItemAxis<A> + HasAxis<A>, A, R> ReduceKind<S, A, R> for (B1, B0) {
    type Out<T: Element> = Tensor<T, <S as HasAxis<A>>::Without>;

    fn reduce<T: Element>(n: &NestedTensor, op: ReduceOp) -> Result<Self::Out<T>> {
        n.reduce_ragged(op).map(owned)
    }

    fn reduce_or<T: Element>(
        n: &NestedTensor,
        op: ReduceOp,
        empty: Scalar,
    ) -> Result<Self::Out<T>> {
        n.reduce_ragged_or(op, empty).map(owned)
    }
}

impl<S, A, R> ReduceKind<S, A, R> for (B0, B0)
where
    S: ItemAxis<A> + HasAxis<A>,
    <S as HasAxis<A>>::Without: Batched,
{
    type Out<T: Element> = Nested<T, <S as HasAxis<A>>::Without, Cons<R, Nil>>;

    fn reduce<T: Element>(n: &NestedTensor, op: ReduceOp) -> Result<Self::Out<T>> {
        let dim = <S as HasAxis<A>>::POS as isize;
        n.reduce(op, &[dim], false).map(Nested::wrap)
    }

    fn reduce_or<T: Element>(
        n: &NestedTensor,
        op: ReduceOp,
        _empty: Scalar,
    ) -> Result<Self::Out<T>> {
        // Over a fixed axis an empty item gives an empty item.
        <(B0, B0) as ReduceKind<S, A, R>>::reduce(n, op)
    }
}

/// The name `R` after renaming `Old` to `New`: `New` when `R` is `Old`.
///
/// ```
/// use axial::prelude::*;
/// use axial::Renamed;
/// axes!(Seq, Key, Features);
/// let _: Option<<Seq as Renamed<Seq, Key>>::Out> = None::<Key>;
/// let _: Option<<Seq as Renamed<Features, Key>>::Out> = None::<Seq>;
/// ```
pub trait Renamed<Old, New> {
    /// The name after the renaming.
    type Out;
}

impl<R, Old, New> Renamed<Old, New> for R
where
    R: SameName<Old>,
    <R as SameName<Old>>::Out: Pick<New, R>,
{
    type Out = <<R as SameName<Old>>::Out as Pick<New, R>>::Out;
}

/// `X` for `B1`, `Y` for `B0`.
///
/// ```
/// use axial::Pick;
/// use axial::shape::{B0, B1};
/// let _: Option<<B1 as Pick<u8, i8>>::Out> = None::<u8>;
/// let _: Option<<B0 as Pick<u8, i8>>::Out> = None::<i8>;
/// ```
pub trait Pick<X, Y> {
    /// The one picked.
    type Out;
}
impl<X, Y> Pick<X, Y> for B1 {
    type Out = X;
}
impl<X, Y> Pick<X, Y> for B0 {
    type Out = Y;
}

/// The batch axis: never reached through [`ReduceNested`], whose
/// [`ItemAxis`] bound refuses it while compiling (so that refusal is the
/// one error); its run-time form is PyTorch's error.
impl<S: Batched, A, R> ReduceKind<S, A, R> for (B0, B1) {
    type Out<T: Element> = Nested<T, S, Cons<R, Nil>>;

    fn reduce<T: Element>(n: &NestedTensor, op: ReduceOp) -> Result<Self::Out<T>> {
        n.reduce(op, &[0], false).map(Nested::wrap)
    }

    fn reduce_or<T: Element>(
        n: &NestedTensor,
        op: ReduceOp,
        _empty: Scalar,
    ) -> Result<Self::Out<T>> {
        <(B0, B1) as ReduceKind<S, A, R>>::reduce(n, op)
    }
}
