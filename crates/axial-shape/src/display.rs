//! How shapes print in compile errors: a flat tuple with one entry per axis,
//! its name and size, `([Batch; 4], [Channels; 3], (Seq, Dyn))`, never the
//! typenum spelling of a size (rust-lang/rust#72839). A names list prints as
//! the tuple of its names, `(Batch, Channels)`. Lists longer than twelve
//! print the first twelve and then `MoreAxes`: only messages are shortened,
//! no op has a rank ceiling.

use crate::shape::{Ax, Cons, Nil};
use crate::size::Size;

/// The flat tuple of a shape's axes (`[Name; size]`) or of a names list.
///
/// ```
/// use axial_shape::{DisplayOf, Dyn, axes, names, shape};
/// axes!(Batch, Channels);
/// let _: Option<DisplayOf<shape![Batch: Dyn, Channels: 3]>> = None::<((Batch, Dyn), [Channels; 3])>;
/// let _: Option<DisplayOf<names![Channels, Batch]>> = None::<(Channels, Batch)>;
/// ```
pub trait Flat {
    /// The tuple.
    type Out;
}

/// The flat tuple of a shape's axis names alone, `(Channels, Rows)`: what
/// the name of a merged axis, `Composed<(Channels, Rows)>`, is made of.
///
/// ```
/// use axial_shape::{FlatNames, axes, shape};
/// axes!(Batch, Channels);
/// let _: Option<<shape![Batch: 2, Channels: 3] as FlatNames>::Out> = None::<(Batch, Channels)>;
/// ```
pub trait FlatNames {
    /// The tuple.
    type Out;
}

/// `Ax<A1, S1, Ax<A2, S2, ... Tail>>`.
macro_rules! ax_list {
    ($tail:ty;) => { $tail };
    ($tail:ty; $a:ident $s:ident $(, $ra:ident $rs:ident)*) => {
        Ax<$a, $s, ax_list!($tail; $($ra $rs),*)>
    };
}

/// `Cons<A1, Cons<A2, ... Tail>>`.
macro_rules! cons_list {
    ($tail:ty;) => { $tail };
    ($tail:ty; $a:ident $(, $ra:ident)*) => { Cons<$a, cons_list!($tail; $($ra),*)> };
}

macro_rules! flat {
    ($($a:ident $s:ident),*) => {
        impl<$($a, $s: Size),*> Flat for ax_list!(Nil; $($a $s),*) {
            type Out = ($($s::Shown<$a>,)*);
        }
        impl<$($a, $s),*> FlatNames for ax_list!(Nil; $($a $s),*) {
            type Out = ($($a,)*);
        }
        impl<$($a),*> Flat for cons_list!(Nil; $($a),*) {
            type Out = ($($a,)*);
        }
    };
}

/// Past twelve axes or names: the first twelve, then `MoreAxes` (no
/// recursion, so an unknown list never sends the compiler looking for ever
/// longer ones).
macro_rules! flat_long {
    ($($a:ident $s:ident),*) => {
        impl<$($a, $s: Size,)* A13, S13, T> Flat for ax_list!(Ax<A13, S13, T>; $($a $s),*) {
            type Out = ($($s::Shown<$a>,)* MoreAxes);
        }
        impl<$($a, $s,)* A13, S13, T> FlatNames for ax_list!(Ax<A13, S13, T>; $($a $s),*) {
            type Out = ($($a,)* MoreAxes);
        }
        impl<$($a,)* A13, T> Flat for cons_list!(Cons<A13, T>; $($a),*) {
            type Out = ($($a,)* MoreAxes);
        }
    };
}

impl Flat for Nil {
    type Out = ();
}
impl FlatNames for Nil {
    type Out = ();
}
flat!(A1 S1);
flat!(A1 S1, A2 S2);
flat!(A1 S1, A2 S2, A3 S3);
flat!(A1 S1, A2 S2, A3 S3, A4 S4);
flat!(A1 S1, A2 S2, A3 S3, A4 S4, A5 S5);
flat!(A1 S1, A2 S2, A3 S3, A4 S4, A5 S5, A6 S6);
flat!(A1 S1, A2 S2, A3 S3, A4 S4, A5 S5, A6 S6, A7 S7);
flat!(A1 S1, A2 S2, A3 S3, A4 S4, A5 S5, A6 S6, A7 S7, A8 S8);
flat!(A1 S1, A2 S2, A3 S3, A4 S4, A5 S5, A6 S6, A7 S7, A8 S8, A9 S9);
flat!(A1 S1, A2 S2, A3 S3, A4 S4, A5 S5, A6 S6, A7 S7, A8 S8, A9 S9, A10 S10);
flat!(A1 S1, A2 S2, A3 S3, A4 S4, A5 S5, A6 S6, A7 S7, A8 S8, A9 S9, A10 S10, A11 S11);
flat!(A1 S1, A2 S2, A3 S3, A4 S4, A5 S5, A6 S6, A7 S7, A8 S8, A9 S9, A10 S10, A11 S11, A12 S12);
flat_long!(A1 S1, A2 S2, A3 S3, A4 S4, A5 S5, A6 S6, A7 S7, A8 S8, A9 S9, A10 S10, A11 S11, A12 S12);

/// What messages print for the axes past the twelfth.
pub struct MoreAxes;
