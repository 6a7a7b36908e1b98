//! `softmax`, `log_softmax` and `layer_norm` through the fused kernels of
//! `norm.cu`: f32, f64, f16 and bf16 (the last three computed in f32, as
//! PyTorch's CUDA kernels accumulate), each dtype reaching its own kernel.
//! A strided input is first copied contiguous by the move kernels, and a
//! strided output is written through a contiguous buffer, so every layout
//! works (at the cost of that copy).

use axial_core::ops::cuda::short;
use axial_core::ops::{LayerNorm, Op, Softmax};
use axial_core::{Input, Output, Result};

use crate::Cuda;
use crate::backend::{
    Operand, contiguous, contiguous_target, input, output, source, state_of, write_back,
};
use crate::launch::{THREADS, arg, blocks_for, launch};

/// `SoftmaxShape` of `norm.cu`.
#[repr(C)]
#[derive(Copy, Clone)]
pub(crate) struct SoftmaxShape {
    outer: u64,
    len: u64,
    inner: u64,
    log: i32,
    pad: i32,
}

/// `NormShape` of `norm.cu`.
#[repr(C)]
#[derive(Copy, Clone)]
pub(crate) struct NormShape {
    rows: u64,
    n: u64,
    eps: f64,
}

crate::launch::by_value!(SoftmaxShape, NormShape);

/// Most threads of a block that takes one row.
const ROW_THREADS: u64 = 512;
/// Blocks per multiprocessor of the row kernels (each walks rows in turn).
const ROW_BLOCKS_PER_SM: u64 = 16;

/// Threads of a block that walks rows of `len` elements: a power of two
/// from 32 (one warp) to [`ROW_THREADS`].
pub(crate) fn row_threads(len: u64) -> u32 {
    len.next_power_of_two().clamp(32, ROW_THREADS) as u32
}

/// Blocks of a row kernel over `rows` rows.
fn row_blocks(sms: u32, rows: u64) -> u32 {
    rows.clamp(1, sms as u64 * ROW_BLOCKS_PER_SM) as u32
}

/// `dst = softmax(src)` along `op.dim`, or `log_softmax`.
pub(crate) fn softmax(
    device: &Cuda,
    op: Softmax,
    src: Input<'_, Cuda>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let shape = op.check(&src, &dst)?;
    let (log, op) = (op.log, op.name());
    let s = state_of(device)?;
    let to = output(device, op, &dst, dst.dtype)?;
    let mut spill = vec![];
    let from = input(device, op, &src, dst.dtype, &dst, &mut spill)?;
    if to.layout.numel() == 0 {
        return Ok(());
    }
    let from = contiguous(device, from, &mut spill)?;
    let target = contiguous_target(device, &to, &mut spill)?;
    let p = SoftmaxShape {
        outer: shape.outer as u64,
        len: shape.len as u64,
        inner: shape.inner as u64,
        log: log as i32,
        pad: 0,
    };
    let (o, a) = (
        target.at(target.layout.offset() as i64),
        from.at(from.layout.offset() as i64),
    );
    let args = [arg(&o), arg(&a), arg(&p)];
    let dt = short(dst.dtype);
    let [rows, cols] = Softmax::CUDA_KERNELS;
    let (name, grid, block) = if p.inner == 1 {
        let grid = (row_blocks(s.sms, p.outer), row_threads(p.len.div_ceil(4)));
        (format!("{rows}_{dt}"), grid.0, grid.1)
    } else {
        let grid = blocks_for(s, p.outer * p.inner);
        (format!("{cols}_{dt}"), grid, THREADS)
    };
    // SAFETY: `softmax_{rows,cols}_<dt>(T*, const T*, SoftmaxShape)`; both
    // operands are contiguous `outer × len × inner` runs of this dtype in
    // their buffers (checked layouts, or the copies made above), and each
    // slice is read and written by one block (rows) or one thread (cols),
    // every element read before it is written, so the output may be the
    // input itself.
    unsafe { launch(s, "norm", &name, (grid, 1, 1), (block, 1, 1), 0, &args)? };
    write_back(device, &target, &to)
}

/// `dst = layer_norm(src) · weight + bias` over the rows of a `[rows, n]`
/// `src`.
pub(crate) fn layer_norm(
    device: &Cuda,
    norm: LayerNorm,
    src: Input<'_, Cuda>,
    weight: Option<Input<'_, Cuda>>,
    bias: Option<Input<'_, Cuda>>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let (rows, n) = norm.check(&src, [weight.as_ref(), bias.as_ref()], &dst)?;
    let (op, eps) = (norm.name(), norm.eps);
    let s = state_of(device)?;
    let to = output(device, op, &dst, dst.dtype)?;
    let mut spill = vec![];
    let from = input(device, op, &src, dst.dtype, &dst, &mut spill)?;
    let mut param = |p: &Option<Input<'_, Cuda>>| -> Result<u64> {
        match p {
            None => Ok(0),
            Some(p) => {
                let o = contiguous(device, source(device, op, p, dst.dtype)?, &mut spill)?;
                Ok(o.at(o.layout.offset() as i64))
            }
        }
    };
    let (w, b) = (param(&weight)?, param(&bias)?);
    if rows == 0 || n == 0 {
        return Ok(());
    }
    let from: Operand = contiguous(device, from, &mut spill)?;
    let target = contiguous_target(device, &to, &mut spill)?;
    let p = NormShape {
        rows: rows as u64,
        n: n as u64,
        eps,
    };
    let (o, a) = (
        target.at(target.layout.offset() as i64),
        from.at(from.layout.offset() as i64),
    );
    let args = [arg(&o), arg(&a), arg(&w), arg(&b), arg(&p)];
    let name = format!("{}_{}", LayerNorm::CUDA_KERNEL, short(dst.dtype));
    // SAFETY: `layer_norm_<dt>(T*, const T*, const T*, const T*, NormShape)`;
    // `o` and `a` are contiguous `rows × n` runs of this dtype in their
    // buffers, `w` and `b` contiguous runs of `n` (or null, which the kernel
    // skips); one block takes a row, reading each element before the same
    // thread writes it.
    unsafe {
        launch(
            s,
            "norm",
            &name,
            (row_blocks(s.sms, p.rows), 1, 1),
            (row_threads(p.n.div_ceil(4)), 1, 1),
            0,
            &args,
        )?
    };
    write_back(device, &target, &to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_have_the_layout_of_norm_cu() {
        assert_eq!(size_of::<SoftmaxShape>(), 32);
        assert_eq!(size_of::<NormShape>(), 24);
    }

    #[test]
    fn row_blocks_are_whole_warps() {
        assert_eq!(row_threads(1), 32);
        assert_eq!(row_threads(100), 128);
        assert_eq!(row_threads(1 << 20), 512);
        assert_eq!(row_blocks(132, 0), 1);
        assert_eq!(row_blocks(132, 1 << 20), 132 * 16);
    }
}
