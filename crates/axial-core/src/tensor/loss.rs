//! Losses, forward: `mse_loss` and `cross_entropy` with PyTorch's options
//! (reduction, class weights, `ignore_index`, label smoothing), each the
//! formula of PyTorch's reference written with the tensor ops; the class
//! indices (one per sample, few) are checked on the host.

use super::{RawTensor, TensorRef};
use crate::{Backend, BinaryOp, DType, Error, ReduceOp, Result, Scalar, UnaryOp};

/// How a loss reduces its per-element values (PyTorch's `reduction`).
///
/// ```
/// use axial_core::{RawTensor, Reduction};
/// let x = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
/// let y = RawTensor::from_vec(vec![0.0f32, 0.0], &[2])?;
/// let loss = |r| x.view().mse_loss(&y.view(), r).unwrap().to_vec::<f32>().unwrap();
/// assert_eq!(loss(Reduction::None), vec![1.0, 4.0]);
/// assert_eq!(loss(Reduction::Mean), vec![2.5]);
/// assert_eq!(loss(Reduction::Sum), vec![5.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// One loss per element (`'none'`).
    None,
    /// Their mean (`'mean'`, the default), weighted as PyTorch's.
    Mean,
    /// Their sum (`'sum'`).
    Sum,
}

impl Reduction {
    /// PyTorch's name of the reduction.
    ///
    /// ```
    /// assert_eq!(axial_core::Reduction::None.name(), "none");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Reduction::None => "none",
            Reduction::Mean => "mean",
            Reduction::Sum => "sum",
        }
    }
}

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.nn.functional.mse_loss(self, target, reduction)`: the squared
    /// differences, broadcast as PyTorch broadcasts them, reduced.
    ///
    /// # Errors
    /// Shapes that do not broadcast, dtypes that differ, or integers.
    ///
    /// ```
    /// # use axial_core::{RawTensor, Reduction};
    /// let x = RawTensor::from_vec(vec![1.0f64, 3.0], &[2])?;
    /// let y = RawTensor::from_vec(vec![2.0f64, 1.0], &[2])?;
    /// assert_eq!(x.view().mse_loss(&y.view(), Reduction::Mean)?.to_vec::<f64>()?, vec![2.5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn mse_loss(
        &self,
        target: &TensorRef<'_, D>,
        reduction: Reduction,
    ) -> Result<RawTensor<D>> {
        float_only("mse_loss", self.dtype())?;
        let diff = self.binary(BinaryOp::Sub, target)?;
        let squared = diff.view().binary(BinaryOp::Mul, &diff.view())?;
        reduce(squared, reduction, None)
    }

    /// `torch.nn.functional.cross_entropy(self, target, weight,
    /// ignore_index=..., reduction=..., label_smoothing=...)` with the
    /// classes along `class_dim` (PyTorch's dim 1, or 0 for one sample):
    /// `target` holds class indices (`i64`, the input's shape without
    /// `class_dim`) or class probabilities (the input's dtype and shape).
    /// `weight` (`[classes]`) weighs each class; indices equal to
    /// `ignore_index` count for nothing (indices only); `label_smoothing`
    /// mixes the target with the uniform distribution. The mean over
    /// indices divides by the summed weights of the samples counted (NaN
    /// when none is), the mean over probabilities by the number of samples.
    ///
    /// # Errors
    /// A class index out of range (PyTorch's "Target 5 is out of bounds."),
    /// shapes or dtypes that do not fit, a weight of another length, a
    /// smoothing outside `[0, 1]`, or integer inputs.
    ///
    /// ```
    /// # use axial_core::{RawTensor, Reduction};
    /// let logits = RawTensor::from_vec(vec![0.0f32, 0.0, 0.0, 1000.0], &[2, 2])?;
    /// let target = RawTensor::from_vec(vec![0i64, 1], &[2])?;
    /// let loss = logits.view().cross_entropy(&target.view(), 1, None, -100, Reduction::None, 0.0)?;
    /// assert_eq!(loss.to_vec::<f32>()?, vec![std::f32::consts::LN_2, 0.0]);
    /// let e = logits.view().cross_entropy(&RawTensor::from_vec(vec![0i64, 2], &[2])?.view(), 1, None, -100, Reduction::Mean, 0.0);
    /// assert_eq!(e.err().unwrap().to_string(), "cross_entropy: Target 2 is out of bounds.");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn cross_entropy(
        &self,
        target: &TensorRef<'_, D>,
        class_dim: isize,
        weight: Option<&TensorRef<'_, D>>,
        ignore_index: i64,
        reduction: Reduction,
        label_smoothing: f64,
    ) -> Result<RawTensor<D>> {
        let op = "cross_entropy";
        float_only(op, self.dtype())?;
        if self.dim() == 0 {
            return Err(Error::invalid(
                op,
                "expected an input of at least 1 dimension, got 0",
            ));
        }
        if !(0.0..=1.0).contains(&label_smoothing) {
            return Err(Error::invalid(
                op,
                format!("label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}"),
            ));
        }
        let dim = crate::layout::wrap_dim(class_dim, self.dim())?;
        let classes = self.shape()[dim];
        let weights = match weight {
            Some(w) if w.shape() != [classes] => {
                return Err(Error::invalid(
                    op,
                    format!(
                        "weight tensor should be defined either for all {classes} classes or no classes but got weight tensor of shape: {:?}",
                        w.shape()
                    ),
                ));
            }
            Some(w) => Some(w.to_dtype(DType::F64)?.to_vec::<f64>()?),
            None => None,
        };
        let logp = self.log_softmax(dim as isize)?;
        let ctx = Classes {
            dim,
            classes,
            weights,
            smoothing: label_smoothing,
            reduction,
        };
        if target.dtype() == DType::I64 {
            ctx.of_indices(&logp.view(), target, ignore_index)
        } else if target.dtype() == self.dtype() {
            if target.shape() != self.shape() {
                return Err(Error::invalid(
                    op,
                    format!(
                        "Expected target of class probabilities of the input's shape {:?}, got {:?}",
                        self.shape(),
                        target.shape()
                    ),
                ));
            }
            ctx.of_probabilities(&logp.view(), target)
        } else {
            Err(Error::invalid(
                op,
                format!(
                    "expected a target of class indices (int64) or of class probabilities ({}), got {}",
                    self.dtype().name(),
                    target.dtype().name()
                ),
            ))
        }
    }
}

/// What `cross_entropy` knows of the classes.
struct Classes {
    dim: usize,
    classes: usize,
    weights: Option<Vec<f64>>,
    smoothing: f64,
    reduction: Reduction,
}

impl Classes {
    /// Against class indices: PyTorch's `nll_loss` of the log-probabilities,
    /// mixed with the smoothing term.
    fn of_indices<D: Backend>(
        &self,
        logp: &TensorRef<'_, D>,
        target: &TensorRef<'_, D>,
        ignore_index: i64,
    ) -> Result<RawTensor<D>> {
        let op = "cross_entropy";
        let mut expected = logp.shape().to_vec();
        if !expected.is_empty() {
            expected.remove(self.dim);
        }
        if target.shape() != expected.as_slice() {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected target size {expected:?}, got {:?}",
                    target.shape()
                ),
            ));
        }
        let indices = target.to_vec::<i64>()?;
        if let Some(&bad) = indices
            .iter()
            .find(|&&t| t != ignore_index && !(0..self.classes as i64).contains(&t))
        {
            return Err(Error::invalid(
                op,
                format!("Target {bad} is out of bounds."),
            ));
        }
        let counted = |t: i64| t != ignore_index;
        let sample_weight: Vec<f64> = indices
            .iter()
            .map(|&t| match (&self.weights, counted(t)) {
                (_, false) => 0.0,
                (Some(w), true) => w[t as usize],
                (None, true) => 1.0,
            })
            .collect();
        let total: f64 = sample_weight.iter().sum();
        let device = logp.storage().device();
        let safe: Vec<i64> = indices
            .iter()
            .map(|&t| if counted(t) { t } else { 0 })
            .collect();
        let safe = RawTensor::from_slice_on(device, &safe, &expected)?;
        let picked = logp.gather(
            self.dim as isize,
            &safe.view().unsqueeze(self.dim as isize)?,
        )?;
        let picked = picked.view().squeeze_dims(&[self.dim as isize])?;
        let w = host_tensor(device, &sample_weight, &expected, logp.dtype())?;
        let nll = picked
            .binary(BinaryOp::Mul, &w.view())?
            .view()
            .unary(UnaryOp::Neg)?;
        let nll = reduce(nll, self.reduction, Some(total))?;
        if self.smoothing == 0.0 {
            return Ok(nll);
        }
        let mut smooth = self.weighted_sum(logp, None)?;
        let keep: Vec<f64> = indices
            .iter()
            .map(|&t| f64::from(u8::from(counted(t))))
            .collect();
        let keep = host_tensor(device, &keep, &expected, logp.dtype())?;
        smooth.view_mut().binary_(BinaryOp::Mul, &keep.view())?;
        let smooth = reduce(smooth, self.reduction, Some(total))?;
        self.mix(nll, smooth)
    }

    /// Against class probabilities: `-Σ_c w_c · p_c · log q_c`, the target
    /// smoothed first.
    fn of_probabilities<D: Backend>(
        &self,
        logp: &TensorRef<'_, D>,
        target: &TensorRef<'_, D>,
    ) -> Result<RawTensor<D>> {
        let smoothed = if self.smoothing > 0.0 {
            let mut t = target.binary_scalar(BinaryOp::Mul, Scalar::Float(1.0 - self.smoothing))?;
            t.view_mut().binary_scalar_(
                BinaryOp::Add,
                Scalar::Float(self.smoothing / self.classes as f64),
            )?;
            Some(t)
        } else {
            None
        };
        let target = smoothed
            .as_ref()
            .map_or_else(|| target.clone(), RawTensor::view);
        let loss = self.weighted_sum(logp, Some(&target))?;
        let samples = (logp.numel() / self.classes.max(1)) as f64;
        reduce(loss, self.reduction, Some(samples))
    }

    /// `-Σ_c w_c · x_c · t_c` over the classes (`t` all ones when `None`).
    fn weighted_sum<D: Backend>(
        &self,
        logp: &TensorRef<'_, D>,
        target: Option<&TensorRef<'_, D>>,
    ) -> Result<RawTensor<D>> {
        let mut terms = match target {
            Some(t) => logp.binary(BinaryOp::Mul, t)?,
            None => logp.to_contiguous()?,
        };
        if let Some(w) = &self.weights {
            let mut shape = vec![1; logp.dim()];
            shape[self.dim] = self.classes;
            let w = host_tensor(logp.storage().device(), w, &shape, logp.dtype())?;
            terms.view_mut().binary_(BinaryOp::Mul, &w.view())?;
        }
        let summed = terms
            .view()
            .reduce(ReduceOp::Sum, &[self.dim as isize], false)?;
        summed.view().unary(UnaryOp::Neg)
    }

    /// `(1 - ε) · nll + ε / C · smooth`.
    fn mix<D: Backend>(&self, nll: RawTensor<D>, smooth: RawTensor<D>) -> Result<RawTensor<D>> {
        let mut out = nll
            .view()
            .binary_scalar(BinaryOp::Mul, Scalar::Float(1.0 - self.smoothing))?;
        let scaled = smooth.view().binary_scalar(
            BinaryOp::Mul,
            Scalar::Float(self.smoothing / self.classes as f64),
        )?;
        out.view_mut().binary_(BinaryOp::Add, &scaled.view())?;
        Ok(out)
    }
}

/// Per-element losses reduced: all of them, their sum, or their sum over
/// `count` (the element count when `None`).
fn reduce<D: Backend>(
    losses: RawTensor<D>,
    reduction: Reduction,
    count: Option<f64>,
) -> Result<RawTensor<D>> {
    match (reduction, count) {
        (Reduction::None, _) => Ok(losses),
        (Reduction::Sum, _) => losses.view().reduce(ReduceOp::Sum, &[], false),
        (Reduction::Mean, None) => losses.view().reduce(ReduceOp::Mean, &[], false),
        (Reduction::Mean, Some(n)) => {
            let total = losses.view().reduce(ReduceOp::Sum, &[], false)?;
            total.view().binary_scalar(BinaryOp::Div, Scalar::Float(n))
        }
    }
}

/// Host values as a tensor of `dtype` on `device`.
fn host_tensor<D: Backend>(
    device: &D,
    values: &[f64],
    shape: &[usize],
    dtype: DType,
) -> Result<RawTensor<D>> {
    RawTensor::from_slice_on(device, values, shape)?
        .view()
        .to_dtype(dtype)
}

fn float_only(op: &'static str, dtype: DType) -> Result<()> {
    if dtype.is_float() {
        Ok(())
    } else {
        Err(Error::Unsupported { op, dtype })
    }
}
