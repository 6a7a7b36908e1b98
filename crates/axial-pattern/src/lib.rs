//! The einops pattern grammar of axial, as data: patterns parsed into an AST
//! that keeps the byte span of every token, einops' checks with einops' exact
//! messages (each error pointing at the token it concerns), and the recipe
//! that turns an input shape into the steps of the operation.
//!
//! Everything here is pure and has no dependencies, so the `rearrange!`,
//! `reduce!`, `repeat!` and `einsum!` macros run it while the program
//! compiles, and the runtime engine of `axial-core` runs it on tensors.
//!
//! The grammar (`left -> right`, space-separated):
//! - names: identifiers that neither start nor end with `_`, any case;
//! - `1` or `()`: a unit dim (a `1` inside a group is ignored);
//! - an integer of 2 or more: an anonymous axis (reduce and repeat only);
//! - one `...` per side;
//! - one-level groups `( )`, composed in C order.
//!
//! # Example
//! ```
//! use axial_pattern::{Operation, Pattern, Recipe, Span};
//! let p = Pattern::parse("b c (h h1) (w w1) -> b (c h1 w1) h w")?;
//! let r = Recipe::new(&p, Operation::Rearrange, &["h1", "w1"])?;
//! assert_eq!(r.transform(&[2, 3, 4, 6], &[2, 2])?.output_shape, [2, 12, 2, 3]);
//!
//! let err = Pattern::parse("b c -> b c d").and_then(|p| Recipe::new(&p, Operation::Rearrange, &[]));
//! let err = err.unwrap_err();
//! assert_eq!(err.to_string(), "Identifiers only on one side of expression (should be on both): {'d'}");
//! assert_eq!(err.span(), Some(Span::new(11, 12)));
//! # Ok::<(), axial_pattern::PatternError>(())
//! ```
#![forbid(unsafe_code)]

mod ast;
mod check;
mod einsum;
mod error;
mod names;
mod operation;
mod parse;
mod recipe;
mod span;
mod validate;

pub use ast::{Atom, Dim, Expression, Pattern};
pub use einsum::{Einsum, Subscript};
pub use error::{AxisName, ErrorKind, PatternError};
pub use operation::{Operation, Reduction};
pub use parse::Options;
pub use recipe::{Recipe, Transform};
pub use span::Span;
pub use validate::{validate_einsum, validate_rearrange, validate_reduce, validate_repeat};
