//! The `.npy` header: magic, version, length, and the Python dict literal
//! `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`, parsed
//! strictly (the literals `ast.literal_eval` gives numpy's loader) and
//! checked as `numpy/lib/_format_impl.py` checks it, with its messages.

use axial_core::DType;

use crate::{Error, Result};

pub(crate) const FORMAT: &str = "npy";
/// numpy's default `max_header_size`.
const MAX_HEADER: usize = 10_000;

fn bad(message: impl Into<String>) -> Error {
    Error::format(FORMAT, message)
}

/// The dtype of an array: its elements, and whether their bytes are
/// big-endian.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Descr {
    pub(crate) elements: Elements,
    pub(crate) big_endian: bool,
}

/// What an array's elements are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Elements {
    /// A dtype axial has.
    Typed(DType),
    /// A dtype axial does not have, of fixed-size elements: numpy's name for
    /// it (`uint16`, `complex64`, `str160`), its size, and the size of the
    /// parts that are byte-swapped from big-endian (a complex number's two
    /// floats, a string's UCS-4 characters; 1 for bytes and voids).
    Foreign {
        name: String,
        size: usize,
        swap: usize,
    },
    /// A dtype axial does not have and whose bytes are not elements of one
    /// size axial can read: Python objects (a pickle follows), structured
    /// and sub-array dtypes.
    Opaque { name: String },
}

impl Elements {
    /// Bytes per element, when they have a size.
    pub(crate) fn size(&self) -> Option<usize> {
        match self {
            Elements::Typed(d) => Some(d.size()),
            Elements::Foreign { size, .. } => Some(*size),
            Elements::Opaque { .. } => None,
        }
    }
}

/// A parsed header.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    pub(crate) descr: Descr,
    pub(crate) fortran: bool,
    pub(crate) shape: Vec<usize>,
    /// Where the data starts.
    pub(crate) data_offset: usize,
}

/// A Python literal of the subset headers use.
#[derive(Clone, Debug, PartialEq)]
enum Lit {
    Str(String),
    Int(i128),
    Bool(bool),
    Tuple(Vec<Lit>),
    List(Vec<Lit>),
    Dict(Vec<(Lit, Lit)>),
    None,
}

impl Lit {
    /// The literal as Python's repr prints it (for messages).
    fn repr(&self) -> String {
        let join = |xs: &[Lit]| xs.iter().map(Lit::repr).collect::<Vec<_>>().join(", ");
        match self {
            Lit::Str(s) => format!("'{s}'"),
            Lit::Int(i) => i.to_string(),
            Lit::Bool(b) => if *b { "True" } else { "False" }.into(),
            Lit::None => "None".into(),
            Lit::Tuple(xs) if xs.len() == 1 => format!("({},)", xs[0].repr()),
            Lit::Tuple(xs) => format!("({})", join(xs)),
            Lit::List(xs) => format!("[{}]", join(xs)),
            Lit::Dict(kv) => format!(
                "{{{}}}",
                kv.iter()
                    .map(|(k, v)| format!("{}: {}", k.repr(), v.repr()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self) -> Error {
        bad(format!(
            "Cannot parse header: malformed node or string at byte {}",
            self.pos
        ))
    }

    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.s.get(self.pos) == Some(&c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Items up to `close`, separated by commas, a trailing comma allowed;
    /// whether a comma was seen (to tell `(1,)` from `(1)`).
    fn items(&mut self, close: u8) -> Result<(Vec<Lit>, bool)> {
        let mut out = Vec::new();
        let mut comma = false;
        loop {
            if self.eat(close) {
                return Ok((out, comma));
            }
            out.push(self.value()?);
            if self.eat(b',') {
                comma = true;
            } else if self.eat(close) {
                return Ok((out, comma));
            } else {
                return Err(self.error());
            }
        }
    }

    fn value(&mut self) -> Result<Lit> {
        self.depth += 1;
        if self.depth > 32 {
            return Err(self.error());
        }
        self.skip_ws();
        let c = *self.s.get(self.pos).ok_or_else(|| self.error())?;
        let lit = match c {
            b'\'' | b'"' => {
                let end = self.s[self.pos + 1..]
                    .iter()
                    .position(|&b| b == c || b == b'\\')
                    .ok_or_else(|| self.error())?;
                let text = &self.s[self.pos + 1..self.pos + 1 + end];
                if self.s[self.pos + 1 + end] == b'\\' {
                    return Err(self.error());
                }
                self.pos += end + 2;
                Lit::Str(String::from_utf8(text.to_vec()).map_err(|_| self.error())?)
            }
            b'(' => {
                self.pos += 1;
                let (mut items, comma) = self.items(b')')?;
                if items.len() == 1 && !comma {
                    items.pop().unwrap_or(Lit::None)
                } else {
                    Lit::Tuple(items)
                }
            }
            b'[' => {
                self.pos += 1;
                Lit::List(self.items(b']')?.0)
            }
            b'{' => {
                self.pos += 1;
                let mut kv = Vec::new();
                loop {
                    if self.eat(b'}') {
                        break;
                    }
                    let k = self.value()?;
                    if !self.eat(b':') {
                        return Err(self.error());
                    }
                    let v = self.value()?;
                    kv.push((k, v));
                    if !self.eat(b',') {
                        if self.eat(b'}') {
                            break;
                        }
                        return Err(self.error());
                    }
                }
                Lit::Dict(kv)
            }
            b'-' | b'0'..=b'9' => {
                let start = self.pos;
                self.pos += 1;
                while self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
                    self.pos += 1;
                }
                let text =
                    std::str::from_utf8(&self.s[start..self.pos]).map_err(|_| self.error())?;
                // Python ints are unbounded; one past i128 is surely too big a shape.
                Lit::Int(
                    text.parse()
                        .map_err(|_| bad(format!("shape dimension {text} is too large")))?,
                )
            }
            _ => {
                let rest = &self.s[self.pos..];
                let (word, lit) = if rest.starts_with(b"True") {
                    (4, Lit::Bool(true))
                } else if rest.starts_with(b"False") {
                    (5, Lit::Bool(false))
                } else if rest.starts_with(b"None") {
                    (4, Lit::None)
                } else {
                    return Err(self.error());
                };
                self.pos += word;
                lit
            }
        };
        self.depth -= 1;
        Ok(lit)
    }
}

/// The descr `<f4`, `>f8`, `|b1`, `<u2`, `<U5`... as its elements and byte
/// order, refused as numpy refuses a descriptor that is no dtype (`<f17`).
fn descr(lit: &Lit) -> Result<Descr> {
    let invalid = || {
        bad(format!(
            "descr is not a valid dtype descriptor: {}",
            lit.repr()
        ))
    };
    let s = match lit {
        Lit::Str(s) => s,
        // A structured dtype: a list of (name, descr[, shape]) fields.
        Lit::List(_) => {
            return Ok(Descr {
                elements: Elements::Opaque {
                    name: format!("structured {}", lit.repr()),
                },
                big_endian: false,
            });
        }
        _ => return Err(invalid()),
    };
    let (order, rest) = match s.as_bytes().first() {
        Some(&c @ (b'<' | b'>' | b'|' | b'=')) => (c, &s[1..]),
        _ => (b'=', s.as_str()),
    };
    let elements = elements(rest).ok_or_else(invalid)?;
    let big_endian = order == b'>' && elements.size().is_some_and(|n| n > 1);
    Ok(Descr {
        elements,
        big_endian,
    })
}

/// The elements of a descr without its byte order: a one-letter type code
/// (`f`, `H`), or a kind and a size (`f4`, `u2`, `U5`, `M8[s]`), as numpy's
/// `np.dtype` reads them; `None` for what is no dtype.
fn elements(code: &str) -> Option<Elements> {
    let typed = |d| Some(Elements::Typed(d));
    let foreign =
        |name: String, size: usize, swap: usize| Some(Elements::Foreign { name, size, swap });
    match code {
        "?" => return typed(DType::Bool),
        "B" => return typed(DType::U8),
        "b" => return typed(DType::I8),
        "h" => return typed(DType::I16),
        "i" => return typed(DType::I32),
        "q" | "l" => return typed(DType::I64),
        "e" => return typed(DType::F16),
        "f" => return typed(DType::F32),
        "d" => return typed(DType::F64),
        "H" => return foreign("uint16".into(), 2, 2),
        "I" => return foreign("uint32".into(), 4, 4),
        "L" | "Q" => return foreign("uint64".into(), 8, 8),
        "F" => return foreign("complex64".into(), 8, 4),
        "D" => return foreign("complex128".into(), 16, 8),
        "O" | "O8" => {
            return Some(Elements::Opaque {
                name: "object".into(),
            });
        }
        _ => {}
    }
    let kind = code.chars().next()?;
    let rest = &code[kind.len_utf8()..];
    if matches!(kind, 'M' | 'm') {
        // datetime64 / timedelta64: 8 bytes, an optional unit in brackets.
        let unit = rest.strip_prefix('8')?;
        let unit = match unit {
            "" => "",
            u if u.starts_with('[') && u.ends_with(']') && u.len() > 2 => u,
            _ => return None,
        };
        let base = if kind == 'M' {
            "datetime64"
        } else {
            "timedelta64"
        };
        return foreign(format!("{base}{unit}"), 8, 8);
    }
    if rest.is_empty() && matches!(kind, 'V' | 'S' | 'U') {
        return Some(Elements::Opaque {
            name: format!("{kind}0"),
        });
    }
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 12 {
        return None;
    }
    let n: usize = rest.parse().ok()?;
    Some(match (kind, n) {
        ('b', 1) => Elements::Typed(DType::Bool),
        ('u', 1) => Elements::Typed(DType::U8),
        ('i', 1) => Elements::Typed(DType::I8),
        ('i', 2) => Elements::Typed(DType::I16),
        ('i', 4) => Elements::Typed(DType::I32),
        ('i', 8) => Elements::Typed(DType::I64),
        ('f', 2) => Elements::Typed(DType::F16),
        ('f', 4) => Elements::Typed(DType::F32),
        ('f', 8) => Elements::Typed(DType::F64),
        ('u', 2) => Elements::Typed(DType::U16),
        ('u', 4) => Elements::Typed(DType::U32),
        ('u', 8) => Elements::Typed(DType::U64),
        ('c', 8) => Elements::Typed(DType::C64),
        ('c', 16) => Elements::Typed(DType::C128),
        ('f', 12 | 16) => return foreign(format!("float{}", 8 * n), n, n),
        ('c', 24 | 32) => return foreign(format!("complex{}", 8 * n), n, n / 2),
        ('V' | 'S' | 'U', 0) => Elements::Opaque {
            name: format!("{kind}0"),
        },
        ('V', n) => return foreign(format!("void{}", 8 * n), n, 1),
        ('S', n) => return foreign(format!("bytes{}", 8 * n), n, 1),
        ('U', n) => return foreign(format!("str{}", 32 * n), n.checked_mul(4)?, 4),
        _ => return None,
    })
}

/// Parses the header at the start of `bytes`; a file that ends inside it
/// is [`Error::Truncated`] with numpy's words (numpy reads what the header
/// claims before checking its length, so a cut header is reported as cut).
pub(crate) fn parse(bytes: &[u8]) -> Result<Header> {
    let magic = b"\x93NUMPY";
    if bytes.is_empty() {
        return Err(Error::truncated(FORMAT, "No data left in file"));
    }
    let eof = |what: &str, want: usize, from: usize| {
        Error::truncated(
            FORMAT,
            format!(
                "EOF: reading {what}, expected {want} bytes got {}",
                bytes.len().saturating_sub(from)
            ),
        )
    };
    let prefix = bytes.len().min(magic.len());
    if bytes[..prefix] != magic[..prefix] {
        return Err(bad(
            "This file contains pickled (object) data. If you trust the file you can load it unsafely using the `allow_pickle=` keyword argument or `pickle.load()`.",
        ));
    }
    let (major, minor) = match bytes.get(6..8) {
        Some(v) => (v[0], v[1]),
        None => return Err(eof("magic string", 8, 0)),
    };
    let (len, start) = match (major, minor) {
        (1, 0) => {
            let b = bytes
                .get(8..10)
                .ok_or_else(|| eof("array header length", 2, 8))?;
            (usize::from(u16::from_le_bytes([b[0], b[1]])), 10)
        }
        (2 | 3, 0) => {
            let b = bytes
                .get(8..12)
                .ok_or_else(|| eof("array header length", 4, 8))?;
            (u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize, 12)
        }
        _ => {
            return Err(bad(format!(
                "we only support format version (1,0), (2,0), and (3,0), not ({major}, {minor})"
            )));
        }
    };
    let text = bytes
        .get(start..start + len)
        .ok_or_else(|| eof("array header", len, start))?;
    if len > MAX_HEADER {
        return Err(bad(format!(
            "Header info length ({len}) is large and may not be safe to load securely."
        )));
    }
    let text: String = if major == 3 {
        std::str::from_utf8(text)
            .map_err(|_| bad("the header is not UTF-8"))?
            .to_string()
    } else {
        text.iter().map(|&b| char::from(b)).collect()
    };
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
        depth: 0,
    };
    let lit = p.value()?;
    let Lit::Dict(items) = &lit else {
        return Err(bad(format!("Header is not a dictionary: {}", lit.repr())));
    };
    let mut keys: Vec<String> = items
        .iter()
        .map(|(k, _)| match k {
            Lit::Str(s) => s.clone(),
            other => other.repr(),
        })
        .collect();
    keys.sort();
    if keys != ["descr", "fortran_order", "shape"] {
        let shown: Vec<String> = keys.iter().map(|k| format!("'{k}'")).collect();
        return Err(bad(format!(
            "Header does not contain the correct keys: [{}]",
            shown.join(", ")
        )));
    }
    let get = |name: &str| {
        items
            .iter()
            .find(|(k, _)| *k == Lit::Str(name.into()))
            .map(|(_, v)| v)
    };
    let shape = match get("shape") {
        Some(Lit::Tuple(dims)) => dims
            .iter()
            .map(|d| match d {
                Lit::Int(n) => usize::try_from(*n).map_err(|_| {
                    bad(format!(
                        "shape is not valid: {}",
                        get("shape").map(Lit::repr).unwrap_or_default()
                    ))
                }),
                _ => Err(bad(format!(
                    "shape is not valid: {}",
                    get("shape").map(Lit::repr).unwrap_or_default()
                ))),
            })
            .collect::<Result<Vec<_>>>()?,
        other => {
            return Err(bad(format!(
                "shape is not valid: {}",
                other.map(Lit::repr).unwrap_or_default()
            )));
        }
    };
    let fortran = match get("fortran_order") {
        Some(Lit::Bool(b)) => *b,
        other => {
            return Err(bad(format!(
                "fortran_order is not a valid bool: {}",
                other.map(Lit::repr).unwrap_or_default()
            )));
        }
    };
    let descr = descr(get("descr").unwrap_or(&Lit::None))?;
    Ok(Header {
        descr,
        fortran,
        shape,
        data_offset: start + len,
    })
}

/// The descr axial writes for a dtype (little-endian), or an error for
/// bfloat16, which numpy has no dtype for.
pub(crate) fn descr_of(dtype: DType) -> Result<&'static str> {
    Ok(match dtype {
        DType::Bool => "|b1",
        DType::U8 => "|u1",
        DType::I8 => "|i1",
        DType::I16 => "<i2",
        DType::I32 => "<i4",
        DType::I64 => "<i8",
        DType::F16 => "<f2",
        DType::F32 => "<f4",
        DType::F64 => "<f8",
        DType::U16 => "<u2",
        DType::U32 => "<u4",
        DType::U64 => "<u8",
        DType::C64 => "<c8",
        DType::C128 => "<c16",
        DType::F8E4M3Fn | DType::F8E5M2 | DType::F8E4M3FnUz | DType::F8E5M2FnUz => {
            return Err(Error::unsupported_dtype(FORMAT, None, dtype.name()));
        }
        DType::BF16 => {
            return Err(bad(
                "numpy has no bfloat16 dtype: cast to float32 first, or write safetensors",
            ));
        }
    })
}

/// A header that makes the data start at a multiple of 64, as numpy writes it.
pub(crate) fn write(dtype: DType, fortran: bool, shape: &[usize]) -> Result<Vec<u8>> {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let dict = format!(
        "{{'descr': '{}', 'fortran_order': {}, 'shape': {shape}, }}",
        descr_of(dtype)?,
        if fortran { "True" } else { "False" }
    );
    let (version, prefix) = if dict.len() + 1 + 10 <= 65535 {
        (1u8, 10)
    } else {
        (2, 12)
    };
    let total = (prefix + dict.len() + 1).next_multiple_of(64);
    let len = total - prefix;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"\x93NUMPY");
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(len as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(len as u32).to_le_bytes());
    }
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip_and_pad_to_64() {
        let h = write(DType::F32, true, &[2, 3]).unwrap();
        assert_eq!(h.len(), 128);
        let parsed = parse(&h).unwrap();
        assert_eq!(
            (parsed.shape, parsed.fortran, parsed.data_offset),
            (vec![2, 3], true, 128)
        );
        let h = write(DType::F64, false, &[]).unwrap();
        assert!(String::from_utf8_lossy(&h).contains("'shape': (), }"));
        let h = write(DType::U8, false, &[5]).unwrap();
        assert!(String::from_utf8_lossy(&h).contains("'shape': (5,), }"));
    }

    #[test]
    fn literals_parse_as_python_parses_them() {
        let mut p = Parser {
            s: b"{'a': (1,), \"b\": [True, None], 'c': (7)}",
            pos: 0,
            depth: 0,
        };
        let lit = p.value().unwrap();
        assert_eq!(lit.repr(), "{'a': (1,), 'b': [True, None], 'c': 7}");
        let deep = "(".repeat(100);
        let mut p = Parser {
            s: deep.as_bytes(),
            pos: 0,
            depth: 0,
        };
        assert!(p.value().is_err());
    }
}
