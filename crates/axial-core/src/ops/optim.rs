//! Optimizer updates as ops: one Adam or AdamW step of a parameter
//! ([`AdamUpdate`]), which a device may run as one fused pass.
//!
//! `torch.optim.Adam`'s loop per parameter (`foreach=False`) is a dozen
//! elementwise kernels, each reading and writing the parameter's size; a
//! fused pass reads the parameter, its gradient and the two running
//! averages once and writes three of them once. The arithmetic is the
//! same, op by op and rounding by rounding, so the fused pass gives the
//! composed ops' bits: `axial::optim::Adam` composes primitives wherever a
//! device has no fused kernel (AMSGrad, dtypes below f32, strided
//! tensors), and a test compares the two.

use crate::{Backend, Result, TensorMut, TensorRef};

/// One step of Adam's update of a parameter, as `torch.optim.Adam`
/// (`decoupled: false`) and `torch.optim.AdamW` (`decoupled: true`) run it
/// without AMSGrad, in their order of operations:
///
/// 1. `g = −grad` when maximizing, else `grad`;
/// 2. AdamW: `p *= 1 − lr·weight_decay`; Adam: `g += weight_decay·p`
///    (when the decay is not 0);
/// 3. `m = lerp(m, g, 1 − β₁)` (`m + w·(g − m)` for a weight below ½,
///    `g − (g − m)·(1 − w)` above);
/// 4. `v = v·β₂ + ((1 − β₂)·g)·g`;
/// 5. `p += (−lr/(1 − β₁ᵗ)·m) / (√v / √(1 − β₂ᵗ) + eps)`.
///
/// Every scalar is rounded to the tensor's dtype where it meets a tensor,
/// as PyTorch's kernels take a Python number.
///
/// ```
/// use axial_core::ops::AdamUpdate;
/// let op = AdamUpdate { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8,
///     weight_decay: 1e-2, decoupled: true, maximize: false, step: 1.0 };
/// assert!((op.step_size() - 1e-2).abs() < 1e-12);
/// assert!((op.bias_correction2_sqrt() - 0.999f64.mul_add(-1.0, 1.0).sqrt()).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamUpdate {
    /// The learning rate.
    pub lr: f64,
    /// The decay rate of the gradient's running average.
    pub beta1: f64,
    /// The decay rate of the squared gradient's running average.
    pub beta2: f64,
    /// Added to the denominator.
    pub eps: f64,
    /// The weight decay (0 for none).
    pub weight_decay: f64,
    /// AdamW's decoupled decay (the parameter shrinks) instead of Adam's
    /// L2 penalty (added to the gradient).
    pub decoupled: bool,
    /// Ascend instead of descending.
    pub maximize: bool,
    /// The step count, this step included (1 for the first).
    pub step: f64,
}

impl AdamUpdate {
    /// `lr / (1 − β₁ᵗ)`, the step's scale of the running average.
    ///
    /// ```
    /// # use axial_core::ops::AdamUpdate;
    /// let op = AdamUpdate { lr: 0.1, beta1: 0.5, beta2: 0.5, eps: 0.0,
    ///     weight_decay: 0.0, decoupled: false, maximize: false, step: 1.0 };
    /// assert_eq!(op.step_size(), 0.2);
    /// ```
    pub fn step_size(&self) -> f64 {
        self.lr / (1.0 - self.beta1.powf(self.step))
    }

    /// `√(1 − β₂ᵗ)`, which divides the squared average's square root.
    ///
    /// ```
    /// # use axial_core::ops::AdamUpdate;
    /// let op = AdamUpdate { lr: 0.1, beta1: 0.5, beta2: 0.75, eps: 0.0,
    ///     weight_decay: 0.0, decoupled: false, maximize: false, step: 1.0 };
    /// assert_eq!(op.bias_correction2_sqrt(), 0.5);
    /// ```
    pub fn bias_correction2_sqrt(&self) -> f64 {
        (1.0 - self.beta2.powf(self.step)).powf(0.5)
    }

    /// The weight of the gradient in the lerp of step 3 (`m + w·(g − m)`),
    /// `w = 1 − β₁`, and, where the lerp takes its far form
    /// `g − (1 − w)·(g − m)` (a weight of ½ or more, as PyTorch's `lerp`),
    /// the factor `1 − w` rounded as the elements' arithmetic rounds it
    /// (f32 unless `f32_arithmetic` is false, for f64).
    ///
    /// ```
    /// # use axial_core::ops::AdamUpdate;
    /// let op = AdamUpdate { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8,
    ///     weight_decay: 0.0, decoupled: false, maximize: false, step: 1.0 };
    /// assert_eq!(op.lerp(true), (1.0 - 0.9, None));
    /// let op = AdamUpdate { beta1: 0.3, ..op };
    /// assert_eq!(op.lerp(false), (0.7, Some(1.0 - 0.7)));
    /// ```
    pub fn lerp(&self, f32_arithmetic: bool) -> (f64, Option<f64>) {
        let w = 1.0 - self.beta1;
        if w.abs() < 0.5 {
            return (w, None);
        }
        let one_minus = match f32_arithmetic {
            true => f64::from(1.0 - w as f32),
            false => 1.0 - w,
        };
        (w, Some(one_minus))
    }
}

impl AdamUpdate {
    /// Runs this update as the device's fused kernel
    /// ([`Backend::adam_update`]): `Ok(false)`, with nothing written, where
    /// the device has none for these operands (the caller then composes
    /// primitives).
    ///
    /// # Errors
    /// An operand's elements share memory, or a device failure.
    ///
    /// ```
    /// use axial_core::{RawTensor, ops::AdamUpdate};
    /// let op = AdamUpdate { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8,
    ///     weight_decay: 0.0, decoupled: true, maximize: false, step: 1.0 };
    /// let mut p = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// let g = RawTensor::from_vec(vec![0.5f32, -0.5], &[2])?;
    /// let (mut m, mut v) = (RawTensor::from_vec(vec![0.0f32; 2], &[2])?, RawTensor::from_vec(vec![0.0f32; 2], &[2])?);
    /// assert!(op.fused(&mut p.view_mut(), &g.view(), &mut m.view_mut(), &mut v.view_mut())?);
    /// // The first step moves each parameter by lr against its gradient's sign.
    /// let p = p.to_vec::<f32>()?;
    /// assert!((p[0] - 0.9).abs() < 1e-6 && (p[1] - 2.1).abs() < 1e-6);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn fused<D: Backend>(
        &self,
        param: &mut TensorMut<'_, D>,
        grad: &TensorRef<'_, D>,
        exp_avg: &mut TensorMut<'_, D>,
        exp_avg_sq: &mut TensorMut<'_, D>,
    ) -> Result<bool> {
        let device = grad.storage().device().clone();
        device.adam_update(
            self,
            param.output()?,
            grad.input(),
            exp_avg.output()?,
            exp_avg_sq.output()?,
        )
    }
}
