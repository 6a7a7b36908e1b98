//! `linear` (`x·Wᵀ + b`, the weight as PyTorch stores it, `[Out, In]`) and
//! `addmm`: the bias is folded into the product, the weight read
//! transposed where it lies.

use super::{RawTensor, TensorRef, alloc_output};
use crate::ops::Linear;
use crate::{Backend, Layout, Result};

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.nn.functional.linear(x, weight, bias)`: `x` of shape
    /// `[..., In]`, `weight` `[Out, In]`, `bias` `[Out]`; the result is
    /// `[..., Out]`. The weight is read transposed in place (no copy) and the
    /// bias is the product's starting value.
    ///
    /// # Errors
    /// Sizes that do not chain (PyTorch's "mat1 and mat2 shapes cannot be
    /// multiplied"), a bias of another length, or dtypes that differ.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0], &[1, 2])?;
    /// let w = RawTensor::from_vec(vec![1.0f32, 0.0, 1.0, 1.0, 0.0, 2.0], &[3, 2])?; // [Out 3, In 2]
    /// let b = RawTensor::from_vec(vec![0.5f32, 0.5, 0.5], &[3])?;
    /// let y = x.view().linear(&w.view(), Some(&b.view()))?;
    /// assert_eq!((y.shape(), y.to_vec::<f32>()?), (&[1, 3][..], vec![1.5, 3.5, 4.5]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn linear(
        &self,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
    ) -> Result<RawTensor<D>> {
        let shape = self.shape();
        let dtypes = [
            self.dtype,
            weight.dtype,
            bias.map_or(self.dtype, |b| b.dtype),
        ];
        let (rows, k, out_f) =
            Linear::rows(shape, weight.shape(), bias.map(|b| b.shape()), dtypes)?;
        let x = self.reshape(&[rows as isize, k as isize])?;
        let wt = weight.t()?;
        let mut out = alloc_output(
            self.storage.device(),
            Layout::contiguous(&[rows, out_f]),
            self.dtype,
        )?;
        let device = self.storage.device();
        match bias {
            Some(b) => {
                let b = b.expand(&[rows as isize, out_f as isize])?;
                device.addmm(b.input(), x.as_ref().input(), wt.input(), out.output())?;
            }
            None => device.matmul(x.as_ref().input(), wt.input(), out.output())?,
        }
        let mut full = shape[..shape.len() - 1].to_vec();
        full.push(out_f);
        out.layout = Layout::contiguous(&full);
        Ok(out)
    }
}
