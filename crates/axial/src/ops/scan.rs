//! `cumsum` along an axis by name: PyTorch's dtypes (integers and bool
//! give `i64`, floats keep theirs).

use axial_core::{Backend, Result};
use axial_shape::{HasAxis, Shape};

use super::dtype::ResultTypes;
use crate::access::owned;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

impl<T: ResultTypes, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `torch.cumsum(x, dim)` along the axis `A`: running sums, in the
    /// dtype of `sum` (`i64` for integers and bool).
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let mask = Tensor::<Bool, shape![Batch: 1, Seq: 4]>::from_array([[Bool::TRUE, Bool::TRUE, Bool::FALSE, Bool::TRUE]]);
    /// let positions: Tensor<i64, shape![Batch: 1, Seq: 4]> = mask.try_cumsum::<Seq>()?;
    /// assert_eq!(positions.to_vec(), vec![1, 2, 2, 3]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cumsum<A>(&self) -> Result<Tensor<T::Sum, S, D>>
    where
        S: HasAxis<A>,
    {
        self.raw().cumsum(S::POS as isize).map(owned)
    }

    /// `torch.cumsum(x, dim)` along the axis `A` (see
    /// [`try_cumsum`](Self::try_cumsum)).
    ///
    /// # Panics
    /// As [`try_cumsum`](Self::try_cumsum), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
    /// assert_eq!(x.cumsum::<Cols>().to_vec(), vec![0.0, 1.0, 3.0, 3.0, 7.0, 12.0]);
    /// assert_eq!(x.cumsum::<Rows>().to_vec(), vec![0.0, 1.0, 2.0, 3.0, 5.0, 7.0]);
    /// ```
    #[track_caller]
    pub fn cumsum<A>(&self) -> Tensor<T::Sum, S, D>
    where
        S: HasAxis<A>,
    {
        or_panic(self.try_cumsum::<A>())
    }
}
