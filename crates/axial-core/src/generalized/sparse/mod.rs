//! Sparse tensors: coordinate (COO) and compressed sparse row (CSR)
//! layouts, with PyTorch's semantics.
//!
//! Every constructor checks the indices against the shape, always. PyTorch
//! checks them only when asked (`check_invariants=True`); otherwise an index
//! past its dim is accepted, `to_dense` writes it past the end of the
//! buffer, and `to_sparse_csr` corrupts the heap. Here it is an `Err` at
//! construction, with PyTorch's own message for the check.
//!
//! # Example
//! ```
//! use axial_core::RawTensor;
//! use axial_core::sparse::SparseCoo;
//! // The chapter's 1000×1000 matrix with 3 non-zeros: 60 bytes, not 4 MB.
//! let indices = RawTensor::from_vec(vec![0i64, 1, 2, 2, 0, 1], &[2, 3])?;
//! let values = RawTensor::from_vec(vec![3.0f32, 4.0, 5.0], &[3])?;
//! let s = SparseCoo::new(indices, values, &[1000, 1000])?;
//! assert_eq!((s.nnz(), s.nbytes()), (3, 60));
//! let d = s.to_dense()?;
//! assert_eq!(d.view().get::<f32>(&[1, 0])?, 4.0);
//! // An index past its dim: PyTorch accepts it (and writes out of bounds later).
//! let bad = RawTensor::from_vec(vec![0i64, 5, 0, 0], &[2, 2])?;
//! let v = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
//! assert_eq!(
//!     SparseCoo::new(bad, v, &[3, 3]).unwrap_err().to_string(),
//!     "sparse_coo_tensor: size is inconsistent with indices: for dim 0, size is 3 but found index 5"
//! );
//! # Ok::<(), axial_core::Error>(())
//! ```

mod arith;
mod coo;
mod csr;
mod hybrid;
mod matmul;
mod print;

pub use matmul::dense_matmul;

use crate::RawTensor;

/// A sparse tensor in coordinate form: `indices` (`sparse_dim × nnz`,
/// `i64`), `values` (`nnz × dense sizes`), the shape, and whether the
/// entries are sorted and unique (coalesced).
///
/// # Example
/// ```
/// use axial_core::RawTensor;
/// use axial_core::sparse::SparseCoo;
/// let i = RawTensor::from_vec(vec![1i64, 0, 1, 0, 2, 0, 2, 0, 2, 2], &[2, 5])?;
/// let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0], &[5])?;
/// let u = SparseCoo::new(i, v, &[3, 3])?;
/// assert!(!u.is_coalesced());
/// let c = u.coalesce()?;
/// assert_eq!(c.indices()?.to_vec::<i64>()?, vec![0, 1, 2, 2, 0, 2]);
/// assert_eq!(c.values()?.to_vec::<f32>()?, vec![6.0, 4.0, 5.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct SparseCoo {
    /// `sparse_dim × nnz` `i64`, contiguous, every index inside its dim.
    indices: RawTensor,
    /// `nnz × dense sizes`, contiguous.
    values: RawTensor,
    shape: Vec<usize>,
    coalesced: bool,
}

/// A sparse matrix in compressed sparse row form: `crow_indices` (rows + 1
/// offsets into the entries), `col_indices` and `values` (one per entry),
/// the columns of each row sorted and distinct.
///
/// # Example
/// ```
/// use axial_core::RawTensor;
/// use axial_core::sparse::SparseCsr;
/// let d = RawTensor::from_vec(vec![0.0f32, 1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 4.0, 0.0], &[3, 4])?;
/// let c = SparseCsr::from_dense(&d.view())?;
/// assert_eq!(c.crow_indices().to_vec::<i64>()?, vec![0, 2, 2, 4]);
/// assert_eq!(c.col_indices().to_vec::<i64>()?, vec![1, 3, 0, 2]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct SparseCsr {
    /// `rows + 1` offsets (`i32` or `i64`), from 0 to nnz, non-decreasing.
    crow: RawTensor,
    /// `nnz` columns (the dtype of `crow`), sorted and distinct per row.
    col: RawTensor,
    /// `nnz` values.
    values: RawTensor,
    shape: [usize; 2],
}
