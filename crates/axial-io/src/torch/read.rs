//! Reading `torch.save` files: the zip archive (`data.pkl` and one record
//! per storage) and the legacy format (five pickles, then the storages'
//! bytes), each storage checked against what the pickle claims before
//! anything is allocated.

use std::collections::HashMap;
use std::io::Read;
use std::sync::Arc;

use axial_core::{Layout, Storage};

use super::globals::TorchDType;
use super::pickle::{self, Graph, Id, MAX_DEPTH, Node, PidStyle, StorageRef};
use crate::source::FileBytes;
use crate::value::{Dict, ForeignTensor, TensorValue};
use crate::zip_archive::{self, Archive, OpenError};
use crate::{Error, Result, StoredTensor, Value};

pub(crate) const FORMAT: &str = "torch";

pub(crate) fn corrupt(message: impl Into<String>) -> Error {
    Error::format(FORMAT, message)
}

/// Reads a checkpoint, zip or legacy, into its value tree.
pub(crate) fn read(file: &FileBytes) -> Result<Value> {
    let bytes = file.bytes();
    if bytes.is_empty() {
        return Err(Error::truncated(FORMAT, "the file is empty (EOFError)"));
    }
    if bytes.starts_with(b"PK\x03\x04") {
        read_zip(file)
    } else {
        read_legacy(file)
    }
}

fn zip_error(e: zip::result::ZipError) -> Error {
    let message = format!("PytorchStreamReader failed reading zip archive: {e}");
    match e {
        zip::result::ZipError::UnsupportedArchive(_)
        | zip::result::ZipError::CompressionMethodNotSupported(_) => {
            Error::unsupported(FORMAT, message)
        }
        _ => corrupt(message),
    }
}

fn read_zip(file: &FileBytes) -> Result<Value> {
    let bytes = file.bytes();
    let mut archive = zip_archive::open(bytes).map_err(|e| match e {
        OpenError::NoEndRecord => Error::truncated(
            FORMAT,
            "PytorchStreamReader failed reading zip archive: failed finding central directory",
        ),
        OpenError::Zip(e) => zip_error(e),
    })?;
    let first = archive
        .file_names()
        .next()
        .ok_or_else(|| corrupt("the archive holds no record"))?
        .map_err(zip_error)?;
    let prefix = match first.find('/') {
        Some(i) => first[..=i].to_string(),
        None => {
            return Err(corrupt(format!(
                "file in archive is not in a subdirectory: {first}"
            )));
        }
    };
    let record = |archive: &mut Archive<'_>, name: &str| -> Result<Option<Vec<u8>>> {
        match archive.by_name(&format!("{prefix}{name}")) {
            Ok(mut f) => {
                let mut out = Vec::new();
                // Small records only: the pickle and the text ones.
                f.by_ref()
                    .take(bytes.len() as u64 * 1032 + 1024)
                    .read_to_end(&mut out)
                    .map_err(|e| {
                        corrupt(format!(
                            "PytorchStreamReader failed reading record {name}: {e}"
                        ))
                    })?;
                Ok(Some(out))
            }
            Err(zip::result::ZipError::FileNotFound) => Ok(None),
            Err(e) => Err(zip_error(e)),
        }
    };
    let version = match record(&mut archive, "version")? {
        Some(v) => Some(v),
        None => record(&mut archive, ".data/version")?,
    };
    let version = version.ok_or_else(|| {
        corrupt("PytorchStreamReader failed reading file version: file not found")
    })?;
    let text = String::from_utf8_lossy(&version);
    if text.trim().parse::<u64>().map_or(true, |v| v == 0) {
        return Err(corrupt(format!(
            "the archive's version record is {:?}",
            text.trim()
        )));
    }
    let big_endian = match record(&mut archive, "byteorder")? {
        None => false,
        Some(b) if b == b"little" => false,
        Some(b) if b == b"big" => true,
        Some(b) => {
            return Err(corrupt(format!(
                "Unknown endianness type: {}",
                String::from_utf8_lossy(&b)
            )));
        }
    };
    let pkl = record(&mut archive, "data.pkl")?.ok_or_else(|| {
        corrupt(format!(
            "PytorchStreamReader failed locating file {prefix}data.pkl: file not found"
        ))
    })?;
    let (graph, _) = pickle::unpickle(&pkl, 0, PidStyle::Zip)?;
    let mut storages = HashMap::new();
    for &id in &graph.storages {
        let Node::Storage(s) = &graph.nodes[id] else {
            continue;
        };
        let nbytes = expected_bytes(s)?;
        let name = format!("{prefix}data/{}", s.key);
        let mut f = archive.by_name(&name).map_err(|e| match e {
            zip::result::ZipError::FileNotFound => corrupt(format!(
                "PytorchStreamReader failed locating file data/{}: file not found",
                s.key
            )),
            e => zip_error(e),
        })?;
        if f.size() != nbytes as u64 {
            return Err(size_mismatch(f.size(), s));
        }
        let storage = if f.compression() == zip::CompressionMethod::Stored {
            let start = f
                .data_start()
                .ok_or_else(|| corrupt(format!("record {name} has no data offset")))?
                as usize;
            if f.compressed_size() != f.size() {
                return Err(corrupt(format!("stored record {name} has two sizes")));
            }
            file.storage(FORMAT, start..start + nbytes)?
        } else {
            // A deflated record: its claimed size must be one deflate can reach.
            if f.size() > f.compressed_size().saturating_mul(1032) + 1024 {
                return Err(corrupt(format!(
                    "record {name} claims {} bytes from {} compressed",
                    f.size(),
                    f.compressed_size()
                )));
            }
            let mut out = vec![0u8; nbytes];
            f.read_exact(&mut out).map_err(|e| {
                corrupt(format!(
                    "PytorchStreamReader failed reading record {name}: {e}"
                ))
            })?;
            Storage::from_host_bytes(&axial_core::Cpu, &out)?
        };
        storages.insert(id, storage);
    }
    // No reader of the file's bytes outlives this point: the storages may be written.
    drop(archive);
    finish(&graph, storages, big_endian, pkl.len())
}

/// The bytes a storage's record must hold: its claimed elements times its
/// element size, refused when that does not fit memory.
fn expected_bytes(s: &StorageRef) -> Result<usize> {
    u128::from(s.numel)
        .checked_mul(s.dtype.size as u128)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| size_mismatch(0, s))
}

fn size_mismatch(record: u64, s: &StorageRef) -> Error {
    let nbytes = u128::from(s.numel) * s.dtype.size as u128;
    corrupt(format!(
        "record size ({record} bytes) does not match expected size ({nbytes} bytes = {nbytes} elements * 1 bytes/element) for dtype Byte"
    ))
}

/// The legacy magic number, `0x1950a86a20f9469cfc6c`.
const MAGIC: i128 = 0x1950a86a20f9469cfc6c;

fn read_legacy(file: &FileBytes) -> Result<Value> {
    let bytes = file.bytes();
    let (magic, at) = pickle::unpickle(bytes, 0, PidStyle::Legacy)?;
    if !matches!(magic.nodes[magic.root], Node::Int(MAGIC)) {
        return Err(corrupt("Invalid magic number; corrupt file?"));
    }
    let (protocol, at) = pickle::unpickle(bytes, at, PidStyle::Legacy)?;
    match protocol.nodes[protocol.root] {
        Node::Int(1001) => {}
        Node::Int(v) => return Err(corrupt(format!("Invalid protocol version: {v}"))),
        _ => return Err(corrupt("Invalid protocol version")),
    }
    let (info, at) = pickle::unpickle(bytes, at, PidStyle::Legacy)?;
    if let Node::Dict { items, .. } = &info.nodes[info.root] {
        let little = items
            .iter()
            .find(|(k, _)| matches!(&info.nodes[*k], Node::Str(s) if s == "little_endian"));
        if let Some((_, v)) = little
            && matches!(info.nodes[*v], Node::Bool(false))
        {
            return Err(Error::unsupported(
                FORMAT,
                "big-endian legacy checkpoints are not supported",
            ));
        }
    }
    let start = at;
    let (graph, at) = pickle::unpickle(bytes, at, PidStyle::Legacy)?;
    let (keys, mut at) = pickle::unpickle(bytes, at, PidStyle::Legacy)?;
    let Node::List(key_ids) = &keys.nodes[keys.root] else {
        return Err(corrupt("the legacy storage key list is not a list"));
    };
    let by_key: HashMap<&str, Id> = graph
        .storages
        .iter()
        .filter_map(|&id| match &graph.nodes[id] {
            Node::Storage(s) => Some((s.key.as_str(), id)),
            _ => None,
        })
        .collect();
    let mut storages = HashMap::new();
    for &k in key_ids {
        let Node::Str(key) = &keys.nodes[k] else {
            return Err(corrupt("a legacy storage key is not a string"));
        };
        let id = *by_key
            .get(key.as_str())
            .ok_or_else(|| corrupt(format!("KeyError: '{key}'")))?;
        let Node::Storage(s) = &graph.nodes[id] else {
            continue;
        };
        let header = bytes.get(at..at + 8).ok_or_else(|| {
            Error::truncated(
                FORMAT,
                "unexpected EOF, expected 8 more bytes. The file might be corrupted.",
            )
        })?;
        let numel = u64::from_le_bytes(header.try_into().unwrap_or_default());
        if numel != s.numel {
            return Err(corrupt(format!(
                "storage has wrong size: expected {} got {numel}",
                s.numel
            )));
        }
        let nbytes = expected_bytes(s)?;
        let begin = at + 8;
        let end = begin
            .checked_add(nbytes)
            .filter(|&e| e <= bytes.len())
            .ok_or_else(|| {
                Error::truncated(
                    FORMAT,
                    format!(
                        "unexpected EOF, expected {} more bytes. The file might be corrupted.",
                        begin.saturating_add(nbytes).saturating_sub(bytes.len())
                    ),
                )
            })?;
        storages.insert(id, file.storage(FORMAT, begin..end)?);
        at = end;
    }
    if let Some(&missing) = graph.storages.iter().find(|id| !storages.contains_key(id)) {
        let key = match &graph.nodes[missing] {
            Node::Storage(s) => s.key.clone(),
            _ => String::new(),
        };
        return Err(corrupt(format!("storage `{key}` has no data in the file")));
    }
    finish(&graph, storages, false, at - start)
}

/// The value tree of a graph whose storages are read.
fn finish(
    graph: &Graph,
    storages: HashMap<Id, Storage>,
    big_endian: bool,
    pickle_len: usize,
) -> Result<Value> {
    let mut shared: HashMap<Id, Arc<Storage>> = HashMap::new();
    for (id, mut storage) in storages {
        if big_endian {
            let size = swap_size(graph, id);
            if size > 1 {
                for chunk in storage.as_bytes_mut().chunks_exact_mut(size) {
                    chunk.reverse();
                }
            }
        }
        shared.insert(id, Arc::new(storage));
    }
    let mut tree = Tree {
        graph,
        storages: &shared,
        budget: pickle_len.saturating_mul(8).saturating_add(4096),
        open: Vec::new(),
    };
    tree.value(graph.root, 0)
}

/// The size a big-endian storage's bytes are swapped by: its own dtype's,
/// or, for an untyped storage, that of the first tensor viewing it; half
/// of it for a complex dtype, whose two parts are swapped apart.
fn swap_size(graph: &Graph, storage: Id) -> usize {
    let own = match &graph.nodes[storage] {
        Node::Storage(s) => s.dtype,
        _ => super::globals::torch_dtype(axial_core::DType::U8),
    };
    let dtype = graph
        .nodes
        .iter()
        .find_map(|n| match n {
            Node::Tensor(t) if t.storage == storage => Some(t.dtype),
            _ => None,
        })
        .unwrap_or(own);
    if dtype.name.starts_with("complex") {
        dtype.size / 2
    } else {
        dtype.size
    }
}

/// Builds the value tree, refusing a container that holds itself, nesting
/// deeper than [`MAX_DEPTH`], and more nodes than the pickle's length
/// justifies.
struct Tree<'a> {
    graph: &'a Graph,
    storages: &'a HashMap<Id, Arc<Storage>>,
    budget: usize,
    open: Vec<Id>,
}

impl Tree<'_> {
    fn value(&mut self, id: Id, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(corrupt(format!(
                "values nest deeper than {MAX_DEPTH} levels"
            )));
        }
        self.budget = self.budget.checked_sub(1).ok_or_else(|| {
            corrupt("the pickle references its objects more often than its length justifies")
        })?;
        if self.open.contains(&id) {
            return Err(corrupt("a container holds itself (a recursive structure)"));
        }
        self.open.push(id);
        let value = self.node(id, depth);
        self.open.pop();
        value
    }

    fn all(&mut self, ids: &[Id], depth: usize) -> Result<Vec<Value>> {
        ids.iter().map(|&i| self.value(i, depth + 1)).collect()
    }

    fn pairs(&mut self, items: &[(Id, Id)], depth: usize) -> Result<Vec<(Value, Value)>> {
        items
            .iter()
            .map(|&(k, v)| Ok((self.value(k, depth + 1)?, self.value(v, depth + 1)?)))
            .collect()
    }

    fn node(&mut self, id: Id, depth: usize) -> Result<Value> {
        Ok(match &self.graph.nodes[id] {
            Node::None => Value::None,
            Node::Bool(b) => Value::Bool(*b),
            Node::Int(i) => Value::Int(*i),
            Node::BigInt(b) => Value::BigInt(b.clone()),
            Node::Float(f) => Value::Float(*f),
            Node::Complex(re, im) => Value::Complex(*re, *im),
            Node::Str(s) => Value::Str(s.clone()),
            Node::Bytes(b) => Value::Bytes(b.clone()),
            Node::Tuple(items) => Value::Tuple(self.all(items, depth)?),
            Node::List(items) => Value::List(self.all(items, depth)?),
            Node::Set(items) => Value::Set(self.all(items, depth)?),
            Node::Dict {
                kind,
                items,
                attributes,
            } => Value::Dict(Dict {
                kind: *kind,
                items: self.pairs(items, depth)?,
                attributes: self.pairs(attributes, depth)?,
            }),
            Node::Global(g) => match g {
                super::globals::Global::DType(d) => Value::DType(format!("torch.{}", d.name)),
                g => Value::Global(pickle::global_name(g)),
            },
            Node::Storage(s) => {
                let storage = self.storage(id)?;
                let layout = Layout::contiguous(&[usize::try_from(s.numel).unwrap_or(usize::MAX)]);
                match s.dtype.dtype {
                    Some(dtype) => Value::Storage(StoredTensor::new(storage, layout, dtype)?),
                    None => Value::Foreign(ForeignTensor {
                        dtype: s.dtype.name.to_string(),
                        element_size: s.dtype.size,
                        shape: layout.shape().to_vec(),
                        strides: layout.strides().to_vec(),
                        offset: 0,
                        storage,
                    }),
                }
            }
            Node::Tensor(t) => {
                let storage = self.storage(t.storage)?;
                let (layout, dtype) = (tensor_layout(t, &storage)?, t.dtype);
                match dtype.dtype {
                    Some(d) => Value::Tensor(TensorValue {
                        tensor: StoredTensor::new(storage, layout, d)?,
                        requires_grad: t.requires_grad,
                        parameter: t.parameter,
                    }),
                    None => Value::Foreign(ForeignTensor {
                        dtype: dtype.name.to_string(),
                        element_size: dtype.size,
                        shape: layout.shape().to_vec(),
                        strides: layout.strides().to_vec(),
                        offset: layout.offset(),
                        storage,
                    }),
                }
            }
            Node::Size(s) => Value::Size(s.clone()),
            Node::Device(d) => Value::Device(d.clone()),
            Node::Layout(l) => Value::Global(l.clone()),
        })
    }

    fn storage(&self, id: Id) -> Result<Arc<Storage>> {
        self.storages
            .get(&id)
            .cloned()
            .ok_or_else(|| corrupt("a tensor's storage has no data in the file"))
    }
}

/// A saved tensor's layout, checked as `Tensor.set_` checks it (with
/// torch's messages), against its storage.
fn tensor_layout(t: &pickle::TensorNode, storage: &Storage) -> Result<Layout> {
    let dtype: TorchDType = t.dtype;
    if t.offset < 0 {
        return Err(corrupt(format!(
            "Tensor: invalid storage offset {}",
            t.offset
        )));
    }
    if let Some(d) = t.size.iter().find(|&&d| d < 0) {
        return Err(corrupt(format!(
            "Trying to create tensor with negative dimension {d}: {:?}",
            t.size
        )));
    }
    if t.stride.iter().any(|&s| s < 0) {
        return Err(corrupt(format!(
            "negative strides are not supported, got {:?}",
            t.stride
        )));
    }
    let numel = t.size.iter().try_fold(1u128, |acc, &d| {
        acc.checked_mul(d as u128)
            .filter(|&n| n <= i64::MAX as u128)
    });
    if numel.is_none() {
        return Err(corrupt("numel: integer multiplication overflow"));
    }
    let to_usize = |v: i128| {
        usize::try_from(v)
            .ok()
            .filter(|&v| v <= isize::MAX as usize)
    };
    let overflow = || {
        corrupt(format!(
            "Storage size calculation overflowed with sizes={:?} and strides={:?}",
            t.size, t.stride
        ))
    };
    let size: Vec<usize> = t
        .size
        .iter()
        .map(|&v| to_usize(v))
        .collect::<Option<_>>()
        .ok_or_else(overflow)?;
    let stride: Vec<isize> = t
        .stride
        .iter()
        .map(|&v| to_usize(v).map(|v| v as isize))
        .collect::<Option<_>>()
        .ok_or_else(overflow)?;
    let offset = to_usize(t.offset)
        .ok_or_else(|| corrupt(format!("Tensor: invalid storage offset {}", t.offset)))?;
    // The storage a view needs: offset + 1 + Σ (size - 1) · stride, in elements.
    let mut needed = if size.contains(&0) {
        0u128
    } else {
        offset as u128 + 1
    };
    if needed > 0 {
        for (&n, &s) in size.iter().zip(&stride) {
            needed = (n as u128 - 1)
                .checked_mul(s as u128)
                .and_then(|x| x.checked_add(needed))
                .filter(|&x| x <= i64::MAX as u128)
                .ok_or_else(overflow)?;
        }
    }
    let have = (storage.nbytes() / dtype.size) as u128;
    if needed > have {
        return Err(corrupt(format!(
            "Trying to resize storage that is not resizable: the tensor of sizes {size:?}, strides {stride:?} and offset {offset} needs {} bytes, its storage holds {}",
            needed * dtype.size as u128,
            storage.nbytes()
        )));
    }
    Ok(Layout::from_parts(&size, &stride, offset))
}
