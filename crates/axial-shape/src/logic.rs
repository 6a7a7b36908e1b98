//! Type-level truth: [`False`] and [`True`] (also named [`B0`] and [`B1`] in
//! the proofs), and [`Unknown`] for a fact that depends on a `Dyn` size and
//! is checked at run time.
//!
//! They are not typenum's bits, though typenum's comparisons produce those:
//! a failed proof ends in "the trait ... is not implemented for `False`",
//! and a compile error should not speak typenum ([`Answer`] turns its bits
//! into these).

/// A fact the compiler proved false.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct False;

/// A fact the compiler proved true.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct True;

/// [`False`], as the proofs name it.
pub type B0 = False;

/// [`True`], as the proofs name it.
pub type B1 = True;

/// A typenum bit (what typenum's comparisons answer) as a truth.
///
/// ```
/// use axial_shape::{Answer, Truth};
/// use axial_shape::typenum::{IsLess, U2, U3};
/// assert_eq!(<<<U2 as IsLess<U3>>::Output as Answer>::Truth as Truth>::VALUE, Some(true));
/// ```
pub trait Answer {
    /// [`True`] or [`False`].
    type Truth: Truth;
}
impl Answer for typenum::B0 {
    type Truth = False;
}
impl Answer for typenum::B1 {
    type Truth = True;
}

/// The truth of a typenum bit.
pub type TruthOf<X> = <X as Answer>::Truth;

/// A fact that a `Dyn` size leaves open until run time.
///
/// # Example
/// ```
/// use axial_shape::{B0, B1, Truth, Unknown};
/// assert_eq!(<B1 as Truth>::VALUE, Some(true));
/// assert_eq!(<B0 as Truth>::VALUE, Some(false));
/// assert_eq!(<Unknown as Truth>::VALUE, None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Unknown;

/// A type-level truth value, known at compile time or left to run time.
///
/// ```
/// use axial_shape::{SizeEq, Truth, typenum::U2};
/// fn is_pair<Z: SizeEq<U2>>() -> Option<bool> {
///     <Z::Out as Truth>::VALUE
/// }
/// assert_eq!(is_pair::<U2>(), Some(true));
/// assert_eq!(is_pair::<axial_shape::Dyn>(), None);
/// ```
pub trait Truth: crate::sealed::Sealed {
    /// `Some` when the compiler knows the answer.
    const VALUE: Option<bool>;
}

impl Truth for B0 {
    const VALUE: Option<bool> = Some(false);
}
impl Truth for B1 {
    const VALUE: Option<bool> = Some(true);
}
impl Truth for Unknown {
    const VALUE: Option<bool> = None;
}

/// Three-valued conjunction: false wins, then unknown.
///
/// ```
/// use axial_shape::{And, B0, B1, Truth, Unknown};
/// assert_eq!(<And<B1, Unknown> as Truth>::VALUE, None);
/// assert_eq!(<And<Unknown, B0> as Truth>::VALUE, Some(false));
/// ```
pub type And<A, B> = <A as AndWith<B>>::Out;

/// The trait behind [`And`].
///
/// ```
/// use axial_shape::{AndWith, B0, B1, Truth, Unknown};
/// fn both<A: AndWith<B>, B>() -> Option<bool> {
///     <A::Out as Truth>::VALUE
/// }
/// assert_eq!(both::<B1, B1>(), Some(true));
/// assert_eq!(both::<Unknown, B0>(), Some(false));
/// assert_eq!(both::<Unknown, B1>(), None);
/// ```
pub trait AndWith<B> {
    /// The conjunction.
    type Out: Truth;
}

/// The truth table of a binary connective, one row an impl.
macro_rules! truth_table {
    ($connective:ident: $($a:ty, $b:ty => $out:ty;)*) => {$(
        impl $connective<$b> for $a {
            type Out = $out;
        }
    )*};
}
truth_table! {
    AndWith:
    B0, B0 => B0; B0, B1 => B0; B0, Unknown => B0;
    B1, B0 => B0; B1, B1 => B1; B1, Unknown => Unknown;
    Unknown, B0 => B0; Unknown, B1 => Unknown; Unknown, Unknown => Unknown;
}

/// Negation of a known truth.
///
/// ```
/// use axial_shape::{B0, B1, Not, Truth};
/// assert_eq!(<Not<B0> as Truth>::VALUE, Some(true));
/// assert_eq!(<Not<B1> as Truth>::VALUE, Some(false));
/// ```
pub type Not<A> = <A as NotBit>::Out;

/// The trait behind [`Not`].
///
/// ```
/// use axial_shape::{B0, B1, NotBit, Truth};
/// fn negate<A: NotBit>() -> Option<bool> {
///     <A::Out as Truth>::VALUE
/// }
/// assert_eq!((negate::<B0>(), negate::<B1>()), (Some(true), Some(false)));
/// ```
pub trait NotBit {
    /// The negation.
    type Out: Truth;
}
impl NotBit for B0 {
    type Out = B1;
}
impl NotBit for B1 {
    type Out = B0;
}

/// Three-valued disjunction: true wins, then unknown.
///
/// ```
/// use axial_shape::{B0, B1, Or, Truth, Unknown};
/// assert_eq!(<Or<B0, Unknown> as Truth>::VALUE, None);
/// assert_eq!(<Or<Unknown, B1> as Truth>::VALUE, Some(true));
/// ```
pub type Or<A, B> = <A as OrWith<B>>::Out;

/// The trait behind [`Or`].
///
/// ```
/// use axial_shape::{B0, B1, OrWith, Truth, Unknown};
/// fn either<A: OrWith<B>, B>() -> Option<bool> {
///     <A::Out as Truth>::VALUE
/// }
/// assert_eq!(either::<B0, B0>(), Some(false));
/// assert_eq!(either::<Unknown, B1>(), Some(true));
/// assert_eq!(either::<B0, Unknown>(), None);
/// ```
pub trait OrWith<B> {
    /// The disjunction.
    type Out: Truth;
}

truth_table! {
    OrWith:
    B0, B0 => B0; B0, B1 => B1; B0, Unknown => Unknown;
    B1, B0 => B1; B1, B1 => B1; B1, Unknown => B1;
    Unknown, B0 => Unknown; Unknown, B1 => B1; Unknown, Unknown => Unknown;
}
