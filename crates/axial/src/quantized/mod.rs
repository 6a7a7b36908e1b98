//! Quantized tensors with typed shapes: the quantized dtype ([`QUInt8`],
//! [`QInt8`], [`QInt32`]) and the scheme ([`PerTensor`], or
//! [`PerChannel<A>`] along a named axis) are in the type, over the core's
//! [`axial_core::quantized`] with PyTorch's exact arithmetic.
//!
//! What PyTorch checks at run time is proven here: quantizing per channel
//! along an axis the tensor does not have does not compile, `q_scale()`
//! exists only on per-tensor tensors and `q_per_channel_scales()` only on
//! per-channel ones, the quantized linear layer (and `linear_relu`) takes
//! `quint8` activations and a `qint8` weight whose input axis is the
//! activations' last (by name and size), and the quantized `matmul` takes
//! two 8-bit operands of one dtype, per tensor, contracted by name.
//!
//! ```
//! use axial::prelude::*;
//! axes!(Out, In);
//! let w = Tensor::<f32, shape![Out: 2, In: 3]>::from_array([[1.0, 0.5, -0.5], [-1.0, 2.0, 0.25]]);
//! let qw = w.quantize_per_channel::<QInt8, Out>(&[0.02, 0.01], &[0, 0]);
//! assert_eq!(qw.int_repr().to_vec(), vec![50, 25, -25, -100, 127, 25]); // 200 clamps to 127
//! assert_eq!(qw.q_per_channel_scales(), &[0.02, 0.01]);
//! let back = qw.dequantize();
//! assert_eq!(back.to_vec(), vec![1.0, 0.5, -0.5, -1.0, 1.27, 0.25]);
//! ```

mod dense;
mod ints;
mod linear;
mod product;
mod view;

use std::fmt;
use std::marker::PhantomData;

use axial_core::quantized::{self as core_q, QDType, QuantizedTensor};
use axial_core::{Cpu, Element, Result};
use axial_shape::{HasAxis, Shape};

pub use dense::{Bf16, Dense, Fp32, Int8, Precision};
pub use linear::{LinearWeight, PackedLinear, WeightScheme};
pub use product::QuantizedMatMul;
pub use view::QuantizedView;

use crate::access::owned;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

mod sealed {
    pub trait Sealed {}
}

/// Holds the type parameters without values of them.
pub(crate) type Marker<T> = PhantomData<fn() -> T>;

/// A quantized dtype as a type: what the integers are and their range.
///
/// ```
/// use axial::{QInt8, QType};
/// assert_eq!(<QInt8 as QType>::QDTYPE.qmax(), 127);
/// ```
pub trait QType: sealed::Sealed + 'static {
    /// The runtime tag.
    const QDTYPE: QDType;
    /// The type of the stored integers (`int_repr()`'s elements).
    type Repr: Element;
}

/// `torch.quint8`: unsigned 8-bit, `[0, 255]`.
///
/// ```
/// use axial::{QType, QUInt8};
/// assert_eq!(<QUInt8 as QType>::QDTYPE.to_string(), "torch.quint8");
/// ```
pub struct QUInt8;
/// `torch.qint8`: signed 8-bit, `[-128, 127]`.
///
/// ```
/// use axial::{QInt8, QType};
/// assert_eq!(<QInt8 as QType>::QDTYPE.qmin(), -128);
/// ```
pub struct QInt8;
/// `torch.qint32`: signed 32-bit.
///
/// ```
/// use axial::{QInt32, QType};
/// assert_eq!(<QInt32 as QType>::QDTYPE.qmax(), i32::MAX as i64);
/// ```
pub struct QInt32;

macro_rules! qtype {
    ($($t:ident => $q:ident, $repr:ty);*) => {$(
        impl sealed::Sealed for $t {}
        impl QType for $t {
            const QDTYPE: QDType = QDType::$q;
            type Repr = $repr;
        }
    )*};
}
qtype!(QUInt8 => QUInt8, u8; QInt8 => QInt8, i8; QInt32 => QInt32, i32);

/// One scale and zero point for the whole tensor.
///
/// ```
/// use axial::prelude::*;
/// let q: Quantized<QUInt8, shape![2], PerTensor> = Tensor::<f32, shape![2]>::ones().quantize_per_tensor(0.5, 0);
/// assert_eq!(q.q_scale(), 0.5);
/// ```
pub struct PerTensor;

/// A scale and zero point per index of the axis `A`.
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let x = Tensor::<f32, shape![Rows: 2, Cols: 1]>::ones();
/// let q: Quantized<QInt8, _, PerChannel<Rows>> = x.quantize_per_channel::<QInt8, Rows>(&[0.1, 0.5], &[0, 1]);
/// assert_eq!(q.q_per_channel_zero_points(), &[0, 1]);
/// ```
pub struct PerChannel<A>(PhantomData<fn() -> A>);

/// A quantized tensor of dtype `Q` and shape `S`, quantized by `Scheme`,
/// owning its integers (on the CPU).
///
/// ```
/// use axial::prelude::*;
/// let x = Tensor::<f32, shape![5]>::from_array([-1.0, 0.0, 0.5, 1.0, 2.0]);
/// let q = x.quantize_per_tensor::<QUInt8>(0.1, 10);
/// assert_eq!(q.int_repr().to_vec(), vec![0, 10, 15, 20, 30]);
/// assert!(q.to_string().starts_with("tensor([-1.0000,  0.0000,  0.5000,  1.0000,  2.0000], size=(5,),"));
/// ```
pub struct Quantized<Q, S, Scheme = PerTensor> {
    inner: QuantizedTensor,
    marker: Marker<(Q, S, Scheme)>,
}

impl<Q: QType, S: Shape, Scheme> Quantized<Q, S, Scheme> {
    fn wrap(inner: QuantizedTensor) -> Self {
        Quantized {
            inner,
            marker: PhantomData,
        }
    }

    /// A view of the whole tensor (the same bytes and parameters).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let q = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros().quantize_per_tensor::<QInt8>(0.1, 0);
    /// let t = q.as_view().transpose::<Rows, Cols>();
    /// assert_eq!(t.strides(), &[1, 3]);
    /// ```
    pub fn as_view(&self) -> QuantizedView<'_, Q, S, Scheme> {
        QuantizedView::wrap(self.inner.view())
    }

    /// The core's quantized tensor.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::zeros().quantize_per_tensor::<QInt32>(0.1, 0);
    /// assert_eq!(q.as_core().element_size(), 4);
    /// ```
    pub fn as_core(&self) -> &QuantizedTensor {
        &self.inner
    }

    /// The sizes.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2, 3]>::zeros().quantize_per_tensor::<QInt8>(0.1, 0);
    /// assert_eq!(q.sizes(), &[2, 3]);
    /// ```
    pub fn sizes(&self) -> &[usize] {
        self.inner.shape()
    }

    /// `dequantize()`: the real values, `f32`, row-major (PyTorch's per
    /// tensor and per channel formulas, with `q - zero_point` exact where
    /// PyTorch's per-tensor `qint32` wraps in `int32`: see
    /// [`QuantizedRef::dequantize`](axial_core::quantized::QuantizedRef::dequantize)).
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::from_array([0.25, 0.75]).quantize_per_tensor::<QInt8>(0.5, 0);
    /// assert_eq!(q.try_dequantize()?.to_vec(), vec![0.0, 1.0]); // half to even: 0.5 → 0, 1.5 → 2
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_dequantize(&self) -> Result<Tensor<f32, S>> {
        self.inner.dequantize().map(owned)
    }

    /// `dequantize()`.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![1]>::from_array([1.0]).quantize_per_tensor::<QUInt8>(0.1, 0);
    /// assert_eq!(q.dequantize().to_vec(), vec![1.0]);
    /// ```
    #[track_caller]
    pub fn dequantize(&self) -> Tensor<f32, S> {
        or_panic(self.try_dequantize())
    }

    /// `int_repr()`: the stored integers, copied, row-major.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::from_array([1.25, -1.25]).quantize_per_tensor::<QInt8>(0.5, 0);
    /// assert_eq!(q.try_int_repr()?.to_vec(), vec![2, -2]); // 2.5 and -2.5 round to even
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_int_repr(&self) -> Result<Tensor<Q::Repr, S>> {
        self.inner.int_repr().map(owned)
    }

    /// `int_repr()`.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::from_array([1.0, 2.0]).quantize_per_tensor::<QInt32>(1.0, -5);
    /// assert_eq!(q.int_repr().to_vec(), vec![-4, -3]);
    /// ```
    #[track_caller]
    pub fn int_repr(&self) -> Tensor<Q::Repr, S> {
        or_panic(self.try_int_repr())
    }
}

impl<Q: QType, S: Shape> Quantized<Q, S, PerTensor> {
    /// The scale (`q_scale()`): only per-tensor tensors have one, so this
    /// cannot fail (PyTorch checks at run time).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::ones().quantize_per_tensor::<QUInt8>(0.25, 3);
    /// assert_eq!((q.q_scale(), q.q_zero_point()), (0.25, 3));
    /// ```
    pub fn q_scale(&self) -> f64 {
        per_tensor(self.inner.quantizer()).0
    }

    /// The zero point (`q_zero_point()`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::ones().quantize_per_tensor::<QInt8>(0.25, -3);
    /// assert_eq!(q.q_zero_point(), -3);
    /// ```
    pub fn q_zero_point(&self) -> i64 {
        per_tensor(self.inner.quantizer()).1
    }
}

impl<Q: QType, S: Shape, A> Quantized<Q, S, PerChannel<A>> {
    /// The scales, one per index of `A` (`q_per_channel_scales()`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let q = Tensor::<f32, shape![Rows: 1, Cols: 2]>::ones().quantize_per_channel::<QInt8, Cols>(&[0.1, 0.2], &[0, 0]);
    /// assert_eq!(q.q_per_channel_scales(), &[0.1, 0.2]);
    /// ```
    pub fn q_per_channel_scales(&self) -> &[f64] {
        per_channel(self.inner.quantizer()).0
    }

    /// The zero points, one per index of `A`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let q = Tensor::<f32, shape![Rows: 1, Cols: 2]>::ones().quantize_per_channel::<QInt8, Cols>(&[0.1, 0.2], &[3, -3]);
    /// assert_eq!(q.q_per_channel_zero_points(), &[3, -3]);
    /// ```
    pub fn q_per_channel_zero_points(&self) -> &[i64] {
        per_channel(self.inner.quantizer()).1
    }

    /// The position of the channel axis `A` (`q_per_channel_axis()`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let q = Tensor::<f32, shape![Rows: 1, Cols: 2]>::ones().quantize_per_channel::<QInt8, Cols>(&[0.1, 0.2], &[0, 0]);
    /// assert_eq!(q.q_per_channel_axis(), 1);
    /// ```
    pub fn q_per_channel_axis(&self) -> usize {
        per_channel(self.inner.quantizer()).2
    }
}

/// The per-tensor parameters (the type says the scheme).
fn per_tensor(q: &core_q::Quantizer) -> (f64, i64) {
    match q {
        core_q::Quantizer::PerTensor { scale, zero_point } => (*scale, *zero_point),
        core_q::Quantizer::PerChannel { .. } => unreachable!("the type says per tensor"),
    }
}

/// The per-channel parameters (the type says the scheme).
fn per_channel(q: &core_q::Quantizer) -> (&[f64], &[i64], usize) {
    match q {
        core_q::Quantizer::PerChannel {
            scales,
            zero_points,
            axis,
        } => (scales, zero_points, *axis),
        core_q::Quantizer::PerTensor { .. } => unreachable!("the type says per channel"),
    }
}

impl<S: Shape, R: Data<Cpu>> TensorBase<f32, S, Cpu, R> {
    /// `torch.quantize_per_tensor(x, scale, zero_point, Q)`:
    /// `clamp(zero_point + round_half_even(x * f32(1 / scale)), qmin, qmax)`.
    ///
    /// # Errors
    /// A zero point outside `Q`'s range; a scale that is zero, negative,
    /// not finite or without a finite `f32` reciprocal, or a NaN element
    /// (PyTorch accepts those and quantizes garbage).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![3]>::from_array([0.5, 1.5, 2.5]);
    /// assert_eq!(x.try_quantize_per_tensor::<QUInt8>(1.0, 127)?.int_repr().to_vec(), vec![127, 129, 129]);
    /// assert!(x.try_quantize_per_tensor::<QUInt8>(0.0, 0).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_quantize_per_tensor<Q: QType>(
        &self,
        scale: f64,
        zero_point: i64,
    ) -> Result<Quantized<Q, S, PerTensor>> {
        core_q::quantize_per_tensor(&self.raw(), scale, zero_point, Q::QDTYPE).map(Quantized::wrap)
    }

    /// `torch.quantize_per_tensor`.
    ///
    /// # Panics
    /// As [`try_quantize_per_tensor`](Self::try_quantize_per_tensor), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::from_array([-1000.0, 1000.0]);
    /// assert_eq!(x.quantize_per_tensor::<QInt8>(1.0, 0).int_repr().to_vec(), vec![-128, 127]);
    /// ```
    #[track_caller]
    pub fn quantize_per_tensor<Q: QType>(
        &self,
        scale: f64,
        zero_point: i64,
    ) -> Quantized<Q, S, PerTensor> {
        or_panic(self.try_quantize_per_tensor(scale, zero_point))
    }

    /// `torch.quantize_per_channel(x, scales, zero_points, axis, Q)` along
    /// the axis `A`, by name: an axis the tensor does not have does not
    /// compile. Channel `c` (index `c` along `A`) uses `scales[c]` and
    /// `zero_points[c]`.
    ///
    /// # Errors
    /// Not one scale and one zero point per index of `A` (PyTorch's
    /// messages); a scale or zero point invalid as for
    /// [`try_quantize_per_tensor`](Self::try_quantize_per_tensor).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array([[-1.0, 0.0, 0.5], [1.0, 2.0, 3.0]]);
    /// let q = x.try_quantize_per_channel::<QUInt8, Rows>(&[0.1, 0.5], &[0, 10])?;
    /// assert_eq!(q.int_repr().to_vec(), vec![0, 0, 5, 12, 14, 16]);
    /// assert!(x.try_quantize_per_channel::<QUInt8, Cols>(&[0.1, 0.5], &[0, 10]).is_err()); // 3 channels
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_quantize_per_channel<Q: QType, A>(
        &self,
        scales: &[f64],
        zero_points: &[i64],
    ) -> Result<Quantized<Q, S, PerChannel<A>>>
    where
        S: HasAxis<A>,
    {
        core_q::quantize_per_channel(&self.raw(), scales, zero_points, S::POS, Q::QDTYPE)
            .map(Quantized::wrap)
    }

    /// `torch.quantize_per_channel` along the axis `A`, by name.
    ///
    /// # Panics
    /// As [`try_quantize_per_channel`](Self::try_quantize_per_channel), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array([[-1.0, 0.0, 0.5], [1.0, 2.0, 3.0]]);
    /// let q = x.quantize_per_channel::<QInt8, Cols>(&[0.1, 0.2, 0.5], &[0, 1, -2]);
    /// assert_eq!(q.int_repr().to_vec(), vec![-10, 1, -1, 10, 11, 4]);
    /// ```
    #[track_caller]
    pub fn quantize_per_channel<Q: QType, A>(
        &self,
        scales: &[f64],
        zero_points: &[i64],
    ) -> Quantized<Q, S, PerChannel<A>>
    where
        S: HasAxis<A>,
    {
        or_panic(self.try_quantize_per_channel(scales, zero_points))
    }
}

impl<Q, S, Scheme> fmt::Display for Quantized<Q, S, Scheme> {
    /// PyTorch's repr: the dequantized values, then size, dtype, scheme and
    /// parameters.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]).quantize_per_tensor::<QInt8>(0.1, 0);
    /// assert_eq!(
    ///     q.to_string(),
    ///     "tensor([[1., 2.],\n        [3., 4.]], size=(2, 2), dtype=torch.qint8,\n       \
    ///      quantization_scheme=torch.per_tensor_affine, scale=0.1, zero_point=0)"
    /// );
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl<Q, S, Scheme> fmt::Debug for Quantized<Q, S, Scheme> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.inner, f)
    }
}
