//! Reads by index: `index_select` (and `embedding`, one along dim 0 of a
//! table) and `gather`. What the tensor layer asks (the dim, the output's
//! shape) and what every device checks before it reads an element (the
//! shapes, the dtypes, each index), with the CPU's words on every device.
//! `gather` is a primitive (CUDA: `gather_b<bytes>`, one kernel per element
//! size); `index_select` is fused: CUDA runs it with `gather_b<bytes>` and
//! an index broadcast along the other dims, and so does its default,
//! [`IndexSelect::composite`].

use super::scatter::{index_added, scattered};
use super::{Derivative, Keep, Lowering, Op, OpInfo, Saves};
use crate::autograd::Grad;
use crate::device::transfer;
use crate::layout::{Dims, wrap_dim};
use crate::{Backend, Cpu, DType, Device, Error, Input, Layout, Output, Result, TensorRef};

/// The index dtype of `index_select` and `gather`: `int64`, or PyTorch's
/// message.
///
/// # Errors
/// Another dtype.
///
/// ```
/// # use axial_core::{DType, ops::check_index_dtype};
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
/// # use axial_core::ops::checked_index;
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

/// `src.index_select(dim, index)`: the slices of `src` along `dim` at the
/// positions in `index` (a vector of i64), in that order.
///
/// # Example
/// ```
/// use axial_core::ops::{IndexSelect, Op};
/// assert_eq!(IndexSelect { dim: 0 }.name(), "index_select");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IndexSelect {
    /// The dim indexed (wrapped).
    pub dim: usize,
}

impl Op for IndexSelect {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "index_select",
            lowering: Lowering::Fused,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Never, Keep::Always],
                output: false,
            }),
        }
    }
}

impl IndexSelect {
    /// The op over `dim` (negative counts from the end) of a tensor of
    /// `shape`, with `count` indices, and the shape of its result.
    ///
    /// # Errors
    /// A dim out of range.
    ///
    /// ```
    /// # use axial_core::ops::IndexSelect;
    /// let (op, shape) = IndexSelect::new(-1, &[2, 3], 5)?;
    /// assert_eq!((op, shape.as_slice()), (IndexSelect { dim: 1 }, &[2, 5][..]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(dim: isize, shape: &[usize], count: usize) -> Result<(IndexSelect, Dims)> {
        let dim = wrap_dim(dim, shape.len())?;
        let mut out = Dims::from(shape);
        if let Some(n) = out.get_mut(dim) {
            *n = count;
        }
        Ok((IndexSelect { dim }, out))
    }

    /// Checks the operands a device is handed: a vector of i64 indices,
    /// and `dst` shaped as `src` with the indices' count along the dim.
    ///
    /// # Errors
    /// An index of rank above 1, or shapes and dtypes other than those.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Output, RawTensor, Storage, ops::IndexSelect};
    /// let table = RawTensor::from_vec(vec![0.0f32; 6], &[3, 2])?;
    /// let ids = RawTensor::from_vec(vec![2i64, 0], &[2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1, 2]), dtype: DType::F32 };
    /// let err = IndexSelect { dim: 0 }.check(&table.view().input(), &ids.view().input(), &dst).unwrap_err();
    /// assert!(err.to_string().contains("2 indices along dim 0 give no output of shape [1, 2]"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check<D: Device>(
        &self,
        src: &Input<'_, D>,
        index: &Input<'_, D>,
        dst: &Output<'_, D>,
    ) -> Result<()> {
        let (op, dim) = (self.name(), self.dim);
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

    /// The op written with a primitive, for a device without a kernel of
    /// its own: [`Gather`] along the dim, with the index broadcast along
    /// the other dims (stride 0). The indices are read on the host first,
    /// so that one out of range is named as every device names it.
    ///
    /// # Errors
    /// As [`IndexSelect::check`], an index out of range, or a device
    /// failure.
    pub fn composite<D: Backend>(
        &self,
        device: &D,
        src: Input<'_, D>,
        index: Input<'_, D>,
        dst: Output<'_, D>,
    ) -> Result<()> {
        self.check(&src, &index, &dst)?;
        let size = src.layout.shape().get(self.dim).copied().unwrap_or(1);
        let storage = index.storage.unwrap_or(&*dst.storage);
        let ids = TensorRef::new(storage, index.layout.clone(), index.dtype)?;
        for i in transfer(&ids, &Cpu)?.to_vec::<i64>()? {
            checked_index(self.name(), i, size, self.dim)?;
        }
        let shape = dst.layout.shape().to_vec();
        let stride = index.layout.strides().first().copied().unwrap_or(0);
        let strides: Vec<isize> = (0..shape.len())
            .map(|d| if d == self.dim { stride } else { 0 })
            .collect();
        let index = Input {
            layout: Layout::from_parts(&shape, &strides, index.layout.offset()),
            ..index
        };
        device.gather(src, self.dim, index, dst)
    }
}

/// `torch.nn.functional.embedding(ids, table)`: the rows of a `[Vocab,
/// Dim]` table at `ids` (i64, any shape), an [`IndexSelect`] along dim 0.
///
/// # Example
/// ```
/// use axial_core::ops::{Embedding, Op};
/// assert_eq!(Embedding::shape(&[3, 2], &[4, 5])?.as_slice(), &[4, 5, 2]);
/// assert!(Embedding::shape(&[3], &[4]).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Embedding;

impl Op for Embedding {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "embedding",
            lowering: Lowering::Composite,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Never, Keep::Always],
                output: false,
            }),
        }
    }
}

impl Embedding {
    /// The shape of the rows of a table of `table` shape at ids of `ids`
    /// shape: `[*ids, Dim]`.
    ///
    /// # Errors
    /// A table that is not 2-D.
    pub fn shape(table: &[usize], ids: &[usize]) -> Result<Dims> {
        if table.len() != 2 {
            return Err(Error::invalid(
                Embedding.name(),
                format!("'weight' must be 2-D, got shape {table:?}"),
            ));
        }
        Ok(ids.iter().copied().chain([table[1]]).collect())
    }
}

/// `src.gather(dim, index)`: `out[..., i, ...] = src[..., index[..., i,
/// ...], ...]` along `dim`, `index` (i64) of the output's shape and no
/// larger than `src` off `dim`.
///
/// # Example
/// ```
/// use axial_core::ops::{Gather, Op};
/// assert_eq!(Gather { dim: 1 }.name(), "gather");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Gather {
    /// The dim indexed (wrapped).
    pub dim: usize,
}

impl Op for Gather {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "gather",
            lowering: Lowering::Primitive,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Always, Keep::Always],
                output: false,
            }),
        }
    }
}

impl Gather {
    /// The CUDA kernels, by element size (`gather_b<bytes>`).
    pub const CUDA_KERNEL: &'static str = "gather";

    /// The op over `dim` (negative counts from the end) of a tensor of
    /// `rank` dims.
    ///
    /// # Errors
    /// A dim out of range.
    ///
    /// ```
    /// # use axial_core::ops::Gather;
    /// assert_eq!(Gather::new(-1, 2)?, Gather { dim: 1 });
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(dim: isize, rank: usize) -> Result<Gather> {
        Ok(Gather {
            dim: wrap_dim(dim, rank)?,
        })
    }

    /// Checks the operands a device is handed: `index` of `src`'s rank
    /// and no larger than it off the dim, `dst` of `index`'s shape and
    /// `src`'s dtype, i64 indices.
    ///
    /// # Errors
    /// Shapes or dtypes other than those.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Output, RawTensor, Storage, ops::Gather};
    /// let x = RawTensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2])?;
    /// let idx = RawTensor::from_vec(vec![0i64; 6], &[3, 2])?;
    /// let mut s = Storage::from_slice(&[0i32; 6]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[3, 2]), dtype: DType::I32 };
    /// let err = Gather { dim: 1 }.check(&x.view().input(), &idx.view().input(), &dst).unwrap_err();
    /// assert!(err.to_string().starts_with("gather: Size does not match at dimension 1"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check<D: Device>(
        &self,
        src: &Input<'_, D>,
        index: &Input<'_, D>,
        dst: &Output<'_, D>,
    ) -> Result<()> {
        let (op, dim) = (self.name(), self.dim);
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
}

impl IndexSelect {
    /// The input's gradient: the output's added into zeros at the indices
    /// along the dim (PyTorch's `index_select_backward`, an `index_add`).
    pub(crate) fn backward<D: Backend>(
        &self,
        shape: &[usize],
        index: &TensorRef<'_, D>,
        g: &Grad<D>,
    ) -> Result<Grad<D>> {
        Ok(Grad::new(index_added(shape, self.dim, index, &g.view())?))
    }
}

impl Embedding {
    /// The table's gradient: each id's row of the output's gradient added
    /// into zeros at that id (PyTorch's `embedding_backward`).
    pub(crate) fn backward<D: Backend>(
        table: &[usize],
        ids: &TensorRef<'_, D>,
        g: &Grad<D>,
    ) -> Result<Grad<D>> {
        let width = table.get(1).copied().unwrap_or(1);
        let count = ids.numel();
        let g2 = g.clone().reshaped(&[count, width])?;
        let flat = ids.reshape(&[count as isize])?;
        Ok(Grad::new(index_added(
            table,
            0,
            &flat.as_ref(),
            &g2.view(),
        )?))
    }
}

impl Gather {
    /// The input's gradient: the output's scattered into zeros at the
    /// index (PyTorch's `gather_backward`).
    pub(crate) fn backward<D: Backend>(
        &self,
        shape: &[usize],
        index: &TensorRef<'_, D>,
        g: &Grad<D>,
    ) -> Result<Grad<D>> {
        Ok(Grad::new(scattered(shape, self.dim, index, &g.view())?))
    }
}
