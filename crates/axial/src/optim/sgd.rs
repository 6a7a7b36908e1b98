//! [`Sgd`]: stochastic gradient descent with momentum, dampening, Nesterov
//! momentum and weight decay, as `torch.optim.SGD`.

use axial_core::{Backend, BinaryOp, Error, RawTensor, Result};

use super::update::{add_scaled_, check_fits, check_float, scale_, times};
use super::{Optimizer, Parameter};

/// The hyper-parameters of [`Sgd`], PyTorch's names and defaults.
///
/// ```
/// use axial::optim::SgdConfig;
/// let c = SgdConfig { momentum: 0.9, nesterov: true, ..SgdConfig::default() };
/// assert_eq!(c.lr, 1e-3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgdConfig {
    /// The learning rate (default 1e-3).
    pub lr: f64,
    /// The momentum factor (default 0: none).
    pub momentum: f64,
    /// The dampening of the momentum (default 0).
    pub dampening: f64,
    /// The L2 penalty added to the gradient (default 0).
    pub weight_decay: f64,
    /// Nesterov momentum (default off; needs a momentum and no dampening).
    pub nesterov: bool,
    /// Ascends instead of descending (default off).
    pub maximize: bool,
}

impl Default for SgdConfig {
    fn default() -> Self {
        SgdConfig {
            lr: 1e-3,
            momentum: 0.0,
            dampening: 0.0,
            weight_decay: 0.0,
            nesterov: false,
            maximize: false,
        }
    }
}

/// `torch.optim.SGD`: for each parameter with a gradient `g`,
/// `g += weight_decay·p`; with a momentum, `b = g` at the first step and
/// `b = momentum·b + (1 − dampening)·g` after, then `g = g + momentum·b`
/// (Nesterov) or `g = b`; and `p −= lr·g`.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// use axial::autograd::Param;
/// use axial::optim::{Optimizer, Sgd, SgdConfig};
/// let mut p = Param::new(Tensor::<f64, shape![1]>::from_array([1.0]));
/// let mut opt = Sgd::new(SgdConfig { lr: 0.1, momentum: 0.9, ..SgdConfig::default() })?;
/// for _ in 0..2 {
///     *p.grad_mut() = Some(Tensor::from_array([1.0]));
///     opt.step(&mut [&mut p])?;
/// }
/// // b = 1, then 0.9 + 1 = 1.9: p = 1 − 0.1 − 0.19
/// assert!((p.value().get([0]) - 0.71).abs() < 1e-12);
/// # Ok::<(), axial::Error>(())
/// ```
pub struct Sgd<D: Backend = axial_core::Cpu> {
    config: SgdConfig,
    /// The momentum buffer of each parameter, by position.
    buffers: Vec<Option<RawTensor<D>>>,
}

impl<D: Backend> Sgd<D> {
    /// An optimizer with these hyper-parameters.
    ///
    /// # Errors
    /// PyTorch's: a negative learning rate, momentum or weight decay;
    /// Nesterov momentum without a momentum or with dampening.
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// let bad = SgdConfig { nesterov: true, ..SgdConfig::default() };
    /// assert!(Sgd::<axial::Cpu>::new(bad).is_err());
    /// ```
    pub fn new(config: SgdConfig) -> Result<Self> {
        let check = |ok: bool, what: String| match ok {
            true => Ok(()),
            false => Err(Error::invalid("SGD", what)),
        };
        check(
            config.lr >= 0.0,
            format!("Invalid learning rate: {}", config.lr),
        )?;
        check(
            config.momentum >= 0.0,
            format!("Invalid momentum value: {}", config.momentum),
        )?;
        check(
            config.weight_decay >= 0.0,
            format!("Invalid weight_decay value: {}", config.weight_decay),
        )?;
        check(
            !config.nesterov || (config.momentum > 0.0 && config.dampening == 0.0),
            "Nesterov momentum requires a momentum and zero dampening".into(),
        )?;
        Ok(Sgd {
            config,
            buffers: Vec::new(),
        })
    }

    /// The hyper-parameters.
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// assert_eq!(Sgd::<axial::Cpu>::new(SgdConfig::default())?.config().momentum, 0.0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn config(&self) -> &SgdConfig {
        &self.config
    }

    /// The momentum buffer of the parameter at `index`, once a step made it.
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// assert!(Sgd::<axial::Cpu>::new(SgdConfig::default())?.momentum_buffer(0).is_none());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn momentum_buffer(&self, index: usize) -> Option<&RawTensor<D>> {
        self.buffers.get(index)?.as_ref()
    }
}

impl<D: Backend> Optimizer<D> for Sgd<D> {
    fn step(&mut self, params: &mut [&mut dyn Parameter<D>]) -> Result<()> {
        let c = self.config;
        if self.buffers.len() < params.len() {
            self.buffers.resize_with(params.len(), || None);
        }
        for (i, p) in params.iter_mut().enumerate() {
            let (mut value, grad) = p.parts();
            let Some(grad) = grad else { continue };
            check_float("SGD", i, value.dtype())?;
            let grad = grad.as_ref();
            // The gradient as PyTorch's loop rebinds it.
            let mut g: RawTensor<D> = match c.maximize {
                true => times(&grad, -1.0)?,
                false => grad.to_contiguous()?,
            };
            if c.weight_decay != 0.0 {
                g = g.view().binary(
                    BinaryOp::Add,
                    &times(&value.as_ref(), c.weight_decay)?.view(),
                )?;
            }
            if c.momentum != 0.0 {
                let buf = match &mut self.buffers[i] {
                    Some(buf) => {
                        check_fits("SGD", i, buf, &value.as_ref())?;
                        let mut b = buf.view_mut();
                        scale_(&mut b, c.momentum)?;
                        add_scaled_(&mut b, &g.view(), 1.0 - c.dampening)?;
                        buf
                    }
                    slot @ None => slot.insert(g.view().to_contiguous()?),
                };
                g = match c.nesterov {
                    true => g
                        .view()
                        .binary(BinaryOp::Add, &times(&buf.view(), c.momentum)?.view())?,
                    false => buf.view().to_contiguous()?,
                };
            }
            add_scaled_(&mut value, &g.view(), -c.lr)?;
        }
        Ok(())
    }

    fn lr(&self) -> f64 {
        self.config.lr
    }

    fn set_lr(&mut self, lr: f64) {
        self.config.lr = lr;
    }
}
