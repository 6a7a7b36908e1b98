//! [`Sgd`]: stochastic gradient descent with momentum, dampening, Nesterov
//! momentum and weight decay, as `torch.optim.SGD`.

use axial_core::{Backend, BinaryOp, Error, RawTensor, Result};

use super::groups::Groups;
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
    groups: Groups<SgdConfig>,
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
        check(&config)?;
        Ok(Sgd {
            groups: Groups::one(config),
            buffers: Vec::new(),
        })
    }

    /// An optimizer over parameter groups (PyTorch's `param_groups`): each
    /// its hyper-parameters and how many parameters it holds; a step's list
    /// holds the first group's parameters, then the second's, and so on.
    ///
    /// # Errors
    /// As [`Sgd::new`] for any group's hyper-parameters; no group.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::Param;
    /// use axial::optim::{Optimizer, Sgd, SgdConfig};
    /// let (mut w, mut b) = (Param::new(Tensor::<f64, shape![1]>::ones()), Param::new(Tensor::<f64, shape![1]>::ones()));
    /// let c = |lr| SgdConfig { lr, ..SgdConfig::default() };
    /// let mut opt = Sgd::with_groups([(c(0.1), 1), (c(0.5), 1)])?;
    /// *w.grad_mut() = Some(Tensor::ones());
    /// *b.grad_mut() = Some(Tensor::ones());
    /// opt.step(&mut [&mut w, &mut b])?;
    /// assert_eq!((w.value().item(), b.value().item()), (0.9, 0.5));
    /// assert_eq!(opt.group_params(1), 1..2);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn with_groups(groups: impl IntoIterator<Item = (SgdConfig, usize)>) -> Result<Self> {
        let groups: Vec<_> = groups.into_iter().collect();
        for (c, _) in &groups {
            check(c)?;
        }
        Ok(Sgd {
            groups: Groups::several("SGD", groups)?,
            buffers: Vec::new(),
        })
    }

    /// The hyper-parameters (of the first group).
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// assert_eq!(Sgd::<axial::Cpu>::new(SgdConfig::default())?.config().momentum, 0.0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn config(&self) -> &SgdConfig {
        &self.groups.configs_ref()[0]
    }

    /// How many parameter groups.
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// assert_eq!(Sgd::<axial::Cpu>::new(SgdConfig::default())?.groups(), 1);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn groups(&self) -> usize {
        self.groups.len()
    }

    /// The hyper-parameters of group `k`.
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// let opt = Sgd::<axial::Cpu>::with_groups([(SgdConfig::default(), 2), (SgdConfig { lr: 0.5, ..SgdConfig::default() }, 1)])?;
    /// assert_eq!(opt.group_config(1).map(|c| c.lr), Some(0.5));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn group_config(&self, k: usize) -> Option<&SgdConfig> {
        self.groups.config(k)
    }

    /// The positions of group `k`'s parameters in a step's list (for the
    /// one group of [`Sgd::new`], every position seen so far).
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// let opt = Sgd::<axial::Cpu>::with_groups([(SgdConfig::default(), 2), (SgdConfig::default(), 1)])?;
    /// assert_eq!(opt.group_params(1), 2..3);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn group_params(&self, k: usize) -> std::ops::Range<usize> {
        self.groups.range(k, self.buffers.len())
    }

    /// Sets group `k`'s learning rate.
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// let mut opt = Sgd::<axial::Cpu>::new(SgdConfig::default())?;
    /// opt.set_group_lr(0, 0.5);
    /// assert_eq!(opt.config().lr, 0.5);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn set_group_lr(&mut self, k: usize, lr: f64) {
        if let Some(c) = self.groups.configs_mut().get_mut(k) {
            c.lr = lr;
        }
    }

    /// Sets the momentum buffer of the parameter at `index` (a loaded
    /// state dict's `state[index]["momentum_buffer"]`); positions up to
    /// `index` without one are kept empty.
    ///
    /// # Errors
    /// The buffer is not floating-point.
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// use axial_core::{DType, RawTensor};
    /// let mut opt = Sgd::<axial::Cpu>::new(SgdConfig { momentum: 0.9, ..SgdConfig::default() })?;
    /// opt.set_momentum_buffer(1, RawTensor::zeros(&[2], DType::F32)?)?;
    /// assert!(opt.momentum_buffer(0).is_none() && opt.momentum_buffer(1).is_some());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn set_momentum_buffer(&mut self, index: usize, buffer: RawTensor<D>) -> Result<()> {
        check_float("SGD", index, buffer.dtype())?;
        self.set_positions(index + 1);
        self.buffers[index] = Some(buffer);
        Ok(())
    }

    /// Says how many positions the optimizer has (a loaded state dict's
    /// parameters, the last of which may have no buffer yet).
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// let mut opt = Sgd::<axial::Cpu>::new(SgdConfig::default())?;
    /// opt.set_positions(3);
    /// assert_eq!(opt.positions(), 3);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn set_positions(&mut self, n: usize) {
        if self.buffers.len() < n {
            self.buffers.resize_with(n, || None);
        }
    }

    /// How many parameter positions the optimizer has seen.
    ///
    /// ```
    /// use axial::optim::{Sgd, SgdConfig};
    /// assert_eq!(Sgd::<axial::Cpu>::new(SgdConfig::default())?.positions(), 0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn positions(&self) -> usize {
        self.buffers.len()
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

/// PyTorch's checks of SGD's hyper-parameters.
fn check(config: &SgdConfig) -> Result<()> {
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
    )
}

impl<D: Backend> Optimizer<D> for Sgd<D> {
    fn step(&mut self, params: &mut [&mut dyn Parameter<D>]) -> Result<()> {
        let configs = self.groups.per_position("SGD", params.len())?;
        if self.buffers.len() < params.len() {
            self.buffers.resize_with(params.len(), || None);
        }
        for (i, (p, &c)) in params.iter_mut().zip(configs).enumerate() {
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
        self.config().lr
    }

    fn set_lr(&mut self, lr: f64) {
        for c in self.groups.configs_mut() {
            c.lr = lr;
        }
    }
}
