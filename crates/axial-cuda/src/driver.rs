//! The driver: initialisation, one state per device (its primary context,
//! compute stream, loaded modules, allocator and cuBLAS handle), and the
//! conversion of driver results into [`axial_core::Error`].

use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::{CStr, c_void};
use std::sync::{Mutex, OnceLock};

use crate::sys::{self as cu, CUresult};
use axial_core::{Error, Result};

use crate::alloc::Pool;
use crate::blas::Blas;

/// `Err` naming `op` and the driver's error when `r` is not success.
pub(crate) fn check(op: &'static str, r: CUresult) -> Result<()> {
    if r == CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    Err(driver_error(op, r))
}

/// The error of a driver call, with the driver's name and description of it
/// (the stub library of CI names itself).
pub(crate) fn driver_error(op: &'static str, r: CUresult) -> Error {
    let mut name: *const std::ffi::c_char = std::ptr::null();
    let mut text: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: the driver writes a pointer to a static string or leaves null.
    let described = unsafe {
        cu::cuGetErrorName(r, &mut name) == CUresult::CUDA_SUCCESS
            && cu::cuGetErrorString(r, &mut text) == CUresult::CUDA_SUCCESS
    };
    let code = r.0;
    let message = if described && !name.is_null() && !text.is_null() {
        // SAFETY: non-null pointers from the driver to NUL-terminated static strings.
        let (name, text) = unsafe { (CStr::from_ptr(name), CStr::from_ptr(text)) };
        format!(
            "CUDA error {code} {}: {}",
            name.to_string_lossy(),
            text.to_string_lossy()
        )
    } else {
        format!("CUDA error {code}")
    };
    Error::Device { op, message }
}

/// A device error that is not a driver result.
pub(crate) fn device_error(op: &'static str, message: impl Into<String>) -> Error {
    Error::Device {
        op,
        message: message.into(),
    }
}

/// The number of devices, or why there are none (the driver failed to start).
pub(crate) fn device_count() -> Result<usize> {
    static COUNT: OnceLock<std::result::Result<usize, Error>> = OnceLock::new();
    COUNT
        .get_or_init(|| {
            cu::load().map_err(|why| device_error("cuda init", why))?;
            // SAFETY: cuInit may be called any number of times from any thread.
            check("cuda init", unsafe { cu::cuInit(0) })?;
            let mut n = 0i32;
            // SAFETY: writes the count.
            check("cuda device count", unsafe { cu::cuDeviceGetCount(&mut n) })?;
            Ok(n.max(0) as usize)
        })
        .clone()
}

/// A driver handle that may cross threads: the driver's handles are
/// thread-safe, and every use makes the owning context current first.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Handle<T>(pub(crate) T);
// SAFETY: CUDA driver handles (contexts, streams, functions, events) may be
// used from any thread; the driver synchronises internally.
unsafe impl<T> Send for Handle<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for Handle<T> {}

/// A kernel: its handle, its parameters as its PTX declares them, and its
/// static shared memory.
#[derive(Clone, Debug)]
pub(crate) struct Kernel {
    pub(crate) raw: cu::CUfunction,
    pub(crate) params: std::sync::Arc<[crate::launch::ParamType]>,
    pub(crate) static_shared: u32,
}

// SAFETY: a function handle of the driver, usable from any thread.
unsafe impl Send for Kernel {}
// SAFETY: as above.
unsafe impl Sync for Kernel {}

/// Everything a device holds for the process's lifetime.
pub(crate) struct State {
    pub(crate) index: usize,
    context: Handle<cu::CUcontext>,
    /// The stream every kernel and synchronous copy of the device runs on.
    pub(crate) stream: Handle<cu::CUstream>,
    /// Streaming multiprocessors (for launch sizes).
    pub(crate) sms: u32,
    pub(crate) name: String,
    modules: Mutex<HashMap<&'static str, Handle<cu::CUmodule>>>,
    functions: Mutex<HashMap<String, Kernel>>,
    pub(crate) pool: Mutex<Pool>,
    pub(crate) blas: OnceLock<std::result::Result<Blas, Error>>,
    pub(crate) allow_tf32: std::sync::atomic::AtomicBool,
}

thread_local! {
    /// The device whose context is current on this thread, plus one (0: none).
    static CURRENT: Cell<usize> = const { Cell::new(0) };
}

impl State {
    fn new(index: usize) -> Result<State> {
        let mut dev = 0;
        // SAFETY: writes the device handle; `index` is below the count.
        check("cuda device", unsafe {
            cu::cuDeviceGet(&mut dev, index as i32)
        })?;
        let mut ctx = std::ptr::null_mut();
        // SAFETY: retains the device's primary context (the one the CUDA
        // runtime, and so cuBLAS, uses too).
        check("cuda context", unsafe {
            cu::cuDevicePrimaryCtxRetain(&mut ctx, dev)
        })?;
        // SAFETY: a retained context.
        check("cuda context", unsafe { cu::cuCtxSetCurrent(ctx) })?;
        CURRENT.with(|c| c.set(index + 1));
        let mut stream = std::ptr::null_mut();
        // SAFETY: creates a stream in the current context. Non-blocking: it
        // does not synchronise with the legacy default stream, which this
        // crate never uses.
        check("cuda stream", unsafe {
            cu::cuStreamCreate(
                &mut stream,
                cu::CUstream_flags::CU_STREAM_NON_BLOCKING as u32,
            )
        })?;
        let mut sms = 0i32;
        // SAFETY: writes the attribute.
        check("cuda attribute", unsafe {
            cu::cuDeviceGetAttribute(
                &mut sms,
                cu::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                dev,
            )
        })?;
        let mut raw = [0 as std::ffi::c_char; 256];
        // SAFETY: writes at most 256 bytes, NUL-terminated.
        let name = unsafe {
            check(
                "cuda device name",
                cu::cuDeviceGetName(raw.as_mut_ptr(), 256, dev),
            )?;
            CStr::from_ptr(raw.as_ptr()).to_string_lossy().into_owned()
        };
        Ok(State {
            index,
            context: Handle(ctx),
            stream: Handle(stream),
            sms: sms.max(1) as u32,
            name,
            modules: Mutex::new(HashMap::new()),
            functions: Mutex::new(HashMap::new()),
            pool: Mutex::new(Pool::default()),
            blas: OnceLock::new(),
            allow_tf32: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Makes the device's context current on this thread (a no-op when it is).
    pub(crate) fn enter(&self) -> Result<()> {
        if CURRENT.with(Cell::get) == self.index + 1 {
            return Ok(());
        }
        // SAFETY: the context is retained for the process's lifetime.
        check("cuda context", unsafe {
            cu::cuCtxSetCurrent(self.context.0)
        })?;
        CURRENT.with(|c| c.set(self.index + 1));
        Ok(())
    }

    /// Waits until the compute stream has run everything enqueued on it.
    pub(crate) fn synchronize(&self) -> Result<()> {
        self.enter()?;
        // SAFETY: a live stream.
        check("synchronize", unsafe {
            cu::cuStreamSynchronize(self.stream.0)
        })
    }

    /// The kernel `name` of module `module` (compiled by the driver on first
    /// use), with its parameters as the PTX declares them.
    pub(crate) fn function(&self, module: &'static str, name: &str) -> Result<Kernel> {
        if let Some(f) = lock(&self.functions).get(name) {
            return Ok(f.clone());
        }
        self.enter()?;
        let m = self.module(module)?;
        let cname = std::ffi::CString::new(name)
            .map_err(|_| device_error("cuda kernel", format!("bad kernel name {name:?}")))?;
        let mut f = std::ptr::null_mut();
        // SAFETY: a loaded module and a NUL-terminated name.
        let r = unsafe { cu::cuModuleGetFunction(&mut f, m, cname.as_ptr()) };
        if r != CUresult::CUDA_SUCCESS {
            return Err(device_error(
                "cuda kernel",
                format!("no kernel `{name}` in module `{module}` ({:?})", r),
            ));
        }
        let text = crate::ptx::module(module).unwrap_or_default();
        let params = crate::ptx::params(text, name).ok_or_else(|| {
            device_error(
                "cuda kernel",
                format!(
                    "the parameters of `{name}` in module `{module}` are not PTX this crate reads"
                ),
            )
        })?;
        let mut shared = 0i32;
        // SAFETY: a function of a loaded module; writes the attribute.
        check("cuda kernel", unsafe {
            cu::cuFuncGetAttribute(
                &mut shared,
                cu::CUfunction_attribute::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                f,
            )
        })?;
        let kernel = Kernel {
            raw: Handle(f).0,
            params: params.into(),
            static_shared: shared.max(0) as u32,
        };
        lock(&self.functions).insert(name.to_string(), kernel.clone());
        Ok(kernel)
    }

    /// Loads module `name` from the crate's PTX, once.
    fn module(&self, name: &'static str) -> Result<cu::CUmodule> {
        let mut modules = lock(&self.modules);
        if let Some(m) = modules.get(name) {
            return Ok(m.0);
        }
        let ptx = crate::ptx::module(name)
            .ok_or_else(|| device_error("cuda module", format!("no PTX module `{name}`")))?;
        let m = load_ptx(name, ptx)?;
        modules.insert(name, Handle(m));
        Ok(m)
    }
}

/// JIT-compiles PTX text, with the driver's error log in the error.
fn load_ptx(name: &str, ptx: &str) -> Result<cu::CUmodule> {
    let text = std::ffi::CString::new(ptx)
        .map_err(|_| device_error("cuda module", format!("PTX of `{name}` holds a NUL")))?;
    let mut log = vec![0u8; 16 * 1024];
    let mut options = [
        cu::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        cu::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), log.len() as *mut c_void];
    let mut m = std::ptr::null_mut();
    // SAFETY: NUL-terminated PTX; two options with their values (a buffer
    // and its size, passed by value in the pointer as the API specifies).
    let r = unsafe {
        cu::cuModuleLoadDataEx(
            &mut m,
            text.as_ptr().cast(),
            options.len() as u32,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
    };
    if r != CUresult::CUDA_SUCCESS {
        let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
        let log = String::from_utf8_lossy(&log[..end]);
        let base = driver_error("cuda module", r);
        return Err(device_error(
            "cuda module",
            format!("the driver could not load `{name}`: {base}; {log}"),
        ));
    }
    Ok(m)
}

/// The state of device `index`, created on first use.
pub(crate) fn state(index: usize) -> Result<&'static State> {
    static STATES: OnceLock<Vec<OnceLock<std::result::Result<State, Error>>>> = OnceLock::new();
    let count = device_count()?;
    let states = STATES.get_or_init(|| (0..count).map(|_| OnceLock::new()).collect());
    let Some(slot) = states.get(index) else {
        return Err(device_error(
            "cuda",
            format!("there is no device cuda:{index} ({count} found)"),
        ));
    };
    let state = slot.get_or_init(|| State::new(index));
    let state = state.as_ref().map_err(Clone::clone)?;
    state.enter()?;
    Ok(state)
}

/// The mutex's contents, even after a panic elsewhere (the guarded maps
/// stay consistent between calls).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
