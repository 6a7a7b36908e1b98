#![forbid(unsafe_code)]
//! Procedural macros of axial: `shape!`, `axes!` and `names!`; the einops
//! macros `rearrange!`, `reduce!`, `repeat!`, `einsum!` (and their `try_`
//! forms); `s!` for slicing.
//!
//! Users call them through `axial` (or `axial_shape`), whose declarative
//! wrappers pass their own crate path first, in brackets, so the expansion
//! names the right crate however it is imported. Each macro runs in three
//! stages: `parse` (tokens to a small syntax tree that keeps spans),
//! `validate` (mistakes as errors pointing at the user's token) and
//! `expand` (the types and items); the einops macros and `s!` have their
//! own three stages in `einops` and `slicing`.

use proc_macro::TokenStream;

mod einops;
mod expand;
mod parse;
mod slicing;
mod validate;

use einops::Kind;

/// The type of a shape: `shape![[path] Batch: Dyn, Channels: 3]` (called
/// through `axial_shape::shape!`, which supplies the path).
#[proc_macro]
pub fn shape(input: TokenStream) -> TokenStream {
    run_type(input, |krate, body| {
        let entries = parse::shape(body)?;
        validate::shape(&entries)?;
        Ok(expand::shape(&krate, &entries))
    })
}

/// The type of a list of names: `names![[path] W, ..., N]`.
#[proc_macro]
pub fn names(input: TokenStream) -> TokenStream {
    run_type(input, |krate, body| {
        let items = parse::names(body)?;
        validate::names(&items)?;
        Ok(expand::names(&krate, &items))
    })
}

/// Axis marker types: `axes!([path] Batch, pub(crate) Channels)`.
#[proc_macro]
pub fn axes(input: TokenStream) -> TokenStream {
    run(input, |krate, body| {
        let axes = parse::axes(body)?;
        validate::axes(&axes)?;
        Ok(expand::axes(&krate, &axes))
    })
}

/// `rearrange!([path] x, "B C H W -> B H W C", P = 2)`, a tensor (panics
/// on a run-time size that does not fit).
#[proc_macro]
pub fn rearrange(input: TokenStream) -> TokenStream {
    run(input, |krate, body| {
        einops::expand(&krate, body, Kind::Rearrange, false)
    })
}

/// `try_rearrange!([path] x, "...", P = n)`: a `Result`.
#[proc_macro]
pub fn try_rearrange(input: TokenStream) -> TokenStream {
    run(input, |krate, body| {
        einops::expand(&krate, body, Kind::Rearrange, true)
    })
}

/// `reduce!([path] x, "B C H W -> B C", mean, P = 2)`.
#[proc_macro]
pub fn reduce(input: TokenStream) -> TokenStream {
    run(input, |krate, body| {
        einops::expand(&krate, body, Kind::Reduce, false)
    })
}

/// `try_reduce!([path] x, "...", sum, P = n)`: a `Result`.
#[proc_macro]
pub fn try_reduce(input: TokenStream) -> TokenStream {
    run(input, |krate, body| {
        einops::expand(&krate, body, Kind::Reduce, true)
    })
}

/// `repeat!([path] x, "H W -> H W C", C = 3)`.
#[proc_macro]
pub fn repeat(input: TokenStream) -> TokenStream {
    run(input, |krate, body| {
        einops::expand(&krate, body, Kind::Repeat, false)
    })
}

/// `try_repeat!([path] x, "...", C = n)`: a `Result`.
#[proc_macro]
pub fn try_repeat(input: TokenStream) -> TokenStream {
    run(input, |krate, body| {
        einops::expand(&krate, body, Kind::Repeat, true)
    })
}

/// `einsum!([path] "B I J, B J K -> B I K", a, b)`.
#[proc_macro]
pub fn einsum(input: TokenStream) -> TokenStream {
    run(input, |krate, body| {
        einops::expand(&krate, body, Kind::Einsum, false)
    })
}

/// `try_einsum!([path] "...", a, b)`: a `Result`.
#[proc_macro]
pub fn try_einsum(input: TokenStream) -> TokenStream {
    run(input, |krate, body| {
        einops::expand(&krate, body, Kind::Einsum, true)
    })
}

/// `s![[path] .., 1..3, 0, ..;2]`: a slicing spec for `slice_s`.
#[proc_macro]
pub fn s(input: TokenStream) -> TokenStream {
    run(input, |krate, body| slicing::expand(&krate, body))
}

/// As [`run`] for a macro in type position: on an error, a type that carries
/// the `compile_error!` in a constant, so the compiler reports that one error
/// and nothing that follows from it (thiserror's fallback, for types).
fn run_type(
    input: TokenStream,
    stage: impl FnOnce(
        proc_macro2::TokenStream,
        proc_macro2::TokenStream,
    ) -> syn::Result<proc_macro2::TokenStream>,
) -> TokenStream {
    let input: proc_macro2::TokenStream = input.into();
    let krate = parse::split_crate_path(input.clone()).map(|(krate, _)| krate);
    let result = parse::split_crate_path(input).and_then(|(krate, body)| stage(krate, body));
    match (result, krate) {
        (Ok(tokens), _) => tokens.into(),
        (Err(err), Ok(krate)) => expand::fallback_type(&krate, &err).into(),
        (Err(err), Err(_)) => err.to_compile_error().into(),
    }
}

/// Splits off the crate path, runs `stage`, and turns an error into a
/// `compile_error!` at the user's token (in expression position its type is
/// the compiler's error type, so nothing that follows reports again).
fn run(
    input: TokenStream,
    stage: impl FnOnce(
        proc_macro2::TokenStream,
        proc_macro2::TokenStream,
    ) -> syn::Result<proc_macro2::TokenStream>,
) -> TokenStream {
    let result = parse::split_crate_path(input.into()).and_then(|(krate, body)| stage(krate, body));
    match result {
        Ok(tokens) => tokens.into(),
        Err(err) => err.to_compile_error().into(),
    }
}
