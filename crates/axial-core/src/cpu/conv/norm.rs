//! The two passes of batch, group and instance normalisation: the moments
//! of groups of channels (over every batch item, or per item), and a scale
//! and shift per channel (or per item and channel). The moments are summed
//! in f64, in two passes (mean, then squared deviations), as PyTorch sums a
//! batch's statistics.

use rayon::prelude::*;

use super::Real;
use super::geometry::Grid;
use crate::cpu::access::{SendPtr, out_ptr, read_ptr};
use crate::cpu::strided::PARALLEL_THRESHOLD;
use crate::{Cpu, DType, Error, Input, Output, Result};

/// Which elements a statistic covers: every batch item, or one item at a
/// time; channels in `groups` consecutive groups.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Scope {
    /// Statistics per batch item (group and instance norm) or over all.
    pub(crate) per_item: bool,
    /// Consecutive groups of channels.
    pub(crate) groups: usize,
}

/// The grid of a tensor normalised over `channel`, positions `spatial`
/// (at most three dims), the other dims batch items.
fn grid(layout: &crate::Layout, channel: usize, spatial: &[usize]) -> Result<Grid> {
    let rank = layout.rank();
    let ok =
        channel < rank && spatial.len() <= 3 && spatial.iter().all(|&d| d < rank && d != channel);
    if !ok {
        return Err(Error::invalid("norm", "kernel operands: dims"));
    }
    Ok(Grid::new(layout, Some(channel), spatial))
}

fn check_grid(op: &'static str, g: &Grid, scope: Scope) -> Result<()> {
    if scope.groups == 0 || !g.channels.is_multiple_of(scope.groups) {
        return Err(Error::invalid(op, "kernel operands: groups"));
    }
    Ok(())
}

/// `(mean, biased variance)` of each scope: `[item][group]` when per item,
/// else `[group]`.
pub(crate) fn moments(
    x: Input<'_, Cpu>,
    channel: usize,
    spatial: &[usize],
    scope: Scope,
) -> Result<Vec<(f64, f64)>> {
    let op = "norm";
    let g = grid(&x.layout, channel, spatial)?;
    check_grid(op, &g, scope)?;
    match x.dtype {
        DType::F32 => Ok(moments_of::<f32>(&g, read_ptr(op, &x)?, scope)),
        DType::F64 => Ok(moments_of::<f64>(&g, read_ptr(op, &x)?, scope)),
        dtype => Err(Error::Unsupported { op, dtype }),
    }
}

/// Calls `f(value)` for every element of channels `c0..c1` of item `b`.
#[inline(always)]
fn each<T: Real>(
    g: &Grid,
    x: SendPtr<T>,
    b: usize,
    (c0, c1): (usize, usize),
    mut f: impl FnMut(f64),
) {
    for c in c0..c1 {
        let base = g.batch[b] + c as isize * g.c;
        for d in 0..g.size[0] {
            for h in 0..g.size[1] {
                let line = base + g.at(d, h, 0);
                for w in 0..g.size[2] {
                    // SAFETY: an in-range element of the checked layout.
                    f(unsafe { *x.get().offset(line + w as isize * g.s[2]) }.to_f64());
                }
            }
        }
    }
}

fn moments_of<T: Real>(g: &Grid, x: SendPtr<T>, scope: Scope) -> Vec<(f64, f64)> {
    let width = g.channels / scope.groups;
    let items = if scope.per_item { g.batch.len() } else { 1 };
    let stat = |s: usize| {
        let (item, group) = (s / scope.groups, s % scope.groups);
        let chans = (group * width, (group + 1) * width);
        let bs: Vec<usize> = if scope.per_item {
            vec![item]
        } else {
            (0..g.batch.len()).collect()
        };
        let (mut sum, mut n) = (0.0f64, 0usize);
        for &b in &bs {
            each(g, x, b, chans, |v| {
                sum += v;
                n += 1;
            });
        }
        if n == 0 {
            return (f64::NAN, f64::NAN);
        }
        let mean = sum / n as f64;
        let mut sq = 0.0f64;
        for &b in &bs {
            each(g, x, b, chans, |v| sq += (v - mean) * (v - mean));
        }
        (mean, sq / n as f64)
    };
    let count = items * scope.groups;
    if count > 1 && g.batch.len() * g.channels * g.positions() >= PARALLEL_THRESHOLD {
        (0..count).into_par_iter().map(stat).collect()
    } else {
        (0..count).map(stat).collect()
    }
}

/// `y = x·scale + shift` with `scale`, `shift` of each channel (`[C]`) or
/// of each item and channel (`[items·C]`); `y` laid out as `x`'s shape.
pub(crate) fn affine(
    x: Input<'_, Cpu>,
    mut y: Output<'_, Cpu>,
    channel: usize,
    spatial: &[usize],
    scale: &[f64],
    shift: &[f64],
) -> Result<()> {
    let op = "norm";
    if x.layout.shape() != y.layout.shape() || x.dtype != y.dtype {
        return Err(Error::invalid(op, "kernel operands"));
    }
    let (xg, yg) = (
        grid(&x.layout, channel, spatial)?,
        grid(&y.layout, channel, spatial)?,
    );
    let c = xg.channels;
    let per_item = scale.len() != c;
    if scale.len() != shift.len() || (per_item && scale.len() != c * xg.batch.len()) {
        return Err(Error::invalid(op, "kernel operands: scale"));
    }
    macro_rules! go {
        ($t:ty) => {{
            let (xp, yp) = (read_ptr::<$t>(op, &x)?, out_ptr::<$t>(op, &mut y)?);
            let a: Vec<$t> = scale.iter().map(|&v| v as $t).collect();
            let b: Vec<$t> = shift.iter().map(|&v| v as $t).collect();
            apply::<$t>(&xg, &yg, xp, yp, &a, &b, per_item);
        }};
    }
    match y.dtype {
        DType::F32 => go!(f32),
        DType::F64 => go!(f64),
        dtype => return Err(Error::Unsupported { op, dtype }),
    }
    Ok(())
}

fn apply<T: Real>(
    xg: &Grid,
    yg: &Grid,
    x: SendPtr<T>,
    y: SendPtr<T>,
    a: &[T],
    b: &[T],
    per_item: bool,
) {
    let c = xg.channels;
    let lines = xg.batch.len() * xg.size[0] * xg.size[1];
    let channels_inner = xg.c == 1 && yg.c == 1;
    let job = |l: usize| {
        let (item, d, h) = (
            l / (xg.size[0] * xg.size[1]),
            l / xg.size[1] % xg.size[0],
            l % xg.size[1],
        );
        let (a, b) = if per_item {
            (&a[item * c..][..c], &b[item * c..][..c])
        } else {
            (a, b)
        };
        let (xl, yl) = (
            xg.batch[item] + xg.at(d, h, 0),
            yg.batch[item] + yg.at(d, h, 0),
        );
        if channels_inner {
            for w in 0..xg.size[2] {
                // SAFETY: `c` contiguous channels of an in-range position of
                // each operand; `y` is another storage, written by this job alone.
                unsafe {
                    let xs =
                        std::slice::from_raw_parts(x.get().offset(xl + w as isize * xg.s[2]), c);
                    let ys = std::slice::from_raw_parts_mut(
                        y.get().offset(yl + w as isize * yg.s[2]),
                        c,
                    );
                    for (((o, &v), &s), &t) in ys.iter_mut().zip(xs).zip(a).zip(b) {
                        *o = v * s + t;
                    }
                }
            }
        } else {
            let n = xg.size[2];
            for ch in 0..c {
                let (s, t) = (a[ch], b[ch]);
                let (xc, yc) = (xl + ch as isize * xg.c, yl + ch as isize * yg.c);
                if xg.s[2] == 1 && yg.s[2] == 1 {
                    // SAFETY: one in-range line of each operand.
                    unsafe {
                        let xs = std::slice::from_raw_parts(x.get().offset(xc), n);
                        let ys = std::slice::from_raw_parts_mut(y.get().offset(yc), n);
                        for (o, &v) in ys.iter_mut().zip(xs) {
                            *o = v * s + t;
                        }
                    }
                } else {
                    for w in 0..n {
                        // SAFETY: in-range elements.
                        unsafe {
                            *y.get().offset(yc + w as isize * yg.s[2]) =
                                *x.get().offset(xc + w as isize * xg.s[2]) * s + t;
                        }
                    }
                }
            }
        }
    };
    if lines > 1 && lines * xg.size[2] * c >= PARALLEL_THRESHOLD && rayon::current_num_threads() > 1
    {
        (0..lines).into_par_iter().for_each(job);
    } else {
        (0..lines).for_each(job);
    }
}
