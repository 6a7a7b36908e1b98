//! What the einops macros take: a tensor, or a list of tensors of one shape
//! stacked along a new first axis (as einops stacks a list), which the
//! pattern names.

use axial_core::einops::stack;
use axial_core::{Backend, Element, Result, TensorRef};
use axial_shape::typenum::{Const, ToUInt, U};
use axial_shape::{Ax, Dyn, Unnamed};

use crate::access::owned;
use crate::repr::{Data, Owned};
use crate::tensor::{Tensor, TensorBase};

/// The input of `rearrange!`, `reduce!` and `repeat!`: a tensor (any storage
/// kind, kept when the result is a view), or a list of tensors of one shape
/// (an array, a `Vec` or a slice), stacked into a new tensor whose first axis,
/// `Unnamed<0>`, the pattern names.
///
/// ```
/// use axial::__private::Input;
/// use axial::prelude::*;
/// axes!(Rows);
/// let x = Tensor::<f32, shape![Rows: 3]>::zeros();
/// let stacked = vec![x.as_view(); 4].tensor()?;
/// assert_eq!(stacked.sizes().as_slice(), &[4, 3]);
/// # Ok::<(), axial::Error>(())
/// ```
///
/// A tracked tensor ([`Var`](crate::autograd::Var)) is taken by the
/// macros through [`Subject`](super::Subject), which records the pattern's
/// steps in its history.
#[diagnostic::on_unimplemented(
    message = "the einops macros take a tensor, a view or a list of tensors, not `{Self}`",
    label = "not an einops input",
    note = "give a `Tensor`, a view (`x.as_view()`) or a list of tensors of one shape"
)]
pub trait Input {
    /// The element type.
    type Elem: Element;
    /// The shape.
    type Shape;
    /// The device.
    type Device: Backend;
    /// The storage kind.
    type Repr: Data<Self::Device>;

    /// The input as one tensor.
    ///
    /// # Errors
    /// An empty list, or the device failed to stack.
    fn tensor(self) -> Result<InputTensor<Self>>;
}

/// The tensor an input is.
pub type InputTensor<I> =
    TensorBase<<I as Input>::Elem, <I as Input>::Shape, <I as Input>::Device, <I as Input>::Repr>;

impl<T: Element, S, D: Backend, R: Data<D>> Input for TensorBase<T, S, D, R> {
    type Elem = T;
    type Shape = S;
    type Device = D;
    type Repr = R;

    fn tensor(self) -> Result<Self> {
        Ok(self)
    }
}

/// The tensors stacked along a new first axis.
fn stacked<'t, T, S, S2, D, R>(
    xs: impl IntoIterator<Item = &'t TensorBase<T, S, D, R>>,
) -> Result<Tensor<T, S2, D>>
where
    T: Element + 't,
    S: 't,
    D: Backend,
    R: Data<D> + 't,
{
    let views = xs
        .into_iter()
        .map(TensorBase::raw)
        .collect::<Vec<TensorRef<'_, D>>>();
    Ok(owned(stack(&views)?))
}

impl<T: Element, S, D: Backend, R: Data<D>, const N: usize> Input for [TensorBase<T, S, D, R>; N]
where
    Const<N>: ToUInt,
{
    type Elem = T;
    type Shape = Ax<Unnamed<0>, U<N>, S>;
    type Device = D;
    type Repr = Owned<D>;

    fn tensor(self) -> Result<Tensor<T, Self::Shape, D>> {
        stacked(&self)
    }
}

impl<T: Element, S, D: Backend, R: Data<D>> Input for Vec<TensorBase<T, S, D, R>> {
    type Elem = T;
    type Shape = Ax<Unnamed<0>, Dyn, S>;
    type Device = D;
    type Repr = Owned<D>;

    fn tensor(self) -> Result<Tensor<T, Self::Shape, D>> {
        stacked(&self)
    }
}

impl<T: Element, S, D: Backend, R: Data<D>> Input for &[TensorBase<T, S, D, R>] {
    type Elem = T;
    type Shape = Ax<Unnamed<0>, Dyn, S>;
    type Device = D;
    type Repr = Owned<D>;

    fn tensor(self) -> Result<Tensor<T, Self::Shape, D>> {
        stacked(self)
    }
}
