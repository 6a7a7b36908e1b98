//! Axis sizes: a number the compiler knows ([`Sz<N>`](Sz), or a typenum
//! number past [`SZ_MAX`]), [`Dyn`] (known at run time, checked at each op)
//! or a [`Sym`](crate::Sym) (known at run time, bound once in a scope and
//! proven after).
//!
//! Why two spellings of a static size: a compile error prints a type as it
//! is spelled, and typenum spells 64 `UInt<UInt<UInt<UInt<UInt<UInt<UInt<
//! UTerm, B1>, B0>, B0>, B0>, B0>, B0>, B0>`. `Sz<64>` prints as `Sz<64>`, so
//! a size mismatch at a function boundary reads `expected `64`, found `32``.
//! Stable Rust cannot compute with const generics, so the proofs' arithmetic
//! (products of merged axes, quotients of split ones, slice lengths, bounds
//! checks) still runs in typenum: [`StaticSize::Number`] turns a `Sz<N>` into
//! its typenum number through a generated table, and [`Canon`] turns each
//! result back, so that every size a shape holds has one spelling and two
//! shapes of equal sizes are one type. Numbers above [`SZ_MAX`] stay typenum
//! numbers (a generated table has an end); `shape!` writes them so too.

use core::ops::Mul;

use typenum::{Bit, IsEqual, UInt, UTerm, Unsigned};

/// A static axis size spelled as its number: what `shape![Model: 64]` writes
/// for every size up to [`SZ_MAX`]. Compile errors print it as `Sz<64>`.
///
/// ```
/// use axial_shape::{Shape, Size, Sz, axes, shape};
/// axes!(Model);
/// let _: Option<shape![Model: 64]> = None::<axial_shape::Ax<Model, Sz<64>, axial_shape::Nil>>;
/// assert_eq!(<Sz<64> as Size>::STATIC, Some(64));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sz<const N: usize>;

/// The typenum number of a `Sz<N>` (a generated table, `N <= SZ_MAX`).
#[doc(hidden)]
pub trait Spelled {
    type Number;
}

/// The one spelling of a static size computed in typenum: `Sz<N>` up to
/// [`SZ_MAX`], the typenum number itself above it.
///
/// ```
/// use axial_shape::{Canon, Sz, SZ_MAX};
/// use axial_shape::typenum::{Prod, U48, U64, U256};
/// let _: Option<Canon<Prod<U48, U64>>> = None::<Sz<3072>>;
/// assert_eq!(SZ_MAX, 8191);
/// let _: Option<Canon<Prod<U256, U64>>> = None::<Prod<U256, U64>>;
/// ```
pub trait Canonical {
    /// The spelling.
    type Out;
}

/// The spelling of a static size computed in typenum (see [`Canonical`]).
pub type Canon<U> = <U as Canonical>::Out;

include!(concat!(env!("OUT_DIR"), "/size_tables.rs"));

use crate::logic::{Answer, Truth, TruthOf, Unknown};

/// The size of an axis known only at run time.
///
/// ```
/// use axial_shape::{Dyn, Size};
/// assert_eq!(Dyn::STATIC, None);
/// assert_eq!(<typenum::U28 as Size>::STATIC, Some(28));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dyn;

/// An axis size: a typenum unsigned number, [`Dyn`] or a symbol
/// ([`Sym`](crate::Sym)).
///
/// ```
/// use axial_shape::typenum::{Bit, U0, U3};
/// use axial_shape::{Dyn, Size};
/// fn describe<Z: Size>() -> Option<usize> {
///     Z::STATIC
/// }
/// assert_eq!((describe::<U3>(), describe::<U0>(), describe::<Dyn>()), (Some(3), Some(0), None));
/// assert!(<Dyn as Size>::IsDyn::BOOL && !<U3 as Size>::IsDyn::BOOL);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an axis size",
    label = "not a size",
    note = "a size is an integer literal in `shape!`, `Dyn`, a symbol `Sym<'id, Name>`, or a typenum number"
)]
pub trait Size: crate::sealed::Sealed {
    /// The size when the compiler knows it.
    const STATIC: Option<usize>;
    /// The symbol's name when the size is a [`Sym`](crate::Sym).
    const SYMBOL: Option<&'static str> = None;
    /// `B1` for [`Dyn`], else `B0` (to count the `Dyn` axes of a shape).
    type IsDyn: Bit;
    /// How an axis named `A` of this size prints in compile errors:
    /// `[A; 64]` for `Sz<64>`, `(A, Dyn)`, `(A, Sym<'id, Tag>)`.
    type Shown<A>;
}

/// A size the compiler knows, with its typenum number for the proofs.
///
/// ```
/// use axial_shape::typenum::{U28, Unsigned};
/// use axial_shape::{StaticSize, Sz};
/// fn known<Z: StaticSize>() -> usize {
///     <Z::Number as Unsigned>::USIZE
/// }
/// assert_eq!((known::<Sz<28>>(), known::<U28>()), (28, 28));
/// ```
pub trait StaticSize: Size {
    /// The size as a typenum number.
    type Number: Unsigned + Size;
}

impl Size for Dyn {
    const STATIC: Option<usize> = None;
    type IsDyn = typenum::B1;
    type Shown<A> = (A, Dyn);
}
impl Size for UTerm {
    const STATIC: Option<usize> = Some(0);
    type IsDyn = typenum::B0;
    type Shown<A> = [A; 0];
}
impl<U: Unsigned + 'static, B: Bit + 'static> Size for UInt<U, B> {
    const STATIC: Option<usize> = Some(<Self as Unsigned>::USIZE);
    type IsDyn = typenum::B0;
    type Shown<A> = (A, Self);
}
impl<const N: usize> Size for Sz<N>
where
    Sz<N>: Spelled,
{
    const STATIC: Option<usize> = Some(N);
    type IsDyn = typenum::B0;
    type Shown<A> = [A; N];
}
impl StaticSize for UTerm {
    type Number = UTerm;
}
impl<U: Unsigned + 'static, B: Bit + 'static> StaticSize for UInt<U, B> {
    type Number = Self;
}
impl<const N: usize> StaticSize for Sz<N>
where
    Sz<N>: Spelled<Number: Unsigned + Size>,
{
    type Number = <Sz<N> as Spelled>::Number;
}

/// The product of two sizes: static when both are, else [`Dyn`].
///
/// ```
/// use axial_shape::typenum::{U3, U4};
/// use axial_shape::{Dyn, Size, SizeProd};
/// assert_eq!(<SizeProd<U3, U4> as Size>::STATIC, Some(12));
/// assert_eq!(<SizeProd<U3, Dyn> as Size>::STATIC, None);
/// ```
pub type SizeProd<A, B> = <A as SizeMul<B>>::Out;

/// The trait behind [`SizeProd`].
///
/// ```
/// use axial_shape::typenum::{U2, U5};
/// use axial_shape::{Dyn, Size, SizeMul};
/// fn product<A: SizeMul<B>, B>() -> Option<usize> {
///     <A::Out as Size>::STATIC
/// }
/// assert_eq!(product::<U2, U5>(), Some(10));
/// assert_eq!(product::<Dyn, U5>(), None);
/// ```
pub trait SizeMul<B> {
    /// The product.
    type Out: Size;
}
impl<B: Size> SizeMul<B> for Dyn {
    type Out = Dyn;
}
impl<A: StaticSize> SizeMul<Dyn> for A {
    type Out = Dyn;
}
impl<A: StaticSize, B: StaticSize> SizeMul<B> for A
where
    A::Number: Mul<B::Number, Output: Canonical<Out: Size>>,
{
    type Out = Canon<<A::Number as Mul<B::Number>>::Output>;
}

/// Whether two sizes are equal: known when both are static, else [`Unknown`].
///
/// ```
/// use axial_shape::typenum::{U3, U4};
/// use axial_shape::{Dyn, SizesEqual, Truth};
/// assert_eq!(<SizesEqual<U3, U3> as Truth>::VALUE, Some(true));
/// assert_eq!(<SizesEqual<U3, U4> as Truth>::VALUE, Some(false));
/// assert_eq!(<SizesEqual<Dyn, U4> as Truth>::VALUE, None);
/// ```
pub type SizesEqual<A, B> = <A as SizeEq<B>>::Out;

/// The trait behind [`SizesEqual`].
///
/// ```
/// use axial_shape::typenum::{U1, U7};
/// use axial_shape::{SizeEq, Truth};
/// fn is_one<Z: SizeEq<U1>>() -> Option<bool> {
///     <Z::Out as Truth>::VALUE
/// }
/// assert_eq!((is_one::<U1>(), is_one::<U7>()), (Some(true), Some(false)));
/// ```
pub trait SizeEq<B> {
    /// `B1`, `B0` or [`Unknown`].
    type Out: Truth;
}
impl<B: Size> SizeEq<B> for Dyn {
    type Out = Unknown;
}
// One impl header per kind of `Self` (no blanket `impl for A: StaticSize`),
// so that a comparison with a symbol selects one impl and its error is the
// leaf's message (see `symbol`).
impl SizeEq<Dyn> for UTerm {
    type Out = Unknown;
}
impl<U, Bt> SizeEq<Dyn> for UInt<U, Bt> {
    type Out = Unknown;
}
impl<const N: usize> SizeEq<Dyn> for Sz<N> {
    type Out = Unknown;
}
impl<B: StaticSize> SizeEq<B> for UTerm
where
    UTerm: IsEqual<B::Number, Output: Answer>,
{
    type Out = TruthOf<<UTerm as IsEqual<B::Number>>::Output>;
}
impl<U, Bt, B: StaticSize> SizeEq<B> for UInt<U, Bt>
where
    UInt<U, Bt>: IsEqual<B::Number, Output: Answer>,
{
    type Out = TruthOf<<UInt<U, Bt> as IsEqual<B::Number>>::Output>;
}
impl<const N: usize, B: StaticSize> SizeEq<B> for Sz<N>
where
    Sz<N>: StaticSize,
    <Sz<N> as StaticSize>::Number: IsEqual<B::Number, Output: Answer>,
{
    type Out = TruthOf<<<Sz<N> as StaticSize>::Number as IsEqual<B::Number>>::Output>;
}
