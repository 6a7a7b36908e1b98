//! The devices the kernel suites run on: one suite, instantiated for `Cpu`
//! and (with `axial-cuda`'s `cuda` feature) for `Cuda`: a GPU, or the
//! stand-in driver of `cuda-stub/` that CI runs them on. Without a CUDA
//! device the CUDA instances say they skipped; with `AXIAL_REQUIRE_GPU=1`
//! they fail.

use axial_core::{Backend, Cpu, DType};

/// A device a suite runs on.
pub trait TestDevice: Backend {
    /// The dtypes the device's copies and casts cover.
    const DTYPES: &'static [DType];
    /// The device, or `None` (after saying why) when the test cannot run.
    fn get(test: &str) -> Option<Self>;
}

impl TestDevice for Cpu {
    const DTYPES: &'static [DType] = &DType::EVERY;
    fn get(_: &str) -> Option<Cpu> {
        Some(Cpu)
    }
}

axial_cuda::if_cuda! {
    impl TestDevice for axial_cuda::Cuda {
        /// The ten dtypes of the CUDA kernels (uint16/32/64, complex and the
        /// float8s have none yet).
        const DTYPES: &'static [DType] = &DType::ALL;
        fn get(test: &str) -> Option<axial_cuda::Cuda> {
            axial_cuda::testing::device_or_skip(test)
        }
    }
}

/// `mod $name { ... }` once per device: `cpu`, and `cuda` when the CUDA
/// device is built. Inside, `Dev` is the device's type.
#[macro_export]
macro_rules! per_device {
    ($($body:tt)*) => {
        mod cpu {
            #[allow(unused_imports)]
            use super::*;
            #[allow(dead_code)]
            type Dev = axial_core::Cpu;
            $($body)*
        }
        axial_cuda::if_cuda! {
            mod cuda {
                #[allow(unused_imports)]
                use super::*;
                #[allow(dead_code)]
                type Dev = axial_cuda::Cuda;
                $($body)*
            }
        }
    };
}
