//! Sparse × dense products (`torch.sparse.mm`, `@`): a dense, row-major
//! result; each entry adds its value times a row of the dense operand into
//! a row of the output, rows in parallel.

use rayon::prelude::*;

use super::coo::slice;
use super::{SparseCoo, SparseCsr};
use crate::generalized::host::{self, Num};
use crate::{Cpu, Element, Error, RawTensor, Result, TensorRef, with_dtype};

/// Output rows per parallel task, at least.
const ROWS_PER_TASK: usize = 16;

/// The dense operand's shape checked against a sparse `rows × cols`
/// matrix: `(n, vector)` for `cols × n`, or `(1, true)` for a vector.
pub(super) fn dense_width(
    op: &'static str,
    shape: [usize; 2],
    dense: &TensorRef<'_, Cpu>,
    dtype: crate::DType,
) -> Result<(usize, bool)> {
    if dense.dtype() != dtype {
        return Err(Error::scalar_type(op, dtype, dense.dtype()));
    }
    let (n, vector) = match dense.shape() {
        [_] => (1, true),
        [_, n] => (*n, false),
        s => {
            return Err(Error::invalid(
                op,
                format!("the dense operand must be 1-D or 2-D, got shape {s:?}"),
            ));
        }
    };
    if dense.shape()[0] != shape[1] {
        return Err(Error::Contraction {
            op,
            m: shape[0],
            k: shape[1],
            k2: dense.shape()[0],
            n,
            vectors: false,
        });
    }
    Ok((n, vector))
}

/// `out[r] += Σ_{e in row r} v[e] ⋅ d[col[e]]` with rows given by `starts`
/// (row `r`'s entries are `order[starts[r]..starts[r + 1]]`).
#[allow(clippy::too_many_arguments)]
fn spmm<T: Num + Element>(
    rows: usize,
    n: usize,
    starts: &[usize],
    order: Option<&[usize]>,
    col: &[usize],
    v: &[T],
    d: &[T],
    out: &mut [T],
) {
    if n == 0 {
        return;
    }
    let task = ROWS_PER_TASK.max(rows / (8 * rayon::current_num_threads().max(1)));
    out.par_chunks_mut(task * n)
        .enumerate()
        .for_each(|(t, block)| {
            host::vectorized(|| {
                for (i, o) in block.chunks_mut(n).enumerate() {
                    let r = t * task + i;
                    for p in starts[r]..starts[r + 1] {
                        let e = order.map_or(p, |order| order[p]);
                        let (x, src) = (v[e], &d[col[e] * n..col[e] * n + n]);
                        for (o, &s) in o.iter_mut().zip(src) {
                            *o = Num::add(*o, Num::mul(x, s));
                        }
                    }
                }
            });
        });
}

/// The output of a product: `rows × n` (or `rows` for a vector).
pub(super) fn output_shape(rows: usize, n: usize, vector: bool) -> Vec<usize> {
    if vector { vec![rows] } else { vec![rows, n] }
}

impl SparseCoo {
    /// `self @ dense` (`torch.sparse.mm`) for a 2-D matrix of scalars and
    /// a dense `cols × n` matrix (or a `cols` vector): a dense, row-major
    /// result. Duplicate entries count, as in `to_dense()`. A hybrid matrix
    /// whose rows are sparse and columns dense (values `nnz × cols`), which
    /// PyTorch's sparse products refuse, multiplies too: each stored row by
    /// the dense product.
    ///
    /// # Errors
    /// `self` is not a matrix (of scalars, or of dense rows); the dtypes
    /// differ, or the shapes do not multiply (PyTorch's messages).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let i = RawTensor::from_vec(vec![1i64, 0, 1, 0, 2, 0, 2, 0, 2, 2], &[2, 5])?;
    /// let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0], &[5])?;
    /// let u = SparseCoo::new(i, v, &[3, 3])?;
    /// let d = RawTensor::arange(0.0, 6.0, 1.0, axial_core::DType::F32)?;
    /// let y = u.matmul(&d.view().view(&[3, 2])?)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![24.0, 30.0, 0.0, 4.0, 20.0, 25.0]);
    /// // Rows 2 and 0 stored dense (a hybrid matrix of shape (3, 2)).
    /// let i = RawTensor::from_vec(vec![2i64, 0], &[1, 2])?;
    /// let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let h = SparseCoo::new(i, v, &[3, 2])?;
    /// let y = h.matmul(&d.view().view(&[2, 3])?)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![12.0, 19.0, 26.0, 0.0, 0.0, 0.0, 6.0, 9.0, 12.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn matmul(&self, dense: &TensorRef<'_, Cpu>) -> Result<RawTensor> {
        const OP: &str = "addmm";
        if self.sparse_dim() == 1 && self.dense_dim() == 1 {
            return self.hybrid_matmul(OP, dense);
        }
        if self.sparse_dim() != 2 || self.dense_dim() != 0 {
            return Err(Error::invalid(
                OP,
                format!(
                    "matrices expected, got {}D, {}D tensors",
                    self.shape().len(),
                    dense.shape().len()
                ),
            ));
        }
        let shape = [self.shape()[0], self.shape()[1]];
        let (n, vector) = dense_width(OP, shape, dense, self.dtype())?;
        let (indices, values) = self.parts();
        let idx = slice::<i64>(indices)?;
        let nnz = self.nnz();
        let (rows_of, col): (Vec<usize>, Vec<usize>) = (
            idx[..nnz].iter().map(|&r| r as usize).collect(),
            idx[nnz..].iter().map(|&c| c as usize).collect(),
        );
        // Entries grouped by row (a stable counting sort: the stored order
        // within a row, so duplicates add up in order).
        let mut starts = vec![0usize; shape[0] + 1];
        for &r in &rows_of {
            starts[r + 1] += 1;
        }
        for r in 0..shape[0] {
            starts[r + 1] += starts[r];
        }
        let sorted = rows_of.windows(2).all(|w| w[0] <= w[1]);
        let order = if sorted {
            None
        } else {
            let mut next = starts.clone();
            let mut order = vec![0usize; nnz];
            for (e, &r) in rows_of.iter().enumerate() {
                order[next[r]] = e;
                next[r] += 1;
            }
            Some(order)
        };
        with_dtype!(self.dtype(), T => {
            let v = slice::<T>(values)?;
            let d = host::elements::<T>(OP, dense)?;
            host::build::<T>(&output_shape(shape[0], n, vector), |out| {
                spmm(shape[0], n, &starts, order.as_deref(), &col, v, &d, out);
                Ok(())
            })
        })
    }
}

impl SparseCsr {
    /// `self @ dense` for a dense `cols × n` matrix (or a `cols` vector): a
    /// dense, row-major result. Every dtype (PyTorch's CSR product, through
    /// MKL, has `f32` and `f64` only).
    ///
    /// # Errors
    /// The dtypes differ, or the shapes do not multiply (PyTorch's
    /// messages).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCsr;
    /// let x = RawTensor::from_vec(vec![0.0f32, 1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 4.0, 0.0], &[3, 4])?;
    /// let c = SparseCsr::from_dense(&x.view())?;
    /// let d = RawTensor::arange(0.0, 8.0, 1.0, axial_core::DType::F32)?;
    /// let y = c.matmul(&d.view().view(&[4, 2])?)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![14.0, 17.0, 0.0, 0.0, 16.0, 23.0]);
    /// let e = c.matmul(&RawTensor::zeros(&[3, 2], axial_core::DType::F32)?.view()).err().unwrap();
    /// assert!(e.to_string().ends_with("mat1 and mat2 shapes cannot be multiplied (3x4 and 3x2)"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn matmul(&self, dense: &TensorRef<'_, Cpu>) -> Result<RawTensor> {
        const OP: &str = "addmm";
        let shape = [self.shape()[0], self.shape()[1]];
        let (n, vector) = dense_width(OP, shape, dense, self.dtype())?;
        let (starts, col) = self.structure()?;
        with_dtype!(self.dtype(), T => {
            let v = slice::<T>(self.raw_values())?;
            let d = host::elements::<T>(OP, dense)?;
            host::build::<T>(&output_shape(shape[0], n, vector), |out| {
                spmm(shape[0], n, &starts, None, &col, v, &d, out);
                Ok(())
            })
        })
    }
}

/// `dense @ sparse` for a dense `m × rows` matrix: `(sparseᵀ @ denseᵀ)ᵀ`,
/// row-major.
///
/// # Errors
/// As [`SparseCoo::matmul`].
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::sparse::{SparseCoo, dense_matmul};
/// let i = RawTensor::from_vec(vec![1i64, 0, 1, 0, 2, 0, 2, 0, 2, 2], &[2, 5])?;
/// let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0], &[5])?;
/// let u = SparseCoo::new(i, v, &[3, 3])?;
/// let d = RawTensor::arange(0.0, 6.0, 1.0, axial_core::DType::F32)?;
/// let y = dense_matmul(&d.view().view(&[3, 2])?.t()?, &u)?;
/// assert_eq!(y.to_vec::<f32>()?, vec![8.0, 0.0, 20.0, 12.0, 0.0, 31.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn dense_matmul(dense: &TensorRef<'_, Cpu>, sparse: &SparseCoo) -> Result<RawTensor> {
    if dense.shape().len() != 2 {
        return Err(Error::invalid(
            "addmm",
            format!(
                "the dense operand must be 2-D, got shape {:?}",
                dense.shape()
            ),
        ));
    }
    let product = sparse.t()?.matmul(&dense.t()?)?;
    product.view().t()?.to_contiguous()
}
