//! The names einops patterns give axes: [`Composed`] for a group of the output
//! (`(C H W)` is `Composed<(C, H, W)>`) and [`Unnamed`] for an axis the pattern
//! writes without a name (a unit `1` or `()`, a length in `repeat`).
//!
//! Each has an identity of its own kind beside the `axes!` names and the
//! anonymous `Anon<i>`: a composed name is the list of its parts' identities
//! (so two groups of the same axes are the same name, whichever pattern made
//! them), an unnamed axis its number.

use typenum::{Const, IsEqual, ToUInt, U};

use crate::id::{Gone, IdEq, IdKind, Named, Pos};
use crate::logic::{B0, B1, Truth};
use crate::name::AxisName;
use crate::shape::Marker;

/// The axis a group of an einops output makes: `Composed<(C, H, W)>` for
/// `(C H W)`, of the product of the parts' sizes. Its name prints as the
/// group, `"(C H W)"`; two groups of the same parts in the same order are
/// the same name. Groups of 2 to 12 axes (a group of one axis is that axis).
///
/// # Example
/// ```
/// use axial_shape::{AxisName, Composed, SameName, Truth, axes};
/// axes!(C, H, W);
/// assert_eq!(<Composed<(C, H, W)>>::NAME, Some("(C H W)"));
/// assert_eq!(<<Composed<(C, H)> as SameName<Composed<(C, H)>>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<Composed<(C, H)> as SameName<Composed<(H, C)>>>::Out as Truth>::VALUE, Some(false));
/// ```
pub struct Composed<Parts>(Marker<Parts>);

/// An axis an einops pattern makes without a name: a unit (`1`, `()`) or, in
/// `repeat`, an anonymous length (`3`). `I` is the position of its dim on the
/// output side. Like PyTorch's unnamed dims it has no name (`NAME` is `None`)
/// and broadcasts against any name.
///
/// ```
/// use axial_shape::{AxisName, Unnamed};
/// assert_eq!(<Unnamed<1>>::NAME, None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Unnamed<const I: usize>;

/// How an anonymous length of a pattern prints in compile errors:
/// `(H, Length<2>)` for `(h 2)`.
///
/// ```
/// use axial_shape::einops::Length;
/// let _ = Length::<2>;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Length<const N: usize>;

impl<const I: usize> AxisName for Unnamed<I>
where
    Const<I>: ToUInt,
    U<I>: 'static,
{
    const NAME: Option<&'static str> = None;
    type Id = UnnamedId<U<I>>;
}

/// The identity of [`Composed`]: the list of its parts' identities.
///
/// ```
/// use std::any::TypeId;
/// use axial_shape::einops::{ComposedId, ComposedParts};
/// use axial_shape::{AxisName, Composed, axes};
/// axes!(C, H);
/// type Id = <Composed<(C, H)> as AxisName>::Id;
/// assert_eq!(TypeId::of::<Id>(), TypeId::of::<ComposedId<<(C, H) as ComposedParts>::Ids>>());
/// ```
pub struct ComposedId<L>(Marker<L>);
/// The identity of [`Unnamed`]: its number.
///
/// ```
/// use std::any::TypeId;
/// use axial_shape::einops::UnnamedId;
/// use axial_shape::{AxisName, Unnamed};
/// type Id = <Unnamed<2> as AxisName>::Id;
/// assert_eq!(TypeId::of::<Id>(), TypeId::of::<UnnamedId<typenum::U2>>());
/// ```
pub struct UnnamedId<U>(Marker<U>);
/// A list of identities, `H` in front of `T`.
///
/// ```
/// use std::any::TypeId;
/// use axial_shape::einops::{ComposedParts, IdCons, IdNil};
/// use axial_shape::{AxisName, axes};
/// axes!(C, H);
/// type Ids = <(C, H) as ComposedParts>::Ids;
/// type Expected = IdCons<<C as AxisName>::Id, IdCons<<H as AxisName>::Id, IdNil>>;
/// assert_eq!(TypeId::of::<Ids>(), TypeId::of::<Expected>());
/// ```
pub struct IdCons<H, T>(Marker<(H, T)>);
/// The end of a list of identities.
///
/// ```
/// use axial_shape::einops::{IdListEq, IdNil};
/// use axial_shape::Truth;
/// assert_eq!(<<IdNil as IdListEq<IdNil>>::Out as Truth>::VALUE, Some(true));
/// ```
pub struct IdNil;

/// Two lists of identities are equal item by item.
///
/// ```
/// use axial_shape::einops::{ComposedParts, IdListEq};
/// use axial_shape::{Truth, axes};
/// axes!(C, H, W);
/// fn equal<A: ComposedParts, B: ComposedParts>() -> Option<bool>
/// where
///     A::Ids: IdListEq<B::Ids>,
/// {
///     <<A::Ids as IdListEq<B::Ids>>::Out as Truth>::VALUE
/// }
/// assert_eq!(equal::<(C, H), (C, H)>(), Some(true));
/// assert_eq!(equal::<(C, H), (H, C)>(), Some(false));
/// assert_eq!(equal::<(C, H), (C, H, W)>(), Some(false));
/// ```
pub trait IdListEq<Other> {
    /// The answer.
    type Out: Truth;
}
impl IdListEq<IdNil> for IdNil {
    type Out = B1;
}
impl<H, T> IdListEq<IdCons<H, T>> for IdNil {
    type Out = B0;
}
impl<H, T> IdListEq<IdNil> for IdCons<H, T> {
    type Out = B0;
}
impl<H1: IdEq<H2>, T1, H2, T2> IdListEq<IdCons<H2, T2>> for IdCons<H1, T1>
where
    H1::Out: ThenTails<T1, T2>,
{
    type Out = <H1::Out as ThenTails<T1, T2>>::Out;
}

/// After the heads: unequal stops, equal compares the tails.
///
/// ```
/// use axial_shape::einops::{IdNil, ThenTails};
/// use axial_shape::{B0, B1, Truth};
/// assert_eq!(<<B1 as ThenTails<IdNil, IdNil>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<B0 as ThenTails<IdNil, IdNil>>::Out as Truth>::VALUE, Some(false));
/// ```
pub trait ThenTails<T1, T2> {
    /// The answer.
    type Out: Truth;
}
impl<T1, T2> ThenTails<T1, T2> for B0 {
    type Out = B0;
}
impl<T1: IdListEq<T2>, T2> ThenTails<T1, T2> for B1 {
    type Out = T1::Out;
}

impl<L1: IdListEq<L2>, L2> IdEq<ComposedId<L2>> for ComposedId<L1> {
    type Out = L1::Out;
}
impl<U: IsEqual<V>, V> IdEq<UnnamedId<V>> for UnnamedId<U>
where
    U::Output: crate::logic::Answer,
{
    type Out = crate::logic::TruthOf<U::Output>;
}

/// Identities of different kinds are different names.
macro_rules! unequal_kinds {
    ($([$($p:ident),*] $a:ty, $b:ty;)*) => {$(
        impl<$($p),*> IdEq<$b> for $a {
            type Out = B0;
        }
        impl<$($p),*> IdEq<$a> for $b {
            type Out = B0;
        }
    )*};
}
unequal_kinds! {
    [L, A] ComposedId<L>, Named<A>;
    [L, P] ComposedId<L>, Pos<P>;
    [L, V] ComposedId<L>, UnnamedId<V>;
    [U, A] UnnamedId<U>, Named<A>;
    [U, P] UnnamedId<U>, Pos<P>;
}
impl<L> IdEq<Gone> for ComposedId<L> {
    type Out = B0;
}
impl<U> IdEq<Gone> for UnnamedId<U> {
    type Out = B0;
}

impl<L> IdKind for ComposedId<L> {
    type Taken = B0;
    type Anon = B0;
}
impl<U> IdKind for UnnamedId<U> {
    type Taken = B0;
    type Anon = B1;
}

/// The longest spelling of a composed name kept (longer ones are cut).
const SPELLING_CAPACITY: usize = 512;

/// A name spelled at compile time, in a fixed buffer: how a [`Composed`]
/// name gets its `NAME`.
///
/// ```
/// use axial_shape::einops::{ComposedParts, Spelling};
/// use axial_shape::{AxisName, Composed, axes};
/// axes!(C, H);
/// let _spelled: &'static Spelling = <(C, H) as ComposedParts>::SPELLED;
/// assert_eq!(<Composed<(C, H)>>::NAME, Some("(C H)"));
/// ```
pub struct Spelling {
    bytes: [u8; SPELLING_CAPACITY],
    len: usize,
}

impl Spelling {
    const EMPTY: Spelling = Spelling {
        bytes: [0; SPELLING_CAPACITY],
        len: 0,
    };

    /// `self` followed by `text`, as many whole characters as fit.
    const fn push(mut self, text: &str) -> Spelling {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() {
            let width = match text[i] {
                0..0x80 => 1,
                0x80..0xE0 => 2,
                0xE0..0xF0 => 3,
                _ => 4,
            };
            if self.len + width > SPELLING_CAPACITY || i + width > text.len() {
                break;
            }
            let mut k = 0;
            while k < width {
                self.bytes[self.len] = text[i + k];
                self.len += 1;
                k += 1;
            }
            i += width;
        }
        self
    }

    /// The spelling as text.
    const fn text(&self) -> Option<&str> {
        let (head, _) = self.bytes.split_at(self.len);
        match core::str::from_utf8(head) {
            Ok(text) => Some(text),
            Err(_) => None,
        }
    }
}

/// A part's name as a composed name prints it (`_` for an unnamed axis).
const fn part_name(name: Option<&'static str>) -> &'static str {
    match name {
        Some(name) => name,
        None => "_",
    }
}

/// The parts of a composed name: its identity list and its spelling.
///
/// ```
/// use axial_shape::einops::ComposedParts;
/// use axial_shape::{AxisName, Composed, Unnamed, axes};
/// axes!(C, W);
/// fn spelled<P: ComposedParts + 'static>() -> Option<&'static str> {
///     <Composed<P>>::NAME
/// }
/// assert_eq!(spelled::<(C, Unnamed<1>, W)>(), Some("(C _ W)"));
/// ```
pub trait ComposedParts {
    /// The parts' identities.
    type Ids;
    /// `(A B C)`.
    const SPELLING: Spelling;
    /// The spelling where a `'static` reference can see it.
    const SPELLED: &'static Spelling = &Self::SPELLING;
}

macro_rules! merged_parts {
    ($first:ident $(, $rest:ident)+) => {
        impl<$first: AxisName $(, $rest: AxisName)+> ComposedParts for ($first, $($rest),+) {
            type Ids = IdCons<$first::Id, merged_parts!(@ids $($rest),+)>;
            const SPELLING: Spelling = Spelling::EMPTY
                .push("(")
                .push(part_name($first::NAME))
                $(.push(" ").push(part_name($rest::NAME)))+
                .push(")");
        }
    };
    (@ids $first:ident $(, $rest:ident)*) => { IdCons<$first::Id, merged_parts!(@ids $($rest),*)> };
    (@ids) => { IdNil };
}
merged_parts!(A1, A2);
merged_parts!(A1, A2, A3);
merged_parts!(A1, A2, A3, A4);
merged_parts!(A1, A2, A3, A4, A5);
merged_parts!(A1, A2, A3, A4, A5, A6);
merged_parts!(A1, A2, A3, A4, A5, A6, A7);
merged_parts!(A1, A2, A3, A4, A5, A6, A7, A8);
merged_parts!(A1, A2, A3, A4, A5, A6, A7, A8, A9);
merged_parts!(A1, A2, A3, A4, A5, A6, A7, A8, A9, A10);
merged_parts!(A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11);
merged_parts!(A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12);

impl<Parts: ComposedParts + 'static> AxisName for Composed<Parts> {
    const NAME: Option<&'static str> = Parts::SPELLED.text();
    type Id = ComposedId<Parts::Ids>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spelling_keeps_whole_characters() {
        let mut spelling = Spelling::EMPTY;
        for _ in 0..SPELLING_CAPACITY {
            spelling = spelling.push("é");
        }
        let text = spelling.text().unwrap_or_default();
        assert_eq!(text.len(), SPELLING_CAPACITY);
        assert!(text.chars().all(|c| c == 'é'));
        let odd = Spelling::EMPTY
            .push("a")
            .push(&"é".repeat(SPELLING_CAPACITY));
        assert_eq!(odd.text().map(str::len), Some(SPELLING_CAPACITY - 1));
    }
}
