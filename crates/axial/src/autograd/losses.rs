//! Losses of tracked tensors, by axis name: `cross_entropy` (class indices,
//! `ignore_index`, label smoothing), `nll_loss`, `mse_loss` and
//! `binary_cross_entropy_with_logits`. Each keeps what PyTorch's keeps: the
//! cross-entropy its log-probabilities (not the logits) and target, the
//! others their input and target. A writable input a loss keeps is
//! consumed, a kept one read in place.

use axial_core::autograd::{CrossEntropy, Reduction, Var as CoreVar};
use axial_core::{Backend, Error, Result};
use axial_shape::{HasAxis, Nil, Shape};

use super::var::{Held, Kept, Var, Writable};
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::TensorBase;

/// A target of [`mse_loss`](Var::mse_loss) or
/// [`binary_cross_entropy_with_logits`](Var::binary_cross_entropy_with_logits),
/// which the loss keeps: `'x` is how long the loss borrows it (a writable
/// tracked tensor or an untracked one is borrowed; a kept one, or one
/// given by value, is not).
pub trait Target<'x, 'g, T, S, D: Backend> {
    /// The target as the core's tensor.
    ///
    /// # Errors
    /// A failure of the device.
    fn held(self) -> Result<CoreVar<'x, D>>;
}

impl<'a, 'g: 'a, T: Float, S, D: Backend> Target<'a, 'g, T, S, D>
    for &'a Var<'g, T, S, D, Writable>
{
    fn held(self) -> Result<CoreVar<'a, D>> {
        Ok(self.core()?.into_owned_var())
    }
}

impl<'g, T: Float, S, D: Backend> Target<'g, 'g, T, S, D> for &Var<'g, T, S, D, Kept> {
    fn held(self) -> Result<CoreVar<'g, D>> {
        Ok(self.core()?.into_owned_var())
    }
}

impl<'g, T: Float, S, D: Backend, W> Target<'g, 'g, T, S, D> for Var<'g, T, S, D, W> {
    fn held(self) -> Result<CoreVar<'g, D>> {
        Ok(self.core()?.into_owned_var())
    }
}

impl<'t, 'g: 't, T: Float, S, D: Backend, R: Data<D>> Target<'t, 'g, T, S, D>
    for &'t TensorBase<T, S, D, R>
{
    fn held(self) -> Result<CoreVar<'t, D>> {
        Ok(CoreVar::constant_ref(self.raw()))
    }
}

impl<'g, T: Float, S: Shape, D: Backend, W> Var<'g, T, S, D, W> {
    /// These logits with the class axis `C` at PyTorch's place (dim 1, or
    /// dim 0 for one sample).
    fn classes_at_one<C>(&self) -> Result<Held<'_, 'g, D>>
    where
        S: HasAxis<C>,
    {
        let x = self.core()?;
        let at = usize::from(S::RANK > 1);
        if S::POS == at {
            return Ok(x);
        }
        Ok(Held::Owned(x.movedim(&[S::POS as isize], &[at as isize])?))
    }

    /// Cross-entropy of these logits, classes along the axis `C`, against
    /// the class indices `target` (this shape without `C`): PyTorch's
    /// `cross_entropy` with `opts` (`ignore_index`, label smoothing, the
    /// mean or the sum). Written as `log_softmax` and the negative
    /// log-likelihood: the logits are not kept (so they may be written in
    /// place afterwards); the target is (borrowed).
    ///
    /// # Errors
    /// A class out of range that is not `ignore_index`; `opts.reduction`
    /// of [`Reduction::None`] (use
    /// [`try_cross_entropy_per_item`](Self::try_cross_entropy_per_item)); a
    /// failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::CrossEntropy;
    /// axes!(Batch, Classes);
    /// let logits = Tensor::<f64, shape![Batch: 2, Classes: 3]>::zeros();
    /// let labels = Tensor::<i64, shape![Batch: 2]>::from_array([0, 2]);
    /// let lv = logits.track();
    /// let loss = lv.try_cross_entropy::<Classes, _>(&labels, CrossEntropy::default())?;
    /// assert!((loss.value().item() - 3f64.ln()).abs() < 1e-12);
    /// let g = loss.backward().of(&lv).unwrap();
    /// assert!((g.to_vec()[0] - (1.0 / 3.0 - 1.0) / 2.0).abs() < 1e-12);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cross_entropy<'t, C, R: Data<D>>(
        &self,
        target: &'t TensorBase<i64, S::Without, D, R>,
        opts: CrossEntropy,
    ) -> Result<Var<'t, T, Nil, D>>
    where
        S: HasAxis<C>,
        'g: 't,
    {
        if opts.reduction == Reduction::None {
            return Err(Error::invalid(
                "cross_entropy",
                "reduction 'none' gives a loss per item: use cross_entropy_per_item",
            ));
        }
        let t = CoreVar::constant_ref(target.raw());
        Ok(Var::from_core(
            self.classes_at_one::<C>()?.cross_entropy(&t, opts)?,
        ))
    }

    /// Cross-entropy of these logits against class indices.
    ///
    /// # Panics
    /// As [`try_cross_entropy`](Self::try_cross_entropy), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::CrossEntropy;
    /// axes!(Batch, Classes);
    /// let logits = Tensor::<f64, shape![Batch: 1, Classes: 2]>::zeros();
    /// let labels = Tensor::<i64, shape![Batch: 1]>::from_array([1]);
    /// let loss = logits.track().cross_entropy::<Classes, _>(&labels, CrossEntropy::default());
    /// assert!((loss.value().item() - 2f64.ln()).abs() < 1e-12);
    /// ```
    #[track_caller]
    pub fn cross_entropy<'t, C, R: Data<D>>(
        &self,
        target: &'t TensorBase<i64, S::Without, D, R>,
        opts: CrossEntropy,
    ) -> Var<'t, T, Nil, D>
    where
        S: HasAxis<C>,
        'g: 't,
    {
        or_panic(self.try_cross_entropy::<C, R>(target, opts))
    }

    /// Cross-entropy of each item (PyTorch's `reduction='none'`): the
    /// target's shape, ignored items 0.
    ///
    /// # Errors
    /// As [`try_cross_entropy`](Self::try_cross_entropy), whose
    /// `opts.reduction` is not read.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::CrossEntropy;
    /// axes!(Batch, Classes);
    /// let logits = Tensor::<f64, shape![Batch: 2, Classes: 2]>::zeros();
    /// let labels = Tensor::<i64, shape![Batch: 2]>::from_array([1, -100]);
    /// let each = logits.track().try_cross_entropy_per_item::<Classes, _>(&labels, CrossEntropy::default())?;
    /// assert_eq!(each.value().to_vec(), vec![2f64.ln(), 0.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cross_entropy_per_item<'t, C, R: Data<D>>(
        &self,
        target: &'t TensorBase<i64, S::Without, D, R>,
        opts: CrossEntropy,
    ) -> Result<Var<'t, T, S::Without, D>>
    where
        S: HasAxis<C>,
        'g: 't,
    {
        let t = CoreVar::constant_ref(target.raw());
        let opts = CrossEntropy {
            reduction: Reduction::None,
            ..opts
        };
        Ok(Var::from_core(
            self.classes_at_one::<C>()?.cross_entropy(&t, opts)?,
        ))
    }
}

/// The losses that keep their input: a writable one is consumed, a kept one
/// read in place.
macro_rules! keeping_losses {
    ($([$($header:tt)*] [$($r:tt)?] $x:literal;)*) => {$(
        impl $($header)* {
            /// The negative log-likelihood of class indices under these
            /// log-probabilities, classes along `C` (PyTorch's `nll_loss`, the
            /// mean over the items not `ignore_index`). Keeps its input and
            /// target.
            ///
            /// # Errors
            /// A class out of range that is not `ignore_index`; a failure of
            /// the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Batch, Classes);
            /// let logp = Tensor::<f64, shape![Batch: 2, Classes: 2]>::from_array([[-1.0, -2.0], [-3.0, -4.0]]);
            /// let labels = Tensor::<i64, shape![Batch: 2]>::from_array([1, 0]);
            /// let av = logp.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// assert_eq!(x.try_nll_loss::<Classes, _>(&labels, -100)?.value().item(), 2.5);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_nll_loss<'t, C, R: Data<D>>(
                $($r)? self,
                target: &'t TensorBase<i64, S::Without, D, R>,
                ignore_index: i64,
            ) -> Result<Var<'t, T, Nil, D>>
            where
                S: HasAxis<C>,
                'g: 't,
            {
                let t = CoreVar::constant_ref(target.raw());
                let logp = self.classes_at_one::<C>()?;
                Ok(Var::from_core(logp.nll_loss(&t, ignore_index, Reduction::Mean)?))
            }

            /// The mean squared error against `target` of this shape, tracked
            /// or not (PyTorch's `mse_loss`). Keeps both ([`Target`] says
            /// whether the loss borrows the target).
            ///
            /// # Errors
            /// A `Dyn` size that differs; a failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// let a = Tensor::<f64, shape![2]>::from_array([1.0, 3.0]);
            /// let t = Tensor::<f64, shape![2]>::zeros();
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let loss = x.try_mse_loss(&t)?;
            /// assert_eq!(loss.value().item(), 5.0);
            /// assert_eq!(loss.backward().of(&av).unwrap().to_vec(), vec![1.0, 3.0]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_mse_loss<'x, Tg>($($r)? self, target: Tg) -> Result<Var<'x, T, Nil, D>>
            where
                Tg: Target<'x, 'g, T, S, D>,
                'g: 'x,
            {
                let t = target.held()?;
                Ok(Var::from_core(self.core()?.mse_loss(&t, Reduction::Mean)?))
            }

            /// The mean squared error against `target`.
            ///
            /// # Panics
            /// As [`try_mse_loss`](Self::try_mse_loss), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// let a = Tensor::<f64, shape![1]>::full(2.0);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// assert_eq!(x.mse_loss(&Tensor::<f64, shape![1]>::zeros()).value().item(), 4.0);
            /// ```
            #[track_caller]
            pub fn mse_loss<'x, Tg>($($r)? self, target: Tg) -> Var<'x, T, Nil, D>
            where
                Tg: Target<'x, 'g, T, S, D>,
                'g: 'x,
            {
                or_panic(self.try_mse_loss(target))
            }

            /// Binary cross-entropy of these logits against probabilities
            /// `target` of this shape (PyTorch's
            /// `binary_cross_entropy_with_logits`, the mean), without overflow
            /// for large logits. Keeps both.
            ///
            /// # Errors
            /// A `Dyn` size that differs; a failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// let a = Tensor::<f64, shape![1]>::zeros();
            /// let t = Tensor::<f64, shape![1]>::ones();
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let loss = x.try_binary_cross_entropy_with_logits(&t)?;
            /// assert!((loss.value().item() - 2f64.ln()).abs() < 1e-12);
            /// assert_eq!(loss.backward().of(&av).unwrap().to_vec(), vec![-0.5]); // σ(x) − t
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_binary_cross_entropy_with_logits<'x, Tg>(
                $($r)? self,
                target: Tg,
            ) -> Result<Var<'x, T, Nil, D>>
            where
                Tg: Target<'x, 'g, T, S, D>,
                'g: 'x,
            {
                let t = target.held()?;
                let x = self.core()?;
                Ok(Var::from_core(x.binary_cross_entropy_with_logits(&t, Reduction::Mean)?))
            }

            /// Binary cross-entropy of these logits against probabilities.
            ///
            /// # Panics
            /// As [`try_binary_cross_entropy_with_logits`](Self::try_binary_cross_entropy_with_logits), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// let a = Tensor::<f64, shape![1]>::zeros();
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let t = Tensor::<f64, shape![1]>::zeros();
            /// let loss = x.binary_cross_entropy_with_logits(&t);
            /// assert!((loss.value().item() - 2f64.ln()).abs() < 1e-12);
            /// ```
            #[track_caller]
            pub fn binary_cross_entropy_with_logits<'x, Tg>($($r)? self, target: Tg) -> Var<'x, T, Nil, D>
            where
                Tg: Target<'x, 'g, T, S, D>,
                'g: 'x,
            {
                or_panic(self.try_binary_cross_entropy_with_logits(target))
            }
        }
    )*};
}

keeping_losses! {
    [<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Writable>] [] "&av * 1.0";
    [<'g, T: Float, S: Shape, D: Backend> Var<'g, T, S, D, Kept>] [&] "av.as_kept()";
}
