//! `s![.., 1..3, 0, ..;2]`: NumPy-style slicing of the leading axes, for the
//! typed `slice_s`. Literal indices and bounds become types (so the shape
//! knows what it becomes, and a literal outside a static axis does not
//! compile); anything else is checked at run time.

mod expand;
mod parse;
mod validate;

use proc_macro2::TokenStream;

pub(crate) fn expand(krate: &TokenStream, body: TokenStream) -> syn::Result<TokenStream> {
    let entries = parse::entries(body)?;
    let checked = validate::check(entries)?;
    Ok(expand::expand(krate, &checked))
}
