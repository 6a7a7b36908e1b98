//! The one error type of the storage formats, and the kinds a program
//! matches on.

use std::path::PathBuf;

/// What went wrong reading or writing a file: the file system's error, a
/// malformed or truncated file (worded as the reference library words it
/// where it has a message), what axial cannot read (a dtype, a feature of
/// the format), a refused pickle global, a missing key, or a tensor that is
/// not what the typed conversion asked for. [`Error::kind`] sorts them for a
/// program; the variants carry what each kind needs (the key and dtype of
/// an unsupported tensor, the refused global).
///
/// # Example
/// ```
/// use axial_io::{Error, ErrorKind, safetensors};
/// let err = safetensors::load_bytes(b"\x05\x00\x00").unwrap_err();
/// assert_eq!(err.to_string(), "safetensors: Error while deserializing header: header too small");
/// assert_eq!(err.kind(), ErrorKind::Truncated);
/// assert!(matches!(err, Error::Truncated { format: "safetensors", .. }));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file system failed (open, read, map, write).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file is malformed: what it holds contradicts itself or its format.
    #[error("{format}: {message}")]
    Format {
        /// `safetensors`, `torch`, `npy`, `npz` or `hdf5`.
        format: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The file ends before what it declares does (a copy cut short).
    #[error("{format}: {message}")]
    Truncated {
        /// The file's format.
        format: &'static str,
        /// What is missing.
        message: String,
    },
    /// The file is well formed but uses a feature of its format that axial
    /// does not read (a big-endian legacy checkpoint, an HDF5 filter that
    /// is not registered, a compression method the zip reader lacks).
    #[error("{format}: {message}")]
    Unsupported {
        /// The file's format.
        format: &'static str,
        /// What axial does not read.
        message: String,
    },
    /// A tensor of a dtype axial does not have (complex32, float8_e8m0fnu,
    /// the 4- and 6-bit floats, a string or structured array). Only that tensor is refused:
    /// the file's other tensors read.
    #[error("{format}: {}", unsupported_dtype(key.as_deref(), dtype))]
    UnsupportedDType {
        /// The file's format.
        format: &'static str,
        /// The tensor's key (absent for an `.npy`, which holds one array, and
        /// for a tensor given to a writer).
        key: Option<String>,
        /// The dtype as the file's library names it (torch's `complex32`,
        /// `float8_e8m0fnu`, `qint8`; numpy's `float128`, `str160`,
        /// `object`; HDF5's class for a datatype numpy has no name for).
        dtype: String,
    },
    /// A checkpoint's pickle names a global that `torch.load(weights_only=True)`
    /// refuses (any class or function outside its allow-list, such as a
    /// pickled `nn.Module` or a user's config class).
    #[error(
        "torch: Weights only load failed: Unsupported global: GLOBAL {global} was not an allowed global by default"
    )]
    UnsupportedGlobal {
        /// `module.name` as the pickle spells it (after Python 2 renames).
        global: String,
    },
    /// A checkpoint's pickle does something `weights_only=True` refuses
    /// (an opcode outside its set, a call or an attribute it does not allow).
    #[error("torch: Weights only load failed: {message}")]
    Unpickling {
        /// torch's wording of the refusal.
        message: String,
    },
    /// No tensor under this key.
    #[error("{format}: no tensor `{key}` in the file")]
    NotFound {
        /// The file's format.
        format: &'static str,
        /// The key asked for.
        key: String,
    },
    /// The tensor under `key` is not what was asked for (its dtype, rank or
    /// sizes), or does not fit its storage.
    #[error("tensor `{key}`: {source}")]
    Tensor {
        /// The key asked for.
        key: String,
        /// What the core says, naming the expected and the found dtype and shape.
        source: axial_core::Error,
    },
    /// A state dict does not fit the model it is loaded into
    /// ([`state_dict::load_state_dict`](crate::state_dict::load_state_dict)):
    /// PyTorch's `Error(s) in loading state_dict for Net:` and its lines
    /// (missing and unexpected keys, size mismatches).
    #[error("Error(s) in loading state_dict for {module}:\n\t{}", messages.join("\n\t"))]
    StateDict {
        /// The model's type name.
        module: String,
        /// PyTorch's lines, in its order: missing keys, unexpected keys,
        /// then each parameter whose tensor does not fit.
        messages: Vec<String>,
    },
    /// An error of the tensor runtime (an allocation, a copy).
    #[error(transparent)]
    Core(#[from] axial_core::Error),
}

fn unsupported_dtype(key: Option<&str>, dtype: &str) -> String {
    match key {
        Some(key) => format!("tensor `{key}` has dtype {dtype}, which axial does not have"),
        None => format!("the tensor has dtype {dtype}, which axial does not have"),
    }
}

/// The kind of an [`Error`], for a program to match on: what went wrong,
/// whatever the format.
///
/// ```
/// use axial_io::{ErrorKind, TensorMap, safetensors};
/// let file = safetensors::load_bytes(&safetensors::to_bytes(&[], &[])?)?;
/// assert_eq!(file.tensor("w").unwrap_err().kind(), ErrorKind::NotFound);
/// # Ok::<(), axial_io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file system failed ([`Error::Io`]).
    Io,
    /// The file is malformed ([`Error::Format`]).
    Corrupt,
    /// The file is cut short ([`Error::Truncated`]).
    Truncated,
    /// A feature of the format axial does not read ([`Error::Unsupported`]).
    Unsupported,
    /// A tensor of a dtype axial does not have ([`Error::UnsupportedDType`]).
    UnsupportedDType,
    /// A checkpoint's pickle does what `weights_only=True` refuses
    /// ([`Error::UnsupportedGlobal`], [`Error::Unpickling`]).
    Refused,
    /// No tensor under the key asked for ([`Error::NotFound`]).
    NotFound,
    /// The tensor is not the dtype or shape asked for ([`Error::Tensor`]),
    /// or a state dict does not fit its model ([`Error::StateDict`]).
    Mismatch,
    /// The tensor runtime failed: an allocation, a copy ([`Error::Core`]).
    Runtime,
}

impl Error {
    /// What kind of error this is.
    ///
    /// ```
    /// use axial_io::{ErrorKind, npy};
    /// assert_eq!(npy::load_bytes(b"\x93NUMPY\x01").unwrap_err().kind(), ErrorKind::Truncated);
    /// assert_eq!(npy::load_bytes(b"\x93NUMPY\x04\x00").unwrap_err().kind(), ErrorKind::Corrupt);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Io { .. } => ErrorKind::Io,
            Error::Format { .. } => ErrorKind::Corrupt,
            Error::Truncated { .. } => ErrorKind::Truncated,
            Error::Unsupported { .. } => ErrorKind::Unsupported,
            Error::UnsupportedDType { .. } => ErrorKind::UnsupportedDType,
            Error::UnsupportedGlobal { .. } | Error::Unpickling { .. } => ErrorKind::Refused,
            Error::NotFound { .. } => ErrorKind::NotFound,
            Error::Tensor { .. } | Error::StateDict { .. } => ErrorKind::Mismatch,
            Error::Core(_) => ErrorKind::Runtime,
        }
    }

    /// An [`Error::Format`] (a malformed file) for `format`.
    ///
    /// ```
    /// # use axial_io::Error;
    /// assert_eq!(Error::format("npy", "bad magic").to_string(), "npy: bad magic");
    /// ```
    pub fn format(format: &'static str, message: impl Into<String>) -> Self {
        Error::Format {
            format,
            message: message.into(),
        }
    }

    /// An [`Error::Truncated`] for `format`.
    ///
    /// ```
    /// # use axial_io::{Error, ErrorKind};
    /// let e = Error::truncated("hdf5", "the file ends at byte 12");
    /// assert_eq!((e.kind(), e.to_string()), (ErrorKind::Truncated, "hdf5: the file ends at byte 12".into()));
    /// ```
    pub fn truncated(format: &'static str, message: impl Into<String>) -> Self {
        Error::Truncated {
            format,
            message: message.into(),
        }
    }

    /// An [`Error::Unsupported`] for `format`.
    ///
    /// ```
    /// # use axial_io::{Error, ErrorKind};
    /// assert_eq!(Error::unsupported("hdf5", "filter 307").kind(), ErrorKind::Unsupported);
    /// ```
    pub fn unsupported(format: &'static str, message: impl Into<String>) -> Self {
        Error::Unsupported {
            format,
            message: message.into(),
        }
    }

    /// An [`Error::UnsupportedDType`] for the tensor `key` (`None` for the
    /// one array of an `.npy`).
    ///
    /// ```
    /// # use axial_io::Error;
    /// let e = Error::unsupported_dtype("safetensors", Some("w"), "uint16");
    /// assert_eq!(e.to_string(), "safetensors: tensor `w` has dtype uint16, which axial does not have");
    /// ```
    pub fn unsupported_dtype(
        format: &'static str,
        key: Option<&str>,
        dtype: impl Into<String>,
    ) -> Self {
        Error::UnsupportedDType {
            format,
            key: key.map(str::to_string),
            dtype: dtype.into(),
        }
    }

    /// An [`Error::Io`] for `path`.
    ///
    /// ```
    /// # use axial_io::Error;
    /// let e = Error::io("w.bin", std::io::Error::other("disk full"));
    /// assert_eq!(e.to_string(), "w.bin: disk full");
    /// ```
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// The same error reported under `format` with `context` before its
    /// message (an `.npz` member's name before the `.npy` reader's words),
    /// keeping its kind.
    pub(crate) fn within(self, format: &'static str, context: &str) -> Self {
        match self {
            Error::Format { message, .. } => Error::format(format, format!("{context}: {message}")),
            Error::Truncated { message, .. } => {
                Error::truncated(format, format!("{context}: {message}"))
            }
            Error::Unsupported { message, .. } => {
                Error::unsupported(format, format!("{context}: {message}"))
            }
            e => e,
        }
    }
}

/// `Result<T, axial_io::Error>`.
///
/// ```
/// fn keys(bytes: &[u8]) -> axial_io::Result<Vec<String>> {
///     Ok(axial_io::safetensors::load_bytes(bytes)?.keys().map(str::to_string).collect())
/// }
/// assert!(keys(b"").is_err());
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;
