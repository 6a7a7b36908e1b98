//! Output lengths computed while compiling, one axis at a time: static
//! sizes give static lengths (typenum does the arithmetic, the result is
//! spelled `Sz<N>`), `Dyn` gives `Dyn`, and a symbol stays the same symbol
//! where the rule keeps the length (stride 1 and padding that offsets the
//! kernel) and becomes `Dyn` elsewhere. A window that cannot fit a static
//! axis is a compile error ([`report`](super::report)).

use core::ops::{Add, Div, Mul, Sub};

use typenum::{Add1, Diff, IsEqual, IsGreaterOrEqual, Prod, Quot, Sub1, Sum, U1};

use super::report::{Kernel, KernelFits, PoolFits, TransposedFits};
use super::rules::{Conv, ConvT, Pool, Same, SameWith, TfSame};
use crate::logic::{And, AndWith, Answer, False, True, Truth, TruthOf};
use crate::size::{Canon, Canonical, Dyn, Size, StaticSize, Sz};
use crate::symbol::{Sym, SymbolTag};

/// The typenum number of `N`.
type Num<const N: usize> = <Sz<N> as StaticSize>::Number;

/// `a ≥ b` as a truth.
type AtLeast<A, B> = TruthOf<<A as IsGreaterOrEqual<B>>::Output>;

/// `a = b` as a truth.
type Equal<A, B> = TruthOf<<A as IsEqual<B>>::Output>;

/// How an axis named `A` of size `Z` prints in a message: `[Rows; 5]`.
pub type Shown<Z, A> = <Z as Size>::Shown<A>;

/// The length of an axis of size `Self` (named `A`) after the window rule
/// `R` with a kernel of size `K` (a pooling rule's kernel is its own, `K`
/// is `()`).
///
/// ```
/// use axial_shape::conv::{Conv, Pool, Windowed};
/// use axial_shape::{Dyn, Size, Sz, axes};
/// axes!(Rows);
/// type Out = <Sz<224> as Windowed<Conv<2, 1>, Sz<3>, Rows>>::Out;
/// assert_eq!(<Out as Size>::STATIC, Some(112));
/// type Pooled = <Sz<112> as Windowed<Pool<3, 2, 1>, (), Rows>>::Out;
/// assert_eq!(<Pooled as Size>::STATIC, Some(56));
/// assert_eq!(<<Dyn as Windowed<Conv, Sz<3>, Rows>>::Out as Size>::STATIC, None);
/// ```
pub trait Windowed<R, K, A> {
    /// The output's length.
    type Out: Size;
}

impl<R, K, A> Windowed<R, K, A> for Dyn {
    type Out = Dyn;
}

impl<'id, Tag: SymbolTag, R: Keeps<K>, K, A> Windowed<R, K, A> for Sym<'id, Tag>
where
    R::Keeps: KeepSymbol<Sym<'id, Tag>>,
{
    type Out = <R::Keeps as KeepSymbol<Sym<'id, Tag>>>::Out;
}

impl<In: StaticSize, R: StaticLength<In, K, A>, K, A> Windowed<R, K, A> for In {
    type Out = R::Out;
}

/// The length under the rule `Self` of a static axis `In`.
pub trait StaticLength<In, K, A> {
    /// The output's length.
    type Out: Size;
}

/// Whether the rule `Self` keeps every length (so a symbolic length stays
/// itself).
pub trait Keeps<K> {
    /// `True` when it does.
    type Keeps;
}

/// A symbol kept (`True`) or forgotten to `Dyn` (`False`).
pub trait KeepSymbol<Z> {
    /// The output's length.
    type Out: Size;
}
impl<Z: Size> KeepSymbol<Z> for True {
    type Out = Z;
}
impl<Z> KeepSymbol<Z> for False {
    type Out = Dyn;
}

// ---- convolution ----

/// `(X − Y) / S + 1` when the window fits (`Self` is `True`), else a
/// placeholder behind the compile error.
pub trait Slid<X, Y, S> {
    /// The length.
    type Out: Size;
}
impl<X, Y, S> Slid<X, Y, S> for True
where
    X: Sub<Y>,
    Diff<X, Y>: Div<S>,
    Quot<Diff<X, Y>, S>: Add<typenum::B1>,
    Add1<Quot<Diff<X, Y>, S>>: Canonical<Out: Size>,
{
    type Out = Canon<Add1<Quot<Diff<X, Y>, S>>>;
}
impl<X, Y, S> Slid<X, Y, S> for False {
    type Out = Sz<0>;
}

/// A convolution's length with a kernel of size `Self` over a static axis
/// `In` padded by `Pad` in all, stride `S`, dilation `D`: with `X = In +
/// Pad + D` and `Y = D·K + 1`, `(X − Y) / S + 1` when `X ≥ Y`.
pub trait KernelLength<In, S, Pad, D, A, R> {
    /// The length.
    type Out: Size;
}
impl<In, S, Pad, D, A, R> KernelLength<In, S, Pad, D, A, R> for Dyn {
    type Out = Dyn;
}
/// `In + Pad + D`.
type Reach<In, Pad, D> = Sum<Sum<In, Pad>, D>;
/// `D·K + 1`.
type Extent<D, K> = Add1<Prod<D, K>>;
impl<K: StaticSize, In: StaticSize, S, Pad, D, A, R> KernelLength<In, S, Pad, D, A, R> for K
where
    In::Number: Add<Pad>,
    Sum<In::Number, Pad>: Add<D>,
    D: Mul<K::Number>,
    Prod<D, K::Number>: Add<typenum::B1>,
    Reach<In::Number, Pad, D>: IsGreaterOrEqual<Extent<D, K::Number>, Output: Answer>,
    AtLeast<Reach<In::Number, Pad, D>, Extent<D, K::Number>>: KernelFits<Shown<In, A>, Shown<K, Kernel>, R>
        + Slid<Reach<In::Number, Pad, D>, Extent<D, K::Number>, S>,
{
    type Out = <AtLeast<Reach<In::Number, Pad, D>, Extent<D, K::Number>> as Slid<
        Reach<In::Number, Pad, D>,
        Extent<D, K::Number>,
        S,
    >>::Out;
}

impl<In: StaticSize, K, A, const S: usize, const P: usize, const D: usize, const G: usize>
    StaticLength<In, K, A> for Conv<S, P, D, G>
where
    Sz<S>: StaticSize,
    Sz<P>: StaticSize,
    Sz<D>: StaticSize,
    Num<P>: Add<Num<P>>,
    K: KernelLength<In, Num<S>, Sum<Num<P>, Num<P>>, Num<D>, A, Self>,
{
    type Out = K::Out;
}

/// `S = 1` and `2·P + D = D·K`: every output as long as its input.
pub trait KeepsWith<S, TwoP, D> {
    /// The answer.
    type Keeps;
}
impl<S, TwoP, D> KeepsWith<S, TwoP, D> for Dyn {
    type Keeps = False;
}
impl<K: StaticSize, S, TwoP, D> KeepsWith<S, TwoP, D> for K
where
    S: IsEqual<U1, Output: Answer>,
    TwoP: Add<D>,
    D: Mul<K::Number>,
    Sum<TwoP, D>: IsEqual<Prod<D, K::Number>, Output: Answer>,
    Equal<S, U1>: AndWith<Equal<Sum<TwoP, D>, Prod<D, K::Number>>>,
{
    type Keeps = And<Equal<S, U1>, Equal<Sum<TwoP, D>, Prod<D, K::Number>>>;
}

impl<K, const S: usize, const P: usize, const D: usize, const G: usize> Keeps<K>
    for Conv<S, P, D, G>
where
    Sz<S>: StaticSize,
    Sz<P>: StaticSize,
    Sz<D>: StaticSize,
    Num<P>: Add<Num<P>>,
    K: KeepsWith<Num<S>, Sum<Num<P>, Num<P>>, Num<D>>,
{
    type Keeps = K::Keeps;
}

impl<In: StaticSize, K, A> StaticLength<In, K, A> for Same {
    type Out = In;
}
impl<K> Keeps<K> for Same {
    type Keeps = True;
}
impl<In: StaticSize, K, A, const D: usize, const G: usize> StaticLength<In, K, A>
    for SameWith<D, G>
{
    type Out = In;
}
impl<K, const D: usize, const G: usize> Keeps<K> for SameWith<D, G> {
    type Keeps = True;
}

impl<In: StaticSize, K, A, const S: usize, const D: usize, const G: usize> StaticLength<In, K, A>
    for TfSame<S, D, G>
where
    Sz<S>: StaticSize,
    Num<S>: Sub<typenum::B1>,
    In::Number: Add<Sub1<Num<S>>>,
    Sum<In::Number, Sub1<Num<S>>>: Div<Num<S>>,
    Quot<Sum<In::Number, Sub1<Num<S>>>, Num<S>>: Canonical<Out: Size>,
{
    type Out = Canon<Quot<Sum<In::Number, Sub1<Num<S>>>, Num<S>>>;
}
impl<K, const S: usize, const D: usize, const G: usize> Keeps<K> for TfSame<S, D, G>
where
    Sz<S>: StaticSize,
    Num<S>: IsEqual<U1, Output: Answer>,
{
    type Keeps = Equal<Num<S>, U1>;
}

// ---- transposed convolution ----

/// `X − Y` when `X ≥ Y` (`Self` is `True`).
pub trait Spread<X, Y> {
    /// The length.
    type Out: Size;
}
impl<X: Sub<Y>, Y> Spread<X, Y> for True
where
    Diff<X, Y>: Canonical<Out: Size>,
{
    type Out = Canon<Diff<X, Y>>;
}
impl<X, Y> Spread<X, Y> for False {
    type Out = Sz<0>;
}

/// `In·S + D·K + OP + 1`.
type Grown<In, S, D, K, OP> = Add1<Sum<Sum<Prod<In, S>, Prod<D, K>>, OP>>;
/// `S + 2·P + D`.
type Trimmed<S, TwoP, D> = Sum<Sum<S, TwoP>, D>;

/// A transposed convolution's length with a kernel of size `Self`:
/// `(In − 1)·S − 2·P + D·(K − 1) + OP + 1`, at least 0.
pub trait TransposedLength<In, S, TwoP, OP, D, A, R> {
    /// The length.
    type Out: Size;
}
impl<In, S, TwoP, OP, D, A, R> TransposedLength<In, S, TwoP, OP, D, A, R> for Dyn {
    type Out = Dyn;
}
impl<K: StaticSize, In: StaticSize, S, TwoP, OP, D, A, R> TransposedLength<In, S, TwoP, OP, D, A, R>
    for K
where
    In::Number: Mul<S>,
    D: Mul<K::Number>,
    Prod<In::Number, S>: Add<Prod<D, K::Number>>,
    Sum<Prod<In::Number, S>, Prod<D, K::Number>>: Add<OP>,
    Sum<Sum<Prod<In::Number, S>, Prod<D, K::Number>>, OP>: Add<typenum::B1>,
    S: Add<TwoP>,
    Sum<S, TwoP>: Add<D>,
    Grown<In::Number, S, D, K::Number, OP>: IsGreaterOrEqual<Trimmed<S, TwoP, D>, Output: Answer>,
    AtLeast<Grown<In::Number, S, D, K::Number, OP>, Trimmed<S, TwoP, D>>: TransposedFits<Shown<In, A>, Shown<K, Kernel>, R>
        + Spread<Grown<In::Number, S, D, K::Number, OP>, Trimmed<S, TwoP, D>>,
{
    type Out = <AtLeast<Grown<In::Number, S, D, K::Number, OP>, Trimmed<S, TwoP, D>> as Spread<
        Grown<In::Number, S, D, K::Number, OP>,
        Trimmed<S, TwoP, D>,
    >>::Out;
}

impl<
    In: StaticSize,
    K,
    A,
    const S: usize,
    const P: usize,
    const OP: usize,
    const D: usize,
    const G: usize,
> StaticLength<In, K, A> for ConvT<S, P, OP, D, G>
where
    Sz<S>: StaticSize,
    Sz<P>: StaticSize,
    Sz<OP>: StaticSize,
    Sz<D>: StaticSize,
    Num<P>: Add<Num<P>>,
    K: TransposedLength<In, Num<S>, Sum<Num<P>, Num<P>>, Num<OP>, Num<D>, A, Self>,
{
    type Out = K::Out;
}

/// `S = 1` and `D·K + OP = 2·P + D`.
pub trait KeepsTransposed<S, TwoP, OP, D> {
    /// The answer.
    type Keeps;
}
impl<S, TwoP, OP, D> KeepsTransposed<S, TwoP, OP, D> for Dyn {
    type Keeps = False;
}
impl<K: StaticSize, S, TwoP, OP, D> KeepsTransposed<S, TwoP, OP, D> for K
where
    S: IsEqual<U1, Output: Answer>,
    D: Mul<K::Number>,
    Prod<D, K::Number>: Add<OP>,
    TwoP: Add<D>,
    Sum<Prod<D, K::Number>, OP>: IsEqual<Sum<TwoP, D>, Output: Answer>,
    Equal<S, U1>: AndWith<Equal<Sum<Prod<D, K::Number>, OP>, Sum<TwoP, D>>>,
{
    type Keeps = And<Equal<S, U1>, Equal<Sum<Prod<D, K::Number>, OP>, Sum<TwoP, D>>>;
}
impl<K, const S: usize, const P: usize, const OP: usize, const D: usize, const G: usize> Keeps<K>
    for ConvT<S, P, OP, D, G>
where
    Sz<S>: StaticSize,
    Sz<P>: StaticSize,
    Sz<OP>: StaticSize,
    Sz<D>: StaticSize,
    Num<P>: Add<Num<P>>,
    K: KeepsTransposed<Num<S>, Sum<Num<P>, Num<P>>, Num<OP>, Num<D>>,
{
    type Keeps = K::Keeps;
}

// ---- pooling ----

/// Pooling's length: `q = (X − Y) / S`, then `q + 1`, or `q` in
/// `ceil_mode` (`Ceil`) when the last window would start in the right
/// padding (`q·S ≥ Edge`, with `Edge = In + P`). Implemented for the answer
/// of `X ≥ Y`: nothing is subtracted when the window does not fit, so that
/// [`PoolFits`] is the only error.
pub trait Pooled<X, Y, S, Ceil, Edge> {
    /// The length.
    type Out: Size;
}
impl<X, Y, S, Ceil, Edge> Pooled<X, Y, S, Ceil, Edge> for True
where
    X: Sub<Y>,
    Diff<X, Y>: Div<S>,
    Ceil: LastWindow<Steps<X, Y, S>, S, Edge>,
    <Ceil as LastWindow<Steps<X, Y, S>, S, Edge>>::Out: Dropped<Steps<X, Y, S>>,
{
    type Out = <<Ceil as LastWindow<Steps<X, Y, S>, S, Edge>>::Out as Dropped<Steps<X, Y, S>>>::Out;
}
impl<X, Y, S, Ceil, Edge> Pooled<X, Y, S, Ceil, Edge> for False {
    type Out = Sz<0>;
}

/// `Q` when the last window is dropped (`True`), else `Q + 1`.
pub trait Dropped<Q> {
    /// The length.
    type Out: Size;
}
impl<Q: Canonical<Out: Size>> Dropped<Q> for True {
    type Out = Canon<Q>;
}
impl<Q: Add<typenum::B1>> Dropped<Q> for False
where
    Add1<Q>: Canonical<Out: Size>,
{
    type Out = Canon<Add1<Q>>;
}

/// Whether `ceil_mode` drops the last window (never without it).
pub trait LastWindow<Q, S, Edge> {
    /// The answer.
    type Out: Truth;
}
impl<Q, S, Edge> LastWindow<Q, S, Edge> for False {
    type Out = False;
}
impl<Q: Mul<S>, S, Edge> LastWindow<Q, S, Edge> for True
where
    Prod<Q, S>: IsGreaterOrEqual<Edge, Output: Answer>,
{
    type Out = AtLeast<Prod<Q, S>, Edge>;
}

/// `true` and `false` as truths.
pub trait Flag {
    /// The truth.
    type Truth;
    /// `S − 1` when set, else 0.
    type Extra<S: Sub<typenum::B1>>;
}
/// A `bool` as a type.
pub struct Bool<const B: bool>;
impl Flag for Bool<true> {
    type Truth = True;
    type Extra<S: Sub<typenum::B1>> = Sub1<S>;
}
impl Flag for Bool<false> {
    type Truth = False;
    type Extra<S: Sub<typenum::B1>> = typenum::U0;
}

/// `In + 2P + D + (ceil ? S − 1 : 0)`.
type PoolReach<In, TwoP, D, C> = Sum<Sum<Sum<In, TwoP>, D>, C>;
/// `(X − Y) / S`.
type Steps<X, Y, S> = Quot<Diff<X, Y>, S>;

impl<
    In: StaticSize,
    A,
    const K: usize,
    const S: usize,
    const P: usize,
    const D: usize,
    const C: bool,
> StaticLength<In, (), A> for Pool<K, S, P, D, C>
where
    Sz<K>: StaticSize,
    Sz<S>: StaticSize,
    Sz<P>: StaticSize,
    Sz<D>: StaticSize,
    Bool<C>: Flag,
    Num<S>: Sub<typenum::B1>,
    Num<P>: Add<Num<P>>,
    In::Number: Add<Sum<Num<P>, Num<P>>> + Add<Num<P>>,
    Sum<In::Number, Sum<Num<P>, Num<P>>>: Add<Num<D>>,
    Sum<Sum<In::Number, Sum<Num<P>, Num<P>>>, Num<D>>: Add<<Bool<C> as Flag>::Extra<Num<S>>>,
    Num<D>: Mul<Num<K>>,
    Prod<Num<D>, Num<K>>: Add<typenum::B1>,
    PoolReach<In::Number, Sum<Num<P>, Num<P>>, Num<D>, <Bool<C> as Flag>::Extra<Num<S>>>:
        IsGreaterOrEqual<Extent<Num<D>, Num<K>>, Output: Answer>,
    AtLeast<
        PoolReach<In::Number, Sum<Num<P>, Num<P>>, Num<D>, <Bool<C> as Flag>::Extra<Num<S>>>,
        Extent<Num<D>, Num<K>>,
    >: PoolFits<Shown<In, A>, Self>
        + Pooled<
            PoolReach<In::Number, Sum<Num<P>, Num<P>>, Num<D>, <Bool<C> as Flag>::Extra<Num<S>>>,
            Extent<Num<D>, Num<K>>,
            Num<S>,
            <Bool<C> as Flag>::Truth,
            Sum<In::Number, Num<P>>,
        >,
{
    type Out = <AtLeast<
        PoolReach<In::Number, Sum<Num<P>, Num<P>>, Num<D>, <Bool<C> as Flag>::Extra<Num<S>>>,
        Extent<Num<D>, Num<K>>,
    > as Pooled<
        PoolReach<In::Number, Sum<Num<P>, Num<P>>, Num<D>, <Bool<C> as Flag>::Extra<Num<S>>>,
        Extent<Num<D>, Num<K>>,
        Num<S>,
        <Bool<C> as Flag>::Truth,
        Sum<In::Number, Num<P>>,
    >>::Out;
}

impl<const K: usize, const S: usize, const P: usize, const D: usize, const C: bool> Keeps<()>
    for Pool<K, S, P, D, C>
where
    Sz<K>: KeepsWith<Num<S>, Sum<Num<P>, Num<P>>, Num<D>>,
    Sz<S>: StaticSize,
    Sz<P>: StaticSize,
    Sz<D>: StaticSize,
    Num<P>: Add<Num<P>>,
{
    type Keeps = <Sz<K> as KeepsWith<Num<S>, Sum<Num<P>, Num<P>>, Num<D>>>::Keeps;
}
