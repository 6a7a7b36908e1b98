//! Ops on nested tensors, on `values` without padding: elementwise with a
//! scalar, a dense tensor or a nested tensor of the same offsets;
//! reductions over the ragged dim (one result per item) or over the items'
//! other dims (nested again); matmul with a dense weight.

use super::NestedTensor;
use crate::{
    ArgReduceOp, BinaryOp, Cpu, DType, Error, RawTensor, ReduceOp, Result, Scalar, TensorRef,
    UnaryOp,
};

/// The nested shape as PyTorch prints it in errors: `(3, j1, 3)`, the
/// ragged sizes spelled `ragged`.
pub(super) fn shape_text(n: &NestedTensor, ragged: &str) -> String {
    let r = n.ragged();
    let values = n.values();
    let rest = values.shape();
    let sizes: Vec<String> = (0..n.dim())
        .map(|d| match d {
            0 => n.batch_size().to_string(),
            d if r.contains(d) => ragged.to_string(),
            d => rest[r.value_dim_of(d)].to_string(),
        })
        .collect();
    format!("({})", sizes.join(", "))
}

impl NestedTensor {
    /// `op(self)`, item by item (`relu`, `sin`, ...).
    ///
    /// # Errors
    /// As the dense op (a dtype it does not take).
    ///
    /// ```
    /// use axial_core::{DType, RawTensor, UnaryOp};
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![-1.0f32, 2.0, -3.0], &[3])?, &[0, 1, 3])?;
    /// assert_eq!(nj.unary(UnaryOp::Abs)?.values().to_vec::<f32>()?, vec![1.0, 2.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unary(&self, op: UnaryOp) -> Result<NestedTensor> {
        Ok(self.with_values(self.values().unary(op)?))
    }

    /// `self ∘ scalar` (`nj + 1`, `nj * 2`).
    ///
    /// # Errors
    /// As the dense op.
    ///
    /// ```
    /// use axial_core::{BinaryOp, DType, RawTensor, Scalar};
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3])?, &[0, 1, 3])?;
    /// let y = nj.binary_scalar(BinaryOp::Add, Scalar::Float(1.0))?;
    /// assert_eq!(y.values().to_vec::<f32>()?, vec![2.0, 3.0, 4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_scalar(&self, op: BinaryOp, value: Scalar) -> Result<NestedTensor> {
        Ok(self.with_values(self.values().binary_scalar(op, value)?))
    }

    /// `self ∘ other` for a nested tensor of the same structure: equal
    /// offsets and item sizes (PyTorch asks for the very same offsets
    /// object; equal values suffice here).
    ///
    /// # Errors
    /// The offsets or sizes differ (PyTorch's message), or the dense op fails.
    ///
    /// ```
    /// use axial_core::{BinaryOp, RawTensor};
    /// use axial_core::nested::NestedTensor;
    /// let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3])?;
    /// let a = NestedTensor::from_jagged(v.view().to_contiguous()?, &[0, 1, 3])?;
    /// let b = NestedTensor::from_jagged(v.view().to_contiguous()?, &[0, 2, 3])?;
    /// assert_eq!(a.binary(BinaryOp::Mul, &a)?.values().to_vec::<f32>()?, vec![1.0, 4.0, 9.0]);
    /// assert!(a.binary(BinaryOp::Add, &b).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary(&self, op: BinaryOp, other: &NestedTensor) -> Result<NestedTensor> {
        if self.offsets != other.offsets
            || self.ragged() != other.ragged()
            || self.rest_shape() != other.rest_shape()
        {
            return Err(Error::invalid(
                "nested",
                format!(
                    "cannot call binary pointwise function {} with inputs of shapes {} and {}",
                    op_name(op),
                    shape_text(self, "j1"),
                    shape_text(other, "j2")
                ),
            ));
        }
        Ok(self.with_values(self.values().binary(op, &other.values())?))
    }

    /// `self ∘ dense`: a dense tensor of at most the items' other dims
    /// broadcasts over every row of every item (`nj + [1, 2, 3]`); one of
    /// shape `(B, 1, ...)` applies its slice `i` to item `i` (`nj + t.view(B, 1, 1)`).
    /// After a transpose (the ragged dim not first in the items), `dense`
    /// broadcasts against each item and must leave its shape.
    ///
    /// # Errors
    /// Another shape, or shapes that do not broadcast.
    ///
    /// ```
    /// use axial_core::{BinaryOp, RawTensor};
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[3, 2], axial_core::DType::F32)?, &[0, 1, 3])?;
    /// let row = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// assert_eq!(nj.binary_dense(BinaryOp::Add, &row.view())?.values().to_vec::<f32>()?, vec![1.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
    /// let per_item = RawTensor::from_vec(vec![10.0f32, 20.0], &[2, 1, 1])?;
    /// let y = nj.binary_dense(BinaryOp::Add, &per_item.view())?;
    /// assert_eq!(y.values().to_vec::<f32>()?, vec![10.0, 10.0, 20.0, 20.0, 20.0, 20.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_dense(&self, op: BinaryOp, dense: &TensorRef<'_, Cpu>) -> Result<NestedTensor> {
        if !self.is_standard() {
            return self.map_items("nested", |item| item.binary(op, dense));
        }
        let rest = self.rest_shape().len();
        if dense.dim() <= rest {
            return Ok(self.with_values(self.values().binary(op, dense)?));
        }
        let per_item = dense.dim() == rest + 2
            && dense.shape()[0] == self.batch_size()
            && dense.shape()[1] == 1;
        if !per_item {
            return Err(Error::invalid(
                "nested",
                format!(
                    "cannot broadcast a dense tensor of shape {:?} against the nested shape {}: it must have at most {rest} dims, or be of shape ({}, 1, ...)",
                    dense.shape(),
                    shape_text(self, "j1"),
                    self.batch_size()
                ),
            ));
        }
        let first = self
            .values()
            .narrow(0, 0, 0)?
            .binary(op, &dense.clone().select(0, 0)?)?;
        let mut shape = first.shape().to_vec();
        shape[0] = self.values.shape()[0];
        let mut out = RawTensor::zeros(&shape, first.dtype())?;
        for i in 0..self.batch_size() {
            let item = self
                .item(i)?
                .binary(op, &dense.clone().select(0, i as isize)?)?;
            let (start, len) = (self.offsets[i], self.offsets[i + 1] - self.offsets[i]);
            out.view_mut()
                .narrow(0, start as isize, len)?
                .copy_(&item.view())?;
        }
        Ok(self.with_values(out))
    }

    /// A reduction over the ragged dim: one result per item, a dense
    /// `(B, rest...)` tensor, computed on each item without padding. An
    /// empty item sums to 0 and averages to NaN, as in PyTorch.
    ///
    /// # Errors
    /// `Max` or `Min` over an empty item: PyTorch returns `-FLT_MAX` for
    /// `amax` (the lowest value of the dtype; `FLT_MAX` for `amin`), a value
    /// no item holds, which [`reduce_ragged_or`](Self::reduce_ragged_or)
    /// gives when asked; two ragged dims; `op` not defined for the dtype.
    ///
    /// ```
    /// use axial_core::{RawTensor, ReduceOp};
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![1.0f32, 2.0, 4.0], &[3])?, &[0, 1, 3, 3])?;
    /// assert_eq!(nj.reduce_ragged(ReduceOp::Sum)?.to_vec::<f32>()?, vec![1.0, 6.0, 0.0]);
    /// assert!(nj.reduce_ragged(ReduceOp::Mean)?.to_vec::<f32>()?[2].is_nan());
    /// let e = nj.reduce_ragged(ReduceOp::Max).err().unwrap(); // the third item is empty
    /// assert!(e.to_string().contains("reduce_ragged_or"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reduce_ragged(&self, op: ReduceOp) -> Result<RawTensor> {
        let empty = self.lengths().iter().position(|&l| l == 0);
        if let (ReduceOp::Max | ReduceOp::Min, Some(i)) = (op, empty) {
            return Err(Error::invalid(
                "nested",
                format!(
                    "{op:?} over the ragged dim of an empty item ({i}) has no value; PyTorch gives the lowest (amax) or highest (amin) value of the dtype: ask for it with reduce_ragged_or"
                ),
            ));
        }
        let dim = self.single_ragged("reduce")?;
        self.per_item(|item| item.reduce(op, &[dim], false))
    }

    /// [`reduce_ragged`](Self::reduce_ragged), where an empty item gives
    /// `empty` (in the result's dtype) for every op:
    /// `reduce_ragged_or(Max, Scalar::Float(f32::MIN as f64))` is PyTorch's
    /// `amax(dim=1)` of an `f32` nested tensor.
    ///
    /// # Errors
    /// Two ragged dims; `op` not defined for the dtype.
    ///
    /// ```
    /// use axial_core::{RawTensor, ReduceOp, Scalar};
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![1.0f32, 2.0, 4.0], &[3])?, &[0, 1, 3, 3])?;
    /// let m = nj.reduce_ragged_or(ReduceOp::Max, Scalar::Float(f32::MIN as f64))?;
    /// assert_eq!(m.to_vec::<f32>()?, vec![1.0, 4.0, f32::MIN]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reduce_ragged_or(&self, op: ReduceOp, empty: Scalar) -> Result<RawTensor> {
        let dim = self.single_ragged("reduce")?;
        // What an item of length 1 gives: the result's shape and dtype.
        let mut one = self.rest_shape();
        one.insert(dim as usize, 1);
        let probe = RawTensor::zeros(&one, self.dtype())?
            .view()
            .reduce(op, &[dim], false)?;
        self.per_item(|item| {
            if item.shape()[dim as usize] == 0 {
                RawTensor::full_on(&Cpu, probe.shape(), empty, probe.dtype())
            } else {
                item.reduce(op, &[dim], false)
            }
        })
    }

    /// The dim of the items that is ragged, or an error naming `op` for a
    /// nested tensor with two.
    fn single_ragged(&self, op: &str) -> Result<isize> {
        if self.ragged().count != 1 {
            return Err(Error::invalid(
                "nested",
                format!(
                    "{op} over the ragged dims of a nested tensor of shape {} is not supported: reduce its items, or pad it",
                    shape_text(self, "j1")
                ),
            ));
        }
        Ok(self.ragged().value_dim() as isize)
    }

    /// `argmax` / `argmin` over the ragged dim: the index within each item
    /// (the first on ties), a dense `(B, rest...)` `i64` tensor.
    ///
    /// # Errors
    /// An empty item; two ragged dims.
    ///
    /// ```
    /// use axial_core::{ArgReduceOp, RawTensor};
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![1.0f32, 5.0, 4.0], &[3])?, &[0, 1, 3])?;
    /// assert_eq!(nj.arg_reduce_ragged(ArgReduceOp::ArgMax)?.to_vec::<i64>()?, vec![0, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn arg_reduce_ragged(&self, op: ArgReduceOp) -> Result<RawTensor> {
        let dim = self.single_ragged("argmax")?;
        self.per_item(|item| item.arg_reduce(op, Some(dim), false))
    }

    /// `f(item)` for each item, stacked: `(B, f's shape)`.
    fn per_item(&self, f: impl Fn(&TensorRef<'_, Cpu>) -> Result<RawTensor>) -> Result<RawTensor> {
        let results = self.unbind()?.iter().map(&f).collect::<Result<Vec<_>>>()?;
        self.stack_items(&results)
    }

    /// One result per item (all of one shape), stacked: `(B, shape)`.
    pub(super) fn stack_items(&self, results: &[RawTensor]) -> Result<RawTensor> {
        let (shape, dtype) = match results.first() {
            Some(r) => (r.shape().to_vec(), r.dtype()),
            None => (self.rest_shape(), DType::F32),
        };
        let mut out_shape = vec![self.batch_size()];
        out_shape.extend_from_slice(&shape);
        let mut out = RawTensor::zeros(&out_shape, dtype)?;
        for (i, r) in results.iter().enumerate() {
            out.view_mut().select(0, i as isize)?.copy_(&r.view())?;
        }
        Ok(out)
    }

    /// A reduction over the items' other dims `dims` (nested dims, neither
    /// the batch nor a ragged dim, negative from the end): a nested tensor
    /// of the same offsets.
    ///
    /// # Errors
    /// A dim that is the batch or a ragged dim (PyTorch's messages), or
    /// out of range.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor, ReduceOp};
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?.view().view(&[3, 2])?.to_contiguous()?, &[0, 1, 3])?;
    /// let r = nj.reduce(ReduceOp::Sum, &[-1], false)?;
    /// assert_eq!((r.dim(), r.values().to_vec::<f32>()?), (2, vec![1.0, 5.0, 9.0]));
    /// let e = nj.reduce(ReduceOp::Sum, &[0], false).unwrap_err();
    /// assert!(e.to_string().ends_with("reducing along the batch dimension but not the ragged dimension is not supported for nested tensors"));
    /// // After a transpose the ragged dim is 2; reducing dim 1 moves it to 1.
    /// let t = nj.transpose(1, 2)?.reduce(ReduceOp::Sum, &[1], false)?;
    /// assert_eq!((t.ragged_dims(), t.values().to_vec::<f32>()?), (vec![1], vec![1.0, 5.0, 9.0]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reduce(&self, op: ReduceOp, dims: &[isize], keepdim: bool) -> Result<NestedTensor> {
        let on_values = self.value_dims(dims, "sum")?;
        let values = self.values().reduce(op, &on_values, keepdim)?;
        let r = self.ragged();
        let mut dim = r.dim;
        if !keepdim {
            let mut before: Vec<isize> = on_values
                .iter()
                .copied()
                .filter(|&d| (d as usize) < r.value_dim())
                .collect();
            before.sort_unstable();
            before.dedup();
            dim -= before.len();
        }
        Ok(self.moved(values, dim))
    }

    /// `dims` of the nested tensor as dims of `values`, refusing the batch
    /// and the ragged dims as PyTorch does.
    pub(super) fn value_dims(&self, dims: &[isize], op: &str) -> Result<Vec<isize>> {
        let rank = self.dim();
        let r = self.ragged();
        let mut out = Vec::with_capacity(dims.len());
        for &d in dims {
            let d = crate::layout::wrap_dim(d, rank)?;
            if d == 0 {
                return Err(Error::invalid(
                    "nested",
                    format!(
                        "{op}(): reducing along the batch dimension but not the ragged dimension is not supported for nested tensors"
                    ),
                ));
            }
            if r.contains(d) {
                return Err(Error::invalid(
                    "nested",
                    format!(
                        "{op}(): reducing along a ragged and non-batch dimension is not supported for nested tensors"
                    ),
                ));
            }
            out.push(r.value_dim_of(d) as isize);
        }
        Ok(out)
    }

    /// `self @ weight` for a dense `(D, N)` weight (or a `(D,)` vector):
    /// each row of each item times the weight, the offsets kept.
    ///
    /// # Errors
    /// The weight is not 1-D or 2-D, or its first size is not the items'
    /// last (PyTorch's message); the last dim is ragged (after a transpose:
    /// see [`matmul_nested`](Self::matmul_nested)).
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::nested::NestedTensor;
    /// let v = RawTensor::arange(18.0, 21.0, 1.0, DType::F32)?;
    /// let nj = NestedTensor::from_jagged(v.view().view(&[1, 3])?.to_contiguous()?, &[0, 1])?;
    /// let w = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?;
    /// let y = nj.matmul(&w.view().view(&[3, 2])?)?;
    /// assert_eq!(y.values().to_vec::<f32>()?, vec![118.0, 175.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn matmul(&self, weight: &TensorRef<'_, Cpu>) -> Result<NestedTensor> {
        if !matches!(weight.dim(), 1 | 2) || self.ragged().contains(self.dim() - 1) {
            return Err(Error::invalid(
                "matmul",
                format!(
                    "matmul(): not supported between inputs of shapes {} and {:?}: the weight must be 1-D or 2-D, and the nested tensor's last dim not ragged",
                    shape_text(self, "j1"),
                    weight.shape()
                ),
            ));
        }
        Ok(self.with_values(self.values().matmul(weight)?))
    }
}

/// PyTorch's name of the op in nested errors (`add.Tensor`).
fn op_name(op: BinaryOp) -> String {
    format!("{}.Tensor", format!("{op:?}").to_lowercase())
}
