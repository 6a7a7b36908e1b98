//! The ops of model layers, by axis name: `linear` (the weight as PyTorch
//! stores it, `[Out, In]`), `layer_norm` over a named axis, `embedding`,
//! `masked_fill` with a broadcast mask, and `gelu_tanh` (with the other
//! unary ops).
//!
//! Each proof is in the signature: `linear`'s `In` axis is the input's last
//! axis by name and size ([`MatMul`]) and its bias is `[Out]`; `layer_norm`'s
//! weight and bias are the normalised axis itself; an embedding's ids gain
//! the table's model axis.

use axial_core::{Backend, Bool, Element, Result, Scalar};
use axial_shape::{Append, Ax, Concat, HasAxis, InPlace, MatMul, MatMulOut, Nil, Shape};

use crate::access::owned;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase, TensorView};

/// The one-axis shape of axis `A` of `S`: a `layer_norm` weight's.
pub type AxisOf<S, A> = Ax<A, <S as HasAxis<A>>::Size, Nil>;

impl<T: Float, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `x·Wᵀ + b` (PyTorch's `nn.functional.linear`): the weight is
    /// `[Out, In]` as PyTorch stores it, read transposed where it lies; `In`
    /// is this tensor's last axis (name and size, as `matmul` proves), the
    /// bias is `[Out]` and is folded into the product. Weight and bias may
    /// be of any storage kind (an `ArcTensor` a file's mapping holds, a
    /// view); the bias is passed as a view.
    ///
    /// # Errors
    /// A `Dyn` size that differs at run time; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Token, In, Out);
    /// let x = Tensor::<f32, shape![Token: 2, In: 3]>::ones();
    /// let w = Tensor::<f32, shape![Out: 2, In: 3]>::from_array([[1.0, 2.0, 3.0], [0.0, 0.0, 1.0]]);
    /// let b = Tensor::<f32, shape![Out: 2]>::from_array([0.5, -1.0]);
    /// let y = x.try_linear(&w, Some(b.as_view()))?; // shape![Token: 2, Out: 2]
    /// assert_eq!(y.names().as_slice(), &[Some("Token"), Some("Out")]);
    /// assert_eq!(y.to_vec(), vec![6.5, 0.0, 6.5, 0.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_linear<O, OS, I, IS, R2>(
        &self,
        weight: &TensorBase<T, Ax<O, OS, Ax<I, IS, Nil>>, D, R2>,
        bias: Option<TensorView<'_, T, Ax<O, OS, Nil>, D>>,
    ) -> Result<Tensor<T, MatMulOut<S, Ax<I, IS, Ax<O, OS, Nil>>>, D>>
    where
        S: MatMul<Ax<I, IS, Ax<O, OS, Nil>>>,
        Ax<O, OS, Ax<I, IS, Nil>>: Shape,
        Ax<O, OS, Nil>: Shape,
        R2: Data<D>,
    {
        let b = bias.as_ref().map(|b| b.raw());
        self.raw().linear(&weight.raw(), b.as_ref()).map(owned)
    }

    /// `x·Wᵀ + b`, the weight `[Out, In]`.
    ///
    /// # Panics
    /// As [`try_linear`](Self::try_linear), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::from_array([[1.0, 1.0]]);
    /// let y = Tensor::<f32, shape![In: 2]>::from_array([2.0, 3.0]).linear(&w, None);
    /// assert_eq!(y.to_vec(), vec![5.0]);
    /// ```
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn linear<O, OS, I, IS, R2>(
        &self,
        weight: &TensorBase<T, Ax<O, OS, Ax<I, IS, Nil>>, D, R2>,
        bias: Option<TensorView<'_, T, Ax<O, OS, Nil>, D>>,
    ) -> Tensor<T, MatMulOut<S, Ax<I, IS, Ax<O, OS, Nil>>>, D>
    where
        S: MatMul<Ax<I, IS, Ax<O, OS, Nil>>>,
        Ax<O, OS, Ax<I, IS, Nil>>: Shape,
        Ax<O, OS, Nil>: Shape,
        R2: Data<D>,
    {
        or_panic(self.try_linear(weight, bias))
    }

    /// Layer normalisation over the axis `A` (PyTorch's `layer_norm` over
    /// the last dim, here any axis by name): each slice along `A` minus its
    /// mean over `√(var + eps)`, then `· weight + bias`, both of shape `[A]`.
    /// Mean and variance come from one pass. Weight and bias are passed as
    /// views (of any storage kind).
    ///
    /// # Errors
    /// A failure of the device or the kernel.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Token, Model);
    /// let x = Tensor::<f32, shape![Token: 2, Model: 2]>::from_array([[1.0, 3.0], [5.0, 7.0]]);
    /// let w = Tensor::<f32, shape![Model: 2]>::full(2.0);
    /// let y = x.try_layer_norm::<Model>(Some(w.as_view()), None, 0.0)?;
    /// assert_eq!(y.to_vec(), vec![-2.0, 2.0, -2.0, 2.0]);
    /// let by_token = x.try_layer_norm::<Token>(None, None, 0.0)?; // any axis
    /// assert_eq!(by_token.to_vec(), vec![-1.0, -1.0, 1.0, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_layer_norm<A>(
        &self,
        weight: Option<TensorView<'_, T, AxisOf<S, A>, D>>,
        bias: Option<TensorView<'_, T, AxisOf<S, A>, D>>,
        eps: f64,
    ) -> Result<Tensor<T, S, D>>
    where
        S: HasAxis<A>,
        AxisOf<S, A>: Shape,
    {
        let x = self.raw();
        let (pos, last) = (S::POS as isize, S::RANK as isize - 1);
        let moved = x.clone().movedim(&[pos], &[last])?;
        let n = moved.shape()[S::RANK - 1];
        let (w, b) = (
            weight.as_ref().map(|w| w.raw()),
            bias.as_ref().map(|b| b.raw()),
        );
        let y = moved.layer_norm(&[n], w.as_ref(), b.as_ref(), eps)?;
        if pos == last {
            return Ok(owned(y));
        }
        let back = y.view().movedim(&[last], &[pos])?.to_contiguous()?;
        Ok(owned(back))
    }

    /// Layer normalisation over the axis `A`.
    ///
    /// # Panics
    /// As [`try_layer_norm`](Self::try_layer_norm), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Model);
    /// let x = Tensor::<f64, shape![Model: 2]>::from_array([0.0, 2.0]);
    /// let y = x.layer_norm::<Model>(None, None, 0.0);
    /// assert_eq!(y.to_vec(), vec![-1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn layer_norm<A>(
        &self,
        weight: Option<TensorView<'_, T, AxisOf<S, A>, D>>,
        bias: Option<TensorView<'_, T, AxisOf<S, A>, D>>,
        eps: f64,
    ) -> Tensor<T, S, D>
    where
        S: HasAxis<A>,
        AxisOf<S, A>: Shape,
    {
        or_panic(self.try_layer_norm::<A>(weight, bias, eps))
    }
}

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `x.masked_fill(mask, value)`: `value` where the bool `mask` is true;
    /// the mask's axes broadcast into this tensor's by name (an attention
    /// mask over keys fills every query's row).
    ///
    /// # Errors
    /// A `Dyn` size that does not broadcast; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Query, Key);
    /// let scores = Tensor::<f32, shape![Query: 2, Key: 2]>::ones();
    /// let padded = Tensor::<Bool, shape![Key: 2]>::from_array([Bool::FALSE, Bool::TRUE]);
    /// let m = scores.try_masked_fill(&padded, f32::NEG_INFINITY)?;
    /// assert_eq!(m.to_vec(), vec![1.0, f32::NEG_INFINITY, 1.0, f32::NEG_INFINITY]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_masked_fill<M, R2>(
        &self,
        mask: &TensorBase<Bool, M, D, R2>,
        value: T,
    ) -> Result<Tensor<T, S, D>>
    where
        S: InPlace<M>,
        M: Shape,
        R2: Data<D>,
    {
        let value = Scalar::Float(value.to_f64());
        let value = if T::DTYPE.is_float() {
            value
        } else {
            Scalar::Int(value.to_f64() as i64)
        };
        self.raw().masked_fill(&mask.raw(), value).map(owned)
    }

    /// `x.masked_fill(mask, value)` with a mask broadcast by name.
    ///
    /// # Panics
    /// As [`try_masked_fill`](Self::try_masked_fill), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Key);
    /// let x = Tensor::<i64, shape![Key: 2]>::from_array([1, 2]);
    /// let m = Tensor::<Bool, shape![Key: 2]>::from_array([Bool::TRUE, Bool::FALSE]);
    /// assert_eq!(x.masked_fill(&m, 0).to_vec(), vec![0, 2]);
    /// ```
    #[track_caller]
    pub fn masked_fill<M, R2>(&self, mask: &TensorBase<Bool, M, D, R2>, value: T) -> Tensor<T, S, D>
    where
        S: InPlace<M>,
        M: Shape,
        R2: Data<D>,
    {
        or_panic(self.try_masked_fill(mask, value))
    }
}

impl<T: Element, V, VS, M, MS, D: Backend, R: Data<D>>
    TensorBase<T, Ax<V, VS, Ax<M, MS, Nil>>, D, R>
where
    Ax<V, VS, Ax<M, MS, Nil>>: Shape,
{
    /// The rows of this table `[Vocab, Model]` at `ids` (PyTorch's
    /// `nn.functional.embedding`): the ids' shape with the table's last
    /// axis after it. An id out of range is an error (PyTorch's "index out
    /// of range in self"), checked before anything is written.
    ///
    /// # Errors
    /// An id outside `0..Vocab`; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Vocab, Model, Token);
    /// let table = Tensor::<f32, shape![Vocab: 3, Model: 2]>::from_array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]);
    /// let ids = Tensor::<i64, shape![Token: 2]>::from_array([2, 0]);
    /// let e = table.try_embedding(&ids)?; // shape![Token: 2, Model: 2]
    /// assert_eq!(e.names().as_slice(), &[Some("Token"), Some("Model")]);
    /// assert_eq!(e.to_vec(), vec![2.0, 2.0, 0.0, 0.0]);
    /// assert!(table.try_embedding(&Tensor::<i64, shape![Token: 1]>::from_array([3])).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_embedding<IS, R2>(
        &self,
        ids: &TensorBase<i64, IS, D, R2>,
    ) -> Result<Tensor<T, Concat<IS, Ax<M, MS, Nil>>, D>>
    where
        IS: Shape + Append<Ax<M, MS, Nil>>,
        R2: Data<D>,
    {
        self.raw().embedding(&ids.raw()).map(owned)
    }

    /// The rows of this table at `ids`.
    ///
    /// # Panics
    /// As [`try_embedding`](Self::try_embedding), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Vocab, Model, Token);
    /// let table = Tensor::<f32, shape![Vocab: 2, Model: 1]>::from_array([[5.0], [7.0]]);
    /// let e = table.embedding(&Tensor::<i64, shape![Token: 3]>::from_array([1, 1, 0]));
    /// assert_eq!(e.to_vec(), vec![7.0, 7.0, 5.0]);
    /// ```
    #[track_caller]
    pub fn embedding<IS, R2>(
        &self,
        ids: &TensorBase<i64, IS, D, R2>,
    ) -> Tensor<T, Concat<IS, Ax<M, MS, Nil>>, D>
    where
        IS: Shape + Append<Ax<M, MS, Nil>>,
        R2: Data<D>,
    {
        or_panic(self.try_embedding(ids))
    }
}
