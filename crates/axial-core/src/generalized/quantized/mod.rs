//! Quantized tensors: affine integers (`quint8`, `qint8`, `qint32`) with a
//! scale and a zero point per tensor or per channel, over a strided integer
//! storage, with PyTorch's exact arithmetic (semantics-wave2 §1).
//!
//! `q = clamp(zero_point + round_half_even(x * (1 / scale)), qmin, qmax)`:
//! the reciprocal of the scale is taken in `f32`, the product is an `f32`
//! product (not a division), it is rounded half to even, and the zero point
//! is added after rounding.
//!
//! Where PyTorch quantizes garbage without a word, these are `Err`s: a scale
//! that is zero, negative or not finite (or whose `f32` reciprocal is not
//! finite), and a NaN input (which PyTorch maps to whatever the conversion
//! instruction gives, differently per tensor and per channel). Dequantizing
//! `qint32` computes `q - zero_point` exactly, where PyTorch's per-tensor
//! path wraps it in `int32` (see [`QuantizedRef::dequantize`]).
//!
//! # Example
//! ```
//! use axial_core::RawTensor;
//! use axial_core::quantized::{QDType, quantize_per_tensor};
//! let x = RawTensor::from_vec(vec![-1.0f32, 0.0, 0.5, 1.0, 2.0], &[5])?;
//! let q = quantize_per_tensor(&x.view(), 0.1, 10, QDType::QUInt8)?;
//! assert_eq!(q.int_repr()?.to_vec::<u8>()?, vec![0, 10, 15, 20, 30]);
//! assert_eq!(q.dequantize()?.to_vec::<f32>()?, vec![-1.0, 0.0, 0.5, 1.0, 2.0]);
//! // PyTorch accepts a zero scale and quantizes NaN products; axial refuses it.
//! assert!(quantize_per_tensor(&x.view(), 0.0, 10, QDType::QUInt8).is_err());
//! # Ok::<(), axial_core::Error>(())
//! ```

pub(crate) mod gemm;
mod linear;
mod print;
mod quantize;
mod views;

use std::fmt;
use std::sync::Arc;

pub use linear::{PackedLinearWeight, linear, linear_relu, matmul};
pub(crate) use quantize::round_half_even;
pub use quantize::{
    from_int_repr, from_int_repr_per_channel, quantize_per_channel, quantize_per_tensor,
};

use crate::{Cpu, DType, Error, Layout, RawTensor, Result, TensorRef};

/// A quantized dtype: the integer type of the stored values and its range.
///
/// # Example
/// ```
/// use axial_core::DType;
/// use axial_core::quantized::QDType;
/// assert_eq!(QDType::QUInt8.repr(), DType::U8);
/// assert_eq!((QDType::QInt8.qmin(), QDType::QInt8.qmax()), (-128, 127));
/// assert_eq!(QDType::QInt32.to_string(), "torch.qint32");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum QDType {
    /// Unsigned 8-bit, `[0, 255]`, stored as `u8`.
    QUInt8,
    /// Signed 8-bit, `[-128, 127]`, stored as `i8`.
    QInt8,
    /// Signed 32-bit, `[-2^31, 2^31 - 1]`, stored as `i32`.
    QInt32,
}

impl QDType {
    /// The dtype of the stored integers (`int_repr()`'s dtype).
    ///
    /// ```
    /// # use axial_core::{DType, quantized::QDType};
    /// assert_eq!(QDType::QInt32.repr(), DType::I32);
    /// ```
    pub const fn repr(self) -> DType {
        match self {
            QDType::QUInt8 => DType::U8,
            QDType::QInt8 => DType::I8,
            QDType::QInt32 => DType::I32,
        }
    }

    /// The smallest quantized value.
    ///
    /// ```
    /// # use axial_core::quantized::QDType;
    /// assert_eq!(QDType::QInt32.qmin(), i32::MIN as i64);
    /// ```
    pub const fn qmin(self) -> i64 {
        match self {
            QDType::QUInt8 => 0,
            QDType::QInt8 => -128,
            QDType::QInt32 => i32::MIN as i64,
        }
    }

    /// The largest quantized value.
    ///
    /// ```
    /// # use axial_core::quantized::QDType;
    /// assert_eq!(QDType::QUInt8.qmax(), 255);
    /// ```
    pub const fn qmax(self) -> i64 {
        match self {
            QDType::QUInt8 => 255,
            QDType::QInt8 => 127,
            QDType::QInt32 => i32::MAX as i64,
        }
    }

    /// PyTorch's short name (`quint8`, `qint8`, `qint32`).
    ///
    /// ```
    /// # use axial_core::quantized::QDType;
    /// assert_eq!(QDType::QInt8.name(), "qint8");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            QDType::QUInt8 => "quint8",
            QDType::QInt8 => "qint8",
            QDType::QInt32 => "qint32",
        }
    }

    /// The name PyTorch uses in error messages (`QUInt8`, `QInt8`, `QInt32`).
    ///
    /// ```
    /// # use axial_core::quantized::QDType;
    /// assert_eq!(QDType::QUInt8.scalar_type_name(), "QUInt8");
    /// ```
    pub const fn scalar_type_name(self) -> &'static str {
        match self {
            QDType::QUInt8 => "QUInt8",
            QDType::QInt8 => "QInt8",
            QDType::QInt32 => "QInt32",
        }
    }
}

impl fmt::Display for QDType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "torch.{}", self.name())
    }
}

/// How the scale and zero point apply: one pair for the whole tensor, or one
/// per index of a channel axis.
///
/// ```
/// use axial_core::quantized::QScheme;
/// assert_eq!(QScheme::PerChannelAffine.to_string(), "torch.per_channel_affine");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum QScheme {
    /// One scale and zero point.
    PerTensorAffine,
    /// A scale and zero point per index of the channel axis.
    PerChannelAffine,
}

impl fmt::Display for QScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QScheme::PerTensorAffine => "torch.per_tensor_affine",
            QScheme::PerChannelAffine => "torch.per_channel_affine",
        })
    }
}

/// The quantization parameters of a tensor.
///
/// ```
/// use axial_core::quantized::{Quantizer, QScheme};
/// let q = Quantizer::PerTensor { scale: 0.5, zero_point: 3 };
/// assert_eq!(q.qscheme(), QScheme::PerTensorAffine);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Quantizer {
    /// One scale and zero point.
    PerTensor {
        /// The scale (kept as the `f64` given, as PyTorch's `q_scale()`).
        scale: f64,
        /// The zero point.
        zero_point: i64,
    },
    /// A scale and zero point per index of the axis `axis`.
    PerChannel {
        /// The scales, one per channel.
        scales: Arc<[f64]>,
        /// The zero points, one per channel.
        zero_points: Arc<[i64]>,
        /// The channel axis.
        axis: usize,
    },
}

impl Quantizer {
    /// The scheme.
    ///
    /// ```
    /// use axial_core::quantized::{Quantizer, QScheme};
    /// let q = Quantizer::PerChannel { scales: vec![0.1].into(), zero_points: vec![0].into(), axis: 0 };
    /// assert_eq!(q.qscheme(), QScheme::PerChannelAffine);
    /// ```
    pub fn qscheme(&self) -> QScheme {
        match self {
            Quantizer::PerTensor { .. } => QScheme::PerTensorAffine,
            Quantizer::PerChannel { .. } => QScheme::PerChannelAffine,
        }
    }
}

/// The message PyTorch gives when a per-tensor parameter is asked of a
/// per-channel tensor.
const NOT_PER_TENSOR: &str =
    "Expected quantizer->qscheme() == kPerTensorAffine to be true, but got false.";
/// The message PyTorch gives when a per-channel parameter is asked of a
/// per-tensor tensor.
const NOT_PER_CHANNEL: &str = "Expected quantizer->qscheme() == kPerChannelAffine || quantizer->qscheme() == kPerChannelAffineFloatQParams to be true, but got false.";

/// A quantized tensor that owns its integer storage.
///
/// # Example
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{QDType, quantize_per_tensor};
/// let x = RawTensor::arange(0.0, 12.0, 1.0, axial_core::DType::F32)?;
/// let q = quantize_per_tensor(&x.view(), 1.0, 3, QDType::QUInt8)?;
/// let m = q.view().view(&[3, 4])?.t()?; // a view: strides (1, 4), same bytes
/// assert_eq!(m.strides(), &[1, 4]);
/// assert_eq!(m.int_repr()?.strides(), &[3, 1]); // int_repr copies, contiguous
/// assert_eq!(m.q_scale()?, 1.0);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct QuantizedTensor {
    repr: RawTensor,
    qdtype: QDType,
    quantizer: Quantizer,
}

/// A view of a quantized tensor: shares its bytes and keeps its parameters.
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{QDType, quantize_per_tensor};
/// let x = RawTensor::from_vec(vec![0.0f32, 0.1, 0.2, 0.3], &[2, 2])?;
/// let q = quantize_per_tensor(&x.view(), 0.1, 0, QDType::QInt8)?;
/// let row = q.view().select(0, 1)?;
/// assert_eq!((row.offset(), row.int_repr()?.to_vec::<i8>()?), (2, vec![2, 3]));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone)]
pub struct QuantizedRef<'a> {
    repr: TensorRef<'a, Cpu>,
    qdtype: QDType,
    quantizer: Quantizer,
}

impl QuantizedTensor {
    /// A quantized tensor over `repr`'s integers, which must be of
    /// `qdtype`'s integer dtype; the parameters are not checked here (the
    /// public constructors check them).
    fn new(repr: RawTensor, qdtype: QDType, quantizer: Quantizer) -> Self {
        QuantizedTensor {
            repr,
            qdtype,
            quantizer,
        }
    }

    /// A view of the whole tensor.
    ///
    /// ```
    /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
    /// let q = quantize_per_tensor(&RawTensor::from_vec(vec![1.0f32], &[1])?.view(), 0.5, 0, QDType::QInt8)?;
    /// assert_eq!(q.view().shape(), &[1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn view(&self) -> QuantizedRef<'_> {
        QuantizedRef {
            repr: self.repr.view(),
            qdtype: self.qdtype,
            quantizer: self.quantizer.clone(),
        }
    }

    /// The integer tensor itself (its storage and layout), without copying:
    /// what `int_repr()` would copy.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, quantized::{QDType, quantize_per_tensor}};
    /// let q = quantize_per_tensor(&RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?.view(), 1.0, 0, QDType::QInt32)?;
    /// assert_eq!(q.into_repr().dtype(), DType::I32);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn into_repr(self) -> RawTensor {
        self.repr
    }
}

impl<'a> QuantizedRef<'a> {
    /// The integers as a plain view (the same bytes, no copy).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, quantized::{QDType, quantize_per_tensor}};
    /// let q = quantize_per_tensor(&RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?.view(), 1.0, 5, QDType::QUInt8)?;
    /// assert_eq!(q.view().repr().to_vec::<u8>()?, vec![6, 7]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn repr(&self) -> &TensorRef<'a, Cpu> {
        &self.repr
    }
}

// Accessors shared by the owned tensor and its views.
macro_rules! accessors {
    ($ty:ty) => {
        impl $ty {
            /// The quantized dtype.
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::from_vec(vec![1.0f32], &[1])?.view(), 1.0, 0, QDType::QInt8)?;
            /// assert_eq!((q.qdtype(), q.view().qdtype()), (QDType::QInt8, QDType::QInt8));
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn qdtype(&self) -> QDType {
                self.qdtype
            }

            /// The quantization parameters.
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, Quantizer, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::from_vec(vec![1.0f32], &[1])?.view(), 0.25, 2, QDType::QUInt8)?;
            /// assert_eq!(q.quantizer(), &Quantizer::PerTensor { scale: 0.25, zero_point: 2 });
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn quantizer(&self) -> &Quantizer {
                &self.quantizer
            }

            /// The scheme (`qscheme()`).
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, QScheme, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::from_vec(vec![1.0f32], &[1])?.view(), 0.25, 2, QDType::QUInt8)?;
            /// assert_eq!(q.qscheme(), QScheme::PerTensorAffine);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn qscheme(&self) -> QScheme {
                self.quantizer.qscheme()
            }

            /// The sizes.
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::zeros(&[2, 3], axial_core::DType::F32)?.view(), 1.0, 0, QDType::QInt8)?;
            /// assert_eq!(q.shape(), &[2, 3]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn shape(&self) -> &[usize] {
                self.repr.shape()
            }

            /// The strides, in elements.
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::zeros(&[2, 3], axial_core::DType::F32)?.view(), 1.0, 0, QDType::QInt8)?;
            /// assert_eq!(q.strides(), &[3, 1]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn strides(&self) -> &[isize] {
                self.repr.strides()
            }

            /// The layout of the integers.
            ///
            /// ```
            /// # use axial_core::{Layout, RawTensor, quantized::{QDType, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::zeros(&[4], axial_core::DType::F32)?.view(), 1.0, 0, QDType::QInt8)?;
            /// assert_eq!(q.layout(), &Layout::contiguous(&[4]));
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn layout(&self) -> &Layout {
                self.repr.layout()
            }

            /// The number of elements.
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::zeros(&[2, 3], axial_core::DType::F32)?.view(), 1.0, 0, QDType::QInt8)?;
            /// assert_eq!(q.numel(), 6);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn numel(&self) -> usize {
                self.layout().numel()
            }

            /// The bytes of one element (`element_size()`).
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::zeros(&[2], axial_core::DType::F32)?.view(), 1.0, 0, QDType::QInt32)?;
            /// assert_eq!(q.element_size(), 4);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn element_size(&self) -> usize {
                self.qdtype.repr().size()
            }

            /// The scale (`q_scale()`) of a per-tensor tensor.
            ///
            /// # Errors
            /// The tensor is quantized per channel (PyTorch's message).
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::zeros(&[2], axial_core::DType::F32)?.view(), 0.1, 0, QDType::QInt8)?;
            /// assert_eq!(q.q_scale()?, 0.1);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn q_scale(&self) -> Result<f64> {
                match &self.quantizer {
                    Quantizer::PerTensor { scale, .. } => Ok(*scale),
                    _ => Err(Error::invalid("q_scale", NOT_PER_TENSOR)),
                }
            }

            /// The zero point (`q_zero_point()`) of a per-tensor tensor.
            ///
            /// # Errors
            /// The tensor is quantized per channel (PyTorch's message).
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
            /// let q = quantize_per_tensor(&RawTensor::zeros(&[2], axial_core::DType::F32)?.view(), 0.1, -3, QDType::QInt8)?;
            /// assert_eq!(q.q_zero_point()?, -3);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn q_zero_point(&self) -> Result<i64> {
                match &self.quantizer {
                    Quantizer::PerTensor { zero_point, .. } => Ok(*zero_point),
                    _ => Err(Error::invalid("q_zero_point", NOT_PER_TENSOR)),
                }
            }

            /// The scales (`q_per_channel_scales()`), an `f64` tensor.
            ///
            /// # Errors
            /// The tensor is quantized per tensor (PyTorch's message).
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_channel}};
            /// let x = RawTensor::zeros(&[2, 3], axial_core::DType::F32)?;
            /// let q = quantize_per_channel(&x.view(), &[0.1, 0.5], &[0, 10], 0, QDType::QUInt8)?;
            /// assert_eq!(q.q_per_channel_scales()?.to_vec::<f64>()?, vec![0.1, 0.5]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn q_per_channel_scales(&self) -> Result<RawTensor> {
                match &self.quantizer {
                    Quantizer::PerChannel { scales, .. } => {
                        RawTensor::from_vec(scales.to_vec(), &[scales.len()])
                    }
                    _ => Err(Error::invalid("q_per_channel_scales", NOT_PER_CHANNEL)),
                }
            }

            /// The zero points (`q_per_channel_zero_points()`), an `i64` tensor.
            ///
            /// # Errors
            /// The tensor is quantized per tensor (PyTorch's message).
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_channel}};
            /// let x = RawTensor::zeros(&[2, 3], axial_core::DType::F32)?;
            /// let q = quantize_per_channel(&x.view(), &[0.1, 0.5], &[0, 10], 0, QDType::QUInt8)?;
            /// assert_eq!(q.q_per_channel_zero_points()?.to_vec::<i64>()?, vec![0, 10]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn q_per_channel_zero_points(&self) -> Result<RawTensor> {
                match &self.quantizer {
                    Quantizer::PerChannel { zero_points, .. } => {
                        RawTensor::from_vec(zero_points.to_vec(), &[zero_points.len()])
                    }
                    _ => Err(Error::invalid("q_per_channel_zero_points", NOT_PER_CHANNEL)),
                }
            }

            /// The channel axis (`q_per_channel_axis()`).
            ///
            /// # Errors
            /// The tensor is quantized per tensor (PyTorch's message).
            ///
            /// ```
            /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_channel}};
            /// let x = RawTensor::zeros(&[2, 3], axial_core::DType::F32)?;
            /// let q = quantize_per_channel(&x.view(), &[0.1, 0.2, 0.5], &[0, 1, -2], 1, QDType::QInt8)?;
            /// assert_eq!(q.q_per_channel_axis()?, 1);
            /// assert_eq!(q.view().t()?.q_per_channel_axis()?, 0); // follows the axis
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn q_per_channel_axis(&self) -> Result<usize> {
                match &self.quantizer {
                    Quantizer::PerChannel { axis, .. } => Ok(*axis),
                    _ => Err(Error::invalid("q_per_channel_axis", NOT_PER_CHANNEL)),
                }
            }
        }
    };
}
accessors!(QuantizedTensor);
accessors!(QuantizedRef<'_>);

impl QuantizedRef<'_> {
    /// The storage offset, in elements.
    ///
    /// ```
    /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
    /// let x = RawTensor::zeros(&[3, 4], axial_core::DType::F32)?;
    /// let q = quantize_per_tensor(&x.view(), 0.1, 3, QDType::QUInt8)?;
    /// assert_eq!(q.view().slice(0, Some(1), None, 1)?.narrow(1, 1, 2)?.offset(), 5); // m[1:, 1:3]
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn offset(&self) -> usize {
        self.repr.offset()
    }

    /// True when both views read one storage.
    ///
    /// ```
    /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
    /// let x = RawTensor::zeros(&[2, 2], axial_core::DType::F32)?;
    /// let q = quantize_per_tensor(&x.view(), 0.1, 3, QDType::QUInt8)?;
    /// assert!(q.view().t()?.shares_storage_with(&q.view()));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn shares_storage_with(&self, other: &QuantizedRef<'_>) -> bool {
        self.repr.shares_storage_with(&other.repr)
    }
}
