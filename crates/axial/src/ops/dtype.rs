//! Element types in op signatures: operands of one dtype, the numbers
//! (every dtype but bool), and the dtypes PyTorch gives results.

use axial_core::float8::{F8E4M3Fn, F8E4M3FnUz, F8E5M2, F8E5M2FnUz};
use axial_core::{Bool, Element};
use half::{bf16, f16};
use num_complex::Complex;

mod sealed {
    pub trait Sealed {}
}

/// Two operands of one element type: implemented only for `T` itself, so
/// mixing dtypes is a compile error that names both and the cast to write
/// (axial has no implicit promotion; [`Promoted`](crate::Promoted) names
/// PyTorch's common type for an explicit cast).
///
/// # Example
/// ```
/// use axial::SameDType;
/// fn same<T2: SameDType<f32>>() {}
/// same::<f32>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot combine a `{T}` tensor with a `{Self}` operand: dtypes must be equal",
    label = "this operand is `{Self}`",
    note = "axial has no implicit type promotion: convert one side first with `.cast::<{T}>()`, or both with `.cast::<axial::Promoted<{T}, {Self}>>()` for PyTorch's common type"
)]
pub trait SameDType<T>: Element {}

impl<T: Element> SameDType<T> for T {}

/// An element type with arithmetic: every dtype but `Bool` (PyTorch refuses
/// `-` and `neg` on bool tensors, and `//`, `%` and powers are not defined
/// for them), the wide unsigned integers and the float8s (PyTorch has no
/// `+` for them); complex numbers are numbers.
///
/// ```
/// use axial::Number;
/// fn number<T: Number>() {}
/// number::<u8>();
/// number::<half::f16>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number type",
    label = "needs an integer or floating-point element type",
    note = "bool tensors have `logical_and`, `logical_or` and `logical_not`; or convert first with `.cast::<i64>()`"
)]
pub trait Number: Element + sealed::Sealed {}

/// The element types of results whose dtype PyTorch changes (its type
/// promotion, and the dtypes of sums and means). Every element type has them.
///
/// ```
/// use axial::ResultTypes;
/// let _: Option<<i32 as ResultTypes>::Sum> = None::<i64>;
/// let _: Option<<u8 as ResultTypes>::Quotient> = None::<f32>;
/// let _: Option<<half::f16 as ResultTypes>::Quotient> = None::<half::f16>;
/// ```
pub trait ResultTypes: Element + sealed::Sealed {
    /// Of `sum` and `prod`: integers and bool give `i64`, floats stay.
    type Sum: Element;
    /// Of true division `/` and `atan2`: integers and bool give `f32`, floats stay.
    type Quotient: Element;
    /// Of `all` and `any`: `u8` stays `u8`, the rest give `Bool`.
    type AllAny: Element;
}

macro_rules! result_types {
    ($($t:ty => $sum:ty, $quotient:ty, $all:ty;)*) => {$(
        impl sealed::Sealed for $t {}
        impl ResultTypes for $t {
            type Sum = $sum;
            type Quotient = $quotient;
            type AllAny = $all;
        }
    )*};
}
result_types! {
    Bool => i64, f32, Bool;
    u8 => i64, f32, u8;
    i8 => i64, f32, Bool;
    i16 => i64, f32, Bool;
    i32 => i64, f32, Bool;
    i64 => i64, f32, Bool;
    f16 => f16, f16, Bool;
    bf16 => bf16, bf16, Bool;
    f32 => f32, f32, Bool;
    f64 => f64, f64, Bool;
    u16 => i64, f32, Bool;
    u32 => i64, f32, Bool;
    u64 => i64, f32, Bool;
    Complex<f32> => Complex<f32>, Complex<f32>, Bool;
    Complex<f64> => Complex<f64>, Complex<f64>, Bool;
}

/// An element type with an order (`<`, `max`, `argmax`, sorting): every
/// dtype but the complex ones.
///
/// ```
/// use axial::Ordered;
/// fn ordered<T: Ordered>() {}
/// ordered::<u16>();
/// ordered::<axial::F8E4M3Fn>();
/// ```
#[diagnostic::on_unimplemented(
    message = "complex numbers have no order: `{Self}` has no `<`, `max` or `argmax`",
    label = "needs a real element type",
    note = "`.cast::<f32>()` keeps the real parts (as PyTorch's cast does), which have one"
)]
pub trait Ordered: Element + ordered::Sealed {}

mod ordered {
    pub trait Sealed {}
}

macro_rules! ordered {
    ($($t:ty),*) => {$( impl ordered::Sealed for $t {} impl Ordered for $t {} )*};
}
ordered!(
    Bool, u8, i8, i16, i32, i64, u16, u32, u64, f16, bf16, f32, f64, F8E4M3Fn, F8E5M2, F8E4M3FnUz,
    F8E5M2FnUz
);

macro_rules! number {
    ($($t:ty),*) => {$( impl Number for $t {} )*};
}
number!(
    u8,
    i8,
    i16,
    i32,
    i64,
    f16,
    bf16,
    f32,
    f64,
    Complex<f32>,
    Complex<f64>
);
