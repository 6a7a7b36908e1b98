//! NumPy interop (the chapter's section on NumPy), with ndarray in Rust: one
//! buffer seen from both sides, strides in elements and bytes, owned arrays
//! moved in and out, negative strides refused, DLPack.
//! The section's code is in `chapter/s15_numpy.rs`, which the tour runs too.

#[path = "chapter/s15_numpy.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
