//! What a convolution does to a tile of its output after the matrix
//! product wrote it, while the tile is still in the cache: the bias added
//! and the clamp (ReLU6) applied, in one pass.

use super::Real;
use super::forward::Problem;

/// `v` clamped to `[lo, hi]`; NaN stays NaN (PyTorch's `clamp`).
#[inline(always)]
pub(crate) fn clamp<T: Real>(v: T, (lo, hi): (T, T)) -> T {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

/// `y = clamp(y + bias)` over output channels `c0..c0 + count` and output
/// positions `q0..q0 + np` of the batch item at `yb` (positions `yps`
/// apart); nothing when there is neither a bias nor a clamp.
///
/// # Safety
/// In-range elements, written by this call alone meanwhile.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn finish<T: Real>(
    p: &Problem,
    y: *mut T,
    yb: isize,
    yps: isize,
    bias: Option<&[T]>,
    (c0, count): (usize, usize),
    (q0, np): (usize, usize),
) {
    let bound = p.clamp::<T>();
    if bias.is_none() && bound.is_none() {
        return;
    }
    let add = bias.is_some();
    let f = |v: T, b: T| {
        let v = if add { v + b } else { v };
        bound.map_or(v, |lo_hi| clamp(v, lo_hi))
    };
    let zeros;
    let bias = match bias {
        Some(b) => &b[c0..c0 + count],
        None => {
            zeros = vec![T::ZERO; count];
            &zeros[..]
        }
    };
    let start = yb + c0 as isize * p.y.c + q0 as isize * yps;
    if p.y.c == 1 {
        // Channels innermost: each position's channels are one run.
        for q in 0..np {
            // SAFETY: `count` contiguous channels of an in-range position.
            let run = unsafe {
                std::slice::from_raw_parts_mut(y.offset(start + q as isize * yps), count)
            };
            for (v, &b) in run.iter_mut().zip(bias) {
                *v = f(*v, b);
            }
        }
    } else {
        for (co, &b) in bias.iter().enumerate() {
            let row = start + co as isize * p.y.c;
            for q in 0..np {
                // SAFETY: the caller's contract.
                unsafe {
                    let at = y.offset(row + q as isize * yps);
                    *at = f(*at, b);
                }
            }
        }
    }
}
