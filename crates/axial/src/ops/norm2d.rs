//! The normalisations of convolutional networks by axis name: batch norm
//! (inference with running statistics, and training), group norm and
//! instance norm over a channel axis and the spatial axes named, and
//! folding an inference batch norm into the convolution before it.

use axial_core::nn::fold_batch_norm;
use axial_core::{Backend, Cpu, Result};
use axial_shape::conv::report::GroupsDivide;
use axial_shape::conv::{GlobalShape, Shown};
use axial_shape::einops::SizeDiv;
use axial_shape::{Ax, HasAxis, Nil, Shape, StaticSize};

use super::conv::typed;
use crate::float::Float;
use crate::ops::AxisOf;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase, TensorView};

/// A one-axis parameter's view as the core's.
fn raw<'a, T: Float, P, D: Backend>(
    p: &'a Option<TensorView<'_, T, P, D>>,
) -> Option<axial_core::TensorRef<'a, D>> {
    p.as_ref().map(|p| p.raw())
}

impl<T: Float, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// Batch normalisation with running statistics (inference) over the
    /// channel axis `C` (any layout): `(x − mean) / √(var + eps) · weight +
    /// bias` per channel; the statistics and parameters are `[C]` (the
    /// channel axis itself, name and size).
    ///
    /// # Errors
    /// A `Dyn` channel count that differs from a parameter's.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels);
    /// let x = Tensor::<f32, shape![Batch: 2, Channels: 2]>::from_array([[1.0, 10.0], [3.0, 30.0]]);
    /// let mean = Tensor::<f32, shape![Channels: 2]>::from_array([2.0, 20.0]);
    /// let var = Tensor::<f32, shape![Channels: 2]>::from_array([1.0, 100.0]);
    /// let y = x.try_batch_norm(Channels, mean.as_view(), var.as_view(), None, None, 0.0)?;
    /// assert_eq!(y.to_vec(), vec![-1.0, -1.0, 1.0, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_batch_norm<C>(
        &self,
        channel: C,
        mean: TensorView<'_, T, AxisOf<S, C>, D>,
        var: TensorView<'_, T, AxisOf<S, C>, D>,
        weight: Option<TensorView<'_, T, AxisOf<S, C>, D>>,
        bias: Option<TensorView<'_, T, AxisOf<S, C>, D>>,
        eps: f64,
    ) -> Result<Tensor<T, S, D>>
    where
        S: HasAxis<C>,
        AxisOf<S, C>: Shape,
    {
        let _ = channel;
        let y = self.raw().batch_norm_axes(
            S::POS,
            &mean.raw(),
            &var.raw(),
            raw(&weight).as_ref(),
            raw(&bias).as_ref(),
            eps,
        )?;
        typed("batch_norm", y)
    }

    /// Batch normalisation with running statistics over the channel axis `C`.
    ///
    /// # Panics
    /// As [`try_batch_norm`](Self::try_batch_norm), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels, Rows);
    /// let x = Tensor::<f64, shape![Channels: 1, Rows: 2]>::from_array([[4.0, 8.0]]);
    /// let mean = Tensor::<f64, shape![Channels: 1]>::zeros();
    /// let var = Tensor::<f64, shape![Channels: 1]>::full(4.0);
    /// assert_eq!(x.batch_norm(Channels, mean.as_view(), var.as_view(), None, None, 0.0).to_vec(), vec![2.0, 4.0]);
    /// ```
    #[track_caller]
    pub fn batch_norm<C>(
        &self,
        channel: C,
        mean: TensorView<'_, T, AxisOf<S, C>, D>,
        var: TensorView<'_, T, AxisOf<S, C>, D>,
        weight: Option<TensorView<'_, T, AxisOf<S, C>, D>>,
        bias: Option<TensorView<'_, T, AxisOf<S, C>, D>>,
        eps: f64,
    ) -> Tensor<T, S, D>
    where
        S: HasAxis<C>,
        AxisOf<S, C>: Shape,
    {
        or_panic(self.try_batch_norm(channel, mean, var, weight, bias, eps))
    }
}

impl<T: Float, S: Shape, R: Data<Cpu>> TensorBase<T, S, Cpu, R> {
    /// Batch normalisation in training mode over the channel axis `C`:
    /// each channel normalised by its mean and biased variance in this
    /// batch; the running statistics, when given, move by `momentum`
    /// towards them (the variance unbiased), as PyTorch's.
    ///
    /// # Errors
    /// One value per channel (PyTorch's "Expected more than 1 value per
    /// channel when training").
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels);
    /// let x = Tensor::<f32, shape![Batch: 2, Channels: 1]>::from_array([[1.0], [3.0]]);
    /// let mut mean = Tensor::<f32, shape![Channels: 1]>::zeros();
    /// let mut var = Tensor::<f32, shape![Channels: 1]>::ones();
    /// let y = x.try_batch_norm_train(Channels, None, None, Some((&mut mean, &mut var)), 0.5, 0.0)?;
    /// assert_eq!(y.to_vec(), vec![-1.0, 1.0]);
    /// assert_eq!((mean.to_vec(), var.to_vec()), (vec![1.0], vec![1.5]));
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_batch_norm_train<C>(
        &self,
        channel: C,
        weight: Option<TensorView<'_, T, AxisOf<S, C>>>,
        bias: Option<TensorView<'_, T, AxisOf<S, C>>>,
        running: Option<(&mut Tensor<T, AxisOf<S, C>>, &mut Tensor<T, AxisOf<S, C>>)>,
        momentum: f64,
        eps: f64,
    ) -> Result<Tensor<T, S>>
    where
        S: HasAxis<C>,
        AxisOf<S, C>: Shape,
    {
        let _ = channel;
        let y = match running {
            Some((m, v)) => {
                let (mut m, mut v) = (m.raw_mut(), v.raw_mut());
                self.raw().batch_norm_train(
                    S::POS,
                    raw(&weight).as_ref(),
                    raw(&bias).as_ref(),
                    Some((&mut m, &mut v)),
                    momentum,
                    eps,
                )?
            }
            None => self.raw().batch_norm_train(
                S::POS,
                raw(&weight).as_ref(),
                raw(&bias).as_ref(),
                None,
                momentum,
                eps,
            )?,
        };
        typed("batch_norm", y)
    }

    /// Group normalisation: the channel axis `C` split into `G` groups
    /// (`groups` is `Sz::<G>`, which must divide the channels: a compile
    /// error for static sizes), each group normalised over its channels
    /// and the axes `Sp`, separately for every index of the other axes;
    /// then `· weight + bias` per channel.
    ///
    /// # Errors
    /// A `Dyn` channel count that `G` does not divide.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels, Rows);
    /// let x = Tensor::<f32, shape![Batch: 1, Channels: 4, Rows: 1]>::from_array([[[1.0], [3.0], [10.0], [30.0]]]);
    /// let y = x.try_group_norm(Channels, (Rows,), Sz::<2>, None, None, 0.0)?;
    /// assert_eq!(y.to_vec(), vec![-1.0, 1.0, -1.0, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn try_group_norm<C, Sp, G>(
        &self,
        channel: C,
        spatial: Sp,
        groups: G,
        weight: Option<TensorView<'_, T, AxisOf<S, C>>>,
        bias: Option<TensorView<'_, T, AxisOf<S, C>>>,
        eps: f64,
    ) -> Result<Tensor<T, S>>
    where
        S: HasAxis<C> + GlobalShape<Sp>,
        AxisOf<S, C>: Shape,
        G: StaticSize,
        <S as HasAxis<C>>::Size: SizeDiv<G>,
        <<S as HasAxis<C>>::Size as SizeDiv<G>>::Divides: GroupsDivide<
                Shown<<S as HasAxis<C>>::Size, C>,
                Shown<G, axial_shape::conv::report::Groups>,
            >,
    {
        let _ = (channel, spatial, groups);
        let g = G::STATIC.unwrap_or(1);
        let positions = <S as GlobalShape<Sp>>::spatial();
        let y = self.raw().group_norm_axes(
            S::POS,
            &positions,
            g,
            raw(&weight).as_ref(),
            raw(&bias).as_ref(),
            eps,
        )?;
        typed("group_norm", y)
    }

    /// Instance normalisation: each channel of the channel axis `C`
    /// normalised over the axes `Sp`, separately for every index of the
    /// other axes (group norm with one channel per group); then `· weight
    /// + bias` per channel.
    ///
    /// # Errors
    /// A failure of the kernel.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels, Time);
    /// let x = Tensor::<f32, shape![Batch: 1, Channels: 2, Time: 2]>::from_array([[[1.0, 3.0], [5.0, 9.0]]]);
    /// assert_eq!(x.try_instance_norm(Channels, (Time,), None, None, 0.0)?.to_vec(), vec![-1.0, 1.0, -1.0, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_instance_norm<C, Sp>(
        &self,
        channel: C,
        spatial: Sp,
        weight: Option<TensorView<'_, T, AxisOf<S, C>>>,
        bias: Option<TensorView<'_, T, AxisOf<S, C>>>,
        eps: f64,
    ) -> Result<Tensor<T, S>>
    where
        S: HasAxis<C> + GlobalShape<Sp>,
        AxisOf<S, C>: Shape,
    {
        let _ = (channel, spatial);
        let c = self.layout.shape()[S::POS];
        let positions = <S as GlobalShape<Sp>>::spatial();
        let y = self.raw().group_norm_axes(
            S::POS,
            &positions,
            c.max(1),
            raw(&weight).as_ref(),
            raw(&bias).as_ref(),
            eps,
        )?;
        typed("instance_norm", y)
    }
}

impl<T: Float, O, OS, Rest, R: Data<Cpu>> TensorBase<T, Ax<O, OS, Rest>, Cpu, R>
where
    Ax<O, OS, Rest>: Shape,
{
    /// This convolution weight (`[out, ...]`) and its `bias` with the
    /// inference batch norm after the convolution folded in: with `s =
    /// gamma / √(var + eps)` per output channel, the weight `· s` and the
    /// bias `(bias − mean)·s + beta` (computed in f64, rounded once).
    /// `conv(x, w', b')` is then `batch_norm(conv(x, w, b))` in one pass.
    /// The statistics and parameters are `[out]` by size (any name: they
    /// are usually named by the feature map's channel axis).
    ///
    /// # Errors
    /// A `Dyn` size that differs between the weight and a statistic.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels);
    /// let w = Tensor::<f32, shape![2, 1, 1]>::from_array([[[1.0]], [[2.0]]]);
    /// let mean = Tensor::<f32, shape![Channels: 2]>::from_array([1.0, 0.0]);
    /// let var = Tensor::<f32, shape![Channels: 2]>::from_array([4.0, 1.0]);
    /// let gamma = Tensor::<f32, shape![Channels: 2]>::from_array([2.0, 1.0]);
    /// let (w2, b2) = w.try_fold_batch_norm(None, &mean, &var, Some(&gamma), None, 0.0)?;
    /// assert_eq!((w2.to_vec(), b2.to_vec()), (vec![1.0, 2.0], vec![-1.0, 0.0]));
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_fold_batch_norm<P, RS>(
        &self,
        bias: Option<TensorView<'_, T, Ax<O, OS, Nil>>>,
        mean: &TensorBase<T, Ax<P, OS, Nil>, Cpu, RS>,
        var: &TensorBase<T, Ax<P, OS, Nil>, Cpu, RS>,
        gamma: Option<&TensorBase<T, Ax<P, OS, Nil>, Cpu, RS>>,
        beta: Option<&TensorBase<T, Ax<P, OS, Nil>, Cpu, RS>>,
        eps: f64,
    ) -> Result<(Tensor<T, Ax<O, OS, Rest>>, Tensor<T, Ax<O, OS, Nil>>)>
    where
        Ax<O, OS, Nil>: Shape,
        Ax<P, OS, Nil>: Shape,
        RS: Data<Cpu>,
    {
        let (g, b) = (gamma.map(|g| g.raw()), beta.map(|b| b.raw()));
        let bias = bias.as_ref().map(|b| b.raw());
        let (w, b) = fold_batch_norm(
            &self.raw(),
            bias.as_ref(),
            &mean.raw(),
            &var.raw(),
            g.as_ref(),
            b.as_ref(),
            eps,
        )?;
        Ok((typed("fold_batch_norm", w)?, typed("fold_batch_norm", b)?))
    }
}
