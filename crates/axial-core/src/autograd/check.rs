//! [`gradcheck`]: the gradients of a function checked against finite
//! differences, in f64 (PyTorch's `torch.autograd.gradcheck`, its defaults).

use super::var::Var;
use crate::{Cpu, DType, Error, RawTensor, Result};

/// An input of [`gradcheck`]: an f64 tensor, the only dtype whose finite
/// differences are accurate enough to check a gradient with.
///
/// # Example
/// ```
/// use axial_core::autograd::F64;
/// let x = F64::new(vec![1.0, 2.0], &[2])?;
/// assert_eq!(x.shape(), &[2]);
/// assert!(F64::new(vec![1.0], &[2]).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct F64(RawTensor<Cpu>);

impl F64 {
    /// A tensor of `shape` holding `values`.
    ///
    /// # Errors
    /// A number of values other than the shape's.
    pub fn new(values: Vec<f64>, shape: &[usize]) -> Result<F64> {
        Ok(F64(RawTensor::from_vec(values, shape)?))
    }

    /// An f64 tensor of the core (its values; the check's leaves are dense:
    /// other layouts are tested by views taken inside the function).
    ///
    /// # Errors
    /// Another dtype.
    ///
    /// ```
    /// # use axial_core::{autograd::F64, RawTensor};
    /// assert!(F64::from_raw(RawTensor::from_vec(vec![1.0f32], &[1])?).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_raw(t: RawTensor<Cpu>) -> Result<F64> {
        if t.dtype() != DType::F64 {
            return Err(Error::DTypeMismatch {
                op: "gradcheck",
                expected: DType::F64,
                got: t.dtype(),
            });
        }
        Ok(F64(t))
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        self.0.shape()
    }
}

/// PyTorch's `gradcheck` tolerances: a step of `eps` on each side, and
/// `|analytical − numerical| ≤ atol + rtol·|numerical|` for every entry of
/// the Jacobian.
///
/// # Example
/// ```
/// use axial_core::autograd::Tolerance;
/// let t = Tolerance::default();
/// assert_eq!((t.eps, t.atol, t.rtol), (1e-6, 1e-5, 1e-3));
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tolerance {
    /// The finite-difference step.
    pub eps: f64,
    /// The absolute tolerance.
    pub atol: f64,
    /// The relative tolerance.
    pub rtol: f64,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            eps: 1e-6,
            atol: 1e-5,
            rtol: 1e-3,
        }
    }
}

/// What [`gradcheck_by`] checks: a function of f64 tensors, evaluated
/// forward, and its Jacobian's rows computed by a backward pass.
pub trait Jacobian {
    /// The output's elements for these inputs (in row-major order).
    ///
    /// # Errors
    /// An error of the function.
    fn forward(&self, inputs: &[RawTensor<Cpu>]) -> Result<(Vec<usize>, Vec<f64>)>;

    /// The gradient of each input, for the output's gradient `seed` (`None`
    /// for an input the output does not depend on).
    ///
    /// # Errors
    /// An error of the function or of its backward pass.
    fn backward(
        &self,
        inputs: &[RawTensor<Cpu>],
        seed: RawTensor<Cpu>,
    ) -> Result<Vec<Option<Vec<f64>>>>;
}

/// A function of tracked tensors as a [`Jacobian`].
struct Traced<F>(F);

impl<F> Jacobian for Traced<F>
where
    F: for<'a> Fn(&'a [Var<'static>]) -> Result<Var<'a>>,
{
    fn forward(&self, inputs: &[RawTensor<Cpu>]) -> Result<(Vec<usize>, Vec<f64>)> {
        let vars = leaves(inputs)?;
        let y = (self.0)(&vars)?;
        let values = y.value().to_contiguous()?.to_vec::<f64>()?;
        Ok((y.shape().to_vec(), values))
    }

    fn backward(
        &self,
        inputs: &[RawTensor<Cpu>],
        seed: RawTensor<Cpu>,
    ) -> Result<Vec<Option<Vec<f64>>>> {
        let vars = leaves(inputs)?;
        let ids: Vec<_> = vars.iter().map(Var::leaf_id).collect();
        let grads = (self.0)(&vars)?.backward_with(seed)?;
        ids.iter()
            .map(|id| {
                id.and_then(|id| grads.get(id))
                    .map(|g| g.to_contiguous()?.to_vec::<f64>())
                    .transpose()
            })
            .collect()
    }
}

/// Each input as a new leaf.
fn leaves(inputs: &[RawTensor<Cpu>]) -> Result<Vec<Var<'static>>> {
    inputs
        .iter()
        .map(|v| Var::leaf(v.view().to_owned()?))
        .collect()
}

/// Checks the gradients `f` computes against central finite differences
/// of `f` itself, for every output element and every element of every
/// input (each input a leaf), with PyTorch's default tolerances.
///
/// # Errors
/// The first entry of the Jacobian that differs, naming the input, its
/// element and the output element; or an error of `f`.
///
/// ```
/// use axial_core::autograd::{F64, gradcheck};
/// use axial_core::UnaryOp;
/// gradcheck(|x| x[0].unary(UnaryOp::Tanh), &[F64::new(vec![0.1, -0.7], &[2])?])?;
/// // At its kink relu's derivative is 0 by convention; the differences see ½.
/// assert!(gradcheck(|x| x[0].unary(UnaryOp::Relu), &[F64::new(vec![0.0], &[1])?]).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn gradcheck<F>(f: F, inputs: &[F64]) -> Result<()>
where
    F: for<'a> Fn(&'a [Var<'static>]) -> Result<Var<'a>>,
{
    gradcheck_with(f, inputs, Tolerance::default())
}

/// [`gradcheck`] with other tolerances.
///
/// # Errors
/// As [`gradcheck`].
///
/// ```
/// use axial_core::autograd::{F64, Tolerance, gradcheck_with};
/// let loose = Tolerance { atol: 1e-3, ..Tolerance::default() };
/// gradcheck_with(|x| x[0].exp(), &[F64::new(vec![1.0], &[1])?], loose)?;
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn gradcheck_with<F>(f: F, inputs: &[F64], tol: Tolerance) -> Result<()>
where
    F: for<'a> Fn(&'a [Var<'static>]) -> Result<Var<'a>>,
{
    gradcheck_by(&Traced(f), inputs, tol)
}

/// The check of [`gradcheck`] for any [`Jacobian`]: the analytical
/// Jacobian, a row per output element from a backward pass, against the
/// numerical one, a column per input element from central differences.
///
/// # Errors
/// As [`gradcheck`].
///
/// ```
/// use axial_core::autograd::{F64, Jacobian, Tolerance, gradcheck_by};
/// use axial_core::{Cpu, RawTensor, Result};
/// /// 3x, and a gradient that says 3.
/// struct Triple;
/// impl Jacobian for Triple {
///     fn forward(&self, x: &[RawTensor<Cpu>]) -> Result<(Vec<usize>, Vec<f64>)> {
///         Ok((vec![1], vec![3.0 * x[0].to_vec::<f64>()?[0]]))
///     }
///     fn backward(&self, _: &[RawTensor<Cpu>], seed: RawTensor<Cpu>) -> Result<Vec<Option<Vec<f64>>>> {
///         Ok(vec![Some(vec![3.0 * seed.to_vec::<f64>()?[0]])])
///     }
/// }
/// gradcheck_by(&Triple, &[F64::new(vec![0.5], &[1])?], Tolerance::default())?;
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn gradcheck_by(f: &impl Jacobian, inputs: &[F64], tol: Tolerance) -> Result<()> {
    let base: Vec<RawTensor<Cpu>> = inputs
        .iter()
        .map(|x| x.0.view().to_owned())
        .collect::<Result<_>>()?;
    let (out_shape, y0) = f.forward(&base)?;
    let n_out = y0.len();
    // The analytical Jacobian, a row per output element.
    let mut analytical = Vec::with_capacity(n_out);
    for k in 0..n_out {
        let mut seed = vec![0.0; n_out];
        seed[k] = 1.0;
        let grads = f.backward(&base, RawTensor::from_vec(seed, &out_shape)?)?;
        let row: Vec<Vec<f64>> = grads
            .into_iter()
            .zip(&base)
            .map(|(g, x)| g.unwrap_or_else(|| vec![0.0; x.layout().numel()]))
            .collect();
        analytical.push(row);
    }
    // The numerical Jacobian, a column per input element.
    for (i, x) in base.iter().enumerate() {
        let flat = x.view().to_contiguous()?.to_vec::<f64>()?;
        for j in 0..flat.len() {
            let at = |delta: f64| -> Result<Vec<f64>> {
                let mut values = flat.clone();
                values[j] += delta;
                let mut moved: Vec<RawTensor<Cpu>> = base
                    .iter()
                    .map(|b| b.view().to_owned())
                    .collect::<Result<_>>()?;
                moved[i] = RawTensor::from_vec(values, x.shape())?;
                Ok(f.forward(&moved)?.1)
            };
            let (plus, minus) = (at(tol.eps)?, at(-tol.eps)?);
            for k in 0..n_out {
                let numerical = (plus[k] - minus[k]) / (2.0 * tol.eps);
                let a = analytical[k][i][j];
                let close = (a - numerical).abs() <= tol.atol + tol.rtol * numerical.abs();
                if !(close || a.is_nan() && numerical.is_nan()) {
                    return Err(Error::invalid(
                        "gradcheck",
                        format!(
                            "Jacobian mismatch for output {k} with respect to input {i}, element {j}: numerical {numerical}, analytical {a}"
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}
