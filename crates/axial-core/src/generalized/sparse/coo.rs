//! COO: construction with every index checked, coalesce, to and from dense,
//! transpose (`SparseTensor.cpp`).

use std::cmp::Ordering;

use super::SparseCoo;
use crate::generalized::host::{self, Num};
use crate::layout::{checked_numel, contiguous_strides, wrap_dim};
use crate::{Cpu, DType, Element, Error, RawTensor, ReduceOp, Result, TensorRef, with_dtype};

/// The elements of a compact tensor.
pub(super) fn slice<T: Element>(t: &RawTensor) -> Result<&[T]> {
    Ok(&t.storage().as_slice::<T>()?[..t.layout().numel()])
}

/// `t` as `i64` indices (any integer dtype; floats and bools refused).
pub(super) fn as_indices(op: &'static str, what: &str, t: RawTensor) -> Result<RawTensor> {
    if !t.dtype().is_int() {
        return Err(Error::invalid(
            op,
            format!("{what} must be an integer tensor, got {}", t.dtype()),
        ));
    }
    if t.dtype() == DType::I64 {
        return host::compact(t);
    }
    t.view().to_dtype(DType::I64)
}

impl SparseCoo {
    /// `torch.sparse_coo_tensor(indices, values, size)`, checked as with
    /// `check_invariants=True`, always: `indices` is `sparse_dim × nnz`
    /// (any integer dtype, stored as `i64`), `values` is `nnz × dense
    /// sizes`, `size` is the sparse sizes then the dense ones, and every
    /// index is inside its dim. The entries are coalesced when there are
    /// fewer than 2 (as PyTorch's flag).
    ///
    /// # Errors
    /// Each of those, with PyTorch's message; a negative index or one past
    /// its dim (which PyTorch accepts unless asked to check).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let i = RawTensor::from_vec(vec![0i64, 1, 0, 0], &[2, 2])?;
    /// let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3])?;
    /// let e = SparseCoo::new(i, v, &[3, 3]).unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "sparse_coo_tensor: indices and values must have same nnz, but got nnz from indices: 2, nnz from values: 3"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(indices: RawTensor, values: RawTensor, size: &[usize]) -> Result<Self> {
        let (indices, values) = Self::checked_parts(indices, values)?;
        let (sparse_dim, nnz) = (indices.shape()[0], indices.shape()[1]);
        let dense_dim = values.shape().len() - 1;
        if size.len() != sparse_dim + dense_dim {
            return Err(Error::invalid(
                OP,
                format!(
                    "'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {}, sparse_dim = {sparse_dim}, dense_dim = {dense_dim}",
                    size.len()
                ),
            ));
        }
        if values.shape()[1..] != size[sparse_dim..] {
            let mut expected = vec![nnz];
            expected.extend_from_slice(&size[sparse_dim..]);
            return Err(Error::invalid(
                OP,
                format!(
                    "values has incorrect size, expected {expected:?}, got {:?}",
                    values.shape()
                ),
            ));
        }
        let idx = slice::<i64>(&indices)?;
        for d in 0..sparse_dim {
            let row = &idx[d * nnz..(d + 1) * nnz];
            let (Some(&min), Some(&max)) = (row.iter().min(), row.iter().max()) else {
                continue;
            };
            if min < 0 {
                return Err(negative_index(min, d));
            }
            if max as u64 >= size[d] as u64 {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "size is inconsistent with indices: for dim {d}, size is {} but found index {max}",
                        size[d]
                    ),
                ));
            }
        }
        checked_numel(OP, size)?;
        Ok(SparseCoo {
            indices,
            values,
            shape: size.to_vec(),
            coalesced: nnz < 2,
        })
    }

    /// `torch.sparse_coo_tensor(indices, values)` without a size: each
    /// sparse size is the largest index plus one (0 without entries), the
    /// dense sizes are `values`'.
    ///
    /// # Errors
    /// As [`SparseCoo::new`]; a negative index.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let i = RawTensor::from_vec(vec![0i64, 1, 2, 2, 0, 1], &[2, 3])?;
    /// let v = RawTensor::from_vec(vec![3.0f32, 4.0, 5.0], &[3])?;
    /// assert_eq!(SparseCoo::with_inferred_size(i, v)?.shape(), &[3, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn with_inferred_size(indices: RawTensor, values: RawTensor) -> Result<Self> {
        let (indices, values) = Self::checked_parts(indices, values)?;
        let (sparse_dim, nnz) = (indices.shape()[0], indices.shape()[1]);
        let idx = slice::<i64>(&indices)?;
        let mut size = Vec::with_capacity(sparse_dim + values.shape().len() - 1);
        for d in 0..sparse_dim {
            let row = &idx[d * nnz..(d + 1) * nnz];
            if let Some(&min) = row.iter().min().filter(|&&m| m < 0) {
                return Err(negative_index(min, d));
            }
            size.push(row.iter().max().map_or(0, |&m| m as usize + 1));
        }
        size.extend_from_slice(&values.shape()[1..]);
        Self::new(indices, values, &size)
    }

    /// The shape checks shared by both constructors.
    fn checked_parts(indices: RawTensor, values: RawTensor) -> Result<(RawTensor, RawTensor)> {
        if indices.shape().len() != 2 {
            return Err(Error::invalid(
                OP,
                format!(
                    "indices must be sparse_dim x nnz, but got: {:?}",
                    indices.shape()
                ),
            ));
        }
        if values.shape().is_empty() {
            return Err(Error::invalid(
                OP,
                "values must have at least one dim (nnz), got a 0-d tensor",
            ));
        }
        if indices.shape()[1] != values.shape()[0] {
            return Err(Error::invalid(
                OP,
                format!(
                    "indices and values must have same nnz, but got nnz from indices: {}, nnz from values: {}",
                    indices.shape()[1],
                    values.shape()[0]
                ),
            ));
        }
        Ok((as_indices(OP, "indices", indices)?, host::compact(values)?))
    }

    /// Declares the entries coalesced (PyTorch's `is_coalesced=True`), after
    /// checking that they are: sorted and without duplicates.
    ///
    /// # Errors
    /// They are not (PyTorch believes the hint unchecked).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let i = RawTensor::from_vec(vec![1i64, 1, 0, 0], &[2, 2])?;
    /// let v = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// let e = SparseCoo::new(i, v, &[3, 3])?.assume_coalesced().unwrap_err();
    /// assert!(e.to_string().ends_with("cannot set is_coalesced to true if indices correspond to uncoalesced COO tensor"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn assume_coalesced(mut self) -> Result<Self> {
        let order = self.sorted_order()?;
        let idx = slice::<i64>(&self.indices)?;
        let nnz = self.nnz();
        let sorted = order.iter().enumerate().all(|(i, &o)| i == o);
        let unique = (1..nnz).all(|i| self.compare(idx, i - 1, i) != Ordering::Equal);
        if !(sorted && unique) {
            return Err(Error::invalid(
                OP,
                "cannot set is_coalesced to true if indices correspond to uncoalesced COO tensor",
            ));
        }
        self.coalesced = true;
        Ok(self)
    }

    /// The sizes, sparse then dense.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, sparse::SparseCoo};
    /// let s = SparseCoo::from_dense(&RawTensor::zeros(&[2, 5], DType::F32)?.view(), 2)?;
    /// assert_eq!(s.shape(), &[2, 5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The dtype of the values.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, sparse::SparseCoo};
    /// let s = SparseCoo::from_dense(&RawTensor::zeros(&[2], DType::I32)?.view(), 1)?;
    /// assert_eq!(s.dtype(), DType::I32);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dtype(&self) -> DType {
        self.values.dtype()
    }

    /// The number of stored entries (`_nnz()`), duplicates included.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCoo};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 0.0, 2.0], &[4])?;
    /// assert_eq!(SparseCoo::from_dense(&d.view(), 1)?.nnz(), 2);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn nnz(&self) -> usize {
        self.indices.shape()[1]
    }

    /// The number of sparse dims (the rows of `indices`).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, sparse::SparseCoo};
    /// let s = SparseCoo::from_dense(&RawTensor::zeros(&[2, 3], DType::F32)?.view(), 1)?;
    /// assert_eq!((s.sparse_dim(), s.dense_dim()), (1, 1));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn sparse_dim(&self) -> usize {
        self.indices.shape()[0]
    }

    /// The number of dense dims (the values' dims after the first).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, sparse::SparseCoo};
    /// let s = SparseCoo::from_dense(&RawTensor::zeros(&[2, 3], DType::F32)?.view(), 2)?;
    /// assert_eq!(s.dense_dim(), 0);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dense_dim(&self) -> usize {
        self.values.shape().len() - 1
    }

    /// True when the entries are known sorted and unique.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCoo};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0], &[3])?;
    /// assert!(SparseCoo::from_dense(&d.view(), 1)?.is_coalesced());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn is_coalesced(&self) -> bool {
        self.coalesced
    }

    /// The indices as stored (`_indices()`), coalesced or not.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCoo};
    /// let i = RawTensor::from_vec(vec![1i64, 0], &[1, 2])?;
    /// let s = SparseCoo::new(i, RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?, &[2])?;
    /// assert_eq!(s.raw_indices().to_vec::<i64>()?, vec![1, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn raw_indices(&self) -> TensorRef<'_, Cpu> {
        self.indices.view()
    }

    /// The values as stored (`_values()`), coalesced or not.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCoo};
    /// let i = RawTensor::from_vec(vec![1i64, 0], &[1, 2])?;
    /// let s = SparseCoo::new(i, RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?, &[2])?;
    /// assert_eq!(s.raw_values().to_vec::<f32>()?, vec![1.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn raw_values(&self) -> TensorRef<'_, Cpu> {
        self.values.view()
    }

    /// The indices of a coalesced tensor (`indices()`).
    ///
    /// # Errors
    /// The tensor is not coalesced (PyTorch's message).
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCoo};
    /// let i = RawTensor::from_vec(vec![1i64, 0], &[1, 2])?;
    /// let s = SparseCoo::new(i, RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?, &[2])?;
    /// assert!(s.indices().is_err());
    /// assert_eq!(s.coalesce()?.indices()?.to_vec::<i64>()?, vec![0, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn indices(&self) -> Result<TensorRef<'_, Cpu>> {
        self.check_coalesced("indices")?;
        Ok(self.indices.view())
    }

    /// The values of a coalesced tensor (`values()`).
    ///
    /// # Errors
    /// The tensor is not coalesced (PyTorch's message).
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCoo};
    /// let i = RawTensor::from_vec(vec![1i64, 0], &[1, 2])?;
    /// let s = SparseCoo::new(i, RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?, &[2])?;
    /// assert_eq!(s.coalesce()?.values()?.to_vec::<f32>()?, vec![2.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn values(&self) -> Result<TensorRef<'_, Cpu>> {
        self.check_coalesced("values")?;
        Ok(self.values.view())
    }

    fn check_coalesced(&self, what: &'static str) -> Result<()> {
        if !self.coalesced {
            return Err(Error::invalid(
                what,
                format!(
                    "Cannot get {what} on an uncoalesced tensor, please call .coalesce() first"
                ),
            ));
        }
        Ok(())
    }

    /// Bytes of the indices and the values (`60` for the chapter's matrix:
    /// 48 of indices, 12 of values).
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCoo};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 0.0, 2.0], &[2, 2])?;
    /// assert_eq!(SparseCoo::from_dense(&d.view(), 2)?.nbytes(), 2 * 2 * 8 + 2 * 4);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn nbytes(&self) -> usize {
        self.indices.storage().nbytes() + self.values.storage().nbytes()
    }

    /// A tensor of these entries (already checked) with the given flag.
    pub(super) fn from_checked(
        indices: RawTensor,
        values: RawTensor,
        shape: Vec<usize>,
        coalesced: bool,
    ) -> Self {
        SparseCoo {
            indices,
            values,
            shape,
            coalesced,
        }
    }

    /// The stored indices and values.
    pub(super) fn parts(&self) -> (&RawTensor, &RawTensor) {
        (&self.indices, &self.values)
    }

    /// Entry `a` against entry `b`, lexicographically over the sparse dims.
    pub(super) fn compare(&self, idx: &[i64], a: usize, b: usize) -> Ordering {
        let nnz = self.nnz();
        (0..self.sparse_dim())
            .map(|d| idx[d * nnz + a].cmp(&idx[d * nnz + b]))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }

    /// The entries' order sorted by index (stable: duplicates keep their
    /// stored order).
    fn sorted_order(&self) -> Result<Vec<usize>> {
        let idx = slice::<i64>(&self.indices)?;
        let mut order: Vec<usize> = (0..self.nnz()).collect();
        order.sort_by(|&a, &b| self.compare(idx, a, b));
        Ok(order)
    }

    /// `coalesce()`: the entries sorted by index, duplicates summed in
    /// sorted order; explicit zeros stay. A coalesced tensor is copied as
    /// it is.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// // A hybrid tensor: one sparse dim, rows of 2 dense values.
    /// let i = RawTensor::from_vec(vec![0i64, 2, 0], &[1, 3])?;
    /// let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[3, 2])?;
    /// let c = SparseCoo::new(i, v, &[3, 2])?.coalesce()?;
    /// assert_eq!(c.indices()?.to_vec::<i64>()?, vec![0, 2]);
    /// assert_eq!(c.values()?.to_vec::<f32>()?, vec![6.0, 8.0, 3.0, 4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn coalesce(&self) -> Result<SparseCoo> {
        if self.coalesced {
            return self.clone_parts();
        }
        let order = self.sorted_order()?;
        let idx = slice::<i64>(&self.indices)?;
        let (sd, nnz) = (self.sparse_dim(), self.nnz());
        // The first entry of each run of equal indices.
        let mut starts = Vec::new();
        for (i, &o) in order.iter().enumerate() {
            if i == 0 || self.compare(idx, order[i - 1], o) != Ordering::Equal {
                starts.push(i);
            }
        }
        let unique = starts.len();
        let mut new_idx = vec![0i64; sd * unique];
        for (u, &s) in starts.iter().enumerate() {
            for d in 0..sd {
                new_idx[d * unique + u] = idx[d * nnz + order[s]];
            }
        }
        let row: usize = self.values.shape()[1..].iter().product();
        let mut vshape = self.values.shape().to_vec();
        vshape[0] = unique;
        let values = with_dtype!(self.dtype(), T => {
            let src = slice::<T>(&self.values)?;
            host::build::<T>(&vshape, |out| {
                for (u, &s) in starts.iter().enumerate() {
                    let end = starts.get(u + 1).copied().unwrap_or(nnz);
                    let dst = &mut out[u * row..(u + 1) * row];
                    dst.copy_from_slice(&src[order[s] * row..(order[s] + 1) * row]);
                    for &o in &order[s + 1..end] {
                        for (d, &v) in dst.iter_mut().zip(&src[o * row..(o + 1) * row]) {
                            *d = Num::add(*d, v);
                        }
                    }
                }
                Ok(())
            })?
        });
        let indices = RawTensor::from_vec(new_idx, &[sd, unique])?;
        Ok(SparseCoo::from_checked(
            indices,
            values,
            self.shape.clone(),
            true,
        ))
    }

    /// A copy of the indices and values, with the same flag.
    pub(super) fn clone_parts(&self) -> Result<SparseCoo> {
        Ok(SparseCoo::from_checked(
            self.indices.view().to_contiguous()?,
            self.values.view().to_contiguous()?,
            self.shape.clone(),
            self.coalesced,
        ))
    }

    /// `to_dense()`: zeros, then every entry added (duplicates accumulate);
    /// row-major.
    ///
    /// # Errors
    /// The dense tensor would not fit in memory.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let i = RawTensor::from_vec(vec![1i64, 0, 1, 0, 2, 0, 2, 0, 2, 2], &[2, 5])?;
    /// let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0], &[5])?;
    /// let d = SparseCoo::new(i, v, &[3, 3])?.to_dense()?;
    /// assert_eq!(d.to_vec::<f32>()?, vec![0.0, 0.0, 6.0, 4.0, 0.0, 0.0, 0.0, 0.0, 5.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_dense(&self) -> Result<RawTensor> {
        let idx = slice::<i64>(&self.indices)?;
        let (sd, nnz) = (self.sparse_dim(), self.nnz());
        let strides = contiguous_strides(&self.shape);
        let row: usize = self.values.shape()[1..].iter().product();
        checked_numel("to_dense", &self.shape)?;
        with_dtype!(self.dtype(), T => {
            let src = slice::<T>(&self.values)?;
            host::build::<T>(&self.shape, |out| {
                for e in 0..nnz {
                    // Inside the dense tensor: every index was checked at construction.
                    let at: usize = (0..sd).map(|d| idx[d * nnz + e] as usize * strides[d] as usize).sum();
                    for (o, &v) in out[at..at + row].iter_mut().zip(&src[e * row..(e + 1) * row]) {
                        *o = Num::add(*o, v);
                    }
                }
                Ok(())
            })
        })
    }

    /// `x.to_sparse(sparse_dim)`: the coalesced COO of the entries (or, for
    /// a hybrid tensor, the rows of dense values) with a non-zero element,
    /// in row-major order. NaN counts as non-zero, `-0.0` as zero.
    ///
    /// # Errors
    /// `sparse_dim` is past the rank.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let x = RawTensor::from_vec(vec![0.0f32, -0.0, f32::NAN, 1.0], &[4])?;
    /// let s = SparseCoo::from_dense(&x.view(), 1)?;
    /// assert_eq!(s.indices()?.to_vec::<i64>()?, vec![2, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_dense(x: &TensorRef<'_, Cpu>, sparse_dim: usize) -> Result<SparseCoo> {
        let shape = x.shape();
        if sparse_dim > shape.len() {
            return Err(Error::invalid(
                "to_sparse",
                format!(
                    "sparse_dim {sparse_dim} is past the rank {} of the dense tensor",
                    shape.len()
                ),
            ));
        }
        let rows: usize = shape[..sparse_dim].iter().product();
        let row: usize = shape[sparse_dim..].iter().product();
        let (kept, values) = with_dtype!(x.dtype(), T => {
            let src = host::elements::<T>("to_sparse", x)?;
            let kept: Vec<usize> = (0..rows)
                .filter(|&r| src[r * row..(r + 1) * row].iter().any(|v| v.is_nonzero()))
                .collect();
            let mut vshape = vec![kept.len()];
            vshape.extend_from_slice(&shape[sparse_dim..]);
            let values = host::build::<T>(&vshape, |out| {
                for (k, &r) in kept.iter().enumerate() {
                    out[k * row..(k + 1) * row].copy_from_slice(&src[r * row..(r + 1) * row]);
                }
                Ok(())
            })?;
            (kept, values)
        });
        let n = kept.len();
        let mut idx = vec![0i64; sparse_dim * n];
        for (k, &r) in kept.iter().enumerate() {
            let mut rest = r;
            for d in (0..sparse_dim).rev() {
                idx[d * n + k] = (rest % shape[d]) as i64;
                rest /= shape[d];
            }
        }
        let indices = RawTensor::from_vec(idx, &[sparse_dim, n])?;
        Ok(SparseCoo::from_checked(
            indices,
            values,
            shape.to_vec(),
            true,
        ))
    }

    /// `transpose(d0, d1)` of two sparse dims: their rows of `indices`
    /// swap, the values are copied; never flagged coalesced with entries
    /// (PyTorch's flag, even for one entry).
    ///
    /// # Errors
    /// A dim out of range, or a dense dim.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// let t = SparseCoo::from_dense(&d.view(), 2)?.transpose(0, 1)?;
    /// assert_eq!(t.raw_indices().to_vec::<i64>()?, vec![1, 0, 0, 1]);
    /// assert!(!t.is_coalesced());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn transpose(&self, d0: isize, d1: isize) -> Result<SparseCoo> {
        let rank = self.shape.len();
        let (a, b) = (wrap_dim(d0, rank)?, wrap_dim(d1, rank)?);
        let sd = self.sparse_dim();
        if a >= sd || b >= sd {
            return Err(Error::invalid(
                "transpose",
                format!(
                    "transposing a dense dim is not supported: dims {a} and {b} of a sparse tensor with {sd} sparse dims"
                ),
            ));
        }
        let nnz = self.nnz();
        let mut idx = slice::<i64>(&self.indices)?.to_vec();
        for e in 0..nnz {
            idx.swap(a * nnz + e, b * nnz + e);
        }
        let mut shape = self.shape.clone();
        shape.swap(a, b);
        Ok(SparseCoo::from_checked(
            RawTensor::from_vec(idx, &[sd, nnz])?,
            self.values.view().to_contiguous()?,
            shape,
            nnz == 0,
        ))
    }

    /// `t()`: the transpose of a matrix (a vector as it is).
    ///
    /// # Errors
    /// More than 2 dims, or a dense dim.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 0.0, 0.0, 0.0, 2.0], &[2, 3])?;
    /// let t = SparseCoo::from_dense(&d.view(), 2)?.t()?;
    /// assert_eq!(t.shape(), &[3, 2]);
    /// assert_eq!(t.to_dense()?.to_vec::<f32>()?, vec![0.0, 0.0, 1.0, 0.0, 0.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn t(&self) -> Result<SparseCoo> {
        match self.shape.len() {
            0 | 1 => self.clone_parts(),
            2 => self.transpose(0, 1),
            n => Err(Error::t_rank(n)),
        }
    }

    /// `sum()`: the sum of the stored values (duplicates included), a 0-d
    /// tensor of `sum`'s dtype (integers widen to `i64`).
    ///
    /// # Errors
    /// A failure of the kernel.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCoo};
    /// let d = RawTensor::from_vec(vec![1.0f32, 0.0, 0.0, 2.0], &[2, 2])?;
    /// assert_eq!(SparseCoo::from_dense(&d.view(), 2)?.sum()?.to_vec::<f32>()?, vec![3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn sum(&self) -> Result<RawTensor> {
        self.values.view().reduce(ReduceOp::Sum, &[], false)
    }
}

/// The op PyTorch names in the construction errors.
const OP: &str = "sparse_coo_tensor";

/// PyTorch's error for a negative COO index `min` in dim `d`.
fn negative_index(min: i64, d: usize) -> Error {
    Error::invalid(OP, format!("found negative index {min} for dim {d}"))
}
