//! Quantized tensors over integers already quantized (PyTorch's
//! `_make_per_tensor_quantized_tensor` and
//! `_make_per_channel_quantized_tensor`): a checkpoint's `int_repr` and
//! its parameters, typed again.

use axial_core::Result;
use axial_core::quantized as core_q;
use axial_shape::{HasAxis, Shape};

use super::{PerChannel, PerTensor, QType, Quantized};
use crate::or_panic::or_panic;
use crate::tensor::Tensor;

impl<Q: QType, S: Shape> Quantized<Q, S, PerTensor> {
    /// `torch._make_per_tensor_quantized_tensor(ints, scale, zero_point)`:
    /// the integers `ints` (`u8`, `i8` or `i32` for [`QUInt8`](super::QUInt8),
    /// [`QInt8`](super::QInt8), [`QInt32`](super::QInt32), by type) as a
    /// quantized tensor, sharing their storage.
    ///
    /// # Errors
    /// A zero point outside `Q`'s range, or a scale that is zero, negative
    /// or not finite (PyTorch accepts those).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let ints = Tensor::<u8, shape![3]>::from_array([0, 5, 10]);
    /// let q = Quantized::<QUInt8, shape![3]>::try_from_int_repr(ints, 0.5, 5)?;
    /// assert_eq!(q.dequantize().to_vec(), vec![-2.5, 0.0, 2.5]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_from_int_repr(
        ints: Tensor<Q::Repr, S>,
        scale: f64,
        zero_point: i64,
    ) -> Result<Self> {
        core_q::from_int_repr(ints.into_raw(), scale, zero_point, Q::QDTYPE).map(Quantized::wrap)
    }

    /// `torch._make_per_tensor_quantized_tensor(ints, scale, zero_point)`.
    ///
    /// # Panics
    /// As [`try_from_int_repr`](Self::try_from_int_repr), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let ints = Tensor::<i8, shape![2]>::from_array([-4, 4]);
    /// let q = Quantized::<QInt8, shape![2]>::from_int_repr(ints, 0.25, 0);
    /// assert_eq!(q.dequantize().to_vec(), vec![-1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn from_int_repr(ints: Tensor<Q::Repr, S>, scale: f64, zero_point: i64) -> Self {
        or_panic(Self::try_from_int_repr(ints, scale, zero_point))
    }
}

impl<Q: QType, S: Shape, A> Quantized<Q, S, PerChannel<A>> {
    /// `torch._make_per_channel_quantized_tensor(ints, scales, zero_points,
    /// axis)` along the axis `A`, by name: the integers `ints` as a tensor
    /// quantized per channel, sharing their storage. Channel `c` (index `c`
    /// along `A`) has `scales[c]` and `zero_points[c]`; an axis the tensor
    /// does not have does not compile.
    ///
    /// # Errors
    /// Not one scale and one zero point per index of `A` (PyTorch's
    /// messages); a zero point outside `Q`'s range or a scale that is zero,
    /// negative or not finite (PyTorch checks the first when it
    /// dequantizes, and never the second).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Out, In);
    /// let ints = Tensor::<i8, shape![Out: 2, In: 2]>::from_array([[1, 2], [3, 4]]);
    /// let w = Quantized::<QInt8, _, PerChannel<Out>>::try_from_int_repr_per_channel(ints, &[0.5, 0.25], &[0, 2])?;
    /// assert_eq!(w.dequantize().to_vec(), vec![0.5, 1.0, 0.25, 0.5]);
    /// assert_eq!(w.q_per_channel_axis(), 0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_from_int_repr_per_channel(
        ints: Tensor<Q::Repr, S>,
        scales: &[f64],
        zero_points: &[i64],
    ) -> Result<Self>
    where
        S: HasAxis<A>,
    {
        core_q::from_int_repr_per_channel(ints.into_raw(), scales, zero_points, S::POS, Q::QDTYPE)
            .map(Quantized::wrap)
    }

    /// `torch._make_per_channel_quantized_tensor` along the axis `A`.
    ///
    /// # Panics
    /// As [`try_from_int_repr_per_channel`](Self::try_from_int_repr_per_channel),
    /// with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let ints = Tensor::<i32, shape![Rows: 1, Cols: 2]>::from_array([[10, 10]]);
    /// let q = Quantized::<QInt32, _, PerChannel<Cols>>::from_int_repr_per_channel(ints, &[0.1, 1.0], &[0, 10]);
    /// assert_eq!(q.dequantize().to_vec(), vec![1.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn from_int_repr_per_channel(
        ints: Tensor<Q::Repr, S>,
        scales: &[f64],
        zero_points: &[i64],
    ) -> Self
    where
        S: HasAxis<A>,
    {
        or_panic(Self::try_from_int_repr_per_channel(
            ints,
            scales,
            zero_points,
        ))
    }
}
