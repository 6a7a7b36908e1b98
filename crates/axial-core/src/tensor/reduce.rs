//! Reductions: dims checked and wrapped by the ops' rules
//! ([`crate::ops::ReduceOp`]), kernels on the device.

use super::{RawTensor, TensorRef, alloc_output};
use crate::layout::wrap_dim;
use crate::ops::reduce::{check_dims_nonempty, empty_dim, reduced_dims, reduced_shape};
use crate::{ArgReduceOp, Backend, DType, Layout, ReduceOp, Result, UnaryOp};

impl<D: Backend> TensorRef<'_, D> {
    /// Reduces over `dims` (empty: every dim), keeping them as size 1 when
    /// `keepdim`. Output dtypes as PyTorch's ([`ReduceOp::output_dtype`]).
    ///
    /// # Order
    /// The result does not depend on the layout where the op's order cannot
    /// matter (integers, `max`, `min`, `any`, `all`) and, for float `sum` and
    /// `mean`, up to rounding: one pairwise sum over all the reduced elements,
    /// as PyTorch's single reduction over several dims. A float `prod` over
    /// several dims is what einops computes with PyTorch, which multiplies
    /// over one dim at a time: one dim at a time, the last first, each a
    /// tensor of the output dtype, so that overflow, underflow and `0 · inf`
    /// give the same `inf`, `0` or NaN in every layout.
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
    ///
    /// // The rows' products are 0 and 1e20, so the product is 0 in every
    /// // layout (column by column, 1e20 · 1e20 would overflow before the 0).
    /// let x = RawTensor::from_vec(vec![1e20f32, 0.0, 1e20, 1.0], &[2, 2])?;
    /// let columns = x.view().t()?.contiguous()?; // stored column by column
    /// let p = columns.as_ref().t()?.reduce(ReduceOp::Prod, &[0, 1], false)?;
    /// assert_eq!(p.to_vec::<f32>()?, vec![0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reduce(&self, op: ReduceOp, dims: &[isize], keepdim: bool) -> Result<RawTensor<D>> {
        if let Some(filled) = self.empty_float8_reduce(op, dims, keepdim) {
            return filled;
        }
        op.check_moments(self.dtype, self.shape(), dims)?;
        let out_dtype = op.output_dtype(self.dtype)?;
        if op.needs_elements() && self.numel() == 0 {
            check_dims_nonempty(op.name(), self.shape(), dims)?;
        }
        let dims = reduced_dims(op.name(), dims, self.dim())?;
        if self.dtype.is_complex() && op != ReduceOp::Prod {
            return self.complex_reduce(op, &dims, keepdim);
        }
        let mut out = if op == ReduceOp::Prod && (out_dtype.is_float() || out_dtype.is_complex()) {
            self.prod_one_dim_at_a_time(&dims)?
        } else {
            self.reduce_kept(op, &dims, out_dtype)?
        };
        if !keepdim {
            out.layout = Layout::contiguous(&reduced_shape(self.shape(), &dims, false));
        }
        Ok(out)
    }

    /// A reduction of an empty float8 tensor. PyTorch has no float8 kernel
    /// for `sum`, `prod`, `var` or `std`, but fills their empty results
    /// without one: 0, 1 and NaN. `mean` then divides, which float8 lacks.
    /// `None` for any other tensor or op.
    /// (`tests/torch_dtypes.rs` replays PyTorch's answers.)
    fn empty_float8_reduce(
        &self,
        op: ReduceOp,
        dims: &[isize],
        keepdim: bool,
    ) -> Option<Result<RawTensor<D>>> {
        if !self.dtype.is_float8() || self.numel() != 0 {
            return None;
        }
        let value = match op {
            ReduceOp::Sum => 0.0,
            ReduceOp::Prod => 1.0,
            ReduceOp::Var { .. } | ReduceOp::Std { .. } => f64::NAN,
            ReduceOp::Mean => {
                return Some(Err(crate::Error::Unsupported {
                    op: "div_cpu_reduced_float",
                    dtype: self.dtype,
                }));
            }
            // Their kernels or refusals, as for any other tensor.
            _ => return None,
        };
        Some(reduced_dims(op.name(), dims, self.dim()).and_then(|dims| {
            let shape = reduced_shape(self.shape(), &dims, keepdim);
            RawTensor::full_on(self.storage.device(), &shape, value.into(), self.dtype)
        }))
    }

    /// `sum` and `mean` of complex numbers: of the real and the imaginary
    /// parts apart (views of the complex storage), put back together.
    /// `var` as PyTorch's: the variances of the two parts added (in the
    /// real dtype), and `std` its square root.
    fn complex_reduce(&self, op: ReduceOp, dims: &[usize], keepdim: bool) -> Result<RawTensor<D>> {
        if self.dim() == 0 {
            // Its parts' tensor has one dim, which no dim of its own names.
            return self.reshape(&[1])?.as_ref().complex_reduce(op, &[0], false);
        }
        let dims: Vec<isize> = dims.iter().map(|&d| d as isize).collect();
        let (moment, sqrt) = match op {
            ReduceOp::Var { correction } => (ReduceOp::Var { correction }, false),
            ReduceOp::Std { correction } => (ReduceOp::Var { correction }, true),
            _ => {
                let parts = self.view_as_real()?.reduce(op, &dims, keepdim)?;
                let (storage, layout, _) = parts.into_parts();
                let shape = &layout.shape()[..layout.shape().len() - 1];
                return RawTensor::from_storage(storage, shape, self.dtype);
            }
        };
        let parts = self.view_as_real()?.reduce(moment, &dims, keepdim)?;
        let var = parts.view().reduce(ReduceOp::Sum, &[-1], false)?;
        if sqrt {
            var.view().unary(UnaryOp::Sqrt)
        } else {
            Ok(var)
        }
    }

    /// `op` over wrapped, distinct `dims` in one pass, the dims kept as size 1.
    fn reduce_kept(&self, op: ReduceOp, dims: &[usize], dtype: DType) -> Result<RawTensor<D>> {
        let kept = Layout::contiguous(&reduced_shape(self.shape(), dims, true));
        let mut out = alloc_output(self.storage.device(), kept, dtype)?;
        let device = self.storage.device();
        device.reduce(op, self.input(), dims, out.output())?;
        Ok(out)
    }

    /// `prod` over wrapped, distinct `dims`, one dim at a time from the last
    /// (einops' order with PyTorch), the dims kept as size 1. Dims of size 1
    /// change nothing and are skipped.
    fn prod_one_dim_at_a_time(&self, dims: &[usize]) -> Result<RawTensor<D>> {
        let mut order: Vec<usize> = (dims.iter().copied())
            .filter(|&d| self.shape()[d] != 1)
            .collect();
        order.sort_unstable_by(|a, b| b.cmp(a));
        let dtype = ReduceOp::Prod.output_dtype(self.dtype)?;
        if order.len() <= 1 {
            return self.reduce_kept(ReduceOp::Prod, dims, dtype);
        }
        let mut out = self.reduce_kept(ReduceOp::Prod, &order[..1], dtype)?;
        for &d in &order[1..] {
            out = out.view().reduce_kept(ReduceOp::Prod, &[d], dtype)?;
        }
        // The size-1 dims, already of size 1, are kept as they are.
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
        op.check(self.dtype, self.numel(), dim)?;
        self.arg_reduce_any(op, dim, keepdim)
    }

    /// [`TensorRef::arg_reduce`] for every dtype.
    fn arg_reduce_any(
        &self,
        op: ArgReduceOp,
        dim: Option<isize>,
        keepdim: bool,
    ) -> Result<RawTensor<D>> {
        op.check_any(self.numel(), dim)?;
        let Some(dim) = dim else {
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
        if self.shape()[d] == 0 {
            return Err(empty_dim(op.name(), d as isize));
        }
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
        if self.shape().get(d) == Some(&0) {
            return Err(empty_dim(name, d as isize));
        }
        let indices = self.arg_reduce_any(op, Some(dim), keepdim)?;
        let values = self.reduce(reduce, &[dim], keepdim)?;
        Ok((values, indices))
    }

    /// `log Σ exp(x)` over `dims` (empty: every dim), PyTorch's
    /// `logsumexp`: the largest element of each slice (0 where it is
    /// infinite) is taken out before the exponentials and added back, so
    /// that nothing overflows. An empty slice gives `-inf`.
    ///
    /// # Errors
    /// A dim out of range or repeated, or a non-float tensor.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1000.0f32, 1000.0, 0.0, f32::NEG_INFINITY], &[2, 2])?;
    /// let y = x.view().logsumexp(&[1], false)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![1000.0 + 2f32.ln(), 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn logsumexp(&self, dims: &[isize], keepdim: bool) -> Result<RawTensor<D>> {
        if !self.dtype.is_float() {
            return Err(crate::Error::invalid(
                "logsumexp",
                format!(
                    "expected a floating point tensor, got {}",
                    self.dtype.name()
                ),
            ));
        }
        let wrapped = reduced_dims("logsumexp", dims, self.dim())?;
        let kept = reduced_shape(self.shape(), &wrapped, true);
        let device = self.storage.device();
        let top = if self.numel() == 0 {
            RawTensor::zeros_on(device, &kept, self.dtype)?
        } else {
            let m = self.reduce(ReduceOp::Max, dims, true)?;
            let infinite = m
                .view()
                .unary(crate::UnaryOp::Abs)?
                .view()
                .compare_scalar(crate::CmpOp::Eq, crate::Scalar::Float(f64::INFINITY))?;
            m.view()
                .masked_fill(&infinite.view(), crate::Scalar::Float(0.0))?
        };
        let shifted = self.binary(crate::BinaryOp::Sub, &top.view())?;
        let e = shifted.view().unary(crate::UnaryOp::Exp)?;
        let s = e.view().reduce(ReduceOp::Sum, dims, true)?;
        let l = s.view().unary(crate::UnaryOp::Log)?;
        let mut out = l.view().binary(crate::BinaryOp::Add, &top.view())?;
        if !keepdim {
            out.layout = Layout::contiguous(&reduced_shape(self.shape(), &wrapped, false));
        }
        Ok(out)
    }
}
