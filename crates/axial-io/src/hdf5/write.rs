//! Writing HDF5 files that h5py reads: datasets (contiguous, or chunked
//! with shuffle and gzip), groups from the datasets' paths, attributes on
//! the root, on groups and on datasets.

use std::io::Cursor;
use std::path::Path;

use axial_core::TensorRef;
use hdf5_writer::{
    AttributeBuilder, DatasetBuilder, FILTER_DEFLATE, FILTER_SHUFFLE, FilterDescription,
    Hdf5Builder, Hdf5Writer, WriteOptions,
};

use super::{FORMAT, elements};
use crate::{Error, Result};

/// How a dataset is stored.
///
/// ```
/// use axial_io::hdf5::Layout;
/// let l = Layout::Chunked { chunks: vec![100, 1000], gzip: Some(4), shuffle: true };
/// assert!(matches!(l, Layout::Chunked { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One contiguous block (h5py's default without filters).
    Contiguous,
    /// Chunks of `chunks`, each filtered: shuffled first when `shuffle`,
    /// then deflated at `gzip`'s level (0 to 9) when set.
    Chunked {
        /// The chunk shape, one size per axis.
        chunks: Vec<usize>,
        /// The deflate level.
        gzip: Option<u32>,
        /// Whether to shuffle bytes before deflating.
        shuffle: bool,
    },
}

/// An attribute to write.
///
/// ```
/// use axial_io::hdf5::AttrValue;
/// let a = AttrValue::Str("m/s".into());
/// assert!(matches!(a, AttrValue::Str(_)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// An `<i8` scalar (what h5py writes for a Python int).
    Int(i64),
    /// An `<f8` scalar (a Python float).
    Float(f64),
    /// A string, written fixed-length (h5py reads it as `bytes`).
    Str(String),
    /// An `<i8` vector.
    Ints(Vec<i64>),
    /// An `<f8` vector.
    Floats(Vec<f64>),
}

/// An HDF5 file being built: add datasets and attributes, then
/// [`save`](H5Writer::save) or [`to_bytes`](H5Writer::to_bytes).
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::hdf5::{self, AttrValue, Layout};
/// let mut w = hdf5::H5Writer::new();
/// w.dataset("model/encoder/weight", &RawTensor::zeros(&[3, 3], DType::F32)?.view(), Layout::Contiguous)?;
/// w.attribute("model", "name", AttrValue::Str("demo".into()))?;
/// w.attribute("model/encoder/weight", "scale", AttrValue::Float(0.5))?;
/// let file = hdf5::open_bytes(&w.to_bytes()?)?;
/// assert_eq!(file.group_attributes("model")?[0].1.as_str(), Some("demo"));
/// # Ok::<(), axial_io::Error>(())
/// ```
#[derive(Default)]
pub struct H5Writer {
    datasets: Vec<(String, DatasetBuilder)>,
    attributes: Vec<(String, AttributeBuilder)>,
}

fn writer_error(e: hdf5_writer::Error) -> Error {
    Error::format(FORMAT, format!("writing: {e}"))
}

impl H5Writer {
    /// An empty file.
    ///
    /// ```
    /// let w = axial_io::hdf5::H5Writer::new();
    /// assert!(axial_io::hdf5::open_bytes(&w.to_bytes()?)?.walk()?.is_empty());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `tensor` as the dataset at `path` (groups come from the path),
    /// in C order whatever its strides.
    ///
    /// # Errors
    /// A float16 or bfloat16 tensor (the writer has no 2-byte floats), a
    /// chunk shape of another rank or with a zero, or a path already used.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_io::hdf5::{H5Writer, Layout};
    /// let mut w = H5Writer::new();
    /// let x = RawTensor::zeros(&[4], DType::F16)?;
    /// assert!(w.dataset("h", &x.view(), Layout::Contiguous).is_err());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn dataset(
        &mut self,
        path: &str,
        tensor: &TensorRef<'_>,
        layout: Layout,
    ) -> Result<&mut Self> {
        let path = path.trim_start_matches('/').to_string();
        if self.datasets.iter().any(|(p, _)| *p == path) {
            return Err(Error::format(
                FORMAT,
                format!("the dataset `{path}` is written twice"),
            ));
        }
        let datatype =
            elements::datatype_for(tensor.dtype()).map_err(|m| Error::format(FORMAT, m))?;
        let shape: Vec<u64> = tensor.shape().iter().map(|&d| d as u64).collect();
        let bytes = crate::stored::c_order_bytes(tensor)?.into_owned();
        let mut builder = DatasetBuilder::new(path.clone(), datatype, shape).raw_data(bytes);
        if let Layout::Chunked {
            chunks,
            gzip,
            shuffle,
        } = layout
        {
            if chunks.len() != tensor.dim() || chunks.contains(&0) {
                return Err(Error::format(
                    FORMAT,
                    format!(
                        "chunks {chunks:?} do not fit a tensor of shape {:?}",
                        tensor.shape()
                    ),
                ));
            }
            builder = builder.chunked(chunks.iter().map(|&c| c as u64).collect::<Vec<_>>());
            if shuffle {
                builder = builder.filter(FilterDescription {
                    id: FILTER_SHUFFLE,
                    name: None,
                    client_data: vec![tensor.dtype().size() as u32],
                });
            }
            if let Some(level) = gzip {
                builder = builder.filter(FilterDescription {
                    id: FILTER_DEFLATE,
                    name: None,
                    client_data: vec![level.min(9)],
                });
            }
        }
        self.datasets.push((path, builder));
        Ok(self)
    }

    /// Sets the attribute `name` on the object at `path`: `"/"` for the
    /// root, a group's path, or a dataset's.
    ///
    /// ```
    /// use axial_io::hdf5::{AttrValue, H5Writer};
    /// let mut w = H5Writer::new();
    /// w.attribute("/", "created_by", AttrValue::Str("axial".into()))?;
    /// let file = axial_io::hdf5::open_bytes(&w.to_bytes()?)?;
    /// assert_eq!(file.group_attributes("/")?[0].0, "created_by");
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    ///
    /// # Errors
    /// The writer refuses the value.
    pub fn attribute(&mut self, path: &str, name: &str, value: AttrValue) -> Result<&mut Self> {
        self.attributes
            .push((path.trim_matches('/').to_string(), builder(name, value)?));
        Ok(self)
    }

    fn plan(&self) -> Result<hdf5_writer::Hdf5WritePlan> {
        let mut b = Hdf5Builder::new();
        for (path, ds) in &self.datasets {
            let mut ds = ds.clone();
            for (_, a) in self.attributes.iter().filter(|(p, _)| p == path) {
                ds = ds.attribute(a.clone());
            }
            b = b.dataset(ds);
        }
        for (path, a) in &self.attributes {
            if path.is_empty() {
                b = b.attribute(a.clone());
            } else if !self.datasets.iter().any(|(p, _)| p == path) {
                b = b.group_attribute(path.clone(), a.clone());
            }
        }
        b.into_plan().map_err(writer_error)
    }

    /// The file's bytes.
    ///
    /// # Errors
    /// The writer refuses the plan (an attribute on a path that is neither
    /// a group nor a dataset).
    ///
    /// ```
    /// let bytes = axial_io::hdf5::H5Writer::new().to_bytes()?;
    /// assert_eq!(&bytes[..8], b"\x89HDF\r\n\x1a\n");
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let plan = self.plan()?;
        let out = Hdf5Writer::new(Cursor::new(Vec::new()), WriteOptions::default())
            .finish(plan)
            .map_err(writer_error)?;
        Ok(out.into_inner())
    }

    /// Writes the file at `path`.
    ///
    /// # Errors
    /// As [`to_bytes`](H5Writer::to_bytes), or the file cannot be written.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_io::hdf5::{self, H5Writer, Layout};
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("f.h5");
    /// let mut w = H5Writer::new();
    /// w.dataset("f", &RawTensor::zeros(&[2, 2], DType::I64)?.view(), Layout::Contiguous)?;
    /// w.save(&path)?;
    /// assert_eq!(hdf5::open(&path)?.dataset("f")?.shape(), vec![2, 2]);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        std::fs::write(path, self.to_bytes()?).map_err(|e| Error::io(path, e))
    }
}

fn builder(name: &str, value: AttrValue) -> Result<AttributeBuilder> {
    match value {
        AttrValue::Int(v) => AttributeBuilder::scalar(name, v),
        AttrValue::Float(v) => AttributeBuilder::scalar(name, v),
        AttrValue::Str(s) => Ok(AttributeBuilder::fixed_string(name, s)),
        AttrValue::Ints(v) => AttributeBuilder::vector(name, &v),
        AttrValue::Floats(v) => AttributeBuilder::vector(name, &v),
    }
    .map_err(writer_error)
}
