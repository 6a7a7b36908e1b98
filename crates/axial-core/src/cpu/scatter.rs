//! `scatter_add`: sums into the positions an index names, the gradient of
//! every read by index. Every index is checked before anything is written.
//! Work is split over the positions off the dim, so no two threads add
//! into one element.

use rayon::prelude::*;

use super::access::{SendPtr, out_ptr, read_ptr};
use crate::ops::{Op, ScatterAdd, checked_index};
use crate::plan::check_no_negative_strides;
use crate::{Cpu, DType, Element, Error, Input, Output, Result};

/// Elements of work below which one thread runs the whole op.
const PARALLEL_ABOVE: usize = 1 << 15;

/// `dst.scatter_add_(dim, index, src)`.
pub(crate) fn scatter_add(
    op: ScatterAdd,
    mut dst: Output<'_, Cpu>,
    index: Input<'_, Cpu>,
    src: Input<'_, Cpu>,
) -> Result<()> {
    op.check(&dst, &index, &src)?;
    let name = op.name();
    let dim = op.dim;
    let n = dst.layout.shape().get(dim).copied().unwrap_or(1);
    for l in [&dst.layout, &index.layout, &src.layout] {
        check_no_negative_strides(name, l)?;
    }
    dst.layout.check_writable()?;
    let pi = read_ptr::<i64>(name, &index)?;
    // Check every index first: nothing is written if one is out of range.
    let mut bad = None;
    walk(&index.layout, index.layout.offset(), |o| {
        // SAFETY: offsets of `index`'s layout, checked in bounds by `read_ptr`.
        let i = unsafe { *pi.get().offset(o) };
        if bad.is_none() && checked_index(name, i, n, dim).is_err() {
            bad = Some(i);
        }
    });
    if let Some(i) = bad {
        checked_index(name, i, n, dim)?;
    }
    match dst.dtype {
        DType::F32 => typed::<f32>(name, dim, &mut dst, &index, &src, pi, |d, s| d + s),
        DType::F64 => typed::<f64>(name, dim, &mut dst, &index, &src, pi, |d, s| d + s),
        DType::F16 => typed::<half::f16>(name, dim, &mut dst, &index, &src, pi, |d, s| {
            half::f16::from_f32(d.to_f32() + s.to_f32())
        }),
        DType::BF16 => typed::<half::bf16>(name, dim, &mut dst, &index, &src, pi, |d, s| {
            half::bf16::from_f32(d.to_f32() + s.to_f32())
        }),
        DType::I64 => typed::<i64>(name, dim, &mut dst, &index, &src, pi, i64::wrapping_add),
        other => Err(Error::Unsupported {
            op: name,
            dtype: other,
        }),
    }
}

/// The loop for element type `T`: one task per position off the dim, each
/// running along the dim in order.
fn typed<T: Element>(
    name: &'static str,
    dim: usize,
    dst: &mut Output<'_, Cpu>,
    index: &Input<'_, Cpu>,
    src: &Input<'_, Cpu>,
    pi: SendPtr<i64>,
    add: impl Fn(T, T) -> T + Sync,
) -> Result<()> {
    let pd = out_ptr::<T>(name, dst)?;
    let ps = read_ptr::<T>(name, src)?;
    let shape = index.layout.shape();
    if shape.contains(&0) {
        return Ok(());
    }
    let rank = shape.len();
    let along = if rank == 0 { 1 } else { shape[dim] };
    let stride = |l: &crate::Layout| if rank == 0 { 0 } else { l.strides()[dim] };
    let (is, ss, ds) = (
        stride(&index.layout),
        stride(&src.layout),
        stride(&dst.layout),
    );
    // The positions off the dim: the layouts with the dim taken out.
    let off = |l: &crate::Layout| -> Result<crate::Layout> {
        if rank == 0 {
            return Ok(l.clone());
        }
        l.select(dim as isize, 0)
    };
    let mut dst_off = off(&dst.layout)?;
    for (d, &m) in shape.iter().enumerate() {
        if d != dim {
            let at = if d < dim { d } else { d - 1 };
            dst_off = dst_off.narrow(at as isize, 0, m)?;
        }
    }
    let (index_off, src_off) = (off(&index.layout)?, off(&src.layout)?);
    let mut starts = Vec::with_capacity(index_off.numel());
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    walk(&index_off, index_off.offset(), |o| a.push(o));
    walk(&src_off, src_off.offset(), |o| b.push(o));
    walk(&dst_off, dst_off.offset(), |o| c.push(o));
    for ((i, s), d) in a.into_iter().zip(b).zip(c) {
        starts.push((i, s, d));
    }
    let run = |&(i0, s0, d0): &(isize, isize, isize)| {
        for k in 0..along as isize {
            // SAFETY: the index, source and destination offsets are of
            // layouts checked in bounds (`read_ptr`, `out_ptr`); the index
            // value was checked in `0..n` above, so the destination offset
            // is within `dst`'s layout. Tasks own distinct positions off
            // the dim, so no two write one element.
            unsafe {
                let i = *pi.get().offset(i0 + k * is);
                let at = pd.get().offset(d0 + i as isize * ds);
                *at = add(*at, *ps.get().offset(s0 + k * ss));
            }
        }
    };
    if starts.len() * along >= PARALLEL_ABOVE && starts.len() > 1 {
        starts.par_iter().for_each(run);
    } else {
        starts.iter().for_each(run);
    }
    Ok(())
}

/// `f(offset)` for every element of a layout of `shape`/`strides` starting
/// at `start`, in row-major order.
fn walk(layout: &crate::Layout, start: usize, mut f: impl FnMut(isize)) {
    let (shape, strides) = (layout.shape(), layout.strides());
    if shape.contains(&0) {
        return;
    }
    let mut idx = vec![0usize; shape.len()];
    let mut o = start as isize;
    loop {
        f(o);
        let mut d = shape.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            o += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            o -= strides[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
}
