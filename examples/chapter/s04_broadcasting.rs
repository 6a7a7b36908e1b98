//! Broadcasting: how `(3, 1) + (1, 4)` gives a `(3, 4)` result. Two rules:
//!
//! 1. shapes are lined up from the right, a missing axis counting as size 1;
//! 2. paired sizes must be equal or 1, and a size 1 stretches to the other.
//!
//! With names, paired axes must also have one name. Stretching copies
//! nothing: it is a view whose stride along the stretched axis is 0, so
//! every step along it reads the same element again. Sizes or names that
//! do not pair up are compile errors (the ui-tests `broadcast_sizes.rs` and
//! `broadcast_names.rs`).

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::{labelled, layout};

axes!(Rows, Cols);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let column = Tensor::<f32, shape![Rows: 3, Cols: 1]>::from_array([[0.0], [10.0], [20.0]]);
    let row = Tensor::<f32, shape![Rows: 1, Cols: 4]>::from_array([[0.0, 1.0, 2.0, 3.0]]);
    writeln!(out, "{}", labelled("column", &column))?;
    writeln!(out, "{}", labelled("row", &row))?;
    let sum = &column + &row;
    writeln!(out, "{}", labelled("column + row", &sum))?;
    writeln!(out)?;

    // What the addition reads: both operands stretched to (3, 4) by stride 0.
    let tall = column.as_view().expand::<shape![Rows: 3, Cols: 4]>();
    let wide = row.as_view().expand::<shape![Rows: 3, Cols: 4]>();
    writeln!(out, "column.expand(3, 4): {}", layout(&tall))?;
    writeln!(out, "row.expand(3, 4):    {}", layout(&wide))?;
    writeln!(
        out,
        "column.expand(3, 4) shows {} bytes of elements over a storage of {}, a view: {}",
        tall.nbytes(),
        tall.untyped_storage().nbytes(),
        tall.shares_storage_with(&column)
    )?;
    writeln!(out)?;

    // Rule 1: a bias of shape (4,) lines up with the last axis of (3, 4).
    let bias = Tensor::<f32, shape![Cols: 4]>::from_array([100.0, 200.0, 300.0, 400.0]);
    writeln!(out, "{}", labelled("bias", &bias))?;
    writeln!(out, "{}", labelled("(column + row) + bias", &sum + &bias))?;
    Ok(())
}
