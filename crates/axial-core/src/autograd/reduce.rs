//! Reductions on tracked tensors: `sum`, `mean`, `var`, `std`, `amax`,
//! `amin` (PyTorch's tie rule: equal shares), `logsumexp`, and `max`/`min`
//! along a dim with their indices.

use super::elementwise::read;
use super::grad::Grad;
use super::var::Var;
use crate::ops::reduce::{ReduceGrad, reduced_dims, selection_backward};
use crate::ops::unary::no_derivative;
use crate::ops::{Derivative, LogSumExp};
use crate::{ArgReduceOp, Backend, RawTensor, ReduceOp, Result};

impl<'g, D: Backend> Var<'g, D> {
    /// Reduces over `dims` (empty: every dim), keeping them as size 1 when
    /// `keepdim`, with the op's derivative (`sum`, `mean`, `var`, `std`,
    /// `amax`, `amin`).
    ///
    /// # Errors
    /// As [`TensorRef::reduce`](crate::TensorRef::reduce); `prod`, `all` or
    /// `any` on a tensor that needs a gradient.
    ///
    /// ```
    /// use axial_core::autograd::Var;
    /// use axial_core::{RawTensor, ReduceOp};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 3.0, 3.0], &[3])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let m = x.reduce(ReduceOp::Max, &[0], false)?; // amax: two ties share
    /// assert_eq!(m.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![0.0, 0.5, 0.5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reduce(&self, op: ReduceOp, dims: &[isize], keepdim: bool) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().reduce(op, dims, keepdim)?);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let Derivative::Written(saves) = op.derivative() else {
            return Err(no_derivative(op.name()));
        };
        let x = saves.keeps(0, &[true]).then(|| self.save());
        let y = saves.keeps_output(&[true]).then(|| out.save());
        let (name, shape) = (op.name(), self.shape().to_vec());
        let dims = reduced_dims(name, dims, shape.len())?;
        out.attach(
            reduce_node(op),
            &[self],
            Box::new(move |g, _| {
                let ctx = ReduceGrad {
                    name,
                    g,
                    x: read(&x)?,
                    y: read(&y)?,
                    dims: dims.to_vec(),
                    keepdim,
                    shape: shape.clone(),
                };
                Ok(vec![Some(op.backward(&ctx)?)])
            }),
        );
        Ok(out)
    }

    /// The sum over `dims` (empty: every dim).
    ///
    /// # Errors
    /// As [`Var::reduce`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?)?;
    /// assert_eq!(x.sum(&[], false)?.value().to_vec::<f32>()?, vec![3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn sum(&self, dims: &[isize], keepdim: bool) -> Result<Var<'g, D>> {
        self.reduce(ReduceOp::Sum, dims, keepdim)
    }

    /// The mean over `dims` (empty: every dim).
    ///
    /// # Errors
    /// As [`Var::reduce`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?)?;
    /// assert_eq!(x.mean(&[], false)?.value().to_vec::<f32>()?, vec![1.5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn mean(&self, dims: &[isize], keepdim: bool) -> Result<Var<'g, D>> {
        self.reduce(ReduceOp::Mean, dims, keepdim)
    }

    /// `log Σ exp(x)` over `dims` (PyTorch's `logsumexp`): the largest
    /// element is taken out first so that nothing overflows. Keeps its input
    /// and output.
    ///
    /// # Errors
    /// As [`TensorRef::logsumexp`](crate::TensorRef::logsumexp).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1000.0f64, 1000.0], &[2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.logsumexp(&[0], false)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![1000.0 + 2f64.ln()]);
    /// let g = y.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert!(g.iter().all(|v| (v - 0.5).abs() < 1e-12));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn logsumexp(&self, dims: &[isize], keepdim: bool) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().logsumexp(dims, keepdim)?);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let (x, y) = (self.save(), out.save());
        let shape = self.shape().to_vec();
        let dims = reduced_dims("logsumexp", dims, shape.len())?;
        out.attach(
            "Logsumexp",
            &[self],
            Box::new(move |g, _| {
                let ctx = ReduceGrad {
                    name: "logsumexp",
                    g,
                    x: Some(x.get()?),
                    y: Some(y.get()?),
                    dims: dims.to_vec(),
                    keepdim,
                    shape: shape.clone(),
                };
                Ok(vec![Some(LogSumExp.backward(&ctx)?)])
            }),
        );
        Ok(out)
    }

    /// The largest (`ArgMax`) or smallest (`ArgMin`) element along `dim`
    /// and its index (PyTorch's `max(dim)`, `min(dim)`): the gradient goes
    /// to that one element. Keeps the indices, not the input.
    ///
    /// # Errors
    /// As [`TensorRef::max_min_dim`](crate::TensorRef::max_min_dim).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, ArgReduceOp, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 5.0, 5.0, 2.0], &[2, 2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let (values, indices) = x.max_min_dim(ArgReduceOp::ArgMax, 1, false)?;
    /// assert_eq!(indices.to_vec::<i64>()?, vec![1, 0]);
    /// let g = values.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![0.0, 1.0, 1.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn max_min_dim(
        &self,
        op: ArgReduceOp,
        dim: isize,
        keepdim: bool,
    ) -> Result<(Var<'g, D>, RawTensor<D>)> {
        let (values, indices) = self.value().max_min_dim(op, dim, keepdim)?;
        let mut out = Var::fresh(values);
        if Var::tracks(&[self]) {
            let shape = self.shape().to_vec();
            let d = crate::layout::wrap_dim(dim, shape.len().max(1))?;
            let kept = super::node::Saved::own(indices.view().to_owned()?);
            let name = if op == ArgReduceOp::ArgMax {
                "Max"
            } else {
                "Min"
            };
            out.attach(
                name,
                &[self],
                Box::new(move |g: Grad<D>, _| {
                    Ok(vec![Some(selection_backward(&g, &kept.get()?, d, &shape)?)])
                }),
            );
        }
        Ok((out, indices))
    }
}

/// PyTorch's class name of a reduction's backward node.
fn reduce_node(op: ReduceOp) -> &'static str {
    match op {
        ReduceOp::Sum => "Sum",
        ReduceOp::Mean => "Mean",
        ReduceOp::Var { .. } => "Var",
        ReduceOp::Std { .. } => "Std",
        ReduceOp::Max => "Amax",
        ReduceOp::Min => "Amin",
        ReduceOp::Prod => "Prod",
        ReduceOp::All => "All",
        ReduceOp::Any => "Any",
    }
}
