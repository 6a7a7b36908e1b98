//! einops' grammar (`parsing.py::ParsedExpression`), scanned the way einops
//! scans it so that the first error found is the one einops reports.

use std::ops::Range;

use crate::{Atom, Dim, ErrorKind, Expression, Pattern, PatternError, Span};

/// What a side's grammar allows beyond einops' defaults.
///
/// # Example
/// ```
/// use axial_pattern::{Expression, Options};
/// let shape = Options { allow_underscore: true, ..Options::default() };
/// assert!(Expression::parse("batch _ h _", shape).is_ok());
/// assert!(Expression::parse("batch _ h", Options::default()).is_err());
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// `_` is an axis name (and may repeat): `parse_shape` and einsum.
    pub allow_underscore: bool,
    /// A name may repeat on one side: einsum inputs (a diagonal).
    pub allow_duplicates: bool,
}

impl Options {
    /// einsum inputs: `_` allowed and repeated names (diagonals) allowed.
    const EINSUM_INPUT: Options = Options {
        allow_underscore: true,
        allow_duplicates: true,
    };
    /// einsum output: `_` allowed.
    const EINSUM_OUTPUT: Options = Options {
        allow_underscore: true,
        allow_duplicates: false,
    };
}

impl Expression {
    /// Parses one side on its own (as `parse_shape` does).
    ///
    /// # Errors
    /// Any error of the grammar, with its span in `text`.
    ///
    /// ```
    /// # use axial_pattern::{Expression, Options};
    /// let e = Expression::parse("b (h w) ...", Options::default())?;
    /// assert_eq!(e.dims.len(), 3);
    /// assert_eq!(
    ///     Expression::parse("b (h (w))", Options::default()).unwrap_err().to_string(),
    ///     "Axis composition is one-level (brackets inside brackets not allowed)"
    /// );
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn parse(text: &str, options: Options) -> Result<Expression, PatternError> {
        parse_side(text, 0..text.len(), options)
    }
}

impl Pattern {
    /// Parses `left -> right` for rearrange, reduce or repeat.
    ///
    /// # Errors
    /// No `->` or more than one, or any error of the grammar on either side
    /// (the left side's first), with its span.
    ///
    /// ```
    /// use axial_pattern::{Pattern, Span};
    /// let p = Pattern::parse("b c (h h1) -> b (c h1) h")?;
    /// assert_eq!(p.input().dims[2].span, Span::new(4, 10));
    /// let err = Pattern::parse("b c -> b (c").unwrap_err();
    /// assert_eq!(err.to_string(), "Imbalanced parentheses in expression: \" b (c\"");
    /// assert_eq!(err.span(), Some(Span::new(9, 10)));
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        let arrow = find_arrow(text, false)?;
        let input = parse_side(text, 0..arrow, Options::default())?;
        let output = parse_side(text, arrow + 2..text.len(), Options::default())?;
        Ok(Pattern {
            text: text.to_owned(),
            inputs: vec![input],
            output,
        })
    }

    /// Parses an einsum pattern: comma-separated inputs, `->`, the output.
    /// `_` is a name, and a name may repeat within an input.
    ///
    /// # Errors
    /// No `->` (einops' einsum message) or more than one, or any error of the
    /// grammar, with its span.
    ///
    /// ```
    /// # use axial_pattern::Pattern;
    /// let p = Pattern::parse_einsum("b i j, b j k -> b i k")?;
    /// assert_eq!(p.inputs().len(), 2);
    /// assert_eq!(
    ///     Pattern::parse_einsum("i j, j k").unwrap_err().to_string(),
    ///     "Einsum pattern must contain '->'."
    /// );
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn parse_einsum(text: &str) -> Result<Pattern, PatternError> {
        let arrow = find_arrow(text, true)?;
        let mut inputs = Vec::new();
        let mut start = 0;
        for end in text[..arrow]
            .match_indices(',')
            .map(|(i, _)| i)
            .chain([arrow])
        {
            inputs.push(parse_side(text, start..end, Options::EINSUM_INPUT)?);
            start = end + 1;
        }
        let output = parse_side(text, arrow + 2..text.len(), Options::EINSUM_OUTPUT)?;
        Ok(Pattern {
            text: text.to_owned(),
            inputs,
            output,
        })
    }
}

/// The byte position of the one `->`.
fn find_arrow(text: &str, einsum: bool) -> Result<usize, PatternError> {
    let mut arrows = text.match_indices("->").map(|(i, _)| i);
    let Some(arrow) = arrows.next() else {
        return Err(PatternError::at(
            ErrorKind::MissingArrow { einsum },
            Span::new(0, text.len()),
        ));
    };
    match arrows.next() {
        Some(second) => Err(PatternError::at(
            ErrorKind::RepeatedArrow,
            Span::new(second, second + 2),
        )),
        None => Ok(arrow),
    }
}

/// einops' first check of a side: dots only as the one `...`.
fn check_dots(side: &str, base: usize) -> Result<(), PatternError> {
    let Some(first_dot) = side.find('.') else {
        return Ok(());
    };
    let dot = |at: usize, len: usize| Span::new(base + at, base + at + len);
    let Some(ellipsis) = side.find("...") else {
        return Err(PatternError::at(
            ErrorKind::DotsOutsideEllipsis,
            dot(first_dot, 1),
        ));
    };
    if side.matches("...").count() == 1 && side.matches('.').count() == 3 {
        return Ok(());
    }
    let stray = side
        .match_indices('.')
        .map(|(i, _)| i)
        .find(|i| !(ellipsis..ellipsis + 3).contains(i))
        .unwrap_or(ellipsis);
    let len = if side[stray..].starts_with("...") {
        3
    } else {
        1
    };
    Err(PatternError::at(ErrorKind::SecondEllipsis, dot(stray, len)))
}

/// Why `name` is not an axis name (einops' `check_axis_name_return_reason`),
/// or `None` when it is one. Python identifiers, approximated by Unicode
/// alphabetic and alphanumeric classes.
pub(crate) fn identifier_problem(name: &str, allow_underscore: bool) -> Option<&'static str> {
    let mut chars = name.chars();
    let first = chars.next()?;
    let is_identifier =
        (first.is_alphabetic() || first == '_') && chars.all(|c| c.is_alphanumeric() || c == '_');
    if !is_identifier {
        return Some("not a valid python identifier");
    }
    if (name.starts_with('_') || name.ends_with('_')) && !(name == "_" && allow_underscore) {
        return Some("axis name should should not start or end with underscore");
    }
    None
}

/// The state of one side's scan.
struct Scanner<'t> {
    text: &'t str,
    options: Options,
    dims: Vec<Dim>,
    /// The open `(` and the axes of its group so far.
    group: Option<(usize, Vec<Atom>)>,
    names: Vec<&'t str>,
}

fn parse_side(
    text: &str,
    range: Range<usize>,
    options: Options,
) -> Result<Expression, PatternError> {
    let side = &text[range.clone()];
    check_dots(side, range.start)?;
    let mut scan = Scanner {
        text,
        options,
        dims: Vec::new(),
        group: None,
        names: Vec::new(),
    };
    let mut word: Option<usize> = None;
    for (i, c) in side.char_indices() {
        let at = range.start + i;
        match c {
            '(' | ')' | ' ' => {
                if let Some(start) = word.take() {
                    scan.add_word(start, at)?;
                }
                match c {
                    '(' => scan.open(at)?,
                    ')' => scan.close(at)?,
                    _ => {}
                }
            }
            c if c.is_alphanumeric() || c == '_' || c == '.' => {
                word.get_or_insert(at);
            }
            c => {
                return Err(PatternError::at(
                    ErrorKind::UnknownCharacter(c),
                    Span::new(at, at + c.len_utf8()),
                ));
            }
        }
    }
    if let Some((open, _)) = scan.group {
        return Err(PatternError::at(
            ErrorKind::ImbalancedParentheses {
                expression: side.replace("...", "…"),
            },
            Span::new(open, open + 1),
        ));
    }
    if let Some(start) = word {
        scan.add_word(start, range.end)?;
    }
    Ok(Expression {
        dims: scan.dims,
        span: Span::new(range.start, range.end),
    })
}

impl<'t> Scanner<'t> {
    fn open(&mut self, at: usize) -> Result<(), PatternError> {
        if self.group.is_some() {
            return Err(PatternError::at(
                ErrorKind::NestedBrackets,
                Span::new(at, at + 1),
            ));
        }
        self.group = Some((at, Vec::new()));
        Ok(())
    }

    fn close(&mut self, at: usize) -> Result<(), PatternError> {
        let Some((open, atoms)) = self.group.take() else {
            return Err(PatternError::at(
                ErrorKind::UnbalancedBrackets,
                Span::new(at, at + 1),
            ));
        };
        self.dims.push(Dim {
            atoms,
            parenthesized: true,
            span: Span::new(open, at + 1),
        });
        Ok(())
    }

    /// An axis into the open group, or as a dim of its own.
    fn push(&mut self, atom: Atom) {
        match &mut self.group {
            Some((_, atoms)) => atoms.push(atom),
            None => self.dims.push(Dim {
                span: atom.span(),
                atoms: vec![atom],
                parenthesized: false,
            }),
        }
    }

    /// einops' `add_axis_name`.
    fn add_word(&mut self, start: usize, end: usize) -> Result<(), PatternError> {
        let word = &self.text[start..end];
        let span = Span::new(start, end);
        let may_repeat =
            self.options.allow_duplicates || (self.options.allow_underscore && word == "_");
        if !may_repeat && self.names.contains(&word) {
            return Err(PatternError::at(
                ErrorKind::DuplicateDimension {
                    name: word.to_owned(),
                },
                span,
            ));
        }
        if word == "..." {
            self.push(Atom::Ellipsis { span });
        } else if word == "1" {
            if self.group.is_none() {
                self.dims.push(Dim {
                    atoms: Vec::new(),
                    parenthesized: false,
                    span,
                });
            }
        } else if word.bytes().all(|b| b.is_ascii_digit()) {
            let size = anonymous_length(word).map_err(|kind| PatternError::at(kind, span))?;
            self.push(Atom::Anonymous { size, span });
        } else {
            if let Some(reason) = identifier_problem(word, self.options.allow_underscore) {
                return Err(PatternError::at(
                    ErrorKind::InvalidIdentifier {
                        name: word.replace("...", "…"),
                        reason,
                    },
                    span,
                ));
            }
            self.names.push(word);
            self.push(Atom::Named {
                name: word.to_owned(),
                span,
            });
        }
        Ok(())
    }
}

/// The length of an anonymous axis (`AnonymousAxis.__init__`).
fn anonymous_length(digits: &str) -> Result<usize, ErrorKind> {
    match digits.parse::<usize>() {
        Ok(0) => Err(ErrorKind::ZeroAnonymousAxis),
        Ok(1) => Err(ErrorKind::AnonymousAxisOfLengthOne),
        Ok(n) => Ok(n),
        Err(_) => Err(ErrorKind::AnonymousAxisTooLong {
            digits: digits.to_owned(),
        }),
    }
}
