//! Section 8 of the chapter, storage: the 24 bytes of six f32, a byte written
//! through the storage and seen through the tensor, views sharing one storage.
//! The section's code is in `chapter/s08_storage.rs`, which the tour runs too.

#[path = "chapter/s08_storage.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
