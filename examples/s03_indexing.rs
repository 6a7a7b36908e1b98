//! Section 3 of the chapter, indexing and slicing: an element, a column and a
//! block of a 3×4 grid, the last two as zero-copy views. The section's code is
//! in `chapter/s03_indexing.rs`, which the tour runs too.

#[path = "chapter/s03_indexing.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
