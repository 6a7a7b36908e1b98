//! Nested arrays (`[[1., 2.], [3., 4.]]`) whose nesting is proven to match a
//! shape: one array level per axis, each extent the axis' static size.

use axial_core::Bool;
use axial_shape::report::{ExtentFits, NestsLike};
use axial_shape::{Ax, ExtentIs, Nil};
use half::{bf16, f16};

/// A nested array of `T` with the nesting of the shape `S`; `Disp` is the
/// shape's display, for the message when it does not fit.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array([[1., 2., 3.], [4., 5., 6.]]);
/// assert_eq!(m.get([1, 0]), 4.0);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not nest like a tensor of shape `{Disp}` with `{T}` elements",
    label = "one array level per axis, of `{T}` elements"
)]
pub trait NestedArray<T, S, Disp> {
    /// Appends the elements in row-major order.
    fn push_to(&self, out: &mut Vec<T>);
    /// Writes the extent of each level into `out`.
    fn extents(out: &mut [usize]);
}

impl<A: NestedArray<T, Tl, Disp>, const K: usize, N, Sz, Tl, T, Disp>
    NestedArray<T, Ax<N, Sz, Tl>, Disp> for [A; K]
where
    Sz: ExtentIs<K>,
    <Sz as ExtentIs<K>>::Out: ExtentFits<K, N, Disp>,
{
    fn push_to(&self, out: &mut Vec<T>) {
        for a in self {
            a.push_to(out);
        }
    }

    fn extents(out: &mut [usize]) {
        if let Some((first, rest)) = out.split_first_mut() {
            *first = K;
            A::extents(rest);
        }
    }
}

/// An array level where the shape has no axis left.
impl<A, const K: usize, T, Disp> NestedArray<T, Nil, Disp> for [A; K]
where
    [A; K]: NestsLike<Disp>,
{
    fn push_to(&self, _: &mut Vec<T>) {}

    fn extents(_: &mut [usize]) {}
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl<Disp> NestedArray<$t, Nil, Disp> for $t {
            fn push_to(&self, out: &mut Vec<$t>) {
                out.push(*self);
            }

            fn extents(_: &mut [usize]) {}
        }

        /// A scalar where the shape still has axes.
        impl<N, Sz, Tl, Disp> NestedArray<$t, Ax<N, Sz, Tl>, Disp> for $t
        where
            $t: NestsLike<Disp>,
        {
            fn push_to(&self, _: &mut Vec<$t>) {}

            fn extents(_: &mut [usize]) {}
        }
    )*};
}
scalar!(
    f64, f32, bf16, f16, i64, i32, i16, i8, u8, Bool, u16, u32, u64
);
scalar!(
    num_complex::Complex<f32>,
    num_complex::Complex<f64>,
    crate::F8E4M3Fn,
    crate::F8E5M2,
    crate::F8E4M3FnUz,
    crate::F8E5M2FnUz
);
