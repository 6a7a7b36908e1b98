//! The ops of convolutional networks as values of the table: a
//! convolution, max, average and adaptive average pooling, batch norm.
//! Their kernels are the CPU's (`nn/`, which the tensor layer calls
//! directly: no `Backend` method yet, so another device has none); their
//! derivatives are written with forward ops in `autograd/cnn.rs` (a
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
            lowering: Lowering::CpuKernel,
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
            lowering: Lowering::CpuKernel,
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
            lowering: Lowering::CpuKernel,
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
            lowering: Lowering::CpuKernel,
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
            lowering: Lowering::CpuKernel,
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
            lowering: Lowering::CpuKernel,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Always, Keep::Always, Keep::Never],
                output: false,
            }),
        }
    }
}
