//! For tests that need a GPU: the device, or a line saying the test skipped
//! because there is none. With `AXIAL_REQUIRE_GPU=1` a missing GPU fails
//! the test instead (what a GPU machine's check runs with).

use std::io::Write;
use std::sync::Mutex;

use crate::Cuda;

/// The variable that turns "skipped, no GPU" into a failure.
pub const REQUIRE_GPU: &str = "AXIAL_REQUIRE_GPU";

/// True when `AXIAL_REQUIRE_GPU` is set to something other than `0`.
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

/// `cuda:0` for the test `name`, or `None` after printing (once per name)
/// that it skipped.
///
/// # Panics
/// There is no GPU and [`gpu_required`].
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
        Ok(gpu) => Some(gpu),
        Err(e) if gpu_required() => {
            panic!("{REQUIRE_GPU} is set but there is no usable CUDA device for {name}: {e}")
        }
        Err(e) => {
            static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());
            let mut said = SAID
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if !said.iter().any(|n| n == name) {
                // Past the test harness's capture, so that a passing run shows it.
                let _ = writeln!(std::io::stderr(), "skipped {name} on CUDA: no GPU ({e})");
                said.push(name.to_string());
            }
            None
        }
    }
}
