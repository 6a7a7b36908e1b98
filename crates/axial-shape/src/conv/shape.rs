//! The bundles the window ops' methods name: [`ConvShape`], [`ConvTShape`],
//! [`PoolShape`], [`AdaptiveShape`] and [`GlobalShape`], each proving its
//! op by the axes' names and giving the output's shape and the axes'
//! positions.

use super::len::{Shown, Windowed};
use super::report::{Groups, GroupsDivide, InChannels, PoolPadding};
use super::rules::{AxisRule, ConvRule, Pool, PoolRule};
use crate::einops::SizeDiv;
use crate::find::{Append, Concat, Find};
use crate::logic::{Answer, TruthOf};
use crate::ops::{Disp, FAfter, FBefore, FName, HasAxis};
use crate::shape::{Ax, Nil, Shape};
use crate::size::{Size, SizeEq, SizeMul, SizeProd, StaticSize, Sz};

/// `Self` with the size of its axis `A` made `Z` (name and position kept).
///
/// ```
/// use axial_shape::conv::SetSize;
/// use axial_shape::{Shape, axes, shape};
/// axes!(C, H);
/// type S = <shape![C: 3, H: 8] as SetSize<H, axial_shape::Sz<4>>>::Out;
/// let mut sizes = [None; 2];
/// S::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(3), Some(4)]);
/// ```
pub trait SetSize<A, Z> {
    /// The shape.
    type Out;
}
impl<S, A, Z> SetSize<A, Z> for S
where
    S: Shape + Find<A, Disp<S>>,
    FBefore<S, A>: Append<Ax<FName<S, A>, Z, FAfter<S, A>>>,
{
    type Out = Concat<FBefore<S, A>, Ax<FName<S, A>, Z, FAfter<S, A>>>;
}

/// `Self` without its axis `A`.
pub trait Without<A> {
    /// The shape.
    type Out;
}
impl<S, A> Without<A> for S
where
    S: Shape + Find<A, Disp<S>>,
    FBefore<S, A>: Append<FAfter<S, A>>,
{
    type Out = Concat<FBefore<S, A>, FAfter<S, A>>;
}

/// The size of axis `A` of `S`.
type SizeOf<S, A> = <S as HasAxis<A>>::Size;
/// The rule of spatial axis `I`.
type RuleOf<R, const I: usize> = <R as AxisRule<I>>::Rule;

/// `S` convolved over its channel axis `C` and spatial axes `Sp` (`(L,)`,
/// `(H, W)` or `(D, H, W)`, found by name in any order and layout) by a
/// weight of shape `W` (`[out, in / groups, kernel...]`, PyTorch's; its
/// axes' names are free) under the rule `R`. The output is `S` with the
/// channel axis of the weight's `out` size and each spatial axis of its
/// output length. The in-channels times the groups are the input's
/// channels and the groups divide `out` ([`InChannels`],
/// [`GroupsDivide`]); each kernel fits its padded axis.
///
/// # Example
/// ```
/// use axial_shape::conv::{Conv, ConvShape};
/// use axial_shape::{Shape, axes, shape};
/// axes!(N, H, W, C);
/// // An NHWC batch through a 3×3 convolution, stride 2, padding 1.
/// type Out = <shape![N: 8, H: 224, W: 224, C: 3] as ConvShape<C, (H, W), shape![32, 3, 3, 3], Conv<2, 1>>>::Output;
/// let mut sizes = [None; 4];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(8), Some(112), Some(112), Some(32)]);
/// ```
pub trait ConvShape<C, Sp, W, R>: Shape {
    /// The output's shape.
    type Output: Shape;
    /// The bias's shape: `[out]`.
    type Bias: Shape;
    /// The channel axis's position.
    const CHANNEL: usize;
    /// The spatial axes' positions, outermost first.
    fn spatial() -> Vec<usize>;
}

/// [`ConvShape`] for a transposed convolution: the weight is `[in, out /
/// groups, kernel...]`, its `in` the input's channels, the output's
/// channels `out`.
///
/// ```
/// use axial_shape::conv::{ConvT, ConvTShape};
/// use axial_shape::{Shape, axes, shape};
/// axes!(C, L);
/// type Out = <shape![C: 4, L: 5] as ConvTShape<C, (L,), shape![4, 2, 3], ConvT<2, 1, 1>>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(10)]);
/// ```
pub trait ConvTShape<C, Sp, W, R>: Shape {
    /// The output's shape.
    type Output: Shape;
    /// The bias's shape: `[out]`.
    type Bias: Shape;
    /// The channel axis's position.
    const CHANNEL: usize;
    /// The spatial axes' positions, outermost first.
    fn spatial() -> Vec<usize>;
}

/// `S` pooled over the axes `Sp` under the rule `R` ([`Pool`], or a tuple
/// of one per axis): each pooled axis of its output length, the others
/// kept.
///
/// ```
/// use axial_shape::conv::{Pool, PoolShape};
/// use axial_shape::{Shape, axes, shape};
/// axes!(N, C, H, W);
/// type Out = <shape![N: 1, C: 64, H: 112, W: 112] as PoolShape<(H, W), Pool<3, 2, 1>>>::Output;
/// let mut sizes = [None; 4];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(1), Some(64), Some(56), Some(56)]);
/// ```
pub trait PoolShape<Sp, R>: Shape {
    /// The output's shape.
    type Output: Shape;
    /// The pooled axes' positions, outermost first.
    fn spatial() -> Vec<usize>;
}

/// `S` pooled adaptively over the axes `Sp` to the static sizes `Out` (a
/// tuple of `Sz<N>`).
///
/// ```
/// use axial_shape::conv::AdaptiveShape;
/// use axial_shape::{Shape, Sz, axes, shape};
/// axes!(C, H, W);
/// type Out = <shape![C: 8, H: 13, W: 9] as AdaptiveShape<(H, W), (Sz<7>, Sz<7>)>>::Output;
/// let mut sizes = [None; 3];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(8), Some(7), Some(7)]);
/// ```
pub trait AdaptiveShape<Sp, Out>: Shape {
    /// The output's shape.
    type Output: Shape;
    /// The pooled axes' positions, outermost first.
    fn spatial() -> Vec<usize>;
    /// The output sizes.
    fn sizes() -> Vec<usize>;
}

/// `S` pooled over the whole of the axes `Sp`, which leave the shape.
///
/// ```
/// use axial_shape::conv::GlobalShape;
/// use axial_shape::{Shape, axes, shape};
/// axes!(N, C, H, W);
/// type Out = <shape![N: 2, C: 1280, H: 7, W: 7] as GlobalShape<(H, W)>>::Output;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(1280)]);
/// ```
pub trait GlobalShape<Sp>: Shape {
    /// The output's shape.
    type Output: Shape;
    /// The pooled axes' positions, outermost first.
    fn spatial() -> Vec<usize>;
}

/// A pooling rule pads at most half its window (dilated or not), checked
/// while compiling.
pub trait PadsHalf<A> {}
impl<A, const K: usize, const S: usize, const P: usize, const D: usize, const C: bool> PadsHalf<A> for Pool<K, S, P, D, C>
where
    Sz<K>: StaticSize,
    Sz<P>: StaticSize,
    Sz<D>: StaticSize,
    <Sz<P> as StaticSize>::Number: core::ops::Add<<Sz<P> as StaticSize>::Number>,
    typenum::Sum<<Sz<P> as StaticSize>::Number, <Sz<P> as StaticSize>::Number>: core::ops::Add<<Sz<D> as StaticSize>::Number>
        + typenum::IsLessOrEqual<<Sz<K> as StaticSize>::Number, Output: Answer>,
    <Sz<D> as StaticSize>::Number: core::ops::Mul<<Sz<K> as StaticSize>::Number>,
    typenum::Prod<<Sz<D> as StaticSize>::Number, <Sz<K> as StaticSize>::Number>: core::ops::Add<typenum::B1>,
    typenum::Sum<typenum::Sum<<Sz<P> as StaticSize>::Number, <Sz<P> as StaticSize>::Number>, <Sz<D> as StaticSize>::Number>:
        typenum::IsLessOrEqual<typenum::Add1<typenum::Prod<<Sz<D> as StaticSize>::Number, <Sz<K> as StaticSize>::Number>>, Output: Answer>,
    TruthOf<
        <typenum::Sum<typenum::Sum<<Sz<P> as StaticSize>::Number, <Sz<P> as StaticSize>::Number>, <Sz<D> as StaticSize>::Number> as typenum::IsLessOrEqual<
            typenum::Add1<typenum::Prod<<Sz<D> as StaticSize>::Number, <Sz<K> as StaticSize>::Number>>,
        >>::Output,
    >: crate::logic::AndWith<
        TruthOf<<typenum::Sum<<Sz<P> as StaticSize>::Number, <Sz<P> as StaticSize>::Number> as typenum::IsLessOrEqual<<Sz<K> as StaticSize>::Number>>::Output>,
    >,
    crate::logic::And<
        TruthOf<
            <typenum::Sum<typenum::Sum<<Sz<P> as StaticSize>::Number, <Sz<P> as StaticSize>::Number>, <Sz<D> as StaticSize>::Number> as typenum::IsLessOrEqual<
                typenum::Add1<typenum::Prod<<Sz<D> as StaticSize>::Number, <Sz<K> as StaticSize>::Number>>,
            >>::Output,
        >,
        TruthOf<<typenum::Sum<<Sz<P> as StaticSize>::Number, <Sz<P> as StaticSize>::Number> as typenum::IsLessOrEqual<<Sz<K> as StaticSize>::Number>>::Output>,
    >: PoolPadding<A, Self>,
{
}

/// The convolution bundle for one arity: `$h` the spatial axes, `$n`/`$k`
/// the weight's kernel axes and sizes, `$i` the rule indices.
macro_rules! conv_shapes {
    ($(($($h:ident $n:ident $k:ident $i:tt),+)),+) => {$(
        impl<S, C, O, OS, I, IS, R, $($h, $n, $k),+> ConvShape<C, ($($h,)+), Ax<O, OS, Ax<I, IS, conv_shapes!(@kernel $($n $k),+)>>, R> for S
        where
            S: Shape + HasAxis<C> + Find<C, Disp<S>> $(+ HasAxis<$h> + Find<$h, Disp<S>>)+,
            R: ConvRule $(+ AxisRule<$i>)+,
            IS: Size + SizeMul<R::Groups>,
            OS: Size + SizeDiv<R::Groups>,
            SizeProd<IS, R::Groups>: SizeEq<SizeOf<S, C>>,
            <SizeProd<IS, R::Groups> as SizeEq<SizeOf<S, C>>>::Out:
                InChannels<Shown<SizeOf<S, C>, FName<S, C>>, Shown<IS, I>, Shown<R::Groups, Groups>>,
            <OS as SizeDiv<R::Groups>>::Divides: GroupsDivide<Shown<OS, O>, Shown<R::Groups, Groups>>,
            $(SizeOf<S, $h>: Windowed<RuleOf<R, $i>, $k, FName<S, $h>>,)+
            Ax<O, OS, Nil>: Shape,
            S: Chain<C, OS, ($(($h, <SizeOf<S, $h> as Windowed<RuleOf<R, $i>, $k, FName<S, $h>>>::Out),)+)>,
        {
            type Output = <S as Chain<C, OS, ($(($h, <SizeOf<S, $h> as Windowed<RuleOf<R, $i>, $k, FName<S, $h>>>::Out),)+)>>::Out;
            type Bias = Ax<O, OS, Nil>;
            const CHANNEL: usize = <S as HasAxis<C>>::POS;
            fn spatial() -> Vec<usize> {
                vec![$(<S as HasAxis<$h>>::POS),+]
            }
        }

        impl<S, C, O, OS, I, IS, R, $($h, $n, $k),+> ConvTShape<C, ($($h,)+), Ax<I, IS, Ax<O, OS, conv_shapes!(@kernel $($n $k),+)>>, R> for S
        where
            S: Shape + HasAxis<C> + Find<C, Disp<S>> $(+ HasAxis<$h> + Find<$h, Disp<S>>)+,
            R: ConvRule $(+ AxisRule<$i>)+,
            IS: Size + SizeEq<SizeOf<S, C>> + SizeDiv<R::Groups>,
            OS: Size + SizeMul<R::Groups>,
            <IS as SizeEq<SizeOf<S, C>>>::Out: InChannels<Shown<SizeOf<S, C>, FName<S, C>>, Shown<IS, I>, Shown<Sz<1>, Groups>>,
            <IS as SizeDiv<R::Groups>>::Divides: GroupsDivide<Shown<IS, I>, Shown<R::Groups, Groups>>,
            $(SizeOf<S, $h>: Windowed<RuleOf<R, $i>, $k, FName<S, $h>>,)+
            Ax<O, SizeProd<OS, R::Groups>, Nil>: Shape,
            S: Chain<C, SizeProd<OS, R::Groups>, ($(($h, <SizeOf<S, $h> as Windowed<RuleOf<R, $i>, $k, FName<S, $h>>>::Out),)+)>,
        {
            type Output = <S as Chain<C, SizeProd<OS, R::Groups>, ($(($h, <SizeOf<S, $h> as Windowed<RuleOf<R, $i>, $k, FName<S, $h>>>::Out),)+)>>::Out;
            type Bias = Ax<O, SizeProd<OS, R::Groups>, Nil>;
            const CHANNEL: usize = <S as HasAxis<C>>::POS;
            fn spatial() -> Vec<usize> {
                vec![$(<S as HasAxis<$h>>::POS),+]
            }
        }

        impl<S, R, $($h),+> PoolShape<($($h,)+), R> for S
        where
            S: Shape $(+ HasAxis<$h> + Find<$h, Disp<S>>)+,
            R: PoolRule $(+ AxisRule<$i>)+,
            $(RuleOf<R, $i>: PadsHalf<Shown<SizeOf<S, $h>, FName<S, $h>>>,)+
            $(SizeOf<S, $h>: Windowed<RuleOf<R, $i>, (), FName<S, $h>>,)+
            S: Chain<(), (), ($(($h, <SizeOf<S, $h> as Windowed<RuleOf<R, $i>, (), FName<S, $h>>>::Out),)+)>,
        {
            type Output = <S as Chain<(), (), ($(($h, <SizeOf<S, $h> as Windowed<RuleOf<R, $i>, (), FName<S, $h>>>::Out),)+)>>::Out;
            fn spatial() -> Vec<usize> {
                vec![$(<S as HasAxis<$h>>::POS),+]
            }
        }

        impl<S, $($h, $k),+> AdaptiveShape<($($h,)+), ($($k,)+)> for S
        where
            S: Shape $(+ HasAxis<$h>)+,
            $($k: StaticSize,)+
            S: Chain<(), (), ($(($h, $k),)+)>,
        {
            type Output = <S as Chain<(), (), ($(($h, $k),)+)>>::Out;
            fn spatial() -> Vec<usize> {
                vec![$(<S as HasAxis<$h>>::POS),+]
            }
            fn sizes() -> Vec<usize> {
                vec![$(<$k as Size>::STATIC.unwrap_or(0)),+]
            }
        }

        impl<S, $($h),+> GlobalShape<($($h,)+)> for S
        where
            S: Shape $(+ HasAxis<$h>)+,
            S: Drop<($($h,)+)>,
        {
            type Output = <S as Drop<($($h,)+)>>::Out;
            fn spatial() -> Vec<usize> {
                vec![$(<S as HasAxis<$h>>::POS),+]
            }
        }
    )+};
    (@kernel $n:ident $k:ident) => { Ax<$n, $k, Nil> };
    (@kernel $n:ident $k:ident, $($rest:tt)+) => { Ax<$n, $k, conv_shapes!(@kernel $($rest)+)> };
}

/// Sets the channel axis `C` to size `Z` (skipped when `C` is `()`), then
/// each `(axis, size)` of the list.
pub trait Chain<C, Z, List> {
    /// The shape.
    type Out: Shape;
}
impl<S: Shape> Chain<(), (), ()> for S {
    type Out = S;
}
macro_rules! chains {
    ($(($($a:ident $z:ident),*)),*) => {$(
        impl<S, A0, Z0, $($a, $z),*> Chain<(), (), ((A0, Z0), $(($a, $z),)*)> for S
        where
            S: SetSize<A0, Z0>,
            <S as SetSize<A0, Z0>>::Out: Chain<(), (), ($(($a, $z),)*)>,
        {
            type Out = <<S as SetSize<A0, Z0>>::Out as Chain<(), (), ($(($a, $z),)*)>>::Out;
        }
    )*};
}
chains!((), (A1 Z1), (A1 Z1, A2 Z2));
impl<S, C, Z, List> Chain<C, Z, List> for S
where
    C: crate::name::AxisName,
    S: SetSize<C, Z>,
    <S as SetSize<C, Z>>::Out: Chain<(), (), List>,
{
    type Out = <<S as SetSize<C, Z>>::Out as Chain<(), (), List>>::Out;
}

/// Drops each axis of the list.
pub trait Drop<List> {
    /// The shape.
    type Out: Shape;
}
impl<S: Shape> Drop<()> for S {
    type Out = S;
}
macro_rules! drops {
    ($(($($a:ident),*)),*) => {$(
        impl<S, A0, $($a),*> Drop<(A0, $($a,)*)> for S
        where
            S: Without<A0>,
            <S as Without<A0>>::Out: Drop<($($a,)*)>,
        {
            type Out = <<S as Without<A0>>::Out as Drop<($($a,)*)>>::Out;
        }
    )*};
}
drops!((), (A1), (A1, A2));

conv_shapes!((H0 N0 K0 0), (H0 N0 K0 0, H1 N1 K1 1), (H0 N0 K0 0, H1 N1 K1 1, H2 N2 K2 2));
