//! `argmax`/`argmin` along one dim: the first index of the extremum, a NaN
//! winning over every number (the first NaN), through the reduction walker.

use super::reduce::{Arg, run};
use crate::{ArgReduceOp, Cpu, Error, Input, Output, Result, with_real_dtype};

/// `dst = op(src, dim)` as i64 indices.
pub(crate) fn arg_reduce(
    op: ArgReduceOp,
    src: Input<'_, Cpu>,
    dim: usize,
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let plan = op.checked_plan(&src, dim, &dst)?;
    let (src, dst) = (&src, &mut dst);
    with_real_dtype!(src.dtype, T => match op {
        ArgReduceOp::ArgMax => run(Arg::<T, true>::default(), src, dst, &plan),
        ArgReduceOp::ArgMin => run(Arg::<T, false>::default(), src, dst, &plan),
    }, _ => Err(Error::Unsupported { op: op.name(), dtype: src.dtype }))
}
