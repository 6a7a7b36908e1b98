//! einops on typed tensors: `rearrange!`, `reduce!`, `repeat!` and
//! `einsum!`, their patterns parsed and checked while the program compiles.
//!
//! A macro checks its pattern with `axial-pattern` (einops' grammar and
//! errors, reported at the pattern), writes it as the types of
//! [`axial_shape::einops`], whose traits match the left side against the
//! tensor's shape and build the output shape (each mistake a compile error
//! naming the axes), and calls the functions here, which run einops' recipe
//! (`axial_core::einops`) on the layout: views exactly where einops' are.

mod einsum;
mod input;
mod macros;
mod recipe;
mod run;
mod subject;

pub use einsum::{
    EinsumOperand, EinsumOperands, EinsumPart, Graph, NoGraph, Tracking, einsum, einsum_operand,
};
pub use input::{Input, InputTensor};
pub use recipe::{EinsumCell, RecipeCell};
pub use run::{
    MeanElement, rearrange, rearrange_view, reduce_any, reduce_mean, reduce_prod, reduce_same,
    reduce_sum, repeat, repeat_view,
};
pub use subject::{Subject, Untracked};
