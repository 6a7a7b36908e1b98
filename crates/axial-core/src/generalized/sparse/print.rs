//! Printing like PyTorch (`_str_intern` of a sparse tensor): the index and
//! value tensors nested in the repr, then size, nnz, dtype and layout.

use std::fmt;

use super::{SparseCoo, SparseCsr};
use crate::print::{add_suffixes, python_tuple, tensor_str, unprintable};
use crate::{Cpu, DType, Result, TensorRef};

/// Where the nested tensors start: after `tensor(`.
const INDENT: usize = "tensor(".len();

/// `name=tensor(...)` of a component at the repr's indent.
fn component(name: &str, t: &TensorRef<'_, Cpu>) -> Result<String> {
    let prefix = format!("{name}=tensor(");
    let mut body = if t.numel() == 0 {
        "[]".to_string()
    } else {
        tensor_str(t, INDENT + prefix.len())?
    };
    if t.numel() == 0 {
        body.push_str(&format!(", size={}", python_tuple(t.shape())));
    }
    Ok(format!("{prefix}{body})"))
}

/// The whole repr: `parts` one per line, then the suffixes (from a new line
/// for COO, as PyTorch's `force_newline`).
fn repr(
    parts: &[(&str, TensorRef<'_, Cpu>)],
    shape: &[usize],
    nnz: usize,
    dtype: DType,
    layout: &str,
) -> Result<String> {
    let mut text = String::from("tensor(");
    for (i, (name, t)) in parts.iter().enumerate() {
        if i > 0 {
            text.push_str(",\n");
            text.push_str(&" ".repeat(INDENT));
        }
        text.push_str(&component(name, t)?);
    }
    let mut suffixes = vec![
        format!("size={}", python_tuple(shape)),
        format!("nnz={nnz}"),
    ];
    if dtype != DType::F32 {
        suffixes.push(format!("dtype={dtype}"));
    }
    suffixes.push(format!("layout={layout}"));
    Ok(add_suffixes(text, &suffixes, layout == "torch.sparse_coo"))
}

impl fmt::Display for SparseCoo {
    /// PyTorch's repr of a COO tensor.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCoo;
    /// let i = RawTensor::from_vec(vec![0i64, 1, 2, 2, 0, 1], &[2, 3])?;
    /// let v = RawTensor::from_vec(vec![3.0f32, 4.0, 5.0], &[3])?;
    /// let s = SparseCoo::new(i, v, &[1000, 1000])?;
    /// assert_eq!(
    ///     s.to_string(),
    ///     "tensor(indices=tensor([[0, 1, 2],\n                       [2, 0, 1]]),\n       \
    ///      values=tensor([3., 4., 5.]),\n       size=(1000, 1000), nnz=3, layout=torch.sparse_coo)"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = [
            ("indices", self.raw_indices()),
            ("values", self.raw_values()),
        ];
        match repr(
            &parts,
            self.shape(),
            self.nnz(),
            self.dtype(),
            "torch.sparse_coo",
        ) {
            Ok(s) => f.write_str(&s),
            Err(e) => f.write_str(&unprintable(&e)),
        }
    }
}

impl fmt::Display for SparseCsr {
    /// PyTorch's repr of a CSR tensor.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::sparse::SparseCsr;
    /// let x = RawTensor::from_vec(vec![0.0f32, 1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 4.0, 0.0], &[3, 4])?;
    /// assert_eq!(
    ///     SparseCsr::from_dense(&x.view())?.to_string(),
    ///     "tensor(crow_indices=tensor([0, 2, 2, 4]),\n       col_indices=tensor([1, 3, 0, 2]),\n       \
    ///      values=tensor([1., 2., 3., 4.]), size=(3, 4), nnz=4,\n       layout=torch.sparse_csr)"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = [
            ("crow_indices", self.crow_indices()),
            ("col_indices", self.col_indices()),
            ("values", self.values()),
        ];
        match repr(
            &parts,
            self.shape(),
            self.nnz(),
            self.dtype(),
            "torch.sparse_csr",
        ) {
            Ok(s) => f.write_str(&s),
            Err(e) => f.write_str(&unprintable(&e)),
        }
    }
}

impl fmt::Debug for SparseCoo {
    /// The shape, entries, dtype and flag:
    /// `SparseCoo { shape: [3, 3], nnz: 5, dtype: torch.float32, coalesced: false }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SparseCoo")
            .field("shape", &self.shape())
            .field("nnz", &self.nnz())
            .field("dtype", &format_args!("{}", self.dtype()))
            .field("coalesced", &self.is_coalesced())
            .finish()
    }
}

impl fmt::Debug for SparseCsr {
    /// The shape, entries and dtype:
    /// `SparseCsr { shape: [3, 4], nnz: 4, dtype: torch.float32 }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SparseCsr")
            .field("shape", &self.shape())
            .field("nnz", &self.nnz())
            .field("dtype", &format_args!("{}", self.dtype()))
            .finish()
    }
}
