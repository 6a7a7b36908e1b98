//! `.npy` arrays: every numpy dtype axial has (`f2 f4 f8 i1 i2 i4 i8 u1
//! b1`, either byte order), read zero-copy from the file's mapping when
//! little-endian (numpy aligns the data to 64 bytes), byte-swapped into a
//! copy when big-endian. A Fortran-order array comes back as the transposed
//! view numpy gives (strides reversed), without a copy. A shape whose
//! element count overflows, or needs more bytes than the file holds, is
//! refused before anything is allocated (numpy allocates it first). An
//! array of another dtype (`<u2`, `<c8`, `<U5`) is refused by numpy's name
//! of it; inside an `.npz`, only that array is.
//!
//! ```
//! use axial_core::{DType, RawTensor};
//! use axial_io::npy;
//! let x = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?.view().view(&[2, 3])?.to_contiguous()?;
//! let back = npy::load_bytes(&npy::to_bytes(&x.view().t()?)?)?; // written Fortran-order, no copy
//! assert_eq!((back.shape(), back.strides()), (&[3, 2][..], &[1, 3][..]));
//! assert_eq!(back.to_vec::<f32>()?, vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
//! # Ok::<(), axial_io::Error>(())
//! ```

mod header;

use std::path::Path;
use std::sync::Arc;

use axial_core::{Layout, TensorRef};

use crate::source::FileBytes;
use crate::stored::Entry;
use crate::{Error, ForeignTensor, Result, StoredTensor};
use header::Elements;
pub(crate) use header::FORMAT;

/// Reads the array in `file.bytes()[range]` (the whole file, or an `.npz`
/// member stored without compression): a tensor of axial's dtype, or the
/// name and (for fixed-size elements) the bytes of a dtype axial does not
/// have, as little-endian numbers.
pub(crate) fn read_at(file: &FileBytes, start: usize, end: usize) -> Result<Entry> {
    let bytes = &file.bytes()[start..end];
    let h = header::parse(bytes)?;
    // The dtype if axial has it, else numpy's name of it.
    let (size, swap, dtype) = match &h.descr.elements {
        Elements::Typed(d) => (d.size(), d.size(), Ok(*d)),
        Elements::Foreign { name, size, swap } => (*size, *swap, Err(name.clone())),
        Elements::Opaque { name } => {
            return Ok(Entry::Untyped {
                dtype: name.clone(),
                foreign: None,
            });
        }
    };
    let numel = h
        .shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .filter(|&n| n.checked_mul(size).is_some())
        .ok_or_else(|| {
            Error::format(
                FORMAT,
                format!("the shape {:?} has more elements than memory", h.shape),
            )
        })?;
    let available = (bytes.len() - h.data_offset.min(bytes.len()))
        .checked_div(size)
        .unwrap_or(usize::MAX);
    if numel > available {
        return Err(Error::truncated(
            FORMAT,
            format!(
                "Failed to read all data for array. Expected {} = {numel} elements, could only read {available} elements. (file seems not fully written?)",
                shape_repr(&h.shape)
            ),
        ));
    }
    let data = start + h.data_offset..start + h.data_offset + numel * size;
    let storage = if h.descr.big_endian && swap > 1 {
        let mut copy = file.bytes()[data].to_vec();
        for part in copy.chunks_exact_mut(swap) {
            part.reverse();
        }
        axial_core::Storage::from_host_bytes(&axial_core::Cpu, &copy)?
    } else {
        file.storage(FORMAT, data)?
    };
    let layout = if h.fortran {
        // Column-major: the transpose of the C layout of the reversed shape.
        let reversed: Vec<usize> = h.shape.iter().rev().copied().collect();
        let c = Layout::contiguous(&reversed);
        let strides: Vec<isize> = c.strides().iter().rev().copied().collect();
        Layout::from_parts(&h.shape, &strides, 0)
    } else {
        Layout::contiguous(&h.shape)
    };
    Ok(match dtype {
        Ok(dtype) => Entry::Typed(StoredTensor::new(Arc::new(storage), layout, dtype)?),
        Err(name) => Entry::Untyped {
            foreign: Some(ForeignTensor {
                dtype: name.clone(),
                element_size: size,
                shape: layout.shape().to_vec(),
                strides: layout.strides().to_vec(),
                offset: 0,
                storage: Arc::new(storage),
            }),
            dtype: name,
        },
    })
}

/// The tensor of a whole `.npy`: one of a dtype axial does not have is an
/// [`Error::UnsupportedDType`].
fn read_file(file: &FileBytes) -> Result<StoredTensor> {
    match read_at(file, 0, file.bytes().len())? {
        Entry::Typed(t) => Ok(t),
        Entry::Untyped { dtype, .. } => Err(Error::unsupported_dtype(FORMAT, None, dtype)),
    }
}

/// A shape as numpy prints it: `(6,)`, `(2, 3)`.
fn shape_repr(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Reads the `.npy` file at `path` through a private mapping.
///
/// # Errors
/// The file cannot be read, is malformed or cut short (numpy's messages;
/// [`Error::Truncated`] for a file that ends in its header or its data),
/// or holds a dtype axial does not have ([`Error::UnsupportedDType`],
/// numpy's name of it).
///
/// ```no_run
/// let x = axial_io::npy::load("features.npy")?;
/// println!("{:?} {}", x.shape(), x.dtype());
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn load(path: impl AsRef<Path>) -> Result<StoredTensor> {
    read_file(&FileBytes::map(path.as_ref())?)
}

/// Reads a `.npy` file from memory.
///
/// # Errors
/// As [`load`].
///
/// ```
/// use axial_io::npy;
/// let err = npy::load_bytes(b"\x93NUMPY\x04\x00").unwrap_err();
/// assert_eq!(err.to_string(), "npy: we only support format version (1,0), (2,0), and (3,0), not (4, 0)");
/// ```
pub fn load_bytes(bytes: &[u8]) -> Result<StoredTensor> {
    read_file(&FileBytes::copy(bytes)?)
}

/// Whether a layout is column-major dense: the transpose of a C-contiguous
/// layout, as `a.T` of a C array.
fn is_fortran(layout: &Layout) -> bool {
    let reversed: Vec<usize> = layout.shape().iter().rev().copied().collect();
    let strides: Vec<isize> = layout.strides().iter().rev().copied().collect();
    Layout::from_parts(&reversed, &strides, layout.offset()).is_contiguous()
}

/// The bytes of a `.npy` file of `tensor`: in Fortran order without a copy
/// when the tensor is a transposed contiguous one (as numpy writes `a.T`),
/// else in C order.
///
/// # Errors
/// bfloat16, which numpy has no dtype for (cast it to float32, or write
/// safetensors).
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::npy;
/// let x = RawTensor::zeros(&[2], DType::BF16)?;
/// assert!(npy::to_bytes(&x.view()).unwrap_err().to_string().contains("no bfloat16"));
/// let y = RawTensor::zeros(&[0, 3], DType::F32)?;
/// assert_eq!(npy::to_bytes(&y.view())?.len(), 128); // header only
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn to_bytes(tensor: &TensorRef<'_>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_to(&mut out, tensor)?;
    Ok(out)
}

/// Appends the `.npy` bytes of `tensor` to `out`.
pub(crate) fn write_to(out: &mut Vec<u8>, tensor: &TensorRef<'_>) -> Result<()> {
    let layout = tensor.layout();
    let fortran = tensor.dim() > 1 && !layout.is_contiguous() && is_fortran(layout);
    out.extend_from_slice(&header::write(tensor.dtype(), fortran, tensor.shape())?);
    if fortran {
        let size = tensor.dtype().size();
        let start = layout.offset() * size;
        let bytes = tensor.storage().as_bytes();
        if let Some(data) = bytes.get(start..start + tensor.numel() * size) {
            out.extend_from_slice(data);
            return Ok(());
        }
    }
    out.extend_from_slice(&crate::stored::c_order_bytes(tensor)?);
    Ok(())
}

/// Writes `tensor` as the `.npy` file `path`.
///
/// # Errors
/// As [`to_bytes`], or the file cannot be written.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::npy;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("x.npy");
/// npy::save(&path, &RawTensor::arange(0.0, 3.0, 1.0, DType::I64)?.view())?;
/// assert_eq!(npy::load(&path)?.to_vec::<i64>()?, vec![0, 1, 2]);
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn save(path: impl AsRef<Path>, tensor: &TensorRef<'_>) -> Result<()> {
    let path = path.as_ref();
    std::fs::write(path, to_bytes(tensor)?).map_err(|e| Error::io(path, e))
}
