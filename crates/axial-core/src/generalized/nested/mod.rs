//! Nested (ragged) tensors in PyTorch's jagged layout
//! (`layout=torch.jagged`): a batch of `B` items
//! whose first dim has a length per item, stored as one `values` tensor
//! (the items concatenated along that dim) and `B + 1` offsets
//! (`offsets[i + 1] - offsets[i]` is item `i`'s length). The nested tensor's
//! dims are `(B, j, rest...)`: the batch, the ragged dim, the items' other
//! dims.
//!
//! Where PyTorch leaves corners unchecked these are `Err`s: offsets that do
//! not start at 0, decrease, or run past `values` (PyTorch's
//! `nested_tensor_from_jagged` accepts them and fails later, or reads
//! garbage), and a padded size smaller than the longest item
//! (`to_padded_tensor` truncates silently).
//!
//! # Example
//! ```
//! use axial_core::{DType, RawTensor, ReduceOp};
//! use axial_core::nested::NestedTensor;
//! let a = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?;
//! let b = RawTensor::arange(6.0, 18.0, 1.0, DType::F32)?;
//! let c = RawTensor::arange(18.0, 21.0, 1.0, DType::F32)?;
//! let (a, b, c) = (a.view().view(&[2, 3])?, b.view().view(&[4, 3])?, c.view().view(&[1, 3])?);
//! let nj = NestedTensor::from_tensors(&[a, b, c])?;
//! assert_eq!(nj.offsets(), &[0, 2, 6, 7]);
//! assert_eq!(nj.to_string(), "NestedTensor(size=(3, j1, 3), offsets=tensor([0, 2, 6, 7]), contiguous=True)");
//! let sums = nj.reduce_ragged(ReduceOp::Sum)?; // (3, 3): no padding involved
//! assert_eq!(sums.to_vec::<f32>()?, vec![3.0, 5.0, 7.0, 42.0, 46.0, 50.0, 18.0, 19.0, 20.0]);
//! # Ok::<(), axial_core::Error>(())
//! ```

mod ops;
mod padded;
mod product;
mod ragged;
mod softmax;

use std::fmt;

pub use product::NestedOrDense;

use crate::generalized::host::compact;
use crate::{Cpu, DType, Error, RawTensor, Result, TensorRef};
use ragged::Ragged;

/// A ragged batch: `values` (the items concatenated along their first dim)
/// and the offsets of each item in it.
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_core::nested::NestedTensor;
/// let values = RawTensor::arange(0.0, 24.0, 1.0, DType::F32)?;
/// let nj = NestedTensor::from_jagged(values.view().view(&[8, 3])?.to_contiguous()?, &[0, 3, 8])?;
/// assert_eq!(nj.item_shapes(), vec![vec![3, 3], vec![5, 3]]);
/// // Decreasing offsets: PyTorch constructs it, and fails later.
/// let values = RawTensor::zeros(&[8, 3], DType::F32)?;
/// assert!(NestedTensor::from_jagged(values, &[0, 5, 3, 8]).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct NestedTensor {
    /// The items concatenated along the ragged dims' dim of values
    /// (`ragged.dim - 1`): `total × rest` from the constructors, any
    /// strides after a transpose.
    values: RawTensor,
    /// `B + 1` entries: 0, non-decreasing, the last at most `total`.
    offsets: Vec<usize>,
    /// Which dims are ragged.
    ragged: Ragged,
    /// Where each item's rows start in values' ragged dim (`B + 1`): the
    /// offsets for one ragged dim, the running sums of `n_i²` for two.
    starts: Vec<usize>,
}

/// The op PyTorch names in the construction errors.
const OP: &str = "nested_tensor";

impl NestedTensor {
    /// `torch.nested.nested_tensor(items, layout=torch.jagged)`: the items
    /// copied into one values tensor. Every item has the same rank (at
    /// least 1), dtype, and sizes after the first.
    ///
    /// # Errors
    /// No items, 0-d items, or items whose rank, dtype or other sizes
    /// differ (PyTorch's messages).
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::nested::NestedTensor;
    /// let a = RawTensor::zeros(&[2, 3], DType::F32)?;
    /// let b = RawTensor::zeros(&[3, 4], DType::F32)?;
    /// let e = NestedTensor::from_tensors(&[a.view(), b.view()]).unwrap_err();
    /// assert!(e.to_string().contains("the jagged layout only allows for a single ragged dimension"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_tensors(items: &[TensorRef<'_, Cpu>]) -> Result<NestedTensor> {
        let Some(first) = items.first() else {
            return Err(Error::empty_nested(OP));
        };
        if first.dim() == 0 {
            return Err(Error::invalid(
                OP,
                "Cannot construct a nested tensor from a list of zero-dim tensors",
            ));
        }
        for item in items {
            if item.dim() != first.dim() {
                return Err(Error::invalid(
                    OP,
                    "When constructing a nested tensor, all tensors in list must have the same dim",
                ));
            }
            if item.dtype() != first.dtype() {
                return Err(Error::invalid(
                    OP,
                    "When constructing a nested tensor, all tensors in list must have the same dtype",
                ));
            }
            if item.shape()[1..] != first.shape()[1..] {
                return Err(Error::invalid(
                    OP,
                    "Cannot represent given tensor list as a nested tensor with the jagged layout. Note that the jagged layout only allows for a single ragged dimension. For example: (B, *, D_0, D_1, ..., D_N), with ragged * dim.",
                ));
            }
        }
        let mut offsets = vec![0usize];
        for item in items {
            offsets.push(offsets[offsets.len() - 1] + item.shape()[0]);
        }
        let mut shape = first.shape().to_vec();
        shape[0] = offsets[items.len()];
        let mut values = RawTensor::zeros(&shape, first.dtype())?;
        for (i, item) in items.iter().enumerate() {
            let len = item.shape()[0];
            values
                .view_mut()
                .narrow(0, offsets[i] as isize, len)?
                .copy_(item)?;
        }
        Ok(NestedTensor::standard(values, offsets))
    }

    /// `torch.nested.nested_tensor_from_jagged(values, offsets)`: shares
    /// `values` (copied only when not contiguous), after checking the
    /// offsets PyTorch does not check: at least two, the first 0, none
    /// decreasing, the last at most `values`' first size.
    ///
    /// # Errors
    /// `values` is 0-d, or the offsets are invalid.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::nested::NestedTensor;
    /// let values = RawTensor::zeros(&[8, 3], DType::F32)?;
    /// let e = NestedTensor::from_jagged(values, &[0, 3, 9]).unwrap_err();
    /// assert_eq!(e.to_string(), "nested_tensor_from_jagged: offsets[2] = 9 is past the 8 rows of values");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_jagged(values: RawTensor, offsets: &[i64]) -> Result<NestedTensor> {
        const OP: &str = "nested_tensor_from_jagged";
        if values.shape().is_empty() {
            return Err(Error::invalid(
                OP,
                "values must have at least one dim, got a 0-d tensor",
            ));
        }
        if offsets.len() < 2 {
            return Err(Error::invalid(
                OP,
                format!(
                    "offsets must have at least 2 entries (B + 1, B >= 1), got {}",
                    offsets.len()
                ),
            ));
        }
        if offsets[0] != 0 {
            return Err(Error::invalid(
                OP,
                format!("offsets[0] must be 0, got {}", offsets[0]),
            ));
        }
        let rows = values.shape()[0];
        for (i, w) in offsets.windows(2).enumerate() {
            if w[1] < w[0] {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "offsets must not decrease, but offsets[{}] = {} < offsets[{i}] = {}",
                        i + 1,
                        w[1],
                        w[0]
                    ),
                ));
            }
        }
        let last = offsets[offsets.len() - 1];
        if last as u64 > rows as u64 {
            return Err(Error::invalid(
                OP,
                format!(
                    "offsets[{}] = {last} is past the {rows} rows of values",
                    offsets.len() - 1
                ),
            ));
        }
        Ok(NestedTensor::standard(
            compact(values)?,
            offsets.iter().map(|&o| o as usize).collect(),
        ))
    }

    /// `torch.nested.as_nested_tensor(dense, layout=torch.jagged)`: the
    /// items of a dense `(B, L, rest...)` tensor, all of length `L`,
    /// sharing its storage when contiguous.
    ///
    /// # Errors
    /// `dense` has fewer than 2 dims.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::nested::NestedTensor;
    /// let t = RawTensor::zeros(&[2, 4, 3], DType::F32)?;
    /// assert_eq!(NestedTensor::from_dense(t)?.offsets(), &[0, 4, 8]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_dense(dense: RawTensor) -> Result<NestedTensor> {
        let shape = dense.shape().to_vec();
        if shape.len() < 2 {
            return Err(Error::invalid(
                "as_nested_tensor",
                format!("expected a tensor of at least 2 dims (B, L, ...), got shape {shape:?}"),
            ));
        }
        let (b, l) = (shape[0], shape[1]);
        let mut values_shape = vec![b * l];
        values_shape.extend_from_slice(&shape[2..]);
        let values = compact(dense)?;
        let (storage, _, dtype) = values.into_parts();
        let values = RawTensor::from_storage(storage, &values_shape, dtype)?;
        Ok(NestedTensor::standard(
            values,
            (0..=b).map(|i| i * l).collect(),
        ))
    }

    /// A nested tensor of checked parts whose ragged dim is dim 1.
    fn standard(values: RawTensor, offsets: Vec<usize>) -> NestedTensor {
        NestedTensor {
            values,
            starts: offsets.clone(),
            offsets,
            ragged: Ragged::STANDARD,
        }
    }

    /// The number of items `B`.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[5, 2], DType::F32)?, &[0, 1, 5])?;
    /// assert_eq!(nj.batch_size(), 2);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn batch_size(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of dims, `values`' plus the batch dim.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[5, 2], DType::F32)?, &[0, 1, 5])?;
    /// assert_eq!(nj.dim(), 3);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dim(&self) -> usize {
        self.values.shape().len() + self.ragged.count
    }

    /// The ragged dims, in order (PyTorch's `_ragged_idx` for one): `[1]`
    /// as built, another after a transpose, two for a product such as
    /// `nt @ nt.transpose(1, 2)`.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[5, 2], DType::F32)?, &[0, 1, 5])?;
    /// assert_eq!(nj.ragged_dims(), vec![1]);
    /// let t = nj.transpose(1, 2)?;
    /// assert_eq!(t.ragged_dims(), vec![2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn ragged_dims(&self) -> Vec<usize> {
        (self.ragged.dim..self.ragged.dim + self.ragged.count).collect()
    }

    /// The dtype.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[5], DType::I32)?, &[0, 5])?;
    /// assert_eq!(nj.dtype(), DType::I32);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dtype(&self) -> DType {
        self.values.dtype()
    }

    /// The offsets (`offsets()`), `B + 1` of them.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[5, 2], DType::F32)?, &[0, 1, 5])?;
    /// assert_eq!(nj.offsets(), &[0, 1, 5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// Each item's length along the ragged dim.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[5, 2], DType::F32)?, &[0, 1, 5])?;
    /// assert_eq!(nj.lengths(), vec![1, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn lengths(&self) -> Vec<usize> {
        self.offsets.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// The items' sizes but the ragged ones, in order (`rest`: those after
    /// the ragged dim, as built).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[5, 2, 3], DType::F32)?, &[0, 5])?;
    /// assert_eq!(nj.rest_shape(), &[2, 3]);
    /// assert_eq!(nj.transpose(1, 3)?.rest_shape(), &[3, 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn rest_shape(&self) -> Vec<usize> {
        let mut rest = self.values.shape().to_vec();
        rest.remove(self.ragged.value_dim());
        rest
    }

    /// Item `i`'s shape for a length `n`: the ragged dims `n`, the others
    /// fixed.
    fn item_shape(&self, n: usize) -> Vec<usize> {
        let mut shape = self.rest_shape();
        let at = self.ragged.dim - 1;
        shape.splice(at..at, std::iter::repeat_n(n, self.ragged.count));
        shape
    }

    /// Each item's shape.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[5, 2], DType::F32)?, &[0, 1, 5])?;
    /// assert_eq!(nj.item_shapes(), vec![vec![1, 2], vec![4, 2]]);
    /// assert_eq!(nj.transpose(1, 2)?.item_shapes(), vec![vec![2, 1], vec![2, 4]]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn item_shapes(&self) -> Vec<Vec<usize>> {
        self.lengths()
            .into_iter()
            .map(|l| self.item_shape(l))
            .collect()
    }

    /// The elements of all items (`numel()`).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[7, 3], DType::F32)?, &[0, 2, 6, 7])?;
    /// assert_eq!(nj.numel(), 21);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn numel(&self) -> usize {
        let rest: usize = self.rest_shape().iter().product();
        (self.starts[self.batch_size()] - self.starts[0]) * rest
    }

    /// True when the values are contiguous (PyTorch's `is_contiguous()`:
    /// false after a transpose).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[7, 3], DType::F32)?, &[0, 2, 6, 7])?;
    /// assert!(nj.is_contiguous());
    /// assert!(!nj.transpose(1, 2)?.is_contiguous());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn is_contiguous(&self) -> bool {
        self.values.view().is_contiguous()
    }

    /// The values tensor (`values()`): the items concatenated along their
    /// ragged dim (in place of it, as PyTorch's: `(3, total)` for
    /// `(B, 3, j1)`); for two ragged dims, each item's `n_i²` rows in the
    /// place of both (`(total², rest...)` for `(B, j1, j1, rest...)`).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[7, 3], DType::F32)?, &[0, 2, 6, 7])?;
    /// assert_eq!(nj.values().shape(), &[7, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn values(&self) -> TensorRef<'_, Cpu> {
        self.values.view()
    }

    /// Item `i`, a view into `values`.
    ///
    /// # Errors
    /// `i` is not below the batch size.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?, &[0, 2, 6])?;
    /// assert_eq!(nj.item(1)?.to_vec::<f32>()?, vec![2.0, 3.0, 4.0, 5.0]);
    /// assert!(nj.item(2).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn item(&self, i: usize) -> Result<TensorRef<'_, Cpu>> {
        if i >= self.batch_size() {
            return Err(Error::IndexOutOfRange {
                op: "unbind",
                index: i as isize,
                dim: 0,
                shape: vec![self.batch_size()],
            });
        }
        let (start, end) = (self.starts[i], self.starts[i + 1]);
        let rows = self.values.view().narrow(
            self.ragged.value_dim() as isize,
            start as isize,
            end - start,
        )?;
        if self.ragged.count == 1 {
            return Ok(rows);
        }
        let shape = self.item_shape(self.offsets[i + 1] - self.offsets[i]);
        let shape: Vec<isize> = shape.iter().map(|&n| n as isize).collect();
        rows.view(&shape)
    }

    /// `unbind()`: every item, as views into `values`.
    ///
    /// # Errors
    /// A view does not fit (it always does).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[7, 3], DType::F32)?, &[0, 2, 6, 7])?;
    /// let items = nj.unbind()?;
    /// assert_eq!(items.iter().map(|t| t.offset() * 4).collect::<Vec<_>>(), vec![0, 24, 72]); // bytes
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unbind(&self) -> Result<Vec<TensorRef<'_, Cpu>>> {
        (0..self.batch_size()).map(|i| self.item(i)).collect()
    }
}

impl fmt::Display for NestedTensor {
    /// PyTorch's repr: `NestedTensor(size=(3, j1, 3), offsets=tensor([0, 2,
    /// 6, 7]), contiguous=True)`. PyTorch numbers the ragged size `jN` with a
    /// process-wide counter; here it is always `j1`.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[3, 2], DType::F32)?, &[0, 1, 3])?;
    /// assert_eq!(nj.to_string(), "NestedTensor(size=(2, j1, 2), offsets=tensor([0, 1, 3]), contiguous=True)");
    /// let t = nj.transpose(1, 2)?;
    /// assert_eq!(t.to_string(), "NestedTensor(size=(2, 2, j1), offsets=tensor([0, 1, 3]), contiguous=False)");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let offsets: Vec<i64> = self.offsets.iter().map(|&o| o as i64).collect();
        let offsets =
            RawTensor::from_vec(offsets, &[self.offsets.len()]).map_err(|_| fmt::Error)?;
        write!(
            f,
            "NestedTensor(size={}, offsets={offsets}, contiguous={})",
            ops::shape_text(self, "j1"),
            if self.is_contiguous() {
                "True"
            } else {
                "False"
            }
        )
    }
}

impl fmt::Debug for NestedTensor {
    /// The offsets, ragged dims, other item sizes and dtype:
    /// `NestedTensor { offsets: [0, 2, 6, 7], ragged: [1], rest: [3], dtype: torch.float32 }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NestedTensor")
            .field("offsets", &self.offsets)
            .field("ragged", &self.ragged_dims())
            .field("rest", &self.rest_shape())
            .field("dtype", &format_args!("{}", self.dtype()))
            .finish()
    }
}
