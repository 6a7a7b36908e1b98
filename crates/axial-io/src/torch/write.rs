//! Writing checkpoints that `torch.load(weights_only=True)` reads: a
//! protocol-2 pickle that uses only allow-listed globals, and the zip
//! archive `torch.save` writes (stored records, each 64-byte aligned), with
//! one record per storage so that views of one storage stay views of one
//! storage.

use std::io::{Cursor, Seek, Write};
use std::sync::Arc;

use axial_core::Storage;
use zip::write::SimpleFileOptions;

use super::globals::{self, Global};
use super::read::{FORMAT, corrupt};
use crate::value::{Dict, DictKind, TensorValue};
use crate::{Error, Result, Value};

/// The storages a pickle refers to, by key (their index), with their dtype.
type Records = Vec<(Arc<Storage>, globals::TorchDType)>;

/// A pickle being written, and the storages it refers to by key.
struct Pickler {
    out: Vec<u8>,
    storages: Records,
}

impl Pickler {
    fn op(&mut self, op: u8) {
        self.out.push(op);
    }

    fn global(&mut self, module: &str, name: &str) {
        debug_assert!(
            globals::resolve(module, name).is_ok(),
            "{module}.{name} is allowed"
        );
        self.op(b'c');
        self.out.extend_from_slice(module.as_bytes());
        self.op(b'\n');
        self.out.extend_from_slice(name.as_bytes());
        self.op(b'\n');
    }

    fn int(&mut self, v: i128) {
        if (0..=0xff).contains(&v) {
            self.op(b'K');
            self.out.push(v as u8);
        } else if (0..=0xffff).contains(&v) {
            self.op(b'M');
            self.out.extend_from_slice(&(v as u16).to_le_bytes());
        } else if let Ok(v) = i32::try_from(v) {
            self.op(b'J');
            self.out.extend_from_slice(&v.to_le_bytes());
        } else {
            // LONG1: the shortest little-endian two's complement.
            let bytes = v.to_le_bytes();
            let mut n = 16;
            while n > 1 {
                let (last, prev) = (bytes[n - 1], bytes[n - 2]);
                if (last == 0 && prev & 0x80 == 0) || (last == 0xff && prev & 0x80 != 0) {
                    n -= 1;
                } else {
                    break;
                }
            }
            self.op(0x8a);
            self.out.push(n as u8);
            self.out.extend_from_slice(&bytes[..n]);
        }
    }

    fn str(&mut self, s: &str) {
        self.op(b'X');
        self.out.extend_from_slice(&(s.len() as u32).to_le_bytes());
        self.out.extend_from_slice(s.as_bytes());
    }

    fn tuple(&mut self, items: &[Value], depth: usize) -> Result<()> {
        match items.len() {
            0 => self.op(b')'),
            1..=3 => {
                for v in items {
                    self.value(v, depth + 1)?;
                }
                self.op([0x85, 0x86, 0x87][items.len() - 1]);
            }
            _ => {
                self.op(b'(');
                for v in items {
                    self.value(v, depth + 1)?;
                }
                self.op(b't');
            }
        }
        Ok(())
    }

    fn items(&mut self, items: &[(Value, Value)], depth: usize) -> Result<()> {
        for batch in items.chunks(1000) {
            self.op(b'(');
            for (k, v) in batch {
                self.value(k, depth + 1)?;
                self.value(v, depth + 1)?;
            }
            self.op(b'u');
        }
        Ok(())
    }

    fn dict(&mut self, d: &Dict, depth: usize) -> Result<()> {
        match d.kind {
            DictKind::Dict => {
                self.op(b'}');
                self.items(&d.items, depth)?;
            }
            DictKind::OrderedDict => {
                self.global("collections", "OrderedDict");
                self.op(b')');
                self.op(b'R');
                self.items(&d.items, depth)?;
            }
            DictKind::Counter => {
                self.global("collections", "Counter");
                self.op(b'}');
                self.items(&d.items, depth)?;
                self.op(0x85);
                self.op(b'R');
            }
        }
        if !d.attributes.is_empty() && d.kind != DictKind::Dict {
            self.op(b'}');
            self.items(&d.attributes, depth)?;
            self.op(b'b');
        }
        Ok(())
    }

    fn value(&mut self, v: &Value, depth: usize) -> Result<()> {
        if depth > super::pickle::MAX_DEPTH {
            return Err(corrupt("values nest too deep to save"));
        }
        match v {
            Value::None => self.op(b'N'),
            Value::Bool(b) => self.op(if *b { 0x88 } else { 0x89 }),
            Value::Int(i) => self.int(*i),
            Value::BigInt(bytes) => {
                let n = u8::try_from(bytes.len())
                    .map_err(|_| corrupt("an int of more than 255 bytes cannot be saved"))?;
                self.op(0x8a);
                self.out.push(n);
                self.out.extend_from_slice(bytes);
            }
            Value::Float(f) => {
                self.op(b'G');
                self.out.extend_from_slice(&f.to_be_bytes());
            }
            Value::Complex(re, im) => {
                self.global("__builtin__", "complex");
                self.tuple(&[Value::Float(*re), Value::Float(*im)], depth)?;
                self.op(b'R');
            }
            Value::Str(s) => self.str(s),
            Value::Bytes(b) => {
                self.global("_codecs", "encode");
                let latin1: String = b.iter().map(|&c| char::from(c)).collect();
                self.str(&latin1);
                self.str("latin1");
                self.op(0x86);
                self.op(b'R');
            }
            Value::List(items) => {
                self.op(b']');
                for batch in items.chunks(1000) {
                    self.op(b'(');
                    for x in batch {
                        self.value(x, depth + 1)?;
                    }
                    self.op(b'e');
                }
            }
            Value::Tuple(items) => self.tuple(items, depth)?,
            Value::Set(items) => {
                self.global("__builtin__", "set");
                self.value(&Value::List(items.clone()), depth + 1)?;
                self.op(0x85);
                self.op(b'R');
            }
            Value::Dict(d) => self.dict(d, depth)?,
            Value::Tensor(t) => self.tensor(t)?,
            Value::Storage(t) => {
                let key = self.storage_key(t.storage(), t.dtype())?;
                self.persistent_id(key);
            }
            Value::Foreign(t) => {
                return Err(Error::unsupported_dtype(FORMAT, None, &t.dtype));
            }
            Value::Size(s) => {
                self.global("torch", "Size");
                let items: Vec<Value> = s.iter().map(|&x| Value::Int(i128::from(x))).collect();
                self.tuple(&items, depth)?;
                self.op(0x85);
                self.op(b'R');
            }
            Value::Device(d) => {
                self.global("torch", "device");
                self.str(d);
                self.op(0x85);
                self.op(b'R');
            }
            Value::DType(name) | Value::Global(name) => {
                let (module, attr) = name
                    .rsplit_once('.')
                    .ok_or_else(|| corrupt(format!("`{name}` is not a global's name")))?;
                match globals::resolve(module, attr) {
                    Ok(Global::Rebuild(_)) | Err(_) => {
                        return Err(corrupt(format!(
                            "`{name}` is not a global torch.load(weights_only=True) allows as a value"
                        )));
                    }
                    Ok(_) => self.global(module, attr),
                }
            }
        }
        Ok(())
    }

    /// The key of `storage`'s record: one per storage, in order of first use.
    fn storage_key(&mut self, storage: &Arc<Storage>, dtype: axial_core::DType) -> Result<usize> {
        let torch = globals::torch_dtype(dtype);
        if let Some(i) = self
            .storages
            .iter()
            .position(|(s, _)| Arc::ptr_eq(s, storage) || s.same_as(storage))
        {
            if self.storages[i].1 != torch {
                return Err(corrupt(
                    "Cannot save multiple tensors or storages that view the same data as different types",
                ));
            }
            return Ok(i);
        }
        if !storage.nbytes().is_multiple_of(torch.size) {
            return Err(corrupt(format!(
                "a storage of {} bytes is not whole elements of {}",
                storage.nbytes(),
                dtype
            )));
        }
        self.storages.push((Arc::clone(storage), torch));
        Ok(self.storages.len() - 1)
    }

    /// `('storage', torch.<T>Storage, key, 'cpu', numel)` BINPERSID; for a
    /// dtype with no legacy storage class (uint16, the float8s), as torch
    /// saves it: `torch.storage.UntypedStorage` and its size in bytes.
    fn persistent_id(&mut self, key: usize) {
        let (storage, dtype) = &self.storages[key];
        let class = dtype.dtype.and_then(globals::legacy_storage_class);
        let numel = match class {
            Some(_) => storage.nbytes() / dtype.size,
            None => storage.nbytes(),
        };
        self.op(b'(');
        self.str("storage");
        match class {
            Some(class) => self.global("torch", class),
            None => self.global("torch.storage", "UntypedStorage"),
        }
        self.str(&key.to_string());
        self.str("cpu");
        self.int(numel as i128);
        self.op(b't');
        self.op(b'Q');
    }

    fn tensor(&mut self, t: &TensorValue) -> Result<()> {
        let tensor = &t.tensor;
        let key = self.storage_key(tensor.storage(), tensor.dtype())?;
        if t.parameter {
            self.global("torch._utils", "_rebuild_parameter");
            self.op(b'(');
        }
        // Dtypes without a legacy storage class name themselves (`_rebuild_tensor_v3`).
        let untyped = globals::legacy_storage_class(tensor.dtype()).is_none();
        let rebuild = if untyped {
            "_rebuild_tensor_v3"
        } else {
            "_rebuild_tensor_v2"
        };
        self.global("torch._utils", rebuild);
        self.op(b'(');
        self.persistent_id(key);
        self.int(tensor.offset() as i128);
        let ints = |v: &[usize]| v.iter().map(|&x| Value::Int(x as i128)).collect::<Vec<_>>();
        self.tuple(&ints(tensor.shape()), 0)?;
        let strides: Vec<Value> = tensor
            .strides()
            .iter()
            .map(|&x| Value::Int(x as i128))
            .collect();
        self.tuple(&strides, 0)?;
        self.op(if t.requires_grad && !t.parameter {
            0x88
        } else {
            0x89
        });
        self.global("collections", "OrderedDict");
        self.op(b')');
        self.op(b'R');
        if untyped {
            self.global("torch", globals::torch_dtype(tensor.dtype()).name);
        }
        self.op(b't');
        self.op(b'R');
        if t.parameter {
            self.op(if t.requires_grad { 0x88 } else { 0x89 });
            self.global("collections", "OrderedDict");
            self.op(b')');
            self.op(b'R');
            self.op(b't');
            self.op(b'R');
        }
        Ok(())
    }
}

/// The pickle of `value` and the storages it refers to.
fn pickle(value: &Value) -> Result<(Vec<u8>, Records)> {
    let mut p = Pickler {
        out: vec![0x80, 2],
        storages: Vec::new(),
    };
    p.value(value, 0)?;
    p.op(b'.');
    Ok((p.out, p.storages))
}

/// Writes the archive of `value` into `sink`, under the folder `folder`.
pub(crate) fn write_archive<W: Write + Seek>(sink: W, folder: &str, value: &Value) -> Result<W> {
    let (pkl, storages) = pickle(value)?;
    let zip_error =
        |e: zip::result::ZipError| Error::format(FORMAT, format!("writing the archive: {e}"));
    let io_error = |e: std::io::Error| Error::format(FORMAT, format!("writing the archive: {e}"));
    let mut zip = zip::ZipWriter::new(sink);
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .with_alignment(64)
        .large_file(
            storages
                .iter()
                .any(|(s, _)| s.nbytes() as u64 >= u32::MAX as u64),
        );
    let mut record = |name: &str, bytes: &[u8]| -> Result<()> {
        zip.start_file(format!("{folder}/{name}"), options)
            .map_err(zip_error)?;
        zip.write_all(bytes).map_err(io_error)
    };
    record("data.pkl", &pkl)?;
    record(".format_version", b"1")?;
    record(".storage_alignment", b"64")?;
    record("byteorder", b"little")?;
    for (key, (storage, _)) in storages.iter().enumerate() {
        record(&format!("data/{key}"), storage.as_bytes())?;
    }
    record("version", b"3\n")?;
    zip.finish().map_err(zip_error)
}

/// The bytes of a checkpoint holding `value` (folder `archive/`, as
/// `torch.save` names it for a file object).
pub(crate) fn to_bytes(value: &Value) -> Result<Vec<u8>> {
    Ok(write_archive(Cursor::new(Vec::new()), "archive", value)?.into_inner())
}
