//! The convolution's entry point and its matrix-product algorithms: 1×1
//! convolutions as one product per group over the input where it lies, any
//! other as `im2col` + a product, in tiles of output positions.

use gemm::Parallelism;
use rayon::prelude::*;

use super::Real;
use super::depthwise;
use super::direct_lanes::{self, Direct};
use super::epilogue::{clamp, finish};
use super::geometry::{Grid, Window};
use super::im2col::{im2col_cols, im2col_rows};
use crate::cpu::access::{SendPtr, out_ptr, read_ptr};
use crate::{Cpu, DType, Error, Input, Layout, Output, Result};

/// Where the channel and spatial dims of a convolution's operands are, and
/// its window (the kernel sizes come from the weight).
#[derive(Clone, Debug)]
pub(crate) struct ConvDims<'a> {
    /// The channel dim of the input and the output.
    pub(crate) channel: usize,
    /// The spatial dims of the input and the output, outermost first.
    pub(crate) spatial: &'a [usize],
    /// Strides.
    pub(crate) stride: &'a [usize],
    /// Dilations.
    pub(crate) dilation: &'a [usize],
    /// Padding before each spatial dim (the output sizes say how much after).
    pub(crate) pad: &'a [usize],
    /// Groups.
    pub(crate) groups: usize,
    /// The output clamped to `[min, max]` as it is written (ReLU6 is
    /// `(0, 6)`), or left as computed.
    pub(crate) clamp: Option<(f64, f64)>,
}

/// Elements of a patch matrix one tile holds (512 KiB of f32).
const TILE_ELEMENTS: usize = 1 << 17;

/// A convolution's operands, checked: grids, window, weight strides.
pub(crate) struct Problem {
    pub(crate) x: Grid,
    pub(crate) y: Grid,
    pub(crate) win: Window,
    pub(crate) groups: usize,
    /// Input and output channels per group.
    pub(crate) cg: usize,
    pub(crate) og: usize,
    /// The weight's strides: output channel, input channel, three taps.
    pub(crate) w: [isize; 5],
    pub(crate) w_offset: isize,
    /// [`ConvDims::clamp`].
    pub(crate) clamp: Option<(f64, f64)>,
}

impl Problem {
    /// Checks that the layouts agree with each other and with the window
    /// (every index the kernels form then lies inside them): `x` of
    /// `w.shape[1] · groups` channels, `y` of `w.shape[0]`, as many batch
    /// items.
    pub(crate) fn new(x: &Layout, w: &Layout, y: &Layout, dims: &ConvDims<'_>) -> Result<Problem> {
        let n = dims.spatial.len();
        let bad = |what: &str| Err(Error::invalid("conv", format!("kernel operands: {what}")));
        if n == 0 || n > 3 || w.rank() != n + 2 || x.rank() != y.rank() {
            return bad("ranks");
        }
        let rank = x.rank();
        let in_range = dims.channel < rank
            && dims.spatial.iter().all(|&d| d < rank && d != dims.channel)
            && [dims.stride.len(), dims.dilation.len(), dims.pad.len()] == [n; 3];
        if !in_range || dims.groups == 0 || dims.stride.contains(&0) || dims.dilation.contains(&0) {
            return bad("dims or hyper-parameters");
        }
        let win = Window::new(&w.shape()[2..], dims.stride, dims.dilation, dims.pad);
        let xg = Grid::new(x, Some(dims.channel), dims.spatial);
        let yg = Grid::new(y, Some(dims.channel), dims.spatial);
        let (cout, cg) = (w.shape()[0], w.shape()[1]);
        let groups = dims.groups;
        if xg.channels != cg * groups || yg.channels != cout || cout % groups != 0 {
            return bad("channels");
        }
        if xg.batch.len() != yg.batch.len() {
            return bad("batch dims");
        }
        let ws = w.strides();
        let mut w5 = [0isize; 5];
        w5[0] = ws[0];
        w5[1] = ws[1];
        w5[5 - n..].copy_from_slice(&ws[2..]);
        Ok(Problem {
            x: xg,
            y: yg,
            win,
            groups,
            cg,
            og: cout / groups,
            w: w5,
            w_offset: w.offset() as isize,
            clamp: dims.clamp,
        })
    }

    /// The offset of weight element (output channel, input channel, tap).
    #[inline(always)]
    pub(crate) fn w_at(&self, co: usize, ci: usize, t: usize) -> isize {
        let [kd, kh, kw] = self.win.tap(t);
        self.w_offset
            + co as isize * self.w[0]
            + ci as isize * self.w[1]
            + kd as isize * self.w[2]
            + kh as isize * self.w[3]
            + kw as isize * self.w[4]
    }

    /// The clamp in the kernels' element type.
    pub(crate) fn clamp<T: Real>(&self) -> Option<(T, T)> {
        self.clamp
            .map(|(lo, hi)| (T::from_f64(lo), T::from_f64(hi)))
    }
}

/// `y = conv(x, w) + bias`, the output allocated by the caller (every
/// element is written).
pub(crate) fn conv(
    x: Input<'_, Cpu>,
    w: Input<'_, Cpu>,
    bias: Option<Input<'_, Cpu>>,
    mut y: Output<'_, Cpu>,
    dims: &ConvDims<'_>,
) -> Result<()> {
    let p = Problem::new(&x.layout, &w.layout, &y.layout, dims)?;
    check_operands("conv", &x, &w, bias.as_ref(), &y, p.y.channels)?;
    match y.dtype {
        DType::F32 => run::<f32>(&p, &x, &w, bias.as_ref(), &mut y),
        DType::F64 => run::<f64>(&p, &x, &w, bias.as_ref(), &mut y),
        dtype => Err(Error::Unsupported { op: "conv", dtype }),
    }
}

/// One dtype for every operand, a bias of `channels`.
pub(crate) fn check_operands(
    op: &'static str,
    x: &Input<'_, Cpu>,
    w: &Input<'_, Cpu>,
    bias: Option<&Input<'_, Cpu>>,
    y: &Output<'_, Cpu>,
    channels: usize,
) -> Result<()> {
    let dtype_ok =
        x.dtype == y.dtype && w.dtype == y.dtype && bias.is_none_or(|b| b.dtype == y.dtype);
    let bias_ok = bias.is_none_or(|b| b.layout.shape() == [channels]);
    if !dtype_ok || !bias_ok {
        return Err(Error::invalid(op, "kernel operands: dtypes or bias"));
    }
    Ok(())
}

/// The operands' base pointers, checked against their storages.
pub(crate) struct Pointers<T> {
    pub(crate) x: SendPtr<T>,
    pub(crate) w: SendPtr<T>,
    pub(crate) y: SendPtr<T>,
    /// The bias, contiguous (copied when strided).
    pub(crate) bias: Option<Vec<T>>,
}

impl<T: Real> Pointers<T> {
    pub(crate) fn new(
        op: &'static str,
        x: &Input<'_, Cpu>,
        w: &Input<'_, Cpu>,
        bias: Option<&Input<'_, Cpu>>,
        y: &mut Output<'_, Cpu>,
    ) -> Result<Self> {
        let bias = match bias {
            Some(b) => {
                let base = read_ptr::<T>(op, b)?;
                let (n, s, o) = (
                    b.layout.shape()[0],
                    b.layout.strides()[0],
                    b.layout.offset() as isize,
                );
                // SAFETY: `n` elements of a layout checked against its storage.
                Some(
                    (0..n)
                        .map(|i| unsafe { *base.get().offset(o + i as isize * s) })
                        .collect(),
                )
            }
            None => None,
        };
        Ok(Pointers {
            x: read_ptr::<T>(op, x)?,
            w: read_ptr::<T>(op, w)?,
            y: out_ptr::<T>(op, y)?,
            bias,
        })
    }
}

fn run<T: Real>(
    p: &Problem,
    x: &Input<'_, Cpu>,
    w: &Input<'_, Cpu>,
    bias: Option<&Input<'_, Cpu>>,
    y: &mut Output<'_, Cpu>,
) -> Result<()> {
    let ptr = Pointers::<T>::new("conv", x, w, bias, y)?;
    if p.y.batch.is_empty() || p.y.positions() == 0 || p.y.channels == 0 {
        return Ok(());
    }
    let Some(yps) = p.y.flat_stride() else {
        return Err(Error::invalid(
            "conv",
            "kernel operands: output positions do not merge",
        ));
    };
    if p.cg == 0 {
        fill_bias(p, &ptr, yps);
        return Ok(());
    }
    if p.cg == 1 && p.groups > 1 {
        depthwise::run(p, &ptr);
        return Ok(());
    }
    if T::DTYPE == DType::F32 && direct_lanes::fits(p) {
        direct(p, &ptr);
        return Ok(());
    }
    match p.x.flat_stride() {
        Some(xps) if p.win.is_pointwise() => pointwise(p, &ptr, xps, yps),
        _ => patches(p, &ptr, yps),
    }
    Ok(())
}

/// A convolution of few input channels, NHWC, f32: [`direct_lanes`].
fn direct<T: Real>(p: &Problem, ptr: &Pointers<T>) {
    // SAFETY: in-range weight elements (`w_at` of checked indices).
    let w = Direct::pack(p, |at| unsafe { (*ptr.w.get().offset(at)).to_f32() });
    let mut bias = vec![0.0f32; p.y.channels.next_multiple_of(direct_lanes::PAD)];
    if let Some(b) = &ptr.bias {
        for (d, v) in bias.iter_mut().zip(b) {
            *d = v.to_f32();
        }
    }
    Direct {
        p,
        x: ptr.x.get().cast_const().cast(),
        y: ptr.y.get().cast(),
        w: &w,
        bias: &bias,
        clamp: p.clamp::<f32>(),
    }
    .run();
}

/// Every output element is its channel's bias (no input channels).
fn fill_bias<T: Real>(p: &Problem, ptr: &Pointers<T>, yps: isize) {
    let np = p.y.positions();
    for &yb in &p.y.batch {
        for co in 0..p.y.channels {
            let v = ptr.bias.as_ref().map_or(T::ZERO, |b| b[co]);
            let v = p.clamp().map_or(v, |lo_hi| clamp(v, lo_hi));
            for i in 0..np {
                // SAFETY: an in-range output element.
                unsafe {
                    *ptr.y
                        .get()
                        .offset(yb + co as isize * p.y.c + i as isize * yps) = v
                };
            }
        }
    }
}

/// A strided matrix: base pointer, row stride, column stride.
#[derive(Copy, Clone)]
pub(crate) struct Mat<T> {
    pub(crate) ptr: *const T,
    pub(crate) rs: isize,
    pub(crate) cs: isize,
}

/// `dst (m×n) = [dst +] lhs (m×k) · rhs (k×n)`.
///
/// # Safety
/// Every element of the three matrices is in bounds; `dst` is written by
/// this call alone meanwhile.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn product<T: Real>(
    (m, n, k): (usize, usize, usize),
    dst: Mat<T>,
    accumulate: bool,
    lhs: Mat<T>,
    rhs: Mat<T>,
    par: Parallelism,
) {
    // SAFETY: the caller's contract; `gemm` reads lhs and rhs and writes
    // each dst element once.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.ptr.cast_mut(),
            dst.cs,
            dst.rs,
            accumulate,
            lhs.ptr,
            lhs.cs,
            lhs.rs,
            rhs.ptr,
            rhs.cs,
            rhs.rs,
            if accumulate { T::ONE } else { T::ZERO },
            T::ONE,
            false,
            false,
            false,
            par,
        )
    }
}

/// Jobs run in parallel when there are enough of them for every thread;
/// else one at a time, each product using the threads.
fn schedule(jobs: usize, flops_per_job: usize) -> (bool, Parallelism) {
    let threads = rayon::current_num_threads();
    let enough = flops_per_job.saturating_mul(jobs) >= gemm::get_threading_threshold();
    if threads > 1 && enough && jobs >= threads {
        (true, Parallelism::None)
    } else if threads > 1 && flops_per_job >= gemm::get_threading_threshold() {
        (false, Parallelism::Rayon(0))
    } else {
        (false, Parallelism::None)
    }
}

/// Positions per tile of a product over `np` positions whose operands
/// take `width` elements per position, and the number of tiles: tiles fit
/// the cache, and there are enough of them for every thread when the
/// `items` (batch items × groups) are few.
fn tiling(np: usize, width: usize, items: usize) -> (usize, usize) {
    let mut tile = (TILE_ELEMENTS / width.max(1)).max(64).min(np);
    let want = 4 * rayon::current_num_threads();
    if items * np.div_ceil(tile) < want {
        tile = np.div_ceil(want.div_ceil(items)).max(32).min(tile);
    }
    (tile, np.div_ceil(tile))
}

/// 1×1, stride 1, no padding: `y_g = W_g · x_g` per batch item, group and
/// tile of positions, the input read where it lies (positions merged into
/// one stride), then the bias and the clamp over the tile.
fn pointwise<T: Real>(p: &Problem, ptr: &Pointers<T>, xps: isize, yps: isize) {
    let np = p.y.positions();
    let items = p.y.batch.len() * p.groups;
    let (tile, tiles) = tiling(np, p.cg + p.og, items);
    let jobs = items * tiles;
    let (parallel, par) = schedule(jobs, tile * p.og * p.cg);
    let job = |j: usize, par: Parallelism| {
        let (bg, t) = (j / tiles, j % tiles);
        let (b, g) = (bg / p.groups, bg % p.groups);
        let (q0, q1) = (t * tile, ((t + 1) * tile).min(np));
        let (xb, yb) = (p.x.batch[b], p.y.batch[b]);
        let y = ptr.y.get();
        let ybase = yb + (g * p.og) as isize * p.y.c + q0 as isize * yps;
        // SAFETY: weight (co, ci) and input (ci, position) elements in
        // range; this job writes its batch item, group and tile alone.
        unsafe {
            product(
                (p.og, q1 - q0, p.cg),
                Mat {
                    ptr: y.offset(ybase),
                    rs: p.y.c,
                    cs: yps,
                },
                false,
                Mat {
                    ptr: ptr.w.get().offset(p.w_at(g * p.og, 0, 0)),
                    rs: p.w[0],
                    cs: p.w[1],
                },
                Mat {
                    ptr: ptr
                        .x
                        .get()
                        .offset(xb + (g * p.cg) as isize * p.x.c + q0 as isize * xps),
                    rs: p.x.c,
                    cs: xps,
                },
                par,
            );
            finish(
                p,
                y,
                yb,
                yps,
                ptr.bias.as_deref(),
                (g * p.og, p.og),
                (q0, q1 - q0),
            );
        };
    };
    if parallel {
        (0..jobs).into_par_iter().for_each(|j| job(j, par));
    } else {
        (0..jobs).for_each(|j| job(j, par));
    }
}

/// `im2col` + a product per tile of output positions, batch item and
/// group. Inputs with contiguous channels get a patch matrix of positions ×
/// (tap, channel) and a weight packed to match; others, (channel, tap) ×
/// positions and the weight where it lies when its rows are strided runs.
fn patches<T: Real>(p: &Problem, ptr: &Pointers<T>, yps: isize) {
    let np = p.y.positions();
    let taps = p.win.taps();
    let k = p.cg * taps;
    let by_channel = p.x.c == 1 && p.cg > 1;
    let (tile, tiles) = tiling(np, k, p.y.batch.len() * p.groups);
    let jobs = p.y.batch.len() * p.groups * tiles;
    let (parallel, par) = schedule(jobs, tile * p.og * k);
    // The weight as matrices of `k` × output channels (tap-major) per group,
    // or of output channels × `k` (PyTorch's order) when strided rows do not
    // read it where it lies.
    let packed: Vec<T> = if by_channel {
        let mut v = Vec::with_capacity(p.groups * k * p.og);
        for g in 0..p.groups {
            for t in 0..taps {
                for ci in 0..p.cg {
                    for co in 0..p.og {
                        // SAFETY: an in-range weight element.
                        v.push(unsafe { *ptr.w.get().offset(p.w_at(g * p.og + co, ci, t)) });
                    }
                }
            }
        }
        v
    } else {
        Vec::new()
    };
    let row_step = weight_row_step(p);
    let rows: Vec<T> = if !by_channel && row_step.is_none() {
        let mut v = Vec::with_capacity(p.groups * p.og * k);
        for co in 0..p.groups * p.og {
            for ci in 0..p.cg {
                for t in 0..taps {
                    // SAFETY: an in-range weight element.
                    v.push(unsafe { *ptr.w.get().offset(p.w_at(co, ci, t)) });
                }
            }
        }
        v
    } else {
        Vec::new()
    };
    let out = p.y.size;
    let job = |j: usize, par: Parallelism, col: &mut Vec<T>| {
        let (bg, t) = (j / tiles, j % tiles);
        let (b, g) = (bg / p.groups, bg % p.groups);
        let (q0, q1) = (t * tile, ((t + 1) * tile).min(np));
        let n = q1 - q0;
        col.resize(n * k, T::ZERO);
        let (xb, yb) = (p.x.batch[b], p.y.batch[b]);
        let y = ptr.y.get();
        let dst_at = yb + (g * p.og) as isize * p.y.c + q0 as isize * yps;
        // SAFETY: the patches read in-range input elements into `col`,
        // which holds `n·k`; the products read `col` and in-range weights
        // and write this job's outputs alone.
        unsafe {
            if by_channel {
                im2col_cols(
                    ptr.x.get(),
                    &p.x,
                    xb,
                    (g * p.cg, p.cg),
                    &p.win,
                    out,
                    (q0, q1),
                    col,
                );
                // dstᵀ (positions × og) = col (positions × k) · packed (k × og).
                product(
                    (n, p.og, k),
                    Mat {
                        ptr: y.offset(dst_at),
                        rs: yps,
                        cs: p.y.c,
                    },
                    false,
                    Mat {
                        ptr: col.as_ptr(),
                        rs: k as isize,
                        cs: 1,
                    },
                    Mat {
                        ptr: packed.as_ptr().add(g * k * p.og),
                        rs: p.og as isize,
                        cs: 1,
                    },
                    par,
                );
            } else {
                im2col_rows(
                    ptr.x.get(),
                    &p.x,
                    xb,
                    (g * p.cg, p.cg),
                    &p.win,
                    out,
                    (q0, q1),
                    col,
                );
                let w = if let Some(step) = row_step {
                    Mat {
                        ptr: ptr.w.get().offset(p.w_at(g * p.og, 0, 0)).cast_const(),
                        rs: p.w[0],
                        cs: step,
                    }
                } else {
                    Mat {
                        ptr: rows.as_ptr().add(g * p.og * k),
                        rs: k as isize,
                        cs: 1,
                    }
                };
                // dst (og × positions) = w (og × k) · col (k × positions).
                product(
                    (p.og, n, k),
                    Mat {
                        ptr: y.offset(dst_at),
                        rs: p.y.c,
                        cs: yps,
                    },
                    false,
                    w,
                    Mat {
                        ptr: col.as_ptr(),
                        rs: n as isize,
                        cs: 1,
                    },
                    par,
                );
            }
            finish(
                p,
                y,
                yb,
                yps,
                ptr.bias.as_deref(),
                (g * p.og, p.og),
                (q0, n),
            );
        }
    };
    if parallel {
        (0..jobs)
            .into_par_iter()
            .for_each_init(Vec::new, |col, j| job(j, par, col));
    } else {
        let mut col = Vec::new();
        (0..jobs).for_each(|j| job(j, par, &mut col));
    }
}

/// The stride of the flat (input channel, tap) index of the weight when
/// its dims merge into one, so that its rows are read where they lie.
fn weight_row_step(p: &Problem) -> Option<isize> {
    let k = p.win.k;
    let dims = [
        (k[2], p.w[4]),
        (k[1], p.w[3]),
        (k[0], p.w[2]),
        (p.cg, p.w[1]),
    ];
    let (mut step, mut expected) = (None, None);
    for (size, stride) in dims {
        if size == 1 {
            continue;
        }
        match expected {
            None => step = Some(stride),
            Some(e) if e != stride => return None,
            Some(_) => {}
        }
        expected = Some(stride * size as isize);
    }
    Some(step.unwrap_or(1))
}
