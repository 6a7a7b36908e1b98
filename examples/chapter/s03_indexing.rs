//! Indexing and slicing: one element of a 3×4 grid, one column, and the
//! block `grid[1:, 1:3]`. Selecting and slicing make views: the same
//! storage seen with another offset, sizes and strides, no element copied,
//! so a write through the view shows in the grid.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::{labelled, layout};

axes!(Rows, Cols);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    // PyTorch's `arange(1, 13).view(3, 4)`.
    let mut grid = Tensor::<i64, shape![Rows: 3, Cols: 4]>::from_vec((1..13).collect());
    writeln!(out, "{}", labelled("grid", &grid))?;
    writeln!(out, "grid[1, 2] = {}", grid[[1, 2]])?;

    let column = grid.as_view().select::<Cols>(1);
    writeln!(out, "{}", labelled("grid[:, 1]", &column))?;
    writeln!(out, "grid[:, 1]: {}", layout(&column))?;

    let block = grid.as_view().slice::<Rows>(1.., 1).slice::<Cols>(1..3, 1);
    writeln!(out, "{}", labelled("grid[1:, 1:3]", &block))?;
    writeln!(out, "grid[1:, 1:3]: {}", layout(&block))?;
    writeln!(
        out,
        "a view of grid's storage: {}",
        block.shares_storage_with(&grid)
    )?;

    // The same view in NumPy's spelling: literal ranges on static axes keep
    // the sizes in the type.
    let same = grid.as_view().slice_s(s![1.., 1..3]);
    writeln!(out, "grid.slice_s(s![1.., 1..3]): {}", layout(&same))?;

    // A mutable view of the same block: zeroing it zeroes those elements of grid.
    grid.as_view_mut()
        .slice::<Rows>(1.., 1)
        .slice::<Cols>(1..3, 1)
        .zero_();
    writeln!(out, "after grid[1:, 1:3].zero_():")?;
    writeln!(out, "{}", labelled("grid", &grid))?;
    Ok(())
}
