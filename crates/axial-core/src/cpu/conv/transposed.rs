//! The transposed convolution, and `unfold`/`fold` (PyTorch's `F.unfold`
//! and `F.fold`): patches gathered into a matrix (`im2col`) and summed back
//! (`col2im`).
//!
//! A transposed convolution is the adjoint of a convolution: per batch item
//! and group, the product `Wᵀ · x` gives every (output channel, tap) of
//! every input position, and `col2im` adds each to the output position the
//! tap reaches.

use gemm::Parallelism;
use rayon::prelude::*;

use super::Real;
use super::forward::{ConvDims, Mat, Pointers, Problem, check_operands, product};
use super::geometry::{Grid, Window};
use super::im2col::{col2im_rows, im2col_rows, lines};
use crate::cpu::access::{out_ptr, read_ptr};
use crate::{Cpu, DType, Element, Error, Input, Output, Result};

/// Elements of the product one tile holds.
const TILE_ELEMENTS: usize = 1 << 17;

/// `y = conv_transpose(x, w) + bias`: `w` is `[in, out / groups, taps...]`,
/// `dims.pad` the padding trimmed before each output dim (the output's
/// sizes say where it ends). Every output element is written.
pub(crate) fn conv_transpose(
    x: Input<'_, Cpu>,
    w: Input<'_, Cpu>,
    bias: Option<Input<'_, Cpu>>,
    mut y: Output<'_, Cpu>,
    dims: &ConvDims<'_>,
) -> Result<()> {
    // The adjoint's problem: a convolution from `y` to `x`.
    let p = Problem::new(&y.layout, &w.layout, &x.layout, dims)?;
    check_operands("conv_transpose", &x, &w, bias.as_ref(), &y, p.x.channels)?;
    match y.dtype {
        DType::F32 => run::<f32>(&p, &x, &w, bias.as_ref(), &mut y),
        DType::F64 => run::<f64>(&p, &x, &w, bias.as_ref(), &mut y),
        dtype => Err(Error::Unsupported {
            op: "conv_transpose",
            dtype,
        }),
    }
}

/// The stride of the flat (output channel, tap) index of the weight
/// `[in, out, taps...]` when those dims merge.
fn weight_col_step(p: &Problem) -> Option<isize> {
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

fn run<T: Real>(
    p: &Problem,
    x: &Input<'_, Cpu>,
    w: &Input<'_, Cpu>,
    bias: Option<&Input<'_, Cpu>>,
    y: &mut Output<'_, Cpu>,
) -> Result<()> {
    let ptr = Pointers::<T>::new("conv_transpose", x, w, bias, y)?;
    // In the adjoint's terms: `p.x` is this op's output, `p.y` its input;
    // `p.cg` output channels and `p.og` input channels per group.
    let (out, inp) = (&p.x, &p.y);
    let taps = p.win.taps();
    let rows = p.cg * taps;
    let np = inp.positions();
    for &ob in &out.batch {
        for co in 0..out.channels {
            let v = ptr.bias.as_ref().map_or(T::ZERO, |b| b[co]);
            fill_channel(ptr.y.get(), out, ob + co as isize * out.c, v);
        }
    }
    if np == 0 || rows == 0 || p.og == 0 {
        return Ok(());
    }
    let col_step = weight_col_step(p);
    let tile = (TILE_ELEMENTS / rows).max(16).min(np);
    let jobs = out.batch.len() * p.groups;
    let threads = rayon::current_num_threads();
    let parallel = threads > 1 && jobs >= threads;
    let flops = rows * p.og * tile;
    let par = if !parallel && threads > 1 && flops >= gemm::get_threading_threshold() {
        Parallelism::Rayon(0)
    } else {
        Parallelism::None
    };
    let job = |j: usize| {
        let (b, g) = (j / p.groups, j % p.groups);
        let (ob, ib) = (out.batch[b], inp.batch[b]);
        // The weight of this group as `rows × og`: element (co·taps + t, ci).
        let packed: Vec<T> = if col_step.is_none() {
            let mut v = Vec::with_capacity(rows * p.og);
            for co in 0..p.cg {
                for t in 0..taps {
                    for ci in 0..p.og {
                        // SAFETY: an in-range weight element.
                        v.push(unsafe { *ptr.w.get().offset(p.w_at(g * p.og + ci, co, t)) });
                    }
                }
            }
            v
        } else {
            Vec::new()
        };
        let wmat = match col_step {
            Some(step) => Mat {
                // SAFETY: the group's first weight element.
                ptr: unsafe { ptr.w.get().offset(p.w_at(g * p.og, 0, 0)) }.cast_const(),
                rs: step,
                cs: p.w[0],
            },
            None => Mat {
                ptr: packed.as_ptr(),
                rs: p.og as isize,
                cs: 1,
            },
        };
        let mut col = Vec::new();
        let mut xt = Vec::new();
        let flat = inp.flat_stride();
        let mut q0 = 0;
        while q0 < np {
            let q1 = (q0 + tile).min(np);
            let n = q1 - q0;
            col.resize(rows * n, T::ZERO);
            let xbase = ib + (g * p.og) as isize * inp.c;
            let xmat = match flat {
                Some(s) => Mat {
                    // SAFETY: the tile's first in-range input element.
                    ptr: unsafe { ptr.x.get().offset(xbase + q0 as isize * s) }.cast_const(),
                    rs: inp.c,
                    cs: s,
                },
                None => {
                    xt.resize(p.og * n, T::ZERO);
                    for ci in 0..p.og {
                        let base = xbase + ci as isize * inp.c;
                        lines(inp.size, q0, q1, |d, h, w0, w1, at| {
                            for w in w0..w1 {
                                // SAFETY: an in-range input element.
                                xt[ci * n + at + w - w0] =
                                    unsafe { *ptr.x.get().offset(base + inp.at(d, h, w)) };
                            }
                        });
                    }
                    Mat {
                        ptr: xt.as_ptr(),
                        rs: n as isize,
                        cs: 1,
                    }
                }
            };
            // SAFETY: in-range weights and inputs; `col` holds `rows·n`; the
            // scatter writes this job's batch item and group alone.
            unsafe {
                product(
                    (rows, n, p.og),
                    Mat {
                        ptr: col.as_ptr(),
                        rs: n as isize,
                        cs: 1,
                    },
                    false,
                    wmat,
                    xmat,
                    par,
                );
                col2im_rows(
                    ptr.y.get(),
                    out,
                    ob,
                    (g * p.cg, p.cg),
                    &p.win,
                    inp.size,
                    (q0, q1),
                    &col,
                );
            }
            q0 = q1;
        }
    };
    if parallel {
        (0..jobs).into_par_iter().for_each(job);
    } else {
        (0..jobs).for_each(job);
    }
    Ok(())
}

/// Writes `v` to every spatial position of one channel at `base`.
fn fill_channel<T: Real>(y: *mut T, g: &Grid, base: isize, v: T) {
    for d in 0..g.size[0] {
        for h in 0..g.size[1] {
            for w in 0..g.size[2] {
                // SAFETY: an in-range element of the output grid.
                unsafe { *y.offset(base + g.at(d, h, w)) = v };
            }
        }
    }
}

/// The window of `unfold`/`fold` over the last `n` dims of a `[batch...,
/// channels, spatial...]` tensor.
pub(crate) struct Patches<'a> {
    /// Kernel sizes.
    pub(crate) kernel: &'a [usize],
    /// Strides.
    pub(crate) stride: &'a [usize],
    /// Dilations.
    pub(crate) dilation: &'a [usize],
    /// Padding on both sides.
    pub(crate) pad: &'a [usize],
}

impl Patches<'_> {
    fn window(&self) -> Window {
        Window::new(self.kernel, self.stride, self.dilation, self.pad)
    }
}

/// `F.unfold`: `y[b, c·taps + t, l] = x[b, c, position of tap t of block l]`;
/// `x` is `[batch, channels, spatial...]` (any strides), `y` is contiguous
/// `[batch, channels·taps, blocks]` with `blocks` the product of `out`.
pub(crate) fn im2col(
    x: Input<'_, Cpu>,
    mut y: Output<'_, Cpu>,
    patches: &Patches<'_>,
    out: &[usize],
) -> Result<()> {
    let op = "unfold";
    let n = patches.kernel.len();
    let xl = &x.layout;
    let win = patches.window();
    let spatial: Vec<usize> = (2..2 + n).collect();
    let bad = || Err(Error::invalid(op, "kernel operands"));
    if xl.rank() != n + 2 || out.len() != n || !y.layout.is_contiguous() || x.dtype != y.dtype {
        return bad();
    }
    let g = Grid::new(xl, Some(1), &spatial);
    let (taps, blocks) = (win.taps(), out.iter().product::<usize>());
    if y.layout.shape() != [g.batch.len(), g.channels * taps, blocks] {
        return bad();
    }
    let mut out3 = [1usize; 3];
    out3[3 - n..].copy_from_slice(out);
    macro_rules! go {
        ($t:ty) => {{
            let (xp, yp) = (read_ptr::<$t>(op, &x)?, out_ptr::<$t>(op, &mut y)?);
            let each = g.channels * taps * blocks;
            for (b, &xb) in g.batch.iter().enumerate() {
                // SAFETY: batch item `b` of the contiguous output.
                let col = unsafe {
                    std::slice::from_raw_parts_mut(yp.get().add(y.layout.offset() + b * each), each)
                };
                // SAFETY: in-range input elements into a slice of their count.
                unsafe {
                    im2col_rows(
                        xp.get().cast_const(),
                        &g,
                        xb,
                        (0, g.channels),
                        &win,
                        out3,
                        (0, blocks),
                        col,
                    )
                };
            }
        }};
    }
    match y.dtype {
        DType::F32 => go!(f32),
        DType::F64 => go!(f64),
        dtype => return Err(Error::Unsupported { op, dtype }),
    }
    Ok(())
}

/// `F.fold`: the sum of `x[b, c·taps + t, l]` into `y[b, c, position of tap
/// t of block l]`; `x` contiguous `[batch, channels·taps, blocks]`, `y`
/// `[batch, channels, spatial...]` (every element written).
pub(crate) fn col2im(
    x: Input<'_, Cpu>,
    mut y: Output<'_, Cpu>,
    patches: &Patches<'_>,
    blocks: &[usize],
) -> Result<()> {
    let op = "fold";
    let n = patches.kernel.len();
    let win = patches.window();
    let spatial: Vec<usize> = (2..2 + n).collect();
    let bad = || Err(Error::invalid(op, "kernel operands"));
    if y.layout.rank() != n + 2
        || blocks.len() != n
        || !x.layout.is_contiguous()
        || x.dtype != y.dtype
    {
        return bad();
    }
    let g = Grid::new(&y.layout, Some(1), &spatial);
    let (taps, count) = (win.taps(), blocks.iter().product::<usize>());
    if x.layout.shape() != [g.batch.len(), g.channels * taps, count] {
        return bad();
    }
    let mut grid = [1usize; 3];
    grid[3 - n..].copy_from_slice(blocks);
    macro_rules! go {
        ($t:ty) => {{
            let (xp, yp) = (read_ptr::<$t>(op, &x)?, out_ptr::<$t>(op, &mut y)?);
            let each = g.channels * taps * count;
            for (b, &yb) in g.batch.iter().enumerate() {
                for c in 0..g.channels {
                    fill_channel(yp.get(), &g, yb + c as isize * g.c, <$t as Element>::ZERO);
                }
                // SAFETY: batch item `b` of the contiguous input.
                let col = unsafe {
                    std::slice::from_raw_parts(xp.get().add(x.layout.offset() + b * each), each)
                };
                // SAFETY: in-range output elements, written by this loop alone.
                unsafe {
                    col2im_rows(
                        yp.get(),
                        &g,
                        yb,
                        (0, g.channels),
                        &win,
                        grid,
                        (0, count),
                        col,
                    )
                };
            }
        }};
    }
    match y.dtype {
        DType::F32 => go!(f32),
        DType::F64 => go!(f64),
        dtype => return Err(Error::Unsupported { op, dtype }),
    }
    Ok(())
}
