//! The CUDA driver API, loaded at run time from `libcuda.so.1` (the file
//! the NVIDIA driver installs; `AXIAL_LIBCUDA` names another): nothing
//! links it and no build script looks for a CUDA installation, so the
//! `cuda` feature builds on any machine, and a program finds out when it
//! runs whether there is a driver.
//!
//! The entry points are the driver's own C functions, declared as the
//! driver's `cuda.h` declares them (the `_v2` names are the symbols its
//! headers map the plain names to), one `unsafe fn` each with the driver's
//! name, so calls read as calls of the driver. Each loads the library on
//! first use; without it each returns [`CUresult::CUDA_ERROR_NOT_INITIALIZED`]
//! (and [`load`] says why).

#![allow(non_camel_case_types, non_snake_case)]

use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};
use std::sync::OnceLock;

/// A driver result: `CUDA_SUCCESS` or an error code. A transparent `u32`
/// rather than an enum, so codes this list does not name (newer drivers
/// add some) are values, not undefined behaviour.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CUresult(pub(crate) u32);

impl CUresult {
    /// Success.
    pub(crate) const CUDA_SUCCESS: CUresult = CUresult(0);
    /// An allocation failed.
    pub(crate) const CUDA_ERROR_OUT_OF_MEMORY: CUresult = CUresult(2);
    /// The driver is not initialised (here also: it could not be loaded).
    pub(crate) const CUDA_ERROR_NOT_INITIALIZED: CUresult = CUresult(3);
    /// Asynchronous work has not completed yet.
    pub(crate) const CUDA_ERROR_NOT_READY: CUresult = CUresult(600);
}

/// A device ordinal's handle.
pub(crate) type CUdevice = c_int;
/// A device address.
pub(crate) type CUdeviceptr = u64;

macro_rules! opaque {
    ($($handle:ident => $st:ident;)*) => {$(
        #[doc = concat!("The driver's opaque `", stringify!($st), "`.")]
        #[repr(C)]
        pub(crate) struct $st {
            _private: [u8; 0],
        }
        #[doc = concat!("A `", stringify!($handle), "` handle.")]
        pub(crate) type $handle = *mut $st;
    )*};
}
opaque! {
    CUcontext => CUctx_st;
    CUmodule => CUmod_st;
    CUfunction => CUfunc_st;
    CUevent => CUevent_st;
    CUstream => CUstream_st;
}

/// `cuStreamCreate` flags.
#[repr(u32)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum CUstream_flags {
    /// Does not synchronise with the NULL stream.
    CU_STREAM_NON_BLOCKING = 1,
}

/// `cuEventCreate` flags.
#[repr(u32)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum CUevent_flags {
    /// No timing data: faster to record and wait on.
    CU_EVENT_DISABLE_TIMING = 2,
}

/// The device attributes asked for.
#[repr(u32)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum CUdevice_attribute {
    /// Streaming multiprocessors.
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
}

/// The kernel attributes asked for.
#[repr(u32)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum CUfunction_attribute {
    /// Statically allocated shared memory, in bytes.
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
}

/// The JIT options passed when loading PTX.
#[repr(u32)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum CUjit_option {
    /// A buffer for the error log.
    CU_JIT_ERROR_LOG_BUFFER = 5,
    /// Its size in bytes.
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
}

/// `cuMemHostRegister`: the memory is pinned for every context.
pub(crate) const CU_MEMHOSTREGISTER_PORTABLE: c_uint = 1;

/// The library names tried, in order (the driver's soname first).
const NAMES: [&str; 2] = ["libcuda.so.1", "libcuda.so"];

/// Declares the driver's entry points: the table of function pointers
/// loaded from the library, and one `unsafe fn` per entry point.
macro_rules! driver {
    ($($name:ident($($arg:ident: $ty:ty),* $(,)?);)*) => {
        /// The driver's entry points, from the loaded library.
        pub(crate) struct Driver {
            _lib: libloading::Library,
            $($name: unsafe extern "C" fn($($ty),*) -> CUresult,)*
        }

        impl Driver {
            /// Every entry point from `lib`, or the first one missing.
            fn from(lib: libloading::Library) -> Result<Driver, String> {
                // SAFETY: each symbol is the driver's C function of that
                // name, whose signature `cuda.h` gives and this table copies.
                unsafe {
                    $(let $name = *lib
                        .get::<unsafe extern "C" fn($($ty),*) -> CUresult>(
                            concat!(stringify!($name), "\0").as_bytes(),
                        )
                        .map_err(|e| format!("the driver has no `{}`: {e}", stringify!($name)))?;)*
                    Ok(Driver { _lib: lib, $($name,)* })
                }
            }
        }

        /// The names of the entry points, in the table's order.
        #[cfg(test)]
        const ENTRY_POINTS: &[&str] = &[$(stringify!($name)),*];

        $(
            #[doc = concat!("The driver's `", stringify!($name), "`.")]
            ///
            /// # Safety
            /// As the driver's documentation of it: valid handles and
            /// pointers of the sizes it writes.
            #[allow(clippy::too_many_arguments)] // the driver's own signature
            pub(crate) unsafe fn $name($($arg: $ty),*) -> CUresult {
                match load() {
                    // SAFETY: the caller upholds the driver's contract.
                    Ok(driver) => unsafe { (driver.$name)($($arg),*) },
                    Err(_) => CUresult::CUDA_ERROR_NOT_INITIALIZED,
                }
            }
        )*
    };
}

driver! {
    cuGetErrorName(error: CUresult, name: *mut *const c_char);
    cuGetErrorString(error: CUresult, text: *mut *const c_char);
    cuInit(flags: c_uint);
    cuDeviceGetCount(count: *mut c_int);
    cuDeviceGet(device: *mut CUdevice, ordinal: c_int);
    cuDeviceGetName(name: *mut c_char, len: c_int, device: CUdevice);
    cuDeviceGetAttribute(value: *mut c_int, attribute: CUdevice_attribute, device: CUdevice);
    cuDevicePrimaryCtxRetain(context: *mut CUcontext, device: CUdevice);
    cuCtxSetCurrent(context: CUcontext);
    cuModuleLoadDataEx(
        module: *mut CUmodule,
        image: *const c_void,
        options: c_uint,
        keys: *mut CUjit_option,
        values: *mut *mut c_void,
    );
    cuModuleGetFunction(function: *mut CUfunction, module: CUmodule, name: *const c_char);
    cuFuncGetAttribute(value: *mut c_int, attribute: CUfunction_attribute, function: CUfunction);
    cuMemAlloc_v2(ptr: *mut CUdeviceptr, bytes: usize);
    cuMemFree_v2(ptr: CUdeviceptr);
    cuMemHostRegister_v2(ptr: *mut c_void, bytes: usize, flags: c_uint);
    cuMemHostUnregister(ptr: *mut c_void);
    cuMemcpyHtoDAsync_v2(dst: CUdeviceptr, src: *const c_void, bytes: usize, stream: CUstream);
    cuMemcpyDtoHAsync_v2(dst: *mut c_void, src: CUdeviceptr, bytes: usize, stream: CUstream);
    cuMemcpyDtoDAsync_v2(dst: CUdeviceptr, src: CUdeviceptr, bytes: usize, stream: CUstream);
    cuMemsetD8Async(dst: CUdeviceptr, value: c_uchar, count: usize, stream: CUstream);
    cuStreamCreate(stream: *mut CUstream, flags: c_uint);
    cuStreamWaitEvent(stream: CUstream, event: CUevent, flags: c_uint);
    cuStreamSynchronize(stream: CUstream);
    cuStreamDestroy_v2(stream: CUstream);
    cuEventCreate(event: *mut CUevent, flags: c_uint);
    cuEventRecord(event: CUevent, stream: CUstream);
    cuEventQuery(event: CUevent);
    cuEventSynchronize(event: CUevent);
    cuEventElapsedTime(ms: *mut f32, start: CUevent, end: CUevent);
    cuEventDestroy_v2(event: CUevent);
    cuLaunchKernel(
        function: CUfunction,
        grid_x: c_uint,
        grid_y: c_uint,
        grid_z: c_uint,
        block_x: c_uint,
        block_y: c_uint,
        block_z: c_uint,
        shared_bytes: c_uint,
        stream: CUstream,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    );
}

/// The driver, loaded once for the process; `Err` says why there is none
/// (no NVIDIA driver installed, or a library without the entry points).
pub(crate) fn load() -> Result<&'static Driver, &'static str> {
    static DRIVER: OnceLock<Result<Driver, String>> = OnceLock::new();
    DRIVER
        .get_or_init(|| {
            let names: Vec<String> = match std::env::var("AXIAL_LIBCUDA") {
                Ok(path) => vec![path],
                Err(_) => NAMES.iter().map(|n| n.to_string()).collect(),
            };
            let mut tried = Vec::new();
            for name in &names {
                match open(name) {
                    Ok(lib) => return Driver::from(lib),
                    // libloading's message names the file.
                    Err(e) => tried.push(e.to_string()),
                }
            }
            Err(format!(
                "the NVIDIA driver could not be loaded ({})",
                tried.join("; ")
            ))
        })
        .as_ref()
        .map_err(String::as_str)
}

/// Opens the driver library `name` with its symbols visible to the libraries
/// loaded after it (`RTLD_GLOBAL`), as a linked driver's are: cuBLAS (and
/// the cuBLAS stand-in of the tests) find the process's driver there.
fn open(name: &str) -> Result<libloading::Library, libloading::Error> {
    #[cfg(unix)]
    {
        use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW};
        // SAFETY: loading the driver runs its initialisers, which have no
        // preconditions; it stays loaded for the process.
        unsafe { Library::open(Some(name), RTLD_NOW | RTLD_GLOBAL) }.map(Into::into)
    }
    #[cfg(not(unix))]
    {
        // SAFETY: as above.
        unsafe { libloading::Library::new(name) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stand-in driver CI loads (`cuda-stub/`) has every entry point
    /// the table loads, so the tests against it reach the driver calls.
    #[test]
    fn the_stub_driver_has_every_entry_point() {
        let stub = include_str!("../../../cuda-stub/symbols.txt");
        for name in ENTRY_POINTS {
            assert!(stub.lines().any(|line| line == *name), "{name}");
        }
    }

    /// A driver result is a value whatever its code.
    #[test]
    fn results_are_codes() {
        assert_eq!(CUresult(600), CUresult::CUDA_ERROR_NOT_READY);
        assert_ne!(CUresult(999), CUresult::CUDA_SUCCESS);
    }
}
