//! The parsed pattern: sides made of dims, dims made of elementary axes, each
//! with its byte span.

use crate::Span;

/// One elementary axis of a side.
///
/// ```
/// # use axial_pattern::{Atom, Pattern, Span};
/// let p = Pattern::parse("b 3 ... -> b")?;
/// let atoms: Vec<&Atom> = p.input().atoms().collect();
/// assert_eq!(atoms[0], &Atom::Named { name: "b".into(), span: Span::new(0, 1) });
/// assert_eq!(atoms[1], &Atom::Anonymous { size: 3, span: Span::new(2, 3) });
/// assert_eq!(atoms[2], &Atom::Ellipsis { span: Span::new(4, 7) });
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A named axis (`b`, `Batch`, or `_` where the grammar allows it).
    Named {
        /// The name.
        name: String,
        /// Where it is.
        span: Span,
    },
    /// An anonymous axis of a given length (an integer of 2 or more). Two
    /// anonymous axes are never the same axis, whatever their lengths.
    Anonymous {
        /// The length.
        size: usize,
        /// Where it is.
        span: Span,
    },
    /// `...`: every dim the other axes leave over.
    Ellipsis {
        /// Where it is.
        span: Span,
    },
}

impl Atom {
    /// Where the axis is in the pattern.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse("a b -> b a")?;
    /// assert_eq!(p.input().dims[1].atoms[0].span().text(p.text()), "b");
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn span(&self) -> Span {
        match self {
            Atom::Named { span, .. } | Atom::Anonymous { span, .. } | Atom::Ellipsis { span } => {
                *span
            }
        }
    }

    /// The name of a named axis.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse("a ... -> a")?;
    /// let atoms: Vec<_> = p.input().atoms().map(|a| a.name()).collect();
    /// assert_eq!(atoms, [Some("a"), None]);
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn name(&self) -> Option<&str> {
        match self {
            Atom::Named { name, .. } => Some(name),
            _ => None,
        }
    }
}

/// One dim of a side: a bare axis, a parenthesised group composed in C order,
/// a unit dim (`1` or `()`, no atoms), or a bare `...` (any number of dims).
///
/// ```
/// # use axial_pattern::{Dim, Pattern};
/// let p = Pattern::parse("(h 1 w) () c -> h w c")?;
/// let dims: &[Dim] = &p.input().dims;
/// assert_eq!((dims[0].atoms.len(), dims[0].parenthesized), (2, true));
/// assert_eq!(dims[0].span.text(p.text()), "(h 1 w)");
/// assert!(dims[1].atoms.is_empty());
/// assert!(!dims[2].parenthesized);
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dim {
    /// The elementary axes, outermost first (a `1` inside a group is dropped).
    pub atoms: Vec<Atom>,
    /// True for a `( )` group, even of one axis.
    pub parenthesized: bool,
    /// The token or the whole group, brackets included.
    pub span: Span,
}

impl Dim {
    /// True for a bare `...`, which stands for zero or more dims.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse("a ... -> (a ...)")?;
    /// assert!(p.input().dims[1].is_ellipsis());
    /// assert!(!p.output().dims[0].is_ellipsis());
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn is_ellipsis(&self) -> bool {
        !self.parenthesized && matches!(self.atoms.as_slice(), [Atom::Ellipsis { .. }])
    }
}

/// One side of a pattern (`b c (h w)`).
///
/// ```
/// # use axial_pattern::{Expression, Pattern};
/// let p = Pattern::parse("b c (h w) -> b h w c")?;
/// let side: &Expression = p.input();
/// assert_eq!(side.dims.len(), 3);
/// assert_eq!(side.span.text(p.text()), "b c (h w) ");
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expression {
    /// The dims, left to right.
    pub dims: Vec<Dim>,
    /// The side's text, spaces included.
    pub span: Span,
}

impl Expression {
    /// Every elementary axis, left to right.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse("b (h 2) 1 -> b h")?;
    /// assert_eq!(p.input().atoms().count(), 3);
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn atoms(&self) -> impl Iterator<Item = &Atom> {
        self.dims.iter().flat_map(|d| d.atoms.iter())
    }

    /// The names of the named axes, left to right.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse("Batch (H P) -> Batch H P")?;
    /// assert_eq!(p.input().names().collect::<Vec<_>>(), ["Batch", "H", "P"]);
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.atoms().filter_map(Atom::name)
    }

    /// The `...` of this side and whether it is inside a group.
    ///
    /// ```
    /// # use axial_pattern::{Pattern, Span};
    /// let p = Pattern::parse("a ... -> a (...)")?;
    /// assert_eq!(p.input().ellipsis(), Some((Span::new(2, 5), false)));
    /// assert_eq!(p.output().ellipsis().map(|e| e.1), Some(true));
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn ellipsis(&self) -> Option<(Span, bool)> {
        self.dims.iter().find_map(|d| {
            d.atoms.iter().find_map(|a| match a {
                Atom::Ellipsis { span } => Some((*span, d.parenthesized)),
                _ => None,
            })
        })
    }

    /// True when the side has a `...`.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// assert!(Pattern::parse("... c -> c ...")?.input().has_ellipsis());
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn has_ellipsis(&self) -> bool {
        self.ellipsis().is_some()
    }

    /// True when some group composes more than one axis.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse("(a 1) (b c) -> a b c")?;
    /// assert!(p.input().has_composed_axes());
    /// assert!(!p.output().has_composed_axes());
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn has_composed_axes(&self) -> bool {
        self.dims.iter().any(|d| d.atoms.len() > 1)
    }
}

/// A whole pattern: one input side (several for einsum), `->`, one output side.
/// Built only by [`Pattern::parse`] and [`Pattern::parse_einsum`], so it
/// always has at least one input.
///
/// ```
/// # use axial_pattern::Pattern;
/// let p = Pattern::parse("b (h w) -> b h w")?;
/// assert_eq!(p.inputs().len(), 1);
/// assert_eq!(p.output().names().collect::<Vec<_>>(), ["b", "h", "w"]);
/// assert!(Pattern::parse("b h w").is_err());
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    pub(crate) text: String,
    pub(crate) inputs: Vec<Expression>,
    pub(crate) output: Expression,
}

impl Pattern {
    /// The text that was parsed; every span indexes it.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse("h w -> w h")?;
    /// assert_eq!(p.output().span.text(p.text()), " w h");
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The input sides (exactly one unless parsed with [`Pattern::parse_einsum`]).
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// assert_eq!(Pattern::parse_einsum("i j, j k -> i k")?.inputs().len(), 2);
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn inputs(&self) -> &[Expression] {
        &self.inputs
    }

    /// The first (for rearrange, reduce and repeat: the only) input side.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse("h w -> w h")?;
    /// assert_eq!(p.input().dims.len(), 2);
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn input(&self) -> &Expression {
        &self.inputs[0]
    }

    /// The output side.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse("h w -> (w h)")?;
    /// assert!(p.output().dims[0].parenthesized);
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn output(&self) -> &Expression {
        &self.output
    }
}
