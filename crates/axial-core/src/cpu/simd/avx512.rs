//! [`Isa`] on AVX-512: 16 f32 lanes in a `__m512`, 8 f64 in a `__m512d`,
//! masks in mask registers.

use std::arch::x86_64::*;

use super::Isa;

/// The token of AVX-512 F/DQ/BW/VL with FMA and F16C.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// # Safety
    /// The CPU has AVX-512 F/DQ/BW/VL, FMA and F16C.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        Avx512(())
    }
}

/// Mask of the first `n` of 16 lanes.
#[inline(always)]
fn first(n: usize) -> __mmask16 {
    ((1u32 << n) - 1) as __mmask16
}

// SAFETY (every block below): an `Avx512` exists only where the CPU has the
// features these intrinsics need (its constructor's contract); the pointer
// intrinsics read or write only what their callers' contracts allow.
impl Isa for Avx512 {
    type F = __m512;
    type D = __m512d;
    type I = __m512i;
    type MF = __mmask16;
    type MD = __mmask8;
    const LANES: usize = 16;

    #[inline(always)]
    fn splat(self, v: f32) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_set1_ps(v) }
    }
    #[inline(always)]
    unsafe fn load(self, p: *const f32) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_loadu_ps(p) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32, v: __m512) {
        // SAFETY: see the impl.
        unsafe { _mm512_storeu_ps(p, v) }
    }
    #[inline(always)]
    unsafe fn store_stream(self, p: *mut f32, v: __m512) {
        // SAFETY: see the impl; the caller aligns `p` as the store needs.
        unsafe { _mm512_stream_ps(p, v) }
    }
    #[inline(always)]
    unsafe fn load_part(self, p: *const f32, n: usize) -> __m512 {
        // SAFETY: see the impl; masked-off lanes are not read.
        unsafe { _mm512_maskz_loadu_ps(first(n), p) }
    }
    #[inline(always)]
    unsafe fn store_part(self, p: *mut f32, n: usize, v: __m512) {
        // SAFETY: see the impl; masked-off lanes are not written.
        unsafe { _mm512_mask_storeu_ps(p, first(n), v) }
    }
    #[inline(always)]
    fn add(self, a: __m512, b: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m512, b: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_sub_ps(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m512, b: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_mul_ps(a, b) }
    }
    #[inline(always)]
    fn div(self, a: __m512, b: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_div_ps(a, b) }
    }
    #[inline(always)]
    fn fma(self, a: __m512, b: __m512, c: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_fmadd_ps(a, b, c) }
    }
    #[inline(always)]
    fn fms(self, a: __m512, b: __m512, c: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_fmsub_ps(a, b, c) }
    }
    #[inline(always)]
    fn fnma(self, a: __m512, b: __m512, c: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_fnmadd_ps(a, b, c) }
    }
    #[inline(always)]
    fn max(self, a: __m512, b: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_max_ps(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m512, b: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_min_ps(a, b) }
    }
    #[inline(always)]
    fn round(self, a: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(a) }
    }
    #[inline(always)]
    fn lt(self, a: __m512, b: __m512) -> __mmask16 {
        // SAFETY: see the impl.
        unsafe { _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b) }
    }
    #[inline(always)]
    fn le(self, a: __m512, b: __m512) -> __mmask16 {
        // SAFETY: see the impl.
        unsafe { _mm512_cmp_ps_mask::<_CMP_LE_OQ>(a, b) }
    }
    #[inline(always)]
    fn eq(self, a: __m512, b: __m512) -> __mmask16 {
        // SAFETY: see the impl.
        unsafe { _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(a, b) }
    }
    #[inline(always)]
    fn is_nan(self, a: __m512) -> __mmask16 {
        // SAFETY: see the impl.
        unsafe { _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(a, a) }
    }
    #[inline(always)]
    fn select(self, m: __mmask16, a: __m512, b: __m512) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_mask_blend_ps(m, b, a) }
    }
    #[inline(always)]
    fn or_m(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        a | b
    }
    #[inline(always)]
    fn any(self, m: __mmask16) -> bool {
        m != 0
    }
    #[inline(always)]
    fn sum(self, a: __m512) -> f32 {
        // SAFETY: see the impl.
        unsafe { _mm512_reduce_add_ps(a) }
    }
    #[inline(always)]
    fn max_lane(self, a: __m512) -> f32 {
        // SAFETY: see the impl.
        unsafe {
            let nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(a, a);
            if nan != 0 {
                return f32::NAN;
            }
            _mm512_reduce_max_ps(a)
        }
    }
    #[inline(always)]
    fn to_bits(self, a: __m512) -> __m512i {
        // SAFETY: see the impl.
        unsafe { _mm512_castps_si512(a) }
    }
    #[inline(always)]
    fn f_from_bits(self, a: __m512i) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_castsi512_ps(a) }
    }
    #[inline(always)]
    fn splat_i(self, v: i32) -> __m512i {
        // SAFETY: see the impl.
        unsafe { _mm512_set1_epi32(v) }
    }
    #[inline(always)]
    fn sub_i(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl.
        unsafe { _mm512_sub_epi32(a, b) }
    }
    #[inline(always)]
    fn and_i(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl.
        unsafe { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    fn or_i(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl.
        unsafe { _mm512_or_si512(a, b) }
    }
    #[inline(always)]
    fn sra23(self, a: __m512i) -> __m512i {
        // SAFETY: see the impl.
        unsafe { _mm512_srai_epi32::<23>(a) }
    }
    #[inline(always)]
    fn shl23(self, a: __m512i) -> __m512i {
        // SAFETY: see the impl.
        unsafe { _mm512_slli_epi32::<23>(a) }
    }
    #[inline(always)]
    fn i_to_f(self, a: __m512i) -> __m512 {
        // SAFETY: see the impl.
        unsafe { _mm512_cvtepi32_ps(a) }
    }
    #[inline(always)]
    fn trunc_i(self, a: __m512) -> __m512i {
        // SAFETY: see the impl.
        unsafe { _mm512_cvttps_epi32(a) }
    }
    #[inline(always)]
    fn lookup8(self, table: &[f32; 8], idx: __m512i) -> __m512 {
        // SAFETY: see the impl; `table` holds 8 f32, read into the low half
        // of a vector (the index is masked to 0..8, so the undefined upper
        // half is never chosen).
        unsafe {
            let t = _mm512_castps256_ps512(_mm256_loadu_ps(table.as_ptr()));
            _mm512_permutexvar_ps(_mm512_and_si512(idx, _mm512_set1_epi32(7)), t)
        }
    }
    #[inline(always)]
    fn scale(self, a: __m512, n: __m512) -> __m512 {
        // SAFETY: see the impl. `vscalefps` rounds once, subnormals included.
        unsafe { _mm512_scalef_ps(a, n) }
    }

    #[inline(always)]
    fn splat_d(self, v: f64) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_set1_pd(v) }
    }
    #[inline(always)]
    fn add_d(self, a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_add_pd(a, b) }
    }
    #[inline(always)]
    fn sub_d(self, a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_sub_pd(a, b) }
    }
    #[inline(always)]
    fn mul_d(self, a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_mul_pd(a, b) }
    }
    #[inline(always)]
    fn div_d(self, a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_div_pd(a, b) }
    }
    #[inline(always)]
    fn recip_d(self, a: __m512d) -> __m512d {
        // SAFETY: see the impl. A 14-bit estimate, then two Newton steps
        // (28, then 53 bits): cheaper than `vdivpd` on a whole vector.
        unsafe {
            let one = _mm512_set1_pd(1.0);
            let mut r = _mm512_rcp14_pd(a);
            let e = _mm512_fnmadd_pd(a, r, one);
            r = _mm512_fmadd_pd(r, e, r);
            let e = _mm512_fnmadd_pd(a, r, one);
            _mm512_fmadd_pd(r, e, r)
        }
    }
    #[inline(always)]
    fn fma_d(self, a: __m512d, b: __m512d, c: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_fmadd_pd(a, b, c) }
    }
    #[inline(always)]
    fn sqrt_d(self, a: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_sqrt_pd(a) }
    }
    #[inline(always)]
    fn max_d(self, a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_max_pd(a, b) }
    }
    #[inline(always)]
    fn min_d(self, a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_min_pd(a, b) }
    }
    #[inline(always)]
    fn round_d(self, a: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_roundscale_pd::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(a) }
    }
    #[inline(always)]
    fn lt_d(self, a: __m512d, b: __m512d) -> __mmask8 {
        // SAFETY: see the impl.
        unsafe { _mm512_cmp_pd_mask::<_CMP_LT_OQ>(a, b) }
    }
    #[inline(always)]
    fn le_d(self, a: __m512d, b: __m512d) -> __mmask8 {
        // SAFETY: see the impl.
        unsafe { _mm512_cmp_pd_mask::<_CMP_LE_OQ>(a, b) }
    }
    #[inline(always)]
    fn select_d(self, m: __mmask8, a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_mask_blend_pd(m, b, a) }
    }
    #[inline(always)]
    fn and_md(self, a: __mmask8, b: __mmask8) -> __mmask8 {
        a & b
    }
    #[inline(always)]
    fn any_d(self, m: __mmask8) -> bool {
        m != 0
    }
    #[inline(always)]
    fn scale_d(self, a: __m512d, n: __m512d) -> __m512d {
        // SAFETY: see the impl.
        unsafe { _mm512_scalef_pd(a, n) }
    }
    #[inline(always)]
    fn frexp_d(self, a: __m512d) -> (__m512d, __m512d) {
        // SAFETY: see the impl.
        unsafe {
            let m = _mm512_getmant_pd::<_MM_MANT_NORM_1_2, _MM_MANT_SIGN_SRC>(a);
            (m, _mm512_getexp_pd(a))
        }
    }
    #[inline(always)]
    fn widen(self, a: __m512) -> (__m512d, __m512d) {
        // SAFETY: see the impl.
        unsafe {
            let lo = _mm512_castps512_ps256(a);
            let hi = _mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(_mm512_castps_pd(a)));
            (_mm512_cvtps_pd(lo), _mm512_cvtps_pd(hi))
        }
    }
    #[inline(always)]
    fn narrow(self, lo: __m512d, hi: __m512d) -> __m512 {
        // SAFETY: see the impl.
        unsafe {
            let lo = _mm512_cvtpd_ps(lo);
            let hi = _mm512_cvtpd_ps(hi);
            _mm512_castpd_ps(_mm512_insertf64x4::<1>(
                _mm512_castpd256_pd512(_mm256_castps_pd(lo)),
                _mm256_castps_pd(hi),
            ))
        }
    }
}
