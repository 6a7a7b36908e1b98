//! The entries of `s!` checked: literal steps positive (Python's words for
//! the others), an index without a step; literals read as numbers.

use proc_macro2::Span;
use syn::{Expr, ExprLit, ExprUnary, Lit, UnOp};

use super::parse::{Entry, unwrap};

/// A bound, index or step: a literal the compiler knows, or an expression.
pub(crate) enum Value {
    Literal(i64),
    Runtime(Box<Expr>),
}

/// A checked entry.
pub(crate) enum Checked {
    Index(Value),
    Range {
        start: Option<Value>,
        end: Option<Value>,
        /// True for a run-time end written `..=end`.
        end_inclusive: bool,
        step: Value,
    },
}

pub(crate) fn check(entries: Vec<Entry>) -> syn::Result<Vec<Checked>> {
    entries.into_iter().map(entry).collect()
}

fn entry(entry: Entry) -> syn::Result<Checked> {
    match entry {
        Entry::Index(index) => Ok(Checked::Index(value(*index)?)),
        Entry::SteppedIndex(index) => Err(syn::Error::new_spanned(
            index,
            "an index takes no step: write a range (`a..b;step`)",
        )),
        Entry::Range {
            start,
            end,
            inclusive,
            step,
            span,
        } => {
            let step_span = step.as_ref().map_or(span, syn::spanned::Spanned::span);
            let step = match step {
                Some(step) => value(*step)?,
                None => Value::Literal(1),
            };
            if let Value::Literal(n) = step {
                positive_step(n, step_span)?;
            }
            let end = end.map(|e| value(*e)).transpose()?;
            let end_inclusive = inclusive && matches!(end, Some(Value::Runtime(_)));
            Ok(Checked::Range {
                start: start.map(|e| value(*e)).transpose()?,
                end: match (inclusive, end) {
                    (true, Some(Value::Literal(-1))) => None,
                    (true, Some(Value::Literal(n))) => Some(Value::Literal(n + 1)),
                    (_, end) => end,
                },
                end_inclusive,
                step,
            })
        }
    }
}

/// Python's refusals of a step.
fn positive_step(step: i64, span: Span) -> syn::Result<()> {
    match step {
        0 => Err(syn::Error::new(span, "slice step cannot be zero")),
        n if n < 0 => Err(syn::Error::new(span, "step must be greater than zero")),
        _ => Ok(()),
    }
}

/// A literal integer (possibly negated), or the expression.
fn value(expr: Expr) -> syn::Result<Value> {
    match unwrap(expr) {
        Expr::Lit(ExprLit {
            lit: Lit::Int(lit), ..
        }) => Ok(Value::Literal(lit.base10_parse()?)),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) if matches!(
            unwrap((*expr).clone()),
            Expr::Lit(ExprLit {
                lit: Lit::Int(_),
                ..
            })
        ) =>
        {
            match value(*expr)? {
                Value::Literal(n) => Ok(Value::Literal(-n)),
                Value::Runtime(e) => Ok(Value::Runtime(e)),
            }
        }
        other => Ok(Value::Runtime(Box::new(other))),
    }
}
