//! Reductions and arg reductions: the device-independent plan
//! ([`ReducePlan`]) laid out as `reduce.cu`'s `Reduction`, a block shape
//! chosen from which source dim is fastest, and a split of each reduction
//! across blocks when there are too few outputs to fill the device.

use axial_core::ops::cuda::reduce_module;
use axial_core::plan::ReducePlan;
use axial_core::{ArgReduceOp, DType, Input, Output, ReduceOp, Result, Storage};

use crate::Cuda;
use crate::backend::{Operand, output, source, state_of};
use crate::driver::State;
use crate::launch::{Walk, arg, launch};

/// `Reduction` of `reduce.cu`.
#[repr(C)]
#[derive(Copy, Clone)]
pub(crate) struct Reduction {
    kept: Walk<2>,
    red: Walk<1>,
    split: u64,
    along_x: i32,
    pad: i32,
    correction: f64,
}

crate::launch::by_value!(Reduction);

/// Threads of a reduction block.
const BLOCK: u32 = 256;
/// The most dynamic shared memory a reduction asks: one accumulator (at
/// most 24 bytes, Welford's) per thread.
pub(crate) const MAX_SHARED: u32 = BLOCK * 24;
/// Elements each lane should reduce at least before a split is worth it.
const PER_LANE: u64 = 64;
/// Most splits of one reduction.
const MAX_SPLITS: u64 = 1024;

/// `dst = op(src)` over `dims`.
pub(crate) fn reduce(
    device: &Cuda,
    op: ReduceOp,
    src: Input<'_, Cuda>,
    dims: &[usize],
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let plan = op.checked_plan(&src, dims, &dst)?;
    let correction = match op {
        ReduceOp::Var { correction } | ReduceOp::Std { correction } => correction,
        _ => 0.0,
    };
    let kernel = op.cuda_entry(src.dtype, dst.dtype);
    let acc = acc_size(op, src.dtype);
    run(
        device, &plan, &src, &dst, dst.dtype, &kernel, acc, correction,
    )
}

/// `dst = op(src, dim)` as i64 indices.
pub(crate) fn arg_reduce(
    device: &Cuda,
    op: ArgReduceOp,
    src: Input<'_, Cuda>,
    dim: usize,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let plan = op.checked_plan(&src, dim, &dst)?;
    let kernel = op.cuda_entry(src.dtype);
    run(device, &plan, &src, &dst, DType::I64, &kernel, 16, 0.0)
}

/// Bytes of the partial result of `op` on `dtype` (the `Acc` of its reducer).
fn acc_size(op: ReduceOp, dtype: DType) -> usize {
    let wide = match dtype {
        DType::F32 | DType::F16 | DType::BF16 => 4,
        _ => 8,
    };
    match op {
        ReduceOp::All | ReduceOp::Any => 1,
        ReduceOp::Var { .. } | ReduceOp::Std { .. } => 24,
        _ => wide,
    }
}

/// Launches the reduction kernel `kernel` of `src`'s module (and its
/// `_finish` twin when the reduction is split).
#[allow(clippy::too_many_arguments)]
fn run(
    device: &Cuda,
    plan: &ReducePlan,
    src: &Input<'_, Cuda>,
    dst: &Output<'_, Cuda>,
    out_dtype: DType,
    kernel: &str,
    acc: usize,
    correction: f64,
) -> Result<()> {
    let op = "reduce";
    let s = state_of(device)?;
    let to = output(device, op, dst, out_dtype)?;
    let from = source(device, op, src, src.dtype)?;
    let outputs = plan.kept.numel() as u64;
    if outputs == 0 {
        return Ok(());
    }
    let count = plan.reduced.numel() as u64;
    let along_x = along_x(plan);
    let lanes_wanted = if along_x { count } else { 1 };
    let (bx, by) = if along_x {
        let bx = (lanes_wanted.max(1).next_power_of_two()).min(BLOCK as u64) as u32;
        (bx, BLOCK / bx)
    } else {
        let bx = outputs.next_power_of_two().min(32) as u32;
        (bx, BLOCK / bx)
    };
    let per_block = if along_x { by } else { bx } as u64;
    let lanes = if along_x { bx } else { by } as u64;
    let blocks = outputs.div_ceil(per_block);
    if blocks > i32::MAX as u64 {
        return Err(crate::driver::device_error(
            op,
            format!("{outputs} outputs are more than a launch can hold"),
        ));
    }
    let target = 4 * s.sms as u64;
    let mut splits = 1;
    if blocks < target && count > lanes * PER_LANE {
        splits = target
            .div_ceil(blocks)
            .min(count.div_ceil(lanes * PER_LANE))
            .min(MAX_SPLITS);
    }
    let split = count.div_ceil(splits).max(1);
    let splits = count.div_ceil(split).max(1);
    let r = Reduction {
        kept: Walk::of_dims(&plan.kept)?,
        red: Walk::of_dims(&plan.reduced)?,
        split,
        along_x: along_x as i32,
        pad: 0,
        correction,
    };
    let to_ptr = to.at(plan.dst_offset as i64);
    let from_ptr = from.at(plan.src_offset as i64);
    let partial = if splits > 1 {
        Some(Storage::uninit(
            device,
            outputs as usize * splits as usize * acc,
        )?)
    } else {
        None
    };
    let partial_ptr = partial.as_ref().map_or(0, |p| p.buffer().ptr);
    let shared = bx * by * acc.next_multiple_of(8) as u32;
    debug_assert!(shared <= MAX_SHARED);
    let module = reduce_module(src.dtype);
    let args = [arg(&to_ptr), arg(&from_ptr), arg(&r), arg(&partial_ptr)];
    // SAFETY: `reduce_<op>_<dt>(Out*, In*, Reduction, Acc*)`; the plan comes
    // from checked layouts, so every kept and reduced offset lands in its
    // buffer; `partial` holds `outputs × splits` partial results; the shared
    // memory holds one per thread (padded to 8 bytes, more than `Acc` needs).
    unsafe {
        launch(
            s,
            module,
            kernel,
            (blocks as u32, splits as u32, 1),
            (bx, by, 1),
            shared,
            &args,
        )?
    };
    if let Some(partial) = partial {
        finish(s, module, kernel, &to, plan, &r, &partial, splits as u32)?;
    }
    Ok(())
}

/// Combines the partial results of a split reduction.
#[allow(clippy::too_many_arguments)]
fn finish(
    s: &State,
    module: &'static str,
    kernel: &str,
    to: &Operand,
    plan: &ReducePlan,
    r: &Reduction,
    partial: &Storage<Cuda>,
    splits: u32,
) -> Result<()> {
    let to_ptr = to.at(plan.dst_offset as i64);
    let partial_ptr = partial.buffer().ptr;
    let blocks = (plan.kept.numel() as u64).div_ceil(256) as u32;
    let args = [arg(&to_ptr), arg(&partial_ptr), arg(r), arg(&splits)];
    // SAFETY: `<kernel>_finish(Out*, Acc*, Reduction, u32)` over the partial
    // results the first launch wrote (the stream runs it after them).
    unsafe {
        launch(
            s,
            module,
            &format!("{kernel}_finish"),
            (blocks.max(1), 1, 1),
            (256, 1, 1),
            0,
            &args,
        )
    }
}

/// True when threads along `x` should walk the reduced elements: the
/// reduced dims include the source's fastest one.
fn along_x(plan: &ReducePlan) -> bool {
    let ((_, [red]), _) = plan.reduced.split_inner();
    let ((_, [kept, _]), _) = plan.kept.split_inner();
    if plan.reduced.sizes.is_empty() {
        return false;
    }
    plan.kept.sizes.is_empty() || red.unsigned_abs() <= kept.unsigned_abs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axial_core::Layout;

    #[test]
    fn reduction_has_the_layout_of_reduce_cu() {
        assert_eq!(size_of::<Reduction>(), 208 + 144 + 8 + 8 + 8);
    }

    #[test]
    fn row_sums_walk_along_x_and_column_sums_do_not() {
        let src = Layout::contiguous(&[64, 100]);
        let rows = ReducePlan::new(&src, &[1], &Layout::contiguous(&[64, 1]));
        assert!(along_x(&rows));
        let cols = ReducePlan::new(&src, &[0], &Layout::contiguous(&[1, 100]));
        assert!(!along_x(&cols));
    }
}
