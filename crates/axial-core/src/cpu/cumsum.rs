//! `cumsum`: running sums along one dim of any layout. Floats add in their
//! compute type (f16 and bf16 in f32, each output rounded), integers wrap.

use super::access::{SendPtr, bytes, in_ptr, out_ptr};
use super::math::{Float, FloatElem, Int, by_kind};
use crate::ops::{Cumsum, Op};
use crate::{Cpu, DType, Element, Error, Input, Layout, Output, Result};

/// `dst = cumsum(src, dim)`; both of `dst`'s dtype.
pub(crate) fn cumsum(src: Input<'_, Cpu>, dim: usize, mut dst: Output<'_, Cpu>) -> Result<()> {
    let cumsum = Cumsum { dim };
    let op = cumsum.name();
    cumsum.check(&src, &dst)?;
    let (s, d) = (&src, &mut dst);
    by_kind!(s.dtype,
        float F => {
            let po = out_ptr::<F>(op, d)?;
            let pa = in_ptr::<F>(op, s, d, bytes(po))?;
            scan(pa, &s.layout, po, &d.layout, dim, <<F as FloatElem>::F as Float>::ZERO, |acc, x: F| acc + x.load(), <F as FloatElem>::store);
        },
        int I => {
            let po = out_ptr::<I>(op, d)?;
            let pa = in_ptr::<I>(op, s, d, bytes(po))?;
            scan(pa, &s.layout, po, &d.layout, dim, <I as Element>::ZERO, |acc: I, x: I| Int::wrapping_add(acc, x), |v| v);
        },
        bool => return Err(Error::Unsupported { op, dtype: DType::Bool }),
        other => return Err(Error::Unsupported { op, dtype: s.dtype }));
    Ok(())
}

/// The running fold `acc = add(acc, x)` along `dim`, storing `out(acc)`.
#[allow(clippy::too_many_arguments)]
fn scan<T: Copy, A: Copy, O: Copy>(
    pa: SendPtr<T>,
    src: &Layout,
    po: SendPtr<O>,
    dst: &Layout,
    dim: usize,
    zero: A,
    add: impl Fn(A, T) -> A,
    out: impl Fn(A) -> O,
) {
    let shape = dst.shape();
    if shape.contains(&0) {
        return;
    }
    let rank = shape.len();
    let (ss, ds) = (src.strides(), dst.strides());
    let len = shape.get(dim).copied().unwrap_or(1);
    let (step_s, step_d) = (
        ss.get(dim).copied().unwrap_or(0),
        ds.get(dim).copied().unwrap_or(0),
    );
    // Walk every position of the other dims; `dim` stays at 0.
    let mut idx = vec![0usize; rank];
    loop {
        let mut so = src.offset() as isize;
        let mut dof = dst.offset() as isize;
        for d in 0..rank {
            so += idx[d] as isize * ss[d];
            dof += idx[d] as isize * ds[d];
        }
        let mut acc = zero;
        for k in 0..len as isize {
            // SAFETY: offsets of positions within the shape of layouts
            // checked in bounds; an input aliasing the output is read at a
            // position before it is written there.
            unsafe {
                acc = add(acc, *pa.get().offset(so + k * step_s));
                *po.get().offset(dof + k * step_d) = out(acc);
            }
        }
        let mut d = rank;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            if d == dim {
                continue;
            }
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}
