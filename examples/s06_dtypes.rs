//! Section 6 of the chapter, element types: the size of every dtype, a cast to
//! bf16 (and f16) and what it keeps, int64 labels. The section's code is in
//! `chapter/s06_dtypes.rs`, which the tour runs too.

#[path = "chapter/s06_dtypes.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
