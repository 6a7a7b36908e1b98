//! The chapter's sections in order, one module each. A section's `run`
//! prints what the section shows; `examples/sNN_*.rs` runs one alone,
//! `examples/tour.rs` runs them all under headings, and `tests/examples.rs`
//! checks what they print.

use std::error::Error;
use std::io::Write;

/// What printing a section gives: an error of the writer or of the library.
pub(crate) type Printed = Result<(), Box<dyn Error>>;

/// One section of the chapter.
pub(crate) struct Section {
    /// The section's title.
    pub(crate) title: &'static str,
    /// The example that runs it alone (`cargo run --example <name>`).
    pub(crate) example: &'static str,
    /// Prints the section.
    pub(crate) run: fn(&mut dyn Write) -> Printed,
}

/// Declares the section modules and lists them, in order, in [`SECTIONS`].
macro_rules! sections {
    ($($module:ident: $title:literal,)*) => {
        $(pub(crate) mod $module;)*

        /// Every section, in the chapter's order.
        pub(crate) const SECTIONS: &[Section] = &[$(Section {
            title: $title,
            example: stringify!($module),
            run: $module::run,
        },)*];
    };
}

sections! {
    s01_floats: "Floats as the substrate",
    s02_construction: "Constructing tensors",
    s03_indexing: "Indexing and slicing",
    s04_broadcasting: "Broadcasting",
    s05_named_axes: "Named axes",
    s06_dtypes: "Element types",
    s07_tensor_api: "The tensor API",
    s08_storage: "Storage",
    s09_strides: "Size, offset and strides",
    s10_contiguity: "Contiguity",
    s11_as_strided: "as_strided",
    s12_exercises: "The chapter's exercises",
    s13_devices: "Devices",
    s14_serialization: "Serialization",
    s15_numpy: "NumPy interop",
    s16_generalized: "Generalized tensors",
    s17_training: "Training",
}

/// The width of a section heading.
const HEADING_WIDTH: usize = 78;

/// Every section in order, each under a heading that names its example.
pub(crate) fn tour(out: &mut dyn Write) -> Printed {
    writeln!(
        out,
        "A tour of tensor storage, strides and memory layouts with axial: one\n\
         section of the chapter after the other. Each runs alone too, with\n\
         `cargo run --example <name>`."
    )?;
    for (number, section) in SECTIONS.iter().enumerate() {
        writeln!(out)?;
        writeln!(out, "{}", heading(number + 1, section))?;
        writeln!(out)?;
        (section.run)(out)?;
    }
    Ok(())
}

/// `== 3. Indexing and slicing ======== s03_indexing ==`, `HEADING_WIDTH` wide.
fn heading(number: usize, section: &Section) -> String {
    let left = format!("== {number}. {} ", section.title);
    let right = format!(" {} ==", section.example);
    let fill = HEADING_WIDTH.saturating_sub(left.len() + right.len());
    format!("{left}{}{right}", "=".repeat(fill))
}
