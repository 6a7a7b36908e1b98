//! The chapter's exercises. `a` holds 0..9; `b = a.view(3, 3)` shares its
//! storage; `c = b[1:, 1:]` starts at offset 4 with strides (3, 1). Then a
//! square root in place: PyTorch refuses `a.sqrt_()` at run time because an
//! integer tensor cannot hold the float results; in axial `sqrt_` does not
//! exist for integer tensors, so the call does not compile (the ui-test
//! below pins the message). Cast to a float type first, and it works.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::{labelled, layout};

axes!(Rows, Cols);

/// The compile-fail test of `sqrt_` on an integer tensor, from the
/// repository root.
pub(crate) const SQRT_OF_INTEGERS: &str = "ui-tests/fail/sqrt_of_integers.rs";

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let a = Tensor::<i64, shape![9]>::arange();
    writeln!(out, "{}", labelled("a", &a))?;
    writeln!(out, "a: {}", layout(&a))?;

    let b = a.as_view().view::<shape![Rows: 3, Cols: 3]>();
    writeln!(out, "{}", labelled("b = a.view(3, 3)", &b))?;
    writeln!(out, "b: {}", layout(&b))?;
    writeln!(
        out,
        "b shares a's storage: {}, same first element: {}",
        b.shares_storage_with(&a),
        b.data_ptr() == a.data_ptr()
    )?;

    let c = b.slice::<Rows>(1.., 1).slice::<Cols>(1.., 1);
    writeln!(out, "{}", labelled("c = b[1:, 1:]", &c))?;
    writeln!(out, "c: {}", layout(&c))?;
    writeln!(out)?;

    writeln!(
        out,
        "a.sqrt_() does not compile: `i64` tensors have no `exp`, `log`, `sqrt` or\n\
         trigonometric functions, so integer tensors have no sqrt_ (see {SQRT_OF_INTEGERS})."
    )?;
    let mut float = a.cast::<f32>();
    float.sqrt_();
    writeln!(out, "a.to(float32).sqrt_():\n{float}")?;
    Ok(())
}
