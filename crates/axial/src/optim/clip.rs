//! [`clip_grad_norm`]: gradients scaled down to a largest total norm.

use axial_core::{Backend, BinaryOp, DType, ReduceOp, Result, Scalar};

use super::Parameter;

/// Scales the gradients of `params` so that their total L2 norm (the norm
/// of all their elements as one vector) is at most `max_norm`, as
/// `torch.nn.utils.clip_grad_norm_`: each gradient is multiplied by
/// `min(max_norm / (norm + 1e-6), 1)`. Returns the total norm before
/// clipping. Parameters without a gradient are skipped.
///
/// # Errors
/// The device failed.
///
/// ```
/// use axial::prelude::*;
/// use axial::autograd::Param;
/// use axial::optim::clip_grad_norm;
/// let mut a = Param::new(Tensor::<f32, shape![2]>::zeros());
/// let mut b = Param::new(Tensor::<f32, shape![1]>::zeros());
/// *a.grad_mut() = Some(Tensor::from_array([3.0, 0.0]));
/// *b.grad_mut() = Some(Tensor::from_array([4.0]));
/// let norm = clip_grad_norm(&mut [&mut a, &mut b], 1.0)?;
/// assert!((norm - 5.0).abs() < 1e-6);
/// assert!((a.grad().unwrap().get([0]) - 0.6).abs() < 1e-6);
/// # Ok::<(), axial::Error>(())
/// ```
pub fn clip_grad_norm<D: Backend>(
    params: &mut [&mut dyn Parameter<D>],
    max_norm: f64,
) -> Result<f64> {
    let mut squares = 0.0;
    for p in params.iter_mut() {
        let (_, grad) = p.parts();
        let Some(grad) = grad else { continue };
        let g = grad.as_ref().to_dtype(DType::F64)?;
        let sq = g.view().binary(BinaryOp::Mul, &g.view())?;
        squares += sq
            .view()
            .reduce(ReduceOp::Sum, &[], false)?
            .view()
            .item::<f64>()?;
    }
    let total = squares.sqrt();
    let coef = (max_norm / (total + 1e-6)).min(1.0);
    for p in params.iter_mut() {
        if let (_, Some(mut grad)) = p.parts() {
            grad.binary_scalar_(BinaryOp::Mul, Scalar::Float(coef))?;
        }
    }
    Ok(total)
}
