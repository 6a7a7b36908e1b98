//! The activations convolutional networks use beyond `relu`, `sigmoid`
//! and `silu` (which are [`UnaryOp`]s): `relu6`, `hardtanh`,
//! `hardsigmoid`, `hardswish`, `leaky_relu` and `prelu`, in PyTorch's
//! order of operations; f16 and bf16 compute in f32 and round once.

use super::conv::{as_dtype, compute_dtype, or_view};
use crate::{BinaryOp, CmpOp, Cpu, Error, RawTensor, Result, Scalar, TensorRef, UnaryOp};

impl TensorRef<'_, Cpu> {
    /// `f` of this tensor computed in f32 (f16, bf16) or its own float
    /// dtype, rounded back once.
    fn widened(
        &self,
        op: &'static str,
        f: impl FnOnce(&TensorRef<'_, Cpu>) -> Result<RawTensor<Cpu>>,
    ) -> Result<RawTensor<Cpu>> {
        let dtype = compute_dtype(self.dtype()).ok_or(Error::Unsupported {
            op,
            dtype: self.dtype(),
        })?;
        let w = as_dtype(self, dtype)?;
        let y = f(&or_view(&w, self))?;
        if dtype == self.dtype() {
            Ok(y)
        } else {
            y.view().to_dtype(self.dtype())
        }
    }

    /// `F.hardtanh(x, min, max)`: `x` clamped to `[min, max]` (NaN stays).
    ///
    /// # Errors
    /// Integer tensors.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![-2.0f32, 0.5, 2.0], &[3])?;
    /// assert_eq!(x.view().hardtanh(-1.0, 1.0)?.to_vec::<f32>()?, vec![-1.0, 0.5, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn hardtanh(&self, min: f64, max: f64) -> Result<RawTensor<Cpu>> {
        self.widened("hardtanh", |x| {
            x.unary(UnaryOp::Clamp {
                min: Some(min),
                max: Some(max),
            })
        })
    }

    /// `F.relu6(x)`: `min(max(x, 0), 6)`.
    ///
    /// # Errors
    /// Integer tensors.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![-1.0f32, 3.0, 7.0], &[3])?;
    /// assert_eq!(x.view().relu6()?.to_vec::<f32>()?, vec![0.0, 3.0, 6.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn relu6(&self) -> Result<RawTensor<Cpu>> {
        self.hardtanh(0.0, 6.0)
    }

    /// `F.hardsigmoid(x)`: `min(max(x + 3, 0), 6) / 6`.
    ///
    /// # Errors
    /// Integer tensors.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![-4.0f32, 0.0, 3.0], &[3])?;
    /// assert_eq!(x.view().hardsigmoid()?.to_vec::<f32>()?, vec![0.0, 0.5, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn hardsigmoid(&self) -> Result<RawTensor<Cpu>> {
        self.widened("hardsigmoid", |x| {
            let t = x.binary_scalar(BinaryOp::Add, Scalar::Float(3.0))?;
            let t = t.view().unary(UnaryOp::Clamp {
                min: Some(0.0),
                max: Some(6.0),
            })?;
            t.view().binary_scalar(BinaryOp::Div, Scalar::Float(6.0))
        })
    }

    /// `F.hardswish(x)`: `x · min(max(x + 3, 0), 6) / 6`.
    ///
    /// # Errors
    /// Integer tensors (PyTorch's "hardswish_cpu" not implemented).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![-4.0f32, 1.0, 4.0], &[3])?;
    /// assert_eq!(x.view().hardswish()?.to_vec::<f32>()?, vec![-0.0, 4.0 / 6.0, 4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn hardswish(&self) -> Result<RawTensor<Cpu>> {
        self.widened("hardswish", |x| {
            let t = x.binary_scalar(BinaryOp::Add, Scalar::Float(3.0))?;
            let t = t.view().unary(UnaryOp::Clamp {
                min: Some(0.0),
                max: Some(6.0),
            })?;
            let t = x.binary(BinaryOp::Mul, &t.view())?;
            t.view().binary_scalar(BinaryOp::Div, Scalar::Float(6.0))
        })
    }

    /// `F.leaky_relu(x, slope)`: `x` where `x > 0`, else `x · slope`.
    ///
    /// # Errors
    /// Integer tensors.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![-2.0f32, 3.0], &[2])?;
    /// assert_eq!(x.view().leaky_relu(0.5)?.to_vec::<f32>()?, vec![-1.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn leaky_relu(&self, slope: f64) -> Result<RawTensor<Cpu>> {
        self.widened("leaky_relu", |x| {
            let scaled = x.binary_scalar(BinaryOp::Mul, Scalar::Float(slope))?;
            let positive = x.compare_scalar(CmpOp::Gt, Scalar::Float(0.0))?;
            positive.view().where_(x, &scaled.view())
        })
    }

    /// PReLU along the channel dim `channel`: `x` where `x > 0`, else
    /// `x · weight[c]` with the weight of its channel (one weight for all
    /// when it has one element).
    ///
    /// # Errors
    /// A weight of neither one element nor one per channel (PyTorch's
    /// "Mismatch of parameter numbers and input channel size"), mixed
    /// dtypes, integer tensors.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![-1.0f32, -1.0, 2.0, 2.0], &[2, 2])?;
    /// let w = RawTensor::from_vec(vec![0.1f32, 0.2], &[2])?;
    /// assert_eq!(x.view().prelu_axes(1, &w.view())?.to_vec::<f32>()?, vec![-0.1, -0.2, 2.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn prelu_axes(
        &self,
        channel: usize,
        weight: &TensorRef<'_, Cpu>,
    ) -> Result<RawTensor<Cpu>> {
        let op = "prelu";
        let c = self.shape().get(channel).copied().unwrap_or(1);
        if weight.numel() != 1 && weight.numel() != c {
            return Err(prelu_mismatch(weight.numel(), c));
        }
        if weight.dtype() != self.dtype() {
            return Err(Error::scalar_type(op, self.dtype(), weight.dtype()));
        }
        let dtype = compute_dtype(self.dtype()).ok_or(Error::Unsupported {
            op,
            dtype: self.dtype(),
        })?;
        let w = weight.reshape(&[weight.numel() as isize])?;
        let w = w.as_ref().to_dtype(dtype)?;
        // The weight along `channel`, size 1 elsewhere, so that it broadcasts.
        let mut shape = vec![1isize; self.dim()];
        if weight.numel() == c && self.dim() > 0 {
            shape[channel] = c as isize;
        }
        let w = w.view().view(&shape)?;
        self.widened(op, |x| {
            let scaled = x.binary(BinaryOp::Mul, &w)?;
            let positive = x.compare_scalar(CmpOp::Gt, Scalar::Float(0.0))?;
            positive.view().where_(x, &scaled.view())
        })
    }

    /// `F.prelu(x, weight)`: the channel dim is dim 1 (dim 0 of a 1-d
    /// tensor, whose channel count is 1).
    ///
    /// # Errors
    /// As [`prelu_axes`](Self::prelu_axes), and a 0-dim tensor.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![-4.0f64, 4.0], &[1, 2])?;
    /// let w = RawTensor::from_vec(vec![0.25f64], &[1])?;
    /// assert_eq!(x.view().prelu(&w.view())?.to_vec::<f64>()?, vec![-1.0, 4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn prelu(&self, weight: &TensorRef<'_, Cpu>) -> Result<RawTensor<Cpu>> {
        match self.dim() {
            0 => Err(Error::invalid("prelu", "Not allow zero-dim input tensor.")),
            1 if weight.numel() != 1 => Err(prelu_mismatch(weight.numel(), 1)),
            // One weight for every element of a 1-d tensor.
            1 => self.prelu_axes(0, weight),
            _ => self.prelu_axes(1, weight),
        }
    }
}

/// PyTorch's error for a `prelu` weight of `count` elements on an input of
/// `channels` channels (one weight, or one per channel).
pub(crate) fn prelu_mismatch(count: usize, channels: usize) -> Error {
    Error::invalid(
        "prelu",
        format!(
            "Mismatch of parameter numbers and input channel size. Found parameter numbers = {count} and channel size = {channels}."
        ),
    )
}
