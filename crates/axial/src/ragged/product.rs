//! The product of two nested tensors of the same items, by name: the items'
//! axes multiply as dense `matmul`'s do, and the result's ragged axes are
//! the operands' ragged axes that are not summed over: `q @ k^T` of queries
//! `[Seq, Head]` and transposed keys `[Head, Key]` has items `[Seq, Key]`,
//! both ragged; the scores times the values `[Key, Head]` are `[Seq, Head]`,
//! ragged in `Seq`; a product that sums over the only ragged axis is dense.

use axial_core::nested::NestedOrDense;
use axial_core::{Element, Result};
use axial_shape::{Ax, B0, B1, Cons, MatMul, MatMulOut, Nil, SameName, Shape};

use super::{Batched, Nested, WithItems};
use crate::access::owned;
use crate::tensor::Tensor;

/// The name of a shape's last axis.
///
/// ```
/// use axial::prelude::*;
/// use axial::LastAxis;
/// axes!(Seq, Head);
/// let _: Option<<shape![Seq: Dyn, Head: 4] as LastAxis>::Name> = None::<Head>;
/// ```
pub trait LastAxis {
    /// The name.
    type Name;
}
impl<N, Z> LastAxis for Ax<N, Z, Nil> {
    type Name = N;
}
impl<N, Z, N2, Z2, T> LastAxis for Ax<N, Z, Ax<N2, Z2, T>>
where
    Ax<N2, Z2, T>: LastAxis,
{
    type Name = <Ax<N2, Z2, T> as LastAxis>::Name;
}

/// The ragged axes of a product whose left operand's ragged axes are
/// `Self`, the right one's `L2`, summing over the axis `C`: a names list,
/// empty (`Nil`) for a dense result.
///
/// ```
/// use axial::prelude::*;
/// use axial::ProductNames;
/// axes!(Seq, Key, Head);
/// let _: Option<<names![Seq] as ProductNames<names![Key], Head>>::Out> = None::<names![Seq, Key]>;
/// let _: Option<<names![Seq, Key] as ProductNames<names![Key], Key>>::Out> = None::<names![Seq]>;
/// ```
pub trait ProductNames<L2, C> {
    /// The result's ragged axes.
    type Out;
}

impl<X, Y, C> ProductNames<Cons<Y, Nil>, C> for Cons<X, Nil>
where
    X: SameName<C> + SameName<Y>,
    Y: SameName<C>,
    (
        <X as SameName<C>>::Out,
        <Y as SameName<C>>::Out,
        <X as SameName<Y>>::Out,
    ): RaggedSingle<X, Y, C>,
{
    type Out = <(
        <X as SameName<C>>::Out,
        <Y as SameName<C>>::Out,
        <X as SameName<Y>>::Out,
    ) as RaggedSingle<X, Y, C>>::Out;
}

impl<X, Z, Y, C> ProductNames<Cons<Y, Nil>, C> for Cons<X, Cons<Z, Nil>>
where
    Z: SameName<C>,
    Y: SameName<C>,
    (<Z as SameName<C>>::Out, <Y as SameName<C>>::Out): RaggedPair<Cons<X, Nil>, C>,
{
    type Out =
        <(<Z as SameName<C>>::Out, <Y as SameName<C>>::Out) as RaggedPair<Cons<X, Nil>, C>>::Out;
}

impl<X, Y, W, C> ProductNames<Cons<Y, Cons<W, Nil>>, C> for Cons<X, Nil>
where
    X: SameName<C>,
    Y: SameName<C>,
    (<X as SameName<C>>::Out, <Y as SameName<C>>::Out): RaggedPair<Cons<W, Nil>, C>,
{
    type Out =
        <(<X as SameName<C>>::Out, <Y as SameName<C>>::Out) as RaggedPair<Cons<W, Nil>, C>>::Out;
}

impl<X, Z, Y, W, C> ProductNames<Cons<Y, Cons<W, Nil>>, C> for Cons<X, Cons<Z, Nil>>
where
    Z: SameName<C>,
    Y: SameName<C>,
    (<Z as SameName<C>>::Out, <Y as SameName<C>>::Out): RaggedPair<Cons<X, Cons<W, Nil>>, C>,
{
    type Out = <(<Z as SameName<C>>::Out, <Y as SameName<C>>::Out) as RaggedPair<
        Cons<X, Cons<W, Nil>>,
        C,
    >>::Out;
}

/// One ragged axis on each side, `X` and `Y`, by whether each is the axis
/// `C` summed over and whether they are the same: both summed, a dense
/// result; neither, `X` and `Y` stay (once when they are one axis).
///
/// ```
/// use axial::prelude::*;
/// use axial::RaggedSingle;
/// use axial::shape::{B0, B1};
/// axes!(Seq, Key, Head);
/// let _: Option<<(B0, B0, B0) as RaggedSingle<Seq, Key, Head>>::Out> = None::<names![Seq, Key]>;
/// let _: Option<<(B1, B1, B1) as RaggedSingle<Key, Key, Key>>::Out> = None::<names![]>;
/// ```
#[diagnostic::on_unimplemented(
    message = "the product sums over `{C}`, ragged in one nested tensor and fixed in the other",
    label = "a ragged axis sums only against a ragged axis",
    note = "transpose the nested tensor whose ragged axis is summed, or rename its axes"
)]
pub trait RaggedSingle<X, Y, C> {
    /// The result's ragged axes.
    type Out;
}
impl<X, Y, C, Same> RaggedSingle<X, Y, C> for (B1, B1, Same) {
    type Out = Nil;
}
impl<X, Y, C> RaggedSingle<X, Y, C> for (B0, B0, B1) {
    type Out = Cons<X, Nil>;
}
impl<X, Y, C> RaggedSingle<X, Y, C> for (B0, B0, B0) {
    type Out = Cons<X, Cons<Y, Nil>>;
}

/// Two ragged axes on a side: the product sums over one of them, `C`,
/// against the other side's ragged `C`; `Keep` are those left.
///
/// ```
/// use axial::prelude::*;
/// use axial::RaggedPair;
/// use axial::shape::B1;
/// axes!(Seq, Key);
/// let _: Option<<(B1, B1) as RaggedPair<names![Seq], Key>>::Out> = None::<names![Seq]>;
/// ```
#[diagnostic::on_unimplemented(
    message = "the product of these nested tensors must sum over the ragged axis `{C}` of both",
    label = "a nested tensor with two ragged axes multiplies along one of them",
    note = "scores of shape `[Seq, Key]` (both ragged) multiply values whose first item axis is `Key`"
)]
pub trait RaggedPair<Keep, C> {
    /// The result's ragged axes.
    type Out;
}
impl<Keep, C> RaggedPair<Keep, C> for (B1, B1) {
    type Out = Keep;
}

/// What a product with the ragged axes `Self` gives for items of shape
/// `S`'s: a dense tensor when `Self` is empty, else a nested tensor.
///
/// ```
/// use axial::prelude::*;
/// use axial::ProductResult;
/// axes!(Batch, Seq, Key);
/// type S = shape![Batch: Dyn, Seq: Dyn, Key: Dyn];
/// fn out<L: ProductResult<f32, S>>() -> &'static str { std::any::type_name::<L::Out>() }
/// assert!(out::<names![Seq, Key]>().contains("Nested"));
/// assert!(out::<names![]>().contains("TensorBase"));
/// ```
pub trait ProductResult<T: Element, S: Shape> {
    /// The result's type.
    type Out;
    /// The core's result as it.
    #[doc(hidden)]
    fn finish(r: NestedOrDense) -> Result<Self::Out>;
}

impl<T: Element, S: Shape> ProductResult<T, S> for Nil {
    type Out = Tensor<T, S>;
    fn finish(r: NestedOrDense) -> Result<Self::Out> {
        r.into_dense().map(owned)
    }
}

impl<T: Element, S: Batched, A, Rest> ProductResult<T, S> for Cons<A, Rest> {
    type Out = Nested<T, S, Cons<A, Rest>>;
    fn finish(r: NestedOrDense) -> Result<Self::Out> {
        r.into_nested().map(Nested::wrap)
    }
}

/// `Self @ Rhs` for two nested tensors of the same batch axis: their items
/// multiply by name as dense tensors do, and the ragged axes left make the
/// result nested (or dense when none is left). See
/// [`Nested::try_matmul_nested`].
///
/// ```
/// use axial::prelude::*;
/// use axial::NestedProduct;
/// axes!(Batch, Seq, Key, Head);
/// type Q = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Head: 2]>;
/// type KT = Nested<f32, shape![Batch: Dyn, Head: 2, Key: Dyn], names![Key]>;
/// fn scores<A: NestedProduct<B>, B>() -> &'static str { std::any::type_name::<A::Output>() }
/// assert!(scores::<Q, KT>().contains("Nested"));
/// ```
pub trait NestedProduct<Rhs> {
    /// The product's type.
    type Output;
    /// `self @ rhs`.
    #[doc(hidden)]
    fn product(&self, rhs: &Rhs) -> Result<Self::Output>;
}

/// The items' shape of a product of nested tensors of shapes `S1` and `S2`.
type ProductItems<S1, S2> = MatMulOut<<S1 as Batched>::Items, <S2 as Batched>::Items>;

/// The ragged axes of a product of nested tensors.
type ProductRagged<S1, L1, L2> =
    <L1 as ProductNames<L2, <<S1 as Batched>::Items as LastAxis>::Name>>::Out;

impl<T, S1, L1, S2, L2> NestedProduct<Nested<T, S2, L2>> for Nested<T, S1, L1>
where
    T: Element,
    S1: Batched,
    S2: Batched<Batch = S1::Batch>,
    S1::Items: MatMul<S2::Items> + LastAxis,
    L1: ProductNames<L2, <S1::Items as LastAxis>::Name>,
    ProductRagged<S1, L1, L2>: ProductResult<T, WithItems<S1, ProductItems<S1, S2>>>,
    WithItems<S1, ProductItems<S1, S2>>: Shape,
{
    type Output =
        <ProductRagged<S1, L1, L2> as ProductResult<T, WithItems<S1, ProductItems<S1, S2>>>>::Out;

    fn product(&self, rhs: &Nested<T, S2, L2>) -> Result<Self::Output> {
        let r = self.as_core().matmul_nested(rhs.as_core())?;
        <ProductRagged<S1, L1, L2> as ProductResult<T, WithItems<S1, ProductItems<S1, S2>>>>::finish(
            r,
        )
    }
}

impl<T: Element, S: Batched, L> Nested<T, S, L> {
    /// `self @ other` for two nested tensors of the same items' lengths,
    /// item by item (no padding): the items multiply by name as dense
    /// `matmul` does (the last axis of `self`'s items with `other`'s
    /// second to last, by name and size), and the result's ragged axes are
    /// those not summed over. Attention over a ragged batch:
    ///
    /// ```text
    /// q      [Batch, Seq: Dyn, Head]       names![Seq]
    /// k^T    [Batch, Head, Key: Dyn]       names![Key]
    /// q @ k^T  [Batch, Seq, Key]           names![Seq, Key]   (items n_i × n_i)
    /// p @ v    [Batch, Seq, Head]          names![Seq]        (v: [Batch, Key, Head])
    /// k^T @ v  [Batch, Head, Head]         dense: it sums over the ragged `Key`
    /// ```
    ///
    /// # Errors
    /// The items' lengths differ (`other` is not of the same sequences), or
    /// `Dyn` sizes that do not multiply.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Key, Head);
    /// type Items = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Head: 2]>;
    /// let x = Items::builder()
    ///     .push(&Tensor::<f32, shape![Seq: 1, Head: 2]>::from_array([[1.0, 0.0]]))
    ///     .push(&Tensor::<f32, shape![Seq: 2, Head: 2]>::from_array([[0.0, 1.0], [1.0, 1.0]]))
    ///     .build();
    /// let (q, k, v) = (x.clone(), x.clone().rename::<Seq, Key>(), x.rename::<Seq, Key>());
    /// let scores = q.try_matmul_nested(&k.transpose::<Key, Head>())?; // names![Seq, Key]
    /// assert_eq!(scores.try_item(1)?.to_vec(), vec![1.0, 1.0, 1.0, 2.0]);
    /// let p = scores.try_softmax::<Key>()?;
    /// let out = p.try_matmul_nested(&v)?; // Nested<f32, shape![Batch: Dyn, Seq: Dyn, Head: 2]>
    /// assert_eq!(out.try_item(0)?.to_vec(), vec![1.0, 0.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_matmul_nested<Rhs>(
        &self,
        other: &Rhs,
    ) -> Result<<Self as NestedProduct<Rhs>>::Output>
    where
        Self: NestedProduct<Rhs>,
    {
        self.product(other)
    }

    /// `self @ other` for two nested tensors, by name.
    ///
    /// # Panics
    /// As [`try_matmul_nested`](Self::try_matmul_nested), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Key, Head, Out);
    /// let k = Nested::<f32, shape![Batch: Dyn, Key: Dyn, Head: 2]>::from_items(&[
    ///     Tensor::<f32, shape![Key: 3, Head: 2]>::ones(),
    /// ]);
    /// let v = Nested::<f32, shape![Batch: Dyn, Key: Dyn, Out: 1]>::from_items(&[
    ///     Tensor::<f32, shape![Key: 3, Out: 1]>::ones(),
    /// ]);
    /// let kv = k.transpose::<Key, Head>().matmul_nested(&v); // dense [Batch, Head, Out]
    /// assert_eq!(kv.to_vec(), vec![3.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn matmul_nested<Rhs>(&self, other: &Rhs) -> <Self as NestedProduct<Rhs>>::Output
    where
        Self: NestedProduct<Rhs>,
    {
        crate::or_panic::or_panic(self.product(other))
    }
}
