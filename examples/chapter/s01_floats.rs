//! Floats as the substrate: a tensor's numbers are IEEE 754 floats, so
//! tensor arithmetic is float arithmetic, rounding included. The derivative
//! of the continuous function `f(x) = x³` by central differences,
//! `(f(x + h) - f(x - h)) / 2h`, shows it: the formula's own error is `h²`
//! and shrinks with `h`, until rounding, about `ε / h`, takes over; in `f32`
//! (`ε ≈ 1.2e-7`) that happens long before it does in `f64` (`ε ≈ 2.2e-16`).

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial::{Number, ResultTypes};
use axial_suite::show::labelled;

axes!(X);

/// The points where the derivative is taken.
type Points = shape![X: 5];

/// `f(x) = x³`, elementwise.
fn cube<T: Float + Number + ResultTypes>(x: &Tensor<T, Points>) -> Tensor<T, Points> {
    x * x * x
}

/// `(f(x + h) - f(x - h)) / 2h` with `f = cube`, the division written as a
/// product by `1 / 2h` (a product of `T`s is a `T` for every `T`).
fn central_difference<T: Float + Number + ResultTypes>(
    x: &Tensor<T, Points>,
    h: f64,
) -> Tensor<T, Points> {
    let step = T::from_f64(h);
    (cube(&(x + step)) - cube(&(x - step))) * T::from_f64(0.5 / h)
}

/// The largest error of the central difference against `3x²`, in `T`.
fn largest_error<T: Float + Number + ResultTypes>(h: f64) -> f64 {
    let x = Tensor::<T, Points>::linspace(-1.0, 1.0);
    let exact = &x * &x * T::from_f64(3.0);
    (central_difference(&x, h) - exact)
        .abs()
        .amax_all()
        .item()
        .to_f64()
}

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let x = Tensor::<f32, Points>::linspace(-1.0, 1.0);
    writeln!(out, "{}", labelled("x", &x))?;
    writeln!(out, "{}", labelled("f(x) = x³", cube(&x)))?;
    writeln!(
        out,
        "{}",
        labelled("central difference, h = 0.01", central_difference(&x, 0.01))
    )?;
    writeln!(out, "{}", labelled("exact f'(x) = 3x²", &x * &x * 3.0))?;
    writeln!(out)?;

    writeln!(out, "largest error of the central difference:")?;
    writeln!(out, "{:>8} {:>10} {:>10}", "h", "f32", "f64")?;
    for exponent in 1..=7 {
        let h = 10f64.powi(-exponent);
        writeln!(
            out,
            "{:>8} {:>10.1e} {:>10.1e}",
            format!("1e-{exponent}"),
            largest_error::<f32>(h),
            largest_error::<f64>(h)
        )?;
    }
    Ok(())
}
