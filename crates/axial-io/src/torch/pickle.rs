//! A restricted unpickler: the opcodes and the globals that
//! `torch.load(weights_only=True)` accepts (torch 2.15's
//! `_weights_only_unpickler.py`), refusing everything else with torch's
//! reason. Nothing is imported or executed: the pickle becomes a graph of
//! nodes in an arena (so a shared or self-referencing object is an index,
//! not a copy), and the graph a [`Value`] tree once the storages are read.
//!
//! Every allocation is bounded by the pickle's length: strings by the bytes
//! left, nodes by one per opcode, and the tree built from the graph by a
//! node budget and a depth limit (a pickle can reference one list from
//! itself, or build a 2^n-leaf tree from n opcodes).

use std::collections::HashMap;

use super::globals::{self, Global, Rebuild, TorchDType};
use crate::{Error, Result};

/// An index into the arena.
pub(crate) type Id = usize;

/// A persistent id: a storage of the file.
#[derive(Clone, Debug)]
pub(crate) struct StorageRef {
    /// The record's key (`data/<key>` in a zip, the id in a legacy file).
    pub(crate) key: String,
    /// The dtype of the storage's elements (`uint8` for an untyped storage).
    pub(crate) dtype: TorchDType,
    /// The element count the file claims.
    pub(crate) numel: u64,
}

/// A tensor rebuilt from a storage.
#[derive(Clone, Debug)]
pub(crate) struct TensorNode {
    /// The storage node.
    pub(crate) storage: Id,
    /// Offset, sizes and strides in elements of `dtype`, as saved.
    pub(crate) offset: i128,
    pub(crate) size: Vec<i128>,
    pub(crate) stride: Vec<i128>,
    pub(crate) dtype: TorchDType,
    pub(crate) requires_grad: bool,
    pub(crate) parameter: bool,
}

/// A node of the unpickled graph.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    None,
    Bool(bool),
    Int(i128),
    BigInt(Vec<u8>),
    Float(f64),
    Complex(f64, f64),
    Str(String),
    Bytes(Vec<u8>),
    Tuple(Vec<Id>),
    List(Vec<Id>),
    Set(Vec<Id>),
    Dict {
        kind: crate::DictKind,
        items: Vec<(Id, Id)>,
        attributes: Vec<(Id, Id)>,
    },
    Global(Global),
    Storage(StorageRef),
    Tensor(TensorNode),
    Size(Vec<i64>),
    Device(String),
    Layout(String),
}

/// The graph of one pickle, with its root.
pub(crate) struct Graph {
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: Id,
    /// The storages in order of first appearance, deduplicated by key.
    pub(crate) storages: Vec<Id>,
}

/// How a persistent id is laid out: `('storage', type, key, location, numel)`
/// in a zip archive, plus a view element in a legacy file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum PidStyle {
    Zip,
    Legacy,
}

fn refuse(message: impl Into<String>) -> Error {
    Error::Unpickling {
        message: message.into(),
    }
}

fn eof() -> Error {
    Error::truncated(
        super::read::FORMAT,
        "the pickle ends before its STOP opcode (EOFError)",
    )
}

struct Machine<'a> {
    data: &'a [u8],
    pos: usize,
    nodes: Vec<Node>,
    stack: Vec<Id>,
    metastack: Vec<Vec<Id>>,
    memo: HashMap<u32, Id>,
    storages: HashMap<String, Id>,
    storage_order: Vec<Id>,
    style: PidStyle,
}

/// Unpickles `data[start..]`, returning the graph and the position after STOP.
pub(crate) fn unpickle(data: &[u8], start: usize, style: PidStyle) -> Result<(Graph, usize)> {
    let mut m = Machine {
        data,
        pos: start,
        nodes: Vec::new(),
        stack: Vec::new(),
        metastack: Vec::new(),
        memo: HashMap::new(),
        storages: HashMap::new(),
        storage_order: Vec::new(),
        style,
    };
    let root = m.run()?;
    Ok((
        Graph {
            nodes: m.nodes,
            root,
            storages: m.storage_order,
        },
        m.pos,
    ))
}

impl Machine<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.data.len())
            .ok_or_else(eof)?;
        let bytes = &self.data[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    fn byte(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn line(&mut self) -> Result<String> {
        let rest = &self.data[self.pos..];
        let n = rest.iter().position(|&b| b == b'\n').ok_or_else(eof)?;
        let text = std::str::from_utf8(&rest[..n])
            .map_err(|_| refuse("a GLOBAL name is not UTF-8"))?
            .to_string();
        self.pos += n + 1;
        Ok(text)
    }

    fn push(&mut self, node: Node) -> Id {
        self.nodes.push(node);
        let id = self.nodes.len() - 1;
        self.stack.push(id);
        id
    }

    fn pop(&mut self) -> Result<Id> {
        self.stack
            .pop()
            .ok_or_else(|| refuse("pop from empty list (IndexError)"))
    }

    fn top(&self) -> Result<Id> {
        self.stack
            .last()
            .copied()
            .ok_or_else(|| refuse("list index out of range (IndexError)"))
    }

    fn pop_mark(&mut self) -> Result<Vec<Id>> {
        let below = self
            .metastack
            .pop()
            .ok_or_else(|| refuse("pop from empty list (IndexError)"))?;
        Ok(std::mem::replace(&mut self.stack, below))
    }

    fn tuple_of(&mut self, n: usize) -> Result<()> {
        if self.stack.len() < n {
            return Err(refuse("list index out of range (IndexError)"));
        }
        let items = self.stack.split_off(self.stack.len() - n);
        self.push(Node::Tuple(items));
        Ok(())
    }

    fn run(&mut self) -> Result<Id> {
        loop {
            let op = self.take(1).map_err(|_| eof())?[0];
            match op {
                0x80 => {
                    // PROTO: torch warns on a protocol other than 2; reading goes on.
                    self.byte()?;
                }
                b'.' => return self.pop(),
                b'c' => {
                    let module = self.line()?;
                    let name = self.line()?;
                    let global = globals::resolve(&module, &name)?;
                    self.push(Node::Global(global));
                }
                0x81 => self.newobj()?,
                b'R' => self.reduce()?,
                b'b' => self.build()?,
                b'a' => {
                    let item = self.pop()?;
                    let list = self.top()?;
                    match &mut self.nodes[list] {
                        Node::List(items) => items.push(item),
                        other => {
                            return Err(refuse(format!(
                                "Can only append to lists, but got {}",
                                kind(other)
                            )));
                        }
                    }
                }
                b'e' => {
                    let items = self.pop_mark()?;
                    let list = self.top()?;
                    match &mut self.nodes[list] {
                        Node::List(xs) => xs.extend(items),
                        other => {
                            return Err(refuse(format!(
                                "Can only extend lists, but got {}",
                                kind(other)
                            )));
                        }
                    }
                }
                b's' => {
                    let value = self.pop()?;
                    let key = self.pop()?;
                    self.set_items("SETITEM", vec![key, value])?;
                }
                b'u' => {
                    let items = self.pop_mark()?;
                    self.set_items("SETITEMS", items)?;
                }
                b'(' => {
                    let stack = std::mem::take(&mut self.stack);
                    self.metastack.push(stack);
                }
                b't' => {
                    let items = self.pop_mark()?;
                    self.push(Node::Tuple(items));
                }
                0x85 => self.tuple_of(1)?,
                0x86 => self.tuple_of(2)?,
                0x87 => self.tuple_of(3)?,
                b'N' => {
                    self.push(Node::None);
                }
                0x88 => {
                    self.push(Node::Bool(true));
                }
                0x89 => {
                    self.push(Node::Bool(false));
                }
                b')' => {
                    self.push(Node::Tuple(Vec::new()));
                }
                b']' => {
                    self.push(Node::List(Vec::new()));
                }
                b'}' => {
                    self.push(Node::Dict {
                        kind: crate::DictKind::Dict,
                        items: Vec::new(),
                        attributes: Vec::new(),
                    });
                }
                0x8f => {
                    self.push(Node::Set(Vec::new()));
                }
                b'J' => {
                    let v = self.u32()? as i32;
                    self.push(Node::Int(i128::from(v)));
                }
                b'K' => {
                    let v = self.byte()?;
                    self.push(Node::Int(i128::from(v)));
                }
                b'M' => {
                    let b = self.take(2)?;
                    let v = u16::from_le_bytes([b[0], b[1]]);
                    self.push(Node::Int(i128::from(v)));
                }
                0x8a => {
                    let n = usize::from(self.byte()?);
                    let bytes = self.take(n)?.to_vec();
                    self.push(long(bytes));
                }
                b'G' => {
                    let b = self.take(8)?;
                    let v = f64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
                    self.push(Node::Float(v));
                }
                b'X' => {
                    let n = self.u32()? as usize;
                    let bytes = self.take(n)?;
                    let s = std::str::from_utf8(bytes)
                        .map_err(|e| {
                            refuse(format!(
                                "'utf-8' codec can't decode a BINUNICODE string: {e}"
                            ))
                        })?
                        .to_string();
                    self.push(Node::Str(s));
                }
                b'U' => {
                    let n = usize::from(self.byte()?);
                    let bytes = self.take(n)?;
                    let s = std::str::from_utf8(bytes)
                        .map_err(|e| {
                            refuse(format!("'utf-8' codec can't decode a SHORT_BINSTRING: {e}"))
                        })?
                        .to_string();
                    self.push(Node::Str(s));
                }
                b'Q' => self.persistent_id()?,
                b'h' => {
                    let i = u32::from(self.byte()?);
                    self.get(i)?;
                }
                b'j' => {
                    let i = self.u32()?;
                    self.get(i)?;
                }
                b'q' => {
                    let i = u32::from(self.byte()?);
                    self.memo.insert(i, self.top()?);
                }
                b'r' => {
                    let i = self.u32()?;
                    self.memo.insert(i, self.top()?);
                }
                other => return Err(refuse(format!("Unsupported operand {other}"))),
            }
        }
    }

    fn get(&mut self, i: u32) -> Result<()> {
        let id = *self
            .memo
            .get(&i)
            .ok_or_else(|| refuse(format!("memo key {i} was never put (KeyError)")))?;
        self.stack.push(id);
        Ok(())
    }

    fn set_items(&mut self, op: &str, items: Vec<Id>) -> Result<()> {
        let target = self.top()?;
        if !matches!(self.nodes[target], Node::Dict { .. }) {
            return Err(refuse(format!(
                "Can only {op} for dict, collections.OrderedDict, collections.Counter, but got {}",
                kind(&self.nodes[target])
            )));
        }
        if !items.len().is_multiple_of(2) {
            return Err(refuse(format!(
                "{op} with an odd number of items (IndexError)"
            )));
        }
        for pair in items.chunks_exact(2) {
            let (key, value) = (pair[0], pair[1]);
            if !hashable(&self.nodes, key, 0) {
                return Err(refuse(format!(
                    "unhashable type: '{}' (TypeError)",
                    kind(&self.nodes[key])
                )));
            }
            let slot = match &self.nodes[target] {
                Node::Dict { items, .. } => items
                    .iter()
                    .position(|&(k, _)| key_eq(&self.nodes, k, key, 0)),
                _ => None,
            };
            if let Node::Dict { items, .. } = &mut self.nodes[target] {
                match slot {
                    Some(i) => items[i].1 = value,
                    None => items.push((key, value)),
                }
            }
        }
        Ok(())
    }

    fn persistent_id(&mut self) -> Result<()> {
        let pid = self.pop()?;
        let Node::Tuple(items) = &self.nodes[pid] else {
            return Err(refuse(format!(
                "persistent_load id must be tuple or int, but got {}",
                kind(&self.nodes[pid])
            )));
        };
        let items = items.clone();
        let text = |id: Id| match &self.nodes[id] {
            Node::Str(s) => Some(s.clone()),
            Node::Bytes(b) => String::from_utf8(b.clone()).ok(),
            _ => None,
        };
        if items.first().and_then(|&i| text(i)).as_deref() != Some("storage") {
            return Err(refuse("Only persistent_load of storage is allowed"));
        }
        let arity = if self.style == PidStyle::Zip { 5 } else { 6 };
        if items.len() != arity {
            return Err(refuse(format!(
                "a storage persistent id has {} elements, expected {arity}",
                items.len()
            )));
        }
        let dtype = match &self.nodes[items[1]] {
            Node::Global(Global::Storage(d)) => *d,
            other => {
                return Err(refuse(format!(
                    "a storage persistent id names {} as its storage type",
                    kind(other)
                )));
            }
        };
        let key = text(items[2]).ok_or_else(|| refuse("a storage key is not a string"))?;
        text(items[3]).ok_or_else(|| refuse("a storage location is not a string"))?;
        let numel = match self.nodes[items[4]] {
            Node::Int(n) => {
                u64::try_from(n).map_err(|_| refuse(format!("a storage claims {n} elements")))?
            }
            _ => return Err(refuse("a storage's element count is not an int")),
        };
        if self.style == PidStyle::Legacy && !matches!(self.nodes[items[5]], Node::None) {
            return Err(refuse(
                "storage views of the legacy format (a view element that is not None) are not supported",
            ));
        }
        if let Some(&id) = self.storages.get(&key) {
            // torch keeps the first storage loaded under a key.
            self.stack.push(id);
            return Ok(());
        }
        let id = self.push(Node::Storage(StorageRef {
            key: key.clone(),
            dtype,
            numel,
        }));
        self.storages.insert(key, id);
        self.storage_order.push(id);
        Ok(())
    }

    fn newobj(&mut self) -> Result<()> {
        let args = self.pop()?;
        let cls = self.pop()?;
        let args = self.tuple_items(args, "NEWOBJ")?;
        let node = match &self.nodes[cls] {
            Node::Global(Global::Parameter) => self.parameter(&args)?,
            Node::Global(Global::OrderedDict) => empty_dict(crate::DictKind::OrderedDict),
            Node::Global(Global::Counter) => empty_dict(crate::DictKind::Counter),
            Node::Global(Global::Set) => Node::Set(Vec::new()),
            Node::Global(Global::ByteArray) => Node::Bytes(Vec::new()),
            Node::Global(Global::Size) => self.size(&args)?,
            Node::Global(g) => {
                return Err(refuse(format!(
                    "creating {} with NEWOBJ is not supported by axial",
                    global_name(g)
                )));
            }
            other => {
                return Err(refuse(format!(
                    "Can only create new object for nn.Parameter or classes allowlisted via `add_safe_globals` but got {}",
                    kind(other)
                )));
            }
        };
        self.push(node);
        Ok(())
    }

    fn build(&mut self) -> Result<()> {
        let state = self.pop()?;
        let inst = self.top()?;
        match &self.nodes[inst] {
            Node::Dict {
                kind: crate::DictKind::OrderedDict | crate::DictKind::Counter,
                ..
            } => {
                let Node::Dict { items, .. } = &self.nodes[state] else {
                    return Err(refuse(
                        "the state BUILD sets on an OrderedDict is not a dict",
                    ));
                };
                let items = items.clone();
                if let Node::Dict { attributes, .. } = &mut self.nodes[inst] {
                    attributes.extend(items);
                }
                Ok(())
            }
            // A Parameter's state is its Python attributes: nothing axial keeps.
            Node::Tensor(t) if t.parameter => Ok(()),
            other => Err(refuse(format!(
                "Can only build Tensor, Parameter, OrderedDict or types allowlisted via `add_safe_globals`, but got {}",
                kind(other)
            ))),
        }
    }

    fn tuple_items(&self, id: Id, op: &str) -> Result<Vec<Id>> {
        match &self.nodes[id] {
            Node::Tuple(items) => Ok(items.clone()),
            other => Err(refuse(format!(
                "{op} arguments are {}, not a tuple",
                kind(other)
            ))),
        }
    }

    fn reduce(&mut self) -> Result<()> {
        let args = self.pop()?;
        let func = self.top()?;
        let args = self.tuple_items(args, "REDUCE")?;
        let Node::Global(global) = self.nodes[func].clone() else {
            return Err(refuse(format!(
                "Trying to call reduce for unrecognized function {}",
                kind(&self.nodes[func])
            )));
        };
        let node = self.call(&global, &args)?;
        self.nodes.push(node);
        let id = self.nodes.len() - 1;
        if let Some(top) = self.stack.last_mut() {
            *top = id;
        }
        Ok(())
    }

    fn call(&self, global: &Global, args: &[Id]) -> Result<Node> {
        let n = &self.nodes;
        match global {
            Global::OrderedDict | Global::Counter => {
                let kind = if *global == Global::OrderedDict {
                    crate::DictKind::OrderedDict
                } else {
                    crate::DictKind::Counter
                };
                match args {
                    [] => Ok(empty_dict(kind)),
                    [d] => match &n[*d] {
                        Node::Dict { items, .. } => Ok(Node::Dict {
                            kind,
                            items: items.clone(),
                            attributes: Vec::new(),
                        }),
                        Node::List(pairs) | Node::Tuple(pairs) => {
                            let mut items = Vec::new();
                            for &p in pairs {
                                match &n[p] {
                                    Node::Tuple(kv) | Node::List(kv) if kv.len() == 2 => {
                                        items.push((kv[0], kv[1]))
                                    }
                                    _ => return Err(refuse("an OrderedDict item is not a pair")),
                                }
                            }
                            Ok(Node::Dict {
                                kind,
                                items,
                                attributes: Vec::new(),
                            })
                        }
                        other => Err(refuse(format!(
                            "cannot make an OrderedDict of {}",
                            kind_name(other)
                        ))),
                    },
                    _ => Err(refuse("OrderedDict takes at most one argument")),
                }
            }
            Global::Parameter => self.parameter(args),
            Global::Size => self.size(args),
            Global::Device => match args {
                [t] => Ok(Node::Device(self.string(*t, "torch.device")?)),
                [t, i] => match &n[*i] {
                    Node::Int(i) => Ok(Node::Device(format!(
                        "{}:{i}",
                        self.string(*t, "torch.device")?
                    ))),
                    Node::None => Ok(Node::Device(self.string(*t, "torch.device")?)),
                    _ => Err(refuse("torch.device's index is not an int")),
                },
                _ => Err(refuse("torch.device takes one or two arguments")),
            },
            Global::GetLayout => match args {
                [s] => Ok(Node::Layout(self.string(*s, "_get_layout")?)),
                _ => Err(refuse("_get_layout takes one argument")),
            },
            Global::Encode => match args {
                [s] => Ok(Node::Bytes(encode(
                    &self.string(*s, "_codecs.encode")?,
                    "utf-8",
                )?)),
                [s, e] => Ok(Node::Bytes(encode(
                    &self.string(*s, "_codecs.encode")?,
                    &self.string(*e, "_codecs.encode")?,
                )?)),
                _ => Err(refuse("_codecs.encode takes one or two arguments")),
            },
            Global::ByteArray => match args {
                [] => Ok(Node::Bytes(Vec::new())),
                [b] => match &n[*b] {
                    Node::Bytes(bytes) => Ok(Node::Bytes(bytes.clone())),
                    _ => Err(refuse("bytearray of one argument that is not bytes")),
                },
                [s, e] => Ok(Node::Bytes(encode(
                    &self.string(*s, "bytearray")?,
                    &self.string(*e, "bytearray")?,
                )?)),
                _ => Err(refuse("bytearray takes at most two arguments")),
            },
            Global::Set => match args {
                [] => Ok(Node::Set(Vec::new())),
                [items] => match &n[*items] {
                    Node::List(xs) | Node::Tuple(xs) | Node::Set(xs) => {
                        let mut out: Vec<Id> = Vec::new();
                        for &x in xs {
                            if !hashable(n, x, 0) {
                                return Err(refuse(format!(
                                    "unhashable type: '{}' (TypeError)",
                                    kind(&n[x])
                                )));
                            }
                            if !out.iter().any(|&y| key_eq(n, x, y, 0)) {
                                out.push(x);
                            }
                        }
                        Ok(Node::Set(out))
                    }
                    other => Err(refuse(format!("cannot make a set of {}", kind_name(other)))),
                },
                _ => Err(refuse("set takes at most one argument")),
            },
            Global::Complex => {
                let part = |id: &Id| match n[*id] {
                    Node::Int(i) => Ok(i as f64),
                    Node::Float(f) => Ok(f),
                    Node::Bool(b) => Ok(f64::from(u8::from(b))),
                    _ => Err(refuse("complex() of something that is not a number")),
                };
                match args {
                    [] => Ok(Node::Complex(0.0, 0.0)),
                    [re] => Ok(Node::Complex(part(re)?, 0.0)),
                    [re, im] => Ok(Node::Complex(part(re)?, part(im)?)),
                    _ => Err(refuse("complex takes at most two arguments")),
                }
            }
            Global::Rebuild(r) => self.rebuild(*r, args),
            g => Err(refuse(format!(
                "Trying to call reduce for unrecognized function {}",
                global_name(g)
            ))),
        }
    }

    fn string(&self, id: Id, what: &str) -> Result<String> {
        match &self.nodes[id] {
            Node::Str(s) => Ok(s.clone()),
            other => Err(refuse(format!(
                "{what}: expected a str, got {}",
                kind(other)
            ))),
        }
    }

    fn size(&self, args: &[Id]) -> Result<Node> {
        match args {
            [] => Ok(Node::Size(Vec::new())),
            [t] => {
                let ints = self.ints(*t, "torch.Size")?;
                let ints = ints
                    .into_iter()
                    .map(|i| {
                        i64::try_from(i).map_err(|_| refuse("a torch.Size element overflows int64"))
                    })
                    .collect::<Result<_>>()?;
                Ok(Node::Size(ints))
            }
            _ => Err(refuse("torch.Size takes one argument")),
        }
    }

    /// The ints of a tuple, list or torch.Size.
    fn ints(&self, id: Id, what: &str) -> Result<Vec<i128>> {
        let items: Vec<i128> = match &self.nodes[id] {
            Node::Size(v) => return Ok(v.iter().map(|&x| i128::from(x)).collect()),
            Node::Tuple(xs) | Node::List(xs) => xs
                .iter()
                .map(|&x| match self.nodes[x] {
                    Node::Int(i) => Ok(i),
                    Node::Bool(b) => Ok(i128::from(b)),
                    _ => Err(refuse(format!("{what}: an element is not an int"))),
                })
                .collect::<Result<_>>()?,
            other => {
                return Err(refuse(format!(
                    "{what}: expected a tuple of ints, got {}",
                    kind(other)
                )));
            }
        };
        Ok(items)
    }

    fn flag(&self, id: Id) -> Result<bool> {
        match self.nodes[id] {
            Node::Bool(b) => Ok(b),
            Node::Int(i) => Ok(i != 0),
            _ => Err(refuse("requires_grad is not a bool")),
        }
    }

    fn parameter(&self, args: &[Id]) -> Result<Node> {
        let (data, grad) = match args {
            [d] => (*d, true),
            [d, g, ..] => (*d, self.flag(*g)?),
            _ => return Err(refuse("nn.Parameter takes a tensor")),
        };
        match &self.nodes[data] {
            Node::Tensor(t) => Ok(Node::Tensor(TensorNode {
                requires_grad: grad,
                parameter: true,
                ..t.clone()
            })),
            other => Err(refuse(format!(
                "nn.Parameter of {}, not a tensor",
                kind(other)
            ))),
        }
    }

    fn rebuild(&self, r: Rebuild, args: &[Id]) -> Result<Node> {
        let n = &self.nodes;
        match r {
            Rebuild::Tensor | Rebuild::TensorV2 | Rebuild::TensorV3 => {
                let need = match r {
                    Rebuild::Tensor => 4,
                    Rebuild::TensorV2 => 6,
                    _ => 7,
                };
                if args.len() < need || args.len() > need + 1 {
                    return Err(refuse(format!(
                        "a tensor rebuild takes {need} arguments, got {}",
                        args.len()
                    )));
                }
                let Node::Storage(storage) = &n[args[0]] else {
                    return Err(refuse(format!(
                        "a tensor's storage is {}",
                        kind(&n[args[0]])
                    )));
                };
                let offset = match n[args[1]] {
                    Node::Int(i) => i,
                    _ => return Err(refuse("a tensor's storage offset is not an int")),
                };
                let size = self.ints(args[2], "size")?;
                let stride = self.ints(args[3], "stride")?;
                if size.len() != stride.len() {
                    return Err(refuse(format!(
                        "a tensor has {} sizes but {} strides",
                        size.len(),
                        stride.len()
                    )));
                }
                let requires_grad = if need > 4 { self.flag(args[4])? } else { false };
                let dtype = if r == Rebuild::TensorV3 {
                    match &n[args[6]] {
                        Node::Global(Global::DType(d)) => *d,
                        other => {
                            return Err(refuse(format!("a tensor's dtype is {}", kind(other))));
                        }
                    }
                } else {
                    storage.dtype
                };
                Ok(Node::Tensor(TensorNode {
                    storage: args[0],
                    offset,
                    size,
                    stride,
                    dtype,
                    requires_grad,
                    parameter: false,
                }))
            }
            Rebuild::Parameter | Rebuild::ParameterWithState => match args {
                [data, grad, _hooks, ..] => self.parameter(&[*data, *grad]),
                _ => Err(refuse("_rebuild_parameter takes three arguments")),
            },
            Rebuild::FromTypeV2 => match args {
                [func, new_type, inner, _state] => {
                    let Node::Global(Global::Rebuild(f)) = &n[*func] else {
                        return Err(refuse(
                            "_rebuild_from_type_v2 of something that is not a rebuild function",
                        ));
                    };
                    let inner = self.tuple_items(*inner, "_rebuild_from_type_v2")?;
                    let rebuilt = self.rebuild(*f, &inner)?;
                    match (&n[*new_type], rebuilt) {
                        (Node::Global(Global::Tensor), node) => Ok(node),
                        (Node::Global(Global::Parameter), Node::Tensor(t)) => {
                            Ok(Node::Tensor(TensorNode {
                                parameter: true,
                                ..t
                            }))
                        }
                        (other, _) => Err(refuse(format!(
                            "tensor subclasses ({}) are not supported by axial",
                            kind(other)
                        ))),
                    }
                }
                _ => Err(refuse("_rebuild_from_type_v2 takes four arguments")),
            },
            Rebuild::DeviceTensorFromCpuTensor => match args {
                // (data, dtype, device, requires_grad): loaded on the CPU.
                [data, _dtype, _device, grad] => match &n[*data] {
                    Node::Tensor(t) => Ok(Node::Tensor(TensorNode {
                        requires_grad: self.flag(*grad)?,
                        ..t.clone()
                    })),
                    other => Err(refuse(format!(
                        "_rebuild_device_tensor_from_cpu_tensor of {}",
                        kind(other)
                    ))),
                },
                _ => Err(refuse(
                    "_rebuild_device_tensor_from_cpu_tensor takes four arguments",
                )),
            },
            other => Err(refuse(format!(
                "{} tensors are not supported by axial ({other:?} rebuild)",
                match other {
                    Rebuild::QTensor => "quantized",
                    Rebuild::SparseTensor => "sparse",
                    Rebuild::MetaTensorNoStorage => "meta",
                    Rebuild::WrapperSubclass => "wrapper subclass",
                    _ => "numpy-backed",
                }
            ))),
        }
    }
}

fn empty_dict(kind: crate::DictKind) -> Node {
    Node::Dict {
        kind,
        items: Vec::new(),
        attributes: Vec::new(),
    }
}

/// A LONG1's value: little-endian two's complement.
fn long(bytes: Vec<u8>) -> Node {
    if bytes.len() > 16 {
        return Node::BigInt(bytes);
    }
    let negative = bytes.last().is_some_and(|&b| b & 0x80 != 0);
    let mut buf = [if negative { 0xff } else { 0 }; 16];
    buf[..bytes.len()].copy_from_slice(&bytes);
    Node::Int(i128::from_le_bytes(buf))
}

/// `str.encode(encoding)` for the encodings pickles use for bytes.
fn encode(s: &str, encoding: &str) -> Result<Vec<u8>> {
    match encoding.to_ascii_lowercase().replace('_', "-").as_str() {
        "latin1" | "latin-1" | "iso-8859-1" | "l1" => s
            .chars()
            .map(|c| {
                u8::try_from(u32::from(c)).map_err(|_| {
                    refuse("'latin-1' codec can't encode a character (UnicodeEncodeError)")
                })
            })
            .collect(),
        "utf-8" | "utf8" => Ok(s.as_bytes().to_vec()),
        "ascii" => s
            .chars()
            .map(|c| {
                if c.is_ascii() {
                    Ok(c as u8)
                } else {
                    Err(refuse(
                        "'ascii' codec can't encode a character (UnicodeEncodeError)",
                    ))
                }
            })
            .collect(),
        other => Err(refuse(format!(
            "the encoding {other:?} is not supported by axial"
        ))),
    }
}

/// The Python type of a node, as torch's messages print it.
pub(crate) fn kind(node: &Node) -> String {
    format!("<class '{}'>", kind_name(node))
}

fn kind_name(node: &Node) -> &'static str {
    match node {
        Node::None => "NoneType",
        Node::Bool(_) => "bool",
        Node::Int(_) | Node::BigInt(_) => "int",
        Node::Float(_) => "float",
        Node::Complex(..) => "complex",
        Node::Str(_) => "str",
        Node::Bytes(_) => "bytes",
        Node::Tuple(_) => "tuple",
        Node::List(_) => "list",
        Node::Set(_) => "set",
        Node::Dict {
            kind: crate::DictKind::Dict,
            ..
        } => "dict",
        Node::Dict {
            kind: crate::DictKind::OrderedDict,
            ..
        } => "collections.OrderedDict",
        Node::Dict {
            kind: crate::DictKind::Counter,
            ..
        } => "collections.Counter",
        Node::Global(_) => "type",
        Node::Storage(_) => "torch.storage.TypedStorage",
        Node::Tensor(t) if t.parameter => "torch.nn.parameter.Parameter",
        Node::Tensor(_) => "torch.Tensor",
        Node::Size(_) => "torch.Size",
        Node::Device(_) => "torch.device",
        Node::Layout(_) => "torch.layout",
    }
}

/// A global's name, for messages.
pub(crate) fn global_name(g: &Global) -> String {
    match g {
        Global::OrderedDict => "collections.OrderedDict".into(),
        Global::Counter => "collections.Counter".into(),
        Global::Parameter => "torch.nn.parameter.Parameter".into(),
        Global::GetLayout => "torch.serialization._get_layout".into(),
        Global::Size => "torch.Size".into(),
        Global::Tensor => "torch.Tensor".into(),
        Global::Device => "torch.device".into(),
        Global::Encode => "_codecs.encode".into(),
        Global::ByteArray => "builtins.bytearray".into(),
        Global::Set => "builtins.set".into(),
        Global::Complex => "builtins.complex".into(),
        Global::DType(d) => format!("torch.{}", d.name),
        Global::Storage(d) => format!("torch.storage of {}", d.name),
        Global::TypedStorage => "torch.storage.TypedStorage".into(),
        Global::Rebuild(r) => format!("torch._utils rebuild {r:?}"),
        Global::Other(name) => name.clone(),
    }
}

/// Nesting past this is refused (as Python's own recursion limit would).
pub(crate) const MAX_DEPTH: usize = 256;

/// Whether a node can be a dict key or a set item (Python's hashability).
fn hashable(nodes: &[Node], id: Id, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match &nodes[id] {
        Node::List(_) | Node::Set(_) | Node::Dict { .. } => false,
        Node::Tuple(items) => items.iter().all(|&i| hashable(nodes, i, depth + 1)),
        _ => true,
    }
}

/// Python's `==` between two hashable nodes.
fn key_eq(nodes: &[Node], a: Id, b: Id, depth: usize) -> bool {
    if a == b {
        return true;
    }
    if depth > MAX_DEPTH {
        return false;
    }
    let number = |n: &Node| match n {
        Node::Bool(v) => Some(f64::from(u8::from(*v))),
        Node::Int(v) => Some(*v as f64),
        Node::Float(v) => Some(*v),
        _ => None,
    };
    match (&nodes[a], &nodes[b]) {
        (Node::Int(x), Node::Int(y)) => x == y,
        (Node::Bool(x), Node::Int(y)) | (Node::Int(y), Node::Bool(x)) => i128::from(*x) == *y,
        (Node::Str(x), Node::Str(y)) => x == y,
        (Node::Bytes(x), Node::Bytes(y)) | (Node::BigInt(x), Node::BigInt(y)) => x == y,
        (Node::None, Node::None) => true,
        (Node::Tuple(x), Node::Tuple(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(&p, &q)| key_eq(nodes, p, q, depth + 1))
        }
        (Node::Size(x), Node::Size(y)) => x == y,
        (Node::Device(x), Node::Device(y)) => x == y,
        (Node::Global(x), Node::Global(y)) => x == y,
        (x, y) => match (number(x), number(y)) {
            (Some(p), Some(q)) => p == q,
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(bytes: &[u8]) -> Result<Graph> {
        unpickle(bytes, 0, PidStyle::Zip).map(|(g, _)| g)
    }

    #[test]
    fn opcodes_outside_the_set_are_refused_with_torchs_message() {
        let e = run(b"\x80\x02\xff.").err().unwrap();
        assert_eq!(
            e.to_string(),
            "torch: Weights only load failed: Unsupported operand 255"
        );
        // FRAME (protocol 4) is not in the set either.
        assert!(
            run(b"\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00N.")
                .err()
                .unwrap()
                .to_string()
                .ends_with("Unsupported operand 149")
        );
    }

    #[test]
    fn a_pickle_without_stop_is_an_eof() {
        assert!(
            run(b"\x80\x02N")
                .err()
                .unwrap()
                .to_string()
                .contains("EOFError")
        );
        assert!(run(b"").is_err());
    }

    #[test]
    fn memo_references_share_one_node_and_see_later_appends() {
        // [] BINPUT 0, then [[...]] through BINGET: the inner list is the same node.
        let g = run(b"\x80\x02]q\x00(K\x01h\x00e.").unwrap();
        let Node::List(items) = &g.nodes[g.root] else {
            panic!()
        };
        assert_eq!(items[1], g.root);
    }

    #[test]
    fn setitem_on_a_list_and_unhashable_keys_are_refused() {
        assert!(
            run(b"]K\x01K\x02s.")
                .err()
                .unwrap()
                .to_string()
                .contains("Can only SETITEM")
        );
        assert!(
            run(b"}]K\x01s.")
                .err()
                .unwrap()
                .to_string()
                .contains("unhashable")
        );
    }

    #[test]
    fn long1_reads_twos_complement() {
        let g = run(b"\x8a\x01\xff.").unwrap();
        assert!(matches!(g.nodes[g.root], Node::Int(-1)));
        let g = run(b"\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01.").unwrap();
        assert!(matches!(g.nodes[g.root], Node::Int(v) if v == 1 << 64));
    }
}
