//! Axis sizes: a typenum unsigned number (known to the compiler) or [`Dyn`]
//! (known at run time).

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

/// An axis size: a typenum unsigned number or [`Dyn`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an axis size",
    label = "not a size",
    note = "a size is an integer literal in `shape!`, `Dyn`, or a typenum number"
)]
pub trait Size: 'static + crate::sealed::Sealed {
    /// The size when the compiler knows it.
    const STATIC: Option<usize>;
    /// `B1` for [`Dyn`], else `B0` (to count the `Dyn` axes of a shape).
    type IsDyn: Bit;
}

/// A size the compiler knows (a typenum unsigned number).
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
pub type SizeProd<A, B> = <A as SizeMul<B>>::Out;

/// The trait behind [`SizeProd`].
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
pub type SizesEqual<A, B> = <A as SizeEq<B>>::Out;

/// The trait behind [`SizesEqual`].
pub trait SizeEq<B> {
    /// `B1`, `B0` or [`Unknown`].
    type Out: Truth;
}
impl<B: Size> SizeEq<B> for Dyn {
    type Out = Unknown;
}
impl<A: StaticSize> SizeEq<Dyn> for A {
    type Out = Unknown;
}
impl<A: StaticSize + IsEqual<B>, B: StaticSize> SizeEq<B> for A
where
    A::Output: Truth,
{
    type Out = A::Output;
}
