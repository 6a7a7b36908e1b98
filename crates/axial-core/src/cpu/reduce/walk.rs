//! The reduction walker: any [`Reducer`] over any [`ReducePlan`].
//!
//! Two shapes of walk, chosen by which source dim is innermost
//! ([`reduces_inner`]):
//! - **inner**: the innermost source dim is reduced. Each output reduces
//!   contiguous runs with [`LANES`] independent accumulators (they vectorise),
//!   in blocks of at most [`LEAF`] elements combined pairwise (a cascade, so an
//!   f32 sum of n elements errs by O(log n) roundings, not O(n)). When each
//!   output is one unit-stride run of at most a leaf (a last dim, windows),
//!   the runs are reduced directly, outputs stepped along the innermost kept
//!   dim. Reducers with [`Reducer::RUNS4`] (f32 `sum` and `mean`) take such
//!   outputs four at a time, their runs read side by side in the same
//!   cascade ([`super::side_by_side`]): the same values, more memory streams.
//! - **outer**: the innermost source dim is kept (or the reduced runs are
//!   short). The walk reads whole source rows in memory order and adds them,
//!   eight at a time, into a vector of partial results, in blocks of
//!   [`LEAF_ROWS`] rows combined pairwise.
//!
//! Elements are widened as they are read (f16/bf16 to f32, integers to i64);
//! f16 a block at a time.
//!
//! Above [`PARALLEL_THRESHOLD`] elements the outputs are split across rayon's
//! threads (in the outer walk, bands of lanes); when there are too few outputs
//! for that, the reduced range of each is split instead and the partial
//! results combined.

use super::ops::{Reducer, Wide};
use super::plan::{Dims, Odometer, ReducePlan, reduces_inner};
use super::widen::{Num, Widen};
use crate::cpu::access::SendPtr;
use crate::cpu::simd::{Level, Site, level_at};
use crate::cpu::strided::PARALLEL_THRESHOLD;
use smallvec::{SmallVec, smallvec};

/// Independent accumulators over a contiguous run.
pub(super) const LANES: usize = 16;
/// Elements reduced in sequence (per lane group) before combining pairwise.
const LEAF: usize = 1024;
/// Rows accumulated in sequence before combining pairwise.
const LEAF_ROWS: usize = 32;
/// Bytes of partial results one outer-walk tile keeps (fits in L1).
const TILE_BYTES: usize = 16 * 1024;
/// Lanes below which a band of lanes is too narrow to give a thread of its own.
const MIN_BAND: usize = 256;
/// Elements below which a split range is not worth another thread.
const GRAIN: usize = 1 << 18;

/// The operands of one walk.
struct Walk<'a, R: Reducer> {
    plan: &'a ReducePlan,
    src: SendPtr<R::In>,
    dst: SendPtr<R::Out>,
    r: R,
    /// Elements reduced into each output.
    count: usize,
}

/// Reduces `src` into `dst` along `plan`.
///
/// # Safety
/// Every element the plan addresses lies in bounds of the allocations behind
/// `src` and `dst`, which do not overlap; no one else writes them meanwhile.
pub(crate) unsafe fn reduce<R: Reducer>(
    plan: &ReducePlan,
    src: SendPtr<R::In>,
    dst: SendPtr<R::Out>,
    r: R,
) {
    let walk = Walk {
        plan,
        src,
        dst,
        r,
        count: plan.reduced.numel(),
    };
    let outputs = plan.kept.numel();
    if outputs == 0 {
        return;
    }
    let work = outputs.saturating_mul(walk.count.max(1));
    let parallel = work >= PARALLEL_THRESHOLD && rayon::current_num_threads() > 1;
    if walk.count == 0 {
        walk.fill_empty();
    } else if reduces_inner(plan) {
        walk.inner(parallel);
    } else {
        walk.outer(parallel);
    }
}

/// Calls `f(first, count)` over `0..tasks` in pieces, on several threads when
/// `parallel`.
fn split_tasks(tasks: usize, parallel: bool, f: impl Fn(usize, usize) + Sync) {
    if !parallel {
        f(0, tasks);
        return;
    }
    let pieces = (rayon::current_num_threads() * 4).min(tasks);
    let per = tasks.div_ceil(pieces);
    rayon::scope(|s| {
        for first in (0..tasks).step_by(per) {
            let f = &f;
            s.spawn(move |_| f(first, per.min(tasks - first)));
        }
    });
}

/// Elements widened at a time for types that widen by blocks ([`Widen::BLOCK`]).
const BLOCK: usize = 512;

/// Runs shorter than this widen element by element (filling a block buffer
/// would cost more than it saves).
const SHORT_BLOCK: usize = 4 * LANES;

/// Reduces a contiguous run with [`LANES`] accumulators, compiled for the
/// widest vectors of the instruction set in use ([`level_at`]) (the crate's baseline is SSE2: two f64 lanes
/// where AVX2 has four and AVX-512 eight). Not through `simd::dispatch`:
/// its AVX-512 function also enables VL/BW/DQ, with which the compiler
/// vectorises these generic loops differently, and a row sum measured
/// 1.3–1.4× slower than with AVX-512 F alone.
#[inline(always)]
pub(super) fn lanes<R: Reducer>(r: R, xs: &[R::In], first: usize) -> R::Acc {
    #[cfg(target_arch = "x86_64")]
    match level_at(Site::Reduce) {
        // SAFETY: the CPU has AVX-512 F.
        Level::Avx512 => return unsafe { lanes_avx512(r, xs, first) },
        // SAFETY: the CPU has AVX2.
        Level::Avx2 => return unsafe { lanes_avx2(r, xs, first) },
        Level::Portable => {}
    }
    #[cfg(not(target_arch = "x86_64"))]
    level_at(Site::Reduce);
    lanes_here(r, xs, first)
}

/// [`lanes`] with AVX-512 F.
///
/// # Safety
/// The CPU has AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn lanes_avx512<R: Reducer>(r: R, xs: &[R::In], first: usize) -> R::Acc {
    lanes_here(r, xs, first)
}

/// [`lanes`] with AVX2 (the reducer's steps are inlined into it).
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn lanes_avx2<R: Reducer>(r: R, xs: &[R::In], first: usize) -> R::Acc {
    lanes_here(r, xs, first)
}

/// [`lanes`] with the instructions the caller is compiled for.
#[inline(always)]
fn lanes_here<R: Reducer>(r: R, xs: &[R::In], first: usize) -> R::Acc {
    if !R::In::BLOCK || xs.len() < SHORT_BLOCK {
        return r.run(xs, first, R::In::widen);
    }
    let mut buf = [<Wide<R> as Num>::ZERO; BLOCK];
    xs.chunks(BLOCK)
        .enumerate()
        .fold(r.identity(), |acc, (c, xs)| {
            let wide = &mut buf[..xs.len()];
            R::In::widen_block(xs, wide);
            r.combine(acc, r.run(wide, first + c * BLOCK, |x| x))
        })
}

/// [`lanes`] over items that `widen` turns into what the reducer steps on,
/// a step per item ([`Reducer::run`]'s default).
#[inline(always)]
pub(super) fn lanes_of<R: Reducer, I: Copy>(
    r: R,
    xs: &[I],
    first: usize,
    widen: impl Fn(I) -> Wide<R>,
) -> R::Acc {
    if xs.len() < LANES {
        // What the lanes below would give: their identities, combined with
        // this fold of the tail.
        return (xs.iter().enumerate())
            .fold(r.identity(), |a, (j, &x)| r.step(a, widen(x), first + j));
    }
    let mut acc = [r.identity(); LANES];
    let chunks = xs.chunks_exact(LANES);
    let tail = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        let at = first + c * LANES;
        for j in 0..LANES {
            acc[j] = r.step(acc[j], widen(chunk[j]), at + j);
        }
    }
    let mut width = LANES / 2;
    while width > 0 {
        for j in 0..width {
            acc[j] = r.combine(acc[j], acc[j + width]);
        }
        width /= 2;
    }
    let at = first + xs.len() - tail.len();
    let rest = tail
        .iter()
        .enumerate()
        .fold(r.identity(), |a, (j, &x)| r.step(a, widen(x), at + j));
    r.combine(acc[0], rest)
}

impl<R: Reducer> Walk<'_, R> {
    /// Every output of an empty reduction is the finished identity.
    fn fill_empty(&self) {
        let v = self.r.finish(self.r.identity(), 0);
        let kept = &self.plan.kept;
        let mut od = Odometer::new(kept, 0);
        for _ in 0..kept.numel() {
            // SAFETY: the odometer yields output offsets of the plan, in bounds.
            unsafe { self.write(od.offsets[1], v) };
            od.advance();
        }
    }

    /// Writes one output element at `offset` from the output's offset.
    ///
    /// # Safety
    /// `offset` is an output offset of the plan.
    #[inline(always)]
    unsafe fn write(&self, offset: isize, v: R::Out) {
        // SAFETY: in bounds by the caller's contract and `reduce`'s.
        unsafe {
            *self
                .dst
                .get()
                .offset(self.plan.dst_offset as isize + offset) = v
        };
    }

    /// The source pointer at `offset` from the source's offset.
    #[inline(always)]
    fn src_at(&self, offset: isize) -> *const R::In {
        self.src
            .get()
            .cast_const()
            .wrapping_offset(self.plan.src_offset as isize + offset)
    }

    // ---- inner walk: the reduced dims hold the innermost source dim ----

    fn inner(&self, parallel: bool) {
        let outputs = self.plan.kept.numel();
        let threads = rayon::current_num_threads();
        if parallel && outputs >= 2 * threads && self.plan.dst_disjoint {
            split_tasks(outputs, true, |first, n| {
                self.inner_outputs(first, n, false)
            });
        } else {
            self.inner_outputs(0, outputs, parallel);
        }
    }

    /// Outputs `first..first + n`, each reduced (on several threads when
    /// `parallel`) and written.
    fn inner_outputs(&self, first: usize, n: usize, parallel: bool) {
        let ((run, [stride]), outer) = self.plan.reduced.split_inner();
        let r = self.r;
        if R::RUNS4 && outer.sizes.is_empty() && stride == 1 && (run <= LEAF || !parallel) {
            self.side_by_side(first, n, &outer, run);
            return;
        }
        self.for_outputs(first, n, |src, dst| {
            let acc = self.output(&outer, (run, stride), src, parallel);
            // SAFETY: an output offset of the plan.
            unsafe { self.write(dst, r.finish(acc, self.count)) };
        });
    }

    /// The partial result of the output whose source elements start at
    /// `src`. One short unit-stride run (a sum over a last dim, over
    /// windows) is reduced directly, without a walk; others by halves.
    fn output(
        &self,
        outer: &Dims<1>,
        (run, stride): (usize, isize),
        src: isize,
        parallel: bool,
    ) -> R::Acc {
        if outer.sizes.is_empty() && stride == 1 && run <= LEAF {
            // SAFETY: the run of an output of the plan: `run` elements at
            // unit stride from its source offset.
            let xs = unsafe { std::slice::from_raw_parts(self.src_at(src), run) };
            lanes(self.r, xs, 0)
        } else {
            self.inner_range(outer, (run, stride), src, 0, self.count, parallel)
        }
    }

    /// Outputs `first..first + n`, each one unit-stride run of `run`
    /// elements, four at a time ([`Reducer::run4`]): the same values as
    /// one at a time ([`Walk::output`]), read side by side.
    fn side_by_side(&self, first: usize, n: usize, outer: &Dims<1>, run: usize) {
        let r = self.r;
        let mut group = [(0, 0); 4];
        let mut filled = 0;
        let finish = |group: &[(isize, isize)], accs: &[R::Acc]| {
            for (&(_, dst), &acc) in group.iter().zip(accs) {
                // SAFETY: an output offset of the plan.
                unsafe { self.write(dst, r.finish(acc, self.count)) };
            }
        };
        self.for_outputs(first, n, |src, dst| {
            group[filled] = (src, dst);
            filled += 1;
            if filled == 4 {
                let accs = self.range4(group.map(|(src, _)| src), 0, run, run <= LEAF);
                finish(&group, &accs);
                filled = 0;
            }
        });
        for &(src, dst) in &group[..filled] {
            finish(&[(src, dst)], &[self.output(outer, (run, 1), src, false)]);
        }
    }

    /// [`Walk::inner_range`] of four unit-stride runs from `bases` side by
    /// side: the same halves, each leaf through [`Reducer::run4`]. `whole`:
    /// the runs are at most a leaf, reduced as [`Walk::output`] reduces such
    /// runs directly (no identity combined in).
    fn range4(&self, bases: [isize; 4], lo: usize, hi: usize, whole: bool) -> [R::Acc; 4] {
        let (r, n) = (self.r, hi - lo);
        if n <= LEAF {
            // SAFETY: positions `lo..hi` of the runs of four outputs of the plan.
            let runs = bases
                .map(|b| unsafe { std::slice::from_raw_parts(self.src_at(b + lo as isize), n) });
            let parts = r.run4(runs, lo);
            return if whole {
                parts
            } else {
                parts.map(|p| r.combine(r.identity(), p))
            };
        }
        let mid = lo + (n / 2).next_multiple_of(LANES).min(n - 1);
        let (a, b) = (
            self.range4(bases, lo, mid, false),
            self.range4(bases, mid, hi, false),
        );
        std::array::from_fn(|i| r.combine(a[i], b[i]))
    }

    /// Calls `f(src, dst)` with the source and output offsets of the kept
    /// positions `first..first + n` in order, stepping along the innermost
    /// kept dim without an odometer.
    #[inline(always)]
    fn for_outputs(&self, first: usize, n: usize, mut f: impl FnMut(isize, isize)) {
        if n == 0 {
            return;
        }
        let ((lanes, [src_step, dst_step]), outer) = self.plan.kept.split_inner();
        let mut od = Odometer::new(&outer, first / lanes);
        let (mut lane, mut left) = (first % lanes, n);
        while left > 0 {
            let take = (lanes - lane).min(left);
            let [src, dst] = od.offsets;
            for j in lane..lane + take {
                f(src + j as isize * src_step, dst + j as isize * dst_step);
            }
            left -= take;
            lane = 0;
            od.advance();
        }
    }

    /// Reduces flat positions `lo..hi` of the reduced dims of one output,
    /// whose source elements start at `base`; halves are combined pairwise.
    fn inner_range(
        &self,
        outer: &Dims<1>,
        run: (usize, isize),
        base: isize,
        lo: usize,
        hi: usize,
        parallel: bool,
    ) -> R::Acc {
        let n = hi - lo;
        if n <= LEAF {
            return self.inner_leaf(outer, run, base, lo, hi);
        }
        let mid = lo + (n / 2).next_multiple_of(LANES).min(n - 1);
        let (a, b) = if parallel && n >= 2 * GRAIN {
            rayon::join(
                || self.inner_range(outer, run, base, lo, mid, true),
                || self.inner_range(outer, run, base, mid, hi, true),
            )
        } else {
            (
                self.inner_range(outer, run, base, lo, mid, false),
                self.inner_range(outer, run, base, mid, hi, false),
            )
        };
        self.r.combine(a, b)
    }

    /// Reduces positions `lo..hi` (at most a leaf) run piece by run piece.
    fn inner_leaf(
        &self,
        outer: &Dims<1>,
        (run, stride): (usize, isize),
        base: isize,
        lo: usize,
        hi: usize,
    ) -> R::Acc {
        let r = self.r;
        let mut od = Odometer::new(outer, lo / run);
        let mut pos = lo % run;
        let mut at = lo;
        let mut acc = r.identity();
        while at < hi {
            let take = (run - pos).min(hi - at);
            let p = self.src_at(base + od.offsets[0] + pos as isize * stride);
            let part = if stride == 1 {
                // SAFETY: `take` elements of a unit-stride run of the plan.
                lanes(r, unsafe { std::slice::from_raw_parts(p, take) }, at)
            } else {
                (0..take).fold(r.identity(), |a, i| {
                    // SAFETY: element `pos + i` of a run of the plan.
                    let x = unsafe { *p.wrapping_offset(i as isize * stride) };
                    r.step(a, x.widen(), at + i)
                })
            };
            acc = r.combine(acc, part);
            at += take;
            pos = 0;
            od.advance();
        }
        acc
    }

    // ---- outer walk: the kept dims hold the innermost source dim ----

    fn outer(&self, parallel: bool) {
        let ((lanes, _), outer) = self.plan.kept.split_inner();
        let mut tile = lanes.min((TILE_BYTES / size_of::<R::Acc>().max(1)).max(LANES));
        let threads = rayon::current_num_threads();
        if parallel && outer.numel() * lanes.div_ceil(tile) < threads && lanes >= threads * MIN_BAND
        {
            // Too few tiles to go round: give each thread a band of lanes
            // (it then reads every row, but only its band of each).
            tile = lanes.div_ceil(threads).next_multiple_of(LANES);
        }
        let tasks = outer.numel() * lanes.div_ceil(tile);
        let by_task = parallel && tasks >= threads && self.plan.dst_disjoint;
        split_tasks(tasks, by_task, |first, n| {
            self.outer_tasks(&outer, tile, first, n, parallel && !by_task)
        });
    }

    /// Tasks `first..first + n`: each a tile of lanes of one outer output row.
    fn outer_tasks(&self, outer: &Dims<2>, tile: usize, first: usize, n: usize, parallel: bool) {
        let ((lanes, [src_step, dst_step]), _) = self.plan.kept.split_inner();
        let tiles = lanes.div_ceil(tile);
        let depth = levels(self.count);
        // On the stack up to a few KiB: a model's small reductions (a
        // mean over a sentence's tokens) allocate nothing.
        let mut acc: SmallVec<[R::Acc; 512]> = smallvec![self.r.identity(); tile];
        let mut scratch: SmallVec<[R::Acc; 2048]> = smallvec![self.r.identity(); depth * tile];
        for task in first..first + n {
            let (row, t) = (task / tiles, task % tiles);
            let [src, dst] = Odometer::new(outer, row).offsets;
            let start = t * tile;
            let len = tile.min(lanes - start);
            let acc = &mut acc[..len];
            acc.fill(self.r.identity());
            let src = src + start as isize * src_step;
            self.outer_rows(src, src_step, 0, self.count, acc, &mut scratch, parallel);
            for (j, &a) in acc.iter().enumerate() {
                let at = dst + (start + j) as isize * dst_step;
                // SAFETY: an output offset of the plan.
                unsafe { self.write(at, self.r.finish(a, self.count)) };
            }
        }
    }

    /// Adds reduced rows `lo..hi` (each `acc.len()` lanes from `base`, lane
    /// stride `step`) into `acc`, which holds the identity; halves pairwise.
    #[allow(clippy::too_many_arguments)]
    fn outer_rows(
        &self,
        base: isize,
        step: isize,
        lo: usize,
        hi: usize,
        acc: &mut [R::Acc],
        scratch: &mut [R::Acc],
        parallel: bool,
    ) {
        let n = hi - lo;
        if n <= LEAF_ROWS {
            self.outer_leaf(base, step, lo, hi, acc);
            return;
        }
        let mid = lo + n / 2;
        let r = self.r;
        if parallel && n * acc.len() >= 2 * GRAIN {
            let len = acc.len();
            let mut right = vec![r.identity(); len];
            rayon::join(
                || {
                    let mut s = vec![r.identity(); levels(mid - lo) * len];
                    self.outer_rows(base, step, lo, mid, acc, &mut s, true)
                },
                || {
                    let mut s = vec![r.identity(); levels(hi - mid) * len];
                    self.outer_rows(base, step, mid, hi, &mut right, &mut s, true)
                },
            );
            combine_into(r, acc, &right);
        } else {
            self.outer_rows(base, step, lo, mid, acc, scratch, false);
            let (right, rest) = scratch.split_at_mut(acc.len());
            right.fill(r.identity());
            self.outer_rows(base, step, mid, hi, right, rest, false);
            combine_into(r, acc, right);
        }
    }

    /// Adds rows `lo..hi` into `acc` in sequence, eight rows per pass over
    /// `acc` when the rows are contiguous (an eighth of the partials' traffic).
    fn outer_leaf(&self, base: isize, step: isize, lo: usize, hi: usize, acc: &mut [R::Acc]) {
        let r = self.r;
        let len = acc.len();
        let mut od = Odometer::new(&self.plan.reduced, lo);
        let mut row = || {
            let p = self.src_at(base + od.offsets[0]);
            od.advance();
            p
        };
        let mut at = lo;
        if step == 1 && R::In::BLOCK {
            let mut wide: SmallVec<[Wide<R>; 512]> = smallvec![<Wide<R> as Num>::ZERO; len];
            for at in lo..hi {
                // SAFETY: `len` lanes of a unit-stride source row of the plan.
                R::In::widen_block(unsafe { std::slice::from_raw_parts(row(), len) }, &mut wide);
                for (a, &x) in acc.iter_mut().zip(&wide) {
                    *a = r.step(*a, x, at);
                }
            }
            return;
        }
        if step == 1 {
            while at + 8 <= hi {
                let rows: [_; 8] = std::array::from_fn(|_| {
                    // SAFETY: `len` lanes of a unit-stride source row of the plan.
                    unsafe { std::slice::from_raw_parts(row(), len) }
                });
                for (j, a) in acc.iter_mut().enumerate() {
                    *a = (0..8).fold(*a, |v, i| r.step(v, rows[i][j].widen(), at + i));
                }
                at += 8;
            }
        }
        for at in at..hi {
            let p = row();
            if step == 1 {
                // SAFETY: `len` lanes of a unit-stride source row of the plan.
                let xs = unsafe { std::slice::from_raw_parts(p, len) };
                for (a, &x) in acc.iter_mut().zip(xs) {
                    *a = r.step(*a, x.widen(), at);
                }
            } else {
                for (j, a) in acc.iter_mut().enumerate() {
                    // SAFETY: lane `j` of a source row of the plan.
                    let x = unsafe { *p.wrapping_offset(j as isize * step) };
                    *a = r.step(*a, x.widen(), at);
                }
            }
        }
    }
}

/// `acc[j] = combine(acc[j], right[j])`.
fn combine_into<R: Reducer>(r: R, acc: &mut [R::Acc], right: &[R::Acc]) {
    for (a, &b) in acc.iter_mut().zip(right) {
        *a = r.combine(*a, b);
    }
}

/// Nesting depth of [`Walk::outer_rows`] over `rows` rows: the scratch
/// vectors it needs.
fn levels(rows: usize) -> usize {
    let mut n = rows;
    let mut depth = 0;
    while n > LEAF_ROWS {
        n = n.div_ceil(2);
        depth += 1;
    }
    depth
}
