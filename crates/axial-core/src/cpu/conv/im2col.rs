//! `im2col` and `col2im`: the patches of a window over a strided input laid
//! out as the rows or columns of a matrix, and their sum back.
//!
//! Two layouts of the patch matrix, one per kind of input:
//! - [`im2col_rows`]: one row per (channel, tap), one column per output
//!   position. A row is a strided run of the input along its last spatial
//!   dim, so inputs whose positions are contiguous (NCHW) copy runs.
//! - [`im2col_cols`]: one row per output position, one column per (tap,
//!   channel). A tap copies the channels of one position, so inputs whose
//!   channels are contiguous (NHWC) copy runs.
//!
//! Out-of-range taps (the zero padding) are zeros.

use super::Real;
use super::geometry::{Grid, Window};

/// Output positions `p0..p1` of a grid of `out` sizes, walked as lines of
/// the last dim: `f(d, h, w0, w1, at)` with `at` the line's first column in
/// the tile.
#[inline(always)]
pub(crate) fn lines(
    out: [usize; 3],
    p0: usize,
    p1: usize,
    mut f: impl FnMut(usize, usize, usize, usize, usize),
) {
    let mut p = p0;
    while p < p1 {
        let w0 = p % out[2];
        let line = p / out[2];
        let w1 = (w0 + (p1 - p)).min(out[2]);
        f(line / out[1], line % out[1], w0, w1, p - p0);
        p += w1 - w0;
    }
}

/// Writes `col[(c·taps + t)·(p1 − p0) + (p − p0)]`: the value channel
/// `c0 + c` of the input at tap `t` of output position `p`, for `c < cg`.
///
/// # Safety
/// Every in-range element of `x`'s grid at batch offset `xb` is readable
/// from `x`, and `col` holds `cg · taps · (p1 − p0)` elements.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn im2col_rows<T: Real>(
    x: *const T,
    g: &Grid,
    xb: isize,
    (c0, cg): (usize, usize),
    w: &Window,
    out: [usize; 3],
    (p0, p1): (usize, usize),
    col: &mut [T],
) {
    let np = p1 - p0;
    let taps = w.taps();
    for c in 0..cg {
        let xc = xb + (c0 + c) as isize * g.c;
        for t in 0..taps {
            let [kd, kh, kw] = w.tap(t);
            let row = &mut col[(c * taps + t) * np..][..np];
            let (lo, hi) = w.valid_outputs(2, kw, g.size[2], out[2]);
            let step = (w.stride[2] as isize) * g.s[2];
            lines(out, p0, p1, |od, oh, w0, w1, at| {
                let seg = &mut row[at..at + (w1 - w0)];
                let (Some(id), Some(ih)) = (
                    w.source(0, od, kd, g.size[0]),
                    w.source(1, oh, kh, g.size[1]),
                ) else {
                    seg.fill(T::ZERO);
                    return;
                };
                let (a, b) = (lo.clamp(w0, w1), hi.clamp(w0, w1));
                seg[..a - w0].fill(T::ZERO);
                seg[b - w0..].fill(T::ZERO);
                if a < b {
                    let iw = a * w.stride[2] + kw * w.dil[2] - w.pad[2];
                    let base = xc + g.at(id, ih, iw);
                    let dst = &mut seg[a - w0..b - w0];
                    if step == 1 {
                        // SAFETY: `b − a` in-range elements of one line.
                        let src = unsafe { std::slice::from_raw_parts(x.offset(base), dst.len()) };
                        dst.copy_from_slice(src);
                    } else {
                        for (j, v) in dst.iter_mut().enumerate() {
                            // SAFETY: column `a + j` reads inside the line.
                            *v = unsafe { *x.offset(base + j as isize * step) };
                        }
                    }
                }
            });
        }
    }
}

/// Writes `col[(p − p0)·(taps·cg) + t·cg + c]`: the value of channel
/// `c0 + c` at tap `t` of output position `p`.
///
/// # Safety
/// As [`im2col_rows`].
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn im2col_cols<T: Real>(
    x: *const T,
    g: &Grid,
    xb: isize,
    (c0, cg): (usize, usize),
    w: &Window,
    out: [usize; 3],
    (p0, p1): (usize, usize),
    col: &mut [T],
) {
    let taps = w.taps();
    let width = taps * cg;
    let xc = xb + c0 as isize * g.c;
    let kw = w.k[2];
    // The taps along a row of the window read one run of `kw · cg`
    // elements when the channels are contiguous and the positions follow
    // each other (NHWC, no dilation along the row).
    let runs = g.c == 1 && w.dil[2] == 1 && g.s[2] == cg as isize;
    lines(out, p0, p1, |od, oh, w0, w1, at| {
        for ow in w0..w1 {
            let row = &mut col[(at + ow - w0) * width..][..width];
            let whole = w.source(2, ow, 0, g.size[2]).is_some()
                && w.source(2, ow, kw - 1, g.size[2]).is_some();
            for t in (0..taps).step_by(kw) {
                let [kd, kh, _] = w.tap(t);
                let dst = &mut row[t * cg..][..kw * cg];
                let (Some(id), Some(ih)) = (
                    w.source(0, od, kd, g.size[0]),
                    w.source(1, oh, kh, g.size[1]),
                ) else {
                    dst.fill(T::ZERO);
                    continue;
                };
                if runs && whole {
                    let iw = ow * w.stride[2] - w.pad[2];
                    // SAFETY: `kw` in-range positions of `cg` contiguous
                    // channels, one after the other.
                    let src = unsafe {
                        std::slice::from_raw_parts(x.offset(xc + g.at(id, ih, iw)), kw * cg)
                    };
                    dst.copy_from_slice(src);
                    continue;
                }
                for (tw, dst) in dst.chunks_exact_mut(cg).enumerate() {
                    let Some(iw) = w.source(2, ow, tw, g.size[2]) else {
                        dst.fill(T::ZERO);
                        continue;
                    };
                    let base = xc + g.at(id, ih, iw);
                    if g.c == 1 {
                        // SAFETY: `cg` channels of one position.
                        let src = unsafe { std::slice::from_raw_parts(x.offset(base), cg) };
                        dst.copy_from_slice(src);
                    } else {
                        for (c, v) in dst.iter_mut().enumerate() {
                            // SAFETY: channel `c0 + c` of an in-range position.
                            *v = unsafe { *x.offset(base + c as isize * g.c) };
                        }
                    }
                }
            }
        }
    });
}

/// Adds `col[(c·taps + t)·(p1 − p0) + (p − p0)]` into channel `c0 + c` of
/// the output grid `g` at the position that tap `t` of position `p` (of a
/// grid of `positions`) reaches; taps outside the output are dropped.
///
/// # Safety
/// Every in-range element of `g` at batch offset `ob` is writable through
/// `y`, and no one else touches channels `c0..c0 + cg` of that batch item
/// meanwhile.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn col2im_rows<T: Real>(
    y: *mut T,
    g: &Grid,
    ob: isize,
    (c0, cg): (usize, usize),
    w: &Window,
    positions: [usize; 3],
    (p0, p1): (usize, usize),
    col: &[T],
) {
    let np = p1 - p0;
    let taps = w.taps();
    for c in 0..cg {
        let yc = ob + (c0 + c) as isize * g.c;
        for t in 0..taps {
            let [kd, kh, kw] = w.tap(t);
            let row = &col[(c * taps + t) * np..][..np];
            let (lo, hi) = w.valid_outputs(2, kw, g.size[2], positions[2]);
            let step = (w.stride[2] as isize) * g.s[2];
            lines(positions, p0, p1, |pd, ph, w0, w1, at| {
                let (Some(od), Some(oh)) = (
                    w.source(0, pd, kd, g.size[0]),
                    w.source(1, ph, kh, g.size[1]),
                ) else {
                    return;
                };
                let (a, b) = (lo.clamp(w0, w1), hi.clamp(w0, w1));
                if a < b {
                    let ow = a * w.stride[2] + kw * w.dil[2] - w.pad[2];
                    let base = yc + g.at(od, oh, ow);
                    for (j, &v) in row[at + a - w0..at + b - w0].iter().enumerate() {
                        // SAFETY: an in-range output element of this batch
                        // item and channel, written by this call alone.
                        unsafe { *y.offset(base + j as isize * step) += v };
                    }
                }
            });
        }
    }
}
