//! Section 2 of the chapter, constructing tensors: from a list, ones(3, 2),
//! zeros(2, 4, 4), and their shape, numel and dim. The section's code is in
//! `chapter/s02_construction.rs`, which the tour runs too.

#[path = "chapter/s02_construction.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
