//! The elements a printout shows, copied to the host: all of them, or, for a
//! summarised tensor, the first and last [`EDGE_ITEMS`] of every dimension
//! longer than twice that (PyTorch's `get_summarized_data`).

use std::ops::Range;

use super::EDGE_ITEMS;
use crate::{Backend, Element, Kind, Result, TensorRef, with_dtype};

/// Host copies of the shown elements, in row-major order of the kept shape.
pub(super) enum Values {
    /// Floating elements (f16, bf16 and f32 widen exactly).
    Float(Vec<f64>),
    /// Integer elements (a u64 beyond i64 included).
    Int(Vec<i128>),
    /// Bool elements.
    Bool(Vec<bool>),
    /// Complex elements: real and imaginary parts.
    Complex(Vec<(f64, f64)>),
}

/// The indices of a dimension of `size` that a printout shows.
pub(super) fn kept_ranges(size: usize, summarize: bool) -> [Range<usize>; 2] {
    if summarize && size > 2 * EDGE_ITEMS {
        [0..EDGE_ITEMS, size - EDGE_ITEMS..size]
    } else {
        [0..size, size..size]
    }
}

/// The shown elements of `t`, converted for formatting.
pub(super) fn shown_values<D: Backend>(t: &TensorRef<'_, D>, summarize: bool) -> Result<Values> {
    with_dtype!(t.dtype(), T => {
        let mut out = Vec::new();
        gather::<T, D>(t, summarize, &mut out)?;
        Ok(widen(&out))
    })
}

/// Appends the shown elements of `t` to `out`, with one device copy per kept
/// row (or one for the whole tensor when nothing is cut).
fn gather<T: Element, D: Backend>(
    t: &TensorRef<'_, D>,
    summarize: bool,
    out: &mut Vec<T>,
) -> Result<()> {
    let cut = summarize && t.shape().iter().any(|&n| n > 2 * EDGE_ITEMS);
    if !cut {
        out.extend(t.to_vec::<T>()?);
        return Ok(());
    }
    let ranges = kept_ranges(t.shape()[0], summarize);
    if t.dim() == 1 {
        for range in ranges.into_iter().filter(|r| !r.is_empty()) {
            let piece = t.narrow(0, range.start as isize, range.len())?;
            out.extend(piece.to_vec::<T>()?);
        }
        return Ok(());
    }
    for i in ranges.into_iter().flatten() {
        gather(&t.select(0, i as isize)?, summarize, out)?;
    }
    Ok(())
}

fn widen<T: Element>(v: &[T]) -> Values {
    match T::KIND {
        Kind::Float => Values::Float(v.iter().map(|x| x.to_f64()).collect()),
        Kind::Int => Values::Int(
            v.iter()
                .map(|&x| match bytemuck::try_cast::<T, u64>(x) {
                    Ok(u) if T::DTYPE == crate::DType::U64 => i128::from(u),
                    _ => i128::from(x.to_i64()),
                })
                .collect(),
        ),
        Kind::Bool => Values::Bool(v.iter().map(|x| x.is_nonzero()).collect()),
        Kind::Complex => Values::Complex(
            v.iter()
                .map(|x| {
                    let c = x.to_c128();
                    (c.re, c.im)
                })
                .collect(),
        ),
    }
}
