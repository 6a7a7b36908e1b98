//! PyTorch checkpoints (`torch.save`), zip and legacy, read exactly as
//! `torch.load(weights_only=True)` reads them: the same opcodes and the
//! same allow-list of globals, everything else refused with an error that
//! names the global (a user's class, a whole pickled `nn.Module`, `os.system`).
//! Nothing in the file is imported or run.
//!
//! Tensors that share a storage in the file share one storage after
//! loading, with the file's offsets and strides (a transpose and a slice
//! of one tensor come back as views of one storage), zero-copy from the
//! file's mapping where a record starts 8-byte aligned (`torch.save` aligns
//! them to 64). Everything else comes back as a [`Value`] tree. Like
//! `torch.load`, the reader does not check the zip records' CRC-32.
//!
//! ```
//! use axial::prelude::*;
//! use axial_core::{DType, Generator, RawTensor};
//! use axial_io::{StoredTensor, TensorMap, Value, torch};
//! axes!(Rows, Cols);
//! let w = RawTensor::randn(&[4, 4], DType::F32, &mut Generator::seed(0))?;
//! let ckpt = Value::dict([
//!     ("model_weights", Value::tensor(StoredTensor::from_raw(w))),
//!     ("epoch", Value::Int(10)),
//!     ("learning_rate", Value::Float(1e-3)),
//! ]);
//! let loaded = torch::load_bytes(&torch::to_bytes(&ckpt)?)?;
//! assert_eq!(loaded.value().get("epoch").and_then(Value::as_int), Some(10));
//! let m = loaded.typed::<f32, shape![Rows: 4, Cols: 4]>("model_weights")?;
//! assert_eq!(m.sizes().as_slice(), &[4, 4]);
//! # Ok::<(), axial_io::Error>(())
//! ```

mod globals;
mod pickle;
mod read;
mod write;

use std::path::Path;

use crate::source::FileBytes;
use crate::{Error, Result, StoredTensor, TensorMap, Value};

/// A loaded checkpoint: its value tree. Tensors are found by a dotted path
/// ([`Value::at`]): `"model_weights"`, `"model.layer1.w"`, a state dict's
/// `"fc.weight"`.
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::{StoredTensor, TensorMap, Value, torch};
/// let sd = Value::ordered_dict([("fc.weight", StoredTensor::from_raw(RawTensor::zeros(&[3, 4], DType::F32)?).into())]);
/// let ckpt = torch::load_bytes(&torch::to_bytes(&sd)?)?;
/// assert_eq!(ckpt.tensor("fc.weight")?.shape(), &[3, 4]);
/// assert_eq!(ckpt.keys(), ["fc.weight"]);
/// # Ok::<(), axial_io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Checkpoint {
    value: Value,
}

impl Checkpoint {
    /// The value tree (what `torch.load` returns).
    ///
    /// ```
    /// # use axial_io::{Value, torch};
    /// let ckpt = torch::load_bytes(&torch::to_bytes(&Value::Int(7))?)?;
    /// assert_eq!(ckpt.value().as_int(), Some(7));
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The value tree, owned.
    ///
    /// ```
    /// # use axial_io::{Value, torch};
    /// let ckpt = torch::load_bytes(&torch::to_bytes(&Value::from("x"))?)?;
    /// assert_eq!(ckpt.into_value().as_str(), Some("x"));
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn into_value(self) -> Value {
        self.value
    }

    /// The top-level keys, when the checkpoint is a mapping with string keys.
    ///
    /// ```
    /// # use axial_io::{Value, torch};
    /// let ckpt = torch::load_bytes(&torch::to_bytes(&Value::dict([("epoch", Value::Int(1))]))?)?;
    /// assert_eq!(ckpt.keys(), ["epoch"]);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn keys(&self) -> Vec<&str> {
        self.value
            .as_dict()
            .map(|d| d.items.iter().filter_map(|(k, _)| k.as_str()).collect())
            .unwrap_or_default()
    }
}

impl TensorMap for Checkpoint {
    fn format(&self) -> &'static str {
        "torch"
    }

    fn find(&self, key: &str) -> Option<&StoredTensor> {
        self.value.at(key)?.as_tensor()
    }

    fn unsupported_dtype(&self, key: &str) -> Option<&str> {
        match self.value.at(key)? {
            Value::Foreign(t) => Some(&t.dtype),
            _ => None,
        }
    }
}

/// Reads the checkpoint at `path` (zip or legacy) through a private
/// mapping, as `torch.load(path, weights_only=True, map_location='cpu')`.
///
/// # Errors
/// The file cannot be read, is malformed or cut short
/// ([`Error::Truncated`]); the pickle names a global outside torch's
/// allow-list ([`Error::UnsupportedGlobal`]) or does what `weights_only`
/// refuses ([`Error::Unpickling`]); a storage record is shorter or longer
/// than the pickle claims, or a tensor reaches past its storage. A tensor
/// of a dtype axial does not have is no error: it is a [`Value::Foreign`],
/// and [`TensorMap::tensor`] refuses it by name ([`Error::UnsupportedDType`]).
///
/// ```no_run
/// use axial_io::{TensorMap, torch};
/// let ckpt = torch::load("checkpoint.pt")?;
/// println!("{:?}", ckpt.tensor("model_weights")?.shape());
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn load(path: impl AsRef<Path>) -> Result<Checkpoint> {
    let value = read::read(&FileBytes::map(path.as_ref())?)?;
    Ok(Checkpoint { value })
}

/// Reads a checkpoint from memory (a copy, then zero-copy views of it).
///
/// # Errors
/// As [`load`].
///
/// ```
/// use axial_io::{ErrorKind, torch};
/// assert_eq!(torch::load_bytes(b"").unwrap_err().kind(), ErrorKind::Truncated);
/// // A pickle that calls os.system: refused, never run.
/// let evil = b"\x80\x02cposix\nsystem\nX\x02\x00\x00\x00lsq\x00\x85R.";
/// let mut legacy = vec![0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, b'.'];
/// legacy.extend_from_slice(b"\x80\x02M\xe9\x03.\x80\x02}.");
/// legacy.extend_from_slice(evil);
/// let err = torch::load_bytes(&legacy).unwrap_err();
/// assert!(err.to_string().ends_with("Trying to load unsupported GLOBAL posix.system whose module posix is blocked."));
/// ```
pub fn load_bytes(bytes: &[u8]) -> Result<Checkpoint> {
    let value = read::read(&FileBytes::copy(bytes)?)?;
    Ok(Checkpoint { value })
}

/// The bytes of a checkpoint holding `value`, as `torch.save` writes it
/// to a file object: one stored, 64-byte aligned record per storage, so
/// that tensors sharing a storage share it again after `torch.load`.
///
/// # Errors
/// Two tensors view one storage as different dtypes (torch refuses to save
/// that too), a value is a tensor of a dtype axial does not write, or a
/// global is outside the allow-list.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::{StoredTensor, Value, torch};
/// let base = StoredTensor::from_raw(RawTensor::arange(0.0, 12.0, 1.0, DType::F32)?);
/// let t = base.with_layout(axial_core::Layout::from_parts(&[4, 3], &[1, 4], 0))?;
/// let back = torch::load_bytes(&torch::to_bytes(&Value::List(vec![base.into(), t.into()]))?)?;
/// let Value::List(items) = back.value() else { unreachable!() };
/// let (a, b) = (items[0].as_tensor().unwrap(), items[1].as_tensor().unwrap());
/// assert!(a.shares_storage_with(b));
/// assert_eq!(b.strides(), &[1, 4]);
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn to_bytes(value: &Value) -> Result<Vec<u8>> {
    write::to_bytes(value)
}

/// Writes a checkpoint of `value` at `path`; its folder is named after the
/// file, as `torch.save` names it (`model.v2.pt` → `model.v2/`).
///
/// # Errors
/// As [`to_bytes`], or the file cannot be written.
///
/// ```
/// use axial_io::{Value, torch};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("ckpt.pt");
/// torch::save(&path, &Value::dict([("epoch", Value::Int(10))]))?;
/// assert_eq!(torch::load(&path)?.value().get("epoch").and_then(Value::as_int), Some(10));
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn save(path: impl AsRef<Path>, value: &Value) -> Result<()> {
    let path = path.as_ref();
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("archive");
    let folder = match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    };
    let file = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
    let file = write::write_archive(std::io::BufWriter::new(file), folder, value)?;
    file.into_inner()
        .map_err(|e| Error::io(path, e.into_error()))?
        .sync_all()
        .map_err(|e| Error::io(path, e))
}
