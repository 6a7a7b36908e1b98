//! `scaled_dot_product_attention`, PyTorch's reference formula written with
//! the ops it names: `softmax(q·kᵀ · scale + mask) · v`, unless the device
//! has a kernel that does it in one pass for these operands
//! ([`Backend::attention`]: the CPU's for f32 heads with a bool mask).

use super::{RawTensor, TensorRef};
use crate::{Backend, BinaryOp, CmpOp, DType, Error, Result, Scalar};

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask,
    /// is_causal=..., scale=...)` with `self` the queries `[..., L, E]`,
    /// `key` `[..., S, E]` and `value` `[..., S, Ev]` (the leading dims
    /// broadcast): `softmax(q·kᵀ · scale + mask) · v`, of shape
    /// `[..., L, Ev]`. `scale` defaults to `1/√E`. A bool mask keeps the
    /// scores where it is true (the rest become `-inf`); a mask of the
    /// queries' dtype is added to them; either broadcasts to `[..., L, S]`.
    /// `is_causal` keeps query `i` to keys `j ≤ i` (the top-left triangle,
    /// as PyTorch's). A query whose every key is masked gives NaN, as
    /// PyTorch's formula does. No dropout: this is the inference op.
    ///
    /// # Errors
    /// Shapes that do not multiply or broadcast, dtypes that differ, a mask
    /// together with `is_causal`, or a mask of another dtype.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let q = RawTensor::from_vec(vec![1.0f32, 0.0], &[1, 2])?;
    /// let k = RawTensor::from_vec(vec![1.0f32, 0.0, 0.0, 1.0], &[2, 2])?;
    /// let v = RawTensor::from_vec(vec![10.0f32, 20.0], &[2, 1])?;
    /// let out = q.view().scaled_dot_product_attention(&k.view(), &v.view(), None, false, Some(0.0))?;
    /// assert_eq!(out.to_vec::<f32>()?, vec![15.0]); // scale 0: equal weights
    /// let causal = q.view().scaled_dot_product_attention(&k.view(), &v.view(), None, true, None)?;
    /// assert_eq!(causal.to_vec::<f32>()?, vec![10.0]); // query 0 sees key 0 only
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn scaled_dot_product_attention(
        &self,
        key: &TensorRef<'_, D>,
        value: &TensorRef<'_, D>,
        attn_mask: Option<&TensorRef<'_, D>>,
        is_causal: bool,
        scale: Option<f64>,
    ) -> Result<RawTensor<D>> {
        let op = "scaled_dot_product_attention";
        if self.dim() < 2 || key.dim() < 2 || value.dim() < 2 {
            return Err(Error::invalid(
                op,
                format!(
                    "expected query, key and value of at least 2 dimensions, got {:?}, {:?} and {:?}",
                    self.shape(),
                    key.shape(),
                    value.shape()
                ),
            ));
        }
        if is_causal && attn_mask.is_some() {
            return Err(Error::invalid(
                op,
                "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True",
            ));
        }
        let e = self.shape()[self.dim() - 1];
        let scale = scale.unwrap_or(1.0 / (e as f64).sqrt());
        let device = self.storage().device();
        if !is_causal && let Some(out) = device.attention(self, key, value, attn_mask, scale)? {
            return Ok(out);
        }
        let mut scores = self.matmul(&key.transpose(-2, -1)?)?;
        scores
            .view_mut()
            .binary_scalar_(BinaryOp::Mul, Scalar::Float(scale))?;
        let (l, s) = (self.shape()[self.dim() - 2], key.shape()[key.dim() - 2]);
        let masked = if is_causal {
            let ones = RawTensor::full_on(device, &[l, s], Scalar::Bool(true), DType::Bool)?;
            let keep = ones.view().tril(0)?;
            Some(fill_outside(&scores.view(), &keep.view())?)
        } else {
            match attn_mask {
                None => None,
                Some(mask) if mask.dtype() == DType::Bool => {
                    Some(fill_outside(&scores.view(), mask)?)
                }
                Some(mask) if mask.dtype() == self.dtype() => {
                    let mut added = scores;
                    added.view_mut().binary_(BinaryOp::Add, mask)?;
                    scores = added;
                    None
                }
                Some(mask) => {
                    return Err(Error::invalid(
                        op,
                        format!(
                            "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: {} and  query.dtype: {} instead.",
                            mask.dtype().name(),
                            self.dtype().name()
                        ),
                    ));
                }
            }
        };
        let scores = masked.unwrap_or(scores);
        let weights = scores.view().softmax(-1)?;
        weights.view().matmul(value)
    }
}

/// `scores` where `keep` (bool, broadcast to them) is true, `-inf` elsewhere.
fn fill_outside<D: Backend>(
    scores: &TensorRef<'_, D>,
    keep: &TensorRef<'_, D>,
) -> Result<RawTensor<D>> {
    let dropped = keep.compare_scalar(CmpOp::Eq, Scalar::Bool(false))?;
    scores.masked_fill(&dropped.view(), Scalar::Float(f64::NEG_INFINITY))
}
