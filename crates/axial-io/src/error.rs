//! The one error type of the storage formats.

use std::path::PathBuf;

/// What went wrong reading or writing a file: the file system's error, a
/// malformed file (worded as the reference library words it where it has a
/// message), a refused pickle global, a missing key, or a tensor that is not
/// what the typed conversion asked for.
///
/// # Example
/// ```
/// use axial_io::{Error, safetensors};
/// let err = safetensors::load_bytes(b"\x05\x00\x00").unwrap_err();
/// assert_eq!(err.to_string(), "safetensors: Error while deserializing header: header too small");
/// assert!(matches!(err, Error::Format { format: "safetensors", .. }));
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
    /// The file is malformed, truncated, or uses what axial cannot represent.
    #[error("{format}: {message}")]
    Format {
        /// `safetensors`, `torch`, `npy`, `npz` or `hdf5`.
        format: &'static str,
        /// What is wrong.
        message: String,
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
    /// An error of the tensor runtime (an allocation, a copy).
    #[error(transparent)]
    Core(#[from] axial_core::Error),
}

impl Error {
    /// An [`Error::Format`] for `format`.
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
