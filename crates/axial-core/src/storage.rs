//! Untyped storage: a device buffer of bytes, shared by every view of it.
//!
//! A storage either holds memory axial allocated or views foreign memory in
//! place (a NumPy array's, a DLPack producer's), kept alive by a
//! [`KeepAlive`] handle of its owner.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use crate::{Cpu, DType, Device, Element, Error, Result};

/// A shared handle of whatever keeps some memory alive: a DLPack deleter, a
/// Python object, a `Vec`, or a buffer axial allocated and now shares. The
/// memory lives until the last handle (and the last storage over it) is
/// dropped. The owner inside cannot be reached while it is shared, so no
/// one reads it behind the storage's back; a unique handle gives it back.
///
/// # Example
/// ```
/// use axial_core::storage::KeepAlive;
/// let keep = KeepAlive::new(vec![1.0f32, 2.0]);
/// let other = keep.clone();
/// assert!(!keep.is_unique());
/// drop(other);
/// assert_eq!(keep.try_unwrap::<Vec<f32>>().ok(), Some(vec![1.0, 2.0]));
/// ```
#[derive(Clone)]
pub struct KeepAlive(Arc<dyn Any + Send + Sync>);

impl KeepAlive {
    /// Wraps an owner a buffer already holds.
    pub(crate) fn from_inner(owner: Arc<dyn Any + Send + Sync>) -> Self {
        KeepAlive(owner)
    }

    /// The owner, for a buffer to hold.
    pub(crate) fn into_inner(self) -> Arc<dyn Any + Send + Sync> {
        self.0
    }
}

impl KeepAlive {
    /// A handle owning `owner`.
    ///
    /// ```
    /// # use axial_core::storage::KeepAlive;
    /// assert!(KeepAlive::new(String::from("owner")).is_unique());
    /// ```
    pub fn new<T: Any + Send + Sync>(owner: T) -> Self {
        KeepAlive(Arc::new(owner))
    }

    /// True when no other handle (and no storage) shares the owner.
    ///
    /// ```
    /// # use axial_core::storage::KeepAlive;
    /// let keep = KeepAlive::new(0u8);
    /// let _other = keep.clone();
    /// assert!(!keep.is_unique());
    /// ```
    pub fn is_unique(&self) -> bool {
        Arc::strong_count(&self.0) == 1 && Arc::weak_count(&self.0) == 0
    }

    /// The owner, when this is the only handle and it is a `T`; else the
    /// handle back.
    ///
    /// ```
    /// # use axial_core::storage::KeepAlive;
    /// let keep = KeepAlive::new(vec![1u8]);
    /// let keep = keep.try_unwrap::<String>().unwrap_err(); // not a String
    /// assert_eq!(keep.try_unwrap::<Vec<u8>>().ok(), Some(vec![1]));
    /// ```
    pub fn try_unwrap<T: Any + Send + Sync>(self) -> std::result::Result<T, Self> {
        match Arc::downcast::<T>(self.0) {
            Ok(arc) => Arc::try_unwrap(arc).map_err(|arc| KeepAlive(arc)),
            Err(arc) => Err(KeepAlive(arc)),
        }
    }
}

impl fmt::Debug for KeepAlive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeepAlive({} handles)", Arc::strong_count(&self.0))
    }
}

/// A block of device memory holding a tensor's elements as raw bytes
/// (PyTorch's `untyped_storage()`). Layouts index it in elements of a dtype;
/// the storage itself knows only its length in bytes.
///
/// # Example
/// ```
/// use axial_core::Storage;
/// let mut s = Storage::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// assert_eq!(s.nbytes(), 24);
/// s.as_bytes_mut()[3] = 0x40; // the high byte of element 0
/// assert_eq!(s.as_slice::<f32>()?[0], 4.0); // 0x40800000
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct Storage<D: Device = Cpu> {
    buffer: D::Buffer,
    device: D,
}

impl<D: Device> Storage<D> {
    /// A storage over a device buffer.
    ///
    /// ```
    /// # use axial_core::{Cpu, Storage};
    /// let s = Storage::from_buffer(Cpu.alloc_buffer(8), Cpu);
    /// assert_eq!(s.nbytes(), 8);
    /// ```
    pub fn from_buffer(buffer: D::Buffer, device: D) -> Self {
        Storage { buffer, device }
    }

    /// `nbytes` bytes of unspecified (initialised) contents on `device`: for
    /// outputs a kernel overwrites whole.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{Cpu, Storage};
    /// let s = Storage::uninit(&Cpu, 16)?;
    /// assert_eq!(s.nbytes(), 16);
    /// assert!(Storage::uninit(&Cpu, usize::MAX).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn uninit(device: &D, nbytes: usize) -> Result<Self> {
        Ok(Storage::from_buffer(device.alloc(nbytes)?, device.clone()))
    }

    /// `nbytes` zero bytes on `device`.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{Cpu, Storage};
    /// assert_eq!(Storage::zeroed(&Cpu, 12)?.as_bytes(), &[0u8; 12]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn zeroed(device: &D, nbytes: usize) -> Result<Self> {
        Ok(Storage::from_buffer(
            device.alloc_zeroed(nbytes)?,
            device.clone(),
        ))
    }

    /// A storage holding a copy of `bytes` on `device`.
    ///
    /// # Errors
    /// Out of memory, or the copy failed.
    ///
    /// ```
    /// # use axial_core::{Cpu, Storage};
    /// let s = Storage::from_host_bytes(&Cpu, &[1, 2, 3])?;
    /// assert_eq!(s.to_host_bytes()?, vec![1, 2, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_host_bytes(device: &D, bytes: &[u8]) -> Result<Self> {
        let mut s = Storage::uninit(device, bytes.len())?;
        device.copy_from_host(&mut s.buffer, 0, bytes)?;
        Ok(s)
    }

    /// A storage holding a copy of `data` on `device`.
    ///
    /// # Errors
    /// Out of memory, or the copy failed.
    ///
    /// ```
    /// # use axial_core::{Cpu, Storage};
    /// let s = Storage::from_host_slice(&Cpu, &[1i16, -2])?;
    /// assert_eq!(s.as_slice::<i16>()?, &[1, -2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_host_slice<T: Element>(device: &D, data: &[T]) -> Result<Self> {
        Self::from_host_bytes(device, bytemuck::cast_slice(data))
    }

    /// Length in bytes (`untyped_storage().nbytes()`).
    ///
    /// ```
    /// # use axial_core::Storage;
    /// assert_eq!(Storage::from_slice(&[0.0f64; 3]).nbytes(), 24);
    /// ```
    pub fn nbytes(&self) -> usize {
        self.device.buffer_len(&self.buffer)
    }

    /// Whole elements of `dtype` the storage holds.
    ///
    /// ```
    /// # use axial_core::{DType, Storage};
    /// let s = Storage::from_slice(&[0u8; 10]);
    /// assert_eq!(s.len_of(DType::U8), 10);
    /// assert_eq!(s.len_of(DType::F32), 2); // the last two bytes make no f32
    /// ```
    pub fn len_of(&self, dtype: DType) -> usize {
        self.nbytes() / dtype.size()
    }

    /// The device.
    ///
    /// ```
    /// # use axial_core::{Cpu, Device, Storage};
    /// let s = Storage::from_slice(&[1i32]);
    /// assert_eq!(s.device(), &Cpu);
    /// assert_eq!(s.device().name(), "cpu");
    /// ```
    pub fn device(&self) -> &D {
        &self.device
    }

    /// The device buffer.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let s = Storage::from_slice(&[9u8, 8]);
    /// assert_eq!(s.buffer().as_bytes(), &[9, 8]);
    /// ```
    pub fn buffer(&self) -> &D::Buffer {
        &self.buffer
    }

    /// The device buffer, mutably.
    ///
    /// ```
    /// # use axial_core::{Cpu, Device, Storage};
    /// let mut s = Storage::from_slice(&[0u8; 3]);
    /// Cpu.copy_from_host(s.buffer_mut(), 1, &[5])?;
    /// assert_eq!(s.as_bytes(), &[0, 5, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn buffer_mut(&mut self) -> &mut D::Buffer {
        &mut self.buffer
    }

    /// The address of the first byte (0 when empty), as PyTorch's `data_ptr()`.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let s = Storage::from_slice(&[1.0f32; 4]);
    /// assert_eq!(s.data_ptr(), s.as_bytes().as_ptr() as usize);
    /// assert_eq!(Storage::from_slice::<f32>(&[]).data_ptr(), 0);
    /// ```
    pub fn data_ptr(&self) -> usize {
        self.device.buffer_addr(&self.buffer)
    }

    /// Whether two storages are the same memory.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let a = Storage::from_slice(&[1u8, 2]);
    /// let b = a.clone(); // a copy, not the same memory
    /// assert!(a.same_as(&a));
    /// assert!(!a.same_as(&b));
    /// ```
    pub fn same_as(&self, other: &Storage<D>) -> bool {
        std::ptr::eq(self, other) || (self.nbytes() > 0 && self.data_ptr() == other.data_ptr())
    }

    /// Copies the storage's bytes to host memory.
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let s = Storage::from_slice(&[-1i16, 0]);
    /// assert_eq!(s.to_host_bytes()?, vec![0xff, 0xff, 0, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_host_bytes(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; self.nbytes()];
        self.device.copy_to_host(&self.buffer, 0, &mut out)?;
        Ok(out)
    }

    /// Reads the byte at `index`.
    ///
    /// # Errors
    /// `index` is past the end, or the device failed.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let s = Storage::from_slice(&[1u8, 2, 3]);
    /// assert_eq!(s.read_byte(2)?, 3);
    /// assert!(s.read_byte(3).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn read_byte(&self, index: usize) -> Result<u8> {
        self.check_byte(index)?;
        let mut b = [0u8];
        self.device.copy_to_host(&self.buffer, index, &mut b)?;
        Ok(b[0])
    }

    /// Writes the byte at `index`.
    ///
    /// # Errors
    /// `index` is past the end, or the device failed.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let mut s = Storage::from_slice(&[0u8; 2]);
    /// s.write_byte(1, 42)?;
    /// assert_eq!(s.as_bytes(), &[0, 42]);
    /// assert!(s.write_byte(2, 1).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn write_byte(&mut self, index: usize, value: u8) -> Result<()> {
        self.check_byte(index)?;
        self.device
            .copy_from_host(&mut self.buffer, index, &[value])
    }

    /// A copy of this storage on the same device.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let mut s = Storage::from_slice(&[1u8, 2]);
    /// let copy = s.try_clone()?;
    /// s.write_byte(0, 9)?;
    /// assert_eq!(copy.as_bytes(), &[1, 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn try_clone(&self) -> Result<Self> {
        Ok(Storage::from_buffer(
            self.device.duplicate(&self.buffer)?,
            self.device.clone(),
        ))
    }

    fn check_byte(&self, index: usize) -> Result<()> {
        if index >= self.nbytes() {
            return Err(Error::IndexOutOfBounds {
                index: index as isize,
                dim: 0,
                size: self.nbytes(),
            });
        }
        Ok(())
    }
}

impl Storage<Cpu> {
    /// A CPU storage holding a copy of `data`.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// assert_eq!(Storage::from_slice(&[1i64, 2]).nbytes(), 16);
    /// ```
    pub fn from_slice<T: Element>(data: &[T]) -> Self {
        let mut s = Storage::from_buffer(Cpu.alloc_buffer(std::mem::size_of_val(data)), Cpu);
        s.as_bytes_mut().copy_from_slice(bytemuck::cast_slice(data));
        s
    }

    /// A storage over `nbytes` of foreign memory at `ptr`, kept alive by
    /// `owner`, without a copy (see [`CpuBuffer::from_owner`], whose
    /// contract this is). A storage that is not `writable` is copied into
    /// one of its own on the first mutable access, so it never writes the
    /// owner's memory.
    ///
    /// # Safety
    /// As [`CpuBuffer::from_owner`].
    ///
    /// ```
    /// use axial_core::{Storage, storage::KeepAlive};
    /// let mut data = vec![1.0f32, 2.0];
    /// let ptr = data.as_mut_ptr();
    /// // SAFETY: the Vec's block lives as long as the owner, used only through the storage.
    /// let s = unsafe { Storage::from_owner(ptr.cast(), 8, KeepAlive::new(data), true) };
    /// assert_eq!((s.data_ptr(), s.as_slice::<f32>()?), (ptr as usize, &[1.0, 2.0][..]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    ///
    /// [`CpuBuffer::from_owner`]: crate::cpu::CpuBuffer::from_owner
    pub unsafe fn from_owner(
        ptr: *mut u8,
        nbytes: usize,
        owner: KeepAlive,
        writable: bool,
    ) -> Self {
        // SAFETY: the caller keeps `from_owner`'s contract.
        let buffer = unsafe { crate::cpu::CpuBuffer::from_owner(ptr, nbytes, owner, writable) };
        Storage::from_buffer(buffer, Cpu)
    }

    /// A handle that keeps this storage's memory alive after the storage is
    /// dropped, for a consumer outside axial (a DLPack export): the memory
    /// stays where it is, now shared between the storage and the handle,
    /// and writes through either side show in the other.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let mut s = Storage::from_slice(&[1u8, 2]);
    /// let addr = s.data_ptr();
    /// let keep = s.keep_alive();
    /// s.write_byte(0, 7)?;
    /// assert_eq!((s.data_ptr(), s.as_bytes()), (addr, &[7, 2][..]));
    /// drop(s);
    /// assert!(keep.is_unique());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn keep_alive(&mut self) -> KeepAlive {
        self.buffer.keep_alive()
    }

    /// A handle of the owner of an external storage's memory, through a
    /// shared borrow (a read-only export of it); `None` for memory axial
    /// allocated and has not shared.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let mut s = Storage::from_slice(&[1u8]);
    /// assert!(s.owner().is_none());
    /// let keep = s.keep_alive();
    /// assert!(s.owner().is_some() && !keep.is_unique());
    /// ```
    pub fn owner(&self) -> Option<KeepAlive> {
        self.buffer.owner()
    }

    /// True when the storage views external memory (another owner keeps it alive).
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let mut s = Storage::from_slice(&[1u8]);
    /// assert!(!s.is_external());
    /// let _keep = s.keep_alive(); // now shared with the handle
    /// assert!(s.is_external());
    /// ```
    pub fn is_external(&self) -> bool {
        self.buffer.is_external()
    }

    /// False for a read-only external storage (its first mutable access copies it).
    ///
    /// ```
    /// # use axial_core::{Storage, storage::KeepAlive};
    /// static DATA: [u8; 2] = [1, 2];
    /// // SAFETY: static memory, only read (not writable).
    /// let s = unsafe { Storage::from_owner(DATA.as_ptr().cast_mut(), 2, KeepAlive::new(()), false) };
    /// assert!(!s.is_writable());
    /// assert!(Storage::from_slice(&[0u8]).is_writable());
    /// ```
    pub fn is_writable(&self) -> bool {
        self.buffer.is_writable()
    }

    /// The owner of a external storage, giving up the storage; `Err(self)`
    /// for memory axial allocated.
    ///
    /// ```
    /// # use axial_core::{Storage, storage::KeepAlive};
    /// let mut data = vec![3u8];
    /// let ptr = data.as_mut_ptr();
    /// // SAFETY: as in `from_owner`'s example.
    /// let s = unsafe { Storage::from_owner(ptr, 1, KeepAlive::new(data), true) };
    /// let owner = s.into_owner().ok().unwrap();
    /// assert_eq!(owner.try_unwrap::<Vec<u8>>().ok(), Some(vec![3]));
    /// ```
    pub fn into_owner(self) -> std::result::Result<KeepAlive, Self> {
        self.buffer
            .into_owner()
            .map_err(|buffer| Storage::from_buffer(buffer, Cpu))
    }

    /// The bytes.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// assert_eq!(Storage::from_slice(&[0x0101i16, 0]).as_bytes(), &[1, 1, 0, 0]);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        self.buffer.as_bytes()
    }

    /// The bytes, mutably (a read-only external storage is copied first).
    ///
    /// # Panics
    /// Copying a read-only external storage runs out of memory.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let mut s = Storage::from_slice(&[0u8; 4]);
    /// s.as_bytes_mut()[1..3].fill(7);
    /// assert_eq!(s.as_bytes(), &[0, 7, 7, 0]);
    /// ```
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        self.buffer.as_bytes_mut()
    }

    /// The storage as elements of `T` (host buffers are 64-byte aligned;
    /// external memory may not be aligned for `T`).
    ///
    /// # Errors
    /// The byte length is not a multiple of `T`'s size, or the memory is
    /// not aligned for `T`.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let s = Storage::from_slice(&[1u8, 0, 2, 0, 3]);
    /// assert_eq!(s.as_slice::<u8>()?, &[1, 0, 2, 0, 3]);
    /// assert!(s.as_slice::<i16>().is_err()); // 5 bytes are not whole i16s
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn as_slice<T: Element>(&self) -> Result<&[T]> {
        bytemuck::try_cast_slice(self.as_bytes()).map_err(|e| cast_error::<T>(self.nbytes(), e))
    }

    /// The storage as elements of `T`, mutably.
    ///
    /// # Errors
    /// The byte length is not a multiple of `T`'s size.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// let mut s = Storage::from_slice(&[1.0f32, 2.0]);
    /// s.as_mut_slice::<f32>()?[1] = -2.0;
    /// assert_eq!(s.as_slice::<f32>()?, &[1.0, -2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn as_mut_slice<T: Element>(&mut self) -> Result<&mut [T]> {
        let n = self.nbytes();
        bytemuck::try_cast_slice_mut(self.as_bytes_mut()).map_err(|e| cast_error::<T>(n, e))
    }
}

fn cast_error<T: Element>(nbytes: usize, e: bytemuck::PodCastError) -> Error {
    Error::invalid(
        "storage",
        format!("cannot view {nbytes} bytes as {} ({e:?})", T::DTYPE),
    )
}

impl<D: Device> fmt::Debug for Storage<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Storage({} bytes on {})",
            self.nbytes(),
            self.device.name()
        )
    }
}

impl Clone for Storage<Cpu> {
    fn clone(&self) -> Self {
        let mut s = Storage::from_buffer(Cpu.alloc_buffer(self.nbytes()), Cpu);
        s.as_bytes_mut().copy_from_slice(self.as_bytes());
        s
    }
}
