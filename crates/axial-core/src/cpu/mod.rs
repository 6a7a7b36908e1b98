//! The CPU device: host buffers and the strided kernels.

mod access;
mod arg_reduce;
mod backend;
mod binary;
mod buffer;
mod compare;
pub(crate) mod conv;
mod convert;
mod copy;
mod cumsum;
mod fill;
mod gather;
mod gemm_at;
mod grad;
pub mod infer;
mod map;
mod math;
mod matmul;
mod norm;
mod optim;
mod reduce;
mod scatter;
mod select;
pub(crate) mod simd;
pub(crate) mod softmax;
mod stream;
pub mod strided;
mod transpose;
mod unary;
mod vmath;

pub use buffer::{ALIGN, CpuBuffer, EXTERNAL_ALIGN, Workspace};

use crate::{Device, Error, Result};

/// The host CPU.
///
/// # Example
/// ```
/// use axial_core::{Cpu, Device};
/// assert_eq!(Cpu.name(), "cpu");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cpu;

impl Cpu {
    /// A buffer of unspecified (initialised) contents, for host data the
    /// caller already holds (its size cannot be past memory).
    ///
    /// # Panics
    /// Out of memory, as `Vec` does; [`Device::alloc`] returns the error.
    ///
    /// ```
    /// use axial_core::Cpu;
    /// let buffer = Cpu.alloc_buffer(100);
    /// assert_eq!(buffer.len(), 100);
    /// assert_eq!(buffer.addr() % axial_core::cpu::ALIGN, 0);
    /// ```
    pub fn alloc_buffer(&self, nbytes: usize) -> CpuBuffer {
        CpuBuffer::new(nbytes, false).unwrap_or_else(|e| panic!("{e}"))
    }
}

fn check_range(op: &'static str, len: usize, offset: usize, n: usize) -> Result<()> {
    if offset.checked_add(n).is_none_or(|end| end > len) {
        return Err(Error::Device {
            op,
            message: format!(
                "bytes {offset}..{} are outside a buffer of {len} bytes",
                offset.saturating_add(n)
            ),
        });
    }
    Ok(())
}

impl Device for Cpu {
    type Buffer = CpuBuffer;

    fn name(&self) -> String {
        "cpu".into()
    }

    fn alloc(&self, nbytes: usize) -> Result<CpuBuffer> {
        CpuBuffer::new(nbytes, false)
    }

    fn alloc_zeroed(&self, nbytes: usize) -> Result<CpuBuffer> {
        CpuBuffer::new(nbytes, true)
    }

    fn buffer_len(&self, buffer: &CpuBuffer) -> usize {
        buffer.len()
    }

    fn buffer_addr(&self, buffer: &CpuBuffer) -> usize {
        buffer.addr()
    }

    fn copy_from_host(&self, buffer: &mut CpuBuffer, offset: usize, src: &[u8]) -> Result<()> {
        check_range("copy_from_host", buffer.len(), offset, src.len())?;
        buffer.as_bytes_mut()[offset..offset + src.len()].copy_from_slice(src);
        Ok(())
    }

    fn copy_to_host(&self, buffer: &CpuBuffer, offset: usize, dst: &mut [u8]) -> Result<()> {
        check_range("copy_to_host", buffer.len(), offset, dst.len())?;
        dst.copy_from_slice(&buffer.as_bytes()[offset..offset + dst.len()]);
        Ok(())
    }

    fn duplicate(&self, buffer: &CpuBuffer) -> Result<CpuBuffer> {
        let mut out = CpuBuffer::new(buffer.len(), false)?;
        out.as_bytes_mut().copy_from_slice(buffer.as_bytes());
        Ok(out)
    }
}
