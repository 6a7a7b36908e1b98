//! The right-hand side of an elementwise op: a tensor (borrowed or owned) of
//! any storage kind, or a scalar, which broadcasts as a tensor without axes.

use axial_core::{Backend, DType, Device, Element, RawTensor, Result, Scalar, TensorRef};
use axial_shape::{BroadcastWith, Broadcasted, Nil, Shape};

use crate::device::SameDevice;
use crate::repr::Data;
use crate::tensor::TensorBase;

mod sealed {
    pub trait Sealed {}
}

/// What an elementwise op takes besides `self`: `&tensor`, a tensor by
/// value, or a scalar of the element type. Its shape broadcasts with
/// `self`'s; its device must be `D` (the ops require
/// `Rhs::Device: SameDevice<D>`, so a tensor elsewhere is a compile error
/// naming both devices).
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let m = Tensor::<f32, shape![Rows: 2, Cols: 2]>::ones();
/// let row = Tensor::<f32, shape![Cols: 2]>::from_array([1.0, 2.0]);
/// assert_eq!(m.add(&row).to_vec(), vec![2.0, 3.0, 2.0, 3.0]); // a tensor
/// assert_eq!(m.add(1.0).to_vec(), vec![2.0; 4]); // a scalar
/// ```
pub trait Operand<D: Device>: sealed::Sealed {
    /// The element type.
    type Elem: Element;
    /// The shape (`Nil` for a scalar).
    type Shape: Shape;
    /// The device (`D` for a scalar).
    type Device: Device;
    /// The operand for the core's ops.
    #[doc(hidden)]
    fn value(&self) -> Value<'_, D>
    where
        Self::Device: SameDevice<D>;
}

/// The shape of an elementwise op between a tensor of shape `S` and this
/// operand: the broadcast shape for a tensor, `S` itself for a scalar. For
/// a scalar the result is `S` as it is, not a projection, so that the shape
/// can come from the type a result is assigned to
/// (`let w: Tensor<f32, W> = Tensor::randn(rng) * 0.125;`).
///
/// ```
/// use axial::prelude::*;
/// use axial::OpShape;
/// axes!(Rows, Cols);
/// type Scaled = <f32 as OpShape<shape![Rows: 2, Cols: 3]>>::Out;
/// let _: Option<Scaled> = None::<shape![Rows: 2, Cols: 3]>;
/// type Sum = <&'static Tensor<f32, shape![Cols: 3]> as OpShape<shape![Rows: 2, 1]>>::Out;
/// let _: Option<Sum> = None::<shape![Rows: 2, Cols: 3]>;
/// ```
pub trait OpShape<S>: sealed::Sealed {
    /// The result's shape.
    type Out: Shape;
}

/// One impl for every operand (a choice between impls would hide which
/// bound fails): the kind of operand says how the shape comes out.
impl<S, X: OperandKind> OpShape<S> for X
where
    X::Kind: KindShape<S, X::Shape>,
{
    type Out = <X::Kind as KindShape<S, X::Shape>>::Out;
}

/// Whether an operand is a scalar or a tensor, and its shape.
#[doc(hidden)]
pub trait OperandKind: sealed::Sealed {
    /// [`ScalarOperand`] or [`TensorOperand`].
    type Kind;
    /// The operand's shape (`Nil` for a scalar).
    type Shape;
}
/// [`OperandKind::Kind`] of a scalar.
#[doc(hidden)]
pub struct ScalarOperand;
/// [`OperandKind::Kind`] of a tensor.
#[doc(hidden)]
pub struct TensorOperand;

impl<T: Element> OperandKind for T {
    type Kind = ScalarOperand;
    type Shape = Nil;
}

/// A tensor operand, borrowed or owned.
macro_rules! tensor_kind {
    ($([$($by_ref:tt)?])*) => {$(
        impl<T, S2, D2: Device, R> OperandKind for $($by_ref)? TensorBase<T, S2, D2, R> {
            type Kind = TensorOperand;
            type Shape = S2;
        }
    )*};
}
tensor_kind!([&] []);

/// The shape of an op between `S` and an operand of shape `S2`, by kind.
#[doc(hidden)]
pub trait KindShape<S, S2> {
    /// The result's shape.
    type Out: Shape;
}
impl<S: Shape> KindShape<S, Nil> for ScalarOperand {
    type Out = S;
}
impl<S: BroadcastWith<S2>, S2> KindShape<S, S2> for TensorOperand {
    type Out = Broadcasted<S, S2>;
}

/// An operand as the core takes it.
#[doc(hidden)]
pub enum Value<'a, D: Device> {
    /// A tensor.
    Tensor(TensorRef<'a, D>),
    /// A scalar.
    Scalar(Scalar),
}

/// A tensor operand, borrowed or owned.
macro_rules! tensor_operand {
    ($([$($by_ref:tt)?])*) => {$(
        impl<T, S, D2: Device, R> sealed::Sealed for $($by_ref)? TensorBase<T, S, D2, R> {}
        impl<T, S, D, D2, R> Operand<D> for $($by_ref)? TensorBase<T, S, D2, R>
        where
            T: Element,
            S: Shape,
            D: Device,
            D2: Device,
            R: Data<D2>,
        {
            type Elem = T;
            type Shape = S;
            type Device = D2;

            fn value(&self) -> Value<'_, D>
            where
                D2: SameDevice<D>,
            {
                Value::Tensor(tensor_on(self))
            }
        }
    )*};
}
tensor_operand!([&] []);

impl<T: Element> sealed::Sealed for T {}
impl<T: Element, D: Device> Operand<D> for T {
    type Elem = T;
    type Shape = Nil;
    type Device = D;

    fn value(&self) -> Value<'_, D> {
        Value::Scalar(Scalar::of(*self))
    }
}

/// A tensor as the core's view, seen on `D` (it is there).
pub(crate) fn tensor_on<T: Element, S, D: Device, D2: SameDevice<D>, R: Data<D2>>(
    t: &TensorBase<T, S, D2, R>,
) -> TensorRef<'_, D> {
    TensorRef::new_unchecked(D2::on_same(t.data.storage()), t.layout.clone(), T::DTYPE)
}

/// An operand as a tensor: a scalar made a tensor without axes.
pub(crate) enum Held<'a, D: Device> {
    /// A tensor operand.
    Tensor(TensorRef<'a, D>),
    /// A scalar operand, made a tensor.
    Scalar(RawTensor<D>),
}

impl<'a, D: Backend> Value<'a, D> {
    /// The operand as a tensor of `dtype` on `device` (a scalar's dtype).
    pub(crate) fn held(self, device: &D, dtype: DType) -> Result<Held<'a, D>> {
        match self {
            Value::Tensor(t) => Ok(Held::Tensor(t)),
            Value::Scalar(s) => RawTensor::full_on(device, &[], s, dtype).map(Held::Scalar),
        }
    }
}

impl<D: Device> Held<'_, D> {
    /// A view of it.
    pub(crate) fn view(&self) -> TensorRef<'_, D> {
        match self {
            Held::Tensor(t) => t.clone(),
            Held::Scalar(t) => t.view(),
        }
    }
}
