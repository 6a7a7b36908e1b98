//! safetensors: `u64 LE N | N bytes of JSON | data`, read through a private
//! mapping with each tensor zero-copy where its bytes start 8-byte aligned
//! (a copy where not: the format does not promise alignment, and
//! `edge_misaligned_f32.safetensors` has an f32 at byte 1), and written
//! with `__metadata__`.
//!
//! The header is parsed and validated by the `safetensors` crate (the
//! reference implementation, which Python's `safetensors` wraps), so a
//! damaged file fails with the same message as `safetensors.torch.load_file`.
//!
//! ```
//! use axial::prelude::*;
//! use axial_core::{DType, RawTensor};
//! use axial_io::{TensorMap, safetensors};
//! axes!(Rows, Cols);
//! let w = RawTensor::arange(0.0, 16.0, 1.0, DType::F32)?.view().view(&[4, 4])?.to_contiguous()?;
//! let bytes = safetensors::to_bytes(&[("model_weights", w.view())], &[("epoch", "10")])?;
//! let file = safetensors::load_bytes(&bytes)?;
//! assert_eq!(file.metadata().get("epoch").map(String::as_str), Some("10"));
//! let m = file.typed::<f32, shape![Rows: 4, Cols: 4]>("model_weights")?;
//! assert_eq!(m.get([1, 2]), 6.0);
//! # Ok::<(), axial_io::Error>(())
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use axial_core::{DType, Layout, TensorRef};
use safetensors::tensor::{Metadata, SafeTensors as Reference, View};
use safetensors::{Dtype, SafeTensorError};

use crate::source::FileBytes;
use crate::stored::Entry;
use crate::{Error, ForeignTensor, NamedTensors, Result, StoredTensor, TensorMap};

const FORMAT: &str = "safetensors";

/// The tensors of a safetensors file, in the file's order, and its
/// `__metadata__`.
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::{TensorMap, safetensors};
/// let b = RawTensor::zeros(&[3], DType::BF16)?;
/// let file = safetensors::load_bytes(&safetensors::to_bytes(&[("bias", b.view())], &[])?)?;
/// assert_eq!(file.keys().collect::<Vec<_>>(), ["bias"]);
/// assert_eq!(file.tensor("bias")?.dtype(), DType::BF16);
/// # Ok::<(), axial_io::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SafeTensors {
    tensors: NamedTensors,
    metadata: BTreeMap<String, String>,
}

impl SafeTensors {
    /// The `__metadata__` map (empty when the file has none).
    ///
    /// ```
    /// # use axial_io::safetensors;
    /// let file = safetensors::load_bytes(&safetensors::to_bytes(&[], &[("format", "pt")])?)?;
    /// assert_eq!(file.metadata()["format"], "pt");
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn metadata(&self) -> &BTreeMap<String, String> {
        &self.metadata
    }
}

impl TensorMap for SafeTensors {
    fn format(&self) -> &'static str {
        FORMAT
    }

    fn find(&self, key: &str) -> Option<&StoredTensor> {
        self.tensors.get(key)
    }

    fn unsupported_dtype(&self, key: &str) -> Option<&str> {
        self.tensors.unsupported_dtype(key)
    }
}

/// The tensors' [`keys`](NamedTensors::keys), [`iter`](NamedTensors::iter)
/// and [`len`](NamedTensors::len).
impl std::ops::Deref for SafeTensors {
    type Target = NamedTensors;

    fn deref(&self) -> &NamedTensors {
        &self.tensors
    }
}

/// Reads the safetensors file at `path` through a private mapping: tensors
/// whose bytes start 8-byte aligned are zero-copy views of it, others are
/// copied. See the [crate docs](crate) for the mapping's hazard.
///
/// # Errors
/// The file cannot be read, or is malformed or cut short (the message is
/// `safetensors.torch.load_file`'s). A tensor of a dtype axial does not
/// have (float8_e8m0fnu, the 4- and 6-bit floats) is no error: the others read, and
/// asking for it is an [`Error::UnsupportedDType`] naming it.
///
/// ```no_run
/// use axial_io::{TensorMap, safetensors};
/// let file = safetensors::load("model.safetensors")?;
/// println!("{:?}", file.tensor("embeddings.word_embeddings.weight")?.shape());
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn load(path: impl AsRef<Path>) -> Result<SafeTensors> {
    parse(&FileBytes::map(path.as_ref())?)
}

/// Reads a safetensors file from memory (a copy, then zero-copy views of
/// that copy).
///
/// # Errors
/// As [`load`].
///
/// ```
/// use axial_io::safetensors;
/// let err = safetensors::load_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{}").unwrap_err();
/// assert_eq!(err.to_string(), "safetensors: Error while deserializing header: invalid header length");
/// ```
pub fn load_bytes(bytes: &[u8]) -> Result<SafeTensors> {
    parse(&FileBytes::copy(bytes)?)
}

/// A header the reference refuses, worded as it words it: a file shorter
/// than its header or its tensors' bytes is [`Error::Truncated`].
fn header_error(bytes: &[u8], e: SafeTensorError) -> Error {
    let message = format!("Error while deserializing header: {e}");
    let truncated = match e {
        SafeTensorError::HeaderTooSmall | SafeTensorError::InvalidHeaderLength => true,
        // The header is whole: the tensors' bytes are shorter, or longer,
        // than it says.
        SafeTensorError::MetadataIncompleteBuffer => data_len(bytes)
            .and_then(|(n, len)| (8 + n).checked_add(len))
            .is_some_and(|end| end > bytes.len()),
        _ => false,
    };
    if truncated {
        Error::truncated(FORMAT, message)
    } else {
        Error::format(FORMAT, message)
    }
}

/// The header's length and the bytes its tensors span, when it parses.
fn data_len(bytes: &[u8]) -> Option<(usize, usize)> {
    let n = usize::try_from(u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?)).ok()?;
    let header: Metadata = serde_json::from_slice(bytes.get(8..8usize.checked_add(n)?)?).ok()?;
    Some((n, header.data_len()))
}

fn parse(file: &FileBytes) -> Result<SafeTensors> {
    let (n, header) =
        Reference::read_metadata(file.bytes()).map_err(|e| header_error(file.bytes(), e))?;
    let data_start = 8 + n;
    let mut tensors = Vec::with_capacity(header.tensors().len());
    for key in header.offset_keys() {
        let Some(info) = header.info(&key) else {
            continue;
        };
        let (begin, end) = info.data_offsets;
        let storage = Arc::new(file.storage(FORMAT, data_start + begin..data_start + end)?);
        let layout = Layout::contiguous(&info.shape);
        let entry = match from_file_dtype(info.dtype) {
            Ok(dtype) => Entry::Typed(
                StoredTensor::new(storage, layout, dtype)
                    .map_err(|e| Error::format(FORMAT, format!("tensor `{key}`: {e}")))?,
            ),
            Err(name) => Entry::Untyped {
                dtype: name.to_string(),
                // Sub-byte floats have no element size in bytes.
                foreign: (info.dtype.bitsize() % 8 == 0).then(|| ForeignTensor {
                    dtype: name.to_string(),
                    element_size: info.dtype.bitsize() / 8,
                    shape: layout.shape().to_vec(),
                    strides: layout.strides().to_vec(),
                    offset: 0,
                    storage,
                }),
            },
        };
        tensors.push((key, entry));
    }
    Ok(SafeTensors {
        tensors: NamedTensors::new(FORMAT, tensors),
        metadata: metadata_of(&header),
    })
}

fn metadata_of(header: &Metadata) -> BTreeMap<String, String> {
    header
        .metadata()
        .as_ref()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

/// The axial dtype of a safetensors dtype, or the name of one axial does
/// not have: torch's where torch has it, else safetensors' own.
fn from_file_dtype(dtype: Dtype) -> std::result::Result<DType, &'static str> {
    Ok(match dtype {
        Dtype::BOOL => DType::Bool,
        Dtype::U8 => DType::U8,
        Dtype::I8 => DType::I8,
        Dtype::I16 => DType::I16,
        Dtype::I32 => DType::I32,
        Dtype::I64 => DType::I64,
        Dtype::F16 => DType::F16,
        Dtype::BF16 => DType::BF16,
        Dtype::F32 => DType::F32,
        Dtype::F64 => DType::F64,
        Dtype::U16 => DType::U16,
        Dtype::U32 => DType::U32,
        Dtype::U64 => DType::U64,
        Dtype::C64 => DType::C64,
        Dtype::F8_E4M3 => DType::F8E4M3Fn,
        Dtype::F8_E5M2 => DType::F8E5M2,
        Dtype::F8_E4M3FNUZ => DType::F8E4M3FnUz,
        Dtype::F8_E5M2FNUZ => DType::F8E5M2FnUz,
        Dtype::F8_E8M0 => return Err("float8_e8m0fnu"),
        Dtype::F4 => return Err("F4"),
        Dtype::F6_E2M3 => return Err("F6_E2M3"),
        Dtype::F6_E3M2 => return Err("F6_E3M2"),
        _ => return Err("an unknown dtype"),
    })
}

/// The safetensors dtype of an axial dtype; complex128 has none.
fn to_file_dtype(key: &str, dtype: DType) -> Result<Dtype> {
    Ok(match dtype {
        DType::Bool => Dtype::BOOL,
        DType::U8 => Dtype::U8,
        DType::I8 => Dtype::I8,
        DType::I16 => Dtype::I16,
        DType::I32 => Dtype::I32,
        DType::I64 => Dtype::I64,
        DType::F16 => Dtype::F16,
        DType::BF16 => Dtype::BF16,
        DType::F32 => Dtype::F32,
        DType::F64 => Dtype::F64,
        DType::U16 => Dtype::U16,
        DType::U32 => Dtype::U32,
        DType::U64 => Dtype::U64,
        DType::C64 => Dtype::C64,
        DType::F8E4M3Fn => Dtype::F8_E4M3,
        DType::F8E5M2 => Dtype::F8_E5M2,
        DType::F8E4M3FnUz => Dtype::F8_E4M3FNUZ,
        DType::F8E5M2FnUz => Dtype::F8_E5M2FNUZ,
        DType::C128 => {
            return Err(Error::unsupported_dtype(FORMAT, Some(key), dtype.name()));
        }
    })
}

/// A tensor to write: its dtype, sizes and C-order bytes (borrowed when the
/// tensor is contiguous, copied when not).
struct Written<'a> {
    dtype: Dtype,
    shape: Vec<usize>,
    data: Cow<'a, [u8]>,
}

impl View for &Written<'_> {
    fn dtype(&self) -> Dtype {
        self.dtype
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> Cow<'_, [u8]> {
        Cow::Borrowed(&self.data)
    }
    fn data_len(&self) -> usize {
        self.data.len()
    }
}

fn entries<'a>(tensors: &[(&str, TensorRef<'a>)]) -> Result<Vec<(String, Written<'a>)>> {
    tensors
        .iter()
        .map(|(key, t)| {
            Ok((
                key.to_string(),
                Written {
                    dtype: to_file_dtype(key, t.dtype())?,
                    shape: t.shape().to_vec(),
                    data: crate::stored::c_order_bytes(t)?,
                },
            ))
        })
        .collect()
}

fn metadata_map(metadata: &[(&str, &str)]) -> Option<HashMap<String, String>> {
    (!metadata.is_empty()).then(|| {
        metadata
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    })
}

/// The bytes of a safetensors file holding `tensors` (each written in C
/// order, whatever its strides) and `metadata` as `__metadata__`. Entries
/// are ordered as the reference writer orders them: wider dtypes first,
/// then by key.
///
/// # Errors
/// Two tensors share a key, or the header would pass 100 MB.
///
/// ```
/// # use axial_core::{DType, RawTensor};
/// # use axial_io::safetensors;
/// let x = RawTensor::zeros(&[2, 3], DType::I32)?;
/// let bytes = safetensors::to_bytes(&[("x", x.view().t()?)], &[("note", "transposed")])?;
/// assert_eq!(safetensors::load_bytes(&bytes)?.iter().next().unwrap().1.shape(), &[3, 2]);
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn to_bytes(tensors: &[(&str, TensorRef<'_>)], metadata: &[(&str, &str)]) -> Result<Vec<u8>> {
    check_unique(tensors)?;
    let entries = entries(tensors)?;
    safetensors::serialize(
        entries.iter().map(|(k, e)| (k.as_str(), e)),
        metadata_map(metadata),
    )
    .map_err(|e| Error::format(FORMAT, e.to_string()))
}

/// Writes a safetensors file at `path` (to a temporary file beside it, then
/// renamed, so a mapping of an older `path` is never truncated).
///
/// # Errors
/// As [`to_bytes`], or the file cannot be written.
///
/// ```
/// # use axial_core::{DType, RawTensor};
/// # use axial_io::{TensorMap, safetensors};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("w.safetensors");
/// let w = RawTensor::zeros(&[2], DType::F16)?;
/// safetensors::save(&path, &[("w", w.view())], &[("format", "pt")])?;
/// assert_eq!(safetensors::load(&path)?.tensor("w")?.dtype(), DType::F16);
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn save(
    path: impl AsRef<Path>,
    tensors: &[(&str, TensorRef<'_>)],
    metadata: &[(&str, &str)],
) -> Result<()> {
    check_unique(tensors)?;
    let entries = entries(tensors)?;
    let path = path.as_ref();
    safetensors::serialize_to_file(
        entries.iter().map(|(k, e)| (k.as_str(), e)),
        metadata_map(metadata),
        path,
    )
    .map_err(|e| match e {
        safetensors::SafeTensorError::IoError(e) => Error::io(path, e),
        e => Error::format(FORMAT, e.to_string()),
    })
}

fn check_unique(tensors: &[(&str, TensorRef<'_>)]) -> Result<()> {
    let mut keys: Vec<&str> = tensors.iter().map(|(k, _)| *k).collect();
    keys.sort_unstable();
    if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::format(
            FORMAT,
            format!("two tensors share the key `{}`", w[0]),
        ));
    }
    Ok(())
}
