//! Joining along an axis and giving an axis a new size: `cat`, and the
//! shapes of the ops that keep an axis but change its length (`narrow`,
//! `pad`, `topk`, `stack`'s new axis).

use super::{Disp, FAfter, FBefore, FName};
use crate::find::{Append, Concat, Find};
use crate::logic::{B0, B1, Unknown};
use crate::name::SameName;
use crate::shape::{Ax, Nil, Shape};
use crate::size::{Size, SizeEq};
use crate::sum::{IsDyn, IsStatic, IsSymbolic, SizeAdd, SizeKind, SizeSum};

use super::{Distinct, HasAxis};

/// The shape with the axis `A`'s size made `Z` (its name and place kept):
/// what `narrow`, `pad` and `topk` give.
///
/// # Example
/// ```
/// use axial_shape::{ResizeAxis, Shape, Sz, axes, shape};
/// axes!(Rows, Cols);
/// type Out = <shape![Rows: 3, Cols: 4] as ResizeAxis<Cols, Sz<2>>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(2)]);
/// ```
pub trait ResizeAxis<A, Z>: HasAxis<A> {
    /// The shape with `A` of size `Z`.
    type Output: Shape;
}

/// The shape `resize` of `A` to `Z` gives on `S` (see [`ResizeAxis`]).
///
/// ```
/// use axial_shape::{Resized, Shape, Sz, axes, shape};
/// axes!(Rows, Cols);
/// assert_eq!(<Resized<shape![Rows: 3, Cols: 4], Rows, Sz<9>> as Shape>::RANK, 2);
/// ```
pub type Resized<S, A, Z> = <S as ResizeAxis<A, Z>>::Output;

impl<S, A, Z: Size> ResizeAxis<A, Z> for S
where
    S: HasAxis<A> + Find<A, Disp<S>>,
    FBefore<S, A>: Append<Ax<FName<S, A>, Z, FAfter<S, A>>>,
    Concat<FBefore<S, A>, Ax<FName<S, A>, Z, FAfter<S, A>>>: Shape,
{
    type Output = Concat<FBefore<S, A>, Ax<FName<S, A>, Z, FAfter<S, A>>>;
}

/// The shape with the axis `A` replaced by the axis `N` of size `Z`, at its
/// place: what `index_select` gives (the index's axis where the axis
/// selected along was). The result names each axis once.
///
/// ```
/// use axial_shape::{ReplaceAxis, Shape, Sz, axes, shape};
/// axes!(Vocab, Model, Token);
/// type Out = <shape![Vocab: 100, Model: 8] as ReplaceAxis<Vocab, Token, Sz<5>>>::Output;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("Token"), Some("Model")]);
/// ```
pub trait ReplaceAxis<A, N, Z>: HasAxis<A> {
    /// The shape with `N` of size `Z` in place of `A`.
    type Output: Shape;
}

impl<S, A, N, Z: Size> ReplaceAxis<A, N, Z> for S
where
    S: HasAxis<A> + Find<A, Disp<S>>,
    FBefore<S, A>: Append<Ax<N, Z, FAfter<S, A>>>,
    Concat<FBefore<S, A>, Ax<N, Z, FAfter<S, A>>>: Distinct,
{
    type Output = Concat<FBefore<S, A>, Ax<N, Z, FAfter<S, A>>>;
}

/// `cat::<A>(other)` of a tensor of this shape and one of shape `S2`: the
/// same axes in the same order, of equal sizes but along `A`, where the
/// sizes add ([`SizeSum`]: static, `Dyn`, or a sum with a symbol).
///
/// Sizes that are equal in the type are proven; a `Dyn` one is checked at
/// run time, and the result keeps the known side (the static size, or the
/// symbol, which the check proves the `Dyn` one equal to).
///
/// # Example
/// ```
/// use axial_shape::{CatWith, Shape, axes, shape};
/// axes!(Batch, Seq, Model);
/// type Out = <shape![Batch: 2, Seq: 3, Model: 4] as CatWith<shape![Batch: 2, Seq: 5, Model: 4], Seq>>::Output;
/// let mut sizes = [None; 3];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(8), Some(4)]);
/// assert_eq!(<shape![Batch: 2, Seq: 3, Model: 4] as CatWith<shape![Batch: 2, Seq: 5, Model: 4], Seq>>::POS, 1);
/// ```
pub trait CatWith<S2, A>: HasAxis<A> {
    /// The position of `A`.
    const POS: usize;
    /// The joined shape.
    type Output: Shape;
}

impl<S, S2, A> CatWith<S2, A> for S
where
    S: HasAxis<A> + CatZip<S2, A, Disp<S>, Disp<S2>>,
    S2: Shape,
    <S as CatZip<S2, A, Disp<S>, Disp<S2>>>::Out: Shape,
{
    const POS: usize = <S as HasAxis<A>>::POS;
    type Output = <S as CatZip<S2, A, Disp<S>, Disp<S2>>>::Out;
}

/// The pairwise walk of [`CatWith`]: `Left` and `Right` are what messages
/// print.
pub trait CatZip<S2, A, Left, Right> {
    /// The joined axes from here on.
    type Out;
}
// One impl per side, the other side taken apart by `Uncons`: an impl chosen
// by the other side's structure would let the compiler guess that side from
// the impl whose bounds can hold, before it reads the argument.
impl<S2: Uncons, A, Left, Right> CatZip<S2, A, Left, Right> for Nil
where
    S2::Kind: CatAfterNil<Left, Right>,
{
    type Out = Nil;
}
impl<N, Z, T, S2: Uncons, A, Left, Right> CatZip<S2, A, Left, Right> for Ax<N, Z, T>
where
    S2::Kind: CatAfterAx<N, Z, T, S2, A, Left, Right>,
{
    type Out = <S2::Kind as CatAfterAx<N, Z, T, S2, A, Left, Right>>::Out;
}

/// A shape taken apart: its first axis and the rest, or its end.
///
/// ```
/// use axial_shape::ops::join::{End, Node, Uncons};
/// use axial_shape::{Nil, Sz, axes, shape};
/// axes!(Rows);
/// let _: Option<<Nil as Uncons>::Kind> = None::<End>;
/// let _: Option<<shape![Rows: 2] as Uncons>::Kind> = None::<Node>;
/// let _: Option<<shape![Rows: 2] as Uncons>::Size> = None::<Sz<2>>;
/// ```
pub trait Uncons {
    /// [`End`] or [`Node`].
    type Kind;
    /// The first axis' name (`()` at the end).
    type Name;
    /// Its size (`()` at the end).
    type Size;
    /// The axes after it.
    type Tail;
}
/// [`Uncons::Kind`] of `Nil`.
pub struct End;
/// [`Uncons::Kind`] of an axis in front of a shape.
pub struct Node;
impl Uncons for Nil {
    type Kind = End;
    type Name = ();
    type Size = ();
    type Tail = Nil;
}
impl<N, Z, T> Uncons for Ax<N, Z, T> {
    type Kind = Node;
    type Name = N;
    type Size = Z;
    type Tail = T;
}

/// [`CatZip`] of the end of the left operand, by the right's kind.
pub trait CatAfterNil<Left, Right> {}
impl<Left, Right> CatAfterNil<Left, Right> for End {}
impl<Left, Right> CatAfterNil<Left, Right> for Node where CatLeftOver: CatRank<Left, Right> {}

/// [`CatZip`] of an axis `N` of size `Z` in front of `T`, by the right's kind.
pub trait CatAfterAx<N, Z, T, S2, A, Left, Right> {
    /// The joined axes from here on.
    type Out;
}
impl<N, Z, T, S2, A, Left, Right> CatAfterAx<N, Z, T, S2, A, Left, Right> for End
where
    CatLeftOver: CatRank<Left, Right>,
{
    type Out = Nil;
}
impl<N, Z, T, S2: Uncons, A, Left, Right> CatAfterAx<N, Z, T, S2, A, Left, Right> for Node
where
    N: SameName<S2::Name> + SameName<A>,
    <N as SameName<S2::Name>>::Out: CatNames<N, S2::Name, Left, Right>,
    <N as SameName<A>>::Out: CatSize<Z, S2::Size, N, A, Left, Right>,
    T: CatZip<S2::Tail, A, Left, Right>,
{
    type Out =
        Ax<N, <<N as SameName<A>>::Out as CatSize<Z, S2::Size, N, A, Left, Right>>::Out, T::Out>;
}

/// The size of one pair of axes in `cat` (`Self`: whether it is the axis
/// joined along).
pub trait CatSize<Z, Z2, N, A, Left, Right> {
    /// The joined size.
    type Out;
}
impl<Z: SizeAdd<Z2>, Z2, N, A, Left, Right> CatSize<Z, Z2, N, A, Left, Right> for B1 {
    type Out = SizeSum<Z, Z2>;
}
impl<Z, Z2, N, A, Left, Right> CatSize<Z, Z2, N, A, Left, Right> for B0
where
    Z: SizeEq<Z2> + Agree<Z2>,
    <Z as SizeEq<Z2>>::Out: CatSizes<N, A, Left, Right>,
{
    type Out = <Z as Agree<Z2>>::Out;
}

/// Of two sizes checked equal (at compile time or at run time), the one
/// the type knows best: a static size, else a symbolic one, else `Dyn`.
///
/// ```
/// use axial_shape::ops::join::Agree;
/// use axial_shape::{Dyn, Sz};
/// let _: Option<<Dyn as Agree<Sz<3>>>::Out> = None::<Sz<3>>;
/// let _: Option<<Sz<3> as Agree<Dyn>>::Out> = None::<Sz<3>>;
/// ```
pub trait Agree<Z2> {
    /// The size kept.
    type Out: Size;
}
impl<Z: SizeKind, Z2: SizeKind> Agree<Z2> for Z
where
    (Z::Kind, Z2::Kind): AgreeKinds<Z, Z2>,
{
    type Out = <(Z::Kind, Z2::Kind) as AgreeKinds<Z, Z2>>::Out;
}

/// [`Agree`] by the kinds of the two sizes.
pub trait AgreeKinds<Z, Z2> {
    /// The size kept.
    type Out: Size;
}
impl<Z: Size, Z2, K> AgreeKinds<Z, Z2> for (IsStatic, K) {
    type Out = Z;
}
impl<Z, Z2: Size> AgreeKinds<Z, Z2> for (IsDyn, IsStatic) {
    type Out = Z2;
}
impl<Z, Z2: Size> AgreeKinds<Z, Z2> for (IsSymbolic, IsStatic) {
    type Out = Z2;
}
impl<Z: Size, Z2> AgreeKinds<Z, Z2> for (IsSymbolic, IsSymbolic) {
    type Out = Z;
}
impl<Z: Size, Z2> AgreeKinds<Z, Z2> for (IsSymbolic, IsDyn) {
    type Out = Z;
}
impl<Z, Z2: Size> AgreeKinds<Z, Z2> for (IsDyn, IsSymbolic) {
    type Out = Z2;
}
impl<Z: Size, Z2> AgreeKinds<Z, Z2> for (IsDyn, IsDyn) {
    type Out = Z;
}

/// Axes one operand of `cat` has beyond the other.
pub struct CatLeftOver;

/// `cat` joins tensors of the same axes in the same order (`Self`: whether
/// this pair of axes has one name).
///
/// What [`CatWith`] asks of each pair of axes.
/// ```
/// use axial_shape::{CatWith, axes, shape};
/// axes!(Rows, Cols);
/// fn cat<S: CatWith<S2, A>, S2, A>() {}
/// cat::<shape![Rows: 2, Cols: 3], shape![Rows: 4, Cols: 3], Rows>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot cat `{Left}` and `{Right}`: axis `{Had}` meets `{Wanted}`",
    label = "the axes differ here",
    note = "`cat` joins tensors with the same axes in the same order; line them up first with `align_as` or `align_to` (views), or `rename` one"
)]
pub trait CatNames<Had, Wanted, Left, Right> {}
#[diagnostic::do_not_recommend]
impl<Had, Wanted, Left, Right> CatNames<Had, Wanted, Left, Right> for B1 {}

/// `cat` joins tensors whose other axes have equal sizes.
///
/// What [`CatWith`] asks of each axis but the one joined along: equal
/// sizes (`Unknown` with a `Dyn` one, checked at run time).
/// ```
/// use axial_shape::{CatWith, Dyn, axes, shape};
/// axes!(Rows, Cols);
/// fn cat<S: CatWith<S2, A>, S2, A>() {}
/// cat::<shape![Rows: 2, Cols: Dyn], shape![Rows: 4, Cols: 3], Rows>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot cat `{Left}` and `{Right}` along `{Along}`: their sizes of `{A}` differ",
    label = "`{A}` differs",
    note = "only the axis joined along may differ in size; a `Dyn` size would defer this check to run time"
)]
pub trait CatSizes<A, Along, Left, Right> {}
#[diagnostic::do_not_recommend]
impl<A, Along, Left, Right> CatSizes<A, Along, Left, Right> for B1 {}
#[diagnostic::do_not_recommend]
impl<A, Along, Left, Right> CatSizes<A, Along, Left, Right> for Unknown {}

/// `cat` joins tensors of one rank (`Self`: the axes left over).
///
/// Never implemented: reached only when one operand has axes the other
/// lacks, so a [`CatWith`] that holds joins tensors of one rank.
/// ```
/// use axial_shape::{CatWith, Shape, axes, shape};
/// axes!(Rows, Cols);
/// fn joined<S: CatWith<S2, A>, S2, A>() -> usize {
///     <S::Output as Shape>::RANK
/// }
/// assert_eq!(joined::<shape![Rows: 2, Cols: 3], shape![Rows: 1, Cols: 3], Rows>(), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot cat `{Left}` and `{Right}`: they have different numbers of axes",
    label = "ranks differ",
    note = "`cat` joins tensors with the same axes; `unsqueeze` adds an axis of size 1"
)]
pub trait CatRank<Left, Right> {}
