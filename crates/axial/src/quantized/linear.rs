//! The quantized linear layer by name: a `qint8` weight `(Out, In)` packed
//! once, applied to `quint8` activations whose last axis is `In`.

use std::marker::PhantomData;

use axial_core::quantized::{self as core_q, PackedLinearWeight};
use axial_core::{Cpu, Result, TensorRef};
use axial_shape::{Ax, MatMul, MatMulOut, Nil, Shape};

use super::{PerChannel, PerTensor, QInt8, QUInt8, Quantized};
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::TensorBase;

/// The shape of a linear layer's weight: `(Out, In)`.
///
/// ```
/// use axial::LinearWeight;
/// use axial::Shape;
/// use axial::prelude::*;
/// axes!(Out, In);
/// fn rank<W: LinearWeight>() -> usize { <W::Bias as Shape>::RANK }
/// assert_eq!(rank::<shape![Out: 4, In: 3]>(), 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "a linear layer's weight has two axes `(Out, In)`, not `{Self}`",
    label = "not a matrix"
)]
pub trait LinearWeight: Shape {
    /// `(Out,)`: the bias.
    type Bias: Shape;
    /// `(In, Out)`: what the activations are multiplied by.
    type Transposed: Shape;
}

impl<O, SO, I, SI> LinearWeight for Ax<O, SO, Ax<I, SI, Nil>>
where
    Self: Shape,
    Ax<O, SO, Nil>: Shape,
    Ax<I, SI, Ax<O, SO, Nil>>: Shape,
{
    type Bias = Ax<O, SO, Nil>;
    type Transposed = Ax<I, SI, Ax<O, SO, Nil>>;
}

/// The schemes a weight may have: per tensor, or per channel along its
/// output axis.
///
/// ```
/// use axial::{PerChannel, PerTensor, WeightScheme};
/// use axial::prelude::*;
/// axes!(Out, In);
/// fn ok<W, S: WeightScheme<W>>() {}
/// ok::<shape![Out: 2, In: 3], PerTensor>();
/// ok::<shape![Out: 2, In: 3], PerChannel<Out>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "a linear layer's weight is quantized per tensor or per channel along its output axis, not with `{Self}`",
    label = "another scheme"
)]
pub trait WeightScheme<W> {}
impl<W> WeightScheme<W> for PerTensor {}
impl<O, SO, I, SI> WeightScheme<Ax<O, SO, Ax<I, SI, Nil>>> for PerChannel<O> {}

/// A quantized weight `W` (`(Out, In)`) and bias, packed for
/// [`Quantized::linear`] (`torch.ops.quantized.linear_prepack`).
///
/// ```
/// use axial::prelude::*;
/// axes!(Out, In);
/// let w = Tensor::<f32, shape![Out: 2, In: 3]>::ones().quantize_per_tensor::<QInt8>(0.02, 0);
/// let packed = w.prepack();
/// assert_eq!(packed.as_core().in_features(), 3);
/// ```
pub struct PackedLinear<W> {
    inner: PackedLinearWeight,
    marker: PhantomData<fn() -> W>,
}

impl<W> PackedLinear<W> {
    /// The core's packed weight.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Out, In);
    /// let w = Tensor::<f32, shape![Out: 4, In: 3]>::ones().quantize_per_tensor::<QInt8>(0.02, 0);
    /// assert_eq!(w.prepack().as_core().out_features(), 4);
    /// ```
    pub fn as_core(&self) -> &PackedLinearWeight {
        &self.inner
    }
}

impl<W: LinearWeight, Scheme: WeightScheme<W>> Quantized<QInt8, W, Scheme> {
    fn packed(&self, bias: Option<TensorRef<'_, Cpu>>) -> Result<PackedLinear<W>> {
        Ok(PackedLinear {
            inner: PackedLinearWeight::new(&self.as_core().view(), bias.as_ref())?,
            marker: PhantomData,
        })
    }

    /// Packs this weight, without a bias, for [`Quantized::linear`].
    ///
    /// # Errors
    /// `In` is past 65793 (where `i32` sums of products could overflow).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Out, In);
    /// let w = Tensor::<f32, shape![Out: 2, In: 3]>::ones().quantize_per_channel::<QInt8, Out>(&[0.02, 0.01], &[0, 0]);
    /// assert_eq!(w.try_prepack()?.as_core().out_features(), 2);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_prepack(&self) -> Result<PackedLinear<W>> {
        self.packed(None)
    }

    /// Packs this weight, without a bias.
    ///
    /// # Panics
    /// As [`try_prepack`](Self::try_prepack), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Out, In);
    /// let w = Tensor::<f32, shape![Out: 2, In: 3]>::ones().quantize_per_tensor::<QInt8>(0.02, 0);
    /// assert_eq!(w.prepack().as_core().in_features(), 3);
    /// ```
    #[track_caller]
    pub fn prepack(&self) -> PackedLinear<W> {
        or_panic(self.try_prepack())
    }

    /// Packs this weight and `bias` (one `f32` per output).
    ///
    /// # Errors
    /// As [`try_prepack`](Self::try_prepack); a `Dyn` bias of another length.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Out, In);
    /// let w = Tensor::<f32, shape![Out: 2, In: 3]>::ones().quantize_per_tensor::<QInt8>(0.02, 0);
    /// let b = Tensor::<f32, shape![Out: 2]>::zeros();
    /// assert!(w.try_prepack_with_bias(&b).is_ok());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_prepack_with_bias<R: Data<Cpu>>(
        &self,
        bias: &TensorBase<f32, W::Bias, Cpu, R>,
    ) -> Result<PackedLinear<W>> {
        self.packed(Some(bias.raw()))
    }

    /// Packs this weight and `bias`.
    ///
    /// # Panics
    /// As [`try_prepack_with_bias`](Self::try_prepack_with_bias), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Out, In);
    /// let w = Tensor::<f32, shape![Out: 2, In: 3]>::ones().quantize_per_tensor::<QInt8>(0.02, 0);
    /// let packed = w.prepack_with_bias(&Tensor::<f32, shape![Out: 2]>::ones());
    /// assert_eq!(packed.as_core().out_features(), 2);
    /// ```
    #[track_caller]
    pub fn prepack_with_bias<R: Data<Cpu>>(
        &self,
        bias: &TensorBase<f32, W::Bias, Cpu, R>,
    ) -> PackedLinear<W> {
        or_panic(self.try_prepack_with_bias(bias))
    }
}

impl<S: Shape> Quantized<QUInt8, S, PerTensor> {
    /// `torch.ops.quantized.linear(x, w, out_scale, out_zero_point)`:
    /// `x @ w.T + bias` on the integers (`u8 × i8` products summed exactly
    /// in `i32`), requantized to `quint8`, bit for bit as PyTorch's x86
    /// engine. The last axis of `x` is contracted with the weight's `In`,
    /// by name and size; the result has the weight's `Out` in its place.
    ///
    /// # Errors
    /// The output zero point is outside `[0, 255]` or the output scale is
    /// invalid; a `Dyn` contracted size that differs.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, In, Out);
    /// let x = Tensor::<f32, shape![Batch: 2, In: 3]>::from_array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]);
    /// let w = Tensor::<f32, shape![Out: 2, In: 3]>::from_array([[1.0, 0.5, -0.5], [-1.0, 2.0, 0.25]]);
    /// let b = Tensor::<f32, shape![Out: 2]>::from_array([0.1, -0.2]);
    /// let qx = x.quantize_per_tensor::<QUInt8>(0.05, 64);
    /// let packed = w.quantize_per_tensor::<QInt8>(0.02, 0).prepack_with_bias(&b);
    /// let y = qx.try_linear(&packed, 0.1, 10)?; // shape![Batch: 2, Out: 2]
    /// assert_eq!(y.int_repr().to_vec(), vec![1, 0, 31, 0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_linear<W: LinearWeight>(
        &self,
        weight: &PackedLinear<W>,
        out_scale: f64,
        out_zero_point: i64,
    ) -> Result<Quantized<QUInt8, MatMulOut<S, W::Transposed>, PerTensor>>
    where
        S: MatMul<W::Transposed>,
    {
        core_q::linear(
            &self.as_core().view(),
            &weight.inner,
            out_scale,
            out_zero_point,
        )
        .map(Quantized::wrap)
    }

    /// `torch.ops.quantized.linear`, by name.
    ///
    /// # Panics
    /// As [`try_linear`](Self::try_linear), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, In, Out);
    /// let qx = Tensor::<f32, shape![Batch: 1, In: 2]>::ones().quantize_per_tensor::<QUInt8>(0.1, 0);
    /// let w = Tensor::<f32, shape![Out: 3, In: 2]>::ones().quantize_per_tensor::<QInt8>(0.1, 0);
    /// let y = qx.linear(&w.prepack(), 0.1, 0);
    /// assert_eq!(y.dequantize().to_vec(), vec![2.0, 2.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn linear<W: LinearWeight>(
        &self,
        weight: &PackedLinear<W>,
        out_scale: f64,
        out_zero_point: i64,
    ) -> Quantized<QUInt8, MatMulOut<S, W::Transposed>, PerTensor>
    where
        S: MatMul<W::Transposed>,
    {
        or_panic(self.try_linear(weight, out_scale, out_zero_point))
    }

    /// `torch.ops.quantized.linear_relu(x, w, out_scale, out_zero_point)`:
    /// [`try_linear`](Self::try_linear) with the output clamped below at
    /// the output zero point (the quantized 0), in one pass, bit for bit as
    /// PyTorch's x86 engine.
    ///
    /// # Errors
    /// As [`try_linear`](Self::try_linear).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, In, Out);
    /// let x = Tensor::<f32, shape![Batch: 2, In: 3]>::from_array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]);
    /// let w = Tensor::<f32, shape![Out: 2, In: 3]>::from_array([[1.0, 0.5, -0.5], [-1.0, 2.0, 0.25]]);
    /// let b = Tensor::<f32, shape![Out: 2]>::from_array([0.1, -0.2]);
    /// let qx = x.quantize_per_tensor::<QUInt8>(0.05, 64);
    /// let packed = w.quantize_per_tensor::<QInt8>(0.02, 0).prepack_with_bias(&b);
    /// let y = qx.try_linear_relu(&packed, 0.1, 10)?;
    /// assert_eq!(y.int_repr().to_vec(), vec![10, 10, 31, 10]); // 1 and 0 clamp to the zero point
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_linear_relu<W: LinearWeight>(
        &self,
        weight: &PackedLinear<W>,
        out_scale: f64,
        out_zero_point: i64,
    ) -> Result<Quantized<QUInt8, MatMulOut<S, W::Transposed>, PerTensor>>
    where
        S: MatMul<W::Transposed>,
    {
        core_q::linear_relu(
            &self.as_core().view(),
            &weight.inner,
            out_scale,
            out_zero_point,
        )
        .map(Quantized::wrap)
    }

    /// `torch.ops.quantized.linear_relu`, by name.
    ///
    /// # Panics
    /// As [`try_linear_relu`](Self::try_linear_relu), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, In, Out);
    /// let qx = Tensor::<f32, shape![Batch: 1, In: 2]>::ones().quantize_per_tensor::<QUInt8>(0.1, 0);
    /// let w = Tensor::<f32, shape![Out: 2, In: 2]>::from_array([[1.0, 1.0], [-1.0, -1.0]]);
    /// let y = qx.linear_relu(&w.quantize_per_tensor::<QInt8>(0.1, 0).prepack(), 0.1, 5);
    /// assert_eq!(y.dequantize().to_vec(), vec![2.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn linear_relu<W: LinearWeight>(
        &self,
        weight: &PackedLinear<W>,
        out_scale: f64,
        out_zero_point: i64,
    ) -> Quantized<QUInt8, MatMulOut<S, W::Transposed>, PerTensor>
    where
        S: MatMul<W::Transposed>,
    {
        or_panic(self.try_linear_relu(weight, out_scale, out_zero_point))
    }
}
