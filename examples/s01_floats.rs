//! Section 1 of the chapter, floats as the substrate: the derivative of x³ by
//! central differences on tensors, and how rounding limits it in f32 and f64.
//! The section's code is in `chapter/s01_floats.rs`, which the tour runs too.

#[path = "chapter/s01_floats.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
