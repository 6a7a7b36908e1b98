//! `softmax`, `log_softmax` and `layer_norm`: fused kernels on the device
//! over contiguous operands of the dtype it computes in (f64 stays f64; f32,
//! f16 and bf16 compute in f32, as PyTorch's CPU kernels do).

use super::{RawTensor, TensorRef, alloc_output};
use crate::layout::wrap_dim;
use crate::{Backend, DType, Error, Layout, Result};

/// The dtype a fused kernel computes `dtype` in.
fn compute_dtype(op: &'static str, dtype: DType) -> Result<DType> {
    match dtype {
        DType::F64 => Ok(DType::F64),
        DType::F32 | DType::F16 | DType::BF16 => Ok(DType::F32),
        _ => Err(Error::Unsupported { op, dtype }),
    }
}

impl<'a, D: Backend> TensorRef<'a, D> {
    /// This tensor contiguous and of `dtype`: itself when it already is.
    fn contiguous_as(&self, dtype: DType) -> Result<Option<RawTensor<D>>> {
        if self.dtype == dtype && self.layout.is_contiguous() {
            return Ok(None);
        }
        let mut out = alloc_output(
            self.storage.device(),
            Layout::contiguous(self.shape()),
            dtype,
        )?;
        self.storage.device().copy(self.input(), out.output())?;
        Ok(Some(out))
    }

    /// `r`, rounded back to this tensor's dtype when it was computed in another.
    fn in_own_dtype(&self, r: RawTensor<D>) -> Result<RawTensor<D>> {
        if r.dtype == self.dtype {
            Ok(r)
        } else {
            r.view().to_dtype(self.dtype)
        }
    }

    fn fused_softmax(&self, dim: isize, log: bool) -> Result<RawTensor<D>> {
        let op = if log { "log_softmax" } else { "softmax" };
        let compute = compute_dtype(op, self.dtype)?;
        let dim = wrap_dim(dim, self.dim())?;
        let copy = self.contiguous_as(compute)?;
        let src = copy.as_ref().map_or_else(|| self.clone(), RawTensor::view);
        let mut out = alloc_output(
            self.storage.device(),
            Layout::contiguous(self.shape()),
            compute,
        )?;
        self.storage
            .device()
            .softmax(src.input(), dim, log, out.output())?;
        self.in_own_dtype(out)
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
        let op = "layer_norm";
        let compute = compute_dtype(op, self.dtype)?;
        let shape = self.shape();
        let k = normalized_shape.len();
        if k == 0 || k > shape.len() || shape[shape.len() - k..] != *normalized_shape {
            return Err(Error::invalid(
                op,
                format!(
                    "Given normalized_shape={normalized_shape:?}, expected input with shape [*, {}], but got input of size{shape:?}",
                    normalized_shape
                        .iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        for (what, p) in [("weight", weight), ("bias", bias)] {
            if let Some(p) = p
                && (p.shape() != normalized_shape || p.dtype != self.dtype)
            {
                return Err(Error::invalid(
                    op,
                    format!(
                        "Expected {what} to be of same shape as normalized_shape, but got {what} of shape {:?} ({}) and normalized_shape = {normalized_shape:?} ({})",
                        p.shape(),
                        p.dtype.name(),
                        self.dtype.name()
                    ),
                ));
            }
        }
        let n: usize = normalized_shape.iter().product();
        let rows = self.numel().checked_div(n).unwrap_or(0);
        let copy = self.contiguous_as(compute)?;
        let src = copy.as_ref().map_or_else(|| self.clone(), RawTensor::view);
        let src = src.view(&[rows as isize, n as isize])?;
        let params = |p: Option<&TensorRef<'_, D>>| -> Result<Option<RawTensor<D>>> {
            p.map(|p| -> Result<RawTensor<D>> {
                let flat = p.reshape(&[n as isize])?;
                let flat = flat.as_ref();
                match flat.contiguous_as(compute)? {
                    Some(c) => Ok(c),
                    None => flat.to_owned(),
                }
            })
            .transpose()
        };
        let (w, b) = (params(weight)?, params(bias)?);
        let mut out = alloc_output(
            self.storage.device(),
            Layout::contiguous(&[rows, n]),
            compute,
        )?;
        self.storage.device().layer_norm(
            src.input(),
            w.as_ref().map(|w| w.view().input()),
            b.as_ref().map(|b| b.view().input()),
            eps,
            out.output(),
        )?;
        out.layout = Layout::contiguous(shape);
        self.in_own_dtype(out)
    }
}
