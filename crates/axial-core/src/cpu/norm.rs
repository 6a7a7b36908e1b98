//! Layer normalisation of contiguous rows (f16 and bf16 widened into f32 a
//! row at a time): mean and variance in one pass
//! (sums of `x − x₀` and its square, shifted by the row's first element so
//! that a large mean does not cancel the variance away; blocks of the row
//! summed in f32 lanes, the blocks in f64), then one pass that normalises,
//! scales and shifts.

use rayon::prelude::*;

use super::access::{SendPtr, out_ptr, read_ptr};
use super::convert::Half;
use super::copy::copy;
use super::simd::{Isa, WithIsa, dispatch};
use super::strided::PARALLEL_THRESHOLD;
use crate::ops::compose::own;
use crate::ops::{LayerNorm, Op};
use crate::tensor::alloc_output;
use crate::{Cpu, DType, Element, Error, Input, Layout, Output, RawTensor, Result};

/// Elements summed in f32 lanes before the sums move to f64.
const BLOCK: usize = 1024;

/// `dst = layer_norm(src) · weight + bias` over rows of `src`'s last dim;
/// f16 and bf16 computed in f32, each row widened into f32 as it is read
/// and rounded once as it is written. Strided operands are copied
/// contiguous first (a strided output written through a contiguous buffer).
pub(crate) fn layer_norm(
    op: LayerNorm,
    src: Input<'_, Cpu>,
    weight: Option<Input<'_, Cpu>>,
    bias: Option<Input<'_, Cpu>>,
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let name = op.name();
    let (rows, n) = op.check(&src, [weight.as_ref(), bias.as_ref()], &dst)?;
    if rows == 0 || n == 0 {
        return Ok(());
    }
    if !dst.layout.is_contiguous() {
        let mut out = alloc_output(&Cpu, Layout::contiguous(&[rows, n]), dst.dtype)?;
        layer_norm(op, src, weight, bias, out.output())?;
        return copy(out.view().input(), dst);
    }
    let dtype = dst.dtype;
    if !src.layout.is_contiguous() || src.storage.is_none() {
        let x = own(&Cpu, &src, &dst, dtype)?;
        return layer_norm(op, x.view().input(), weight, bias, dst);
    }
    // The weight and bias as contiguous f32 (f64 for f64).
    let wide = if dtype == DType::F64 {
        DType::F64
    } else {
        DType::F32
    };
    let param =
        |p: &Option<Input<'_, Cpu>>| p.as_ref().map(|p| own(&Cpu, p, &dst, wide)).transpose();
    let (w, b) = (param(&weight)?, param(&bias)?);
    let addr = |t: &Option<RawTensor>| t.as_ref().map(|t| t.storage().as_bytes().as_ptr() as usize);
    let (wp, bp) = (addr(&w), addr(&b));
    let eps = op.eps;
    match dtype {
        DType::F32 => rows_of::<f32>(name, &src, &mut dst, (rows, n), (wp, bp), eps),
        DType::F16 => rows_of::<half::f16>(name, &src, &mut dst, (rows, n), (wp, bp), eps),
        DType::BF16 => rows_of::<half::bf16>(name, &src, &mut dst, (rows, n), (wp, bp), eps),
        DType::F64 => {
            let s = first(read_ptr::<f64>(name, &src)?, src.layout.offset());
            let d = first(out_ptr::<f64>(name, &mut dst)?, dst.layout.offset());
            spread(rows, n, |r| {
                // SAFETY: row `r` of `n` elements lies in both checked
                // layouts; weight and bias are contiguous copies of `n`;
                // `src` has its own storage.
                unsafe {
                    let x = std::slice::from_raw_parts(s.get().add(r * n), n);
                    let y = std::slice::from_raw_parts_mut(d.get().add(r * n), n);
                    let w = wp.map(|w| std::slice::from_raw_parts(w as *const f64, n));
                    let b = bp.map(|b| std::slice::from_raw_parts(b as *const f64, n));
                    row_f64(x, y, w, b, eps);
                }
            });
            Ok(())
        }
        dtype => Err(Error::Unsupported { op: name, dtype }),
    }
}

/// The pointer to the element at `offset`.
fn first<T>(p: SendPtr<T>, offset: usize) -> SendPtr<T> {
    SendPtr(p.get().wrapping_add(offset))
}

/// The rows of f32, f16 or bf16 (`E`), with the f32 weight and bias at
/// `params` (addresses of `n` contiguous f32).
fn rows_of<E: NormElem>(
    name: &'static str,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    (rows, n): (usize, usize),
    (w, b): (Option<usize>, Option<usize>),
    eps: f64,
) -> Result<()> {
    let s = first(read_ptr::<E>(name, src)?, src.layout.offset());
    let d = first(out_ptr::<E>(name, dst)?, dst.layout.offset());
    spread(rows, n, |r| {
        // SAFETY: row `r` of `n` elements lies in both checked layouts;
        // weight and bias hold `n` f32; `src` has its own storage.
        unsafe {
            E::row(Row {
                src: s.get().add(r * n).cast_const(),
                dst: d.get().add(r * n),
                weight: w.map(|w| w as *const f32),
                bias: b.map(|b| b as *const f32),
                n,
                eps,
            })
        };
    });
    Ok(())
}

/// The element types of the f32 kernel: f32 as it is, f16 and bf16
/// through a row of f32.
trait NormElem: Element {
    /// Normalises one row.
    ///
    /// # Safety
    /// As [`Row`]'s fields say.
    unsafe fn row(row: Row<Self>);
}

impl NormElem for f32 {
    unsafe fn row(row: Row<f32>) {
        dispatch(row);
    }
}

macro_rules! half_rows {
    ($($t:ty),*) => {$(
        impl NormElem for $t {
            unsafe fn row(row: Row<$t>) {
                let n = row.n;
                let mut stack = [0f32; STACK_ROW];
                let mut heap = vec![];
                let scratch = if n <= STACK_ROW {
                    &mut stack[..n]
                } else {
                    heap.resize(n, 0f32);
                    &mut heap[..]
                };
                // SAFETY: the row's `n` elements at `src` and `dst` (the
                // caller's contract).
                let (src, dst) = unsafe {
                    (std::slice::from_raw_parts(row.src, n), std::slice::from_raw_parts_mut(row.dst, n))
                };
                <$t as Half>::widen_run(src, scratch);
                let p = scratch.as_mut_ptr();
                dispatch(Row {
                    src: p.cast_const(),
                    dst: p,
                    weight: row.weight,
                    bias: row.bias,
                    n,
                    eps: row.eps,
                });
                <$t as Half>::narrow_run(scratch, dst);
            }
        }
    )*};
}
half_rows!(half::f16, half::bf16);

/// Rows of f16 and bf16 up to this long are widened on the stack (16 KiB).
const STACK_ROW: usize = 4096;

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

/// One row of `n` elements at `src` (readable) and `dst` (writable: the
/// same row, or one that does not overlap it), with `n` f32 of weight and
/// of bias when given.
struct Row<E> {
    src: *const E,
    dst: *mut E,
    weight: Option<*const f32>,
    bias: Option<*const f32>,
    n: usize,
    eps: f64,
}

impl WithIsa for Row<f32> {
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
