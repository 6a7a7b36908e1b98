//! Storage formats and interop for axial: safetensors, PyTorch checkpoints,
//! `.npy` / `.npz` and HDF5, read into untyped tensors ([`StoredTensor`]) that keep
//! the file's storage sharing (views of one storage stay views of one
//! storage) and are zero-copy from a private mapping of the file where the
//! bytes are aligned, plus a checked conversion to typed tensors
//! ([`StoredTensor::typed`], [`TensorMap::typed`]) that names the key, the
//! expected and the found dtype and shape.
//!
//! A malformed file is an [`Error`] with a message, never a panic, an
//! allocation larger than the file justifies, or a read out of bounds;
//! [`Error::kind`] says what kind of failure it is ([`ErrorKind`]: a
//! corrupt or truncated file, a dtype or feature axial does not have, a
//! refused pickle global, a missing tensor) for a program to match. A file
//! holding a tensor of a dtype axial does not have still opens: its other
//! tensors read, and that one is refused by name
//! ([`Error::UnsupportedDType`]).
//!
//! Files are read through a private (copy-on-write) mapping: writes to a
//! loaded tensor never reach the file. If another process truncates a file
//! while it is mapped, the next access to the lost pages kills the process
//! (SIGBUS), which no reader can turn into an error; each format's
//! `load_bytes` reads from memory instead.
//!
//! Interop without copies: [`ndarray`] views in both directions, DLPack
//! ([`dlpack`]) export and import; both give an [`Imported`] tensor over
//! memory another library owns.
//!
//! ```
//! use axial::prelude::*;
//! use axial_core::{DType, RawTensor};
//! use axial_io::{TensorMap, safetensors};
//! axes!(Rows, Cols);
//! let w = RawTensor::zeros(&[4, 3], DType::F32)?;
//! let file = safetensors::load_bytes(&safetensors::to_bytes(&[("w", w.view())], &[])?)?;
//! let m = file.typed::<f32, shape![Rows: 4, Cols: 3]>("w")?;
//! assert_eq!(m.sizes().as_slice(), &[4, 3]);
//! # Ok::<(), axial_io::Error>(())
//! ```

mod error;
pub mod hdf5;
mod imported;
pub mod npy;
pub mod npz;
pub mod optim;
pub mod safetensors;
mod source;
pub mod state_dict;
mod stored;
pub mod torch;
mod value;
mod zip_archive;

#[cfg(feature = "dlpack")]
pub mod dlpack;
#[cfg(feature = "ndarray")]
pub mod ndarray;

pub use error::{Error, ErrorKind, Result};
pub use imported::Imported;
pub use stored::{NamedTensors, StoredTensor, TensorMap};
pub use value::{Dict, DictKind, ForeignTensor, TensorValue, Value};
