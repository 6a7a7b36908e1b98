//! Bundles: one bound, in the user's words, for what a generic function
//! does with a shape, standing for the several proofs its ops ask.
//!
//! Model code over concrete (static or symbolic) sizes needs no bound at
//! all; a bundle is for a function that is generic over the shape itself,
//! "any tensor with an axis `Batch`". A bundle is a trait whose supertraits
//! are the ops' own bounds, with a blanket impl, so a shape has it exactly
//! when every op of the bundle is proven for it, and inside the function
//! the compiler knows what each op gives (the output shapes are named in
//! the supertraits).

use super::broadcast::BroadcastWith;
use super::reduce::Reduce;

/// A shape with the axis `A` whose statistics over `A`, kept as an axis of
/// size 1 (`mean_keepdim`, `std_keepdim`, `amax_keepdim`, ...), broadcast
/// back onto it: what `(x - mean) / std` over `A` asks.
///
/// ```
/// use axial_shape::{Dyn, OverAxis, axes, shape};
/// axes!(Batch, Features);
/// fn standardizes<S: OverAxis<Batch>>() {}
/// standardizes::<shape![Batch: 8, Features: 3]>();
/// standardizes::<shape![Features: 3, Batch: Dyn]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "tensor of shape `{Self}` has no axis `{A}` to take statistics over",
    label = "no axis `{A}`",
    note = "`OverAxis<{A}>` holds for every shape with an axis `{A}`"
)]
pub trait OverAxis<A>: Reduce<A> + BroadcastWith<<Self as Reduce<A>>::Kept, Output = Self> {}

impl<S, A> OverAxis<A> for S where S: Reduce<A> + BroadcastWith<<S as Reduce<A>>::Kept, Output = S> {}
