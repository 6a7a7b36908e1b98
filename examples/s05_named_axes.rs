//! Section 5 of the chapter, named axes: NCHW images aligned to NHWC by name
//! with align_to, beside the same permutation by position. The section's code
//! is in `chapter/s05_named_axes.rs`, which the tour runs too.

#[path = "chapter/s05_named_axes.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
