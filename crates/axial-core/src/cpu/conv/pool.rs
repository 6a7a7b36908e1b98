//! Max, average and adaptive pooling over up to three spatial dims of any
//! layout. With channels innermost (NHWC) a window's taps are read as runs
//! of channels, so the loops vectorise over channels; otherwise each plane
//! is walked window by window.

use rayon::prelude::*;

use super::Real;
use super::geometry::{Grid, Window};
use crate::cpu::access::{SendPtr, out_ptr, read_ptr};
use crate::cpu::strided::PARALLEL_THRESHOLD;
use crate::nn::adaptive_window;
use crate::{Cpu, DType, Error, Input, Output, Result};

/// The refusal of an indices tensor that does not match the output.
const BAD_INDICES: &str = "kernel operands: indices";

/// Where the pooled dims are, and the window.
#[derive(Clone, Debug)]
pub(crate) struct PoolDims<'a> {
    /// The channel dim (vectorised over when innermost), if any.
    pub(crate) channel: Option<usize>,
    /// The pooled dims, outermost first.
    pub(crate) spatial: &'a [usize],
    /// Kernel sizes.
    pub(crate) kernel: &'a [usize],
    /// Strides.
    pub(crate) stride: &'a [usize],
    /// Dilations.
    pub(crate) dilation: &'a [usize],
    /// Padding before (and at most after) each dim.
    pub(crate) pad: &'a [usize],
}

/// What a window computes (the op table's).
pub(crate) use crate::ops::PoolReduction as Reduction;

/// The checked grids of a pooling.
struct Pool {
    x: Grid,
    y: Grid,
    win: Window,
}

fn grids(
    op: &'static str,
    x: &Input<'_, Cpu>,
    y: &Output<'_, Cpu>,
    dims: &PoolDims<'_>,
) -> Result<Pool> {
    let n = dims.spatial.len();
    let rank = x.layout.rank();
    let ok = (1..=3).contains(&n)
        && y.layout.rank() == rank
        && dims
            .channel
            .is_none_or(|c| c < rank && !dims.spatial.contains(&c))
        && dims.spatial.iter().all(|&d| d < rank)
        && [
            dims.kernel.len(),
            dims.stride.len(),
            dims.dilation.len(),
            dims.pad.len(),
        ] == [n; 4]
        && !dims.stride.contains(&0)
        && !dims.dilation.contains(&0)
        && x.dtype == y.dtype;
    let xg = Grid::new(&x.layout, dims.channel, dims.spatial);
    let yg = Grid::new(&y.layout, dims.channel, dims.spatial);
    if !ok || xg.batch.len() != yg.batch.len() || xg.channels != yg.channels {
        return Err(Error::invalid(op, "kernel operands"));
    }
    Ok(Pool {
        x: xg,
        y: yg,
        win: Window::new(dims.kernel, dims.stride, dims.dilation, dims.pad),
    })
}

/// Pools `x` into `y` (and the flat index of each maximum in its plane
/// into `indices`, for max pooling); every output element is written.
pub(crate) fn pool(
    x: Input<'_, Cpu>,
    mut y: Output<'_, Cpu>,
    indices: Option<Output<'_, Cpu>>,
    dims: &PoolDims<'_>,
    reduction: Reduction,
) -> Result<()> {
    let op = "pool";
    let p = grids(op, &x, &y, dims)?;
    let idx = match indices {
        Some(mut i) => {
            let ig = Grid::new(&i.layout, dims.channel, dims.spatial);
            if i.layout.shape() != y.layout.shape() || ig.batch.len() != p.y.batch.len() {
                return Err(Error::invalid(op, BAD_INDICES));
            }
            Some((out_ptr::<i64>(op, &mut i)?, ig))
        }
        None => None,
    };
    match y.dtype {
        DType::F32 => windows::<f32>(&p, read_ptr(op, &x)?, out_ptr(op, &mut y)?, idx, reduction),
        DType::F64 => windows::<f64>(&p, read_ptr(op, &x)?, out_ptr(op, &mut y)?, idx, reduction),
        dtype => return Err(Error::Unsupported { op, dtype }),
    }
    Ok(())
}

/// The per-dim extent of window `o`: the clipped range `[start, end)` of
/// input indices stepped by the dilation, and (for averages) the length
/// with padding.
#[inline(always)]
fn span(win: &Window, d: usize, o: usize, n: usize) -> (isize, isize, usize) {
    let start = (o * win.stride[d]) as isize - win.pad[d] as isize;
    let end = start + ((win.k[d] - 1) * win.dil[d]) as isize + 1;
    let padded = (end.min((n + win.pad[d]) as isize) - start).max(0) as usize;
    (start, end, padded)
}

fn windows<T: Real>(
    p: &Pool,
    x: SendPtr<T>,
    y: SendPtr<T>,
    idx: Option<(SendPtr<i64>, Grid)>,
    r: Reduction,
) {
    let (xg, yg, win) = (&p.x, &p.y, p.win);
    let out = yg.size;
    let c = yg.channels;
    let channels_inner =
        xg.c == 1 && yg.c == 1 && c > 1 && idx.as_ref().is_none_or(|(_, g)| g.c == 1);
    let positions = yg.positions();
    // One job per (batch item, output line); each job walks its channels.
    let lines = yg.batch.len() * out[0] * out[1];
    let job = |l: usize| {
        let (b, od, oh) = (l / (out[0] * out[1]), l / out[1] % out[0], l % out[1]);
        let (xb, yb) = (xg.batch[b], yg.batch[b]);
        let mut acc = vec![T::ZERO; if channels_inner { c } else { 0 }];
        let mut arg = vec![0i64; if channels_inner { c } else { 0 }];
        let mut offsets = Vec::with_capacity(win.taps());
        for ow in 0..out[2] {
            let o = [od, oh, ow];
            let sp: [(isize, isize, usize); 3] =
                std::array::from_fn(|d| span(&win, d, o[d], xg.size[d]));
            let yat = yb + yg.at(od, oh, ow);
            let iat = idx.as_ref().map(|(_, g)| g.batch[b] + g.at(od, oh, ow));
            // The taps inside the input, in row-major order.
            let taps = |f: &mut dyn FnMut(isize, i64)| {
                let mut i = [0usize; 3];
                for d0 in 0..win.k[0] {
                    let id = sp[0].0 + (d0 * win.dil[0]) as isize;
                    if id < 0 || id as usize >= xg.size[0] {
                        continue;
                    }
                    i[0] = id as usize;
                    for d1 in 0..win.k[1] {
                        let ih = sp[1].0 + (d1 * win.dil[1]) as isize;
                        if ih < 0 || ih as usize >= xg.size[1] {
                            continue;
                        }
                        i[1] = ih as usize;
                        for d2 in 0..win.k[2] {
                            let iw = sp[2].0 + (d2 * win.dil[2]) as isize;
                            if iw < 0 || iw as usize >= xg.size[2] {
                                continue;
                            }
                            i[2] = iw as usize;
                            let flat = ((i[0] * xg.size[1] + i[1]) * xg.size[2] + i[2]) as i64;
                            f(xg.at(i[0], i[1], i[2]), flat);
                        }
                    }
                }
            };
            let divisor = match r {
                Reduction::Max => T::ONE,
                Reduction::Avg {
                    divisor: Some(d), ..
                } => T::from_f64(d as f64),
                Reduction::Avg {
                    count_include_pad: true,
                    ..
                } => T::from_f64((sp[0].2 * sp[1].2 * sp[2].2) as f64),
                Reduction::Avg {
                    count_include_pad: false,
                    ..
                } => {
                    let inside = |d: usize| {
                        let (s, e) = (sp[d].0.max(0), sp[d].1.min(xg.size[d] as isize));
                        (e - s).max(0) as usize
                    };
                    T::from_f64((inside(0) * inside(1) * inside(2)) as f64)
                }
            };
            let first = if idx.is_none() || r != Reduction::Max {
                None
            } else {
                // The first tap inside the input (max pooling's index when
                // every value is −∞).
                let mut first = None;
                taps(&mut |at, flat| {
                    if first.is_none() {
                        first = Some((at, flat));
                    }
                });
                first
            };
            if channels_inner {
                match r {
                    Reduction::Max if idx.is_none() => {
                        // No indices: a select per channel, in vectors.
                        acc.fill(T::NEG_INFINITY);
                        offsets.clear();
                        taps(&mut |at, _| offsets.push(xb + at));
                        // SAFETY: each offset is of `c` contiguous channels
                        // of an in-range position.
                        unsafe { T::max_taps(x.get(), &offsets, &mut acc) };
                    }
                    Reduction::Max => {
                        acc.fill(T::NEG_INFINITY);
                        arg.fill(first.map_or(0, |f| f.1));
                        taps(&mut |at, flat| {
                            // SAFETY: `c` contiguous channels of an in-range position.
                            let xs =
                                unsafe { std::slice::from_raw_parts(x.get().offset(xb + at), c) };
                            for ((m, a), &v) in acc.iter_mut().zip(arg.iter_mut()).zip(xs) {
                                if v > *m || v.is_nan() {
                                    *m = v;
                                    *a = flat;
                                }
                            }
                        });
                    }
                    Reduction::Avg { .. } => {
                        acc.fill(T::ZERO);
                        taps(&mut |at, _| {
                            // SAFETY: as above.
                            let xs =
                                unsafe { std::slice::from_raw_parts(x.get().offset(xb + at), c) };
                            for (s, &v) in acc.iter_mut().zip(xs) {
                                *s += v;
                            }
                        });
                        for s in acc.iter_mut() {
                            *s = *s / divisor;
                        }
                    }
                }
                // SAFETY: `c` contiguous output channels of this job's position.
                let ys = unsafe { std::slice::from_raw_parts_mut(y.get().offset(yat), c) };
                ys.copy_from_slice(&acc);
                if let (Some((ip, _)), Some(iat)) = (&idx, iat) {
                    // SAFETY: as for the output.
                    unsafe { std::slice::from_raw_parts_mut(ip.get().offset(iat), c) }
                        .copy_from_slice(&arg);
                }
            } else {
                for ch in 0..c {
                    let xc = xb + ch as isize * xg.c;
                    let (value, flat) = match r {
                        Reduction::Max => {
                            let mut m = T::NEG_INFINITY;
                            let mut a = first.map_or(0, |f| f.1);
                            taps(&mut |at, flat| {
                                // SAFETY: an in-range input element.
                                let v = unsafe { *x.get().offset(xc + at) };
                                if v > m || v.is_nan() {
                                    m = v;
                                    a = flat;
                                }
                            });
                            (m, a)
                        }
                        Reduction::Avg { .. } => {
                            let mut s = T::ZERO;
                            // SAFETY: an in-range input element.
                            taps(&mut |at, _| s += unsafe { *x.get().offset(xc + at) });
                            (s / divisor, 0)
                        }
                    };
                    // SAFETY: an in-range output element of this job.
                    unsafe { *y.get().offset(yat + ch as isize * yg.c) = value };
                    if let (Some((ip, g)), Some(iat)) = (&idx, iat) {
                        // SAFETY: as for the output.
                        unsafe { *ip.get().offset(iat + ch as isize * g.c) = flat };
                    }
                }
            }
        }
    };
    let each = positions / out[0].max(1) / out[1].max(1) * c * win.taps();
    if lines > 1 && lines * each >= PARALLEL_THRESHOLD && rayon::current_num_threads() > 1 {
        (0..lines).into_par_iter().for_each(job);
    } else {
        (0..lines).for_each(job);
    }
}

/// Adaptive pooling: output position `o` of `out` pools input indices
/// `[⌊o·n/out⌋, ⌈(o+1)·n/out⌉)` of each dim, for the mean or the maximum
/// (with its flat index in the plane).
pub(crate) fn adaptive(
    x: Input<'_, Cpu>,
    mut y: Output<'_, Cpu>,
    indices: Option<Output<'_, Cpu>>,
    channel: Option<usize>,
    spatial: &[usize],
    max: bool,
) -> Result<()> {
    let op = "adaptive_pool";
    let n = spatial.len();
    let rank = x.layout.rank();
    let xg = Grid::new(&x.layout, channel, spatial);
    let yg = Grid::new(&y.layout, channel, spatial);
    let ok = (1..=3).contains(&n)
        && y.layout.rank() == rank
        && spatial.iter().all(|&d| d < rank)
        && channel.is_none_or(|c| c < rank && !spatial.contains(&c))
        && xg.batch.len() == yg.batch.len()
        && xg.channels == yg.channels
        && x.dtype == y.dtype
        && (0..3).all(|d| xg.size[d] > 0 || yg.size[d] == 0);
    if !ok {
        return Err(Error::invalid(op, "kernel operands"));
    }
    let idx = match indices {
        Some(mut i) => {
            let ig = Grid::new(&i.layout, channel, spatial);
            if i.layout.shape() != y.layout.shape() {
                return Err(Error::invalid(op, BAD_INDICES));
            }
            Some((out_ptr::<i64>(op, &mut i)?, ig))
        }
        None => None,
    };
    macro_rules! go {
        ($t:ty) => {
            adaptive_windows::<$t>(&xg, &yg, read_ptr(op, &x)?, out_ptr(op, &mut y)?, idx, max)
        };
    }
    match y.dtype {
        DType::F32 => go!(f32),
        DType::F64 => go!(f64),
        dtype => return Err(Error::Unsupported { op, dtype }),
    }
    Ok(())
}

fn adaptive_windows<T: Real>(
    xg: &Grid,
    yg: &Grid,
    x: SendPtr<T>,
    y: SendPtr<T>,
    idx: Option<(SendPtr<i64>, Grid)>,
    max: bool,
) {
    let planes = yg.batch.len() * yg.channels;
    let job = |j: usize| {
        let (b, ch) = (j / yg.channels, j % yg.channels);
        let xc = xg.batch[b] + ch as isize * xg.c;
        let yc = yg.batch[b] + ch as isize * yg.c;
        let ic = idx.as_ref().map(|(_, g)| g.batch[b] + ch as isize * g.c);
        for od in 0..yg.size[0] {
            let rd = adaptive_window(od, xg.size[0], yg.size[0]);
            for oh in 0..yg.size[1] {
                let rh = adaptive_window(oh, xg.size[1], yg.size[1]);
                for ow in 0..yg.size[2] {
                    let rw = adaptive_window(ow, xg.size[2], yg.size[2]);
                    let mut best = T::NEG_INFINITY;
                    let mut arg =
                        ((rd.start * xg.size[1] + rh.start) * xg.size[2] + rw.start) as i64;
                    let mut sum = T::ZERO;
                    for id in rd.clone() {
                        for ih in rh.clone() {
                            for iw in rw.clone() {
                                // SAFETY: an in-range input element.
                                let v = unsafe { *x.get().offset(xc + xg.at(id, ih, iw)) };
                                if max {
                                    if v > best || v.is_nan() {
                                        best = v;
                                        arg = ((id * xg.size[1] + ih) * xg.size[2] + iw) as i64;
                                    }
                                } else {
                                    sum += v;
                                }
                            }
                        }
                    }
                    let count = rd.len() * rh.len() * rw.len();
                    let value = if max {
                        best
                    } else {
                        sum / T::from_f64(count as f64)
                    };
                    // SAFETY: an in-range output element of this plane.
                    unsafe { *y.get().offset(yc + yg.at(od, oh, ow)) = value };
                    if let (Some((ip, g)), Some(ic)) = (&idx, ic) {
                        // SAFETY: as for the output.
                        unsafe { *ip.get().offset(ic + g.at(od, oh, ow)) = arg };
                    }
                }
            }
        }
    };
    let each = yg.positions() * (xg.positions() / yg.positions().max(1)).max(1);
    if planes > 1 && planes * each >= PARALLEL_THRESHOLD && rayon::current_num_threads() > 1 {
        (0..planes).into_par_iter().for_each(job);
    } else {
        (0..planes).for_each(job);
    }
}
