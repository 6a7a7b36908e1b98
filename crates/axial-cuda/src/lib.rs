//! The CUDA device of axial: tensors in GPU memory, through the NVIDIA
//! driver's API, loaded at run time (`libcuda.so.1`): building the crate
//! needs nothing of CUDA, and running it needs the driver alone.
//!
//! With the `cuda` feature, [`Cuda`] is an [`axial_core::Device`] and an
//! [`axial_core::Backend`]: device buffers come from a caching allocator
//! (freed blocks are reused by size class and stream, so allocation stays
//! off the hot path); every kernel of the backend runs on the device's
//! compute stream over any strided layout and dtype; matrix products go
//! through cuBLAS, loaded at run time (nothing links it). The kernels are
//! CUDA C (`kernels/`) compiled by nvcc 13.0 to the PTX under `ptx/`, which
//! is part of the crate: a user needs only the NVIDIA driver, which compiles
//! each module the first time a program uses it.
//!
//! The fused ops (`softmax`, `log_softmax`, `layer_norm`) take one block
//! per row with f32 accumulation for f16, bf16 and f32 (f64 in f64);
//! `addmm` folds its bias into cuBLAS's product (`beta = 1`); `cumsum`
//! scans rows by blocks or threads. `index_select` and `gather` check every
//! index on the device and read back one flag before they write, so an
//! index out of range is an `Err` (as on the CPU) rather than PyTorch's
//! device-side assertion, at the cost of one synchronisation per call.
//!
//! Host memory can be page-locked ([`PinnedStorage`]), which is what makes a
//! host-to-device copy on a [`Stream`] asynchronous; [`Event`]s order work
//! across streams and time it.
//!
//! Adding a kernel for an op is small: an element functor and its entry
//! point in `kernels/*.cu` (named `<family>_<op>_<dtype>` after the op's
//! `name()`), `gen-ptx.sh` to regenerate `ptx/`, and, for a new `Backend`
//! method, a call of the shared strided launcher with the op's operands;
//! the checks, the coalesced walk and the dtype rules come from
//! `axial_core` already.
//!
//! Without the feature the crate is empty but for [`if_cuda!`], so a
//! workspace builds and tests without CUDA. With it and no GPU (or no
//! driver), [`Cuda::new`] returns an error naming why, and tests that need a
//! CUDA device say that they skipped ([`testing`]). On machines without a
//! GPU the tests run on the stand-in driver of `cuda-stub/` (device memory
//! in host RAM, the PTX executed on the CPU by `axial-ptx`, which checks
//! bounds and races): a test tool, found through `LD_LIBRARY_PATH` only, so
//! a program uses the real driver wherever one is installed. Every launch
//! checks its arguments against the kernel's PTX parameters and sm_80's
//! limits first.
//!
//! # Example
//! ```
//! # #[cfg(feature = "cuda")] {
//! use axial_core::{DType, Device, RawTensor};
//! use axial_cuda::Cuda;
//! match Cuda::new(0) {
//!     Ok(gpu) => {
//!         let x = RawTensor::arange_on(&gpu, 0.0, 4.0, 1.0, DType::F32)?;
//!         assert_eq!(x.to_vec::<f32>()?, vec![0.0, 1.0, 2.0, 3.0]);
//!         assert_eq!(gpu.name(), "cuda:0");
//!     }
//!     Err(e) => println!("no GPU: {e}"),
//! }
//! # }
//! # Ok::<(), axial_core::Error>(())
//! ```

// Without the `cuda` feature the items these docs link to do not exist; the
// links resolve in the feature's build, which CI documents with warnings denied.
#![cfg_attr(not(feature = "cuda"), allow(rustdoc::broken_intra_doc_links))]

/// Expands its tokens when this crate is built with the `cuda` feature, to
/// nothing otherwise: test suites written once instantiate their CUDA cases
/// with it.
///
/// ```
/// axial_cuda::if_cuda! {
///     fn only_with_cuda() -> axial_cuda::Cuda { axial_cuda::Cuda::default() }
/// }
/// ```
#[macro_export]
macro_rules! if_cuda {
    ($($t:tt)*) => { $crate::__if_cuda! { $($t)* } };
}

#[cfg(feature = "cuda")]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_cuda {
    ($($t:tt)*) => { $($t)* };
}

#[cfg(not(feature = "cuda"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_cuda {
    ($($t:tt)*) => {};
}

#[cfg(feature = "cuda")]
mod alloc;
#[cfg(feature = "cuda")]
mod backend;
#[cfg(feature = "cuda")]
mod blas;
#[cfg(feature = "cuda")]
mod cnn;
#[cfg(feature = "cuda")]
mod device;
#[cfg(feature = "cuda")]
mod driver;
#[cfg(feature = "cuda")]
mod elementwise;
#[cfg(feature = "cuda")]
mod index;
#[cfg(feature = "cuda")]
mod launch;
#[cfg(feature = "cuda")]
mod norm;
#[cfg(feature = "cuda")]
mod pinned;
#[cfg(feature = "cuda")]
mod ptx;
#[cfg(feature = "cuda")]
mod reduce;
#[cfg(feature = "cuda")]
mod scan;
#[cfg(feature = "cuda")]
mod stream;
#[cfg(feature = "cuda")]
mod sys;
#[cfg(feature = "cuda")]
pub mod testing;
#[cfg(feature = "cuda")]
mod transfer;
#[cfg(all(test, feature = "cuda"))]
mod typed_launches;

#[cfg(feature = "cuda")]
pub use alloc::CudaBuffer;
#[cfg(feature = "cuda")]
pub use device::Cuda;
#[cfg(feature = "cuda")]
pub use pinned::PinnedStorage;
#[cfg(feature = "cuda")]
pub use stream::{Event, Stream};
#[cfg(feature = "cuda")]
pub use transfer::to_device_async;
