//! Sums of sizes: the size `cat` and `pad` give along their axis.
//!
//! Two static sizes add in the type (`Sz<3>` and `Sz<4>` give `Sz<7>`); a
//! `Dyn` term makes the sum `Dyn`; and a sum with a symbol (a
//! [`Sym`], or a sum that holds one) is the size [`Plus`], which
//! the type can say: a KV cache of `Sym<'id, Past>` keys grown by
//! `Sym<'id, Seq>` new ones has `Plus<Sym<'id, Past>, Sym<'id, Seq>>` keys,
//! and its keys and values, grown alike, are proven to have one length.
//!
//! Sums compare term by term, as written: `Plus<A, B>` is proven equal to
//! `Plus<C, D>` when `A` equals `C` and `B` equals `D`; a term that differs
//! in a static size makes them different (a compile error where they meet),
//! and two different symbols in one place never unify (as for
//! [`Sym`]). A sum against a static size or `Dyn` is a run-time
//! check, as a symbol is; against a lone symbol it is a compile error.
//!
//! ```
//! use axial_shape::{Dyn, Plus, Size, SizeEq, SizeSum, Sym, Sz, Truth, axes};
//! axes!(Past, Seq);
//! assert_eq!(<SizeSum<Sz<3>, Sz<4>> as Size>::STATIC, Some(7));
//! let _: Option<SizeSum<Sz<3>, Dyn>> = None::<Dyn>;
//! fn grown<'id>() -> Option<bool> {
//!     type Keys<'id> = SizeSum<Sym<'id, Past>, Sym<'id, Seq>>;
//!     let _: Option<Keys<'id>> = None::<Plus<Sym<'id, Past>, Sym<'id, Seq>>>;
//!     <<Keys<'id> as SizeEq<Keys<'id>>>::Out as Truth>::VALUE
//! }
//! assert_eq!(grown(), Some(true));
//! ```

use core::marker::PhantomData;
use core::ops::Add;

use typenum::{Bit, UInt, UTerm, Unsigned};

use crate::einops::SizeDiv;
use crate::logic::{AndWith, B0, B1, Unknown};
use crate::size::{Canon, Canonical, Dyn, Size, SizeEq, SizeMul, StaticSize, Sz};
use crate::symbol::{Sym, SymbolTag};

/// The size `A + B` where a term is symbolic: what `cat` gives along its
/// axis when an operand's size there is a symbol (see the module docs).
/// Written by the ops, never checked against a scope: a target shape the
/// caller chooses (`realize_in`, constructors) cannot hold it.
///
/// ```
/// use axial_shape::{Plus, Shape, Size, Sym, axes, shape};
/// axes!(Key, Past, Seq);
/// fn keys<'id>() -> (Option<usize>, usize) {
///     type Grown<'id> = shape![Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>, 8];
///     (<Plus<Sym<'id, Past>, Sym<'id, Seq>> as Size>::STATIC, Grown::<'id>::RANK)
/// }
/// assert_eq!(keys(), (None, 2));
/// ```
pub struct Plus<A, B>(PhantomData<fn() -> (A, B)>);

/// What kind of size a type is: static, `Dyn`, or symbolic (a symbol or a
/// sum that holds one). The sums and the run-time sizes ops take dispatch
/// on it.
///
/// ```
/// use axial_shape::sum::{IsDyn, IsStatic, IsSymbolic, SizeKind};
/// use axial_shape::{Dyn, Plus, Sym, Sz, axes};
/// axes!(Seq);
/// let _: Option<<Sz<3> as SizeKind>::Kind> = None::<IsStatic>;
/// let _: Option<<Dyn as SizeKind>::Kind> = None::<IsDyn>;
/// let _: Option<<Sym<'static, Seq> as SizeKind>::Kind> = None::<IsSymbolic>;
/// let _: Option<<Plus<Sym<'static, Seq>, Sz<1>> as SizeKind>::Kind> = None::<IsSymbolic>;
/// ```
pub trait SizeKind: Size {
    /// [`IsStatic`], [`IsDyn`] or [`IsSymbolic`].
    type Kind;
}

/// [`SizeKind::Kind`] of a static size.
pub struct IsStatic;
/// [`SizeKind::Kind`] of `Dyn`.
pub struct IsDyn;
/// [`SizeKind::Kind`] of a symbol or a sum that holds one.
pub struct IsSymbolic;

impl SizeKind for Dyn {
    type Kind = IsDyn;
}
impl SizeKind for UTerm {
    type Kind = IsStatic;
}
impl<U: Unsigned + 'static, Bt: Bit + 'static> SizeKind for UInt<U, Bt> {
    type Kind = IsStatic;
}
impl<const N: usize> SizeKind for Sz<N>
where
    Sz<N>: Size,
{
    type Kind = IsStatic;
}
impl<Tag: SymbolTag> SizeKind for Sym<'_, Tag> {
    type Kind = IsSymbolic;
}
impl<A: Size, B: Size> SizeKind for Plus<A, B> {
    type Kind = IsSymbolic;
}

impl<A: Size, B: Size> Size for Plus<A, B> {
    const STATIC: Option<usize> = None;
    // A symbol of the sum: what a conversion that refuses symbolic sizes
    // names (a sum always holds one).
    const SYMBOL: Option<&'static str> = match A::SYMBOL {
        Some(name) => Some(name),
        None => B::SYMBOL,
    };
    type IsDyn = typenum::B0;
    type Shown<Name> = (Name, Self);
}

/// The size `A + B` (see the module docs): static when both are, `Dyn` when
/// either is, else [`Plus`].
///
/// ```
/// use axial_shape::{Dyn, Plus, Size, SizeSum, Sym, Sz, axes};
/// axes!(Seq);
/// assert_eq!(<SizeSum<Sz<8000>, Sz<8000>> as Size>::STATIC, Some(16000));
/// let _: Option<SizeSum<Sym<'static, Seq>, Sz<1>>> = None::<Plus<Sym<'static, Seq>, Sz<1>>>;
/// let _: Option<SizeSum<Sym<'static, Seq>, Dyn>> = None::<Dyn>;
/// ```
pub type SizeSum<A, B> = <A as SizeAdd<B>>::Out;

/// The trait behind [`SizeSum`].
///
/// ```
/// use axial_shape::{Size, SizeAdd, Sz};
/// fn total<A: SizeAdd<B>, B>() -> Option<usize> {
///     <A::Out as Size>::STATIC
/// }
/// assert_eq!(total::<Sz<2>, Sz<5>>(), Some(7));
/// ```
pub trait SizeAdd<B> {
    /// The sum.
    type Out: Size;
}

impl<A: SizeKind, B: SizeKind> SizeAdd<B> for A
where
    (A::Kind, B::Kind): AddKinds<A, B>,
{
    type Out = <(A::Kind, B::Kind) as AddKinds<A, B>>::Out;
}

/// [`SizeAdd`] by the kinds of the two terms.
pub trait AddKinds<A, B> {
    /// The sum.
    type Out: Size;
}
impl<A, B, K> AddKinds<A, B> for (IsDyn, K) {
    type Out = Dyn;
}
impl<A, B> AddKinds<A, B> for (IsStatic, IsDyn) {
    type Out = Dyn;
}
impl<A, B> AddKinds<A, B> for (IsSymbolic, IsDyn) {
    type Out = Dyn;
}
impl<A: StaticSize, B: StaticSize> AddKinds<A, B> for (IsStatic, IsStatic)
where
    A::Number: Add<B::Number, Output: Canonical<Out: Size>>,
{
    type Out = Canon<<A::Number as Add<B::Number>>::Output>;
}
impl<A: Size, B: Size> AddKinds<A, B> for (IsStatic, IsSymbolic) {
    type Out = Plus<A, B>;
}
impl<A: Size, B: Size> AddKinds<A, B> for (IsSymbolic, IsStatic) {
    type Out = Plus<A, B>;
}
impl<A: Size, B: Size> AddKinds<A, B> for (IsSymbolic, IsSymbolic) {
    type Out = Plus<A, B>;
}

/// A product with a sum is known only at run time, as one with a symbol.
impl<A: Size, B: Size, C: Size> SizeMul<C> for Plus<A, B> {
    type Out = Dyn;
}
impl<Z: StaticSize, A: Size, B: Size> SizeMul<Plus<A, B>> for Z {
    type Out = Dyn;
}

/// Dividing a sum (an einops decomposition of a joined axis): `Dyn`, and
/// whether it divides is a run-time check.
impl<A: Size, B: Size, C: Size> SizeDiv<C> for Plus<A, B> {
    type Quot = Dyn;
    type Divides = Unknown;
}

/// Two sums, term by term (see the module docs).
impl<A: SizeEq<C>, B: SizeEq<D>, C, D> SizeEq<Plus<C, D>> for Plus<A, B>
where
    A::Out: AndWith<B::Out>,
{
    type Out = <A::Out as AndWith<B::Out>>::Out;
}
/// A sum against a static size or `Dyn`: a run-time check. (One impl
/// header per kind of size, as for symbols.)
impl<A, B> SizeEq<UTerm> for Plus<A, B> {
    type Out = Unknown;
}
impl<A, B, U, Bt> SizeEq<UInt<U, Bt>> for Plus<A, B> {
    type Out = Unknown;
}
impl<A, B, const N: usize> SizeEq<Sz<N>> for Plus<A, B> {
    type Out = Unknown;
}
impl<A, B> SizeEq<Dyn> for Plus<A, B> {
    type Out = Unknown;
}
impl<A, B> SizeEq<Plus<A, B>> for UTerm {
    type Out = Unknown;
}
impl<A, B, U, Bt> SizeEq<Plus<A, B>> for UInt<U, Bt> {
    type Out = Unknown;
}
impl<A, B, const N: usize> SizeEq<Plus<A, B>> for Sz<N> {
    type Out = Unknown;
}
/// A sum and a lone symbol never unify.
impl<'id, A, B, Tag> SizeEq<Sym<'id, Tag>> for Plus<A, B>
where
    B0: SameSymbolicSize<Plus<A, B>, Sym<'id, Tag>>,
{
    type Out = B0;
}
impl<'id, A, B, Tag> SizeEq<Plus<A, B>> for Sym<'id, Tag>
where
    B0: SameSymbolicSize<Sym<'id, Tag>, Plus<A, B>>,
{
    type Out = B0;
}

/// A sum of sizes met with a lone symbol (`Self` is whether they are one
/// symbolic size: never).
///
/// ```
/// use axial_shape::B1;
/// use axial_shape::sum::SameSymbolicSize;
/// fn ok<T: SameSymbolicSize<(), ()>>() {}
/// ok::<B1>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the symbolic sizes `{A}` and `{B}` differ: a sum of sizes never unifies with a lone symbol",
    label = "`{A}` and `{B}` are different symbolic sizes",
    note = "a sum (what `cat` gives along its axis) equals another sum of the same terms; `into_dyn` forgets a size to check it at run time"
)]
pub trait SameSymbolicSize<A, B> {}
#[diagnostic::do_not_recommend]
impl<A, B> SameSymbolicSize<A, B> for B1 {}
