//! The CUDA device in the typed API (feature `cuda`): tensors of type
//! `Tensor<T, S, Cuda>`, page-locked host tensors ([`PinnedTensor`]), and
//! the asynchronous host-to-device copy, which exists only for them.
//!
//! The feature needs nothing of CUDA to build (a crate that depends on
//! `axial` with `features = ["cuda"]` builds on any machine): the NVIDIA
//! driver is loaded when a program first asks for a device (`libcuda.so.1`,
//! or the file the variable `AXIAL_LIBCUDA` names), and without one
//! [`Cuda::new`] says it could not be loaded.
//!
//! ```
//! use axial::prelude::*;
//! use axial::{Cuda, Stream};
//! axes!(Rows, Cols);
//! if let Ok(gpu) = Cuda::new(0) {
//!     let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange().to_device(&gpu);
//!     let y = 2.0 * &x + 1.0; // on the GPU
//!     assert_eq!(y.to_cpu().to_vec(), [1.0, 3.0, 5.0, 7.0, 9.0, 11.0]);
//!     let pinned = Tensor::<f32, shape![Rows: 2, Cols: 3]>::ones().pin_memory();
//!     let copies = Stream::new(&gpu)?;
//!     let z = pinned.to_device_async(&copies); // the host does not wait
//!     assert_eq!((&z + &y).to_cpu().get([1, 2]), 12.0);
//! }
//! # Ok::<(), axial::Error>(())
//! ```

use axial_core::{Cpu, Element, Result};
pub use axial_cuda::{Cuda, Event, Stream};
use axial_shape::Shape;

use crate::access::owned;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// Page-locked host memory as a storage kind: a CPU tensor (every CPU op
/// takes it) whose storage the GPU's copy engines read directly, so that
/// [`to_device_async`](TensorBase::to_device_async) runs on a stream while
/// the host goes on. Writing to it, or dropping it, first waits for the
/// copies reading it.
///
/// Ops that may copy (`reshape`, `contiguous`) give an ordinary tensor.
///
/// ```
/// use axial::prelude::*;
/// use axial::{Cuda, Pinned};
/// fn pinned<R: axial::DataMut<Cpu>>() {}
/// pinned::<Pinned>(); // writable, by the CPU
/// if Cuda::is_available() {
///     let p = Tensor::<f32, shape![3]>::arange().pin_memory();
///     assert_eq!(p.to_vec(), [0.0, 1.0, 2.0]);
/// }
/// ```
#[derive(Debug)]
pub struct Pinned(pub(crate) axial_cuda::PinnedStorage);

/// A tensor in page-locked host memory (from [`pin_memory`](TensorBase::pin_memory)).
///
/// ```
/// use axial::prelude::*;
/// use axial::PinnedTensor;
/// if let Ok(p) = Tensor::<i32, shape![2]>::ones().try_pin_memory() {
///     let p: PinnedTensor<i32, shape![2]> = p;
///     assert_eq!(p.to_vec(), [1, 1]);
/// }
/// ```
pub type PinnedTensor<T, S> = TensorBase<T, S, Cpu, Pinned>;

impl<T: Element, S: Shape, R: Data<Cpu>> TensorBase<T, S, Cpu, R> {
    /// A contiguous copy in page-locked memory (PyTorch's `pin_memory()`).
    ///
    /// # Errors
    /// There is no CUDA driver or device (pinning needs one, as in
    /// PyTorch), or the driver refused.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Cuda;
    /// let x = Tensor::<f32, shape![2]>::ones();
    /// assert_eq!(x.try_pin_memory().is_ok(), Cuda::is_available());
    /// ```
    pub fn try_pin_memory(&self) -> Result<PinnedTensor<T, S>> {
        let copy = self.raw().to_contiguous()?;
        let (storage, layout, _) = copy.into_parts();
        let pinned = axial_cuda::PinnedStorage::new(storage)?;
        Ok(TensorBase::from_parts(Pinned(pinned), layout))
    }

    /// A contiguous copy in page-locked memory.
    ///
    /// # Panics
    /// As [`try_pin_memory`](Self::try_pin_memory), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// if axial::Cuda::is_available() {
    ///     let p = Tensor::<u8, shape![2]>::ones().pin_memory();
    ///     assert_eq!(p.to_vec(), [1, 1]);
    /// }
    /// ```
    #[track_caller]
    pub fn pin_memory(&self) -> PinnedTensor<T, S> {
        or_panic(self.try_pin_memory())
    }
}

impl<T: Element, S: Shape> PinnedTensor<T, S> {
    /// A contiguous copy on the stream's device, enqueued on `stream`: the
    /// host does not wait (PyTorch's `to(device, non_blocking=True)` from
    /// pinned memory). Kernels on the result run after the copy; kernels
    /// enqueued before it overlap it. Only pinned tensors have this copy:
    /// from pageable memory it could not be asynchronous.
    ///
    /// # Errors
    /// The device failed or is out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Cuda, Stream};
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     let copies = Stream::new(&gpu)?;
    ///     let x = Tensor::<f32, shape![4]>::arange().pin_memory();
    ///     let on_gpu = x.try_to_device_async(&copies)?;
    ///     assert_eq!(on_gpu.to_vec(), [0.0, 1.0, 2.0, 3.0]);
    /// }
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_device_async(&self, stream: &Stream) -> Result<Tensor<T, S, Cuda>> {
        let raw = axial_cuda::to_device_async(&self.data.0, &self.layout, T::DTYPE, stream)?;
        if raw.layout().is_contiguous() && raw.layout().offset() == 0 {
            return Ok(owned(raw));
        }
        Ok(owned(raw.view().to_contiguous()?))
    }

    /// A contiguous copy on the stream's device, enqueued on `stream`.
    ///
    /// # Panics
    /// As [`try_to_device_async`](Self::try_to_device_async), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Cuda, Stream};
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     let copies = Stream::new(&gpu)?;
    ///     let x = Tensor::<i64, shape![2]>::ones().pin_memory().to_device_async(&copies);
    ///     assert_eq!(x.sum_all().to_cpu().item(), 2);
    /// }
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[track_caller]
    pub fn to_device_async(&self, stream: &Stream) -> Tensor<T, S, Cuda> {
        or_panic(self.try_to_device_async(stream))
    }
}
