//! Sparse + sparse (PyTorch's sorted merge, `add_out_sparse_contiguous`),
//! and products with a scalar (the values scaled, the structure kept).

use std::cmp::Ordering;

use super::coo::slice;
use super::{SparseCoo, SparseCsr};
use crate::generalized::host::{self, Num};
use crate::{BinaryOp, Error, RawTensor, Result, Scalar, with_real_dtype};

impl SparseCoo {
    /// `self + other` (sparse + sparse): the two index lists merged in
    /// order as stored (PyTorch's merge, so an uncoalesced input gives the
    /// same entries as PyTorch's), equal indices at the merge point summed;
    /// coalesced when both inputs are. The dtype is the promoted one.
    ///
    /// # Errors
    /// The shapes or the sparse/dense split differ (PyTorch's message).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let a = SparseCoo::new(
    ///     RawTensor::from_vec(vec![0i64, 1, 0, 1], &[2, 2])?,
    ///     RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?,
    ///     &[2, 2],
    /// )?;
    /// let b = SparseCoo::new(
    ///     RawTensor::from_vec(vec![1i64, 0, 1, 1], &[2, 2])?,
    ///     RawTensor::from_vec(vec![10.0f32, 20.0], &[2])?,
    ///     &[2, 2],
    /// )?;
    /// let r = a.add(&b)?;
    /// assert_eq!(r.raw_indices().to_vec::<i64>()?, vec![0, 1, 0, 0, 1, 1]);
    /// assert_eq!(r.raw_values().to_vec::<f32>()?, vec![1.0, 12.0, 20.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn add(&self, other: &SparseCoo) -> Result<SparseCoo> {
        if self.shape() != other.shape() {
            return Err(Error::invalid(
                "add",
                format!(
                    "expected sizes of 'self' and 'other' to match, but {:?} != {:?}",
                    self.shape(),
                    other.shape()
                ),
            ));
        }
        if self.sparse_dim() != other.sparse_dim() {
            return Err(Error::invalid(
                "add",
                format!(
                    "Incompatible sparse_dim and dense_dim: {} sparse dims against {}",
                    self.sparse_dim(),
                    other.sparse_dim()
                ),
            ));
        }
        let dtype = self.dtype().promote(other.dtype())?;
        let (t, s) = (self.promoted(dtype)?, other.promoted(dtype)?);
        if s.nnz() == 0 {
            return Ok(t);
        }
        if t.nnz() == 0 {
            return Ok(s);
        }
        let (ti, tv) = t.parts();
        let (si, sv) = s.parts();
        let (ti, si) = (slice::<i64>(ti)?, slice::<i64>(si)?);
        let (tn, sn, sd) = (t.nnz(), s.nnz(), t.sparse_dim());
        let lexcmp = |i: usize, j: usize| {
            (0..sd)
                .map(|d| ti[d * tn + i].cmp(&si[d * sn + j]))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        };
        // (index source, t entry, s entry) of each output entry.
        let mut merged: Vec<(Option<usize>, Option<usize>)> = Vec::with_capacity(tn + sn);
        let (mut i, mut j) = (0, 0);
        while i < tn || j < sn {
            let cmp = if i >= tn {
                Ordering::Less
            } else if j >= sn {
                Ordering::Greater
            } else {
                lexcmp(i, j).reverse()
            };
            let (mut from_t, mut from_s) = (None, None);
            if cmp != Ordering::Less {
                from_t = Some(i);
                i += 1;
            }
            if cmp != Ordering::Greater {
                from_s = Some(j);
                j += 1;
            }
            merged.push((from_t, from_s));
        }
        let n = merged.len();
        let mut idx = vec![0i64; sd * n];
        for (e, &(a, b)) in merged.iter().enumerate() {
            for d in 0..sd {
                // The s index wins only where t has none (they are equal otherwise).
                idx[d * n + e] = match (a, b) {
                    (Some(a), _) => ti[d * tn + a],
                    (None, Some(b)) => si[d * sn + b],
                    (None, None) => 0,
                };
            }
        }
        let row: usize = tv.shape()[1..].iter().product();
        let mut vshape = tv.shape().to_vec();
        vshape[0] = n;
        let values = with_real_dtype!(dtype, T => {
            let (a, b) = (slice::<T>(tv)?, slice::<T>(sv)?);
            host::build::<T>(&vshape, |out| {
                for (e, &(x, y)) in merged.iter().enumerate() {
                    let o = &mut out[e * row..(e + 1) * row];
                    if let Some(x) = x {
                        for (o, &v) in o.iter_mut().zip(&a[x * row..(x + 1) * row]) {
                            *o = Num::add(*o, v);
                        }
                    }
                    if let Some(y) = y {
                        for (o, &v) in o.iter_mut().zip(&b[y * row..(y + 1) * row]) {
                            *o = Num::add(*o, v);
                        }
                    }
                }
                Ok(())
            })?
        }, _ => return Err(Error::Unsupported { op: "add", dtype }));
        Ok(SparseCoo::from_checked(
            RawTensor::from_vec(idx, &[sd, n])?,
            values,
            self.shape().to_vec(),
            self.is_coalesced() && other.is_coalesced(),
        ))
    }

    /// A copy with the values cast to `dtype`.
    fn promoted(&self, dtype: crate::DType) -> Result<SparseCoo> {
        let (i, v) = self.parts();
        Ok(SparseCoo::from_checked(
            i.view().to_contiguous()?,
            v.view().to_dtype(dtype)?,
            self.shape().to_vec(),
            self.is_coalesced(),
        ))
    }

    /// `self ∘ scalar` for `Mul`, `Div`, or another elementwise op with a
    /// scalar that keeps zeros zero: the values transformed, the indices and
    /// the coalesced flag kept (`a * 3`, `a / 2`). The dtype follows the
    /// dense op's rules.
    ///
    /// # Errors
    /// `op` is not `Mul` or `Div` (adding a scalar would make every
    /// element non-zero: PyTorch refuses `sparse + 1` too).
    ///
    /// ```
    /// use axial_core::{BinaryOp, RawTensor, Scalar};
    /// use axial_core::sparse::SparseCoo;
    /// let d = RawTensor::from_vec(vec![1.0f32, 0.0, 0.0, 2.0], &[2, 2])?;
    /// let s = SparseCoo::from_dense(&d.view(), 2)?;
    /// let t = s.scalar(BinaryOp::Mul, Scalar::Float(3.0))?;
    /// assert_eq!(t.values()?.to_vec::<f32>()?, vec![3.0, 6.0]);
    /// assert!(s.scalar(BinaryOp::Add, Scalar::Int(1)).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn scalar(&self, op: BinaryOp, value: Scalar) -> Result<SparseCoo> {
        let (i, v) = self.parts();
        Ok(SparseCoo::from_checked(
            i.view().to_contiguous()?,
            scaled(v, op, value)?,
            self.shape().to_vec(),
            self.is_coalesced(),
        ))
    }

    /// `-self`: the values negated.
    ///
    /// # Errors
    /// The dtype has no negation (`Bool`).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let d = RawTensor::from_vec(vec![1.0f32, 0.0], &[2])?;
    /// assert_eq!(SparseCoo::from_dense(&d.view(), 1)?.neg()?.values()?.to_vec::<f32>()?, vec![-1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn neg(&self) -> Result<SparseCoo> {
        let (i, v) = self.parts();
        Ok(SparseCoo::from_checked(
            i.view().to_contiguous()?,
            v.view().unary(crate::UnaryOp::Neg)?,
            self.shape().to_vec(),
            self.is_coalesced(),
        ))
    }
}

/// The values `v ∘ value`, for the ops that keep the structure.
fn scaled(v: &RawTensor, op: BinaryOp, value: Scalar) -> Result<RawTensor> {
    if !matches!(op, BinaryOp::Mul | BinaryOp::Div) {
        return Err(Error::invalid(
            "sparse",
            format!(
                "{op:?} with a scalar is not supported on a sparse tensor: it would fill the zeros (multiply or divide instead, or add the scalar to the dense tensor)"
            ),
        ));
    }
    v.view().binary_scalar(op, value)
}

impl SparseCsr {
    /// `self + other` of two CSR matrices: CSR of the entries summed.
    ///
    /// # Errors
    /// The shapes differ.
    ///
    /// ```
    /// # use axial_core::{RawTensor, sparse::SparseCsr};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// let c = SparseCsr::from_dense(&d.view())?;
    /// assert_eq!(c.add(&c)?.values().to_vec::<f32>()?, vec![2.0, 4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn add(&self, other: &SparseCsr) -> Result<SparseCsr> {
        let dtype = self.index_dtype();
        self.to_coo()?.add(&other.to_coo()?)?.to_csr_of(dtype)
    }

    /// `self ∘ scalar` for `Mul` or `Div`: the values transformed (`csr * 2`).
    ///
    /// # Errors
    /// As [`SparseCoo::scalar`].
    ///
    /// ```
    /// # use axial_core::{BinaryOp, RawTensor, Scalar, sparse::SparseCsr};
    /// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 2.0, 0.0], &[2, 2])?;
    /// let c = SparseCsr::from_dense(&d.view())?.scalar(BinaryOp::Div, Scalar::Float(2.0))?;
    /// assert_eq!(c.values().to_vec::<f32>()?, vec![0.5, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn scalar(&self, op: BinaryOp, value: Scalar) -> Result<SparseCsr> {
        let (crow, col) = self.structure()?;
        let values = scaled(self.raw_values(), op, value)?;
        SparseCsr::from_checked(
            crow.into_iter().map(|v| v as i64).collect(),
            col.into_iter().map(|v| v as i64).collect(),
            values,
            [self.shape()[0], self.shape()[1]],
            self.index_dtype(),
        )
    }
}
