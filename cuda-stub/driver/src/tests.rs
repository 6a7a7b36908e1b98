//! The stand-in against the driver's documented behaviour: queued work runs
//! in stream order and only when waited for, events order streams, copies
//! from pageable memory are staged when queued and from pinned memory read
//! when they run, a faulting kernel makes its context fail (sticky) with
//! the fault in the error's text, and launches and loads are refused with
//! the driver's codes.

use std::ffi::{CStr, c_char, c_void};

use crate::api::*;
use crate::codes::*;

/// A fresh context of device 0, current on this thread.
fn context() -> *mut c_void {
    let mut ctx = std::ptr::null_mut();
    // SAFETY: out-pointers to locals.
    unsafe {
        assert_eq!(cuInit(0), SUCCESS);
        assert_eq!(cuCtxCreate_v2(&mut ctx, 0, 0), SUCCESS);
    }
    ctx
}

fn alloc(n: usize) -> u64 {
    let mut p = 0u64;
    // SAFETY: an out-pointer to a local.
    assert_eq!(unsafe { cuMemAlloc_v2(&mut p, n) }, SUCCESS);
    p
}

fn stream() -> *mut c_void {
    let mut s = std::ptr::null_mut();
    // SAFETY: an out-pointer to a local.
    assert_eq!(unsafe { cuStreamCreate(&mut s, 1) }, SUCCESS);
    s
}

/// Device memory read on the host without the driver (the stand-in's
/// device addresses are host addresses): what is there now.
fn peek(p: u64, n: usize) -> Vec<u8> {
    // SAFETY: an allocation of at least `n` bytes.
    unsafe { std::slice::from_raw_parts(p as *const u8, n) }.to_vec()
}

#[test]
fn queued_work_runs_in_order_when_waited_for() {
    let _ctx = context();
    let (p, s) = (alloc(16), stream());
    // SAFETY: a live stream and allocation.
    unsafe {
        assert_eq!(cuMemsetD8Async(p, 1, 16, s), SUCCESS);
        assert_eq!(cuMemsetD8Async(p, 2, 8, s), SUCCESS);
    }
    // Not waited for: the memory is as it was.
    assert_ne!(peek(p, 16), vec![1; 16]);
    // SAFETY: a live stream.
    assert_eq!(unsafe { cuStreamQuery(s) }, NOT_READY);
    // SAFETY: a live stream.
    assert_eq!(unsafe { cuStreamSynchronize(s) }, SUCCESS);
    assert_eq!(peek(p, 16), [[2; 8], [1; 8]].concat());
    // SAFETY: a live stream.
    assert_eq!(unsafe { cuStreamQuery(s) }, SUCCESS);
}

#[test]
fn an_event_orders_one_stream_after_another() {
    let _ctx = context();
    let (p, q) = (alloc(8), alloc(8));
    let (a, b) = (stream(), stream());
    let mut e = std::ptr::null_mut();
    let mut host = [0u8; 8];
    // SAFETY: live streams, allocations and event; `host` outlives the copy.
    unsafe {
        assert_eq!(cuEventCreate(&mut e, 0), SUCCESS);
        assert_eq!(cuMemsetD8Async(p, 7, 8, a), SUCCESS);
        assert_eq!(cuEventRecord(e, a), SUCCESS);
        assert_eq!(cuStreamWaitEvent(b, e, 0), SUCCESS);
        assert_eq!(cuMemcpyDtoDAsync_v2(q, p, 8, b), SUCCESS);
        // Only `b` is waited for: its wait runs `a` up to the event.
        assert_eq!(cuStreamSynchronize(b), SUCCESS);
        assert_eq!(cuMemcpyDtoH_v2(host.as_mut_ptr().cast(), q, 8), SUCCESS);
        let mut ms = 0.0f32;
        assert_eq!(cuEventElapsedTime(&mut ms, e, e), SUCCESS);
        assert_eq!(ms, 0.0);
    }
    assert_eq!(host, [7; 8]);
}

#[test]
fn pageable_copies_are_staged_and_pinned_ones_read_when_they_run() {
    let _ctx = context();
    let (p, s) = (alloc(4), stream());
    let mut pageable = [1u8; 4];
    let mut pinned = [1u8; 4];
    // SAFETY: live buffers that outlive the queued copies.
    unsafe {
        assert_eq!(
            cuMemHostRegister_v2(pinned.as_mut_ptr().cast(), 4, 0),
            SUCCESS
        );
        assert_eq!(
            cuMemcpyHtoDAsync_v2(p, pageable.as_ptr().cast(), 4, s),
            SUCCESS
        );
        pageable.fill(9);
        assert_eq!(cuStreamSynchronize(s), SUCCESS);
        assert_eq!(peek(p, 4), [1; 4]);
        assert_eq!(
            cuMemcpyHtoDAsync_v2(p, pinned.as_ptr().cast(), 4, s),
            SUCCESS
        );
        pinned.fill(5);
        assert_eq!(cuStreamSynchronize(s), SUCCESS);
        assert_eq!(peek(p, 4), [5; 4]);
        assert_eq!(cuMemHostUnregister(pinned.as_mut_ptr().cast()), SUCCESS);
    }
}

/// Loads `ptx` into the current context.
fn load(ptx: &str) -> Result<*mut c_void, (Code, String)> {
    let text = std::ffi::CString::new(ptx).expect("no NUL");
    let mut m = std::ptr::null_mut();
    let mut log = vec![0u8; 4096];
    let mut options = [5i32, 6];
    let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), log.len() as *mut c_void];
    // SAFETY: NUL-terminated text, two options and their values.
    let r = unsafe {
        cuModuleLoadDataEx(
            &mut m,
            text.as_ptr().cast(),
            2,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
    };
    if r == SUCCESS {
        return Ok(m);
    }
    let end = log.iter().position(|&b| b == 0).unwrap_or(0);
    Err((r, String::from_utf8_lossy(&log[..end]).into_owned()))
}

const WRITE_TID: &str = ".version 7.8\n.target sm_80\n.address_size 64\n\
.visible .entry w(.param .u64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<4>;\n\
ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
st.global.u32 [%rd3], %r1;\nret;\n}\n";

fn function(m: *mut c_void, name: &CStr) -> *mut c_void {
    let mut f = std::ptr::null_mut();
    // SAFETY: a loaded module and a NUL-terminated name.
    let r = unsafe { cuModuleGetFunction(&mut f, m, name.as_ptr()) };
    assert_eq!(r, SUCCESS);
    f
}

fn launch(f: *mut c_void, threads: u32, arg: &mut u64) -> Code {
    let mut args = [(arg as *mut u64).cast::<c_void>()];
    // SAFETY: one parameter, a u64.
    unsafe {
        cuLaunchKernel(
            f,
            1,
            1,
            1,
            threads,
            1,
            1,
            0,
            std::ptr::null_mut(),
            args.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    }
}

fn error_string(code: Code) -> String {
    let mut p: *const c_char = std::ptr::null();
    // SAFETY: an out-pointer; the driver returns a static string.
    unsafe {
        assert_eq!(cuGetErrorString(code, &mut p), SUCCESS);
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

#[test]
fn a_kernel_runs_and_a_faulting_one_fails_its_context() {
    let _ctx = context();
    let m = load(WRITE_TID).unwrap();
    let f = function(m, c"w");
    let mut p = alloc(4 * 32);
    assert_eq!(launch(f, 32, &mut p), SUCCESS);
    // SAFETY: no arguments.
    assert_eq!(unsafe { cuCtxSynchronize() }, SUCCESS);
    let words: Vec<u32> = peek(p, 128)
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(words, (0..32).collect::<Vec<u32>>());
    // 33 threads write past the 128 bytes: an illegal address, sticky.
    assert_eq!(launch(f, 33, &mut p), SUCCESS);
    // SAFETY: no arguments.
    assert_eq!(unsafe { cuCtxSynchronize() }, ILLEGAL_ADDRESS);
    let text = error_string(ILLEGAL_ADDRESS);
    assert!(
        text.contains("kernel `w`, block (0, 0, 0), thread (32, 0, 0), PTX line 12"),
        "{text}"
    );
    let mut q = 0u64;
    // SAFETY: an out-pointer.
    assert_eq!(unsafe { cuMemAlloc_v2(&mut q, 4) }, ILLEGAL_ADDRESS);
}

#[test]
fn launches_and_loads_are_refused_with_the_drivers_codes() {
    let _ctx = context();
    let m = load(WRITE_TID).unwrap();
    let f = function(m, c"w");
    let mut p = alloc(4 * 32);
    assert_eq!(launch(f, 2048, &mut p), INVALID_VALUE);
    let (code, log) = load(".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k() { frobnicate.u32 %r1; }").unwrap_err();
    assert_eq!(code, INVALID_PTX);
    assert!(log.contains("line 4"), "{log}");
    let (code, _) = load(&WRITE_TID.replace(".version 7.8", ".version 9.9")).unwrap_err();
    assert_eq!(code, UNSUPPORTED_PTX_VERSION);
    let (code, _) = load(&WRITE_TID.replace("sm_80", "sm_90")).unwrap_err();
    assert_eq!(code, NO_BINARY_FOR_GPU);
    let mut q = 0u64;
    // SAFETY: an out-pointer.
    assert_eq!(unsafe { cuMemAlloc_v2(&mut q, 1 << 50) }, OUT_OF_MEMORY);
    let mut g = std::ptr::null_mut();
    // SAFETY: a loaded module and a NUL-terminated name.
    let r = unsafe { cuModuleGetFunction(&mut g, m, c"missing".as_ptr()) };
    assert_eq!(r, NOT_FOUND);
}
