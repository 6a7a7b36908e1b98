//! `scaled_dot_product_attention`: queries `[..., Seq, Head]` against keys
//! `[..., Key, Head]` and values `[..., Key, Value]`, proven as the two
//! products it is (`q·kᵀ` contracts `Head`, `·v` contracts `Key`).

use super::matmul::{MatMul, MatMulOut};
use crate::shape::{Ax, Nil, Shape};

/// The shape with its last two axes swapped (`x.transpose(-2, -1)`): what
/// attention reads its keys as.
///
/// ```
/// use axial_shape::{Shape, SwapLast, axes, shape};
/// axes!(Heads, Key, Head);
/// let mut names = [None; 3];
/// <<shape![Heads: 2, Key: 5, Head: 8] as SwapLast>::Output as Shape>::write_names(&mut names);
/// assert_eq!(names, [Some("Heads"), Some("Head"), Some("Key")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has fewer than two axes",
    label = "attention needs `[..., Seq, Head]` queries and `[..., Key, Head]` keys and values",
    note = "`unsqueeze` adds an axis of size 1"
)]
pub trait SwapLast: Shape {
    /// The shape with the last two swapped.
    type Output: Shape;
}
impl<N1, Z1, N2, Z2> SwapLast for Ax<N1, Z1, Ax<N2, Z2, Nil>>
where
    Ax<N1, Z1, Ax<N2, Z2, Nil>>: Shape,
    Ax<N2, Z2, Ax<N1, Z1, Nil>>: Shape,
{
    type Output = Ax<N2, Z2, Ax<N1, Z1, Nil>>;
}
impl<N, Z, N2, Z2, N3, Z3, T> SwapLast for Ax<N, Z, Ax<N2, Z2, Ax<N3, Z3, T>>>
where
    Ax<N, Z, Ax<N2, Z2, Ax<N3, Z3, T>>>: Shape,
    Ax<N2, Z2, Ax<N3, Z3, T>>: SwapLast,
    Ax<N, Z, <Ax<N2, Z2, Ax<N3, Z3, T>> as SwapLast>::Output>: Shape,
{
    type Output = Ax<N, Z, <Ax<N2, Z2, Ax<N3, Z3, T>> as SwapLast>::Output>;
}

/// Attention of queries of this shape over keys `SK` and values `SV`:
/// `q·kᵀ` contracts the queries' last axis with the keys' (name and size),
/// giving the scores `[..., Seq, Key]`; `·v` contracts `Key` with the
/// values' second-to-last. The leading axes broadcast, as `matmul`'s do.
///
/// ```
/// use axial_shape::{Attend, Shape, axes, shape};
/// axes!(Heads, Seq, Key, Head, Value);
/// type Q = shape![Heads: 2, Seq: 3, Head: 8];
/// type K = shape![Heads: 2, Key: 5, Head: 8];
/// type V = shape![Heads: 2, Key: 5, Value: 4];
/// let mut names = [None; 3];
/// <<Q as Attend<K, V>>::Scores as Shape>::write_names(&mut names);
/// assert_eq!(names, [Some("Heads"), Some("Seq"), Some("Key")]);
/// let mut sizes = [None; 3];
/// <<Q as Attend<K, V>>::Output as Shape>::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(3), Some(4)]);
/// ```
pub trait Attend<SK, SV>: SwapLast {
    /// The scores' shape, `[..., Seq, Key]`.
    type Scores: Shape;
    /// The output's shape, `[..., Seq, Value]`.
    type Output: Shape;
}
impl<S, SK, SV> Attend<SK, SV> for S
where
    S: SwapLast + MatMul<<SK as SwapLast>::Output>,
    SK: SwapLast,
    SV: SwapLast,
    MatMulOut<S, <SK as SwapLast>::Output>: MatMul<SV>,
{
    type Scores = MatMulOut<S, <SK as SwapLast>::Output>;
    type Output = MatMulOut<MatMulOut<S, <SK as SwapLast>::Output>, SV>;
}
