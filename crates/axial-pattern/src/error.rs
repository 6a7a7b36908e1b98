//! Every error einops raises for a pattern, with einops' wording and the span
//! of the token it concerns.

use std::fmt;

use crate::{Reduction, Span};

/// An axis as einops prints it inside a set: `'b'`, `2-axis`, `'…'`.
///
/// # Example
/// ```
/// use axial_pattern::AxisName;
/// assert_eq!(AxisName::Named("b".into()).to_string(), "'b'");
/// assert_eq!(AxisName::Anonymous(2).to_string(), "2-axis");
/// assert_eq!(AxisName::Ellipsis.to_string(), "'…'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AxisName {
    /// A named axis.
    Named(String),
    /// An anonymous axis of this length.
    Anonymous(usize),
    /// The `...`.
    Ellipsis,
}

impl fmt::Display for AxisName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AxisName::Named(name) => write!(f, "'{name}'"),
            AxisName::Anonymous(size) => write!(f, "{size}-axis"),
            AxisName::Ellipsis => f.write_str("'…'"),
        }
    }
}

/// Axes printed as a Python set, in the order they appear in the pattern.
struct AxisSet<'a>(&'a [AxisName]);

impl fmt::Display for AxisSet<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, axis) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{axis}")?;
        }
        f.write_str("}")
    }
}

/// What is wrong; the `Display` of each is einops' message (or, where einops
/// has none because Python raises a generic error, a message in its style).
///
/// ```
/// # use axial_pattern::{ErrorKind, Pattern};
/// let err = Pattern::parse("a b").unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::MissingArrow { einsum: false });
/// assert_eq!(err.kind().to_string(), "Pattern must contain '->'.");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// No `->` (`einsum` says so in its own words).
    MissingArrow {
        /// True for an einsum pattern.
        einsum: bool,
    },
    /// More than one `->`.
    RepeatedArrow,
    /// A `.` where there is no `...` at all.
    DotsOutsideEllipsis,
    /// Dots besides one `...` (a second ellipsis, or stray dots).
    SecondEllipsis,
    /// A character that is not part of an axis, a bracket or a space.
    UnknownCharacter(char),
    /// `(` inside a group.
    NestedBrackets,
    /// `)` without a group to close.
    UnbalancedBrackets,
    /// A group still open at the end of a side.
    ImbalancedParentheses {
        /// The side's text, `...` written `…` as einops shows it.
        expression: String,
    },
    /// A word that is not an axis name.
    InvalidIdentifier {
        /// The word, `...` written `…` as einops shows it.
        name: String,
        /// Why (einops' reason).
        reason: &'static str,
    },
    /// An anonymous axis written with leading zeros that is of length 1 (`01`).
    AnonymousAxisOfLengthOne,
    /// The anonymous axis `0`.
    ZeroAnonymousAxis,
    /// An anonymous axis too long to be a length.
    AnonymousAxisTooLong {
        /// The digits.
        digits: String,
    },
    /// One name twice on one side.
    DuplicateDimension {
        /// The name.
        name: String,
    },
    /// `...` on the right only.
    EllipsisOnlyOnRight {
        /// The pattern.
        pattern: String,
    },
    /// `(...)` on the left.
    EllipsisInParenthesis {
        /// The pattern.
        pattern: String,
    },
    /// An anonymous axis of length 2 or more in rearrange.
    NonUnitaryAnonymousAxes,
    /// Rearrange axes on one side only.
    OneSidedIdentifiers {
        /// The axes.
        axes: Vec<AxisName>,
    },
    /// Repeat axes on the left only.
    UnexpectedLeftOfRepeat {
        /// The axes.
        axes: Vec<AxisName>,
    },
    /// Repeat's new axes without a size.
    MissingRepeatSizes {
        /// The axes.
        axes: Vec<AxisName>,
    },
    /// Reduce axes on the right only.
    UnexpectedRightOfReduce {
        /// The reduction.
        reduction: Reduction,
        /// The axes.
        axes: Vec<AxisName>,
    },
    /// A reduction name that is not one of einops'.
    UnknownReduction {
        /// The name given.
        name: String,
    },
    /// A size given for a name that is not an axis name.
    InvalidSizeName {
        /// The name.
        name: String,
    },
    /// A size given for an axis the pattern does not have.
    UnusedSize {
        /// The name.
        name: String,
    },
    /// One axis given two sizes.
    RepeatedSize {
        /// The name.
        name: String,
    },
    /// An input group with more than one axis of unknown length.
    CannotInfer {
        /// The unknown axes.
        axes: Vec<AxisName>,
    },
    /// Fewer or more sizes than the recipe was built for.
    SizeCount {
        /// Sizes the recipe names.
        expected: usize,
        /// Sizes given.
        got: usize,
    },
    /// A tensor of another rank than the input side (no ellipsis).
    WrongRank {
        /// The input side's dims.
        expected: usize,
        /// The tensor's rank.
        got: usize,
    },
    /// A tensor of lower rank than the input side's other dims (with ellipsis).
    TooFewDims {
        /// The input side's dims besides `...`.
        expected: usize,
        /// The tensor's rank.
        got: usize,
    },
    /// A dim that the known axes of its group do not divide.
    CannotDivide {
        /// The dim's length.
        length: usize,
        /// The product of the known axes.
        chunk: usize,
    },
    /// A dim whose axes are all known but multiply to another length.
    ShapeMismatch {
        /// The dim's length.
        length: usize,
        /// The product of its axes.
        expected: usize,
    },
    /// A unit dim (`1`, `()`) in einsum.
    EinsumSingleton,
    /// A group in einsum.
    EinsumRearrangement,
    /// An anonymous axis in einsum.
    EinsumAnonymous,
    /// An einsum output axis that no input has.
    UnknownEinsumAxis {
        /// The axis.
        name: String,
        /// The pattern.
        pattern: String,
    },
    /// A bare axis of the left side on a tensor axis of another name (a
    /// tensor with names, see [`Pattern::check_names`](crate::Pattern::check_names)).
    AxisNameDiffers {
        /// The pattern's name.
        pattern: String,
        /// The tensor's axis there.
        axis: String,
    },
    /// A group of the left side on a named axis with a part that is another
    /// axis' name, or on a composed axis neither its parts nor new names (see
    /// [`Pattern::check_names`](crate::Pattern::check_names)).
    GroupWithoutAxis {
        /// The group as written, `(W P)`.
        group: String,
        /// The tensor's axis there.
        axis: String,
    },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ErrorKind::*;
        match self {
            MissingArrow { einsum: true } => f.write_str("Einsum pattern must contain '->'."),
            MissingArrow { einsum: false } => f.write_str("Pattern must contain '->'."),
            RepeatedArrow => f.write_str("Pattern must contain '->' only once."),
            DotsOutsideEllipsis => {
                f.write_str("Expression may contain dots only inside ellipsis (...)")
            }
            SecondEllipsis => f.write_str(
                "Expression may contain dots only inside ellipsis (...); only one ellipsis for tensor ",
            ),
            UnknownCharacter(c) => write!(f, "Unknown character '{c}'"),
            NestedBrackets => {
                f.write_str("Axis composition is one-level (brackets inside brackets not allowed)")
            }
            UnbalancedBrackets => f.write_str("Brackets are not balanced"),
            ImbalancedParentheses { expression } => {
                write!(f, "Imbalanced parentheses in expression: \"{expression}\"")
            }
            InvalidIdentifier { name, reason } => {
                write!(f, "Invalid axis identifier: {name}\n{reason}")
            }
            AnonymousAxisOfLengthOne => f.write_str(
                "No need to create anonymous axis of length 1. Report this as an issue",
            ),
            ZeroAnonymousAxis => f.write_str("Anonymous axis should have positive length, not 0"),
            AnonymousAxisTooLong { digits } => {
                write!(f, "Anonymous axis {digits} is too long to be a length")
            }
            DuplicateDimension { name } => {
                write!(f, "Indexing expression contains duplicate dimension \"{name}\"")
            }
            EllipsisOnlyOnRight { pattern } => write!(
                f,
                "Ellipsis found in right side, but not left side of a pattern {pattern}"
            ),
            EllipsisInParenthesis { pattern } => write!(
                f,
                "Ellipsis inside parenthesis in the left side is not allowed: {pattern}"
            ),
            NonUnitaryAnonymousAxes => f.write_str(
                "Non-unitary anonymous axes are not supported in rearrange (exception is length 1)",
            ),
            OneSidedIdentifiers { axes } => write!(
                f,
                "Identifiers only on one side of expression (should be on both): {}",
                AxisSet(axes)
            ),
            UnexpectedLeftOfRepeat { axes } => write!(
                f,
                "Unexpected identifiers on the left side of repeat: {}",
                AxisSet(axes)
            ),
            MissingRepeatSizes { axes } => {
                write!(f, "Specify sizes for new axes in repeat: {}", AxisSet(axes))
            }
            UnexpectedRightOfReduce { reduction, axes } => write!(
                f,
                "Unexpected identifiers on the right side of reduce {}: {}",
                reduction.name(),
                AxisSet(axes)
            ),
            UnknownReduction { name } => write!(
                f,
                "Unknown reduction {name}. Expect one of ('min', 'max', 'sum', 'mean', 'prod', 'any', 'all')."
            ),
            InvalidSizeName { name } => write!(f, "('Invalid name for an axis', '{name}')"),
            UnusedSize { name } => write!(f, "Axis {name} is not used in transform"),
            RepeatedSize { name } => write!(f, "Axis {name} is given a size more than once"),
            CannotInfer { axes } => write!(f, "Could not infer sizes for {}", AxisSet(axes)),
            SizeCount { expected, got } => {
                write!(f, "Expected sizes of {expected} axes, got {got}")
            }
            WrongRank { expected, got } => write!(
                f,
                "Wrong shape: expected {expected} dims. Received {got}-dim tensor."
            ),
            TooFewDims { expected, got } => write!(
                f,
                "Wrong shape: expected >={expected} dims. Received {got}-dim tensor."
            ),
            CannotDivide { length, chunk } => write!(
                f,
                "Shape mismatch, can't divide axis of length {length} in chunks of {chunk}"
            ),
            ShapeMismatch { length, expected } => {
                write!(f, "Shape mismatch, {length} != {expected}")
            }
            EinsumSingleton => f.write_str("Singleton () axes are not yet supported in einsum."),
            EinsumRearrangement => {
                f.write_str("Shape rearrangement is not yet supported in einsum.")
            }
            EinsumAnonymous => f.write_str("Anonymous axes are not yet supported in einsum."),
            UnknownEinsumAxis { name, pattern } => {
                write!(f, "Unknown axis {name} on right side of einsum {pattern}.")
            }
            AxisNameDiffers { pattern, axis } => write!(
                f,
                "the pattern names axis `{pattern}` where the tensor has `{axis}`: the left side names the tensor's axes in order"
            ),
            GroupWithoutAxis { group, axis } if axis.starts_with('(') => write!(
                f,
                "the group {group} splits the composed axis `{axis}`, but is not its parts in order: write {axis}, or use names the tensor does not have"
            ),
            GroupWithoutAxis { group, axis } => write!(
                f,
                "the group {group} splits axis `{axis}`, but uses a name of another of the tensor's axes: make it of `{axis}` and names the tensor does not have, as ({axis} ..)"
            ),
        }
    }
}

/// A pattern error: what ([`ErrorKind`], whose `Display` is the message) and
/// where (the span of the token it concerns, when it concerns one; errors about
/// the sizes given or the reduction name have none).
///
/// # Example
/// ```
/// use axial_pattern::{Pattern, Span};
/// let err = Pattern::parse("a b a -> a b").unwrap_err();
/// assert_eq!(err.to_string(), "Indexing expression contains duplicate dimension \"a\"");
/// assert_eq!(err.span(), Some(Span::new(4, 5)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    kind: ErrorKind,
    span: Option<Span>,
}

impl PatternError {
    /// An error about the token at `span`.
    ///
    /// ```
    /// # use axial_pattern::{ErrorKind, PatternError, Span};
    /// let e = PatternError::at(ErrorKind::NestedBrackets, Span::new(3, 4));
    /// assert_eq!(e.span(), Some(Span::new(3, 4)));
    /// ```
    pub fn at(kind: ErrorKind, span: Span) -> Self {
        PatternError {
            kind,
            span: Some(span),
        }
    }

    /// An error about something outside the pattern (the sizes, the reduction).
    ///
    /// ```
    /// # use axial_pattern::{ErrorKind, PatternError};
    /// let e = PatternError::unplaced(ErrorKind::UnusedSize { name: "e".into() });
    /// assert_eq!(e.to_string(), "Axis e is not used in transform");
    /// ```
    pub fn unplaced(kind: ErrorKind) -> Self {
        PatternError { kind, span: None }
    }

    /// What is wrong.
    ///
    /// ```
    /// # use axial_pattern::{ErrorKind, Pattern};
    /// let err = Pattern::parse("a -> (a").unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::ImbalancedParentheses { .. }));
    /// ```
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The span of the token concerned, if any.
    ///
    /// ```
    /// # use axial_pattern::{Pattern, Span};
    /// let err = Pattern::parse("a - b -> a").unwrap_err();
    /// assert_eq!(err.span(), Some(Span::new(2, 3)));
    /// ```
    pub fn span(&self) -> Option<Span> {
        self.span
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for PatternError {}
