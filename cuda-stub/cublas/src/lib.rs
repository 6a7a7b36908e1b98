//! A stand-in for cuBLAS (`libcublas.so.13`), for testing CUDA code on
//! machines without a GPU, beside the stand-in driver of `cuda-stub/driver`
//! (it refuses to start over a real driver). It is not cuBLAS: it computes
//! matrix products on the CPU, in the precision cuBLAS documents for each
//! compute type, as work queued on the handle's stream (through the
//! driver's `cuLaunchHostFunc`), so it runs in order with the kernels and
//! copies around it.
//!
//! Entry points: `cublasCreate_v2`, `cublasDestroy_v2`, `cublasSetStream_v2`,
//! `cublasGetStream_v2`, `cublasGetVersion_v2`, `cublasSetMathMode`,
//! `cublasGetMathMode`, `cublasGemmEx` and `cublasGemmStridedBatchedEx`
//! (column-major `C = α·op(A)·op(B) + β·C`; f32 accumulated in f32, TF32
//! inputs rounded to 10-bit mantissas for `COMPUTE_32F_FAST_TF32`, f16 and
//! bf16 with f32 accumulation, f64 in f64; `C` is not read when `β = 0`),
//! `cublasSgemm_v2` and `cublasDgemm_v2`. Every operand must lie inside one
//! device allocation, or the call fails (a GPU would fault).

mod gemm;

use std::ffi::{c_int, c_void};

use gemm::{Gemm, Matrix};

type Status = c_int;
const SUCCESS: Status = 0;
const NOT_INITIALIZED: Status = 1;
const INVALID_VALUE: Status = 7;
const EXECUTION_FAILED: Status = 13;
const NOT_SUPPORTED: Status = 15;

/// The driver functions the stand-in uses, from the process's driver.
struct Driver {
    launch_host:
        unsafe extern "C" fn(*mut c_void, unsafe extern "C" fn(*mut c_void), *mut c_void) -> u32,
    address_range: unsafe extern "C" fn(*mut u64, *mut usize, u64) -> u32,
}

fn driver() -> Option<&'static Driver> {
    static D: std::sync::OnceLock<Option<Driver>> = std::sync::OnceLock::new();
    D.get_or_init(|| {
        let this = libloading::os::unix::Library::this();
        // SAFETY: the symbols have these C signatures in the driver API;
        // `axial_cuda_stand_in` exists only in the stand-in driver, whose
        // device memory is host memory (the products read it directly).
        unsafe {
            this.get::<unsafe extern "C" fn() -> u32>(b"axial_cuda_stand_in\0")
                .ok()?;
            Some(Driver {
                launch_host: *this.get(b"cuLaunchHostFunc\0").ok()?,
                address_range: *this.get(b"cuMemGetAddressRange_v2\0").ok()?,
            })
        }
    })
    .as_ref()
}

/// A handle: its stream and math mode.
struct Handle {
    stream: *mut c_void,
    tf32: bool,
}

#[unsafe(no_mangle)]
unsafe extern "C" fn cublasCreate_v2(handle: *mut *mut c_void) -> Status {
    if handle.is_null() {
        return INVALID_VALUE;
    }
    if driver().is_none() {
        eprintln!(
            "cuBLAS stand-in: it runs only over the CUDA stand-in driver (cuda-stub/build.sh)"
        );
        return NOT_INITIALIZED;
    }
    let h = Box::new(Handle {
        stream: std::ptr::null_mut(),
        tf32: false,
    });
    // SAFETY: a non-null out-pointer of the caller.
    unsafe { handle.write(Box::into_raw(h).cast()) };
    SUCCESS
}

#[unsafe(no_mangle)]
unsafe extern "C" fn cublasDestroy_v2(handle: *mut c_void) -> Status {
    if handle.is_null() {
        return NOT_INITIALIZED;
    }
    // SAFETY: a handle `cublasCreate_v2` made, destroyed once.
    drop(unsafe { Box::from_raw(handle.cast::<Handle>()) });
    SUCCESS
}

/// The handle behind a pointer.
///
/// # Safety
/// `h` is null or a live handle of `cublasCreate_v2`.
unsafe fn handle<'a>(h: *mut c_void) -> Option<&'a mut Handle> {
    // SAFETY: the caller's contract.
    unsafe { h.cast::<Handle>().as_mut() }
}

#[unsafe(no_mangle)]
unsafe extern "C" fn cublasSetStream_v2(h: *mut c_void, stream: *mut c_void) -> Status {
    // SAFETY: the caller's handle.
    let Some(h) = (unsafe { handle(h) }) else {
        return NOT_INITIALIZED;
    };
    h.stream = stream;
    SUCCESS
}

#[unsafe(no_mangle)]
unsafe extern "C" fn cublasGetStream_v2(h: *mut c_void, stream: *mut *mut c_void) -> Status {
    // SAFETY: the caller's handle.
    let Some(h) = (unsafe { handle(h) }) else {
        return NOT_INITIALIZED;
    };
    if stream.is_null() {
        return INVALID_VALUE;
    }
    // SAFETY: a non-null out-pointer.
    unsafe { stream.write(h.stream) };
    SUCCESS
}

#[unsafe(no_mangle)]
unsafe extern "C" fn cublasGetVersion_v2(h: *mut c_void, v: *mut c_int) -> Status {
    // SAFETY: the caller's handle.
    if unsafe { handle(h) }.is_none() || v.is_null() {
        return INVALID_VALUE;
    }
    // SAFETY: a non-null out-pointer.
    unsafe { v.write(130_000) };
    SUCCESS
}

/// `CUBLAS_TF32_TENSOR_OP_MATH`.
const TF32_MODE: c_int = 3;

#[unsafe(no_mangle)]
unsafe extern "C" fn cublasSetMathMode(h: *mut c_void, mode: c_int) -> Status {
    // SAFETY: the caller's handle.
    let Some(h) = (unsafe { handle(h) }) else {
        return NOT_INITIALIZED;
    };
    h.tf32 = mode & 0xf == TF32_MODE;
    SUCCESS
}

#[unsafe(no_mangle)]
unsafe extern "C" fn cublasGetMathMode(h: *mut c_void, mode: *mut c_int) -> Status {
    // SAFETY: the caller's handle.
    let Some(h) = (unsafe { handle(h) }) else {
        return NOT_INITIALIZED;
    };
    if mode.is_null() {
        return INVALID_VALUE;
    }
    // SAFETY: a non-null out-pointer.
    unsafe { mode.write(if h.tf32 { TF32_MODE } else { 0 }) };
    SUCCESS
}

/// Runs a product on the host function the driver calls in stream order.
unsafe extern "C" fn run_gemm(job: *mut c_void) {
    // SAFETY: the box `enqueue` leaked, called once by the driver.
    let job = unsafe { Box::from_raw(job.cast::<Gemm>()) };
    // SAFETY: every operand was checked to lie in device memory, which the
    // stand-in driver keeps in host memory until this queued work has run.
    unsafe { job.run() };
}

/// Checks a product and queues it on the handle's stream.
///
/// # Safety
/// `alpha` and `beta` point to scalars of the compute type.
unsafe fn enqueue(
    h: *mut c_void,
    mut g: Gemm,
    alpha: *const c_void,
    beta: *const c_void,
) -> Status {
    // SAFETY: the caller's handle.
    let Some(h) = (unsafe { handle(h) }) else {
        return NOT_INITIALIZED;
    };
    let Some(d) = driver() else {
        return NOT_INITIALIZED;
    };
    if h.tf32 && g.compute == gemm::COMPUTE_32F {
        g.compute = gemm::COMPUTE_32F_FAST_TF32;
    }
    if let Err(s) = g.check() {
        return s;
    }
    if alpha.is_null() || beta.is_null() {
        return INVALID_VALUE;
    }
    // SAFETY: host scalars of the compute type (the caller's contract).
    unsafe { g.scalars(alpha, beta) };
    if g.m == 0 || g.n == 0 || g.batch == 0 {
        return SUCCESS;
    }
    for (name, range) in g.ranges() {
        let Some((start, len)) = range else { continue };
        let (mut base, mut size) = (0u64, 0usize);
        // SAFETY: out-pointers to locals.
        let r = unsafe { (d.address_range)(&mut base, &mut size, start) };
        if r != 0 || start + len > base + size as u64 {
            eprintln!(
                "cuBLAS stand-in: operand {name} ({len} bytes at {start:#x}) is not inside one device allocation"
            );
            return EXECUTION_FAILED;
        }
    }
    let job = Box::into_raw(Box::new(g));
    // SAFETY: the stream of the handle; the job is freed by `run_gemm`.
    let r = unsafe { (d.launch_host)(h.stream, run_gemm, job.cast()) };
    if r != 0 {
        // SAFETY: not queued: freed here.
        drop(unsafe { Box::from_raw(job) });
        return EXECUTION_FAILED;
    }
    SUCCESS
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cublasGemmStridedBatchedEx(
    h: *mut c_void,
    ta: c_int,
    tb: c_int,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const c_void,
    a: *const c_void,
    a_type: c_int,
    lda: c_int,
    stride_a: i64,
    b: *const c_void,
    b_type: c_int,
    ldb: c_int,
    stride_b: i64,
    beta: *const c_void,
    c: *mut c_void,
    c_type: c_int,
    ldc: c_int,
    stride_c: i64,
    batch: c_int,
    compute: c_int,
    _algo: c_int,
) -> Status {
    let g = Gemm {
        ta,
        tb,
        m,
        n,
        k,
        a: Matrix::new(a as u64, a_type, lda, stride_a),
        b: Matrix::new(b as u64, b_type, ldb, stride_b),
        c: Matrix::new(c as u64, c_type, ldc, stride_c),
        batch,
        compute,
        alpha: 0.0,
        beta: 0.0,
    };
    // SAFETY: the caller's scalars.
    unsafe { enqueue(h, g, alpha, beta) }
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cublasGemmEx(
    h: *mut c_void,
    ta: c_int,
    tb: c_int,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const c_void,
    a: *const c_void,
    a_type: c_int,
    lda: c_int,
    b: *const c_void,
    b_type: c_int,
    ldb: c_int,
    beta: *const c_void,
    c: *mut c_void,
    c_type: c_int,
    ldc: c_int,
    compute: c_int,
    algo: c_int,
) -> Status {
    // SAFETY: the same contract, one product.
    unsafe {
        cublasGemmStridedBatchedEx(
            h, ta, tb, m, n, k, alpha, a, a_type, lda, 0, b, b_type, ldb, 0, beta, c, c_type, ldc,
            0, 1, compute, algo,
        )
    }
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cublasSgemm_v2(
    h: *mut c_void,
    ta: c_int,
    tb: c_int,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const f32,
    a: *const f32,
    lda: c_int,
    b: *const f32,
    ldb: c_int,
    beta: *const f32,
    c: *mut f32,
    ldc: c_int,
) -> Status {
    // SAFETY: the same contract in f32.
    unsafe {
        cublasGemmEx(
            h,
            ta,
            tb,
            m,
            n,
            k,
            alpha.cast(),
            a.cast(),
            gemm::R_32F,
            lda,
            b.cast(),
            gemm::R_32F,
            ldb,
            beta.cast(),
            c.cast(),
            gemm::R_32F,
            ldc,
            gemm::COMPUTE_32F,
            -1,
        )
    }
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cublasDgemm_v2(
    h: *mut c_void,
    ta: c_int,
    tb: c_int,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const f64,
    a: *const f64,
    lda: c_int,
    b: *const f64,
    ldb: c_int,
    beta: *const f64,
    c: *mut f64,
    ldc: c_int,
) -> Status {
    // SAFETY: the same contract in f64.
    unsafe {
        cublasGemmEx(
            h,
            ta,
            tb,
            m,
            n,
            k,
            alpha.cast(),
            a.cast(),
            gemm::R_64F,
            lda,
            b.cast(),
            gemm::R_64F,
            ldb,
            beta.cast(),
            c.cast(),
            gemm::R_64F,
            ldc,
            gemm::COMPUTE_64F,
            -1,
        )
    }
}

#[unsafe(no_mangle)]
unsafe extern "C" fn cublasGetStatusName(s: Status) -> *const std::ffi::c_char {
    let name = match s {
        SUCCESS => c"CUBLAS_STATUS_SUCCESS",
        NOT_INITIALIZED => c"CUBLAS_STATUS_NOT_INITIALIZED",
        INVALID_VALUE => c"CUBLAS_STATUS_INVALID_VALUE",
        EXECUTION_FAILED => c"CUBLAS_STATUS_EXECUTION_FAILED",
        NOT_SUPPORTED => c"CUBLAS_STATUS_NOT_SUPPORTED",
        _ => c"CUBLAS_STATUS_INTERNAL_ERROR",
    };
    name.as_ptr()
}
