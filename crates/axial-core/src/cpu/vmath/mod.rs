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
//! `erf`, GELU, and `sigmoid` and `silu` below |x| = 6, evaluate one of
//! eight polynomial pieces per lane ([`Pieces`]). The tanh-form GELU,
//! `pow`, and the rare vectors beyond those ranges compute in f64 lanes
//! (half as many per vector) and round once. f16 and bf16 go through f32
//! lanes (see [`apply`]).
//!
//! The polynomials are fitted by `fit.py` beside this file (`coeffs.rs`).

pub(crate) mod apply;
mod coeffs;
pub(crate) mod erf;
pub(crate) mod explog;
pub(crate) mod logistic;
pub(crate) mod pow;
pub(crate) mod trig;

pub(crate) use explog::{exp, log as log_lanes};

use super::simd::{Isa, PREFETCH_AHEAD, WithIsa, dispatch, prefetch};

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
        let pe = isa.fms(v, c1h, ph);
        let rest = isa.fma(v, isa.fma(v, p, c1l), isa.mul(vl, c1h));
        let (s, e) = fast_two_sum(isa, c0h, ph);
        (s, isa.add(isa.add(e, pe), isa.add(rest, c0l)))
    }
}

/// The piece ¾ wide of [0, 6) that holds `b` (`trunc(4b/3)`, below 8 for
/// `b` below 6), and `b − centre` as `dh + dl`: exact by Sterbenz but in
/// the first piece, where a small `b` is below half the centre and
/// Fast2Sum's condition holds.
#[inline(always)]
pub(crate) fn three_quarter_piece<I: Isa>(isa: I, b: I::F) -> (I::I, I::F, I::F) {
    let piece = isa.trunc_i(isa.mul(b, isa.splat(4.0 / 3.0)));
    let centre = isa.fma(isa.i_to_f(piece), isa.splat(-0.75), isa.splat(-0.375));
    let (dh, dl) = fast_two_sum(isa, centre, b);
    (piece, dh, dl)
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

/// `1 − (h + l)` as a pair in the lanes of `flip`, `h + l` in the others,
/// for `0 ≤ h ≤ ½` (`1 − h` exact by Fast2Sum).
#[inline(always)]
pub(crate) fn one_minus_pair<I: Isa>(isa: I, flip: I::MF, h: I::F, l: I::F) -> (I::F, I::F) {
    let one = isa.splat(1.0);
    let uh = isa.sub(one, h);
    let ul = isa.sub(isa.sub(one, uh), h);
    (isa.select(flip, uh, h), isa.select(flip, isa.sub(ul, l), l))
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

/// One lane-wise function of a unary op, applied to a vector of lanes.
/// Each op is a type of its own, so that each gets its own instance of the
/// loop compiled with the instruction set's target features: the function
/// is inlined into it (a closure would be compiled without those features
/// when not inlined, every intrinsic in it a call: it made `exp` 15 times
/// slower), and an unoptimised build's stack frame holds one op's copies.
///
/// An op whose common inputs take a cheaper path than the rest gives that
/// path ([`common`](Lanewise::common)) and the test of the lanes it cannot
/// take ([`rare`](Lanewise::rare)) beside the path for any lanes
/// ([`full`](Lanewise::full)); [`apply`](Lanewise::apply) chooses between
/// them, and [`apply2`](Lanewise::apply2) tests two vectors at once and runs
/// the two common paths in one straight line of code: one branch between
/// them kept each from overlapping the other (measured: sigmoid 8–10 %
/// faster on one thread).
pub(crate) trait Lanewise: Copy + Send {
    /// True when the op over an array larger than the caches waits on
    /// memory rather than on its arithmetic with AVX-512's lanes (`exp`:
    /// about a dozen operations per 16 lanes): its output is better
    /// streamed past the caches ([`apply`]).
    const MEMORY_BOUND_AVX512: bool = false;

    /// The function at any lanes.
    fn full<I: Isa>(self, isa: I, x: I::F) -> I::F;

    /// The lanes of `x` that [`common`](Lanewise::common) cannot take;
    /// `None` for an op with a single path.
    #[inline(always)]
    fn rare<I: Isa>(self, _isa: I, _x: I::F) -> Option<I::MF> {
        None
    }

    /// The function at a vector without [`rare`](Lanewise::rare) lanes.
    #[inline(always)]
    fn common<I: Isa>(self, isa: I, x: I::F) -> I::F {
        self.full(isa, x)
    }

    /// The function at one vector: the common path when it has no rare
    /// lane.
    #[inline(always)]
    fn apply<I: Isa>(self, isa: I, x: I::F) -> I::F {
        match self.rare(isa, x) {
            Some(r) if !isa.any(r) => self.common(isa, x),
            _ => self.full(isa, x),
        }
    }

    /// The function at two vectors: both through the common path when
    /// neither has a rare lane.
    #[inline(always)]
    fn apply2<I: Isa>(self, isa: I, a: I::F, b: I::F) -> (I::F, I::F) {
        match (self.rare(isa, a), self.rare(isa, b)) {
            (Some(ra), Some(rb)) if !isa.any(isa.or_m(ra, rb)) => {
                (self.common(isa, a), self.common(isa, b))
            }
            _ => (self.apply(isa, a), self.apply(isa, b)),
        }
    }
}

/// Declares [`Lanewise`] types: `Name => |isa, x| f` is the op's path for
/// any lanes; `common` and `rare` name its cheaper path and the test of the
/// lanes that path cannot take; `memory bound` marks an op whose output
/// is streamed ([`Lanewise::MEMORY_BOUND_AVX512`]). Each file of this
/// module declares the types of its functions; the table of unary ops
/// names them ([`crate::ops::unary_table`]).
macro_rules! lanewise {
    ($(
        $(#[$doc:meta])*
        $name:ident $(($field:ident: $t:ty))? => |$isa:ident, $x:ident| $f:expr
        $(, common $common:path, rare $rare:path)?
        $(, memory bound $bound:literal)?;
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Copy, Clone)]
            pub(crate) struct $name $((pub(crate) $t))?;

            impl $crate::cpu::vmath::Lanewise for $name {
                $(const MEMORY_BOUND_AVX512: bool = $bound;)?

                #[inline(always)]
                fn full<I: $crate::cpu::simd::Isa>(self, $isa: I, $x: I::F) -> I::F {
                    $(let $name($field) = self;)?
                    $f
                }
                $(
                    #[inline(always)]
                    fn rare<I: $crate::cpu::simd::Isa>(self, isa: I, x: I::F) -> Option<I::MF> {
                        Some($rare(isa, x))
                    }

                    #[inline(always)]
                    fn common<I: $crate::cpu::simd::Isa>(self, isa: I, x: I::F) -> I::F {
                        $common(isa, x)
                    }
                )?
            }
        )*
    };
}
pub(crate) use lanewise;

lanewise! {
    /// `1/√x` as PyTorch computes it ([`rsqrt`]).
    RsqrtOp => |isa, x| rsqrt(isa, x);
}

/// True when `O`'s output is better streamed past the caches: it waits on
/// memory with the instruction set in use ([`Lanewise::MEMORY_BOUND_AVX512`]).
pub(crate) fn memory_bound<O: Lanewise>() -> bool {
    O::MEMORY_BOUND_AVX512 && super::simd::level() == super::simd::Level::Avx512
}

/// One run of [`run_f32`] with the op `O`.
struct Run<O> {
    op: O,
    src: *const f32,
    dst: *mut f32,
    len: usize,
}

impl<O: Lanewise> WithIsa for Run<O> {
    type Output = ();

    /// `dst[i] = op(src[i])` for `i < len`: two vectors a step, then the
    /// rest a vector at a time, the last partial one masked.
    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let Run { op, src, dst, len } = self;
        let n = I::LANES;
        let mut i = 0;
        // SAFETY: `run_f32`'s contract: every access is below `len`.
        unsafe {
            // Two independent chains of dependent steps side by side, where
            // one alone leaves the out-of-order window short of work
            // (measured: erf 9 %, the tanh-form GELU 17 % faster; a loop of
            // two that the optimiser unrolls was not).
            while i + 2 * n <= len {
                prefetch(src.wrapping_add(i + PREFETCH_AHEAD));
                let (a, b) = (isa.load(src.add(i)), isa.load(src.add(i + n)));
                let (fa, fb) = op.apply2(isa, a, b);
                isa.store(dst.add(i), fa);
                isa.store(dst.add(i + n), fb);
                i += 2 * n;
            }
            while i < len {
                let lanes = n.min(len - i);
                let x = if lanes == n {
                    isa.load(src.add(i))
                } else {
                    isa.load_part(src.add(i), lanes)
                };
                let y = op.apply(isa, x);
                if lanes == n {
                    isa.store(dst.add(i), y);
                } else {
                    isa.store_part(dst.add(i), lanes, y);
                }
                i += lanes;
            }
        }
    }
}

/// `dst[i] = op(src[i])` for `i < len`, with the CPU's best vectors.
///
/// # Safety
/// `src` is readable and `dst` writable for `len` f32; they are the same
/// pointer or do not overlap.
pub(crate) unsafe fn run_f32<O: Lanewise>(op: O, src: *const f32, dst: *mut f32, len: usize) {
    dispatch(Run { op, src, dst, len });
}

/// [`run_f32`] on slices with a chosen instruction set (tests compare them).
#[cfg(test)]
pub(crate) fn run_at<O: Lanewise>(level: super::simd::Level, op: O, src: &[f32], dst: &mut [f32]) {
    assert_eq!(src.len(), dst.len());
    let (src, dst, len) = (src.as_ptr(), dst.as_mut_ptr(), src.len());
    super::simd::dispatch_at(level, Run { op, src, dst, len });
}

#[cfg(test)]
mod vmath_ulp;
