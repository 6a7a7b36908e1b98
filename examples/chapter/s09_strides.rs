//! Size, offset and strides: where an element lives. Element `[i, j]` of a
//! tensor is storage element `offset + i * stride[0] + j * stride[1]`. A
//! row is the same storage with another offset; the transpose swaps the
//! strides; a permutation permutes them. None of these copies an element.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::{labelled, layout};

axes!(Point, Coord, A, B, C);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let points =
        Tensor::<f32, shape![Point: 3, Coord: 2]>::from_array([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]);
    writeln!(out, "{}", labelled("points", &points))?;
    writeln!(out, "points: {}", layout(&points))?;

    // The offset formula, against the tensor's own indexing.
    let [i, j] = [2, 0];
    let (offset, strides) = (points.storage_offset(), points.strides());
    let at = offset as isize + i * strides[0] + j * strides[1];
    let storage = points.untyped_storage().as_slice::<f32>()?;
    writeln!(
        out,
        "points[{i}, {j}] lives at offset + {i} * stride[0] + {j} * stride[1] \
         = {offset} + {i} * {} + {j} * {} = {at}",
        strides[0], strides[1]
    )?;
    writeln!(
        out,
        "storage[{at}] = {}, points[{i}, {j}] = {}",
        storage[at as usize],
        points[[i, j]]
    )?;
    writeln!(out)?;

    let second = points.as_view().select::<Point>(1);
    writeln!(out, "{}", labelled("points[1]", &second))?;
    writeln!(out, "points[1]: {}", layout(&second))?;
    let first = second.storage_offset();
    writeln!(
        out,
        "points[1][0] lives at the offset: storage[{first}] = {}",
        storage[first]
    )?;

    let transposed = points.as_view().t();
    writeln!(out, "{}", labelled("points.t()", &transposed))?;
    writeln!(out, "points.t(): {}", layout(&transposed))?;
    writeln!(out)?;

    let some = Tensor::<f32, shape![A: 2, B: 3, C: 4]>::ones();
    writeln!(out, "some = ones(2, 3, 4): {}", layout(&some))?;
    let permuted = some.as_view().permute::<names![C, A, B]>();
    writeln!(out, "some.permute(2, 0, 1): {}", layout(&permuted))?;
    writeln!(
        out,
        "all views of one storage: {}",
        second.shares_storage_with(&points)
            && transposed.shares_storage_with(&points)
            && permuted.shares_storage_with(&some)
    )?;
    Ok(())
}
