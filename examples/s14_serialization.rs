//! Section 14 of the chapter, serialization: the chapter's checkpoint saved
//! and loaded as `torch.load(weights_only=True)` loads it, a pickled class
//! refused, and rows 2..5 of a chunked HDF5 dataset read without decoding
//! the rest. The section's code is in `chapter/s14_serialization.rs`, which
//! the tour runs too.

#[path = "chapter/s14_serialization.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
