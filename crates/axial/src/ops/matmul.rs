//! `matmul` by name: the contracted axes proven to have one name and one
//! size, the batch axes broadcast by name.

use axial_core::{Backend, Element, Result};
use axial_shape::{MatMul, MatMulOut, Shape};

use super::dtype::SameDType;
use super::mismatch;
use super::operand::tensor_on;
use crate::access::owned;
use crate::device::SameDevice;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// The matrix product (PyTorch's `torch.matmul`): the last axis of
    /// `self` is contracted with the second-to-last of `other` (its only
    /// axis when it has one), which must have the same name, or be
    /// anonymous, and the same size ([`MatMul`]); the leading axes broadcast
    /// as batch axes. An operand of one axis is a vector whose unit axis is
    /// dropped from the result. Floats only, `f16` and `bf16` included.
    ///
    /// # Errors
    /// A `Dyn` contracted size that differs, or `Dyn` batch sizes that do
    /// not broadcast, named by their axes with both shapes; a failure of the
    /// device or the kernel.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Inner, Cols);
    /// let a = Tensor::<f32, shape![Rows: 2, Inner: Dyn]>::from_vec_dyn(vec![1.0, 2.0, 3.0, 4.0], 2);
    /// let b = Tensor::<f32, shape![Inner: 2, Cols: 1]>::from_array([[1.0], [1.0]]);
    /// let c = a.try_matmul(&b)?;
    /// assert_eq!(c.names().as_slice(), &[Some("Rows"), Some("Cols")]);
    /// assert_eq!(c.to_vec(), vec![3.0, 7.0]);
    /// let wide = Tensor::<f32, shape![Inner: 3, Cols: 1]>::ones();
    /// assert_eq!(
    ///     a.try_matmul(&wide).unwrap_err().to_string(),
    ///     "matmul: the contracted axis `Inner` must have one size, but it is 2 in the left operand (Rows: 2, Inner: 2) and 3 in the right operand (Inner: 3, Cols: 1)"
    /// );
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_matmul<T2, S2, D2, R2>(
        &self,
        other: &TensorBase<T2, S2, D2, R2>,
    ) -> Result<Tensor<T, MatMulOut<S, S2>, D>>
    where
        T: Float,
        T2: SameDType<T>,
        S: MatMul<S2>,
        S2: Shape,
        D2: SameDevice<D>,
        R2: Data<D2>,
    {
        let (a, b) = (self.raw(), tensor_on(other));
        a.matmul(&b)
            .map(owned)
            .map_err(|e| mismatch::matmul::<S, S2>(e, a.shape(), b.shape()))
    }

    /// The matrix product (PyTorch's `torch.matmul`), contracting the last
    /// axis of `self` with the second-to-last of `other`, by name.
    ///
    /// # Panics
    /// As [`try_matmul`](Self::try_matmul), with its message (only with
    /// `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Rows, Inner, Cols);
    /// let a = Tensor::<f32, shape![Batch: 2, Rows: 1, Inner: 3]>::ones();
    /// let b = Tensor::<f32, shape![Inner: 3, Cols: 2]>::full(2.0);
    /// let c = a.matmul(&b); // shape![Batch: 2, Rows: 1, Cols: 2]
    /// assert_eq!(c.sizes().as_slice(), &[2, 1, 2]);
    /// assert_eq!(c.to_vec(), vec![6.0; 4]);
    /// let v = Tensor::<f32, shape![Inner: 3]>::ones();
    /// assert_eq!(v.matmul(&v).item(), 3.0); // a dot product
    /// ```
    #[track_caller]
    pub fn matmul<T2, S2, D2, R2>(
        &self,
        other: &TensorBase<T2, S2, D2, R2>,
    ) -> Tensor<T, MatMulOut<S, S2>, D>
    where
        T: Float,
        T2: SameDType<T>,
        S: MatMul<S2>,
        S2: Shape,
        D2: SameDevice<D>,
        R2: Data<D2>,
    {
        or_panic(self.try_matmul(other))
    }
}
