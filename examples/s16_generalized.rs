//! Section 13 of the chapter, generalized tensors: the 1000 × 1000 matrix
//! with 3 non-zeros in COO and CSR form, a weight quantized to int8 per
//! channel with its rounding error, a ragged batch of sequences without
//! padding. The section's code is in `chapter/s16_generalized.rs`, which the
//! tour runs too.

#[path = "chapter/s16_generalized.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
