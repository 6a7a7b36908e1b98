//! A group of the left side, `(H P)`, decomposing one axis: the sizes given
//! (a literal is a typenum number, a run-time value `Dyn`), and the one size
//! left to infer, which is the axis' size divided by the others (static when
//! every size involved is, proven to divide; else `Dyn`, checked at run time).

use core::ops::{Div, Rem};

use typenum::{IsEqual, U0, UInt, UTerm};

use super::report::{PatternDivides, PatternProduct};
use crate::logic::{Answer, B0, B1, Truth, TruthOf, Unknown};
use crate::shape::{Ax, Cons, Marker, Nil};
use crate::size::{Canon, Canonical, Dyn, Size, SizeEq, SizeMul, SizeProd, StaticSize, Sz};

/// In a group: the axis `A` of the size `Given`, a typenum number, `Dyn`
/// (given at run time), or [`Infer`].
///
/// ```
/// use axial_shape::einops::{Decompose, Part};
/// use axial_shape::{Cons, Dyn, Nil, Shape, axes};
/// use typenum::{U2, U6};
/// axes!(N, H, P);
/// // `(H P)` with `H` given at run time and `P = 2`, on an axis of size 6:
/// // `H`'s size is checked at run time, so it stays `Dyn`
/// type Parts = Cons<Part<H, Dyn>, Cons<Part<P, U2>, Nil>>;
/// type Axes = <Parts as Decompose<U6, N, (), (), ()>>::Out;
/// let mut sizes = [None; 2];
/// Axes::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [None, Some(2)]);
/// ```
pub struct Part<A, Given>(Marker<(A, Given)>);

/// In a group: the one size inferred from the axis' size and the others.
///
/// ```
/// use axial_shape::einops::{Decompose, Infer, Part};
/// use axial_shape::{Cons, Nil, Shape, axes};
/// use typenum::{U4, U12};
/// axes!(N, H, P);
/// // `(H P)` with `P = 4` on an axis of size 12: `H` is 3
/// type Parts = Cons<Part<H, Infer>, Cons<Part<P, U4>, Nil>>;
/// type Axes = <Parts as Decompose<U12, N, (), (), ()>>::Out;
/// let mut sizes = [None; 2];
/// Axes::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(4)]);
/// ```
pub struct Infer;

/// The parts `Self` of a group decomposing the axis `N` of size `Sz`: its
/// elementary axes, sizes checked or inferred. `GDisp` is the group as it
/// prints, `Pat` and `Disp` the left side and the shape.
///
/// ```
/// use axial_shape::einops::{Decompose, Infer, Part};
/// use axial_shape::{Cons, Dyn, Nil, Shape, axes};
/// use typenum::U2;
/// axes!(N, H, P);
/// fn sizes<Parts: Decompose<Sz, N, (), (), ()>, Sz>() -> [Option<usize>; 2]
/// where
///     Parts::Out: Shape,
/// {
///     let mut sizes = [None; 2];
///     <Parts::Out as Shape>::write_static_sizes(&mut sizes);
///     sizes
/// }
/// type Parts = Cons<Part<H, Infer>, Cons<Part<P, U2>, Nil>>;
/// assert_eq!(sizes::<Parts, typenum::U10>(), [Some(5), Some(2)]);
/// // On an axis of run-time size the inferred size is `Dyn`.
/// assert_eq!(sizes::<Parts, Dyn>(), [None, Some(2)]);
/// ```
pub trait Decompose<Sz, N, GDisp, Pat, Disp> {
    /// The elementary axes.
    type Out;
}

impl<Parts, Sz, N, GDisp, Pat, Disp> Decompose<Sz, N, GDisp, Pat, Disp> for Parts
where
    Parts: Given,
    Parts::Infers: Solve<Parts::Known, Sz, N, GDisp, Pat, Disp>,
    Parts: Resolve<<Parts::Infers as Solve<Parts::Known, Sz, N, GDisp, Pat, Disp>>::Inferred>,
{
    type Out = <Parts as Resolve<
        <Parts::Infers as Solve<Parts::Known, Sz, N, GDisp, Pat, Disp>>::Inferred,
    >>::Out;
}

/// What the sizes given in a group say.
///
/// ```
/// use axial_shape::einops::{Infer, Part};
/// use axial_shape::{Cons, Nil, axes};
/// use typenum::U2;
/// axes!(H, P);
/// // `(H P)` with `P = 2`: `H` is inferred
/// type Parts = Cons<Part<H, Infer>, Cons<Part<P, U2>, Nil>>;
/// use axial_shape::einops::Given;
/// use axial_shape::{Size, Truth};
/// assert_eq!(<<Parts as Given>::Known as Size>::STATIC, Some(2));
/// assert_eq!(<<Parts as Given>::Infers as Truth>::VALUE, Some(true));
/// ```
pub trait Given {
    /// Their product.
    type Known: Size;
    /// `B1` when a size is to be inferred.
    type Infers;
}
impl Given for Nil {
    type Known = Sz<1>;
    type Infers = B0;
}
impl<A, G: GivenSize<T::Known, T::Infers>, T: Given> Given for Cons<Part<A, G>, T> {
    type Known = G::Known;
    type Infers = G::Infers;
}

/// One part's size folded into the product `K` of the others.
///
/// ```
/// use axial_shape::einops::{GivenSize, Infer};
/// use axial_shape::{B0, Dyn, Size};
/// use typenum::{U3, U5};
/// fn product<G: GivenSize<K, B0>, K>() -> Option<usize> {
///     <G::Known as Size>::STATIC
/// }
/// assert_eq!(product::<U3, U5>(), Some(15));
/// assert_eq!(product::<Dyn, U5>(), None);
/// assert_eq!(product::<Infer, U5>(), Some(5));
/// ```
pub trait GivenSize<K, I> {
    /// The new product.
    type Known: Size;
    /// Whether a size is inferred.
    type Infers;
}
impl<K: Size, I> GivenSize<K, I> for Infer {
    type Known = K;
    type Infers = B1;
}
impl<K: Size, I> GivenSize<K, I> for Dyn {
    type Known = Dyn;
    type Infers = I;
}
impl<K: Size, I> GivenSize<K, I> for UTerm
where
    UTerm: SizeMul<K>,
{
    type Known = SizeProd<UTerm, K>;
    type Infers = I;
}
impl<U, B, K: Size, I> GivenSize<K, I> for UInt<U, B>
where
    UInt<U, B>: SizeMul<K>,
{
    type Known = SizeProd<UInt<U, B>, K>;
    type Infers = I;
}
impl<const N: usize, K: Size, I> GivenSize<K, I> for Sz<N>
where
    Sz<N>: SizeMul<K>,
{
    type Known = SizeProd<Sz<N>, K>;
    type Infers = I;
}

/// The check of a group (`Self`: whether a size is inferred) and the
/// inferred size.
///
/// ```
/// use axial_shape::einops::Solve;
/// use axial_shape::{B1, Size, axes};
/// use typenum::{U3, U12};
/// axes!(N);
/// // One size inferred: 12 split with the others' product 3.
/// type Inferred = <B1 as Solve<U3, U12, N, (), (), ()>>::Inferred;
/// assert_eq!(<Inferred as Size>::STATIC, Some(4));
/// ```
pub trait Solve<Known, Sz, N, GDisp, Pat, Disp> {
    /// The inferred size (`Dyn` when none is inferred; unused then).
    type Inferred;
}
impl<Known: SizeEq<Sz>, Sz, N, GDisp, Pat, Disp> Solve<Known, Sz, N, GDisp, Pat, Disp> for B0
where
    Known::Out: PatternProduct<N, GDisp, Pat, Disp>,
{
    type Inferred = Dyn;
}
impl<Known, Sz: SizeDiv<Known>, N, GDisp, Pat, Disp> Solve<Known, Sz, N, GDisp, Pat, Disp> for B1
where
    Sz::Divides: PatternDivides<N, GDisp, Pat, Disp>,
{
    type Inferred = Sz::Quot;
}

/// The parts as axes, [`Infer`] given the inferred size.
///
/// ```
/// use axial_shape::einops::{Infer, Part};
/// use axial_shape::{Cons, Nil, axes};
/// use typenum::U2;
/// axes!(H, P);
/// // `(H P)` with `P = 2`: `H` is inferred
/// type Parts = Cons<Part<H, Infer>, Cons<Part<P, U2>, Nil>>;
/// use axial_shape::einops::Resolve;
/// use axial_shape::Shape;
/// type Axes = <Parts as Resolve<typenum::U7>>::Out;
/// let mut sizes = [None; 2];
/// Axes::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(7), Some(2)]);
/// ```
pub trait Resolve<Inferred> {
    /// The axes.
    type Out;
}
impl<Inferred> Resolve<Inferred> for Nil {
    type Out = Nil;
}
impl<A, G: SizeOr<Inferred>, T: Resolve<Inferred>, Inferred> Resolve<Inferred>
    for Cons<Part<A, G>, T>
{
    type Out = Ax<A, G::Out, T::Out>;
}

/// A given size, or the other one (`Inferred`) for [`Infer`] and `Dyn`
/// (a `Dyn` given size is checked at run time against an inferred one, so
/// the inferred one is as good and may be static).
///
/// ```
/// use axial_shape::einops::{Infer, SizeOr};
/// use axial_shape::{Dyn, Size};
/// use typenum::{U2, U9};
/// fn size<G: SizeOr<U9>>() -> Option<usize>
/// where
///     G::Out: Size,
/// {
///     <G::Out as Size>::STATIC
/// }
/// assert_eq!((size::<Infer>(), size::<Dyn>(), size::<U2>()), (Some(9), Some(9), Some(2)));
/// ```
pub trait SizeOr<Inferred> {
    /// The size.
    type Out;
}
impl<Inferred> SizeOr<Inferred> for Infer {
    type Out = Inferred;
}
impl<Inferred> SizeOr<Inferred> for Dyn {
    type Out = Inferred;
}
impl<Inferred> SizeOr<Inferred> for UTerm {
    type Out = UTerm;
}
impl<U, B, Inferred> SizeOr<Inferred> for UInt<U, B> {
    type Out = UInt<U, B>;
}
impl<const N: usize, Inferred> SizeOr<Inferred> for Sz<N> {
    type Out = Sz<N>;
}

/// The quotient of two sizes and whether it is exact: static when both are,
/// else `Dyn` (and the check is left to run time).
///
/// ```
/// use axial_shape::Truth;
/// use axial_shape::einops::SizeDiv;
/// use typenum::{U2, U3, U4, U6};
/// assert_eq!(<<U6 as SizeDiv<U2>>::Quot as axial_shape::Size>::STATIC, Some(3));
/// assert_eq!(<<U6 as SizeDiv<U4>>::Divides as Truth>::VALUE, Some(false));
/// assert_eq!(<<axial_shape::Dyn as SizeDiv<U3>>::Divides as Truth>::VALUE, None);
/// ```
pub trait SizeDiv<B> {
    /// The quotient.
    type Quot: Size;
    /// `B1` when `B` divides `Self`, `B0` when not, `Unknown` with `Dyn`.
    type Divides: Truth;
}
impl<B: Size> SizeDiv<B> for Dyn {
    type Quot = Dyn;
    type Divides = Unknown;
}
impl<A: StaticSize> SizeDiv<Dyn> for A {
    type Quot = Dyn;
    type Divides = Unknown;
}
impl<A, B> SizeDiv<B> for A
where
    A: StaticSize<Number: Div<B::Number, Output: Canonical<Out: Size>> + Rem<B::Number>>,
    B: StaticSize,
    <A::Number as Rem<B::Number>>::Output: IsEqual<U0, Output: Answer>,
{
    type Quot = Canon<<A::Number as Div<B::Number>>::Output>;
    type Divides = TruthOf<<<A::Number as Rem<B::Number>>::Output as IsEqual<U0>>::Output>;
}
