//! The product of two nested tensors of the same items (`nt @
//! nt.transpose(1, 2)`, then the scores times the values): item by item,
//! by the dense product, without padding.

use super::NestedTensor;
use super::ops::shape_text;
use super::ragged::Ragged;
use crate::{Error, RawTensor, Result};

/// What a product of nested tensors gives: a nested tensor, or a dense
/// `(B, ...)` tensor when the product sums over the ragged dim (PyTorch's
/// jagged `nt.transpose(1, 2) @ nt`).
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::nested::{NestedOrDense, NestedTensor};
/// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![1.0f32; 6], &[3, 2])?, &[0, 1, 3])?;
/// let gram = nj.clone().transpose(1, 2)?.matmul_nested(&nj)?; // (2, 2, 2), dense
/// assert!(matches!(gram, NestedOrDense::Dense(_)));
/// # Ok::<(), axial_core::Error>(())
/// ```
pub enum NestedOrDense {
    /// Ragged dims are left: a nested tensor of the same offsets.
    Nested(NestedTensor),
    /// No ragged dim is left: one dense result per item, stacked.
    Dense(RawTensor),
}

impl NestedOrDense {
    /// The nested tensor, or an error for a dense result.
    ///
    /// # Errors
    /// The result is dense.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![1.0f32; 6], &[3, 2])?, &[0, 1, 3])?;
    /// let scores = nj.matmul_nested(&nj.clone().transpose(1, 2)?)?.into_nested()?;
    /// assert_eq!(scores.item_shapes(), vec![vec![1, 1], vec![2, 2]]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn into_nested(self) -> Result<NestedTensor> {
        match self {
            NestedOrDense::Nested(n) => Ok(n),
            NestedOrDense::Dense(d) => Err(Error::invalid(
                "matmul",
                format!(
                    "the product is dense (shape {:?}): it sums over the ragged dim",
                    d.shape()
                ),
            )),
        }
    }

    /// The dense tensor, or an error for a nested result.
    ///
    /// # Errors
    /// The result is nested.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![1.0f32; 6], &[3, 2])?, &[0, 1, 3])?;
    /// let gram = nj.clone().transpose(1, 2)?.matmul_nested(&nj)?.into_dense()?;
    /// assert_eq!(gram.to_vec::<f32>()?, vec![1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn into_dense(self) -> Result<RawTensor> {
        match self {
            NestedOrDense::Dense(d) => Ok(d),
            NestedOrDense::Nested(n) => Err(Error::invalid(
                "matmul",
                format!(
                    "the product is nested (shape {}): it keeps a ragged dim",
                    shape_text(&n, "j1")
                ),
            )),
        }
    }
}

impl std::fmt::Debug for NestedOrDense {
    /// The nested tensor, or the dense tensor's shape and dtype.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NestedOrDense::Nested(n) => f.debug_tuple("Nested").field(n).finish(),
            NestedOrDense::Dense(d) => write!(f, "Dense({:?}, {})", d.shape(), d.dtype()),
        }
    }
}

/// Per item dim of a nested tensor: `None` when ragged, else its size.
fn item_dims(n: &NestedTensor) -> Vec<Option<usize>> {
    let r = n.ragged();
    let values = n.values();
    let rest = values.shape();
    (1..n.dim())
        .map(|d| (!r.contains(d)).then(|| rest[r.value_dim_of(d)]))
        .collect()
}

impl NestedTensor {
    /// `self @ other` for two nested tensors of the same offsets (the same
    /// items' lengths), each item by the dense product: `(B, j, D) @ (B, D,
    /// j)` gives items of `n_i × n_i` (two ragged dims: the attention
    /// scores of a ragged batch), `(B, j, j) @ (B, j, D)` gives `(B, j,
    /// D)`, and a product that sums over the ragged dim (`(B, D, j) @ (B,
    /// j, E)`) a dense `(B, D, E)`. Both have the same rank, at least 3; the
    /// dims before the last two are the same in both.
    ///
    /// PyTorch's jagged layout refuses `nt @ nt.transpose(1, 2)` (it has one
    /// ragged dim); its strided nested tensors compute the same items.
    ///
    /// # Errors
    /// Other offsets or ranks, dtypes that differ, a ragged dim summed
    /// against a fixed one or sizes that do not multiply (with both shapes),
    /// or a result whose ragged dims would not be side by side.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::nested::NestedTensor;
    /// // Two items of 1 and 2 rows of 2 features.
    /// let v = RawTensor::from_vec(vec![1.0f32, 0.0, 0.0, 1.0, 1.0, 1.0], &[3, 2])?;
    /// let q = NestedTensor::from_jagged(v, &[0, 1, 3])?;
    /// let scores = q.matmul_nested(&q.clone().transpose(1, 2)?)?.into_nested()?;
    /// assert_eq!(scores.to_string(), "NestedTensor(size=(2, j1, j1), offsets=tensor([0, 1, 3]), contiguous=True)");
    /// assert_eq!(scores.item(1)?.to_vec::<f32>()?, vec![1.0, 1.0, 1.0, 2.0]);
    /// let p = scores.softmax(-1)?; // within each item's rows
    /// let out = p.matmul_nested(&q)?.into_nested()?; // (2, j1, 2)
    /// assert_eq!(out.item(0)?.to_vec::<f32>()?, vec![1.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn matmul_nested(&self, other: &NestedTensor) -> Result<NestedOrDense> {
        let refuse = |why: &str| {
            Error::invalid(
                "matmul",
                format!(
                    "matmul(): not supported between nested inputs of shapes {} and {}: {why}",
                    shape_text(self, "j1"),
                    shape_text(other, "j1")
                ),
            )
        };
        if self.offsets() != other.offsets() {
            return Err(refuse("their items' lengths (offsets) differ"));
        }
        if self.dim() != other.dim() || self.dim() < 3 {
            return Err(refuse("both need the same rank, at least 3"));
        }
        let (a, b) = (item_dims(self), item_dims(other));
        let k = a.len();
        if a[..k - 2] != b[..k - 2] {
            return Err(refuse("the dims before the last two differ"));
        }
        if a[k - 1] != b[k - 2] {
            return Err(refuse(
                "the summed dims differ (a ragged dim sums only against a ragged dim)",
            ));
        }
        let mut out = a[..k - 1].to_vec();
        out.push(b[k - 1]);
        let ragged: Vec<usize> = (0..k).filter(|&d| out[d].is_none()).collect();
        let items = self
            .unbind()?
            .iter()
            .zip(other.unbind()?)
            .map(|(x, y)| x.matmul(&y))
            .collect::<Result<Vec<_>>>()?;
        let Some(&first) = ragged.first() else {
            return self.stack_items(&items).map(NestedOrDense::Dense);
        };
        let count = ragged.len();
        if ragged[count - 1] - first + 1 != count {
            return Err(refuse("the result's ragged dims would not be side by side"));
        }
        let rest: Vec<usize> = out.iter().flatten().copied().collect();
        let dtype = items.first().map_or(self.dtype(), RawTensor::dtype);
        NestedTensor::assemble(
            self.offsets().to_vec(),
            Ragged {
                dim: first + 1,
                count,
            },
            &rest,
            dtype,
            &items,
        )
        .map(NestedOrDense::Nested)
    }
}

impl NestedTensor {
    /// A copy of the values (in a new storage, the same layout) and the
    /// offsets.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![1.0f32; 6], &[3, 2])?, &[0, 1, 3])?;
    /// let t = nj.try_clone()?.transpose(1, 2)?;
    /// assert!(!t.values().shares_storage_with(&nj.values()));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn try_clone(&self) -> Result<NestedTensor> {
        let layout = self.values.layout().clone();
        let values =
            RawTensor::from_parts(self.values.storage().try_clone()?, layout, self.dtype())?;
        Ok(NestedTensor {
            values,
            offsets: self.offsets.clone(),
            ragged: self.ragged,
            starts: self.starts.clone(),
        })
    }
}

/// [`NestedTensor::try_clone`]; out of memory panics, as `Vec`'s clone does.
impl Clone for NestedTensor {
    fn clone(&self) -> Self {
        self.try_clone().unwrap_or_else(|e| panic!("{e}"))
    }
}
