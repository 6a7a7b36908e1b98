//! `.npz` archives: a zip of `NAME.npy` members, stored (`np.savez`) or
//! deflated (`np.savez_compressed`). Each member is read as [`crate::npy`]
//! reads a file (zero-copy for a stored, aligned, little-endian member),
//! and its CRC-32 is checked as numpy checks it.
//!
//! ```
//! use axial_core::{DType, RawTensor};
//! use axial_io::{TensorMap, npz};
//! let (a, b) = (RawTensor::zeros(&[2, 3], DType::F32)?, RawTensor::zeros(&[2], DType::I64)?);
//! let bytes = npz::to_bytes(&[("features", a.view()), ("labels", b.view())], true)?;
//! let file = npz::load_bytes(&bytes)?;
//! assert_eq!(file.keys().collect::<Vec<_>>(), ["features", "labels"]);
//! assert_eq!(file.tensor("labels")?.dtype(), DType::I64);
//! # Ok::<(), axial_io::Error>(())
//! ```

use std::io::{Cursor, Read, Write};
use std::path::Path;

use axial_core::TensorRef;

use crate::source::FileBytes;
use crate::zip_archive::{self, OpenError};
use crate::{Error, NamedTensors, Result};

const FORMAT: &str = "npz";

/// The arrays of an `.npz`, in the archive's order, by name (the member's
/// name without `.npy`).
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::npz;
/// let x = RawTensor::zeros(&[1], DType::U8)?;
/// let file: npz::Npz = npz::load_bytes(&npz::to_bytes(&[("arr_0", x.view())], false)?)?;
/// assert_eq!(file.len(), 1);
/// # Ok::<(), axial_io::Error>(())
/// ```
pub type Npz = NamedTensors;

fn zip_error(e: zip::result::ZipError) -> Error {
    let message = format!("File is not a zip file ({e})");
    match e {
        zip::result::ZipError::UnsupportedArchive(_)
        | zip::result::ZipError::CompressionMethodNotSupported(_) => {
            Error::unsupported(FORMAT, message)
        }
        _ => Error::format(FORMAT, message),
    }
}

fn read(file: &FileBytes) -> Result<Npz> {
    let bytes = file.bytes();
    let mut archive = zip_archive::open(bytes).map_err(|e| match e {
        OpenError::NoEndRecord => Error::truncated(
            FORMAT,
            "File is not a zip file (no end of central directory record: the file is cut short)",
        ),
        OpenError::Zip(e) => zip_error(e),
    })?;
    let mut arrays = Vec::new();
    for i in 0..archive.len() {
        let mut member = archive.by_index(i).map_err(zip_error)?;
        let name = member.name().map_err(zip_error)?.to_string();
        let key = name.strip_suffix(".npy").unwrap_or(&name).to_string();
        let bad_crc = || Error::format(FORMAT, format!("Bad CRC-32 for file '{name}'"));
        let tensor = if member.compression() == zip::CompressionMethod::Stored {
            let start = member
                .data_start()
                .ok_or_else(|| Error::format(FORMAT, format!("member {name} has no data offset")))?
                as usize;
            let end = start
                .checked_add(member.size() as usize)
                .filter(|&e| e <= bytes.len() && member.compressed_size() == member.size())
                .ok_or_else(|| {
                    Error::format(FORMAT, format!("member {name} reaches past the archive"))
                })?;
            if crc32fast::hash(&bytes[start..end]) != member.crc32() {
                return Err(bad_crc());
            }
            crate::npy::read_at(file, start, end)
        } else {
            // A deflated member: its compressed bytes must lie in the archive
            // (the header's claim alone bounds nothing), and its claimed size
            // must be one deflate can reach from them (at most 1032:1).
            let available = member
                .data_start()
                .and_then(|start| bytes.len().checked_sub(start as usize))
                .unwrap_or(0) as u64;
            if member.compressed_size() > available {
                return Err(Error::format(
                    FORMAT,
                    format!(
                        "member {name} claims {} compressed bytes where the archive holds {available}",
                        member.compressed_size()
                    ),
                ));
            }
            if member.size() > member.compressed_size().saturating_mul(1032) + 1024 {
                return Err(Error::format(
                    FORMAT,
                    format!(
                        "member {name} claims {} bytes from {} compressed",
                        member.size(),
                        member.compressed_size()
                    ),
                ));
            }
            let mut out = Vec::with_capacity(member.size() as usize);
            member.read_to_end(&mut out).map_err(|e| match e.kind() {
                std::io::ErrorKind::InvalidData if e.to_string().contains("CRC") => bad_crc(),
                _ => Error::format(FORMAT, format!("reading member {name}: {e}")),
            })?;
            let inner = FileBytes::copy(&out)?;
            crate::npy::read_at(&inner, 0, out.len())
        }
        .map_err(|e| e.within(FORMAT, &name))?;
        arrays.push((key, tensor));
    }
    Ok(NamedTensors::new(FORMAT, arrays))
}

/// Reads the `.npz` at `path` through a private mapping.
///
/// # Errors
/// The file cannot be read or is not a zip (or is cut before its central
/// directory: [`Error::Truncated`]), a member's CRC-32 does not match, or a
/// member is a malformed `.npy`. A member of a dtype axial does not have is
/// no error: the others read, and asking for it is an
/// [`Error::UnsupportedDType`] naming it.
///
/// ```no_run
/// let arrays = axial_io::npz::load("data.npz")?;
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn load(path: impl AsRef<Path>) -> Result<Npz> {
    read(&FileBytes::map(path.as_ref())?)
}

/// Reads an `.npz` from memory.
///
/// # Errors
/// As [`load`].
///
/// ```
/// assert!(axial_io::npz::load_bytes(b"PK\x03\x04 truncated").is_err());
/// ```
pub fn load_bytes(bytes: &[u8]) -> Result<Npz> {
    read(&FileBytes::copy(bytes)?)
}

/// The bytes of an `.npz` holding `arrays` as `NAME.npy` members, deflated
/// when `compressed` (`np.savez_compressed`), else stored (`np.savez`).
///
/// # Errors
/// A bfloat16 array (numpy has no such dtype), or two arrays of one name.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::npz;
/// let x = RawTensor::zeros(&[3], DType::F16)?;
/// assert!(npz::to_bytes(&[("x", x.view()), ("x", x.view())], false).is_err());
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn to_bytes(arrays: &[(&str, TensorRef<'_>)], compressed: bool) -> Result<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let method = if compressed {
        zip::CompressionMethod::Deflated
    } else {
        zip::CompressionMethod::Stored
    };
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(method)
        .large_file(
            arrays
                .iter()
                .any(|(_, t)| t.numel() * t.dtype().size() >= u32::MAX as usize),
        );
    let write_error =
        |e: std::io::Error| Error::format(FORMAT, format!("writing the archive: {e}"));
    for (name, tensor) in arrays {
        let mut member = Vec::new();
        crate::npy::write_to(&mut member, tensor)?;
        zip.start_file(format!("{name}.npy"), options)
            .map_err(|e| Error::format(FORMAT, format!("writing the archive: {e}")))?;
        zip.write_all(&member).map_err(write_error)?;
    }
    Ok(zip
        .finish()
        .map_err(|e| Error::format(FORMAT, format!("writing the archive: {e}")))?
        .into_inner())
}

/// Writes `arrays` as the `.npz` file `path`.
///
/// # Errors
/// As [`to_bytes`], or the file cannot be written.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::{TensorMap, npz};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("a.npz");
/// npz::save(&path, &[("mask", RawTensor::zeros(&[2], DType::Bool)?.view())], true)?;
/// assert_eq!(npz::load(&path)?.tensor("mask")?.dtype(), DType::Bool);
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn save(
    path: impl AsRef<Path>,
    arrays: &[(&str, TensorRef<'_>)],
    compressed: bool,
) -> Result<()> {
    let path = path.as_ref();
    std::fs::write(path, to_bytes(arrays, compressed)?).map_err(|e| Error::io(path, e))
}
