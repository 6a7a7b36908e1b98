//! The ops of convolutional networks on the CPU: convolutions (1-, 2- and
//! 3-d, transposed, grouped and depthwise), pooling (max, average,
//! adaptive), padding, `unfold`/`fold`, batch, group and instance
//! normalisation, the activations CNNs use, and folding a batch norm into
//! a convolution.
//!
//! Each op comes twice: positionally, as `torch.nn.functional` takes it
//! (`conv2d` on `[N, C, H, W]`), and by dims (`conv_axes` with the channel
//! dim and the spatial dims named), which is what the typed layer calls
//! with the positions of named axes, so NCHW and NHWC tensors are the same
//! op without a copy. Shapes, checks and messages are PyTorch's; the
//! window arithmetic is in [`window`](self#functions).
//!
//! The kernels prefer channels-last (NHWC) layouts: a convolution reduces
//! over input channels, and with channels innermost each tap of the kernel
//! reads one contiguous run, depthwise convolutions and pooling vectorise
//! over channels at any stride, and a 1×1 convolution is a product of two
//! row-major matrices. NCHW inputs run in place too (1×1 as one product
//! over the input where it lies, others through `im2col`), and each result
//! keeps its input's layout.
//!
//! ```
//! use axial_core::nn::{ConvAxes, ConvOptions, PoolOptions};
//! use axial_core::{DType, RawTensor};
//! // An NHWC batch [2, 8, 8, 3] through a 3×3 convolution to 4 channels,
//! // stride 2, padding 1, then a global average pool.
//! let x = RawTensor::zeros(&[2, 8, 8, 3], DType::F32)?;
//! let w = RawTensor::zeros(&[4, 3, 3, 3], DType::F32)?;
//! let o = ConvOptions::new().stride(&[2]).padding(axial_core::nn::Padding::Both(vec![1]));
//! let y = x.view().conv_axes(&w.view(), None, &ConvAxes::new(3, &[1, 2]), &o)?;
//! assert_eq!(y.shape(), &[2, 4, 4, 4]);
//! assert_eq!(y.strides(), &[64, 16, 4, 1]); // still channels-last
//! let g = y.view().adaptive_avg_pool_axes(&[1, 2], &[1, 1])?;
//! assert_eq!(g.shape(), &[2, 1, 1, 4]);
//! # let _ = PoolOptions::new(&[2]);
//! # Ok::<(), axial_core::Error>(())
//! ```

mod act;
mod alloc;
pub(crate) mod conv;
mod fuse;
pub(crate) mod norm;
pub(crate) mod pad;
mod patches;
mod pool;
mod window;

pub use crate::PadMode;
pub(crate) use act::prelu_mismatch;
pub use conv::{ConvAxes, ConvOptions, Padding, PaddingMode};
pub use fuse::fold_batch_norm;
pub use patches::Blocks;
pub use pool::PoolOptions;
pub use window::{
    PerDim, adaptive_window, conv_out_len, dilated, per_dim, pool_out_len, transposed_out_len,
};
