//! The tour: every section of the chapter on tensor storage, strides and
//! memory layouts, in order, each under a heading that names the example
//! running it alone. `cargo run --release --example tour`.

mod chapter;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    chapter::tour(&mut std::io::stdout().lock())
}
