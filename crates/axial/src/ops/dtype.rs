//! Element types in op signatures: operands of one dtype, the numbers,
//! the dtypes PyTorch adds, divides and orders, and the dtypes PyTorch
//! gives results.

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

/// An element type with arithmetic (`-`, `neg`, powers): every dtype but
/// `Bool` (PyTorch refuses `-` and `neg` on bool tensors, and `//`, `%`
/// and powers are not defined for them), the wide unsigned integers and
/// the float8s (PyTorch's CPU kernels multiply them, and do no more
/// arithmetic); complex numbers are numbers. Numbers add ([`Addable`]).
///
/// ```
/// use axial::Number;
/// fn number<T: Number>() {}
/// number::<u8>();
/// number::<half::f16>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number type: PyTorch has no `-`, `neg` or powers for it",
    label = "needs an integer (not uint16/32/64), floating-point (not float8) or complex element type",
    note = "bool tensors have `logical_and`, `logical_or` and `logical_not`; uint16/32/64 and float8 tensors multiply (`*`); for the rest convert first with `.cast::<i64>()` or `.cast::<f32>()`"
)]
pub trait Number: Addable + Magnitude + Logical + sealed::Sealed {}

/// A real number type (`%`, `//`): the integers but uint16/32/64, and the
/// floats but the float8s. PyTorch's remainder and floor division take no
/// bool, complex (`"remainder_cpu" not implemented for 'ComplexFloat'`),
/// wide unsigned or float8 tensors.
///
/// ```
/// use axial::RealNumber;
/// fn real<T: RealNumber>() {}
/// real::<i8>();
/// real::<half::bf16>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` tensors have no `%` or `//`: PyTorch's remainder and floor division take integers and floats only",
    label = "needs an integer (not uint16/32/64) or floating-point (not float8) element type",
    note = "complex numbers have no remainder; for the others convert first with `.cast::<i64>()` or `.cast::<f32>()`"
)]
pub trait RealNumber: Number + Ordered + Clampable {}

macro_rules! real_number {
    ($($t:ty),*) => {$( impl RealNumber for $t {} )*};
}
real_number!(u8, i8, i16, i32, i64, f16, bf16, f32, f64);

/// An element type PyTorch adds (`+`, `+=`, `add`): every dtype but the
/// wide unsigned integers and the float8s, which PyTorch's CPU kernels
/// multiply but do not add (`"add_stub" not implemented for 'UInt16'`).
/// On bool tensors `+` is `or`.
///
/// ```
/// use axial::Addable;
/// fn addable<T: Addable>() {}
/// addable::<axial::Bool>();
/// addable::<axial::Complex<f32>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` tensors cannot be added: PyTorch has no `+` for uint16/32/64 or float8 tensors",
    label = "needs an element type with `+`",
    note = "they multiply (`*`); to add, convert first with `.cast::<i64>()` (the unsigned integers) or `.cast::<f32>()` (the float8s)"
)]
pub trait Addable: Element + addable::Sealed {}

mod addable {
    pub trait Sealed {}
}

/// An element type PyTorch divides (`/`, `div`): every dtype but the
/// float8s (`"div_cpu" not implemented for 'Float8_e4m3fn'`). Integers
/// and bool give `f32` ([`ResultTypes::Quotient`]).
///
/// ```
/// use axial::Divisible;
/// fn divisible<T: Divisible>() {}
/// divisible::<u16>();
/// divisible::<axial::Complex<f64>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` tensors cannot be divided: PyTorch has no `/` for float8 tensors",
    label = "needs an element type with `/`",
    note = "they multiply (`*`); to divide, convert first with `.cast::<f32>()`"
)]
pub trait Divisible: ResultTypes {}

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
        impl Divisible for $t {}
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

/// An element type PyTorch orders (`<`, `max`, `argmax`, sorting): bool,
/// the integers and the floats, but not the complex numbers (which have no
/// order), nor the wide unsigned integers and the float8s (PyTorch's CPU
/// kernels compare them for equality only: `"lt_cpu" not implemented for
/// 'UInt16'`).
///
/// ```
/// use axial::Ordered;
/// fn ordered<T: Ordered>() {}
/// ordered::<u8>();
/// ordered::<half::bf16>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no order: PyTorch has no `<`, `max` or `argmax` for complex, uint16/32/64 or float8 tensors",
    label = "needs a real element type that PyTorch compares",
    note = "`.cast::<f32>()` keeps the real parts of complex numbers (as PyTorch's cast does); `.cast::<i64>()` or `.cast::<f32>()` converts the others"
)]
pub trait Ordered: RealValued + ordered::Sealed {}

mod ordered {
    pub trait Sealed {}
}

macro_rules! ordered {
    ($($t:ty),*) => {$( impl ordered::Sealed for $t {} impl Ordered for $t {} )*};
}
ordered!(Bool, u8, i8, i16, i32, i64, f16, bf16, f32, f64);

macro_rules! addable {
    ($($t:ty),*) => {$( impl addable::Sealed for $t {} impl Addable for $t {} )*};
}
addable!(
    Bool,
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

/// An element type with `maximum`, `minimum` and `atan2`: bool, every
/// integer (uint16/32/64 included) and the floats but the float8s. PyTorch
/// refuses complex operands (`maximum not implemented for complex tensors.`)
/// and float8 ones (`"maximum_cpu" not implemented for 'Float8_e4m3fn'`).
/// Every [`Ordered`] type is one.
///
/// ```
/// use axial::RealValued;
/// fn real_valued<T: RealValued>() {}
/// real_valued::<u32>();
/// real_valued::<axial::Bool>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` tensors have no `maximum`, `minimum` or `atan2`: PyTorch computes them for bool, integer and floating-point (not float8) tensors only",
    label = "needs a real element type other than float8",
    note = "complex numbers have no order; convert float8 first with `.cast::<f32>()`"
)]
pub trait RealValued: ResultTypes + real_valued::Sealed {}

mod real_valued {
    pub trait Sealed {}
}

/// An element type with `relu` and `clamp`: every integer (uint16/32/64
/// included) and the floats but the float8s. PyTorch refuses bool
/// (`Boolean inputs not supported for relu`), complex (`clamp is not
/// supported for complex types`) and float8 tensors. Every
/// [`RealNumber`] type is one.
///
/// ```
/// use axial::Clampable;
/// fn clampable<T: Clampable>() {}
/// clampable::<u16>();
/// clampable::<half::f16>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` tensors cannot be clamped: PyTorch's `relu` and `clamp` take integer and floating-point (not float8) tensors only",
    label = "needs an integer or floating-point element type other than float8",
    note = "complex numbers have no order; convert bool or float8 first with `.cast::<f32>()`"
)]
pub trait Clampable: Element + clampable::Sealed {}

mod clampable {
    pub trait Sealed {}
}

/// An element type with `abs`: every [`Number`] and the float8s. PyTorch
/// refuses bool and uint16/32/64 tensors (`"abs_cpu" not implemented for
/// 'UInt16'`). The absolute value of a complex number is its modulus, and
/// stays complex here as in PyTorch's `abs` on the element type.
///
/// ```
/// use axial::Magnitude;
/// fn magnitude<T: Magnitude>() {}
/// magnitude::<i8>();
/// magnitude::<axial::F8E4M3Fn>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` tensors have no `abs`: PyTorch takes signed or unsigned 8-bit to 64-bit integers (not uint16/32/64), floats and complex numbers",
    label = "needs a numeric element type with an absolute value",
    note = "convert first with `.cast::<i64>()`"
)]
pub trait Magnitude: Element + magnitude::Sealed {}

mod magnitude {
    pub trait Sealed {}
}

/// An element type PyTorch reads as truth values in `logical_and`,
/// `logical_or` and `logical_not` (non-zero is true): bool, the integers but uint16/32/64,
/// the floats but the float8s, and complex numbers.
///
/// ```
/// use axial::Logical;
/// fn logical<T: Logical>() {}
/// logical::<axial::Bool>();
/// logical::<axial::Complex<f32>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` tensors have no `logical_and`, `logical_or` or `logical_not`: PyTorch refuses uint16/32/64 and float8 tensors there",
    label = "needs an element type PyTorch reads as a truth value",
    note = "compare first (`.ne_scalar(0)`), or convert with `.cast::<i64>()` or `.cast::<f32>()`"
)]
pub trait Logical: Element + logical::Sealed {}

mod logical {
    pub trait Sealed {}
}

macro_rules! element_class {
    ($class:ident, $sealed:ident: $($t:ty),*) => {$( impl $sealed::Sealed for $t {} impl $class for $t {} )*};
}
element_class!(RealValued, real_valued: Bool, u8, i8, i16, i32, i64, u16, u32, u64, f16, bf16, f32, f64);
element_class!(Clampable, clampable: u8, i8, i16, i32, i64, u16, u32, u64, f16, bf16, f32, f64);
element_class!(Magnitude, magnitude: u8, i8, i16, i32, i64, f16, bf16, f32, f64, Complex<f32>, Complex<f64>, F8E4M3Fn, F8E5M2, F8E4M3FnUz, F8E5M2FnUz);
element_class!(Logical, logical: Bool, u8, i8, i16, i32, i64, f16, bf16, f32, f64, Complex<f32>, Complex<f64>);

/// An element type with PyTorch's transcendental functions (`exp`, `log`,
/// `log1p`, `expm1`, `sqrt`, `rsqrt`, the trigonometric ones, `tanh`,
/// `sigmoid`, `silu`, `reciprocal`): the floats (not float8) and the
/// complex numbers, computed as PyTorch computes them on the principal
/// branch. Every [`Float`](crate::Float) is one. (PyTorch also takes
/// integers there, giving floats; here an integer tensor is cast first,
/// so that the result's dtype is written where it changes.)
///
/// ```
/// use axial::Transcendental;
/// fn transcendental<T: Transcendental>() {}
/// transcendental::<half::bf16>();
/// transcendental::<axial::Complex<f64>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` tensors have no `exp`, `log`, `sqrt` or trigonometric functions: these take floating-point (not float8) and complex tensors",
    label = "needs a floating-point or complex element type",
    note = "convert first with `.cast::<f32>()`: PyTorch computes an integer tensor's `exp` in its default float dtype"
)]
pub trait Transcendental: Element + transcendental::Sealed {}

mod transcendental {
    pub trait Sealed {}
}

element_class!(Transcendental, transcendental: f16, bf16, f32, f64, Complex<f32>, Complex<f64>);
