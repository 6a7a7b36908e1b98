//! A stand-in for the CUDA driver (`libcuda.so.1`), for testing CUDA code on
//! machines without a GPU. It is not a driver and runs no GPU: it keeps
//! device memory in host memory and runs kernels with the PTX executor of
//! [`axial_ptx`], which checks every access and reports races.
//!
//! `cuda-stub/build.sh` builds it and puts it (with the `libcublas` stand-in)
//! under `cuda-stub/lib64/stubs`, where test binaries link and find it with
//! `LD_LIBRARY_PATH`; nothing puts it on an rpath, so wherever the real
//! driver is installed, programs use the real driver.
//!
//! What it implements, as the driver does: initialisation and devices (two
//! by default, `AXIAL_STAND_IN_DEVICES`; sm_80, 16 GiB each,
//! `AXIAL_STAND_IN_MEMORY` bytes), primary and created contexts with their
//! per-thread stacks, allocation (out of memory past the device's size),
//! copies and memsets synchronous and on streams, page-locked host memory
//! (registered or allocated), streams with the legacy stream's implicit
//! ordering, events (with timing), host functions on streams, modules loaded
//! from PTX (their kernels decoded at load, errors in the JIT log), and
//! launches checked against sm_80's limits. Queued work runs when something
//! waits for it, in order; a kernel that faults makes its context fail every
//! later call, as the driver's sticky errors do, and prints the fault (the
//! kernel, block, thread and PTX line) to stderr. The race checker can be
//! turned off with `AXIAL_STAND_IN_RACE_CHECK=0`; a launch of more than
//! `AXIAL_STAND_IN_MAX_STEPS` warp instructions (2^30) is reported as
//! hanging. Every other driver
//! function returns `CUDA_ERROR_NOT_SUPPORTED`.
//!
//! To test the tests, `AXIAL_STAND_IN_MUTATE=<kernel>:<old>:<new>` loads
//! every module with the first `<old>` of kernel `<kernel>` replaced by
//! `<new>` (CI checks that a suite fails on `binary_add_f32` computing a
//! difference).

mod api;
mod codes;
mod device;
#[cfg(test)]
mod tests;

include!(concat!(env!("OUT_DIR"), "/unsupported.rs"));

/// Marks the stand-in driver (the cuBLAS stand-in runs only beside it):
/// its version.
#[unsafe(no_mangle)]
pub extern "C" fn axial_cuda_stand_in() -> u32 {
    1
}
