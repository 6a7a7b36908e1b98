//! Copies between any two layouts, converting between any two dtypes.
//!
//! Fast paths: runs that are contiguous on both sides and of one dtype are
//! `memmove`s, or streamed past the caches when the copy is larger than
//! them ([`super::stream`]); a transposed walk (the output unit-stride, the input not) is
//! copied tile by tile so both sides stay in cache, 4-byte elements of one
//! dtype in registers ([`super::transpose`]); f32 ↔ f16/bf16 convert
//! with branch-free bit arithmetic that vectorises.

use half::{bf16, f16};

use super::access::{SendPtr, bytes, in_ptr, out_ptr};
use super::convert::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use super::map::map1;
use super::stream::{STREAM_MIN_RUN, copy_run, fence, stream_run, worth_streaming};
use super::strided::Plan;
use super::transpose;
use crate::{Cpu, DType, Element, Error, Input, Output, Result, cast, with_dtype};

/// Side of the square tiles a transposed copy walks.
const TILE: usize = 32;

/// `dst.copy_(src)` with conversion.
pub(crate) fn copy(src: Input<'_, Cpu>, mut dst: Output<'_, Cpu>) -> Result<()> {
    let (src, dst) = (&src, &mut dst);
    match (src.dtype, dst.dtype) {
        (s, d) if s == d => match s.size() {
            1 => same_size::<u8>(src, dst),
            2 => same_size::<i16>(src, dst),
            4 => same_size::<i32>(src, dst),
            8 => same_size::<i64>(src, dst),
            _ => same_size::<num_complex::Complex<f64>>(src, dst),
        },
        (DType::F32, DType::BF16) => convert(src, dst, f32_to_bf16),
        (DType::F32, DType::F16) => convert(src, dst, f32_to_f16),
        (DType::BF16, DType::F32) => convert(src, dst, bf16_to_f32),
        (DType::F16, DType::F32) => convert(src, dst, f16_to_f32),
        (DType::BF16, DType::F16) => convert(src, dst, |x: bf16| f32_to_f16(bf16_to_f32(x))),
        (DType::F16, DType::BF16) => convert(src, dst, |x: f16| f32_to_bf16(f16_to_f32(x))),
        _ => {
            with_dtype!(dst.dtype, O => with_dtype!(src.dtype, S => convert(src, dst, cast::<S, O>)))
        }
    }
}

/// A copy between layouts of one dtype, its bits moved as `U`, an integer
/// of its size.
fn same_size<U: Element>(src: &Input<'_, Cpu>, dst: &mut Output<'_, Cpu>) -> Result<()> {
    let (po, ps) = pointers::<U, U>(src, dst)?;
    let plan = plan(po, ps, src, dst);
    if plan.inner_strides() == [1, 1] {
        let size = size_of::<U>();
        let stream = worth_streaming::<U, 2>(&plan);
        if stream && plan.inner_len() * size < STREAM_MIN_RUN && runs_abut(&plan) {
            // SAFETY: `pointers` checked both layouts in bounds.
            unsafe { copy_tiles(&plan, po, ps) };
            return Ok(());
        }
        plan.par_for_runs(|[oo, os], len| {
            let (from, to) = (ps.get().wrapping_add(os), po.get().wrapping_add(oo));
            // SAFETY: the runs are in bounds of both storages; `copy_run`
            // moves overlapping runs (an input aliasing the output) with a
            // memmove.
            unsafe { copy_run(from.cast_const().cast(), to.cast(), len * size, stream) }
        });
        return Ok(());
    }
    #[cfg(target_arch = "x86_64")]
    if size_of::<U>() == 4
        && transpose::available()
        && independent(src, dst)
        && is_transposition(&plan)
        && plan.outer().inner_strides()[1] == 1
    {
        let stream = worth_streaming::<U, 2>(&plan);
        let (po, ps) = (SendPtr(po.get().cast()), SendPtr(ps.get().cast()));
        // SAFETY: `pointers` checked both layouts in bounds; the output's
        // elements are distinct and the input does not alias them; the CPU
        // has AVX2; the input is unit-stride along the output's rows.
        unsafe { transpose4(&plan, po, ps, stream) };
        return Ok(());
    }
    // SAFETY: as in `convert`.
    unsafe { walk(&plan, po, ps, src, dst, |x: U| x) };
    Ok(())
}

/// A transposition of 4-byte elements whose input is unit-stride along the
/// output's rows: [`transpose::transpose_rows`] on each thread's rows.
///
/// # Safety
/// As [`tiled`]; [`transpose::available`] is true and the input's stride
/// along the output's rows is 1.
#[cfg(target_arch = "x86_64")]
unsafe fn transpose4(plan: &Plan<2>, po: SendPtr<u32>, ps: SendPtr<u32>, stream: bool) {
    let done = || {
        if stream {
            fence();
        }
    };
    // SAFETY: forwarded.
    unsafe {
        for_row_blocks(
            plan,
            po,
            ps,
            done,
            |o, s, rows, cols, [so_row, _, _, si_col]| {
                transpose::transpose_rows(o, s, (rows, cols), (so_row, si_col), stream);
            },
        )
    }
}

/// True when each run of the output starts where the one before it ends
/// (the output contiguous along its two innermost dims).
fn runs_abut(plan: &Plan<2>) -> bool {
    let n = plan.shape().len();
    n >= 2 && plan.strides(0)[n - 2] == plan.inner_len() as isize
}

/// Copies short runs of `U` that tile the output (windows, narrow rows)
/// with streaming stores: lines are filled run after run, one fence per
/// thread. The walk is over rows of runs (the plan without its innermost
/// dim), each row a loop with fixed strides, so that a run of 64 bytes
/// costs a few instructions, not a call.
///
/// # Safety
/// `plan`'s operands (output, input) are in bounds of `po` and `ps`.
unsafe fn copy_tiles<U: Copy>(plan: &Plan<2>, po: SendPtr<U>, ps: SendPtr<U>) {
    let bytes = plan.inner_len() * size_of::<U>();
    let rows = plan.outer();
    let [so, ss] = rows.inner_strides();
    rows.par_for_runs_then(
        plan.inner_len(),
        |[oo, os], count| {
            let mut to = po.get().wrapping_add(oo);
            let mut from = ps.get().cast_const().wrapping_add(os);
            for _ in 0..count {
                // SAFETY: each run is in bounds of both storages;
                // `stream_run` moves a run that overlaps its source.
                unsafe { stream_run(from.cast(), to.cast(), bytes) };
                to = to.wrapping_offset(so);
                from = from.wrapping_offset(ss);
            }
        },
        fence,
    );
}

/// `dst[i] = f(src[i])` for a conversion `f` from `S` to `O`.
fn convert<S: Element, O: Element>(
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(S) -> O + Copy + Sync,
) -> Result<()> {
    if (src.dtype, dst.dtype) != (S::DTYPE, O::DTYPE) {
        return Err(Error::DTypeMismatch {
            op: "copy_",
            expected: S::DTYPE,
            got: src.dtype,
        });
    }
    let (po, ps) = pointers::<S, O>(src, dst)?;
    let plan = plan(po, ps, src, dst);
    // SAFETY: `pointers` checked both layouts in bounds of their storages.
    unsafe { walk(&plan, po, ps, src, dst, f) };
    Ok(())
}

/// The base pointers as `O` and `S`, element types of the sizes of `dst`'s
/// and `src`'s dtypes, after `access`'s checks on the operands so retyped.
fn pointers<S: Element, O: Element>(
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
) -> Result<(SendPtr<O>, SendPtr<S>)> {
    if src.dtype.size() != S::DTYPE.size() || dst.dtype.size() != O::DTYPE.size() {
        return Err(Error::DTypeMismatch {
            op: "copy_",
            expected: dst.dtype,
            got: src.dtype,
        });
    }
    let mut moved_dst = Output {
        storage: &mut *dst.storage,
        layout: dst.layout.clone(),
        dtype: O::DTYPE,
    };
    let po = out_ptr::<O>("copy_", &mut moved_dst)?;
    let moved_src = Input {
        storage: src.storage,
        layout: src.layout.clone(),
        dtype: S::DTYPE,
    };
    let ps = in_ptr::<S>("copy_", &moved_src, &moved_dst, bytes(po))?;
    Ok((po, ps))
}

fn plan<S, O>(
    po: SendPtr<O>,
    ps: SendPtr<S>,
    src: &Input<'_, Cpu>,
    dst: &Output<'_, Cpu>,
) -> Plan<2> {
    let mut plan = Plan::new([&dst.layout, &src.layout]);
    plan.restrict_aliasing(
        (po.get() as usize, &dst.layout),
        &[(ps.get() as usize, &src.layout)],
    );
    plan
}

/// Walks `plan` in tiles when it is a transposition of independent
/// operands, else run by run.
///
/// # Safety
/// The pointers come from `pointers` for these operands.
unsafe fn walk<S: Copy, O: Element>(
    plan: &Plan<2>,
    po: SendPtr<O>,
    ps: SendPtr<S>,
    src: &Input<'_, Cpu>,
    dst: &Output<'_, Cpu>,
    f: impl Fn(S) -> O + Copy + Sync,
) {
    if independent(src, dst) && is_transposition(plan) {
        // SAFETY: forwarded.
        unsafe { tiled(plan, po, ps, f) }
    } else {
        // SAFETY: forwarded.
        unsafe { map1((po, &dst.layout), (ps, &src.layout), 1, f) }
    }
}

/// Whether blocks may reorder the writes: the output's elements are
/// distinct and the input does not read them.
fn independent(src: &Input<'_, Cpu>, dst: &Output<'_, Cpu>) -> bool {
    src.storage.is_some() && dst.layout.is_non_overlapping()
}

/// True when the output is unit-stride along the run but the input moves
/// faster along the next dim out: reading run by run would touch a new
/// cache line for each element.
fn is_transposition(plan: &Plan<2>) -> bool {
    let n = plan.shape().len();
    if n < 2 || plan.inner_len() < TILE / 2 || plan.shape()[n - 2] < TILE / 2 {
        return false;
    }
    let [so, si] = plan.inner_strides();
    let si_outer = plan.strides(1)[n - 2];
    so == 1 && si_outer != 0 && si_outer.unsigned_abs() < si.unsigned_abs()
}

/// Copies the two innermost dims in `TILE`×`TILE` blocks, rows of blocks
/// shared among threads. Each block goes through a small buffer: the input
/// read along its unit-stride dim, the output written along its own, so
/// every cache line on either side is touched once, even at power-of-two
/// strides that would map a whole column of a block to one cache set.
///
/// # Safety
/// The pointers are in bounds for the plan's offsets (as for [`map1`]); the
/// output's elements are distinct and the input does not alias them, so
/// blocks may be written in any order and on any thread.
unsafe fn tiled<S: Copy, O: Element>(
    plan: &Plan<2>,
    po: SendPtr<O>,
    ps: SendPtr<S>,
    f: impl Fn(S) -> O + Copy + Sync,
) {
    // SAFETY: forwarded; the unit-stride case is spelled out so that its
    // loops are compiled with constant strides.
    unsafe {
        for_row_blocks(
            plan,
            po,
            ps,
            || {},
            |o, s, rows, cols, strides| {
                let [so_row, so_col, si_row, si_col] = strides;
                if (si_row, so_col) == (1, 1) {
                    tile_rows(o, s, rows, cols, [so_row, 1, 1, si_col], &f);
                } else {
                    tile_rows(o, s, rows, cols, strides, &f);
                }
            },
        )
    }
}

/// Calls `copy(o, s, rows, cols, [so_row, so_col, si_row, si_col])` on
/// pieces of the rows of the two innermost dims, shared among threads,
/// each thread calling `done()` after its pieces.
///
/// # Safety
/// As [`tiled`].
unsafe fn for_row_blocks<S: Copy, O: Copy>(
    plan: &Plan<2>,
    po: SendPtr<O>,
    ps: SendPtr<S>,
    done: impl Fn() + Sync,
    copy: impl Fn(*mut O, *const S, usize, usize, [isize; 4]) + Sync,
) {
    let cols = plan.inner_len();
    let [so_col, si_col] = plan.inner_strides();
    let rows_plan = plan.outer();
    let [so_row, si_row] = rows_plan.inner_strides();
    rows_plan.par_for_runs_then(
        cols,
        |[oo, os], rows| {
            // SAFETY: the offsets start rows of the walk.
            let (o, s) = unsafe { (po.get().add(oo), ps.get().add(os).cast_const()) };
            copy(o, s, rows, cols, [so_row, so_col, si_row, si_col]);
        },
        done,
    );
}

/// Copies `rows`×`cols` elements from `s` to `o` block by block; `strides`
/// are the output's row and column strides, then the input's.
///
/// # Safety
/// Every (row, col) of the block is in bounds on both sides, and no other
/// thread writes those output elements.
#[inline(always)]
unsafe fn tile_rows<S: Copy, O: Element>(
    o: *mut O,
    s: *const S,
    rows: usize,
    cols: usize,
    [so_row, so_col, si_row, si_col]: [isize; 4],
    f: &impl Fn(S) -> O,
) {
    let mut block = [O::ZERO; TILE * TILE];
    for r0 in (0..rows).step_by(TILE) {
        let nr = TILE.min(rows - r0);
        for c0 in (0..cols).step_by(TILE) {
            let nc = TILE.min(cols - c0);
            // SAFETY: the caller's bounds.
            unsafe {
                for c in 0..nc {
                    let s = s.offset((c0 + c) as isize * si_col + r0 as isize * si_row);
                    for r in 0..nr {
                        block[c * TILE + r] = f(*s.offset(r as isize * si_row));
                    }
                }
                for r in 0..nr {
                    let o = o.offset((r0 + r) as isize * so_row + c0 as isize * so_col);
                    for c in 0..nc {
                        *o.offset(c as isize * so_col) = block[c * TILE + r];
                    }
                }
            }
        }
    }
}
