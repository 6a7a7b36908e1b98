//! Comparisons (`eq`, `ne`, `lt`, `le`, `gt`, `ge`), bool tensors with
//! broadcasting by name, and `if_else`, PyTorch's `where`.

use axial_core::{Backend, Bool, CmpOp, Element, Result};
use axial_shape::{BroadcastWith, Broadcasted, Shape};

use super::dtype::SameDType;
use super::mismatch;
use super::operand::{Operand, Value};
use crate::access::owned;
use crate::device::SameDevice;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `self op other` into a bool tensor of shape `Out`.
    fn compare_op<Out, Rhs: Operand<D>>(
        &self,
        op: CmpOp,
        other: &Rhs,
    ) -> Result<Tensor<Bool, Out, D>>
    where
        Rhs::Device: SameDevice<D>,
    {
        let lhs = self.raw();
        match other.value() {
            Value::Tensor(rhs) => lhs.compare(op, &rhs).map_err(|e| {
                mismatch::broadcast::<S, Rhs::Shape>("compare", e, lhs.shape(), rhs.shape())
            }),
            Value::Scalar(s) => lhs.compare_scalar(op, s),
        }
        .map(owned)
    }
}

/// The twins of a comparison, with generated docs and examples.
macro_rules! comparisons {
    ($(
        $(#[$doc:meta])*
        $name:ident, $try_name:ident: $op:ident => $expected:tt;
    )*) => {$(
        impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
            $(#[$doc])*
            ///
            /// # Errors
            /// A `Dyn` size that does not broadcast, worded as PyTorch's, or a
            /// failure of the device or the kernel.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            /// let a = Tensor::<i64, shape![Rows: 2, Cols: 2]>::from_array([[1, 2], [3, 4]]);
            /// let b = Tensor::<i64, shape![Cols: Dyn]>::from_vec_dyn(vec![2, 2], 2);
            #[doc = concat!("let got = a.", stringify!($try_name), "(&b)?.to_vec();")]
            #[doc = concat!("assert_eq!(got.iter().map(|b| b.get()).collect::<Vec<_>>(), vec!", stringify!($expected), ");")]
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn $try_name<Rhs>(&self, other: Rhs) -> Result<Tensor<Bool, Broadcasted<S, Rhs::Shape>, D>>
            where
                Rhs: Operand<D>,
                Rhs::Elem: SameDType<T>,
                Rhs::Device: SameDevice<D>,
                S: BroadcastWith<Rhs::Shape>,
            {
                self.compare_op(CmpOp::$op, &other)
            }

            $(#[$doc])*
            ///
            /// # Panics
            #[doc = concat!("As [`", stringify!($try_name), "`](Self::", stringify!($try_name), "), with its message (a `Dyn` size that does not broadcast).")]
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            /// let a = Tensor::<f32, shape![Rows: 2, Cols: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
            /// let b = Tensor::<f32, shape![Cols: 2]>::from_array([2.0, 2.0]);
            #[doc = concat!("let got = a.", stringify!($name), "(&b).to_vec();")]
            #[doc = concat!("assert_eq!(got.iter().map(|b| b.get()).collect::<Vec<_>>(), vec!", stringify!($expected), ");")]
            #[doc = concat!("let _: Tensor<Bool, shape![Rows: 2, Cols: 2]> = a.", stringify!($name), "(2.5); // against a scalar")]
            /// ```
            #[track_caller]
            pub fn $name<Rhs>(&self, other: Rhs) -> Tensor<Bool, Broadcasted<S, Rhs::Shape>, D>
            where
                Rhs: Operand<D>,
                Rhs::Elem: SameDType<T>,
                Rhs::Device: SameDevice<D>,
                S: BroadcastWith<Rhs::Shape>,
            {
                or_panic(self.compare_op(CmpOp::$op, &other))
            }
        }
    )*};
}

comparisons! {
    /// `self == other` elementwise, with broadcasting: a bool tensor.
    eq, try_eq: Eq => [false, true, false, false];
    /// `self != other` elementwise, with broadcasting: a bool tensor.
    ne, try_ne: Ne => [true, false, true, true];
    /// `self < other` elementwise, with broadcasting: a bool tensor.
    lt, try_lt: Lt => [true, false, false, false];
    /// `self <= other` elementwise, with broadcasting: a bool tensor.
    le, try_le: Le => [true, true, false, false];
    /// `self > other` elementwise, with broadcasting: a bool tensor.
    gt, try_gt: Gt => [false, false, true, true];
    /// `self >= other` elementwise, with broadcasting: a bool tensor.
    ge, try_ge: Ge => [false, true, true, true];
}

/// The condition of [`if_else`](TensorBase::if_else) is a bool tensor.
///
/// ```
/// use axial::{Bool, Condition};
/// fn condition<T: Condition>() {}
/// condition::<Bool>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the condition of `if_else` must be a bool tensor, not a `{Self}` tensor",
    label = "not a bool tensor",
    note = "compare first (`x.gt(0.0)`), or convert with `.cast::<Bool>()`"
)]
pub trait Condition: Element {}
impl Condition for Bool {}

/// The shape `cond.if_else(&a, &b)` gives: the three broadcast.
///
/// ```
/// use axial::prelude::*;
/// use axial::Chosen;
/// axes!(Rows, Cols);
/// let cond = Tensor::<f32, shape![Rows: 2, 1]>::from_vec(vec![1.0, -1.0]).gt(0.0);
/// let a = Tensor::<f32, shape![Cols: 3]>::ones();
/// let b = Tensor::<f32, shape![1]>::zeros();
/// type Out = Chosen<shape![Rows: 2, 1], shape![Cols: 3], shape![1]>;
/// let c: Tensor<f32, Out> = cond.if_else(&a, &b);
/// assert_eq!(c.sizes().as_slice(), &[2, 3]);
/// assert_eq!(c.to_vec(), [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
/// ```
pub type Chosen<S, A, B> = Broadcasted<Broadcasted<S, A>, B>;

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// PyTorch's `torch.where(self, a, b)`: `a` where `self` is true, else
    /// `b`, all three broadcast by name; `a` and `b` are tensors or scalars
    /// of one dtype.
    ///
    /// # Errors
    /// A `Dyn` size that does not broadcast, or a failure of the device or
    /// the kernel.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 2]>::from_array([[1.0, -2.0], [-3.0, 4.0]]);
    /// let relu = x.gt(0.0).try_if_else(&x, 0.0)?;
    /// assert_eq!(relu.to_vec(), vec![1.0, 0.0, 0.0, 4.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[doc(alias = "where")]
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_if_else<A, B>(
        &self,
        a: A,
        b: B,
    ) -> Result<Tensor<A::Elem, Chosen<S, A::Shape, B::Shape>, D>>
    where
        T: Condition,
        A: Operand<D>,
        B: Operand<D>,
        B::Elem: SameDType<A::Elem>,
        A::Device: SameDevice<D>,
        B::Device: SameDevice<D>,
        S: BroadcastWith<A::Shape>,
        Broadcasted<S, A::Shape>: BroadcastWith<B::Shape>,
    {
        let cond = self.raw();
        let device = cond.storage().device();
        let a = a.value().held(device, <A::Elem as Element>::DTYPE)?;
        let b = b.value().held(device, <A::Elem as Element>::DTYPE)?;
        let (a, b) = (a.view(), b.view());
        cond.where_(&a, &b).map(owned).map_err(|e| match e {
            // Which pair disagrees is not said: check the pairs in the order
            // the core broadcasts them, and name the first that fails.
            axial_core::Error::Broadcast { .. } => {
                match axial_core::layout::broadcast_shapes(cond.shape(), a.shape()) {
                    Err(e) => {
                        mismatch::broadcast::<S, A::Shape>("where", e, cond.shape(), a.shape())
                    }
                    Ok(ca) => mismatch::broadcast::<Broadcasted<S, A::Shape>, B::Shape>(
                        "where",
                        e,
                        &ca,
                        b.shape(),
                    ),
                }
            }
            e => e,
        })
    }

    /// PyTorch's `torch.where(self, a, b)`: `a` where `self` is true, else `b`.
    ///
    /// # Panics
    /// As [`try_if_else`](Self::try_if_else), with its message (a `Dyn` size
    /// that does not broadcast).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let mask = Tensor::<Bool, shape![Cols: 2]>::from_array([Bool::TRUE, Bool::FALSE]);
    /// let a = Tensor::<i64, shape![Rows: 2, Cols: 2]>::from_array([[1, 2], [3, 4]]);
    /// assert_eq!(mask.if_else(&a, -1).to_vec(), vec![1, -1, 3, -1]);
    /// ```
    #[doc(alias = "where")]
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    #[track_caller]
    pub fn if_else<A, B>(&self, a: A, b: B) -> Tensor<A::Elem, Chosen<S, A::Shape, B::Shape>, D>
    where
        T: Condition,
        A: Operand<D>,
        B: Operand<D>,
        B::Elem: SameDType<A::Elem>,
        A::Device: SameDevice<D>,
        B::Device: SameDevice<D>,
        S: BroadcastWith<A::Shape>,
        Broadcasted<S, A::Shape>: BroadcastWith<B::Shape>,
    {
        or_panic(self.try_if_else(a, b))
    }
}
