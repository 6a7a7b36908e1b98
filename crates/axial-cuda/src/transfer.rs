//! The asynchronous host-to-device copy, from pinned memory on a stream.

use crate::sys as cu;
use axial_core::{DType, Layout, RawTensor, Result, Storage};

use crate::alloc;
use crate::driver::check;
use crate::{PinnedStorage, Stream};

/// A copy on the device of `stream` of the elements of pinned memory laid
/// out as `layout`, enqueued on `stream`: the host does not wait. The
/// device's compute stream waits (on the device) for the copy, so kernels on
/// the result run after it, while kernels enqueued before overlap it. The
/// pinned storage is not written or freed until the copy has run.
///
/// The result has `layout`'s strides and offset (the whole storage moves).
///
/// # Errors
/// `layout` is not in bounds of the storage, or the driver failed.
///
/// # Example
/// ```
/// use axial_core::{DType, Layout, Storage};
/// use axial_cuda::{Cuda, PinnedStorage, Stream, to_device_async};
/// if let Ok(gpu) = Cuda::new(0) {
///     let pinned = PinnedStorage::new(Storage::from_slice(&[1.0f32, 2.0, 3.0]))?;
///     let copies = Stream::new(&gpu)?;
///     let x = to_device_async(&pinned, &Layout::contiguous(&[3]), DType::F32, &copies)?;
///     assert_eq!(x.to_vec::<f32>()?, vec![1.0, 2.0, 3.0]); // after the copy
/// }
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn to_device_async(
    pinned: &PinnedStorage,
    layout: &Layout,
    dtype: DType,
    stream: &Stream,
) -> Result<RawTensor<crate::Cuda>> {
    let host = pinned.storage();
    layout.check_bounds(host.len_of(dtype), dtype.size())?;
    let device = stream.device();
    let s = device.state()?;
    let nbytes = host.nbytes();
    // The block comes from the stream's own pool: its last use was on this
    // stream, so the copy cannot overtake it.
    let buffer = alloc::alloc(s, nbytes, Some(stream.raw.0))?;
    if nbytes > 0 {
        // SAFETY: `nbytes` of page-locked host memory, which stays until the
        // event below has completed (`reading_until`), into a device block of
        // that size.
        check("to_device_async", unsafe {
            cu::cuMemcpyHtoDAsync_v2(
                buffer.ptr,
                host.as_bytes().as_ptr().cast(),
                nbytes,
                stream.raw.0,
            )
        })?;
    }
    let done = stream.record()?;
    device.wait_for(&done)?;
    pinned.reading_until(done);
    RawTensor::from_parts(Storage::from_buffer(buffer, device), layout.clone(), dtype)
}
