//! `fill_`: one value into every element of any layout.

use super::access::out_ptr;
use crate::{Cpu, Element, Output, Result, Scalar, with_dtype};

/// `dst.fill_(value)`.
pub(crate) fn fill(mut dst: Output<'_, Cpu>, value: Scalar) -> Result<()> {
    with_dtype!(dst.dtype, T => fill_typed::<T>(&mut dst, value.to::<T>()))
}

fn fill_typed<T: Element>(dst: &mut Output<'_, Cpu>, v: T) -> Result<()> {
    let p = out_ptr::<T>("fill_", dst)?;
    // SAFETY: the layout was checked in bounds by `out_ptr`.
    unsafe { super::map::fill((p, &dst.layout), v) };
    Ok(())
}
