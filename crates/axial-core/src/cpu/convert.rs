//! f16 and bf16 to and from f32 without branches, so that loops over them
//! vectorise. Bit for bit the results of `half`'s conversions: round to
//! nearest even, overflow to infinity, NaN kept NaN (quiet, with the top bits
//! of its payload).

use half::{bf16, f16};

#[cfg(target_arch = "x86_64")]
use super::simd::Level;
use super::simd::{Site, avx2_loops, level_at};

/// f32 → bf16, rounding to nearest even.
#[inline(always)]
pub(crate) fn f32_to_bf16(v: f32) -> bf16 {
    let x = v.to_bits();
    let rounded = x.wrapping_add(0x7fff + ((x >> 16) & 1)) >> 16;
    let nan = (x >> 16) | 0x0040;
    let bits = if (x & 0x7fff_ffff) > 0x7f80_0000 {
        nan
    } else {
        rounded
    };
    bf16::from_bits(bits as u16)
}

/// bf16 → f32 (exact; a NaN is made quiet).
#[inline(always)]
pub(crate) fn bf16_to_f32(v: bf16) -> f32 {
    let h = v.to_bits() as u32;
    let quiet = if (h & 0x7fff) > 0x7f80 { 0x0040 } else { 0 };
    f32::from_bits((h | quiet) << 16)
}

/// Bits of the f32 2⁻¹ (exponent 126): adding it to a value below f16's
/// smallest normal lines f16's subnormal step up with f32's last bit, so the
/// hardware's own rounding rounds to nearest even.
const SUBNORMAL_MAGIC: u32 = 126 << 23;
/// Smallest f32 (bits) whose f16 is infinite whatever the rounding: 2¹⁶.
const F16_OVERFLOW: u32 = (127 + 16) << 23;
/// Smallest f32 (bits) whose f16 is normal: 2⁻¹⁴.
const F16_MIN_NORMAL: u32 = 113 << 23;

/// f32 → f16, rounding to nearest even.
#[inline(always)]
pub(crate) fn f32_to_f16(v: f32) -> f16 {
    let x = v.to_bits();
    let sign = (x >> 16) & 0x8000;
    let a = x & 0x7fff_ffff;
    let special = if a > 0x7f80_0000 {
        0x7e00 | ((a >> 13) & 0x03ff)
    } else {
        0x7c00
    };
    let subnormal = (f32::from_bits(a) + f32::from_bits(SUBNORMAL_MAGIC))
        .to_bits()
        .wrapping_sub(SUBNORMAL_MAGIC);
    // Rebias the exponent (127 → 15) and round: a carry out of the mantissa
    // bumps the exponent, up to infinity.
    let normal = a
        .wrapping_sub(112 << 23)
        .wrapping_add(0x0fff + ((a >> 13) & 1))
        >> 13;
    let bits = if a >= F16_OVERFLOW {
        special
    } else if a < F16_MIN_NORMAL {
        subnormal
    } else {
        normal
    };
    f16::from_bits((bits | sign) as u16)
}

/// f16 → f32 (exact; a NaN is made quiet).
#[inline(always)]
pub(crate) fn f16_to_f32(v: f16) -> f32 {
    let h = v.to_bits() as u32;
    let sign = (h & 0x8000) << 16;
    let shifted = (h & 0x7fff) << 13;
    let exponent = shifted & (0x7c00 << 13);
    let normal = shifted + ((127 - 15) << 23);
    let quiet = if (h & 0x03ff) != 0 { 0x0040_0000 } else { 0 };
    let special = (shifted + ((255 - 31) << 23)) | quiet;
    // A subnormal f16 m·2⁻²⁴ is (2⁻¹⁴ + m·2⁻²⁴) − 2⁻¹⁴, computed exactly.
    let subnormal = (f32::from_bits(shifted + (113 << 23)) - f32::from_bits(113 << 23)).to_bits();
    let bits = if exponent == 0x7c00 << 13 {
        special
    } else if exponent == 0 {
        subnormal
    } else {
        normal
    };
    f32::from_bits(bits | sign)
}

/// An element computed in f32: f16 or bf16, widened and narrowed bit for
/// bit as `half` does, or a float8, as PyTorch converts it.
pub(crate) trait Half: Copy {
    /// The f32 of `self` (exact).
    fn widen(self) -> f32;
    /// `v` rounded to nearest even.
    fn narrow(v: f32) -> Self;
    /// Widens a run (F16C for f16 where the instruction set in use has it).
    fn widen_run(src: &[Self], dst: &mut [f32]);
    /// Narrows a run (F16C for f16 where the instruction set in use has it).
    fn narrow_run(src: &[f32], dst: &mut [Self]);
}

impl Half for bf16 {
    #[inline(always)]
    fn widen(self) -> f32 {
        bf16_to_f32(self)
    }
    #[inline(always)]
    fn narrow(v: f32) -> Self {
        f32_to_bf16(v)
    }
    fn widen_run(src: &[Self], dst: &mut [f32]) {
        avx2_loops(Site::Convert, || {
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = bf16_to_f32(s);
            }
        })
    }
    fn narrow_run(src: &[f32], dst: &mut [Self]) {
        avx2_loops(Site::Convert, || {
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = f32_to_bf16(s);
            }
        })
    }
}

impl Half for f16 {
    #[inline(always)]
    fn widen(self) -> f32 {
        f16_to_f32(self)
    }
    #[inline(always)]
    fn narrow(v: f32) -> Self {
        f32_to_f16(v)
    }
    fn widen_run(src: &[Self], dst: &mut [f32]) {
        let n = src.len().min(dst.len());
        #[cfg(target_arch = "x86_64")]
        if level_at(Site::Convert) != Level::Portable {
            // SAFETY: the level in use has AVX2 and F16C; both runs hold `n`.
            unsafe { f16c::widen(src.as_ptr(), dst.as_mut_ptr(), n) };
            return;
        }
        #[cfg(not(target_arch = "x86_64"))]
        level_at(Site::Convert);
        for (d, &s) in dst[..n].iter_mut().zip(src) {
            *d = f16_to_f32(s);
        }
    }
    fn narrow_run(src: &[f32], dst: &mut [Self]) {
        let n = src.len().min(dst.len());
        #[cfg(target_arch = "x86_64")]
        if level_at(Site::Convert) != Level::Portable {
            // SAFETY: as above.
            unsafe { f16c::narrow(src.as_ptr(), dst.as_mut_ptr(), n) };
            return;
        }
        #[cfg(not(target_arch = "x86_64"))]
        level_at(Site::Convert);
        for (d, &s) in dst[..n].iter_mut().zip(src) {
            *d = f32_to_f16(s);
        }
    }
}

/// Runs of f16 through F16C, eight at a time (the same bits as
/// [`f16_to_f32`] and [`f32_to_f16`]: the instructions round to nearest
/// even and keep NaN quiet).
#[cfg(target_arch = "x86_64")]
mod f16c {
    use std::arch::x86_64::*;

    use super::{f16, f16_to_f32, f32_to_f16};

    /// # Safety
    /// The CPU has AVX2 and F16C; `src` is readable and `dst` writable for
    /// `n` elements.
    #[target_feature(enable = "avx2,f16c")]
    pub(super) unsafe fn widen(src: *const f16, dst: *mut f32, n: usize) {
        let mut i = 0;
        // SAFETY: every access is below `n`.
        unsafe {
            while i + 8 <= n {
                let h = _mm_loadu_si128(src.add(i).cast());
                _mm256_storeu_ps(dst.add(i), _mm256_cvtph_ps(h));
                i += 8;
            }
            for j in i..n {
                *dst.add(j) = f16_to_f32(*src.add(j));
            }
        }
    }

    /// # Safety
    /// As [`widen`].
    #[target_feature(enable = "avx2,f16c")]
    pub(super) unsafe fn narrow(src: *const f32, dst: *mut f16, n: usize) {
        let mut i = 0;
        // SAFETY: every access is below `n`.
        unsafe {
            while i + 8 <= n {
                let v = _mm256_loadu_ps(src.add(i));
                let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(v);
                _mm_storeu_si128(dst.add(i).cast(), h);
                i += 8;
            }
            for j in i..n {
                *dst.add(j) = f32_to_f16(*src.add(j));
            }
        }
    }
}

/// The float8s: exact to f32, rounded from f32 as PyTorch rounds them.
macro_rules! float8_half {
    ($($t:ident),*) => {$(
        impl Half for crate::float8::$t {
            #[inline(always)]
            fn widen(self) -> f32 {
                self.to_f32()
            }
            #[inline(always)]
            fn narrow(v: f32) -> Self {
                Self::from_f32(v)
            }
            fn widen_run(src: &[Self], dst: &mut [f32]) {
                for (d, &s) in dst.iter_mut().zip(src) {
                    *d = s.to_f32();
                }
            }
            fn narrow_run(src: &[f32], dst: &mut [Self]) {
                for (d, &s) in dst.iter_mut().zip(src) {
                    *d = Self::from_f32(s);
                }
            }
        }
    )*};
}
float8_half!(F8E4M3Fn, F8E5M2, F8E4M3FnUz, F8E5M2FnUz);

#[cfg(test)]
mod tests {
    use super::*;

    fn same_f32(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits()
    }

    #[test]
    fn every_f16_widens_like_half() {
        for bits in 0..=u16::MAX {
            let h = f16::from_bits(bits);
            assert!(same_f32(f16_to_f32(h), h.to_f32()), "{bits:#06x}");
        }
    }

    #[test]
    fn every_bf16_widens_like_half() {
        for bits in 0..=u16::MAX {
            let h = bf16::from_bits(bits);
            assert!(same_f32(bf16_to_f32(h), h.to_f32()), "{bits:#06x}");
        }
    }

    /// f32 bit patterns: every 4093rd, and the neighbours of each f16 and
    /// bf16 value and of each halfway point between two of them.
    fn f32_samples() -> impl Iterator<Item = u32> {
        let stride = (0..=u32::MAX).step_by(4093);
        let near = (0..=u16::MAX).flat_map(|h| {
            let f16_at = f16::from_bits(h).to_f32().to_bits();
            let bf16_at = (h as u32) << 16;
            [f16_at, bf16_at]
                .into_iter()
                .flat_map(|x| {
                    [
                        x,
                        x | 0x0fff,
                        x | 0x1000,
                        x | 0x1001,
                        x | 0x7fff,
                        x | 0x8000,
                        x | 0x8001,
                    ]
                })
                .flat_map(|x| [x.wrapping_sub(1), x, x.wrapping_add(1)])
        });
        stride.chain(near)
    }

    /// Runs convert as their elements do, at every level.
    #[test]
    fn runs_convert_as_elements() {
        let wide: Vec<f32> = f32_samples().step_by(97).map(f32::from_bits).collect();
        let mut halves = vec![f16::ZERO; wide.len()];
        let mut back = vec![0.0f32; wide.len()];
        f16::narrow_run(&wide, &mut halves);
        f16::widen_run(&halves, &mut back);
        for ((&w, &h), &b) in wide.iter().zip(&halves).zip(&back) {
            assert_eq!(h.to_bits(), f32_to_f16(w).to_bits());
            assert!(same_f32(b, f16_to_f32(h)));
        }
        let mut brains = vec![bf16::ZERO; wide.len()];
        bf16::narrow_run(&wide, &mut brains);
        bf16::widen_run(&brains, &mut back);
        for ((&w, &h), &b) in wide.iter().zip(&brains).zip(&back) {
            assert_eq!(h.to_bits(), f32_to_bf16(w).to_bits());
            assert!(same_f32(b, bf16_to_f32(h)));
        }
    }

    #[test]
    fn f32_narrows_like_half() {
        for bits in f32_samples() {
            let v = f32::from_bits(bits);
            assert_eq!(
                f32_to_f16(v).to_bits(),
                f16::from_f32(v).to_bits(),
                "{bits:#010x}"
            );
            assert_eq!(
                f32_to_bf16(v).to_bits(),
                bf16::from_f32(v).to_bits(),
                "{bits:#010x}"
            );
        }
    }
}
