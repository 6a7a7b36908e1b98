//! Joining tensors along a dim: `cat` and `stack`, written with copies
//! (each input into its slice of the result) by the core: no device has a
//! kernel of its own.

use super::{Derivative, Lowering, Op, OpInfo, Saves};
use crate::layout::wrap_dim;
use crate::{DType, Error, Result};

/// `torch.cat(tensors, dim)`.
///
/// # Example
/// ```
/// use axial_core::{DType, ops::Cat};
/// let (cat, shape) = Cat::new(0, &[(&[1, 2], DType::I64), (&[2, 2], DType::I64)])?;
/// assert_eq!((cat.dim, shape), (0, vec![3, 2]));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cat {
    /// The dim joined along (wrapped).
    pub dim: usize,
}

impl Op for Cat {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "cat",
            lowering: Lowering::Composite,
            derivative: Derivative::Written(Saves::MANY),
        }
    }
}

impl Cat {
    /// The op over `dim` (negative counts from the end) of tensors of the
    /// shapes and dtypes given, and the shape of the result: every other
    /// dim and the dtype agree (axial does not promote).
    ///
    /// # Errors
    /// No tensors, a 0-dim one, ranks, sizes or dtypes that differ, or a
    /// dim out of range.
    pub fn new(dim: isize, tensors: &[(&[usize], DType)]) -> Result<(Cat, Vec<usize>)> {
        let op = "cat";
        let Some(&(first, dtype)) = tensors.first() else {
            return Err(no_tensors(op));
        };
        if first.is_empty() {
            return Err(Error::invalid(
                op,
                "zero-dimensional tensor (at position 0) cannot be concatenated",
            ));
        }
        let dim = wrap_dim(dim, first.len())?;
        let mut shape = first.to_vec();
        shape[dim] = 0;
        for (i, &(t, t_dtype)) in tensors.iter().enumerate() {
            if t.len() != first.len() {
                return Err(Error::invalid(
                    op,
                    format!(
                        "Tensors must have same number of dimensions: got {} and {}",
                        first.len(),
                        t.len()
                    ),
                ));
            }
            if t_dtype != dtype {
                return Err(Error::invalid(
                    op,
                    format!(
                        "expected every tensor of dtype {}, got {} for tensor number {i} (cast it first)",
                        dtype.name(),
                        t_dtype.name()
                    ),
                ));
            }
            for d in (0..shape.len()).filter(|&d| d != dim) {
                if t[d] != first[d] {
                    return Err(Error::invalid(
                        op,
                        format!(
                            "Sizes of tensors must match except in dimension {dim}. Expected size {} but got size {} for tensor number {i} in the list.",
                            first[d], t[d]
                        ),
                    ));
                }
            }
            shape[dim] += t[dim];
        }
        Ok((Cat { dim }, shape))
    }
}

/// `torch.stack(tensors, dim)`: a [`Cat`] along a new dim.
///
/// # Example
/// ```
/// use axial_core::ops::Stack;
/// assert_eq!(Stack::new(-1, &[&[2, 3], &[2, 3]])?, Stack { dim: 2 });
/// assert!(Stack::new(0, &[&[2], &[3]]).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    /// The new dim (wrapped, in `0..=rank`).
    pub dim: usize,
}

impl Op for Stack {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "stack",
            lowering: Lowering::Composite,
            derivative: Derivative::Written(Saves::MANY),
        }
    }
}

impl Stack {
    /// The op at `dim` (in `-rank-1..=rank`) of tensors of the shapes
    /// given, which must all be one.
    ///
    /// # Errors
    /// No tensors, shapes that differ, or a dim out of range.
    pub fn new(dim: isize, shapes: &[&[usize]]) -> Result<Stack> {
        let op = "stack";
        let Some(&first) = shapes.first() else {
            return Err(no_tensors(op));
        };
        for (i, &t) in shapes.iter().enumerate() {
            if t != first {
                return Err(Error::invalid(
                    op,
                    format!(
                        "stack expects each tensor to be equal size, but got {first:?} at entry 0 and {t:?} at entry {i}"
                    ),
                ));
            }
        }
        Ok(Stack {
            dim: wrap_dim(dim, first.len() + 1)?,
        })
    }
}

/// PyTorch's error for a join of no tensors.
fn no_tensors(op: &'static str) -> Error {
    Error::invalid(op, "expected a non-empty list of Tensors")
}
