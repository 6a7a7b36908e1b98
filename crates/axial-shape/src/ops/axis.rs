//! Views of one axis found by name: `select`, `narrow`, `slice`, `squeeze`,
//! `unsqueeze`, `into_dyn`.

use core::ops::Sub;

use typenum::{Const, IsLess, IsLessOrEqual, ToUInt, U, U1, UInt, UTerm};

use super::{Disp, FAfter, FBefore, FName, FSize};
use crate::find::{Append, Concat, Contains, Find};
use crate::logic::{Answer, Truth, TruthOf, Unknown};
use crate::name::AxisName;
use crate::report::{Fresh, InRange, InsertPosition, SizeOne};
use crate::shape::{Ax, Nil, Shape};
use crate::size::{Dyn, Size, SizeEq, StaticSize, Sz};

/// The shape has an axis `A`: its position, size, and the shapes `select`
/// (`A` removed) and `narrow` (`A`'s size made `Dyn`) give.
///
/// # Example
/// ```
/// use axial_shape::{HasAxis, Shape, axes, shape};
/// axes!(Batch, Channels);
/// type S = shape![Batch: 2, Channels: 3];
/// assert_eq!(<S as HasAxis<Channels>>::POS, 1);
/// assert_eq!(<<S as HasAxis<Channels>>::Without as Shape>::RANK, 1);
/// ```
pub trait HasAxis<A>: Shape {
    /// The position, outermost 0.
    const POS: usize;
    /// The size.
    type Size: Size;
    /// The shape without `A` (`select`).
    type Without: Shape;
    /// The shape with `A`'s size made `Dyn` (`narrow`, `slice`, `into_dyn`).
    type Resized: Shape;
}

impl<S, A> HasAxis<A> for S
where
    S: Shape + Find<A, Disp<S>>,
    FSize<S, A>: Size,
    FBefore<S, A>: Append<FAfter<S, A>> + Append<Ax<FName<S, A>, Dyn, FAfter<S, A>>>,
    Concat<FBefore<S, A>, FAfter<S, A>>: Shape,
    Concat<FBefore<S, A>, Ax<FName<S, A>, Dyn, FAfter<S, A>>>: Shape,
{
    const POS: usize = <S as Find<A, Disp<S>>>::POS;
    type Size = FSize<S, A>;
    type Without = Concat<FBefore<S, A>, FAfter<S, A>>;
    type Resized = Concat<FBefore<S, A>, Ax<FName<S, A>, Dyn, FAfter<S, A>>>;
}

/// `into_dyn::<A>()`: the shape with `A`'s size made `Dyn`.
///
/// ```
/// use axial_shape::{IntoDyn, Shape, axes, shape};
/// axes!(Rows, Cols);
/// fn loosened<S: IntoDyn<A>, A>() -> [Option<usize>; 2] {
///     let mut sizes = [None; 2];
///     <S::Resized as Shape>::write_static_sizes(&mut sizes);
///     sizes
/// }
/// assert_eq!(loosened::<shape![Rows: 2, Cols: 3], Cols>(), [Some(2), None]);
/// ```
pub trait IntoDyn<A>: HasAxis<A> {}
impl<S: HasAxis<A>, A> IntoDyn<A> for S {}

/// `at::<A, I>()`: a literal index `I` proved inside `A` (checked at run time
/// when `A` is `Dyn`).
///
/// ```
/// use axial_shape::{SelectAt, axes, shape};
/// axes!(Rows);
/// fn ok<S: SelectAt<Rows, 2>>() {}
/// ok::<shape![Rows: 3]>();
/// ```
pub trait SelectAt<A, const I: usize>: HasAxis<A> {}

impl<S: HasAxis<A>, A, const I: usize> SelectAt<A, I> for S
where
    S::Size: IndexBelow<I>,
    <S::Size as IndexBelow<I>>::Out: InRange<I, A, Disp<S>>,
{
}

/// Whether index `I` is below a size (`Unknown` for `Dyn`).
pub trait IndexBelow<const I: usize> {
    /// The answer.
    type Out: Truth;
}
impl<const I: usize> IndexBelow<I> for Dyn {
    type Out = Unknown;
}
impl<Z: StaticSize, const I: usize> IndexBelow<I> for Z
where
    Sz<I>: StaticSize<Number: IsLess<Z::Number, Output: Answer>>,
{
    type Out = TruthOf<<<Sz<I> as StaticSize>::Number as IsLess<Z::Number>>::Output>;
}

/// `squeeze::<A>()`: `A` has size 1 (checked at run time when `Dyn`).
///
/// ```
/// use axial_shape::{Squeeze, axes, shape};
/// axes!(One, Rows);
/// fn ok<S: Squeeze<One>>() {}
/// ok::<shape![One: 1, Rows: 3]>();
/// ```
pub trait Squeeze<A>: HasAxis<A> {}

impl<S: HasAxis<A>, A> Squeeze<A> for S
where
    S::Size: SizeEq<U1>,
    <S::Size as SizeEq<U1>>::Out: SizeOne<A, Disp<S>>,
{
}

/// `unsqueeze::<A, AT>()`: a new axis `A` of size 1 at position `AT`.
///
/// ```
/// use axial_shape::{Shape, Unsqueeze, axes, shape};
/// axes!(Rows, Cols, Heads);
/// type S = <shape![Rows: 3, Cols: 4] as Unsqueeze<Heads, 1>>::Output;
/// let mut names = [None; 3];
/// S::write_names(&mut names);
/// assert_eq!(names, [Some("Rows"), Some("Heads"), Some("Cols")]);
/// ```
pub trait Unsqueeze<A, const AT: usize>: Shape {
    /// The shape with the new axis.
    type Output: Shape;
}

impl<S: Shape, A: AxisName, const AT: usize> Unsqueeze<A, AT> for S
where
    S: Contains<A> + InsertAt<U<AT>, A>,
    <S as Contains<A>>::Out: Fresh<A, Disp<S>>,
    Const<AT>: ToUInt,
    U<AT>: IsLessOrEqual<S::Rank>,
    <U<AT> as IsLessOrEqual<S::Rank>>::Output: Answer,
    TruthOf<<U<AT> as IsLessOrEqual<S::Rank>>::Output>: InsertPosition<AT, Disp<S>>,
    <S as InsertAt<U<AT>, A>>::Out: Shape,
{
    type Output = <S as InsertAt<U<AT>, A>>::Out;
}

/// Inserts `A` of size 1 at typenum position `P` (past the end: at the end;
/// the position is checked separately).
pub trait InsertAt<P, A> {
    /// The shape with `A`.
    type Out;
}
impl<S, A> InsertAt<UTerm, A> for S {
    type Out = Ax<A, Sz<1>, S>;
}
impl<P, B, A> InsertAt<UInt<P, B>, A> for Nil {
    type Out = Ax<A, Sz<1>, Nil>;
}
impl<N, Sz, T, P, B, A> InsertAt<UInt<P, B>, A> for Ax<N, Sz, T>
where
    UInt<P, B>: Sub<typenum::B1>,
    T: InsertAt<<UInt<P, B> as Sub<typenum::B1>>::Output, A>,
{
    type Out = Ax<N, Sz, <T as InsertAt<<UInt<P, B> as Sub<typenum::B1>>::Output, A>>::Out>;
}
