//! Memory overlap (`ATen/MemoryOverlap.cpp`): the checks that
//! refuse writes PyTorch refuses.

use super::Layout;
use crate::{Error, Result};

/// Whether a layout addresses one memory location twice.
///
/// # Example
/// ```
/// use axial_core::{layout::MemOverlap, Layout};
/// assert_eq!(Layout::contiguous(&[2, 3]).internal_overlap(), MemOverlap::No);
/// let broadcast = Layout::contiguous(&[3]).expand(&[2, 3])?;
/// assert_eq!(broadcast.internal_overlap(), MemOverlap::Yes);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MemOverlap {
    /// Dense and non-overlapping.
    No,
    /// A dim of size > 1 has stride 0.
    Yes,
    /// Cannot be decided cheaply (PyTorch allows writes then).
    TooHard,
}

/// How two layouts over storages relate.
///
/// # Example
/// ```
/// use axial_core::{layout::Overlap, Layout};
/// let x = Layout::contiguous(&[2, 4]);
/// let (left, right) = (x.narrow(1, 0, 2)?, x.narrow(1, 2, 2)?);
/// assert_eq!(left.overlap(&right, true), Overlap::TooHard); // neither is dense
/// let (top, bottom) = (x.select(0, 0)?, x.select(0, 1)?);
/// assert_eq!(top.overlap(&bottom, true), Overlap::No);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Overlap {
    /// No shared element.
    No,
    /// The same elements in the same order.
    Full,
    /// Some shared elements, or the same elements in another order.
    Partial,
    /// Cannot be decided cheaply.
    TooHard,
}

impl Layout {
    /// PyTorch's `has_internal_overlap`.
    ///
    /// ```
    /// # use axial_core::{layout::MemOverlap, Layout};
    /// assert_eq!(Layout::contiguous(&[3]).expand(&[4, 3])?.internal_overlap(), MemOverlap::Yes);
    /// assert_eq!(Layout::from_parts(&[3, 3], &[1, 1], 0).internal_overlap(), MemOverlap::TooHard);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn internal_overlap(&self) -> MemOverlap {
        if self.is_non_overlapping_and_dense() {
            return MemOverlap::No;
        }
        let broadcast = self
            .shape()
            .iter()
            .zip(self.strides())
            .any(|(&n, &s)| n > 1 && s == 0);
        if broadcast {
            MemOverlap::Yes
        } else {
            MemOverlap::TooHard
        }
    }

    /// True when no two elements share a memory location, proven by sorting
    /// dims by stride: each stride must pass the reach of all smaller ones.
    /// (Stricter than [`Layout::internal_overlap`], which leaves hard cases open.)
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert!(Layout::contiguous(&[4, 6]).slice(1, None, None, 2)?.is_non_overlapping());
    /// assert!(!Layout::from_parts(&[3, 3], &[1, 1], 0).is_non_overlapping());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn is_non_overlapping(&self) -> bool {
        let mut dims: smallvec::SmallVec<[(isize, usize); 6]> = self
            .strides()
            .iter()
            .zip(self.shape())
            .filter(|&(_, &n)| n > 1)
            .map(|(&s, &n)| (s, n))
            .collect();
        dims.sort_unstable();
        let mut reach = 0isize;
        for (s, n) in dims {
            if s <= reach {
                return false;
            }
            reach = reach.saturating_add((super::isize_of(n) - 1).saturating_mul(s));
        }
        true
    }

    /// `assert_no_internal_overlap`: refuses a write into this layout when two
    /// of its elements are surely one memory location.
    ///
    /// # Errors
    /// [`Error::InternalOverlap`].
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert!(Layout::contiguous(&[3]).expand(&[4, 3])?.check_writable().is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check_writable(&self) -> Result<()> {
        match self.internal_overlap() {
            MemOverlap::Yes => Err(Error::InternalOverlap),
            _ => Ok(()),
        }
    }

    /// PyTorch's `get_overlap_status` for layouts of elements of `itemsize`
    /// bytes; `same_storage` says whether both live in one storage.
    ///
    /// ```
    /// # use axial_core::{layout::Overlap, Layout};
    /// let a = Layout::contiguous(&[5]);
    /// let (x, y) = (a.slice(0, Some(0), Some(4), 1)?, a.slice(0, Some(1), Some(5), 1)?);
    /// assert_eq!(x.overlap(&y, true), Overlap::Partial);
    /// assert_eq!(x.overlap(&x, true), Overlap::Full);
    /// assert_eq!(x.overlap(&y, false), Overlap::No);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn overlap(&self, other: &Layout, same_storage: bool) -> Overlap {
        if !same_storage || self.numel() == 0 || other.numel() == 0 {
            return Overlap::No;
        }
        if self == other {
            return Overlap::Full;
        }
        if !self.is_non_overlapping_and_dense() || !other.is_non_overlapping_and_dense() {
            return Overlap::TooHard;
        }
        let range = |l: &Layout| (l.offset(), l.offset().saturating_add(l.numel()));
        let ((a0, a1), (b0, b1)) = (range(self), range(other));
        if (a0, a1) == (b0, b1) {
            return if self.strides() == other.strides() {
                Overlap::Full
            } else {
                Overlap::Partial
            };
        }
        if a0 < b1 && b0 < a1 {
            Overlap::Partial
        } else {
            Overlap::No
        }
    }

    /// `assert_no_partial_overlap`: refuses a write into `self` that reads
    /// `input` when the two partly share memory.
    ///
    /// # Errors
    /// [`Error::PartialOverlap`].
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let q = Layout::contiguous(&[3, 3]);
    /// assert!(q.check_no_partial_overlap(&q.t()?, true).is_err());
    /// assert!(q.check_no_partial_overlap(&q, true).is_ok());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check_no_partial_overlap(&self, input: &Layout, same_storage: bool) -> Result<()> {
        match self.overlap(input, same_storage) {
            Overlap::Partial => Err(Error::PartialOverlap),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_examples() {
        let a = Layout::contiguous(&[10]);
        let s = |l: &Layout, lo, hi, step| l.slice(0, Some(lo), Some(hi), step).unwrap();
        assert_eq!(
            s(&a, 0, 10, 2).overlap(&s(&a, 1, 10, 2), true),
            Overlap::TooHard
        );
        assert_eq!(a.overlap(&a, true), Overlap::Full);
        assert_eq!(
            Layout::contiguous(&[5])
                .as_strided(&[3, 3], &[1, 1], None, 5, 4)
                .unwrap()
                .internal_overlap(),
            MemOverlap::TooHard
        );
    }
}
