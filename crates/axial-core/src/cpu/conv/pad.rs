//! Padding: every output element is an input element chosen per dim by an
//! index map (constant, reflected, replicated or circular padding are four
//! such maps), or a constant where a map has no source.

use crate::cpu::access::{out_ptr, read_ptr};
use crate::{Cpu, DType, Error, Input, Output, Result};

/// `y[i₀, i₁, ...] = x[map₀[i₀], map₁[i₁], ...]`, or `fill` (the element's
/// bytes) where any map gives `None`. Any dtype.
pub(crate) fn gather_padded(
    x: Input<'_, Cpu>,
    mut y: Output<'_, Cpu>,
    maps: &[Vec<Option<usize>>],
    fill: &[u8],
) -> Result<()> {
    let op = "pad";
    let (xs, ys) = (x.layout.shape(), y.layout.shape().to_vec());
    let ok = maps.len() == ys.len()
        && xs.len() == ys.len()
        && maps.iter().zip(&ys).all(|(m, &n)| m.len() == n)
        && maps
            .iter()
            .zip(xs)
            .all(|(m, &n)| m.iter().flatten().all(|&i| i < n))
        && x.dtype == y.dtype
        && fill.len() == y.dtype.size();
    if !ok {
        return Err(Error::invalid(op, "kernel operands"));
    }
    macro_rules! go {
        ($t:ty) => {{
            let (xp, yp) = (read_ptr::<$t>(op, &x)?, out_ptr::<$t>(op, &mut y)?);
            let value: $t = bytemuck::pod_read_unaligned(fill);
            let (xst, yst) = (x.layout.strides(), y.layout.strides());
            walk(
                &ys,
                0,
                Some(x.layout.offset() as isize),
                y.layout.offset() as isize,
                &mut |xo, yo| {
                    // SAFETY: the maps give in-range input indices; the output
                    // index is in range of its checked layout.
                    unsafe { *yp.get().offset(yo) = xo.map_or(value, |o| *xp.get().offset(o)) };
                },
                &|d, i| (maps[d][i].map(|s| s as isize * xst[d]), i as isize * yst[d]),
            );
        }};
    }
    match y.dtype {
        DType::F64 => go!(f64),
        DType::F32 => go!(f32),
        DType::F16 => go!(half::f16),
        DType::BF16 => go!(half::bf16),
        DType::I64 => go!(i64),
        DType::I32 => go!(i32),
        DType::I16 => go!(i16),
        DType::I8 => go!(i8),
        DType::U8 => go!(u8),
        DType::Bool => go!(crate::Bool),
        DType::U16 => go!(u16),
        DType::U32 => go!(u32),
        DType::U64 => go!(u64),
        DType::C64 => go!(num_complex::Complex<f32>),
        DType::C128 => go!(num_complex::Complex<f64>),
        DType::F8E4M3Fn => go!(crate::float8::F8E4M3Fn),
        DType::F8E5M2 => go!(crate::float8::F8E5M2),
        DType::F8E4M3FnUz => go!(crate::float8::F8E4M3FnUz),
        DType::F8E5M2FnUz => go!(crate::float8::F8E5M2FnUz),
    }
    Ok(())
}

/// Calls `f(input offset, output offset)` for every output index.
fn walk(
    shape: &[usize],
    d: usize,
    xo: Option<isize>,
    yo: isize,
    f: &mut dyn FnMut(Option<isize>, isize),
    step: &dyn Fn(usize, usize) -> (Option<isize>, isize),
) {
    if d == shape.len() {
        f(xo, yo);
        return;
    }
    for i in 0..shape[d] {
        let (dx, dy) = step(d, i);
        let x = match (xo, dx) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        walk(shape, d + 1, x, yo + dy, f, step);
    }
}
