//! Section 7 of the chapter, the tensor API: mean over each axis with and
//! without keepdim, add_ and zero_ in place. The section's code is in
//! `chapter/s07_tensor_api.rs`, which the tour runs too.

#[path = "chapter/s07_tensor_api.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
