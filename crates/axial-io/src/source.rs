//! The bytes of a file being read: a private (copy-on-write) mapping of
//! the file, or a copy in an aligned host buffer, and the storages cut from
//! them without copying.
//!
//! A storage over a byte range of the file is zero-copy when the range
//! starts 8-byte aligned and overlaps no range handed out before (two
//! storages never alias); it is a copy otherwise. Writes to a zero-copy
//! storage go to private pages, never to the file.
//!
//! The mapping's hazard: if another process truncates the file while it is
//! mapped, the next access to the lost pages kills the process with SIGBUS
//! (it cannot be caught as an error). Read such files with the `load_bytes`
//! functions of each format, which copy.

use std::any::Any;
use std::fs::File;
use std::ops::Range;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use axial_core::cpu::{CpuBuffer, EXTERNAL_ALIGN};
use axial_core::{Cpu, Storage};

use crate::{Error, Result};

/// A file's bytes, read-only while the file is parsed.
pub(crate) struct FileBytes {
    /// First byte; valid for `len` bytes while `backing` lives.
    base: NonNull<u8>,
    len: usize,
    /// The memory the bytes live in (a mapping or a host buffer), kept
    /// alive by every storage cut from it.
    backing: Arc<dyn Any + Send + Sync>,
    /// Ranges handed out as zero-copy storages, so none is handed twice.
    claimed: Mutex<Vec<Range<usize>>>,
}

// SAFETY: the bytes are only read through `&self` while parsing (no writes),
// and the claimed-range list is behind a mutex.
unsafe impl Send for FileBytes {}
// SAFETY: as above.
unsafe impl Sync for FileBytes {}

impl FileBytes {
    /// Maps `path` privately (writes never reach the file).
    pub(crate) fn map(path: &Path) -> Result<Self> {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        if len == 0 {
            return Self::copy(&[]);
        }
        // SAFETY: a private mapping; the file must not be truncated while
        // mapped (the module docs say so; `load_bytes` avoids the mapping).
        let mut map = unsafe { memmap2::MmapOptions::new().map_copy(&file) }
            .map_err(|e| Error::io(path, e))?;
        let base = NonNull::new(map.as_mut_ptr())
            .ok_or_else(|| Error::io(path, std::io::Error::other("the mapping has no address")))?;
        let len = map.len();
        Ok(Self::new(base, len, Arc::new(map)))
    }

    /// A copy of `bytes` in an aligned host buffer.
    pub(crate) fn copy(bytes: &[u8]) -> Result<Self> {
        let mut buffer = CpuBuffer::new(bytes.len(), false)?;
        buffer.as_bytes_mut().copy_from_slice(bytes);
        let base = NonNull::new(buffer.as_bytes_mut().as_mut_ptr()).unwrap_or(NonNull::dangling());
        Ok(Self::new(base, bytes.len(), Arc::new(buffer)))
    }

    fn new(base: NonNull<u8>, len: usize, backing: Arc<dyn Any + Send + Sync>) -> Self {
        FileBytes {
            base,
            len,
            backing,
            claimed: Mutex::new(Vec::new()),
        }
    }

    /// The whole file.
    pub(crate) fn bytes(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: `base` is valid for `len` initialised bytes while `backing`
        // lives (as long as `self`); nothing writes them while `self` is
        // borrowed, since zero-copy storages reach users only after parsing.
        unsafe { std::slice::from_raw_parts(self.base.as_ptr(), self.len) }
    }

    /// A storage holding the bytes `range` of the file: zero-copy when the
    /// range starts [`EXTERNAL_ALIGN`]-aligned and overlaps no range handed
    /// out before, a copy otherwise.
    ///
    /// # Errors
    /// The range is outside the file (the caller checks first), or the
    /// copy's allocation failed.
    pub(crate) fn storage(&self, format: &'static str, range: Range<usize>) -> Result<Storage> {
        let bytes = self.bytes().get(range.clone()).ok_or_else(|| {
            Error::format(
                format,
                format!(
                    "bytes {}..{} are outside the file of {} bytes",
                    range.start, range.end, self.len
                ),
            )
        })?;
        if bytes.is_empty() {
            return Ok(Storage::from_host_bytes(&Cpu, &[])?);
        }
        let ptr = bytes.as_ptr();
        if (ptr as usize).is_multiple_of(EXTERNAL_ALIGN) && self.claim(range.clone()) {
            let owner = Arc::clone(&self.backing);
            let ptr = NonNull::new(ptr.cast_mut()).unwrap_or(NonNull::dangling());
            // SAFETY: the bytes lie inside the backing, which `owner` keeps
            // alive; the range was claimed by no other storage (checked just
            // above), and the parser holds no reference to it once it returns
            // the storages to the caller.
            let buffer = unsafe { CpuBuffer::from_external(ptr, range.len(), owner) }?;
            return Ok(Storage::from_buffer(buffer, Cpu));
        }
        Ok(Storage::from_host_bytes(&Cpu, bytes)?)
    }

    /// Records `range` as handed out; false when it overlaps one that was.
    fn claim(&self, range: Range<usize>) -> bool {
        let Ok(mut claimed) = self.claimed.lock() else {
            return false;
        };
        if claimed
            .iter()
            .any(|r| r.start < range.end && range.start < r.end)
        {
            return false;
        }
        claimed.push(range);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_ranges_are_shared_once_and_copied_after() {
        let file = FileBytes::copy(&(0u8..64).collect::<Vec<_>>()).unwrap();
        let a = file.storage("test", 8..16).unwrap();
        assert_eq!(a.data_ptr(), file.bytes()[8..].as_ptr() as usize);
        let overlapping = file.storage("test", 8..12).unwrap();
        assert_ne!(overlapping.data_ptr(), a.data_ptr());
        let odd = file.storage("test", 3..7).unwrap();
        assert_eq!(odd.as_bytes(), &[3, 4, 5, 6]);
        assert!(file.storage("test", 60..70).is_err());
    }
}
