//! Reads by index on tracked tensors (`embedding`, `index_select`,
//! `gather`, whose gradients are sums into the positions read), and
//! `cumsum`, `tril`, `triu`.

use super::var::Var;
use crate::layout::wrap_dim;
use crate::ops::{Cumsum, Embedding, Gather, IndexSelect, Triangle};
use crate::{Backend, Result};

impl<'g, D: Backend> Var<'g, D> {
    /// The rows of this table `[vocab, dim]` at `ids` (i64, any shape)
    /// (PyTorch's `embedding`): the table's gradient is each id's row of
    /// the output's gradient added at that id. Keeps the ids, not the table.
    ///
    /// # Errors
    /// As [`TensorRef::embedding`](crate::TensorRef::embedding).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let table = Var::leaf(RawTensor::from_vec(vec![0.0f64; 6], &[3, 2])?)?;
    /// let ids = Var::constant(RawTensor::from_vec(vec![2i64, 0, 2], &[3])?);
    /// let id = table.leaf_id().unwrap();
    /// let g = table.embedding(&ids)?.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![1.0, 1.0, 0.0, 0.0, 2.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn embedding(&self, ids: &Var<'g, D>) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().embedding(&ids.value())?);
        if Var::tracks(&[self]) {
            let kept = ids.save();
            let table = self.shape().to_vec();
            out.attach(
                "Embedding",
                &[self],
                Box::new(move |g, _| {
                    Ok(vec![Some(Embedding::backward(&table, &kept.get()?, &g)?)])
                }),
            );
        }
        Ok(out)
    }

    /// `x.index_select(dim, index)` (a vector of i64): the gradient is added
    /// at the indices. Keeps the index, not the input.
    ///
    /// # Errors
    /// As [`TensorRef::index_select`](crate::TensorRef::index_select).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3])?)?;
    /// let i = Var::constant(RawTensor::from_vec(vec![0i64, 0], &[2])?);
    /// let id = x.leaf_id().unwrap();
    /// let g = x.index_select(0, &i)?.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![2.0, 0.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn index_select(&self, dim: isize, index: &Var<'g, D>) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().index_select(dim, &index.value())?);
        if Var::tracks(&[self]) {
            let (op, _) = IndexSelect::new(dim, self.shape(), index.layout.numel())?;
            let kept = index.save();
            let shape = self.shape().to_vec();
            out.attach(
                "IndexSelect",
                &[self],
                Box::new(move |g, _| Ok(vec![Some(op.backward(&shape, &kept.get()?, &g)?)])),
            );
        }
        Ok(out)
    }

    /// `x.gather(dim, index)`: the gradient is scattered back to the
    /// positions read. Keeps the input and the index (PyTorch's choice).
    ///
    /// # Errors
    /// As [`TensorRef::gather`](crate::TensorRef::gather).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?)?;
    /// let i = Var::constant(RawTensor::from_vec(vec![1i64, 1], &[2, 1])?);
    /// let id = x.leaf_id().unwrap();
    /// let g = x.gather(1, &i)?.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![0.0, 1.0, 0.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn gather(&self, dim: isize, index: &Var<'g, D>) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().gather(dim, &index.value())?);
        if Var::tracks(&[self]) {
            let op = Gather::new(dim, self.layout.rank())?;
            let (input, kept) = (self.save(), index.save());
            let shape = self.shape().to_vec();
            out.attach(
                "Gather",
                &[self],
                Box::new(move |g, _| {
                    // Kept as PyTorch keeps it: a write into it since is an error.
                    input.get()?;
                    Ok(vec![Some(op.backward(&shape, &kept.get()?, &g)?)])
                }),
            );
        }
        Ok(out)
    }

    /// Running sums along `dim`.
    ///
    /// # Errors
    /// As [`TensorRef::cumsum`](crate::TensorRef::cumsum).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let g = x.cumsum(0)?.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![3.0, 2.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn cumsum(&self, dim: isize) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().cumsum(dim)?);
        if Var::tracks(&[self]) {
            let op = Cumsum {
                dim: wrap_dim(dim, self.layout.rank().max(1))?,
            };
            out.attach(
                "Cumsum",
                &[self],
                Box::new(move |g, _| Ok(vec![Some(op.backward(&g)?)])),
            );
        }
        Ok(out)
    }

    /// The elements on and below (`upper = false`, `tril`) or on and above
    /// (`triu`) the `diagonal`-th diagonal of the last two dims, zeros
    /// elsewhere.
    ///
    /// # Errors
    /// Fewer than two dims.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64; 4], &[2, 2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let g = x.triangle(false, 0)?.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![1.0, 0.0, 1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn triangle(&self, upper: bool, diagonal: i64) -> Result<Var<'g, D>> {
        let value = match upper {
            true => self.value().triu(diagonal)?,
            false => self.value().tril(diagonal)?,
        };
        let mut out = Var::fresh(value);
        if Var::tracks(&[self]) {
            let op = Triangle { upper, diagonal };
            let name = if upper { "Triu" } else { "Tril" };
            out.attach(
                name,
                &[self],
                Box::new(move |g, _| Ok(vec![Some(op.backward(&g)?)])),
            );
        }
        Ok(out)
    }
}
