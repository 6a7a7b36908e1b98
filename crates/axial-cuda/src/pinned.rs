//! Page-locked host memory: a CPU storage registered with the driver, which
//! the GPU's copy engines read directly, so a host-to-device copy from it
//! runs asynchronously on a stream (from pageable memory the driver stages
//! it and the host waits).

use std::sync::Mutex;

use crate::sys as cu;
use axial_core::{Cpu, Result, Storage};

use crate::driver::{check, device_count, lock, state};
use crate::stream::Event;

/// A CPU storage page-locked for the lifetime of the value (PyTorch's
/// `pin_memory()`).
///
/// An asynchronous copy out of it records an event here; writing to the
/// storage, or dropping it, first waits for those copies, so a copy never
/// reads memory that changed or went away under it.
///
/// # Example
/// ```
/// use axial_core::Storage;
/// use axial_cuda::PinnedStorage;
/// match PinnedStorage::new(Storage::from_slice(&[1.0f32, 2.0])) {
///     Ok(pinned) => assert_eq!(pinned.storage().nbytes(), 8),
///     Err(e) => println!("pinning needs the CUDA driver: {e}"),
/// }
/// ```
#[derive(Debug)]
pub struct PinnedStorage {
    storage: Storage<Cpu>,
    registered: bool,
    pending: Mutex<Vec<Event>>,
}

impl PinnedStorage {
    /// Page-locks `storage`'s memory.
    ///
    /// # Errors
    /// No driver or device (as PyTorch, pinning needs the CUDA driver), or
    /// the driver refused the range.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// # use axial_cuda::{Cuda, PinnedStorage};
    /// let pinned = PinnedStorage::new(Storage::from_slice(&[0u8; 64]));
    /// assert_eq!(pinned.is_ok(), Cuda::is_available());
    /// ```
    pub fn new(storage: Storage<Cpu>) -> Result<PinnedStorage> {
        if device_count()? == 0 {
            return Err(crate::driver::device_error(
                "pin_memory",
                "there is no CUDA device to pin memory for",
            ));
        }
        state(0)?;
        let registered = storage.nbytes() > 0;
        if registered {
            let ptr = storage.as_bytes().as_ptr().cast_mut();
            // SAFETY: the range is the storage's memory, which this value owns
            // and keeps (unmoved: the buffer is on the heap) until it
            // unregisters it in `drop`. PORTABLE: every context may use it.
            check("pin_memory", unsafe {
                cu::cuMemHostRegister_v2(
                    ptr.cast(),
                    storage.nbytes(),
                    cu::CU_MEMHOSTREGISTER_PORTABLE,
                )
            })?;
        }
        Ok(PinnedStorage {
            storage,
            registered,
            pending: Mutex::new(Vec::new()),
        })
    }

    /// The storage, to read (reads may run beside copies out of it).
    ///
    /// ```
    /// # use axial_core::Storage;
    /// # use axial_cuda::PinnedStorage;
    /// if let Ok(p) = PinnedStorage::new(Storage::from_slice(&[7u8])) {
    ///     assert_eq!(p.storage().as_bytes(), &[7]);
    /// }
    /// ```
    pub fn storage(&self) -> &Storage<Cpu> {
        &self.storage
    }

    /// The storage, to write, once the copies out of it have run (a copy
    /// that failed is reported by the stream or device that ran it).
    ///
    /// ```
    /// # use axial_core::Storage;
    /// # use axial_cuda::PinnedStorage;
    /// if let Ok(mut p) = PinnedStorage::new(Storage::from_slice(&[7u8])) {
    ///     p.storage_mut().as_bytes_mut()[0] = 8;
    ///     assert_eq!(p.storage().as_bytes(), &[8]);
    /// }
    /// ```
    pub fn storage_mut(&mut self) -> &mut Storage<Cpu> {
        self.wait();
        &mut self.storage
    }

    /// The storage, no longer page-locked, once the copies out of it have run.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// # use axial_cuda::PinnedStorage;
    /// if let Ok(p) = PinnedStorage::new(Storage::from_slice(&[7u8, 8])) {
    ///     assert_eq!(p.into_storage().as_bytes(), &[7, 8]);
    /// }
    /// ```
    pub fn into_storage(mut self) -> Storage<Cpu> {
        self.unpin();
        std::mem::replace(&mut self.storage, Storage::from_slice::<u8>(&[]))
    }

    /// Keeps `event` (recorded after a copy out of the storage) until the
    /// storage is next written or dropped.
    pub(crate) fn reading_until(&self, event: Event) {
        let mut pending = lock(&self.pending);
        pending.retain(|e| !e.is_done().unwrap_or(true));
        pending.push(event);
    }

    /// Waits for every pending copy out of the storage, whatever their
    /// outcome: after a failed one, the device runs no more.
    fn wait(&self) {
        let events: Vec<Event> = lock(&self.pending).drain(..).collect();
        for e in events {
            let _ = e.synchronize();
        }
    }

    /// Waits for the copies, then unregisters the memory.
    fn unpin(&mut self) {
        self.wait();
        if self.registered && state(0).is_ok() {
            let ptr = self.storage.as_bytes().as_ptr().cast_mut();
            // SAFETY: the range registered in `new`; no copy reads it now.
            unsafe { cu::cuMemHostUnregister(ptr.cast()) };
        }
        self.registered = false;
    }
}

impl Drop for PinnedStorage {
    fn drop(&mut self) {
        // The memory must not go while a copy reads it.
        self.unpin();
    }
}
