//! Constructing tensors: from a list, filled with ones or zeros, and what
//! every tensor knows about itself: its shape, its number of elements and
//! its number of axes. The shape is part of the type: `shape![Point: 3,
//! Coord: 2]` names each axis and gives its size.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::{labelled, tuple};

axes!(Point, Coord);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    // A list of lists, whose nesting the type checks: three points of two
    // coordinates each.
    let points =
        Tensor::<f32, shape![Point: 3, Coord: 2]>::from_array([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]);
    writeln!(out, "{}", labelled("points", &points))?;
    writeln!(
        out,
        "points: shape {}, numel {}, dim {}",
        tuple(points.shape()),
        points.numel(),
        points.dim()
    )?;
    writeln!(out)?;

    let ones = Tensor::<f32, shape![3, 2]>::ones();
    writeln!(out, "{}", labelled("ones(3, 2)", &ones))?;
    let zeros = Tensor::<f32, shape![2, 4, 4]>::zeros();
    writeln!(out, "{}", labelled("zeros(2, 4, 4)", &zeros))?;
    writeln!(
        out,
        "zeros(2, 4, 4): shape {}, numel {}, dim {}",
        tuple(zeros.shape()),
        zeros.numel(),
        zeros.dim()
    )?;
    writeln!(out)?;

    // A size known only at run time is `Dyn`, given to the constructor.
    let readings = vec![0.5, 1.5, 2.5, 3.5];
    let count = readings.len();
    let series = Tensor::<f32, shape![Point: Dyn]>::from_vec_dyn(readings, count);
    writeln!(out, "{}", labelled("series (a Dyn size)", &series))?;
    Ok(())
}
