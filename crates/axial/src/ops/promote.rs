//! PyTorch's type promotion table at the type level, for explicit casts.

use axial_core::{Bool, Element};
use half::{bf16, f16};

/// PyTorch's `promote_types(Self, B)` (`c10/core/ScalarType.cpp`): the dtype both
/// operands of a mixed op would convert to. axial never promotes on its own;
/// this names the type for an explicit `.cast::<Promoted<A, B>>()`.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// use axial::Promoted;
/// let a = Tensor::<u8, shape![2]>::from_array([1, 2]);
/// let b = Tensor::<i8, shape![2]>::from_array([-1, 1]);
/// let sum = a.cast::<Promoted<u8, i8>>() + b.cast::<Promoted<u8, i8>>();
/// assert_eq!(sum.dtype(), DType::I16);
/// assert_eq!(sum.to_vec(), vec![0i16, 3]);
/// ```
pub trait Promote<B: Element>: Element {
    /// The common dtype.
    type Output: Element;
}

/// The dtype PyTorch promotes `A` and `B` to.
///
/// ```
/// use axial::prelude::*;
/// use axial::Promoted;
/// assert_eq!(<Promoted<u8, i8> as axial::Element>::DTYPE, DType::I16);
/// assert_eq!(<Promoted<Bool, f16> as axial::Element>::DTYPE, DType::F16);
/// assert_eq!(<Promoted<i64, f32> as axial::Element>::DTYPE, DType::F32);
/// ```
pub type Promoted<A, B> = <A as Promote<B>>::Output;

/// One row of the table: `$a` with each column type.
macro_rules! row {
    ($a:ty => $($b:ty: $out:ty),*) => {$(
        impl Promote<$b> for $a {
            type Output = $out;
        }
    )*};
}

row!(Bool => Bool: Bool, u8: u8, i8: i8, i16: i16, i32: i32, i64: i64, f16: f16, bf16: bf16, f32: f32, f64: f64);
row!(u8 => Bool: u8, u8: u8, i8: i16, i16: i16, i32: i32, i64: i64, f16: f16, bf16: bf16, f32: f32, f64: f64);
row!(i8 => Bool: i8, u8: i16, i8: i8, i16: i16, i32: i32, i64: i64, f16: f16, bf16: bf16, f32: f32, f64: f64);
row!(i16 => Bool: i16, u8: i16, i8: i16, i16: i16, i32: i32, i64: i64, f16: f16, bf16: bf16, f32: f32, f64: f64);
row!(i32 => Bool: i32, u8: i32, i8: i32, i16: i32, i32: i32, i64: i64, f16: f16, bf16: bf16, f32: f32, f64: f64);
row!(i64 => Bool: i64, u8: i64, i8: i64, i16: i64, i32: i64, i64: i64, f16: f16, bf16: bf16, f32: f32, f64: f64);
row!(f16 => Bool: f16, u8: f16, i8: f16, i16: f16, i32: f16, i64: f16, f16: f16, bf16: f32, f32: f32, f64: f64);
row!(bf16 => Bool: bf16, u8: bf16, i8: bf16, i16: bf16, i32: bf16, i64: bf16, f16: f32, bf16: bf16, f32: f32, f64: f64);
row!(f32 => Bool: f32, u8: f32, i8: f32, i16: f32, i32: f32, i64: f32, f16: f32, bf16: f32, f32: f32, f64: f64);
row!(f64 => Bool: f64, u8: f64, i8: f64, i16: f64, i32: f64, i64: f64, f16: f64, bf16: f64, f32: f64, f64: f64);
