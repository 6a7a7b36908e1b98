//! `s!`.

use proc_macro2::TokenStream;

pub(crate) fn expand(_krate: &TokenStream, body: TokenStream) -> syn::Result<TokenStream> {
    Err(syn::Error::new_spanned(body, "s! is being written"))
}
