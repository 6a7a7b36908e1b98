#![forbid(unsafe_code)]
//! Type-level shapes of axial: axis names, sizes ([`Sz<N>`](Sz), [`Dyn`] or
//! symbols, [`Sym`]),
//! shapes as type-level lists with no rank ceiling, and the traits that prove
//! each view by name.
//!
//! ```
//! use axial_shape::{Dyn, Shape, Transpose, axes, shape};
//! axes!(Batch, Channels, Rows, Cols);
//! type Images = shape![Batch: Dyn, Channels: 3, Rows: 28, Cols: 28];
//! assert_eq!(Images::RANK, 4);
//! // Swapping two axes by name: positions come from the names.
//! type Swapped = <Images as Transpose<Rows, Cols>>::Output;
//! let mut names = [None; 4];
//! Swapped::write_names(&mut names);
//! assert_eq!(names, [Some("Batch"), Some("Channels"), Some("Cols"), Some("Rows")]);
//! ```
//!
//! How it works: a shape is `Ax<Name, Size, Tail>` ending in [`Nil`]. Names
//! are compared by the identity `axes!` gives them (a hash of their spelling),
//! so lookups produce positions as constants without index types, and the
//! compiler can prove two names different. Every check ends in a trait of
//! [`report`] whose message names the axes and the shape.

pub mod conv;
mod display;
pub mod einops;
mod find;
mod id;
mod logic;
mod name;
pub mod ops;
pub mod report;
mod shape;
mod size;
pub mod slicing;
pub mod sum;
pub mod symbol;

pub use display::{Flat, FlatNames};
pub use einops::{Composed, Unnamed};
pub use find::{Append, Concat, Contains, Find, ItemName, Remove, Replace};
pub use logic::{
    And, AndWith, Answer, B0, B1, False, Not, NotBit, Or, OrWith, True, Truth, TruthOf, Unknown,
};
pub use name::{Anon, AxisName, Ellipsis, Item, Keep, New, SameName};
pub use ops::*;
pub use shape::{Ax, Cons, DisplayOf, Nil, Shape};
pub use size::{
    Canon, Canonical, Dyn, SZ_MAX, Size, SizeEq, SizeMul, SizeProd, SizesEqual, StaticSize, Sz,
};
pub use sum::{Plus, SizeAdd, SizeSum};
pub use symbol::{NoSymbols, NotSymbol, Sym, SymbolTag};

pub use generic_array::{self, GenericArray};
pub use typenum;

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::logic::False {}
    impl Sealed for crate::logic::True {}
    impl Sealed for crate::logic::Unknown {}
    impl Sealed for crate::size::Dyn {}
    impl<Tag> Sealed for crate::symbol::Sym<'_, Tag> {}
    impl<A, B> Sealed for crate::sum::Plus<A, B> {}
    impl Sealed for typenum::UTerm {}
    impl<U, B> Sealed for typenum::UInt<U, B> {}
    impl<const N: usize> Sealed for crate::size::Sz<N> {}
    impl Sealed for crate::shape::Nil {}
    impl<N, S, T> Sealed for crate::shape::Ax<N, S, T> {}
}

/// The type of a shape: `Name: size` per axis, outermost first.
///
/// A size is any integer literal (written [`Sz<N>`](Sz) up to [`SZ_MAX`],
/// which compile errors print as the number, and a typenum number bit by bit
/// past it, so there is no upper limit), `Dyn` for a size known at run time,
/// or a type (a symbol [`Sym`], a generic size parameter). An entry without a name is an anonymous axis,
/// `Anon<position>`. A last entry `..S` appends the shape `S`.
///
/// ```
/// use axial_shape::{Shape, axes, shape};
/// axes!(Batch, Channels);
/// type Images = shape![Batch: Dyn, Channels: 3, 28, 28];
/// let mut sizes = [None; 4];
/// Images::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [None, Some(3), Some(28), Some(28)]);
/// type Big = shape![Channels: 100000];
/// assert_eq!(<Big as Shape>::RANK, 1);
/// ```
#[macro_export]
macro_rules! shape {
    ($($tokens:tt)*) => { $crate::__private::shape_impl!{ [$crate] $($tokens)* } };
}

/// The type of a list of names, for `align_to`, `permute` and
/// `refine_names`: axis names, `...` (the axes not named, in order),
/// `New<Name>` (a new axis of size 1) and `_` (keep the axis as it is).
///
/// ```
/// use axial_shape::{axes, names};
/// axes!(N, C, H, W);
/// type Order = names![W, ..., N];
/// type WithNew = names![N, New<H>, C];
/// ```
#[macro_export]
macro_rules! names {
    ($($tokens:tt)*) => { $crate::__private::names_impl!{ [$crate] $($tokens)* } };
}

/// Declares axis names: one zero-sized marker type per name, `pub` unless a
/// visibility is given, with the attributes written before it.
///
/// ```
/// use axial_shape::{AxisName, axes};
/// axes!(Batch, pub(crate) Channels, /** Image rows. */ Rows);
/// assert_eq!(Channels::NAME, Some("Channels"));
/// ```
#[macro_export]
macro_rules! axes {
    ($($tokens:tt)*) => { $crate::__private::axes_impl!{ [$crate] $($tokens)* } };
}

#[doc(hidden)]
pub mod __private {
    /// `Self`, whatever the constant: carries a macro's `compile_error!`.
    pub trait Ignore<const E: usize> {
        type Out;
    }
    impl<T, const E: usize> Ignore<E> for T {
        type Out = T;
    }

    pub use crate::id::{Named, Nd};
    pub use crate::logic::{False, True};
    pub use crate::name::{Anon, AxisName, Ellipsis, Keep, New};
    pub use crate::shape::{Ax, Cons, Nil};
    pub use crate::size::{Dyn, Sz};
    pub use axial_macros::{axes as axes_impl, names as names_impl, shape as shape_impl};
    pub use typenum::{B0, B1, UInt, UTerm, consts};
}
