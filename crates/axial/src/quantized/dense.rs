//! Linear layers for inference whose precision is in their type: a
//! [`Dense<P, W>`] holds a weight of shape `W` (`(Out, In)`) and its bias,
//! stored as [`Fp32`], [`Int8`] (per-channel int8 weights, activations
//! quantized per token at each call) or [`Bf16`] (bf16 weights and
//! activations, f32 sums), and maps f32 activations whose last axis is `In`
//! to f32 activations whose last axis is `Out`. A model generic over `P`
//! says in its type how its layers compute (`Bert<Int8>`), and
//! [`Dense::convert`] turns an f32 layer into another precision.

use std::marker::PhantomData;

use axial_core::cpu::infer::{Bf16Linear, F32Linear, Int8Linear};
use axial_core::{Cpu, RawTensor, Result, TensorRef, UnaryOp};
use axial_shape::{MatMul, MatMulOut, Shape};

use super::LinearWeight;
use crate::access::owned;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{ArcTensor, Tensor, TensorBase};

mod sealed {
    pub trait Sealed {}
}

/// How a [`Dense`] layer stores its weight and computes.
///
/// ```
/// use axial::{Bf16, Fp32, Int8, Precision};
/// assert_eq!((Fp32::NAME, Int8::NAME, Bf16::NAME), ("fp32", "int8", "bf16"));
/// ```
pub trait Precision: sealed::Sealed + 'static {
    /// The name of the precision.
    const NAME: &'static str;
    /// The weight as the layer keeps it.
    #[doc(hidden)]
    type Stored: Send + Sync;
    /// Stores an f32 `weight` (`[Out, In]`) and `bias` (`[Out]`).
    #[doc(hidden)]
    fn store(weight: TensorRef<'_, Cpu>, bias: TensorRef<'_, Cpu>) -> Result<Self::Stored>;
    /// The layer over `x` (`[..., In]`).
    #[doc(hidden)]
    fn forward(stored: &Self::Stored, x: TensorRef<'_, Cpu>) -> Result<RawTensor>;
    /// The layer over `x`, then the exact GELU: after the product unless
    /// the precision folds it in.
    #[doc(hidden)]
    fn forward_gelu(stored: &Self::Stored, x: TensorRef<'_, Cpu>) -> Result<RawTensor> {
        let mut y = Self::forward(stored, x)?;
        y.view_mut().unary_(UnaryOp::Gelu)?;
        Ok(y)
    }
}

/// f32 weights, packed once for the product, the bias added as each output
/// is stored (`axial_core::cpu::infer::F32Linear`).
///
/// ```
/// use axial::{Fp32, Precision};
/// assert_eq!(Fp32::NAME, "fp32");
/// ```
pub struct Fp32;
/// int8 weights per output channel and activations quantized per token
/// (`axial_core::cpu::infer::Int8Linear`).
///
/// ```
/// use axial::{Int8, Precision};
/// assert_eq!(Int8::NAME, "int8");
/// ```
pub struct Int8;
/// bf16 weights and activations, f32 sums (`axial_core::cpu::infer::Bf16Linear`).
///
/// ```
/// use axial::{Bf16, Precision};
/// assert_eq!(Bf16::NAME, "bf16");
/// ```
pub struct Bf16;

impl sealed::Sealed for Fp32 {}
impl sealed::Sealed for Int8 {}
impl sealed::Sealed for Bf16 {}

impl Precision for Fp32 {
    const NAME: &'static str = "fp32";
    type Stored = F32Linear;
    fn store(weight: TensorRef<'_, Cpu>, bias: TensorRef<'_, Cpu>) -> Result<F32Linear> {
        F32Linear::new(&weight, Some(&bias))
    }
    fn forward(s: &F32Linear, x: TensorRef<'_, Cpu>) -> Result<RawTensor> {
        s.forward(&x)
    }
    fn forward_gelu(s: &F32Linear, x: TensorRef<'_, Cpu>) -> Result<RawTensor> {
        s.forward_gelu(&x)
    }
}

impl Precision for Int8 {
    const NAME: &'static str = "int8";
    type Stored = Int8Linear;
    fn store(weight: TensorRef<'_, Cpu>, bias: TensorRef<'_, Cpu>) -> Result<Int8Linear> {
        Int8Linear::new(&weight, Some(&bias))
    }
    fn forward(s: &Int8Linear, x: TensorRef<'_, Cpu>) -> Result<RawTensor> {
        s.forward(&x)
    }
    fn forward_gelu(s: &Int8Linear, x: TensorRef<'_, Cpu>) -> Result<RawTensor> {
        s.forward_gelu(&x)
    }
}

impl Precision for Bf16 {
    const NAME: &'static str = "bf16";
    type Stored = Bf16Linear;
    fn store(weight: TensorRef<'_, Cpu>, bias: TensorRef<'_, Cpu>) -> Result<Bf16Linear> {
        Bf16Linear::new(&weight, Some(&bias))
    }
    fn forward(s: &Bf16Linear, x: TensorRef<'_, Cpu>) -> Result<RawTensor> {
        s.forward(&x)
    }
    fn forward_gelu(s: &Bf16Linear, x: TensorRef<'_, Cpu>) -> Result<RawTensor> {
        s.forward_gelu(&x)
    }
}

/// A linear layer `x·Wᵀ + b` for inference: a weight of shape `W`
/// (`(Out, In)`) and a bias `(Out,)`, stored in precision `P`; the f32
/// weight is kept so that the layer can be converted.
///
/// ```
/// use axial::prelude::*;
/// use axial::{Dense, Fp32, Int8};
/// axes!(Batch, In, Out);
/// let w = Tensor::<f32, shape![Out: 2, In: 3]>::from_array([[1.0, -0.5, 0.25], [2.0, 0.0, -1.0]]);
/// let b = Tensor::<f32, shape![Out: 2]>::from_array([0.5, -0.5]);
/// let layer: Dense<Fp32, _> = Dense::new(w.into_shared(), b.into_shared());
/// let x = Tensor::<f32, shape![Batch: 1, In: 3]>::from_array([[1.0, 2.0, 3.0]]);
/// assert_eq!(layer.forward(&x).to_vec(), vec![1.25, -1.5]);
/// let int8: Dense<Int8, _> = layer.convert();
/// let y = int8.forward(&x).to_vec(); // shape![Batch: 1, Out: 2]
/// assert!((y[0] - 1.25).abs() < 0.05 && (y[1] + 1.5).abs() < 0.05, "{y:?}");
/// ```
pub struct Dense<P: Precision, W: LinearWeight> {
    weight: ArcTensor<f32, W>,
    bias: ArcTensor<f32, W::Bias>,
    stored: P::Stored,
    marker: PhantomData<fn() -> P>,
}

impl<P: Precision, W: LinearWeight> Dense<P, W> {
    /// The layer of `weight` and `bias`, stored in precision `P`.
    ///
    /// # Errors
    /// A weight that [`Int8`] cannot quantize (a value that is not finite).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Dense, Int8};
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::from_array([[1.0, f32::NAN]]);
    /// let b = Tensor::<f32, shape![Out: 1]>::zeros();
    /// assert!(Dense::<Int8, _>::try_new(w.into_shared(), b.into_shared()).is_err());
    /// ```
    pub fn try_new(weight: ArcTensor<f32, W>, bias: ArcTensor<f32, W::Bias>) -> Result<Self> {
        let stored = P::store(weight.raw(), bias.raw())?;
        Ok(Dense {
            weight,
            bias,
            stored,
            marker: PhantomData,
        })
    }

    /// The layer of `weight` and `bias`.
    ///
    /// # Panics
    /// As [`try_new`](Self::try_new), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Bf16, Dense};
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::ones();
    /// let layer = Dense::<Bf16, _>::new(w.into_shared(), Tensor::<f32, shape![Out: 1]>::zeros().into_shared());
    /// assert_eq!(layer.forward(&Tensor::<f32, shape![In: 2]>::from_array([1.0, 2.0])).to_vec(), vec![3.0]);
    /// ```
    #[track_caller]
    pub fn new(weight: ArcTensor<f32, W>, bias: ArcTensor<f32, W::Bias>) -> Self {
        or_panic(Self::try_new(weight, bias))
    }

    /// The same weights in precision `Q`.
    ///
    /// # Errors
    /// As [`try_new`](Self::try_new).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Bf16, Dense, Fp32};
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::ones().into_shared();
    /// let layer = Dense::<Fp32, _>::new(w, Tensor::<f32, shape![Out: 1]>::zeros().into_shared());
    /// let bf16: Dense<Bf16, _> = layer.try_convert()?;
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_convert<Q: Precision>(&self) -> Result<Dense<Q, W>> {
        Dense::try_new(self.weight.clone(), self.bias.clone())
    }

    /// The same weights in precision `Q`.
    ///
    /// # Panics
    /// As [`try_new`](Self::try_new), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Dense, Fp32, Int8};
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::ones().into_shared();
    /// let layer = Dense::<Fp32, _>::new(w, Tensor::<f32, shape![Out: 1]>::zeros().into_shared());
    /// let int8: Dense<Int8, _> = layer.convert();
    /// ```
    #[track_caller]
    pub fn convert<Q: Precision>(&self) -> Dense<Q, W> {
        or_panic(self.try_convert())
    }

    /// The f32 weight.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Dense, Int8};
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::ones().into_shared();
    /// let layer = Dense::<Int8, _>::new(w, Tensor::<f32, shape![Out: 1]>::zeros().into_shared());
    /// assert_eq!(layer.weight().to_vec(), vec![1.0, 1.0]);
    /// ```
    pub fn weight(&self) -> &ArcTensor<f32, W> {
        &self.weight
    }

    /// `x·Wᵀ + b`: the last axis of `x` is the weight's `In` (by name and
    /// size); the result has `Out` in its place.
    ///
    /// # Errors
    /// A `Dyn` last axis of another size than `In`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Dense, Fp32};
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::ones().into_shared();
    /// let layer = Dense::<Fp32, _>::new(w, Tensor::<f32, shape![Out: 1]>::zeros().into_shared());
    /// let x = Tensor::<f32, shape![In: Dyn]>::from_vec_dyn(vec![1.0, 2.0, 3.0], [3]);
    /// assert!(layer.try_forward(&x).is_err());
    /// ```
    pub fn try_forward<S, R: Data<Cpu>>(
        &self,
        x: &TensorBase<f32, S, Cpu, R>,
    ) -> Result<Tensor<f32, MatMulOut<S, W::Transposed>>>
    where
        S: Shape + MatMul<W::Transposed>,
    {
        P::forward(&self.stored, x.raw()).map(owned)
    }

    /// `x·Wᵀ + b`.
    ///
    /// # Panics
    /// As [`try_forward`](Self::try_forward), with its message (only with
    /// `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Dense, Fp32};
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::ones().into_shared();
    /// let layer = Dense::<Fp32, _>::new(w, Tensor::<f32, shape![Out: 1]>::zeros().into_shared());
    /// assert_eq!(layer.forward(&Tensor::<f32, shape![In: 2]>::ones()).to_vec(), vec![2.0]);
    /// ```
    #[track_caller]
    pub fn forward<S, R: Data<Cpu>>(
        &self,
        x: &TensorBase<f32, S, Cpu, R>,
    ) -> Tensor<f32, MatMulOut<S, W::Transposed>>
    where
        S: Shape + MatMul<W::Transposed>,
    {
        or_panic(self.try_forward(x))
    }

    /// `gelu(x·Wᵀ + b)`, the exact GELU (PyTorch's default): for `Fp32`,
    /// applied as the product's outputs leave the registers, with the bits
    /// of [`forward`](Self::forward) and then `gelu_` where `Out`'s size
    /// is a multiple of 16; for the other precisions, after the product.
    ///
    /// # Errors
    /// As [`try_forward`](Self::try_forward).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Dense, Fp32};
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::ones().into_shared();
    /// let layer = Dense::<Fp32, _>::new(w, Tensor::<f32, shape![Out: 1]>::zeros().into_shared());
    /// let x = Tensor::<f32, shape![In: 2]>::ones();
    /// assert_eq!(layer.try_forward_gelu(&x)?.to_vec(), layer.forward(&x).gelu().to_vec());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_forward_gelu<S, R: Data<Cpu>>(
        &self,
        x: &TensorBase<f32, S, Cpu, R>,
    ) -> Result<Tensor<f32, MatMulOut<S, W::Transposed>>>
    where
        S: Shape + MatMul<W::Transposed>,
    {
        P::forward_gelu(&self.stored, x.raw()).map(owned)
    }

    /// `gelu(x·Wᵀ + b)`: [`try_forward_gelu`](Self::try_forward_gelu).
    ///
    /// # Panics
    /// As [`try_forward`](Self::try_forward), with its message (only with
    /// `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Dense, Fp32};
    /// axes!(In, Out);
    /// let w = Tensor::<f32, shape![Out: 1, In: 2]>::ones().into_shared();
    /// let layer = Dense::<Fp32, _>::new(w, Tensor::<f32, shape![Out: 1]>::zeros().into_shared());
    /// let y = layer.forward_gelu(&Tensor::<f32, shape![In: 2]>::ones());
    /// assert!((y.to_vec()[0] - 1.9545).abs() < 1e-4);
    /// ```
    #[track_caller]
    pub fn forward_gelu<S, R: Data<Cpu>>(
        &self,
        x: &TensorBase<f32, S, Cpu, R>,
    ) -> Tensor<f32, MatMulOut<S, W::Transposed>>
    where
        S: Shape + MatMul<W::Transposed>,
    {
        or_panic(self.try_forward_gelu(x))
    }
}
