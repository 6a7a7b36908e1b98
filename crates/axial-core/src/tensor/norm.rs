//! `softmax`, `log_softmax` and `layer_norm`: fused ops that the device
//! runs in the dtype it chooses (f64 stays f64; f32, f16 and bf16 compute
//! in f32 on the CPU and CUDA, as PyTorch's kernels do, converting inside
//! the kernel), over the tensor where it lies.

use super::{RawTensor, TensorRef, alloc_output};
use crate::ops::{LayerNorm, Softmax};
use crate::{Backend, Layout, Result};

impl<'a, D: Backend> TensorRef<'a, D> {
    fn fused_softmax(&self, dim: isize, log: bool) -> Result<RawTensor<D>> {
        let op = Softmax::new(dim, log, self.dtype, self.dim())?;
        let layout = Layout::contiguous(self.shape());
        let mut out = alloc_output(self.storage.device(), layout, self.dtype)?;
        self.storage
            .device()
            .softmax(op, self.input(), out.output())?;
        Ok(out)
    }

    /// `torch.softmax(x, dim)`: `exp(x − max) / Σ exp(x − max)` along `dim`,
    /// in one fused kernel; f16 and bf16 are computed in f32 and rounded.
    /// A slice with a NaN is NaN; a slice of only −∞ is NaN, as PyTorch's.
    ///
    /// # Errors
    /// A dim out of range, or an integer or bool tensor (PyTorch's
    /// "not implemented for 'Long'").
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![0.0f32, 1000.0, 1000.0, 0.0], &[2, 2])?;
    /// assert_eq!(x.view().softmax(1)?.to_vec::<f32>()?, vec![0.0, 1.0, 1.0, 0.0]);
    /// assert_eq!(x.view().softmax(0)?.to_vec::<f32>()?, vec![0.0, 1.0, 1.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn softmax(&self, dim: isize) -> Result<RawTensor<D>> {
        self.fused_softmax(dim, false)
    }

    /// `torch.log_softmax(x, dim)`: `x − max − ln Σ exp(x − max)` along `dim`,
    /// fused, never forming the softmax.
    ///
    /// # Errors
    /// As [`TensorRef::softmax`].
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![500.0f64, 500.0], &[2])?;
    /// assert_eq!(x.view().log_softmax(-1)?.to_vec::<f64>()?, vec![-std::f64::consts::LN_2; 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn log_softmax(&self, dim: isize) -> Result<RawTensor<D>> {
        self.fused_softmax(dim, true)
    }

    /// `torch.nn.functional.layer_norm(x, normalized_shape, weight, bias,
    /// eps)`: each slice over the trailing `normalized_shape` dims minus its
    /// mean, over `√(var + eps)` (biased variance), then `· weight + bias`
    /// (each of `normalized_shape`, when given). Mean and variance come from
    /// one pass; f16 and bf16 compute in f32.
    ///
    /// # Errors
    /// Trailing dims other than `normalized_shape`, a weight or bias of
    /// another shape or dtype, or a non-float tensor.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 3.0, 10.0, 30.0], &[2, 2])?;
    /// let w = RawTensor::from_vec(vec![2.0f32, 2.0], &[2])?;
    /// let y = x.view().layer_norm(&[2], Some(&w.view()), None, 0.0)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![-2.0, 2.0, -2.0, 2.0]);
    /// let e = x.view().layer_norm(&[3], None, None, 1e-5).err().unwrap();
    /// assert!(e.to_string().contains("expected input with shape [*, 3], but got input of size[2, 2]"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn layer_norm(
        &self,
        normalized_shape: &[usize],
        weight: Option<&TensorRef<'_, D>>,
        bias: Option<&TensorRef<'_, D>>,
        eps: f64,
    ) -> Result<RawTensor<D>> {
        let params = [weight, bias].map(|p| p.map(|p| (p.shape(), p.dtype)));
        let (rows, n) = LayerNorm::rows(self.shape(), normalized_shape, params, self.dtype)?;
        let src = self.reshape(&[rows as isize, n as isize])?;
        let w = weight.map(|p| p.reshape(&[n as isize])).transpose()?;
        let b = bias.map(|p| p.reshape(&[n as isize])).transpose()?;
        let layout = Layout::contiguous(&[rows, n]);
        let mut out = alloc_output(self.storage.device(), layout, self.dtype)?;
        self.storage.device().layer_norm(
            LayerNorm { eps },
            src.as_ref().input(),
            w.as_ref().map(|w| w.as_ref().input()),
            b.as_ref().map(|b| b.as_ref().input()),
            out.output(),
        )?;
        out.layout = Layout::contiguous(self.shape());
        Ok(out)
    }
}
