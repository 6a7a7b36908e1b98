//! Reductions over any set of dims of any layout: the checks, the dispatch
//! on dtype and op, and the shared entry the arg reductions use too.

mod ops;
mod plan;
mod walk;
mod widen;

pub(crate) use ops::{Arg, Reducer};
use ops::{Max, Mean, Min, Moments, Prod, Sum, Truth};
pub(crate) use plan::{Dims, Odometer, ReducePlan};

use super::access::{check_strides, out_ptr, read_ptr};
use crate::{
    Bool, Cpu, DType, Error, Input, Output, ReduceOp, Result, with_dtype, with_float_dtype,
};

/// `dst = op(src)` over `dims`.
pub(crate) fn reduce(
    op: ReduceOp,
    src: Input<'_, Cpu>,
    dims: &[usize],
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let name = op.name();
    let out_dtype = op.output_dtype(src.dtype)?;
    if dst.dtype != out_dtype {
        return Err(Error::DTypeMismatch {
            op: name,
            expected: out_dtype,
            got: dst.dtype,
        });
    }
    let plan = checked_plan(name, &src, dims, &dst)?;
    if op.needs_elements() {
        check_nonempty(name, &src, dims, &plan)?;
    }
    let (src, dst) = (&src, &mut dst);
    match op {
        ReduceOp::Sum => with_dtype!(src.dtype, T => run(Sum::<T>::default(), src, dst, &plan)),
        ReduceOp::Prod => with_dtype!(src.dtype, T => run(Prod::<T>::default(), src, dst, &plan)),
        ReduceOp::Max => with_dtype!(src.dtype, T => run(Max::<T>::default(), src, dst, &plan)),
        ReduceOp::Min => with_dtype!(src.dtype, T => run(Min::<T>::default(), src, dst, &plan)),
        ReduceOp::All => truth::<true>(src, dst, &plan),
        ReduceOp::Any => truth::<false>(src, dst, &plan),
        ReduceOp::Mean => with_float_dtype!(
            src.dtype, T => run(Mean::<T>::default(), src, dst, &plan),
            _ => Err(unsupported(name, src.dtype))
        ),
        ReduceOp::Var { correction } => with_float_dtype!(
            src.dtype, T => run(Moments::<T, false>::new(correction), src, dst, &plan),
            _ => Err(unsupported(name, src.dtype))
        ),
        ReduceOp::Std { correction } => with_float_dtype!(
            src.dtype, T => run(Moments::<T, true>::new(correction), src, dst, &plan),
            _ => Err(unsupported(name, src.dtype))
        ),
    }
}

fn unsupported(op: &'static str, dtype: DType) -> Error {
    Error::Unsupported { op, dtype }
}

/// `all`/`any`, written as bool, or as u8 for u8 input.
fn truth<const ALL: bool>(
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    plan: &ReducePlan,
) -> Result<()> {
    with_dtype!(src.dtype, T => match dst.dtype {
        DType::U8 => run(Truth::<T, u8, ALL>::default(), src, dst, plan),
        _ => run(Truth::<T, Bool, ALL>::default(), src, dst, plan),
    })
}

/// Checks `dims` against `src` and `dst`'s shape against the reduction's,
/// and plans the walk.
pub(crate) fn checked_plan(
    op: &'static str,
    src: &Input<'_, Cpu>,
    dims: &[usize],
    dst: &Output<'_, Cpu>,
) -> Result<ReducePlan> {
    let rank = src.layout.rank();
    for (i, &d) in dims.iter().enumerate() {
        if d >= rank.max(1) {
            return Err(Error::DimOutOfRange {
                dim: d as isize,
                rank,
            });
        }
        if dims[..i].contains(&d) {
            return Err(Error::invalid(
                op,
                format!("dim {d} appears multiple times in the list of dims"),
            ));
        }
    }
    let expected: Vec<usize> = (src.layout.shape().iter().enumerate())
        .map(|(d, &n)| if dims.contains(&d) { 1 } else { n })
        .collect();
    if dst.layout.shape() != expected.as_slice() {
        return Err(Error::invalid(
            op,
            format!(
                "an output of shape {:?} was given for a reduction of shape {:?} over dims {dims:?}",
                dst.layout.shape(),
                src.layout.shape()
            ),
        ));
    }
    check_strides(op, &dst.layout)?;
    Ok(ReducePlan::new(&src.layout, dims, &dst.layout))
}

/// Refuses an empty reduction for ops without an identity (max, min, argmax).
pub(crate) fn check_nonempty(
    op: &'static str,
    src: &Input<'_, Cpu>,
    dims: &[usize],
    plan: &ReducePlan,
) -> Result<()> {
    if plan.kept.numel() > 0 && plan.reduced.numel() == 0 {
        let d = dims.iter().find(|&&d| src.layout.shape()[d] == 0);
        return Err(Error::invalid(
            op,
            format!(
                "Expected reduction dim {} to have non-zero size.",
                d.copied().unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

/// Runs reducer `r` along `plan` after the pointer checks.
pub(crate) fn run<R: Reducer>(
    r: R,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    plan: &ReducePlan,
) -> Result<()> {
    let ps = read_ptr::<R::In>("reduce", src)?;
    let pd = out_ptr::<R::Out>("reduce", dst)?;
    // SAFETY: `read_ptr` and `out_ptr` checked both layouts in bounds of their
    // storages; the source is a shared borrow of a storage and the output a
    // unique one, so they do not overlap.
    unsafe { walk::reduce(plan, ps, pd, r) };
    Ok(())
}
