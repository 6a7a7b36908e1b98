//! Symbolic sizes: a size known only at run time, bound once in a scope and
//! proven equal to itself everywhere after.
//!
//! [`Sym<'id, Tag>`](Sym) is the size of every axis whose length is the
//! run-time value the scope `'id` bound to the tag `Tag` (an axis name such
//! as `Batch` or `Seq`, used as the symbol's name). The scope itself (its
//! binding table, and the closure that makes the brand `'id` fresh) lives in
//! the `axial` crate, which checks run-time sizes; this module holds what the
//! type checker needs:
//!
//! - two `Sym`s of one scope and one tag are the same size ([`SizeEq`] is
//!   `B1`), so tensors carrying them add, broadcast and multiply with the
//!   proof at compile time;
//! - two `Sym`s of one scope and different tags never unify: meeting in a
//!   size comparison is a compile error ([`SameSymbol`]), though both are
//!   run-time sizes and may hold equal values;
//! - a `Sym` against a static size or [`Dyn`] is [`Unknown`], a run-time
//!   check as `Dyn` is (and the result is the static size, or `Dyn`: never
//!   a symbol the run-time check did not prove);
//! - a `Sym` of one scope against a `Sym` of another scope needs their
//!   brands `'id` to be one lifetime; two scopes' brands are distinct
//!   universally quantified lifetimes, so the borrow checker rejects it;
//! - constructors and views whose target shape the caller chooses freely
//!   (`zeros`, `from_vec_dyn`, `reshape`, `expand`, `as_strided`, `from_raw`,
//!   ...) ask [`NoSymbols`] of it: the only way to a symbolic shape is the
//!   checked `realize_in`, or an op whose inputs already carry the symbol.
//!
//! ```
//! use axial_shape::{Dyn, SizeEq, Sym, Truth, axes};
//! axes!(Batch, Seq);
//! fn proof<'id>() -> (Option<bool>, Option<bool>, Option<bool>) {
//!     (
//!         <<Sym<'id, Batch> as SizeEq<Sym<'id, Batch>>>::Out as Truth>::VALUE,
//!         <<Sym<'id, Batch> as SizeEq<typenum::U4>>::Out as Truth>::VALUE,
//!         <<Sym<'id, Batch> as SizeEq<Dyn>>::Out as Truth>::VALUE,
//!     )
//! }
//! assert_eq!(proof(), (Some(true), None, None));
//! ```

use core::marker::PhantomData;

use typenum::{Bit, UInt, UTerm, Unsigned};

use crate::einops::SizeDiv;
use crate::id::NamedId;
use crate::logic::{B0, B1, Or, OrWith, Truth, Unknown};
use crate::name::{AxisName, SameName};
use crate::shape::{Ax, Nil};
use crate::size::{Dyn, Size, SizeEq, SizeMul, StaticSize, Sz};

/// An invariant lifetime: `Brand<'a>` is a subtype of `Brand<'b>` only when
/// `'a` and `'b` are one lifetime, so a brand never shrinks or grows into
/// another scope's.
pub(crate) type Brand<'id> = PhantomData<fn(&'id ()) -> &'id ()>;

/// The size of an axis whose length is the run-time value bound to the
/// symbol `Tag` in the scope branded `'id` (see the module docs).
///
/// Write it in shapes as any size type:
/// `shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Model: 64]`, with
/// `'id` a lifetime parameter of the function (model code needs no other
/// parameter and no bound) or `'_` where the compiler infers it.
///
/// ```
/// use axial_shape::{Shape, Size, Sym, axes, shape};
/// axes!(Batch, Model);
/// fn rank<'id>() -> (usize, Option<usize>, Option<&'static str>) {
///     type S<'id> = shape![Batch: Sym<'id, Batch>, Model: 64];
///     (S::<'id>::RANK, <Sym<'id, Batch> as Size>::STATIC, <Sym<'id, Batch> as Size>::SYMBOL)
/// }
/// assert_eq!(rank(), (2, None, Some("Batch")));
/// ```
pub struct Sym<'id, Tag>(Brand<'id>, PhantomData<fn() -> Tag>);

impl<Tag> Sym<'_, Tag> {
    /// The symbol as a value. It carries nothing at run time and proves
    /// nothing by itself: what makes a tensor's `Sym` size true is the
    /// scope's check when the tensor was realized (`axial::scope`).
    ///
    /// ```
    /// use axial_shape::{Sym, axes};
    /// axes!(Batch);
    /// let b: Sym<'static, Batch> = Sym::new();
    /// assert_eq!(format!("{b:?}"), "Sym<Batch>");
    /// ```
    pub const fn new() -> Self {
        Sym(PhantomData, PhantomData)
    }
}

impl<Tag> Clone for Sym<'_, Tag> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Tag> Copy for Sym<'_, Tag> {}
impl<Tag> Default for Sym<'_, Tag> {
    fn default() -> Self {
        Self::new()
    }
}
impl<Tag: AxisName> core::fmt::Debug for Sym<'_, Tag> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Sym<{}>", Tag::NAME.unwrap_or("_"))
    }
}

/// A name that can name a symbol: an axis name declared with `axes!` (not an
/// anonymous position).
///
/// ```
/// use axial_shape::{SymbolTag, axes};
/// axes!(Batch);
/// fn tag<T: SymbolTag>() -> &'static str {
///     T::TAG
/// }
/// assert_eq!(tag::<Batch>(), "Batch");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot name a symbolic size",
    label = "not a declared axis name",
    note = "a symbol is named by an axis name declared with `axes!`, such as `Sym<'id, Batch>`"
)]
pub trait SymbolTag: AxisName {
    /// The symbol's name: what a scope binds and messages print.
    const TAG: &'static str;
}

impl<T: AxisName> SymbolTag for T
where
    T::Id: NamedId,
{
    const TAG: &'static str = match T::NAME {
        Some(name) => name,
        None => "_",
    };
}

impl<Tag: SymbolTag> Size for Sym<'_, Tag> {
    const STATIC: Option<usize> = None;
    const SYMBOL: Option<&'static str> = Some(Tag::TAG);
    type IsDyn = typenum::B0;
    type Shown<A> = (A, Self);
}

/// A product with a symbol is known only at run time: `Dyn`.
impl<Tag: SymbolTag, B: Size> SizeMul<B> for Sym<'_, Tag> {
    type Out = Dyn;
}
impl<'id, A: StaticSize, Tag: SymbolTag> SizeMul<Sym<'id, Tag>> for A {
    type Out = Dyn;
}

/// Dividing a symbol (an einops decomposition such as `(H D)` of a symbolic
/// axis): the quotient is `Dyn`, and whether it divides is a run-time check.
impl<Tag: SymbolTag, B: Size> SizeDiv<B> for Sym<'_, Tag> {
    type Quot = Dyn;
    type Divides = Unknown;
}

/// Two symbols of one scope: the same size when they have one tag; two tags
/// never unify ([`SameSymbol`]). Symbols of two scopes do not meet at all:
/// this impl asks for one brand `'id`.
impl<'id, A: SymbolTag + SameName<B>, B: SymbolTag> SizeEq<Sym<'id, B>> for Sym<'id, A>
where
    A::Out: SameSymbol<A, B>,
{
    type Out = B1;
}
/// A symbol against a static size: a run-time check. (One impl header per
/// kind of size, so that two symbols select the impl above alone and its
/// error is [`SameSymbol`]'s message.)
impl<Tag: SymbolTag> SizeEq<UTerm> for Sym<'_, Tag> {
    type Out = Unknown;
}
impl<Tag: SymbolTag, U, Bt> SizeEq<UInt<U, Bt>> for Sym<'_, Tag> {
    type Out = Unknown;
}
impl<'id, Tag: SymbolTag> SizeEq<Sym<'id, Tag>> for UTerm {
    type Out = Unknown;
}
impl<'id, Tag: SymbolTag, U, Bt> SizeEq<Sym<'id, Tag>> for UInt<U, Bt> {
    type Out = Unknown;
}
impl<Tag: SymbolTag, const N: usize> SizeEq<Sz<N>> for Sym<'_, Tag> {
    type Out = Unknown;
}
impl<'id, Tag: SymbolTag, const N: usize> SizeEq<Sym<'id, Tag>> for Sz<N> {
    type Out = Unknown;
}
/// A symbol against `Dyn`: a run-time check.
impl<Tag: SymbolTag> SizeEq<Dyn> for Sym<'_, Tag> {
    type Out = Unknown;
}

/// Two symbols that meet in one size comparison name one symbol (`Self` is
/// whether their tags are one name).
///
/// ```
/// use axial_shape::B1;
/// use axial_shape::symbol::SameSymbol;
/// use axial_shape::axes;
/// axes!(Seq);
/// fn ok<T: SameSymbol<Seq, Seq>>() {}
/// ok::<B1>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the symbolic sizes `{A}` and `{B}` are different symbols, which never unify",
    label = "`{A}` and `{B}` are different symbols",
    note = "a `{A}` size never stands where a `{B}` size is expected, even when their run-time values are equal; `into_dyn` forgets a size to check it at run time"
)]
pub trait SameSymbol<A, B> {}
#[diagnostic::do_not_recommend]
impl<A, B> SameSymbol<A, B> for B1 {}

/// A size that is not a symbol (static or [`Dyn`]): what a freely chosen
/// target shape may hold.
///
/// ```
/// use axial_shape::{Dyn, NotSymbol};
/// fn ok<Z: NotSymbol>() {}
/// ok::<Dyn>();
/// ok::<typenum::U3>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a symbolic size, and this shape is chosen by the caller",
    label = "symbolic size in a target shape",
    note = "a symbolic size comes only from `realize_in` (which checks it against its scope), from an op on tensors that carry it, or from its `Extent` (`x.extent::<Axis>()` of a tensor that has it); give `Dyn` here and `realize_in` the result, or the extent"
)]
pub trait NotSymbol: Size {}
impl NotSymbol for Dyn {}
impl NotSymbol for UTerm {}
impl<U: Unsigned + 'static, B: Bit + 'static> NotSymbol for UInt<U, B> {}
impl<const N: usize> NotSymbol for Sz<N> where Sz<N>: Size {}

/// Every symbol of the shape has the brand `'id` (its sizes are static,
/// [`Dyn`], or symbols of the scope `'id`): what `realize_in` asks of its
/// target, so that a scope checks only its own symbols.
///
/// ```
/// use axial_shape::symbol::InScope;
/// use axial_shape::{Sym, axes, shape};
/// axes!(Batch, Model);
/// fn ok<'id, S: InScope<'id>>() {}
/// fn check<'id>() {
///     ok::<'id, shape![Batch: Sym<'id, Batch>, Model: 64]>();
/// }
/// check();
/// ```
pub trait InScope<'id> {}
impl InScope<'_> for Nil {}
impl<'id, N, Sz: SizeInScope<'id>, T: InScope<'id>> InScope<'id> for Ax<N, Sz, T> {}

/// A size that is static, [`Dyn`], or a symbol of the scope `'id`.
///
/// ```
/// use axial_shape::symbol::SizeInScope;
/// use axial_shape::{Dyn, Sym, axes};
/// axes!(Seq);
/// fn ok<'id, Z: SizeInScope<'id>>() {}
/// fn check<'id>() {
///     ok::<'id, Sym<'id, Seq>>();
///     ok::<'id, Dyn>();
/// }
/// check();
/// ```
pub trait SizeInScope<'id> {}
impl SizeInScope<'_> for Dyn {}
impl<Z: StaticSize> SizeInScope<'_> for Z {}
impl<'id, Tag> SizeInScope<'id> for Sym<'id, Tag> {}

/// Every size of the shape is static or [`Dyn`] (none is a symbol).
///
/// ```
/// use axial_shape::{NoSymbols, axes, shape};
/// axes!(Batch, Model);
/// fn ok<S: NoSymbols>() {}
/// ok::<shape![Batch: Dyn, Model: 64]>();
/// ```
pub trait NoSymbols {}
impl NoSymbols for Nil {}
impl<N, Sz: NotSymbol, T: NoSymbols> NoSymbols for Ax<N, Sz, T> {}

/// `Out` is `B1` for a symbolic size ([`Sym`]), `B0` for a static or
/// [`Dyn`] one.
///
/// ```
/// use axial_shape::symbol::IsSymbol;
/// use axial_shape::{Dyn, Truth};
/// assert_eq!(<<Dyn as IsSymbol>::Out as Truth>::VALUE, Some(false));
/// ```
pub trait IsSymbol {
    /// The answer.
    type Out: Truth;
}
impl IsSymbol for Dyn {
    type Out = B0;
}
impl IsSymbol for UTerm {
    type Out = B0;
}
impl<U, B> IsSymbol for UInt<U, B> {
    type Out = B0;
}
impl<const N: usize> IsSymbol for Sz<N> {
    type Out = B0;
}
impl<Tag> IsSymbol for Sym<'_, Tag> {
    type Out = B1;
}

/// `Out` is `B1` when a size of the shape is a symbol.
///
/// ```
/// use axial_shape::symbol::HasSymbols;
/// use axial_shape::{Sym, Truth, axes, shape};
/// axes!(Batch, Model);
/// fn has<'id>() -> Option<bool> {
///     <<shape![Batch: Sym<'id, Batch>, Model: 4] as HasSymbols>::Out as Truth>::VALUE
/// }
/// assert_eq!(has(), Some(true));
/// assert_eq!(<<shape![Batch: Dyn, Model: 4] as HasSymbols>::Out as Truth>::VALUE, Some(false));
/// ```
pub trait HasSymbols {
    /// The answer.
    type Out: Truth;
}
impl HasSymbols for Nil {
    type Out = B0;
}
impl<N, Z: IsSymbol, T: HasSymbols> HasSymbols for Ax<N, Z, T>
where
    Z::Out: OrWith<T::Out>,
{
    type Out = Or<Z::Out, T::Out>;
}
