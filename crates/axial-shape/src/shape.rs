//! A shape is a type-level list of axes, `Ax<Name, Size, Tail>` ending in
//! [`Nil`]: no rank ceiling, one impl per idea.

use core::marker::PhantomData;
use core::ops::Add;

use generic_array::ArrayLength;
use typenum::{Add1, B1, U0, Unsigned};

use crate::display::Flat;
use crate::name::AxisName;
use crate::size::{Size, SizeMul, SizeProd, Sz};

/// Holds type parameters without owning values of them (always `Send`,
/// `Sync` and `'static` when they are).
pub(crate) type Marker<T> = PhantomData<fn() -> T>;

/// One axis, `Name` of `Size`, in front of the shape `Tail`. Written with
/// `shape!`.
///
/// ```
/// use axial_shape::{Ax, Dyn, Nil, Shape, axes, shape};
/// axes!(Batch, Channels);
/// type S = shape![Batch: Dyn, Channels: 3];
/// assert_eq!(S::RANK, 2);
/// let _: Option<Ax<Batch, Dyn, Ax<Channels, axial_shape::Sz<3>, Nil>>> = None::<S>;
/// ```
pub struct Ax<Name, Sz, Tail>(Marker<(Name, Sz, Tail)>);

/// The end of a shape or of a names list (the shape of a 0-dim tensor).
///
/// ```
/// use axial_shape::{Nil, Shape};
/// assert_eq!(Nil::RANK, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Nil;

/// A list of names (for `align_to`, `permute`, `refine_names`): `Head` in
/// front of `Tail`. Written with `names!`.
///
/// ```
/// use axial_shape::{Cons, Nil, axes, names};
/// axes!(Rows, Cols);
/// fn same<T>(_: Option<T>, _: Option<T>) {}
/// same(None::<names![Cols, Rows]>, None::<Cons<Cols, Cons<Rows, Nil>>>);
/// ```
pub struct Cons<Head, Tail>(Marker<(Head, Tail)>);

/// A tensor's shape: its axes' names and sizes, its rank and how it prints in
/// messages.
///
/// # Example
/// ```
/// use axial_shape::{Shape, axes, shape};
/// axes!(Rows, Cols);
/// type S = shape![Rows: 3, Cols: Dyn];
/// let mut names = [None; 2];
/// S::write_names(&mut names);
/// assert_eq!(names, [Some("Rows"), Some("Cols")]);
/// let mut sizes = [None; 2];
/// S::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), None]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a shape",
    note = "write shapes with `shape![Name: size, ...]`"
)]
pub trait Shape: crate::sealed::Sealed {
    /// The number of axes, as a typenum number.
    type Rank: ArrayLength;
    /// The names as a flat tuple, `(Batch, Channels)`: what messages print.
    type Display;
    /// The number of elements: static when every size is, else `Dyn`.
    type Numel: Size;
    /// The number of `Dyn` axes.
    type NumDyn: Unsigned;
    /// The number of axes.
    const RANK: usize;

    /// Writes each axis' name (`None` when anonymous) into `out`, outermost first.
    fn write_names(out: &mut [Option<&'static str>]);

    /// Writes each axis' static size (`None` for `Dyn` and symbols) into `out`.
    fn write_static_sizes(out: &mut [Option<usize>]);

    /// Writes each axis' symbol name (`None` unless its size is a
    /// [`Sym`](crate::Sym)) into `out`.
    fn write_symbols(out: &mut [Option<&'static str>]);
}

impl Shape for Nil {
    type Rank = U0;
    type Display = ();
    type Numel = Sz<1>;
    type NumDyn = U0;
    const RANK: usize = 0;

    fn write_names(_: &mut [Option<&'static str>]) {}

    fn write_static_sizes(_: &mut [Option<usize>]) {}

    fn write_symbols(_: &mut [Option<&'static str>]) {}
}

impl<N: AxisName, Sz: Size, T: Shape> Shape for Ax<N, Sz, T>
where
    T::Rank: Add<B1>,
    Add1<T::Rank>: ArrayLength,
    Self: Flat,
    Sz: SizeMul<T::Numel>,
    T::NumDyn: Add<Sz::IsDyn>,
    <T::NumDyn as Add<Sz::IsDyn>>::Output: Unsigned,
{
    type Rank = Add1<T::Rank>;
    type Display = <Self as Flat>::Out;
    type Numel = SizeProd<Sz, T::Numel>;
    type NumDyn = <T::NumDyn as Add<Sz::IsDyn>>::Output;
    const RANK: usize = T::RANK + 1;

    fn write_names(out: &mut [Option<&'static str>]) {
        if let Some((first, rest)) = out.split_first_mut() {
            *first = N::NAME;
            T::write_names(rest);
        }
    }

    fn write_static_sizes(out: &mut [Option<usize>]) {
        if let Some((first, rest)) = out.split_first_mut() {
            *first = Sz::STATIC;
            T::write_static_sizes(rest);
        }
    }

    fn write_symbols(out: &mut [Option<&'static str>]) {
        if let Some((first, rest)) = out.split_first_mut() {
            *first = Sz::SYMBOL;
            T::write_symbols(rest);
        }
    }
}

/// The display of a shape (a flat tuple of its axes, `[Name; size]` or
/// `(Name, Dyn)`) or of a names list (a flat tuple of its names).
///
/// ```
/// use axial_shape::{DisplayOf, Dyn, axes, names, shape};
/// axes!(Batch, Rows);
/// let shape: DisplayOf<shape![Batch: 2, Rows: Dyn]> = ([Batch, Batch], (Rows, Dyn));
/// let _list: DisplayOf<names![Rows, Batch]> = (Rows, Batch);
/// assert!(std::any::type_name_of_val(&shape).contains("Batch; 2]"));
/// ```
pub type DisplayOf<S> = <S as Flat>::Out;
