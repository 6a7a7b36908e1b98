//! `softmax` and `log_softmax` along an axis by name: the core's fused
//! kernels (one pass for the maximum, one for the exponentials and their
//! sum, one to scale), so large inputs do not overflow.

use axial_core::{Backend, Element, RawTensor, Result, TensorRef};
use axial_shape::{HasAxis, Shape};

use crate::access::owned;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

fn softmax<D: Backend>(x: &TensorRef<'_, D>, dim: isize) -> Result<RawTensor<D>> {
    x.softmax(dim)
}

fn log_softmax<D: Backend>(x: &TensorRef<'_, D>, dim: isize) -> Result<RawTensor<D>> {
    x.log_softmax(dim)
}

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `f` along the axis `A`; an empty tensor is copied as it is (its
    /// maximum does not exist).
    fn along<A>(
        &self,
        f: fn(&TensorRef<'_, D>, isize) -> Result<RawTensor<D>>,
    ) -> Result<Tensor<T, S, D>>
    where
        T: Float,
        S: HasAxis<A>,
    {
        let x = self.raw();
        if x.numel() == 0 {
            return x.to_owned().map(owned);
        }
        f(&x, S::POS as isize).map(owned)
    }
}

/// The float bound is on each method, not on the impl, so that on an integer
/// tensor the method is found and its bound says what is wrong (an impl
/// bound would hide the method: "no method named `softmax`").
impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `exp(x) / sum(exp(x))` along the axis `A` (PyTorch's `softmax(dim)`):
    /// the same shape, each slice along `A` summing to 1.
    ///
    /// # Errors
    /// A failure of the device or the kernel.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Classes);
    /// let logits = Tensor::<f64, shape![Batch: 2, Classes: 2]>::from_array([[0.0, 0.0], [1000.0, 1000.0]]);
    /// let p = logits.try_softmax::<Classes>()?;
    /// assert_eq!(p.to_vec(), vec![0.5; 4]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_softmax<A>(&self) -> Result<Tensor<T, S, D>>
    where
        T: Float,
        S: HasAxis<A>,
    {
        self.along::<A>(softmax)
    }

    /// `exp(x) / sum(exp(x))` along the axis `A`.
    ///
    /// # Panics
    /// As [`try_softmax`](Self::try_softmax), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Classes);
    /// let p = Tensor::<f32, shape![Classes: 3]>::from_array([1.0, 1.0, 1.0]).softmax::<Classes>();
    /// assert!(p.to_vec().iter().all(|&v| (v - 1.0 / 3.0).abs() < 1e-7));
    /// ```
    #[track_caller]
    pub fn softmax<A>(&self) -> Tensor<T, S, D>
    where
        T: Float,
        S: HasAxis<A>,
    {
        or_panic(self.try_softmax::<A>())
    }

    /// `x - log(sum(exp(x)))` along the axis `A` (PyTorch's
    /// `log_softmax(dim)`), computed without forming the softmax.
    ///
    /// # Errors
    /// A failure of the device or the kernel.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Classes);
    /// let x = Tensor::<f64, shape![Classes: 2]>::from_array([500.0, 500.0]);
    /// let l = x.try_log_softmax::<Classes>()?;
    /// assert_eq!(l.to_vec(), vec![-std::f64::consts::LN_2; 2]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_log_softmax<A>(&self) -> Result<Tensor<T, S, D>>
    where
        T: Float,
        S: HasAxis<A>,
    {
        self.along::<A>(log_softmax)
    }

    /// `x - log(sum(exp(x)))` along the axis `A`.
    ///
    /// # Panics
    /// As [`try_log_softmax`](Self::try_log_softmax), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Classes);
    /// let x = Tensor::<f64, shape![Classes: 2]>::from_array([0.0, 0.0]);
    /// assert_eq!(x.log_softmax::<Classes>().to_vec(), vec![-std::f64::consts::LN_2; 2]);
    /// ```
    #[track_caller]
    pub fn log_softmax<A>(&self) -> Tensor<T, S, D>
    where
        T: Float,
        S: HasAxis<A>,
    {
        or_panic(self.try_log_softmax::<A>())
    }
}
