//! Untyped storage: a device buffer of bytes, shared by every view of it.

use std::fmt;

use crate::{Cpu, DType, Device, Element, Error, Result};

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

    /// The bytes.
    ///
    /// ```
    /// # use axial_core::Storage;
    /// assert_eq!(Storage::from_slice(&[0x0101i16, 0]).as_bytes(), &[1, 1, 0, 0]);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        self.buffer.as_bytes()
    }

    /// The bytes, mutably.
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

    /// The storage as elements of `T` (the buffer is 64-byte aligned).
    ///
    /// # Errors
    /// The byte length is not a multiple of `T`'s size.
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

/// A copy on the same device, as [`Storage::try_clone`]; out of memory
/// panics, as `Vec`'s clone does.
impl<D: Device> Clone for Storage<D> {
    fn clone(&self) -> Self {
        self.try_clone().unwrap_or_else(|e| panic!("{e}"))
    }
}
