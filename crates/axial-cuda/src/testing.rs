//! For tests that need a CUDA device: the device, or a line saying the test
//! skipped because there is none. The device is a GPU, or the stand-in
//! driver of `cuda-stub/` (which runs the kernels' PTX on the CPU and is
//! what CI tests on). With `AXIAL_REQUIRE_GPU=1` a missing device fails the
//! test instead, and the first test to get the device says which it is.

use std::io::Write;
use std::sync::{Mutex, Once};

use crate::Cuda;

/// The variable that turns "skipped, no CUDA device" into a failure.
pub const REQUIRE_GPU: &str = "AXIAL_REQUIRE_GPU";

/// True when `AXIAL_REQUIRE_GPU` is set to something other than `0`: a
/// CUDA device, a GPU or the stand-in, must be present.
///
/// ```
/// # use axial_cuda::testing::gpu_required;
/// if std::env::var("AXIAL_REQUIRE_GPU").is_err() {
///     assert!(!gpu_required());
/// }
/// ```
pub fn gpu_required() -> bool {
    std::env::var(REQUIRE_GPU).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// True when the process runs on the stand-in driver of `cuda-stub/` (a
/// test tool that executes PTX on the CPU) rather than NVIDIA's.
///
/// ```
/// # use axial_cuda::testing::on_stand_in;
/// if on_stand_in() {
///     assert!(axial_cuda::Cuda::is_available());
/// }
/// ```
pub fn on_stand_in() -> bool {
    let this = libloading::os::unix::Library::this();
    // SAFETY: only looks the symbol up (the stand-in driver exports it).
    unsafe { this.get::<unsafe extern "C" fn() -> u32>(b"axial_cuda_stand_in\0") }.is_ok()
}

/// What the device is, in a line: its name and whether it is a GPU or the
/// stand-in.
///
/// ```
/// # use axial_cuda::{Cuda, testing::describe};
/// if let Ok(gpu) = Cuda::new(0) {
///     assert!(describe(&gpu).starts_with("cuda:0"));
/// }
/// ```
pub fn describe(gpu: &Cuda) -> String {
    let name = gpu.description().unwrap_or_else(|e| format!("({e})"));
    let kind = if on_stand_in() {
        "the test stand-in of cuda-stub, not a GPU"
    } else {
        "a GPU, through the NVIDIA driver"
    };
    format!("{}: {name} ({kind})", axial_core::Device::name(gpu))
}

/// `cuda:0` for the test `name`, or `None` after printing (once per name)
/// that it skipped.
///
/// # Panics
/// There is no CUDA device and [`gpu_required`].
///
/// ```
/// # use axial_cuda::testing::device_or_skip;
/// match device_or_skip("doc example") {
///     Some(gpu) => assert_eq!(gpu.index(), 0),
///     None => {} // "skipped doc example on CUDA: ..." went to stderr
/// }
/// ```
#[track_caller]
pub fn device_or_skip(name: &str) -> Option<Cuda> {
    match Cuda::new(0) {
        Ok(gpu) => {
            static SAID: Once = Once::new();
            if gpu_required() {
                // Past the test harness's capture, so that a passing run shows it.
                SAID.call_once(|| {
                    let _ = writeln!(std::io::stderr(), "CUDA tests run on {}", describe(&gpu));
                });
            }
            Some(gpu)
        }
        Err(e) if gpu_required() => {
            panic!("{REQUIRE_GPU} is set but there is no usable CUDA device for {name}: {e}")
        }
        Err(e) => {
            static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());
            let mut said = SAID
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if !said.iter().any(|n| n == name) {
                let _ = writeln!(
                    std::io::stderr(),
                    "skipped {name} on CUDA: no CUDA device ({e})"
                );
                said.push(name.to_string());
            }
            None
        }
    }
}
