//! The recipe of a checked pattern (einops' `TransformRecipe`), and the
//! concrete steps it gives for one input shape (`_reconstruct_from_shape`):
//! reshape to the elementary axes, permute, reduce, add axes, reshape.

use std::ops::Range;

use crate::check::{axis_name, check_operation, same_axis};
use crate::parse::identifier_problem;
use crate::{Atom, ErrorKind, Operation, Pattern, PatternError, Span};

/// Where an elementary axis gets its length.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Length {
    /// An anonymous axis.
    Fixed(usize),
    /// The size given at this index.
    Sized(usize),
    /// Read off the input shape.
    Unknown,
}

/// One dim of the output: its elementary axes (slots), or a bare `...`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct OutputDim {
    slots: Vec<usize>,
    bare_ellipsis: bool,
}

/// A pattern checked for one operation and one set of sized axes: what is
/// left to do for a tensor is [`Recipe::transform`] with its shape and the
/// sizes. Independent of the rank when the pattern has `...`.
///
/// # Example
/// ```
/// use axial_pattern::{Operation, Pattern, Recipe};
/// let p = Pattern::parse("b (h h1) w -> b h (w h1)")?;
/// let r = Recipe::new(&p, Operation::Rearrange, &["h1"])?;
/// let t = r.transform(&[2, 6, 5], &[2])?;
/// assert_eq!(t.init_shape.as_deref(), Some(&[2, 3, 2, 5][..]));
/// assert_eq!(t.permutation.as_deref(), Some(&[0, 1, 3, 2][..]));
/// assert_eq!(t.output_shape, [2, 3, 10]);
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Recipe {
    pattern: String,
    operation: Operation,
    sized: Vec<String>,
    /// Elementary axes: the left side's in order (`...` as one slot), then
    /// the right side's new ones.
    axes: Vec<Length>,
    /// How many of `axes` are the left side's.
    left_axes: usize,
    /// The slot of `...`.
    ellipsis: Option<usize>,
    /// Each input dim: its slots and span.
    input: Vec<(Vec<usize>, Span)>,
    /// The left side's span.
    input_span: Span,
    output: Vec<OutputDim>,
}

/// The steps for one input shape, as einops' torch backend runs them: each
/// `None` (or empty) step is skipped.
///
/// # Example
/// ```
/// use axial_pattern::{Operation, Pattern, Recipe, Reduction};
/// let p = Pattern::parse("b c (h 2) -> b h")?;
/// let t = Recipe::new(&p, Operation::Reduce(Reduction::Max), &[])?.transform(&[2, 3, 8], &[])?;
/// assert_eq!(t.init_shape.as_deref(), Some(&[2, 3, 4, 2][..]));
/// assert_eq!(t.permutation.as_deref(), Some(&[0, 2, 1, 3][..]));
/// assert_eq!(t.reduced_axes, [2, 3]);
/// assert_eq!(t.output_shape, [2, 4]);
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Reshape to the elementary axes of the input side (when some input dim
    /// is not exactly one axis).
    pub init_shape: Option<Vec<usize>>,
    /// Then permute: kept axes in output order, reduced axes last (when not
    /// the identity).
    pub permutation: Option<Vec<usize>>,
    /// Then reduce these axes (the trailing ones).
    pub reduced_axes: Vec<usize>,
    /// Then insert new axes: `(position, length)` by increasing position,
    /// positions counted in the result (unsqueeze, then expand with stride 0).
    pub added_axes: Vec<(usize, usize)>,
    /// Then reshape to the output dims (when some output dim is not exactly
    /// one axis).
    pub final_shape: Option<Vec<usize>>,
    /// The shape of the result.
    pub output_shape: Vec<usize>,
}

impl Recipe {
    /// Checks `pattern` for `operation`, with sizes to be given for the axes
    /// named `sized` (in that order), as einops does before it looks at a
    /// tensor; the result is the recipe.
    ///
    /// # Errors
    /// einops' pattern errors: `...` on the right only or in a group on the
    /// left, axes on one side only (per operation), anonymous axes in
    /// rearrange, repeat's new axes without a size, a sized name that is not
    /// an axis name or not in the pattern (or given twice), and an input
    /// group with two axes of unknown length.
    ///
    /// ```
    /// # use axial_pattern::{Operation, Pattern, Recipe};
    /// let p = Pattern::parse("(a b) -> a b")?;
    /// let err = Recipe::new(&p, Operation::Rearrange, &[]).unwrap_err();
    /// assert_eq!(err.to_string(), "Could not infer sizes for {'a', 'b'}");
    /// assert_eq!(err.span().map(|s| s.text(p.text())), Some("(a b)"));
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn new(
        pattern: &Pattern,
        operation: Operation,
        sized: &[&str],
    ) -> Result<Recipe, PatternError> {
        check_operation(pattern, operation, sized)?;
        let (left, right) = (pattern.input(), pattern.output());
        let mut atoms: Vec<&Atom> = left.atoms().collect();
        let left_axes = atoms.len();
        for atom in right.atoms() {
            if !atoms.iter().any(|a| same_axis(a, atom)) {
                atoms.push(atom);
            }
        }
        let slot = |atom: &Atom| atoms.iter().position(|a| same_axis(a, atom)).unwrap_or(0);
        let mut axes: Vec<Length> = atoms
            .iter()
            .map(|a| match a {
                Atom::Anonymous { size, .. } => Length::Fixed(*size),
                _ => Length::Unknown,
            })
            .collect();
        for (index, &name) in sized.iter().enumerate() {
            if identifier_problem(name, false).is_some() {
                return Err(PatternError::unplaced(ErrorKind::InvalidSizeName {
                    name: name.to_owned(),
                }));
            }
            let Some(at) = atoms.iter().position(|a| a.name() == Some(name)) else {
                return Err(PatternError::unplaced(ErrorKind::UnusedSize {
                    name: name.to_owned(),
                }));
            };
            if let Length::Sized(_) = axes[at] {
                return Err(PatternError::unplaced(ErrorKind::RepeatedSize {
                    name: name.to_owned(),
                }));
            }
            axes[at] = Length::Sized(index);
        }
        let input: Vec<(Vec<usize>, Span)> = left
            .dims
            .iter()
            .map(|d| (d.atoms.iter().map(slot).collect(), d.span))
            .collect();
        for (dim, (slots, span)) in left.dims.iter().zip(&input) {
            let unknown: Vec<&Atom> = dim
                .atoms
                .iter()
                .zip(slots)
                .filter(|&(_, &s)| axes[s] == Length::Unknown)
                .map(|(a, _)| a)
                .collect();
            if unknown.len() > 1 {
                return Err(PatternError::at(
                    ErrorKind::CannotInfer {
                        axes: unknown.into_iter().map(axis_name).collect(),
                    },
                    *span,
                ));
            }
        }
        let output = right
            .dims
            .iter()
            .map(|d| OutputDim {
                slots: d.atoms.iter().map(slot).collect(),
                bare_ellipsis: d.is_ellipsis(),
            })
            .collect();
        Ok(Recipe {
            pattern: pattern.text().to_owned(),
            operation,
            sized: sized.iter().map(|s| (*s).to_owned()).collect(),
            ellipsis: atoms
                .iter()
                .position(|a| matches!(a, Atom::Ellipsis { .. })),
            axes,
            left_axes,
            input,
            input_span: left.span,
            output,
        })
    }

    /// The pattern's text.
    ///
    /// ```
    /// # use axial_pattern::{Operation, Pattern, Recipe};
    /// let r = Recipe::new(&Pattern::parse("a b -> b a")?, Operation::Rearrange, &[])?;
    /// assert_eq!(r.pattern(), "a b -> b a");
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The operation.
    ///
    /// ```
    /// # use axial_pattern::{Operation, Pattern, Recipe};
    /// let r = Recipe::new(&Pattern::parse("a -> a b")?, Operation::Repeat, &["b"])?;
    /// assert_eq!(r.operation(), Operation::Repeat);
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn operation(&self) -> Operation {
        self.operation
    }

    /// The axes whose sizes [`Recipe::transform`] takes, in its order.
    ///
    /// ```
    /// # use axial_pattern::{Operation, Pattern, Recipe};
    /// let r = Recipe::new(&Pattern::parse("a -> a b c")?, Operation::Repeat, &["c", "b"])?;
    /// assert_eq!(r.sized_axes(), ["c", "b"]);
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn sized_axes(&self) -> &[String] {
        &self.sized
    }

    /// The slots of the expanded elementary axes that `slot` stands for
    /// (`...` stands for `ellipsis_dims` of them).
    fn expand(&self, slot: usize, ellipsis_dims: usize) -> Range<usize> {
        match self.ellipsis {
            Some(e) if slot == e => e..e + ellipsis_dims,
            Some(e) if slot > e => slot + ellipsis_dims - 1..slot + ellipsis_dims,
            _ => slot..slot + 1,
        }
    }

    /// How many dims `...` covers in a tensor of rank `ndim`.
    fn ellipsis_dims(&self, ndim: usize) -> Result<usize, PatternError> {
        let dims = self.input.len();
        let wrong = |kind| Err(PatternError::at(kind, self.input_span));
        match self.ellipsis {
            Some(_) if ndim + 1 < dims => wrong(ErrorKind::TooFewDims {
                expected: dims - 1,
                got: ndim,
            }),
            Some(_) => Ok(ndim + 1 - dims),
            None if ndim != dims => wrong(ErrorKind::WrongRank {
                expected: dims,
                got: ndim,
            }),
            None => Ok(0),
        }
    }

    /// The steps for an input of `shape`, with `sizes` for
    /// [`Recipe::sized_axes`] in order.
    ///
    /// # Errors
    /// Another number of sizes than the recipe's, a rank that does not fit the
    /// input side, a dim that the known axes of its group do not divide, or
    /// whose known axes multiply to another length (span: the dim).
    ///
    /// ```
    /// # use axial_pattern::{Operation, Pattern, Recipe};
    /// let p = Pattern::parse("(a b) c -> a b c")?;
    /// let r = Recipe::new(&p, Operation::Rearrange, &["b"])?;
    /// assert_eq!(r.transform(&[6, 5], &[2])?.output_shape, [3, 2, 5]);
    /// let err = r.transform(&[6, 5], &[4]).unwrap_err();
    /// assert_eq!(err.to_string(), "Shape mismatch, can't divide axis of length 6 in chunks of 4");
    /// assert_eq!(err.span().map(|s| s.text(p.text())), Some("(a b)"));
    /// assert_eq!(
    ///     r.transform(&[6, 5, 1], &[2]).unwrap_err().to_string(),
    ///     "Wrong shape: expected 2 dims. Received 3-dim tensor."
    /// );
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn transform(&self, shape: &[usize], sizes: &[usize]) -> Result<Transform, PatternError> {
        if sizes.len() != self.sized.len() {
            return Err(PatternError::unplaced(ErrorKind::SizeCount {
                expected: self.sized.len(),
                got: sizes.len(),
            }));
        }
        let ell = self.ellipsis_dims(shape.len())?;
        let lengths = self.lengths(shape, sizes, ell)?;
        let expand = |slots: &[usize]| -> Vec<usize> {
            slots.iter().flat_map(|&s| self.expand(s, ell)).collect()
        };
        let left_total = match self.left_axes {
            0 => 0,
            n => self.expand(n - 1, ell).end,
        };
        let need_init = self.input.iter().any(|(slots, _)| slots.len() != 1);
        let right: Vec<usize> = self.output.iter().flat_map(|d| expand(&d.slots)).collect();
        let kept: Vec<usize> = right.iter().copied().filter(|&a| a < left_total).collect();
        let reduced = (0..left_total).filter(|a| !right.contains(a));
        let permutation: Vec<usize> = kept.iter().copied().chain(reduced).collect();
        let groups: Vec<Vec<usize>> = self
            .output
            .iter()
            .flat_map(|d| match d.bare_ellipsis {
                true => expand(&d.slots).into_iter().map(|a| vec![a]).collect(),
                false => vec![expand(&d.slots)],
            })
            .collect();
        let output_shape: Vec<usize> = groups
            .iter()
            .map(|g| g.iter().map(|&a| lengths[a]).product())
            .collect();
        Ok(Transform {
            init_shape: need_init.then(|| lengths[..left_total].to_vec()),
            reduced_axes: (kept.len()..left_total).collect(),
            permutation: (!permutation.iter().copied().eq(0..left_total)).then_some(permutation),
            added_axes: right
                .iter()
                .enumerate()
                .filter(|&(_, &a)| a >= left_total)
                .map(|(at, &a)| (at, lengths[a]))
                .collect(),
            final_shape: groups
                .iter()
                .any(|g| g.len() != 1)
                .then(|| output_shape.clone()),
            output_shape,
        })
    }

    /// The length of every expanded elementary axis: given, anonymous, or
    /// read off the shape (inferring the one unknown axis of a group).
    fn lengths(
        &self,
        shape: &[usize],
        sizes: &[usize],
        ell: usize,
    ) -> Result<Vec<usize>, PatternError> {
        let mut lengths: Vec<Option<usize>> = Vec::new();
        for (slot, length) in self.axes.iter().enumerate() {
            let value = match *length {
                Length::Fixed(n) => Some(n),
                Length::Sized(i) => Some(sizes[i]),
                Length::Unknown => None,
            };
            lengths.extend(self.expand(slot, ell).map(|_| value));
        }
        let mut dims = shape.iter().copied();
        for (slots, span) in &self.input {
            if slots.first().is_some_and(|&s| self.ellipsis == Some(s)) {
                for (axis, length) in self.expand(slots[0], ell).zip(dims.by_ref()) {
                    lengths[axis] = Some(length);
                }
                continue;
            }
            let length = dims.next().unwrap_or(0);
            let axes: Vec<usize> = slots.iter().map(|&s| self.expand(s, ell).start).collect();
            let known: usize = axes.iter().filter_map(|&a| lengths[a]).product();
            let mismatch = |kind| Err(PatternError::at(kind, *span));
            match axes.iter().find(|&&a| lengths[a].is_none()) {
                None if length != known => {
                    return mismatch(ErrorKind::ShapeMismatch {
                        length,
                        expected: known,
                    });
                }
                None => {}
                Some(_) if known == 0 || length % known != 0 => {
                    return mismatch(ErrorKind::CannotDivide {
                        length,
                        chunk: known,
                    });
                }
                Some(&unknown) => lengths[unknown] = Some(length / known),
            }
        }
        lengths
            .into_iter()
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| {
                PatternError::at(ErrorKind::CannotInfer { axes: Vec::new() }, self.input_span)
            })
    }
}
