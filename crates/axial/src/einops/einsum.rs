//! What `einsum!` calls: the operands' shapes proven against the pattern,
//! then einops' einsum (lowered to batched matmul) on their layouts.

use axial_core::einops;
use axial_core::{Backend, Device, Element, Result, TensorRef};
use axial_shape::einops::EinsumOf;
use axial_shape::{Cons, Nil};

use super::recipe::EinsumCell;
use crate::access::owned;
use crate::ops::SameDType;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// One operand of `einsum!`: a tensor (owned, shared or a view), or a
/// reference to one at any depth, so that code holding a `&Tensor` passes it
/// as it is.
///
/// ```
/// use axial::__private::einsum_operand;
/// use axial::prelude::*;
/// let a = Tensor::<f32, shape![2]>::zeros();
/// let by_ref = &a;
/// assert!(einsum_operand(&&by_ref).shares_storage_with(&a));
/// ```
#[diagnostic::on_unimplemented(
    message = "`einsum!` takes tensors, and `{Self}` is not one",
    label = "not a tensor",
    note = "give a `Tensor`, a view, or a reference to one; a tracked tensor (`Var`) would lose its history here: contract it with the tracked `matmul` or `linear`, or read `v.value()` for no gradient"
)]
pub trait EinsumOperand {
    /// Its element type.
    type Elem;
    /// Its shape.
    type Shape;
    /// Its device.
    type Device: Device;
    /// Its storage kind.
    type Repr;
    /// The tensor.
    fn tensor(&self) -> &TensorBase<Self::Elem, Self::Shape, Self::Device, Self::Repr>;
}

impl<T, S, D: Device, R> EinsumOperand for TensorBase<T, S, D, R> {
    type Elem = T;
    type Shape = S;
    type Device = D;
    type Repr = R;
    fn tensor(&self) -> &Self {
        self
    }
}
impl<X: EinsumOperand + ?Sized> EinsumOperand for &X {
    type Elem = X::Elem;
    type Shape = X::Shape;
    type Device = X::Device;
    type Repr = X::Repr;
    fn tensor(&self) -> &TensorBase<X::Elem, X::Shape, X::Device, X::Repr> {
        (**self).tensor()
    }
}
impl<X: EinsumOperand + ?Sized> EinsumOperand for &mut X {
    type Elem = X::Elem;
    type Shape = X::Shape;
    type Device = X::Device;
    type Repr = X::Repr;
    fn tensor(&self) -> &TensorBase<X::Elem, X::Shape, X::Device, X::Repr> {
        (**self).tensor()
    }
}

/// The tensor an operand of `einsum!` is (what the macro calls on each).
///
/// ```
/// use axial::__private::einsum_operand;
/// use axial::prelude::*;
/// let a = Tensor::<f32, shape![2]>::ones();
/// assert_eq!(einsum_operand(&&a).to_vec(), vec![1.0, 1.0]);
/// ```
pub fn einsum_operand<X: EinsumOperand + ?Sized>(
    operand: &X,
) -> &TensorBase<X::Elem, X::Shape, X::Device, X::Repr> {
    operand.tensor()
}

/// The operands of `einsum!`: a tuple of references to tensors of one
/// element type on one device (1 to 8 of them).
///
/// ```
/// use axial::__private::EinsumOperands;
/// use axial::prelude::*;
/// let a = Tensor::<f32, shape![2]>::zeros();
/// fn operands<O: EinsumOperands>(_: O) {}
/// operands((&a, &a.as_view()));
/// ```
#[diagnostic::on_unimplemented(
    message = "the operands of `einsum!` are not tensors on one device: `{Self}`",
    label = "operands on different devices",
    note = "move them to one device first with `.to_device(&device)` or `.to_cpu()`"
)]
pub trait EinsumOperands {
    /// Their element type.
    type Elem: Element;
    /// Their device.
    type Device: Backend;
    /// Their shapes, as a list.
    type Shapes;
    /// Their layouts as the core's views.
    ///
    /// # Errors
    /// A layout that does not fit its storage (never for a typed tensor).
    fn views(&self) -> Result<Vec<TensorRef<'_, Self::Device>>>;
}

/// The operands' tuple: the first one's element type `T0` is the result's,
/// and every other one's must be it ([`SameDType`]: a mixed call is the
/// dtype error of the binary ops, with the cast to write).
macro_rules! operands {
    ($($t:ident $s:ident $r:ident $i:tt),*) => {
        impl<'t, T0: Element, D: Backend, S0, R0: Data<D>, $($t: SameDType<T0>, $s, $r: Data<D>),*>
            EinsumOperands for (&'t TensorBase<T0, S0, D, R0>, $(&'t TensorBase<$t, $s, D, $r>,)*)
        {
            type Elem = T0;
            type Device = D;
            type Shapes = operands!(@list S0 $(, $s)*);

            fn views(&self) -> Result<Vec<TensorRef<'_, D>>> {
                Ok(vec![self.0.raw() $(, self.$i.raw())*])
            }
        }
    };
    (@list $first:ident $(, $rest:ident)*) => { Cons<$first, operands!(@list $($rest),*)> };
    (@list) => { Nil };
}
operands!();
operands!(T1 S1 R1 1);
operands!(T1 S1 R1 1, T2 S2 R2 2);
operands!(T1 S1 R1 1, T2 S2 R2 2, T3 S3 R3 3);
operands!(T1 S1 R1 1, T2 S2 R2 2, T3 S3 R3 3, T4 S4 R4 4);
operands!(T1 S1 R1 1, T2 S2 R2 2, T3 S3 R3 3, T4 S4 R4 4, T5 S5 R5 5);
operands!(T1 S1 R1 1, T2 S2 R2 2, T3 S3 R3 3, T4 S4 R4 4, T5 S5 R5 5, T6 S6 R6 6);
operands!(T1 S1 R1 1, T2 S2 R2 2, T3 S3 R3 3, T4 S4 R4 4, T5 S5 R5 5, T6 S6 R6 6, T7 S7 R7 7);

/// The output shape of `einsum!`.
type Out<O, Specs, Right> = <<O as EinsumOperands>::Shapes as EinsumOf<Specs, Right>>::Output;
/// The tensor `einsum!` gives.
type Product<O, Specs, Right> =
    Tensor<<O as EinsumOperands>::Elem, Out<O, Specs, Right>, <O as EinsumOperands>::Device>;

/// `einsum!`: a new tensor (integers are multiplied and summed, floats go
/// through batched matmul).
///
/// # Errors
/// Sizes known only at run time that disagree; the kernels' errors.
pub fn einsum<Specs, Right, O>(cell: &EinsumCell, operands: O) -> Result<Product<O, Specs, Right>>
where
    O: EinsumOperands,
    O::Shapes: EinsumOf<Specs, Right>,
{
    let views = operands.views()?;
    let refs: Vec<&TensorRef<'_, O::Device>> = views.iter().collect();
    Ok(owned(einops::apply_einsum(cell.get()?, &refs)?))
}
