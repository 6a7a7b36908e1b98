//! `copy_`: another tensor's elements written into `self`, broadcast to its
//! shape and converted to its dtype (PyTorch's `copy_` casts freely).

use axial_core::{Backend, Element, Result};
use axial_shape::{InPlace, Shape};

use super::mismatch;
use super::operand::tensor_on;
use crate::device::SameDevice;
use crate::or_panic::or_panic;
use crate::repr::{Data, DataMut};
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// Writes the elements of `src` into `self`: `src` broadcasts to
    /// `self`'s shape and names ([`InPlace`]) and is converted to `T` with
    /// PyTorch's conversions (an explicit copy may change the dtype).
    ///
    /// # Errors
    /// A `Dyn` size of `src` that does not broadcast to `self`'s, `self`
    /// with elements that share memory, or a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let mut m = Tensor::<i32, shape![Rows: 2, Cols: 3]>::zeros();
    /// let row = Tensor::<f32, shape![Cols: Dyn]>::from_vec_dyn(vec![1.5, -2.5, 3.0], 3);
    /// m.try_copy_(&row)?;
    /// assert_eq!(m.to_vec(), vec![1, -2, 3, 1, -2, 3]);
    /// assert!(m.try_copy_(&Tensor::<f32, shape![Cols: Dyn]>::zeros_dyn(2)).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_copy_<T2, S2, D2, R2>(&mut self, src: &TensorBase<T2, S2, D2, R2>) -> Result<()>
    where
        R: DataMut<D>,
        T2: Element,
        S: InPlace<S2>,
        S2: Shape,
        D2: SameDevice<D>,
        R2: Data<D2>,
    {
        let src = tensor_on(src);
        let out = self.layout.clone();
        self.raw_mut_disjoint()?
            .copy_(&src)
            .map_err(|e| mismatch::in_place::<S, S2>("copy_", e, out.shape(), src.shape()))
    }

    /// Writes the elements of `src` into `self`, broadcast and converted.
    ///
    /// # Panics
    /// As [`try_copy_`](Self::try_copy_), with its message (only with `Dyn`
    /// sizes or a `self` with elements that share memory).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let mut m = Tensor::<f32, shape![Rows: 2, Cols: 2]>::zeros();
    /// let col = Tensor::<f32, shape![Rows: 2, Cols: 1]>::from_array([[1.0], [2.0]]);
    /// m.as_view_mut().copy_(&col);
    /// assert_eq!(m.to_vec(), vec![1.0, 1.0, 2.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn copy_<T2, S2, D2, R2>(&mut self, src: &TensorBase<T2, S2, D2, R2>)
    where
        R: DataMut<D>,
        T2: Element,
        S: InPlace<S2>,
        S2: Shape,
        D2: SameDevice<D>,
        R2: Data<D2>,
    {
        or_panic(self.try_copy_(src));
    }
}
