//! Optimizers: PyTorch's [`Sgd`], [`Adam`] and AdamW ([`Adam::adamw`]),
//! with the same hyper-parameters, defaults and order of operations as
//! `torch.optim` (so the same gradients give the same parameters, within
//! rounding); [`clip_grad_norm`]; the learning-rate schedules [`StepLr`],
//! [`CosineAnnealingLr`] and [`LinearLr`] (a linear warm-up); and
//! [`zero_grad`], which empties the gradient slots as PyTorch's
//! `zero_grad()` does (`set_to_none=True`).
//!
//! An optimizer is given the parameters at each step as a list of
//! [`Parameter`]s (each [`Param`] is one, whatever its shape and dtype);
//! it keeps its state by their position in that list, as PyTorch's `state`
//! is by parameter index, so the list must name the same parameters in
//! the same order at every step.
//!
//! # Example
//! ```
//! use axial::prelude::*;
//! use axial::autograd::Param;
//! use axial::optim::{Adam, AdamConfig, Optimizer, zero_grad};
//! axes!(In, Out);
//! let mut w = Param::new(Tensor::<f32, shape![Out: 1, In: 2]>::from_array([[1.0, -1.0]]));
//! let mut b = Param::new(Tensor::<f32, shape![Out: 1]>::zeros());
//! let x = Tensor::<f32, shape![In: 2]>::from_array([2.0, 1.0]);
//! let mut opt = Adam::adamw(AdamConfig { lr: 0.1, ..AdamConfig::adamw() })?;
//! for _ in 0..50 {
//!     let mut grads = x.linear_tracked(&w.var(), Some(&b.var())).square().sum_all().backward();
//!     grads.accumulate(&mut w);
//!     grads.accumulate(&mut b);
//!     opt.step(&mut [&mut w, &mut b])?;
//!     zero_grad(&mut [&mut w, &mut b]);
//! }
//! let y = x.linear(w.value(), Some(b.value().as_view())).sum_all().item();
//! assert!(y.abs() < 0.1, "{y}");
//! # Ok::<(), axial::Error>(())
//! ```

mod adam;
mod clip;
mod groups;
mod schedule;
mod sgd;
mod update;

pub use adam::{Adam, AdamConfig};
pub use clip::clip_grad_norm;
pub use schedule::{CosineAnnealingLr, LinearLr, Schedule, StepLr};
pub use sgd::{Sgd, SgdConfig};

use axial_core::autograd::LeafId;
use axial_core::{Backend, Device, RawTensor, Result, TensorMut};
use axial_shape::Shape;

use crate::autograd::Param;
use crate::float::Float;

/// A trainable tensor as an optimizer sees it: its value, to update in
/// place, and its gradient slot. [`Param`] is one for every shape and
/// dtype, so a list of `&mut dyn Parameter<D>` holds a model's parameters.
///
/// ```
/// use axial::prelude::*;
/// use axial::autograd::Param;
/// use axial::optim::Parameter;
/// let mut p = Param::new(Tensor::<f32, shape![2]>::ones());
/// let list: [&mut dyn Parameter<Cpu>; 1] = [&mut p];
/// assert!(list[0].parts().1.is_none()); // no gradient yet
/// ```
pub trait Parameter<D: Device> {
    /// The value and the gradient (if any), as the core's tensors.
    fn parts(&mut self) -> (TensorMut<'_, D>, Option<TensorMut<'_, D>>);

    /// Empties the gradient slot.
    fn clear_grad(&mut self);

    /// The name its gradient is filed under in a backward pass's
    /// [`Gradients`](crate::autograd::Gradients) (by default none: a
    /// parameter whose gradients are set by hand).
    fn leaf_id(&self) -> Option<LeafId> {
        None
    }

    /// Adds `grad` into the gradient slot (set when empty, summed
    /// otherwise), as [`Gradients::accumulate`](crate::autograd::Gradients::accumulate).
    ///
    /// # Errors
    /// `grad` is not of the parameter's shape and dtype, or the device
    /// failed to add; by default, always (a parameter without a
    /// [`leaf_id`](Parameter::leaf_id) is given no gradient).
    fn add_grad(&mut self, grad: RawTensor<D>) -> Result<()> {
        Err(axial_core::Error::invalid(
            "add_grad",
            format!(
                "a gradient of shape {:?} for a parameter that takes none from a backward pass",
                grad.shape()
            ),
        ))
    }
}

impl<T: Float, S: Shape, D: Backend> Parameter<D> for Param<T, S, D> {
    fn parts(&mut self) -> (TensorMut<'_, D>, Option<TensorMut<'_, D>>) {
        (
            self.value.raw_mut(),
            self.grad.as_mut().map(|g| g.raw_mut()),
        )
    }

    fn clear_grad(&mut self) {
        self.grad = None;
    }

    fn leaf_id(&self) -> Option<LeafId> {
        Some(self.id())
    }

    fn add_grad(&mut self, grad: RawTensor<D>) -> Result<()> {
        self.add_raw_grad(grad)
    }
}

/// What every optimizer does: a step over the parameters' gradients, and
/// its learning rate, which a [`Schedule`] sets.
pub trait Optimizer<D: Device> {
    /// Updates every parameter that has a gradient (PyTorch's
    /// `optimizer.step()`); a parameter without one is left as it is, and
    /// its state too.
    ///
    /// # Errors
    /// A parameter's shape or dtype differs from the one its position had
    /// at the previous step (the list changed), or the device failed.
    fn step(&mut self, params: &mut [&mut dyn Parameter<D>]) -> Result<()>;

    /// The learning rate (PyTorch's `param_groups[0]["lr"]`).
    fn lr(&self) -> f64;

    /// Sets the learning rate of every parameter group (a [`Schedule`]
    /// drives one rate for all; each optimizer's `set_group_lr` sets one
    /// group's).
    fn set_lr(&mut self, lr: f64);
}

/// Empties the gradient slot of every parameter (PyTorch's
/// `optimizer.zero_grad()`, whose default is `set_to_none=True`): the next
/// backward pass sets the gradients rather than adding to zeros.
///
/// ```
/// use axial::prelude::*;
/// use axial::autograd::Param;
/// use axial::optim::zero_grad;
/// let mut p = Param::new(Tensor::<f32, shape![2]>::ones());
/// *p.grad_mut() = Some(Tensor::ones());
/// zero_grad(&mut [&mut p]);
/// assert!(p.grad().is_none());
/// ```
pub fn zero_grad<D: Device>(params: &mut [&mut dyn Parameter<D>]) {
    for p in params {
        p.clear_grad();
    }
}
