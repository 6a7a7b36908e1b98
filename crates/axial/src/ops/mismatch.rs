//! Run-time size checks between `Dyn` axes, worded with names: the core
//! says where two shapes disagree by position (PyTorch's words); the typed
//! layer knows the names, so its message names the axis and prints both
//! shapes with names and sizes. Only the error path pays for the words.

use std::fmt::Write;

use axial_core::Error;
use axial_shape::{GenericArray, Shape};

/// `(Batch: 2, Seq: 5)`: the names of `S` with `sizes` (an anonymous axis
/// prints its size alone, as PyTorch prints a `None` name).
pub(crate) fn described<S: Shape>(sizes: &[usize]) -> String {
    let mut names = GenericArray::<Option<&'static str>, S::Rank>::default();
    S::write_names(&mut names);
    let mut out = String::from("(");
    for (i, (name, size)) in names.iter().zip(sizes).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match name {
            Some(name) => write!(out, "{name}: {size}"),
            None => write!(out, "{size}"),
        }
        .unwrap_or_default();
    }
    if sizes.len() == 1 && names.first().is_none_or(Option::is_none) {
        out.push(',');
    }
    out.push(')');
    out
}

/// The names of `S`, outermost first.
fn names_of<S: Shape>() -> GenericArray<Option<&'static str>, S::Rank> {
    let mut names = GenericArray::default();
    S::write_names(&mut names);
    names
}

/// The name of the axis at `dim` of a broadcast of `rank` axes, among the
/// first `len` names of `names` (axes pair up from the right).
fn name_from_right(
    names: &[Option<&'static str>],
    len: usize,
    dim: usize,
    rank: usize,
) -> Option<&'static str> {
    let at = len.checked_sub(rank.checked_sub(dim)?)?;
    names.get(at).copied().flatten()
}

/// `axis `Seq``, or `dimension 1` for an anonymous axis.
fn axis_words(name: Option<&str>, dim: usize) -> String {
    name.map_or_else(|| format!("dimension {dim}"), |n| format!("axis `{n}`"))
}

/// A broadcast error of the core between tensors `a` (shape `S1`, sizes
/// `a_sizes`) and `b` (`S2`), reworded with the axis' name and both shapes;
/// any other error as it is.
pub(crate) fn broadcast<S1: Shape, S2: Shape>(
    op: &'static str,
    err: Error,
    a_sizes: &[usize],
    b_sizes: &[usize],
) -> Error {
    let Error::Broadcast { a, b, dim } = err else {
        return err;
    };
    let rank = S1::RANK.max(S2::RANK);
    let name = name_from_right(&names_of::<S1>(), S1::RANK, dim, rank)
        .or_else(|| name_from_right(&names_of::<S2>(), S2::RANK, dim, rank));
    Error::invalid(
        op,
        format!(
            "the size of {} in tensor a ({a}) must match its size in tensor b ({b}), or one of them be 1: a is {}, b is {}",
            axis_words(name, dim),
            described::<S1>(a_sizes),
            described::<S2>(b_sizes),
        ),
    )
}

/// An in-place op's error of the core (the broadcast result is not self's
/// shape, the operand does not expand to it, or the shapes do not
/// broadcast), reworded with the names.
pub(crate) fn in_place<S1: Shape, S2: Shape>(
    op: &'static str,
    err: Error,
    out_sizes: &[usize],
    operand_sizes: &[usize],
) -> Error {
    let expand = matches!(&err, Error::Expand { .. });
    match err {
        Error::InPlaceShape { .. } => Error::invalid(
            op,
            format!(
                "an in-place op keeps self's shape {}, but the operand {} broadcasts to another",
                described::<S1>(out_sizes),
                described::<S2>(operand_sizes),
            ),
        ),
        _ if expand => Error::invalid(
            op,
            format!(
                "the operand {} does not broadcast to self's shape {}: each of its axes needs self's size there, or 1",
                described::<S2>(operand_sizes),
                described::<S1>(out_sizes),
            ),
        ),
        err => broadcast::<S1, S2>(op, err, out_sizes, operand_sizes),
    }
}

/// A matmul error of the core between `a` (shape `S1`) and `b` (`S2`): the
/// contracted axes of two sizes, or batch axes that do not broadcast,
/// reworded with the names.
pub(crate) fn matmul<S1: Shape, S2: Shape>(
    err: Error,
    a_sizes: &[usize],
    b_sizes: &[usize],
) -> Error {
    let (a_names, b_names) = (names_of::<S1>(), names_of::<S2>());
    let (a_shape, b_shape) = (described::<S1>(a_sizes), described::<S2>(b_sizes));
    match err {
        Error::Contraction { .. } => {
            // The last axis of `a` and the second-to-last of `b` (its only one).
            let k_b = b_sizes
                .len()
                .saturating_sub(2)
                .min(b_sizes.len().saturating_sub(1));
            let name = a_names
                .last()
                .copied()
                .flatten()
                .or_else(|| b_names.get(k_b).copied().flatten());
            let axis = name.map_or_else(
                || "the contracted axes".to_owned(),
                |n| format!("the contracted axis `{n}`"),
            );
            Error::invalid(
                "matmul",
                format!(
                    "{axis} must have one size, but it is {} in the left operand {a_shape} and {} in the right operand {b_shape}",
                    a_sizes.last().copied().unwrap_or_default(),
                    b_sizes.get(k_b).copied().unwrap_or_default(),
                ),
            )
        }
        Error::Broadcast { a, b, dim } => {
            // The batch axes: all but the last two of each operand.
            let (batch_a, batch_b) = (S1::RANK.saturating_sub(2), S2::RANK.saturating_sub(2));
            let rank = batch_a.max(batch_b);
            let name = name_from_right(&a_names, batch_a, dim, rank)
                .or_else(|| name_from_right(&b_names, batch_b, dim, rank));
            Error::invalid(
                "matmul",
                format!(
                    "the batch {} has size {a} in the left operand {a_shape} and {b} in the right operand {b_shape}, and neither is 1",
                    axis_words(name, dim),
                ),
            )
        }
        err => err,
    }
}
