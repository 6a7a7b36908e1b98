//! [`Isa`] on AVX2 with FMA: 8 f32 lanes in a `__m256`, 4 f64 in a
//! `__m256d`; masks are all-ones lanes.

use std::arch::x86_64::*;

use super::Isa;

/// The token of AVX2 with FMA and F16C.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// # Safety
    /// The CPU has AVX2, FMA and F16C.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        Avx2(())
    }
}

/// The lanes below `n` set, as a `maskload` mask.
#[inline(always)]
fn first(n: usize) -> __m256i {
    // SAFETY: AVX2 is there (the callers hold an `Avx2`).
    unsafe {
        let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        _mm256_cmpgt_epi32(_mm256_set1_epi32(n as i32), lanes)
    }
}

/// `2ᵏ` for integral `k` in [-126, 127].
#[inline(always)]
fn pow2(k: __m256) -> __m256 {
    // SAFETY: AVX2 is there (the callers hold an `Avx2`).
    unsafe {
        let k = _mm256_cvtps_epi32(k);
        _mm256_castsi256_ps(_mm256_slli_epi32::<23>(_mm256_add_epi32(
            k,
            _mm256_set1_epi32(127),
        )))
    }
}

/// `2ᵏ` for integral `k` in [-1022, 1023]: `k + 2⁵² + 1023` holds the
/// biased exponent in its low bits, which the shift moves into place.
#[inline(always)]
fn pow2_d(k: __m256d) -> __m256d {
    // SAFETY: AVX2 is there (the callers hold an `Avx2`).
    unsafe {
        let t = _mm256_add_pd(k, _mm256_set1_pd(4503599627371519.0));
        _mm256_castsi256_pd(_mm256_slli_epi64::<52>(_mm256_castpd_si256(t)))
    }
}

// SAFETY (every block below): an `Avx2` exists only where the CPU has AVX2,
// FMA and F16C (its constructor's contract); the pointer intrinsics read or
// write only what their callers' contracts allow.
impl Isa for Avx2 {
    type F = __m256;
    type D = __m256d;
    type I = __m256i;
    type MF = __m256;
    type MD = __m256d;
    const LANES: usize = 8;

    #[inline(always)]
    fn splat(self, v: f32) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_set1_ps(v) }
    }
    #[inline(always)]
    unsafe fn load(self, p: *const f32) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_loadu_ps(p) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32, v: __m256) {
        // SAFETY: see the impl.
        unsafe { _mm256_storeu_ps(p, v) }
    }
    #[inline(always)]
    unsafe fn store_stream(self, p: *mut f32, v: __m256) {
        // SAFETY: see the impl; the caller aligns `p` as the store needs.
        unsafe { _mm256_stream_ps(p, v) }
    }
    #[inline(always)]
    unsafe fn load_part(self, p: *const f32, n: usize) -> __m256 {
        // SAFETY: see the impl; masked-off lanes are not read.
        unsafe { _mm256_maskload_ps(p, first(n)) }
    }
    #[inline(always)]
    unsafe fn store_part(self, p: *mut f32, n: usize, v: __m256) {
        // SAFETY: see the impl; masked-off lanes are not written.
        unsafe { _mm256_maskstore_ps(p, first(n), v) }
    }
    #[inline(always)]
    fn add(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_sub_ps(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_mul_ps(a, b) }
    }
    #[inline(always)]
    fn div(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_div_ps(a, b) }
    }
    #[inline(always)]
    fn fma(self, a: __m256, b: __m256, c: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_fmadd_ps(a, b, c) }
    }
    #[inline(always)]
    fn fms(self, a: __m256, b: __m256, c: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_fmsub_ps(a, b, c) }
    }
    #[inline(always)]
    fn fnma(self, a: __m256, b: __m256, c: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_fnmadd_ps(a, b, c) }
    }
    #[inline(always)]
    fn max(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_max_ps(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_min_ps(a, b) }
    }
    #[inline(always)]
    fn round(self, a: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(a) }
    }
    #[inline(always)]
    fn lt(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(a, b) }
    }
    #[inline(always)]
    fn le(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_cmp_ps::<_CMP_LE_OQ>(a, b) }
    }
    #[inline(always)]
    fn eq(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_cmp_ps::<_CMP_EQ_OQ>(a, b) }
    }
    #[inline(always)]
    fn is_nan(self, a: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_cmp_ps::<_CMP_UNORD_Q>(a, a) }
    }
    #[inline(always)]
    fn select(self, m: __m256, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_blendv_ps(b, a, m) }
    }
    #[inline(always)]
    fn or_m(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_or_ps(a, b) }
    }
    #[inline(always)]
    fn any(self, m: __m256) -> bool {
        // SAFETY: see the impl.
        unsafe { _mm256_movemask_ps(m) != 0 }
    }
    #[inline(always)]
    fn sum(self, a: __m256) -> f32 {
        // SAFETY: see the impl.
        unsafe {
            let s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps::<1>(a));
            let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
            _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)))
        }
    }
    #[inline(always)]
    fn max_lane(self, a: __m256) -> f32 {
        // SAFETY: see the impl.
        unsafe {
            if _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_UNORD_Q>(a, a)) != 0 {
                return f32::NAN;
            }
            let s = _mm_max_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps::<1>(a));
            let s = _mm_max_ps(s, _mm_movehl_ps(s, s));
            _mm_cvtss_f32(_mm_max_ss(s, _mm_movehdup_ps(s)))
        }
    }
    #[inline(always)]
    fn to_bits(self, a: __m256) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_castps_si256(a) }
    }
    #[inline(always)]
    fn f_from_bits(self, a: __m256i) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_castsi256_ps(a) }
    }
    #[inline(always)]
    fn splat_i(self, v: i32) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_set1_epi32(v) }
    }
    #[inline(always)]
    fn sub_i(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_sub_epi32(a, b) }
    }
    #[inline(always)]
    fn and_i(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_and_si256(a, b) }
    }
    #[inline(always)]
    fn or_i(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_or_si256(a, b) }
    }
    #[inline(always)]
    fn sra23(self, a: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_srai_epi32::<23>(a) }
    }
    #[inline(always)]
    fn shl23(self, a: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_slli_epi32::<23>(a) }
    }
    #[inline(always)]
    fn i_to_f(self, a: __m256i) -> __m256 {
        // SAFETY: see the impl.
        unsafe { _mm256_cvtepi32_ps(a) }
    }
    #[inline(always)]
    fn trunc_i(self, a: __m256) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_cvttps_epi32(a) }
    }
    #[inline(always)]
    fn lookup8(self, table: &[f32; 8], idx: __m256i) -> __m256 {
        // SAFETY: see the impl; `table` holds 8 f32, `vpermps` reads the
        // low 3 bits of each index.
        unsafe { _mm256_permutevar8x32_ps(_mm256_loadu_ps(table.as_ptr()), idx) }
    }
    #[inline(always)]
    fn scale(self, a: __m256, n: __m256) -> __m256 {
        // SAFETY: see the impl. Two exact-or-rounding-once steps of at most
        // 2¹²⁶ each: the first stays normal, so only the second rounds.
        unsafe {
            let n = _mm256_min_ps(
                _mm256_max_ps(n, _mm256_set1_ps(-252.0)),
                _mm256_set1_ps(252.0),
            );
            let half = _mm256_round_ps::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(
                _mm256_mul_ps(n, _mm256_set1_ps(0.5)),
            );
            let rest = _mm256_sub_ps(n, half);
            _mm256_mul_ps(_mm256_mul_ps(a, pow2(half)), pow2(rest))
        }
    }

    #[inline(always)]
    fn splat_d(self, v: f64) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_set1_pd(v) }
    }
    #[inline(always)]
    fn add_d(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_add_pd(a, b) }
    }
    #[inline(always)]
    fn sub_d(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_sub_pd(a, b) }
    }
    #[inline(always)]
    fn mul_d(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_mul_pd(a, b) }
    }
    #[inline(always)]
    fn div_d(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_div_pd(a, b) }
    }
    #[inline(always)]
    fn recip_d(self, a: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_div_pd(_mm256_set1_pd(1.0), a) }
    }
    #[inline(always)]
    fn fma_d(self, a: __m256d, b: __m256d, c: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_fmadd_pd(a, b, c) }
    }
    #[inline(always)]
    fn sqrt_d(self, a: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_sqrt_pd(a) }
    }
    #[inline(always)]
    fn max_d(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_max_pd(a, b) }
    }
    #[inline(always)]
    fn min_d(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_min_pd(a, b) }
    }
    #[inline(always)]
    fn round_d(self, a: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_round_pd::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(a) }
    }
    #[inline(always)]
    fn lt_d(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_cmp_pd::<_CMP_LT_OQ>(a, b) }
    }
    #[inline(always)]
    fn le_d(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_cmp_pd::<_CMP_LE_OQ>(a, b) }
    }
    #[inline(always)]
    fn select_d(self, m: __m256d, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_blendv_pd(b, a, m) }
    }
    #[inline(always)]
    fn and_md(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: see the impl.
        unsafe { _mm256_and_pd(a, b) }
    }
    #[inline(always)]
    fn any_d(self, m: __m256d) -> bool {
        // SAFETY: see the impl.
        unsafe { _mm256_movemask_pd(m) != 0 }
    }
    #[inline(always)]
    fn scale_d(self, a: __m256d, n: __m256d) -> __m256d {
        // SAFETY: see the impl. As `scale`, in two steps of at most 2⁵⁰⁰.
        unsafe {
            let half = _mm256_round_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(
                _mm256_mul_pd(n, _mm256_set1_pd(0.5)),
            );
            let rest = _mm256_sub_pd(n, half);
            _mm256_mul_pd(_mm256_mul_pd(a, pow2_d(half)), pow2_d(rest))
        }
    }
    #[inline(always)]
    fn frexp_d(self, a: __m256d) -> (__m256d, __m256d) {
        // SAFETY: see the impl. The exponent field, or-ed into 2⁵²'s bits,
        // is read back as 2⁵² plus itself.
        unsafe {
            let bits = _mm256_castpd_si256(a);
            let mant = _mm256_and_si256(bits, _mm256_set1_epi64x(0x000f_ffff_ffff_ffff));
            let m = _mm256_castsi256_pd(_mm256_or_si256(
                mant,
                _mm256_set1_epi64x(0x3ff0_0000_0000_0000),
            ));
            let field = _mm256_srli_epi64::<52>(bits);
            let biased = _mm256_sub_pd(
                _mm256_castsi256_pd(_mm256_or_si256(
                    field,
                    _mm256_set1_epi64x(0x4330_0000_0000_0000),
                )),
                _mm256_set1_pd(4503599627370496.0),
            );
            (m, _mm256_sub_pd(biased, _mm256_set1_pd(1023.0)))
        }
    }
    #[inline(always)]
    fn widen(self, a: __m256) -> (__m256d, __m256d) {
        // SAFETY: see the impl.
        unsafe {
            (
                _mm256_cvtps_pd(_mm256_castps256_ps128(a)),
                _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(a)),
            )
        }
    }
    #[inline(always)]
    fn narrow(self, lo: __m256d, hi: __m256d) -> __m256 {
        // SAFETY: see the impl.
        unsafe {
            _mm256_insertf128_ps::<1>(
                _mm256_castps128_ps256(_mm256_cvtpd_ps(lo)),
                _mm256_cvtpd_ps(hi),
            )
        }
    }
}
