//! Streams and events: a [`Stream`] runs copies (or other work) in order,
//! beside the device's compute stream; an [`Event`] marks a point of a
//! stream, to wait for it from another stream or the host, or to time what
//! ran between two.

use crate::sys::{self as cu, CUresult};
use axial_core::Result;

use crate::Cuda;
use crate::driver::{Handle, check, driver_error};

/// A CUDA stream of a device, apart from its compute stream: work on it
/// overlaps kernels there, ordered with them only by [`Event`]s.
///
/// Dropping a stream waits for its work first.
///
/// # Example
/// ```
/// use axial_cuda::{Cuda, Stream};
/// if let Ok(gpu) = Cuda::new(0) {
///     let copies = Stream::new(&gpu)?;
///     let done = copies.record()?;
///     gpu.wait_for(&done)?; // the compute stream waits on the device, not the host
///     copies.synchronize()?;
/// }
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Debug)]
pub struct Stream {
    pub(crate) raw: Handle<cu::CUstream>,
    pub(crate) device: Cuda,
}

impl Stream {
    /// A new non-blocking stream on `device`.
    ///
    /// # Errors
    /// The device does not exist, or the driver failed.
    ///
    /// ```
    /// # use axial_cuda::{Cuda, Stream};
    /// assert!(Stream::new(&Cuda::at(1_000)).is_err());
    /// ```
    pub fn new(device: &Cuda) -> Result<Stream> {
        device.state()?;
        let mut raw = std::ptr::null_mut();
        // SAFETY: creates a stream in the device's current context.
        check("cuda stream", unsafe {
            cu::cuStreamCreate(&mut raw, cu::CUstream_flags::CU_STREAM_NON_BLOCKING as u32)
        })?;
        Ok(Stream {
            raw: Handle(raw),
            device: *device,
        })
    }

    /// The device.
    ///
    /// ```
    /// # use axial_cuda::{Cuda, Stream};
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     assert_eq!(Stream::new(&gpu)?.device(), gpu);
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn device(&self) -> Cuda {
        self.device
    }

    /// Waits until everything enqueued on the stream has run.
    ///
    /// # Errors
    /// Work on the stream failed.
    ///
    /// ```
    /// # use axial_cuda::{Cuda, Stream};
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     Stream::new(&gpu)?.synchronize()?;
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn synchronize(&self) -> Result<()> {
        self.device.state()?;
        // SAFETY: a live stream.
        check("synchronize", unsafe {
            cu::cuStreamSynchronize(self.raw.0)
        })
    }

    /// An event at the current end of the stream.
    ///
    /// # Errors
    /// The driver failed.
    ///
    /// ```
    /// # use axial_cuda::{Cuda, Stream};
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     let e = Stream::new(&gpu)?.record()?;
    ///     e.synchronize()?;
    ///     assert!(e.is_done()?);
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn record(&self) -> Result<Event> {
        Event::on(self.device, self.raw.0)
    }

    /// Makes later work on this stream wait (on the device) for `event`.
    ///
    /// # Errors
    /// The driver failed.
    ///
    /// ```
    /// # use axial_cuda::{Cuda, Stream};
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     let s = Stream::new(&gpu)?;
    ///     s.wait(&gpu.record()?)?; // after what the compute stream has queued
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn wait(&self, event: &Event) -> Result<()> {
        self.device.state()?;
        // SAFETY: a live stream and a recorded event.
        check("cuda wait", unsafe {
            cu::cuStreamWaitEvent(self.raw.0, event.raw.0, 0)
        })
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if let Ok(s) = self.device.state() {
            // SAFETY: a live stream; once idle its pooled blocks are anyone's.
            unsafe {
                cu::cuStreamSynchronize(self.raw.0);
                crate::alloc::adopt_stream_blocks(s, self.raw.0);
                cu::cuStreamDestroy_v2(self.raw.0);
            }
        }
    }
}

/// A point in a stream's work: the host or another stream waits for it,
/// and two events time the work between them.
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_cuda::Cuda;
/// if let Ok(gpu) = Cuda::new(0) {
///     let x = RawTensor::zeros_on(&gpu, &[1 << 20], DType::F32)?;
///     let start = gpu.record()?;
///     let y = x.view().unary(axial_core::UnaryOp::Exp)?;
///     let end = gpu.record()?;
///     end.synchronize()?;
///     assert!(start.elapsed_ms(&end)? >= 0.0);
///     drop(y);
/// }
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Debug)]
pub struct Event {
    pub(crate) raw: Handle<cu::CUevent>,
    device: Cuda,
}

impl Event {
    /// An event recorded on `stream` of `device`.
    pub(crate) fn on(device: Cuda, stream: cu::CUstream) -> Result<Event> {
        device.state()?;
        let mut raw = std::ptr::null_mut();
        // SAFETY: creates an event (with timing) and records it on a live stream.
        unsafe {
            check("cuda event", cu::cuEventCreate(&mut raw, 0))?;
            let event = Event {
                raw: Handle(raw),
                device,
            };
            check("cuda event", cu::cuEventRecord(raw, stream))?;
            Ok(event)
        }
    }

    /// Waits on the host until the work before the event has run.
    ///
    /// # Errors
    /// That work failed.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     gpu.record()?.synchronize()?;
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn synchronize(&self) -> Result<()> {
        self.device.state()?;
        // SAFETY: a recorded event.
        check("cuda event", unsafe { cu::cuEventSynchronize(self.raw.0) })
    }

    /// True when the work before the event has run (without waiting).
    ///
    /// # Errors
    /// That work failed.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     let e = gpu.record()?;
    ///     e.synchronize()?;
    ///     assert!(e.is_done()?);
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn is_done(&self) -> Result<bool> {
        self.device.state()?;
        // SAFETY: a recorded event.
        match unsafe { cu::cuEventQuery(self.raw.0) } {
            CUresult::CUDA_SUCCESS => Ok(true),
            CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            r => Err(driver_error("cuda event", r)),
        }
    }

    /// Milliseconds from this event to `later` (both completed).
    ///
    /// # Errors
    /// Either has not completed, or they are of different devices.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     let (a, b) = (gpu.record()?, gpu.record()?);
    ///     b.synchronize()?;
    ///     assert!(a.elapsed_ms(&b)? >= 0.0);
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn elapsed_ms(&self, later: &Event) -> Result<f32> {
        self.device.state()?;
        let mut ms = 0.0f32;
        // SAFETY: two recorded timing events; writes the time.
        check("cuda event", unsafe {
            cu::cuEventElapsedTime(&mut ms, self.raw.0, later.raw.0)
        })?;
        Ok(ms)
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        if self.device.state().is_ok() {
            // SAFETY: the event is not used after this (destroying a pending
            // event is allowed: the driver frees it once complete).
            unsafe { cu::cuEventDestroy_v2(self.raw.0) };
        }
    }
}

impl Cuda {
    /// An event at the current end of the compute stream (to time kernels,
    /// or to make another stream wait for them).
    ///
    /// # Errors
    /// The device does not exist.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     gpu.record()?.synchronize()?;
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn record(&self) -> Result<Event> {
        let s = self.state()?;
        Event::on(*self, s.stream.0)
    }

    /// Makes later kernels of the compute stream wait (on the device) for
    /// `event` of another stream.
    ///
    /// # Errors
    /// The device does not exist.
    ///
    /// ```
    /// # use axial_cuda::{Cuda, Stream};
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     let copies = Stream::new(&gpu)?;
    ///     gpu.wait_for(&copies.record()?)?;
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn wait_for(&self, event: &Event) -> Result<()> {
        let s = self.state()?;
        // SAFETY: a live stream and a recorded event.
        check("cuda wait", unsafe {
            cu::cuStreamWaitEvent(s.stream.0, event.raw.0, 0)
        })
    }
}
