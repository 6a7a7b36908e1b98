//! Contiguity: a tensor is contiguous when its elements lie in storage in
//! row-major order. The transpose of `points` is not, so `view`, which
//! never copies, cannot flatten it and says why; `contiguous()` copies the
//! elements into the transpose's row-major order, after which `view` works
//! (`reshape` does both: a view when it can, a copy when it must).

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::{labelled, layout};

axes!(Point, Coord, Flat);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let points =
        Tensor::<f32, shape![Point: 3, Coord: 2]>::from_array([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]);
    let transposed = points.as_view().t();
    writeln!(
        out,
        "points: {}, contiguous: {}",
        layout(&points),
        points.is_contiguous()
    )?;
    writeln!(
        out,
        "points.t(): {}, contiguous: {}",
        layout(&transposed),
        transposed.is_contiguous()
    )?;

    match transposed.clone().try_view::<shape![Flat: 6]>() {
        Ok(flat) => writeln!(out, "points.t().view(6) = {flat}")?,
        Err(err) => writeln!(out, "points.t().view(6) is refused:\n    {err}")?,
    }

    // What the message advises: `reshape` views when it can and copies when
    // it must.
    let reshaped = transposed.clone().reshape::<shape![Flat: 6]>();
    writeln!(
        out,
        "points.t().reshape(6) copies instead: {}",
        !reshaped.shares_storage_with(&points)
    )?;

    let copy = transposed.contiguous();
    writeln!(out, "{}", labelled("points.t().contiguous()", &copy))?;
    writeln!(
        out,
        "points.t().contiguous(): {}, contiguous: {}, a copy: {}",
        layout(&copy),
        copy.is_contiguous(),
        !copy.shares_storage_with(&points)
    )?;
    let flat = copy.view::<shape![Flat: 6]>();
    writeln!(
        out,
        "{}",
        labelled("points.t().contiguous().view(6)", &flat)
    )?;
    Ok(())
}
