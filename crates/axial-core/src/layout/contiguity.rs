//! Contiguity checks (`c10/core/Contiguity.h`).

use super::Layout;

impl Layout {
    /// PyTorch's `is_contiguous()`: row-major, ignoring size-1 dims (whatever
    /// their stride) and the offset; an empty layout is contiguous.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert!(Layout::from_parts(&[2, 1, 3], &[3, 100, 1], 0).is_contiguous());
    /// assert!(Layout::from_parts(&[2, 0, 3], &[7, 9, 11], 0).is_contiguous());
    /// assert!(!Layout::from_parts(&[3, 2], &[1, 3], 0).is_contiguous());
    /// ```
    pub fn is_contiguous(&self) -> bool {
        dense_in_order(self, (0..self.rank()).rev())
    }

    /// `is_contiguous(memory_format=torch.channels_last)`: rank 4, dims walked in
    /// the order C, W, H, N; rank 5 (`channels_last_3d`) in the order C, W, H, D, N.
    /// Other ranks are never channels-last.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert!(Layout::from_parts(&[2, 3, 4, 5], &[60, 1, 15, 3], 0).is_channels_last());
    /// assert!(!Layout::contiguous(&[2, 3, 4, 5]).is_channels_last());
    /// ```
    pub fn is_channels_last(&self) -> bool {
        match self.rank() {
            4 => dense_in_order(self, [1, 3, 2, 0]),
            5 => dense_in_order(self, [1, 4, 3, 2, 0]),
            _ => false,
        }
    }

    /// `_compute_non_overlapping_and_dense`: the elements fill a dense block
    /// in some dim order (a permutation of a contiguous layout).
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert!(Layout::from_parts(&[3, 2], &[1, 3], 0).is_non_overlapping_and_dense());
    /// assert!(!Layout::from_parts(&[3, 2], &[4, 1], 0).is_non_overlapping_and_dense());
    /// assert!(Layout::from_parts(&[2, 3, 0], &[3, 1, 1], 0).is_non_overlapping_and_dense());
    /// ```
    pub fn is_non_overlapping_and_dense(&self) -> bool {
        // PyTorch's flag is `is_contiguous() || ... || computed`, so an empty
        // layout, contiguous whatever its strides, counts as dense.
        if self.numel() == 0 {
            return true;
        }
        if self.rank() == 1 {
            return self.shape[0] < 2 || self.strides[0] == 1;
        }
        let mut perm: smallvec::SmallVec<[usize; 6]> = (0..self.rank()).collect();
        // Size-0/1 dims go last; the others by increasing stride (stable).
        perm.sort_by_key(|&d| (self.shape[d] < 2, self.strides[d]));
        let mut expected = Some(1isize);
        for &d in &perm {
            let n = self.shape[d];
            if n < 2 {
                return true;
            }
            if Some(self.strides[d]) != expected {
                return false;
            }
            expected = expected.and_then(|e| e.checked_mul(isize::try_from(n).ok()?));
        }
        true
    }
}

impl Layout {
    /// The layout a new tensor "like" this one gets (PyTorch's
    /// `preserve_format`, as `clone()` and `to(dtype)` use it): the same
    /// strides when this layout is non-overlapping and dense, else dense
    /// strides in this layout's dim order (PyTorch's `infer_dense_strides`).
    /// The offset is 0.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let t = Layout::contiguous(&[2, 3]).t()?;
    /// assert_eq!(t.dense_like().strides(), &[1, 3]);
    /// let m = Layout::contiguous(&[3, 4]).slice(1, None, None, 2)?;
    /// assert_eq!(m.dense_like().strides(), &[2, 1]);
    /// // A broadcast dim keeps its place in row-major order.
    /// assert_eq!(Layout::contiguous(&[3]).expand(&[4, 3])?.dense_like().strides(), &[3, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dense_like(&self) -> Layout {
        if self.is_non_overlapping_and_dense() {
            return Layout::from_parts(&self.shape, &self.strides, 0);
        }
        let perm = self.dims_by_stride();
        let mut strides: super::Strides = smallvec::smallvec![0; self.rank()];
        let mut acc = 1isize;
        for &d in &perm {
            strides[d] = acc;
            if self.shape[d] > 1 {
                acc = acc.saturating_mul(isize::try_from(self.shape[d]).unwrap_or(isize::MAX));
            }
        }
        Layout::with(self.shape.clone(), strides, 0)
    }

    /// The dims innermost first, as PyTorch orders them for a new tensor
    /// laid out like this one (`infer_dense_strides`, and TensorIterator for
    /// one operand): an insertion sort by increasing stride, ties to the
    /// smaller size, that leaves a dim of stride 0 where row-major order puts it.
    pub(crate) fn dims_by_stride(&self) -> smallvec::SmallVec<[usize; 6]> {
        sort_dims(self.rank(), |d0, d1| {
            let (s0, s1) = (self.strides[d0], self.strides[d1]);
            if s0 == 0 || s1 == 0 {
                return std::cmp::Ordering::Equal;
            }
            s0.cmp(&s1).then(if self.shape[d0] > self.shape[d1] {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            })
        })
    }
}

/// PyTorch's insertion sort of dims (`reorder_dimensions`,
/// `infer_dense_strides`): from row-major innermost first, each dim moves
/// inwards past those that `after(dim, other)` says come after it
/// (`Greater`), and stops at the first that comes before it (`Less`);
/// `Equal` means undecided, and the dim keeps looking further in.
pub(crate) fn sort_dims(
    rank: usize,
    after: impl Fn(usize, usize) -> std::cmp::Ordering,
) -> smallvec::SmallVec<[usize; 6]> {
    let mut perm: smallvec::SmallVec<[usize; 6]> = (0..rank).rev().collect();
    for i in 1..rank {
        let mut dim1 = i;
        for dim0 in (0..i).rev() {
            match after(perm[dim0], perm[dim1]) {
                std::cmp::Ordering::Greater => {
                    perm.swap(dim0, dim1);
                    dim1 = dim0;
                }
                std::cmp::Ordering::Less => break,
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    perm
}

fn dense_in_order(l: &Layout, order: impl IntoIterator<Item = usize>) -> bool {
    if l.numel() == 0 {
        return true;
    }
    let mut expected = Some(1isize);
    for d in order {
        let n = l.shape[d];
        if n == 1 {
            continue;
        }
        if Some(l.strides[d]) != expected {
            return false;
        }
        expected = expected.and_then(|e| e.checked_mul(isize::try_from(n).ok()?));
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::Layout;

    #[test]
    fn semantics_examples() {
        let m = Layout::contiguous(&[3, 4]);
        assert!(m.slice(0, Some(1), None, 1).unwrap().is_contiguous());
        assert!(!m.slice(1, None, Some(1), 1).unwrap().is_contiguous());
        assert!(m.slice(0, None, None, 3).unwrap().is_contiguous());
        assert!(!m.slice(0, None, None, 2).unwrap().is_contiguous());
        assert!(Layout::from_parts(&[1, 1], &[5, 7], 0).is_contiguous());
        for (shape, strides) in [([2, 3, 1, 1], [3, 1, 1, 1]), ([2, 1, 4, 5], [20, 20, 5, 1])] {
            let l = Layout::from_parts(&shape, &strides, 0);
            assert!(l.is_contiguous() && l.is_channels_last(), "{shape:?}");
        }
    }
}
