//! The compile errors of the window ops: each trait is a leaf implemented
//! only for the answer that is fine ([`True`], or [`Unknown`] when a `Dyn`
//! size leaves the check to run time), so a wrong program stops at one of
//! them with a sentence naming the axes and their sizes.

use crate::logic::{True, Unknown};

/// How a kernel's size prints in messages: `[Kernel; 3]`.
#[derive(Copy, Clone, Debug, Default)]
pub struct Kernel;

/// How a convolution's groups print in messages: `[Groups; 32]`.
#[derive(Copy, Clone, Debug, Default)]
pub struct Groups;

/// The kernel fits in the padded axis (`Self` is whether it does).
///
/// ```
/// use axial_shape::conv::{Conv, ConvShape};
/// use axial_shape::{axes, shape};
/// axes!(C, H, W);
/// fn ok<S: ConvShape<C, (H, W), Wt, R>, Wt, R>() {}
/// ok::<shape![C: 1, H: 3, W: 3], shape![4, 1, 3, 3], Conv>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the kernel `{Kernel}` does not fit in the axis `{Axis}` padded by `{Rule}`",
    label = "kernel larger than the padded axis",
    note = "PyTorch: \"Kernel size can't be greater than actual input size\"; pad the axis (`Conv<STRIDE, PAD>`, `Same`) or use a smaller kernel"
)]
pub trait KernelFits<Axis, Kernel, Rule> {}
#[diagnostic::do_not_recommend]
impl<Axis, Kernel, Rule> KernelFits<Axis, Kernel, Rule> for True {}

/// A transposed convolution's output has a length of at least 0.
///
/// ```
/// use axial_shape::conv::{ConvT, ConvTShape};
/// use axial_shape::{axes, shape};
/// axes!(C, L);
/// fn ok<S: ConvTShape<C, (L,), Wt, R>, Wt, R>() {}
/// ok::<shape![C: 2, L: 4], shape![2, 3, 3], ConvT<2, 1>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the transposed convolution of the axis `{Axis}` by the kernel `{Kernel}` under `{Rule}` has a negative length",
    label = "output size is too small",
    note = "the padding trims more than the kernel adds"
)]
pub trait TransposedFits<Axis, Kernel, Rule> {}
#[diagnostic::do_not_recommend]
impl<Axis, Kernel, Rule> TransposedFits<Axis, Kernel, Rule> for True {}

/// A pooling window fits at least once in the axis.
///
/// ```
/// use axial_shape::conv::{Pool, PoolShape};
/// use axial_shape::{axes, shape};
/// axes!(H, W);
/// fn ok<S: PoolShape<(H, W), R>, R>() {}
/// ok::<shape![H: 4, W: 4], Pool<2>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the pooling window `{Rule}` does not fit in the axis `{Axis}`",
    label = "output size is too small",
    note = "PyTorch: \"Output size is too small\"; pad the axis, use a smaller window, or `ceil_mode` (`Pool<K, STRIDE, PAD, DIL, true>`)"
)]
pub trait PoolFits<Axis, Rule> {}
#[diagnostic::do_not_recommend]
impl<Axis, Rule> PoolFits<Axis, Rule> for True {}

/// A pooling pads at most half its window (dilated, and undilated for
/// max pooling).
///
/// ```
/// use axial_shape::conv::{Pool, PoolShape};
/// use axial_shape::{axes, shape};
/// axes!(H);
/// fn ok<S: PoolShape<(H,), R>, R>() {}
/// ok::<shape![H: 8], Pool<3, 2, 1>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the pooling window `{Rule}` pads the axis `{Axis}` by more than half the window",
    label = "padding larger than half the window",
    note = "PyTorch: \"pad should be at most half of effective kernel size\""
)]
pub trait PoolPadding<Axis, Rule> {}
#[diagnostic::do_not_recommend]
impl<Axis, Rule> PoolPadding<Axis, Rule> for True {}

/// The weight's in-channels times the groups are the input's channels.
///
/// ```
/// use axial_shape::conv::{Conv, ConvShape};
/// use axial_shape::{Dyn, axes, shape};
/// axes!(C, H);
/// fn ok<S: ConvShape<C, (H,), Wt, R>, Wt, R>() {}
/// ok::<shape![C: 6, H: 5], shape![4, 3, 1], Conv<1, 0, 1, 2>>();
/// ok::<shape![C: Dyn, H: 5], shape![4, 3, 1], Conv>(); // checked at run time
/// ```
#[diagnostic::on_unimplemented(
    message = "the weight's in-channels `{Weight}` times `{Groups}` are not the input's channels `{Input}`",
    label = "in-channels differ",
    note = "a convolution's weight is `[out, in / groups, kernel...]`, as PyTorch stores it"
)]
pub trait InChannels<Input, Weight, Groups> {}
#[diagnostic::do_not_recommend]
impl<Input, Weight, Groups> InChannels<Input, Weight, Groups> for True {}
#[diagnostic::do_not_recommend]
impl<Input, Weight, Groups> InChannels<Input, Weight, Groups> for Unknown {}

/// The groups divide the weight's out-channels.
///
/// ```
/// use axial_shape::conv::{Conv, ConvShape};
/// use axial_shape::{axes, shape};
/// axes!(C, H);
/// fn ok<S: ConvShape<C, (H,), Wt, R>, Wt, R>() {}
/// ok::<shape![C: 4, H: 5], shape![8, 1, 3], Conv<1, 0, 1, 4>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Groups}` do not divide the weight's out-channels `{Weight}`",
    label = "groups do not divide the out-channels",
    note = "PyTorch: \"expected weight to be divisible by groups at dimension 0\""
)]
pub trait GroupsDivide<Weight, Groups> {}
#[diagnostic::do_not_recommend]
impl<Weight, Groups> GroupsDivide<Weight, Groups> for True {}
#[diagnostic::do_not_recommend]
impl<Weight, Groups> GroupsDivide<Weight, Groups> for Unknown {}
