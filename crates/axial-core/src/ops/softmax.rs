//! `softmax` and `log_softmax` along one dim: a fused op. The CPU and CUDA
//! run kernels of their own (in f32 for f16 and bf16, converting inside the
//! kernel: the CPU's `cpu/softmax.rs`, CUDA's `softmax_rows_<dtype>` for the
//! last dim and `softmax_cols_<dtype>` for another); another device gets
//! [`Softmax::composite`]: max, subtract, exp, sum and divide (or
//! subtract the log of the sum).

use super::compose::{elementwise, in_place, own, reduced, unary, wide};
use super::grad::{bin_, mul, sub, sum_keep, un, un_};
use super::{Derivative, Lowering, Op, OpInfo, Saves};
use crate::autograd::Grad;
use crate::layout::wrap_dim;
use crate::{
    Backend, BinaryOp, DType, Error, Input, Output, RawTensor, ReduceOp, Result, TensorRef, UnaryOp,
};

/// `softmax(x, dim)`, or `log_softmax` when `log` is set.
///
/// # Example
/// ```
/// use axial_core::ops::{Op, Softmax};
/// assert_eq!(Softmax { dim: 1, log: true }.name(), "log_softmax");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Softmax {
    /// The dim normalised over (wrapped: in `0..rank`, 0 for a 0-dim tensor).
    pub dim: usize,
    /// `log_softmax` rather than `softmax`.
    pub log: bool,
}

/// A contiguous tensor seen as `[outer, len, inner]`, normalised over `len`.
///
/// # Example
/// ```
/// use axial_core::ops::{Softmax, SoftmaxShape};
/// let s = Softmax { dim: 1, log: false }.shape_of(&[2, 3, 4]);
/// assert_eq!(s, SoftmaxShape { outer: 2, len: 3, inner: 4 });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SoftmaxShape {
    /// The product of the sizes before the dim.
    pub outer: usize,
    /// The dim's size.
    pub len: usize,
    /// The product of the sizes after it.
    pub inner: usize,
}

impl Op for Softmax {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: if self.log { "log_softmax" } else { "softmax" },
            lowering: Lowering::Fused,
            derivative: Derivative::Written(Saves::OUTPUT),
        }
    }
}

impl Softmax {
    /// The CUDA kernels (`<name>_<dtype>`): one block per row along the
    /// last dim, one thread per column along another.
    pub const CUDA_KERNELS: [&'static str; 2] = ["softmax_rows", "softmax_cols"];

    /// The op over `dim` (negative counts from the end) of a tensor of
    /// `dtype` and `rank` dims, as the tensor layer asks for it.
    ///
    /// # Errors
    /// A dim out of range, or an integer or bool dtype (PyTorch's "not
    /// implemented for 'Long'").
    ///
    /// ```
    /// # use axial_core::{DType, ops::Softmax};
    /// assert_eq!(Softmax::new(-1, false, DType::F16, 3)?, Softmax { dim: 2, log: false });
    /// assert!(Softmax::new(0, false, DType::I64, 1).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(dim: isize, log: bool, dtype: DType, rank: usize) -> Result<Softmax> {
        let op = Softmax { dim: 0, log };
        if !dtype.is_float() {
            return Err(Error::Unsupported {
                op: op.name(),
                dtype,
            });
        }
        Ok(Softmax {
            dim: wrap_dim(dim, rank)?,
            log,
        })
    }

    /// `shape` seen as `[outer, len, inner]` around the op's dim.
    pub fn shape_of(&self, shape: &[usize]) -> SoftmaxShape {
        SoftmaxShape {
            outer: shape.iter().take(self.dim).product(),
            len: shape.get(self.dim).copied().unwrap_or(1),
            inner: shape.iter().skip(self.dim + 1).product(),
        }
    }

    /// Checks the operands a device is handed: one shape and one float
    /// dtype for both, the dim in range. Their layouts are any (a device
    /// that needs them contiguous copies them).
    ///
    /// # Errors
    /// Any of those.
    ///
    /// ```
    /// use axial_core::{DType, Layout, Output, RawTensor, Storage, ops::Softmax};
    /// let x = RawTensor::from_vec(vec![0.0f32; 6], &[2, 3])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 6]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[3, 2]), dtype: DType::F32 };
    /// assert!(Softmax { dim: 1, log: false }.check(&x.view().input(), &dst).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check<D: Backend>(
        &self,
        src: &Input<'_, D>,
        dst: &Output<'_, D>,
    ) -> Result<SoftmaxShape> {
        let shape = dst.layout.shape();
        if src.layout.shape() != shape || self.dim >= shape.len().max(1) {
            return Err(Error::invalid(
                self.name(),
                format!(
                    "dim {} of an input of shape {:?} into an output of shape {shape:?}",
                    self.dim,
                    src.layout.shape()
                ),
            ));
        }
        if !dst.dtype.is_float() {
            return Err(Error::Unsupported {
                op: self.name(),
                dtype: dst.dtype,
            });
        }
        dst.check(self.name(), dst.dtype)?;
        src.check_elementwise(self.name(), dst.dtype, dst)?;
        Ok(self.shape_of(shape))
    }

    /// The op written with primitives, for a device without a kernel of
    /// its own: `e = exp(x − max)`, then `e / Σe` (or `x − max − ln Σe`),
    /// computed in f32 for f16 and bf16 and rounded once. A slice with a
    /// NaN is NaN, a slice of only −∞ too (`−∞ − −∞`), as PyTorch's.
    ///
    /// # Errors
    /// As [`Softmax::check`], or a device failure.
    pub fn composite<D: Backend>(
        &self,
        device: &D,
        src: Input<'_, D>,
        dst: Output<'_, D>,
    ) -> Result<()> {
        self.check(&src, &dst)?;
        let shape = dst.layout.shape().to_vec();
        if shape.contains(&0) {
            return Ok(());
        }
        let compute = wide(dst.dtype);
        let x = own(device, &src, &dst, compute)?;
        let dims = [self.dim.min(shape.len().saturating_sub(1))];
        let dims: &[usize] = if shape.is_empty() { &[] } else { &dims };
        let max = reduced(device, ReduceOp::Max, &x, dims)?;
        let mut shifted = elementwise(device, BinaryOp::Sub, &x, &max.view())?;
        let e = unary(device, UnaryOp::Exp, &shifted)?;
        let sum = reduced(device, ReduceOp::Sum, &e, dims)?;
        let result = if self.log {
            let log_sum = unary(device, UnaryOp::Log, &sum)?;
            in_place(device, BinaryOp::Sub, &mut shifted, &log_sum.view())?;
            shifted
        } else {
            elementwise(device, BinaryOp::Div, &e, &sum.view())?
        };
        device.copy(result.view().input(), dst)
    }
}

impl Softmax {
    /// The input's gradient from the output `y` (kept) and its gradient
    /// `g`: `y·(g − Σ g·y)` for softmax, `g − exp(y)·Σ g` for log_softmax,
    /// the sums along the dim (PyTorch's `_softmax_backward_data`): the
    /// device's one-pass kernel ([`Backend::softmax_backward`]) where it
    /// has one, else composed of primitives.
    pub(crate) fn backward<D: Backend>(
        &self,
        y: &TensorRef<'_, D>,
        g: &Grad<D>,
    ) -> Result<RawTensor<D>> {
        let gv = g.view();
        if gv.shape() == y.shape() && gv.dtype() == y.dtype() {
            let device = y.storage().device();
            let layout = crate::Layout::contiguous(y.shape());
            let mut out = crate::tensor::alloc_output(device, layout, y.dtype())?;
            if device.softmax_backward(*self, y.input(), gv.input(), out.output())? {
                return Ok(out);
            }
        }
        // One buffer of the output's size at a time beside `g` and `y`, as
        // PyTorch's fused kernel needs one.
        let dims = [self.dim];
        if self.log {
            let summed = sum_keep(g, &dims)?;
            let e = bin_(un(UnaryOp::Exp, y)?, BinaryOp::Mul, &summed)?;
            bin_(un_(e, UnaryOp::Neg)?, BinaryOp::Add, g)
        } else {
            let summed = sum_keep(&mul(g, y)?, &dims)?;
            bin_(sub(g, &summed)?, BinaryOp::Mul, y)
        }
    }
}
