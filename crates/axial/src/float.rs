//! Element kinds the type system tells apart.

use crate::ResultTypes;
use half::{bf16, f16};

mod sealed {
    pub trait Sealed {}
}

/// A floating-point element: `f16`, `bf16`, `f32`, `f64`. Ops that need
/// fractions (`rand`, `randn`, `linspace`) exist only for these. It implies
/// what arithmetic asks of a dtype (its sums and quotients are itself), so
/// code generic over the dtype needs this one bound.
///
/// # Example
/// ```
/// use axial::Float;
/// fn float_only<T: Float>() {}
/// float_only::<half::bf16>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a floating-point element type",
    label = "needs f16, bf16, f32 or f64",
    note = "convert first with `.cast::<f32>()`"
)]
pub trait Float:
    crate::RealNumber
    + crate::Divisible
    + crate::Transcendental
    + ResultTypes<Sum = Self, Quotient = Self>
    + sealed::Sealed
{
}

macro_rules! float {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Float for $t {}
    )*};
}
float!(f16, bf16, f32, f64);
