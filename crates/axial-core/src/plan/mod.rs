//! Device-independent planning of strided walks: the dims of N operands over
//! one shape reordered so the first operand's smallest stride is innermost,
//! size-1 dims dropped and adjacent dims coalesced ([`Plan`]); the same for
//! reductions, kept and reduced dims apart ([`ReducePlan`]); and the shape
//! of a batched matrix product ([`MatmulPlan`]). Every device walks these;
//! how it walks them (threads, blocks of a grid) is its own.

mod matmul;
mod reduce;

pub use matmul::{MatStrides, MatmulPlan};
pub use reduce::{Dims, Odometer, ReducePlan, check_no_negative_strides};

use smallvec::SmallVec;

use crate::Layout;

/// A list of per-dim values, inline up to rank 6.
pub type DimVec<T> = SmallVec<[T; 6]>;

/// A prepared walk over `N` layouts of one shape. Operand 0 decides the order.
///
/// # Example
/// ```
/// use axial_core::{plan::Plan, Layout};
/// // Reading a transposed 2×3 input into a contiguous 3×2 output.
/// let out = Layout::contiguous(&[3, 2]);
/// let input = Layout::contiguous(&[2, 3]).t()?;
/// let mut pairs = vec![];
/// let plan = Plan::new([&out, &input]);
/// let [so, si] = plan.inner_strides();
/// plan.for_runs(0, plan.runs(), |[o, i], len| {
///     pairs.extend((0..len as isize).map(|k| (o as isize + k * so, i as isize + k * si)));
/// });
/// assert_eq!(pairs, [(0, 0), (1, 3), (2, 1), (3, 4), (4, 2), (5, 5)]);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Plan<const N: usize> {
    pub(crate) shape: DimVec<usize>,
    pub(crate) strides: [DimVec<isize>; N],
    pub(crate) offsets: [usize; N],
    pub(crate) disjoint: bool,
}

impl<const N: usize> Plan<N> {
    /// A walk over `layouts`, which must all have the same shape.
    ///
    /// # Panics
    /// A layout with fewer dims than `layouts[0]` (debug builds check that the
    /// shapes are equal). Kernels check their operands' shapes before they plan.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// let x = Layout::contiguous(&[2, 1, 3, 4]);
    /// let plan = Plan::new([&x, &x]);
    /// assert_eq!(plan.shape(), &[24]); // size-1 dim dropped, the rest coalesced
    /// assert_eq!(plan.runs(), 1);
    /// ```
    pub fn new(layouts: [&Layout; N]) -> Self {
        let shape0 = layouts[0].shape();
        debug_assert!(layouts.iter().all(|l| l.shape() == shape0));
        // Keep dims of size > 1; order them by operand 0's stride, then the next
        // operands' (as TensorIterator does), largest first.
        let mut dims: DimVec<usize> = (0..shape0.len()).filter(|&d| shape0[d] != 1).collect();
        dims.sort_by(|&a, &b| {
            for l in &layouts {
                let (sa, sb) = (l.strides()[a].unsigned_abs(), l.strides()[b].unsigned_abs());
                if sa != sb {
                    return sb.cmp(&sa);
                }
            }
            a.cmp(&b)
        });
        let mut shape: DimVec<usize> = DimVec::new();
        let mut strides: [DimVec<isize>; N] = std::array::from_fn(|_| DimVec::new());
        for &d in &dims {
            let n = shape0[d];
            // Merge with the previous (outer) dim when every operand is contiguous across them.
            let mergeable = !shape.is_empty()
                && layouts
                    .iter()
                    .zip(&strides)
                    .all(|(l, st)| *st.last().unwrap_or(&0) == l.strides()[d] * n as isize);
            if mergeable {
                let last = shape.len() - 1;
                shape[last] *= n;
                for (st, l) in strides.iter_mut().zip(&layouts) {
                    st[last] = l.strides()[d];
                }
            } else {
                shape.push(n);
                for (st, l) in strides.iter_mut().zip(&layouts) {
                    st.push(l.strides()[d]);
                }
            }
        }
        Plan {
            shape,
            strides,
            offsets: std::array::from_fn(|i| layouts[i].offset()),
            disjoint: layouts[0].is_non_overlapping(),
        }
    }

    /// Keeps the walk on one thread when an input reads the output's memory
    /// through another layout (`base` pointers equal, layouts different):
    /// threads could then read what others write.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// # use std::sync::atomic::{AtomicUsize, Ordering};
    /// // In place, each output element reads the element after it.
    /// let n = 1 << 20;
    /// let (out, ahead) = (Layout::contiguous(&[n]), Layout::from_parts(&[n], &[1], 1));
    /// let base = 0x1000; // both in one buffer
    /// let mut plan = Plan::new([&out, &ahead]);
    /// plan.restrict_aliasing((base, &out), &[(base, &ahead)]);
    /// let calls = AtomicUsize::new(0);
    /// plan.par_for_runs(|_, _| {
    ///     calls.fetch_add(1, Ordering::Relaxed);
    /// });
    /// assert_eq!(calls.into_inner(), 1); // the whole run, on the calling thread
    /// ```
    pub fn restrict_aliasing(&mut self, out: (usize, &Layout), inputs: &[(usize, &Layout)]) {
        if inputs.iter().any(|&(p, l)| p == out.0 && l != out.1) {
            self.disjoint = false;
        }
    }

    /// True when no element is written twice and no input aliases the output
    /// through another layout: runs may then go to several threads, in any
    /// order.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// let out = Layout::contiguous(&[4]);
    /// assert!(Plan::new([&out]).is_disjoint());
    /// let expanded = Layout::contiguous(&[1]).expand(&[4])?;
    /// assert!(!Plan::new([&expanded]).is_disjoint()); // one element, four writes
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn is_disjoint(&self) -> bool {
        self.disjoint
    }

    /// Elements walked.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// assert_eq!(Plan::new([&Layout::contiguous(&[3, 0, 2])]).numel(), 0);
    /// assert_eq!(Plan::new([&Layout::contiguous(&[])]).numel(), 1);
    /// ```
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// Length of one run (the innermost coalesced dim; 1 for a 0-dim walk).
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// // x[:, ::2] of a 4×6 x is every other element: one run of 12 at stride 2.
    /// let every_other_column = Layout::contiguous(&[4, 6]).slice(1, None, None, 2)?;
    /// let plan = Plan::new([&every_other_column]);
    /// assert_eq!((plan.inner_len(), plan.inner_strides()), (12, [2]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn inner_len(&self) -> usize {
        self.shape.last().copied().unwrap_or(1)
    }

    /// Each operand's stride along the run.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// let out = Layout::contiguous(&[5]);
    /// let row = Layout::contiguous(&[5]).expand(&[5])?;
    /// let scalar = Layout::contiguous(&[]).expand(&[5])?; // broadcast: stride 0
    /// assert_eq!(Plan::new([&out, &row, &scalar]).inner_strides(), [1, 1, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn inner_strides(&self) -> [isize; N] {
        std::array::from_fn(|i| self.strides[i].last().copied().unwrap_or(0))
    }

    /// Number of runs.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// let columns = Layout::contiguous(&[4, 6]).narrow(1, 0, 3)?;
    /// let plan = Plan::new([&columns]);
    /// assert_eq!((plan.runs(), plan.inner_len()), (4, 3)); // one run per row
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn runs(&self) -> usize {
        if self.inner_len() == 0 {
            0
        } else {
            self.numel() / self.inner_len()
        }
    }

    /// The coalesced shape, outermost first.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// let x = Layout::contiguous(&[2, 3, 4]).permute(&[2, 0, 1])?;
    /// // Ordered by stride again, then coalesced into one dim.
    /// assert_eq!(Plan::new([&x]).shape(), &[24]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The coalesced strides of operand `i`.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// let out = Layout::contiguous(&[2, 3]);
    /// let input = Layout::contiguous(&[3, 2]).t()?;
    /// let plan = Plan::new([&out, &input]);
    /// assert_eq!((plan.strides(0), plan.strides(1)), (&[3, 1][..], &[1, 2][..]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn strides(&self, i: usize) -> &[isize] {
        &self.strides[i]
    }

    /// Each operand's storage offset, where the walk starts.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// let out = Layout::contiguous(&[4]);
    /// let input = Layout::contiguous(&[8]).narrow(0, 3, 4)?;
    /// assert_eq!(Plan::new([&out, &input]).offsets(), [0, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn offsets(&self) -> [usize; N] {
        self.offsets
    }

    /// The walk without its innermost dim: each of its elements is the start
    /// of one run of this walk (for kernels that walk runs in blocks).
    ///
    /// ```
    /// use axial_core::{plan::Plan, Layout};
    /// let out = Layout::contiguous(&[4, 3]);
    /// let input = Layout::contiguous(&[3, 4]).t()?;
    /// let plan = Plan::new([&out, &input]);
    /// assert_eq!(plan.shape(), &[4, 3]);
    /// assert_eq!(plan.outer().shape(), &[4]);
    /// assert_eq!(plan.outer().inner_strides(), [3, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn outer(&self) -> Plan<N> {
        let keep = self.shape.len().saturating_sub(1);
        Plan {
            shape: self.shape[..keep].into(),
            strides: std::array::from_fn(|i| self.strides[i][..keep].into()),
            offsets: self.offsets,
            disjoint: self.disjoint,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguous_operands_coalesce_to_one_run() {
        let a = Layout::contiguous(&[3, 4, 5]);
        let p = Plan::new([&a, &a]);
        assert_eq!(p.shape(), &[60]);
        assert_eq!(p.runs(), 1);
    }

    #[test]
    fn transposed_input_keeps_two_dims() {
        let out = Layout::contiguous(&[3, 2]);
        let inp = Layout::contiguous(&[2, 3]).t().unwrap();
        let p = Plan::new([&out, &inp]);
        assert_eq!(p.shape(), &[3, 2]);
        assert_eq!((p.strides(0), p.strides(1)), (&[2, 1][..], &[1, 3][..]));
        assert_eq!(p.offsets(), [0, 0]);
    }
}
