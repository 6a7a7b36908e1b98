//! CSR: construction with PyTorch's invariants checked always
//! (`_validate_sparse_compressed_tensor_args`), COO ↔ CSR, to and from dense.

use super::coo::slice;
use super::{SparseCoo, SparseCsr};
use crate::generalized::host;
use crate::{Cpu, DType, Error, RawTensor, Result, TensorRef, with_real_dtype};

/// The op PyTorch names in the construction errors.
const OP: &str = "sparse_csr_tensor";

/// The indices of a compact `i32` or `i64` tensor as `i64`.
pub(super) fn index_values(t: &RawTensor) -> Result<Vec<i64>> {
    match t.dtype() {
        DType::I64 => Ok(slice::<i64>(t)?.to_vec()),
        DType::I32 => Ok(slice::<i32>(t)?.iter().map(|&v| v as i64).collect()),
        d => Err(Error::invalid(
            OP,
            format!("crow_indices and col_indices must be int32 or int64, got {d}"),
        )),
    }
}

/// `values` as a tensor of the index dtype `dtype`.
fn indices_of(values: Vec<i64>, dtype: DType) -> Result<RawTensor> {
    let n = values.len();
    if dtype == DType::I32 {
        let narrow: Vec<i32> = values.iter().map(|&v| v as i32).collect();
        return RawTensor::from_vec(narrow, &[n]);
    }
    RawTensor::from_vec(values, &[n])
}

/// A check of an invariant, in PyTorch's words.
fn unsatisfied(what: &str) -> Error {
    Error::invalid(OP, format!("`{what}` is not satisfied."))
}

impl SparseCsr {
    /// `torch.sparse_csr_tensor(crow_indices, col_indices, values, size)`,
    /// checked as with `check_invariants=True`, always: `crow_indices` has
    /// rows + 1 entries from 0 to nnz, non-decreasing; each row's
    /// `col_indices` are inside the columns, sorted and distinct; the index
    /// dtypes are one `i32` or `i64` (kept as given).
    ///
    /// # Errors
    /// Each of those, with PyTorch's message; PyTorch constructs all of them
    /// unchecked by default.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCsr;
    /// let t = |v: Vec<i64>| RawTensor::from_vec(v.clone(), &[v.len()]);
    /// let values = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// let e = SparseCsr::new(t(vec![0, 2, 2])?, t(vec![1, 0])?, values, [2, 2]).unwrap_err();
    /// assert!(e.to_string().ends_with("are sorted and distinct along the last dimension values` is not satisfied."));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(
        crow: RawTensor,
        col: RawTensor,
        values: RawTensor,
        size: [usize; 2],
    ) -> Result<Self> {
        Self::checked(crow, col, values, &size)
    }

    /// [`SparseCsr::new`] with the size given as a slice (PyTorch's
    /// dimensionality check applies: it must have 2 entries).
    ///
    /// # Errors
    /// As [`SparseCsr::new`]; a size of another length.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCsr;
    /// let t = |v: Vec<i64>| RawTensor::from_vec(v.clone(), &[v.len()]);
    /// let values = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// let e = SparseCsr::with_size(t(vec![0, 1, 2])?, t(vec![0, 1])?, values, &[2]).unwrap_err();
    /// assert!(e.to_string().ends_with("tensor dimensionality must be sum of batch, base, and dense dimensionalities (=0 + 2 + 0) but got 1"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn with_size(
        crow: RawTensor,
        col: RawTensor,
        values: RawTensor,
        size: &[usize],
    ) -> Result<Self> {
        Self::checked(crow, col, values, size)
    }

    /// `torch.sparse_csr_tensor(crow_indices, col_indices, values)` without
    /// a size: `(len(crow) - 1, max(col) + 1)`.
    ///
    /// # Errors
    /// As [`SparseCsr::new`].
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCsr;
    /// let t = |v: Vec<i64>| RawTensor::from_vec(v.clone(), &[v.len()]);
    /// let c = SparseCsr::with_inferred_size(t(vec![0, 1, 1])?, t(vec![4])?, RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// assert_eq!(c.shape(), &[2, 5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn with_inferred_size(crow: RawTensor, col: RawTensor, values: RawTensor) -> Result<Self> {
        let rows = crow.layout().numel().saturating_sub(1);
        let crow = host::compact(crow)?;
        let col = host::compact(col)?;
        let cols = index_values(&col)?
            .iter()
            .max()
            .map_or(0, |&m| (m.max(-1) + 1) as usize);
        Self::checked(crow, col, values, &[rows, cols])
    }

    fn checked(crow: RawTensor, col: RawTensor, values: RawTensor, size: &[usize]) -> Result<Self> {
        if size.len() != 2 {
            return Err(Error::invalid(
                OP,
                format!(
                    "tensor dimensionality must be sum of batch, base, and dense dimensionalities (=0 + 2 + 0) but got {}",
                    size.len()
                ),
            ));
        }
        let (rows, cols) = (size[0], size[1]);
        if crow.dtype() != col.dtype() {
            return Err(Error::invalid(
                OP,
                format!(
                    "crow_indices and col_indices must have the same dtype, but got {} and {}, respectively",
                    crow.dtype().scalar_type_name(),
                    col.dtype().scalar_type_name()
                ),
            ));
        }
        if crow.shape().len() != 1 || col.shape().len() != 1 || values.shape().len() != 1 {
            return Err(Error::invalid(
                OP,
                format!(
                    "crow_indices, col_indices and values must be 1-D (no batch or dense dims), got shapes {:?}, {:?} and {:?}",
                    crow.shape(),
                    col.shape(),
                    values.shape()
                ),
            ));
        }
        if crow.shape()[0] != rows + 1 {
            return Err(Error::invalid(
                OP,
                format!(
                    "crow_indices.shape[-1] must be equal to the number of rows + 1 (={}), but got {}",
                    rows + 1,
                    crow.shape()[0]
                ),
            ));
        }
        let nnz = values.shape()[0];
        if col.shape()[0] != nnz {
            return Err(Error::invalid(
                OP,
                format!(
                    "col_indices.shape[-1] must be equal to nnz (={nnz}) as defined by values.shape[0], but got {}",
                    col.shape()[0]
                ),
            ));
        }
        let (crow, col, values) = (
            host::compact(crow)?,
            host::compact(col)?,
            host::compact(values)?,
        );
        let c = index_values(&crow)?;
        let k = index_values(&col)?;
        if c[0] != 0 {
            return Err(unsatisfied("crow_indices[..., 0] == 0"));
        }
        if c[rows] != nnz as i64 {
            return Err(unsatisfied("crow_indices[..., -1] == nnz"));
        }
        if c.windows(2)
            .any(|w| w[1] < w[0] || w[1] - w[0] > cols as i64)
        {
            return Err(unsatisfied(
                "0 <= crow_indices[..., 1:] - crow_indices[..., :-1] <= ncols",
            ));
        }
        if k.iter().any(|&j| j < 0 || j >= cols as i64) {
            return Err(unsatisfied("0 <= col_indices < ncols"));
        }
        let sorted = c.windows(2).all(|w| {
            k[w[0] as usize..w[1] as usize]
                .windows(2)
                .all(|p| p[0] < p[1])
        });
        if !sorted {
            return Err(unsatisfied(
                "col_indices[..., crow_indices[..., i - 1]:crow_indices[..., i]] for all i = 1, ..., nrows are sorted and distinct along the last dimension values",
            ));
        }
        Ok(SparseCsr {
            crow,
            col,
            values,
            shape: [rows, cols],
        })
    }

    /// The sizes `(rows, cols)`.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, sparse::SparseCsr};
    /// let c = SparseCsr::from_dense(&RawTensor::zeros(&[3, 4], DType::F32)?.view())?;
    /// assert_eq!(c.shape(), &[3, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The dtype of the values.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, sparse::SparseCsr};
    /// let c = SparseCsr::from_dense(&RawTensor::zeros(&[3, 4], DType::F64)?.view())?;
    /// assert_eq!(c.dtype(), DType::F64);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dtype(&self) -> DType {
        self.values.dtype()
    }

    /// The number of entries.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// assert_eq!(SparseCsr::from_dense(&d.view())?.nnz(), 2);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn nnz(&self) -> usize {
        self.values.shape()[0]
    }

    /// `crow_indices()`: rows + 1 offsets into the entries.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// assert_eq!(SparseCsr::from_dense(&d.view())?.crow_indices().to_vec::<i64>()?, vec![0, 1, 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn crow_indices(&self) -> TensorRef<'_, Cpu> {
        self.crow.view()
    }

    /// `col_indices()`: the column of each entry.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// assert_eq!(SparseCsr::from_dense(&d.view())?.col_indices().to_vec::<i64>()?, vec![1, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn col_indices(&self) -> TensorRef<'_, Cpu> {
        self.col.view()
    }

    /// `values()`: the value of each entry.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// assert_eq!(SparseCsr::from_dense(&d.view())?.values().to_vec::<f32>()?, vec![1.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn values(&self) -> TensorRef<'_, Cpu> {
        self.values.view()
    }

    /// Bytes of the indices and values (8044 for the chapter's 1000 × 1000
    /// matrix with 3 entries and `i64` indices).
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// assert_eq!(SparseCsr::from_dense(&d.view())?.nbytes(), 3 * 8 + 2 * 8 + 2 * 4);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn nbytes(&self) -> usize {
        self.crow.storage().nbytes() + self.col.storage().nbytes() + self.values.storage().nbytes()
    }

    /// The offsets and columns as `usize` (valid: checked at construction).
    pub(super) fn structure(&self) -> Result<(Vec<usize>, Vec<usize>)> {
        let c = index_values(&self.crow)?
            .into_iter()
            .map(|v| v as usize)
            .collect();
        let k = index_values(&self.col)?
            .into_iter()
            .map(|v| v as usize)
            .collect();
        Ok((c, k))
    }

    /// The stored values.
    pub(super) fn raw_values(&self) -> &RawTensor {
        &self.values
    }

    /// A matrix of entries known valid, with `i64` indices.
    pub(super) fn from_checked(
        crow: Vec<i64>,
        col: Vec<i64>,
        values: RawTensor,
        shape: [usize; 2],
        dtype: DType,
    ) -> Result<Self> {
        Ok(SparseCsr {
            crow: indices_of(crow, dtype)?,
            col: indices_of(col, dtype)?,
            values,
            shape,
        })
    }

    /// The index dtype (`i32` or `i64`).
    pub(super) fn index_dtype(&self) -> DType {
        self.crow.dtype()
    }

    /// `to_sparse_coo()`: the same entries in coordinate form, coalesced.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// let coo = SparseCsr::from_dense(&d.view())?.to_coo()?;
    /// assert_eq!(coo.indices()?.to_vec::<i64>()?, vec![0, 1, 1, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_coo(&self) -> Result<SparseCoo> {
        let (c, k) = self.structure()?;
        let nnz = self.nnz();
        let mut idx = vec![0i64; 2 * nnz];
        for r in 0..self.shape[0] {
            for e in c[r]..c[r + 1] {
                idx[e] = r as i64;
                idx[nnz + e] = k[e] as i64;
            }
        }
        Ok(SparseCoo::from_checked(
            RawTensor::from_vec(idx, &[2, nnz])?,
            self.values.view().to_contiguous()?,
            self.shape.to_vec(),
            true,
        ))
    }

    /// `to_dense()`, row-major.
    ///
    /// # Errors
    /// The dense matrix would not fit in memory.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// assert_eq!(SparseCsr::from_dense(&d.view())?.to_dense()?.to_vec::<f32>()?, d.to_vec::<f32>()?);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_dense(&self) -> Result<RawTensor> {
        let (c, k) = self.structure()?;
        let cols = self.shape[1];
        with_real_dtype!(self.dtype(), T => {
            let v = slice::<T>(&self.values)?;
            host::build::<T>(&self.shape, |out| {
                for r in 0..self.shape[0] {
                    for e in c[r]..c[r + 1] {
                        out[r * cols + k[e]] = v[e];
                    }
                }
                Ok(())
            })
        }, _ => Err(Error::Unsupported { op: "to_dense", dtype: self.dtype() }))
    }

    /// `x.to_sparse_csr()` of a dense matrix: its non-zero elements, `i64`
    /// indices.
    ///
    /// # Errors
    /// `x` is not 2-D.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let x = RawTensor::from_vec(vec![0.0f32, 3.0, 0.0, 0.0], &[2, 2])?;
    /// assert_eq!(SparseCsr::from_dense(&x.view())?.crow_indices().to_vec::<i64>()?, vec![0, 1, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_dense(x: &TensorRef<'_, Cpu>) -> Result<SparseCsr> {
        if x.shape().len() != 2 {
            return Err(Error::invalid(
                "to_sparse_csr",
                format!("expected a 2-D tensor, got shape {:?}", x.shape()),
            ));
        }
        SparseCoo::from_dense(x, 2)?.to_csr()
    }

    /// The transpose, as CSR (PyTorch's `t()` gives a CSC tensor, the same
    /// arrays read the other way; this computes the transposed CSR).
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let x = RawTensor::from_vec(vec![0.0f32, 3.0, 0.0, 0.0, 0.0, 5.0], &[2, 3])?;
    /// let t = SparseCsr::from_dense(&x.view())?.t()?;
    /// assert_eq!(t.shape(), &[3, 2]);
    /// assert_eq!(t.to_dense()?.to_vec::<f32>()?, vec![0.0, 0.0, 3.0, 0.0, 0.0, 5.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn t(&self) -> Result<SparseCsr> {
        let dtype = self.index_dtype();
        self.to_coo()?.t()?.coalesce()?.to_csr_of(dtype)
    }
}

impl SparseCoo {
    /// `to_sparse_csr()` of a 2-D COO matrix: coalesced first, `i64` indices.
    ///
    /// # Errors
    /// The tensor is not a matrix of scalars (2 sparse dims, no dense dims).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let i = RawTensor::from_vec(vec![1i64, 0, 1, 0, 2, 0, 2, 0, 2, 2], &[2, 5])?;
    /// let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0], &[5])?;
    /// let c = SparseCoo::new(i, v, &[3, 3])?.to_csr()?;
    /// assert_eq!(c.crow_indices().to_vec::<i64>()?, vec![0, 1, 2, 3]);
    /// assert_eq!(c.values().to_vec::<f32>()?, vec![6.0, 4.0, 5.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_csr(&self) -> Result<SparseCsr> {
        self.to_csr_of(DType::I64)
    }

    /// [`SparseCoo::to_csr`] with indices of `dtype` (`i32` or `i64`).
    pub(super) fn to_csr_of(&self, dtype: DType) -> Result<SparseCsr> {
        if self.sparse_dim() != 2 || self.dense_dim() != 0 {
            return Err(Error::invalid(
                "to_sparse_csr",
                format!(
                    "expected a matrix (2 sparse dims, no dense dims), got {} sparse and {} dense dims",
                    self.sparse_dim(),
                    self.dense_dim()
                ),
            ));
        }
        let c = self.coalesce()?;
        let (indices, values) = c.parts();
        let idx = slice::<i64>(indices)?;
        let nnz = c.nnz();
        let rows = self.shape()[0];
        let mut crow = vec![0i64; rows + 1];
        for &r in &idx[..nnz] {
            crow[r as usize + 1] += 1;
        }
        for r in 0..rows {
            crow[r + 1] += crow[r];
        }
        let shape = [rows, self.shape()[1]];
        SparseCsr::from_checked(
            crow,
            idx[nnz..].to_vec(),
            compact_values(values)?,
            shape,
            dtype,
        )
    }
}

/// A copy of the values (a new storage for the CSR tensor).
fn compact_values(values: &RawTensor) -> Result<RawTensor> {
    values.view().to_contiguous()
}
