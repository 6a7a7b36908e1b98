//! What `einsum!` calls: the operands' shapes proven against the pattern,
//! then einops' einsum (lowered to batched matmul) on their layouts.

use axial_core::autograd::Var as CoreVar;
use axial_core::einops::{self, Einsum};
use axial_core::{Backend, Device, Element, Result, TensorRef};
use axial_shape::einops::EinsumOf;
use axial_shape::{Cons, Nil};

use super::recipe::EinsumCell;
use crate::access::owned;
use crate::autograd::{Var, Writable};
use crate::ops::SameDType;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// One operand of `einsum!`: a tensor (owned, shared or a view), a tracked
/// tensor ([`Var`]), or a reference to one at any depth, so that code
/// holding a `&Tensor` passes it as it is.
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
    note = "give a `Tensor`, a view, a tracked tensor (`Var`), or a reference to one"
)]
pub trait EinsumOperand {
    /// The tensor.
    type Target: ?Sized;
    /// The tensor.
    fn tensor(&self) -> &Self::Target;
}

impl<T, S, D: Device, R> EinsumOperand for TensorBase<T, S, D, R> {
    type Target = Self;
    fn tensor(&self) -> &Self {
        self
    }
}
impl<T, S, D: Device, W> EinsumOperand for Var<'_, T, S, D, W> {
    type Target = Self;
    fn tensor(&self) -> &Self {
        self
    }
}
impl<X: EinsumOperand + ?Sized> EinsumOperand for &X {
    type Target = X::Target;
    fn tensor(&self) -> &X::Target {
        (**self).tensor()
    }
}
impl<X: EinsumOperand + ?Sized> EinsumOperand for &mut X {
    type Target = X::Target;
    fn tensor(&self) -> &X::Target {
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
pub fn einsum_operand<X: EinsumOperand + ?Sized>(operand: &X) -> &X::Target {
    operand.tensor()
}

/// What one operand of `einsum!` is (a reference to a tensor or a tracked
/// tensor): its element type, shape and device, whether it is tracked
/// ([`Graph`]) or not ([`NoGraph`]), its elements, and itself as the core's
/// tracked tensor for a graph that lives for `'o` (a tracked tensor's own
/// history, whatever the reference's lifetime; a tensor as a constant the
/// graph reads in place, so borrowed for `'o`).
///
/// ```
/// use axial::__private::EinsumPart;
/// use axial::prelude::*;
/// fn part<'o, P: EinsumPart<'o>>(_: P) {}
/// part(&Tensor::<f32, shape![2]>::zeros());
/// ```
pub trait EinsumPart<'o> {
    /// Its element type.
    type Elem: Element;
    /// Its shape.
    type Shape;
    /// Its device.
    type Device: Backend;
    /// [`Graph`] for a tracked tensor, [`NoGraph`] for a tensor.
    type Tracked: Tracking;
    /// Its elements.
    fn view(&self) -> TensorRef<'_, Self::Device>;
    /// Itself as the core's tracked tensor.
    ///
    /// # Errors
    /// The device failed to view a tracked tensor.
    fn var(&self) -> Result<CoreVar<'o, Self::Device>>;
}

impl<'o, 't: 'o, T: Element, S, D: Backend, R: Data<D>> EinsumPart<'o>
    for &'t TensorBase<T, S, D, R>
{
    type Elem = T;
    type Shape = S;
    type Device = D;
    type Tracked = NoGraph;
    fn view(&self) -> TensorRef<'_, D> {
        self.raw()
    }
    fn var(&self) -> Result<CoreVar<'o, D>> {
        let x: &'t TensorBase<T, S, D, R> = self;
        Ok(CoreVar::constant_ref(x.raw()))
    }
}

impl<'o, 'g: 'o, T: Element, S, D: Backend, W> EinsumPart<'o> for &Var<'g, T, S, D, W> {
    type Elem = T;
    type Shape = S;
    type Device = D;
    type Tracked = Graph;
    fn view(&self) -> TensorRef<'_, D> {
        self.raw()
    }
    fn var(&self) -> Result<CoreVar<'o, D>> {
        Ok(self.core()?.into_owned_var())
    }
}

/// Whether `einsum!` records a graph: [`Graph`] when some operand is
/// tracked (the result is a tracked tensor), [`NoGraph`] when none is (the
/// result is a tensor, computed as before).
///
/// ```
/// use axial::__private::{Graph, NoGraph, Tracking};
/// fn either<A: Tracking, B: Tracking>() -> bool { <A::Or<B> as Tracking>::TRACKED }
/// assert!(either::<NoGraph, Graph>() && !either::<NoGraph, NoGraph>());
/// ```
pub trait Tracking {
    /// True for [`Graph`].
    const TRACKED: bool;
    /// Tracked when either is.
    type Or<B: Tracking>: Tracking;
    /// The result of `einsum!`.
    type Out<'o, T: 'o, S: 'o, D: Backend>;
    /// `einsum!` of `operands`.
    ///
    /// # Errors
    /// As [`einsum`].
    fn einsum<'o, T: Element, S, O: EinsumOperands<'o, Elem = T>>(
        spec: &Einsum,
        operands: &O,
    ) -> Result<Self::Out<'o, T, S, O::Device>>;
}

/// No operand of `einsum!` is tracked: the result is a tensor.
///
/// ```
/// use axial::__private::{NoGraph, Tracking};
/// assert!(!NoGraph::TRACKED);
/// ```
pub struct NoGraph;

/// Some operand of `einsum!` is tracked: the result is a tracked tensor
/// whose history records the contraction (permutes, reshapes, sums and
/// batched matmuls).
///
/// ```
/// use axial::__private::{Graph, Tracking};
/// assert!(Graph::TRACKED);
/// ```
pub struct Graph;

impl Tracking for NoGraph {
    const TRACKED: bool = false;
    type Or<B: Tracking> = B;
    type Out<'o, T: 'o, S: 'o, D: Backend> = Tensor<T, S, D>;
    fn einsum<'o, T: Element, S, O: EinsumOperands<'o, Elem = T>>(
        spec: &Einsum,
        operands: &O,
    ) -> Result<Tensor<T, S, O::Device>> {
        let views = operands.views()?;
        let refs: Vec<&TensorRef<'_, O::Device>> = views.iter().collect();
        Ok(owned(einops::apply_einsum(spec, &refs)?))
    }
}

impl Tracking for Graph {
    const TRACKED: bool = true;
    type Or<B: Tracking> = Graph;
    type Out<'o, T: 'o, S: 'o, D: Backend> = Var<'o, T, S, D, Writable>;
    fn einsum<'o, T: Element, S, O: EinsumOperands<'o, Elem = T>>(
        spec: &Einsum,
        operands: &O,
    ) -> Result<Var<'o, T, S, O::Device, Writable>> {
        let vars = operands.vars()?;
        let refs: Vec<&CoreVar<'o, O::Device>> = vars.iter().collect();
        Ok(Var::from_core(einops::apply_einsum_tracked(spec, &refs)?))
    }
}

/// The operands of `einsum!`: a tuple of references to tensors or tracked
/// tensors of one element type on one device (1 to 8 of them).
///
/// ```
/// use axial::__private::EinsumOperands;
/// use axial::prelude::*;
/// let a = Tensor::<f32, shape![2]>::zeros();
/// fn operands<'o, O: EinsumOperands<'o>>(_: O) {}
/// operands((&a, &a.as_view()));
/// ```
#[diagnostic::on_unimplemented(
    message = "the operands of `einsum!` are not tensors on one device: `{Self}`",
    label = "operands on different devices",
    note = "move them to one device first with `.to_device(&device)` or `.to_cpu()`"
)]
pub trait EinsumOperands<'o> {
    /// Their element type.
    type Elem: Element;
    /// Their device.
    type Device: Backend;
    /// Their shapes, as a list.
    type Shapes;
    /// Whether any is tracked.
    type Tracked: Tracking;
    /// Their layouts as the core's views.
    ///
    /// # Errors
    /// A layout that does not fit its storage (never for a typed tensor).
    fn views(&self) -> Result<Vec<TensorRef<'_, Self::Device>>>;
    /// Each as the core's tracked tensor (a constant for a tensor).
    ///
    /// # Errors
    /// The device failed to view a tracked tensor.
    fn vars(&self) -> Result<Vec<CoreVar<'o, Self::Device>>>;
}

/// The operands' tuple: the first one's element type `T0` is the result's,
/// and every other one's must be it ([`SameDType`]: a mixed call is the
/// dtype error of the binary ops, with the cast to write).
macro_rules! operands {
    ($($a:ident $i:tt),*) => {
        impl<'o, A0: EinsumPart<'o>, $($a: EinsumPart<'o, Device = A0::Device>),*>
            EinsumOperands<'o> for (A0, $($a,)*)
        where
            $($a::Elem: SameDType<A0::Elem>,)*
        {
            type Elem = A0::Elem;
            type Device = A0::Device;
            type Shapes = operands!(@list A0 $(, $a)*);
            type Tracked = operands!(@or A0::Tracked $(, $a)*);

            fn views(&self) -> Result<Vec<TensorRef<'_, A0::Device>>> {
                Ok(vec![self.0.view() $(, self.$i.view())*])
            }

            fn vars(&self) -> Result<Vec<CoreVar<'o, A0::Device>>> {
                Ok(vec![self.0.var()? $(, self.$i.var()?)*])
            }
        }
    };
    (@list $first:ident $(, $rest:ident)*) => { Cons<$first::Shape, operands!(@list $($rest),*)> };
    (@list) => { Nil };
    (@or $acc:ty, $next:ident $(, $rest:ident)*) => {
        operands!(@or <$acc as Tracking>::Or<$next::Tracked> $(, $rest)*)
    };
    (@or $acc:ty) => { $acc };
}
operands!();
operands!(A1 1);
operands!(A1 1, A2 2);
operands!(A1 1, A2 2, A3 3);
operands!(A1 1, A2 2, A3 3, A4 4);
operands!(A1 1, A2 2, A3 3, A4 4, A5 5);
operands!(A1 1, A2 2, A3 3, A4 4, A5 5, A6 6);
operands!(A1 1, A2 2, A3 3, A4 4, A5 5, A6 6, A7 7);

/// The output shape of `einsum!`.
type Out<'o, O, Specs, Right> =
    <<O as EinsumOperands<'o>>::Shapes as EinsumOf<Specs, Right>>::Output;
/// What `einsum!` gives: a tensor, or a tracked tensor when an operand is.
type Product<'o, O, Specs, Right> = <<O as EinsumOperands<'o>>::Tracked as Tracking>::Out<
    'o,
    <O as EinsumOperands<'o>>::Elem,
    Out<'o, O, Specs, Right>,
    <O as EinsumOperands<'o>>::Device,
>;

/// `einsum!`: a new tensor (integers are multiplied and summed, floats go
/// through batched matmul); when an operand is tracked, a tracked tensor
/// whose history records the contraction (the tensors among the operands
/// are constants the graph reads in place).
///
/// # Errors
/// Sizes known only at run time that disagree; the kernels' errors.
pub fn einsum<'o, Specs, Right, O>(
    cell: &EinsumCell,
    operands: O,
) -> Result<Product<'o, O, Specs, Right>>
where
    O: EinsumOperands<'o>,
    O::Shapes: EinsumOf<Specs, Right>,
{
    <O::Tracked as Tracking>::einsum(cell.get()?, &operands)
}
