//! Vectorised transcendental functions of f32 lanes, written once over
//! [`Isa`] and run with the best instruction set of the CPU.
//!
//! Each is within one ulp of the exact value (an f64 reference) over the
//! whole f32 range, subnormals and the edges of overflow included; the
//! test `vmath_ulp` in this module sweeps them. `exp` and `log` compute in
//! f32. `tanh`, `sigmoid`, `silu`, `erf`, the exact GELU above x = −6, and
//! `sin` and `cos` below |x| = 64, compute in f32 lanes too, carrying the
//! rounding errors of their few critical steps as pairs `hi + lo`
//! (`explog::exp_parts`, Fast2Sum, TwoSum) and rounding once at the end;
//! `erf` and GELU evaluate one of eight polynomial pieces per lane
//! ([`Pieces`]). The tanh-form GELU, `pow`, and the rare vectors beyond
//! those ranges compute in f64 lanes (half as many per vector) and round
//! once. f16 and bf16 go through f32 lanes (see [`apply`]).
//!
//! The polynomials are fitted by `fit.py` beside this file (`coeffs.rs`).

pub(crate) mod apply;
mod coeffs;
mod erf;
mod explog;
mod logistic;
mod pow;
mod trig;

pub(crate) use explog::{exp, log as log_lanes};

use super::simd::{Isa, PREFETCH_AHEAD, WithIsa, dispatch, prefetch};
use crate::UnaryOp;

/// The unary ops with a vectorised f32 kernel.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum VecOp {
    Exp,
    Log,
    Tanh,
    Sigmoid,
    Silu,
    Erf,
    Gelu,
    GeluTanh,
    Sin,
    Cos,
    Rsqrt,
    /// `xᵖ` through `exp(p·ln x)` (the exponents PyTorch special-cases are
    /// left to the scalar kernel).
    Pow(f64),
}

impl VecOp {
    /// The vectorised kernel of `op`, if it has one (`PowScalar` is decided
    /// by the caller, which knows the element type's special exponents).
    pub(crate) fn of(op: UnaryOp) -> Option<VecOp> {
        use UnaryOp::*;
        Some(match op {
            Exp => VecOp::Exp,
            Log => VecOp::Log,
            Tanh => VecOp::Tanh,
            Sigmoid => VecOp::Sigmoid,
            Silu => VecOp::Silu,
            Erf => VecOp::Erf,
            Gelu => VecOp::Gelu,
            GeluTanh => VecOp::GeluTanh,
            Sin => VecOp::Sin,
            Cos => VecOp::Cos,
            Rsqrt => VecOp::Rsqrt,
            _ => return None,
        })
    }
}

/// `c[0]·xⁿ + … + c[n]` by Horner's rule with fused multiply-adds.
#[inline(always)]
pub(crate) fn horner<I: Isa>(isa: I, x: I::F, c: &[f32]) -> I::F {
    let mut p = isa.splat(c[0]);
    for &k in &c[1..] {
        p = isa.fma(p, x, isa.splat(k));
    }
    p
}

/// [`horner`] in f64 lanes.
#[inline(always)]
pub(crate) fn horner_d<I: Isa>(isa: I, x: I::D, c: &[f64]) -> I::D {
    let mut p = isa.splat_d(c[0]);
    for &k in &c[1..] {
        p = isa.fma_d(p, x, isa.splat_d(k));
    }
    p
}

/// Eight polynomial pieces, one chosen per lane ([`Isa::lookup8`]), each
/// `c0 + c1·v + v²·P(v)` with `c0` and `c1` as pairs of f32 `[hi, lo]`
/// and `P` highest degree first; every field is a table over the pieces.
pub(crate) struct Pieces<const N: usize> {
    pub c0: [[f32; 8]; 2],
    pub c1: [[f32; 8]; 2],
    pub p: [[f32; 8]; N],
}

impl<const N: usize> Pieces<N> {
    /// The chosen piece at `v + vl` (`vl` small, often 0) as `s + tail`:
    /// `c1·v` exact (a fused multiply-add gives its error) and `c0 + c1·v`
    /// by Fast2Sum (|c0| ≥ |c1·v| on every piece), so that only the small
    /// terms round.
    #[inline(always)]
    pub(crate) fn eval<I: Isa>(&self, isa: I, piece: I::I, v: I::F, vl: I::F) -> (I::F, I::F) {
        let pick = |table: &[f32; 8]| isa.lookup8(table, piece);
        let (c0h, c0l) = (pick(&self.c0[0]), pick(&self.c0[1]));
        let (c1h, c1l) = (pick(&self.c1[0]), pick(&self.c1[1]));
        let mut p = pick(&self.p[0]);
        for table in &self.p[1..] {
            p = isa.fma(p, v, pick(table));
        }
        let ph = isa.mul(v, c1h);
        let pe = isa.fma(v, c1h, isa.sub(isa.splat(0.0), ph));
        let rest = isa.fma(v, isa.fma(v, p, c1l), isa.mul(vl, c1h));
        let (s, e) = fast_two_sum(isa, c0h, ph);
        (s, isa.add(isa.add(e, pe), isa.add(rest, c0l)))
    }
}

/// `a + b` as `s + e` exactly, for any `a` and `b` (TwoSum).
#[inline(always)]
pub(crate) fn two_sum<I: Isa>(isa: I, a: I::F, b: I::F) -> (I::F, I::F) {
    let s = isa.add(a, b);
    let bb = isa.sub(s, a);
    (s, isa.add(isa.sub(a, isa.sub(s, bb)), isa.sub(b, bb)))
}

/// `a + b` as `s + e` exactly when |a| ≥ |b| (Fast2Sum).
#[inline(always)]
pub(crate) fn fast_two_sum<I: Isa>(isa: I, a: I::F, b: I::F) -> (I::F, I::F) {
    let s = isa.add(a, b);
    (s, isa.add(isa.sub(a, s), b))
}

/// `v` with the lanes whose input `x` satisfies `odd` replaced by `f(x)`,
/// computed one lane at a time (for rare inputs: huge arguments of `sin`,
/// negative bases of `pow`).
#[inline(never)]
pub(crate) fn patch<I: Isa>(
    isa: I,
    v: I::F,
    x: I::F,
    odd: impl Fn(f32) -> bool,
    f: impl Fn(f32) -> f32,
) -> I::F {
    let mut xs = [0f32; 16];
    let mut vs = [0f32; 16];
    // SAFETY: both buffers hold 16 ≥ `LANES` f32.
    unsafe {
        isa.store(xs.as_mut_ptr(), x);
        isa.store(vs.as_mut_ptr(), v);
    }
    for (x, v) in xs.iter().zip(&mut vs).take(I::LANES) {
        if odd(*x) {
            *v = f(*x);
        }
    }
    // SAFETY: as above.
    unsafe { isa.load(vs.as_ptr()) }
}

/// `dst[i] = f(src[i])` for `i < len`, two vectors at a time, then one,
/// the last partial one masked; `$f` is written as a closure but expanded in place.
/// A macro and not a function taking a closure: a closure's body is compiled
/// without the instruction set's target features, so when it is not inlined
/// every intrinsic in it becomes a call (it made `exp` 15 times slower).
///
/// Safety: `src` is readable and `dst` writable for `len` f32; they are the
/// same pointer or do not overlap (the caller's `unsafe` block).
macro_rules! each {
    ($isa:ident, $src:ident, $dst:ident, $len:ident, |$x:ident| $f:expr) => {{
        let n = I::LANES;
        let mut i = 0;
        // Two vectors a step: two independent chains of dependent steps
        // side by side, where one alone leaves the out-of-order window short
        // of work (measured: erf 9 %, the tanh-form GELU 18 % faster).
        while i + 2 * n <= $len {
            prefetch($src.wrapping_add(i + PREFETCH_AHEAD));
            let (a, b) = ($isa.load($src.add(i)), $isa.load($src.add(i + n)));
            let fa = {
                let $x = a;
                $f
            };
            let fb = {
                let $x = b;
                $f
            };
            $isa.store($dst.add(i), fa);
            $isa.store($dst.add(i + n), fb);
            i += 2 * n;
        }
        while i + n <= $len {
            prefetch($src.wrapping_add(i + PREFETCH_AHEAD));
            let $x = $isa.load($src.add(i));
            $isa.store($dst.add(i), $f);
            i += n;
        }
        if i < $len {
            let rest = $len - i;
            let $x = $isa.load_part($src.add(i), rest);
            $isa.store_part($dst.add(i), rest, $f);
        }
    }};
}

/// `1/√x` as PyTorch computes it, bit for bit: the square root rounded to
/// f32 (from f64, which rounds it correctly), then the quotient rounded.
/// Two roundings: within an ulp for normal `x`, up to 1.4 ulp for
/// subnormal `x`; the ulp test holds it to PyTorch's bits instead.
#[inline(always)]
fn rsqrt<I: Isa>(isa: I, x: I::F) -> I::F {
    let (lo, hi) = isa.widen(x);
    let root = isa.narrow(isa.sqrt_d(lo), isa.sqrt_d(hi));
    isa.div(isa.splat(1.0), root)
}

/// One run of [`run_f32`].
struct Run {
    op: VecOp,
    src: *const f32,
    dst: *mut f32,
    len: usize,
}

impl WithIsa for Run {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let Run { op, src, dst, len } = self;
        // SAFETY: `run_f32`'s contract.
        unsafe {
            match op {
                VecOp::Exp => each!(isa, src, dst, len, |x| explog::exp(isa, x)),
                VecOp::Log => each!(isa, src, dst, len, |x| explog::log(isa, x)),
                VecOp::Tanh => each!(isa, src, dst, len, |x| logistic::tanh(isa, x)),
                VecOp::Sigmoid => each!(isa, src, dst, len, |x| logistic::sigmoid(isa, x)),
                VecOp::Silu => each!(isa, src, dst, len, |x| logistic::silu(isa, x)),
                VecOp::Erf => each!(isa, src, dst, len, |x| erf::erf(isa, x)),
                VecOp::Gelu => each!(isa, src, dst, len, |x| erf::gelu(isa, x)),
                VecOp::GeluTanh => each!(isa, src, dst, len, |x| logistic::gelu_tanh(isa, x)),
                VecOp::Sin => each!(isa, src, dst, len, |x| trig::sin(isa, x)),
                VecOp::Cos => each!(isa, src, dst, len, |x| trig::cos(isa, x)),
                VecOp::Rsqrt => each!(isa, src, dst, len, |x| rsqrt(isa, x)),
                VecOp::Pow(p) => each!(isa, src, dst, len, |x| pow::pow(isa, x, p)),
            }
        }
    }
}

/// `dst[i] = op(src[i])` for `i < len`, with the CPU's best vectors.
///
/// # Safety
/// `src` is readable and `dst` writable for `len` f32; they are the same
/// pointer or do not overlap.
pub(crate) unsafe fn run_f32(op: VecOp, src: *const f32, dst: *mut f32, len: usize) {
    dispatch(Run { op, src, dst, len });
}

/// [`run_f32`] on slices with a chosen instruction set (tests compare them).
#[cfg(test)]
pub(crate) fn run_at(level: super::simd::Level, op: VecOp, src: &[f32], dst: &mut [f32]) {
    assert_eq!(src.len(), dst.len());
    let run = Run {
        op,
        src: src.as_ptr(),
        dst: dst.as_mut_ptr(),
        len: src.len(),
    };
    super::simd::dispatch_at(level, run);
}

#[cfg(test)]
mod vmath_ulp;
