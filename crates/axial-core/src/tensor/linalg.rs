//! `matmul` with PyTorch's rules for 1-D operands and broadcast batch dims.

use super::{RawTensor, TensorRef, alloc_output};
use crate::layout::broadcast_shapes;
use crate::{Backend, Error, Layout, Result};

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.matmul`: dot for 1-D·1-D, matrix products over the last two dims
    /// with the batch dims broadcast; a 1-D operand gets a unit dim that is
    /// dropped from the result. Float dtypes (f16/bf16 included), equal on both sides.
    ///
    /// # Errors
    /// Contracted sizes that differ, batch dims that do not broadcast, mixed or
    /// integer dtypes, or a 0-dim operand.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let a = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let b = RawTensor::from_vec(vec![1.0f32, 1.0], &[2])?;
    /// assert_eq!(a.view().matmul(&b.view())?.to_vec::<f32>()?, vec![3.0, 7.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn matmul(&self, other: &TensorRef<'_, D>) -> Result<RawTensor<D>> {
        if self.dim() == 0 || other.dim() == 0 {
            return Err(Error::invalid(
                "matmul",
                format!(
                    "both arguments to matmul need to be at least 1D, but they are {}D and {}D",
                    self.dim(),
                    other.dim()
                ),
            ));
        }
        if self.dtype != other.dtype {
            return Err(Error::invalid(
                "matmul",
                format!(
                    "expected m1 and m2 to have the same dtype, but got: {} != {}",
                    self.dtype.name(),
                    other.dtype.name()
                ),
            ));
        }
        if !self.dtype.is_float() {
            return Err(Error::Unsupported {
                op: "matmul",
                dtype: self.dtype,
            });
        }
        let a = if self.dim() == 1 {
            self.unsqueeze(0)?
        } else {
            self.clone()
        };
        let b = if other.dim() == 1 {
            other.unsqueeze(-1)?
        } else {
            other.clone()
        };
        let (ra, rb) = (a.dim(), b.dim());
        let (m, k) = (a.shape()[ra - 2], a.shape()[ra - 1]);
        let (k2, n) = (b.shape()[rb - 2], b.shape()[rb - 1]);
        if k != k2 {
            return Err(if self.dim() == 1 && other.dim() == 1 {
                Error::invalid(
                    "dot",
                    format!(
                        "inconsistent tensor size, expected tensor [{k}] and src [{k2}] to have the same number of elements, but got {k} and {k2} elements respectively"
                    ),
                )
            } else {
                Error::invalid(
                    "matmul",
                    format!("mat1 and mat2 shapes cannot be multiplied ({m}x{k} and {k2}x{n})"),
                )
            });
        }
        let batch = broadcast_shapes(&a.shape()[..ra - 2], &b.shape()[..rb - 2])?;
        let full = |x: usize, y: usize| -> Vec<isize> {
            batch
                .iter()
                .map(|&s| s as isize)
                .chain([x as isize, y as isize])
                .collect()
        };
        let (a, b) = (a.expand(&full(m, k))?, b.expand(&full(k, n))?);
        let out_shape: Vec<usize> = full(m, n).iter().map(|&s| s as usize).collect();
        let mut out = alloc_output(
            self.storage.device(),
            Layout::contiguous(&out_shape),
            self.dtype,
        )?;
        self.storage
            .device()
            .matmul(a.input(), b.input(), out.output())?;
        let mut shape = batch.to_vec();
        if self.dim() > 1 {
            shape.push(m);
        }
        if other.dim() > 1 {
            shape.push(n);
        }
        out.layout = Layout::contiguous(&shape);
        Ok(out)
    }
}
