//! Section 17, training: a line fitted by gradient descent with tracked
//! parameters and SGD, and PyTorch's in-place rule as a compile error. The
//! section's code is in `chapter/s17_training.rs`, which the tour runs too.

#[path = "chapter/s17_training.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
