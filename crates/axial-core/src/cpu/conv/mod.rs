//! Convolution, pooling and normalisation kernels of the CPU.
//!
//! One set of loops serves 1-, 2- and 3-d windows and every layout
//! ([`geometry`]): the channel and spatial dims are whichever dims the caller
//! names, read through their strides, so NCHW, NHWC and strided views need
//! no copy. Each convolution picks its algorithm by shape:
//!
//! - a depthwise convolution (one input channel per group) runs directly
//!   ([`depthwise`]), reading the input once: with channels innermost
//!   (NHWC) the channels are the vector lanes, else the output columns are;
//! - a 1×1 convolution with stride 1 and no padding is one matrix product
//!   per group over the input where it lies ([`forward`]);
//! - any other is `im2col` + a matrix product ([`im2col`], [`forward`]),
//!   in tiles of output positions, with the patch matrix laid out for the
//!   input's layout: rows of positions for NCHW, rows of channels for NHWC.
//!
//! The layout this library prefers is channels-last (NHWC): the reduction
//! of a convolution runs over input channels, and with the channels
//! innermost every tap of the kernel reads one contiguous run, a 1×1
//! convolution is a product of two row-major matrices, and depthwise
//! convolutions and pooling vectorise over channels at any stride. NCHW
//! inputs are read where they lie all the same.

pub(crate) mod depthwise;
pub(crate) mod depthwise_lanes;
pub(crate) mod epilogue;
pub(crate) mod forward;
pub(crate) mod geometry;
pub(crate) mod im2col;
pub(crate) mod norm;
pub(crate) mod pad;
pub(crate) mod pool;
pub(crate) mod transposed;

use std::ops::{Add, AddAssign, Div, Mul, Sub};

use crate::Element;

/// The element types the kernels compute in: f32 and f64 (f16 and bf16 are
/// widened to f32 by the caller).
pub(crate) trait Real:
    Element
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + AddAssign
    + PartialOrd
{
    /// −∞.
    const NEG_INFINITY: Self;
    /// NaN compares as larger than any number (max pooling propagates it).
    fn is_nan(self) -> bool;
}

impl Real for f32 {
    const NEG_INFINITY: Self = f32::NEG_INFINITY;
    #[inline(always)]
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
}

impl Real for f64 {
    const NEG_INFINITY: Self = f64::NEG_INFINITY;
    #[inline(always)]
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
}
