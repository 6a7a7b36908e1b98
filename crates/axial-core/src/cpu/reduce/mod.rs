//! Reductions over any set of dims of any layout: the checks, the dispatch
//! on dtype and op, and the shared entry the arg reductions use too.

mod ops;
mod plan;
mod side_by_side;
mod walk;
mod widen;

pub(crate) use ops::{Arg, Reducer};
use ops::{Max, Mean, Min, Moments, Prod, Sum, Truth};
pub(crate) use plan::ReducePlan;

use num_complex::Complex;

use super::access::{out_ptr, read_ptr};
use crate::{
    Bool, Cpu, DType, Error, Input, Output, ReduceOp, Result, with_float_dtype, with_real_dtype,
};

/// `dst = op(src)` over `dims`.
pub(crate) fn reduce(
    op: ReduceOp,
    src: Input<'_, Cpu>,
    dims: &[usize],
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let name = op.name();
    let plan = op.checked_plan(&src, dims, &dst)?;
    let (src, dst) = (&src, &mut dst);
    match op {
        ReduceOp::Sum => {
            with_real_dtype!(src.dtype, T => run(Sum::<T>::default(), src, dst, &plan), _ => Err(unsupported(op.name(), src.dtype)))
        }
        ReduceOp::Prod => match src.dtype {
            DType::C64 => run(Prod::<Complex<f32>>::default(), src, dst, &plan),
            DType::C128 => run(Prod::<Complex<f64>>::default(), src, dst, &plan),
            _ => {
                with_real_dtype!(src.dtype, T => run(Prod::<T>::default(), src, dst, &plan), _ => Err(unsupported(op.name(), src.dtype)))
            }
        },
        ReduceOp::Max => {
            with_real_dtype!(src.dtype, T => run(Max::<T>::default(), src, dst, &plan), _ => Err(unsupported(op.name(), src.dtype)))
        }
        ReduceOp::Min => {
            with_real_dtype!(src.dtype, T => run(Min::<T>::default(), src, dst, &plan), _ => Err(unsupported(op.name(), src.dtype)))
        }
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
    let op = if ALL { ReduceOp::All } else { ReduceOp::Any };
    with_real_dtype!(src.dtype, T => match dst.dtype {
        DType::U8 => run(Truth::<T, u8, ALL>::default(), src, dst, plan),
        _ => run(Truth::<T, Bool, ALL>::default(), src, dst, plan),
    }, _ => Err(unsupported(op.name(), src.dtype)))
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
