//! `as_strided`: any sizes and strides over an existing storage. Strides
//! (1, 1) over ten elements give the (7, 4) sliding windows of length 4, a
//! view that reads each element up to four times without copying any. A
//! layout that would reach past the end of the storage is refused.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::{labelled, layout};

axes!(Time, Start, Window);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let signal = Tensor::<f32, shape![Time: 10]>::arange();
    writeln!(out, "{}", labelled("signal", &signal))?;

    let windows = signal
        .as_view()
        .as_strided::<shape![Start: 7, Window: 4], 2>([7, 4], [1, 1], None)?;
    writeln!(out, "windows = signal.as_strided((7, 4), (1, 1)):")?;
    writeln!(out, "{}", labelled("windows", &windows))?;
    writeln!(out, "windows: {}", layout(&windows))?;
    writeln!(
        out,
        "windows: {} elements over {} bytes of storage, a view: {}",
        windows.numel(),
        windows.untyped_storage().nbytes(),
        windows.shares_storage_with(&signal)
    )?;

    // `unfold` makes the same windows by name.
    let unfolded = signal.as_view().unfold::<Time, Window>(4, 1);
    writeln!(out, "signal.unfold(0, 4, 1): {}", layout(&unfolded))?;

    // Eight windows would need elements 0..=10: one past the storage.
    match signal
        .as_view()
        .as_strided::<shape![Start: 8, Window: 4], 2>([8, 4], [1, 1], None)
    {
        Ok(view) => writeln!(out, "signal.as_strided((8, 4), (1, 1)) = {view}")?,
        Err(err) => writeln!(
            out,
            "signal.as_strided((8, 4), (1, 1)) is refused:\n    {err}"
        )?,
    }
    Ok(())
}
