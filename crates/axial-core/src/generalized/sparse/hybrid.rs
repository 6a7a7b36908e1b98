//! Hybrid matrices (rows sparse, columns dense: values of rank 2, as
//! `torch.sparse_coo_tensor(indices[1, nnz], values[nnz, cols])` holds a
//! row-sparse matrix) times dense operands. PyTorch's sparse products
//! refuse them; the product is the dense matrix's: each stored row times
//! the dense operand by the dense kernel, added into its row.

use super::SparseCoo;
use super::coo::slice;
use super::matmul::{dense_width, output_shape};
use crate::generalized::host::{self, Num};
use crate::{Cpu, Error, RawTensor, Result, TensorRef, with_real_dtype};

impl SparseCoo {
    /// `self @ dense` for a hybrid matrix (one sparse dim, one dense):
    /// the stored rows times `dense` by the dense product, each added into
    /// its row in the stored order (duplicates add up, as in `to_dense()`).
    pub(super) fn hybrid_matmul(
        &self,
        op: &'static str,
        dense: &TensorRef<'_, Cpu>,
    ) -> Result<RawTensor> {
        let shape = [self.shape()[0], self.shape()[1]];
        let (n, vector) = dense_width(op, shape, dense, self.dtype())?;
        let (indices, values) = self.parts();
        let rows = values.view().matmul(dense)?;
        let idx = slice::<i64>(indices)?;
        with_real_dtype!(self.dtype(), T => {
            let src = host::elements::<T>(op, &rows.view())?;
            host::build::<T>(&output_shape(shape[0], n, vector), |out| {
                for (e, &r) in idx.iter().enumerate() {
                    // Inside the output: every index was checked at construction.
                    let dst = &mut out[r as usize * n..(r as usize + 1) * n];
                    for (o, &v) in dst.iter_mut().zip(&src[e * n..(e + 1) * n]) {
                        *o = Num::add(*o, v);
                    }
                }
                Ok(())
            })
        }, _ => Err(Error::Unsupported { op, dtype: self.dtype() }))
    }
}
