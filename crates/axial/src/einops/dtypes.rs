//! The dtypes of `reduce!`'s results, as PyTorch gives them (semantics.md §7):
//! `sum` and `prod` of integers and bools are `i64`, `any` and `all` are
//! bools (`u8` stays `u8`), floats keep their dtype.

use axial_core::{Bool, Element};
use half::{bf16, f16};

/// The element types of `reduce!`'s results whose dtype PyTorch changes.
///
/// ```
/// use axial::__private::ReducedTypes;
/// let _: Option<<i32 as ReducedTypes>::Sum> = None::<i64>;
/// let _: Option<<u8 as ReducedTypes>::AnyAll> = None::<u8>;
/// let _: Option<<f32 as ReducedTypes>::AnyAll> = None::<axial::Bool>;
/// ```
pub trait ReducedTypes: Element {
    /// Of `sum` and `prod`.
    type Sum: Element;
    /// Of `any` and `all`.
    type AnyAll: Element;
}

macro_rules! reduced_types {
    ($($t:ty => $sum:ty, $any:ty;)*) => {$(
        impl ReducedTypes for $t {
            type Sum = $sum;
            type AnyAll = $any;
        }
    )*};
}
reduced_types! {
    Bool => i64, Bool;
    u8 => i64, u8;
    i8 => i64, Bool;
    i16 => i64, Bool;
    i32 => i64, Bool;
    i64 => i64, Bool;
    f16 => f16, Bool;
    bf16 => bf16, Bool;
    f32 => f32, Bool;
    f64 => f64, Bool;
}
