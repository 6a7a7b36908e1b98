//! The shape of a reduction: the kept dims (with their source and output
//! strides) and the reduced dims (source strides), each ordered outermost
//! first by source stride, size-1 dims dropped and contiguous neighbours
//! coalesced; the checks every device makes before it reduces; and an
//! odometer that walks such dims.

use super::DimVec;
use crate::{Error, Layout, Result};

/// Dims walked together: sizes and, for each of `N` operands, strides.
///
/// # Example
/// ```
/// use axial_core::plan::Dims;
/// // A (2, 3) block of a row-major (2, 3) array coalesces into one dim of 6.
/// let dims = Dims::new(vec![(3, [1]), (2, [3])]);
/// assert_eq!((dims.sizes.as_slice(), dims.strides[0].as_slice()), (&[6][..], &[1][..]));
/// assert_eq!(dims.numel(), 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dims<const N: usize> {
    /// The sizes, outermost first.
    pub sizes: DimVec<usize>,
    /// Each operand's strides, in elements, one per size.
    pub strides: [DimVec<isize>; N],
}

impl<const N: usize> Dims<N> {
    /// Dims `(size, strides)`, sorted outermost first by the first operand's
    /// stride (then the next ones'), adjacent dims merged when every operand
    /// steps over the inner one exactly.
    ///
    /// ```
    /// # use axial_core::plan::Dims;
    /// // Strides 1 and 10: not mergeable, ordered by stride.
    /// let dims = Dims::new(vec![(4, [1]), (5, [10])]);
    /// assert_eq!(dims.sizes.as_slice(), &[5, 4]);
    /// ```
    pub fn new(dims: impl Into<DimVec<(usize, [isize; N])>>) -> Self {
        let mut dims = dims.into();
        dims.sort_by(|a, b| {
            let key = |d: &(usize, [isize; N])| d.1.map(isize::unsigned_abs);
            key(b).cmp(&key(a))
        });
        let mut out = Dims {
            sizes: DimVec::new(),
            strides: std::array::from_fn(|_| DimVec::new()),
        };
        for (n, st) in dims {
            let last = out.sizes.len().wrapping_sub(1);
            let merge =
                !out.sizes.is_empty() && (0..N).all(|i| out.strides[i][last] == st[i] * n as isize);
            if merge {
                out.sizes[last] *= n;
                for (i, &s) in st.iter().enumerate() {
                    out.strides[i][last] = s;
                }
            } else {
                out.sizes.push(n);
                for (i, &s) in st.iter().enumerate() {
                    out.strides[i].push(s);
                }
            }
        }
        out
    }

    /// Number of positions (1 for no dims).
    ///
    /// ```
    /// # use axial_core::plan::Dims;
    /// assert_eq!(Dims::<1>::new(vec![]).numel(), 1);
    /// assert_eq!(Dims::new(vec![(3, [2]), (0, [1])]).numel(), 0);
    /// ```
    pub fn numel(&self) -> usize {
        self.sizes.iter().product()
    }

    /// The innermost dim as (size, strides) (size 1 when there are no dims),
    /// and the dims outside it.
    ///
    /// ```
    /// # use axial_core::plan::Dims;
    /// let dims = Dims::new(vec![(4, [1]), (5, [10])]);
    /// let ((n, [stride]), outer) = dims.split_inner();
    /// assert_eq!((n, stride, outer.sizes.as_slice()), (4, 1, &[5][..]));
    /// ```
    pub fn split_inner(&self) -> ((usize, [isize; N]), Dims<N>) {
        let Some(last) = self.sizes.len().checked_sub(1) else {
            return ((1, [0; N]), self.clone());
        };
        let inner = (
            self.sizes[last],
            std::array::from_fn(|i| self.strides[i][last]),
        );
        let outer = Dims {
            sizes: self.sizes[..last].into(),
            strides: std::array::from_fn(|i| self.strides[i][..last].into()),
        };
        (inner, outer)
    }
}

/// A reduction of a source layout into an output layout.
///
/// # Example
/// ```
/// use axial_core::{plan::ReducePlan, Layout};
/// // Sum of a contiguous (2, 3, 4) over dims 0 and 2 into a (1, 3, 1).
/// let (src, dst) = (Layout::contiguous(&[2, 3, 4]), Layout::contiguous(&[1, 3, 1]));
/// let plan = ReducePlan::checked("sum", &src, &[0, 2], &dst)?;
/// assert_eq!(plan.kept.sizes.as_slice(), &[3]);
/// assert_eq!(plan.reduced.sizes.as_slice(), &[2, 4]);
/// assert_eq!(plan.reduced.strides[0].as_slice(), &[12, 1]);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ReducePlan {
    /// Kept dims: strides in the source (0) and in the output (1).
    pub kept: Dims<2>,
    /// Reduced dims: strides in the source.
    pub reduced: Dims<1>,
    /// Source offset.
    pub src_offset: usize,
    /// Output offset.
    pub dst_offset: usize,
    /// The output maps distinct elements to distinct memory (so threads may
    /// write disjoint parts of it).
    pub dst_disjoint: bool,
}

impl ReducePlan {
    /// The plan for reducing `src` over `dims` into `dst`, whose shape is
    /// `src`'s with `dims` of size 1 (checked by the caller: see
    /// [`ReducePlan::checked`]).
    ///
    /// ```
    /// # use axial_core::{plan::ReducePlan, Layout};
    /// let src = Layout::contiguous(&[5, 7]);
    /// let plan = ReducePlan::new(&src, &[0], &Layout::contiguous(&[1, 7]));
    /// assert_eq!((plan.kept.numel(), plan.reduced.numel()), (7, 5));
    /// ```
    pub fn new(src: &Layout, dims: &[usize], dst: &Layout) -> Self {
        let mut kept = DimVec::new();
        let mut reduced = DimVec::new();
        for (d, &n) in src.shape().iter().enumerate() {
            if n == 1 {
                continue;
            }
            let s = src.strides()[d];
            if dims.contains(&d) {
                reduced.push((n, [s]));
            } else {
                kept.push((n, [s, dst.strides()[d]]));
            }
        }
        ReducePlan {
            kept: Dims::new(kept),
            reduced: Dims::new(reduced),
            src_offset: src.offset(),
            dst_offset: dst.offset(),
            dst_disjoint: dst.is_non_overlapping(),
        }
    }

    /// Checks `dims` against `src` (in range, no repeats) and `dst`'s shape
    /// against the reduction's (`src`'s with `dims` of size 1), refuses
    /// negative strides, and plans the walk. `op` names the op in errors.
    ///
    /// # Errors
    /// A dim out of range or repeated, an output of another shape, or a
    /// negative stride.
    ///
    /// ```
    /// # use axial_core::{plan::ReducePlan, Layout};
    /// let src = Layout::contiguous(&[2, 3]);
    /// assert!(ReducePlan::checked("sum", &src, &[1], &Layout::contiguous(&[2, 1])).is_ok());
    /// assert!(ReducePlan::checked("sum", &src, &[2], &Layout::contiguous(&[2, 3])).is_err());
    /// assert!(ReducePlan::checked("sum", &src, &[1, 1], &Layout::contiguous(&[2, 1])).is_err());
    /// assert!(ReducePlan::checked("sum", &src, &[1], &Layout::contiguous(&[2])).is_err());
    /// ```
    pub fn checked(op: &'static str, src: &Layout, dims: &[usize], dst: &Layout) -> Result<Self> {
        let rank = src.rank();
        for (i, &d) in dims.iter().enumerate() {
            if d >= rank.max(1) {
                return Err(Error::DimOutOfRange {
                    dim: d as isize,
                    rank,
                });
            }
            if dims[..i].contains(&d) {
                return Err(Error::invalid(
                    op,
                    format!("dim {d} appears multiple times in the list of dims"),
                ));
            }
        }
        let expected: DimVec<usize> = (src.shape().iter().enumerate())
            .map(|(d, &n)| if dims.contains(&d) { 1 } else { n })
            .collect();
        if dst.shape() != expected.as_slice() {
            return Err(Error::invalid(
                op,
                format!(
                    "an output of shape {:?} was given for a reduction of shape {:?} over dims {dims:?}",
                    dst.shape(),
                    src.shape()
                ),
            ));
        }
        check_no_negative_strides(op, src)?;
        check_no_negative_strides(op, dst)?;
        Ok(ReducePlan::new(src, dims, dst))
    }

    /// Refuses an empty reduction for ops without an identity (max, min,
    /// argmax), naming the first empty dim of `dims` in `src_shape`.
    ///
    /// # Errors
    /// Some output reduces no element.
    ///
    /// ```
    /// # use axial_core::{plan::ReducePlan, Layout};
    /// let src = Layout::contiguous(&[2, 0]);
    /// let plan = ReducePlan::checked("amax", &src, &[1], &Layout::contiguous(&[2, 1]))?;
    /// let err = plan.check_nonempty("amax", src.shape(), &[1]).unwrap_err();
    /// assert_eq!(err.to_string(), "amax: Expected reduction dim 1 to have non-zero size.");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check_nonempty(
        &self,
        op: &'static str,
        src_shape: &[usize],
        dims: &[usize],
    ) -> Result<()> {
        if self.kept.numel() > 0 && self.reduced.numel() == 0 {
            let d = dims.iter().find(|&&d| src_shape[d] == 0);
            return Err(crate::ops::reduce::empty_dim(
                op,
                d.copied().unwrap_or_default() as isize,
            ));
        }
        Ok(())
    }
}

/// Refuses a layout with a negative stride (which `Layout::from_parts` can
/// build), naming the op, before a kernel plans a walk over it.
///
/// # Errors
/// Some stride is negative.
///
/// ```
/// # use axial_core::{plan::check_no_negative_strides, Layout};
/// assert!(check_no_negative_strides("sum", &Layout::contiguous(&[2, 3])).is_ok());
/// assert!(check_no_negative_strides("sum", &Layout::from_parts(&[2], &[-1], 1)).is_err());
/// ```
pub fn check_no_negative_strides(op: &'static str, layout: &Layout) -> Result<()> {
    if layout.strides().iter().any(|&s| s < 0) {
        return Err(Error::invalid(
            op,
            format!(
                "negative strides are not supported, got {:?}",
                layout.strides()
            ),
        ));
    }
    Ok(())
}

/// A multi-index over [`Dims`] with each operand's element offset.
///
/// # Example
/// ```
/// use axial_core::plan::{Dims, Odometer};
/// let dims = Dims::<1>::new(vec![(2, [10]), (3, [1])]);
/// let mut o = Odometer::new(&dims, 1);
/// let mut seen = vec![];
/// for _ in 0..5 {
///     seen.push(o.offsets[0]);
///     o.advance();
/// }
/// assert_eq!(seen, vec![1, 2, 10, 11, 12]);
/// ```
pub struct Odometer<'a, const N: usize> {
    dims: &'a Dims<N>,
    index: DimVec<usize>,
    /// The operands' offsets (relative to their base) at the current index.
    pub offsets: [isize; N],
}

impl<'a, const N: usize> Odometer<'a, N> {
    /// The odometer at flat (row-major) position `flat`, which must be below
    /// `dims.numel()` unless that is 0.
    ///
    /// ```
    /// # use axial_core::plan::{Dims, Odometer};
    /// let dims = Dims::<1>::new(vec![(2, [10]), (3, [1])]);
    /// assert_eq!(Odometer::new(&dims, 4).offsets, [11]); // index (1, 1)
    /// ```
    pub fn new(dims: &'a Dims<N>, mut flat: usize) -> Self {
        let mut index: DimVec<usize> = smallvec::smallvec![0; dims.sizes.len()];
        let mut offsets = [0isize; N];
        for d in (0..dims.sizes.len()).rev() {
            let n = dims.sizes[d].max(1);
            index[d] = flat % n;
            flat /= n;
            for (o, st) in offsets.iter_mut().zip(&dims.strides) {
                *o += index[d] as isize * st[d];
            }
        }
        Odometer {
            dims,
            index,
            offsets,
        }
    }

    /// Moves to the next position (wrapping to the first after the last).
    ///
    /// ```
    /// # use axial_core::plan::{Dims, Odometer};
    /// let dims = Dims::<1>::new(vec![(2, [5])]);
    /// let mut o = Odometer::new(&dims, 1);
    /// o.advance();
    /// assert_eq!(o.offsets, [0]); // wrapped
    /// ```
    #[inline]
    pub fn advance(&mut self) {
        for d in (0..self.index.len()).rev() {
            self.index[d] += 1;
            for (o, st) in self.offsets.iter_mut().zip(&self.dims.strides) {
                *o += st[d];
            }
            if self.index[d] < self.dims.sizes[d] {
                return;
            }
            for (o, st) in self.offsets.iter_mut().zip(&self.dims.strides) {
                *o -= self.index[d] as isize * st[d];
            }
            self.index[d] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguous_dims_coalesce_per_group() {
        // Sum of a contiguous (2,3,4) over (0, 2): kept dim 1, reduced 0 and 2.
        let src = Layout::contiguous(&[2, 3, 4]);
        let dst = Layout::contiguous(&[1, 3, 1]);
        let p = ReducePlan::new(&src, &[0, 2], &dst);
        assert_eq!(p.reduced.sizes.as_slice(), &[2, 4]);
        assert_eq!(p.kept.sizes.as_slice(), &[3]);
        // Everything reduced coalesces to one run.
        let all = ReducePlan::new(&src, &[0, 1, 2], &Layout::contiguous(&[1, 1, 1]));
        assert_eq!(all.reduced.sizes.as_slice(), &[24]);
        assert_eq!(all.reduced.strides[0].as_slice(), &[1]);
    }

    #[test]
    fn odometer_visits_row_major_offsets() {
        let dims = Dims::<1>::new(vec![(2, [10]), (3, [1])]);
        let mut o = Odometer::new(&dims, 1);
        let mut seen = vec![];
        for _ in 0..5 {
            seen.push(o.offsets[0]);
            o.advance();
        }
        assert_eq!(seen, vec![1, 2, 10, 11, 12]);
        assert_eq!(o.offsets[0], 0);
    }
}
