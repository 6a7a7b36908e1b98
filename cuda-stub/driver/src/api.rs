//! The driver API functions the stand-in implements, with the real driver's
//! C signatures. Every other function of the API is exported too and
//! returns `CUDA_ERROR_NOT_SUPPORTED` (`build.rs`).

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char, c_int, c_uint, c_void};
use std::sync::Arc;

use crate::codes::*;
use crate::device::{Block, Event, Function, ModuleEntry, SMS, Source, Stream, Work, driver};

type Handle = *mut c_void;
type Result<T> = std::result::Result<T, Code>;

thread_local! {
    /// The context stack of the calling thread (the last is current).
    static CURRENT: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

fn current() -> Result<u64> {
    let ctx = CURRENT
        .with(|c| c.borrow().last().copied())
        .ok_or(INVALID_CONTEXT)?;
    let d = driver();
    if !d.state().contexts.contains_key(&ctx) {
        return Err(INVALID_CONTEXT);
    }
    d.sticky(ctx)?;
    Ok(ctx)
}

fn initialized() -> Result<()> {
    if driver().state().initialized {
        Ok(())
    } else {
        Err(NOT_INITIALIZED)
    }
}

fn code(r: Result<()>) -> Code {
    match r {
        Ok(()) => SUCCESS,
        Err(c) => c,
    }
}

/// Writes `v` through an out-pointer, refusing a null one.
///
/// # Safety
/// `p` is null or valid for a write of `T`.
unsafe fn put<T>(p: *mut T, v: T) -> Result<()> {
    if p.is_null() {
        return Err(INVALID_VALUE);
    }
    // SAFETY: non-null, and valid by the caller's contract.
    unsafe { p.write(v) };
    Ok(())
}

fn device_of(dev: c_int) -> Result<u32> {
    initialized()?;
    if dev < 0 || dev as u32 >= driver().devices {
        return Err(INVALID_DEVICE);
    }
    Ok(dev as u32)
}

/// The stream a handle names in context `ctx` (0, 1 and 2 are the default
/// streams, taken as the context's legacy stream).
fn stream_of(ctx: u64, h: Handle) -> Result<u64> {
    let h = h as u64;
    let st = driver().state();
    if h <= 2 {
        return Ok(st.contexts[&ctx].legacy);
    }
    match st.streams.get(&h) {
        Some(s) if s.ctx == ctx => Ok(h),
        Some(_) => Err(INVALID_CONTEXT),
        None => Err(INVALID_HANDLE),
    }
}

// ---------------------------------------------------------------- errors

/// The message of the failure a context keeps, for `cuGetErrorString`.
fn failure_message(code: Code) -> Option<String> {
    let ctx = CURRENT.with(|c| c.borrow().last().copied())?;
    let st = driver().state();
    let (c, message) = st.contexts.get(&ctx)?.sticky.as_ref()?;
    (*c == code && !message.is_empty()).then(|| message.clone())
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuGetErrorName(error: Code, p: *mut *const c_char) -> Code {
    let Some((name, _)) = describe(error) else {
        return INVALID_VALUE;
    };
    let name = leak(name.to_string());
    // SAFETY: the caller's out-pointer.
    code(unsafe { put(p, name) })
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuGetErrorString(error: Code, p: *mut *const c_char) -> Code {
    let Some((_, text)) = describe(error) else {
        return INVALID_VALUE;
    };
    let text = match failure_message(error) {
        Some(m) => format!("{text} (CUDA stand-in: {m})"),
        None => text.to_string(),
    };
    // SAFETY: the caller's out-pointer.
    code(unsafe { put(p, leak(text)) })
}

/// A NUL-terminated copy of `s` that lives for the process, one per text.
fn leak(s: String) -> *const c_char {
    static TEXTS: std::sync::Mutex<Vec<CString>> = std::sync::Mutex::new(Vec::new());
    let mut texts = TEXTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(t) = texts.iter().find(|t| t.to_bytes() == s.as_bytes()) {
        return t.as_ptr();
    }
    let c = CString::new(s).unwrap_or_default();
    let p = c.as_ptr();
    texts.push(c);
    p
}

// ------------------------------------------------------ driver and devices

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuInit(flags: c_uint) -> Code {
    if flags != 0 {
        return INVALID_VALUE;
    }
    let d = driver();
    let mut st = d.state();
    if !st.initialized {
        st.initialized = true;
        st.primary = vec![(None, 0); d.devices as usize];
        st.used = vec![0; d.devices as usize];
    }
    SUCCESS
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDriverGetVersion(v: *mut c_int) -> Code {
    // SAFETY: the caller's out-pointer.
    code(unsafe { put(v, 13000) })
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDeviceGetCount(n: *mut c_int) -> Code {
    code(initialized().and_then(|()| {
        // SAFETY: the caller's out-pointer.
        unsafe { put(n, driver().devices as c_int) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDeviceGet(dev: *mut c_int, ordinal: c_int) -> Code {
    code(device_of(ordinal).and_then(|d| {
        // SAFETY: the caller's out-pointer.
        unsafe { put(dev, d as c_int) }
    }))
}

/// The name each device reports.
fn device_name(d: u32) -> String {
    format!("axial CUDA stand-in {d} (sm_80, kernels run on the CPU)")
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: c_int) -> Code {
    code(device_of(dev).and_then(|d| {
        if name.is_null() || len <= 0 {
            return Err(INVALID_VALUE);
        }
        let text = device_name(d);
        let n = text.len().min(len as usize - 1);
        // SAFETY: the caller's buffer of `len` bytes; n + 1 <= len.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr().cast(), name, n);
            *name.add(n) = 0;
        }
        Ok(())
    }))
}

/// Device attributes: an A100-like sm_80 part with few multiprocessors.
fn attribute(a: c_int) -> Option<c_int> {
    Some(match a {
        1 => 1024,
        2 | 3 => 1024,
        4 => 64,
        5 => i32::MAX,
        6 | 7 => 65535,
        8 => 48 * 1024,
        9 => 64 * 1024,
        10 => 32,
        11 => i32::MAX,
        12 => 65536,
        13 => 1_410_000,
        14 => 512,
        15 => 1,
        16 => SMS,
        17 | 18 => 0,
        19 => 1,
        20 => 0,
        30 => 512,
        31 | 32 => 1,
        33..=35 => 0,
        36 => 1_215_000,
        37 => 5120,
        38 => 40 << 20,
        39 => 2048,
        40 => 2,
        41 => 1,
        50 => 0,
        51 => 32,
        75 => 8,
        76 => 0,
        78..=80 => 1,
        81 => 164 * 1024,
        82 => 65536,
        83 => 0,
        84 | 85 => 0,
        86 => 0,
        87 => 2,
        88..=94 => 0,
        95 => 1,
        96 => 0,
        97 => 163 * 1024,
        98 => 0,
        99 => 1,
        100..=105 => 0,
        106 => 32,
        107..=110 => 0,
        111 => 1024,
        112..=119 => 0,
        21..=29 | 42..=49 | 52..=74 | 77 => 0,
        _ => return None,
    })
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDeviceGetAttribute(
    pi: *mut c_int,
    attrib: c_int,
    dev: c_int,
) -> Code {
    code(device_of(dev).and_then(|_| {
        let v = attribute(attrib).ok_or(INVALID_VALUE)?;
        // SAFETY: the caller's out-pointer.
        unsafe { put(pi, v) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: c_int) -> Code {
    code(device_of(dev).and_then(|_| {
        // SAFETY: the caller's out-pointer.
        unsafe { put(bytes, driver().memory as usize) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDeviceComputeCapability(
    major: *mut c_int,
    minor: *mut c_int,
    dev: c_int,
) -> Code {
    code(device_of(dev).and_then(|_| {
        // SAFETY: the caller's out-pointers.
        unsafe {
            put(major, 8)?;
            put(minor, 0)
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDeviceGetUuid(uuid: *mut [u8; 16], dev: c_int) -> Code {
    code(device_of(dev).and_then(|d| {
        let mut u = *b"axial-stand-in-0";
        u[15] = b'0' + d as u8;
        // SAFETY: the caller's out-pointer.
        unsafe { put(uuid, u) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDeviceGetUuid_v2(uuid: *mut [u8; 16], dev: c_int) -> Code {
    // SAFETY: the same contract.
    unsafe { cuDeviceGetUuid(uuid, dev) }
}

// ---------------------------------------------------------------- contexts

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDevicePrimaryCtxRetain(pctx: *mut Handle, dev: c_int) -> Code {
    code(device_of(dev).and_then(|d| {
        let mut st = driver().state();
        let ctx = match st.primary[d as usize].0 {
            Some(c) => c,
            None => {
                let c = st.new_context(d, 0);
                st.primary[d as usize].0 = Some(c);
                c
            }
        };
        st.primary[d as usize].1 += 1;
        // SAFETY: the caller's out-pointer.
        unsafe { put(pctx, ctx as Handle) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: c_int) -> Code {
    code(device_of(dev).and_then(|d| {
        let mut st = driver().state();
        let refs = &mut st.primary[d as usize].1;
        if *refs == 0 {
            return Err(INVALID_CONTEXT);
        }
        // The context stays (its state is kept while the process runs).
        *refs -= 1;
        Ok(())
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDevicePrimaryCtxRelease(dev: c_int) -> Code {
    // SAFETY: no pointers.
    unsafe { cuDevicePrimaryCtxRelease_v2(dev) }
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDevicePrimaryCtxGetState(
    dev: c_int,
    flags: *mut c_uint,
    active: *mut c_int,
) -> Code {
    code(device_of(dev).and_then(|d| {
        let st = driver().state();
        let (ctx, refs) = st.primary[d as usize];
        let f = ctx.map_or(0, |c| st.contexts[&c].flags);
        // SAFETY: the caller's out-pointers.
        unsafe {
            put(flags, f)?;
            put(active, (refs > 0) as c_int)
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuDevicePrimaryCtxSetFlags_v2(dev: c_int, flags: c_uint) -> Code {
    code(device_of(dev).map(|d| {
        let mut st = driver().state();
        if let Some(c) = st.primary[d as usize].0 {
            st.contexts.get_mut(&c).expect("a live context").flags = flags;
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxCreate_v2(
    pctx: *mut Handle,
    flags: c_uint,
    dev: c_int,
) -> Code {
    code(device_of(dev).and_then(|d| {
        let ctx = driver().state().new_context(d, flags);
        CURRENT.with(|c| c.borrow_mut().push(ctx));
        // SAFETY: the caller's out-pointer.
        unsafe { put(pctx, ctx as Handle) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxDestroy_v2(ctx: Handle) -> Code {
    let ctx = ctx as u64;
    let d = driver();
    if !d.state().contexts.contains_key(&ctx) {
        return INVALID_CONTEXT;
    }
    let _ = d.sync_context(ctx);
    let mut st = d.state();
    st.contexts.remove(&ctx);
    st.streams.retain(|_, s| s.ctx != ctx);
    st.events.retain(|_, e| e.ctx != ctx);
    st.modules.retain(|_, m| m.ctx != ctx);
    CURRENT.with(|c| c.borrow_mut().retain(|&x| x != ctx));
    SUCCESS
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxSetCurrent(ctx: Handle) -> Code {
    let ctx = ctx as u64;
    if ctx != 0 && !driver().state().contexts.contains_key(&ctx) {
        return INVALID_CONTEXT;
    }
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        c.pop();
        if ctx != 0 {
            c.push(ctx);
        }
    });
    SUCCESS
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxGetCurrent(pctx: *mut Handle) -> Code {
    let ctx = CURRENT.with(|c| c.borrow().last().copied()).unwrap_or(0);
    // SAFETY: the caller's out-pointer.
    code(unsafe { put(pctx, ctx as Handle) })
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxPushCurrent_v2(ctx: Handle) -> Code {
    let ctx = ctx as u64;
    if !driver().state().contexts.contains_key(&ctx) {
        return INVALID_CONTEXT;
    }
    CURRENT.with(|c| c.borrow_mut().push(ctx));
    SUCCESS
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxPopCurrent_v2(pctx: *mut Handle) -> Code {
    match CURRENT.with(|c| c.borrow_mut().pop()) {
        None => INVALID_CONTEXT,
        Some(ctx) if !pctx.is_null() => {
            // SAFETY: a non-null out-pointer of the caller.
            unsafe { pctx.write(ctx as Handle) };
            SUCCESS
        }
        Some(_) => SUCCESS,
    }
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxGetDevice(dev: *mut c_int) -> Code {
    code(current().and_then(|ctx| {
        let d = driver().state().contexts[&ctx].device;
        // SAFETY: the caller's out-pointer.
        unsafe { put(dev, d as c_int) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxGetFlags(flags: *mut c_uint) -> Code {
    code(current().and_then(|ctx| {
        let f = driver().state().contexts[&ctx].flags;
        // SAFETY: the caller's out-pointer.
        unsafe { put(flags, f) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxGetApiVersion(ctx: Handle, v: *mut c_uint) -> Code {
    if !driver().state().contexts.contains_key(&(ctx as u64)) {
        return INVALID_CONTEXT;
    }
    // SAFETY: the caller's out-pointer.
    code(unsafe { put(v, 3020) })
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxSynchronize() -> Code {
    code(current().and_then(|ctx| driver().sync_context(ctx)))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuCtxGetStreamPriorityRange(
    least: *mut c_int,
    greatest: *mut c_int,
) -> Code {
    code(current().map(|_| {
        // SAFETY: out-pointers of the caller, either may be null.
        unsafe {
            if !least.is_null() {
                least.write(0);
            }
            if !greatest.is_null() {
                greatest.write(-5);
            }
        }
    }))
}

// ------------------------------------------------------------------ memory

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemAlloc_v2(dptr: *mut u64, bytes: usize) -> Code {
    code(current().and_then(|ctx| {
        let d = driver();
        let dev = d.state().contexts[&ctx].device;
        let a = d.alloc(dev, bytes as u64)?;
        // SAFETY: the caller's out-pointer.
        unsafe { put(dptr, a) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemFree_v2(dptr: u64) -> Code {
    if dptr == 0 {
        return SUCCESS;
    }
    code(current().and_then(|_| {
        let d = driver();
        match d.find(dptr, 1) {
            Some((base, _, _)) if base == dptr => d.free(dptr),
            _ => Err(INVALID_VALUE),
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> Code {
    code(current().and_then(|ctx| {
        let d = driver();
        let st = d.state();
        let used = st.used[st.contexts[&ctx].device as usize];
        // SAFETY: the caller's out-pointers.
        unsafe {
            put(free, (d.memory - used) as usize)?;
            put(total, d.memory as usize)
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemGetAddressRange_v2(
    pbase: *mut u64,
    psize: *mut usize,
    dptr: u64,
) -> Code {
    code(current().and_then(|_| {
        let (base, len, _) = driver().find(dptr, 1).ok_or(NOT_FOUND)?;
        // SAFETY: out-pointers of the caller, either may be null.
        unsafe {
            if !pbase.is_null() {
                pbase.write(base);
            }
            if !psize.is_null() {
                psize.write(len as usize);
            }
        }
        Ok(())
    }))
}

/// Page-locks `len` host bytes at `p` (`block` holds them when the driver
/// allocated them).
fn pin(p: u64, len: u64, block: Option<Block>) -> Result<()> {
    if p == 0 || len == 0 {
        return Err(INVALID_VALUE);
    }
    let mut st = driver().state();
    let overlaps = st
        .pinned
        .range(..p + len)
        .next_back()
        .is_some_and(|(&b, &(n, _))| b + n > p);
    if overlaps {
        return Err(HOST_MEMORY_ALREADY_REGISTERED);
    }
    st.pinned.insert(p, (len, block));
    Ok(())
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemHostRegister_v2(
    p: *mut c_void,
    bytes: usize,
    _flags: c_uint,
) -> Code {
    code(current().and_then(|_| pin(p as u64, bytes as u64, None)))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemHostUnregister(p: *mut c_void) -> Code {
    code(current().and_then(|_| {
        let mut st = driver().state();
        match st.pinned.get(&(p as u64)) {
            Some((_, None)) => {
                st.pinned.remove(&(p as u64));
                Ok(())
            }
            _ => Err(HOST_MEMORY_NOT_REGISTERED),
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemHostAlloc(
    pp: *mut *mut c_void,
    bytes: usize,
    _flags: c_uint,
) -> Code {
    code(current().and_then(|_| {
        let block = Block::new(bytes).ok_or(OUT_OF_MEMORY)?;
        let a = block.addr();
        pin(a, bytes.max(1) as u64, Some(block))?;
        // SAFETY: the caller's out-pointer.
        unsafe { put(pp, a as *mut c_void) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemAllocHost_v2(pp: *mut *mut c_void, bytes: usize) -> Code {
    // SAFETY: the same contract.
    unsafe { cuMemHostAlloc(pp, bytes, 0) }
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemFreeHost(p: *mut c_void) -> Code {
    code(current().and_then(|ctx| {
        let d = driver();
        d.sync_context(ctx)?;
        let mut st = d.state();
        match st.pinned.get(&(p as u64)) {
            Some((_, Some(_))) => {
                st.pinned.remove(&(p as u64));
                Ok(())
            }
            _ => Err(INVALID_VALUE),
        }
    }))
}

/// Checks that `len` bytes at device address `a` are allocated.
fn device_range(a: u64, len: usize) -> Result<()> {
    driver()
        .find(a, len as u64)
        .map(|_| ())
        .ok_or(INVALID_VALUE)
}

/// Queues a copy on `stream` of context `ctx`; when `wait`, runs it.
fn copy(ctx: u64, stream: u64, dst: u64, src: Source, len: usize, wait: bool) -> Result<()> {
    if len == 0 {
        return Ok(());
    }
    let d = driver();
    let seq = d.state().push(stream, Work::Copy { dst, src, len });
    if wait {
        d.sync_stream(stream, seq)?;
        d.sticky(ctx)?;
    }
    Ok(())
}

fn htod(dst: u64, src: *const c_void, len: usize, stream: Handle, sync: bool) -> Result<()> {
    let ctx = current()?;
    let s = stream_of(ctx, stream)?;
    device_range(dst, len)?;
    if src.is_null() {
        return Err(INVALID_VALUE);
    }
    let pinned = driver().state().is_pinned(src as u64, len as u64);
    let source = if pinned {
        Source::At(src as u64)
    } else {
        // Pageable memory is staged when the copy is queued.
        // SAFETY: the caller's `len` readable bytes.
        Source::Bytes(unsafe { std::slice::from_raw_parts(src.cast::<u8>(), len) }.to_vec())
    };
    copy(ctx, s, dst, source, len, sync)
}

fn dtoh(dst: *mut c_void, src: u64, len: usize, stream: Handle, sync: bool) -> Result<()> {
    let ctx = current()?;
    let s = stream_of(ctx, stream)?;
    device_range(src, len)?;
    if dst.is_null() {
        return Err(INVALID_VALUE);
    }
    // Into pageable memory the copy completes before the call returns.
    let pinned = driver().state().is_pinned(dst as u64, len as u64);
    copy(ctx, s, dst as u64, Source::At(src), len, sync || !pinned)
}

fn dtod(dst: u64, src: u64, len: usize, stream: Handle, sync: bool) -> Result<()> {
    let ctx = current()?;
    let s = stream_of(ctx, stream)?;
    device_range(dst, len)?;
    device_range(src, len)?;
    copy(ctx, s, dst, Source::At(src), len, sync)
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemcpyHtoD_v2(dst: u64, src: *const c_void, n: usize) -> Code {
    code(htod(dst, src, n, std::ptr::null_mut(), true))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemcpyDtoH_v2(dst: *mut c_void, src: u64, n: usize) -> Code {
    code(dtoh(dst, src, n, std::ptr::null_mut(), true))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemcpyDtoD_v2(dst: u64, src: u64, n: usize) -> Code {
    code(dtod(dst, src, n, std::ptr::null_mut(), true))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemcpyHtoDAsync_v2(
    dst: u64,
    src: *const c_void,
    n: usize,
    stream: Handle,
) -> Code {
    code(htod(dst, src, n, stream, false))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemcpyDtoHAsync_v2(
    dst: *mut c_void,
    src: u64,
    n: usize,
    stream: Handle,
) -> Code {
    code(dtoh(dst, src, n, stream, false))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemcpyDtoDAsync_v2(
    dst: u64,
    src: u64,
    n: usize,
    stream: Handle,
) -> Code {
    code(dtod(dst, src, n, stream, false))
}

/// A unified-addressing copy: each side is device memory when allocated.
fn unified(dst: u64, src: u64, n: usize, stream: Handle, sync: bool) -> Result<()> {
    let d = driver();
    match (
        d.find(dst, n as u64).is_some(),
        d.find(src, n as u64).is_some(),
    ) {
        (true, true) => dtod(dst, src, n, stream, sync),
        (true, false) => htod(dst, src as *const c_void, n, stream, sync),
        (false, true) => dtoh(dst as *mut c_void, src, n, stream, sync),
        (false, false) => Err(INVALID_VALUE),
    }
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemcpy(dst: u64, src: u64, n: usize) -> Code {
    code(unified(dst, src, n, std::ptr::null_mut(), true))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemcpyAsync(
    dst: u64,
    src: u64,
    n: usize,
    stream: Handle,
) -> Code {
    code(unified(dst, src, n, stream, false))
}

fn memset(
    dst: u64,
    value: u32,
    size: usize,
    count: usize,
    stream: Handle,
    sync: bool,
) -> Result<()> {
    let ctx = current()?;
    let s = stream_of(ctx, stream)?;
    if count == 0 {
        return Ok(());
    }
    if !dst.is_multiple_of(size as u64) {
        return Err(INVALID_VALUE);
    }
    device_range(dst, size * count)?;
    let d = driver();
    let seq = d.state().push(
        s,
        Work::Memset {
            dst,
            value,
            size,
            count,
        },
    );
    if sync {
        d.sync_stream(s, seq)?;
        d.sticky(ctx)?;
    }
    Ok(())
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemsetD8_v2(dst: u64, v: u8, n: usize) -> Code {
    code(memset(dst, v as u32, 1, n, std::ptr::null_mut(), true))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemsetD16_v2(dst: u64, v: u16, n: usize) -> Code {
    code(memset(dst, v as u32, 2, n, std::ptr::null_mut(), true))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemsetD32_v2(dst: u64, v: u32, n: usize) -> Code {
    code(memset(dst, v, 4, n, std::ptr::null_mut(), true))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemsetD8Async(dst: u64, v: u8, n: usize, stream: Handle) -> Code {
    code(memset(dst, v as u32, 1, n, stream, false))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemsetD16Async(
    dst: u64,
    v: u16,
    n: usize,
    stream: Handle,
) -> Code {
    code(memset(dst, v as u32, 2, n, stream, false))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuMemsetD32Async(
    dst: u64,
    v: u32,
    n: usize,
    stream: Handle,
) -> Code {
    code(memset(dst, v, 4, n, stream, false))
}

// ----------------------------------------------------------------- streams

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuStreamCreateWithPriority(
    ps: *mut Handle,
    flags: c_uint,
    priority: c_int,
) -> Code {
    code(current().and_then(|ctx| {
        if flags > 1 {
            return Err(INVALID_VALUE);
        }
        let mut st = driver().state();
        let h = st.handle();
        st.streams
            .insert(h, Stream::new(ctx, flags, priority.clamp(-5, 0)));
        // SAFETY: the caller's out-pointer.
        unsafe { put(ps, h as Handle) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuStreamCreate(ps: *mut Handle, flags: c_uint) -> Code {
    // SAFETY: the same contract.
    unsafe { cuStreamCreateWithPriority(ps, flags, 0) }
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuStreamDestroy_v2(s: Handle) -> Code {
    code(current().and_then(|ctx| {
        let h = stream_of(ctx, s)?;
        let d = driver();
        if h == d.state().contexts[&ctx].legacy {
            return Err(INVALID_HANDLE);
        }
        // Its work runs first (the driver lets it finish).
        let upto = d.state().streams[&h].submitted;
        let r = d.sync_stream(h, upto);
        d.state().streams.remove(&h);
        r
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuStreamSynchronize(s: Handle) -> Code {
    code(current().and_then(|ctx| {
        let h = stream_of(ctx, s)?;
        let d = driver();
        let upto = d.state().streams[&h].submitted;
        d.sync_stream(h, upto)?;
        d.sticky(ctx)
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuStreamQuery(s: Handle) -> Code {
    code(current().and_then(|ctx| {
        let h = stream_of(ctx, s)?;
        let d = driver();
        let upto = d.state().streams[&h].submitted;
        if d.poll(h, upto)? {
            Ok(())
        } else {
            Err(NOT_READY)
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuStreamWaitEvent(s: Handle, e: Handle, _flags: c_uint) -> Code {
    code(current().and_then(|ctx| {
        let h = stream_of(ctx, s)?;
        let mut st = driver().state();
        let ev = st.events.get(&(e as u64)).ok_or(INVALID_HANDLE)?;
        // An event never recorded is complete: nothing to wait for.
        if let Some((stream, seq)) = ev.recorded {
            st.push(h, Work::Wait { stream, seq });
        }
        Ok(())
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuStreamGetFlags(s: Handle, flags: *mut c_uint) -> Code {
    code(current().and_then(|ctx| {
        let h = stream_of(ctx, s)?;
        let f = driver().state().streams[&h].flags;
        // SAFETY: the caller's out-pointer.
        unsafe { put(flags, f) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuStreamGetPriority(s: Handle, p: *mut c_int) -> Code {
    code(current().and_then(|ctx| {
        let h = stream_of(ctx, s)?;
        let v = driver().state().streams[&h].priority;
        // SAFETY: the caller's out-pointer.
        unsafe { put(p, v) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuStreamGetCtx(s: Handle, pctx: *mut Handle) -> Code {
    code(current().and_then(|ctx| {
        stream_of(ctx, s)?;
        // SAFETY: the caller's out-pointer.
        unsafe { put(pctx, ctx as Handle) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuLaunchHostFunc(
    s: Handle,
    f: Option<unsafe extern "C" fn(*mut c_void)>,
    data: *mut c_void,
) -> Code {
    code(current().and_then(|ctx| {
        let h = stream_of(ctx, s)?;
        let f = f.ok_or(INVALID_VALUE)?;
        driver().state().push(
            h,
            Work::Host {
                f,
                data: data as usize,
            },
        );
        Ok(())
    }))
}

// ------------------------------------------------------------------ events

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuEventCreate(pe: *mut Handle, flags: c_uint) -> Code {
    code(current().and_then(|ctx| {
        let mut st = driver().state();
        let h = st.handle();
        st.events.insert(
            h,
            Event {
                ctx,
                timing: flags & 2 == 0,
                recorded: None,
                at: None,
            },
        );
        // SAFETY: the caller's out-pointer.
        unsafe { put(pe, h as Handle) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuEventRecord(e: Handle, s: Handle) -> Code {
    code(current().and_then(|ctx| {
        let h = stream_of(ctx, s)?;
        let mut st = driver().state();
        let e = e as u64;
        if !st.events.contains_key(&e) {
            return Err(INVALID_HANDLE);
        }
        let seq = st.push(h, Work::Record { event: e });
        let ev = st.events.get_mut(&e).expect("checked");
        ev.recorded = Some((h, seq));
        ev.at = None;
        Ok(())
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuEventRecordWithFlags(
    e: Handle,
    s: Handle,
    _flags: c_uint,
) -> Code {
    // SAFETY: the same contract.
    unsafe { cuEventRecord(e, s) }
}

fn event_place(e: Handle) -> Result<Option<(u64, u64)>> {
    let st = driver().state();
    Ok(st.events.get(&(e as u64)).ok_or(INVALID_HANDLE)?.recorded)
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuEventQuery(e: Handle) -> Code {
    code(current().and_then(|_| match event_place(e)? {
        None => Ok(()),
        Some((s, seq)) => {
            if driver().poll(s, seq)? {
                Ok(())
            } else {
                Err(NOT_READY)
            }
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuEventSynchronize(e: Handle) -> Code {
    code(current().and_then(|ctx| {
        if let Some((s, seq)) = event_place(e)? {
            driver().sync_stream(s, seq)?;
        }
        driver().sticky(ctx)
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuEventDestroy_v2(e: Handle) -> Code {
    match driver().state().events.remove(&(e as u64)) {
        Some(_) => SUCCESS,
        None => INVALID_HANDLE,
    }
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuEventElapsedTime(
    ms: *mut f32,
    start: Handle,
    end: Handle,
) -> Code {
    code(current().and_then(|_| {
        let st = driver().state();
        let (a, b) = (
            st.events.get(&(start as u64)).ok_or(INVALID_HANDLE)?,
            st.events.get(&(end as u64)).ok_or(INVALID_HANDLE)?,
        );
        if !a.timing || !b.timing || a.recorded.is_none() || b.recorded.is_none() {
            return Err(INVALID_HANDLE);
        }
        let (Some(ta), Some(tb)) = (a.at, b.at) else {
            return Err(NOT_READY);
        };
        let t = if tb >= ta {
            tb.duration_since(ta).as_secs_f64() * 1e3
        } else {
            -(ta.duration_since(tb).as_secs_f64() * 1e3)
        };
        // SAFETY: the caller's out-pointer.
        unsafe { put(ms, t as f32) }
    }))
}

// ----------------------------------------------------------------- modules

/// The highest PTX ISA version the stand-in (like driver 580, CUDA 13.0) takes.
const PTX_MAX: (u32, u32) = (9, 0);

/// `text` with the mutation `AXIAL_STAND_IN_MUTATE=<kernel>:<old>:<new>`
/// applied: the first `<old>` in kernel `<kernel>`'s body replaced by
/// `<new>`. A test of the tests: a suite run with a mutated kernel must
/// fail.
fn mutate(text: &str) -> std::borrow::Cow<'_, str> {
    let Ok(spec) = std::env::var("AXIAL_STAND_IN_MUTATE") else {
        return text.into();
    };
    let mut parts = spec.splitn(3, ':');
    let (Some(kernel), Some(old), Some(new)) = (parts.next(), parts.next(), parts.next()) else {
        return text.into();
    };
    let Some(start) = text.find(&format!(".entry {kernel}(")) else {
        return text.into();
    };
    let end = text[start..].find("\n}").map_or(text.len(), |e| start + e);
    let Some(at) = text[start..end].find(old).map(|a| start + a) else {
        return text.into();
    };
    eprintln!(
        "CUDA stand-in: kernel `{kernel}` mutated: `{old}` replaced by `{new}` (AXIAL_STAND_IN_MUTATE)"
    );
    format!("{}{new}{}", &text[..at], &text[at + old.len()..]).into()
}

/// Loads PTX text into context `ctx`: every kernel decoded now (the driver
/// compiles the whole module at load), its global variables allocated.
fn load(ctx: u64, text: &str) -> std::result::Result<u64, (Code, String)> {
    let d = driver();
    let text = mutate(text);
    let mut m = axial_ptx::Module::parse(&text).map_err(|e| (INVALID_PTX, e.to_string()))?;
    if m.version() > PTX_MAX {
        let (a, b) = m.version();
        return Err((
            UNSUPPORTED_PTX_VERSION,
            format!(
                "PTX ISA {a}.{b} is newer than the driver's {}.{}",
                PTX_MAX.0, PTX_MAX.1
            ),
        ));
    }
    let arch: u32 = m
        .target()
        .strip_prefix("sm_")
        .and_then(|t| t.trim_end_matches(|c: char| c.is_alphabetic()).parse().ok())
        .unwrap_or(0);
    if arch > 80 {
        return Err((
            NO_BINARY_FOR_GPU,
            format!("target {} is above the device's sm_80", m.target()),
        ));
    }
    let dev = d.state().contexts[&ctx].device;
    let mut globals = vec![];
    let mut addrs = vec![];
    for g in m.globals() {
        let a = d
            .alloc(dev, g.size.max(1))
            .map_err(|c| (c, "global variables".into()))?;
        // SAFETY: a fresh allocation of at least `g.init.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(g.init.as_ptr(), a as *mut u8, g.init.len()) };
        addrs.push(a);
        globals.push((g.name.clone(), a, g.size));
    }
    m.set_global_addresses(&addrs);
    let names: Vec<String> = m.kernel_names().map(str::to_string).collect();
    for k in &names {
        m.kernel(k)
            .map_err(|e| (INVALID_PTX, format!("{k}: {e}")))?;
    }
    let mut st = d.state();
    let h = st.handle();
    st.modules.insert(
        h,
        ModuleEntry {
            ctx,
            module: Arc::new(m),
            globals,
        },
    );
    Ok(h)
}

/// The JIT options of `cuModuleLoadDataEx` the stand-in honours: the error
/// log buffer and its size.
///
/// # Safety
/// `n` options and values, as the driver API describes them.
unsafe fn error_log(
    n: c_uint,
    options: *const c_int,
    values: *const *mut c_void,
) -> Option<(*mut u8, usize)> {
    if n == 0 || options.is_null() || values.is_null() {
        return None;
    }
    let (mut buf, mut size) = (std::ptr::null_mut(), 0usize);
    for k in 0..n as usize {
        // SAFETY: `n` entries in each array.
        let (o, v) = unsafe { (*options.add(k), *values.add(k)) };
        match o {
            5 => buf = v.cast::<u8>(),
            6 => size = v as usize,
            _ => {}
        }
    }
    (!buf.is_null() && size > 0).then_some((buf, size))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuModuleLoadDataEx(
    pm: *mut Handle,
    image: *const c_void,
    n: c_uint,
    options: *const c_int,
    values: *const *mut c_void,
) -> Code {
    code(current().and_then(|ctx| {
        if image.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the image is NUL-terminated PTX text.
        let text = unsafe { CStr::from_ptr(image.cast()) };
        let text = text.to_str().map_err(|_| INVALID_IMAGE)?;
        match load(ctx, text) {
            Ok(h) => {
                // SAFETY: the caller's out-pointer.
                unsafe { put(pm, h as Handle) }
            }
            Err((c, message)) => {
                // SAFETY: the options as the caller passed them.
                if let Some((buf, size)) = unsafe { error_log(n, options, values) } {
                    let bytes = message.as_bytes();
                    let k = bytes.len().min(size - 1);
                    // SAFETY: the caller's log buffer of `size` bytes.
                    unsafe {
                        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf, k);
                        *buf.add(k) = 0;
                    }
                }
                Err(c)
            }
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuModuleLoadData(pm: *mut Handle, image: *const c_void) -> Code {
    // SAFETY: the same contract, no options.
    unsafe { cuModuleLoadDataEx(pm, image, 0, std::ptr::null(), std::ptr::null()) }
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuModuleLoad(pm: *mut Handle, path: *const c_char) -> Code {
    if path.is_null() {
        return INVALID_VALUE;
    }
    // SAFETY: a NUL-terminated path.
    let path = unsafe { CStr::from_ptr(path) }
        .to_string_lossy()
        .into_owned();
    let Ok(text) = std::fs::read_to_string(path) else {
        return FILE_NOT_FOUND;
    };
    let Ok(c) = CString::new(text) else {
        return INVALID_IMAGE;
    };
    // SAFETY: NUL-terminated text.
    unsafe { cuModuleLoadData(pm, c.as_ptr().cast()) }
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuModuleUnload(m: Handle) -> Code {
    code(current().and_then(|ctx| {
        let d = driver();
        d.sync_context(ctx)?;
        let entry = d
            .state()
            .modules
            .remove(&(m as u64))
            .ok_or(INVALID_HANDLE)?;
        d.state().functions.retain(|_, f| f.module != m as u64);
        for (_, a, _) in entry.globals {
            d.free(a)?;
        }
        Ok(())
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuModuleGetFunction(
    pf: *mut Handle,
    m: Handle,
    name: *const c_char,
) -> Code {
    code(current().and_then(|_| {
        if name.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: a NUL-terminated name.
        let name = unsafe { CStr::from_ptr(name) }
            .to_string_lossy()
            .into_owned();
        let mut st = driver().state();
        let module = st
            .modules
            .get(&(m as u64))
            .ok_or(INVALID_HANDLE)?
            .module
            .clone();
        let kernel = module.kernel(&name).map_err(|_| NOT_FOUND)?;
        let h = st.handle();
        st.functions.insert(
            h,
            Function {
                module: m as u64,
                kernel,
                max_dynamic_shared: 48 * 1024,
            },
        );
        // SAFETY: the caller's out-pointer.
        unsafe { put(pf, h as Handle) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuModuleGetGlobal_v2(
    dptr: *mut u64,
    bytes: *mut usize,
    m: Handle,
    name: *const c_char,
) -> Code {
    code(current().and_then(|_| {
        if name.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: a NUL-terminated name.
        let name = unsafe { CStr::from_ptr(name) }
            .to_string_lossy()
            .into_owned();
        let st = driver().state();
        let entry = st.modules.get(&(m as u64)).ok_or(INVALID_HANDLE)?;
        let &(_, a, size) = entry
            .globals
            .iter()
            .find(|g| g.0 == name)
            .ok_or(NOT_FOUND)?;
        // SAFETY: out-pointers of the caller, either may be null.
        unsafe {
            if !dptr.is_null() {
                dptr.write(a);
            }
            if !bytes.is_null() {
                bytes.write(size as usize);
            }
        }
        Ok(())
    }))
}

// ----------------------------------------------------------------- kernels

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuFuncGetAttribute(
    pi: *mut c_int,
    attrib: c_int,
    f: Handle,
) -> Code {
    code(current().and_then(|_| {
        let st = driver().state();
        let func = st.functions.get(&(f as u64)).ok_or(INVALID_HANDLE)?;
        let k = &func.kernel;
        let v = match attrib {
            0 => 1024,
            1 => k.static_shared() as c_int,
            2 => 0,
            3 => k.local_size() as c_int,
            4 => 32,
            5 | 6 => 80,
            7 => 0,
            8 => func.max_dynamic_shared as c_int,
            9 => -1,
            _ => return Err(INVALID_VALUE),
        };
        // SAFETY: the caller's out-pointer.
        unsafe { put(pi, v) }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuFuncSetAttribute(f: Handle, attrib: c_int, value: c_int) -> Code {
    code(current().and_then(|_| {
        let mut st = driver().state();
        let func = st.functions.get_mut(&(f as u64)).ok_or(INVALID_HANDLE)?;
        match attrib {
            8 => {
                let limit = 163 * 1024 - func.kernel.static_shared() as c_int;
                if !(0..=limit).contains(&value) {
                    return Err(INVALID_VALUE);
                }
                func.max_dynamic_shared = value as u32;
                Ok(())
            }
            9 => Ok(()),
            _ => Err(INVALID_VALUE),
        }
    }))
}

#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn cuFuncSetCacheConfig(f: Handle, _config: c_int) -> Code {
    code(current().and_then(|_| {
        driver()
            .state()
            .functions
            .get(&(f as u64))
            .map(|_| ())
            .ok_or(INVALID_HANDLE)
    }))
}

/// Checks a launch against sm_80's limits and the function's dynamic
/// shared memory, and builds its parameter buffer.
///
/// # Safety
/// `params` points to one pointer per kernel parameter, each to a value of
/// the parameter's size (or is null when the kernel takes none).
unsafe fn parameters(k: &axial_ptx::Kernel, params: *mut *mut c_void) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; k.param_size() as usize];
    if k.params().is_empty() {
        return Ok(buf);
    }
    if params.is_null() {
        return Err(INVALID_VALUE);
    }
    for (i, p) in k.params().iter().enumerate() {
        // SAFETY: one pointer per parameter (the caller's contract).
        let src = unsafe { *params.add(i) };
        if src.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: `p.size` readable bytes at `src` (the caller's contract).
        let bytes = unsafe { std::slice::from_raw_parts(src.cast::<u8>(), p.size as usize) };
        buf[p.offset as usize..][..p.size as usize].copy_from_slice(bytes);
    }
    Ok(buf)
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn cuLaunchKernel(
    f: Handle,
    gx: c_uint,
    gy: c_uint,
    gz: c_uint,
    bx: c_uint,
    by: c_uint,
    bz: c_uint,
    shared: c_uint,
    s: Handle,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> Code {
    code(current().and_then(|ctx| {
        let h = stream_of(ctx, s)?;
        let d = driver();
        let (kernel, max_dynamic) = {
            let st = d.state();
            let func = st.functions.get(&(f as u64)).ok_or(INVALID_HANDLE)?;
            (func.kernel.clone(), func.max_dynamic_shared)
        };
        let threads = bx as u64 * by as u64 * bz as u64;
        if threads == 0 || threads > 1024 || bx > 1024 || by > 1024 || bz > 64 {
            return Err(INVALID_VALUE);
        }
        if gx == 0 || gy == 0 || gz == 0 || gx > i32::MAX as u32 || gy > 65535 || gz > 65535 {
            return Err(INVALID_VALUE);
        }
        if shared > max_dynamic || kernel.static_shared() + shared > 163 * 1024 {
            return Err(INVALID_VALUE);
        }
        if !extra.is_null() {
            return Err(NOT_SUPPORTED);
        }
        // SAFETY: the caller's parameter pointers.
        let params = unsafe { parameters(&kernel, params)? };
        let device = d.state().contexts[&ctx].device;
        d.state().push(
            h,
            Work::Launch {
                kernel,
                grid: [gx, gy, gz],
                block: [bx, by, bz],
                shared,
                params,
                device,
            },
        );
        Ok(())
    }))
}
