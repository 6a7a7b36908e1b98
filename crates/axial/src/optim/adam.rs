//! [`Adam`] and AdamW ([`Adam::adamw`]), with AMSGrad, as `torch.optim.Adam`
//! and `torch.optim.AdamW`.

use axial_core::ops::AdamUpdate;
use axial_core::{
    Backend, BinaryOp, DType, Error, RawTensor, Result, Scalar, TensorMut, TensorRef, UnaryOp,
};

use super::groups::Groups;
use super::update::{
    add_combined_, add_scaled_, check_fits, check_float, scale_, times, zeros_like,
};
use super::{Optimizer, Parameter};

/// The hyper-parameters of [`Adam`], PyTorch's names; the defaults are
/// Adam's ([`Default`]) or AdamW's ([`AdamConfig::adamw`], a weight decay
/// of 1e-2).
///
/// ```
/// use axial::optim::AdamConfig;
/// assert_eq!(AdamConfig::default().weight_decay, 0.0);
/// assert_eq!(AdamConfig::adamw().weight_decay, 1e-2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamConfig {
    /// The learning rate (default 1e-3).
    pub lr: f64,
    /// The decay rates of the running averages of the gradient and of its
    /// square (default (0.9, 0.999)).
    pub betas: (f64, f64),
    /// Added to the denominator (default 1e-8).
    pub eps: f64,
    /// The weight decay: an L2 penalty added to the gradient (Adam), or the
    /// parameter shrunk by `1 − lr·weight_decay` before the update (AdamW).
    pub weight_decay: f64,
    /// AMSGrad: divide by the largest running average of the squared
    /// gradient seen so far (default off).
    pub amsgrad: bool,
    /// Ascends instead of descending (default off).
    pub maximize: bool,
}

impl Default for AdamConfig {
    fn default() -> Self {
        AdamConfig {
            lr: 1e-3,
            betas: (0.9, 0.999),
            eps: 1e-8,
            weight_decay: 0.0,
            amsgrad: false,
            maximize: false,
        }
    }
}

impl AdamConfig {
    /// AdamW's defaults: Adam's, with a weight decay of 1e-2.
    ///
    /// ```
    /// use axial::optim::AdamConfig;
    /// assert_eq!(AdamConfig::adamw().lr, 1e-3);
    /// ```
    pub fn adamw() -> Self {
        AdamConfig {
            weight_decay: 1e-2,
            ..AdamConfig::default()
        }
    }
}

/// What Adam keeps per parameter (PyTorch's `state[i]`).
struct State<D: Backend> {
    step: f64,
    exp_avg: RawTensor<D>,
    exp_avg_sq: RawTensor<D>,
    max_exp_avg_sq: Option<RawTensor<D>>,
}

/// `torch.optim.Adam` and `torch.optim.AdamW` (PyTorch's single-tensor
/// loop, its order of operations): for each parameter with a gradient `g`,
/// at step `t`, the weight decay (added to `g`, or AdamW's `p *= 1 −
/// lr·wd`), `m = lerp(m, g, 1 − β₁)`, `v = β₂·v + (1 − β₂)·g²`, AMSGrad's
/// `v̂ = max(v̂, v)`, then `p −= lr/(1 − β₁ᵗ) · m / (√v / √(1 − β₂ᵗ) + ε)`.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// use axial::autograd::Param;
/// use axial::optim::{Adam, AdamConfig, Optimizer};
/// let mut p = Param::new(Tensor::<f64, shape![2]>::from_array([1.0, -1.0]));
/// let mut opt = Adam::new(AdamConfig { lr: 0.1, ..AdamConfig::default() })?;
/// *p.grad_mut() = Some(Tensor::from_array([3.0, -0.5]));
/// opt.step(&mut [&mut p])?;
/// // The first step moves each element by about lr, against its gradient's sign.
/// let v = p.value().to_vec();
/// assert!((v[0] - 0.9).abs() < 1e-6 && (v[1] + 0.9).abs() < 1e-6);
/// # Ok::<(), axial::Error>(())
/// ```
pub struct Adam<D: Backend = axial_core::Cpu> {
    groups: Groups<AdamConfig>,
    decoupled: bool,
    states: Vec<Option<State<D>>>,
}

impl<D: Backend> Adam<D> {
    /// Adam (`torch.optim.Adam`): the weight decay is an L2 penalty.
    ///
    /// # Errors
    /// PyTorch's: a negative learning rate, epsilon or weight decay, or a
    /// beta outside [0, 1).
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// assert!(Adam::<axial::Cpu>::new(AdamConfig { betas: (1.0, 0.9), ..AdamConfig::default() }).is_err());
    /// ```
    pub fn new(config: AdamConfig) -> Result<Self> {
        Adam::with(config, false, "Adam")
    }

    /// AdamW (`torch.optim.AdamW`): the weight decay is decoupled from the
    /// gradient, the parameter shrunk by `1 − lr·weight_decay` first.
    ///
    /// # Errors
    /// As [`Adam::new`].
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// let opt = Adam::<axial::Cpu>::adamw(AdamConfig::adamw())?;
    /// assert!(opt.is_adamw());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn adamw(config: AdamConfig) -> Result<Self> {
        Adam::with(config, true, "AdamW")
    }

    /// Adam (or AdamW, when `decoupled`) over parameter groups (PyTorch's
    /// `param_groups`): each its hyper-parameters and how many parameters
    /// it holds; a step's list holds the first group's parameters, then the
    /// second's, and so on.
    ///
    /// # Errors
    /// As [`Adam::new`] for any group's hyper-parameters; no group.
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// let no_decay = AdamConfig { weight_decay: 0.0, ..AdamConfig::adamw() };
    /// let opt = Adam::<axial::Cpu>::with_groups([(AdamConfig::adamw(), 4), (no_decay, 2)], true)?;
    /// assert_eq!((opt.groups(), opt.group_params(1)), (2, 4..6));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn with_groups(
        groups: impl IntoIterator<Item = (AdamConfig, usize)>,
        decoupled: bool,
    ) -> Result<Self> {
        let op = if decoupled { "AdamW" } else { "Adam" };
        let groups: Vec<_> = groups.into_iter().collect();
        for (c, _) in &groups {
            check(c, op)?;
        }
        Ok(Adam {
            groups: Groups::several(op, groups)?,
            decoupled,
            states: Vec::new(),
        })
    }

    /// How many parameter groups.
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// assert_eq!(Adam::<axial::Cpu>::new(AdamConfig::default())?.groups(), 1);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn groups(&self) -> usize {
        self.groups.len()
    }

    /// The hyper-parameters of group `k`.
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// let opt = Adam::<axial::Cpu>::with_groups([(AdamConfig::default(), 1)], false)?;
    /// assert_eq!(opt.group_config(0).map(|c| c.lr), Some(1e-3));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn group_config(&self, k: usize) -> Option<&AdamConfig> {
        self.groups.config(k)
    }

    /// The positions of group `k`'s parameters in a step's list (for the
    /// one group of [`Adam::new`], every position seen so far).
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// let opt = Adam::<axial::Cpu>::with_groups([(AdamConfig::default(), 3)], false)?;
    /// assert_eq!(opt.group_params(0), 0..3);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn group_params(&self, k: usize) -> std::ops::Range<usize> {
        self.groups.range(k, self.states.len())
    }

    /// Sets group `k`'s learning rate.
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// let mut opt = Adam::<axial::Cpu>::new(AdamConfig::default())?;
    /// opt.set_group_lr(0, 0.5);
    /// assert_eq!(opt.config().lr, 0.5);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn set_group_lr(&mut self, k: usize, lr: f64) {
        if let Some(c) = self.groups.configs_mut().get_mut(k) {
            c.lr = lr;
        }
    }

    fn with(config: AdamConfig, decoupled: bool, op: &'static str) -> Result<Self> {
        check(&config, op)?;
        Ok(Adam {
            groups: Groups::one(config),
            decoupled,
            states: Vec::new(),
        })
    }

    /// True for AdamW.
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// assert!(!Adam::<axial::Cpu>::new(AdamConfig::default())?.is_adamw());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn is_adamw(&self) -> bool {
        self.decoupled
    }

    /// The hyper-parameters (of the first group).
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// assert_eq!(Adam::<axial::Cpu>::new(AdamConfig::default())?.config().eps, 1e-8);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn config(&self) -> &AdamConfig {
        &self.groups.configs_ref()[0]
    }

    /// The number of steps the parameter at `index` has taken (PyTorch's
    /// `state[index]["step"]`).
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// assert_eq!(Adam::<axial::Cpu>::new(AdamConfig::default())?.steps(0), 0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn steps(&self, index: usize) -> u64 {
        self.state(index).map_or(0, |s| s.step as u64)
    }

    /// The running averages of the parameter at `index` (`exp_avg`,
    /// `exp_avg_sq`, and AMSGrad's `max_exp_avg_sq`), once a step made them.
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// assert!(Adam::<axial::Cpu>::new(AdamConfig::default())?.moments(0).is_none());
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn moments(
        &self,
        index: usize,
    ) -> Option<(&RawTensor<D>, &RawTensor<D>, Option<&RawTensor<D>>)> {
        let s = self.state(index)?;
        Some((&s.exp_avg, &s.exp_avg_sq, s.max_exp_avg_sq.as_ref()))
    }

    /// How many parameter positions the optimizer has seen (the length of
    /// the list given to its last step; PyTorch's `param_groups[0]["params"]`).
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// assert_eq!(Adam::<axial::Cpu>::new(AdamConfig::default())?.positions(), 0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn positions(&self) -> usize {
        self.states.len()
    }

    /// Sets the state of the parameter at `index` (a loaded state dict's
    /// `state[index]`): its step count and running averages, which must
    /// agree in shape and dtype, with AMSGrad's maximum exactly when the
    /// optimizer uses AMSGrad. Positions up to `index` without a state are
    /// kept empty.
    ///
    /// # Errors
    /// The tensors differ in shape or dtype, or are not floating-point, or
    /// AMSGrad's maximum is missing or superfluous.
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// use axial_core::{DType, RawTensor};
    /// let mut opt = Adam::<axial::Cpu>::new(AdamConfig::default())?;
    /// let z = || RawTensor::zeros(&[2], DType::F32);
    /// opt.set_state(1, 3, z()?, z()?, None)?;
    /// assert_eq!((opt.positions(), opt.steps(1)), (2, 3));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn set_state(
        &mut self,
        index: usize,
        steps: u64,
        exp_avg: RawTensor<D>,
        exp_avg_sq: RawTensor<D>,
        max_exp_avg_sq: Option<RawTensor<D>>,
    ) -> Result<()> {
        let op = if self.decoupled { "AdamW" } else { "Adam" };
        check_float(op, index, exp_avg.dtype())?;
        check_fits(op, index, &exp_avg, &exp_avg_sq.view())?;
        if let Some(max) = &max_exp_avg_sq {
            check_fits(op, index, &exp_avg, &max.view())?;
        }
        let amsgrad = self
            .groups
            .config(self.group_of(index))
            .is_some_and(|c| c.amsgrad);
        if max_exp_avg_sq.is_some() != amsgrad {
            return Err(Error::invalid(
                op,
                format!(
                    "the state of parameter {index} {} max_exp_avg_sq, but amsgrad is {}",
                    if max_exp_avg_sq.is_some() {
                        "has"
                    } else {
                        "has no"
                    },
                    amsgrad
                ),
            ));
        }
        if self.states.len() <= index {
            self.states.resize_with(index + 1, || None);
        }
        self.states[index] = Some(State {
            step: steps as f64,
            exp_avg,
            exp_avg_sq,
            max_exp_avg_sq,
        });
        Ok(())
    }

    /// Says how many positions the optimizer has (PyTorch's
    /// `param_groups[0]["params"]` of a loaded state dict), for a state
    /// dict whose last parameters have no state yet.
    ///
    /// ```
    /// use axial::optim::{Adam, AdamConfig};
    /// let mut opt = Adam::<axial::Cpu>::new(AdamConfig::default())?;
    /// opt.set_positions(3);
    /// assert_eq!(opt.positions(), 3);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn set_positions(&mut self, n: usize) {
        if self.states.len() < n {
            self.states.resize_with(n, || None);
        }
    }

    /// The group that holds position `index`.
    fn group_of(&self, index: usize) -> usize {
        (0..self.groups.len())
            .find(|&k| self.groups.range(k, usize::MAX).contains(&index))
            .unwrap_or(0)
    }

    fn state(&self, index: usize) -> Option<&State<D>> {
        self.states.get(index)?.as_ref()
    }
}

/// PyTorch's checks of Adam's hyper-parameters.
fn check(config: &AdamConfig, op: &'static str) -> Result<()> {
    let check = |ok: bool, what: String| match ok {
        true => Ok(()),
        false => Err(Error::invalid(op, what)),
    };
    let (b1, b2) = config.betas;
    check(
        config.lr >= 0.0,
        format!("Invalid learning rate: {}", config.lr),
    )?;
    check(
        config.eps >= 0.0,
        format!("Invalid epsilon value: {}", config.eps),
    )?;
    check(
        (0.0..1.0).contains(&b1),
        format!("Invalid beta parameter at index 0: {b1}"),
    )?;
    check(
        (0.0..1.0).contains(&b2),
        format!("Invalid beta parameter at index 1: {b2}"),
    )?;
    check(
        config.weight_decay >= 0.0,
        format!("Invalid weight_decay value: {}", config.weight_decay),
    )
}

impl<D: Backend> Optimizer<D> for Adam<D> {
    fn step(&mut self, params: &mut [&mut dyn Parameter<D>]) -> Result<()> {
        let op = if self.decoupled { "AdamW" } else { "Adam" };
        let configs = self.groups.per_position(op, params.len())?;
        if self.states.len() < params.len() {
            self.states.resize_with(params.len(), || None);
        }
        for (i, (p, &c)) in params.iter_mut().zip(configs).enumerate() {
            let (beta1, beta2) = c.betas;
            let (mut value, grad) = p.parts();
            let Some(grad) = grad else { continue };
            check_float(op, i, value.dtype())?;
            let grad = grad.as_ref();
            let state = match &mut self.states[i] {
                Some(s) => {
                    check_fits(op, i, &s.exp_avg, &value.as_ref())?;
                    s
                }
                slot @ None => slot.insert(State {
                    step: 0.0,
                    exp_avg: zeros_like(&value.as_ref())?,
                    exp_avg_sq: zeros_like(&value.as_ref())?,
                    max_exp_avg_sq: match c.amsgrad {
                        true => Some(zeros_like(&value.as_ref())?),
                        false => None,
                    },
                }),
            };
            state.step += 1.0;
            let update = AdamUpdate {
                lr: c.lr,
                beta1,
                beta2,
                eps: c.eps,
                weight_decay: c.weight_decay,
                decoupled: self.decoupled,
                maximize: c.maximize,
                step: state.step,
            };
            let fused = state.max_exp_avg_sq.is_none()
                && update.fused(
                    &mut value,
                    &grad,
                    &mut state.exp_avg.view_mut(),
                    &mut state.exp_avg_sq.view_mut(),
                )?;
            if !fused {
                compose(&update, &mut value, &grad, state)?;
            }
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

/// `update` composed of primitives, as PyTorch's single-tensor loop runs
/// it (with AMSGrad's maximum when `state` keeps one): what a device
/// without a fused kernel for the operands runs.
fn compose<D: Backend>(
    update: &AdamUpdate,
    value: &mut TensorMut<'_, D>,
    grad: &TensorRef<'_, D>,
    state: &mut State<D>,
) -> Result<()> {
    let mut g: RawTensor<D> = match update.maximize {
        true => times(grad, -1.0)?,
        false => grad.to_contiguous()?,
    };
    if update.weight_decay != 0.0 {
        match update.decoupled {
            true => scale_(value, 1.0 - update.lr * update.weight_decay)?,
            false => {
                g = g.view().binary(
                    BinaryOp::Add,
                    &times(&value.as_ref(), update.weight_decay)?.view(),
                )?
            }
        }
    }
    lerp_(&mut state.exp_avg, &g, update)?;
    let mut v = state.exp_avg_sq.view_mut();
    scale_(&mut v, update.beta2)?;
    add_combined_(
        &mut v,
        &g.view(),
        BinaryOp::Mul,
        &g.view(),
        1.0 - update.beta2,
    )?;
    let second = match &mut state.max_exp_avg_sq {
        Some(max) => {
            max.view_mut()
                .binary_(BinaryOp::Maximum, &state.exp_avg_sq.view())?;
            &*max
        }
        None => &state.exp_avg_sq,
    };
    let mut denom = second.view().unary(UnaryOp::Sqrt)?;
    let mut d = denom.view_mut();
    d.binary_scalar_(BinaryOp::Div, Scalar::Float(update.bias_correction2_sqrt()))?;
    d.binary_scalar_(BinaryOp::Add, Scalar::Float(update.eps))?;
    add_combined_(
        value,
        &state.exp_avg.view(),
        BinaryOp::Div,
        &denom.view(),
        -update.step_size(),
    )
}

/// `m = lerp(m, g, 1 − β₁)` as PyTorch computes it: `m + w·(g − m)` for a
/// small weight, `g − (g − m)·(1 − w)` for a large one, the weight and its
/// rounding those of the fused kernel ([`AdamUpdate::lerp`]).
fn lerp_<D: Backend>(m: &mut RawTensor<D>, g: &RawTensor<D>, update: &AdamUpdate) -> Result<()> {
    let diff = g.view().binary(BinaryOp::Sub, &m.view())?;
    let (w, far) = update.lerp(m.dtype() != DType::F64);
    let Some(one_minus) = far else {
        return add_scaled_(&mut m.view_mut(), &diff.view(), w);
    };
    let far = g
        .view()
        .binary(BinaryOp::Sub, &times(&diff.view(), one_minus)?.view())?;
    m.view_mut().copy_(&far.view())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axial_core::{Cpu, Generator};

    /// The fused pass and the composed ops give the same bits: for Adam
    /// and AdamW, with and without decay, maximizing, both forms of the
    /// lerp (β₁ of 0.9 and 0.3), over several steps, in f32 and f64, on
    /// sizes below and above the threshold where the pass is threaded.
    #[test]
    fn the_fused_update_is_the_composed_one_bit_for_bit() {
        let mut rng = Generator::seed(7);
        for dtype in [DType::F32, DType::F64] {
            for (n, beta1, wd, decoupled, maximize) in [
                (37, 0.9, 0.0, false, false),
                (300_001, 0.9, 1e-2, true, false),
                (1000, 0.3, 0.1, false, true),
                (1000, 0.9, 0.5, true, true),
            ] {
                let randn =
                    |rng: &mut Generator| RawTensor::<Cpu>::randn(&[n], dtype, rng).unwrap();
                let p0 = randn(&mut rng);
                let (mut p_fused, mut p_composed) = (p0.view().to_contiguous().unwrap(), p0);
                let state = |t: &RawTensor<Cpu>| State {
                    step: 0.0,
                    exp_avg: zeros_like(&t.view()).unwrap(),
                    exp_avg_sq: zeros_like(&t.view()).unwrap(),
                    max_exp_avg_sq: None,
                };
                let (mut fused, mut composed) = (state(&p_fused), state(&p_fused));
                for step in 1..=3 {
                    let g = randn(&mut rng);
                    let update = AdamUpdate {
                        lr: 1e-2,
                        beta1,
                        beta2: 0.999,
                        eps: 1e-8,
                        weight_decay: wd,
                        decoupled,
                        maximize,
                        step: f64::from(step),
                    };
                    let ran = update
                        .fused(
                            &mut p_fused.view_mut(),
                            &g.view(),
                            &mut fused.exp_avg.view_mut(),
                            &mut fused.exp_avg_sq.view_mut(),
                        )
                        .unwrap();
                    assert!(ran);
                    compose(
                        &update,
                        &mut p_composed.view_mut(),
                        &g.view(),
                        &mut composed,
                    )
                    .unwrap();
                    let bits = |t: &RawTensor<Cpu>| t.storage().as_bytes().to_vec();
                    let same = |a: &RawTensor<Cpu>, b: &RawTensor<Cpu>| bits(a) == bits(b);
                    let case = format!("{dtype} n={n} beta1={beta1} wd={wd} step {step}");
                    assert!(same(&p_fused, &p_composed), "param, {case}");
                    assert!(same(&fused.exp_avg, &composed.exp_avg), "exp_avg, {case}");
                    assert!(
                        same(&fused.exp_avg_sq, &composed.exp_avg_sq),
                        "exp_avg_sq, {case}"
                    );
                }
            }
        }
    }
}
