//! Reductions: dims checked and wrapped here, kernels on the device.

use super::{RawTensor, TensorRef, alloc_output};
use crate::layout::wrap_dim;
use crate::{ArgReduceOp, Backend, DType, Error, Layout, ReduceOp, Result};

/// Wraps `dims` for a tensor of `rank`; an empty list means every dim. A
/// 0-dim tensor accepts dim 0 and -1 and has no dim to reduce.
fn reduced_dims(op: &'static str, dims: &[isize], rank: usize) -> Result<Vec<usize>> {
    if dims.is_empty() {
        return Ok((0..rank).collect());
    }
    let mut out = Vec::with_capacity(dims.len());
    for &d in dims {
        let w = wrap_dim(d, rank)?;
        if out.contains(&w) {
            return Err(Error::invalid(
                op,
                format!("dim {w} appears multiple times in the list of dims"),
            ));
        }
        out.push(w);
    }
    if rank == 0 {
        out.clear();
    }
    Ok(out)
}

/// The shape with `dims` set to 1 (kept) or removed.
fn reduced_shape(shape: &[usize], dims: &[usize], keepdim: bool) -> Vec<usize> {
    shape
        .iter()
        .enumerate()
        .filter_map(|(d, &n)| match (dims.contains(&d), keepdim) {
            (false, _) => Some(n),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

fn check_nonempty(op: &'static str, shape: &[usize], dims: &[usize], all: bool) -> Result<()> {
    let numel: usize = shape.iter().product();
    if all && numel == 0 {
        return Err(Error::invalid(
            op,
            "Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
        ));
    }
    if let Some(&d) = dims.iter().find(|&&d| shape[d] == 0) {
        return Err(Error::invalid(
            op,
            format!("Expected reduction dim {d} to have non-zero size."),
        ));
    }
    Ok(())
}

impl<D: Backend> TensorRef<'_, D> {
    /// Reduces over `dims` (empty: every dim), keeping them as size 1 when
    /// `keepdim`. Output dtypes as PyTorch's ([`ReduceOp::output_dtype`]).
    ///
    /// # Errors
    /// A dim out of range or repeated, a float-only op on integers, or max/min
    /// over an empty dim.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, ReduceOp};
    /// let x = RawTensor::arange(0.0, 24.0, 1.0, DType::I64)?;
    /// let x = x.view().view(&[2, 3, 4])?;
    /// let s = x.reduce(ReduceOp::Sum, &[0, 2], false)?;
    /// assert_eq!(s.to_vec::<i64>()?, vec![60, 92, 124]);
    /// assert_eq!(x.reduce(ReduceOp::Sum, &[0, 2], true)?.shape(), &[1, 3, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reduce(&self, op: ReduceOp, dims: &[isize], keepdim: bool) -> Result<RawTensor<D>> {
        let out_dtype = op.output_dtype(self.dtype)?;
        let all = dims.is_empty();
        let dims = reduced_dims(op.name(), dims, self.dim())?;
        if op.needs_elements() {
            check_nonempty(op.name(), self.shape(), &dims, all)?;
        }
        let kept = Layout::contiguous(&reduced_shape(self.shape(), &dims, true));
        let mut out = alloc_output(self.storage.device(), kept, out_dtype)?;
        self.storage
            .device()
            .reduce(op, self.input(), &dims, out.output())?;
        if !keepdim {
            out.layout = Layout::contiguous(&reduced_shape(self.shape(), &dims, false));
        }
        Ok(out)
    }

    /// `argmax`/`argmin` along `dim`, or of the flattened tensor when `dim` is
    /// `None`; i64 indices, the first on ties, NaN wins.
    ///
    /// # Errors
    /// A dim out of range, an empty dim, or a bool tensor (PyTorch has no
    /// argmax of bool; `max_min_dim` has).
    ///
    /// ```
    /// # use axial_core::{ArgReduceOp, RawTensor};
    /// let x = RawTensor::from_vec(vec![1i64, 3, 3, 2], &[4])?;
    /// assert_eq!(x.view().arg_reduce(ArgReduceOp::ArgMax, None, false)?.to_vec::<i64>()?, vec![1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn arg_reduce(
        &self,
        op: ArgReduceOp,
        dim: Option<isize>,
        keepdim: bool,
    ) -> Result<RawTensor<D>> {
        if self.dtype == DType::Bool {
            return Err(Error::Unsupported {
                op: op.name(),
                dtype: self.dtype,
            });
        }
        self.arg_reduce_any(op, dim, keepdim)
    }

    /// [`TensorRef::arg_reduce`] for every dtype.
    fn arg_reduce_any(
        &self,
        op: ArgReduceOp,
        dim: Option<isize>,
        keepdim: bool,
    ) -> Result<RawTensor<D>> {
        let Some(dim) = dim else {
            check_nonempty(op.name(), self.shape(), &[], true)?;
            let flat = self.reshape(&[-1])?;
            let mut out = flat.as_ref().arg_reduce_any(op, Some(0), false)?;
            if keepdim {
                out.layout = Layout::contiguous(&vec![1; self.dim()]);
            }
            return Ok(out);
        };
        let d = wrap_dim(dim, self.dim())?;
        if self.dim() == 0 {
            return RawTensor::zeros_on(self.storage.device(), &[], DType::I64);
        }
        check_nonempty(op.name(), self.shape(), &[d], false)?;
        let kept = Layout::contiguous(&reduced_shape(self.shape(), &[d], true));
        let mut out = alloc_output(self.storage.device(), kept, DType::I64)?;
        self.storage
            .device()
            .arg_reduce(op, self.input(), d, out.output())?;
        if !keepdim {
            out.layout = Layout::contiguous(&reduced_shape(self.shape(), &[d], false));
        }
        Ok(out)
    }

    /// `x.max(dim)`/`x.min(dim)`: the values and their i64 indices (bool
    /// tensors included).
    ///
    /// # Errors
    /// A dim out of range, or an empty dim.
    ///
    /// ```
    /// # use axial_core::{ArgReduceOp, RawTensor};
    /// let x = RawTensor::from_vec(vec![1.0f32, 5.0, 2.0, 4.0], &[2, 2])?;
    /// let (values, indices) = x.view().max_min_dim(ArgReduceOp::ArgMax, 1, false)?;
    /// assert_eq!(values.to_vec::<f32>()?, vec![5.0, 4.0]);
    /// assert_eq!(indices.to_vec::<i64>()?, vec![1, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn max_min_dim(
        &self,
        op: ArgReduceOp,
        dim: isize,
        keepdim: bool,
    ) -> Result<(RawTensor<D>, RawTensor<D>)> {
        let (reduce, name) = match op {
            ArgReduceOp::ArgMax => (ReduceOp::Max, "max"),
            ArgReduceOp::ArgMin => (ReduceOp::Min, "min"),
        };
        let d = wrap_dim(dim, self.dim())?;
        if self.dim() > 0 {
            check_nonempty(name, self.shape(), &[d], false)?;
        }
        let indices = self.arg_reduce_any(op, Some(dim), keepdim)?;
        let values = self.reduce(reduce, &[dim], keepdim)?;
        Ok((values, indices))
    }
}
