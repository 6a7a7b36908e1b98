//! DLPack: axial tensors to and from managed tensors (the versioned 1.x ABI,
//! and the legacy one for consumers that ask for it), through [`dlpark`],
//! without copies.
//!
//! - Export ([`to_dlpack`], [`export`]): the tensor's storage becomes shared
//!   in place (same address) between the tensor and the managed tensor's
//!   context, so writes on either side show on the other, and the memory
//!   lives until both the tensor and the consumer (its deleter) let go. As
//!   PyTorch does, `data` is the first element's address (the storage
//!   offset folded in), `byte_offset` is 0 and strides are always present.
//!   The `READ_ONLY` flag is set for an export asked read-only (a tensor
//!   read-only in the type: [`export_view`]) and for a layout whose elements
//!   share memory (a broadcast), which axial never writes.
//! - Import ([`from_dlpack`]): an [`Imported`] tensor over the producer's
//!   memory with its strides and byte offset kept (the offset becomes the
//!   storage offset when it is a whole number of elements), read-only when
//!   the producer says so (PyTorch ignores the flag and writes), kept alive
//!   by the producer's deleter until the last axial user drops it.
//!   Negative strides are refused ([`copy_from_dlpack`] copies them).
//!
//! CUDA tensors (device type 2) are refused on both sides until the CUDA
//! device exists; the device is one field of the descriptor, so their
//! export is the same code over a device buffer.
//!
//! # Example
//! ```
//! use axial_core::{DType, RawTensor};
//! let mut x = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?;
//! let capsule = axial_io::dlpack::to_dlpack(&mut x)?; // x stays usable
//! let mut y = axial_io::dlpack::from_dlpack(capsule)?; // what a consumer sees
//! assert_eq!(y.view().data_ptr(), x.view().data_ptr());
//! y.view_mut()?.fill_(1.0.into())?;
//! assert_eq!(x.to_vec::<f32>()?, vec![1.0; 6]); // one memory
//! # Ok::<(), axial::Error>(())
//! ```

use axial::{Cpu, Data, DataMut, Shape, TensorBase};
use axial_core::storage::KeepAlive;
use axial_core::{DType, Element, Error, Layout, RawTensor, Result, Storage};
use dlpark::ffi::{DLDataType, DLDataTypeCode, DLDevice, DLDeviceType};
use dlpark::metadata::Dynamic;
use dlpark::{DlpackFlags, Managed, ManagedTensorBase};

use crate::Imported;

/// A versioned (DLPack 1.x) managed tensor, what [`to_dlpack`] gives.
pub type Dlpack = dlpark::versioned::Dlpack;

/// What a managed tensor's context holds: the memory's owner.
struct Context {
    /// Keeps the exported memory alive until the consumer's deleter runs.
    _memory: KeepAlive,
}

/// The DLPack dtype of an axial dtype (PyTorch's codes: `bool` is code 6).
///
/// ```
/// use axial_core::DType;
/// let d = axial_io::dlpack::dl_dtype(DType::BF16);
/// assert_eq!((d.code.0, d.bits, d.lanes), (4, 16, 1));
/// ```
pub fn dl_dtype(dtype: DType) -> DLDataType {
    let (code, bits) = match dtype {
        DType::Bool => (DLDataTypeCode::BOOL, 8),
        DType::U8 => (DLDataTypeCode::UINT, 8),
        DType::I8 => (DLDataTypeCode::INT, 8),
        DType::I16 => (DLDataTypeCode::INT, 16),
        DType::I32 => (DLDataTypeCode::INT, 32),
        DType::I64 => (DLDataTypeCode::INT, 64),
        DType::F16 => (DLDataTypeCode::FLOAT, 16),
        DType::BF16 => (DLDataTypeCode::BFLOAT, 16),
        DType::F32 => (DLDataTypeCode::FLOAT, 32),
        DType::F64 => (DLDataTypeCode::FLOAT, 64),
        DType::U16 => (DLDataTypeCode::UINT, 16),
        DType::U32 => (DLDataTypeCode::UINT, 32),
        DType::U64 => (DLDataTypeCode::UINT, 64),
        DType::C64 => (DLDataTypeCode::COMPLEX, 64),
        DType::C128 => (DLDataTypeCode::COMPLEX, 128),
        DType::F8E4M3Fn => (DLDataTypeCode::FLOAT8_E4M3FN, 8),
        DType::F8E5M2 => (DLDataTypeCode::FLOAT8_E5M2, 8),
        DType::F8E4M3FnUz => (DLDataTypeCode::FLOAT8_E4M3FNUZ, 8),
        DType::F8E5M2FnUz => (DLDataTypeCode::FLOAT8_E5M2FNUZ, 8),
    };
    DLDataType::scalar(code, bits)
}

/// The axial dtype of a DLPack dtype.
///
/// # Errors
/// A dtype axial does not hold (vectors of lanes, float8s other than
/// PyTorch's four, sub-byte types), named with its code, bits and lanes.
///
/// ```
/// use axial_core::DType;
/// use dlpark::ffi::{DLDataType, DLDataTypeCode};
/// let f = DLDataType::scalar(DLDataTypeCode::FLOAT, 32);
/// assert_eq!(axial_io::dlpack::dtype_of(f)?, DType::F32);
/// let c = DLDataType::scalar(DLDataTypeCode::COMPLEX, 64);
/// assert_eq!(axial_io::dlpack::dtype_of(c)?, DType::C64);
/// let two = DLDataType { lanes: 2, ..f };
/// assert!(axial_io::dlpack::dtype_of(two).is_err());
/// # Ok::<(), axial::Error>(())
/// ```
pub fn dtype_of(dl: DLDataType) -> Result<DType> {
    DType::EVERY
        .into_iter()
        .find(|&d| {
            let want = dl_dtype(d);
            (want.code.0, want.bits, want.lanes) == (dl.code.0, dl.bits, dl.lanes)
        })
        .ok_or_else(|| {
            Error::invalid(
                "from_dlpack",
                format!(
                    "unsupported dtype in DLTensor: code {}, bits {}, lanes {} (axial holds bool, uint8..uint64, int8..int64, float16, bfloat16, float32, float64, complex64, complex128 and the float8s, one lane each)",
                    dl.code.0, dl.bits, dl.lanes
                ),
            )
        })
}

/// Exports an untyped CPU tensor as a versioned managed tensor, sharing its
/// memory: writes through the tensor show in the consumer and back. Marked
/// `READ_ONLY` only when two elements share memory (a broadcast).
///
/// # Errors
/// A size or stride past `i64`.
///
/// ```
/// use axial_core::{DType, Layout, RawTensor, Storage};
/// let storage = Storage::from_slice(&[0.0f64; 12]);
/// let transposed = Layout::contiguous(&[3, 4]).t()?; // (4, 3), strides (1, 4)
/// let mut xt = RawTensor::from_parts(storage, transposed, DType::F64)?;
/// let capsule = axial_io::dlpack::to_dlpack(&mut xt)?;
/// let d = capsule.validate().map_err(|e| axial::Error::invalid("dlpack", e.to_string()))?;
/// assert_eq!((d.shape(), d.strides()), (&[4, 3][..], Some(&[1, 4][..])));
/// assert_eq!(capsule.version().major, 1);
/// # Ok::<(), axial::Error>(())
/// ```
pub fn to_dlpack(tensor: &mut RawTensor) -> Result<Dlpack> {
    let (layout, dtype) = (tensor.layout().clone(), tensor.dtype());
    export(tensor.storage_mut(), &layout, dtype, false)
}

/// Exports a writable typed tensor (owned, a mutable view, an `ArcTensor`
/// not shared with another) as [`to_dlpack`] does.
///
/// # Errors
/// As [`to_dlpack`].
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let mut m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
/// let capsule = axial_io::dlpack::export_tensor(&mut m)?;
/// assert!(capsule.flags().is_empty()); // writable
/// let back = axial_io::dlpack::from_dlpack(capsule)?;
/// assert_eq!(back.view().data_ptr(), m.data_ptr());
/// # Ok::<(), axial::Error>(())
/// ```
pub fn export_tensor<T: Element, S: Shape, R: DataMut<Cpu>>(
    tensor: &mut TensorBase<T, S, Cpu, R>,
) -> Result<Dlpack> {
    let layout = typed_layout(tensor);
    export(tensor.untyped_storage_mut(), &layout, T::DTYPE, false)
}

/// Exports any typed tensor read-only (`READ_ONLY` set): what a tensor
/// read-only in the type (a `TensorView`, a broadcast) gives. Its memory is
/// shared when another owner already keeps it alive (it was imported, or
/// exported before); memory only a borrow reaches cannot outlive the borrow,
/// so it is copied, and the export says so (`IS_COPIED`, not `READ_ONLY`:
/// the copy is the consumer's).
///
/// # Errors
/// As [`to_dlpack`], or out of memory for the copy.
///
/// ```
/// use axial::prelude::*;
/// use dlpark::DlpackFlags;
/// let mut m = Tensor::<f32, shape![2, 3]>::arange();
/// let first = axial_io::dlpack::export_tensor(&mut m)?; // m's memory is now shared
/// let view = axial_io::dlpack::export_view(&m.as_view().t())?;
/// assert_eq!(view.flags(), DlpackFlags::READ_ONLY);
/// let fresh = Tensor::<f32, shape![2, 3]>::arange();
/// assert_eq!(axial_io::dlpack::export_view(&fresh.as_view())?.flags(), DlpackFlags::IS_COPIED);
/// # drop(first);
/// # Ok::<(), axial::Error>(())
/// ```
pub fn export_view<T: Element, S: Shape, R: Data<Cpu>>(
    tensor: &TensorBase<T, S, Cpu, R>,
) -> Result<Dlpack> {
    let layout = typed_layout(tensor);
    let storage = tensor.untyped_storage();
    match storage.owner() {
        Some(owner) => build(storage, owner, &layout, T::DTYPE, DlpackFlags::READ_ONLY),
        None => {
            let raw = axial_core::TensorRef::new(storage, layout, T::DTYPE)?.to_contiguous()?;
            let (mut copy, layout, dtype) = raw.into_parts();
            let owner = copy.keep_alive();
            build(&copy, owner, &layout, dtype, DlpackFlags::IS_COPIED)
        }
    }
}

/// Exports `layout` of `dtype` elements over `storage` as a managed tensor
/// of either ABI (`M` is `DLManagedTensorVersioned` or the legacy
/// `DLManagedTensor`), sharing the storage in place. `read_only` sets the
/// `READ_ONLY` flag (versioned only; a layout whose elements share memory
/// sets it too).
///
/// # Errors
/// The layout does not fit the storage, a size or stride does not fit
/// `i64`, or the legacy ABI is asked for a read-only export (it cannot say
/// so).
///
/// ```
/// use axial_core::{DType, Layout, Storage};
/// use dlpark::ffi::DLManagedTensor;
/// let mut s = Storage::from_slice(&[1i32, 2, 3]);
/// let legacy = axial_io::dlpack::export::<DLManagedTensor>(&mut s, &Layout::contiguous(&[3]), DType::I32, false)?;
/// let d = legacy.validate().map_err(|e| axial::Error::invalid("dlpack", e.to_string()))?;
/// assert_eq!(d.data_ptr() as usize, s.data_ptr());
/// # Ok::<(), axial::Error>(())
/// ```
pub fn export<M: ManagedTensorBase>(
    storage: &mut Storage,
    layout: &Layout,
    dtype: DType,
    read_only: bool,
) -> Result<Managed<M>> {
    layout.check_bounds(storage.len_of(dtype), dtype.size())?;
    let owner = storage.keep_alive();
    let flags = if read_only || !layout.is_non_overlapping() {
        DlpackFlags::READ_ONLY
    } else {
        DlpackFlags::empty()
    };
    build(storage, owner, layout, dtype, flags)
}

/// The managed tensor over `storage` (whose memory `owner` keeps), with `flags`.
fn build<M: ManagedTensorBase>(
    storage: &Storage,
    owner: KeepAlive,
    layout: &Layout,
    dtype: DType,
    flags: DlpackFlags,
) -> Result<Managed<M>> {
    layout.check_bounds(storage.len_of(dtype), dtype.size())?;
    let to_i64 = |v: usize| {
        i64::try_from(v)
            .map_err(|_| Error::invalid("to_dlpack", format!("{v} does not fit DLPack's i64")))
    };
    let shape = layout
        .shape()
        .iter()
        .map(|&n| to_i64(n))
        .collect::<Result<Vec<i64>>>()?;
    let strides = layout
        .strides()
        .iter()
        .map(|&s| s as i64)
        .collect::<Vec<i64>>();
    let mut init = Dynamic::new(shape, strides)
        .prepare_as::<M>()
        .map_err(|e| Error::invalid("to_dlpack", e.to_string()))?
        .initialize(Box::new(Context { _memory: owner }));
    // As PyTorch: the first element's address, no byte offset; NULL when empty.
    let data = if layout.numel() == 0 {
        std::ptr::null_mut()
    } else {
        (storage.data_ptr() + layout.offset() * dtype.size()) as *mut std::ffi::c_void
    };
    init.set_data(data)
        .set_dtype(dl_dtype(dtype))
        .set_device(DLDevice::CPU)
        .set_byte_offset(0);
    // SAFETY: IS_COPIED is set only by `export_view` for a fresh copy the
    // context alone owns; READ_ONLY asks less of the consumer than it may do.
    unsafe { init.set_flags_unchecked(flags) };
    // SAFETY: `data` and the layout lie in memory the context keeps alive
    // (checked in bounds above) until the deleter drops the context; shape
    // and strides are copied into the managed allocation; strides are
    // explicit; the flags describe the memory (shared and writable unless
    // marked).
    let managed = unsafe { init.finish() };
    if managed.flags() != flags {
        // The legacy ABI has no flags field: it cannot say read-only.
        return Err(Error::invalid(
            "to_dlpack",
            "the legacy DLPack ABI cannot mark a tensor read-only or copied; ask for the versioned one (max_version=(1, 0))",
        ));
    }
    Ok(managed)
}

/// Imports a managed tensor of either ABI without a copy: its shape,
/// strides and byte offset, read-only when it is marked so, alive until the
/// last axial user lets go (then its deleter runs).
///
/// # Errors
/// Not a CPU tensor, a dtype axial does not hold, a negative stride (copy
/// it with [`copy_from_dlpack`]), a size past memory, a byte offset that is
/// not a whole number of elements from an aligned pointer, or a descriptor
/// dlpark finds malformed.
///
/// ```
/// use axial_core::{DType, Layout, Storage};
/// let mut s = Storage::from_slice(&[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0]);
/// let row = Layout::from_parts(&[3], &[1], 3); // the second row of a 2×3
/// let capsule = axial_io::dlpack::export::<dlpark::ffi::DLManagedTensorVersioned>(&mut s, &row, DType::F32, true)?;
/// let x = axial_io::dlpack::from_dlpack(capsule)?;
/// assert!(x.is_read_only());
/// assert_eq!((x.view().to_vec::<f32>()?, x.view().data_ptr()), (vec![3.0, 4.0, 5.0], s.data_ptr() + 12));
/// # Ok::<(), axial::Error>(())
/// ```
pub fn from_dlpack<M: ManagedTensorBase>(managed: Managed<M>) -> Result<Imported<'static>> {
    let described = describe(&managed)?;
    if described.strides.iter().any(|&s| s < 0) {
        return Err(Error::invalid(
            "from_dlpack",
            format!(
                "the tensor's strides {:?} (sizes {:?}) are negative, and negative strides are not supported (PyTorch's memory model has none); copy it with copy_from_dlpack",
                described.strides, described.shape
            ),
        ));
    }
    let strides: Vec<isize> = described.strides.iter().map(|&s| s as isize).collect();
    let size = described.dtype.size();
    let numel: usize = described.shape.iter().product();
    // Keep the byte offset as the storage offset when it is whole elements.
    let (base, offset) = if described.byte_offset.is_multiple_of(size) {
        (described.data, described.byte_offset / size)
    } else {
        (described.data.wrapping_add(described.byte_offset), 0)
    };
    let (base, offset) = if numel == 0 {
        (std::ptr::null_mut(), 0)
    } else {
        (base, offset)
    };
    let layout = Layout::from_parts(&described.shape, &strides, offset);
    let nbytes = if numel == 0 {
        0
    } else {
        layout
            .required_len()
            .checked_mul(size)
            .ok_or_else(|| Error::invalid("from_dlpack", "the tensor's extent overflows"))?
    };
    let writable = !managed.flags().contains(DlpackFlags::READ_ONLY);
    let owner = KeepAlive::new(managed.into_deleter());
    // SAFETY: DLPack's contract: the producer keeps `data` valid for the
    // elements its descriptor reaches (the extent, from `data` plus the byte
    // offset) until the deleter runs, which the owner does last; it may be
    // written unless READ_ONLY; the producer does not write it while axial
    // borrows it (consumers take turns with producers, as PyTorch does).
    let storage = unsafe { Storage::from_owner(base.cast(), nbytes, owner, writable) };
    Imported::new(storage, layout, described.dtype)
}

/// A contiguous axial tensor holding a copy of a managed tensor's elements,
/// any strides (negative ones included); the producer's memory is released
/// when the copy is made.
///
/// # Errors
/// As [`from_dlpack`], except for negative strides.
///
/// ```
/// use axial_core::{DType, Layout, Storage};
/// let mut s = Storage::from_slice(&[1u8, 2, 3]);
/// let capsule = axial_io::dlpack::export::<dlpark::ffi::DLManagedTensorVersioned>(&mut s, &Layout::contiguous(&[3]), DType::U8, false)?;
/// assert_eq!(axial_io::dlpack::copy_from_dlpack(capsule)?.to_vec::<u8>()?, vec![1, 2, 3]);
/// # Ok::<(), axial::Error>(())
/// ```
pub fn copy_from_dlpack<M: ManagedTensorBase>(managed: Managed<M>) -> Result<RawTensor> {
    let d = describe(&managed)?;
    let size = d.dtype.size();
    let numel: usize = d.shape.iter().product();
    let mut out = vec![0u8; numel * size];
    if numel > 0 {
        let first = d.data.wrapping_add(d.byte_offset).cast_const();
        let mut index = vec![0usize; d.shape.len()];
        for chunk in out.chunks_exact_mut(size) {
            let step: isize = index
                .iter()
                .zip(&d.strides)
                .map(|(&i, &s)| i as isize * s as isize)
                .sum();
            // SAFETY: DLPack's contract: every element the descriptor reaches
            // is readable until the deleter runs (`managed` lives to the end).
            let src =
                unsafe { std::slice::from_raw_parts(first.offset(step * size as isize), size) };
            chunk.copy_from_slice(src);
            for (i, &n) in index.iter_mut().zip(&d.shape).rev() {
                *i += 1;
                if *i < n {
                    break;
                }
                *i = 0;
            }
        }
    }
    drop(managed);
    RawTensor::from_storage(Storage::from_slice(&out), &d.shape, d.dtype)
}

/// A managed tensor's descriptor in axial's terms.
struct Described {
    data: *mut u8,
    byte_offset: usize,
    shape: Vec<usize>,
    strides: Vec<i64>,
    dtype: DType,
}

fn describe<M: ManagedTensorBase>(managed: &Managed<M>) -> Result<Described> {
    let bad = |e: dlpark::tensor::Error| Error::invalid("from_dlpack", e.to_string());
    let view = managed.validate().map_err(bad)?;
    let device = view.device();
    if device.device_type != DLDeviceType::CPU {
        return Err(Error::invalid(
            "from_dlpack",
            format!(
                "the tensor is on DLPack device ({}, {}); only CPU tensors (device type 1) can be imported",
                device.device_type.0, device.device_id
            ),
        ));
    }
    let dtype = dtype_of(view.dtype())?;
    let shape = view
        .shape()
        .iter()
        .map(|&n| {
            usize::try_from(n)
                .map_err(|_| Error::invalid("from_dlpack", format!("negative size {n}")))
        })
        .collect::<Result<Vec<usize>>>()?;
    let strides = view.strides_or_compact().map_err(bad)?.into_owned();
    let byte_offset = usize::try_from(view.byte_offset())
        .map_err(|_| Error::invalid("from_dlpack", "the byte offset does not fit in memory"))?;
    axial_core::layout::checked_numel("from_dlpack", &shape)?;
    Ok(Described {
        data: view.data_ptr().cast_mut().cast(),
        byte_offset,
        shape,
        strides,
        dtype,
    })
}

/// A typed tensor's layout, through its public accessors.
fn typed_layout<T: Element, S: Shape, R: Data<Cpu>>(tensor: &TensorBase<T, S, Cpu, R>) -> Layout {
    Layout::from_parts(&tensor.shape(), &tensor.strides(), tensor.storage_offset())
}
