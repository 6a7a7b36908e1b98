//! The arguments of `rearrange!`, `reduce!`, `repeat!` and `einsum!`, with
//! their spans.

use proc_macro2::TokenStream;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, LitStr, Token};

use super::Kind;

/// A size given after the pattern: `P = 2` or `P = n`.
pub(crate) struct SizeArg {
    pub(crate) name: Ident,
    pub(crate) value: SizeValue,
}

/// A size: a literal the compiler knows, or an expression evaluated at run time.
pub(crate) enum SizeValue {
    Literal(syn::LitInt),
    Runtime(Box<Expr>),
}

/// What a macro was given.
pub(crate) struct Args {
    /// The tensors: one for rearrange, reduce and repeat, any number for einsum.
    pub(crate) tensors: Vec<Expr>,
    /// The pattern literal.
    pub(crate) pattern: LitStr,
    /// The reduction of `reduce!`.
    pub(crate) reduction: Option<Ident>,
    /// The sizes given.
    pub(crate) sizes: Vec<SizeArg>,
}

/// `x, "pattern", [reduction,] sizes...` or, for einsum, `"pattern", a, b, ...`.
pub(crate) fn args(kind: Kind, body: TokenStream) -> syn::Result<Args> {
    let parser = |input: ParseStream<'_>| {
        if kind == Kind::Einsum {
            let pattern: LitStr = input.parse()?;
            let mut tensors = Vec::new();
            while !input.is_empty() {
                input.parse::<Token![,]>()?;
                if input.is_empty() {
                    break;
                }
                tensors.push(input.parse()?);
            }
            return Ok(Args {
                tensors,
                pattern,
                reduction: None,
                sizes: Vec::new(),
            });
        }
        let tensor: Expr = input.parse()?;
        input.parse::<Token![,]>()?;
        let pattern: LitStr = input.parse()?;
        let mut reduction = None;
        if kind == Kind::Reduce {
            input.parse::<Token![,]>()?;
            reduction = Some(input.parse()?);
        }
        let mut sizes = Vec::new();
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
            let list = Punctuated::<SizeArg, Token![,]>::parse_terminated(input)?;
            sizes = list.into_iter().collect();
        }
        Ok(Args {
            tensors: vec![tensor],
            pattern,
            reduction,
            sizes,
        })
    };
    parser.parse2(body)
}

impl syn::parse::Parse for SizeArg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let value: Expr = input.parse()?;
        let value = match value {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(lit),
                ..
            }) => SizeValue::Literal(lit),
            other => SizeValue::Runtime(Box::new(other)),
        };
        Ok(SizeArg { name, value })
    }
}
