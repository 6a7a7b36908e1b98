//! The vectorised ops over any layouts: unit-stride f32 runs are computed
//! where they lie; strided runs, and f16/bf16 elements, go through a block
//! of f32 on the stack (loaded, computed in place, stored back). Outputs
//! larger than the caches are computed into that block and streamed out of
//! it: a streaming store issued amid the computation stalls it (measured:
//! 2–3× slower than a plain store), one from a block of results does not.
//!
//! A unit-stride f32 output is streamed only for an op that waits on memory
//! rather than on its arithmetic ([`memory_bound`]). For the others
//! the detour through the block costs more than the destination's read
//! that streaming saves (measured on 64 MiB, two threads, the same buffers
//! taking turns: plain stores 4–17 % faster for every op but `exp` in
//! AVX-512 lanes, which streaming makes 9–11 % faster).

use super::{Lanewise, memory_bound, run_f32};
use crate::cpu::access::{SendPtr, bytes, in_ptr, out_ptr};
use crate::cpu::math::FloatElem;
use crate::cpu::stream::{STREAM_MIN_RUN, fence, stream_unfenced, worth_streaming};
use crate::cpu::strided::{COSTLY, Plan};
use crate::{Cpu, Input, Output, Result};

/// f32 elements of the stack block.
const BLOCK: usize = 1024;

/// `dst = op(src)` for f32, f16 or bf16 elements (`E::F` is f32). An input
/// that is the output through another layout is not handled here (the
/// blocks would read elements already written): the caller's scalar
/// kernel keeps the element-by-element order for it.
pub(crate) fn apply<E: FloatElem<F = f32>, O: Lanewise + Sync>(
    name: &'static str,
    op: O,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
) -> Result<()> {
    let po = out_ptr::<E>(name, dst)?;
    let pa = in_ptr::<E>(name, src, dst, bytes(po))?;
    let mut plan = Plan::new([&dst.layout, &src.layout]);
    plan.restrict_aliasing(
        (po.0 as usize, &dst.layout),
        &[(pa.0 as usize, &src.layout)],
    );
    let [so, sa] = plan.inner_strides();
    let stream = worth_streaming::<E, _>(&plan);
    plan.par_for_runs_weighted(COSTLY, |[oo, oa], len| {
        // SAFETY: the offsets come from layouts checked in bounds of their
        // storages; distinct runs write distinct output elements.
        unsafe { run(op, (po, oo, so), (pa, oa, sa), len, stream) };
    });
    Ok(())
}

/// One run: `len` elements from `a[oa + i·sa]` to `o[oo + i·so]`; with
/// `stream`, a unit-stride output goes through the block and is streamed,
/// unless the run could be computed where it lies by an op that is not
/// [`memory_bound`].
///
/// # Safety
/// Every element of the run is in bounds of its buffer; the output run is
/// written by this call alone.
unsafe fn run<E: FloatElem<F = f32>, O: Lanewise>(
    op: O,
    (po, oo, so): (SendPtr<E>, usize, isize),
    (pa, oa, sa): (SendPtr<E>, usize, isize),
    len: usize,
    stream: bool,
) {
    // SAFETY: the caller's contract covers every offset below.
    unsafe {
        let o = po.get().add(oo);
        let a = pa.get().add(oa).cast_const();
        let f32s = E::DTYPE == crate::DType::F32;
        let unit = so == 1 && sa == 1;
        let apart = (a as usize).abs_diff(o as usize) >= len * size_of::<E>();
        let streamed = stream && memory_bound::<O>() && len >= STREAM_MIN_RUN;
        if f32s && unit && (a == o.cast_const() || apart) && !streamed {
            run_f32(op, a.cast(), o.cast(), len);
            return;
        }
        let mut block = [0f32; BLOCK];
        let mut start = 0;
        while start < len {
            let n = BLOCK.min(len - start);
            // A unit-stride f32 run is read where it lies; others are
            // gathered into the block first.
            let from = if f32s && sa == 1 {
                a.add(start).cast::<f32>()
            } else {
                for (i, v) in block[..n].iter_mut().enumerate() {
                    *v = (*a.offset((start + i) as isize * sa)).load();
                }
                block.as_ptr()
            };
            run_f32(op, from, block.as_mut_ptr(), n);
            if f32s && so == 1 && stream {
                stream_unfenced(block.as_ptr().cast(), o.add(start).cast(), n * 4);
            } else {
                for (i, &v) in block[..n].iter().enumerate() {
                    *o.offset((start + i) as isize * so) = E::store(v);
                }
            }
            start += n;
        }
        if f32s && so == 1 && stream {
            // The streamed stores are visible before this thread reports done.
            fence();
        }
    }
}
