//! Learning-rate schedules, as `torch.optim.lr_scheduler`'s: [`StepLr`],
//! [`CosineAnnealingLr`], [`LinearLr`] (a linear warm-up). Each computes the
//! next rate from the optimizer's current one with PyTorch's recurrence,
//! so the rates are PyTorch's to the last bit.

use axial_core::Device;

use super::Optimizer;

/// A learning-rate schedule: [`step`](Schedule::step) once per epoch (or
/// per optimizer step, as in PyTorch), after the optimizer's step.
pub trait Schedule {
    /// The learning rate of the next epoch, given the current one.
    fn next_lr(&mut self, lr: f64) -> f64;

    /// Moves to the next epoch and sets the optimizer's learning rate
    /// (PyTorch's `scheduler.step()`).
    ///
    /// ```
    /// use axial::optim::{Optimizer, Schedule, Sgd, SgdConfig, StepLr};
    /// let mut opt = Sgd::<axial::Cpu>::new(SgdConfig { lr: 1.0, ..SgdConfig::default() })?;
    /// let mut s = StepLr::new(1, 0.5);
    /// s.step(&mut opt);
    /// assert_eq!(opt.lr(), 0.5);
    /// # Ok::<(), axial::Error>(())
    /// ```
    fn step<D: Device, O: Optimizer<D> + ?Sized>(&mut self, opt: &mut O) {
        let lr = self.next_lr(opt.lr());
        opt.set_lr(lr);
    }
}

/// `StepLR`: the rate multiplied by `gamma` every `step_size` epochs.
///
/// ```
/// use axial::optim::{Schedule, StepLr};
/// let mut s = StepLr::new(2, 0.1);
/// let lrs: Vec<f64> = (0..4).scan(1.0, |lr, _| { *lr = s.next_lr(*lr); Some(*lr) }).collect();
/// assert_eq!(lrs, vec![1.0, 0.1, 0.1, 0.1 * 0.1]);
/// ```
#[derive(Clone, Debug)]
pub struct StepLr {
    step_size: u64,
    gamma: f64,
    epoch: u64,
}

impl StepLr {
    /// Every `step_size` epochs, times `gamma`.
    ///
    /// ```
    /// use axial::optim::StepLr;
    /// let _ = StepLr::new(30, 0.1);
    /// ```
    pub fn new(step_size: u64, gamma: f64) -> Self {
        StepLr {
            step_size: step_size.max(1),
            gamma,
            epoch: 0,
        }
    }
}

impl Schedule for StepLr {
    fn next_lr(&mut self, lr: f64) -> f64 {
        self.epoch += 1;
        match self.epoch % self.step_size {
            0 => lr * self.gamma,
            _ => lr,
        }
    }
}

/// `CosineAnnealingLR`: from the initial rate down to `eta_min` along half
/// a cosine over `t_max` epochs (and back up over the next `t_max`, as
/// PyTorch's does).
///
/// ```
/// use axial::optim::{CosineAnnealingLr, Schedule};
/// let mut s = CosineAnnealingLr::new(1.0, 4, 0.0);
/// let mut lr = 1.0;
/// for _ in 0..4 { lr = s.next_lr(lr); }
/// assert!(lr.abs() < 1e-15);
/// ```
#[derive(Clone, Debug)]
pub struct CosineAnnealingLr {
    base_lr: f64,
    t_max: u64,
    eta_min: f64,
    epoch: u64,
}

impl CosineAnnealingLr {
    /// From `base_lr` (the optimizer's rate when the schedule starts) to
    /// `eta_min` in `t_max` epochs.
    ///
    /// ```
    /// use axial::optim::CosineAnnealingLr;
    /// let _ = CosineAnnealingLr::new(1e-3, 100, 0.0);
    /// ```
    pub fn new(base_lr: f64, t_max: u64, eta_min: f64) -> Self {
        CosineAnnealingLr {
            base_lr,
            t_max: t_max.max(1),
            eta_min,
            epoch: 0,
        }
    }
}

impl Schedule for CosineAnnealingLr {
    fn next_lr(&mut self, lr: f64) -> f64 {
        use std::f64::consts::PI;
        self.epoch += 1;
        let (e, t) = (self.epoch as f64, self.t_max as f64);
        if (self.epoch as i128 - 1 - self.t_max as i128).rem_euclid(2 * self.t_max as i128) == 0 {
            return lr + (self.base_lr - self.eta_min) * (1.0 - (PI / t).cos()) / 2.0;
        }
        (1.0 + (PI * e / t).cos()) / (1.0 + (PI * (e - 1.0) / t).cos()) * (lr - self.eta_min)
            + self.eta_min
    }
}

/// `LinearLR`: the rate multiplied by a factor going linearly from
/// `start_factor` to `end_factor` over `total_iters` epochs, then kept (a
/// linear warm-up with `start_factor < 1`, `end_factor = 1`).
/// [`LinearLr::start`] applies the first factor, as PyTorch's constructor
/// does.
///
/// ```
/// use axial::optim::{LinearLr, Optimizer, Schedule, Sgd, SgdConfig};
/// let mut opt = Sgd::<axial::Cpu>::new(SgdConfig { lr: 1.0, ..SgdConfig::default() })?;
/// let mut warmup = LinearLr::start(&mut opt, 0.25, 1.0, 3);
/// assert_eq!(opt.lr(), 0.25);
/// for _ in 0..3 { warmup.step(&mut opt); }
/// assert!((opt.lr() - 1.0).abs() < 1e-15);
/// # Ok::<(), axial::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct LinearLr {
    start_factor: f64,
    end_factor: f64,
    total_iters: u64,
    epoch: u64,
}

impl LinearLr {
    /// The schedule, with the optimizer's rate multiplied by `start_factor`
    /// now.
    pub fn start<D: Device, O: Optimizer<D> + ?Sized>(
        opt: &mut O,
        start_factor: f64,
        end_factor: f64,
        total_iters: u64,
    ) -> Self {
        opt.set_lr(opt.lr() * start_factor);
        LinearLr {
            start_factor,
            end_factor,
            total_iters,
            epoch: 0,
        }
    }
}

impl Schedule for LinearLr {
    fn next_lr(&mut self, lr: f64) -> f64 {
        self.epoch += 1;
        if self.epoch > self.total_iters {
            return lr;
        }
        let (s, e) = (self.start_factor, self.end_factor);
        lr * (1.0 + (e - s) / (self.total_iters as f64 * s + (self.epoch as f64 - 1.0) * (e - s)))
    }
}
