//! Copies between any two layouts, converting between any two dtypes.

use super::access::{bytes, in_ptr, out_ptr};
use super::map::map1;
use crate::{Cpu, Element, Input, Output, Result, cast, with_dtype};

/// `dst.copy_(src)` with conversion.
pub(crate) fn copy(src: Input<'_, Cpu>, mut dst: Output<'_, Cpu>) -> Result<()> {
    with_dtype!(dst.dtype, O => with_dtype!(src.dtype, S => copy_typed::<S, O>(&src, &mut dst)))
}

fn copy_typed<S: Element, O: Element>(
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
) -> Result<()> {
    let po = out_ptr::<O>("copy_", dst)?;
    let ps = in_ptr::<S>("copy_", src, dst, bytes(po))?;
    // SAFETY: both layouts were checked in bounds of their storages above.
    unsafe { map1((po, &dst.layout), (ps, &src.layout), cast::<S, O>) };
    Ok(())
}
