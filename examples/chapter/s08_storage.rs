//! Storage: the bytes under a tensor. Six `f32` elements are 24 bytes in
//! a row, whatever the shape; a byte written through the storage shows
//! through the tensor; and every view of the tensor (a row, the transpose,
//! a flat view) reads that one storage.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::labelled;

axes!(Point, Coord, Flat);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let mut points =
        Tensor::<f32, shape![Point: 3, Coord: 2]>::from_array([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]);
    writeln!(out, "{}", labelled("points", &points))?;
    let storage = points.untyped_storage();
    writeln!(
        out,
        "storage: {} bytes ({} elements of {} bytes)",
        storage.nbytes(),
        points.numel(),
        points.element_size()
    )?;
    writeln!(out, "storage as f32: {:?}", storage.as_slice::<f32>()?)?;
    writeln!(
        out,
        "points[0, 0] = 4.0 is 0x{:08x}; bytes 0..4 of the storage, little-endian: {:02x?}",
        4.0f32.to_bits(),
        &storage.as_bytes()[..4]
    )?;

    // Byte 3 holds the sign and the high bits of the exponent: 0x40 -> 0x41
    // multiplies 4.0 by 2^2. Written through the storage of a mutable view
    // of the first point, seen through `points`.
    let mut first = points.as_view_mut().select::<Point>(0);
    first.untyped_storage_mut().write_byte(3, 0x41)?;
    writeln!(out, "after writing 0x41 at byte 3 of the storage:")?;
    writeln!(out, "{}", labelled("points", &points))?;

    // Views: new sizes, strides and offset over the same 24 bytes.
    let second = points.as_view().select::<Point>(1);
    let transposed = points.as_view().t();
    let flat = points.as_view().view::<shape![Flat: 6]>();
    let shared = [
        second.shares_storage_with(&points),
        transposed.shares_storage_with(&points),
        flat.shares_storage_with(&points),
    ];
    writeln!(
        out,
        "points[1], points.t(), points.view(6) share points' storage: {shared:?}"
    )?;
    writeln!(
        out,
        "each sees {} bytes of storage; its own shape, strides and offset select from them",
        transposed.untyped_storage().nbytes()
    )?;
    Ok(())
}
