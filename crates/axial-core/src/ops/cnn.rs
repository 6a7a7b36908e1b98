//! The ops of convolutional networks as values of the table: a
//! convolution, max, average and adaptive average pooling, batch norm.
//! Their kernels are methods of [`Backend`](crate::Backend) with no
//! composite ([`Lowering::Kernel`]): [`Backend::conv`](crate::Backend::conv),
//! [`Backend::conv_transpose`](crate::Backend::conv_transpose),
//! [`Backend::pool`](crate::Backend::pool) and
//! [`Backend::channel_affine`](crate::Backend::channel_affine) (batch norm
//! in inference is that affine map per channel), whose parameters are the
//! values below ([`ConvArgs`], [`PoolArgs`], [`ChannelAffine`]); the CPU
//! and CUDA devices write them (adaptive pooling and the statistics of
//! training-mode norms are the CPU's alone). Their derivatives are written with forward ops in `autograd/cnn.rs` (a
//! transposed convolution, a convolution, a scatter-add, a product by an
//! averaging matrix) and keep what PyTorch's keep, which these values say.

use super::{Derivative, Keep, Lowering, Op, OpInfo, Saves};

/// `convolution(x, weight, bias, ...)` (PyTorch's `aten::convolution`,
/// not transposed): keeps the input and the weight for each other's
/// gradient, as `ConvolutionBackward0` does; the bias's gradient is a sum.
///
/// # Example
/// ```
/// use axial_core::ops::{Convolution, Derivative, Keep, Op};
/// let Derivative::Written(s) = Convolution.info().derivative else { unreachable!() };
/// assert_eq!(s.inputs, &[Keep::Always, Keep::Always, Keep::Never]);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Convolution;

impl Op for Convolution {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "convolution",
            lowering: Lowering::Kernel,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Always, Keep::Always, Keep::Never],
                output: false,
            }),
        }
    }
}

/// Max pooling: keeps its input and the indices of the maxima (an output),
/// as `MaxPool2DWithIndicesBackward0`; the gradient goes to those indices.
///
/// # Example
/// ```
/// use axial_core::ops::{Derivative, MaxPool, Op, Saves};
/// assert_eq!(MaxPool.info().derivative, Derivative::Written(Saves::BOTH));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MaxPool;

impl Op for MaxPool {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "max_pool",
            lowering: Lowering::Kernel,
            derivative: Derivative::Written(Saves::BOTH),
        }
    }
}

/// Average pooling: keeps its input (`AvgPool2DBackward0`).
///
/// # Example
/// ```
/// use axial_core::ops::{AvgPool, Derivative, Op, Saves};
/// assert_eq!(AvgPool.info().derivative, Derivative::Written(Saves::INPUT));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AvgPool;

impl Op for AvgPool {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "avg_pool",
            lowering: Lowering::Kernel,
            derivative: Derivative::Written(Saves::INPUT),
        }
    }
}

/// Adaptive average pooling: keeps its input
/// (`AdaptiveAvgPool2DBackward0`).
///
/// # Example
/// ```
/// use axial_core::ops::{AdaptiveAvgPool, Op};
/// assert_eq!(AdaptiveAvgPool.name(), "adaptive_avg_pool");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AdaptiveAvgPool;

impl Op for AdaptiveAvgPool {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "adaptive_avg_pool",
            lowering: Lowering::Kernel,
            derivative: Derivative::Written(Saves::INPUT),
        }
    }
}

/// Adaptive max pooling: keeps its input and the indices of the maxima
/// (an output), as `AdaptiveMaxPool2DBackward0`; the gradient goes to
/// those indices.
///
/// # Example
/// ```
/// use axial_core::ops::{AdaptiveMaxPool, Derivative, Op, Saves};
/// assert_eq!(AdaptiveMaxPool.info().derivative, Derivative::Written(Saves::BOTH));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AdaptiveMaxPool;

impl Op for AdaptiveMaxPool {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "adaptive_max_pool",
            lowering: Lowering::Kernel,
            derivative: Derivative::Written(Saves::BOTH),
        }
    }
}

/// Batch norm in training mode (batch statistics; the running ones
/// updated, not operands): keeps the input and the weight
/// (`NativeBatchNormBackward0`). In eval mode it is written with tracked
/// elementwise ops, each keeping what it keeps.
///
/// # Example
/// ```
/// use axial_core::ops::{BatchNorm, Derivative, Keep, Op};
/// let Derivative::Written(s) = BatchNorm.info().derivative else { unreachable!() };
/// assert!(s.keeps(1, &[false, true, true]) && !s.keeps(2, &[true, true, true]));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BatchNorm;

impl Op for BatchNorm {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "batch_norm",
            lowering: Lowering::Kernel,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Always, Keep::Always, Keep::Never],
                output: false,
            }),
        }
    }
}

/// The dims a kernel of this family reads in its canonical order: the batch
/// dims (every dim that is neither `channel` nor in `spatial`, outermost
/// first), then `channel` (when given), then `spatial`. A device that
/// wants `[batch, C, D, H, W]` operands permutes to this order.
///
/// # Example
/// ```
/// use axial_core::ops::canonical_order;
/// // NHWC: batch 0, channels 3, spatial 1 and 2.
/// assert_eq!(canonical_order(4, Some(3), &[1, 2]), vec![0, 3, 1, 2]);
/// ```
pub fn canonical_order(rank: usize, channel: Option<usize>, spatial: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rank)
        .filter(|&d| Some(d) != channel && !spatial.contains(&d))
        .collect();
    order.extend(channel);
    order.extend(spatial);
    order
}

/// The parameters of a convolution kernel ([`Backend::conv`](crate::Backend::conv)
/// and [`Backend::conv_transpose`](crate::Backend::conv_transpose)): where
/// the channel and spatial dims of the input and output are (any other dim
/// is a batch dim), and the window. The kernel sizes come from the weight
/// (`[out, in / groups, k...]`, or `[in, out / groups, k...]` transposed);
/// the padding after each dim is what the output's length implies.
///
/// # Example
/// ```
/// use axial_core::ops::ConvArgs;
/// // A 3×3 convolution of an NCHW tensor, stride 2, padding 1.
/// let a = ConvArgs::new(1, &[2, 3]).stride(&[2, 2]).pad(&[1, 1]);
/// assert_eq!((a.dilation.as_slice(), a.groups), (&[1, 1][..], 1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConvArgs {
    /// The channel dim of the input and the output.
    pub channel: usize,
    /// The spatial dims (one to three), outermost first.
    pub spatial: Vec<usize>,
    /// Stride per spatial dim.
    pub stride: Vec<usize>,
    /// Dilation per spatial dim.
    pub dilation: Vec<usize>,
    /// Zero padding before each spatial dim.
    pub pad: Vec<usize>,
    /// Groups: input and output channels split into this many.
    pub groups: usize,
    /// The output clamped to `[min, max]` as it is written (ReLU6 is
    /// `(0, 6)`), or left as computed (forward convolutions only).
    pub clamp: Option<(f64, f64)>,
}

impl ConvArgs {
    /// Stride, dilation 1, no padding, one group, no clamp.
    pub fn new(channel: usize, spatial: &[usize]) -> Self {
        let n = spatial.len();
        ConvArgs {
            channel,
            spatial: spatial.to_vec(),
            stride: vec![1; n],
            dilation: vec![1; n],
            pad: vec![0; n],
            groups: 1,
            clamp: None,
        }
    }

    /// With these strides.
    pub fn stride(mut self, stride: &[usize]) -> Self {
        self.stride = stride.to_vec();
        self
    }

    /// With this padding before each spatial dim.
    pub fn pad(mut self, pad: &[usize]) -> Self {
        self.pad = pad.to_vec();
        self
    }
}

/// What a pooling window computes.
///
/// # Example
/// ```
/// use axial_core::ops::PoolReduction;
/// let avg = PoolReduction::Avg { count_include_pad: true, divisor: None };
/// assert_ne!(avg, PoolReduction::Max);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PoolReduction {
    /// The largest element (NaN wins), and where it is (the flat index in
    /// its input plane, as PyTorch's indices).
    Max,
    /// The mean: divided by the window's size with its padding, or without
    /// it, or by a fixed divisor.
    Avg {
        /// The padding counts in the divisor.
        count_include_pad: bool,
        /// A fixed divisor.
        divisor: Option<usize>,
    },
}

/// The parameters of a pooling kernel ([`Backend::pool`](crate::Backend::pool)):
/// the channel dim (if any), the pooled dims and the window. The padding
/// before each dim is given (the output's length says how much after), and
/// a window that lies wholly in the padding after is not formed (PyTorch's
/// `ceil_mode` rule, applied by the caller when it sizes the output).
///
/// # Example
/// ```
/// use axial_core::ops::{PoolArgs, PoolReduction};
/// let p = PoolArgs::new(None, &[2, 3], &[3, 3], PoolReduction::Max);
/// assert_eq!(p.stride, vec![3, 3]); // the kernel's, as PyTorch's default
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PoolArgs {
    /// The channel dim, if any (others are batch dims alike).
    pub channel: Option<usize>,
    /// The pooled dims (one to three), outermost first.
    pub spatial: Vec<usize>,
    /// Window size per pooled dim.
    pub kernel: Vec<usize>,
    /// Stride per pooled dim.
    pub stride: Vec<usize>,
    /// Dilation per pooled dim.
    pub dilation: Vec<usize>,
    /// Padding before each pooled dim.
    pub pad: Vec<usize>,
    /// Max or average.
    pub reduction: PoolReduction,
}

impl PoolArgs {
    /// A window of `kernel`, stride `kernel`, no dilation or padding.
    pub fn new(
        channel: Option<usize>,
        spatial: &[usize],
        kernel: &[usize],
        reduction: PoolReduction,
    ) -> Self {
        PoolArgs {
            channel,
            spatial: spatial.to_vec(),
            kernel: kernel.to_vec(),
            stride: kernel.to_vec(),
            dilation: vec![1; kernel.len()],
            pad: vec![0; kernel.len()],
            reduction,
        }
    }
}

/// `y = x·scale[c] + shift[c]` per channel `c` of the dim `channel`
/// ([`Backend::channel_affine`](crate::Backend::channel_affine)): batch norm
/// in inference once its statistics are folded into one scale and shift
/// per channel, and the last step of group and instance norm (one scale and
/// shift per batch item and channel, items in the order of the batch dims).
///
/// # Example
/// ```
/// use axial_core::ops::ChannelAffine;
/// let a = ChannelAffine { channel: 1, spatial: vec![2, 3] };
/// assert_eq!(a.channel, 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelAffine {
    /// The channel dim.
    pub channel: usize,
    /// The dims that are positions of a channel's plane (the rest, other
    /// than `channel`, are batch items).
    pub spatial: Vec<usize>,
}
