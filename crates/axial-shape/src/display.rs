//! How shapes print in compile errors: a flat tuple of the axis names,
//! `(Batch, Channels)`, never the typenum spelling of a size
//! (rust-lang/rust#72839). Lists longer than twelve print the first twelve
//! and then `MoreAxes`: only messages are shortened, no op has a rank ceiling.

use crate::shape::{Ax, Cons, Nil};

/// The flat tuple of the names of a shape or names list.
///
/// ```
/// use axial_shape::{DisplayOf, axes, shape};
/// axes!(Batch, Channels);
/// let _: Option<DisplayOf<shape![Batch: 2, Channels: 3]>> = None::<(Batch, Channels)>;
/// ```
pub trait Flat {
    /// The tuple.
    type Out;
}

macro_rules! ax_list {
    () => { Nil };
    ($a:ident $s:ident $(, $ra:ident $rs:ident)*) => { Ax<$a, $s, ax_list!($($ra $rs),*)> };
}

macro_rules! cons_list {
    () => { Nil };
    ($a:ident $(, $ra:ident)*) => { Cons<$a, cons_list!($($ra),*)> };
}

macro_rules! flat {
    ($($a:ident $s:ident),*) => {
        impl<$($a, $s),*> Flat for ax_list!($($a $s),*) {
            type Out = ($($a,)*);
        }
        impl<$($a),*> Flat for cons_list!($($a),*) {
            type Out = ($($a,)*);
        }
    };
}

impl Flat for Nil {
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

/// What messages print for the axes past the twelfth.
pub struct MoreAxes;

/// Past twelve axes: the first twelve, then `MoreAxes` (no recursion, so an
/// unknown list never sends the compiler looking for ever longer ones).
impl<
    A1,
    S1,
    A2,
    S2,
    A3,
    S3,
    A4,
    S4,
    A5,
    S5,
    A6,
    S6,
    A7,
    S7,
    A8,
    S8,
    A9,
    S9,
    A10,
    S10,
    A11,
    S11,
    A12,
    S12,
    A13,
    S13,
    T,
> Flat
    for Ax<
        A1,
        S1,
        Ax<
            A2,
            S2,
            Ax<
                A3,
                S3,
                Ax<
                    A4,
                    S4,
                    Ax<
                        A5,
                        S5,
                        Ax<
                            A6,
                            S6,
                            Ax<
                                A7,
                                S7,
                                Ax<
                                    A8,
                                    S8,
                                    Ax<
                                        A9,
                                        S9,
                                        Ax<A10, S10, Ax<A11, S11, Ax<A12, S12, Ax<A13, S13, T>>>>,
                                    >,
                                >,
                            >,
                        >,
                    >,
                >,
            >,
        >,
    >
{
    type Out = (A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, MoreAxes);
}

/// Past twelve names: the first twelve, then `MoreAxes`.
impl<A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, T> Flat
    for Cons<
        A1,
        Cons<
            A2,
            Cons<
                A3,
                Cons<
                    A4,
                    Cons<
                        A5,
                        Cons<
                            A6,
                            Cons<
                                A7,
                                Cons<A8, Cons<A9, Cons<A10, Cons<A11, Cons<A12, Cons<A13, T>>>>>>,
                            >,
                        >,
                    >,
                >,
            >,
        >,
    >
{
    type Out = (A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, MoreAxes);
}
