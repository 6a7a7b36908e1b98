//! [`gradcheck`]: a typed function's gradients checked against finite
//! differences, in f64 only.

use axial_core::autograd::{F64, Jacobian, Tolerance, gradcheck_by};
use axial_core::{Cpu, RawTensor, Result};
use axial_shape::Shape;

use super::var::{Kept, Var};
use crate::access::owned;
use crate::tensor::Tensor;

/// The dtype [`gradcheck`] checks in: f64 only.
///
/// ```
/// use axial::autograd::GradcheckDtype;
/// fn checked<T: GradcheckDtype>() {}
/// checked::<f64>();
/// ```
#[diagnostic::on_unimplemented(
    message = "gradcheck needs an f64 tensor, not `{Self}`: the finite differences of lower precisions are too coarse to check a gradient",
    label = "a tensor of `{Self}`",
    note = "check in f64: `x.cast::<f64>()`"
)]
pub trait GradcheckDtype: crate::Float + sealed::Sealed {}

impl GradcheckDtype for f64 {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f64 {}
}

/// A typed function of one f64 tensor as the core's [`Jacobian`].
struct Typed<F, T, S>(F, std::marker::PhantomData<fn() -> (T, S)>);

impl<'x, F, T, S, S2, W> Jacobian for Typed<F, T, S>
where
    T: GradcheckDtype,
    S: Shape,
    F: Fn(Var<'static, T, S, Cpu, Kept>) -> Var<'x, T, S2, Cpu, W>,
{
    fn forward(&self, inputs: &[RawTensor<Cpu>]) -> Result<(Vec<usize>, Vec<f64>)> {
        let x: Tensor<T, S> = owned(inputs[0].view().to_owned()?);
        let y = (self.0)(Var::leaf(x));
        let values = y.raw().to_contiguous()?.to_vec::<f64>()?;
        Ok((y.layout().shape().to_vec(), values))
    }

    fn backward(
        &self,
        inputs: &[RawTensor<Cpu>],
        seed: RawTensor<Cpu>,
    ) -> Result<Vec<Option<Vec<f64>>>> {
        let x: Tensor<T, S> = owned(inputs[0].view().to_owned()?);
        let v = Var::leaf(x);
        let id = v.leaf_id();
        let y = (self.0)(v).core()?.into_owned_var();
        let grads = y.backward_with(seed)?;
        let g = id.and_then(|id| grads.get(id));
        Ok(vec![
            g.map(|g| g.to_contiguous()?.to_vec::<f64>()).transpose()?,
        ])
    }
}

/// Checks the gradient of `f` at `x` against central finite differences
/// of `f` (PyTorch's `gradcheck` and its defaults: eps 1e-6, atol 1e-5,
/// rtol 1e-3), for every element of the output and of `x`; `f` is given
/// `x` as a leaf. f64 only: the differences of lower precisions are too
/// coarse to check a gradient.
///
/// # Errors
/// The first entry of the Jacobian that differs, or an error of `f`.
///
/// ```
/// use axial::prelude::*;
/// use axial::autograd::gradcheck;
/// axes!(Rows, Cols);
/// let x = Tensor::<f64, shape![Rows: 2, Cols: 3]>::from_array([[0.1, -0.4, 0.9], [1.2, -2.0, 0.3]]);
/// gradcheck(|v| v.softmax::<Cols>().log().mean::<Rows>(), &x)?;
/// # Ok::<(), axial::Error>(())
/// ```
pub fn gradcheck<'x, T, S, S2, W, F>(f: F, x: &Tensor<T, S>) -> Result<()>
where
    T: GradcheckDtype,
    S: Shape,
    F: Fn(Var<'static, T, S, Cpu, Kept>) -> Var<'x, T, S2, Cpu, W>,
{
    let input = F64::from_raw(x.raw().to_owned()?)?;
    gradcheck_by(
        &Typed(f, std::marker::PhantomData),
        &[input],
        Tolerance::default(),
    )
}
