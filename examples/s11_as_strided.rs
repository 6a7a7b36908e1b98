//! Section 11 of the chapter, as_strided: the (7, 4) sliding windows over 10
//! elements as a zero-copy view, and a layout past the end of the storage
//! refused. The section's code is in `chapter/s11_as_strided.rs`, which the
//! tour runs too.

#[path = "chapter/s11_as_strided.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
