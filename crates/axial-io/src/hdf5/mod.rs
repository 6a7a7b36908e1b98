//! HDF5, in pure Rust (no system library): open a file, list its groups
//! and datasets, read a dataset whole or a hyperslab with steps (h5py's
//! `f['features'][2:5, :]`) that decodes only the chunks it touches, read
//! attributes; chunked datasets with gzip, shuffle and LZF (h5py's filter
//! 32000) are read. [`H5Writer`] writes datasets, contiguous or chunked
//! with shuffle and gzip, that h5py reads.
//!
//! Reading goes through `hdf5-reader` (a hardened reader with bounded
//! allocations: its fuzzing found no panic or abort), with its read and
//! chunk limits on and LZF registered; writing through `hdf5-writer`.
//!
//! ```
//! use axial_core::{DType, RawTensor};
//! use axial_io::hdf5::{self, Layout, Select};
//! let features = RawTensor::arange(0.0, 100.0, 1.0, DType::I64)?.view().view(&[10, 10])?.to_contiguous()?;
//! let mut w = hdf5::H5Writer::new();
//! w.dataset("features", &features.view(), Layout::Chunked { chunks: vec![2, 10], gzip: Some(4), shuffle: true })?;
//! let file = hdf5::open_bytes(&w.to_bytes()?)?;
//! let rows = file.dataset("features")?.read_slice(&[Select::from(2..5), Select::All])?;
//! assert_eq!(rows.shape(), &[3, 10]);
//! assert_eq!(rows.to_vec::<i64>()?[..3], [20, 21, 22]);
//! # Ok::<(), axial_io::Error>(())
//! ```

mod elements;
mod lzf;
mod write;

use std::ops::{Range, RangeFrom, RangeFull, RangeTo};
use std::path::Path;

use axial_core::{Cpu, DType, RawTensor, Storage};
use hdf5_reader::{FilterRegistry, Hdf5File, OpenOptions, SliceInfo, SliceInfoElem};

use crate::{Error, Result, StoredTensor};
use elements::Raw;
pub use write::{AttrValue, H5Writer, Layout};

const FORMAT: &str = "hdf5";

fn h5(e: hdf5_reader::error::Error) -> Error {
    Error::format(FORMAT, e.to_string())
}

/// The most bytes one read may decode: the file's own size times the most a
/// deflate stream expands, so a forged extent cannot make a huge allocation.
fn read_limit(file_len: usize) -> usize {
    file_len.saturating_mul(1032).saturating_add(1 << 20)
}

fn options(file_len: usize) -> OpenOptions {
    let mut filters = FilterRegistry::new();
    filters.register(
        32000,
        Box::new(|desc, data, _| {
            // h5py's cd_values[2] is the chunk's byte size.
            let expected = desc.client_data.get(2).copied().unwrap_or(0) as usize;
            let limit = if expected == 0 {
                data.len().saturating_mul(256) + 64
            } else {
                expected
            };
            lzf::decompress(data, limit).map_err(hdf5_reader::error::Error::InvalidData)
        }),
    );
    OpenOptions::default()
        .with_filter_registry(filters)
        .with_max_read_bytes(read_limit(file_len))
        .with_max_chunk_bytes(64 << 20)
}

/// An open HDF5 file.
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::hdf5;
/// let mut w = hdf5::H5Writer::new();
/// w.dataset("model/encoder/weight", &RawTensor::zeros(&[3, 3], DType::F32)?.view(), hdf5::Layout::Contiguous)?;
/// let file = hdf5::open_bytes(&w.to_bytes()?)?;
/// assert_eq!(file.groups("/")?, ["model"]);
/// assert_eq!(file.datasets("model/encoder")?, ["weight"]);
/// assert_eq!(file.dataset("model/encoder/weight")?.shape(), &[3, 3]);
/// # Ok::<(), axial_io::Error>(())
/// ```
pub struct H5File {
    file: Hdf5File,
}

/// Opens the HDF5 file at `path` (mapped by the reader; see the
/// [crate docs](crate) for the mapping's hazard).
///
/// # Errors
/// The file cannot be read, or is not HDF5, or is truncated.
///
/// ```no_run
/// let file = axial_io::hdf5::open("features.h5")?;
/// let rows = file.dataset("features")?.read_slice(&[(2..5).into(), axial_io::hdf5::Select::All])?;
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn open(path: impl AsRef<Path>) -> Result<H5File> {
    let path = path.as_ref();
    let len = std::fs::metadata(path)
        .map_err(|e| Error::io(path, e))?
        .len() as usize;
    let file = Hdf5File::open_with_options(path, options(len)).map_err(|e| match e {
        hdf5_reader::error::Error::Io(io) => Error::io(path, io),
        e => h5(e),
    })?;
    Ok(H5File { file })
}

/// Opens an HDF5 file from memory (a copy).
///
/// # Errors
/// As [`open`].
///
/// ```
/// assert!(axial_io::hdf5::open_bytes(b"\x89HDF\r\n\x1a\n").is_err());
/// ```
pub fn open_bytes(bytes: &[u8]) -> Result<H5File> {
    let file = Hdf5File::from_bytes_with_options(bytes, options(bytes.len())).map_err(h5)?;
    Ok(H5File { file })
}

/// One axis of a hyperslab: an index (the axis is dropped), a range with a
/// step, or the whole axis.
///
/// ```
/// use axial_io::hdf5::Select;
/// assert_eq!(Select::from(2..5), Select::Range { start: 2, end: 5, step: 1 });
/// assert_eq!(Select::from(..), Select::All);
/// assert_eq!(Select::from(3), Select::Index(3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// One index: the axis is dropped (`[3]`).
    Index(usize),
    /// `start..end` every `step` (`[2:8:3]`); `end` past the axis stops at its end.
    Range {
        /// First index.
        start: usize,
        /// One past the last index.
        end: usize,
        /// Step, at least 1.
        step: usize,
    },
    /// The whole axis (`[:]`).
    All,
}

impl From<usize> for Select {
    fn from(i: usize) -> Self {
        Select::Index(i)
    }
}
impl From<Range<usize>> for Select {
    fn from(r: Range<usize>) -> Self {
        Select::Range {
            start: r.start,
            end: r.end,
            step: 1,
        }
    }
}
impl From<RangeFrom<usize>> for Select {
    fn from(r: RangeFrom<usize>) -> Self {
        Select::Range {
            start: r.start,
            end: usize::MAX,
            step: 1,
        }
    }
}
impl From<RangeTo<usize>> for Select {
    fn from(r: RangeTo<usize>) -> Self {
        Select::Range {
            start: 0,
            end: r.end,
            step: 1,
        }
    }
}
impl From<RangeFull> for Select {
    fn from(_: RangeFull) -> Self {
        Select::All
    }
}

/// An attribute's value.
///
/// ```
/// use axial_io::hdf5::Attr;
/// assert_eq!(Attr::Str("m/s".into()).as_str(), Some("m/s"));
/// ```
#[derive(Debug)]
pub enum Attr {
    /// A string (h5py writes `str` attributes as variable-length UTF-8).
    Str(String),
    /// Several strings.
    Strings(Vec<String>),
    /// A number or an array of numbers (a scalar has shape `[]`).
    Tensor(StoredTensor),
}

impl Attr {
    /// The string, if this is one.
    ///
    /// ```
    /// # use axial_io::hdf5::Attr;
    /// assert_eq!(Attr::Strings(vec![]).as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Attr::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The number as f64, if this is a scalar number.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// # use axial_io::{StoredTensor, hdf5::Attr};
    /// let a = Attr::Tensor(StoredTensor::from_raw(RawTensor::from_vec(vec![0.5f64], &[])?));
    /// assert_eq!(a.as_f64(), Some(0.5));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Attr::Tensor(t) if t.shape().is_empty() => t
                .view()
                .to_dtype(DType::F64)
                .ok()?
                .to_vec::<f64>()
                .ok()?
                .first()
                .copied(),
            _ => None,
        }
    }
}

/// A dataset of an open file.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::hdf5;
/// let mut w = hdf5::H5Writer::new();
/// w.dataset("x", &RawTensor::zeros(&[4, 6], DType::F64)?.view(), hdf5::Layout::Chunked { chunks: vec![2, 3], gzip: None, shuffle: false })?;
/// let ds = hdf5::open_bytes(&w.to_bytes()?)?.dataset("x")?;
/// assert_eq!((ds.shape(), ds.dtype()?, ds.chunks()), (vec![4, 6], DType::F64, Some(vec![2, 3])));
/// # Ok::<(), axial_io::Error>(())
/// ```
pub struct Dataset {
    inner: hdf5_reader::Dataset,
    path: String,
}

impl H5File {
    fn group_at(&self, path: &str) -> Result<hdf5_reader::group::Group> {
        let path = path.trim_matches('/');
        if path.is_empty() {
            self.file.root_group().map_err(h5)
        } else {
            self.file.group(path).map_err(h5)
        }
    }

    /// The names of the groups in the group at `path` (`"/"` for the root).
    ///
    /// # Errors
    /// No group at `path`, or the file is damaged.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("a/b/c", &RawTensor::zeros(&[1], DType::U8)?.view(), hdf5::Layout::Contiguous)?;
    /// assert_eq!(hdf5::open_bytes(&w.to_bytes()?)?.groups("a")?, ["b"]);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn groups(&self, path: &str) -> Result<Vec<String>> {
        let (mut groups, _) = self.group_at(path)?.member_names().map_err(h5)?;
        groups.sort();
        Ok(groups)
    }

    /// The names of the datasets in the group at `path`.
    ///
    /// # Errors
    /// No group at `path`, or the file is damaged.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("x", &RawTensor::zeros(&[1], DType::U8)?.view(), hdf5::Layout::Contiguous)?;
    /// assert_eq!(hdf5::open_bytes(&w.to_bytes()?)?.datasets("/")?, ["x"]);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn datasets(&self, path: &str) -> Result<Vec<String>> {
        let (_, mut datasets) = self.group_at(path)?.member_names().map_err(h5)?;
        datasets.sort();
        Ok(datasets)
    }

    /// Every dataset's path in the file (`/model/encoder/weight`), sorted.
    ///
    /// # Errors
    /// The file is damaged, or its groups nest deeper than 64.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// let x = RawTensor::zeros(&[1], DType::U8)?;
    /// w.dataset("a/x", &x.view(), hdf5::Layout::Contiguous)?;
    /// w.dataset("y", &x.view(), hdf5::Layout::Contiguous)?;
    /// assert_eq!(hdf5::open_bytes(&w.to_bytes()?)?.walk()?, ["/a/x", "/y"]);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn walk(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let mut pending = vec![(String::new(), 0usize)];
        while let Some((path, depth)) = pending.pop() {
            if depth > 64 {
                return Err(Error::format(FORMAT, "groups nest deeper than 64 levels"));
            }
            let (groups, datasets) = self.group_at(&path)?.member_names().map_err(h5)?;
            out.extend(datasets.into_iter().map(|d| format!("{path}/{d}")));
            pending.extend(
                groups
                    .into_iter()
                    .map(|g| (format!("{path}/{g}"), depth + 1)),
            );
        }
        out.sort();
        Ok(out)
    }

    /// The dataset at `path`.
    ///
    /// # Errors
    /// No dataset at `path`.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("x", &RawTensor::zeros(&[1], DType::U8)?.view(), hdf5::Layout::Contiguous)?;
    /// assert!(hdf5::open_bytes(&w.to_bytes()?)?.dataset("y").is_err());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn dataset(&self, path: &str) -> Result<Dataset> {
        let inner = self
            .file
            .dataset(path.trim_start_matches('/'))
            .map_err(|e| Error::format(FORMAT, format!("no dataset `{path}` ({e})")))?;
        Ok(Dataset {
            inner,
            path: path.to_string(),
        })
    }

    /// The attributes of the group at `path`, by name.
    ///
    /// # Errors
    /// No group at `path`, or an attribute of a type axial cannot read.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5::{self, AttrValue};
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("model/w", &RawTensor::zeros(&[1], DType::U8)?.view(), hdf5::Layout::Contiguous)?;
    /// w.attribute("/", "version", AttrValue::Int(3))?;
    /// let attrs = hdf5::open_bytes(&w.to_bytes()?)?.group_attributes("/")?;
    /// assert_eq!(attrs[0].0, "version");
    /// assert_eq!(attrs[0].1.as_f64(), Some(3.0));
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn group_attributes(&self, path: &str) -> Result<Vec<(String, Attr)>> {
        attributes(self.group_at(path)?.attributes().map_err(h5)?)
    }
}

fn attributes(list: Vec<hdf5_reader::Attribute>) -> Result<Vec<(String, Attr)>> {
    let mut out: Vec<(String, Attr)> = list
        .into_iter()
        .map(|a| Ok((a.name.clone(), attribute(&a)?)))
        .collect::<Result<_>>()?;
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn attribute(a: &hdf5_reader::Attribute) -> Result<Attr> {
    use hdf5_reader::Datatype as T;
    let is_string = matches!(a.datatype, T::String { .. })
        || matches!(
            a.datatype,
            T::VarLen {
                kind: hdf5_reader::VarLenKind::String,
                ..
            }
        )
        || a.decoded_strings.is_some();
    if is_string {
        let mut strings = a.read_strings().map_err(h5)?;
        return Ok(if a.shape.is_empty() && strings.len() == 1 {
            Attr::Str(strings.remove(0))
        } else {
            Attr::Strings(strings)
        });
    }
    let dtype = elements::dtype_of(&a.datatype)
        .map_err(|m| Error::format(FORMAT, format!("attribute `{}`: {m}", a.name)))?;
    let shape: Vec<usize> = a.shape.iter().map(|&d| d as usize).collect();
    let bytes = native(&a.raw_data, &a.datatype, dtype.size());
    let numel = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    if numel.and_then(|n| n.checked_mul(dtype.size())) != Some(bytes.len()) {
        return Err(Error::format(
            FORMAT,
            format!(
                "attribute `{}` holds {} bytes for shape {shape:?}",
                a.name,
                bytes.len()
            ),
        ));
    }
    let storage = Storage::from_host_bytes(&Cpu, &bytes)?;
    Ok(Attr::Tensor(StoredTensor::from_raw(
        RawTensor::from_storage(storage, &shape, dtype)?,
    )))
}

/// Little-endian bytes of elements stored in `dtype`'s byte order.
fn native(raw: &[u8], dtype: &hdf5_reader::Datatype, size: usize) -> Vec<u8> {
    let mut bytes = raw.to_vec();
    let big = matches!(
        dtype,
        hdf5_reader::Datatype::FixedPoint {
            byte_order: hdf5_reader::ByteOrder::BigEndian,
            ..
        } | hdf5_reader::Datatype::FloatingPoint {
            byte_order: hdf5_reader::ByteOrder::BigEndian,
            ..
        }
    );
    if big && size > 1 {
        for e in bytes.chunks_exact_mut(size) {
            e.reverse();
        }
    }
    bytes
}

impl Dataset {
    /// The sizes.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("s", &RawTensor::zeros(&[], DType::F64)?.view(), hdf5::Layout::Contiguous)?;
    /// assert!(hdf5::open_bytes(&w.to_bytes()?)?.dataset("s")?.shape().is_empty());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn shape(&self) -> Vec<usize> {
        self.inner.shape().iter().map(|&d| d as usize).collect()
    }

    /// The chunk shape of a chunked dataset.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("c", &RawTensor::zeros(&[2], DType::U8)?.view(), hdf5::Layout::Contiguous)?;
    /// assert_eq!(hdf5::open_bytes(&w.to_bytes()?)?.dataset("c")?.chunks(), None);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn chunks(&self) -> Option<Vec<usize>> {
        self.inner
            .chunks()
            .map(|c| c.into_iter().map(|d| d as usize).collect())
    }

    /// How many chunks the reads of this dataset's file have decoded so far:
    /// a hyperslab decodes only the chunks it touches.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5::{self, Select};
    /// let mut w = hdf5::H5Writer::new();
    /// let x = RawTensor::zeros(&[10, 10], DType::I64)?;
    /// w.dataset("f", &x.view(), hdf5::Layout::Chunked { chunks: vec![2, 10], gzip: Some(4), shuffle: false })?;
    /// let ds = hdf5::open_bytes(&w.to_bytes()?)?.dataset("f")?;
    /// ds.read_slice(&[Select::from(2..5), Select::All])?; // rows 2, 3 and 4: chunks 1 and 2
    /// assert_eq!(ds.chunks_decoded(), 2);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn chunks_decoded(&self) -> u64 {
        self.inner.chunk_cache_stats().misses
    }

    /// axial's dtype of the elements (h5py's bool enum is [`DType::Bool`]).
    ///
    /// # Errors
    /// A datatype axial has no dtype for (strings, compounds, unsigned
    /// 16 to 64 bits).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("m", &RawTensor::zeros(&[2], DType::Bool)?.view(), hdf5::Layout::Contiguous)?;
    /// assert_eq!(hdf5::open_bytes(&w.to_bytes()?)?.dataset("m")?.dtype()?, DType::Bool);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn dtype(&self) -> Result<DType> {
        elements::dtype_of(self.inner.dtype())
            .map_err(|m| Error::format(FORMAT, format!("dataset `{}`: {m}", self.path)))
    }

    /// The attributes, by name.
    ///
    /// # Errors
    /// An attribute of a type axial cannot read.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5::{self, AttrValue};
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("w", &RawTensor::zeros(&[1], DType::U8)?.view(), hdf5::Layout::Contiguous)?;
    /// w.attribute("w", "scale", AttrValue::Float(0.5))?;
    /// let attrs = hdf5::open_bytes(&w.to_bytes()?)?.dataset("w")?.attributes()?;
    /// assert_eq!(attrs[0].1.as_f64(), Some(0.5));
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn attributes(&self) -> Result<Vec<(String, Attr)>> {
        attributes(self.inner.attributes())
    }

    /// Reads the whole dataset.
    ///
    /// # Errors
    /// A dtype axial has no dtype for, or a damaged chunk.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("x", &RawTensor::arange(0.0, 4.0, 1.0, DType::I32)?.view(), hdf5::Layout::Contiguous)?;
    /// assert_eq!(hdf5::open_bytes(&w.to_bytes()?)?.dataset("x")?.read()?.to_vec::<i32>()?, vec![0, 1, 2, 3]);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn read(&self) -> Result<RawTensor> {
        let all = vec![Select::All; self.inner.ndim()];
        self.read_slice(&all)
    }

    /// Reads a hyperslab: one [`Select`] per axis. Only the chunks the
    /// selection touches are read and decoded.
    ///
    /// # Errors
    /// The selection's rank differs from the dataset's, an index or a start
    /// is past its axis, a step is 0, or a chunk it touches is damaged.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5::{self, Select};
    /// let mut w = hdf5::H5Writer::new();
    /// let x = RawTensor::arange(0.0, 24.0, 1.0, DType::I16)?.view().view(&[2, 3, 4])?.to_contiguous()?;
    /// w.dataset("v", &x.view(), hdf5::Layout::Contiguous)?;
    /// let ds = hdf5::open_bytes(&w.to_bytes()?)?.dataset("v")?;
    /// let s = ds.read_slice(&[Select::Index(1), Select::All, Select::from(1..3)])?; // v[1, :, 1:3]
    /// assert_eq!((s.shape(), s.to_vec::<i16>()?), (&[3, 2][..], vec![13, 14, 17, 18, 21, 22]));
    /// assert!(ds.read_slice(&[Select::Index(2), Select::All, Select::All]).is_err());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn read_slice(&self, selection: &[Select]) -> Result<RawTensor> {
        let dtype = self.dtype()?;
        let shape = self.shape();
        if selection.len() != shape.len() {
            return Err(Error::format(
                FORMAT,
                format!(
                    "dataset `{}` has {} axes, the selection {}",
                    self.path,
                    shape.len(),
                    selection.len()
                ),
            ));
        }
        let mut out_shape = Vec::new();
        let mut elems = Vec::new();
        for (axis, (s, &n)) in selection.iter().zip(&shape).enumerate() {
            let out_of_range = |i: usize| {
                Error::format(
                    FORMAT,
                    format!(
                        "index {i} is out of range for axis {axis} of size {n} of `{}`",
                        self.path
                    ),
                )
            };
            match *s {
                Select::Index(i) => {
                    if i >= n {
                        return Err(out_of_range(i));
                    }
                    elems.push(SliceInfoElem::Index(i as u64));
                }
                Select::All => {
                    out_shape.push(n);
                    elems.push(SliceInfoElem::Slice {
                        start: 0,
                        end: n as u64,
                        step: 1,
                    });
                }
                Select::Range { start, end, step } => {
                    if step == 0 {
                        return Err(Error::format(
                            FORMAT,
                            "a selection's step must be at least 1",
                        ));
                    }
                    let end = end.min(n);
                    if start > end && start > n {
                        return Err(out_of_range(start));
                    }
                    let count = if start >= end {
                        0
                    } else {
                        (end - start).div_ceil(step)
                    };
                    out_shape.push(count);
                    elems.push(SliceInfoElem::Slice {
                        start: start as u64,
                        end: end as u64,
                        step: step as u64,
                    });
                }
            }
        }
        // The file's dataspace can claim any sizes: their product is checked.
        let numel = axial_core::layout::checked_numel("hdf5", &out_shape)?;
        if numel
            .checked_mul(dtype.size())
            .is_none_or(|b| b > isize::MAX as usize)
        {
            return Err(Error::format(
                FORMAT,
                format!(
                    "dataset `{}`: a selection of shape {out_shape:?} is too large",
                    self.path
                ),
            ));
        }
        let bytes = if numel == 0 {
            Vec::new()
        } else {
            let selection = SliceInfo { selections: elems };
            match dtype.size() {
                1 => self.slice_bytes::<1>(&selection)?,
                2 => self.slice_bytes::<2>(&selection)?,
                4 => self.slice_bytes::<4>(&selection)?,
                _ => self.slice_bytes::<8>(&selection)?,
            }
        };
        if bytes.len() != numel * dtype.size() {
            return Err(Error::format(
                FORMAT,
                format!(
                    "dataset `{}`: the read gave {} bytes for shape {out_shape:?}",
                    self.path,
                    bytes.len()
                ),
            ));
        }
        let storage = Storage::from_host_bytes(&Cpu, &bytes)?;
        Ok(RawTensor::from_storage(storage, &out_shape, dtype)?)
    }

    fn slice_bytes<const N: usize>(&self, selection: &SliceInfo) -> Result<Vec<u8>> {
        let array = self
            .inner
            .read_slice::<Raw<N>>(selection)
            .map_err(|e| Error::format(FORMAT, format!("dataset `{}`: {e}", self.path)))?;
        let array = array.as_standard_layout().into_owned();
        let (elements, _) = array.into_raw_vec_and_offset();
        Ok(bytemuck::cast_slice(&elements).to_vec())
    }
}
