//! Products on tracked tensors: `matmul` (every case of `torch.matmul`:
//! vectors, matrices, broadcast batches), `linear` and `addmm`.

use super::elementwise::{fit, read};
use super::var::Var;
use crate::ops::{Linear, Matmul};
use crate::{Backend, Result};

impl<'g, D: Backend> Var<'g, D> {
    /// The matrix product (PyTorch's `torch.matmul`), batch dims
    /// broadcast. Each operand is kept when the other needs a gradient.
    ///
    /// # Errors
    /// As [`TensorRef::matmul`](crate::TensorRef::matmul).
    ///
    /// ```
    /// use axial_core::autograd::Var;
    /// use axial_core::RawTensor;
    /// let a = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?)?;
    /// let v = Var::constant(RawTensor::from_vec(vec![1.0f64, 1.0], &[2])?);
    /// let id = a.leaf_id().unwrap();
    /// let y = a.matmul(&v)?.sum(&[], false)?; // Σᵢⱼ aᵢⱼ
    /// assert_eq!(y.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![1.0; 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn matmul(&self, other: &Var<'g, D>) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().matmul(&other.value())?);
        if !Var::tracks(&[self, other]) {
            return Ok(out);
        }
        let needs = Var::needs(&[self, other]);
        let a = needs[1].then(|| self.save());
        let b = needs[0].then(|| other.save());
        let shapes = [self.shape().to_vec(), other.shape().to_vec()];
        let dtypes = [self.dtype, other.dtype];
        let name = match (shapes[0].len(), shapes[1].len()) {
            (1, 1) => "Dot",
            (2, 2) => "Mm",
            (3, 3) => "Bmm",
            _ => "Matmul",
        };
        out.attach(
            name,
            &[self, other],
            Box::new(move |g, needs| {
                let (a, b) = (read(&a)?, read(&b)?);
                let grads = Matmul::backward(
                    a.as_ref(),
                    b.as_ref(),
                    [&shapes[0], &shapes[1]],
                    &g,
                    [needs[0], needs[1]],
                )?;
                let mut out = Vec::with_capacity(2);
                for ((gi, shape), dtype) in grads.into_iter().zip(&shapes).zip(dtypes) {
                    out.push(gi.map(|gi| fit(gi, shape, dtype)).transpose()?);
                }
                Ok(out)
            }),
        );
        Ok(out)
    }

    /// `x·Wᵀ + b` (PyTorch's `nn.functional.linear`), the weight `[out,
    /// in]` as PyTorch stores it. The input is kept when the weight needs
    /// a gradient and the other way round; the bias never is.
    ///
    /// # Errors
    /// As [`TensorRef::linear`](crate::TensorRef::linear).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::constant(RawTensor::from_vec(vec![1.0f64, 2.0], &[1, 2])?);
    /// let w = Var::leaf(RawTensor::from_vec(vec![0.5f64, 0.5, 1.0, -1.0, 0.0, 0.0], &[3, 2])?)?;
    /// let b = Var::leaf(RawTensor::from_vec(vec![0.0f64; 3], &[3])?)?;
    /// let (iw, ib) = (w.leaf_id().unwrap(), b.leaf_id().unwrap());
    /// let grads = x.linear(&w, Some(&b))?.sum(&[], false)?.backward()?;
    /// assert_eq!(grads.get(iw).unwrap().to_vec::<f64>()?, vec![1.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
    /// assert_eq!(grads.get(ib).unwrap().to_vec::<f64>()?, vec![1.0; 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn linear(&self, weight: &Var<'g, D>, bias: Option<&Var<'g, D>>) -> Result<Var<'g, D>> {
        let b = bias.map(Var::value);
        let mut out = Var::fresh(self.value().linear(&weight.value(), b.as_ref())?);
        let mut inputs = vec![self, weight];
        inputs.extend(bias);
        if !Var::tracks(&inputs) {
            return Ok(out);
        }
        let needs = Var::needs(&inputs);
        let x = needs[1].then(|| self.save());
        let w = needs[0].then(|| weight.save());
        let x_shape = self.shape().to_vec();
        let dtypes: Vec<_> = inputs.iter().map(|v| v.dtype).collect();
        let shapes: Vec<Vec<usize>> = inputs.iter().map(|v| v.shape().to_vec()).collect();
        let name = if bias.is_some() { "Addmm" } else { "Mm" };
        out.attach(
            name,
            &inputs,
            Box::new(move |g, needs| {
                let (x, w) = (read(&x)?, read(&w)?);
                let has_bias = needs.len() == 3;
                let grads = Linear::backward(
                    x.as_ref(),
                    w.as_ref(),
                    &x_shape,
                    &g,
                    [needs[0], needs[1], has_bias && needs[2]],
                )?;
                let mut out = Vec::with_capacity(needs.len());
                for (i, gi) in grads.into_iter().enumerate().take(needs.len()) {
                    out.push(gi.map(|gi| fit(gi, &shapes[i], dtypes[i])).transpose()?);
                }
                Ok(out)
            }),
        );
        Ok(out)
    }

    /// `bias + a·b` (PyTorch's `addmm`), the bias broadcast: written with
    /// [`Var::matmul`] and an addition, so each factor is kept when the
    /// other needs a gradient and the bias never is.
    ///
    /// # Errors
    /// As [`Var::matmul`] and [`Var::binary`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let bias = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let a = Var::constant(RawTensor::from_vec(vec![1.0f64, 0.0, 0.0, 1.0], &[2, 2])?);
    /// let y = Var::addmm(&bias, &a, &a)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![2.0, 2.0, 1.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn addmm(bias: &Var<'g, D>, a: &Var<'g, D>, b: &Var<'g, D>) -> Result<Var<'g, D>> {
        a.matmul(b)?.add(bias)
    }
}
