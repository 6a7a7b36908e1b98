//! What `rearrange!`, `reduce!` and `repeat!` take: an [`Input`] (a tensor
//! or a list of tensors), computed as before, or a tracked tensor
//! ([`Var`]), whose steps the graph records.

use axial_core::einops::apply_tracked;
use axial_core::{Backend, Element, Error, Result};

use super::input::Input;
use super::recipe::RecipeCell;
use super::run::{Broadcast, BroadcastCopied, Copied, Viewed, untracked};
use crate::autograd::{Access, Kept, Var, Writable};
use crate::float::Float;
use crate::tensor::Tensor;

/// What `rearrange!`, `reduce!` and `repeat!` take, and what each gives
/// for a result of shape `S`: for an [`Input`], the tensor it gave before
/// (a view in the input's storage where einops' result is one); for a
/// tracked tensor ([`Var`]), a tracked tensor whose history records the
/// pattern's steps (reshapes, a permutation, the reduction with its
/// derivative, an expand whose gradient sums the copies).
///
/// ```
/// use axial::prelude::*;
/// axes!(Batch, Seq, Heads, Head);
/// let x = Tensor::<f64, shape![Batch: 1, Seq: 2, 4]>::arange();
/// let xv = x.track();
/// let heads = rearrange!(xv.as_kept(), "Batch Seq (Heads Head) -> Batch Heads Seq Head", Heads = 2);
/// let grads = heads.square().sum_all().backward();
/// assert_eq!(grads.of(&xv).unwrap().to_vec(), (0..8).map(|i| 2.0 * i as f64).collect::<Vec<_>>());
/// ```
#[diagnostic::on_unimplemented(
    message = "the einops macros take a tensor, a view, a list of tensors or a tracked tensor, not `{Self}`",
    label = "not an einops input",
    note = "give a `Tensor`, a view (`x.as_view()`), a list of tensors of one shape, or a `Var`"
)]
pub trait Subject: Sized {
    /// The element type.
    type Elem: Element;
    /// The shape.
    type Shape;
    /// A rearrangement that is a view.
    type View<S>;
    /// A rearrangement that may copy.
    type Copied<S>;
    /// A repetition that is a view.
    type Broadcast<S>;
    /// A repetition that may copy.
    type BroadcastCopied<S>;
    /// A reduction to `U` that keeps nothing (`sum`, `mean`).
    type Reduced<U, S>;
    /// A reduction to `U` that keeps its output (`max`, `min`, `prod`).
    type Kept<U, S>;

    /// `rearrange!` that is a view.
    ///
    /// # Errors
    /// A run-time size that does not fit (einops' message).
    fn rearrange_view<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Self::View<S>>;
    /// `rearrange!` that may copy.
    ///
    /// # Errors
    /// As [`rearrange_view`](Self::rearrange_view); the device failed.
    fn rearrange<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Self::Copied<S>>;
    /// `repeat!` that is a view.
    ///
    /// # Errors
    /// As [`rearrange_view`](Self::rearrange_view).
    fn repeat_view<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Self::Broadcast<S>>;
    /// `repeat!` that may copy.
    ///
    /// # Errors
    /// As [`rearrange`](Self::rearrange).
    fn repeat<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Self::BroadcastCopied<S>>;
    /// `reduce!` by `sum` or `mean`, to `U`.
    ///
    /// # Errors
    /// As [`rearrange`](Self::rearrange).
    fn reduce<U: Element, S>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Self::Reduced<U, S>>;
    /// `reduce!` by `max`, `min` or `prod`, to `U`.
    ///
    /// # Errors
    /// As [`rearrange`](Self::rearrange).
    fn reduce_kept<U: Element, S>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Self::Kept<U, S>>;
}

impl<X: Input> Subject for X {
    type Elem = X::Elem;
    type Shape = X::Shape;
    type View<S> = Viewed<X, S>;
    type Copied<S> = Copied<X, S>;
    type Broadcast<S> = Broadcast<X, S>;
    type BroadcastCopied<S> = BroadcastCopied<X, S>;
    type Reduced<U, S> = Tensor<U, S, X::Device>;
    type Kept<U, S> = Tensor<U, S, X::Device>;

    fn rearrange_view<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Viewed<X, S>> {
        untracked::rearrange_view::<S, X>(self, cell, sizes)
    }
    fn rearrange<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Copied<X, S>> {
        untracked::rearrange::<S, X>(self, cell, sizes)
    }
    fn repeat_view<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Broadcast<X, S>> {
        untracked::repeat_view::<S, X>(self, cell, sizes)
    }
    fn repeat<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<BroadcastCopied<X, S>> {
        untracked::repeat::<S, X>(self, cell, sizes)
    }
    fn reduce<U: Element, S>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Tensor<U, S, X::Device>> {
        untracked::reduce::<U, S, X>(self, cell, sizes)
    }
    fn reduce_kept<U: Element, S>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Tensor<U, S, X::Device>> {
        untracked::reduce::<U, S, X>(self, cell, sizes)
    }
}

impl<'g, T: Float, S0, D: Backend, W: Access> Var<'g, T, S0, D, W> {
    /// The recipe's steps recorded on this tensor, as a tensor of `U`,
    /// `S` and access `W2` (`U` is `T`).
    fn recorded<U, S, W2>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Var<'g, U, S, D, W2>> {
        let out = apply_tracked(&*self.core()?, cell.get()?, sizes)?;
        Ok(Var::from_core(out))
    }

    /// A reduction recorded, its result of element type `U` (always `T`:
    /// the sum of a float keeps its dtype).
    fn einops_reduced<U: Element, S, W2>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Var<'g, U, S, D, W2>> {
        if U::DTYPE != T::DTYPE {
            return Err(Error::invalid(
                "reduce",
                format!("a reduction of {} gives {}", T::DTYPE, U::DTYPE),
            ));
        }
        self.recorded(cell, sizes)
    }
}

impl<'g, T: Float, S0, D: Backend, W: Access> Subject for Var<'g, T, S0, D, W> {
    type Elem = T;
    type Shape = S0;
    type View<S> = Var<'g, T, S, D, W>;
    type Copied<S> = Var<'g, T, S, D, W>;
    type Broadcast<S> = Var<'g, T, S, D, Kept>;
    type BroadcastCopied<S> = Var<'g, T, S, D, Kept>;
    type Reduced<U, S> = Var<'g, U, S, D, Writable>;
    type Kept<U, S> = Var<'g, U, S, D, Kept>;

    fn rearrange_view<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Self::View<S>> {
        self.recorded(cell, sizes)
    }
    fn rearrange<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Self::Copied<S>> {
        self.recorded(cell, sizes)
    }
    fn repeat_view<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Self::Broadcast<S>> {
        self.recorded(cell, sizes)
    }
    fn repeat<S>(self, cell: &RecipeCell, sizes: &[usize]) -> Result<Self::BroadcastCopied<S>> {
        self.recorded(cell, sizes)
    }
    fn reduce<U: Element, S>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Self::Reduced<U, S>> {
        self.einops_reduced(cell, sizes)
    }
    fn reduce_kept<U: Element, S>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Self::Kept<U, S>> {
        self.einops_reduced(cell, sizes)
    }
}

/// What `reduce!` by `any` or `all` takes: an [`Input`]. They have no
/// derivative, so a tracked tensor is refused (no silent cut of the graph).
///
/// ```
/// use axial::__private::Untracked;
/// use axial::prelude::*;
/// fn untracked<X: Untracked>(_: X) {}
/// untracked(Tensor::<f32, shape![2]>::zeros());
/// ```
#[diagnostic::on_unimplemented(
    message = "`reduce!` by `any` or `all` has no derivative, so it does not take a tracked tensor: `{Self}`",
    label = "tracked: `any` and `all` would cut the graph",
    note = "reduce `v.value()` (the elements, without history), or a `v.detach()`ed copy"
)]
pub trait Untracked: Subject {
    /// The device.
    type Device: Backend;

    /// `reduce!` to `U` (a new tensor).
    ///
    /// # Errors
    /// As [`Subject::rearrange`].
    fn reduce_untracked<U: Element, S>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Tensor<U, S, Self::Device>>;
}

impl<X: Input> Untracked for X {
    type Device = X::Device;

    fn reduce_untracked<U: Element, S>(
        self,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Tensor<U, S, X::Device>> {
        untracked::reduce::<U, S, X>(self, cell, sizes)
    }
}
