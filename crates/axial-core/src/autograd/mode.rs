//! [`no_grad`]: a scope in which ops on tracked tensors record nothing.

use std::cell::Cell;

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(true) };
}

/// True unless a [`no_grad`] scope is running on this thread.
///
/// ```
/// use axial_core::autograd::{is_grad_enabled, no_grad};
/// assert!(is_grad_enabled());
/// assert!(!no_grad(is_grad_enabled));
/// ```
pub fn is_grad_enabled() -> bool {
    ENABLED.with(Cell::get)
}

/// Restores the mode when the scope ends, however it ends.
struct Restore(bool);

impl Drop for Restore {
    fn drop(&mut self) {
        ENABLED.with(|e| e.set(self.0));
    }
}

/// Runs `f` with gradients off (PyTorch's `with torch.no_grad():`): ops on
/// tracked tensors give results that need no gradient and keep nothing, as
/// an evaluation pass wants. Scopes nest; the mode is per thread.
///
/// ```
/// use axial_core::autograd::{Var, no_grad};
/// use axial_core::RawTensor;
/// let w = Var::leaf(RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?)?;
/// let y = no_grad(|| w.exp())?;
/// assert!(!y.requires_grad());
/// assert!(w.exp()?.requires_grad());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn no_grad<R>(f: impl FnOnce() -> R) -> R {
    let _restore = Restore(ENABLED.with(|e| e.replace(false)));
    f()
}
