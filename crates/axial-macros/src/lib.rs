#![forbid(unsafe_code)]
//! Procedural macros of axial: `shape!`, `axes!` and `names!`; the einops
//! macros `rearrange!`, `reduce!`, `repeat!`, `einsum!` (and their `try_`
//! forms); `s!` for slicing.
//!
//! Users call them through `axial` (or `axial_shape`), whose declarative
//! wrappers pass their own crate path first, in brackets, so the expansion
//! names the right crate however it is imported. The procedural macros
//! themselves are therefore hidden from the documentation: each one's
//! reference, with examples, is its wrapper's (`axial::rearrange!`,
//! `axial::s!`, `axial_shape::shape!`, ...).
//!
//! Each macro runs in three stages: `parse` (tokens to a small syntax tree
//! that keeps spans), `validate` (mistakes as errors pointing at the user's
//! token) and `expand` (the types and items); the einops macros and `s!`
//! have their own three stages in `einops` and `slicing`.
//!
//! # Example
//! Every macro, through `axial`:
//! ```
//! use axial::prelude::*;
//! axes!(Batch, Channels, Rows, Cols);
//! type Images = shape![Batch: 2, Channels: 3, Rows: 4, Cols: 5];
//! let x = Tensor::<f32, Images>::arange();
//! // einops, checked while the program compiles
//! let nhwc = rearrange!(x.as_view(), "Batch Channels Rows Cols -> Batch Rows Cols Channels");
//! assert_eq!(nhwc.names().as_slice(), &[Some("Batch"), Some("Rows"), Some("Cols"), Some("Channels")]);
//! let sums = reduce!(x.as_view(), "Batch Channels Rows Cols -> Batch Channels", sum);
//! assert_eq!(sums.sizes().as_slice(), &[2, 3]);
//! let wide = repeat!(sums.as_view(), "Batch Channels -> Batch Channels Rows", Rows = 4);
//! assert_eq!(wide.sizes().as_slice(), &[2, 3, 4]);
//! let gram = einsum!("Batch Channels Rows Cols, Batch Channels Rows Cols -> Batch Channels", x.as_view(), x.as_view());
//! assert_eq!(gram.sizes().as_slice(), &[2, 3]);
//! // the `try_` forms give a `Result`
//! let flat = try_rearrange!(x.as_view(), "Batch Channels Rows Cols -> Batch (Channels Rows Cols)")?;
//! assert_eq!(flat.sizes().as_slice(), &[2, 60]);
//! // slicing: x[:, 1:3, 0]
//! let y = x.as_view().slice_s(s![.., 1..3, 0]);
//! assert_eq!(y.sizes().as_slice(), &[2, 2, 5]);
//! // a names list for `align_to`
//! let last = x.as_view().align_to::<names![Cols, ...]>();
//! assert_eq!(last.sizes().as_slice(), &[5, 2, 3, 4]);
//! # Ok::<(), axial::Error>(())
//! ```

use proc_macro::TokenStream;

mod einops;
mod expand;
mod parse;
mod slicing;
mod validate;

use einops::Kind;

/// The type of a shape: `shape![[path] Batch: Dyn, Channels: 3]` (called
/// through `axial_shape::shape!`, which supplies the path).
///
/// Implements `axial_shape::shape!` (also `axial::shape!`), where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn shape(input: TokenStream) -> TokenStream {
    run_type(input, |krate, body| {
        let entries = parse::shape(body)?;
        validate::shape(&entries)?;
        Ok(expand::shape(&krate, &entries))
    })
}

/// The type of a list of names: `names![[path] W, ..., N]`.
///
/// Implements `axial_shape::names!` (also `axial::names!`), where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn names(input: TokenStream) -> TokenStream {
    run_type(input, |krate, body| {
        let items = parse::names(body)?;
        validate::names(&items)?;
        Ok(expand::names(&krate, &items))
    })
}

/// Axis marker types: `axes!([path] Batch, pub(crate) Channels)`.
///
/// Implements `axial_shape::axes!` (also `axial::axes!`), where it is documented.
#[doc(hidden)]
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
///
/// Implements `axial::rearrange!`, where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn rearrange(input: TokenStream) -> TokenStream {
    einops_macro(input, Kind::Rearrange, false)
}

/// `try_rearrange!([path] x, "...", P = n)`: a `Result`.
///
/// Implements `axial::try_rearrange!`, where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn try_rearrange(input: TokenStream) -> TokenStream {
    einops_macro(input, Kind::Rearrange, true)
}

/// `reduce!([path] x, "B C H W -> B C", mean, P = 2)`.
///
/// Implements `axial::reduce!`, where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn reduce(input: TokenStream) -> TokenStream {
    einops_macro(input, Kind::Reduce, false)
}

/// `try_reduce!([path] x, "...", sum, P = n)`: a `Result`.
///
/// Implements `axial::try_reduce!`, where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn try_reduce(input: TokenStream) -> TokenStream {
    einops_macro(input, Kind::Reduce, true)
}

/// `repeat!([path] x, "H W -> H W C", C = 3)`.
///
/// Implements `axial::repeat!`, where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn repeat(input: TokenStream) -> TokenStream {
    einops_macro(input, Kind::Repeat, false)
}

/// `try_repeat!([path] x, "...", C = n)`: a `Result`.
///
/// Implements `axial::try_repeat!`, where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn try_repeat(input: TokenStream) -> TokenStream {
    einops_macro(input, Kind::Repeat, true)
}

/// `einsum!([path] "B I J, B J K -> B I K", a, b)`.
///
/// Implements `axial::einsum!`, where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn einsum(input: TokenStream) -> TokenStream {
    einops_macro(input, Kind::Einsum, false)
}

/// `try_einsum!([path] "...", a, b)`: a `Result`.
///
/// Implements `axial::try_einsum!`, where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn try_einsum(input: TokenStream) -> TokenStream {
    einops_macro(input, Kind::Einsum, true)
}

/// `s![[path] .., 1..3, 0, ..;2]`: a slicing spec for `slice_s`.
///
/// Implements `axial::s!`, where it is documented.
#[doc(hidden)]
#[proc_macro]
pub fn s(input: TokenStream) -> TokenStream {
    run(input, |krate, body| slicing::expand(&krate, body))
}

/// An einops macro of `kind`, returning a `Result` when `fallible`.
fn einops_macro(input: TokenStream, kind: Kind, fallible: bool) -> TokenStream {
    run(input, |krate, body| {
        einops::expand(&krate, body, kind, fallible)
    })
}

/// The token streams the stages work on (`proc_macro2`'s, usable outside a
/// macro).
type Tokens = proc_macro2::TokenStream;

/// As [`run`] for a macro in type position: on an error, a type that carries
/// the `compile_error!` in a constant, so the compiler reports that one error
/// and nothing that follows from it (thiserror's fallback, for types).
fn run_type(
    input: TokenStream,
    stage: impl FnOnce(Tokens, Tokens) -> syn::Result<Tokens>,
) -> TokenStream {
    run_with(input, stage, expand::fallback_type)
}

/// Splits off the crate path, runs `stage`, and turns an error into a
/// `compile_error!` at the user's token (in expression position its type is
/// the compiler's error type, so nothing that follows reports again).
fn run(
    input: TokenStream,
    stage: impl FnOnce(Tokens, Tokens) -> syn::Result<Tokens>,
) -> TokenStream {
    run_with(input, stage, |_, err| err.to_compile_error())
}

/// Splits off the crate path and runs `stage`; an error of the stage becomes
/// `fallback`'s tokens (an input without a crate path, its own error).
fn run_with(
    input: TokenStream,
    stage: impl FnOnce(Tokens, Tokens) -> syn::Result<Tokens>,
    fallback: impl FnOnce(&Tokens, &syn::Error) -> Tokens,
) -> TokenStream {
    let (krate, body) = match parse::split_crate_path(input.into()) {
        Ok(split) => split,
        Err(err) => return err.to_compile_error().into(),
    };
    match stage(krate.clone(), body) {
        Ok(tokens) => tokens.into(),
        Err(err) => fallback(&krate, &err).into(),
    }
}
