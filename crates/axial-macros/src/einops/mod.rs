//! `rearrange!`, `reduce!`, `repeat!` and `einsum!`: the pattern parsed and
//! checked by `axial-pattern` while the program compiles ([`validate`]), then
//! written as types that `axial`'s traits prove against the tensor's shape,
//! and a call of einops' recipe for the run-time work ([`expand`]).

mod expand;
mod parse;
mod validate;

use proc_macro2::TokenStream;

/// Which macro.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    Rearrange,
    Reduce,
    Repeat,
    Einsum,
}

/// The expansion of one call: `fallible` for the `try_` forms, which give a
/// `Result`.
pub(crate) fn expand(
    krate: &TokenStream,
    body: TokenStream,
    kind: Kind,
    fallible: bool,
) -> syn::Result<TokenStream> {
    let args = parse::args(kind, body)?;
    let checked = validate::check(kind, args)?;
    Ok(expand::expand(krate, &checked, fallible))
}
