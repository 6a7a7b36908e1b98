//! Losses, forward, with PyTorch's options: `mse_loss` and
//! `cross_entropy` (classes along an axis by name; class indices or class
//! probabilities; class weights, `ignore_index`, label smoothing). The
//! reduction is a value whose type says the result's shape: [`Mean`] and
//! [`Sum`] give a tensor without axes, [`Unreduced`] (PyTorch's `'none'`)
//! one loss per sample.
//!
//! ```
//! use axial::prelude::*;
//! use axial::loss::{CrossEntropy, Mean, Unreduced};
//! axes!(Batch, Classes);
//! let logits = Tensor::<f32, shape![Batch: 2, Classes: 3]>::from_array([[2.0, 0.0, 0.0], [0.0, 0.0, 2.0]]);
//! let labels = Tensor::<i64, shape![Batch: 2]>::from_array([0, 1]);
//! let each: Tensor<f32, shape![Batch: 2]> = logits.cross_entropy::<Classes, _>(&labels, Unreduced, CrossEntropy::default());
//! let mean: Tensor<f32, shape![]> = logits.cross_entropy::<Classes, _>(&labels, Mean, CrossEntropy::default());
//! assert!((mean.item() - (each.get([0]) + each.get([1])) / 2.0).abs() < 1e-6);
//! ```

use axial_core::{Backend, Result};
use axial_shape::{HasAxis, Nil, Shape};

use crate::access::owned;
use crate::float::Float;
use crate::ops::AxisOf;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase, TensorView};

mod sealed {
    pub trait Sealed {}
}

/// How a loss reduces its per-sample values, with the shape it gives.
///
/// ```
/// use axial::loss::{Mean, Reduction, Unreduced};
/// use axial::{Shape, shape};
/// assert_eq!(<<Mean as Reduction>::Output<shape![4]> as Shape>::RANK, 0);
/// assert_eq!(<<Unreduced as Reduction>::Output<shape![4]> as Shape>::RANK, 1);
/// ```
pub trait Reduction: sealed::Sealed {
    /// The core's reduction.
    const KIND: axial_core::Reduction;
    /// The shape of the reduced losses of shape `S`.
    type Output<S: Shape>: Shape;
}

/// The mean of the losses (PyTorch's default `'mean'`, weighted as its).
///
/// ```
/// use axial::loss::{Mean, Reduction};
/// assert_eq!(Mean::KIND, axial_core::Reduction::Mean);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mean;
/// The sum of the losses (`'sum'`).
///
/// ```
/// use axial::loss::{Reduction, Sum};
/// assert_eq!(Sum::KIND, axial_core::Reduction::Sum);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sum;
/// One loss per sample (`'none'`).
///
/// ```
/// use axial::loss::{Reduction, Unreduced};
/// assert_eq!(Unreduced::KIND, axial_core::Reduction::None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unreduced;

impl sealed::Sealed for Mean {}
impl sealed::Sealed for Sum {}
impl sealed::Sealed for Unreduced {}
impl Reduction for Mean {
    const KIND: axial_core::Reduction = axial_core::Reduction::Mean;
    type Output<S: Shape> = Nil;
}
impl Reduction for Sum {
    const KIND: axial_core::Reduction = axial_core::Reduction::Sum;
    type Output<S: Shape> = Nil;
}
impl Reduction for Unreduced {
    const KIND: axial_core::Reduction = axial_core::Reduction::None;
    type Output<S: Shape> = S;
}

/// The options of `cross_entropy` besides the weights: PyTorch's
/// `ignore_index` (default -100: samples of that class count for nothing)
/// and `label_smoothing` (default 0).
///
/// ```
/// use axial::loss::CrossEntropy;
/// let smoothed = CrossEntropy { label_smoothing: 0.1, ..CrossEntropy::default() };
/// assert_eq!(smoothed.ignore_index, -100);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrossEntropy {
    /// The class index whose samples are left out (indices only).
    pub ignore_index: i64,
    /// The weight of the uniform distribution mixed into the target, in
    /// `[0, 1]`.
    pub label_smoothing: f64,
}

impl Default for CrossEntropy {
    fn default() -> Self {
        CrossEntropy {
            ignore_index: -100,
            label_smoothing: 0.0,
        }
    }
}

/// The shape of one loss per sample of `S` with the classes along `C`.
type Samples<S, C> = <S as HasAxis<C>>::Without;
/// The reduced losses.
type Losses<T, S, C, Red, D> = Tensor<T, <Red as Reduction>::Output<Samples<S, C>>, D>;

impl<T: Float, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `torch.nn.functional.mse_loss(self, target, reduction)`: the squared
    /// differences with a target of this shape, reduced.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::loss::{Mean, Unreduced};
    /// axes!(Batch);
    /// let x = Tensor::<f32, shape![Batch: 3]>::from_array([1.0, 2.0, 3.0]);
    /// let y = Tensor::<f32, shape![Batch: 3]>::from_array([1.0, 0.0, 6.0]);
    /// assert_eq!(x.try_mse_loss(&y, Unreduced)?.to_vec(), vec![0.0, 4.0, 9.0]);
    /// assert!((x.try_mse_loss(&y, Mean)?.item() - 13.0 / 3.0).abs() < 1e-6);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_mse_loss<Red: Reduction>(
        &self,
        target: &TensorBase<T, S, D, impl Data<D>>,
        reduction: Red,
    ) -> Result<Tensor<T, Red::Output<S>, D>> {
        let _ = reduction;
        self.raw().mse_loss(&target.raw(), Red::KIND).map(owned)
    }

    /// `torch.nn.functional.mse_loss(self, target, reduction)` (see
    /// [`try_mse_loss`](Self::try_mse_loss)).
    ///
    /// # Panics
    /// As [`try_mse_loss`](Self::try_mse_loss), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::loss::Sum;
    /// let x = Tensor::<f64, shape![2, 2]>::ones();
    /// assert_eq!(x.mse_loss(&Tensor::zeros(), Sum).item(), 4.0);
    /// ```
    #[track_caller]
    pub fn mse_loss<Red: Reduction>(
        &self,
        target: &TensorBase<T, S, D, impl Data<D>>,
        reduction: Red,
    ) -> Tensor<T, Red::Output<S>, D> {
        or_panic(self.try_mse_loss(target, reduction))
    }

    /// `torch.nn.functional.cross_entropy(self, target, ...)` with the
    /// classes along the axis `C` and `target` the class index of each
    /// sample (this shape without `C`): `-log softmax` of the target class,
    /// with PyTorch's `ignore_index` and `label_smoothing` ([`CrossEntropy`]).
    /// The mean is over the samples counted.
    ///
    /// # Errors
    /// A class index out of range (PyTorch's "Target 5 is out of bounds."),
    /// a smoothing outside `[0, 1]`, or a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::loss::{CrossEntropy, Mean};
    /// axes!(Batch, Classes);
    /// let logits = Tensor::<f32, shape![Batch: 2, Classes: 2]>::zeros();
    /// let labels = Tensor::<i64, shape![Batch: 2]>::from_array([1, -100]);
    /// let loss = logits.try_cross_entropy::<Classes, _>(&labels, Mean, CrossEntropy::default())?;
    /// assert!((loss.item() - std::f32::consts::LN_2).abs() < 1e-6); // the second is ignored
    /// let bad = Tensor::<i64, shape![Batch: 2]>::from_array([2, 0]);
    /// let e = logits.try_cross_entropy::<Classes, _>(&bad, Mean, CrossEntropy::default()).unwrap_err();
    /// assert_eq!(e.to_string(), "cross_entropy: Target 2 is out of bounds.");
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cross_entropy<C, Red: Reduction>(
        &self,
        target: &TensorBase<i64, Samples<S, C>, D, impl Data<D>>,
        reduction: Red,
        options: CrossEntropy,
    ) -> Result<Losses<T, S, C, Red, D>>
    where
        S: HasAxis<C>,
    {
        self.cross_entropy_raw::<C, Red>(&target.raw(), None, reduction, options)
    }

    /// `torch.nn.functional.cross_entropy(self, target, ...)` against class
    /// indices (see [`try_cross_entropy`](Self::try_cross_entropy)).
    ///
    /// # Panics
    /// As [`try_cross_entropy`](Self::try_cross_entropy), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::loss::{CrossEntropy, Unreduced};
    /// axes!(Classes);
    /// let logits = Tensor::<f64, shape![Classes: 2]>::from_array([0.0, 0.0]);
    /// let one = Tensor::<i64, shape![]>::from_vec(vec![0]);
    /// let loss = logits.cross_entropy::<Classes, _>(&one, Unreduced, CrossEntropy::default());
    /// assert!((loss.item() - std::f64::consts::LN_2).abs() < 1e-12);
    /// ```
    #[track_caller]
    pub fn cross_entropy<C, Red: Reduction>(
        &self,
        target: &TensorBase<i64, Samples<S, C>, D, impl Data<D>>,
        reduction: Red,
        options: CrossEntropy,
    ) -> Losses<T, S, C, Red, D>
    where
        S: HasAxis<C>,
    {
        or_panic(self.try_cross_entropy::<C, Red>(target, reduction, options))
    }

    /// As [`try_cross_entropy`](Self::try_cross_entropy), each class
    /// weighed by `weight` (`[C]`, PyTorch's `weight`): the mean divides by
    /// the summed weights of the samples counted.
    ///
    /// # Errors
    /// As [`try_cross_entropy`](Self::try_cross_entropy).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::loss::{CrossEntropy, Mean};
    /// axes!(Batch, Classes);
    /// let logits = Tensor::<f32, shape![Batch: 2, Classes: 2]>::from_array([[0.0, 0.0], [0.0, 10.0]]);
    /// let labels = Tensor::<i64, shape![Batch: 2]>::from_array([0, 1]);
    /// let weight = Tensor::<f32, shape![Classes: 2]>::from_array([3.0, 1.0]);
    /// let loss = logits.try_cross_entropy_weighted::<Classes, _>(&labels, weight.as_view(), Mean, CrossEntropy::default())?;
    /// let want = (3.0 * std::f32::consts::LN_2 + (1.0 + (-10.0f32).exp()).ln()) / 4.0;
    /// assert!((loss.item() - want).abs() < 1e-6);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cross_entropy_weighted<C, Red: Reduction>(
        &self,
        target: &TensorBase<i64, Samples<S, C>, D, impl Data<D>>,
        weight: TensorView<'_, T, AxisOf<S, C>, D>,
        reduction: Red,
        options: CrossEntropy,
    ) -> Result<Losses<T, S, C, Red, D>>
    where
        S: HasAxis<C>,
        AxisOf<S, C>: Shape,
    {
        self.cross_entropy_raw::<C, Red>(&target.raw(), Some(&weight.raw()), reduction, options)
    }

    /// `torch.nn.functional.cross_entropy(self, target, ...)` with `target`
    /// the class probabilities of each sample (this shape): `-Σ p log
    /// softmax` over `C`, the target smoothed by `label_smoothing` first
    /// (`ignore_index` does not apply). The mean is over the samples.
    ///
    /// # Errors
    /// A smoothing outside `[0, 1]`, or a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::loss::{CrossEntropy, Unreduced};
    /// axes!(Batch, Classes);
    /// let logits = Tensor::<f64, shape![Batch: 1, Classes: 2]>::zeros();
    /// let p = Tensor::<f64, shape![Batch: 1, Classes: 2]>::from_array([[0.25, 0.75]]);
    /// let loss = logits.try_cross_entropy_probs::<Classes, _>(&p, Unreduced, CrossEntropy::default())?;
    /// assert!((loss.item() - std::f64::consts::LN_2).abs() < 1e-12);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cross_entropy_probs<C, Red: Reduction>(
        &self,
        target: &TensorBase<T, S, D, impl Data<D>>,
        reduction: Red,
        options: CrossEntropy,
    ) -> Result<Losses<T, S, C, Red, D>>
    where
        S: HasAxis<C>,
    {
        self.cross_entropy_raw::<C, Red>(&target.raw(), None, reduction, options)
    }

    /// As [`try_cross_entropy_probs`](Self::try_cross_entropy_probs), each
    /// class weighed by `weight` (`[C]`).
    ///
    /// # Errors
    /// As [`try_cross_entropy_probs`](Self::try_cross_entropy_probs).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::loss::{CrossEntropy, Sum};
    /// axes!(Classes);
    /// let logits = Tensor::<f32, shape![Classes: 2]>::zeros();
    /// let p = Tensor::<f32, shape![Classes: 2]>::from_array([1.0, 0.0]);
    /// let w = Tensor::<f32, shape![Classes: 2]>::from_array([2.0, 1.0]);
    /// let loss = logits.try_cross_entropy_probs_weighted::<Classes, _>(&p, w.as_view(), Sum, CrossEntropy::default())?;
    /// assert!((loss.item() - 2.0 * std::f32::consts::LN_2).abs() < 1e-6);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cross_entropy_probs_weighted<C, Red: Reduction>(
        &self,
        target: &TensorBase<T, S, D, impl Data<D>>,
        weight: TensorView<'_, T, AxisOf<S, C>, D>,
        reduction: Red,
        options: CrossEntropy,
    ) -> Result<Losses<T, S, C, Red, D>>
    where
        S: HasAxis<C>,
        AxisOf<S, C>: Shape,
    {
        self.cross_entropy_raw::<C, Red>(&target.raw(), Some(&weight.raw()), reduction, options)
    }

    /// The core's `cross_entropy` with the classes along `C`.
    fn cross_entropy_raw<C, Red: Reduction>(
        &self,
        target: &axial_core::TensorRef<'_, D>,
        weight: Option<&axial_core::TensorRef<'_, D>>,
        reduction: Red,
        options: CrossEntropy,
    ) -> Result<Losses<T, S, C, Red, D>>
    where
        S: HasAxis<C>,
    {
        let _ = reduction;
        self.raw()
            .cross_entropy(
                target,
                <S as HasAxis<C>>::POS as isize,
                weight,
                options.ignore_index,
                Red::KIND,
                options.label_smoothing,
            )
            .map(owned)
    }
}
