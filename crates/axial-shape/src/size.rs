//! Axis sizes: a typenum unsigned number (known to the compiler), [`Dyn`]
//! (known at run time, checked at each op) or a [`Sym`](crate::Sym) (known
//! at run time, bound once in a scope and proven after).

use core::ops::Mul;

use typenum::{Bit, IsEqual, UInt, UTerm, Unsigned};

use crate::logic::{B0, B1, Truth, Unknown};

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
}

/// A size the compiler knows (a typenum unsigned number).
///
/// ```
/// use axial_shape::typenum::U28;
/// use axial_shape::StaticSize;
/// fn known<Z: StaticSize>() -> usize {
///     Z::USIZE
/// }
/// assert_eq!(known::<U28>(), 28);
/// ```
pub trait StaticSize: Size + Unsigned {}

impl Size for Dyn {
    const STATIC: Option<usize> = None;
    type IsDyn = B1;
}
impl Size for UTerm {
    const STATIC: Option<usize> = Some(0);
    type IsDyn = B0;
}
impl<U: Unsigned + 'static, B: Bit + 'static> Size for UInt<U, B> {
    const STATIC: Option<usize> = Some(<Self as Unsigned>::USIZE);
    type IsDyn = B0;
}
impl StaticSize for UTerm {}
impl<U: Unsigned + 'static, B: Bit + 'static> StaticSize for UInt<U, B> {}

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
impl<A: StaticSize + Mul<B>, B: StaticSize> SizeMul<B> for A
where
    A::Output: Size,
{
    type Out = A::Output;
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
impl<B: StaticSize> SizeEq<B> for UTerm
where
    UTerm: IsEqual<B>,
    <UTerm as IsEqual<B>>::Output: Truth,
{
    type Out = <UTerm as IsEqual<B>>::Output;
}
impl<U, Bt, B: StaticSize> SizeEq<B> for UInt<U, Bt>
where
    UInt<U, Bt>: IsEqual<B>,
    <UInt<U, Bt> as IsEqual<B>>::Output: Truth,
{
    type Out = <UInt<U, Bt> as IsEqual<B>>::Output;
}
