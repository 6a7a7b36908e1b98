//! Section 9 of the chapter, size, offset and strides: the offset formula, a
//! row of points (offset 2, stride (1,)), the transpose's strides (1, 2), and a
//! permutation of (2, 3, 4) to (4, 2, 3). The section's code is in
//! `chapter/s09_strides.rs`, which the tour runs too.

#[path = "chapter/s09_strides.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
