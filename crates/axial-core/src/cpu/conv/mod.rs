//! Convolution, pooling and normalisation kernels of the CPU.
//!
//! One set of loops serves 1-, 2- and 3-d windows and every layout
//! ([`geometry`]): the channel and spatial dims are whichever dims the caller
//! names, read through their strides, so NCHW, NHWC and strided views need
//! no copy. Each convolution picks its algorithm by shape:
//!
//! - a depthwise convolution (one input channel per group) runs directly,
//!   reading the input once. With channels innermost in the input and the
//!   output (NHWC) and f32, the channels are the vector lanes of
//!   `cpu/simd` ([`depthwise_lanes`]: a row of outputs per job, four
//!   positions per weight load in the interior, bias and clamp in
//!   registers). Otherwise ([`depthwise`]) one channel plane per job,
//!   each output row accumulated along the input's row (vectorised by the
//!   compiler when the columns are contiguous, as in NCHW).
//! - a convolution of one group and at most four input channels with
//!   channels innermost (NHWC) in f32, a CNN's stem, runs directly
//!   ([`direct_lanes`]): the output channels are the vector lanes, each
//!   input value broadcast against a vector of weights.
//! - a 1×1 convolution with stride 1 and no padding is a matrix product
//!   over the input where it lies ([`forward`]): per batch item, group
//!   and tile of positions, `y = W · x` through the `gemm` crate that
//!   `matmul` uses, which takes both operands' strides. NHWC gives
//!   row-major positions × channels, NCHW channels × positions; neither
//!   is copied.
//! - any other is `im2col` + that product ([`im2col`], [`forward`]), in
//!   tiles of output positions (at most 512 KiB of patches per thread),
//!   the patch matrix laid out for the input's layout: rows of positions
//!   with (tap, channel) columns for NHWC, where a row of the window is
//!   one run of `kw · C` elements; (channel, tap) rows of positions for
//!   NCHW, where each row copies runs of the input's rows.
//!
//! Each product writes its tile, then one pass over the tile while it is
//! in the cache adds the bias and applies the clamp ([`epilogue`]; ReLU6
//! is a clamp to `[0, 6]`), so a convolution block writes its output once.
//! Threads (rayon) run the batch items, groups and tiles (rows, for the
//! depthwise kernels); a product too large to share out uses `gemm`'s
//! own threads.
//!
//! The layout this library prefers is channels-last (NHWC): the reduction
//! of a convolution runs over input channels, and with the channels
//! innermost every tap of the kernel reads one contiguous run, a 1×1
//! convolution is a product of two row-major matrices, the depthwise
//! kernel and pooling vectorise over channels at any stride and any
//! window, and the output of one layer is already the layout of the next.
//! NCHW inputs are read where they lie all the same: no kernel copies or
//! reorders the input as a whole. What is copied, in either layout: the
//! `im2col` tiles of the k×k dense convolutions, the weights repacked
//! (a few KiB), and for the other padding modes (reflect, replicate,
//! circular) a padded copy of the input, made before the kernel; f16 and
//! bf16 are widened to an f32 copy.

pub(crate) mod depthwise;
pub(crate) mod depthwise_lanes;
pub(crate) mod direct_lanes;
pub(crate) mod epilogue;
pub(crate) mod forward;
pub(crate) mod geometry;
pub(crate) mod im2col;
pub(crate) mod norm;
pub(crate) mod pad;
pub(crate) mod pool;
mod pool_lanes;
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

    /// `acc[i] = max(acc[i], x[tap + i])` for every offset `tap` of `taps`,
    /// in order, a NaN replacing the running maximum (max pooling's
    /// window over runs of channels).
    ///
    /// # Safety
    /// `x.offset(tap)` is valid for reads of `acc.len()` elements for
    /// every `tap`.
    #[inline(always)]
    unsafe fn max_taps(x: *const Self, taps: &[isize], acc: &mut [Self]) {
        for &tap in taps {
            // SAFETY: the caller's contract.
            let xs = unsafe { std::slice::from_raw_parts(x.offset(tap), acc.len()) };
            for (m, &v) in acc.iter_mut().zip(xs) {
                *m = if v > *m || v.is_nan() { v } else { *m };
            }
        }
    }
}

impl Real for f32 {
    const NEG_INFINITY: Self = f32::NEG_INFINITY;
    #[inline(always)]
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }

    #[inline(always)]
    unsafe fn max_taps(x: *const Self, taps: &[isize], acc: &mut [Self]) {
        // SAFETY: the caller's contract is the kernel's.
        unsafe { pool_lanes::max_taps(x, taps, acc) }
    }
}

impl Real for f64 {
    const NEG_INFINITY: Self = f64::NEG_INFINITY;
    #[inline(always)]
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
}

/// The f32 convolution of channels-last `x` (`[batch, h, w, c]`, f64)
/// against the same in f64, elementwise within 1e-5 relative (case `case`
/// of a kernel's test); returns the f64 result.
#[cfg(test)]
pub(crate) fn f32_within_f64(
    case: usize,
    x: &crate::RawTensor,
    weight: &crate::RawTensor,
    bias: Option<&crate::RawTensor>,
    options: &crate::nn::ConvOptions,
) -> Vec<f64> {
    use crate::DType;
    let axes = crate::nn::ConvAxes::new(3, &[1, 2]);
    let run = |dtype| {
        let [x, w] = [x, weight].map(|t| t.view().to_dtype(dtype).unwrap());
        let b = bias.map(|b| b.view().to_dtype(dtype).unwrap());
        let b = b.as_ref().map(|b| b.view());
        x.view()
            .conv_axes(&w.view(), b.as_ref(), &axes, options)
            .unwrap()
            .view()
            .to_dtype(DType::F64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap()
    };
    let (fast, exact) = (run(DType::F32), run(DType::F64));
    assert_eq!(fast.len(), exact.len());
    for (j, (a, e)) in fast.iter().zip(&exact).enumerate() {
        assert!(
            (a - e).abs() <= 1e-5 * (1.0 + e.abs()),
            "case {case}, {j}: {a} vs {e}"
        );
    }
    exact
}
