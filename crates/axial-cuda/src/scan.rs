//! `cumsum` through `scan.cu`: one row (a position of the other dims) at a
//! time along `dim`, for every dtype but bool. Floats add in their compute
//! float (f16 and bf16 in f32, each output rounded), integers wrap; the
//! core has already converted integers and bool to i64, as PyTorch's
//! `cumsum` returns.
//!
//! When the scanned dim is the source's fast one, or there are too few rows
//! to fill the device, a block scans each row in chunks (a parallel scan,
//! so float sums associate differently from a sequential loop, as on
//! PyTorch's GPU); else a thread runs down each row.

use axial_core::ops::cuda::short;
use axial_core::ops::{Cumsum, Op};
use axial_core::plan::Plan;
use axial_core::{Input, Layout, Output, Result};

use crate::Cuda;
use crate::backend::{input, output, state_of};
use crate::launch::{THREADS, arg, blocks_for, for_pieces, launch};

/// `ScanLine` of `scan.cu`.
#[repr(C)]
#[derive(Copy, Clone)]
pub(crate) struct ScanLine {
    len: u64,
    dst_step: i64,
    src_step: i64,
}

crate::launch::by_value!(ScanLine);

/// Most threads of a block that scans one row.
const ROW_THREADS: u64 = 512;
/// Rows per multiprocessor under which rows go to blocks whatever the
/// stride (a thread per row would leave the device idle).
const FEW_ROWS_PER_SM: u64 = 128;

/// `layout` without `dim`.
fn rows_of(layout: &Layout, dim: usize) -> Layout {
    let keep = |v: &[usize]| -> Vec<usize> {
        v.iter()
            .enumerate()
            .filter(|&(d, _)| d != dim)
            .map(|(_, &x)| x)
            .collect()
    };
    let strides: Vec<isize> = layout
        .strides()
        .iter()
        .enumerate()
        .filter(|&(d, _)| d != dim)
        .map(|(_, &x)| x)
        .collect();
    Layout::from_parts(&keep(layout.shape()), &strides, layout.offset())
}

/// Whether rows of `len` go to blocks rather than threads.
fn by_blocks(len: u64, src_step: i64, rows: u64, sms: u32) -> bool {
    len > 32 && (src_step.unsigned_abs() == 1 || rows < sms as u64 * FEW_ROWS_PER_SM)
}

/// `dst = cumsum(src, dim)`; both of `dst`'s dtype.
pub(crate) fn cumsum(
    device: &Cuda,
    src: Input<'_, Cuda>,
    dim: usize,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let cumsum = Cumsum { dim };
    let op = cumsum.name();
    cumsum.check(&src, &dst)?;
    let s = state_of(device)?;
    let to = output(device, op, &dst, dst.dtype)?;
    let mut spill = vec![];
    let from = input(device, op, &src, dst.dtype, &dst, &mut spill)?;
    if to.layout.numel() == 0 {
        return Ok(());
    }
    let line = ScanLine {
        len: to.layout.shape().get(dim).copied().unwrap_or(1) as u64,
        dst_step: to.layout.strides().get(dim).copied().unwrap_or(0) as i64,
        src_step: from.layout.strides().get(dim).copied().unwrap_or(0) as i64,
    };
    let (dst_rows, src_rows) = (rows_of(&to.layout, dim), rows_of(&from.layout, dim));
    let plan = Plan::new([&dst_rows, &src_rows]);
    let blocks = by_blocks(line.len, line.src_step, plan.numel() as u64, s.sms);
    let [rows, block] = Cumsum::CUDA_KERNELS;
    let name = format!("{}_{}", if blocks { block } else { rows }, short(dst.dtype));
    for_pieces(&plan, |walk, [od, os]| {
        let (o, a) = (to.at(od), from.at(os));
        let args = [arg(&o), arg(&a), arg(&walk), arg(&line)];
        let (grid, block) = if blocks {
            let grid = walk.numel.clamp(1, s.sms as u64 * 16) as u32;
            let block = line.len.next_power_of_two().clamp(32, ROW_THREADS) as u32;
            (grid, block)
        } else {
            (blocks_for(s, walk.numel), THREADS)
        };
        // SAFETY: `cumsum_{block,rows}_<dt>(T*, const T*, Walk<2>, ScanLine)`;
        // each row's start is a position of the other dims of checked
        // layouts and its `len` elements `step` apart are in their buffers;
        // a row is scanned by one block or thread, each element read before
        // it is written (an input aliasing the output through another
        // layout was copied aside).
        unsafe { launch(s, "scan", &name, (grid, 1, 1), (block, 1, 1), 0, &args) }
    })
}

#[cfg(test)]
mod tests {
    use axial_core::DType;

    use super::*;

    #[test]
    fn scan_line_has_the_layout_of_scan_cu() {
        assert_eq!(size_of::<ScanLine>(), 24);
    }

    #[test]
    fn the_row_walk_scans_what_the_cpu_scans() {
        use axial_core::{RawTensor, Storage};
        // A rotated [6, 4, 5] source into a column-major output.
        let src = Layout::contiguous(&[4, 5, 6]).permute(&[2, 0, 1]).unwrap();
        let buf: Vec<i64> = (0..120).map(|i| i * i % 17).collect();
        let t = RawTensor::from_parts(Storage::from_slice(&buf), src.clone(), DType::I64).unwrap();
        let dst = Layout::contiguous(&[5, 4, 6]).permute(&[2, 1, 0]).unwrap();
        for dim in 0..3 {
            let want = t
                .view()
                .cumsum(dim as isize)
                .unwrap()
                .to_vec::<i64>()
                .unwrap();
            // What the kernels do, on the host: a running sum down each row.
            let len = dst.shape()[dim] as isize;
            let (sd, ss) = (dst.strides()[dim], src.strides()[dim]);
            let plan = Plan::new([&rows_of(&dst, dim), &rows_of(&src, dim)]);
            let [r0, r1] = plan.inner_strides();
            let mut out = vec![0i64; 120];
            plan.for_runs(0, plan.runs(), |[o, i], n| {
                for r in 0..n as isize {
                    let mut acc = 0;
                    for k in 0..len {
                        acc += buf[(i as isize + r * r1 + k * ss) as usize];
                        out[(o as isize + r * r0 + k * sd) as usize] = acc;
                    }
                }
            });
            let got =
                RawTensor::from_parts(Storage::from_slice(&out), dst.clone(), DType::I64).unwrap();
            assert_eq!(got.to_vec::<i64>().unwrap(), want, "dim {dim}");
        }
    }

    #[test]
    fn rows_drop_the_scanned_dim() {
        let l = Layout::contiguous(&[2, 3, 4]);
        let r = rows_of(&l, 1);
        assert_eq!((r.shape(), r.strides()), (&[2, 4][..], &[12, 1][..]));
    }

    #[test]
    fn long_fast_rows_or_few_rows_go_to_blocks() {
        assert!(by_blocks(1000, 1, 1 << 20, 132));
        assert!(!by_blocks(1000, 64, 1 << 20, 132));
        assert!(by_blocks(1000, 64, 10, 132));
        assert!(!by_blocks(8, 1, 10, 132));
    }
}
