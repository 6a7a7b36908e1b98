//! Devices: where a storage's bytes live.
//!
//! Everything outside a device's own module speaks to memory through this
//! trait, so a GPU device plugs in without the rest assuming host memory.

use std::any::Any;
use std::fmt;

use crate::{Backend, Cpu, Error, Layout, RawTensor, Result, Storage, TensorRef};

/// A place tensors live (the CPU, a CUDA device), with its memory primitives.
///
/// # Example
/// ```
/// use axial_core::{Cpu, Device};
/// let buf = Cpu.alloc_zeroed(8)?;
/// let mut host = [1u8; 8];
/// Cpu.copy_to_host(&buf, 0, &mut host)?;
/// assert_eq!(host, [0; 8]);
/// assert_eq!(Cpu.name(), "cpu");
/// # Ok::<(), axial_core::Error>(())
/// ```
pub trait Device: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The device's memory block.
    type Buffer: Send + Sync + 'static;

    /// The name PyTorch prints (`cpu`, `cuda:0`).
    ///
    /// ```
    /// # use axial_core::{Cpu, Device};
    /// assert_eq!(Cpu.name(), "cpu");
    /// ```
    fn name(&self) -> String;

    /// `nbytes` of memory whose contents are unspecified (but initialised):
    /// for outputs every byte of which a kernel writes.
    ///
    /// # Errors
    /// The device is out of memory.
    ///
    /// ```
    /// # use axial_core::{Cpu, Device};
    /// let buf = Cpu.alloc(24)?;
    /// assert_eq!(Cpu.buffer_len(&buf), 24);
    /// assert!(Cpu.alloc(usize::MAX).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn alloc(&self, nbytes: usize) -> Result<Self::Buffer>;

    /// `nbytes` of zeroed memory.
    ///
    /// # Errors
    /// The device is out of memory.
    ///
    /// ```
    /// # use axial_core::{Cpu, Device};
    /// let buf = Cpu.alloc_zeroed(3)?;
    /// assert_eq!(buf.as_bytes(), &[0, 0, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn alloc_zeroed(&self, nbytes: usize) -> Result<Self::Buffer>;

    /// Bytes in a buffer.
    ///
    /// ```
    /// # use axial_core::{Cpu, Device};
    /// assert_eq!(Cpu.buffer_len(&Cpu.alloc(10)?), 10);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn buffer_len(&self, buffer: &Self::Buffer) -> usize;

    /// The address of the buffer's first byte (0 for an empty buffer).
    ///
    /// ```
    /// # use axial_core::{Cpu, Device};
    /// assert_eq!(Cpu.buffer_addr(&Cpu.alloc(0)?), 0);
    /// assert_ne!(Cpu.buffer_addr(&Cpu.alloc(4)?), 0);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn buffer_addr(&self, buffer: &Self::Buffer) -> usize;

    /// Copies `src` into the buffer at byte `offset`.
    ///
    /// # Errors
    /// The range is outside the buffer, or the device failed.
    ///
    /// ```
    /// # use axial_core::{Cpu, Device};
    /// let mut buf = Cpu.alloc_zeroed(4)?;
    /// Cpu.copy_from_host(&mut buf, 1, &[7, 8])?;
    /// assert_eq!(buf.as_bytes(), &[0, 7, 8, 0]);
    /// assert!(Cpu.copy_from_host(&mut buf, 3, &[1, 2]).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn copy_from_host(&self, buffer: &mut Self::Buffer, offset: usize, src: &[u8]) -> Result<()>;

    /// Copies bytes from byte `offset` of the buffer into `dst`.
    ///
    /// # Errors
    /// The range is outside the buffer, or the device failed.
    ///
    /// ```
    /// # use axial_core::{Cpu, Device};
    /// let mut buf = Cpu.alloc_zeroed(4)?;
    /// Cpu.copy_from_host(&mut buf, 0, &[1, 2, 3, 4])?;
    /// let mut tail = [0u8; 2];
    /// Cpu.copy_to_host(&buf, 2, &mut tail)?;
    /// assert_eq!(tail, [3, 4]);
    /// assert!(Cpu.copy_to_host(&buf, 3, &mut tail).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn copy_to_host(&self, buffer: &Self::Buffer, offset: usize, dst: &mut [u8]) -> Result<()>;

    /// A copy of the whole buffer on the same device.
    ///
    /// # Errors
    /// The device is out of memory.
    ///
    /// ```
    /// # use axial_core::{Cpu, Device};
    /// let mut buf = Cpu.alloc_zeroed(2)?;
    /// let copy = Cpu.duplicate(&buf)?;
    /// Cpu.copy_from_host(&mut buf, 0, &[5, 5])?;
    /// assert_eq!(copy.as_bytes(), &[0, 0]); // not an alias
    /// assert_ne!(Cpu.buffer_addr(&copy), Cpu.buffer_addr(&buf));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn duplicate(&self, buffer: &Self::Buffer) -> Result<Self::Buffer>;
}

/// A contiguous copy of `src` on `to`, bytes moving straight between the
/// two devices' memory: from a CPU storage's bytes into `to`, from a device
/// buffer into a new CPU storage, or (between two other devices) through
/// one host buffer. A source that is not contiguous is made so on its own
/// device first.
///
/// # Errors
/// Either device failed, or is out of memory.
///
/// # Example
/// ```
/// use axial_core::{Cpu, RawTensor, device::transfer};
/// let x = RawTensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2])?;
/// let t = transfer(&x.view().t()?, &Cpu)?;
/// assert_eq!((t.strides(), t.to_vec::<i32>()?), (&[2, 1][..], vec![1, 3, 2, 4]));
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn transfer<D1: Backend, D2: Device>(
    src: &TensorRef<'_, D1>,
    to: &D2,
) -> Result<RawTensor<D2>> {
    let contiguous = src.contiguous()?;
    let src = contiguous.as_ref();
    let dtype = src.dtype();
    let layout = Layout::contiguous(src.shape());
    let nbytes = src.numel() * dtype.size();
    let start = src.offset() * dtype.size();
    let from: &dyn Any = src.storage();
    let storage = if let Some(host) = from.downcast_ref::<Storage<Cpu>>() {
        let bytes = host
            .as_bytes()
            .get(start..start + nbytes)
            .ok_or_else(|| out_of(host.nbytes()))?;
        Storage::from_host_bytes(to, bytes)?
    } else {
        let mut host = Storage::uninit(&Cpu, nbytes)?;
        src.storage()
            .device()
            .copy_to_host(src.storage().buffer(), start, host.as_bytes_mut())?;
        let host: Box<dyn Any> = Box::new(host);
        match host.downcast::<Storage<D2>>() {
            Ok(on_cpu) => *on_cpu,
            Err(host) => {
                let host = host
                    .downcast::<Storage<Cpu>>()
                    .map_err(|_| out_of(nbytes))?;
                Storage::from_host_bytes(to, host.as_bytes())?
            }
        }
    };
    RawTensor::from_parts(storage, layout, dtype)
}

fn out_of(len: usize) -> Error {
    Error::Device {
        op: "to_device",
        message: format!("the tensor's bytes are outside its storage of {len} bytes"),
    }
}
