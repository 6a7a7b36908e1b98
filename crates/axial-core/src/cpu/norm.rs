//! Layer normalisation of contiguous rows: mean and variance in one pass
//! (sums of `x − x₀` and its square, shifted by the row's first element so
//! that a large mean does not cancel the variance away; blocks of the row
//! summed in f32 lanes, the blocks in f64), then one pass that normalises,
//! scales and shifts.

use rayon::prelude::*;

use super::access::{SendPtr, out_ptr, read_ptr};
use super::simd::{Isa, WithIsa, dispatch};
use super::strided::PARALLEL_THRESHOLD;
use crate::{Cpu, DType, Error, Input, Output, Result};

/// Elements summed in f32 lanes before the sums move to f64.
const BLOCK: usize = 1024;

/// `dst = layer_norm(src) · weight + bias` over rows of `src`'s last dim.
pub(crate) fn layer_norm(
    src: Input<'_, Cpu>,
    weight: Option<Input<'_, Cpu>>,
    bias: Option<Input<'_, Cpu>>,
    eps: f64,
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let op = "layer_norm";
    let shape = dst.layout.shape().to_vec();
    let bad = |what: String| Err(Error::invalid(op, what));
    if shape.len() != 2 || src.layout.shape() != shape.as_slice() {
        return bad(format!(
            "expected [rows, n] operands of one shape, got {:?} and {shape:?}",
            src.layout.shape()
        ));
    }
    let (rows, n) = (shape[0], shape[1]);
    let params = [&weight, &bias];
    for p in params.into_iter().flatten() {
        if p.layout.shape() != [n] || !p.layout.is_contiguous() || p.dtype != dst.dtype {
            return bad(format!(
                "weight and bias must be contiguous [{n}] of {}, got {:?} of {}",
                dst.dtype.name(),
                p.layout.shape(),
                p.dtype.name()
            ));
        }
    }
    if !src.layout.is_contiguous() || !dst.layout.is_contiguous() || src.dtype != dst.dtype {
        return bad("the kernel takes contiguous operands of one dtype".into());
    }
    match dst.dtype {
        DType::F32 => {
            let at = |p: SendPtr<f32>, o: usize| SendPtr(p.get().wrapping_add(o));
            let s = at(read_ptr::<f32>(op, &src)?, src.layout.offset());
            let param = |p: &Option<Input<'_, Cpu>>| -> Result<Option<SendPtr<f32>>> {
                p.as_ref()
                    .map(|p| Ok(at(read_ptr::<f32>(op, p)?, p.layout.offset())))
                    .transpose()
            };
            let (w, b) = (param(&weight)?, param(&bias)?);
            let d = at(out_ptr::<f32>(op, &mut dst)?, dst.layout.offset());
            spread(rows, n, |r| {
                // SAFETY: row `r` of `n` elements lies in both checked
                // layouts; weight and bias hold `n`; `src` has its own storage.
                unsafe {
                    let row = Row {
                        src: s.get().add(r * n).cast_const(),
                        dst: d.get().add(r * n),
                        weight: w.map(|w| w.get().cast_const()),
                        bias: b.map(|b| b.get().cast_const()),
                        n,
                        eps,
                    };
                    dispatch(row);
                }
            });
        }
        DType::F64 => {
            let at = |p: SendPtr<f64>, o: usize| SendPtr(p.get().wrapping_add(o));
            let s = at(read_ptr::<f64>(op, &src)?, src.layout.offset());
            let param = |p: &Option<Input<'_, Cpu>>| -> Result<Option<SendPtr<f64>>> {
                p.as_ref()
                    .map(|p| Ok(at(read_ptr::<f64>(op, p)?, p.layout.offset())))
                    .transpose()
            };
            let (w, b) = (param(&weight)?, param(&bias)?);
            let d = at(out_ptr::<f64>(op, &mut dst)?, dst.layout.offset());
            spread(rows, n, |r| {
                // SAFETY: as for f32.
                unsafe {
                    let x = std::slice::from_raw_parts(s.get().add(r * n), n);
                    let y = std::slice::from_raw_parts_mut(d.get().add(r * n), n);
                    let w = w.map(|w| std::slice::from_raw_parts(w.get(), n));
                    let b = b.map(|b| std::slice::from_raw_parts(b.get(), n));
                    row_f64(x, y, w, b, eps);
                }
            });
        }
        dtype => return Err(Error::Unsupported { op, dtype }),
    }
    Ok(())
}

/// `f(r)` for each of `rows` rows of `n`, on several threads when there is work.
fn spread(rows: usize, n: usize, f: impl Fn(usize) + Sync + Send) {
    if rows.saturating_mul(n) < PARALLEL_THRESHOLD || rows < 2 {
        (0..rows).for_each(f);
    } else {
        let grain = (PARALLEL_THRESHOLD / n.max(1)).max(1);
        (0..rows).into_par_iter().with_min_len(grain).for_each(f);
    }
}

/// Mean and `1/√(var + eps)` from the shifted sums of `n` elements.
fn moments(shift: f64, s1: f64, s2: f64, n: usize, eps: f64) -> (f64, f64) {
    let n = n as f64;
    let d = s1 / n;
    let var = (s2 / n - d * d).max(0.0);
    (shift + d, 1.0 / (var + eps).sqrt())
}

fn row_f64(x: &[f64], y: &mut [f64], w: Option<&[f64]>, b: Option<&[f64]>, eps: f64) {
    let shift = x.first().copied().unwrap_or(0.0);
    let (s1, s2) = x.iter().fold((0.0, 0.0), |(s1, s2), &v| {
        let d = v - shift;
        (s1 + d, s2 + d * d)
    });
    let (mean, rstd) = moments(shift, s1, s2, x.len(), eps);
    for (j, (o, &v)) in y.iter_mut().zip(x).enumerate() {
        let z = (v - mean) * rstd;
        *o = z * w.map_or(1.0, |w| w[j]) + b.map_or(0.0, |b| b[j]);
    }
}

/// One f32 row.
struct Row {
    src: *const f32,
    dst: *mut f32,
    weight: Option<*const f32>,
    bias: Option<*const f32>,
    n: usize,
    eps: f64,
}

impl WithIsa for Row {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let (n, lanes) = (self.n, I::LANES);
        if n == 0 {
            return;
        }
        // SAFETY: `src`, `dst`, and weight and bias when present, hold `n`
        // f32 (`layer_norm`); every access below is under `n`.
        unsafe {
            let shift = *self.src;
            let k = isa.splat(shift);
            let (mut s1, mut s2) = (0f64, 0f64);
            let mut start = 0;
            while start < n {
                let end = (start + BLOCK).min(n);
                let (mut a1, mut a2) = (isa.splat(0.0), isa.splat(0.0));
                let mut j = start;
                while j < end {
                    let m = lanes.min(end - j);
                    let x = if m == lanes {
                        isa.load(self.src.add(j))
                    } else {
                        // Masked-off lanes read as the shift: they add 0.
                        isa.add(isa.load_part(self.src.add(j), m), zero_tail(isa, shift, m))
                    };
                    let d = isa.sub(x, k);
                    a1 = isa.add(a1, d);
                    a2 = isa.fma(d, d, a2);
                    j += lanes;
                }
                s1 += isa.sum(a1) as f64;
                s2 += isa.sum(a2) as f64;
                start = end;
            }
            let (mean, rstd) = moments(shift as f64, s1, s2, n, self.eps);
            let (mean, rstd) = (isa.splat(mean as f32), isa.splat(rstd as f32));
            let mut j = 0;
            while j < n {
                let m = lanes.min(n - j);
                let get = |p: *const f32| {
                    if m == lanes {
                        isa.load(p.add(j))
                    } else {
                        isa.load_part(p.add(j), m)
                    }
                };
                let mut z = isa.mul(isa.sub(get(self.src), mean), rstd);
                if let Some(w) = self.weight {
                    z = isa.mul(z, get(w));
                }
                if let Some(b) = self.bias {
                    z = isa.add(z, get(b));
                }
                if m == lanes {
                    isa.store(self.dst.add(j), z);
                } else {
                    isa.store_part(self.dst.add(j), m, z);
                }
                j += lanes;
            }
        }
    }
}

/// `shift` in the lanes from `m` on, 0 below: added to a masked load (0
/// past `m`) it makes those lanes the shift, whose difference is 0.
#[inline(always)]
fn zero_tail<I: Isa>(isa: I, shift: f32, m: usize) -> I::F {
    let mut v = [shift; 16];
    v[..m].fill(0.0);
    // SAFETY: `v` holds 16 ≥ `LANES` f32.
    unsafe { isa.load(v.as_ptr()) }
}
