//! The entries of `s!`, with their spans: `..`, `a..b`, `a..`, `..b`,
//! `a..=b`, each with an optional `;step`, or an index.

use proc_macro2::TokenStream;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, RangeLimits, Token};

/// An entry as written.
pub(crate) enum Entry {
    /// An index: the axis is dropped.
    Index(Box<Expr>),
    /// A range with an optional step.
    Range {
        start: Option<Box<Expr>>,
        end: Option<Box<Expr>>,
        inclusive: bool,
        step: Option<Box<Expr>>,
        span: proc_macro2::Span,
    },
    /// An index followed by `;step`: a mistake [`validate`](super::validate) reports.
    SteppedIndex(Box<Expr>),
}

pub(crate) fn entries(body: TokenStream) -> syn::Result<Vec<Entry>> {
    let parser = Punctuated::<Entry, Token![,]>::parse_terminated;
    Ok(parser.parse2(body)?.into_iter().collect())
}

impl syn::parse::Parse for Entry {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let expr: Expr = input.parse()?;
        let step = match input.peek(Token![;]) {
            true => {
                input.parse::<Token![;]>()?;
                Some(input.parse()?)
            }
            false => None,
        };
        Ok(match (unwrap(expr), step) {
            (Expr::Range(range), step) => {
                let span = syn::spanned::Spanned::span(&range);
                Entry::Range {
                    start: range.start,
                    end: range.end,
                    inclusive: matches!(range.limits, RangeLimits::Closed(_)),
                    step: step.map(Box::new),
                    span,
                }
            }
            (index, None) => Entry::Index(Box::new(index)),
            (index, Some(_)) => Entry::SteppedIndex(Box::new(index)),
        })
    }
}

/// The expression inside invisible groups and parentheses (what a
/// `macro_rules!` `$e:expr` becomes).
pub(crate) fn unwrap(expr: Expr) -> Expr {
    match expr {
        Expr::Group(g) => unwrap(*g.expr),
        Expr::Paren(p) => unwrap(*p.expr),
        other => other,
    }
}
