//! Softmax over the ragged dim, item by item without padding, and along
//! the other dims of the items: the dense op's kernels (`cpu/softmax`) on
//! the values, f16 and bf16 computed in f32 inside them.

use super::NestedTensor;
use crate::generalized::host;
use crate::{DType, Error, RawTensor, Result};

impl NestedTensor {
    /// `softmax(dim)`: over the ragged dim (1), each item's rows without
    /// padding (the padding of a padded batch would take a share of the
    /// sum); over another of the items' dims, along it. Floats only; `f16`
    /// and `bf16` are computed in `f32`. After a transpose, or with two
    /// ragged dims (attention scores `nt @ nt.transpose(1, 2)`), along a
    /// ragged dim is within each item too (PyTorch refuses a ragged dim
    /// past 1).
    ///
    /// # Errors
    /// The batch dim (PyTorch's message), a dim out of range, or an integer
    /// dtype.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![0.0f32, 3.0, 1.0], &[3, 1])?, &[0, 2, 3])?;
    /// let p = nj.softmax(1)?.values().to_vec::<f32>()?;
    /// assert!((p[0] - 0.047426).abs() < 1e-6 && (p[1] - 0.952574).abs() < 1e-6 && p[2] == 1.0);
    /// let e = nj.softmax(0).unwrap_err();
    /// assert!(e.to_string().ends_with("softmax(): not supported when reducing across the batch dimension for NestedTensor"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn softmax(&self, dim: isize) -> Result<NestedTensor> {
        let d = crate::layout::wrap_dim(dim, self.dim())?;
        if d == 0 {
            return Err(Error::invalid(
                "nested",
                "softmax(): not supported when reducing across the batch dimension for NestedTensor",
            ));
        }
        if !self.dtype().is_float() {
            return Err(Error::Unsupported {
                op: "softmax",
                dtype: self.dtype(),
            });
        }
        let r = self.ragged();
        if r.contains(d) && !self.is_standard() {
            return self.map_items("softmax", |item| item.softmax(d as isize - 1));
        }
        let values = if r.contains(d) {
            self.softmax_ragged()?
        } else {
            self.values.view().softmax(r.value_dim_of(d) as isize)?
        };
        Ok(self.with_values(values))
    }

    /// The values' softmax over each item's rows (the ragged dim), by the
    /// dense kernel.
    fn softmax_ragged(&self) -> Result<RawTensor> {
        let v = &self.values;
        let inner: usize = self.rest_shape().iter().product();
        if inner == 0 {
            return v.view().to_contiguous();
        }
        fn run<T: crate::Element>(nt: &NestedTensor, inner: usize) -> Result<RawTensor> {
            let x = host::elements::<T>("softmax", &nt.values.view())?;
            host::build::<T>(nt.values.shape(), |o| {
                crate::cpu::softmax::ragged(&x, o, &nt.offsets, inner)
            })
        }
        match v.dtype() {
            DType::F32 => run::<f32>(self, inner),
            DType::F64 => run::<f64>(self, inner),
            DType::F16 => run::<half::f16>(self, inner),
            DType::BF16 => run::<half::bf16>(self, inner),
            dtype => Err(Error::Unsupported {
                op: "softmax",
                dtype,
            }),
        }
    }
}
