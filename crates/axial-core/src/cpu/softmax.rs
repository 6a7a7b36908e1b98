//! `softmax` and `log_softmax` fused over the reduced dim: one pass for the
//! maximum, one that writes `exp(x − max)` and sums it, one that scales
//! (softmax) or subtracts `max + ln(sum)` (log_softmax); each slice stays in
//! cache between them.
//!
//! Operands are contiguous and of one dtype (f32 or f64; the core converts
//! the others). A slice along the last dim is a unit-stride row; along
//! another dim, the elements of the dims after it are contiguous, and
//! vectors run along them, each lane its own slice.

use rayon::prelude::*;

use super::access::{SendPtr, out_ptr, read_ptr};
use super::simd::{Isa, WithIsa, dispatch};
use super::strided::PARALLEL_THRESHOLD;
use super::vmath::exp;
use crate::{Cpu, DType, Error, Input, Output, Result};

/// `dst = softmax(src)` (or `log_softmax`) over `dim`.
pub(crate) fn softmax(
    src: Input<'_, Cpu>,
    dim: usize,
    log: bool,
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let name = if log { "log_softmax" } else { "softmax" };
    let shape = dst.layout.shape().to_vec();
    if src.layout.shape() != shape.as_slice() || dim >= shape.len().max(1) {
        return Err(Error::invalid(
            name,
            format!(
                "dim {dim} of an input of shape {:?} into an output of shape {shape:?}",
                src.layout.shape()
            ),
        ));
    }
    if !src.layout.is_contiguous() || !dst.layout.is_contiguous() || src.dtype != dst.dtype {
        return Err(Error::invalid(
            name,
            "the kernel takes contiguous operands of one dtype",
        ));
    }
    let len = shape.get(dim).copied().unwrap_or(1);
    let inner: usize = shape.iter().skip(dim + 1).product();
    let outer: usize = shape.iter().take(dim).product();
    let slices = Slices {
        outer,
        len,
        inner,
        log,
    };
    match dst.dtype {
        DType::F32 => {
            let (s, d) = (
                read_ptr::<f32>(name, &src)?,
                out_ptr::<f32>(name, &mut dst)?,
            );
            // SAFETY: both contiguous layouts of this shape were checked in
            // bounds; `src` is a storage of its own (`read_ptr`).
            unsafe { slices.run_f32(first(s, src.layout.offset()), first(d, dst.layout.offset())) };
        }
        DType::F64 => {
            let (s, d) = (
                read_ptr::<f64>(name, &src)?,
                out_ptr::<f64>(name, &mut dst)?,
            );
            // SAFETY: as above.
            unsafe { slices.run_f64(first(s, src.layout.offset()), first(d, dst.layout.offset())) };
        }
        dtype => return Err(Error::Unsupported { op: name, dtype }),
    }
    Ok(())
}

/// The pointer to the first element of a layout at `offset`.
fn first<T>(p: SendPtr<T>, offset: usize) -> SendPtr<T> {
    SendPtr(p.get().wrapping_add(offset))
}

/// A contiguous tensor seen as `[outer, len, inner]`, reduced over `len`.
#[derive(Copy, Clone)]
struct Slices {
    outer: usize,
    len: usize,
    inner: usize,
    log: bool,
}

impl Slices {
    /// Units of `outer` handed to a thread at a time: about the parallel
    /// threshold's worth of elements.
    fn grain(&self) -> usize {
        (PARALLEL_THRESHOLD / (self.len * self.inner).max(1)).max(1)
    }

    /// # Safety
    /// `src` and `dst` hold `outer·len·inner` f32 each, and do not overlap.
    unsafe fn run_f32(self, src: SendPtr<f32>, dst: SendPtr<f32>) {
        let each = |o: usize| {
            let at = o * self.len * self.inner;
            // SAFETY: slice `o` lies within both buffers.
            let (s, d) = unsafe { (src.get().add(at).cast_const(), dst.get().add(at)) };
            dispatch(Slice {
                src: s,
                dst: d,
                len: self.len,
                inner: self.inner,
                log: self.log,
            });
        };
        self.spread(each);
    }

    /// # Safety
    /// As [`Slices::run_f32`], for f64.
    unsafe fn run_f64(self, src: SendPtr<f64>, dst: SendPtr<f64>) {
        let (len, inner, log) = (self.len, self.inner, self.log);
        self.spread(|o| {
            for i in 0..inner {
                let at = o * len * inner + i;
                // SAFETY: element `at + j·inner` is in both buffers for j < len.
                unsafe { slice_f64(src.get().add(at), dst.get().add(at), len, inner, log) };
            }
        });
    }

    /// `f(o)` for every `o < outer`, on several threads when there is work.
    fn spread(&self, f: impl Fn(usize) + Sync + Send) {
        let total = self.outer * self.len * self.inner;
        if total < PARALLEL_THRESHOLD || rayon::current_num_threads() == 1 {
            (0..self.outer).for_each(f);
        } else {
            (0..self.outer)
                .into_par_iter()
                .with_min_len(self.grain())
                .for_each(f);
        }
    }
}

/// One `[len, inner]` slice of f32.
struct Slice {
    src: *const f32,
    dst: *mut f32,
    len: usize,
    inner: usize,
    log: bool,
}

impl WithIsa for Slice {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let n = I::LANES;
        let mut i = 0;
        // SAFETY: `src`/`dst` hold `len·inner` elements (`run_f32`), and
        // every access of both loops is below that.
        unsafe {
            if self.inner == 1 {
                row(isa, self.src, self.dst, self.len, self.log);
                return;
            }
            while i < self.inner {
                let lanes = n.min(self.inner - i);
                columns(isa, &self, i, lanes);
                i += n;
            }
        }
    }
}

/// Loads `lanes ≤ LANES` f32 at `p` (the rest 0).
///
/// # Safety
/// `p` is readable for `lanes` f32.
#[inline(always)]
unsafe fn load<I: Isa>(isa: I, p: *const f32, lanes: usize) -> I::F {
    // SAFETY: the caller's contract.
    unsafe {
        if lanes == I::LANES {
            isa.load(p)
        } else {
            isa.load_part(p, lanes)
        }
    }
}

/// Stores `lanes ≤ LANES` f32 at `p`.
///
/// # Safety
/// `p` is writable for `lanes` f32.
#[inline(always)]
unsafe fn store<I: Isa>(isa: I, p: *mut f32, lanes: usize, v: I::F) {
    // SAFETY: the caller's contract.
    unsafe {
        if lanes == I::LANES {
            isa.store(p, v)
        } else {
            isa.store_part(p, lanes, v)
        }
    }
}

/// One unit-stride row of `len`.
///
/// # Safety
/// `src` is readable and `dst` writable for `len` f32.
#[inline(always)]
unsafe fn row<I: Isa>(isa: I, src: *const f32, dst: *mut f32, len: usize, log: bool) {
    let n = I::LANES;
    // SAFETY: every access is below `len` (the caller's contract).
    unsafe {
        // The maximum: masked-off lanes of the last vector read as −∞.
        let mut m = isa.splat(f32::NEG_INFINITY);
        let mut j = 0;
        while j + n <= len {
            m = isa.max(isa.load(src.add(j)), m);
            j += n;
        }
        let mut max = isa.max_lane(m);
        for k in j..len {
            let v = *src.add(k);
            max = if v.is_nan() || v > max { v } else { max };
        }
        if max.is_nan() {
            for k in 0..len {
                *dst.add(k) = f32::NAN;
            }
            return;
        }
        // exp(x − max), all −∞ rows give NaN as PyTorch (−∞ − −∞).
        let mv = isa.splat(max);
        let mut s = isa.splat(0.0);
        let mut j = 0;
        while j < len {
            let lanes = n.min(len - j);
            let e = exp(isa, isa.sub(load(isa, src.add(j), lanes), mv));
            let e = if lanes == n {
                e
            } else {
                // Lanes past the end: the masked load read 0, so e⁰ = 1 there.
                isa.select(
                    isa.lt(isa.splat(0.0), tail_mask(isa, lanes)),
                    e,
                    isa.splat(0.0),
                )
            };
            s = isa.add(s, e);
            if !log {
                store(isa, dst.add(j), lanes, e);
            }
            j += n;
        }
        let sum = isa.sum(s);
        let mut j = 0;
        if log {
            let shift = isa.splat(max + sum.ln());
            while j < len {
                let lanes = n.min(len - j);
                let x = load(isa, src.add(j), lanes);
                store(isa, dst.add(j), lanes, isa.sub(x, shift));
                j += n;
            }
        } else {
            let r = isa.splat(1.0 / sum);
            while j < len {
                let lanes = n.min(len - j);
                let e = load(isa, dst.add(j), lanes);
                store(isa, dst.add(j), lanes, isa.mul(e, r));
                j += n;
            }
        }
    }
}

/// 1 in the first `lanes` lanes, 0 in the others.
#[inline(always)]
fn tail_mask<I: Isa>(isa: I, lanes: usize) -> I::F {
    let ones = [1f32; 16];
    // SAFETY: `ones` holds 16 ≥ `lanes` f32.
    unsafe { isa.load_part(ones.as_ptr(), lanes) }
}

/// `lanes` adjacent slices of a `[len, inner]` block, starting at column `i`.
///
/// # Safety
/// As [`Slice`]'s `run`: columns `i..i + lanes` are below `inner`.
#[inline(always)]
unsafe fn columns<I: Isa>(isa: I, s: &Slice, i: usize, lanes: usize) {
    let (src, dst, len, inner) = (s.src, s.dst, s.len, s.inner);
    // SAFETY: element (j, i + l) for j < len, l < lanes is in the slice.
    unsafe {
        let at = |j: usize| j * inner + i;
        let mut m = isa.splat(f32::NEG_INFINITY);
        let mut nan = isa.splat(0.0);
        for j in 0..len {
            let x = load(isa, src.add(at(j)), lanes);
            nan = isa.select(isa.is_nan(x), x, nan);
            m = isa.max(x, m);
        }
        // A NaN anywhere in a slice makes the whole slice NaN.
        m = isa.add(m, isa.mul(nan, isa.splat(0.0)));
        let mut sum = isa.splat(0.0);
        for j in 0..len {
            let x = load(isa, src.add(at(j)), lanes);
            let e = exp(isa, isa.sub(x, m));
            sum = isa.add(sum, e);
            if !s.log {
                store(isa, dst.add(at(j)), lanes, e);
            }
        }
        if s.log {
            let shift = isa.add(m, super::vmath::log_lanes(isa, sum));
            for j in 0..len {
                let x = load(isa, src.add(at(j)), lanes);
                store(isa, dst.add(at(j)), lanes, isa.sub(x, shift));
            }
        } else {
            let r = isa.div(isa.splat(1.0), sum);
            for j in 0..len {
                let e = load(isa, dst.add(at(j)), lanes);
                store(isa, dst.add(at(j)), lanes, isa.mul(e, r));
            }
        }
    }
}

/// One f64 slice of `len` elements `stride` apart.
///
/// # Safety
/// Elements `j·stride`, `j < len`, are readable at `src` and writable at `dst`.
unsafe fn slice_f64(src: *const f64, dst: *mut f64, len: usize, stride: usize, log: bool) {
    // SAFETY: the caller's contract.
    unsafe {
        let x = |j: usize| *src.add(j * stride);
        let mut max = f64::NEG_INFINITY;
        for j in 0..len {
            let v = x(j);
            max = if v.is_nan() || v > max { v } else { max };
        }
        let mut sum = 0.0;
        for j in 0..len {
            let e = (x(j) - max).exp();
            sum += e;
            if !log {
                *dst.add(j * stride) = e;
            }
        }
        for j in 0..len {
            let p = dst.add(j * stride);
            *p = if log { x(j) - max - sum.ln() } else { *p / sum };
        }
    }
}
