//! The elementwise entry points: copies (a driver copy when both sides are
//! one contiguous run, tiles for a transposition, else a strided kernel),
//! fill, unary and binary ops, comparisons and `where`.

use axial_core::ops::cuda::{elementwise_module, short};
use axial_core::ops::{Fill, PowScalarKind, Resolved, RhsRule, Where};
use axial_core::plan::Plan;
use axial_core::{
    Arg, BinaryOp, CmpOp, DType, Element, Input, Output, Result, Scalar, Storage, UnaryOp,
    with_dtype,
};

use crate::Cuda;
use crate::backend::{Operand, Side, input, output, sides, state_of};
use crate::driver::{State, check};
use crate::launch::{
    KernelArg, MAX_DIMS, Scalars, THREADS, Walk, arg, blocks_for, for_pieces, launch, scalar_bits,
    size_name,
};
use crate::sys as cu;

/// Launches `name` of `module` over every piece of the walk of `ops`
/// (operand 0 the output): the parameters are `prefix`, each operand's
/// address, the walk, then `scalars` when given.
pub(crate) fn walk_kernel<const N: usize>(
    s: &State,
    module: &'static str,
    name: &str,
    prefix: &[u64],
    ops: [&Operand; N],
    scalars: Option<&Scalars>,
) -> Result<()> {
    let layouts = ops.map(|o| &o.layout);
    let plan = Plan::new(layouts);
    if plan.numel() == 0 {
        return Ok(());
    }
    for_pieces(&plan, |walk, offsets| {
        let ptrs: [u64; N] = std::array::from_fn(|k| ops[k].at(offsets[k]));
        let mut args: Vec<KernelArg> = prefix.iter().map(arg).collect();
        args.extend(ptrs.iter().map(arg));
        args.push(arg(&walk));
        if let Some(sc) = scalars {
            args.push(arg(sc));
        }
        let blocks = blocks_for(s, walk.numel);
        // SAFETY: the parameters are those of `name` (the addresses, a
        // `Walk<N>`, `Scalars`); every operand's layout was checked in bounds
        // of its storage, so each offset of the walk lands in its buffer, and
        // the buffers outlive the launch (the caller holds them until the
        // stream has run it, or frees them back to the stream-ordered pool).
        unsafe { launch(s, module, name, (blocks, 1, 1), (THREADS, 1, 1), 0, &args) }
    })
}

/// A copy between two operands of one dtype.
pub(crate) fn copy_operands(s: &State, from: &Operand, to: &Operand) -> Result<()> {
    let plan = Plan::new([&to.layout, &from.layout]);
    if plan.numel() == 0 {
        return Ok(());
    }
    let size = to.dtype.size();
    if plan.shape().len() <= 1 && plan.inner_strides() == [1, 1] {
        let [o, i] = plan.offsets().map(|o| o as i64);
        let (dst, src) = (to.at(o), from.at(i));
        if dst == src {
            return Ok(());
        }
        // SAFETY: both runs of `numel` elements lie in their buffers (checked
        // layouts) and do not overlap (an input aliasing its output through
        // another layout was copied aside first).
        return check("copy_", unsafe {
            cu::cuMemcpyDtoDAsync_v2(dst, src, plan.numel() * size, s.stream.0)
        });
    }
    if transposed(s, &plan, from, to)? {
        return Ok(());
    }
    let name = format!("copy_{}", size_name("copy_", to.dtype)?);
    walk_kernel(s, "move", &name, &[], [to, from], None)
}

/// `Tiles` of `move.cu`.
#[repr(C)]
#[derive(Copy, Clone)]
pub(crate) struct Tiles {
    rows: u64,
    cols: u64,
    out_row: i64,
    in_row: i64,
    in_col: i64,
    outer: Walk<2>,
}

crate::launch::by_value!(Tiles);

/// Side of a tile of the transposed copy.
const TILE: u64 = 32;

/// The tiled copy when the output is unit-stride along the walk's last dim
/// and the input faster along the one before: false (nothing done) when the
/// walk is not such a transposition.
fn transposed(s: &State, plan: &Plan<2>, from: &Operand, to: &Operand) -> Result<bool> {
    let n = plan.shape().len();
    if n < 2 || n - 2 > MAX_DIMS {
        return Ok(false);
    }
    let (rows, cols) = (plan.shape()[n - 2], plan.shape()[n - 1]);
    let [so_col, si_col] = plan.inner_strides();
    let (so_row, si_row) = (plan.strides(0)[n - 2], plan.strides(1)[n - 2]);
    let is = so_col == 1
        && si_row != 0
        && si_row.unsigned_abs() < si_col.unsigned_abs()
        && rows >= TILE as usize / 2
        && cols >= TILE as usize / 2
        && to.layout.is_non_overlapping();
    if !is {
        return Ok(false);
    }
    let outer = Walk::new(
        &plan.shape()[..n - 2],
        [&plan.strides(0)[..n - 2], &plan.strides(1)[..n - 2]],
    );
    let tiles = Tiles {
        rows: rows as u64,
        cols: cols as u64,
        out_row: so_row as i64,
        in_row: si_row as i64,
        in_col: si_col as i64,
        outer,
    };
    let [o, i] = plan.offsets().map(|o| o as i64);
    let (dst, src) = (to.at(o), from.at(i));
    let grid = (
        (cols as u64).div_ceil(TILE).min(i32::MAX as u64) as u32,
        (rows as u64).div_ceil(TILE).min(65_535) as u32,
        outer.numel.clamp(1, 65_535) as u32,
    );
    let args = [arg(&dst), arg(&src), arg(&tiles)];
    let name = format!("transpose_{}", size_name("copy_", to.dtype)?);
    // SAFETY: `transpose_bN(o, a, Tiles)`; every (outer, row, col) element
    // lies in its buffer (the plan of checked layouts), the output's
    // elements are distinct, and the input does not alias them.
    unsafe { launch(s, "move", &name, grid, (32, 8, 1), 0, &args)? };
    Ok(true)
}

/// `dst.copy_(src)` with conversion.
pub(crate) fn copy(device: &Cuda, src: Input<'_, Cuda>, dst: Output<'_, Cuda>) -> Result<()> {
    let op = "copy_";
    let s = state_of(device)?;
    let to = output(device, op, &dst, dst.dtype)?;
    let mut spill = vec![];
    let from = input(device, op, &src, src.dtype, &dst, &mut spill)?;
    if src.dtype == dst.dtype {
        return copy_operands(s, &from, &to);
    }
    let name = format!("cast_{}_{}", short(src.dtype), short(dst.dtype));
    walk_kernel(
        s,
        elementwise_module(src.dtype),
        &name,
        &[],
        [&to, &from],
        None,
    )
}

/// `dst.fill_(value)`.
pub(crate) fn fill(device: &Cuda, dst: Output<'_, Cuda>, value: Scalar) -> Result<()> {
    let s = state_of(device)?;
    let to = output(device, "fill_", &dst, dst.dtype)?;
    fill_operand(s, &to, value)
}

fn fill_operand(s: &State, to: &Operand, value: Scalar) -> Result<()> {
    let sc = Scalars {
        bits: scalar_bits(value, to.dtype),
        ..Scalars::default()
    };
    let name = format!("{}_{}", Fill::CUDA_KERNEL, size_name("fill_", to.dtype)?);
    walk_kernel(s, "move", &name, &[], [to], Some(&sc))
}

/// Flags 1 and 2 of a clamp's bounds, with the bounds.
fn clamp_flags(min: Option<f64>, max: Option<f64>) -> (u32, [f64; 2]) {
    let flags = min.is_some() as u32 | (max.is_some() as u32) << 1;
    (flags, [min.unwrap_or(0.0), max.unwrap_or(0.0)])
}

/// `dst = op(src)`.
pub(crate) fn unary(
    device: &Cuda,
    op: UnaryOp,
    src: Input<'_, Cuda>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let name = op.name();
    let s = state_of(device)?;
    let dtype = src.dtype;
    let resolved = op.resolve(dtype)?;
    let out_dtype = if op == UnaryOp::LogicalNot {
        DType::Bool
    } else {
        dtype
    };
    let to = output(device, name, &dst, out_dtype)?;
    let mut spill = vec![];
    let from = input(device, name, &src, dtype, &dst, &mut spill)?;
    let op = match resolved {
        Resolved::Identity => return copy_operands(s, &from, &to),
        Resolved::Fill(v) => return fill_operand(s, &to, v),
        Resolved::Op(op) => op,
    };
    // The op's arguments; an integer kernel takes the op's number too.
    let mut sc = Scalars::default();
    match op {
        UnaryOp::PowScalar(p) if dtype.is_float() => {
            (sc.flags, sc.f[0]) = PowScalarKind::of(p, dtype).code();
        }
        UnaryOp::PowScalar(p) => sc.i[0] = p as i64,
        UnaryOp::Clamp { min, max } => {
            let (flags, bounds) = clamp_flags(min, max);
            sc.flags = flags;
            if dtype.is_float() {
                sc.f = bounds;
            } else {
                sc.i = bounds.map(|b| b as i64);
            }
        }
        _ => {}
    }
    if !dtype.is_float() && op != UnaryOp::LogicalNot {
        sc.flags |= op.code() << 8;
    }
    let kernel = op.cuda_entry(dtype);
    walk_kernel(
        s,
        elementwise_module(dtype),
        &kernel,
        &[],
        [&to, &from],
        Some(&sc),
    )
}

/// `Scalars` for a binary kernel: the scalar side's bits and flags 1 (the
/// left operand is the scalar) or 2 (the right one).
fn side_scalars(sides: &[Side; 2], dtype: DType, op_code: u32) -> Scalars {
    let mut sc = Scalars {
        flags: op_code << 8,
        ..Scalars::default()
    };
    for (k, side) in sides.iter().enumerate() {
        if let Side::Scalar(v) = side {
            sc.bits = scalar_bits(*v, dtype);
            sc.flags |= 1 << k;
        }
    }
    sc
}

/// Launches a binary kernel over the two sides into `to` (a scalar side
/// walks as the output, and its address is 0).
fn binary_kernel(
    s: &State,
    module: &'static str,
    name: &str,
    to: &Operand,
    sides: &[Side; 2],
    sc: &Scalars,
) -> Result<()> {
    let stand_in = |side: &Side| match side {
        Side::Tensor(t) => Operand {
            base: t.base,
            layout: t.layout.clone(),
            dtype: t.dtype,
        },
        Side::Scalar(_) => Operand {
            base: 0,
            layout: to.layout.clone(),
            dtype: to.dtype,
        },
    };
    let (a, b) = (stand_in(&sides[0]), stand_in(&sides[1]));
    walk_kernel(s, module, name, &[], [to, &a, &b], Some(sc))
}

/// `dst = op(lhs, rhs)`.
pub(crate) fn binary(
    device: &Cuda,
    op: BinaryOp,
    lhs: Arg<'_, Cuda>,
    rhs: Arg<'_, Cuda>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let name = op.name();
    let s = state_of(device)?;
    let dtype = Arg::pair_dtype(name, &lhs, &rhs)?;
    let op = op.resolve(dtype)?;
    let logical = matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr);
    let to = output(
        device,
        name,
        &dst,
        if logical { DType::Bool } else { dtype },
    )?;
    let mut spill = vec![];
    let sides = sides(device, name, [&lhs, &rhs], dtype, &dst, &mut spill)?;
    let module = elementwise_module(dtype);
    if let Some(rule) = op.rhs_rule(dtype) {
        let broken = match &sides[1] {
            Side::Scalar(v) => rule.breaks(with_dtype!(dtype, T => v.to::<T>().to_i64())),
            Side::Tensor(t) => any_breaks(s, module, dtype, t, rule)?,
        };
        if broken {
            return Err(rule.error(name));
        }
    }
    // An integer kernel takes the op's number.
    let code = if logical || dtype.is_float() {
        0
    } else {
        op.code()
    };
    let sc = side_scalars(&sides, dtype, code);
    binary_kernel(s, module, &op.cuda_entry(dtype), &to, &sides, &sc)
}

/// True when some element of `t` breaks `rule` (a kernel sets a flag the
/// host then reads: the op is refused before it writes anything).
fn any_breaks(
    s: &State,
    module: &'static str,
    dtype: DType,
    t: &Operand,
    rule: RhsRule,
) -> Result<bool> {
    let device = Cuda::at(s.index);
    let mut flag = Storage::zeroed(&device, 4)?;
    let sc = Scalars {
        flags: rule.code(),
        ..Scalars::default()
    };
    let ptr = flag.buffer().ptr;
    walk_kernel(
        s,
        module,
        &format!("check_rhs_{}", short(dtype)),
        &[ptr],
        [t],
        Some(&sc),
    )?;
    let mut host = [0u8; 4];
    axial_core::Device::copy_to_host(&device, flag.buffer_mut(), 0, &mut host)?;
    Ok(u32::from_le_bytes(host) != 0)
}

/// `dst = lhs op rhs` into bool.
pub(crate) fn compare(
    device: &Cuda,
    op: CmpOp,
    lhs: Arg<'_, Cuda>,
    rhs: Arg<'_, Cuda>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let name = op.name();
    let s = state_of(device)?;
    let dtype = Arg::pair_dtype(name, &lhs, &rhs)?;
    let to = output(device, name, &dst, DType::Bool)?;
    let mut spill = vec![];
    let sides = sides(device, name, [&lhs, &rhs], dtype, &dst, &mut spill)?;
    let sc = side_scalars(&sides, dtype, op.code());
    let kernel = CmpOp::cuda_entry(dtype);
    binary_kernel(s, elementwise_module(dtype), &kernel, &to, &sides, &sc)
}

/// `dst = where(cond, a, b)`.
pub(crate) fn select_where(
    device: &Cuda,
    cond: Input<'_, Cuda>,
    a: Input<'_, Cuda>,
    b: Input<'_, Cuda>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let op = "where";
    let s = state_of(device)?;
    let dtype = a.dtype;
    let to = output(device, op, &dst, dtype)?;
    let mut spill = vec![];
    let c = input(device, op, &cond, DType::Bool, &dst, &mut spill)?;
    let x = input(device, op, &a, dtype, &dst, &mut spill)?;
    let y = input(device, op, &b, dtype, &dst, &mut spill)?;
    let kernel = format!("{}_{}", Where::CUDA_KERNEL, size_name(op, dtype)?);
    walk_kernel(s, "move", &kernel, &[], [&to, &c, &x, &y], None)
}
