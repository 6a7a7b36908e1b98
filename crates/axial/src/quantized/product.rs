//! The product of two 8-bit quantized tensors by name
//! (`torch.ops.quantized.matmul`): the contracted axes match by name and
//! size as dense `matmul`'s do, both operands of one dtype and quantized
//! per tensor, which PyTorch checks at run time.

use axial_core::Result;
use axial_core::quantized as core_q;
use axial_shape::{MatMul, MatMulOut, Shape};

use super::{PerTensor, QInt8, QType, QUInt8, Quantized, sealed};
use crate::or_panic::or_panic;

/// The quantized dtypes whose tensors multiply: `quint8` and `qint8`.
///
/// ```
/// use axial::{QInt8, QUInt8, QuantizedMatMul};
/// fn multiplies<Q: QuantizedMatMul>() {}
/// multiplies::<QUInt8>();
/// multiplies::<QInt8>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` tensors do not multiply: `torch.ops.quantized.matmul` takes `QUInt8` or `QInt8`",
    label = "not an 8-bit quantized dtype",
    note = "dequantize `QInt32` tensors first"
)]
pub trait QuantizedMatMul: QType + sealed::Sealed {}
impl QuantizedMatMul for QUInt8 {}
impl QuantizedMatMul for QInt8 {}

impl<Q: QuantizedMatMul, S: Shape> Quantized<Q, S, PerTensor> {
    /// `torch.ops.quantized.matmul(self, other, out_scale, out_zero_point)`:
    /// the product of the dequantized operands, quantized per tensor at the
    /// output parameters in `Q`, bit for bit as PyTorch's. The last axis of
    /// `self` is contracted with `other`'s second to last (or only) axis,
    /// by name and size.
    ///
    /// # Errors
    /// The output zero point is outside `Q`'s range or the output scale is
    /// invalid; `Dyn` contracted sizes that differ.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Inner, Cols);
    /// let a = Tensor::<f32, shape![Rows: 2, Inner: 3]>::from_array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]);
    /// let b = Tensor::<f32, shape![Inner: 3, Cols: 2]>::from_array([[1.0, -1.0], [0.5, 2.0], [-0.5, 0.25]]);
    /// let qa = a.quantize_per_tensor::<QUInt8>(0.05, 64);
    /// let qb = b.quantize_per_tensor::<QUInt8>(0.02, 128);
    /// let y = qa.try_matmul(&qb, 0.1, 10)?; // Quantized<QUInt8, shape![Rows: 2, Cols: 2]>
    /// assert_eq!(y.int_repr().to_vec(), vec![0, 0, 30, 0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_matmul<S2: Shape>(
        &self,
        other: &Quantized<Q, S2, PerTensor>,
        out_scale: f64,
        out_zero_point: i64,
    ) -> Result<Quantized<Q, MatMulOut<S, S2>, PerTensor>>
    where
        S: MatMul<S2>,
    {
        core_q::matmul(
            &self.as_core().view(),
            &other.as_core().view(),
            out_scale,
            out_zero_point,
        )
        .map(Quantized::wrap)
    }

    /// `torch.ops.quantized.matmul`, by name.
    ///
    /// # Panics
    /// As [`try_matmul`](Self::try_matmul), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Inner, Cols);
    /// let a = Tensor::<f32, shape![Rows: 1, Inner: 2]>::ones().quantize_per_tensor::<QInt8>(0.1, 0);
    /// let b = Tensor::<f32, shape![Inner: 2, Cols: 1]>::full(0.5).quantize_per_tensor::<QInt8>(0.1, 0);
    /// assert_eq!(a.matmul(&b, 0.1, 0).dequantize().to_vec(), vec![1.0]);
    /// ```
    #[track_caller]
    pub fn matmul<S2: Shape>(
        &self,
        other: &Quantized<Q, S2, PerTensor>,
        out_scale: f64,
        out_zero_point: i64,
    ) -> Quantized<Q, MatMulOut<S, S2>, PerTensor>
    where
        S: MatMul<S2>,
    {
        or_panic(self.try_matmul(other, out_scale, out_zero_point))
    }
}
