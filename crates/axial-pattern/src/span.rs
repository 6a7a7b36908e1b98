//! Byte ranges of the pattern text, so that an error can point at its token.

use std::ops::Range;

/// A byte range `start..end` of the text that was parsed (the whole pattern,
/// commas and arrow included).
///
/// # Example
/// ```
/// use axial_pattern::Span;
/// let s = Span::new(2, 5);
/// assert_eq!(s.text("a (b c) -> a"), "(b ");
/// assert_eq!(s.join(Span::new(6, 7)), Span::new(2, 7));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    ///
    /// ```
    /// # use axial_pattern::Span;
    /// assert_eq!(Span::new(1, 3).range(), 1..3);
    /// ```
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    ///
    /// ```
    /// # use axial_pattern::Span;
    /// assert_eq!(Span::new(4, 5).join(Span::new(0, 1)), Span::new(0, 5));
    /// ```
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The byte range.
    ///
    /// ```
    /// # use axial_pattern::Span;
    /// assert_eq!(Span::new(0, 2).range(), 0..2);
    /// ```
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// The spanned text of `source` (empty when the span is not inside it).
    ///
    /// ```
    /// # use axial_pattern::Span;
    /// assert_eq!(Span::new(0, 1).text("b c -> c b"), "b");
    /// ```
    pub fn text(self, source: &str) -> &str {
        source.get(self.range()).unwrap_or("")
    }
}
