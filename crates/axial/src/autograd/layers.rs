//! The ops of model layers on tracked tensors, by axis name: `matmul`,
//! `linear`, `softmax`, `log_softmax`, `layer_norm`, `embedding`,
//! `masked_fill`, `where`, `dropout` and casts. Each keeps what PyTorch
//! keeps, and its signature says so: `matmul` and `linear` keep each
//! operand when the other needs a gradient (so `x.linear(&w)` with `w`
//! untracked borrows `w`, not `x`), softmax keeps its output ([`Kept`]),
//! `layer_norm` its input, weight and bias, `embedding` its ids (not the
//! table), `masked_fill` its mask.

use axial_core::autograd::Var as CoreVar;
use axial_core::{Backend, Bool, Generator, Result, Scalar};
use axial_shape::{
    Append, Ax, BroadcastWith, Broadcasted, Concat, HasAxis, InPlace, MatMul, MatMulOut, Nil, Shape,
};

use super::var::{Kept, Var, Writable, WriteInPlace};
use crate::float::Float;
use crate::ops::{AxisOf, Chosen};
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::TensorBase;

/// The right operand of a tracked [`Var::matmul`], and the lifetime of the
/// product it gives. The left operand is kept when this one needs a
/// gradient, and this one is always kept (the left needs a gradient):
/// a writable tracked tensor is borrowed for as long as the product lives;
/// a kept one (which cannot be written) or one given by value is not; an
/// untracked tensor is borrowed.
pub trait MatmulRhs<'g, T, S, D: Backend> {
    /// The product's tracked tensor.
    type Output;
    /// `lhs @ self`.
    ///
    /// # Errors
    /// As [`TensorRef::matmul`](axial_core::TensorRef::matmul).
    fn matmul(self, lhs: &CoreVar<'g, D>) -> Result<Self::Output>;
}

impl<'a, 'g: 'a, T: Float, S, S2, D: Backend> MatmulRhs<'g, T, S, D>
    for &'a Var<'g, T, S2, D, Writable>
where
    S: MatMul<S2>,
{
    type Output = Var<'a, T, MatMulOut<S, S2>, D>;

    fn matmul(self, lhs: &CoreVar<'g, D>) -> Result<Self::Output> {
        Ok(Var::from_core(lhs.matmul(&*self.core()?)?))
    }
}

impl<'g, T: Float, S, S2, D: Backend> MatmulRhs<'g, T, S, D> for &Var<'g, T, S2, D, Kept>
where
    S: MatMul<S2>,
{
    type Output = Var<'g, T, MatMulOut<S, S2>, D>;

    fn matmul(self, lhs: &CoreVar<'g, D>) -> Result<Self::Output> {
        Ok(Var::from_core(lhs.matmul(&*self.core()?)?))
    }
}

impl<'g, T: Float, S, S2, D: Backend, W2> MatmulRhs<'g, T, S, D> for Var<'g, T, S2, D, W2>
where
    S: MatMul<S2>,
{
    type Output = Var<'g, T, MatMulOut<S, S2>, D>;

    fn matmul(self, lhs: &CoreVar<'g, D>) -> Result<Self::Output> {
        Ok(Var::from_core(lhs.matmul(&*self.core()?)?))
    }
}

impl<'t, 'g: 't, T: Float, S, S2, D: Backend, R: Data<D>> MatmulRhs<'g, T, S, D>
    for &'t TensorBase<T, S2, D, R>
where
    S: MatMul<S2>,
{
    type Output = Var<'t, T, MatMulOut<S, S2>, D>;

    fn matmul(self, lhs: &CoreVar<'g, D>) -> Result<Self::Output> {
        Ok(Var::from_core(
            lhs.matmul(&CoreVar::constant_ref(self.raw()))?,
        ))
    }
}

/// The weight of a tracked [`Var::linear`] (`[Out, In]`, as PyTorch stores
/// it), borrowed or not as [`MatmulRhs`] says of a right operand.
pub trait LinearWeight<'g, T, S, D: Backend> {
    /// The bias's shape, `[Out]`.
    type Bias;
    /// The layer's output.
    type Output;
    /// `lhs · selfᵀ + bias`.
    ///
    /// # Errors
    /// As [`TensorRef::linear`](axial_core::TensorRef::linear).
    fn linear(self, lhs: &CoreVar<'g, D>, bias: Option<&CoreVar<'g, D>>) -> Result<Self::Output>;
}

/// The [`LinearWeight`] impls of the tracked kinds of weight.
macro_rules! linear_weight {
    ($([$($l:lifetime)?] $ty:ty => $out:lifetime;)*) => {$(
        impl<$($l,)? 'g, T: Float, S, O, OS, I, IS, D: Backend> LinearWeight<'g, T, S, D> for $ty
        where
            S: MatMul<Ax<I, IS, Ax<O, OS, Nil>>>,
            $('g: $l,)?
        {
            type Bias = Ax<O, OS, Nil>;
            type Output = Var<$out, T, MatMulOut<S, Ax<I, IS, Ax<O, OS, Nil>>>, D>;

            fn linear(self, lhs: &CoreVar<'g, D>, bias: Option<&CoreVar<'g, D>>) -> Result<Self::Output> {
                Ok(Var::from_core(lhs.linear(&*self.core()?, bias)?))
            }
        }
    )*};
}

linear_weight! {
    ['a] &'a Var<'g, T, Ax<O, OS, Ax<I, IS, Nil>>, D, Writable> => 'a;
    [] &Var<'g, T, Ax<O, OS, Ax<I, IS, Nil>>, D, Kept> => 'g;
    [] Var<'g, T, Ax<O, OS, Ax<I, IS, Nil>>, D, Kept> => 'g;
    [] Var<'g, T, Ax<O, OS, Ax<I, IS, Nil>>, D, Writable> => 'g;
}

impl<'t, 'g: 't, T: Float, S, O, OS, I, IS, D: Backend, R: Data<D>> LinearWeight<'g, T, S, D>
    for &'t TensorBase<T, Ax<O, OS, Ax<I, IS, Nil>>, D, R>
where
    S: MatMul<Ax<I, IS, Ax<O, OS, Nil>>>,
{
    type Bias = Ax<O, OS, Nil>;
    type Output = Var<'t, T, MatMulOut<S, Ax<I, IS, Ax<O, OS, Nil>>>, D>;

    fn linear(self, lhs: &CoreVar<'g, D>, bias: Option<&CoreVar<'g, D>>) -> Result<Self::Output> {
        let w = CoreVar::constant_ref(self.raw());
        Ok(Var::from_core(lhs.linear(&w, bias)?))
    }
}

/// The ops that keep their receiver: `matmul` and `linear` (for the other
/// operand's gradient) and `layer_norm`. A writable receiver is consumed,
/// a kept one read in place.
macro_rules! keeping_layers {
    ($([$($header:tt)*] [$($r:tt)?] $x:literal;)*) => {$(
        impl $($header)* {
            /// The matrix product by axis name (PyTorch's `torch.matmul`): the
            /// last axis contracted with the other operand's second-to-last,
            /// batch axes broadcast. Each operand is kept for the other's
            /// gradient ([`MatmulRhs`] says which are borrowed).
            ///
            /// # Errors
            /// A `Dyn` size that does not fit; a failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Inner, Cols);
            /// let a = Tensor::<f64, shape![Rows: 1, Inner: 2]>::from_array([[1.0, 2.0]]);
            /// let b = Tensor::<f64, shape![Inner: 2, Cols: 1]>::from_array([[3.0], [4.0]]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let grads = x.try_matmul(&b)?.sum_all().backward(); // b untracked
            /// assert_eq!(grads.of(&av).unwrap().to_vec(), vec![3.0, 4.0]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_matmul<Rhs>($($r)? self, other: Rhs) -> Result<Rhs::Output>
            where
                Rhs: MatmulRhs<'g, T, S, D>,
            {
                other.matmul(&*self.core()?)
            }

            /// The matrix product by axis name.
            ///
            /// # Panics
            /// As [`try_matmul`](Self::try_matmul), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Inner);
            /// let a = Tensor::<f64, shape![Inner: 2]>::from_array([1.0, 2.0]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// assert_eq!(x.matmul(&av).value().item(), 5.0);
            /// ```
            #[track_caller]
            pub fn matmul<Rhs>($($r)? self, other: Rhs) -> Rhs::Output
            where
                Rhs: MatmulRhs<'g, T, S, D>,
            {
                or_panic(self.try_matmul(other))
            }

            /// `x·Wᵀ + b` (PyTorch's `nn.functional.linear`), the weight `[Out,
            /// In]` as PyTorch stores it and `In` this tensor's last axis, by
            /// name; the bias `[Out]` (never kept). The input is kept for a
            /// tracked weight's gradient, the weight for the input's.
            ///
            /// # Errors
            /// A `Dyn` size that does not fit; a failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// use axial::autograd::Param;
            /// axes!(In, Out);
            /// let w = Param::new(Tensor::<f64, shape![Out: 1, In: 2]>::from_array([[1.0, 1.0]]));
            /// let b = Param::new(Tensor::<f64, shape![Out: 1]>::zeros());
            /// let a = Tensor::<f64, shape![In: 2]>::ones();
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let grads = x.try_linear(w.var(), Some(&b.var()))?.sum_all().backward();
            /// assert_eq!(grads.of_param(&b).unwrap().to_vec(), vec![1.0]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_linear<Wt>($($r)? self, weight: Wt, bias: Option<&Var<'g, T, Wt::Bias, D, Kept>>) -> Result<Wt::Output>
            where
                Wt: LinearWeight<'g, T, S, D>,
            {
                let b = bias.map(Var::core).transpose()?;
                weight.linear(&*self.core()?, b.as_deref())
            }

            /// `x·Wᵀ + b`, the weight `[Out, In]`.
            ///
            /// # Panics
            /// As [`try_linear`](Self::try_linear), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(In, Out);
            /// let w = Tensor::<f64, shape![Out: 2, In: 2]>::from_array([[1.0, 0.0], [0.0, 2.0]]);
            /// let a = Tensor::<f64, shape![In: 2]>::from_array([3.0, 4.0]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// assert_eq!(x.linear(&w, None).value().to_vec(), vec![3.0, 8.0]);
            /// ```
            #[track_caller]
            pub fn linear<Wt>($($r)? self, weight: Wt, bias: Option<&Var<'g, T, Wt::Bias, D, Kept>>) -> Wt::Output
            where
                Wt: LinearWeight<'g, T, S, D>,
            {
                or_panic(self.try_linear(weight, bias))
            }

            /// Layer normalisation over the axis `A` (PyTorch's `layer_norm`
            /// over the last dim, here any axis by name), then `· weight +
            /// bias`, each `[A]` (kept tensors: parameters). Keeps its input,
            /// weight and bias.
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// use axial::autograd::Param;
            /// axes!(Token, Model);
            /// let a = Tensor::<f64, shape![Token: 2, Model: 2]>::from_array([[1.0, 3.0], [5.0, 9.0]]);
            /// let bias = Param::new(Tensor::<f64, shape![Model: 2]>::zeros());
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_layer_norm::<Model>(None, Some(&bias.var()), 0.0)?;
            /// assert_eq!(y.value().to_vec(), vec![-1.0, 1.0, -1.0, 1.0]);
            /// assert_eq!(y.sum_all().backward().of_param(&bias).unwrap().to_vec(), vec![2.0, 2.0]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_layer_norm<A>(
                $($r)? self,
                weight: Option<&Var<'g, T, AxisOf<S, A>, D, Kept>>,
                bias: Option<&Var<'g, T, AxisOf<S, A>, D, Kept>>,
                eps: f64,
            ) -> Result<Var<'g, T, S, D>>
            where
                S: HasAxis<A>,
                AxisOf<S, A>: Shape,
            {
                let w = weight.map(Var::core).transpose()?;
                let b = bias.map(Var::core).transpose()?;
                Ok(Var::from_core(normalized::<S, A, D>(&*self.core()?, w.as_deref(), b.as_deref(), eps)?))
            }

            /// Layer normalisation over the axis `A`.
            ///
            /// # Panics
            /// As [`try_layer_norm`](Self::try_layer_norm), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Model);
            /// let a = Tensor::<f64, shape![Model: 2]>::from_array([0.0, 2.0]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// assert_eq!(x.layer_norm::<Model>(None, None, 0.0).value().to_vec(), vec![-1.0, 1.0]);
            /// ```
            #[track_caller]
            pub fn layer_norm<A>(
                $($r)? self,
                weight: Option<&Var<'g, T, AxisOf<S, A>, D, Kept>>,
                bias: Option<&Var<'g, T, AxisOf<S, A>, D, Kept>>,
                eps: f64,
            ) -> Var<'g, T, S, D>
            where
                S: HasAxis<A>,
                AxisOf<S, A>: Shape,
            {
                or_panic(self.try_layer_norm::<A>(weight, bias, eps))
            }
        }
    )*};
}

keeping_layers! {
    [<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Writable>] [] "&av * 1.0";
    [<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Kept>] [&] "av.as_kept()";
}

/// Layer normalisation of `x` over the axis `A` (moved last and back).
fn normalized<'g, S: Shape + HasAxis<A>, A, D: Backend>(
    x: &CoreVar<'g, D>,
    weight: Option<&CoreVar<'g, D>>,
    bias: Option<&CoreVar<'g, D>>,
    eps: f64,
) -> Result<CoreVar<'g, D>> {
    let (pos, last) = (S::POS as isize, S::RANK as isize - 1);
    if pos == last {
        let n = x.shape()[S::RANK - 1];
        return x.layer_norm(&[n], weight, bias, eps);
    }
    let moved = x.movedim(&[pos], &[last])?;
    let n = moved.shape()[S::RANK - 1];
    moved
        .layer_norm(&[n], weight, bias, eps)?
        .movedim(&[last], &[pos])
}

impl<'g, T: Float, S: Shape, D: Backend, W> Var<'g, T, S, D, W> {
    /// `exp(x) / Σ exp(x)` along the axis `A` (PyTorch's `softmax`). Keeps
    /// its output ([`Kept`]), so `self` may be written in place afterwards.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Classes);
    /// let x = Tensor::<f64, shape![Classes: 2]>::zeros();
    /// assert_eq!(x.track().try_softmax::<Classes>()?.value().to_vec(), vec![0.5, 0.5]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_softmax<A>(&self) -> Result<Var<'g, T, S, D, Kept>>
    where
        S: HasAxis<A>,
    {
        Ok(Var::from_core(self.core()?.softmax(S::POS as isize)?))
    }

    /// `exp(x) / Σ exp(x)` along the axis `A`.
    ///
    /// # Panics
    /// As [`try_softmax`](Self::try_softmax), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Classes);
    /// let x = Tensor::<f64, shape![Classes: 2]>::zeros();
    /// assert_eq!(x.track().softmax::<Classes>().value().to_vec(), vec![0.5, 0.5]);
    /// ```
    #[track_caller]
    pub fn softmax<A>(&self) -> Var<'g, T, S, D, Kept>
    where
        S: HasAxis<A>,
    {
        or_panic(self.try_softmax::<A>())
    }

    /// `x − log Σ exp(x)` along the axis `A` (PyTorch's `log_softmax`).
    /// Keeps its output ([`Kept`]).
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Classes);
    /// let x = Tensor::<f64, shape![Classes: 2]>::zeros();
    /// assert_eq!(x.track().try_log_softmax::<Classes>()?.value().to_vec(), vec![-(2f64.ln()); 2]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_log_softmax<A>(&self) -> Result<Var<'g, T, S, D, Kept>>
    where
        S: HasAxis<A>,
    {
        Ok(Var::from_core(self.core()?.log_softmax(S::POS as isize)?))
    }

    /// `x − log Σ exp(x)` along the axis `A`.
    ///
    /// # Panics
    /// As [`try_log_softmax`](Self::try_log_softmax), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Classes);
    /// let x = Tensor::<f64, shape![Classes: 1]>::zeros();
    /// assert_eq!(x.track().log_softmax::<Classes>().value().item(), 0.0);
    /// ```
    #[track_caller]
    pub fn log_softmax<A>(&self) -> Var<'g, T, S, D, Kept>
    where
        S: HasAxis<A>,
    {
        or_panic(self.try_log_softmax::<A>())
    }

    /// `value` where the bool `mask` is true, its axes broadcast by name
    /// (PyTorch's `masked_fill`); the gradient is zero there. Keeps the mask
    /// (borrowed), not `self`.
    ///
    /// # Errors
    /// A `Dyn` size that does not broadcast; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Key);
    /// let x = Tensor::<f64, shape![Key: 2]>::ones();
    /// let m = Tensor::<Bool, shape![Key: 2]>::from_array([Bool::TRUE, Bool::FALSE]);
    /// let xv = x.track();
    /// let grads = xv.try_masked_fill(&m, 5.0)?.sum_all().backward();
    /// assert_eq!(grads.of(&xv).unwrap().to_vec(), vec![0.0, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_masked_fill<'t, M, R: Data<D>>(
        &self,
        mask: &'t TensorBase<Bool, M, D, R>,
        value: T,
    ) -> Result<Var<'t, T, S, D>>
    where
        S: InPlace<M>,
        'g: 't,
    {
        let m = CoreVar::constant_ref(mask.raw());
        let out = self
            .core()?
            .masked_fill(&m, Scalar::Float(value.to_f64()))?;
        Ok(Var::from_core(out))
    }

    /// `value` where the bool `mask` is true.
    ///
    /// # Panics
    /// As [`try_masked_fill`](Self::try_masked_fill), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Key);
    /// let x = Tensor::<f64, shape![Key: 2]>::ones();
    /// let m = Tensor::<Bool, shape![Key: 2]>::from_array([Bool::FALSE, Bool::TRUE]);
    /// assert_eq!(x.track().masked_fill(&m, 0.0).value().to_vec(), vec![1.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn masked_fill<'t, M, R: Data<D>>(
        &self,
        mask: &'t TensorBase<Bool, M, D, R>,
        value: T,
    ) -> Var<'t, T, S, D>
    where
        S: InPlace<M>,
        'g: 't,
    {
        or_panic(self.try_masked_fill(mask, value))
    }

    /// Dropout in training (PyTorch's `F.dropout(x, p)`): each element
    /// zeroed with probability `p` drawn from `rng`, the others scaled by
    /// `1/(1 − p)`; the gradient goes through the same mask, which the graph
    /// keeps. `self` is not kept.
    ///
    /// # Errors
    /// `p` outside `[0, 1]`; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f64, shape![100]>::ones();
    /// let y = x.track().try_dropout(0.5, &mut Generator::seed(0))?;
    /// assert!(y.value().to_vec().iter().all(|&v| v == 0.0 || v == 2.0));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_dropout(&self, p: f64, rng: &mut Generator) -> Result<Var<'g, T, S, D>> {
        Ok(Var::from_core(self.core()?.dropout(p, rng)?))
    }

    /// Dropout in training with a seeded generator.
    ///
    /// # Panics
    /// As [`try_dropout`](Self::try_dropout), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f64, shape![4]>::ones();
    /// assert_eq!(x.track().dropout(0.0, &mut Generator::seed(0)).value().to_vec(), vec![1.0; 4]);
    /// ```
    #[track_caller]
    pub fn dropout(&self, p: f64, rng: &mut Generator) -> Var<'g, T, S, D> {
        or_panic(self.try_dropout(p, rng))
    }

    /// The elements converted to the float type `U` (PyTorch's
    /// `x.to(dtype)`); the gradient is converted back, so half-precision
    /// activations can flow from f32 master weights.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let w = Tensor::<f32, shape![2]>::from_array([1.5, -2.0]);
    /// let wv = w.track();
    /// let h = wv.try_cast::<bf16>()?;
    /// let grads = h.square().sum_all().cast::<f32>().backward();
    /// assert_eq!(grads.of(&wv).unwrap().to_vec(), vec![3.0, -4.0]); // f32, the weight's type
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cast<U: Float>(&self) -> Result<Var<'g, U, S, D>> {
        Ok(Var::from_core(self.core()?.to_dtype(U::DTYPE)?))
    }

    /// The elements converted to the float type `U`.
    ///
    /// # Panics
    /// As [`try_cast`](Self::try_cast), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let w = Tensor::<f32, shape![1]>::full(0.5);
    /// assert_eq!(w.track().cast::<f64>().value().item(), 0.5);
    /// ```
    #[track_caller]
    pub fn cast<U: Float>(&self) -> Var<'g, U, S, D> {
        or_panic(self.try_cast::<U>())
    }

    /// `a` where the bool `cond` is true, else `b`, all three broadcast by
    /// name (PyTorch's `torch.where`): each gradient goes where its operand
    /// was chosen. Keeps the condition (borrowed).
    ///
    /// # Errors
    /// A `Dyn` size that does not broadcast; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::Var;
    /// axes!(Key);
    /// let c = Tensor::<Bool, shape![Key: 2]>::from_array([Bool::TRUE, Bool::FALSE]);
    /// let (a, b) = (Tensor::<f64, shape![Key: 2]>::ones(), Tensor::<f64, shape![Key: 2]>::zeros());
    /// let (av, bv) = (a.track(), b.track());
    /// let y = Var::try_where(&c, &av, &bv)?;
    /// assert_eq!(y.value().to_vec(), vec![1.0, 0.0]);
    /// assert_eq!(y.sum_all().backward().of(&bv).unwrap().to_vec(), vec![0.0, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_where<'t, C, S2, W2, R: Data<D>>(
        cond: &'t TensorBase<Bool, C, D, R>,
        a: &Var<'g, T, S, D, W>,
        b: &Var<'g, T, S2, D, W2>,
    ) -> Result<Var<'t, T, Chosen<C, S, S2>, D>>
    where
        C: BroadcastWith<S>,
        Broadcasted<C, S>: BroadcastWith<S2>,
        'g: 't,
    {
        let c = CoreVar::constant_ref(cond.raw());
        Ok(Var::from_core(CoreVar::where_(
            &c,
            &*a.core()?,
            &*b.core()?,
        )?))
    }
}

impl<'g, T: Float, V, VS, M, MS, D: Backend, W> Var<'g, T, Ax<V, VS, Ax<M, MS, Nil>>, D, W>
where
    Ax<V, VS, Ax<M, MS, Nil>>: Shape,
{
    /// The rows of this table `[Vocab, Model]` at `ids` (PyTorch's
    /// `embedding`): the table's gradient is each id's row of the output's
    /// gradient added at that id. Keeps the ids (borrowed), not the table.
    ///
    /// # Errors
    /// An id outside `0..Vocab`; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Vocab, Model, Token);
    /// let table = Tensor::<f64, shape![Vocab: 3, Model: 1]>::zeros();
    /// let ids = Tensor::<i64, shape![Token: 3]>::from_array([2, 0, 2]);
    /// let tv = table.track();
    /// let grads = tv.try_embedding(&ids)?.sum_all().backward();
    /// assert_eq!(grads.of(&tv).unwrap().to_vec(), vec![1.0, 0.0, 2.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_embedding<'t, IS, R: Data<D>>(
        &self,
        ids: &'t TensorBase<i64, IS, D, R>,
    ) -> Result<Var<'t, T, Concat<IS, Ax<M, MS, Nil>>, D>>
    where
        IS: Shape + Append<Ax<M, MS, Nil>>,
        'g: 't,
    {
        let ids = CoreVar::constant_ref(ids.raw());
        Ok(Var::from_core(self.core()?.embedding(&ids)?))
    }

    /// The rows of this table at `ids`.
    ///
    /// # Panics
    /// As [`try_embedding`](Self::try_embedding), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Vocab, Model, Token);
    /// let table = Tensor::<f64, shape![Vocab: 2, Model: 1]>::from_array([[5.0], [7.0]]);
    /// let ids = Tensor::<i64, shape![Token: 2]>::from_array([1, 0]);
    /// assert_eq!(table.track().embedding(&ids).value().to_vec(), vec![7.0, 5.0]);
    /// ```
    #[allow(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    #[track_caller]
    pub fn embedding<'t, IS, R: Data<D>>(
        &self,
        ids: &'t TensorBase<i64, IS, D, R>,
    ) -> Var<'t, T, Concat<IS, Ax<M, MS, Nil>>, D>
    where
        IS: Shape + Append<Ax<M, MS, Nil>>,
        'g: 't,
    {
        or_panic(self.try_embedding(ids))
    }
}

impl<'g, T: Float, S: Shape, D: Backend, W> Var<'g, T, S, D, W> {
    /// `value` where the bool `mask` is true, in place (PyTorch's
    /// `masked_fill_`), recorded; the mask stays borrowed for the graph's
    /// lifetime.
    ///
    /// # Errors
    /// A `Dyn` size that does not broadcast; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Key);
    /// let m = Tensor::<Bool, shape![Key: 2]>::from_array([Bool::FALSE, Bool::TRUE]);
    /// let x = Tensor::<f64, shape![Key: 2]>::ones();
    /// let mut h = x.track() * 2.0;
    /// h.try_masked_fill_(&m, f64::NEG_INFINITY)?;
    /// assert_eq!(h.value().to_vec(), vec![2.0, f64::NEG_INFINITY]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_masked_fill_<M, R: Data<D>>(
        &mut self,
        mask: &'g TensorBase<Bool, M, D, R>,
        value: T,
    ) -> Result<()>
    where
        S: InPlace<M>,
        W: WriteInPlace,
    {
        self.own_base()?;
        let m = CoreVar::constant_ref(mask.raw());
        self.var.masked_fill_(&m, Scalar::Float(value.to_f64()))
    }

    /// `value` where the bool `mask` is true, in place.
    ///
    /// # Panics
    /// As [`try_masked_fill_`](Self::try_masked_fill_), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Key);
    /// let m = Tensor::<Bool, shape![Key: 1]>::from_array([Bool::TRUE]);
    /// let x = Tensor::<f64, shape![Key: 1]>::ones();
    /// let mut h = x.track() + 0.0;
    /// h.masked_fill_(&m, 3.0);
    /// assert_eq!(h.value().item(), 3.0);
    /// ```
    #[track_caller]
    pub fn masked_fill_<M, R: Data<D>>(&mut self, mask: &'g TensorBase<Bool, M, D, R>, value: T)
    where
        S: InPlace<M>,
        W: WriteInPlace,
    {
        or_panic(self.try_masked_fill_(mask, value));
    }
}

impl<T: Float, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// The matrix product with a tracked right operand, by axis name: this
    /// untracked tensor is kept (for the other's gradient), so the product
    /// borrows it; the tracked one is not kept (this one needs no gradient).
    ///
    /// # Errors
    /// A `Dyn` size that does not fit; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Inner);
    /// let x = Tensor::<f64, shape![Rows: 1, Inner: 2]>::from_array([[1.0, 2.0]]);
    /// let w = Tensor::<f64, shape![Inner: 2]>::ones();
    /// let wv = w.track();
    /// let grads = x.try_matmul_tracked(&wv)?.sum_all().backward();
    /// assert_eq!(grads.of(&wv).unwrap().to_vec(), vec![1.0, 2.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_matmul_tracked<'a, 'g: 'a, S2, W2>(
        &'a self,
        other: &Var<'g, T, S2, D, W2>,
    ) -> Result<Var<'a, T, MatMulOut<S, S2>, D>>
    where
        S: MatMul<S2>,
    {
        let x = CoreVar::constant_ref(self.raw());
        Ok(Var::from_core(x.matmul(&*other.core()?)?))
    }

    /// The matrix product with a tracked right operand.
    ///
    /// # Panics
    /// As [`try_matmul_tracked`](Self::try_matmul_tracked), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Inner);
    /// let x = Tensor::<f64, shape![Inner: 2]>::from_array([1.0, 2.0]);
    /// assert_eq!(x.matmul_tracked(&x.track()).value().item(), 5.0);
    /// ```
    #[track_caller]
    pub fn matmul_tracked<'a, 'g: 'a, S2, W2>(
        &'a self,
        other: &Var<'g, T, S2, D, W2>,
    ) -> Var<'a, T, MatMulOut<S, S2>, D>
    where
        S: MatMul<S2>,
    {
        or_panic(self.try_matmul_tracked(other))
    }

    /// `x·Wᵀ + b` of this untracked input (data) with a tracked weight and
    /// bias: the input is kept for the weight's gradient, so the output
    /// borrows it; the weight is not kept (the input needs no gradient).
    ///
    /// # Errors
    /// A `Dyn` size that does not fit; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::Param;
    /// axes!(Batch, In, Out);
    /// let w = Param::new(Tensor::<f64, shape![Out: 1, In: 2]>::ones());
    /// let x = Tensor::<f64, shape![Batch: 2, In: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let wv = w.var();
    /// let grads = x.try_linear_tracked(&wv, None)?.sum_all().backward();
    /// assert_eq!(grads.of(&wv).unwrap().to_vec(), vec![4.0, 6.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_linear_tracked<'a, 'g: 'a, O, OS, I, IS, W2>(
        &'a self,
        weight: &Var<'g, T, Ax<O, OS, Ax<I, IS, Nil>>, D, W2>,
        bias: Option<&Var<'g, T, Ax<O, OS, Nil>, D, Kept>>,
    ) -> Result<Var<'a, T, MatMulOut<S, Ax<I, IS, Ax<O, OS, Nil>>>, D>>
    where
        S: MatMul<Ax<I, IS, Ax<O, OS, Nil>>>,
    {
        let x = CoreVar::constant_ref(self.raw());
        let b = bias.map(Var::core).transpose()?;
        Ok(Var::from_core(x.linear(&*weight.core()?, b.as_deref())?))
    }

    /// `x·Wᵀ + b` of this untracked input with a tracked weight.
    ///
    /// # Panics
    /// As [`try_linear_tracked`](Self::try_linear_tracked), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(In, Out);
    /// let w = Tensor::<f64, shape![Out: 1, In: 2]>::ones();
    /// let x = Tensor::<f64, shape![In: 2]>::from_array([1.0, 2.0]);
    /// assert_eq!(x.linear_tracked(&w.track(), None).value().to_vec(), vec![3.0]);
    /// ```
    #[allow(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    #[track_caller]
    pub fn linear_tracked<'a, 'g: 'a, O, OS, I, IS, W2>(
        &'a self,
        weight: &Var<'g, T, Ax<O, OS, Ax<I, IS, Nil>>, D, W2>,
        bias: Option<&Var<'g, T, Ax<O, OS, Nil>, D, Kept>>,
    ) -> Var<'a, T, MatMulOut<S, Ax<I, IS, Ax<O, OS, Nil>>>, D>
    where
        S: MatMul<Ax<I, IS, Ax<O, OS, Nil>>>,
    {
        or_panic(self.try_linear_tracked(weight, bias))
    }
}
