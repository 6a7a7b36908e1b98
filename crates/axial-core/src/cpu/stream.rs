//! Copies of large, disjoint byte ranges with non-temporal stores.
//!
//! A plain store first reads the destination's cache line (to own it), so a
//! copy of a buffer larger than the caches moves three bytes through memory
//! for each byte copied. Non-temporal (streaming) stores write whole lines
//! without reading them: two bytes per byte, and about 1.5× the speed of
//! `memcpy` on a large copy here. They also leave the destination out of the
//! caches, so they only pay when the copy is larger than the caches anyway.

use super::strided::Plan;

/// Bytes an output must hold before its runs are streamed: half of a
/// typical last-level cache; below it the destination may still be cached
/// for whoever reads it next.
const STREAM_MIN_TOTAL: usize = 16 << 20;

/// A run shorter than this is copied by `memcpy`: the alignment head and
/// tail would cost more than streaming saves.
pub(crate) const STREAM_MIN_RUN: usize = 4096;

/// True when `plan`'s writes of `O` are better streamed past the caches: a
/// walk without aliasing whose output is larger than them.
pub(crate) fn worth_streaming<O, const N: usize>(plan: &Plan<N>) -> bool {
    plan.is_disjoint() && worth_streaming_bytes(plan.numel().saturating_mul(size_of::<O>()))
}

/// True when an output of `bytes`, written once and not overlapping its
/// inputs, is better streamed past the caches.
pub(crate) fn worth_streaming_bytes(bytes: usize) -> bool {
    bytes >= STREAM_MIN_TOTAL
}

/// Copies `len` bytes from `src` to `dst`, streaming when `stream` is set and
/// the run is long enough; otherwise a `memmove`.
///
/// # Safety
/// `src` is valid for reads and `dst` for writes of `len` bytes. The ranges
/// may overlap (an input aliasing its output): overlapping runs are moved
/// with `memmove`.
pub(crate) unsafe fn copy_run(src: *const u8, dst: *mut u8, len: usize, stream: bool) {
    if stream && len >= STREAM_MIN_RUN {
        // SAFETY: the caller's contract. The fence makes the stores visible
        // before the thread reports its part done.
        unsafe { stream_run(src, dst, len) };
        fence();
    } else {
        // SAFETY: the caller's contract; `copy` is right for overlapping ranges.
        unsafe { std::ptr::copy(src, dst, len) };
    }
}

/// Copies `len` bytes with streaming stores, whatever the length, without
/// the closing [`fence`]: for runs that tile a larger output (a caller
/// fences once after many); overlapping ranges are moved with `memmove`.
///
/// # Safety
/// As [`copy_run`].
#[inline]
pub(crate) unsafe fn stream_run(src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: the caller's contract, and `stream_unfenced` gets disjoint ranges.
    unsafe {
        if (src as usize).abs_diff(dst as usize) >= len {
            stream_unfenced(src, dst, len);
        } else {
            std::ptr::copy(src, dst, len);
        }
    }
}

/// Orders the streaming stores issued so far before any later store (a no-op
/// where they are plain stores).
#[inline(always)]
pub(crate) fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of every x86-64.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

/// Copies disjoint ranges with 16-byte streaming stores (SSE2, part of every
/// x86-64), 64 bytes per step, without the closing [`fence`]: a caller that
/// streams many pieces fences once after the last.
///
/// # Safety
/// As [`copy_run`], and the ranges are disjoint.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) unsafe fn stream_unfenced(src: *const u8, dst: *mut u8, len: usize) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
    let head = dst.align_offset(16).min(len);
    let body = (len - head) / 64 * 64;
    // SAFETY: `head + body <= len`, so every access below stays within the
    // `len` bytes the caller vouches for; the streamed stores go to 16-byte
    // aligned addresses (`dst + head` is aligned, steps are multiples of 16).
    // The unaligned ends are copied only when there are some: a short run
    // (a window of 64 bytes) is then streamed without a call.
    unsafe {
        if head > 0 {
            std::ptr::copy_nonoverlapping(src, dst, head);
        }
        let (s, d) = (src.add(head), dst.add(head));
        let mut i = 0;
        while i < body {
            let from = s.add(i).cast::<__m128i>();
            let to = d.add(i).cast::<__m128i>();
            let (a, b) = (_mm_loadu_si128(from), _mm_loadu_si128(from.add(1)));
            let (c, e) = (_mm_loadu_si128(from.add(2)), _mm_loadu_si128(from.add(3)));
            _mm_stream_si128(to, a);
            _mm_stream_si128(to.add(1), b);
            _mm_stream_si128(to.add(2), c);
            _mm_stream_si128(to.add(3), e);
            i += 64;
        }
        if head + body < len {
            std::ptr::copy_nonoverlapping(s.add(body), d.add(body), len - head - body);
        }
    }
}

/// Elsewhere, `memcpy`.
///
/// # Safety
/// As [`copy_run`], and the ranges are disjoint.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) unsafe fn stream_unfenced(src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: the caller's contract.
    unsafe { std::ptr::copy_nonoverlapping(src, dst, len) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every head alignment, body length and tail, streamed or not, copies
    /// exactly the bytes asked and nothing around them.
    #[test]
    fn copies_exactly_the_run() {
        let src: Vec<u8> = (0..40_000u32).map(|i| (i * 7 + 3) as u8).collect();
        for src_at in [0, 1, 5, 16] {
            for dst_at in [0, 3, 8, 15] {
                for len in [0, 1, 63, 4096, 4097, 4096 + 64 + 13, 39_000] {
                    for stream in [false, true] {
                        let mut dst = vec![0xAAu8; 40_032];
                        // SAFETY: both ranges are inside their buffers.
                        unsafe {
                            copy_run(
                                src.as_ptr().add(src_at),
                                dst.as_mut_ptr().add(dst_at),
                                len,
                                stream,
                            )
                        };
                        assert_eq!(&dst[dst_at..dst_at + len], &src[src_at..src_at + len]);
                        assert!(dst[..dst_at].iter().all(|&b| b == 0xAA));
                        assert!(dst[dst_at + len..].iter().all(|&b| b == 0xAA));
                    }
                }
            }
        }
    }

    /// Overlapping runs (an input aliasing its output) are moved, not streamed.
    #[test]
    fn overlapping_runs_are_moved() {
        let mut buf: Vec<u8> = (0..10_000u32).map(|i| i as u8).collect();
        let expected: Vec<u8> = buf[..9_000].to_vec();
        let p = buf.as_mut_ptr();
        // SAFETY: both ranges are inside `buf`.
        unsafe { copy_run(p, p.add(1_000), 9_000, true) };
        assert_eq!(&buf[1_000..], &expected[..]);
    }
}
