//! `index_select` and `gather` through `index.cu`, for every dtype (the
//! kernels move bits by element size).
//!
//! Every index is checked on the device before anything is written: a
//! kernel over the index sets a flag when one is out of range, and the
//! flag (four bytes) is read back. That costs one synchronisation per
//! call, where copying the indices to the host would cost a transfer of
//! all of them; PyTorch's CUDA kernels check with a device assertion, which
//! kills the whole context. Only when the flag is set are the indices
//! copied back, to name the first bad one in the CPU device's words.

use axial_core::ops::{Gather, IndexSelect, Op, checked_index};
use axial_core::plan::Plan;
use axial_core::{DType, Input, Layout, Output, Result, Storage};

use crate::Cuda;
use crate::backend::{Operand, output, source, state_of};
use crate::elementwise::{copy_operands, walk_kernel};
use crate::launch::{arg, blocks_for, for_pieces, launch, size_name};

/// The i64 index operand (its dtype checked by `IndexSelect::check` or
/// `Gather::check`).
fn index_operand(device: &Cuda, op: &'static str, index: &Input<'_, Cuda>) -> Result<Operand> {
    source(device, op, index, DType::I64)
}

/// Refuses an index outside `0..size` (the first, in row-major order).
fn check_indices(
    device: &Cuda,
    op: &'static str,
    index: &Operand,
    size: usize,
    dim: usize,
) -> Result<()> {
    let plan = Plan::new([&index.layout]);
    if plan.numel() == 0 {
        return Ok(());
    }
    let s = state_of(device)?;
    let flag = Storage::zeroed(device, 4)?;
    let flag_ptr = flag.buffer().ptr;
    let size_arg = size as i64;
    for_pieces(&plan, |walk, [o]| {
        let ptr = index.at(o);
        let args = [arg(&flag_ptr), arg(&ptr), arg(&walk), arg(&size_arg)];
        // SAFETY: `index_check(u32*, const i64*, Walk<1>, i64)`; the flag
        // holds four bytes and every offset of the walk is an element of the
        // index's checked layout.
        unsafe {
            launch(
                s,
                "index",
                "index_check",
                (blocks_for(s, walk.numel), 1, 1),
                (crate::launch::THREADS, 1, 1),
                0,
                &args,
            )
        }
    })?;
    let mut bad = [0u8; 4];
    axial_core::Device::copy_to_host(device, flag.buffer(), 0, &mut bad)?;
    if bad == [0; 4] {
        return Ok(());
    }
    // The error path: the indices in row-major order, on the host.
    let layout = Layout::contiguous(index.layout.shape());
    let copy = Storage::uninit(device, layout.numel() * 8)?;
    let to = Operand {
        base: copy.buffer().ptr,
        layout,
        dtype: DType::I64,
    };
    copy_operands(s, index, &to)?;
    let bytes = copy.to_host_bytes()?;
    for b in bytes.chunks_exact(8) {
        let i = i64::from_le_bytes(b.try_into().expect("8 bytes"));
        checked_index(op, i, size, dim)?;
    }
    Err(crate::driver::device_error(
        op,
        "the index check flagged no index",
    ))
}

/// `layout` with the stride of `dim` (when it has one) set to 0.
fn without_dim(shape: &[usize], layout: &Layout, dim: usize) -> Layout {
    let mut strides = layout.strides()[..shape.len()].to_vec();
    if let Some(s) = strides.get_mut(dim) {
        *s = 0;
    }
    Layout::from_parts(shape, &strides, layout.offset())
}

/// The source as `gather_bN` walks it over an output of `shape`: its layout
/// with `dim`'s stride zeroed, and that stride (the step of one index).
fn gather_source(shape: &[usize], src: &Layout, dim: usize) -> (Layout, isize) {
    let step = src.strides().get(dim).copied().unwrap_or(0);
    (without_dim(shape, src, dim), step)
}

/// A 1-D (or 0-d) index broadcast over the other dims of an output of
/// shape `out`: its stride along `dim`, 0 elsewhere.
fn selected_index(out: &[usize], ids: &Layout, dim: usize) -> Layout {
    let mut strides = vec![0isize; out.len()];
    if let (Some(s), Some(&is)) = (strides.get_mut(dim), ids.strides().first()) {
        *s = is;
    }
    Layout::from_parts(out, &strides, ids.offset())
}

/// `o[p] = a[p with dim 0] + idx[p]·step` over the output's shape.
fn run_gather(
    device: &Cuda,
    src: &Operand,
    dim: usize,
    index: Operand,
    to: &Operand,
) -> Result<()> {
    let s = state_of(device)?;
    let (layout, step) = gather_source(to.layout.shape(), &src.layout, dim);
    let from = Operand {
        base: src.base,
        layout,
        dtype: src.dtype,
    };
    let name = format!("{}_{}", Gather::CUDA_KERNEL, size_name("gather", to.dtype)?);
    walk_kernel(
        s,
        "index",
        &name,
        &[step as i64 as u64],
        [to, &from, &index],
        None,
    )
}

/// `dst = src.index_select(dim, index)`.
pub(crate) fn index_select(
    device: &Cuda,
    src: Input<'_, Cuda>,
    dim: usize,
    index: Input<'_, Cuda>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let select = IndexSelect { dim };
    let op = select.name();
    select.check(&src, &index, &dst)?;
    let (shape, out) = (src.layout.shape(), dst.layout.shape());
    let ids = index_operand(device, op, &index)?;
    let from = source(device, op, &src, dst.dtype)?;
    let to = output(device, op, &dst, dst.dtype)?;
    dst.layout.check_writable()?;
    let size = shape.get(dim).copied().unwrap_or(1);
    check_indices(device, op, &ids, size, dim)?;
    let index = Operand {
        base: ids.base,
        layout: selected_index(out, &ids.layout, dim),
        dtype: DType::I64,
    };
    run_gather(device, &from, dim, index, &to)
}

/// `dst = src.gather(dim, index)`.
pub(crate) fn gather(
    device: &Cuda,
    src: Input<'_, Cuda>,
    dim: usize,
    index: Input<'_, Cuda>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let gather = Gather { dim };
    let op = gather.name();
    gather.check(&src, &index, &dst)?;
    let shape = src.layout.shape();
    let ids = index_operand(device, op, &index)?;
    let size = shape.get(dim).copied().unwrap_or(1);
    check_indices(device, op, &ids, size, dim)?;
    let from = source(device, op, &src, dst.dtype)?;
    let to = output(device, op, &dst, dst.dtype)?;
    dst.layout.check_writable()?;
    run_gather(device, &from, dim, ids, &to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axial_core::RawTensor;

    /// What `gather_bN` computes, on the host: the walk of the output, the
    /// zeroed source and the index, as the kernel's `for_each` visits it.
    fn emulate(
        dst: &Layout,
        src: &Layout,
        idx: &Layout,
        step: isize,
        a: &[i64],
        ids: &[i64],
    ) -> Vec<i64> {
        let mut out = vec![0i64; dst.numel()];
        let plan = Plan::new([dst, src, idx]);
        let [s0, s1, s2] = plan.inner_strides();
        plan.for_runs(0, plan.runs(), |[o, i, x], len| {
            for k in 0..len as isize {
                let at = ids[(x as isize + k * s2) as usize] as isize;
                out[(o as isize + k * s0) as usize] = a[(i as isize + k * s1 + at * step) as usize];
            }
        });
        out
    }

    /// A `[6, 4, 5]` source whose elements are their storage offsets, laid
    /// out with dims rotated.
    fn source() -> (Layout, Vec<i64>, RawTensor) {
        let l = Layout::contiguous(&[4, 5, 6]).permute(&[2, 0, 1]).unwrap();
        let buf: Vec<i64> = (0..120).collect();
        let t = RawTensor::from_parts(axial_core::Storage::from_slice(&buf), l.clone(), DType::I64)
            .unwrap();
        (l, buf, t)
    }

    #[test]
    fn the_index_select_walk_reads_what_the_cpu_selects() {
        let (src, buf, t) = source();
        // Indices every other element of a buffer, from offset 1.
        let ids_buf = [9, 3, 9, 0, 9, 3, 9, 2];
        let ids = Layout::from_parts(&[4], &[2], 1);
        let ids_t = RawTensor::from_parts(
            axial_core::Storage::from_slice(&ids_buf),
            ids.clone(),
            DType::I64,
        )
        .unwrap();
        for dim in 0..3 {
            let want = t.view().index_select(dim as isize, &ids_t.view()).unwrap();
            let dst = Layout::contiguous(want.shape());
            let (from, step) = gather_source(dst.shape(), &src, dim);
            let idx = selected_index(dst.shape(), &ids, dim);
            let got = emulate(&dst, &from, &idx, step, &buf, &ids_buf);
            assert_eq!(got, want.to_vec::<i64>().unwrap(), "dim {dim}");
        }
    }

    #[test]
    fn the_gather_walk_reads_what_the_cpu_gathers() {
        let (src, buf, t) = source();
        for dim in 0..3 {
            // A transposed index, one smaller than the source in the other dims.
            let mut shape: Vec<usize> = t.shape().iter().map(|&n| n - 1).collect();
            shape[dim] = 7;
            let size = t.shape()[dim] as i64;
            let rev: Vec<usize> = shape.iter().rev().copied().collect();
            let n: usize = shape.iter().product();
            let ids_buf: Vec<i64> = (0..n as i64).map(|i| (i * 7 + 3) % size).collect();
            let idx = Layout::contiguous(&rev).permute(&[2, 1, 0]).unwrap();
            let ids_t = RawTensor::from_parts(
                axial_core::Storage::from_slice(&ids_buf),
                idx.clone(),
                DType::I64,
            )
            .unwrap();
            let want = t.view().gather(dim as isize, &ids_t.view()).unwrap();
            let dst = Layout::contiguous(&shape);
            let (from, step) = gather_source(&shape, &src, dim);
            let got = emulate(&dst, &from, &idx, step, &buf, &ids_buf);
            assert_eq!(got, want.to_vec::<i64>().unwrap(), "dim {dim}");
        }
    }

    #[test]
    fn the_indexed_dim_reads_through_the_index_alone() {
        let src = Layout::contiguous(&[5, 3]);
        let l = without_dim(&[2, 3], &src, 0);
        assert_eq!((l.shape(), l.strides()), (&[2, 3][..], &[0, 1][..]));
        // A 0-d source has no dim to zero.
        let l = without_dim(&[], &Layout::contiguous(&[]), 0);
        assert_eq!(l.rank(), 0);
    }
}
