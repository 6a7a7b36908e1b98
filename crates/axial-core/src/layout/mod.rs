//! Where every element lives: shape, strides and storage offset (PyTorch's
//! `sizes()`, `strides()` and `storage_offset()`), and every view op as O(rank)
//! metadata arithmetic.
//!
//! # Invariants
//! A [`Layout`] on its own says nothing about memory; paired with a storage it
//! is valid when:
//! 1. `shape.len() == strides.len()` (the rank);
//! 2. every stride is non-negative (views never make negative strides);
//! 3. if no size is 0, `offset + Σ (size_i - 1) * stride_i` is below the
//!    storage's element count ([`Layout::required_len`]);
//! 4. a layout with a size of 0 addresses nothing, whatever its offset;
//! 5. it has at most `isize::MAX` elements.
//!
//! Every view op preserves (1), (2) and (4), and only narrows the set of
//! addresses, so it preserves (3); `expand` and `unfold`, which add elements,
//! check (5). [`Layout::try_new`] checks all five; kernels check (2), (3) and
//! (5) once per call before they read ([`Layout::check_bounds`]).

mod broadcast;
mod contiguity;
mod index;
mod iter;
mod overlap;
mod reshape;
mod strided;
mod view;

pub use broadcast::broadcast_shapes;
pub use index::AxisIndex;
pub use overlap::{MemOverlap, Overlap};
pub use reshape::{compute_stride, infer_size};

use smallvec::SmallVec;

use crate::{Error, Result};

/// Sizes of a layout, inline up to rank 6 (no heap for the common ranks).
///
/// ```
/// use axial_core::layout::{Dims, broadcast_shapes};
/// let d: Dims = broadcast_shapes(&[3, 1], &[4])?;
/// assert_eq!(d.as_slice(), &[3, 4]);
/// assert!(!d.spilled());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub type Dims = SmallVec<[usize; 6]>;
/// Strides of a layout, in elements, inline up to rank 6.
///
/// ```
/// use axial_core::layout::{Strides, contiguous_strides};
/// let s: Strides = contiguous_strides(&[2, 3, 4]);
/// assert_eq!(s.as_slice(), &[12, 4, 1]);
/// assert!(!s.spilled());
/// ```
pub type Strides = SmallVec<[isize; 6]>;

/// Shape, strides (in elements) and storage offset of a strided tensor.
///
/// # Example
/// ```
/// use axial_core::Layout;
/// let x = Layout::contiguous(&[3, 4, 5]);
/// assert_eq!(x.strides(), &[20, 5, 1]);
/// let y = x.slice(1, Some(1), None, 2)?; // x[:, 1::2]
/// assert_eq!((y.shape(), y.strides(), y.offset()), (&[3, 2, 5][..], &[20, 10, 1][..], 5));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Layout {
    shape: Dims,
    strides: Strides,
    offset: usize,
}

impl Layout {
    /// The row-major (C-contiguous) layout of `shape` at offset 0.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::contiguous(&[2, 3]).strides(), &[3, 1]);
    /// assert_eq!(Layout::contiguous(&[]).numel(), 1);
    /// ```
    pub fn contiguous(shape: &[usize]) -> Self {
        Layout {
            strides: contiguous_strides(shape),
            shape: shape.into(),
            offset: 0,
        }
    }

    /// A layout checked against a storage of `storage_len` elements (the four
    /// invariants of the [module docs](self)).
    ///
    /// # Errors
    /// [`Error::Invalid`] for mismatched lengths or a negative stride,
    /// [`Error::OutOfBounds`] when an element lies past the storage.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert!(Layout::try_new(&[2, 2], &[2, 1], 0, 4).is_ok());
    /// // candle #3812: four elements cannot hold a 2×2×2 tensor.
    /// assert!(Layout::try_new(&[2, 2, 2], &[4, 2, 1], 0, 4).is_err());
    /// ```
    pub fn try_new(
        shape: &[usize],
        strides: &[isize],
        offset: usize,
        storage_len: usize,
    ) -> Result<Self> {
        Self::checked("Layout::try_new", shape, strides, offset, storage_len, 1)
    }

    /// A layout from its parts, unchecked: the caller pairs it only with a
    /// storage that satisfies the [invariants](self). Every kernel re-checks
    /// invariant 3 before reading, so a wrong layout is an `Err`, never UB.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let l = Layout::from_parts(&[2, 3], &[1, 2], 0);
    /// assert!(!l.is_contiguous());
    /// ```
    pub fn from_parts(shape: &[usize], strides: &[isize], offset: usize) -> Self {
        debug_assert_eq!(shape.len(), strides.len());
        Layout {
            shape: shape.into(),
            strides: strides.into(),
            offset,
        }
    }

    /// Sizes, outermost first.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::contiguous(&[2, 3]).t()?.shape(), &[3, 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Strides in elements, outermost first.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::contiguous(&[2, 3, 4]).strides(), &[12, 4, 1]);
    /// assert_eq!(Layout::contiguous(&[3]).expand(&[2, 3])?.strides(), &[0, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// Offset of the first element in the storage, in elements.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let row = Layout::contiguous(&[4, 5]).select(0, 2)?; // x[2]
    /// assert_eq!(row.offset(), 10);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Number of dims.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::contiguous(&[2, 1, 3]).rank(), 3);
    /// assert_eq!(Layout::contiguous(&[]).rank(), 0);
    /// ```
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements (1 for a 0-dim layout).
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::contiguous(&[3, 0, 2]).numel(), 0);
    /// ```
    pub fn numel(&self) -> usize {
        if self.shape.contains(&0) {
            return 0;
        }
        // Saturates for an unchecked layout past invariant 5, which no
        // storage holds.
        (self.shape.iter())
            .try_fold(1usize, |acc, &n| acc.checked_mul(n))
            .unwrap_or(usize::MAX)
    }

    /// Elements the storage must hold for this layout: `offset + 1 + Σ (size_i - 1) * stride_i`,
    /// or 0 when the layout is empty. A layout no storage can hold (a
    /// negative stride, or a span past `usize::MAX`) needs `usize::MAX`.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::from_parts(&[4], &[3], 1).required_len(), 11);
    /// assert_eq!(Layout::from_parts(&[2], &[-1], 1).required_len(), usize::MAX);
    /// ```
    pub fn required_len(&self) -> usize {
        if self.shape.contains(&0) {
            return 0;
        }
        self.end().unwrap_or(usize::MAX)
    }

    /// One past the last element's storage index, for a layout with
    /// elements; `None` for a negative stride or an overflow.
    fn end(&self) -> Option<usize> {
        let mut end = self.offset.checked_add(1)?;
        for (&n, &s) in self.shape.iter().zip(&self.strides) {
            let stride = usize::try_from(s).ok()?;
            end = end.checked_add((n - 1).checked_mul(stride)?)?;
        }
        Some(end)
    }

    /// Checks that this layout fits in a storage of `storage_len` elements
    /// (invariants 2, 3 and 5 of the [module docs](self)).
    ///
    /// # Errors
    /// [`Error::Invalid`] for a negative stride or too many elements;
    /// [`Error::OutOfBounds`] naming the sizes, strides and byte counts.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let l = Layout::from_parts(&[4], &[3], 1);
    /// let err = l.check_bounds(10, 4).unwrap_err();
    /// assert!(err.to_string().ends_with("requiring a storage size of 44 are out of bounds for storage of size 40"));
    /// assert!(Layout::from_parts(&[2], &[-1], 1).check_bounds(10, 4).is_err());
    /// ```
    pub fn check_bounds(&self, storage_len: usize, itemsize: usize) -> Result<()> {
        if self.strides.iter().any(|&s| s < 0) {
            return Err(Error::negative_strides("setStorage", &self.strides));
        }
        checked_numel("setStorage", &self.shape)?;
        let required = self.required_len();
        if required > storage_len {
            return Err(Error::OutOfBounds {
                sizes: self.shape.to_vec(),
                strides: self.strides.to_vec(),
                offset: self.offset,
                itemsize,
                required: required.saturating_mul(itemsize),
                available: storage_len.saturating_mul(itemsize),
            });
        }
        Ok(())
    }

    /// The storage index of the element at `index` (one coordinate per dim,
    /// unsigned as the shape's sizes, or signed).
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] for a coordinate outside its dim (negative
    /// coordinates count from the end), [`Error::Invalid`] for a wrong count.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let points = Layout::contiguous(&[3, 2]);
    /// assert_eq!(points.storage_index(&[1, 0])?, 2);
    /// assert_eq!(points.storage_index(&[-1, -1])?, 5);
    /// let (r, c) = (points.shape()[0], points.shape()[1]);
    /// assert_eq!(points.storage_index(&[r - 1, c - 1])?, 5);
    /// assert!(points.storage_index(&[r, 0]).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn storage_index(&self, index: &[impl AxisIndex]) -> Result<usize> {
        if index.len() != self.rank() {
            return Err(Error::invalid(
                "index",
                format!(
                    "too many or too few indices for tensor of dimension {}: got {}",
                    self.rank(),
                    index.len()
                ),
            ));
        }
        let mut at = self.offset as i128;
        for (dim, (&i, (&n, &s))) in index
            .iter()
            .zip(self.shape.iter().zip(&self.strides))
            .enumerate()
        {
            let Some(i) = i.resolve(n) else {
                return Err(Error::IndexOutOfBounds {
                    index: i.reported(),
                    dim,
                    size: n,
                });
            };
            at += i as i128 * s as i128;
        }
        // Only a layout no storage holds reaches outside `usize`.
        storage_offset("index", at)
    }

    pub(crate) fn with(shape: Dims, strides: Strides, offset: usize) -> Self {
        Layout {
            shape,
            strides,
            offset,
        }
    }
}

/// Row-major strides of `shape` (a size of 0 counts as 1, as in PyTorch).
///
/// ```
/// # use axial_core::layout::contiguous_strides;
/// assert_eq!(contiguous_strides(&[2, 0, 3]).as_slice(), &[3, 3, 1]);
/// ```
pub fn contiguous_strides(shape: &[usize]) -> Strides {
    let mut strides: Strides = smallvec::smallvec![0; shape.len()];
    let mut acc = 1isize;
    for (s, &n) in strides.iter_mut().zip(shape).rev() {
        *s = acc;
        // Saturates for a shape past invariant 5: its layout then needs more
        // than any storage holds, and allocating it is an error.
        acc = acc.saturating_mul(isize::try_from(n.max(1)).unwrap_or(isize::MAX));
    }
    strides
}

/// The number of elements of `shape`, refused past `isize::MAX` (invariant 5).
///
/// # Errors
/// The product overflows or passes `isize::MAX`; the message names `op`.
///
/// ```
/// use axial_core::layout::checked_numel;
/// assert_eq!(checked_numel("zeros", &[2, 3, 4])?, 24);
/// assert_eq!(checked_numel("zeros", &[0, usize::MAX])?, 0);
/// assert_eq!(checked_numel("zeros", &[usize::MAX, 2, 0])?, 0);
/// assert!(checked_numel("zeros", &[usize::MAX, 2]).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn checked_numel(op: &'static str, shape: &[usize]) -> Result<usize> {
    if shape.contains(&0) {
        // Whatever the other sizes multiply to, there is no element.
        return Ok(0);
    }
    shape
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| Error::invalid(op, format!("the shape {shape:?} has too many elements")))
}

/// Wraps a possibly negative `dim` into `0..rank` (a 0-dim tensor accepts 0 and -1).
///
/// # Errors
/// [`Error::DimOutOfRange`], worded as PyTorch's.
///
/// ```
/// # use axial_core::layout::wrap_dim;
/// assert_eq!(wrap_dim(-1, 3)?, 2);
/// assert_eq!(
///     wrap_dim(3, 3).unwrap_err().to_string(),
///     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"
/// );
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn wrap_dim(dim: isize, rank: usize) -> Result<usize> {
    let n = isize_of(rank.max(1));
    if dim < -n || dim >= n {
        return Err(Error::DimOutOfRange { dim, rank });
    }
    Ok(if dim < 0 { dim + n } else { dim } as usize)
}

/// A size as an `isize`, saturating: only sizes past invariant 5 (which no
/// storage holds) do not fit.
pub(crate) fn isize_of(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

pub(crate) fn wrap_index(
    op: &'static str,
    index: isize,
    dim: usize,
    shape: &[usize],
) -> Result<usize> {
    let n = isize_of(shape[dim]);
    if index < -n || index >= n {
        return Err(Error::IndexOutOfRange {
            op,
            index,
            dim,
            shape: shape.to_vec(),
        });
    }
    Ok(if index < 0 { index + n } else { index } as usize)
}

/// `at` as a storage offset, refused when it is negative or past `usize::MAX`
/// (only a layout no storage holds gets there).
pub(crate) fn storage_offset(op: &'static str, at: i128) -> Result<usize> {
    usize::try_from(at).map_err(|_| Error::invalid(op, format!("invalid storage offset {at}")))
}

/// PyTorch's error for a dim named twice in a list of dims.
pub(crate) fn repeated_dim(op: &'static str, dim: usize) -> Error {
    Error::invalid(
        op,
        format!("dim {dim} appears multiple times in the list of dims"),
    )
}
