//! HDF5, in pure Rust (no system library): open a file, list its groups
//! and datasets, read a dataset whole or a hyperslab with steps (h5py's
//! `f['features'][2:5, :]`) that decodes only the chunks it touches, as a
//! [`StoredTensor`] like every other reader's, read attributes, and see how
//! a dataset is stored (its chunks, filters, compression and fill value);
//! chunked datasets with gzip, shuffle, fletcher32 and LZF (h5py's filter
//! 32000) are read. A file shorter than its superblock says is refused at
//! open, as h5py refuses it. [`H5Writer`] writes datasets, contiguous or
//! chunked with shuffle and gzip, that h5py reads.
//!
//! Reading goes through `hdf5-reader` (a hardened reader with bounded
//! allocations: its fuzzing found no panic or abort), with its read and
//! chunk limits on and LZF registered, reading the file at offsets (no
//! mapping); writing through `hdf5-writer`.
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
use hdf5_reader::superblock::Superblock;
use hdf5_reader::{FilterRegistry, Hdf5File, OpenOptions, SliceInfo, SliceInfoElem};

use crate::{Error, Result, StoredTensor};
use elements::Raw;
pub use write::{AttrValue, H5Writer, Layout};

const FORMAT: &str = "hdf5";

/// The reader's error with the kind it means: a feature axial does not
/// read, or a malformed file (a file cut short is caught at open).
fn h5(e: hdf5_reader::error::Error) -> Error {
    use hdf5_reader::error::Error as E;
    let mut inner = &e;
    while let E::Context { source, .. } = inner {
        inner = source;
    }
    let unsupported = matches!(
        inner,
        E::UnsupportedFilter(_)
            | E::UnsupportedEncoding(_)
            | E::UnsupportedSuperblockVersion(_)
            | E::UnsupportedObjectHeaderVersion(_)
            | E::UnsupportedBTreeVersion(_)
            | E::UnsupportedSymbolTableNodeVersion(_)
            | E::UnsupportedLocalHeapVersion(_)
            | E::UnsupportedGlobalHeapVersion(_)
            | E::UnsupportedFractalHeapVersion(_)
            | E::UnsupportedDataspaceVersion(_)
            | E::UnsupportedDatatypeClass(_)
            | E::UnsupportedLayoutClass(_)
            | E::UnsupportedLayoutVersion(_)
            | E::UnsupportedFilterPipelineVersion(_)
            | E::UnsupportedFillValueVersion(_)
            | E::UnsupportedLinkVersion(_)
            | E::UnsupportedLinkType(_)
            | E::UnsupportedAttributeVersion(_)
            | E::UnsupportedBTreeV2RecordType(_)
            | E::UnsupportedChunkIndexType(_)
            | E::UnsupportedOffsetSize(_)
            | E::UnsupportedLengthSize(_)
    );
    if unsupported {
        Error::unsupported(FORMAT, e.to_string())
    } else {
        Error::format(FORMAT, e.to_string())
    }
}

/// The reader's refusal to open a file: one that ends inside its own
/// superblock (before the end-of-file address can be read) is cut short.
fn open_error(e: hdf5_reader::error::Error) -> Error {
    if matches!(e, hdf5_reader::error::Error::UnexpectedEof { .. }) {
        Error::truncated(FORMAT, e.to_string())
    } else {
        h5(e)
    }
}

/// The superblock's "undefined address".
const UNDEFINED: u64 = u64::MAX;

/// h5py's refusal of a file shorter than its superblock's end-of-file
/// address (libhdf5 checks it at open), if `len` is.
fn cut_short(superblock: &Superblock, len: u64) -> Option<Error> {
    let stored = superblock.eof_address;
    let base = superblock.base_address;
    (stored != UNDEFINED && len < base.saturating_add(stored)).then(|| {
        Error::truncated(
            FORMAT,
            format!(
                "truncated file: eof = {len}, sblock->base_addr = {base}, stored_eof = {stored}"
            ),
        )
    })
}

/// The superblock at the start of `bytes` (or after a user block), if it parses.
fn superblock_of(bytes: &[u8]) -> Option<Superblock> {
    Superblock::parse(&mut hdf5_reader::io::Cursor::new(bytes)).ok()
}

/// How far into a file the superblock is looked for when the reader could
/// not open it: user blocks are a few KiB at most in practice.
const SUPERBLOCK_SEARCH: u64 = 1 << 20;

/// [`cut_short`] for the file at `path`, from the superblock in its first
/// [`SUPERBLOCK_SEARCH`] bytes.
fn cut_short_on_disk(path: &Path, len: u64) -> Option<Error> {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(SUPERBLOCK_SEARCH)
        .read_to_end(&mut head)
        .ok()?;
    cut_short(&superblock_of(&head)?, len)
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

/// Opens the HDF5 file at `path` (read at offsets as needed, not mapped).
///
/// # Errors
/// The file cannot be read, or is not HDF5, or is shorter than its
/// superblock says ([`Error::Truncated`], h5py's message).
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
    let file = Hdf5File::open_with_options(path, options(len)).map_err(|e| {
        // A file the reader cannot open may be cut short: say so, as h5py does.
        match (cut_short_on_disk(path, len as u64), e) {
            (Some(short), _) => short,
            (None, hdf5_reader::error::Error::Io(io)) => Error::io(path, io),
            (None, e) => open_error(e),
        }
    })?;
    if let Some(short) = cut_short(file.superblock(), file.storage().len()) {
        return Err(short);
    }
    Ok(H5File { file })
}

/// Opens an HDF5 file from memory (a copy).
///
/// # Errors
/// As [`open`].
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::{ErrorKind, hdf5};
/// assert!(hdf5::open_bytes(b"\x89HDF\r\n\x1a\n").is_err());
/// let mut w = hdf5::H5Writer::new();
/// w.dataset("x", &RawTensor::zeros(&[100], DType::F32)?.view(), hdf5::Layout::Contiguous)?;
/// let bytes = w.to_bytes()?;
/// let cut = hdf5::open_bytes(&bytes[..bytes.len() * 3 / 4]).err().unwrap();
/// assert_eq!(cut.kind(), ErrorKind::Truncated);
/// assert!(cut.to_string().starts_with("hdf5: truncated file: eof = "));
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn open_bytes(bytes: &[u8]) -> Result<H5File> {
    if let Some(short) = superblock_of(bytes).and_then(|sb| cut_short(&sb, bytes.len() as u64)) {
        return Err(short);
    }
    let file =
        Hdf5File::from_bytes_with_options(bytes, options(bytes.len())).map_err(open_error)?;
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
    filters: Vec<Filter>,
}

/// One filter of a chunked dataset's pipeline, as h5py's
/// `ds.id.get_create_plist().get_filter(i)` gives it.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::hdf5::{self, Filter};
/// let mut w = hdf5::H5Writer::new();
/// let x = RawTensor::zeros(&[8], DType::I32)?;
/// w.dataset("x", &x.view(), hdf5::Layout::Chunked { chunks: vec![4], gzip: Some(6), shuffle: true })?;
/// let ds = hdf5::open_bytes(&w.to_bytes()?)?.dataset("x")?;
/// assert_eq!(ds.filters()[0], Filter { id: 2, name: "shuffle".into(), client_data: vec![4] });
/// assert_eq!((ds.filters()[1].id, ds.filters()[1].name.as_str()), (1, "deflate"));
/// # Ok::<(), axial_io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// HDF5's filter id: 1 deflate (gzip), 2 shuffle, 3 fletcher32, 4 szip,
    /// 5 nbit, 6 scaleoffset, 32000 LZF (h5py's own), others registered
    /// with the HDF5 Group.
    pub id: u16,
    /// HDF5's name for the filter (`deflate`, `shuffle`, `lzf`), or the
    /// name the file records for a filter HDF5 does not define.
    pub name: String,
    /// The filter's parameters (`cd_values`): deflate's level, shuffle's
    /// element size, LZF's version and chunk size.
    pub client_data: Vec<u32>,
}

/// How a dataset's chunks are compressed: h5py's `ds.compression`, with
/// `ds.compression_opts` for gzip.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::hdf5::{self, Compression};
/// let mut w = hdf5::H5Writer::new();
/// let x = RawTensor::zeros(&[8], DType::F32)?;
/// w.dataset("x", &x.view(), hdf5::Layout::Chunked { chunks: vec![4], gzip: Some(4), shuffle: false })?;
/// w.dataset("y", &x.view(), hdf5::Layout::Contiguous)?;
/// let file = hdf5::open_bytes(&w.to_bytes()?)?;
/// assert_eq!(file.dataset("x")?.compression(), Some(Compression::Gzip { level: 4 }));
/// assert_eq!(file.dataset("y")?.compression(), None);
/// # Ok::<(), axial_io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compression {
    /// Deflate (h5py's `gzip`), at a level from 0 to 9.
    Gzip {
        /// The level written.
        level: u32,
    },
    /// LZF (h5py's filter 32000).
    Lzf,
    /// SZIP (filter 4), which axial does not decode.
    Szip,
}

/// HDF5's names of the filters it defines, and h5py's LZF.
fn filter_name(id: u16, recorded: Option<&str>) -> String {
    let known = match id {
        1 => "deflate",
        2 => "shuffle",
        3 => "fletcher32",
        4 => "szip",
        5 => "nbit",
        6 => "scaleoffset",
        32000 => "lzf",
        _ => "",
    };
    match (known, recorded) {
        ("", Some(name)) => name.to_string(),
        ("", None) => format!("filter {id}"),
        (known, _) => known.to_string(),
    }
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
    /// No dataset at `path` ([`Error::NotFound`]), or its object header is
    /// damaged.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::{ErrorKind, hdf5};
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("x", &RawTensor::zeros(&[1], DType::U8)?.view(), hdf5::Layout::Contiguous)?;
    /// let err = hdf5::open_bytes(&w.to_bytes()?)?.dataset("y").err().unwrap();
    /// assert_eq!(err.kind(), ErrorKind::NotFound);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn dataset(&self, path: &str) -> Result<Dataset> {
        use hdf5_reader::error::Error as E;
        let inner = self
            .file
            .dataset(path.trim_start_matches('/'))
            .map_err(|e| {
                let mut inner = &e;
                while let E::Context { source, .. } = inner {
                    inner = source;
                }
                match inner {
                    E::DatasetNotFound(_) | E::GroupNotFound(_) => Error::NotFound {
                        format: FORMAT,
                        key: path.to_string(),
                    },
                    _ => h5(e).within(FORMAT, &format!("dataset `{path}`")),
                }
            })?;
        let header = self.file.get_or_parse_header(inner.address()).map_err(h5)?;
        let filters = header
            .messages
            .iter()
            .find_map(|m| match m {
                hdf5_reader::messages::HdfMessage::FilterPipeline(p) => Some(&p.filters),
                _ => None,
            })
            .map(|filters| {
                filters
                    .iter()
                    .map(|f| Filter {
                        id: f.id,
                        name: filter_name(f.id, f.name.as_deref()),
                        client_data: f.client_data.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Dataset {
            inner,
            path: path.to_string(),
            filters,
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
    let dtype = elements::dtype_of(&a.datatype).ok_or_else(|| {
        Error::unsupported(
            FORMAT,
            format!(
                "attribute `{}` has dtype {}, which axial does not have",
                a.name,
                elements::dtype_name(&a.datatype)
            ),
        )
    })?;
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
    /// [`Error::UnsupportedDType`] naming the dataset and the datatype, as
    /// numpy names it (`float128`, `bytes80`, `compound`), for one axial has
    /// no dtype for. The file's other datasets read.
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
        elements::dtype_of(self.inner.dtype()).ok_or_else(|| {
            Error::unsupported_dtype(
                FORMAT,
                Some(&self.path),
                elements::dtype_name(self.inner.dtype()),
            )
        })
    }

    /// The filters of a chunked dataset, in the order they were applied
    /// when it was written (shuffle before deflate); empty for a dataset
    /// stored whole.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("c", &RawTensor::zeros(&[2], DType::U8)?.view(), hdf5::Layout::Contiguous)?;
    /// assert!(hdf5::open_bytes(&w.to_bytes()?)?.dataset("c")?.filters().is_empty());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn filters(&self) -> &[Filter] {
        &self.filters
    }

    fn has_filter(&self, id: u16) -> Option<&Filter> {
        self.filters.iter().find(|f| f.id == id)
    }

    /// How the chunks are compressed, if they are: gzip (with its level),
    /// LZF or SZIP, as h5py's `compression`.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5::{self, Compression};
    /// let mut w = hdf5::H5Writer::new();
    /// let x = RawTensor::zeros(&[4], DType::F64)?;
    /// w.dataset("z", &x.view(), hdf5::Layout::Chunked { chunks: vec![2], gzip: Some(9), shuffle: true })?;
    /// assert_eq!(hdf5::open_bytes(&w.to_bytes()?)?.dataset("z")?.compression(), Some(Compression::Gzip { level: 9 }));
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn compression(&self) -> Option<Compression> {
        self.filters.iter().find_map(|f| match f.id {
            1 => Some(Compression::Gzip {
                level: f.client_data.first().copied().unwrap_or(0),
            }),
            4 => Some(Compression::Szip),
            32000 => Some(Compression::Lzf),
            _ => None,
        })
    }

    /// Whether the chunks are byte-shuffled before compression (h5py's
    /// `shuffle`).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// let x = RawTensor::zeros(&[4], DType::I16)?;
    /// w.dataset("s", &x.view(), hdf5::Layout::Chunked { chunks: vec![2], gzip: Some(1), shuffle: true })?;
    /// assert!(hdf5::open_bytes(&w.to_bytes()?)?.dataset("s")?.shuffle());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn shuffle(&self) -> bool {
        self.has_filter(2).is_some()
    }

    /// Whether each chunk carries a Fletcher-32 checksum (h5py's
    /// `fletcher32`), checked when the chunk is read.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("f", &RawTensor::zeros(&[4], DType::I16)?.view(), hdf5::Layout::Contiguous)?;
    /// assert!(!hdf5::open_bytes(&w.to_bytes()?)?.dataset("f")?.fletcher32());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn fletcher32(&self) -> bool {
        self.has_filter(3).is_some()
    }

    /// The fill value, as a 0-d tensor of the dataset's dtype: what a read
    /// gives for elements never written (chunks never allocated). As
    /// h5py's `fillvalue`, it is zero when the file sets none.
    ///
    /// # Errors
    /// A dtype axial does not have, or a recorded value of the wrong size.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("x", &RawTensor::zeros(&[2], DType::F32)?.view(), hdf5::Layout::Contiguous)?;
    /// let fill = hdf5::open_bytes(&w.to_bytes()?)?.dataset("x")?.fill_value()?;
    /// assert_eq!((fill.shape(), fill.to_vec::<f32>()?), (&[][..], vec![0.0]));
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn fill_value(&self) -> Result<StoredTensor> {
        let dtype = self.dtype()?;
        let recorded = self
            .inner
            .fill_value()
            .filter(|f| f.defined)
            .and_then(|f| f.value.as_deref());
        let bytes = match recorded {
            Some(raw) if raw.len() == dtype.size() => native(raw, self.inner.dtype(), dtype.size()),
            Some(raw) => {
                return Err(Error::format(
                    FORMAT,
                    format!(
                        "dataset `{}`: the fill value holds {} bytes for an element of {}",
                        self.path,
                        raw.len(),
                        dtype.size()
                    ),
                ));
            }
            None => vec![0; dtype.size()],
        };
        let storage = Storage::from_host_bytes(&Cpu, &bytes)?;
        Ok(StoredTensor::from_raw(RawTensor::from_storage(
            storage,
            &[],
            dtype,
        )?))
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

    /// Reads the whole dataset, as every reader of the crate returns a
    /// tensor: a [`StoredTensor`] (over a storage of its own;
    /// [`StoredTensor::into_raw`] gives the `RawTensor` without a copy).
    ///
    /// # Errors
    /// A dtype axial has no dtype for ([`Error::UnsupportedDType`]), or a
    /// damaged chunk.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::hdf5;
    /// let mut w = hdf5::H5Writer::new();
    /// w.dataset("x", &RawTensor::arange(0.0, 4.0, 1.0, DType::I32)?.view(), hdf5::Layout::Contiguous)?;
    /// assert_eq!(hdf5::open_bytes(&w.to_bytes()?)?.dataset("x")?.read()?.to_vec::<i32>()?, vec![0, 1, 2, 3]);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn read(&self) -> Result<StoredTensor> {
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
    pub fn read_slice(&self, selection: &[Select]) -> Result<StoredTensor> {
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
                8 => self.slice_bytes::<8>(&selection)?,
                _ => self.slice_bytes::<16>(&selection)?,
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
        Ok(StoredTensor::from_raw(RawTensor::from_storage(
            storage, &out_shape, dtype,
        )?))
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
