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

#[cfg(test)]
mod tests {
    use crate::nn::{ConvAxes, ConvOptions, Padding};
    use crate::{DType, Generator, RawTensor};

    /// A clamped convolution is the convolution then `hardtanh`, for the
    /// 1×1 product, the patch product (NCHW and NHWC) and the depthwise
    /// kernel, NaN included.
    #[test]
    fn clamped_convolutions_are_hardtanh_after() {
        let mut rng = Generator::seed(3);
        for (cin, cout, k, groups, channel) in [
            (6, 5, 1, 1, 3),
            (6, 5, 1, 1, 1),
            (4, 6, 3, 1, 3),
            (4, 6, 3, 2, 1),
            (5, 5, 3, 5, 3),
        ] {
            let shape = if channel == 3 {
                [2, 7, 6, cin]
            } else {
                [2, cin, 7, 6]
            };
            let mut x = RawTensor::randn(&shape, DType::F32, &mut rng).unwrap();
            let mut v = x.to_vec::<f32>().unwrap();
            v[3] = f32::NAN;
            x = RawTensor::from_vec(v, &shape).unwrap();
            let wshape = [cout, cin / groups, k, k];
            let w = RawTensor::randn(&wshape, DType::F32, &mut rng).unwrap();
            // Large enough for some outputs beyond 6.
            let w = w.to_vec::<f32>().unwrap().iter().map(|v| 4.0 * v).collect();
            let w = RawTensor::from_vec(w, &wshape).unwrap();
            let b = RawTensor::randn(&[cout], DType::F32, &mut rng).unwrap();
            let axes = if channel == 3 {
                ConvAxes::new(3, &[1, 2])
            } else {
                ConvAxes::new(1, &[2, 3])
            };
            let o = ConvOptions::new()
                .padding(Padding::Both(vec![k / 2]))
                .groups(groups);
            let conv = |o: &ConvOptions| {
                x.view()
                    .conv_axes(&w.view(), Some(&b.view()), &axes, o)
                    .unwrap()
            };
            let after = conv(&o).view().hardtanh(0.0, 6.0).unwrap();
            let fused = conv(&o.clone().clamp(0.0, 6.0));
            let (a, f) = (
                after.to_vec::<f32>().unwrap(),
                fused.to_vec::<f32>().unwrap(),
            );
            assert!(a.iter().any(|v| v.is_nan()) && a.contains(&6.0));
            for (a, f) in a.iter().zip(&f) {
                assert!(a == f || (a.is_nan() && f.is_nan()), "{a} vs {f}");
            }
        }
    }
}
