//! The strided walker every CPU kernel runs on: a [`Plan`] (N operands over
//! one shape, coalesced by the device-independent [`crate::plan`]) cut into
//! runs along the innermost dim, split across threads above a size threshold.

use crate::plan::DimVec;
pub use crate::plan::Plan;

/// Elements below which a kernel whose elements cost some work (a math
/// function, a division, a reduction step) stays on one thread.
///
/// ```
/// use axial_core::cpu::strided::{COSTLY, PARALLEL_THRESHOLD, PLAIN_PARALLEL_THRESHOLD};
/// // A costly walk of this many elements is as much work as the plain threshold.
/// assert_eq!(PARALLEL_THRESHOLD * COSTLY, PLAIN_PARALLEL_THRESHOLD);
/// assert_eq!(PARALLEL_THRESHOLD, 32 * 1024);
/// ```
pub const PARALLEL_THRESHOLD: usize = 1 << 15;
/// Units of work below which a [`Plan`] walk stays on one thread. An element
/// of a plain op (a copy, an add, a comparison) is one unit: waking the pool
/// costs about as much as a plain op on a quarter million elements in cache.
///
/// ```
/// use axial_core::cpu::strided::{PLAIN_PARALLEL_THRESHOLD, Plan};
/// use axial_core::Layout;
/// // Below the threshold every run is walked on the calling thread.
/// let l = Layout::contiguous(&[PLAIN_PARALLEL_THRESHOLD / 64 - 1, 64]);
/// let here = std::thread::current().id();
/// Plan::new([&l]).par_for_runs(|_, _| assert_eq!(std::thread::current().id(), here));
/// ```
pub const PLAIN_PARALLEL_THRESHOLD: usize = 1 << 18;
/// Units of work of one element of an op that calls a math function or
/// divides: such walks share out from [`PARALLEL_THRESHOLD`] elements.
///
/// ```
/// use axial_core::cpu::strided::{COSTLY, PARALLEL_THRESHOLD, PLAIN_PARALLEL_THRESHOLD};
/// assert_eq!(COSTLY, PLAIN_PARALLEL_THRESHOLD / PARALLEL_THRESHOLD);
/// assert!(COSTLY > 1);
/// ```
pub const COSTLY: usize = PLAIN_PARALLEL_THRESHOLD / PARALLEL_THRESHOLD;
/// Fewest elements of work a thread is given when a run is cut into pieces.
const MIN_PIECE: usize = 1 << 13;
/// Pieces of a run start at multiples of this many elements.
const PIECE_ALIGN: usize = 64;

/// The CPU's walks of a [`Plan`]: run by run, on one thread or several.
impl<const N: usize> Plan<N> {
    /// Calls `f(offsets, len)` for runs `first..first + count`, where
    /// `offsets[i]` is operand i's element offset at the start of the run.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// let rows = Layout::contiguous(&[3, 8]).narrow(1, 2, 4)?; // x[:, 2:6]
    /// let mut starts = vec![];
    /// Plan::new([&rows]).for_runs(1, 2, |[offset], len| starts.push((offset, len)));
    /// assert_eq!(starts, [(10, 4), (18, 4)]); // rows 1 and 2
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn for_runs(&self, first: usize, count: usize, mut f: impl FnMut([usize; N], usize)) {
        if count == 0 {
            return;
        }
        let outer = &self.shape[..self.shape.len().saturating_sub(1)];
        let len = self.inner_len();
        // Multi-index of run `first`, and the operands' offsets there.
        let mut idx: DimVec<usize> = smallvec::smallvec![0; outer.len()];
        let mut rem = first;
        let mut offs = self.offsets.map(|o| o as isize);
        for d in (0..outer.len()).rev() {
            idx[d] = rem % outer[d];
            rem /= outer[d];
            for (o, st) in offs.iter_mut().zip(&self.strides) {
                *o += idx[d] as isize * st[d];
            }
        }
        for _ in 0..count {
            f(offs.map(|o| o as usize), len);
            // Advance the odometer.
            for d in (0..outer.len()).rev() {
                idx[d] += 1;
                for (o, st) in offs.iter_mut().zip(&self.strides) {
                    *o += st[d];
                }
                if idx[d] < outer[d] {
                    break;
                }
                for (o, st) in offs.iter_mut().zip(&self.strides) {
                    *o -= outer[d] as isize * st[d];
                }
                idx[d] = 0;
            }
        }
    }

    /// Calls `f(offsets, len)` for every run, on several threads when the walk
    /// has at least [`PLAIN_PARALLEL_THRESHOLD`] elements and operand 0 (the output)
    /// provably maps distinct elements to distinct memory; runs then write
    /// disjoint elements. `f` must be safe to call concurrently on disjoint runs.
    ///
    /// When there are fewer runs than tasks (a contiguous walk is one run),
    /// runs are cut into pieces, so that one long run still uses every thread.
    ///
    /// ```
    /// # use axial_core::{plan::Plan, Layout};
    /// # use std::sync::atomic::{AtomicUsize, Ordering};
    /// let x = Layout::contiguous(&[512, 1024]);
    /// let sum = AtomicUsize::new(0);
    /// Plan::new([&x]).par_for_runs(|[offset], len| {
    ///     sum.fetch_add((offset..offset + len).sum(), Ordering::Relaxed);
    /// });
    /// let n = 512 * 1024;
    /// assert_eq!(sum.into_inner(), n * (n - 1) / 2); // every offset once
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn par_for_runs(&self, f: impl Fn([usize; N], usize) + Sync) {
        self.par_for_runs_weighted(1, f);
    }

    /// As [`Plan::par_for_runs`], where each element walked stands for
    /// `weight` units of work (an element of a costly op, or a row of
    /// `weight` plain elements).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use axial_core::{cpu::strided::{Plan, COSTLY}, Layout};
    /// let l = Layout::contiguous(&[1000, 1000]);
    /// let seen = AtomicUsize::new(0);
    /// Plan::new([&l]).par_for_runs_weighted(COSTLY, |_, len| {
    ///     seen.fetch_add(len, Ordering::Relaxed);
    /// });
    /// assert_eq!(seen.into_inner(), 1_000_000);
    /// ```
    pub fn par_for_runs_weighted(&self, weight: usize, f: impl Fn([usize; N], usize) + Sync) {
        self.par_for_runs_then(weight, f, || {});
    }

    /// As [`Plan::par_for_runs_weighted`], calling `done()` on each thread
    /// after its share of the runs (a fence after streaming stores).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use axial_core::{cpu::strided::Plan, Layout};
    /// let l = Layout::contiguous(&[4096, 1024]);
    /// let (seen, shares) = (AtomicUsize::new(0), AtomicUsize::new(0));
    /// Plan::new([&l]).par_for_runs_then(
    ///     1,
    ///     |_, len| _ = seen.fetch_add(len, Ordering::Relaxed),
    ///     || _ = shares.fetch_add(1, Ordering::Relaxed),
    /// );
    /// assert_eq!(seen.into_inner(), 4096 * 1024);
    /// assert!(shares.into_inner() >= 1);
    /// ```
    pub fn par_for_runs_then(
        &self,
        weight: usize,
        f: impl Fn([usize; N], usize) + Sync,
        done: impl Fn() + Sync,
    ) {
        let runs = self.runs();
        let threads = rayon::current_num_threads();
        let work = self.numel().saturating_mul(weight.max(1));
        if !self.disjoint || work < PLAIN_PARALLEL_THRESHOLD || threads == 1 || runs == 0 {
            self.for_runs(0, runs, f);
            done();
            return;
        }
        let tasks = threads * 4;
        let len = self.inner_len();
        let min_piece = MIN_PIECE.div_ceil(weight.max(1));
        let parts = if runs >= tasks {
            1
        } else {
            tasks.div_ceil(runs).min(len.div_ceil(min_piece)).max(1)
        };
        let items = runs * parts;
        if items < 2 {
            self.for_runs(0, runs, f);
            done();
            return;
        }
        let chunks = tasks.min(items);
        let per = items.div_ceil(chunks);
        rayon::scope(|s| {
            for c in 0..chunks {
                let first = c * per;
                if first >= items {
                    break;
                }
                let count = per.min(items - first);
                let (f, done) = (&f, &done);
                s.spawn(move |_| {
                    self.for_pieces(first, count, parts, f);
                    done();
                });
            }
        });
    }

    /// Calls `f(offsets, len)` for pieces `first..first + count`, where each
    /// run is cut into `parts` pieces of equal length (a multiple of
    /// [`PIECE_ALIGN`], so that threads write whole cache lines).
    fn for_pieces(&self, first: usize, count: usize, parts: usize, f: impl Fn([usize; N], usize)) {
        if parts == 1 {
            self.for_runs(first, count, f);
            return;
        }
        let piece = self
            .inner_len()
            .div_ceil(parts)
            .next_multiple_of(PIECE_ALIGN);
        let strides = self.inner_strides();
        let end = first + count;
        let first_run = first / parts;
        let mut item = first_run * parts;
        self.for_runs(first_run, (end - 1) / parts - first_run + 1, |offs, len| {
            for p in 0..parts {
                let (start, stop) = (p * piece, ((p + 1) * piece).min(len));
                if (first..end).contains(&(item + p)) && start < stop {
                    let at = std::array::from_fn(|i| {
                        (offs[i] as isize + start as isize * strides[i]) as usize
                    });
                    f(at, stop - start);
                }
            }
            item += parts;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Layout;

    fn offsets(plan: &Plan<2>) -> Vec<[usize; 2]> {
        let mut out = vec![];
        plan.for_runs(0, plan.runs(), |o, len| {
            let st = plan.inner_strides();
            for i in 0..len {
                out.push([o[0] + i * st[0] as usize, o[1] + i * st[1] as usize]);
            }
        });
        out
    }

    /// How many times the parallel walk visits each output offset.
    fn visits(out: &Layout, input: &Layout, weight: usize) -> Vec<u8> {
        use std::sync::atomic::{AtomicU8, Ordering};
        let p = Plan::new([out, input]);
        let counts: Vec<AtomicU8> = (0..out.required_len()).map(|_| AtomicU8::new(0)).collect();
        let [so, _] = p.inner_strides();
        p.par_for_runs_weighted(weight, |[o, _], len| {
            for i in 0..len {
                counts[(o as isize + i as isize * so) as usize].fetch_add(1, Ordering::Relaxed);
            }
        });
        counts.into_iter().map(AtomicU8::into_inner).collect()
    }

    #[test]
    fn parallel_pieces_cover_every_element_once() {
        // One long run, cut into pieces; few long runs; many short ones.
        for shape in [vec![1 << 20], vec![3, 100_003], vec![4099, 67]] {
            let l = Layout::contiguous(&shape);
            assert!(visits(&l, &l, 1).iter().all(|&c| c == 1), "{shape:?}");
        }
        let out = Layout::contiguous(&[70_001, 3]);
        let input = Layout::contiguous(&[3, 70_001]).t().unwrap();
        assert!(visits(&out, &input, COSTLY).iter().all(|&c| c == 1));
    }

    #[test]
    fn transposed_input_walks_output_order() {
        let out = Layout::contiguous(&[3, 2]);
        let inp = Layout::contiguous(&[2, 3]).t().unwrap();
        let p = Plan::new([&out, &inp]);
        assert_eq!(
            offsets(&p),
            vec![[0, 0], [1, 3], [2, 1], [3, 4], [4, 2], [5, 5]]
        );
    }

    #[test]
    fn runs_split_anywhere_resume_correctly() {
        let out = Layout::contiguous(&[4, 3, 2]);
        let inp = Layout::contiguous(&[2, 3, 4]).permute(&[2, 1, 0]).unwrap();
        let p = Plan::new([&out, &inp]);
        let all = offsets(&p);
        let mut pieces = vec![];
        for first in 0..p.runs() {
            p.for_runs(first, 1, |o, len| {
                let st = p.inner_strides();
                for i in 0..len {
                    pieces.push([o[0] + i * st[0] as usize, o[1] + i * st[1] as usize]);
                }
            });
        }
        assert_eq!(all, pieces);
        assert_eq!(all.len(), 24);
    }
}
