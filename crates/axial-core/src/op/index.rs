//! What every device checks of the ops that read by index (`index_select`,
//! `gather`) or run along one dim (`cumsum`), before it reads an element:
//! the shapes, dtypes and dims, with the CPU's words on every device.

use crate::{DType, Device, Error, Input, Output, Result};

/// The index dtype of `index_select` and `gather`: `int64`, or PyTorch's
/// message.
///
/// # Errors
/// Another dtype.
///
/// ```
/// # use axial_core::{DType, op::check_index_dtype};
/// assert!(check_index_dtype("gather", DType::I64).is_ok());
/// assert_eq!(
///     check_index_dtype("gather", DType::I32).unwrap_err().to_string(),
///     "gather: Expected dtype int64 for index, got int32"
/// );
/// ```
pub fn check_index_dtype(op: &'static str, dtype: DType) -> Result<()> {
    if dtype != DType::I64 {
        return Err(Error::invalid(
            op,
            format!("Expected dtype int64 for index, got {}", dtype.name()),
        ));
    }
    Ok(())
}

/// `i` as a position along a dim of `size`, or the error naming it (where
/// PyTorch's CPU kernels read past the tensor for some).
///
/// # Errors
/// `i` is negative or not below `size`.
///
/// ```
/// # use axial_core::op::checked_index;
/// assert_eq!(checked_index("index_select", 2, 3, 0)?, 2);
/// assert_eq!(
///     checked_index("index_select", -1, 3, 0).unwrap_err().to_string(),
///     "index_select: index -1 is out of bounds for dimension 0 with size 3"
/// );
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn checked_index(op: &'static str, i: i64, size: usize, dim: usize) -> Result<usize> {
    if i < 0 || i as u64 >= size as u64 {
        return Err(Error::invalid(
            op,
            format!("index {i} is out of bounds for dimension {dim} with size {size}"),
        ));
    }
    Ok(i as usize)
}

/// The shapes of `dst = src.index_select(dim, index)` with `count` indices:
/// a vector of indices, and `dst` shaped as `src` with `count` along `dim`.
///
/// # Errors
/// An index of rank above 1, or shapes and dtypes other than those.
///
/// ```
/// # use axial_core::{DType, Layout, Output, RawTensor, Storage, op::check_index_select};
/// let table = RawTensor::from_vec(vec![0.0f32; 6], &[3, 2])?;
/// let ids = RawTensor::from_vec(vec![2i64, 0], &[2])?;
/// let mut s = Storage::from_slice(&[0.0f32; 2]);
/// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1, 2]), dtype: DType::F32 };
/// let err = check_index_select(&table.view().input(), 0, &ids.view().input(), &dst).unwrap_err();
/// assert!(err.to_string().contains("2 indices along dim 0 give no output of shape [1, 2]"));
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn check_index_select<D: Device>(
    src: &Input<'_, D>,
    dim: usize,
    index: &Input<'_, D>,
    dst: &Output<'_, D>,
) -> Result<()> {
    let op = "index_select";
    if index.layout.rank() > 1 {
        return Err(Error::invalid(op, "Index is supposed to be a vector"));
    }
    check_index_dtype(op, index.dtype)?;
    let (shape, out) = (src.layout.shape(), dst.layout.shape());
    let count = index.layout.numel();
    let fits = dim < shape.len().max(1)
        && out.len() == shape.len()
        && (0..shape.len()).all(|d| out[d] == if d == dim { count } else { shape[d] });
    if !fits || src.dtype != dst.dtype || src.storage.is_none() {
        return Err(Error::invalid(
            op,
            format!(
                "an input of shape {shape:?} and {count} indices along dim {dim} give no output of shape {out:?}"
            ),
        ));
    }
    Ok(())
}

/// The shapes of `dst = src.gather(dim, index)`: `index` of `src`'s rank and
/// no larger than it off `dim`, `dst` of `index`'s shape and `src`'s dtype.
///
/// # Errors
/// Shapes or dtypes other than those.
///
/// ```
/// # use axial_core::{DType, Layout, Output, RawTensor, Storage, op::check_gather};
/// let x = RawTensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2])?;
/// let idx = RawTensor::from_vec(vec![0i64; 6], &[3, 2])?;
/// let mut s = Storage::from_slice(&[0i32; 6]);
/// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[3, 2]), dtype: DType::I32 };
/// let err = check_gather(&x.view().input(), 1, &idx.view().input(), &dst).unwrap_err();
/// assert!(err.to_string().starts_with("gather: Size does not match at dimension 1"));
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn check_gather<D: Device>(
    src: &Input<'_, D>,
    dim: usize,
    index: &Input<'_, D>,
    dst: &Output<'_, D>,
) -> Result<()> {
    let op = "gather";
    let (shape, ishape) = (src.layout.shape(), index.layout.shape());
    let rank = shape.len();
    let fits = ishape.len() == rank
        && dst.layout.shape() == ishape
        && dim < rank.max(1)
        && (0..rank).all(|d| d == dim || ishape[d] <= shape[d]);
    if !fits || src.dtype != dst.dtype {
        return Err(Error::invalid(
            op,
            format!(
                "Size does not match at dimension {dim}: index {ishape:?}, input {shape:?}, output {:?}",
                dst.layout.shape()
            ),
        ));
    }
    check_index_dtype(op, index.dtype)
}

/// `dim` of a tensor of `rank` dims (a 0-dim tensor has dim 0), as PyTorch
/// words a dim out of range.
///
/// # Errors
/// `dim` is not below `rank.max(1)`.
///
/// ```
/// # use axial_core::op::check_dim;
/// assert!(check_dim("cumsum", 0, 0).is_ok());
/// assert_eq!(
///     check_dim("cumsum", 2, 2).unwrap_err().to_string(),
///     "cumsum: Dimension out of range (expected to be in range of [-2, 1], but got 2)"
/// );
/// ```
pub fn check_dim(op: &'static str, rank: usize, dim: usize) -> Result<()> {
    if dim >= rank.max(1) {
        // `wrap_dim`'s words, with the op's name in front.
        let dim = crate::layout::isize_of(dim);
        let words = Error::DimOutOfRange { dim, rank }.to_string();
        return Err(Error::invalid(op, words));
    }
    Ok(())
}
