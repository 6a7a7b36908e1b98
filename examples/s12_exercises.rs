//! Section 12 of the chapter, the chapter's exercises: view(3, 3) of 9 elements
//! sharing storage, b[1:, 1:] at offset 4 with strides (3, 1), and sqrt_
//! refused on integers (a compile error) but done after a float cast. The
//! section's code is in `chapter/s12_exercises.rs`, which the tour runs too.

#[path = "chapter/s12_exercises.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
