//! Transposing copies of 4-byte elements (f32, i32, u32) with AVX2: the
//! output in blocks of 16×16, each four 8×8 transposes in registers, so
//! that every cache line read or written is used whole; large outputs are
//! streamed past the caches a line at a time.
//!
//! Order: stripes of [`STRIPE`] output rows; in a stripe, a column of
//! blocks after another. The stripe's output rows are then written as
//! that many sequential streams, and the input's rows (the output's
//! columns) read 16 at a time, a stripe's length of each, the next 16
//! prefetched during. Measured on 4096² f32, two threads: 9–10 ms, where
//! scalar 32×32 tiles through a buffer took 16–23 ms (a whole stripe of
//! rows at once: 14–15 ms; 16 rows: 18–23 ms).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::simd::{Level, Site, level_at};

/// Output rows walked together (see the module's doc).
#[cfg(target_arch = "x86_64")]
const STRIPE: usize = 256;

/// Side of the blocks.
#[cfg(target_arch = "x86_64")]
const BLOCK: usize = 16;

/// Whether this CPU runs [`transpose_rows`]: the instruction set in use
/// ([`level_at`], detected once, `AXIAL_SIMD` heeded) has AVX2.
pub(crate) fn available() -> bool {
    level_at(Site::Transpose) != Level::Portable
}

/// Copies `rows`×`cols` elements: output `(r, c)` at `o[r·so_row + c]`
/// from input `s[r + c·si_col]`; whole blocks with AVX2, the edges (under
/// 16 rows or columns) one element at a time. With `stream`, and an output
/// whose rows start on 32-byte boundaries, lines are written with
/// non-temporal stores, which the caller fences.
///
/// # Safety
/// [`available`] is true; every `(r, c)` is in bounds on both sides; no
/// other thread writes these output elements, and the input does not
/// alias them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn transpose_rows(
    o: *mut u32,
    s: *const u32,
    (rows, cols): (usize, usize),
    (so_row, si_col): (isize, isize),
    stream: bool,
) {
    let stream = stream && (o as usize).is_multiple_of(32) && (so_row * 4) % 32 == 0;
    let (full_rows, full_cols) = (rows - rows % BLOCK, cols - cols % BLOCK);
    let at = |r: usize, c: usize| {
        (
            r as isize * so_row + c as isize,
            r as isize + c as isize * si_col,
        )
    };
    for stripe in (0..full_rows).step_by(STRIPE) {
        let end = (stripe + STRIPE).min(full_rows);
        for c0 in (0..full_cols).step_by(BLOCK) {
            for r0 in (stripe..end).step_by(BLOCK) {
                let (oo, so) = at(r0, c0);
                // The same rows of the next column of blocks (a hint: an
                // address past the input is not read).
                let next = s.wrapping_offset(so + BLOCK as isize * si_col);
                for c in 0..BLOCK as isize {
                    _mm_prefetch::<_MM_HINT_T0>(next.wrapping_offset(c * si_col).cast());
                }
                // SAFETY: the block's elements are in bounds (the caller's
                // contract, r0 and c0 below the full blocks' ends).
                unsafe { block(o.offset(oo), so_row, s.offset(so), si_col, stream) };
            }
        }
    }
    // The edges: the columns right of the full blocks, then the rows below.
    let edge = |r_range: std::ops::Range<usize>, c_range: std::ops::Range<usize>| {
        for r in r_range {
            for c in c_range.clone() {
                let (oo, so) = at(r, c);
                // SAFETY: in bounds, as above.
                unsafe { *o.offset(oo) = *s.offset(so) };
            }
        }
    };
    edge(0..full_rows, full_cols..cols);
    edge(full_rows..rows, 0..cols);
}

/// One 16×16 block: four 8×8 transposes into a buffer of the block's rows,
/// then each row (a cache line when aligned) stored in two halves.
///
/// # Safety
/// As [`transpose_rows`], for the block at `o` and `s`; with `stream`,
/// every `o + r·so_row` is 32-byte aligned.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn block(o: *mut u32, so_row: isize, s: *const u32, si_col: isize, stream: bool) {
    // SAFETY: the caller's bounds and alignment; AVX2 is enabled in the
    // function this is inlined into.
    unsafe {
        let mut rows = [[_mm256_setzero_ps(); 2]; BLOCK];
        for (rb, cb) in [(0, 0), (0, 8), (8, 0), (8, 8)] {
            // Column `cb + c` of the output is row `cb + c` of the input.
            let mut v = [_mm256_setzero_ps(); 8];
            for (c, v) in v.iter_mut().enumerate() {
                let at = rb as isize + (cb + c) as isize * si_col;
                *v = _mm256_loadu_ps(s.offset(at).cast());
            }
            for (r, t) in transpose8(v).into_iter().enumerate() {
                rows[rb + r][cb / 8] = t;
            }
        }
        for (r, [lo, hi]) in rows.into_iter().enumerate() {
            let p = o.offset(r as isize * so_row).cast::<f32>();
            if stream {
                _mm256_stream_ps(p, lo);
                _mm256_stream_ps(p.add(8), hi);
            } else {
                _mm256_storeu_ps(p, lo);
                _mm256_storeu_ps(p.add(8), hi);
            }
        }
    }
}

/// The transpose of the 8×8 matrix whose rows are `v`.
///
/// # Safety
/// The CPU has AVX (this is inlined into a function compiled for it).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn transpose8(v: [__m256; 8]) -> [__m256; 8] {
    // SAFETY: register shuffles only; the caller's contract.
    unsafe {
        // Pairs of rows interleaved, then pairs of pairs, then the halves.
        let t = [
            _mm256_unpacklo_ps(v[0], v[1]),
            _mm256_unpackhi_ps(v[0], v[1]),
            _mm256_unpacklo_ps(v[2], v[3]),
            _mm256_unpackhi_ps(v[2], v[3]),
            _mm256_unpacklo_ps(v[4], v[5]),
            _mm256_unpackhi_ps(v[4], v[5]),
            _mm256_unpacklo_ps(v[6], v[7]),
            _mm256_unpackhi_ps(v[6], v[7]),
        ];
        let u = [
            _mm256_shuffle_ps::<0x44>(t[0], t[2]),
            _mm256_shuffle_ps::<0xEE>(t[0], t[2]),
            _mm256_shuffle_ps::<0x44>(t[1], t[3]),
            _mm256_shuffle_ps::<0xEE>(t[1], t[3]),
            _mm256_shuffle_ps::<0x44>(t[4], t[6]),
            _mm256_shuffle_ps::<0xEE>(t[4], t[6]),
            _mm256_shuffle_ps::<0x44>(t[5], t[7]),
            _mm256_shuffle_ps::<0xEE>(t[5], t[7]),
        ];
        [
            _mm256_permute2f128_ps::<0x20>(u[0], u[4]),
            _mm256_permute2f128_ps::<0x20>(u[1], u[5]),
            _mm256_permute2f128_ps::<0x20>(u[2], u[6]),
            _mm256_permute2f128_ps::<0x20>(u[3], u[7]),
            _mm256_permute2f128_ps::<0x31>(u[0], u[4]),
            _mm256_permute2f128_ps::<0x31>(u[1], u[5]),
            _mm256_permute2f128_ps::<0x31>(u[2], u[6]),
            _mm256_permute2f128_ps::<0x31>(u[3], u[7]),
        ]
    }
}
