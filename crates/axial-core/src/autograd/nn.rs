//! The ops of model layers on tracked tensors: `softmax`, `log_softmax`,
//! `layer_norm`, `dropout` with a seeded generator, and the losses
//! (`cross_entropy` with `ignore_index` and label smoothing, `nll_loss`,
//! `mse_loss`, `binary_cross_entropy_with_logits`), the losses written with
//! the tracked ops above so that their gradients follow.

use super::elementwise::{fit, read};
use super::grad::Grad;
use super::node::Saved;
use super::var::Var;
use crate::ops::grad::mul;
use crate::ops::norm::LayerNormGrad;
use crate::ops::{LayerNorm, Softmax};
use crate::{
    Backend, BinaryOp, CmpOp, DType, Error, Generator, RawTensor, ReduceOp, Result, Scalar, UnaryOp,
};

/// How a loss combines the losses of its elements (PyTorch's
/// `reduction=`).
///
/// # Example
/// ```
/// use axial_core::autograd::Reduction;
/// assert_eq!(Reduction::default(), Reduction::Mean);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Reduction {
    /// One loss per element.
    None,
    /// Their mean (over the elements not ignored).
    #[default]
    Mean,
    /// Their sum.
    Sum,
}

/// The options of [`Var::cross_entropy`], PyTorch's defaults by
/// [`Default`]: `ignore_index = -100`, no label smoothing, the mean.
///
/// # Example
/// ```
/// use axial_core::autograd::{CrossEntropy, Reduction};
/// let opts = CrossEntropy { label_smoothing: 0.1, ..CrossEntropy::default() };
/// assert_eq!((opts.ignore_index, opts.reduction), (-100, Reduction::Mean));
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CrossEntropy {
    /// Targets of this class contribute nothing (and do not count in the
    /// mean).
    pub ignore_index: i64,
    /// `ε`: the target distribution is `1 − ε` on the class and `ε / C`
    /// spread over all `C` classes.
    pub label_smoothing: f64,
    /// How the per-element losses combine.
    pub reduction: Reduction,
}

impl Default for CrossEntropy {
    fn default() -> Self {
        CrossEntropy {
            ignore_index: -100,
            label_smoothing: 0.0,
            reduction: Reduction::Mean,
        }
    }
}

impl<'g, D: Backend> Var<'g, D> {
    /// `softmax(x, dim)`, or `log_softmax` when `log`. Keeps its output, so
    /// the input may be written in place afterwards (PyTorch's rule).
    fn softmax_op(&self, dim: isize, log: bool) -> Result<Var<'g, D>> {
        let op = Softmax::new(dim, log, self.dtype, self.layout.rank())?;
        let value = match log {
            true => self.value().log_softmax(dim)?,
            false => self.value().softmax(dim)?,
        };
        let mut out = Var::fresh(value);
        if Var::tracks(&[self]) {
            let y = out.save();
            let name = if log { "LogSoftmax" } else { "Softmax" };
            out.attach(
                name,
                &[self],
                Box::new(move |g, _| Ok(vec![Some(Grad::new(op.backward(&y.get()?, &g)?))])),
            );
        }
        Ok(out)
    }

    /// `softmax(x, dim)`.
    ///
    /// # Errors
    /// As [`TensorRef::softmax`](crate::TensorRef::softmax).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![0.0f64, 0.0], &[2])?)?;
    /// let w = Var::constant(RawTensor::from_vec(vec![1.0f64, 0.0], &[2])?);
    /// let id = x.leaf_id().unwrap();
    /// let y = x.softmax(0)?.mul(&w)?.sum(&[], false)?; // p₀
    /// assert_eq!(y.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![0.25, -0.25]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn softmax(&self, dim: isize) -> Result<Var<'g, D>> {
        self.softmax_op(dim, false)
    }

    /// `log_softmax(x, dim)`.
    ///
    /// # Errors
    /// As [`TensorRef::log_softmax`](crate::TensorRef::log_softmax).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![0.0f64, 0.0], &[2])?)?;
    /// let y = x.log_softmax(0)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![-(2f64.ln()); 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn log_softmax(&self, dim: isize) -> Result<Var<'g, D>> {
        self.softmax_op(dim, true)
    }

    /// Layer normalisation over the trailing `normalized_shape`, then
    /// `· weight + bias` (PyTorch's `layer_norm`). Keeps the input, the
    /// weight and the bias.
    ///
    /// # Errors
    /// As [`TensorRef::layer_norm`](crate::TensorRef::layer_norm).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 3.0], &[1, 2])?)?;
    /// let b = Var::leaf(RawTensor::from_vec(vec![0.0f64, 0.0], &[2])?)?;
    /// let (ix, ib) = (x.leaf_id().unwrap(), b.leaf_id().unwrap());
    /// let y = x.layer_norm(&[2], None, Some(&b), 0.0)?;
    /// let grads = y.sum(&[], false)?.backward()?;
    /// assert_eq!(grads.get(ib).unwrap().to_vec::<f64>()?, vec![1.0, 1.0]);
    /// assert_eq!(grads.get(ix).unwrap().to_vec::<f64>()?, vec![0.0, 0.0]); // Σ of a normalised row is 0
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn layer_norm(
        &self,
        normalized_shape: &[usize],
        weight: Option<&Var<'g, D>>,
        bias: Option<&Var<'g, D>>,
        eps: f64,
    ) -> Result<Var<'g, D>> {
        let (w, b) = (weight.map(Var::value), bias.map(Var::value));
        let value = self
            .value()
            .layer_norm(normalized_shape, w.as_ref(), b.as_ref(), eps)?;
        let mut out = Var::fresh(value);
        let mut inputs = vec![self];
        inputs.extend(weight);
        inputs.extend(bias);
        if !Var::tracks(&inputs) {
            return Ok(out);
        }
        let x = self.save();
        let wk = weight.map(Var::save);
        // Kept as PyTorch keeps it: a write into it since is an error.
        let bias_kept = bias.map(Var::save);
        let (has_w, has_b) = (weight.is_some(), bias.is_some());
        let k = normalized_shape.len();
        let shapes: Vec<(Vec<usize>, DType)> = inputs
            .iter()
            .map(|v| (v.shape().to_vec(), v.dtype))
            .collect();
        out.attach(
            "NativeLayerNorm",
            &inputs,
            Box::new(move |g, needs| {
                read(&bias_kept)?;
                let mut it = needs.iter().copied();
                let need_x = it.next().unwrap_or(false);
                let need_w = has_w && it.next().unwrap_or(false);
                let need_b = has_b && it.next().unwrap_or(false);
                let ctx = LayerNormGrad {
                    op: LayerNorm { eps },
                    x: x.get()?,
                    weight: read(&wk)?,
                    k,
                    needs: [need_x, need_w, need_b],
                };
                let [gx, gw, gb] = ctx.backward(&g)?;
                let mut grads = vec![gx];
                if has_w {
                    grads.push(gw);
                }
                if has_b {
                    grads.push(gb);
                }
                grads
                    .into_iter()
                    .zip(&shapes)
                    .map(|(gi, (shape, dtype))| gi.map(|gi| fit(gi, shape, *dtype)).transpose())
                    .collect()
            }),
        );
        Ok(out)
    }

    /// Dropout in training (PyTorch's `F.dropout(x, p, training=True)`):
    /// each element zeroed with probability `p` (drawn from `rng`), the
    /// others scaled by `1/(1 − p)`; the gradient goes through the same
    /// mask, which the graph keeps.
    ///
    /// # Errors
    /// `p` outside `[0, 1]`; a failure of the device.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, Generator, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64; 1000], &[1000])?)?;
    /// let y = x.dropout(0.5, &mut Generator::seed(0))?;
    /// let kept = y.value().to_vec::<f64>()?.iter().filter(|&&v| v == 2.0).count();
    /// assert!((400..600).contains(&kept));
    /// assert!(x.dropout(1.5, &mut Generator::seed(0)).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dropout(&self, p: f64, rng: &mut Generator) -> Result<Var<'g, D>> {
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::invalid(
                "dropout",
                format!("dropout probability has to be between 0 and 1, but got {p}"),
            ));
        }
        let device = self.data.storage().device();
        let u = RawTensor::rand_on(device, self.shape(), self.dtype, rng)?;
        let kept = u.view().compare_scalar(CmpOp::Ge, Scalar::Float(p))?;
        let scale = if p < 1.0 { 1.0 / (1.0 - p) } else { 0.0 };
        let mask = kept
            .view()
            .to_dtype(self.dtype)?
            .view()
            .binary_scalar(BinaryOp::Mul, Scalar::Float(scale))?;
        let mut out = Var::fresh(mul(&self.value(), &mask)?);
        if Var::tracks(&[self]) {
            let mask = Saved::own(mask);
            out.attach(
                "NativeDropout",
                &[self],
                Box::new(move |g, _| Ok(vec![Some(Grad::new(mul(&g, &mask.get()?)?))])),
            );
        }
        Ok(out)
    }

    /// The negative log-likelihood of class indices `target` (i64, this
    /// tensor's shape without the class dim, dim 1, or dim 0 for one
    /// sample) under the log-probabilities `self` (PyTorch's `nll_loss`).
    ///
    /// # Errors
    /// A target of another shape, or a class out of range that is not
    /// `ignore_index`.
    ///
    /// ```
    /// # use axial_core::{autograd::{Reduction, Var}, RawTensor};
    /// let logp = Var::leaf(RawTensor::from_vec(vec![-1.0f64, -2.0, -3.0, -4.0], &[2, 2])?)?;
    /// let t = Var::constant(RawTensor::from_vec(vec![1i64, 0], &[2])?);
    /// let loss = logp.nll_loss(&t, -100, Reduction::Mean)?;
    /// assert_eq!(loss.value().to_vec::<f64>()?, vec![2.5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn nll_loss(
        &self,
        target: &Var<'g, D>,
        ignore_index: i64,
        reduction: Reduction,
    ) -> Result<Var<'g, D>> {
        self.smoothed_nll(target, ignore_index, 0.0, reduction)
    }

    /// Cross-entropy of the logits `self` (the class dim is dim 1, or dim 0
    /// for one sample) against class indices `target` (PyTorch's
    /// `cross_entropy`), with `ignore_index` and label smoothing: written
    /// as `log_softmax` then the negative log-likelihood, so the logits are
    /// not kept (only the log-probabilities).
    ///
    /// # Errors
    /// As [`Var::nll_loss`].
    ///
    /// ```
    /// # use axial_core::{autograd::{CrossEntropy, Var}, RawTensor};
    /// let logits = Var::leaf(RawTensor::from_vec(vec![0.0f64, 0.0, 0.0, 0.0], &[2, 2])?)?;
    /// let t = Var::constant(RawTensor::from_vec(vec![1i64, -100], &[2])?);
    /// let id = logits.leaf_id().unwrap();
    /// let loss = logits.cross_entropy(&t, CrossEntropy::default())?; // the second ignored
    /// assert!((loss.value().to_vec::<f64>()?[0] - 2f64.ln()).abs() < 1e-15);
    /// let g = loss.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![0.5, -0.5, 0.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn cross_entropy(&self, target: &Var<'g, D>, opts: CrossEntropy) -> Result<Var<'g, D>> {
        let class_dim = if self.layout.rank() == 1 { 0 } else { 1 };
        self.log_softmax(class_dim)?.smoothed_nll(
            target,
            opts.ignore_index,
            opts.label_smoothing,
            opts.reduction,
        )
    }

    /// [`Var::nll_loss`] with label smoothing `eps`.
    fn smoothed_nll(
        &self,
        target: &Var<'g, D>,
        ignore_index: i64,
        eps: f64,
        reduction: Reduction,
    ) -> Result<Var<'g, D>> {
        let rank = self.layout.rank();
        if rank == 0 {
            return Err(Error::invalid(
                "nll_loss",
                "input tensor should be 1D or 2D",
            ));
        }
        let class_dim: usize = if rank == 1 { 0 } else { 1 };
        let classes = self.shape()[class_dim];
        let mut expected = self.shape().to_vec();
        expected.remove(class_dim);
        if target.shape() != expected.as_slice() || target.dtype != DType::I64 {
            return Err(Error::invalid(
                "nll_loss",
                format!(
                    "expected a target of class indices (int64) of shape {expected:?}, got {} of shape {:?}",
                    target.dtype.name(),
                    target.shape()
                ),
            ));
        }
        let t = target.value();
        let ignored = t.compare_scalar(CmpOp::Eq, Scalar::Int(ignore_index))?;
        let safe = t.masked_fill(&ignored.view(), Scalar::Int(0))?;
        for &class in &safe.to_vec::<i64>()? {
            if class < 0 || class as usize >= classes {
                return Err(Error::invalid(
                    "nll_loss",
                    format!("Target {class} is out of bounds."),
                ));
            }
        }
        let index = Var::constant(safe.view().unsqueeze(class_dim as isize)?.to_owned()?);
        let keep = ignored
            .view()
            .unary(UnaryOp::LogicalNot)?
            .view()
            .to_dtype(self.dtype)?;
        let count = keep.view().reduce(ReduceOp::Sum, &[], false)?;
        let keep = Var::constant(keep);
        let picked = self
            .gather(class_dim as isize, &index)?
            .squeeze_dims(&[class_dim as isize])?;
        let mut per = picked.unary(UnaryOp::Neg)?.mul(&keep)?;
        if eps > 0.0 {
            let smooth = self
                .sum(&[class_dim as isize], false)?
                .unary(UnaryOp::Neg)?
                .mul(&keep)?
                .binary_scalar(BinaryOp::Mul, Scalar::Float(eps / classes as f64))?;
            per = per
                .binary_scalar(BinaryOp::Mul, Scalar::Float(1.0 - eps))?
                .add(&smooth)?;
        }
        match reduction {
            Reduction::None => Ok(per),
            Reduction::Sum => per.sum(&[], false),
            Reduction::Mean => per
                .sum(&[], false)?
                .binary(BinaryOp::Div, &Var::constant(count)),
        }
    }

    /// The mean squared error against `target` (PyTorch's `mse_loss`),
    /// both broadcast.
    ///
    /// # Errors
    /// Shapes that do not broadcast.
    ///
    /// ```
    /// # use axial_core::{autograd::{Reduction, Var}, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 3.0], &[2])?)?;
    /// let t = Var::constant(RawTensor::from_vec(vec![0.0f64, 0.0], &[2])?);
    /// let id = x.leaf_id().unwrap();
    /// let loss = x.mse_loss(&t, Reduction::Mean)?;
    /// assert_eq!(loss.value().to_vec::<f64>()?, vec![5.0]);
    /// assert_eq!(loss.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![1.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn mse_loss(&self, target: &Var<'g, D>, reduction: Reduction) -> Result<Var<'g, D>> {
        let diff = self.binary(BinaryOp::Sub, target)?;
        let per = diff.unary(UnaryOp::Square)?;
        reduce_loss(per, reduction)
    }

    /// Binary cross-entropy of the logits `self` against probabilities
    /// `target` (PyTorch's `binary_cross_entropy_with_logits`): `(1 − t)·x
    /// − log σ(x)`, with `log σ(x) = min(x, 0) − log(1 + e^−|x|)` so that
    /// no large logit overflows.
    ///
    /// # Errors
    /// Shapes that do not broadcast.
    ///
    /// ```
    /// # use axial_core::{autograd::{Reduction, Var}, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![0.0f64, 1000.0], &[2])?)?;
    /// let t = Var::constant(RawTensor::from_vec(vec![1.0f64, 1.0], &[2])?);
    /// let id = x.leaf_id().unwrap();
    /// let loss = x.binary_cross_entropy_with_logits(&t, Reduction::Sum)?;
    /// assert!((loss.value().to_vec::<f64>()?[0] - 2f64.ln()).abs() < 1e-15);
    /// assert_eq!(loss.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![-0.5, 0.0]); // σ(x) − t
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_cross_entropy_with_logits(
        &self,
        target: &Var<'g, D>,
        reduction: Reduction,
    ) -> Result<Var<'g, D>> {
        let device = self.data.storage().device();
        let zero = Var::constant(RawTensor::zeros_on(device, &[], self.dtype)?);
        let soft = self
            .unary(UnaryOp::Abs)?
            .unary(UnaryOp::Neg)?
            .unary(UnaryOp::Exp)?
            .unary(UnaryOp::Log1p)?;
        let log_sigmoid = self
            .binary(BinaryOp::Minimum, &zero)?
            .binary(BinaryOp::Sub, &soft)?;
        let one_minus = target.scalar_binary(BinaryOp::Sub, Scalar::Float(1.0))?;
        let per = one_minus.mul(self)?.binary(BinaryOp::Sub, &log_sigmoid)?;
        reduce_loss(per, reduction)
    }
}

/// Per-element losses combined as `reduction` says.
fn reduce_loss<'g, D: Backend>(per: Var<'g, D>, reduction: Reduction) -> Result<Var<'g, D>> {
    match reduction {
        Reduction::None => Ok(per),
        Reduction::Mean => per.mean(&[], false),
        Reduction::Sum => per.sum(&[], false),
    }
}
