//! `scatter_add`, the inverse of `gather`: the gradients of `gather`,
//! `index_select`, `embedding`, `max(dim)` and of views whose elements
//! overlap (`unfold`, `as_strided`) are sums into the positions an index
//! names. A fused op: the CPU has a kernel; the default composes
//! primitives (a one-hot comparison and a product), so every device has it.

use super::index::{check_index_dtype, checked_index};
use super::{Derivative, Keep, Lowering, Op, OpInfo, Saves};
use crate::tensor::alloc_output;
use crate::{
    Arg, Backend, BinaryOp, CmpOp, DType, Device, Error, Input, Layout, Output, RawTensor,
    ReduceOp, Result,
};

/// `dst.scatter_add_(dim, index, src)`: `dst[..., index[p], ...] +=
/// src[p]` along `dim` for every position `p` of `index` (i64, of `src`'s
/// shape, no larger than `dst` off `dim`).
///
/// # Example
/// ```
/// use axial_core::ops::{Op, ScatterAdd};
/// assert_eq!(ScatterAdd { dim: 0 }.name(), "scatter_add");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScatterAdd {
    /// The dim indexed (wrapped).
    pub dim: usize,
}

impl Op for ScatterAdd {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "scatter_add",
            lowering: Lowering::Fused,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Never, Keep::Always, Keep::Never],
                output: false,
            }),
        }
    }
}

impl ScatterAdd {
    /// Checks the operands a device is handed: `index` (i64) of `src`'s
    /// shape and `dst`'s rank, no larger than `dst` off the dim; `src` and
    /// `dst` of one dtype.
    ///
    /// # Errors
    /// Shapes or dtypes other than those.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Output, RawTensor, Storage, ops::ScatterAdd};
    /// let src = RawTensor::from_vec(vec![1.0f32; 3], &[3])?;
    /// let idx = RawTensor::from_vec(vec![0i64; 2], &[2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::F32 };
    /// let err = ScatterAdd { dim: 0 }.check(&dst, &idx.view().input(), &src.view().input()).unwrap_err();
    /// assert!(err.to_string().starts_with("scatter_add: Expected index [2] to be the size of src [3]"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check<D: Device>(
        &self,
        dst: &Output<'_, D>,
        index: &Input<'_, D>,
        src: &Input<'_, D>,
    ) -> Result<()> {
        let (op, dim) = (self.name(), self.dim);
        let (shape, ishape) = (dst.layout.shape(), index.layout.shape());
        check_index_dtype(op, index.dtype)?;
        if ishape != src.layout.shape() {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected index {ishape:?} to be the size of src {:?}",
                    src.layout.shape()
                ),
            ));
        }
        let rank = shape.len();
        let fits = ishape.len() == rank
            && dim < rank.max(1)
            && (0..rank).all(|d| d == dim || ishape[d] <= shape[d]);
        if !fits {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected index {ishape:?} to be no larger than self {shape:?} apart from dimension {dim}"
                ),
            ));
        }
        if src.dtype != dst.dtype || src.storage.is_none() {
            return Err(Error::DTypeMismatch {
                op,
                expected: dst.dtype,
                got: src.dtype,
            });
        }
        Ok(())
    }

    /// The op written with primitives, for a device without a kernel of
    /// its own: with the dim moved last, the index compared with every
    /// position along it (a one-hot `[.., m, n]` in `src`'s dtype), and
    /// `src` (`[.., 1, m]`) multiplied by it, then added to `dst`.
    ///
    /// # Errors
    /// As [`ScatterAdd::check`], an index out of range, or a device
    /// failure.
    pub fn composite<D: Backend>(
        &self,
        device: &D,
        dst: Output<'_, D>,
        index: Input<'_, D>,
        src: Input<'_, D>,
    ) -> Result<()> {
        self.check(&dst, &index, &src)?;
        let (dim, rank) = (self.dim, index.layout.rank());
        let n = dst.layout.shape().get(dim).copied().unwrap_or(1);
        if index.layout.numel() == 0 {
            return Ok(());
        }
        check_range(device, &index, n, dim)?;
        if rank == 0 {
            return device.binary(
                BinaryOp::Add,
                Arg::Tensor(Input {
                    storage: None,
                    layout: dst.layout.clone(),
                    dtype: dst.dtype,
                }),
                src.into(),
                dst,
            );
        }
        // The dim last: [rest.., m] for the index and src, [rest.., n] for dst.
        let mut order: Vec<isize> = (0..rank as isize).filter(|&d| d != dim as isize).collect();
        order.push(dim as isize);
        let ishape = index.layout.shape().to_vec();
        let mut narrowed = dst.layout.clone();
        for (d, &m) in ishape.iter().enumerate() {
            if d != dim {
                narrowed = narrowed.narrow(d as isize, 0, m)?;
            }
        }
        let dst_last = narrowed.permute(&order)?;
        let idx_last = index.layout.permute(&order)?;
        let src_last = src.layout.permute(&order)?;
        let m = ishape[dim];
        let rest: Vec<usize> = dst_last.shape()[..rank - 1].to_vec();
        // one_hot[.., j, i] = (index[.., j] == i)
        let positions = RawTensor::arange_on(device, 0.0, n as f64, 1.0, DType::I64)?;
        let hot_shape: Vec<usize> = rest.iter().copied().chain([m, n]).collect();
        let sizes: Vec<isize> = hot_shape.iter().map(|&k| k as isize).collect();
        let idx_col = idx_last.unsqueeze(rank as isize)?.expand(&sizes)?;
        let pos_row = positions.layout().unsqueeze(0)?;
        let pos_row = (0..rank - 1)
            .try_fold(pos_row, |l, _| l.unsqueeze(0))?
            .expand(&sizes)?;
        let mut hot = alloc_output(device, Layout::contiguous(&hot_shape), DType::Bool)?;
        device.compare(
            CmpOp::Eq,
            Input {
                storage: index.storage,
                layout: idx_col,
                dtype: DType::I64,
            }
            .into(),
            Input {
                storage: Some(positions.storage()),
                layout: pos_row,
                dtype: DType::I64,
            }
            .into(),
            hot.output(),
        )?;
        let mut weights = alloc_output(device, Layout::contiguous(&hot_shape), dst.dtype)?;
        device.copy(hot.view().input(), weights.output())?;
        // [.., 1, m] @ [.., m, n] -> [.., 1, n]
        let row_shape: Vec<usize> = rest.iter().copied().chain([1, n]).collect();
        let mut summed = alloc_output(device, Layout::contiguous(&row_shape), dst.dtype)?;
        device.matmul(
            Input {
                storage: src.storage,
                layout: src_last.unsqueeze(rank as isize - 1)?,
                dtype: src.dtype,
            },
            weights.view().input(),
            summed.output(),
        )?;
        let summed_layout = Layout::contiguous(&row_shape).squeeze_dims(&[rank as isize - 1])?;
        let out = Output {
            storage: dst.storage,
            layout: dst_last.clone(),
            dtype: dst.dtype,
        };
        device.binary(
            BinaryOp::Add,
            Arg::Tensor(Input {
                storage: None,
                layout: dst_last,
                dtype: out.dtype,
            }),
            Arg::Tensor(Input {
                storage: Some(summed.storage()),
                layout: summed_layout,
                dtype: out.dtype,
            }),
            out,
        )
    }
}

/// Checks every index is in `0..n`, with two reductions on the device.
fn check_range<D: Backend>(device: &D, index: &Input<'_, D>, n: usize, dim: usize) -> Result<()> {
    let op = ScatterAdd { dim }.name();
    for reduce in [ReduceOp::Min, ReduceOp::Max] {
        let all: Vec<usize> = (0..index.layout.rank()).collect();
        let kept = Layout::contiguous(&vec![1; index.layout.rank()]);
        let mut out = alloc_output(device, kept, DType::I64)?;
        device.reduce(
            reduce,
            Input {
                storage: index.storage,
                layout: index.layout.clone(),
                dtype: DType::I64,
            },
            &all,
            out.output(),
        )?;
        checked_index(op, out.view().item::<i64>()?, n, dim)?;
    }
    Ok(())
}

/// Zeros of `shape` and `src`'s dtype with `src` scattered into them along
/// `dim` at `index`: the gradient of a gather.
pub(crate) fn scattered<D: Backend>(
    shape: &[usize],
    dim: usize,
    index: &crate::TensorRef<'_, D>,
    src: &crate::TensorRef<'_, D>,
) -> Result<RawTensor<D>> {
    let device = src.storage().device();
    let mut out = RawTensor::zeros_on(device, shape, src.dtype())?;
    device.scatter_add(ScatterAdd { dim }, out.output(), index.input(), src.input())?;
    Ok(out)
}

/// [`scattered`] with a vector `index` along `dim`, broadcast over the
/// other dims (PyTorch's `index_add`): the gradient of `index_select`.
pub(crate) fn index_added<D: Backend>(
    shape: &[usize],
    dim: usize,
    index: &crate::TensorRef<'_, D>,
    src: &crate::TensorRef<'_, D>,
) -> Result<RawTensor<D>> {
    let rank = src.dim();
    let stride = index.strides().first().copied().unwrap_or(0);
    let strides: Vec<isize> = (0..rank)
        .map(|d| if d == dim { stride } else { 0 })
        .collect();
    let layout = Layout::from_parts(src.shape(), &strides, index.offset());
    let index = crate::TensorRef::new(index.storage(), layout, DType::I64)?;
    scattered(shape, dim, &index, src)
}
