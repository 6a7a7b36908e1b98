//! Elementwise drivers: `out[i] = f(a[i], ...)` over any layouts, with the
//! inner loop specialised for unit strides (so it vectorises), for an input
//! that is the output itself (in-place ops), and for a broadcast (stride-0)
//! operand.
//!
//! The `apply*` functions are the safe entry points: they check dtypes and
//! bounds (`access`), then run the unsafe `map*` loops.

use super::access::{SendPtr, bytes, in_ptr, out_ptr};
use super::simd::{Level, Site, level_at};
use super::stream::{STREAM_MIN_RUN, fence, stream_unfenced, worth_streaming};
use super::strided::Plan;
use crate::{Arg, Cpu, Element, Input, Layout, Output, Result};

/// `dst[i] = f(src[i])`, after checking both operands; `f` is a plain op.
pub(crate) fn apply1<A: Element, O: Element>(
    op: &'static str,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(A) -> O + Copy + Sync,
) -> Result<()> {
    apply1_weighted(op, 1, src, dst, f)
}

/// As [`apply1`], each element weighing `weight` units of work (see
/// [`PLAIN_PARALLEL_THRESHOLD`](super::strided::PLAIN_PARALLEL_THRESHOLD)).
pub(crate) fn apply1_weighted<A: Element, O: Element>(
    op: &'static str,
    weight: usize,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(A) -> O + Copy + Sync,
) -> Result<()> {
    let po = out_ptr::<O>(op, dst)?;
    let pa = in_ptr::<A>(op, src, dst, bytes(po))?;
    // SAFETY: both layouts were checked in bounds of their storages.
    unsafe { map1((po, &dst.layout), (pa, &src.layout), weight, f) };
    Ok(())
}

/// `dst[i] = f(lhs[i], rhs[i])`, after checking the operands; `f` is a plain
/// op. A scalar operand is converted to its element type once and passed to
/// `f` for every element.
pub(crate) fn apply2<A: Element, B: Element, O: Element>(
    op: &'static str,
    lhs: &Arg<'_, Cpu>,
    rhs: &Arg<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(A, B) -> O + Copy + Sync,
) -> Result<()> {
    apply2_weighted(op, 1, lhs, rhs, dst, f)
}

/// As [`apply2`], each element weighing `weight` units of work.
pub(crate) fn apply2_weighted<A: Element, B: Element, O: Element>(
    op: &'static str,
    weight: usize,
    lhs: &Arg<'_, Cpu>,
    rhs: &Arg<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(A, B) -> O + Copy + Sync,
) -> Result<()> {
    match (lhs, rhs) {
        (Arg::Tensor(lhs), Arg::Tensor(rhs)) => apply2_tensors(op, weight, lhs, rhs, dst, f),
        (Arg::Tensor(lhs), Arg::Scalar(s)) => {
            let b = s.to::<B>();
            apply1_weighted(op, weight, lhs, dst, move |a| f(a, b))
        }
        (Arg::Scalar(s), Arg::Tensor(rhs)) => {
            let a = s.to::<A>();
            apply1_weighted(op, weight, rhs, dst, move |b| f(a, b))
        }
        (Arg::Scalar(_), Arg::Scalar(_)) => Arg::pair_dtype(op, lhs, rhs).map(drop),
    }
}

/// [`apply2_weighted`] of two tensor operands.
fn apply2_tensors<A: Element, B: Element, O: Element>(
    op: &'static str,
    weight: usize,
    lhs: &Input<'_, Cpu>,
    rhs: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(A, B) -> O + Copy + Sync,
) -> Result<()> {
    let po = out_ptr::<O>(op, dst)?;
    let pa = in_ptr::<A>(op, lhs, dst, bytes(po))?;
    let pb = in_ptr::<B>(op, rhs, dst, bytes(po))?;
    // SAFETY: as in `apply1_weighted`.
    unsafe {
        map2(
            (po, &dst.layout),
            (pa, &lhs.layout),
            (pb, &rhs.layout),
            weight,
            f,
        )
    };
    Ok(())
}

/// `dst[i] = f(a[i], b[i], c[i])`, after checking the operands.
pub(crate) fn apply3<A: Element, B: Element, C: Element, O: Element>(
    op: &'static str,
    [a, b, c]: [&Input<'_, Cpu>; 3],
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(A, B, C) -> O + Copy + Sync,
) -> Result<()> {
    let po = out_ptr::<O>(op, dst)?;
    let pa = in_ptr::<A>(op, a, dst, bytes(po))?;
    let pb = in_ptr::<B>(op, b, dst, bytes(po))?;
    let pc = in_ptr::<C>(op, c, dst, bytes(po))?;
    // SAFETY: as in `apply1`.
    unsafe {
        map3(
            (po, &dst.layout),
            (pa, &a.layout),
            (pb, &b.layout),
            (pc, &c.layout),
            f,
        )
    };
    Ok(())
}

/// True when some element of the operand satisfies `pred` (a scalar is
/// converted to `A` first): [`any`] of a tensor.
pub(crate) fn any_arg<A: Element>(
    op: &'static str,
    arg: &Arg<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    pred: impl Fn(A) -> bool,
) -> Result<bool> {
    match arg {
        Arg::Tensor(src) => any(op, src, dst, pred),
        Arg::Scalar(s) => Ok(pred(s.to::<A>())),
    }
}

/// True when some element of `src` satisfies `pred` (read on one thread;
/// used to refuse an op before anything is written).
fn any<A: Element>(
    op: &'static str,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    pred: impl Fn(A) -> bool,
) -> Result<bool> {
    let po = out_base(dst)?;
    let pa = in_ptr::<A>(op, src, dst, po)?;
    let plan = Plan::new([&src.layout]);
    let [sa] = plan.inner_strides();
    let mut found = false;
    plan.for_runs(0, plan.runs(), |[oa], len| {
        if found {
            return;
        }
        // SAFETY: offsets come from a layout checked in bounds by `in_ptr`.
        unsafe {
            let a = pa.get().add(oa).cast_const();
            found = (0..len as isize).any(|i| pred(*a.offset(i * sa)));
        }
    });
    Ok(found)
}

/// The output's base pointer as bytes, whatever its dtype (what an input
/// aliasing the output reads through).
fn out_base(dst: &mut Output<'_, Cpu>) -> Result<SendPtr<u8>> {
    dst.layout
        .check_bounds(dst.storage.len_of(dst.dtype), dst.dtype.size())?;
    crate::backend::check_aligned("map", dst.storage, dst.dtype)?;
    Ok(SendPtr(dst.storage.as_bytes_mut().as_mut_ptr()))
}

/// True when `a` is `o`'s address: an in-place operand walked in step with
/// the output.
#[inline(always)]
fn same_address<A, O>(o: *mut O, a: *const A) -> bool {
    std::ptr::eq(o.cast_const().cast::<u8>(), a.cast::<u8>()) && size_of::<A>() == size_of::<O>()
}

/// `body(i)` for `i` in `0..len`: the inner loop of a unit-stride run,
/// compiled for the CPU's widest vectors. When the instruction set in use
/// has AVX2 ([`level_at`]) it runs a copy compiled for AVX2; else the
/// baseline build. Rust never fuses a multiply and an add on its own, so
/// both copies give the same bits.
#[inline(always)]
fn unit_loop(len: usize, body: impl FnMut(usize)) {
    #[cfg(target_arch = "x86_64")]
    if level_at(Site::Map) != Level::Portable {
        // SAFETY: the CPU has AVX2, the only feature the copy needs.
        unsafe { unit_loop_avx2(len, body) };
        return;
    }
    let mut body = body;
    for i in 0..len {
        body(i);
    }
}

/// [`unit_loop`]'s body compiled for AVX2.
///
/// # Safety
/// The CPU supports AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn unit_loop_avx2(len: usize, mut body: impl FnMut(usize)) {
    for i in 0..len {
        body(i);
    }
}

/// Bytes computed on the stack between two streamed writes in [`unit_store`]:
/// a few cache lines, so that the loads of the inputs and the streamed
/// stores of the output overlap (a block of 4 KiB alternated a phase that
/// waited on the loads with one that waited on the stores: 1.5× slower).
const STREAM_BLOCK: usize = 256;

/// `o[i] = g(i)` for `i` in `0..len`, a unit-stride run. When `stream` is set
/// and the run is long, `g` fills a block on the stack at a time (in cache,
/// vectorised), which is then streamed to `o` (no read of the destination);
/// else the plain [`unit_loop`].
///
/// # Safety
/// `o` is valid for writes of `len` elements, which `g` does not read.
#[inline(always)]
unsafe fn unit_store<O: Copy>(o: *mut O, len: usize, stream: bool, g: impl Fn(usize) -> O + Copy) {
    if !stream || len.saturating_mul(size_of::<O>()) < STREAM_MIN_RUN {
        // SAFETY: the caller's contract.
        unit_loop(len, move |i| unsafe { *o.add(i) = g(i) });
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if level_at(Site::Map) != Level::Portable {
        // SAFETY: the CPU has AVX2; the caller's contract.
        unsafe { stream_blocks_avx2(o, len, g) };
        fence();
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { stream_blocks(o, len, g) };
    fence();
}

/// [`stream_blocks`] compiled for AVX2: the block loop and the blocks' own
/// loops in one function with the instruction set's features.
///
/// # Safety
/// The CPU supports AVX2; as [`stream_blocks`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn stream_blocks_avx2<O: Copy>(o: *mut O, len: usize, g: impl Fn(usize) -> O + Copy) {
    // SAFETY: forwarded.
    unsafe { stream_blocks(o, len, g) }
}

/// `o[i] = g(i)` for `i` in `0..len`, [`STREAM_BLOCK`] bytes at a time
/// computed on the stack and streamed to `o`, without the closing fence.
///
/// # Safety
/// As [`unit_store`].
#[inline(always)]
unsafe fn stream_blocks<O: Copy>(o: *mut O, len: usize, g: impl Fn(usize) -> O + Copy) {
    let size = size_of::<O>();
    // 16-byte aligned, which is more than any element needs.
    let mut block = [0u128; STREAM_BLOCK / 16];
    let tmp = block.as_mut_ptr().cast::<O>();
    let per_block = STREAM_BLOCK / size;
    let mut start = 0;
    while start < len {
        let n = per_block.min(len - start);
        // SAFETY: `tmp` holds `per_block >= n` elements; the streamed range
        // is in `o`'s `len` elements and cannot overlap the stack block.
        unsafe {
            for i in 0..n {
                *tmp.add(i) = g(start + i);
            }
            stream_unfenced(tmp.cast_const().cast(), o.add(start).cast(), n * size);
        }
        start += n;
    }
}

/// `out[i] = f(a[i])` for every element, each weighing `weight` units of work.
///
/// # Safety
/// `out`/`a` point to storages in which the layouts are in bounds (checked by
/// `access::{out_ptr, in_ptr}`). Overlap is allowed, within the output or
/// between an input and the output: the [`Plan`] then keeps the walk on one
/// thread, and each element is read before it is written, in walk order.
pub(crate) unsafe fn map1<A: Copy, O: Copy>(
    out: (SendPtr<O>, &Layout),
    a: (SendPtr<A>, &Layout),
    weight: usize,
    f: impl Fn(A) -> O + Copy + Sync,
) {
    let mut plan = Plan::new([out.1, a.1]);
    plan.restrict_aliasing((out.0.0 as usize, out.1), &[(a.0.0 as usize, a.1)]);
    let [so, sa] = plan.inner_strides();
    let stream = worth_streaming::<O, _>(&plan);
    let (po, pa) = (out.0, a.0);
    plan.par_for_runs_weighted(weight, |[oo, oa], len| {
        // SAFETY: offsets come from in-bounds layouts; runs of distinct calls
        // write disjoint output elements.
        unsafe {
            let o = po.get().add(oo);
            let a = pa.get().add(oa).cast_const();
            match (so, sa) {
                (1, 1) if same_address(o, a) => {
                    // Read through the output's own pointer, so the compiler
                    // sees the read and the write of one element coincide.
                    let a = o.cast::<A>().cast_const();
                    unit_loop(len, move |i| *o.add(i) = f(*a.add(i)));
                }
                (1, 1) => unit_store(o, len, stream, move |i| f(*a.add(i))),
                (1, 0) => {
                    let v = f(*a);
                    for i in 0..len {
                        *o.add(i) = v;
                    }
                }
                _ => {
                    for i in 0..len as isize {
                        *o.offset(i * so) = f(*a.offset(i * sa));
                    }
                }
            }
        }
    });
}

/// `out[i] = f(a[i], b[i])` for every element, each weighing `weight` units.
///
/// # Safety
/// As [`map1`], for both inputs.
pub(crate) unsafe fn map2<A: Copy, B: Copy, O: Copy>(
    out: (SendPtr<O>, &Layout),
    a: (SendPtr<A>, &Layout),
    b: (SendPtr<B>, &Layout),
    weight: usize,
    f: impl Fn(A, B) -> O + Copy + Sync,
) {
    let mut plan = Plan::new([out.1, a.1, b.1]);
    plan.restrict_aliasing(
        (out.0.0 as usize, out.1),
        &[(a.0.0 as usize, a.1), (b.0.0 as usize, b.1)],
    );
    let [so, sa, sb] = plan.inner_strides();
    let stream = worth_streaming::<O, _>(&plan);
    let (po, pa, pb) = (out.0, a.0, b.0);
    plan.par_for_runs_weighted(weight, |[oo, oa, ob], len| {
        // SAFETY: as in `map1`.
        unsafe {
            let o = po.get().add(oo);
            let a = pa.get().add(oa).cast_const();
            let b = pb.get().add(ob).cast_const();
            match (so, sa, sb) {
                (1, 1, 1) if same_address(o, a) => {
                    let a = o.cast::<A>().cast_const();
                    unit_loop(len, move |i| *o.add(i) = f(*a.add(i), *b.add(i)));
                }
                (1, 1, 1) => unit_store(o, len, stream, move |i| f(*a.add(i), *b.add(i))),
                (1, 1, 0) if same_address(o, a) => {
                    let (a, bv) = (o.cast::<A>().cast_const(), *b);
                    unit_loop(len, move |i| *o.add(i) = f(*a.add(i), bv));
                }
                (1, 1, 0) => {
                    let bv = *b;
                    unit_store(o, len, stream, move |i| f(*a.add(i), bv));
                }
                (1, 0, 1) => {
                    let av = *a;
                    unit_store(o, len, stream, move |i| f(av, *b.add(i)));
                }
                (1, 0, 0) => {
                    let v = f(*a, *b);
                    for i in 0..len {
                        *o.add(i) = v;
                    }
                }
                _ => {
                    for i in 0..len as isize {
                        *o.offset(i * so) = f(*a.offset(i * sa), *b.offset(i * sb));
                    }
                }
            }
        }
    });
}

/// `out[i] = f(a[i], b[i], c[i])` for every element.
///
/// # Safety
/// As [`map1`], for all three inputs.
pub(crate) unsafe fn map3<A: Copy, B: Copy, C: Copy, O: Copy>(
    out: (SendPtr<O>, &Layout),
    a: (SendPtr<A>, &Layout),
    b: (SendPtr<B>, &Layout),
    c: (SendPtr<C>, &Layout),
    f: impl Fn(A, B, C) -> O + Copy + Sync,
) {
    let mut plan = Plan::new([out.1, a.1, b.1, c.1]);
    plan.restrict_aliasing(
        (out.0.0 as usize, out.1),
        &[
            (a.0.0 as usize, a.1),
            (b.0.0 as usize, b.1),
            (c.0.0 as usize, c.1),
        ],
    );
    let [so, sa, sb, sc] = plan.inner_strides();
    let stream = worth_streaming::<O, _>(&plan);
    let (po, pa, pb, pc) = (out.0, a.0, b.0, c.0);
    plan.par_for_runs(|[oo, oa, ob, oc], len| {
        // SAFETY: as in `map1`.
        unsafe {
            let o = po.get().add(oo);
            let a = pa.get().add(oa).cast_const();
            let b = pb.get().add(ob).cast_const();
            let c = pc.get().add(oc).cast_const();
            // Unit-stride runs, one operand possibly a broadcast scalar (a
            // `masked_fill`'s value, a `where` against a constant): read
            // once, so that the loop vectorises.
            match (so, sa, sb, sc) {
                (1, 1, 1, 1) => {
                    unit_store(o, len, stream, move |i| f(*a.add(i), *b.add(i), *c.add(i)))
                }
                (1, 0, 1, 1) if len > 0 => {
                    let a = *a;
                    unit_store(o, len, stream, move |i| f(a, *b.add(i), *c.add(i)))
                }
                (1, 1, 0, 1) if len > 0 => {
                    let b = *b;
                    unit_store(o, len, stream, move |i| f(*a.add(i), b, *c.add(i)))
                }
                (1, 1, 1, 0) if len > 0 => {
                    let c = *c;
                    unit_store(o, len, stream, move |i| f(*a.add(i), *b.add(i), c))
                }
                _ => {
                    for i in 0..len as isize {
                        *o.offset(i * so) =
                            f(*a.offset(i * sa), *b.offset(i * sb), *c.offset(i * sc));
                    }
                }
            }
        }
    });
}

/// `out[i] = v` for every element (overlapping outputs allowed: they are
/// written on one thread).
///
/// # Safety
/// `out` points to a storage in which the layout is in bounds.
pub(crate) unsafe fn fill<O: Copy + Send + Sync>(out: (SendPtr<O>, &Layout), v: O) {
    let plan = Plan::new([out.1]);
    let [so] = plan.inner_strides();
    let po = out.0;
    plan.par_for_runs(|[oo], len| {
        // SAFETY: in-bounds offsets; the walk runs on several threads only when
        // the layout provably has no overlap, so threads write disjoint elements.
        unsafe {
            let o = po.get().add(oo);
            if so == 1 {
                std::slice::from_raw_parts_mut(o, len).fill(v);
            } else {
                for i in 0..len as isize {
                    *o.offset(i * so) = v;
                }
            }
        }
    });
}
