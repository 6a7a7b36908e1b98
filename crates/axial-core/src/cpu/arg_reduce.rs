//! `argmax`/`argmin` along one dim: the first index of the extremum, a NaN
//! winning over every number (the first NaN), through the reduction walker.

use super::reduce::{Arg, check_nonempty, checked_plan, run};
use crate::{ArgReduceOp, Cpu, DType, Error, Input, Output, Result, with_dtype};

/// `dst = op(src, dim)` as i64 indices.
pub(crate) fn arg_reduce(
    op: ArgReduceOp,
    src: Input<'_, Cpu>,
    dim: usize,
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let name = op.name();
    if dst.dtype != DType::I64 {
        return Err(Error::DTypeMismatch {
            op: name,
            expected: DType::I64,
            got: dst.dtype,
        });
    }
    // A 0-dim source accepts dim 0 and has nothing to reduce.
    let dims: &[usize] = if src.layout.rank() == 0 && dim == 0 {
        &[]
    } else {
        &[dim]
    };
    let plan = checked_plan(name, &src, dims, &dst)?;
    check_nonempty(name, &src, dims, &plan)?;
    let (src, dst) = (&src, &mut dst);
    with_dtype!(src.dtype, T => match op {
        ArgReduceOp::ArgMax => run(Arg::<T, true>::default(), src, dst, &plan),
        ArgReduceOp::ArgMin => run(Arg::<T, false>::default(), src, dst, &plan),
    })
}
