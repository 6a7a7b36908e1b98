//! `softmax` and `log_softmax` fused over the reduced dim: one pass for the
//! maximum, one that writes `exp(x − max)` and sums it, one that scales
//! (softmax) or subtracts `max + ln(sum)` (log_softmax); each slice stays in
//! cache between them.
//!
//! The kernels take contiguous operands of one dtype: f32 and f64 are
//! computed as they are, f16 and bf16 in f32, each row (or each row of a
//! chunk of columns) widened into f32 as it is read and rounded once as it
//! is written. A slice along the last dim is a unit-stride row. Along
//! another dim, the elements of the dims after it are contiguous: a chunk
//! of up to [`CHUNK`] adjacent slices is walked row by row (each row a
//! contiguous run), its maximum and sum found in one pass with the sum
//! rescaled whenever the maximum grows, then written in a second.

use std::mem::MaybeUninit;

use rayon::prelude::*;

use super::access::{SendPtr, out_ptr, read_ptr};
use super::convert::Half;
use super::copy::copy;
use super::simd::{Isa, PREFETCH_AHEAD, WithIsa, dispatch, prefetch};
use super::stream::{fence, worth_streaming_bytes};
use super::strided::PARALLEL_THRESHOLD;
use super::vmath::exp;
use crate::ops::compose::own;
use crate::ops::{Op, Softmax};
use crate::tensor::alloc_output;
use crate::{Cpu, DType, Element, Error, Input, Layout, Output, Result};

/// `dst = softmax(src)` (or `log_softmax`) along `op.dim`, in f32 for f16
/// and bf16 (each row converted as it is read and written). A strided
/// input is copied contiguous first, a strided output written through a
/// contiguous buffer.
pub(crate) fn softmax(op: Softmax, src: Input<'_, Cpu>, mut dst: Output<'_, Cpu>) -> Result<()> {
    let name = op.name();
    let shape = op.check(&src, &dst)?;
    if shape.outer * shape.len * shape.inner == 0 {
        return Ok(());
    }
    if !dst.layout.is_contiguous() {
        let mut out = alloc_output(&Cpu, Layout::contiguous(dst.layout.shape()), dst.dtype)?;
        softmax(op, src, out.output())?;
        return copy(out.view().input(), dst);
    }
    if !src.layout.is_contiguous() || src.storage.is_none() {
        let x = own(&Cpu, &src, &dst, src.dtype)?;
        return softmax(op, x.view().input(), dst);
    }
    let slices = Slices {
        outer: shape.outer,
        len: shape.len,
        inner: shape.inner,
        log: op.log,
    };
    /// Pointers to the first elements of both operands, of `T`.
    fn firsts<T: Element>(
        name: &'static str,
        src: &Input<'_, Cpu>,
        dst: &mut Output<'_, Cpu>,
    ) -> Result<(SendPtr<T>, SendPtr<T>)> {
        let (s, d) = (read_ptr::<T>(name, src)?, out_ptr::<T>(name, dst)?);
        Ok((first(s, src.layout.offset()), first(d, dst.layout.offset())))
    }
    // SAFETY (each arm): both contiguous layouts of this shape were checked
    // in bounds; `src` is a storage of its own (`read_ptr`).
    match dst.dtype {
        DType::F32 => {
            let (s, d) = firsts::<f32>(name, &src, &mut dst)?;
            // SAFETY: as said above the match.
            unsafe { slices.run(s, d) };
        }
        DType::F16 => {
            let (s, d) = firsts::<half::f16>(name, &src, &mut dst)?;
            // SAFETY: as said above the match.
            unsafe { slices.run(s, d) };
        }
        DType::BF16 => {
            let (s, d) = firsts::<half::bf16>(name, &src, &mut dst)?;
            // SAFETY: as said above the match.
            unsafe { slices.run(s, d) };
        }
        DType::F64 => {
            let (s, d) = firsts::<f64>(name, &src, &mut dst)?;
            // SAFETY: as said above the match.
            unsafe { slices.run_f64(s, d) };
        }
        dtype => return Err(Error::Unsupported { op: name, dtype }),
    }
    Ok(())
}

/// `softmax` over the rows of each item of a ragged batch (the ragged dim
/// of a nested tensor): item `i` is the `[offsets[i + 1] − offsets[i],
/// inner]` block of the contiguous `src` that starts at row `offsets[i]`,
/// reduced over its rows by the dense kernels (f16 and bf16 computed in
/// f32 and rounded once), items in parallel. Rows past the last offset
/// are left as they are in `dst`.
///
/// # Errors
/// A dtype other than f32, f64, f16 and bf16.
///
/// # Panics
/// When `offsets` does not rise from 0 to at most the rows of `src`
/// (`len / inner`), or `dst` is not as long as `src`: the nested tensor's
/// invariants.
pub(crate) fn ragged<T: Element>(
    src: &[T],
    dst: &mut [T],
    offsets: &[usize],
    inner: usize,
) -> Result<()> {
    let rows = offsets.last().copied().unwrap_or(0);
    assert!(
        offsets.first().is_none_or(|&o| o == 0)
            && offsets.windows(2).all(|w| w[0] <= w[1])
            && rows.checked_mul(inner).is_some_and(|n| n <= src.len())
            && dst.len() == src.len(),
        "ragged softmax: offsets {offsets:?} are not rows of {inner} of {} elements",
        src.len()
    );
    if rows * inner == 0 {
        return Ok(());
    }
    let (s, d) = (src.as_ptr().cast_mut(), dst.as_mut_ptr());
    /// Each item's block through `run(slices, src, dst)`.
    fn items<T: Copy>(
        (s, d): (*mut T, *mut T),
        offsets: &[usize],
        inner: usize,
        run: impl Fn(Slices, SendPtr<T>, SendPtr<T>) + Sync + Send,
    ) {
        let (s, d) = (SendPtr(s), SendPtr(d));
        let per_item = (offsets.last().copied().unwrap_or(0) * inner) / (offsets.len().max(2) - 1);
        offsets
            .par_windows(2)
            .with_min_len((PARALLEL_THRESHOLD / per_item.max(1)).max(1))
            .for_each(|w| {
                let slices = Slices {
                    outer: 1,
                    len: w[1] - w[0],
                    inner,
                    log: false,
                };
                if slices.len > 0 {
                    run(slices, first(s, w[0] * inner), first(d, w[0] * inner));
                }
            });
    }
    // SAFETY (each arm): `T` is the arm's type (its DTYPE); the item blocks
    // are disjoint and lie within `src` and `dst` (the assert), which are
    // distinct slices.
    match T::DTYPE {
        DType::F32 => items((s.cast(), d.cast()), offsets, inner, |sl, s, d| {
            // SAFETY: as said above the match.
            unsafe { sl.run::<f32>(s, d) }
        }),
        DType::F16 => items((s.cast(), d.cast()), offsets, inner, |sl, s, d| {
            // SAFETY: as said above the match.
            unsafe { sl.run::<half::f16>(s, d) }
        }),
        DType::BF16 => items((s.cast(), d.cast()), offsets, inner, |sl, s, d| {
            // SAFETY: as said above the match.
            unsafe { sl.run::<half::bf16>(s, d) }
        }),
        DType::F64 => items((s.cast(), d.cast()), offsets, inner, |sl, s, d| {
            // SAFETY: as said above the match.
            unsafe { sl.run_f64(s, d) }
        }),
        dtype => {
            return Err(Error::Unsupported {
                op: "softmax",
                dtype,
            });
        }
    }
    Ok(())
}

/// The pointer to the first element of a layout at `offset`.
fn first<T>(p: SendPtr<T>, offset: usize) -> SendPtr<T> {
    SendPtr(p.get().wrapping_add(offset))
}

/// A contiguous tensor seen as `[outer, len, inner]`, reduced over `len`.
#[derive(Copy, Clone)]
struct Slices {
    outer: usize,
    len: usize,
    inner: usize,
    log: bool,
}

impl Slices {
    /// # Safety
    /// `src` and `dst` hold `outer·len·inner` elements each, and do not
    /// overlap.
    unsafe fn run<T: RowElem>(self, src: SendPtr<T>, dst: SendPtr<T>) {
        // Along the last dim a task is a row; along another, a chunk of
        // adjacent slices of one `[len, inner]` block.
        let bytes = (self.outer * self.len * self.inner).saturating_mul(size_of::<T>());
        let stream = self.inner == 1 && T::STREAMS && worth_streaming_bytes(bytes);
        let width = if self.inner == 1 {
            1
        } else {
            self.chunk_width()
        };
        let chunks = self.inner.div_ceil(width);
        let each = |task: usize| {
            let (o, c) = (task / chunks, task % chunks);
            let at = o * self.len * self.inner + c * width;
            // SAFETY: slice `o` (columns `c·width..` of it) lies within both
            // buffers.
            let (s, d) = unsafe { (src.get().add(at).cast_const(), dst.get().add(at)) };
            dispatch(Slice {
                src: s,
                dst: d,
                len: self.len,
                inner: self.inner,
                width: width.min(self.inner - c * width),
                log: self.log,
                stream,
            });
        };
        let size = self.len * width;
        self.spread(self.outer * chunks, size, each);
    }

    /// Slices of a column chunk: as wide as [`CHUNK`] allows (each row of a
    /// chunk is one contiguous run, long enough for the prefetchers), but
    /// narrower when that leaves threads idle; a multiple of 16 lanes.
    fn chunk_width(&self) -> usize {
        let threads = rayon::current_num_threads();
        let wanted = threads.div_ceil(self.outer).max(self.inner.div_ceil(CHUNK));
        self.inner.div_ceil(wanted).next_multiple_of(16).min(CHUNK)
    }

    /// # Safety
    /// As [`Slices::run_f32`], for f64.
    unsafe fn run_f64(self, src: SendPtr<f64>, dst: SendPtr<f64>) {
        let (len, inner, log) = (self.len, self.inner, self.log);
        self.spread(self.outer, len * inner, |o| {
            for i in 0..inner {
                let at = o * len * inner + i;
                // SAFETY: element `at + j·inner` is in both buffers for j < len.
                unsafe { slice_f64(src.get().add(at), dst.get().add(at), len, inner, log) };
            }
        });
    }

    /// `f(t)` for every task `t < tasks` of `size` elements each, on several
    /// threads when there is work (about the parallel threshold's worth of
    /// elements handed to a thread at a time).
    fn spread(&self, tasks: usize, size: usize, f: impl Fn(usize) + Sync + Send) {
        let total = self.outer * self.len * self.inner;
        if total < PARALLEL_THRESHOLD || rayon::current_num_threads() == 1 {
            (0..tasks).for_each(f);
        } else {
            (0..tasks)
                .into_par_iter()
                .with_min_len((PARALLEL_THRESHOLD / size.max(1)).max(1))
                .for_each(f);
        }
    }
}

/// Adjacent slices reduced together: a unit-stride row of `len` when
/// `inner` is 1, else the `width` columns at `src`/`dst` of a `[len, inner]`
/// block.
struct Slice<T> {
    src: *const T,
    dst: *mut T,
    len: usize,
    inner: usize,
    width: usize,
    log: bool,
    /// The output is larger than the caches: rows are computed in a
    /// scratch row and streamed out of it.
    stream: bool,
}

/// Elements of the scratch row of a streamed output (32 KiB); longer rows
/// are written in place.
const SCRATCH: usize = 8192;

/// The most slices of a column chunk: their running maxima and sums
/// (16 KiB) stay in L1.
const CHUNK: usize = 2048;

impl<T: RowElem> WithIsa for Slice<T> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        // SAFETY: `src`/`dst` reach the slices' elements (`Slices::run`).
        unsafe {
            if self.inner == 1 {
                T::row(isa, self.src, self.dst, self.len, self.log, self.stream);
            } else {
                columns(isa, &self);
            }
        }
    }
}

/// The element types of the kernels: f32 as it is; f16 and bf16 widened
/// into f32 a row at a time as they are read, and rounded once as they
/// are written.
trait RowElem: Element {
    /// Outputs larger than the caches are streamed (f32 only: a row of
    /// halves is narrowed from a scratch row in cache).
    const STREAMS: bool;

    /// One unit-stride row of `len`.
    ///
    /// # Safety
    /// `src` is readable and `dst` writable for `len` elements; they do not
    /// overlap.
    unsafe fn row<I: Isa>(
        isa: I,
        src: *const Self,
        dst: *mut Self,
        len: usize,
        log: bool,
        stream: bool,
    );

    /// `n` elements at `p` as f32: `p` itself, or widened into `buf`.
    ///
    /// # Safety
    /// `p` is readable and `buf` writable for `n` elements.
    unsafe fn widened(p: *const Self, n: usize, buf: *mut f32) -> *const f32;

    /// Where the f32 results for `p` go: `p` itself, or `buf`.
    fn target(p: *mut Self, buf: *mut f32) -> *mut f32;

    /// Moves `n` results from [`RowElem::target`] into `p`, rounded.
    ///
    /// # Safety
    /// `buf` is readable and `p` writable for `n` elements.
    unsafe fn finish(buf: *const f32, p: *mut Self, n: usize);
}

impl RowElem for f32 {
    const STREAMS: bool = true;

    #[inline(always)]
    unsafe fn row<I: Isa>(
        isa: I,
        src: *const f32,
        dst: *mut f32,
        len: usize,
        log: bool,
        stream: bool,
    ) {
        // SAFETY: the caller's contract.
        unsafe { row(isa, src, dst, len, log, stream) }
    }

    #[inline(always)]
    unsafe fn widened(p: *const f32, _: usize, _: *mut f32) -> *const f32 {
        p
    }

    #[inline(always)]
    fn target(p: *mut f32, _: *mut f32) -> *mut f32 {
        p
    }

    #[inline(always)]
    unsafe fn finish(_: *const f32, _: *mut f32, _: usize) {}
}

macro_rules! half_rows {
    ($($t:ty),*) => {$(
        impl RowElem for $t {
            const STREAMS: bool = false;

            #[inline(always)]
            unsafe fn row<I: Isa>(isa: I, src: *const $t, dst: *mut $t, len: usize, log: bool, _: bool) {
                let mut stack = [const { MaybeUninit::<f32>::uninit() }; SCRATCH];
                let mut heap = vec![];
                let scratch = if len <= SCRATCH {
                    stack.as_mut_ptr().cast::<f32>()
                } else {
                    heap.resize(len, 0f32);
                    heap.as_mut_ptr()
                };
                // SAFETY: the caller's contract; the scratch row holds
                // `len` f32, all written by the widening before they are
                // read, and the passes read each element before they write
                // it.
                unsafe {
                    let x = Self::widened(src, len, scratch);
                    let last = first_passes(isa, x, scratch, len, log);
                    last_pass(isa, [x, scratch.cast_const()], scratch, len, last, false);
                    Self::finish(scratch, dst, len);
                }
            }

            #[inline(always)]
            unsafe fn widened(p: *const $t, n: usize, buf: *mut f32) -> *const f32 {
                // SAFETY: the caller's contract.
                unsafe {
                    let (from, to) = (std::slice::from_raw_parts(p, n), std::slice::from_raw_parts_mut(buf, n));
                    <$t as Half>::widen_run(from, to);
                }
                buf
            }

            #[inline(always)]
            fn target(_: *mut $t, buf: *mut f32) -> *mut f32 {
                buf
            }

            #[inline(always)]
            unsafe fn finish(buf: *const f32, p: *mut $t, n: usize) {
                // SAFETY: the caller's contract.
                unsafe {
                    let (from, to) = (std::slice::from_raw_parts(buf, n), std::slice::from_raw_parts_mut(p, n));
                    <$t as Half>::narrow_run(from, to);
                }
            }
        }
    )*};
}
half_rows!(half::f16, half::bf16);

/// One unit-stride row of `len`; with `stream`, its exponentials written
/// in a scratch row (in L1) and the last pass streamed from there to `dst`:
/// the output's lines are then written without being read first, and the
/// passes stay in cache.
///
/// # Safety
/// `src` is readable and `dst` writable for `len` f32; they do not overlap.
#[inline(always)]
unsafe fn row<I: Isa>(isa: I, src: *const f32, dst: *mut f32, len: usize, log: bool, stream: bool) {
    // SAFETY: the caller's contract; the scratch row holds `len` f32, all
    // written by `first_passes` before the last pass reads them.
    unsafe {
        if stream && len <= SCRATCH {
            let mut scratch = [const { MaybeUninit::<f32>::uninit() }; SCRATCH];
            let exps = scratch.as_mut_ptr().cast::<f32>();
            let last = first_passes(isa, src, exps, len, log);
            last_pass(isa, [src, exps.cast_const()], dst, len, last, true);
            fence();
        } else {
            let last = first_passes(isa, src, dst, len, log);
            last_pass(isa, [src, dst.cast_const()], dst, len, last, false);
        }
    }
}

/// What the last pass over a row writes.
#[derive(Copy, Clone)]
enum Last {
    /// `e·r` from the exponentials `e` (softmax, `r = 1/Σ`).
    Scale(f32),
    /// `x − c` from the input (log_softmax, `c = max + ln Σ`).
    Shift(f32),
    /// NaN (the row holds one).
    Nan,
}

/// The maximum of a unit-stride row of `len` at `src`, then `exp(x − max)`
/// written to `exps` (unless `log`) and summed: what the last pass writes.
///
/// # Safety
/// `src` is readable and `exps` writable for `len` f32; they do not overlap.
#[inline(always)]
unsafe fn first_passes<I: Isa>(
    isa: I,
    src: *const f32,
    exps: *mut f32,
    len: usize,
    log: bool,
) -> Last {
    let n = I::LANES;
    // SAFETY: every access is below `len` (the caller's contract).
    unsafe {
        // The maximum: masked-off lanes of the last vector read as −∞.
        let mut m = isa.splat(f32::NEG_INFINITY);
        let mut j = 0;
        while j + n <= len {
            prefetch(src.wrapping_add(j + PREFETCH_AHEAD));
            m = isa.max(isa.load(src.add(j)), m);
            j += n;
        }
        let mut max = isa.max_lane(m);
        for k in j..len {
            let v = *src.add(k);
            max = if v.is_nan() || v > max { v } else { max };
        }
        if max.is_nan() {
            return Last::Nan;
        }
        // exp(x − max), all −∞ rows give NaN as PyTorch (−∞ − −∞).
        let mv = isa.splat(max);
        let mut s = isa.splat(0.0);
        let mut j = 0;
        while j < len {
            let lanes = n.min(len - j);
            // The next row (of a tensor of rows) comes in while this one
            // is computed from cache.
            prefetch(src.wrapping_add(len + j));
            let e = exp(isa, isa.sub(isa.load_n(src.add(j), lanes), mv));
            let e = if lanes == n {
                e
            } else {
                // Lanes past the end: the masked load read 0, so e⁰ = 1 there.
                isa.select(
                    isa.lt(isa.splat(0.0), tail_mask(isa, lanes)),
                    e,
                    isa.splat(0.0),
                )
            };
            s = isa.add(s, e);
            if !log {
                isa.store_n(exps.add(j), lanes, e);
            }
            j += n;
        }
        let sum = isa.sum(s);
        if log {
            Last::Shift(max + sum.ln())
        } else {
            Last::Scale(1.0 / sum)
        }
    }
}

/// `lanes` values of the last pass from the input or the exponentials at
/// `[src, exps]`. (A function, not a closure: a closure left not inlined
/// is compiled without the instruction set's features, each intrinsic in
/// it a call.)
///
/// # Safety
/// Both are readable for `lanes` f32.
#[inline(always)]
unsafe fn last_value<I: Isa>(
    isa: I,
    last: Last,
    [src, exps]: [*const f32; 2],
    lanes: usize,
) -> I::F {
    // SAFETY: the caller's contract.
    unsafe {
        match last {
            Last::Scale(r) => isa.mul(isa.load_n(exps, lanes), isa.splat(r)),
            Last::Shift(c) => isa.sub(isa.load_n(src, lanes), isa.splat(c)),
            Last::Nan => isa.splat(f32::NAN),
        }
    }
}

/// Writes `dst` of `len` as `last` says, from the input or the
/// exponentials (`[src, exps]`, `exps` possibly `dst` itself); with
/// `stream`, the aligned vectors with streaming stores.
///
/// # Safety
/// `src` and `exps` are readable and `dst` writable for `len` f32; `dst`
/// does not overlap `src`.
#[inline(always)]
unsafe fn last_pass<I: Isa>(
    isa: I,
    [src, exps]: [*const f32; 2],
    dst: *mut f32,
    len: usize,
    last: Last,
    stream: bool,
) {
    let n = I::LANES;
    // Streamed: plain stores up to the first address aligned for a
    // vector, streaming stores for the whole vectors after.
    let head = if stream {
        dst.align_offset(4 * n).min(len)
    } else {
        len
    };
    // SAFETY: every access is below `len`; streamed vectors start at
    // `dst + head + k·n`, aligned to `4·n` bytes.
    unsafe {
        let mut j = 0;
        while j < head {
            let lanes = n.min(head - j);
            let v = last_value(isa, last, [src.add(j), exps.add(j)], lanes);
            isa.store_n(dst.add(j), lanes, v);
            j += lanes;
        }
        while j + n <= len {
            let v = last_value(isa, last, [src.add(j), exps.add(j)], n);
            isa.store_stream(dst.add(j), v);
            j += n;
        }
        if j < len {
            let v = last_value(isa, last, [src.add(j), exps.add(j)], len - j);
            isa.store_n(dst.add(j), len - j, v);
        }
    }
}

/// 1 in the first `lanes` lanes, 0 in the others.
#[inline(always)]
fn tail_mask<I: Isa>(isa: I, lanes: usize) -> I::F {
    let ones = [1f32; 16];
    // SAFETY: `ones` holds 16 ≥ `lanes` f32.
    unsafe { isa.load_part(ones.as_ptr(), lanes) }
}

/// The `width ≤ CHUNK` slices of a column chunk. The first pass keeps, per
/// slice, the maximum `m` so far and `Σ exp(x − m)`, rescaling the sum by
/// `exp(m_old − m_new)` when the maximum grows; the second writes
/// `exp(x − m)/sum` (or `x − m − ln sum`). A NaN makes its sum NaN for good,
/// and an all −∞ slice leaves a zero sum: both give NaN, as PyTorch.
///
/// # Safety
/// Elements `j·inner + l`, `j < len`, `l < width`, are readable at `src` and
/// writable at `dst`.
#[inline(always)]
unsafe fn columns<I: Isa, T: RowElem>(isa: I, s: &Slice<T>) {
    let (n, width, inner) = (I::LANES, s.width, s.inner);
    // Only the first `width` entries are set and read (a narrow chunk does
    // not pay for initialising all of them).
    let mut maxima = [const { MaybeUninit::<f32>::uninit() }; CHUNK];
    let mut sums = [const { MaybeUninit::<f32>::uninit() }; CHUNK];
    // A row of the chunk in f32 (halves only).
    let mut row_f32 = [const { MaybeUninit::<f32>::uninit() }; CHUNK];
    let (max, sum, buf) = (
        maxima.as_mut_ptr().cast::<f32>(),
        sums.as_mut_ptr().cast::<f32>(),
        row_f32.as_mut_ptr().cast::<f32>(),
    );
    let minus_inf = isa.splat(f32::NEG_INFINITY);
    let zero = isa.splat(0.0);
    // SAFETY: every access is below `len·inner` at `src`/`dst` and below
    // `width ≤ CHUNK` in the arrays (the caller's contract), whose first
    // `width` entries are written before anything reads them.
    unsafe {
        for l in 0..width {
            max.add(l).write(f32::NEG_INFINITY);
            sum.add(l).write(0.0);
        }
        for j in 0..s.len {
            let from = s.src.add(j * inner);
            let row = T::widened(from, width, buf);
            let mut l = 0;
            while l < width {
                let lanes = n.min(width - l);
                // The same columns of the next row: a chunk's row is
                // short, and the hardware prefetcher stops at its end.
                prefetch(from.wrapping_add(l + inner).cast());
                let x = isa.load_n(row.add(l), lanes);
                let m_old = isa.load_n(max.add(l), lanes);
                let t = isa.load_n(sum.add(l), lanes);
                // exp(−∞ − −∞) would be NaN: a −∞ maximum counts as 0, and
                // a sum still 0 is not rescaled.
                let grows = isa.lt(m_old, x);
                let t = if isa.any(grows) {
                    let m = isa.max(x, m_old);
                    let unseen = isa.eq(m_old, minus_inf);
                    let base = isa.select(isa.eq(m, minus_inf), zero, m);
                    let rescale = isa.select(unseen, zero, exp(isa, isa.sub(m_old, m)));
                    isa.store_n(max.add(l), lanes, m);
                    isa.fma(t, rescale, exp(isa, isa.sub(x, base)))
                } else {
                    // The maximum holds (the usual case after a few rows).
                    let base = isa.select(isa.eq(m_old, minus_inf), zero, m_old);
                    isa.add(t, exp(isa, isa.sub(x, base)))
                };
                isa.store_n(sum.add(l), lanes, t);
                l += n;
            }
        }
        // Per slice: the factor (softmax) or the shift (log_softmax).
        let mut l = 0;
        while l < width {
            let lanes = n.min(width - l);
            let m = isa.load_n(max.add(l), lanes);
            let t = isa.load_n(sum.add(l), lanes);
            let v = if s.log {
                isa.add(m, super::vmath::log_lanes(isa, t))
            } else {
                isa.div(isa.splat(1.0), t)
            };
            isa.store_n(sum.add(l), lanes, v);
            l += n;
        }
        for j in 0..s.len {
            let (src_row, dst_row) = (s.src.add(j * inner), s.dst.add(j * inner));
            let (from, to) = (T::widened(src_row, width, buf), T::target(dst_row, buf));
            let mut l = 0;
            while l < width {
                let lanes = n.min(width - l);
                prefetch(src_row.wrapping_add(l + inner).cast());
                let x = isa.load_n(from.add(l), lanes);
                let v = isa.load_n(sum.add(l), lanes);
                let y = if s.log {
                    isa.sub(x, v)
                } else {
                    let m = isa.load_n(max.add(l), lanes);
                    isa.mul(exp(isa, isa.sub(x, m)), v)
                };
                isa.store_n(to.add(l), lanes, y);
                l += n;
            }
            T::finish(buf, dst_row, width);
        }
    }
}

/// One f64 slice of `len` elements `stride` apart.
///
/// # Safety
/// Elements `j·stride`, `j < len`, are readable at `src` and writable at `dst`.
unsafe fn slice_f64(src: *const f64, dst: *mut f64, len: usize, stride: usize, log: bool) {
    // SAFETY: the caller's contract.
    unsafe {
        let x = |j: usize| *src.add(j * stride);
        let mut max = f64::NEG_INFINITY;
        for j in 0..len {
            let v = x(j);
            max = if v.is_nan() || v > max { v } else { max };
        }
        let mut sum = 0.0;
        for j in 0..len {
            let e = (x(j) - max).exp();
            sum += e;
            if !log {
                *dst.add(j * stride) = e;
            }
        }
        for j in 0..len {
            let p = dst.add(j * stride);
            *p = if log { x(j) - max - sum.ln() } else { *p / sum };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::simd::{available, dispatch_at};

    /// A streamed row (exponentials in the scratch row, streaming stores
    /// from the first aligned vector) writes the bits of a row computed in
    /// place, at every alignment of the output, and nothing around it.
    #[test]
    fn streamed_rows_equal_rows_in_place() {
        let src: Vec<f32> = (0..300)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 7.0)
            .collect();
        let mut with_nan = src.clone();
        with_nan[77] = f32::NAN;
        for level in available() {
            for input in [&src, &with_nan] {
                for len in [1, 7, 16, 33, 300] {
                    for at in 0..16 {
                        for log in [false, true] {
                            let [a, b] = [false, true].map(|stream| {
                                let mut dst = vec![-7.0f32; 340];
                                let slice = Slice {
                                    src: input.as_ptr(),
                                    // SAFETY: `at + len` ≤ 340.
                                    dst: unsafe { dst.as_mut_ptr().add(at) },
                                    len,
                                    inner: 1,
                                    width: 1,
                                    log,
                                    stream,
                                };
                                dispatch_at(level, slice);
                                dst
                            });
                            let bits =
                                |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                            assert_eq!(
                                bits(&a),
                                bits(&b),
                                "{level:?}, len {len} at {at}, log {log}"
                            );
                            assert!(a[..at].iter().chain(&a[at + len..]).all(|&x| x == -7.0));
                        }
                    }
                }
            }
        }
    }
}
