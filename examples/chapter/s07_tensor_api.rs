//! The tensor API: operations by axis name and in place. `mean` over an
//! axis removes it; `mean_keepdim` keeps it with size 1, so the result still
//! broadcasts against the input (centering each row below). A method ending
//! in `_` works in place: `add_` and `zero_` write into the tensor's own
//! storage, and through a view into the tensor it views. What PyTorch
//! refuses at run time does not compile: `mean` of an integer tensor, or an
//! in-place op whose result would outgrow the tensor (the ui-tests
//! `mean_of_integers.rs` and `inplace_broadcast_shape.rs`).

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::labelled;

axes!(Rows, Cols);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let mut x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
    writeln!(out, "{}", labelled("x", &x))?;
    writeln!(out, "{}", labelled("x.mean(Rows)", x.mean::<Rows>()))?;
    writeln!(
        out,
        "{}",
        labelled("x.mean(Rows, keepdim=True)", x.mean_keepdim::<Rows>())
    )?;
    writeln!(out, "{}", labelled("x.mean(Cols)", x.mean::<Cols>()))?;
    let row_means = x.mean_keepdim::<Cols>();
    writeln!(
        out,
        "{}",
        labelled("x.mean(Cols, keepdim=True)", &row_means)
    )?;
    writeln!(
        out,
        "{}",
        labelled("x - x.mean(Cols, keepdim=True)", &x - &row_means)
    )?;
    writeln!(out)?;

    let ones = Tensor::<f32, shape![Rows: 2, Cols: 3]>::ones();
    x.add_(&ones);
    writeln!(out, "{}", labelled("after x.add_(ones)", &x))?;
    // In place through a view: the second row of x.
    x.as_view_mut().select::<Rows>(1).add_(10.0);
    writeln!(out, "{}", labelled("after x[1].add_(10)", &x))?;
    x.zero_();
    writeln!(out, "{}", labelled("after x.zero_()", &x))?;
    Ok(())
}
