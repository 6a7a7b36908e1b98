//! `einops.parse_shape`: the lengths of a tensor's axes, by name.

use super::{Options, PatternError};
use axial_pattern::{Atom, Expression};

use crate::{Device, Error, Result, TensorRef};

/// `einops.parse_shape(x, pattern)`: each named axis of the space-separated
/// `pattern` with its length, left to right; `_` skips a dim, `...` any
/// number of dims, `1` and `()` require a length of 1, an integer requires
/// that length.
///
/// # Errors
/// [`Error::Pattern`] for a pattern that does not parse; [`Error::Invalid`]
/// with einops' message for a group of several axes, a rank that does not
/// fit, or a length that does not match.
///
/// ```
/// # use axial_core::{DType, RawTensor, einops};
/// let x = RawTensor::zeros(&[2, 3, 5, 7], DType::F32)?;
/// let shape = einops::parse_shape(&x.view(), "batch _ h w")?;
/// assert_eq!(shape, [("batch".to_owned(), 2), ("h".to_owned(), 5), ("w".to_owned(), 7)]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn parse_shape<D: Device>(x: &TensorRef<'_, D>, pattern: &str) -> Result<Vec<(String, usize)>> {
    let options = Options {
        allow_underscore: true,
        allow_duplicates: false,
    };
    let exp =
        Expression::parse(pattern, options).map_err(|error: PatternError| Error::Pattern {
            op: "parse_shape",
            error: Box::new(error),
        })?;
    let shape = x.shape();
    let refuse = |what: &str| {
        Err(Error::invalid(
            "parse_shape",
            format!("{what}: {pattern} {shape:?}"),
        ))
    };
    if exp.has_composed_axes() {
        return refuse("Can't parse shape with composite axes");
    }
    let dims = exp.dims.len();
    let ellipsis = exp.dims.iter().position(|d| d.is_ellipsis());
    match ellipsis {
        Some(_) if shape.len() + 1 < dims => {
            return refuse("Can't parse shape with this number of dimensions");
        }
        None if shape.len() != dims => {
            return refuse("Can't parse shape with different number of dimensions");
        }
        _ => {}
    }
    let covered = shape.len() + usize::from(ellipsis.is_some()) - dims;
    let mut lengths = shape.iter().copied();
    let mut named = Vec::new();
    for (at, dim) in exp.dims.iter().enumerate() {
        if Some(at) == ellipsis {
            lengths.by_ref().take(covered).for_each(drop);
            continue;
        }
        let length = lengths.next().unwrap_or(0);
        match dim.atoms.as_slice() {
            [] if length != 1 => return refuse("Length of axis is not 1"),
            [Atom::Anonymous { size, .. }] if *size != length => {
                return refuse("Length of anonymous axis does not match");
            }
            [Atom::Named { name, .. }] if name != "_" => named.push((name.clone(), length)),
            _ => {}
        }
    }
    Ok(named)
}
