//! Section 4 of the chapter, broadcasting: (3, 1) + (1, 4) by the two rules,
//! and the stride-0 views behind it. The section's code is in
//! `chapter/s04_broadcasting.rs`, which the tour runs too.

#[path = "chapter/s04_broadcasting.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
