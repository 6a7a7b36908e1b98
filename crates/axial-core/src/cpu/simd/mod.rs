//! Vector instruction sets behind one trait, chosen once at run time.
//!
//! [`Isa`] is the handful of lane operations the vectorised kernels
//! (`cpu/vmath`, softmax, layer norm) are written with, once: f32 lanes,
//! f64 lanes half as many, their masks and the integer views of f32 lanes.
//! Three implementations: AVX-512 (16 f32 lanes), AVX2 with FMA (8 lanes)
//! and a portable one over arrays (8 lanes, what the compiler makes of it).
//! A value of an implementing type is the proof that the CPU has its
//! features: only [`dispatch`] makes one, after detecting them.
//!
//! Every operation is IEEE's, rounded once (the fused multiply-add
//! included), so the portable set gives the same bits as the vector ones
//! for everything but [`Isa::recip_d`], whose vector forms refine a
//! hardware estimate (within an f64 ulp or two of the quotient).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod portable;

use std::sync::atomic::{AtomicU8, Ordering};

#[cfg(target_arch = "x86_64")]
pub(crate) use avx2::Avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) use avx512::Avx512;
pub(crate) use portable::Portable;

/// The lane operations of one instruction set.
///
/// `F` holds [`Isa::LANES`] f32, `D` half as many f64, `I` the i32 bit
/// patterns of an `F`. `MF` and `MD` are lane masks. Methods take `self`,
/// the token that proves the features are there.
pub(crate) trait Isa: Copy + Send + Sync + 'static {
    /// f32 lanes.
    type F: Copy;
    /// f64 lanes (`LANES / 2`).
    type D: Copy;
    /// i32 lanes, as many as `F`.
    type I: Copy;
    /// A mask over `F` lanes.
    type MF: Copy;
    /// A mask over `D` lanes.
    type MD: Copy;
    /// Lanes of `F`.
    const LANES: usize;

    // ---- f32 lanes ----
    fn splat(self, v: f32) -> Self::F;
    /// # Safety
    /// `p` is valid for reads of `LANES` f32 (any alignment).
    unsafe fn load(self, p: *const f32) -> Self::F;
    /// # Safety
    /// `p` is valid for writes of `LANES` f32 (any alignment).
    unsafe fn store(self, p: *mut f32, v: Self::F);
    /// [`Isa::store`] past the caches (a streaming store, where there is
    /// one): for outputs larger than the caches, written once; a
    /// [`fence`](super::stream::fence) orders them before later stores.
    ///
    /// # Safety
    /// `p` is valid for writes of `LANES` f32 and aligned to `4·LANES` bytes.
    unsafe fn store_stream(self, p: *mut f32, v: Self::F);
    /// The first `n < LANES` lanes from `p`, the others 0.
    ///
    /// # Safety
    /// `p` is valid for reads of `n` f32.
    unsafe fn load_part(self, p: *const f32, n: usize) -> Self::F;
    /// Writes the first `n < LANES` lanes to `p`.
    ///
    /// # Safety
    /// `p` is valid for writes of `n` f32.
    unsafe fn store_part(self, p: *mut f32, n: usize, v: Self::F);
    /// The first `n ≤ LANES` lanes from `p`, the others 0: a whole
    /// vector when `n == LANES`.
    ///
    /// # Safety
    /// `p` is valid for reads of `n` f32.
    #[inline(always)]
    unsafe fn load_n(self, p: *const f32, n: usize) -> Self::F {
        // SAFETY: the caller's contract; `n == LANES` reads `LANES`.
        unsafe {
            if n == Self::LANES {
                self.load(p)
            } else {
                self.load_part(p, n)
            }
        }
    }
    /// Writes the first `n ≤ LANES` lanes to `p`: a whole vector when
    /// `n == LANES`.
    ///
    /// # Safety
    /// `p` is valid for writes of `n` f32.
    #[inline(always)]
    unsafe fn store_n(self, p: *mut f32, n: usize, v: Self::F) {
        // SAFETY: the caller's contract; `n == LANES` writes `LANES`.
        unsafe {
            if n == Self::LANES {
                self.store(p, v)
            } else {
                self.store_part(p, n, v)
            }
        }
    }
    fn add(self, a: Self::F, b: Self::F) -> Self::F;
    fn sub(self, a: Self::F, b: Self::F) -> Self::F;
    fn mul(self, a: Self::F, b: Self::F) -> Self::F;
    fn div(self, a: Self::F, b: Self::F) -> Self::F;
    /// `a·b + c`, rounded once.
    fn fma(self, a: Self::F, b: Self::F, c: Self::F) -> Self::F;
    /// `a·b − c`, rounded once: the rounding error of a product `c = a·b`
    /// in one instruction, where `fma(a, b, 0 − c)` takes two (the
    /// negation's zero sign keeps the compiler from fusing them).
    fn fms(self, a: Self::F, b: Self::F, c: Self::F) -> Self::F;
    /// `c − a·b`, rounded once: a residual such as `n − q·d`.
    fn fnma(self, a: Self::F, b: Self::F, c: Self::F) -> Self::F;
    /// The larger; `b` when either is NaN (x86's `maxps`).
    fn max(self, a: Self::F, b: Self::F) -> Self::F;
    /// The smaller; `b` when either is NaN (x86's `minps`).
    fn min(self, a: Self::F, b: Self::F) -> Self::F;
    /// Rounded to the nearest integer, ties to even (as a float).
    fn round(self, a: Self::F) -> Self::F;
    fn lt(self, a: Self::F, b: Self::F) -> Self::MF;
    fn le(self, a: Self::F, b: Self::F) -> Self::MF;
    fn eq(self, a: Self::F, b: Self::F) -> Self::MF;
    /// Lanes where `a` is NaN.
    fn is_nan(self, a: Self::F) -> Self::MF;
    /// `m ? a : b` per lane.
    fn select(self, m: Self::MF, a: Self::F, b: Self::F) -> Self::F;
    fn or_m(self, a: Self::MF, b: Self::MF) -> Self::MF;
    /// True when some lane is set.
    fn any(self, m: Self::MF) -> bool;
    /// Sum of the lanes (in a fixed order).
    fn sum(self, a: Self::F) -> f32;
    /// Largest lane (NaN lanes propagate).
    fn max_lane(self, a: Self::F) -> f32;
    fn to_bits(self, a: Self::F) -> Self::I;
    fn f_from_bits(self, a: Self::I) -> Self::F;
    fn splat_i(self, v: i32) -> Self::I;
    fn sub_i(self, a: Self::I, b: Self::I) -> Self::I;
    fn and_i(self, a: Self::I, b: Self::I) -> Self::I;
    fn or_i(self, a: Self::I, b: Self::I) -> Self::I;
    /// Shift right, arithmetic, by 23 (an f32's exponent field).
    fn sra23(self, a: Self::I) -> Self::I;
    /// Shift left by 23.
    fn shl23(self, a: Self::I) -> Self::I;
    /// i32 → f32 (exact below 2²⁴).
    fn i_to_f(self, a: Self::I) -> Self::F;
    /// f32 → i32, rounded toward zero, for |a| < 2³¹ (NaN and larger give
    /// `i32::MIN`, x86's "integer indefinite").
    fn trunc_i(self, a: Self::F) -> Self::I;
    /// `table[idx & 7]` per lane: eight constants chosen by an index, one
    /// instruction on x86 (`vpermps`), for piecewise polynomials.
    fn lookup8(self, table: &[f32; 8], idx: Self::I) -> Self::F;
    /// `a · 2ⁿ` for an integral `n` in [-300, 300], rounded once (into the
    /// subnormals too); overflow gives infinity.
    fn scale(self, a: Self::F, n: Self::F) -> Self::F;

    // ---- f64 lanes ----
    fn splat_d(self, v: f64) -> Self::D;
    fn add_d(self, a: Self::D, b: Self::D) -> Self::D;
    fn sub_d(self, a: Self::D, b: Self::D) -> Self::D;
    fn mul_d(self, a: Self::D, b: Self::D) -> Self::D;
    fn div_d(self, a: Self::D, b: Self::D) -> Self::D;
    /// `1/a` within an f64 ulp or two, for finite non-zero `a`.
    fn recip_d(self, a: Self::D) -> Self::D;
    fn fma_d(self, a: Self::D, b: Self::D, c: Self::D) -> Self::D;
    fn sqrt_d(self, a: Self::D) -> Self::D;
    fn max_d(self, a: Self::D, b: Self::D) -> Self::D;
    fn min_d(self, a: Self::D, b: Self::D) -> Self::D;
    fn round_d(self, a: Self::D) -> Self::D;
    fn lt_d(self, a: Self::D, b: Self::D) -> Self::MD;
    fn le_d(self, a: Self::D, b: Self::D) -> Self::MD;
    fn select_d(self, m: Self::MD, a: Self::D, b: Self::D) -> Self::D;
    fn and_md(self, a: Self::MD, b: Self::MD) -> Self::MD;
    fn any_d(self, m: Self::MD) -> bool;
    /// `a · 2ⁿ` for an integral `n` in [-1000, 1000].
    fn scale_d(self, a: Self::D, n: Self::D) -> Self::D;
    /// `(m, e)` with `a = m · 2ᵉ`, `m` in [1, 2), for finite positive
    /// normal `a`.
    fn frexp_d(self, a: Self::D) -> (Self::D, Self::D);
    /// The low and high halves of `a`'s lanes, widened (exact).
    fn widen(self, a: Self::F) -> (Self::D, Self::D);
    /// The inverse of [`Isa::widen`], each lane rounded to nearest even.
    fn narrow(self, lo: Self::D, hi: Self::D) -> Self::F;

    // ---- derived ----
    #[inline(always)]
    fn abs(self, a: Self::F) -> Self::F {
        self.f_from_bits(self.and_i(self.to_bits(a), self.splat_i(i32::MAX)))
    }
    /// `|a|` with `s`'s sign.
    #[inline(always)]
    fn copysign(self, a: Self::F, s: Self::F) -> Self::F {
        let sign = self.and_i(self.to_bits(s), self.splat_i(i32::MIN));
        self.f_from_bits(self.or_i(self.to_bits(self.abs(a)), sign))
    }
    #[inline(always)]
    fn abs_d(self, a: Self::D) -> Self::D {
        self.max_d(a, self.sub_d(self.splat_d(0.0), a))
    }
}

/// Elements ahead of a streaming loop that [`prefetch`] asks for: 4 KiB.
pub(crate) const PREFETCH_AHEAD: usize = 1024;

/// Asks for the cache line at `p` ahead of its use. A loop that computes
/// as it reads a buffer larger than the caches stalls on every line the
/// hardware prefetcher has not brought yet; asking 4 KiB ahead measured
/// 1.3–1.5× faster on functions such as `exp`. `p` may lie past the end of
/// its buffer: a prefetch never faults and reads nothing into registers.
#[inline(always)]
pub(crate) fn prefetch(p: *const f32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of every x86-64, and a prefetch of any address
    // is a hint that cannot fault.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The instruction set in use: detected once.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// Whatever the compiler targets.
    Portable,
    /// AVX2 with FMA and F16C.
    Avx2,
    /// AVX-512 F, DQ, BW and VL.
    Avx512,
}

/// What [`detect`] found (bits 0–1 the [`Level`], bit 2 VNNI, bit 3
/// AVX-512 BF16), or `u8::MAX` before it ran.
static FEATURES: AtomicU8 = AtomicU8::new(u8::MAX);

/// The level, VNNI and AVX-512 BF16, detected on first use. Inlined: a
/// kernel that dispatches per row (a sum over each short window) asks
/// millions of times, and after the first a load and a test is all it is.
#[inline(always)]
fn features() -> (Level, bool, bool) {
    let mut bits = FEATURES.load(Ordering::Relaxed);
    if bits == u8::MAX {
        bits = detect_bits();
    }
    let level = match bits & 3 {
        2 => Level::Avx512,
        1 => Level::Avx2,
        _ => Level::Portable,
    };
    (level, bits & 4 != 0, bits & 8 != 0)
}

/// The best instruction set of this CPU, unless `AXIAL_SIMD` names a lower
/// one (for tests and measurements): every kernel of the crate asks here,
/// through [`dispatch`] or [`level_at`], and nowhere else.
///
/// | `AXIAL_SIMD` | level | AVX-512 VNNI and BF16 |
/// | --- | --- | --- |
/// | unset | the best the CPU has | when the CPU has them |
/// | `avx512` | at most [`Level::Avx512`] | no |
/// | `avx2` | at most [`Level::Avx2`] | no |
/// | `portable` | [`Level::Portable`] | no |
#[inline(always)]
pub(crate) fn level() -> Level {
    features().0
}

/// True when the int8 products may use AVX-512 VNNI (`vpdpbusd`): the
/// level is [`Level::Avx512`], the CPU has VNNI and `AXIAL_SIMD` is unset.
pub(crate) fn vnni(site: Site) -> bool {
    let (level, vnni, _) = features();
    note(site, if vnni { level } else { Level::Portable });
    vnni
}

/// True when the bf16 products may use AVX-512 BF16 (`vdpbf16ps`): the
/// level is [`Level::Avx512`], the CPU has BF16 and `AXIAL_SIMD` is unset.
pub(crate) fn bf16_dot(site: Site) -> bool {
    let (level, _, bf16) = features();
    note(site, if bf16 { level } else { Level::Portable });
    bf16
}

/// [`detect`] once, kept in [`FEATURES`] (out of line: the cold path of
/// [`features`]).
#[cold]
#[inline(never)]
fn detect_bits() -> u8 {
    let (level, vnni, bf16) = detect();
    let bits = level as u8 | (vnni as u8) << 2 | (bf16 as u8) << 3;
    FEATURES.store(bits, Ordering::Relaxed);
    bits
}

fn detect() -> (Level, bool, bool) {
    let cap = std::env::var("AXIAL_SIMD").ok();
    let (cap, vnni_allowed) = match cap.as_deref() {
        Some("portable") => (Level::Portable, false),
        Some("avx2") => (Level::Avx2, false),
        Some("avx512") => (Level::Avx512, false),
        _ => (Level::Avx512, true),
    };
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = has!("avx2") && has!("fma") && has!("f16c");
        let avx512 =
            avx2 && has!("avx512f") && has!("avx512dq") && has!("avx512bw") && has!("avx512vl");
        let best = if avx512 {
            Level::Avx512
        } else if avx2 {
            Level::Avx2
        } else {
            Level::Portable
        };
        let level = best.min(cap);
        let vnni = vnni_allowed && level == Level::Avx512 && has!("avx512vnni");
        let bf16 = vnni_allowed && level == Level::Avx512 && has!("avx512bf16");
        (level, vnni, bf16)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (cap, vnni_allowed);
        (Level::Portable, false, false)
    }
}

/// The kernels that choose an instruction set, each asking [`level_at`]
/// (or [`dispatch`], [`vnni`]) under its own name, so that a test can see
/// that every one of them heeds `AXIAL_SIMD`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Site {
    /// Work written over [`Isa`] ([`dispatch`]): vmath, softmax, layer norm.
    Isa,
    /// The elementwise drivers' unit-stride loops (`cpu/map`).
    Map,
    /// The reductions' contiguous runs (`cpu/reduce/walk`).
    Reduce,
    /// The register transpose of copies (`cpu/transpose`).
    Transpose,
    /// The matrix products (`cpu/gemm`).
    Gemm,
    /// f16/bf16 widening of whole runs (`cpu/convert`).
    Convert,
    /// The loops of the generalized tensors (`generalized/host`).
    Host,
    /// The int8 products' VNNI tiles (`generalized/quantized/gemm`,
    /// `cpu/infer/int8`).
    Vnni,
    /// The bf16 products' AVX-512 BF16 tiles (`cpu/infer/bf16`).
    Bf16,
}

/// Every [`Site`], in the order of [`used`]'s bits.
#[cfg(debug_assertions)]
const SITES: [Site; 9] = [
    Site::Isa,
    Site::Map,
    Site::Reduce,
    Site::Transpose,
    Site::Gemm,
    Site::Convert,
    Site::Host,
    Site::Vnni,
    Site::Bf16,
];

/// Per site, the levels it has run at (bit `level as u8`): kept in debug
/// builds only, for the test that every kernel heeds `AXIAL_SIMD`.
#[cfg(debug_assertions)]
static USED: [AtomicU8; 9] = [const { AtomicU8::new(0) }; 9];

/// Records that `site` runs at `level` (debug builds).
#[inline(always)]
fn note(site: Site, level: Level) {
    #[cfg(debug_assertions)]
    {
        let i = SITES.iter().position(|&s| s == site).unwrap_or(0);
        USED[i].fetch_or(1 << level as u8, Ordering::Relaxed);
    }
    let _ = (site, level);
}

/// The levels `site` has run at so far, as bits `1 << level` (debug
/// builds; 0 in release builds).
#[cfg(test)]
pub(crate) fn used(site: Site) -> u8 {
    #[cfg(debug_assertions)]
    {
        let i = SITES.iter().position(|&s| s == site).unwrap_or(0);
        USED[i].load(Ordering::Relaxed)
    }
    #[cfg(not(debug_assertions))]
    {
        let _ = site;
        0
    }
}

/// [`level`], for a kernel that chooses its code by it.
#[inline(always)]
pub(crate) fn level_at(site: Site) -> Level {
    let level = level();
    note(site, level);
    level
}

/// Runs `f` compiled with AVX2 when the level in use has it, so that the
/// plain loops inlined into it vectorise with 256-bit lanes; else as built
/// (the crate's baseline). Rust never fuses a multiply and an add on its
/// own, so both give the same bits.
#[inline(always)]
pub(crate) fn avx2_loops<R>(site: Site, f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if level_at(site) != Level::Portable {
        // SAFETY: the level in use has AVX2.
        return unsafe { with_avx2(f) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    note(site, Level::Portable);
    f()
}

/// [`avx2_loops`]'s AVX2 copy of `f`.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Work written once over an [`Isa`], run with the best one.
pub(crate) trait WithIsa {
    /// What the work returns.
    type Output;
    /// Does the work with `isa`; implementations are `#[inline(always)]` so
    /// that they compile with the instruction set's features.
    fn run<I: Isa>(self, isa: I) -> Self::Output;
}

/// Runs `work` with the instruction set of [`level`].
#[inline]
pub(crate) fn dispatch<W: WithIsa>(work: W) -> W::Output {
    dispatch_at(level(), work)
}

/// Runs `work` with `level`'s instruction set, or the lower one in use.
#[inline]
pub(crate) fn dispatch_at<W: WithIsa>(level: Level, work: W) -> W::Output {
    let level = level.min(self::level());
    note(Site::Isa, level);
    #[cfg(target_arch = "x86_64")]
    match level {
        Level::Avx512 => {
            // SAFETY: `level()` found every feature `run_avx512` enables.
            return unsafe { run_avx512(work) };
        }
        Level::Avx2 => {
            // SAFETY: `level()` found AVX2, FMA and F16C.
            return unsafe { run_avx2(work) };
        }
        Level::Portable => {}
    }
    work.run(Portable::new())
}

/// # Safety
/// The CPU has AVX-512 F/DQ/BW/VL, FMA and F16C.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,f16c")]
unsafe fn run_avx512<W: WithIsa>(work: W) -> W::Output {
    // SAFETY: the caller's contract is the token's.
    work.run(unsafe { Avx512::new() })
}

/// # Safety
/// The CPU has AVX2, FMA and F16C.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,f16c")]
unsafe fn run_avx2<W: WithIsa>(work: W) -> W::Output {
    // SAFETY: the caller's contract is the token's.
    work.run(unsafe { Avx2::new() })
}

/// The levels this process may run, best first (for tests that compare
/// them): [`level`] and those below it.
#[cfg(test)]
pub(crate) fn available() -> Vec<Level> {
    let best = level();
    [Level::Avx512, Level::Avx2, Level::Portable]
        .into_iter()
        .filter(|&l| l <= best)
        .collect()
}

#[cfg(test)]
mod heed;
