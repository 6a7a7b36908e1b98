//! A window's hyper-parameters as types, so that output lengths are
//! computed while compiling: [`Conv`], [`Same`], [`TfSame`] and [`ConvT`]
//! for convolutions, [`Pool`] for pooling, one value for every spatial
//! axis, or a tuple of rules with one per axis.

use core::marker::PhantomData;

use crate::size::Sz;

/// How a spatial axis is padded, as the run-time op takes it.
///
/// ```
/// use axial_shape::conv::AxisPad;
/// assert_ne!(AxisPad::Both(1), AxisPad::Same);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AxisPad {
    /// This many before and after.
    Both(usize),
    /// PyTorch's `'same'`: `dilation·(kernel − 1)` in all, half before.
    Same,
    /// TensorFlow's `SAME`: what makes the output `⌈n / stride⌉` long,
    /// half before (the odd one after).
    TfSame,
}

/// One spatial axis of a window, as the run-time op takes it.
///
/// ```
/// use axial_shape::conv::{AxisPad, ConvRule, Conv};
/// let w = <Conv<2, 1> as ConvRule>::axis(0);
/// assert_eq!((w.stride, w.pad, w.dilation), (2, AxisPad::Both(1), 1));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AxisWindow {
    /// The step between windows.
    pub stride: usize,
    /// The step between a window's taps.
    pub dilation: usize,
    /// The padding.
    pub pad: AxisPad,
    /// Extra outputs after the last (transposed convolutions).
    pub output_padding: usize,
    /// The window's size (pooling; a convolution's is the weight's).
    pub kernel: usize,
}

/// What a convolution's padding holds.
///
/// ```
/// use axial_shape::conv::{Conv, ConvRule, Mode};
/// assert_eq!(<Conv as ConvRule>::MODE, Mode::Zeros);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Zeros.
    Zeros,
    /// The input mirrored at its edges.
    Reflect,
    /// The edge repeated.
    Replicate,
    /// The input repeated periodically.
    Circular,
}

/// A convolution's hyper-parameters: its groups, and the rule of each
/// spatial axis (what [`AxisRule`] gives the compiler).
///
/// ```
/// use axial_shape::conv::{ConvRule, Conv, Same};
/// assert_eq!(<Conv<1, 0, 1, 32> as ConvRule>::GROUPS, 32);
/// assert_eq!(<Same as ConvRule>::GROUPS, 1);
/// ```
pub trait ConvRule: Copy {
    /// The number of groups.
    const GROUPS: usize;
    /// The groups as a size.
    type Groups: crate::StaticSize;
    /// What the padding holds.
    const MODE: Mode = Mode::Zeros;
    /// Spatial axis `i`'s window at run time.
    fn axis(i: usize) -> AxisWindow;
}

/// A pooling's hyper-parameters: the rule of each pooled axis.
///
/// ```
/// use axial_shape::conv::{Pool, PoolRule};
/// let w = <Pool<3, 2, 1> as PoolRule>::axis(0);
/// assert_eq!((w.kernel, w.stride), (3, 2));
/// assert!(!<Pool<2> as PoolRule>::CEIL);
/// ```
pub trait PoolRule: Copy {
    /// `ceil_mode`.
    const CEIL: bool;
    /// Pooled axis `i`'s window at run time.
    fn axis(i: usize) -> AxisWindow;
}

/// The rule of spatial axis `I` of a rule (itself for a rule of every axis,
/// the `I`-th of a tuple of rules).
///
/// ```
/// use axial_shape::conv::{AxisRule, Pool};
/// fn same<A: 'static, B: 'static>() -> bool { core::any::TypeId::of::<A>() == core::any::TypeId::of::<B>() }
/// assert!(same::<<(Pool<3>, Pool<1>) as AxisRule<1>>::Rule, Pool<1>>());
/// assert!(same::<<Pool<3> as AxisRule<2>>::Rule, Pool<3>>());
/// ```
pub trait AxisRule<const I: usize> {
    /// The axis's rule.
    type Rule;
}

/// A convolution of stride `STRIDE`, `PAD` zeros on both sides of each
/// spatial axis, dilation `DIL` and `GROUPS` groups (PyTorch's defaults:
/// `Conv` is stride 1, no padding, dilation 1, one group). Each output
/// length is `(n + 2·PAD − DIL·(k − 1) − 1) / STRIDE + 1`, computed while
/// compiling for static sizes.
///
/// ```
/// use axial_shape::conv::{Conv, ConvRule};
/// let stem = Conv::<2, 1>; // stride 2, padding 1
/// let depthwise = Conv::<1, 1, 1, 32>;
/// assert_eq!(<Conv<1, 1, 1, 32> as ConvRule>::GROUPS, 32);
/// # let _ = (stem, depthwise);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Conv<
    const STRIDE: usize = 1,
    const PAD: usize = 0,
    const DIL: usize = 1,
    const GROUPS: usize = 1,
>;

/// PyTorch's `padding='same'` (stride 1, dilation 1, one group): every
/// output as long as its input, `k − 1` padding in all, half before.
///
/// ```
/// use axial_shape::conv::{AxisPad, ConvRule, Same};
/// assert_eq!(<Same as ConvRule>::axis(0).pad, AxisPad::Same);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Same;

/// [`Same`] with dilation `DIL` and `GROUPS` groups: `DIL·(k − 1)` padding
/// in all.
///
/// ```
/// use axial_shape::conv::{ConvRule, SameWith};
/// let depthwise = SameWith::<1, 32>;
/// assert_eq!(<SameWith<2> as ConvRule>::axis(0).dilation, 2);
/// # let _ = depthwise;
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SameWith<const DIL: usize, const GROUPS: usize = 1>;

/// TensorFlow's `SAME` padding at any stride: each output `⌈n / STRIDE⌉`
/// long, padded by what that needs, half before and the odd one after
/// (what EfficientNet's `Conv2dStaticSamePadding` writes with `F.pad`).
///
/// ```
/// use axial_shape::conv::{AxisPad, ConvRule, TfSame};
/// assert_eq!(<TfSame<2> as ConvRule>::axis(1).pad, AxisPad::TfSame);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TfSame<const STRIDE: usize = 1, const DIL: usize = 1, const GROUPS: usize = 1>;

/// A transposed convolution: each output
/// `(n − 1)·STRIDE − 2·PAD + DIL·(k − 1) + OUT_PAD + 1` long.
///
/// ```
/// use axial_shape::conv::{ConvRule, ConvT};
/// assert_eq!(<ConvT<2, 1, 1> as ConvRule>::axis(0).output_padding, 1);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConvT<
    const STRIDE: usize = 1,
    const PAD: usize = 0,
    const OUT_PAD: usize = 0,
    const DIL: usize = 1,
    const GROUPS: usize = 1,
>;

/// A pooling window of `K`, stride `STRIDE` (the window's size unless
/// given), `PAD` on both sides, dilation `DIL`, and `CEIL` for
/// `ceil_mode` (PyTorch's rule: a last window must start inside the input
/// or its left padding).
///
/// ```
/// use axial_shape::conv::{Pool, PoolRule};
/// let resnet = Pool::<3, 2, 1>; // ResNet's stem max pooling
/// assert_eq!(<Pool<2> as PoolRule>::axis(0).stride, 2);
/// assert!(<Pool<3, 2, 0, 1, true> as PoolRule>::CEIL);
/// # let _ = resnet;
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool<
    const K: usize,
    const STRIDE: usize = K,
    const PAD: usize = 0,
    const DIL: usize = 1,
    const CEIL: bool = false,
>;

/// A convolution rule whose padding holds the mode `M` instead of zeros
/// (`nn.Conv2d`'s `padding_mode`); made by [`Conv::reflect`] and its
/// siblings.
///
/// ```
/// use axial_shape::conv::{Conv, ConvRule, Mode};
/// let r = Conv::<1, 1>.reflect();
/// assert_eq!(<Conv<1, 1> as ConvRule>::MODE, Mode::Zeros);
/// fn mode<R: ConvRule>(_: R) -> Mode { R::MODE }
/// assert_eq!(mode(r), Mode::Reflect);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Padded<R, const M: u8>(PhantomData<R>);

const fn mode_of(m: u8) -> Mode {
    match m {
        1 => Mode::Reflect,
        2 => Mode::Replicate,
        3 => Mode::Circular,
        _ => Mode::Zeros,
    }
}

macro_rules! with_modes {
    ($($t:ident < $(const $p:ident),* >),*) => {$(
        impl<$(const $p: usize),*> $t<$($p),*> {
            /// This rule with the input mirrored into the padding.
            pub fn reflect(self) -> Padded<Self, 1> {
                Padded(PhantomData)
            }
            /// This rule with the edge repeated into the padding.
            pub fn replicate(self) -> Padded<Self, 2> {
                Padded(PhantomData)
            }
            /// This rule with the input repeated periodically into the padding.
            pub fn circular(self) -> Padded<Self, 3> {
                Padded(PhantomData)
            }
        }
    )*};
}
with_modes!(Conv<const STRIDE, const PAD, const DIL, const GROUPS>, SameWith<const DIL, const GROUPS>, TfSame<const STRIDE, const DIL, const GROUPS>);

impl Same {
    /// This rule with the input mirrored into the padding.
    pub fn reflect(self) -> Padded<Self, 1> {
        Padded(PhantomData)
    }
    /// This rule with the edge repeated into the padding.
    pub fn replicate(self) -> Padded<Self, 2> {
        Padded(PhantomData)
    }
    /// This rule with the input repeated periodically into the padding.
    pub fn circular(self) -> Padded<Self, 3> {
        Padded(PhantomData)
    }
}

impl<R: ConvRule, const M: u8> ConvRule for Padded<R, M> {
    const GROUPS: usize = R::GROUPS;
    type Groups = R::Groups;
    const MODE: Mode = mode_of(M);
    fn axis(i: usize) -> AxisWindow {
        R::axis(i)
    }
}
impl<R: AxisRule<I>, const M: u8, const I: usize> AxisRule<I> for Padded<R, M> {
    type Rule = R::Rule;
}

const fn window(
    stride: usize,
    dilation: usize,
    pad: AxisPad,
    output_padding: usize,
    kernel: usize,
) -> AxisWindow {
    AxisWindow {
        stride,
        dilation,
        pad,
        output_padding,
        kernel,
    }
}

impl<const S: usize, const P: usize, const D: usize, const G: usize> ConvRule for Conv<S, P, D, G>
where
    Sz<G>: crate::StaticSize,
{
    const GROUPS: usize = G;
    type Groups = Sz<G>;
    fn axis(_: usize) -> AxisWindow {
        window(S, D, AxisPad::Both(P), 0, 0)
    }
}
impl ConvRule for Same {
    const GROUPS: usize = 1;
    type Groups = Sz<1>;
    fn axis(_: usize) -> AxisWindow {
        window(1, 1, AxisPad::Same, 0, 0)
    }
}
impl<const D: usize, const G: usize> ConvRule for SameWith<D, G>
where
    Sz<G>: crate::StaticSize,
{
    const GROUPS: usize = G;
    type Groups = Sz<G>;
    fn axis(_: usize) -> AxisWindow {
        window(1, D, AxisPad::Same, 0, 0)
    }
}
impl<const S: usize, const D: usize, const G: usize> ConvRule for TfSame<S, D, G>
where
    Sz<G>: crate::StaticSize,
{
    const GROUPS: usize = G;
    type Groups = Sz<G>;
    fn axis(_: usize) -> AxisWindow {
        window(S, D, AxisPad::TfSame, 0, 0)
    }
}
impl<const S: usize, const P: usize, const OP: usize, const D: usize, const G: usize> ConvRule
    for ConvT<S, P, OP, D, G>
where
    Sz<G>: crate::StaticSize,
{
    const GROUPS: usize = G;
    type Groups = Sz<G>;
    fn axis(_: usize) -> AxisWindow {
        window(S, D, AxisPad::Both(P), OP, 0)
    }
}
impl<const K: usize, const S: usize, const P: usize, const D: usize, const C: bool> PoolRule
    for Pool<K, S, P, D, C>
{
    const CEIL: bool = C;
    fn axis(_: usize) -> AxisWindow {
        window(S, D, AxisPad::Both(P), 0, K)
    }
}

macro_rules! every_axis {
    ($($t:ident < $(const $p:ident : $k:ty),* >),*) => {$(
        impl<$(const $p: $k,)* const I: usize> AxisRule<I> for $t<$($p),*> {
            type Rule = Self;
        }
    )*};
}
every_axis!(
    Conv<const S: usize, const P: usize, const D: usize, const G: usize>,
    SameWith<const D: usize, const G: usize>,
    TfSame<const S: usize, const D: usize, const G: usize>,
    ConvT<const S: usize, const P: usize, const OP: usize, const D: usize, const G: usize>,
    Pool<const K: usize, const S: usize, const P: usize, const D: usize, const C: bool>
);

impl<const I: usize> AxisRule<I> for Same {
    type Rule = Self;
}

/// Tuples of rules: one per axis (a convolution's groups and padding mode
/// are its first rule's).
macro_rules! tuple_rules {
    ($(($($r:ident $i:tt),+)),+) => {$(
        impl<$($r: ConvRule),+> ConvRule for ($($r,)+) {
            const GROUPS: usize = R0::GROUPS;
            type Groups = R0::Groups;
            const MODE: Mode = R0::MODE;
            fn axis(i: usize) -> AxisWindow {
                match i {
                    $($i => $r::axis($i),)+
                    _ => R0::axis(i),
                }
            }
        }
        impl<$($r: PoolRule),+> PoolRule for ($($r,)+) {
            const CEIL: bool = R0::CEIL;
            fn axis(i: usize) -> AxisWindow {
                match i {
                    $($i => $r::axis($i),)+
                    _ => R0::axis(i),
                }
            }
        }
    )+};
}
tuple_rules!((R0 0), (R0 0, R1 1), (R0 0, R1 1, R2 2));

impl<R0> AxisRule<0> for (R0,) {
    type Rule = R0;
}
impl<R0, R1> AxisRule<0> for (R0, R1) {
    type Rule = R0;
}
impl<R0, R1> AxisRule<1> for (R0, R1) {
    type Rule = R1;
}
impl<R0, R1, R2> AxisRule<0> for (R0, R1, R2) {
    type Rule = R0;
}
impl<R0, R1, R2> AxisRule<1> for (R0, R1, R2) {
    type Rule = R1;
}
impl<R0, R1, R2> AxisRule<2> for (R0, R1, R2) {
    type Rule = R2;
}
