//! Folding an inference batch norm into the convolution before it.

use crate::{Cpu, DType, Error, RawTensor, Result, TensorRef};

/// The weight and bias of `conv` followed by an inference batch norm, as
/// one convolution: with `s = gamma / √(var + eps)` per output channel,
/// `weight' = weight · s` (each output channel's filter scaled) and
/// `bias' = (bias − mean) · s + beta`. The product is computed in f64 and
/// rounded once to the weight's dtype.
///
/// `conv(x, weight', bias')` equals `batch_norm(conv(x, weight, bias),
/// mean, var, gamma, beta, eps)` up to rounding: one pass over the
/// activations instead of two at inference.
///
/// # Errors
/// A weight of fewer than two dims; statistics or parameters of another
/// length than the weight's output channels (dim 0); a non-float weight.
///
/// ```
/// use axial_core::nn::{ConvOptions, fold_batch_norm};
/// use axial_core::RawTensor;
/// let x = RawTensor::from_vec(vec![1.0f64, 2.0, 3.0], &[1, 1, 3])?;
/// let w = RawTensor::from_vec(vec![1.0f64, 1.0], &[1, 1, 2])?;
/// let (mean, var) = (RawTensor::from_vec(vec![2.0f64], &[1])?, RawTensor::from_vec(vec![4.0f64], &[1])?);
/// let (gamma, beta) = (RawTensor::from_vec(vec![3.0f64], &[1])?, RawTensor::from_vec(vec![1.0f64], &[1])?);
/// let unfused = x.view().conv1d(&w.view(), None, &ConvOptions::new())?
///     .view().batch_norm(&mean.view(), &var.view(), Some(&gamma.view()), Some(&beta.view()), 0.0)?;
/// let (w2, b2) = fold_batch_norm(&w.view(), None, &mean.view(), &var.view(), Some(&gamma.view()), Some(&beta.view()), 0.0)?;
/// let fused = x.view().conv1d(&w2.view(), Some(&b2.view()), &ConvOptions::new())?;
/// assert_eq!(fused.to_vec::<f64>()?, unfused.to_vec::<f64>()?);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn fold_batch_norm(
    weight: &TensorRef<'_, Cpu>,
    bias: Option<&TensorRef<'_, Cpu>>,
    mean: &TensorRef<'_, Cpu>,
    var: &TensorRef<'_, Cpu>,
    gamma: Option<&TensorRef<'_, Cpu>>,
    beta: Option<&TensorRef<'_, Cpu>>,
    eps: f64,
) -> Result<(RawTensor<Cpu>, RawTensor<Cpu>)> {
    let op = "fold_batch_norm";
    if weight.dim() < 2 || !weight.dtype().is_float() {
        return Err(Error::invalid(
            op,
            format!(
                "expected a float convolution weight of at least 2 dims, got {:?} ({})",
                weight.shape(),
                weight.dtype().name()
            ),
        ));
    }
    let c = weight.shape()[0];
    let vector = |what: &str, t: Option<&TensorRef<'_, Cpu>>, default: f64| -> Result<Vec<f64>> {
        match t {
            None => Ok(vec![default; c]),
            Some(t) if t.numel() == c => t
                .reshape(&[c as isize])?
                .as_ref()
                .to_dtype(DType::F64)?
                .to_vec::<f64>(),
            Some(t) => Err(Error::invalid(
                op,
                format!("{what} should contain {c} elements not {}", t.numel()),
            )),
        }
    };
    let (m, v) = (
        vector("running_mean", Some(mean), 0.0)?,
        vector("running_var", Some(var), 1.0)?,
    );
    let (g, b) = (vector("weight", gamma, 1.0)?, vector("bias", beta, 0.0)?);
    let b0 = vector("conv bias", bias, 0.0)?;
    let scale: Vec<f64> = (0..c).map(|i| g[i] / (v[i] + eps).sqrt()).collect();
    let w = weight.to_dtype(DType::F64)?.to_vec::<f64>()?;
    let per = w.len().checked_div(c).unwrap_or(0);
    let w: Vec<f64> = w
        .iter()
        .enumerate()
        .map(|(i, &x)| x * scale[i / per.max(1)])
        .collect();
    let bias: Vec<f64> = (0..c).map(|i| (b0[i] - m[i]) * scale[i] + b[i]).collect();
    let dtype = weight.dtype();
    Ok((
        RawTensor::from_vec(w, weight.shape())?
            .view()
            .to_dtype(dtype)?,
        RawTensor::from_vec(bias, &[c])?.view().to_dtype(dtype)?,
    ))
}
