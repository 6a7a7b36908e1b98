//! Section 10 of the chapter, contiguity: view refused on a transpose with
//! PyTorch's message, contiguous() copying it to row-major order, then view(6).
//! The section's code is in `chapter/s10_contiguity.rs`, which the tour runs
//! too.

#[path = "chapter/s10_contiguity.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
