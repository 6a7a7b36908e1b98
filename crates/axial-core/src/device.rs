//! Devices: where a storage's bytes live.
//!
//! Everything outside a device's own module speaks to memory through this
//! trait, so a GPU device plugs in without the rest assuming host memory.

use std::fmt;

use crate::Result;

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
    type Buffer: Send + Sync;

    /// The name PyTorch prints (`cpu`, `cuda:0`).
    fn name(&self) -> String;

    /// `nbytes` of memory whose contents are unspecified (but initialised):
    /// for outputs every byte of which a kernel writes.
    ///
    /// # Errors
    /// The device is out of memory.
    fn alloc(&self, nbytes: usize) -> Result<Self::Buffer>;

    /// `nbytes` of zeroed memory.
    ///
    /// # Errors
    /// The device is out of memory.
    fn alloc_zeroed(&self, nbytes: usize) -> Result<Self::Buffer>;

    /// Bytes in a buffer.
    fn buffer_len(&self, buffer: &Self::Buffer) -> usize;

    /// The address of the buffer's first byte (0 for an empty buffer).
    fn buffer_addr(&self, buffer: &Self::Buffer) -> usize;

    /// Copies `src` into the buffer at byte `offset`.
    ///
    /// # Errors
    /// The range is outside the buffer, or the device failed.
    fn copy_from_host(&self, buffer: &mut Self::Buffer, offset: usize, src: &[u8]) -> Result<()>;

    /// Copies bytes from byte `offset` of the buffer into `dst`.
    ///
    /// # Errors
    /// The range is outside the buffer, or the device failed.
    fn copy_to_host(&self, buffer: &Self::Buffer, offset: usize, dst: &mut [u8]) -> Result<()>;

    /// A copy of the whole buffer on the same device.
    ///
    /// # Errors
    /// The device is out of memory.
    fn duplicate(&self, buffer: &Self::Buffer) -> Result<Self::Buffer>;
}
