//! einops' einsum patterns: each dim one named axis or `...`
//! (`_compactify_pattern_for_einsum`).

use crate::{Atom, Dim, ErrorKind, Pattern, PatternError, Span};

/// One subscript of an einsum side.
///
/// ```
/// # use axial_pattern::{Einsum, Pattern, Span, Subscript};
/// let e = Einsum::new(&Pattern::parse_einsum("i ..., i -> ...")?)?;
/// assert_eq!(e.inputs[0][0], Subscript::Label { name: "i".into(), span: Span::new(0, 1) });
/// assert_eq!(e.output, [Subscript::Ellipsis { span: Span::new(12, 15) }]);
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Subscript {
    /// A named axis.
    Label {
        /// The name.
        name: String,
        /// Where it is.
        span: Span,
    },
    /// `...`: the broadcast dims.
    Ellipsis {
        /// Where it is.
        span: Span,
    },
}

impl Subscript {
    /// The name of a label.
    ///
    /// ```
    /// # use axial_pattern::{Einsum, Pattern};
    /// let e = Einsum::new(&Pattern::parse_einsum("i ... -> i")?)?;
    /// assert_eq!(e.inputs[0][0].name(), Some("i"));
    /// assert_eq!(e.inputs[0][1].name(), None);
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn name(&self) -> Option<&str> {
        match self {
            Subscript::Label { name, .. } => Some(name),
            Subscript::Ellipsis { .. } => None,
        }
    }
}

/// A checked einsum pattern: the subscripts of every input and of the output.
///
/// # Example
/// ```
/// use axial_pattern::{Einsum, Pattern};
/// let e = Einsum::new(&Pattern::parse_einsum("b i j, b j k -> b i k")?)?;
/// assert_eq!(e.inputs.len(), 2);
/// assert_eq!(e.output.len(), 3);
/// let err = Einsum::new(&Pattern::parse_einsum("i j -> i k")?).unwrap_err();
/// assert_eq!(err.to_string(), "Unknown axis k on right side of einsum i j -> i k.");
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Einsum {
    /// Each input's subscripts (a name may repeat: a diagonal).
    pub inputs: Vec<Vec<Subscript>>,
    /// The output's subscripts.
    pub output: Vec<Subscript>,
}

impl Einsum {
    /// Checks a pattern parsed with [`Pattern::parse_einsum`], as einops does
    /// before handing it to the backend.
    ///
    /// # Errors
    /// A unit dim (`1`, `()`), a group of several axes (or of `...`), an
    /// anonymous axis, or an output axis that no input has.
    ///
    /// ```
    /// # use axial_pattern::{Einsum, Pattern};
    /// let err = Einsum::new(&Pattern::parse_einsum("(a b) -> a")?).unwrap_err();
    /// assert_eq!(err.to_string(), "Shape rearrangement is not yet supported in einsum.");
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn new(pattern: &Pattern) -> Result<Einsum, PatternError> {
        let inputs = pattern
            .inputs()
            .iter()
            .map(|side| side.dims.iter().map(subscript).collect())
            .collect::<Result<Vec<Vec<Subscript>>, PatternError>>()?;
        let mut output = Vec::new();
        for dim in &pattern.output().dims {
            let s = subscript(dim)?;
            if let Subscript::Label { name, span } = &s {
                let known = inputs.iter().flatten().any(|i| i.name() == Some(name));
                if !known {
                    return Err(PatternError::at(
                        ErrorKind::UnknownEinsumAxis {
                            name: name.clone(),
                            pattern: pattern.text().to_owned(),
                        },
                        *span,
                    ));
                }
            }
            output.push(s);
        }
        Ok(Einsum { inputs, output })
    }
}

/// einops' `_validate_einsum_axis_name` of one dim.
fn subscript(dim: &Dim) -> Result<Subscript, PatternError> {
    let refuse = |kind| Err(PatternError::at(kind, dim.span));
    match dim.atoms.as_slice() {
        [] => refuse(ErrorKind::EinsumSingleton),
        [Atom::Ellipsis { span }] if !dim.parenthesized => Ok(Subscript::Ellipsis { span: *span }),
        [Atom::Named { name, span }] => Ok(Subscript::Label {
            name: name.clone(),
            span: *span,
        }),
        [Atom::Anonymous { .. }] => refuse(ErrorKind::EinsumAnonymous),
        _ => refuse(ErrorKind::EinsumRearrangement),
    }
}
