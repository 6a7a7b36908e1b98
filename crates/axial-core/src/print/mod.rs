//! Printing like PyTorch: `tensor([[1., 2.],\n        [3., 4.]])`.
//!
//! [`Display`](fmt::Display) for [`RawTensor`], [`TensorRef`] and [`TensorMut`]
//! follows `torch/_tensor_str.py` with the default print options (precision 4,
//! threshold 1000, edge items 3, line width 80):
//! - floats print as `1.` when every finite value is integral, else with four
//!   decimals, and in scientific notation (`1.0000e+05`) when the largest
//!   non-zero magnitude over the smallest exceeds 1000, the largest exceeds 1e8
//!   or the smallest is below 1e-4; every element is padded to a common width;
//! - bools print as `True`/`False`, integers as they are;
//! - past 1000 elements only the first and last three of each dimension are
//!   shown, with `...` between;
//! - a dtype other than float32, int64 and bool is named (`dtype=torch.int32`),
//!   an empty tensor of rank other than 1 gives its size, and a tensor on a
//!   device other than the CPU names it.
//!
//! Any layout and any device prints: the shown elements are copied to the
//! host (one copy, or one per shown row when summarised), and the format is
//! chosen there.
//!
//! # Example
//! ```
//! use axial_core::{DType, RawTensor};
//! let m = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
//! assert_eq!(m.to_string(), "tensor([[1., 2.],\n        [3., 4.]])");
//! assert_eq!(m.view().t()?.to_string(), "tensor([[1., 3.],\n        [2., 4.]])");
//!
//! let x = RawTensor::from_vec(vec![1i32, 2, 3], &[3])?;
//! assert_eq!(x.to_string(), "tensor([1, 2, 3], dtype=torch.int32)");
//!
//! let s = RawTensor::from_vec(vec![3.5f32], &[])?;
//! assert_eq!(s.to_string(), "tensor(3.5000)");
//!
//! let e = RawTensor::zeros(&[0, 3], DType::F32)?;
//! assert_eq!(e.to_string(), "tensor([], size=(0, 3))");
//! # Ok::<(), axial_core::Error>(())
//! ```

mod formatter;
mod gather;
mod render;

use std::fmt;

use crate::{Backend, DType, RawTensor, Result, TensorMut, TensorRef};
use formatter::Formatter;
use render::Block;

/// Decimals of fixed and scientific floats.
const PRECISION: usize = 4;
/// Tensors of more elements than this are summarised.
const THRESHOLD: usize = 1000;
/// Elements shown at each end of a summarised dimension.
const EDGE_ITEMS: usize = 3;
/// The column rows wrap at.
const LINE_WIDTH: usize = 80;
/// What every printout starts with.
const PREFIX: &str = "tensor(";

impl<D: Backend> fmt::Display for TensorRef<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&with_suffixes(self, &[]))
    }
}

/// PyTorch's repr of `t` with `extra` suffixes after its own, wrapped at 80
/// columns as PyTorch wraps them: how a layer above adds what the core does
/// not know (PyTorch's `names=('N', 'C')` of a named tensor).
///
/// ```
/// use axial_core::{RawTensor, print};
/// let x = RawTensor::from_vec(vec![1i32, 2], &[2])?;
/// let text = print::with_suffixes(&x.view(), &["names=('N',)".to_string()]);
/// assert_eq!(text, "tensor([1, 2], dtype=torch.int32, names=('N',))");
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn with_suffixes<D: Backend>(t: &TensorRef<'_, D>, extra: &[String]) -> String {
    repr(t, extra).unwrap_or_else(|err| unprintable(&err))
}

impl<D: Backend> fmt::Display for TensorMut<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_ref(), f)
    }
}

impl<D: Backend> fmt::Display for RawTensor<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.view(), f)
    }
}

/// PyTorch's `repr(t)` (`_str_intern` for a plain strided tensor), `extra`
/// suffixes last.
fn repr<D: Backend>(t: &TensorRef<'_, D>, extra: &[String]) -> Result<String> {
    let mut suffixes = Vec::new();
    let device = t.storage().device().name();
    if device != "cpu" {
        suffixes.push(format!("device='{device}'"));
    }
    let mut text = String::from(PREFIX);
    if t.numel() == 0 {
        if t.dim() != 1 {
            suffixes.push(format!("size={}", python_tuple(t.shape())));
        }
        if t.dtype() != DType::F32 {
            suffixes.push(format!("dtype={}", t.dtype()));
        }
        text.push_str("[]");
    } else {
        if !matches!(t.dtype(), DType::F32 | DType::I64 | DType::Bool) {
            suffixes.push(format!("dtype={}", t.dtype()));
        }
        text.push_str(&tensor_str(t, PREFIX.len())?);
    }
    suffixes.extend_from_slice(extra);
    Ok(add_suffixes(text, &suffixes, false))
}

/// PyTorch's `_tensor_str(t, indent)`: the brackets and elements of a
/// non-empty tensor as they print from column `indent` (no `tensor(`, no
/// suffixes), for reprs that nest tensors (sparse indices and values).
pub(crate) fn tensor_str<D: Backend>(t: &TensorRef<'_, D>, indent: usize) -> Result<String> {
    let summarize = t.numel() > THRESHOLD;
    let values = gather::shown_values(t, summarize)?;
    let formatter = Formatter::new(&values);
    let elements = formatter.format_all(&values);
    let block = Block {
        shape: t.shape(),
        elements: &elements,
        summarize,
        width: formatter.width(),
    };
    let mut text = String::new();
    block.write(indent, &mut text);
    Ok(text)
}

/// Appends `, suffix` for each suffix, starting a new line where the current
/// one would pass [`LINE_WIDTH`] (and before the first when `force_newline`,
/// as for sparse tensors), and the closing parenthesis.
pub(crate) fn add_suffixes(mut text: String, suffixes: &[String], force_newline: bool) -> String {
    let mut force_newline = force_newline;
    // PyTorch's `len(s) - s.rfind("\n") + 1`, with rfind giving -1 when absent.
    let mut last_line_len = match text.rfind('\n') {
        Some(at) => text.len() - at + 1,
        None => text.len() + 2,
    };
    for suffix in suffixes {
        if force_newline || last_line_len + suffix.len() + 2 > LINE_WIDTH {
            force_newline = false;
            text.push_str(",\n");
            text.extend(std::iter::repeat_n(' ', PREFIX.len()));
            last_line_len = PREFIX.len() + suffix.len();
        } else {
            text.push_str(", ");
            last_line_len += suffix.len() + 2;
        }
        text.push_str(suffix);
    }
    text.push(')');
    text
}

/// What a tensor prints as when reading its values failed.
pub(crate) fn unprintable(err: &dyn fmt::Display) -> String {
    format!("{PREFIX}<unprintable: {err}>)")
}

/// A Python tuple: `(0, 3)`, `(0,)`.
pub(crate) fn python_tuple(sizes: &[usize]) -> String {
    let items: Vec<String> = sizes.iter().map(usize::to_string).collect();
    match items.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}
