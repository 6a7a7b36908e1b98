//! Device memory: a caching allocator in PyTorch's manner. A freed block
//! goes back to a free list of its size class and stream, and the next
//! request of that class on that stream takes it without a driver call:
//! work on one stream runs in order, so the block's last use is done
//! before its next one starts. A block freed by another stream than the one
//! that takes it carries an event, and the taking stream waits on it.

use std::collections::HashMap;

use crate::sys::{self as cu, CUresult};
use axial_core::Result;

use crate::driver::{Handle, State, check, device_error, lock, state};

/// Requests up to this many bytes round up to a multiple of [`SMALL_STEP`].
const SMALL: usize = 1 << 20;
const SMALL_STEP: usize = 512;
/// Larger requests round up to a multiple of this.
const LARGE_STEP: usize = 2 << 20;

/// The size a request of `n` bytes is served with.
fn class(n: usize) -> Option<usize> {
    let step = if n <= SMALL { SMALL_STEP } else { LARGE_STEP };
    n.checked_next_multiple_of(step)
}

/// A block waiting for reuse: its address, and the event its last stream
/// recorded when it came from another stream than the one it was made for.
struct Free {
    ptr: cu::CUdeviceptr,
    after: Option<Handle<cu::CUevent>>,
}

/// The free blocks of one device, by (stream, size class).
#[derive(Default)]
pub(crate) struct Pool {
    free: HashMap<(usize, usize), Vec<Free>>,
    /// Bytes held by free blocks.
    cached: usize,
}

/// A block of device memory; freeing it returns it to its device's pool.
///
/// # Example
/// ```
/// # #[cfg(feature = "cuda")] {
/// use axial_core::Device;
/// use axial_cuda::Cuda;
/// if let Ok(gpu) = Cuda::new(0) {
///     let buffer = gpu.alloc_zeroed(16)?;
///     assert_eq!(gpu.buffer_len(&buffer), 16);
///     let mut host = [1u8; 16];
///     gpu.copy_to_host(&buffer, 0, &mut host)?;
///     assert_eq!(host, [0; 16]);
/// }
/// # }
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Debug)]
pub struct CudaBuffer {
    pub(crate) ptr: cu::CUdeviceptr,
    pub(crate) len: usize,
    /// The size class (0 for an empty buffer, which holds no block).
    cap: usize,
    pub(crate) device: usize,
    /// The stream whose pool the block returns to.
    stream: usize,
}

impl CudaBuffer {
    /// The device address of the first byte (0 when empty).
    pub(crate) fn addr(&self) -> usize {
        self.ptr as usize
    }
}

impl Drop for CudaBuffer {
    fn drop(&mut self) {
        if self.cap == 0 {
            return;
        }
        let Ok(s) = state(self.device) else { return };
        // A block of another stream may still be read by the compute
        // stream's work: the taker waits on an event of it.
        let after = if self.stream != s.stream.0 as usize {
            record(s).ok()
        } else {
            None
        };
        let mut pool = lock(&s.pool);
        pool.cached += self.cap;
        pool.free
            .entry((self.stream, self.cap))
            .or_default()
            .push(Free {
                ptr: self.ptr,
                after,
            });
    }
}

/// An event recorded on the compute stream.
fn record(s: &State) -> Result<Handle<cu::CUevent>> {
    let mut ev = std::ptr::null_mut();
    // SAFETY: creates an event in the current context, records it on a live stream.
    unsafe {
        check(
            "cuda event",
            cu::cuEventCreate(&mut ev, cu::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32),
        )?;
        check("cuda event", cu::cuEventRecord(ev, s.stream.0))?;
    }
    Ok(Handle(ev))
}

/// `nbytes` of device memory on device `s`, for use on `stream` (the
/// compute stream when `None`).
pub(crate) fn alloc(s: &State, nbytes: usize, stream: Option<cu::CUstream>) -> Result<CudaBuffer> {
    let stream = stream.unwrap_or(s.stream.0);
    let key = stream as usize;
    if nbytes == 0 {
        return Ok(CudaBuffer {
            ptr: 0,
            len: 0,
            cap: 0,
            device: s.index,
            stream: key,
        });
    }
    let cap = class(nbytes).ok_or_else(|| too_large(nbytes))?;
    let reused = {
        let mut pool = lock(&s.pool);
        let block = pool.free.get_mut(&(key, cap)).and_then(Vec::pop);
        if block.is_some() {
            pool.cached -= cap;
        }
        block
    };
    let ptr = match reused {
        Some(block) => {
            if let Some(ev) = block.after {
                // SAFETY: a recorded event; the stream waits for it on the device.
                unsafe {
                    check("cuda alloc", cu::cuStreamWaitEvent(stream, ev.0, 0))?;
                    cu::cuEventDestroy_v2(ev.0);
                }
            }
            block.ptr
        }
        None => fresh(s, cap)?,
    };
    Ok(CudaBuffer {
        ptr,
        len: nbytes,
        cap,
        device: s.index,
        stream: key,
    })
}

/// A new block from the driver; when it is out of memory, the cached blocks
/// are freed and the request tried once more.
fn fresh(s: &State, cap: usize) -> Result<cu::CUdeviceptr> {
    let mut ptr = 0;
    // SAFETY: writes a device pointer of `cap` bytes in the current context.
    let r = unsafe { cu::cuMemAlloc_v2(&mut ptr, cap) };
    if r == CUresult::CUDA_SUCCESS {
        return Ok(ptr);
    }
    if r != CUresult::CUDA_ERROR_OUT_OF_MEMORY {
        return Err(crate::driver::driver_error("cuda alloc", r));
    }
    release_cached(s)?;
    // SAFETY: as above.
    let r = unsafe { cu::cuMemAlloc_v2(&mut ptr, cap) };
    if r == CUresult::CUDA_SUCCESS {
        return Ok(ptr);
    }
    Err(device_error(
        "cuda alloc",
        format!(
            "CUDA out of memory. Tried to allocate {} on {}",
            human(cap),
            format_args!("cuda:{}", s.index)
        ),
    ))
}

/// Frees every cached block of the device, after its streams are idle.
pub(crate) fn release_cached(s: &State) -> Result<()> {
    s.synchronize()?;
    let blocks: Vec<Free> = {
        let mut pool = lock(&s.pool);
        pool.cached = 0;
        pool.free.drain().flat_map(|(_, v)| v).collect()
    };
    for b in blocks {
        // SAFETY: blocks of this context that no one holds; their events have
        // completed (the device is synchronised), so they can go.
        unsafe {
            if let Some(ev) = b.after {
                cu::cuEventSynchronize(ev.0);
                cu::cuEventDestroy_v2(ev.0);
            }
            check("cuda free", cu::cuMemFree_v2(b.ptr))?;
        }
    }
    Ok(())
}

/// Moves the free blocks of `stream` to the compute stream's lists, once
/// `stream` is idle (before it is destroyed).
pub(crate) fn adopt_stream_blocks(s: &State, stream: cu::CUstream) {
    let mut pool = lock(&s.pool);
    let keys: Vec<_> = pool
        .free
        .keys()
        .filter(|(k, _)| *k == stream as usize)
        .copied()
        .collect();
    for key in keys {
        if let Some(blocks) = pool.free.remove(&key) {
            pool.free
                .entry((s.stream.0 as usize, key.1))
                .or_default()
                .extend(blocks);
        }
    }
}

/// Bytes the device's pool holds for reuse.
pub(crate) fn cached_bytes(s: &State) -> usize {
    lock(&s.pool).cached
}

fn too_large(n: usize) -> axial_core::Error {
    device_error("cuda alloc", format!("cannot allocate {n} bytes"))
}

fn human(n: usize) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    const GIB: f64 = (1u64 << 30) as f64;
    let x = n as f64;
    if x >= GIB {
        format!("{:.2} GiB", x / GIB)
    } else {
        format!("{:.2} MiB", x / MIB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_to_their_class() {
        assert_eq!(class(1), Some(512));
        assert_eq!(class(512), Some(512));
        assert_eq!(class(513), Some(1024));
        assert_eq!(class(SMALL), Some(SMALL));
        assert_eq!(class(SMALL + 1), Some(LARGE_STEP));
        assert_eq!(class(5 << 20), Some(6 << 20));
        assert_eq!(class(usize::MAX), None);
    }
}
