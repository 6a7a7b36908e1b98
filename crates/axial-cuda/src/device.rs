//! [`Cuda`]: a CUDA device as a value (`cuda:0`, `cuda:1`) and its memory.

use std::fmt;

use crate::sys as cu;
use axial_core::{Device, Result};

use crate::alloc::{self, CudaBuffer};
use crate::driver::{self, State, check, device_error, state};

/// A CUDA device by index, PyTorch's `torch.device("cuda:1")`.
///
/// The value is an index; what the device holds (its context, compute
/// stream, kernels, memory pool) lives for the process and is created on
/// first use. Every method returns `Err` when there is no such device or no
/// driver, with the driver's reason.
///
/// `Cuda::default()` is `cuda:0`, which typed constructors use; name
/// another device with [`Cuda::new`].
///
/// # Example
/// ```
/// use axial_core::Device;
/// use axial_cuda::Cuda;
/// assert_eq!(Cuda::default(), Cuda::at(0));
/// assert_eq!(Cuda::at(1).name(), "cuda:1");
/// match Cuda::new(0) {
///     Ok(gpu) => println!("{}: {}", gpu.name(), gpu.description()?),
///     Err(e) => println!("no GPU here: {e}"),
/// }
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Cuda {
    index: usize,
}

impl fmt::Debug for Cuda {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cuda:{}", self.index)
    }
}

impl Cuda {
    /// Device `index`, after checking that it exists.
    ///
    /// # Errors
    /// No driver, no GPU, or fewer than `index + 1` devices.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// assert!(Cuda::new(1_000).is_err());
    /// ```
    pub fn new(index: usize) -> Result<Cuda> {
        state(index)?;
        Ok(Cuda { index })
    }

    /// Device `index`, unchecked: its first use reports a missing device.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// assert_eq!(Cuda::at(3).index(), 3);
    /// ```
    pub fn at(index: usize) -> Cuda {
        Cuda { index }
    }

    /// The index.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// assert_eq!(Cuda::default().index(), 0);
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// The number of CUDA devices (0 without a driver or GPU).
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// let n = Cuda::device_count();
    /// assert_eq!(Cuda::is_available(), n > 0);
    /// ```
    pub fn device_count() -> usize {
        driver::device_count().unwrap_or(0)
    }

    /// True when there is at least one device (`torch.cuda.is_available()`).
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if !Cuda::is_available() {
    ///     assert!(Cuda::new(0).is_err());
    /// }
    /// ```
    pub fn is_available() -> bool {
        Self::device_count() > 0
    }

    /// Why there is no device: `None` when there is one.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// assert_eq!(Cuda::unavailable_reason().is_none(), Cuda::is_available());
    /// ```
    pub fn unavailable_reason() -> Option<String> {
        match driver::device_count() {
            Ok(0) => Some("the driver found no CUDA device".into()),
            Ok(_) => None,
            Err(e) => Some(e.to_string()),
        }
    }

    /// The device's name as the driver gives it (`NVIDIA H200`).
    ///
    /// # Errors
    /// The device does not exist.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     assert!(!gpu.description()?.is_empty());
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn description(&self) -> Result<String> {
        Ok(self.state()?.name.clone())
    }

    /// Waits for everything enqueued on the device's compute stream
    /// (`torch.cuda.synchronize()`).
    ///
    /// # Errors
    /// The device does not exist, or an earlier kernel failed.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     gpu.synchronize()?;
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn synchronize(&self) -> Result<()> {
        self.state()?.synchronize()
    }

    /// Lets f32 matrix products use TF32 tensor cores (off by default, as
    /// `torch.backends.cuda.matmul.allow_tf32`): about 10 bits of mantissa
    /// in the products, much faster.
    ///
    /// # Errors
    /// The device does not exist.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     gpu.set_allow_tf32(true)?;
    ///     assert!(gpu.allow_tf32()?);
    ///     gpu.set_allow_tf32(false)?;
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn set_allow_tf32(&self, allow: bool) -> Result<()> {
        let s = self.state()?;
        s.allow_tf32
            .store(allow, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// Whether f32 matrix products may use TF32.
    ///
    /// # Errors
    /// The device does not exist.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     assert!(!gpu.allow_tf32()?);
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn allow_tf32(&self) -> Result<bool> {
        Ok(self
            .state()?
            .allow_tf32
            .load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Bytes the caching allocator holds for reuse (freed by tensors, not
    /// yet returned to the driver).
    ///
    /// # Errors
    /// The device does not exist.
    ///
    /// ```
    /// # use axial_core::Device;
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     drop(gpu.alloc(1 << 20)?);
    ///     assert!(gpu.cached_bytes()? >= 1 << 20);
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn cached_bytes(&self) -> Result<usize> {
        Ok(alloc::cached_bytes(self.state()?))
    }

    /// Returns the cached blocks to the driver (`torch.cuda.empty_cache()`),
    /// after the device is idle.
    ///
    /// # Errors
    /// The device does not exist, or the driver failed.
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     gpu.empty_cache()?;
    ///     assert_eq!(gpu.cached_bytes()?, 0);
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn empty_cache(&self) -> Result<()> {
        alloc::release_cached(self.state()?)
    }

    /// Compiles every kernel now (the driver otherwise compiles a module of
    /// kernels the first time a program uses one of them), and gives how many
    /// there are.
    ///
    /// # Errors
    /// The device does not exist, or the driver refused a module (its error
    /// log is in the message).
    ///
    /// ```
    /// # use axial_cuda::Cuda;
    /// if let Ok(gpu) = Cuda::new(0) {
    ///     assert!(gpu.load_kernels()? > 500);
    /// }
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn load_kernels(&self) -> Result<usize> {
        let s = self.state()?;
        let mut n = 0;
        for m in crate::ptx::MODULES {
            let text = crate::ptx::module(m).unwrap_or_default();
            for name in crate::ptx::entries(text) {
                s.function(m, name)?;
                n += 1;
            }
        }
        Ok(n)
    }

    /// The device's state, its context current on this thread.
    pub(crate) fn state(&self) -> Result<&'static State> {
        state(self.index)
    }

    fn check_range(
        &self,
        op: &'static str,
        buffer: &CudaBuffer,
        offset: usize,
        n: usize,
    ) -> Result<()> {
        if buffer.device != self.index {
            return Err(device_error(
                op,
                format!(
                    "a buffer of cuda:{} given to cuda:{}",
                    buffer.device, self.index
                ),
            ));
        }
        if offset.checked_add(n).is_none_or(|end| end > buffer.len) {
            return Err(device_error(
                op,
                format!(
                    "bytes {offset}..{} are outside a buffer of {} bytes",
                    offset.saturating_add(n),
                    buffer.len
                ),
            ));
        }
        Ok(())
    }
}

impl Device for Cuda {
    type Buffer = CudaBuffer;

    fn name(&self) -> String {
        format!("cuda:{}", self.index)
    }

    fn alloc(&self, nbytes: usize) -> Result<CudaBuffer> {
        alloc::alloc(self.state()?, nbytes, None)
    }

    fn alloc_zeroed(&self, nbytes: usize) -> Result<CudaBuffer> {
        let s = self.state()?;
        let buffer = alloc::alloc(s, nbytes, None)?;
        if nbytes > 0 {
            // SAFETY: the buffer holds `nbytes`; the memset runs on the
            // compute stream, before anything later on it reads the buffer.
            check("alloc_zeroed", unsafe {
                cu::cuMemsetD8Async(buffer.ptr, 0, nbytes, s.stream.0)
            })?;
        }
        Ok(buffer)
    }

    fn buffer_len(&self, buffer: &CudaBuffer) -> usize {
        buffer.len
    }

    fn buffer_addr(&self, buffer: &CudaBuffer) -> usize {
        buffer.addr()
    }

    fn copy_from_host(&self, buffer: &mut CudaBuffer, offset: usize, src: &[u8]) -> Result<()> {
        self.check_range("copy_from_host", buffer, offset, src.len())?;
        if src.is_empty() {
            return Ok(());
        }
        let s = self.state()?;
        // SAFETY: the range is in the buffer; `src` is valid for its length
        // and outlives the copy, which completes before the synchronisation
        // returns.
        unsafe {
            check(
                "copy_from_host",
                cu::cuMemcpyHtoDAsync_v2(
                    buffer.ptr + offset as u64,
                    src.as_ptr().cast(),
                    src.len(),
                    s.stream.0,
                ),
            )?;
        }
        s.synchronize()
    }

    fn copy_to_host(&self, buffer: &CudaBuffer, offset: usize, dst: &mut [u8]) -> Result<()> {
        self.check_range("copy_to_host", buffer, offset, dst.len())?;
        if dst.is_empty() {
            return Ok(());
        }
        let s = self.state()?;
        // SAFETY: the range is in the buffer; `dst` is valid for writes of its
        // length until the synchronisation returns. Work enqueued before on the
        // stream (the kernels writing the buffer) completes first.
        unsafe {
            check(
                "copy_to_host",
                cu::cuMemcpyDtoHAsync_v2(
                    dst.as_mut_ptr().cast(),
                    buffer.ptr + offset as u64,
                    dst.len(),
                    s.stream.0,
                ),
            )?;
        }
        s.synchronize()
    }

    fn duplicate(&self, buffer: &CudaBuffer) -> Result<CudaBuffer> {
        let s = self.state()?;
        let out = alloc::alloc(s, buffer.len, None)?;
        if buffer.len > 0 {
            // SAFETY: both buffers hold `len` bytes and do not overlap.
            check("duplicate", unsafe {
                cu::cuMemcpyDtoDAsync_v2(out.ptr, buffer.ptr, buffer.len, s.stream.0)
            })?;
        }
        Ok(out)
    }
}
