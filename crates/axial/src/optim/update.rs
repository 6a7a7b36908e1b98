//! The arithmetic of an update, in PyTorch's order (`add_(t, alpha=a)` is
//! `self += a·t`, `addcmul_(a, b, value=v)` is `self += (v·a)·b`,
//! `addcdiv_(a, b, value=v)` is `self += (v·a)/b`), on any device, and the
//! state an optimizer keeps per parameter.

use axial_core::{
    Backend, BinaryOp, DType, Error, RawTensor, Result, Scalar, TensorMut, TensorRef,
};

/// `t · s`, a new tensor.
pub(crate) fn times<D: Backend>(t: &TensorRef<'_, D>, s: f64) -> Result<RawTensor<D>> {
    t.binary_scalar(BinaryOp::Mul, Scalar::Float(s))
}

/// `dst *= s`.
pub(crate) fn scale_<D: Backend>(dst: &mut TensorMut<'_, D>, s: f64) -> Result<()> {
    dst.binary_scalar_(BinaryOp::Mul, Scalar::Float(s))
}

/// `dst += s · t` (PyTorch's `dst.add_(t, alpha=s)`).
pub(crate) fn add_scaled_<D: Backend>(
    dst: &mut TensorMut<'_, D>,
    t: &TensorRef<'_, D>,
    s: f64,
) -> Result<()> {
    dst.binary_(BinaryOp::Add, &times(t, s)?.view())
}

/// `dst += (s · a) op b` (PyTorch's `addcmul_` for `Mul`, `addcdiv_` for
/// `Div`).
pub(crate) fn add_combined_<D: Backend>(
    dst: &mut TensorMut<'_, D>,
    a: &TensorRef<'_, D>,
    op: BinaryOp,
    b: &TensorRef<'_, D>,
    s: f64,
) -> Result<()> {
    let mut t = times(a, s)?;
    t.view_mut().binary_(op, b)?;
    dst.binary_(BinaryOp::Add, &t.view())
}

/// A new state tensor of `value`'s shape and dtype, of zeros.
pub(crate) fn zeros_like<D: Backend>(value: &TensorRef<'_, D>) -> Result<RawTensor<D>> {
    let mut t = value.to_contiguous()?;
    t.view_mut().zero_()?;
    Ok(t)
}

/// Checks that the state kept for position `index` fits its parameter.
pub(crate) fn check_fits<D: Backend>(
    op: &'static str,
    index: usize,
    state: &RawTensor<D>,
    value: &TensorRef<'_, D>,
) -> Result<()> {
    if state.shape() != value.shape() || state.dtype() != value.dtype() {
        return Err(Error::invalid(
            op,
            format!(
                "the state of parameter {index} is of shape {:?} and dtype {}, but the parameter at that position is of shape {:?} and dtype {}: pass the same parameters in the same order at every step",
                state.shape(),
                state.dtype(),
                value.shape(),
                value.dtype()
            ),
        ));
    }
    Ok(())
}

/// Refuses a parameter of an integer or boolean dtype.
pub(crate) fn check_float(op: &'static str, index: usize, dtype: DType) -> Result<()> {
    if !dtype.is_float() {
        return Err(Error::invalid(
            op,
            format!(
                "parameter {index} is of dtype {dtype}: only floating-point parameters can be optimized"
            ),
        ));
    }
    Ok(())
}
