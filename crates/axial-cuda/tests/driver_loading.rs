//! The driver is loaded when a program first asks for a device, not linked:
//! without it (here a library path that does not exist, through
//! `AXIAL_LIBCUDA`), every call is an error that says the driver could not
//! be loaded, and nothing panics. Runs everywhere, in a child process of
//! this test binary so that the variable is set before the first call.

#![cfg(feature = "cuda")]

use std::process::Command;

use axial_core::{DType, RawTensor};
use axial_cuda::{Cuda, Stream};

/// The variable that names the driver library.
const LIBCUDA: &str = "AXIAL_LIBCUDA";

#[test]
fn without_the_driver_every_call_says_it_could_not_be_loaded() {
    if std::env::var_os(LIBCUDA).is_some() {
        // The child: the driver is missing.
        let err = Cuda::new(0).expect_err("no driver, no device").to_string();
        assert!(
            err.contains("the NVIDIA driver could not be loaded") && err.contains("nowhere"),
            "{err}"
        );
        assert!(RawTensor::zeros_on(&Cuda::at(0), &[2], DType::F32).is_err());
        assert!(Stream::new(&Cuda::at(0)).is_err());
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new(exe)
        .args([
            "--exact",
            "without_the_driver_every_call_says_it_could_not_be_loaded",
            "--nocapture",
        ])
        .env(LIBCUDA, "/nowhere/libcuda.so.1")
        .output()
        .expect("the child runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
