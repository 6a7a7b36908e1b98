//! Depthwise convolutions (one input channel per group), computed directly:
//! each input element is read once per tap that covers it, never copied
//! into a patch matrix.
//!
//! With channels innermost in the input and the output (NHWC) the channels
//! are the vector lanes, at any stride; otherwise each output line is
//! accumulated tap by tap along the input's line.

use rayon::prelude::*;

use super::Real;
use super::depthwise_lanes::Lanes;
use super::epilogue::clamp;
use super::forward::{Pointers, Problem};
use super::geometry::Window;
use crate::DType;
use crate::cpu::strided::PARALLEL_THRESHOLD;

/// Runs a depthwise convolution (`p.cg == 1`).
pub(crate) fn run<T: Real>(p: &Problem, ptr: &Pointers<T>) {
    if p.x.c == 1 && p.y.c == 1 && p.og == 1 {
        channels_inner(p, ptr);
    } else {
        planes(p, ptr);
    }
}

/// Whether `jobs` jobs of `each` multiply-adds are worth threads.
fn parallel(jobs: usize, each: usize) -> bool {
    jobs > 1 && jobs.saturating_mul(each) >= PARALLEL_THRESHOLD && rayon::current_num_threads() > 1
}

/// Channels innermost: one output position is `C` lanes, the weight packed
/// tap-major (`taps × C`).
fn channels_inner<T: Real>(p: &Problem, ptr: &Pointers<T>) {
    let c = p.y.channels;
    let win = p.win;
    let taps = win.taps();
    let mut wt = Vec::with_capacity(taps * c);
    for t in 0..taps {
        for ch in 0..c {
            // SAFETY: an in-range weight element.
            wt.push(unsafe { *ptr.w.get().offset(p.w_at(ch, 0, t)) });
        }
    }
    let zeros = vec![T::ZERO; c];
    let bias = ptr.bias.as_deref().unwrap_or(&zeros);
    if T::DTYPE == DType::F32 {
        let (w, bias): (Vec<f32>, Vec<f32>) = (
            wt.iter().map(|v| v.to_f32()).collect(),
            bias.iter().map(|v| v.to_f32()).collect(),
        );
        let clamp = p.clamp::<f32>();
        Lanes {
            p,
            x: ptr.x.get().cast_const().cast(),
            y: ptr.y.get().cast(),
            w: &w,
            bias: &bias,
            clamp,
        }
        .run();
        return;
    }
    let bound = p.clamp::<T>();
    let out = p.y.size;
    let lines = p.y.batch.len() * out[0] * out[1];
    let job = |l: usize| {
        let (b, od, oh) = (l / (out[0] * out[1]), l / out[1] % out[0], l % out[1]);
        let (xb, yb) = (p.x.batch[b], p.y.batch[b]);
        for ow in 0..out[2] {
            // SAFETY: `c` contiguous output channels of one in-range position,
            // written by this job alone.
            let acc = unsafe {
                std::slice::from_raw_parts_mut(ptr.y.get().offset(yb + p.y.at(od, oh, ow)), c)
            };
            acc.copy_from_slice(bias);
            for t in 0..taps {
                let [kd, kh, kw] = win.tap(t);
                let (Some(id), Some(ih), Some(iw)) = (
                    win.source(0, od, kd, p.x.size[0]),
                    win.source(1, oh, kh, p.x.size[1]),
                    win.source(2, ow, kw, p.x.size[2]),
                ) else {
                    continue;
                };
                // SAFETY: `c` contiguous input channels of an in-range position.
                let xs = unsafe {
                    std::slice::from_raw_parts(ptr.x.get().offset(xb + p.x.at(id, ih, iw)), c)
                };
                let ws = &wt[t * c..][..c];
                for ((a, &x), &w) in acc.iter_mut().zip(xs).zip(ws) {
                    *a += x * w;
                }
            }
            if let Some(lo_hi) = bound {
                acc.iter_mut().for_each(|a| *a = clamp(*a, lo_hi));
            }
        }
    };
    if parallel(lines, out[2] * c * taps) {
        (0..lines).into_par_iter().for_each(job);
    } else {
        (0..lines).for_each(job);
    }
}

/// Any layout: one output channel of one batch item per job, each output
/// line accumulated in a buffer tap by tap.
fn planes<T: Real>(p: &Problem, ptr: &Pointers<T>) {
    let win: Window = p.win;
    let out = p.y.size;
    let jobs = p.y.batch.len() * p.y.channels;
    let bound = p.clamp::<T>();
    let job = |j: usize| {
        let (b, co) = (j / p.y.channels, j % p.y.channels);
        let ci = co / p.og;
        let xc = p.x.batch[b] + ci as isize * p.x.c;
        let yc = p.y.batch[b] + co as isize * p.y.c;
        let bias = ptr.bias.as_ref().map_or(T::ZERO, |v| v[co]);
        let weights: Vec<T> = (0..win.taps())
            // SAFETY: in-range weight elements.
            .map(|t| unsafe { *ptr.w.get().offset(p.w_at(co, 0, t)) })
            .collect();
        let mut acc = vec![T::ZERO; out[2]];
        let step = win.stride[2] as isize * p.x.s[2];
        for od in 0..out[0] {
            for oh in 0..out[1] {
                acc.fill(bias);
                for (t, &w) in weights.iter().enumerate() {
                    let [kd, kh, kw] = win.tap(t);
                    let (Some(id), Some(ih)) = (
                        win.source(0, od, kd, p.x.size[0]),
                        win.source(1, oh, kh, p.x.size[1]),
                    ) else {
                        continue;
                    };
                    let (lo, hi) = win.valid_outputs(2, kw, p.x.size[2], out[2]);
                    if lo >= hi {
                        continue;
                    }
                    let iw = lo * win.stride[2] + kw * win.dil[2] - win.pad[2];
                    let base = xc + p.x.at(id, ih, iw);
                    let dst = &mut acc[lo..hi];
                    if step == 1 {
                        // SAFETY: `hi − lo` in-range elements of one input line.
                        let xs = unsafe {
                            std::slice::from_raw_parts(ptr.x.get().offset(base), dst.len())
                        };
                        for (a, &x) in dst.iter_mut().zip(xs) {
                            *a += x * w;
                        }
                    } else {
                        for (i, a) in dst.iter_mut().enumerate() {
                            // SAFETY: output column `lo + i` reads inside the line.
                            *a += unsafe { *ptr.x.get().offset(base + i as isize * step) } * w;
                        }
                    }
                }
                let row = yc + p.y.at(od, oh, 0);
                for (i, &v) in acc.iter().enumerate() {
                    let v = bound.map_or(v, |lo_hi| clamp(v, lo_hi));
                    // SAFETY: an in-range output element of this job's channel.
                    unsafe { *ptr.y.get().offset(row + i as isize * p.y.s[2]) = v };
                }
            }
        }
    };
    let each = p.y.positions() * p.win.taps();
    if parallel(jobs, each) {
        (0..jobs).into_par_iter().for_each(job);
    } else {
        (0..jobs).for_each(job);
    }
}
