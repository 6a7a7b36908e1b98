//! `where(cond, a, b)`: elements of `a` where `cond` is true, else of `b`.

use super::map::apply3;
use crate::{Bool, Cpu, Input, Output, Result, with_dtype};

/// `dst = where(cond, a, b)`: `cond` is bool; `a`, `b` and `dst` share a dtype.
pub(crate) fn select_where(
    cond: Input<'_, Cpu>,
    a: Input<'_, Cpu>,
    b: Input<'_, Cpu>,
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    with_dtype!(a.dtype, T => apply3("where", [&cond, &a, &b], &mut dst, |c: Bool, x: T, y: T| {
        if c.get() { x } else { y }
    }))
}
