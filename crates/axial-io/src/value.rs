//! The values a checkpoint holds besides tensors (ints, floats, strings,
//! nested dicts, lists, tuples, `OrderedDict`s), as a tree with the tensors
//! at its leaves.

use std::fmt;
use std::sync::Arc;

use axial_core::Storage;

use crate::StoredTensor;

/// A value of a checkpoint: what `torch.load(weights_only=True)` can give,
/// with each tensor as a [`StoredTensor`] whose storage is shared with the
/// checkpoint's other views of it.
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::{StoredTensor, Value};
/// let ckpt = Value::dict([
///     ("model_weights", Value::tensor(StoredTensor::from_raw(RawTensor::zeros(&[4, 4], DType::F32)?))),
///     ("epoch", Value::Int(10)),
///     ("learning_rate", Value::Float(1e-3)),
/// ]);
/// assert_eq!(ckpt.get("epoch").and_then(Value::as_int), Some(10));
/// assert_eq!(ckpt.get("model_weights").and_then(Value::as_tensor).map(|t| t.shape()), Some(&[4, 4][..]));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub enum Value {
    /// `None`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// An int that fits 128 bits (`2**70` does).
    Int(i128),
    /// A larger int: its little-endian two's-complement bytes, as the pickle
    /// stores them.
    BigInt(Vec<u8>),
    /// A float.
    Float(f64),
    /// A complex number: real and imaginary parts.
    Complex(f64, f64),
    /// A string.
    Str(String),
    /// `bytes` or `bytearray`.
    Bytes(Vec<u8>),
    /// A list.
    List(Vec<Value>),
    /// A tuple.
    Tuple(Vec<Value>),
    /// A set, in the file's order.
    Set(Vec<Value>),
    /// A dict, an `OrderedDict` or a `Counter`, in insertion order.
    Dict(Dict),
    /// A tensor (or an `nn.Parameter`).
    Tensor(TensorValue),
    /// A tensor of a dtype axial does not have (complex32, float8_e8m0fnu,
    /// the sub-byte dtypes, quantized), or a storage of one saved on its own: its bytes
    /// and layout, for the caller to read. [`crate::TensorMap::tensor`]
    /// refuses it by name with an [`crate::Error::UnsupportedDType`].
    Foreign(ForeignTensor),
    /// A typed storage saved on its own (not through a tensor), seen as a
    /// 1-D tensor over all of it.
    Storage(StoredTensor),
    /// A `torch.Size`.
    Size(Vec<i64>),
    /// A `torch.device`, as it prints (`cpu`, `cuda:0`).
    Device(String),
    /// A `torch.dtype`, as it prints (`torch.float16`).
    DType(String),
    /// Another allowed global used as a value (a class, a layout, a
    /// quantization scheme), by its name.
    Global(String),
}

/// Which mapping type a [`Dict`] is.
///
/// ```
/// use axial_io::{DictKind, Value};
/// assert_eq!(Value::dict([("a", Value::None)]).as_dict().map(|d| d.kind), Some(DictKind::Dict));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DictKind {
    /// `dict`.
    Dict,
    /// `collections.OrderedDict` (a `state_dict()`).
    OrderedDict,
    /// `collections.Counter`.
    Counter,
}

/// A mapping in insertion order, with the attributes an `OrderedDict` may
/// carry (a state dict's `_metadata`).
///
/// ```
/// use axial_io::{Dict, DictKind, Value};
/// let mut d = Dict::new(DictKind::OrderedDict);
/// d.insert(Value::from("fc.weight"), Value::Int(1));
/// d.insert(Value::from("fc.weight"), Value::Int(2)); // a key set twice keeps its place
/// assert_eq!(d.items.len(), 1);
/// assert_eq!(d.get("fc.weight").and_then(Value::as_int), Some(2));
/// ```
#[derive(Clone, Debug)]
pub struct Dict {
    /// The mapping type.
    pub kind: DictKind,
    /// Keys and values, in insertion order.
    pub items: Vec<(Value, Value)>,
    /// Attributes set on the object (`state_dict()._metadata`), in order.
    pub attributes: Vec<(Value, Value)>,
}

impl Dict {
    /// An empty mapping.
    ///
    /// ```
    /// # use axial_io::{Dict, DictKind};
    /// assert!(Dict::new(DictKind::Dict).items.is_empty());
    /// ```
    pub fn new(kind: DictKind) -> Self {
        Dict {
            kind,
            items: Vec::new(),
            attributes: Vec::new(),
        }
    }

    /// Sets `key` to `value`: a key already there keeps its place, as in Python.
    ///
    /// ```
    /// # use axial_io::{Dict, DictKind, Value};
    /// let mut d = Dict::new(DictKind::Dict);
    /// d.insert(Value::Int(1), Value::from("one"));
    /// d.insert(Value::Bool(true), Value::from("true")); // True == 1 in Python
    /// assert_eq!(d.items.len(), 1);
    /// ```
    pub fn insert(&mut self, key: Value, value: Value) {
        match self.items.iter_mut().find(|(k, _)| k.key_eq(&key)) {
            Some(slot) => slot.1 = value,
            None => self.items.push((key, value)),
        }
    }

    /// The value under the string key `key`.
    ///
    /// ```
    /// # use axial_io::Value;
    /// let d = Value::dict([("lr", Value::Float(0.01))]);
    /// assert_eq!(d.as_dict().unwrap().get("lr").and_then(Value::as_float), Some(0.01));
    /// ```
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.items
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }
}

/// A tensor of a checkpoint, with what torch records about it.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::{StoredTensor, Value};
/// let v = Value::tensor(StoredTensor::from_raw(RawTensor::zeros(&[2], DType::F32)?));
/// let Value::Tensor(t) = &v else { unreachable!() };
/// assert!(!t.parameter && !t.requires_grad);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct TensorValue {
    /// The tensor.
    pub tensor: StoredTensor,
    /// `requires_grad` as saved.
    pub requires_grad: bool,
    /// Whether it was an `nn.Parameter`.
    pub parameter: bool,
}

/// A tensor of a dtype axial does not have, as the file holds it: a
/// checkpoint's ([`Value::Foreign`]), or one of a safetensors file or an
/// `.npz` ([`NamedTensors::foreign`](crate::NamedTensors::foreign)).
///
/// ```
/// use std::sync::Arc;
/// use axial_core::Storage;
/// use axial_io::ForeignTensor;
/// let t = ForeignTensor {
///     dtype: "uint16".into(), element_size: 2, shape: vec![2], strides: vec![1], offset: 0,
///     storage: Arc::new(Storage::from_slice(&[1u8, 0, 255, 255])),
/// };
/// assert_eq!(t.storage.nbytes(), 2 * t.element_size);
/// ```
#[derive(Clone, Debug)]
pub struct ForeignTensor {
    /// The dtype's name: torch's (`complex32`, `float8_e8m0fnu`, `qint8`)
    /// for checkpoints and safetensors files, numpy's (`float128`,
    /// `datetime64`, `str160`) for `.npz` members.
    pub dtype: String,
    /// Bytes per element.
    pub element_size: usize,
    /// Sizes.
    pub shape: Vec<usize>,
    /// Strides in elements.
    pub strides: Vec<isize>,
    /// Storage offset in elements.
    pub offset: usize,
    /// The storage's bytes, little-endian.
    pub storage: Arc<Storage>,
}

impl Value {
    /// A `dict` of string keys, in order.
    ///
    /// ```
    /// # use axial_io::Value;
    /// let v = Value::dict([("epoch", Value::Int(10))]);
    /// assert_eq!(v.get("epoch").and_then(Value::as_int), Some(10));
    /// ```
    pub fn dict<'a>(items: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
        Self::mapping(DictKind::Dict, items)
    }

    /// An `OrderedDict` of string keys, in order (a `state_dict()`).
    ///
    /// ```
    /// # use axial_io::{DictKind, Value};
    /// let v = Value::ordered_dict([("fc.bias", Value::None)]);
    /// assert_eq!(v.as_dict().map(|d| d.kind), Some(DictKind::OrderedDict));
    /// ```
    pub fn ordered_dict<'a>(items: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
        Self::mapping(DictKind::OrderedDict, items)
    }

    fn mapping<'a>(kind: DictKind, items: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
        let mut d = Dict::new(kind);
        for (k, v) in items {
            d.insert(Value::from(k), v);
        }
        Value::Dict(d)
    }

    /// A plain tensor (not a parameter, no grad).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::{StoredTensor, Value};
    /// let v = Value::tensor(StoredTensor::from_raw(RawTensor::zeros(&[1], DType::I64)?));
    /// assert!(v.as_tensor().is_some());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn tensor(tensor: StoredTensor) -> Value {
        Value::Tensor(TensorValue {
            tensor,
            requires_grad: false,
            parameter: false,
        })
    }

    /// The value under the string key `key` of a mapping.
    ///
    /// ```
    /// # use axial_io::Value;
    /// assert!(Value::dict([("a", Value::None)]).get("a").is_some());
    /// assert!(Value::Int(1).get("a").is_none());
    /// ```
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_dict()?.get(key)
    }

    /// The value at a dotted path through mappings, lists and tuples:
    /// `"model.layer1.w"`, `"layer2.1.0"`. A key that itself holds dots (a
    /// state dict's `fc.weight`) is found whole first.
    ///
    /// ```
    /// # use axial_io::Value;
    /// let v = Value::dict([
    ///     ("model", Value::ordered_dict([("fc.weight", Value::Int(1))])),
    ///     ("layers", Value::List(vec![Value::Int(7), Value::Tuple(vec![Value::Int(8)])])),
    /// ]);
    /// assert_eq!(v.at("model.fc.weight").and_then(Value::as_int), Some(1));
    /// assert_eq!(v.at("layers.1.0").and_then(Value::as_int), Some(8));
    /// assert!(v.at("layers.2").is_none());
    /// ```
    pub fn at(&self, path: &str) -> Option<&Value> {
        if path.is_empty() {
            return Some(self);
        }
        match self {
            Value::Dict(d) => {
                if let Some(v) = d.get(path) {
                    return Some(v);
                }
                // The longest key before a dot first, so `a.b.c` finds `a.b` then `c`.
                path.rmatch_indices('.').find_map(|(i, _)| {
                    let found = d
                        .items
                        .iter()
                        .find(|(k, _)| k.key_text().as_deref() == Some(&path[..i]))?;
                    found.1.at(&path[i + 1..])
                })
            }
            Value::List(items) | Value::Tuple(items) => {
                let (head, rest) = path.split_once('.').unwrap_or((path, ""));
                items.get(head.parse::<usize>().ok()?)?.at(rest)
            }
            _ => None,
        }
    }

    /// The tensor, if this is one.
    ///
    /// ```
    /// # use axial_io::Value;
    /// assert!(Value::Int(3).as_tensor().is_none());
    /// ```
    pub fn as_tensor(&self) -> Option<&StoredTensor> {
        match self {
            Value::Tensor(t) => Some(&t.tensor),
            _ => None,
        }
    }

    /// The int, if this is one that fits `i64`.
    ///
    /// ```
    /// # use axial_io::Value;
    /// assert_eq!(Value::Int(-5).as_int(), Some(-5));
    /// assert_eq!(Value::Int(1 << 70).as_int(), None);
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => i64::try_from(*i).ok(),
            _ => None,
        }
    }

    /// The float, if this is one.
    ///
    /// ```
    /// # use axial_io::Value;
    /// assert_eq!(Value::Float(0.5).as_float(), Some(0.5));
    /// ```
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The string, if this is one.
    ///
    /// ```
    /// # use axial_io::Value;
    /// assert_eq!(Value::from("relu").as_str(), Some("relu"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The mapping, if this is one.
    ///
    /// ```
    /// # use axial_io::Value;
    /// assert!(Value::dict([]).as_dict().is_some());
    /// ```
    pub fn as_dict(&self) -> Option<&Dict> {
        match self {
            Value::Dict(d) => Some(d),
            _ => None,
        }
    }

    /// A key as the text a dotted path names it by (strings and ints).
    fn key_text(&self) -> Option<String> {
        match self {
            Value::Str(s) => Some(s.clone()),
            Value::Int(i) => Some(i.to_string()),
            _ => None,
        }
    }

    /// Python's `==` between dict keys (`True == 1 == 1.0`; tuples by item).
    pub(crate) fn key_eq(&self, other: &Value) -> bool {
        use Value::*;
        let number = |v: &Value| match v {
            Bool(b) => Some(f64::from(u8::from(*b))),
            Int(i) => Some(*i as f64),
            Float(f) => Some(*f),
            _ => Option::None,
        };
        match (self, other) {
            (Int(a), Int(b)) => a == b,
            (Bool(a), Int(b)) | (Int(b), Bool(a)) => i128::from(*a) == *b,
            (Str(a), Str(b)) => a == b,
            (Bytes(a), Bytes(b)) | (BigInt(a), BigInt(b)) => a == b,
            (None, None) => true,
            (Tuple(a), Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.key_eq(y)),
            (Tensor(a), Tensor(b)) => {
                a.tensor.shares_storage_with(&b.tensor) && a.tensor.layout() == b.tensor.layout()
            }
            (DType(a), DType(b)) | (Device(a), Device(b)) | (Global(a), Global(b)) => a == b,
            _ => match (number(self), number(other)) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.to_string())
    }
}

impl From<StoredTensor> for Value {
    fn from(t: StoredTensor) -> Value {
        Value::tensor(t)
    }
}

impl fmt::Display for Value {
    /// Python's repr, with tensors as `tensor(shape=[..], dtype=..)`.
    ///
    /// ```
    /// # use axial_io::Value;
    /// let v = Value::dict([("epoch", Value::Int(10)), ("name", Value::from("demo")), ("t", Value::Tuple(vec![Value::Float(0.5)]))]);
    /// assert_eq!(v.to_string(), "{'epoch': 10, 'name': 'demo', 't': (0.5,)}");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn seq(f: &mut fmt::Formatter<'_>, items: &[Value]) -> fmt::Result {
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{v}")?;
            }
            Ok(())
        }
        match self {
            Value::None => f.write_str("None"),
            Value::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Value::Int(i) => write!(f, "{i}"),
            Value::BigInt(b) => write!(f, "<int of {} bytes>", b.len()),
            Value::Float(x) => {
                if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e16 {
                    write!(f, "{x:.1}")
                } else {
                    write!(f, "{x}")
                }
            }
            Value::Complex(re, im) => write!(f, "({re}+{im}j)"),
            Value::Str(s) => write!(f, "'{s}'"),
            Value::Bytes(b) => write!(f, "b{:?}", String::from_utf8_lossy(b)),
            Value::List(items) => {
                f.write_str("[")?;
                seq(f, items)?;
                f.write_str("]")
            }
            Value::Tuple(items) => {
                f.write_str("(")?;
                seq(f, items)?;
                f.write_str(if items.len() == 1 { ",)" } else { ")" })
            }
            Value::Set(items) => {
                f.write_str("{")?;
                seq(f, items)?;
                f.write_str("}")
            }
            Value::Dict(d) => {
                f.write_str(match d.kind {
                    DictKind::Dict => "{",
                    DictKind::OrderedDict => "OrderedDict({",
                    DictKind::Counter => "Counter({",
                })?;
                for (i, (k, v)) in d.items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str(if d.kind == DictKind::Dict { "}" } else { "})" })
            }
            Value::Tensor(t) => write!(
                f,
                "tensor(shape={:?}, dtype={})",
                t.tensor.shape(),
                t.tensor.dtype()
            ),
            Value::Foreign(t) => write!(f, "tensor(shape={:?}, dtype=torch.{})", t.shape, t.dtype),
            Value::Storage(t) => write!(f, "storage({} elements of {})", t.shape()[0], t.dtype()),
            Value::Size(s) => write!(f, "torch.Size({s:?})"),
            Value::Device(d) => write!(f, "device(type='{d}')"),
            Value::DType(d) | Value::Global(d) => f.write_str(d),
        }
    }
}
