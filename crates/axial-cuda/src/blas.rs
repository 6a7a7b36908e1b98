//! Matrix products through cuBLAS, loaded at run time (`libcublas.so.13`,
//! else `.12`; `AXIAL_CUBLAS` names another file): nothing links it, so a
//! program that never multiplies matrices on the GPU does not need it.
//!
//! Row-major `C = A·B` is column-major `Cᵀ = Bᵀ·Aᵀ`: each operand is handed
//! to `cublasGemmStridedBatchedEx` where it lies when one of its two
//! strides is 1, else copied contiguous first. f32 computes in f32 (TF32
//! only when [`Cuda::set_allow_tf32`] allows it), f64 in f64, f16 and bf16
//! with f32 accumulation. `addmm` writes its bias into the result and calls
//! the same product with `beta = 1`.

use std::ffi::{c_int, c_void};

use axial_core::ops::{Addmm, Matmul};
use axial_core::plan::{MatStrides, MatmulPlan, Odometer};
use axial_core::{DType, Error, Input, Output, Result, Storage};

use crate::Cuda;
use crate::backend::{Operand, contiguous_copy, input, output, scratch, source, state_of};
use crate::driver::{State, device_error, lock};
use crate::elementwise::copy_operands;

type Handle = *mut c_void;
type Status = c_int;

/// The cuBLAS entry points used, from the loaded library.
pub(crate) struct Blas {
    _lib: libloading::Library,
    handle: crate::driver::Handle<Handle>,
    gemm: unsafe extern "C" fn(
        Handle,
        c_int,
        c_int,
        c_int,
        c_int,
        c_int,
        *const c_void,
        *const c_void,
        c_int,
        c_int,
        i64,
        *const c_void,
        c_int,
        c_int,
        i64,
        *const c_void,
        *mut c_void,
        c_int,
        c_int,
        i64,
        c_int,
        c_int,
        c_int,
    ) -> Status,
    /// Calls are not thread-safe on one handle.
    calls: std::sync::Mutex<()>,
}

const OP_N: c_int = 0;
const OP_T: c_int = 1;
const R_32F: c_int = 0;
const R_64F: c_int = 1;
const R_16F: c_int = 2;
const R_16BF: c_int = 14;
const COMPUTE_32F: c_int = 68;
const COMPUTE_64F: c_int = 70;
const COMPUTE_32F_FAST_TF32: c_int = 77;
const GEMM_DEFAULT: c_int = -1;

/// The library names tried, in order.
const NAMES: [&str; 3] = ["libcublas.so.13", "libcublas.so.12", "libcublas.so"];

fn blas_error(what: impl Into<String>) -> Error {
    device_error("matmul", what)
}

impl Blas {
    fn load(s: &State) -> Result<Blas> {
        let names: Vec<String> = match std::env::var("AXIAL_CUBLAS") {
            Ok(path) => vec![path],
            Err(_) => NAMES.iter().map(|n| n.to_string()).collect(),
        };
        let mut errors = vec![];
        let lib = names.iter().find_map(|n| {
            // SAFETY: loading cuBLAS runs its initialisers, which only set up
            // the library.
            match unsafe { libloading::Library::new(n) } {
                Ok(l) => Some(l),
                Err(e) => {
                    errors.push(format!("{n}: {e}"));
                    None
                }
            }
        });
        let lib =
            lib.ok_or_else(|| blas_error(format!("cannot load cuBLAS ({})", errors.join("; "))))?;
        // SAFETY: the symbols have these C signatures in cuBLAS 12 and 13.
        unsafe {
            let create: libloading::Symbol<'_, unsafe extern "C" fn(*mut Handle) -> Status> = lib
                .get(b"cublasCreate_v2\0")
                .map_err(|e| blas_error(e.to_string()))?;
            let set_stream: libloading::Symbol<
                '_,
                unsafe extern "C" fn(Handle, *mut c_void) -> Status,
            > = lib
                .get(b"cublasSetStream_v2\0")
                .map_err(|e| blas_error(e.to_string()))?;
            let gemm = *lib
                .get(b"cublasGemmStridedBatchedEx\0")
                .map_err(|e| blas_error(e.to_string()))?;
            let mut handle = std::ptr::null_mut();
            s.enter()?;
            status("cublasCreate", create(&mut handle))?;
            status("cublasSetStream", set_stream(handle, s.stream.0.cast()))?;
            Ok(Blas {
                handle: crate::driver::Handle(handle),
                gemm,
                calls: std::sync::Mutex::new(()),
                _lib: lib,
            })
        }
    }
}

fn status(call: &str, st: Status) -> Result<()> {
    if st == 0 {
        Ok(())
    } else {
        Err(blas_error(format!("{call} failed with cuBLAS status {st}")))
    }
}

/// The device's cuBLAS, loaded on first use.
fn blas(s: &State) -> Result<&Blas> {
    s.blas
        .get_or_init(|| Blas::load(s))
        .as_ref()
        .map_err(Clone::clone)
}

/// A matrix as cuBLAS takes it (column-major): whether to transpose it, and
/// its leading dimension. `None` when neither stride is 1.
fn as_column_major(rows: usize, cols: usize, st: MatStrides) -> Option<(c_int, i64)> {
    let (row, col) = (st.row as i64, st.col as i64);
    if (col == 1 || cols == 1) && row >= cols.max(1) as i64 {
        // Row-major: column-major it is the transpose, leading dim `row`.
        return Some((OP_T, row));
    }
    if (row == 1 || rows == 1) && col >= rows.max(1) as i64 {
        return Some((OP_N, col));
    }
    None
}

/// `dst = lhs @ rhs`.
pub(crate) fn matmul(
    device: &Cuda,
    lhs: Input<'_, Cuda>,
    rhs: Input<'_, Cuda>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    product(device, lhs, rhs, dst, false)
}

/// `dst = bias + lhs @ rhs`: the bias (broadcast to `dst`'s shape) is
/// copied into `dst`, which the product then accumulates into (cuBLAS's
/// `beta = 1`), so the sum costs no pass of its own.
pub(crate) fn addmm(
    device: &Cuda,
    bias: Input<'_, Cuda>,
    lhs: Input<'_, Cuda>,
    rhs: Input<'_, Cuda>,
    dst: Output<'_, Cuda>,
) -> Result<()> {
    let op = "addmm";
    // Checked before the bias is written, so that a refused product writes nothing.
    Addmm::plan(&bias, &lhs, &rhs, &dst)?;
    source(device, op, &lhs, dst.dtype)?;
    source(device, op, &rhs, dst.dtype)?;
    compute_types(dst.dtype, false)?;
    let s = state_of(device)?;
    let to = output(device, op, &dst, dst.dtype)?;
    let mut spill = vec![];
    let b = input(device, op, &bias, dst.dtype, &dst, &mut spill)?;
    copy_operands(s, &b, &to)?;
    product(device, lhs, rhs, dst, true)
}

/// `dst = lhs @ rhs`, or `dst += lhs @ rhs` when `accumulate` is set.
fn product(
    device: &Cuda,
    lhs: Input<'_, Cuda>,
    rhs: Input<'_, Cuda>,
    dst: Output<'_, Cuda>,
    accumulate: bool,
) -> Result<()> {
    let op = "matmul";
    let s = state_of(device)?;
    let plan = Matmul::plan(&lhs, &rhs, &dst)?;
    let dtype = dst.dtype;
    let to = output(device, op, &dst, dtype)?;
    let a = source(device, op, &lhs, dtype)?;
    let b = source(device, op, &rhs, dtype)?;
    if plan.m == 0 || plan.n == 0 || plan.batch.numel() == 0 {
        return Ok(());
    }
    if plan.k == 0 {
        // A sum of no products.
        if accumulate {
            return Ok(());
        }
        return crate::elementwise::fill(device, dst, axial_core::Scalar::Int(0));
    }
    // Operands cuBLAS cannot read where they lie are copied contiguous.
    let mut held = vec![];
    let a = usable(device, a, (plan.m, plan.k), plan.lhs, &mut held)?;
    let b = usable(device, b, (plan.k, plan.n), plan.rhs, &mut held)?;
    let plan = MatmulPlan::new(&a.layout, &b.layout, &to.layout)?;
    let out_ok = as_column_major(plan.m, plan.n, plan.dst).is_some() && plan.disjoint;
    if !out_ok {
        // Into a contiguous result, then copied where it goes.
        let t = scratch(device, to.layout.shape(), dtype, &mut held)?;
        if accumulate {
            copy_operands(s, &to, &t)?;
        }
        let tp = MatmulPlan::new(&a.layout, &b.layout, &t.layout)?;
        gemm_batches(device, s, &tp, &a, &b, &t, accumulate)?;
        return copy_operands(s, &t, &to);
    }
    gemm_batches(device, s, &plan, &a, &b, &to, accumulate)
}

/// `op` itself when cuBLAS reads it where it lies, else a contiguous copy.
fn usable(
    device: &Cuda,
    op: Operand,
    (rows, cols): (usize, usize),
    st: MatStrides,
    held: &mut Vec<Storage<Cuda>>,
) -> Result<Operand> {
    if as_column_major(rows, cols, st).is_some() {
        return Ok(op);
    }
    contiguous_copy(device, &op, held)
}

/// One strided-batched call per index of the outer batch dims (the
/// innermost batch dim is cuBLAS's batch); `accumulate` adds to `c`.
fn gemm_batches(
    device: &Cuda,
    s: &State,
    p: &MatmulPlan,
    a: &Operand,
    b: &Operand,
    c: &Operand,
    accumulate: bool,
) -> Result<()> {
    let ((count, [sa, sb, sc]), outer) = p.batch.split_inner();
    let outer_n = outer.numel();
    let mut at = Odometer::new(&outer, 0);
    for _ in 0..outer_n.max(1) {
        let [oa, ob, oc] = at.offsets;
        let base = [
            a.at(p.offsets[0] as i64 + oa as i64),
            b.at(p.offsets[1] as i64 + ob as i64),
            c.at(p.offsets[2] as i64 + oc as i64),
        ];
        gemm(device, s, p, base, [sa, sb, sc], count, c.dtype, accumulate)?;
        at.advance();
    }
    Ok(())
}

/// cuBLAS's data and compute types for `dtype`.
fn compute_types(dtype: DType, tf32: bool) -> Result<(c_int, c_int)> {
    Ok(match dtype {
        DType::F32 if tf32 => (R_32F, COMPUTE_32F_FAST_TF32),
        DType::F32 => (R_32F, COMPUTE_32F),
        DType::F64 => (R_64F, COMPUTE_64F),
        DType::F16 => (R_16F, COMPUTE_32F),
        DType::BF16 => (R_16BF, COMPUTE_32F),
        other => {
            return Err(Error::Unsupported {
                op: "matmul",
                dtype: other,
            });
        }
    })
}

/// `count` products `C = A·B` (`C += A·B` when `accumulate`) at `base`
/// addresses, batch strides `bs`.
#[allow(clippy::too_many_arguments)]
fn gemm(
    device: &Cuda,
    s: &State,
    p: &MatmulPlan,
    [pa, pb, pc]: [u64; 3],
    [sa, sb, sc]: [isize; 3],
    count: usize,
    dtype: DType,
    accumulate: bool,
) -> Result<()> {
    let big = |n: usize| n > c_int::MAX as usize;
    if big(p.m) || big(p.n) || big(p.k) || big(count) {
        return Err(blas_error(format!(
            "sizes m={} k={} n={} batch={count} exceed cuBLAS's int range",
            p.m, p.k, p.n
        )));
    }
    let Some((op_a, lda)) = as_column_major(p.m, p.k, p.lhs) else {
        return Err(blas_error("the left operand has no unit stride"));
    };
    let Some((op_b, ldb)) = as_column_major(p.k, p.n, p.rhs) else {
        return Err(blas_error("the right operand has no unit stride"));
    };
    let Some((op_c, ldc)) = as_column_major(p.m, p.n, p.dst) else {
        return Err(blas_error("the result has no unit stride"));
    };
    let blas = blas(s)?;
    let tf32 = device.allow_tf32()?;
    let (ty, compute) = compute_types(dtype, tf32)?;
    let (one32, beta32) = (1.0f32, if accumulate { 1.0f32 } else { 0.0 });
    let (one64, beta64) = (1.0f64, if accumulate { 1.0f64 } else { 0.0 });
    let (alpha, beta): (*const c_void, *const c_void) = if dtype == DType::F64 {
        (
            (&one64 as *const f64).cast(),
            (&beta64 as *const f64).cast(),
        )
    } else {
        (
            (&one32 as *const f32).cast(),
            (&beta32 as *const f32).cast(),
        )
    };
    // cuBLAS computes a column-major C. For a row-major C (op_c = T) it
    // computes Cᵀ = Bᵀ·Aᵀ: the operands swap and each transposes.
    let flip = |o: c_int| if o == OP_N { OP_T } else { OP_N };
    let (m, n, k) = (p.m as c_int, p.n as c_int, p.k as c_int);
    let call = if op_c == OP_T {
        // Cᵀ (n×m, ld ldc) = Bᵀ (n×k) · Aᵀ (k×m).
        (n, m, flip(op_b), flip(op_a), pb, ldb, sb, pa, lda, sa)
    } else {
        (m, n, op_a, op_b, pa, lda, sa, pb, ldb, sb)
    };
    let (cm, cn, ta, tb, x, ldx, sx, y, ldy, sy) = call;
    let _guard = lock(&blas.calls);
    s.enter()?;
    // SAFETY: the matrices lie in their buffers (checked layouts; leading
    // dims and batch strides from them), alpha and beta are of the compute
    // type's scalar, and the handle runs on the device's compute stream.
    let st = unsafe {
        (blas.gemm)(
            blas.handle.0,
            ta,
            tb,
            cm,
            cn,
            k,
            alpha,
            x as usize as *const c_void,
            ty,
            ldx as c_int,
            sx as i64,
            y as usize as *const c_void,
            ty,
            ldy as c_int,
            sy as i64,
            beta,
            pc as usize as *mut c_void,
            ty,
            ldc as c_int,
            sc as i64,
            count as c_int,
            compute,
            GEMM_DEFAULT,
        )
    };
    status("cublasGemmStridedBatchedEx", st)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_map_to_column_major_views() {
        // A row-major 2×3 is the transpose of a column-major 3×2.
        assert_eq!(
            as_column_major(2, 3, MatStrides { row: 3, col: 1 }),
            Some((OP_T, 3))
        );
        // Its transpose view (3×2, strides (1, 3)) is column-major as it is.
        assert_eq!(
            as_column_major(3, 2, MatStrides { row: 1, col: 3 }),
            Some((OP_N, 3))
        );
        // Every other column: neither stride is 1.
        assert_eq!(as_column_major(2, 3, MatStrides { row: 6, col: 2 }), None);
    }
}
