//! Section 13 of the chapter, devices: `cuda` when there is one, else the
//! CPU; `2.0 * x + 1.0` where the tensor lives; a pinned copy to the GPU on
//! a stream without waiting; the same-device rule. Build with
//! `--features cuda` for the GPU part. The section's code is in
//! `chapter/s13_devices.rs`, which the tour runs too.

#[path = "chapter/s13_devices.rs"]
mod section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section::run(&mut std::io::stdout().lock())
}
