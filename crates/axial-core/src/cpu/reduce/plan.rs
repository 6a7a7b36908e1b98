//! The shape of a reduction: the kept dims (with their source and output
//! strides) and the reduced dims (source strides), each ordered outermost
//! first by source stride, size-1 dims dropped and contiguous neighbours
//! coalesced; and an odometer that walks such dims.

use smallvec::SmallVec;

use crate::Layout;

pub(crate) type DimVec<T> = SmallVec<[T; 6]>;

/// Dims walked together: sizes and, for each of `N` operands, strides.
#[derive(Clone, Debug)]
pub(crate) struct Dims<const N: usize> {
    pub(crate) sizes: DimVec<usize>,
    pub(crate) strides: [DimVec<isize>; N],
}

impl<const N: usize> Dims<N> {
    /// Dims `(size, strides)`, sorted outermost first by the first operand's
    /// stride (then the next ones'), adjacent dims merged when every operand
    /// steps over the inner one exactly.
    pub(crate) fn new(mut dims: Vec<(usize, [isize; N])>) -> Self {
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
    pub(crate) fn numel(&self) -> usize {
        self.sizes.iter().product()
    }

    /// The innermost dim as (size, strides) (size 1 when there are no dims),
    /// and the dims outside it.
    pub(crate) fn split_inner(&self) -> ((usize, [isize; N]), Dims<N>) {
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
#[derive(Clone, Debug)]
pub(crate) struct ReducePlan {
    /// Kept dims: strides in the source (0) and in the output (1).
    pub(crate) kept: Dims<2>,
    /// Reduced dims: strides in the source.
    pub(crate) reduced: Dims<1>,
    /// Source offset.
    pub(crate) src_offset: usize,
    /// Output offset.
    pub(crate) dst_offset: usize,
    /// The output maps distinct elements to distinct memory (so threads may
    /// write disjoint parts of it).
    pub(crate) dst_disjoint: bool,
}

impl ReducePlan {
    /// The plan for reducing `src` over `dims` into `dst`, whose shape is
    /// `src`'s with `dims` of size 1 (checked by the caller).
    pub(crate) fn new(src: &Layout, dims: &[usize], dst: &Layout) -> Self {
        let mut kept = vec![];
        let mut reduced = vec![];
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

    /// True when each output should reduce contiguous runs (the innermost
    /// source dim is reduced, and its runs are not too short to pay for a
    /// walk per output). Otherwise the walk accumulates whole rows of the kept
    /// dims into a vector of partials (the innermost kept dim are its lanes).
    pub(crate) fn reduces_inner(&self) -> bool {
        let ((run, [run_stride]), _) = self.reduced.split_inner();
        let ((lanes, [lane_stride, _]), _) = self.kept.split_inner();
        if self.reduced.sizes.is_empty() {
            return false;
        }
        if self.kept.sizes.is_empty() {
            return true;
        }
        // Short runs (a sum over a last dim of 3, say) next to many outputs
        // walk faster as rows of strided lanes.
        run_stride.unsigned_abs() <= lane_stride.unsigned_abs()
            && (run >= SHORT_RUN || lanes < SHORT_RUN)
    }
}

/// Runs shorter than this are walked as rows when the outputs allow it.
const SHORT_RUN: usize = 16;

/// A multi-index over [`Dims`] with each operand's element offset.
pub(crate) struct Odometer<'a, const N: usize> {
    dims: &'a Dims<N>,
    index: DimVec<usize>,
    /// The operands' offsets (relative to their base) at the current index.
    pub(crate) offsets: [isize; N],
}

impl<'a, const N: usize> Odometer<'a, N> {
    /// The odometer at flat (row-major) position `flat`, which must be below
    /// `dims.numel()` unless that is 0.
    pub(crate) fn new(dims: &'a Dims<N>, mut flat: usize) -> Self {
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
    #[inline]
    pub(crate) fn advance(&mut self) {
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
        assert!(p.reduces_inner());
        // Everything reduced coalesces to one run.
        let all = ReducePlan::new(&src, &[0, 1, 2], &Layout::contiguous(&[1, 1, 1]));
        assert_eq!(all.reduced.sizes.as_slice(), &[24]);
        assert_eq!(all.reduced.strides[0].as_slice(), &[1]);
    }

    #[test]
    fn column_sums_reduce_outer() {
        let src = Layout::contiguous(&[5, 7]);
        let p = ReducePlan::new(&src, &[0], &Layout::contiguous(&[1, 7]));
        assert!(!p.reduces_inner());
        let t = src.t().unwrap();
        let p = ReducePlan::new(&t, &[1], &Layout::contiguous(&[7, 1]));
        assert!(!p.reduces_inner());
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
