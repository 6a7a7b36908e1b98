//! Reads by index: `index_select` (an embedding lookup is one along dim 0)
//! and `gather`. Every index is checked before anything is written; an
//! index out of range is an error naming it, where PyTorch's CPU kernels
//! read past the tensor for some (`index_select` with a negative index).

use super::access::{SendPtr, out_ptr, read_ptr};
use super::copy::copy;
use crate::ops::{Gather, IndexSelect, Op, checked_index};
use crate::plan::check_no_negative_strides;
use crate::{Cpu, Input, Layout, Output, Result, with_dtype};

/// The indices of a 1-D or N-D i64 input (its dtype checked by
/// `IndexSelect::check` or `Gather::check`), in its layout's element order.
fn indices(op: &'static str, index: &Input<'_, Cpu>) -> Result<Vec<i64>> {
    let p = read_ptr::<i64>(op, index)?;
    let layout = &index.layout;
    let mut out = Vec::with_capacity(layout.numel());
    for_each_offset(layout, |o| {
        // SAFETY: offsets of a layout checked in bounds by `read_ptr`.
        out.push(unsafe { *p.get().offset(o) });
    });
    Ok(out)
}

/// `f(offset)` for every element of `layout`, in row-major order.
fn for_each_offset(layout: &Layout, mut f: impl FnMut(isize)) {
    let (shape, strides) = (layout.shape(), layout.strides());
    if shape.contains(&0) {
        return;
    }
    let mut idx: crate::layout::Dims = smallvec::smallvec![0; shape.len()];
    let mut off = layout.offset() as isize;
    loop {
        f(off);
        let mut d = shape.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            off += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            off -= strides[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
}

/// `dst = src.index_select(dim, index)`.
pub(crate) fn index_select(
    src: Input<'_, Cpu>,
    dim: usize,
    index: Input<'_, Cpu>,
    dst: Output<'_, Cpu>,
) -> Result<()> {
    let select = IndexSelect { dim };
    let op = select.name();
    select.check(&src, &index, &dst)?;
    let shape = src.layout.shape();
    let size = shape.get(dim).copied().unwrap_or(1);
    // Every index checked before anything is written; the indices are read
    // in place, twice, rather than collected (a lookup in a model's loop
    // allocates nothing).
    let p = read_ptr::<i64>(op, &index)?;
    // SAFETY: offsets of a layout checked in bounds by `read_ptr`.
    let id = |o: isize| unsafe { *p.get().offset(o) };
    let mut checked = Ok(());
    for_each_offset(&index.layout, |o| {
        if checked.is_ok() {
            checked = checked_index(op, id(o), size, dim).map(drop);
        }
    });
    checked?;
    if shape.is_empty() {
        return copy(src, dst);
    }
    dst.layout.check_writable()?;
    let (mut k, mut copied) = (0, Ok(()));
    for_each_offset(&index.layout, |o| {
        if copied.is_err() {
            return;
        }
        copied = checked_index(op, id(o), size, dim).and_then(|r| {
            let from = src.layout.select(dim as isize, r as isize)?;
            let to = dst.layout.select(dim as isize, k)?;
            copy(
                Input {
                    storage: src.storage,
                    layout: from,
                    dtype: src.dtype,
                },
                Output {
                    storage: &mut *dst.storage,
                    layout: to,
                    dtype: dst.dtype,
                },
            )
        });
        k += 1;
    });
    copied
}

/// `dst = src.gather(dim, index)`.
pub(crate) fn gather(
    src: Input<'_, Cpu>,
    dim: usize,
    index: Input<'_, Cpu>,
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let gather = Gather { dim };
    let op = gather.name();
    gather.check(&src, &index, &dst)?;
    let shape = src.layout.shape();
    let ids = indices(op, &index)?;
    let size = shape.get(dim).copied().unwrap_or(1);
    for &i in &ids {
        checked_index(op, i, size, dim)?;
    }
    check_no_negative_strides(op, &src.layout)?;
    check_no_negative_strides(op, &dst.layout)?;
    dst.layout.check_writable()?;
    with_dtype!(src.dtype, T => {
        let ps = read_ptr::<T>(op, &src)?;
        let pd = out_ptr::<T>(op, &mut dst)?;
        gather_typed(ps, &src.layout, dim, &ids, pd, &dst.layout);
    });
    Ok(())
}

/// The typed loop of [`gather`]: `ids` are checked and in `dst`'s
/// row-major order.
fn gather_typed<T: Copy>(
    ps: SendPtr<T>,
    src: &Layout,
    dim: usize,
    ids: &[i64],
    pd: SendPtr<T>,
    dst: &Layout,
) {
    let shape = dst.shape();
    let (ss, ds) = (src.strides(), dst.strides());
    let mut idx: crate::layout::Dims = smallvec::smallvec![0; shape.len()];
    for &i in ids {
        let mut so = src.offset() as isize;
        let mut dof = dst.offset() as isize;
        for d in 0..shape.len() {
            let at = if d == dim { i as usize } else { idx[d] };
            so += at as isize * ss[d];
            dof += idx[d] as isize * ds[d];
        }
        // SAFETY: `idx` is within `dst`'s shape, whose layout was checked in
        // bounds; the source coordinate is `idx` with `dim` replaced by a
        // checked index, and the other dims of `index` are at most `src`'s.
        unsafe { *pd.get().offset(dof) = *ps.get().offset(so) };
        for d in (0..shape.len()).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}
