//! The ops of convolutional networks on tracked tensors, by axis name:
//! convolution, transposed convolution, max, average, adaptive (average and max) and global average pooling, batch
//! normalisation (training and eval), group and instance normalisation,
//! `hardswish`, `hardsigmoid` and
//! `prelu`. The output shapes are the untracked ops' ([`ConvShape`],
//! [`PoolShape`], ...), computed while compiling. Each keeps its input, as
//! PyTorch does (`ConvolutionBackward0`, `MaxPool2DWithIndicesBackward0`,
//! `AvgPool2DBackward0`, `NativeBatchNormBackward0`, ... save `self`): a
//! writable input is consumed, a kept one read in place.

use axial_core::autograd::Var as CoreVar;
use axial_core::nn::ConvAxes;
use axial_core::{Cpu, Error, Result};
use axial_shape::conv::report::GroupsDivide;
use axial_shape::conv::{
    AdaptiveShape, ConvRule, ConvShape, ConvTShape, GlobalShape, PoolRule, PoolShape, Shown,
};
use axial_shape::einops::SizeDiv;
use axial_shape::{HasAxis, Shape, StaticSize};

use super::var::{Kept, Var, Writable};
use crate::float::Float;
use crate::ops::AxisOf;
use crate::ops::conv::conv_options;
use crate::ops::pool::pool_options;
use crate::or_panic::or_panic;
use crate::tensor::{Tensor, TensorView};

/// `v` as a tracked tensor of `S2`, after checking that its sizes are the
/// ones the type computed while compiling.
fn typed<'g, T, S2: Shape>(op: &'static str, v: CoreVar<'g, Cpu>) -> Result<Var<'g, T, S2, Cpu>> {
    let mut sizes = vec![None; S2::RANK];
    S2::write_static_sizes(&mut sizes);
    let agrees = v.shape().len() == S2::RANK
        && sizes
            .iter()
            .zip(v.shape())
            .all(|(s, &n)| s.is_none_or(|s| s == n));
    if !agrees {
        return Err(Error::invalid(
            op,
            format!(
                "the result's sizes {:?} are not its type's {sizes:?}",
                v.shape()
            ),
        ));
    }
    Ok(Var::from_core(v))
}

/// The tracked CNN ops, for a writable receiver (consumed: the op keeps
/// it) and a kept one (read in place).
macro_rules! cnn_ops {
    ($([$($header:tt)*] [$($r:tt)?] $x:literal;)*) => {$(
        impl $($header)* {
            /// The convolution over the channel axis `C` and the spatial
            /// axes `Sp` (as [`TensorBase::conv`](crate::TensorBase::conv):
            /// NCHW and NHWC alike, the output's sizes in its type), recorded:
            /// the input, the weight `[out, in / groups, kernel...]` and the
            /// bias `[out]` get gradients. Keeps the input and the weight.
            ///
            /// # Errors
            /// A `Dyn` size that does not fit (PyTorch's message).
            ///
            /// ```
            /// use axial::prelude::*;
            /// use axial::autograd::Param;
            /// axes!(Batch, Channels, Rows, Cols);
            /// let a = Tensor::<f64, shape![Batch: 1, Channels: 1, Rows: 3, Cols: 3]>::ones();
            /// let w = Param::new(Tensor::<f64, shape![2, 1, 2, 2]>::ones());
            /// let b = Param::new(Tensor::<f64, shape![2]>::zeros());
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_conv(Channels, (Rows, Cols), &w.var(), Some(&b.var()), Conv::<1>)?;
            /// assert_eq!(y.value().sizes().as_slice(), &[1, 2, 2, 2]);
            /// let grads = y.sum_all().backward();
            /// assert_eq!(grads.of_param(&w).unwrap().to_vec(), vec![4.0; 8]); // 4 windows of ones
            /// assert_eq!(grads.of_param(&b).unwrap().to_vec(), vec![4.0, 4.0]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            #[allow(clippy::type_complexity)]
            pub fn try_conv<C, Sp, Wt, Rl>(
                $($r)? self,
                channel: C,
                spatial: Sp,
                weight: &Var<'g, T, Wt, Cpu, Kept>,
                bias: Option<&Var<'g, T, <S as ConvShape<C, Sp, Wt, Rl>>::Bias, Cpu, Kept>>,
                rule: Rl,
            ) -> Result<Var<'g, T, <S as ConvShape<C, Sp, Wt, Rl>>::Output, Cpu>>
            where
                S: ConvShape<C, Sp, Wt, Rl>,
                Wt: Shape,
                Rl: ConvRule,
            {
                let _ = (channel, spatial, rule);
                let x = self.core()?;
                let w = weight.core()?;
                let b = bias.map(Var::core).transpose()?;
                let positions = S::spatial();
                let o = conv_options::<Rl>(x.shape(), &positions, &w.shape()[2..]);
                let axes = ConvAxes::new(S::CHANNEL, &positions);
                typed("conv", x.conv_axes(&w, b.as_deref(), &axes, &o)?)
            }

            /// The convolution over the channel axis `C` and the spatial axes `Sp`.
            ///
            /// # Panics
            /// As [`try_conv`](Self::try_conv), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Channels, Time);
            /// let a = Tensor::<f64, shape![Channels: 1, Time: 3]>::from_array([[1.0, 2.0, 3.0]]);
            /// let w = Tensor::<f64, shape![1, 1, 2]>::from_array([[[1.0, -1.0]]]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.conv(Channels, (Time,), &w.track(), None, Conv::<1>);
            /// assert_eq!(y.value().to_vec(), vec![-1.0, -1.0]);
            /// ```
            #[track_caller]
            #[allow(clippy::type_complexity)]
            pub fn conv<C, Sp, Wt, Rl>(
                $($r)? self,
                channel: C,
                spatial: Sp,
                weight: &Var<'g, T, Wt, Cpu, Kept>,
                bias: Option<&Var<'g, T, <S as ConvShape<C, Sp, Wt, Rl>>::Bias, Cpu, Kept>>,
                rule: Rl,
            ) -> Var<'g, T, <S as ConvShape<C, Sp, Wt, Rl>>::Output, Cpu>
            where
                S: ConvShape<C, Sp, Wt, Rl>,
                Wt: Shape,
                Rl: ConvRule,
            {
                or_panic(self.try_conv(channel, spatial, weight, bias, rule))
            }

            /// The transposed convolution over the channel axis `C` and
            /// the spatial axes `Sp` (as
            /// [`TensorBase::conv_transpose`](crate::TensorBase::conv_transpose)),
            /// recorded: the input, the weight `[in, out / groups,
            /// kernel...]` and the bias `[out]` get gradients. Keeps the
            /// input and the weight.
            ///
            /// # Errors
            /// A `Dyn` size for which the output would have no element.
            ///
            /// ```
            /// use axial::prelude::*;
            /// use axial::autograd::Param;
            /// axes!(Channels, Time);
            /// let a = Tensor::<f64, shape![Channels: 1, Time: 2]>::from_array([[1.0, 2.0]]);
            /// let w = Param::new(Tensor::<f64, shape![1, 1, 3]>::from_array([[[1.0, 10.0, 100.0]]]));
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_conv_transpose(Channels, (Time,), &w.var(), None, ConvT::<2>)?;
            /// assert_eq!(y.value().to_vec(), vec![1.0, 10.0, 102.0, 20.0, 200.0]);
            /// let grads = y.sum_all().backward();
            /// assert_eq!(grads.of_param(&w).unwrap().to_vec(), vec![3.0; 3]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            #[allow(clippy::type_complexity)]
            pub fn try_conv_transpose<C, Sp, Wt, Rl>(
                $($r)? self,
                channel: C,
                spatial: Sp,
                weight: &Var<'g, T, Wt, Cpu, Kept>,
                bias: Option<&Var<'g, T, <S as ConvTShape<C, Sp, Wt, Rl>>::Bias, Cpu, Kept>>,
                rule: Rl,
            ) -> Result<Var<'g, T, <S as ConvTShape<C, Sp, Wt, Rl>>::Output, Cpu>>
            where
                S: ConvTShape<C, Sp, Wt, Rl>,
                Wt: Shape,
                Rl: ConvRule,
            {
                let _ = (channel, spatial, rule);
                let x = self.core()?;
                let w = weight.core()?;
                let b = bias.map(Var::core).transpose()?;
                let positions = S::spatial();
                let o = conv_options::<Rl>(x.shape(), &positions, &w.shape()[2..]);
                let axes = ConvAxes::new(S::CHANNEL, &positions);
                typed("conv_transpose", x.conv_transpose_axes(&w, b.as_deref(), &axes, &o)?)
            }

            /// The transposed convolution over the channel axis `C` and
            /// the spatial axes `Sp`, recorded.
            ///
            /// # Panics
            /// As [`try_conv_transpose`](Self::try_conv_transpose), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Channels, Time);
            /// let a = Tensor::<f64, shape![Channels: 1, Time: 2]>::from_array([[1.0, 2.0]]);
            /// let w = Tensor::<f64, shape![1, 1, 3]>::from_array([[[1.0, 10.0, 100.0]]]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.conv_transpose(Channels, (Time,), &w.track(), None, ConvT::<2>);
            /// assert_eq!(y.value().to_vec(), vec![1.0, 10.0, 102.0, 20.0, 200.0]);
            /// ```
            #[track_caller]
            #[allow(clippy::type_complexity)]
            pub fn conv_transpose<C, Sp, Wt, Rl>(
                $($r)? self,
                channel: C,
                spatial: Sp,
                weight: &Var<'g, T, Wt, Cpu, Kept>,
                bias: Option<&Var<'g, T, <S as ConvTShape<C, Sp, Wt, Rl>>::Bias, Cpu, Kept>>,
                rule: Rl,
            ) -> Var<'g, T, <S as ConvTShape<C, Sp, Wt, Rl>>::Output, Cpu>
            where
                S: ConvTShape<C, Sp, Wt, Rl>,
                Wt: Shape,
                Rl: ConvRule,
            {
                or_panic(self.try_conv_transpose(channel, spatial, weight, bias, rule))
            }

            /// Max pooling over the axes `Sp` under the rule `rule` (as
            /// [`TensorBase::max_pool`](crate::TensorBase::max_pool)),
            /// recorded: each output's gradient goes to the element whose
            /// index the forward returns (the first maximum: PyTorch's tie
            /// rule). Keeps its input.
            ///
            /// # Errors
            /// A `Dyn` size the window does not fit, with PyTorch's message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Time);
            /// let a = Tensor::<f64, shape![Time: 4]>::from_array([1.0, 3.0, 3.0, 2.0]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_max_pool((Time,), Pool::<2, 1>)?; // [3, 3, 3]
            /// let g = y.sum_all().backward().of(&av).unwrap();
            /// assert_eq!(g.to_vec(), vec![0.0, 2.0, 1.0, 0.0]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_max_pool<Sp, Rl: PoolRule>(
                $($r)? self,
                spatial: Sp,
                rule: Rl,
            ) -> Result<Var<'g, T, <S as PoolShape<Sp, Rl>>::Output, Cpu>>
            where
                S: PoolShape<Sp, Rl>,
            {
                let _ = (spatial, rule);
                let positions = S::spatial();
                let o = pool_options::<Rl>(positions.len());
                typed("max_pool", self.core()?.max_pool_axes(&positions, &o)?)
            }

            /// Max pooling over the axes `Sp`.
            ///
            /// # Panics
            /// As [`try_max_pool`](Self::try_max_pool), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Rows, Cols);
            /// let a = Tensor::<f32, shape![Rows: 2, Cols: 2]>::arange();
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// assert_eq!(x.max_pool((Rows, Cols), Pool::<2>).value().to_vec(), vec![3.0]);
            /// ```
            #[track_caller]
            pub fn max_pool<Sp, Rl: PoolRule>(
                $($r)? self,
                spatial: Sp,
                rule: Rl,
            ) -> Var<'g, T, <S as PoolShape<Sp, Rl>>::Output, Cpu>
            where
                S: PoolShape<Sp, Rl>,
            {
                or_panic(self.try_max_pool(spatial, rule))
            }

            /// Average pooling over the axes `Sp` under the rule `rule`,
            /// dividing by the window with its padding (`count_include_pad`)
            /// or without, or by `divisor` (as
            /// [`TensorBase::try_avg_pool_with`](crate::TensorBase::try_avg_pool_with)),
            /// recorded. Keeps its input.
            ///
            /// # Errors
            /// A `Dyn` size the window does not fit, with PyTorch's message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Time);
            /// let a = Tensor::<f64, shape![Time: 3]>::from_array([2.0, 4.0, 6.0]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_avg_pool_with((Time,), Pool::<2, 2, 1>, false, None)?; // [2, 5]
            /// let g = y.sum_all().backward().of(&av).unwrap();
            /// assert_eq!(g.to_vec(), vec![1.0, 0.5, 0.5]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_avg_pool_with<Sp, Rl: PoolRule>(
                $($r)? self,
                spatial: Sp,
                rule: Rl,
                count_include_pad: bool,
                divisor: Option<usize>,
            ) -> Result<Var<'g, T, <S as PoolShape<Sp, Rl>>::Output, Cpu>>
            where
                S: PoolShape<Sp, Rl>,
            {
                let _ = (spatial, rule);
                let positions = S::spatial();
                let o = pool_options::<Rl>(positions.len())
                    .count_include_pad(count_include_pad)
                    .divisor_override(divisor);
                typed("avg_pool", self.core()?.avg_pool_axes(&positions, &o)?)
            }

            /// Average pooling over the axes `Sp` (the padding counted).
            ///
            /// # Panics
            /// As [`try_avg_pool_with`](Self::try_avg_pool_with), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Time);
            /// let a = Tensor::<f64, shape![Time: 4]>::from_array([1.0, 3.0, 5.0, 7.0]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// assert_eq!(x.avg_pool((Time,), Pool::<2>).value().to_vec(), vec![2.0, 6.0]);
            /// ```
            #[track_caller]
            pub fn avg_pool<Sp, Rl: PoolRule>(
                $($r)? self,
                spatial: Sp,
                rule: Rl,
            ) -> Var<'g, T, <S as PoolShape<Sp, Rl>>::Output, Cpu>
            where
                S: PoolShape<Sp, Rl>,
            {
                or_panic(self.try_avg_pool_with(spatial, rule, true, None))
            }

            /// Adaptive average pooling of the axes `Sp` to the static sizes
            /// `Out` (as
            /// [`TensorBase::try_adaptive_avg_pool`](crate::TensorBase::try_adaptive_avg_pool)),
            /// recorded. Keeps its input.
            ///
            /// # Errors
            /// An empty pooled axis.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Time);
            /// let a = Tensor::<f64, shape![Time: 4]>::from_array([1.0, 2.0, 3.0, 4.0]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_adaptive_avg_pool((Time,), (Sz::<2>,))?;
            /// assert_eq!(y.value().to_vec(), vec![1.5, 3.5]);
            /// assert_eq!(y.sum_all().backward().of(&av).unwrap().to_vec(), vec![0.5; 4]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_adaptive_avg_pool<Sp, Out>(
                $($r)? self,
                spatial: Sp,
                out: Out,
            ) -> Result<Var<'g, T, <S as AdaptiveShape<Sp, Out>>::Output, Cpu>>
            where
                S: AdaptiveShape<Sp, Out>,
            {
                let _ = (spatial, out);
                let y = self.core()?.adaptive_avg_pool_axes(&S::spatial(), &S::sizes())?;
                typed("adaptive_avg_pool", y)
            }

            /// Adaptive max pooling of the axes `Sp` to the sizes `Out`
            /// (PyTorch's windows), recorded: each output's gradient goes
            /// to its maximum (the first of equal ones), summed where
            /// windows overlap. Keeps its input and the indices, as PyTorch
            /// does (`AdaptiveMaxPool2DBackward0`).
            ///
            /// # Errors
            /// An empty pooled axis.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Time);
            /// let a = Tensor::<f64, shape![Time: 5]>::from_array([1.0, 9.0, 3.0, 4.0, 2.0]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_adaptive_max_pool((Time,), (Sz::<2>,))?; // windows 0..3, 2..5
            /// assert_eq!(y.value().to_vec(), vec![9.0, 4.0]);
            /// let g = y.sum_all().backward().of(&av).unwrap();
            /// assert_eq!(g.to_vec(), vec![0.0, 1.0, 0.0, 1.0, 0.0]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_adaptive_max_pool<Sp, Out>(
                $($r)? self,
                spatial: Sp,
                out: Out,
            ) -> Result<Var<'g, T, <S as AdaptiveShape<Sp, Out>>::Output, Cpu>>
            where
                S: AdaptiveShape<Sp, Out>,
            {
                let _ = (spatial, out);
                let y = self.core()?.adaptive_max_pool_axes(&S::spatial(), &S::sizes())?;
                typed("adaptive_max_pool", y)
            }

            /// The mean over the whole of the axes `Sp`, which leave the
            /// shape (global average pooling by name, `[N, C, H, W]` to `[N,
            /// C]`), recorded. Keeps its input.
            ///
            /// # Errors
            /// An empty pooled axis.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Channels, Rows, Cols);
            /// let a = Tensor::<f64, shape![Channels: 1, Rows: 2, Cols: 2]>::arange();
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_global_avg_pool((Rows, Cols))?; // shape![Channels: 1]
            /// assert_eq!(y.value().to_vec(), vec![1.5]);
            /// assert_eq!(y.sum_all().backward().of(&av).unwrap().to_vec(), vec![0.25; 4]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_global_avg_pool<Sp>(
                $($r)? self,
                spatial: Sp,
            ) -> Result<Var<'g, T, <S as GlobalShape<Sp>>::Output, Cpu>>
            where
                S: GlobalShape<Sp>,
            {
                let _ = spatial;
                let positions = S::spatial();
                let pooled = self
                    .core()?
                    .adaptive_avg_pool_axes(&positions, &vec![1; positions.len()])?;
                let dims: Vec<isize> = positions.iter().map(|&p| p as isize).collect();
                typed("global_avg_pool", pooled.squeeze_dims(&dims)?)
            }

            /// The mean over the whole of the axes `Sp`.
            ///
            /// # Panics
            /// As [`try_global_avg_pool`](Self::try_global_avg_pool), with its message.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Channels, Rows);
            /// let a = Tensor::<f32, shape![Channels: 2, Rows: 2]>::ones();
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// assert_eq!(x.global_avg_pool((Rows,)).value().to_vec(), vec![1.0, 1.0]);
            /// ```
            #[track_caller]
            pub fn global_avg_pool<Sp>(
                $($r)? self,
                spatial: Sp,
            ) -> Var<'g, T, <S as GlobalShape<Sp>>::Output, Cpu>
            where
                S: GlobalShape<Sp>,
            {
                or_panic(self.try_global_avg_pool(spatial))
            }

            /// Batch normalisation in training mode over the channel axis
            /// `C` (any layout): each channel normalised by its mean and
            /// biased variance in this batch, then `· weight + bias` (each
            /// `[C]`); the running statistics, when given, move by
            /// `momentum` towards the batch's (the variance unbiased), as
            /// PyTorch's. Recorded; keeps the input and the weight.
            ///
            /// # Errors
            /// One value per channel (PyTorch's "Expected more than 1 value
            /// per channel when training").
            ///
            /// ```
            /// use axial::prelude::*;
            /// use axial::autograd::Param;
            /// axes!(Batch, Channels);
            /// let a = Tensor::<f64, shape![Batch: 2, Channels: 1]>::from_array([[1.0], [3.0]]);
            /// let b = Param::new(Tensor::<f64, shape![Channels: 1]>::zeros());
            /// let (mut mean, mut var) = (Tensor::zeros(), Tensor::ones());
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_batch_norm_train(Channels, None, Some(&b.var()), Some((&mut mean, &mut var)), 0.5, 0.0)?;
            /// assert_eq!(y.value().to_vec(), vec![-1.0, 1.0]);
            /// assert_eq!(y.sum_all().backward().of_param(&b).unwrap().to_vec(), vec![2.0]);
            /// assert_eq!((mean.to_vec(), var.to_vec()), (vec![1.0], vec![1.5]));
            /// # Ok::<(), axial::Error>(())
            /// ```
            #[allow(clippy::type_complexity)]
            pub fn try_batch_norm_train<C>(
                $($r)? self,
                channel: C,
                weight: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                bias: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                running: Option<(&mut Tensor<T, AxisOf<S, C>>, &mut Tensor<T, AxisOf<S, C>>)>,
                momentum: f64,
                eps: f64,
            ) -> Result<Var<'g, T, S, Cpu>>
            where
                S: HasAxis<C>,
                AxisOf<S, C>: Shape,
            {
                let _ = channel;
                let w = weight.map(Var::core).transpose()?;
                let b = bias.map(Var::core).transpose()?;
                let x = self.core()?;
                let y = match running {
                    Some((m, v)) => {
                        let (mut m, mut v) = (m.raw_mut(), v.raw_mut());
                        x.batch_norm_train(S::POS, w.as_deref(), b.as_deref(), Some((&mut m, &mut v)), momentum, eps)?
                    }
                    None => x.batch_norm_train(S::POS, w.as_deref(), b.as_deref(), None, momentum, eps)?,
                };
                Ok(Var::from_core(y))
            }

            /// Group normalisation by name (as
            /// [`TensorBase::try_group_norm`](crate::TensorBase::try_group_norm):
            /// the channel axis `C` split into `G` groups, each normalised
            /// over its channels and the axes `Sp` for every index of the
            /// other axes, the variance biased; then `· weight + bias`, each
            /// `[C]`), recorded as the ops it is made of. Keeps its input.
            ///
            /// # Errors
            /// A `Dyn` channel count that `G` does not divide.
            ///
            /// ```
            /// use axial::prelude::*;
            /// use axial::autograd::Param;
            /// axes!(Batch, Channels, Rows);
            /// let a = Tensor::<f64, shape![Batch: 1, Channels: 4, Rows: 1]>::from_array([[[1.0], [3.0], [10.0], [30.0]]]);
            /// let b = Param::new(Tensor::<f64, shape![Channels: 4]>::zeros());
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_group_norm(Channels, (Rows,), Sz::<2>, None, Some(&b.var()), 0.0)?;
            /// assert_eq!(y.value().to_vec(), vec![-1.0, 1.0, -1.0, 1.0]);
            /// assert_eq!(y.sum_all().backward().of_param(&b).unwrap().to_vec(), vec![1.0; 4]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            #[allow(clippy::type_complexity, clippy::too_many_arguments)]
            pub fn try_group_norm<C, Sp, G>(
                $($r)? self,
                channel: C,
                spatial: Sp,
                groups: G,
                weight: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                bias: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                eps: f64,
            ) -> Result<Var<'g, T, S, Cpu>>
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
                let w = weight.map(Var::core).transpose()?;
                let b = bias.map(Var::core).transpose()?;
                let y = self.core()?.group_norm_axes(S::POS, &positions, g, w.as_deref(), b.as_deref(), eps)?;
                Ok(Var::from_core(y))
            }

            /// Instance normalisation by name: each channel of the channel
            /// axis `C` normalised over the axes `Sp` for every index of the
            /// other axes (group norm with one channel per group), then `·
            /// weight + bias`; recorded. Keeps its input. No running
            /// statistics (PyTorch's default, `track_running_stats=False`;
            /// with them: [`try_instance_norm_train`](Self::try_instance_norm_train)).
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Batch, Channels, Time);
            /// let a = Tensor::<f64, shape![Batch: 1, Channels: 2, Time: 2]>::from_array([[[1.0, 3.0], [5.0, 9.0]]]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_instance_norm(Channels, (Time,), None, None, 0.0)?;
            /// assert_eq!(y.value().to_vec(), vec![-1.0, 1.0, -1.0, 1.0]);
            /// let g = (y * 2.0).square().sum_all().backward().of(&av).unwrap();
            /// assert!(g.to_vec().iter().all(|v| v.abs() < 1e-12)); // normalised: no change moves it
            /// # Ok::<(), axial::Error>(())
            /// ```
            #[allow(clippy::type_complexity)]
            pub fn try_instance_norm<C, Sp>(
                $($r)? self,
                channel: C,
                spatial: Sp,
                weight: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                bias: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                eps: f64,
            ) -> Result<Var<'g, T, S, Cpu>>
            where
                S: HasAxis<C> + GlobalShape<Sp>,
                AxisOf<S, C>: Shape,
            {
                let _ = (channel, spatial);
                let c = self.layout.shape()[S::POS].max(1);
                let positions = <S as GlobalShape<Sp>>::spatial();
                let w = weight.map(Var::core).transpose()?;
                let b = bias.map(Var::core).transpose()?;
                let y = self.core()?.group_norm_axes(S::POS, &positions, c, w.as_deref(), b.as_deref(), eps)?;
                Ok(Var::from_core(y))
            }

            /// Instance normalisation in training with running statistics
            /// (PyTorch's `InstanceNorm` with `track_running_stats=True`):
            /// as [`try_instance_norm`](Self::try_instance_norm), recorded,
            /// and `running` (mean, variance; each `[C]`) moved by
            /// `momentum` towards the batch's average of the instances'
            /// means and unbiased variances. In eval mode such a layer
            /// normalises by the running statistics:
            /// [`try_batch_norm_eval`](Self::try_batch_norm_eval).
            ///
            /// # Errors
            /// One element per instance (PyTorch's "Expected more than 1
            /// spatial element when training").
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Batch, Channels, Time);
            /// let a = Tensor::<f64, shape![Batch: 1, Channels: 2, Time: 2]>::from_array([[[1.0, 3.0], [5.0, 9.0]]]);
            /// let (mut mean, mut var) = (Tensor::zeros(), Tensor::ones());
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_instance_norm_train(Channels, (Time,), None, None, (&mut mean, &mut var), 0.5, 0.0)?;
            /// assert_eq!(y.value().to_vec(), vec![-1.0, 1.0, -1.0, 1.0]);
            /// assert_eq!((mean.to_vec(), var.to_vec()), (vec![1.0, 3.5], vec![1.5, 4.5]));
            /// # Ok::<(), axial::Error>(())
            /// ```
            #[allow(clippy::type_complexity, clippy::too_many_arguments)]
            pub fn try_instance_norm_train<C, Sp>(
                $($r)? self,
                channel: C,
                spatial: Sp,
                weight: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                bias: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                running: (&mut Tensor<T, AxisOf<S, C>>, &mut Tensor<T, AxisOf<S, C>>),
                momentum: f64,
                eps: f64,
            ) -> Result<Var<'g, T, S, Cpu>>
            where
                S: HasAxis<C> + GlobalShape<Sp>,
                AxisOf<S, C>: Shape,
            {
                let _ = (channel, spatial);
                let positions = <S as GlobalShape<Sp>>::spatial();
                let w = weight.map(Var::core).transpose()?;
                let b = bias.map(Var::core).transpose()?;
                let (m, v) = running;
                let stats = Some((&mut m.raw_mut(), &mut v.raw_mut()));
                let y = self.core()?.instance_norm_axes(S::POS, &positions, w.as_deref(), b.as_deref(), stats, momentum, eps)?;
                Ok(Var::from_core(y))
            }

            /// Batch normalisation with running statistics (eval mode) over
            /// the channel axis `C`: `(x − mean)/√(var + eps)·weight + bias`,
            /// recorded (the statistics are constants).
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// axes!(Batch, Channels);
            /// let a = Tensor::<f64, shape![Batch: 1, Channels: 2]>::from_array([[4.0, 6.0]]);
            /// let mean = Tensor::<f64, shape![Channels: 2]>::zeros();
            /// let var = Tensor::<f64, shape![Channels: 2]>::from_array([4.0, 9.0]);
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_batch_norm_eval(Channels, mean.as_view(), var.as_view(), None, None, 0.0)?;
            /// assert_eq!(y.value().to_vec(), vec![2.0, 2.0]);
            /// assert_eq!(y.sum_all().backward().of(&av).unwrap().to_vec(), vec![0.5, 1.0 / 3.0]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            #[allow(clippy::type_complexity)]
            pub fn try_batch_norm_eval<C>(
                $($r)? self,
                channel: C,
                mean: TensorView<'_, T, AxisOf<S, C>>,
                var: TensorView<'_, T, AxisOf<S, C>>,
                weight: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                bias: Option<&Var<'g, T, AxisOf<S, C>, Cpu, Kept>>,
                eps: f64,
            ) -> Result<Var<'g, T, S, Cpu>>
            where
                S: HasAxis<C>,
                AxisOf<S, C>: Shape,
            {
                let _ = channel;
                let w = weight.map(Var::core).transpose()?;
                let b = bias.map(Var::core).transpose()?;
                let y = self.core()?.batch_norm_eval(
                    S::POS,
                    &mean.raw(),
                    &var.raw(),
                    w.as_deref(),
                    b.as_deref(),
                    eps,
                )?;
                Ok(Var::from_core(y))
            }

            /// `x` where positive, `weight · x` elsewhere, the weight one
            /// value per index of the channel axis `C` (PyTorch's `prelu`,
            /// by name), recorded. Keeps the input and the weight.
            ///
            /// # Errors
            /// A failure of the device.
            ///
            /// ```
            /// use axial::prelude::*;
            /// use axial::autograd::Param;
            /// axes!(Time, Channels);
            /// let a = Tensor::<f64, shape![Time: 2, Channels: 2]>::from_array([[-2.0, 1.0], [-1.0, -4.0]]);
            /// let w = Param::new(Tensor::<f64, shape![Channels: 2]>::from_array([0.5, 0.25]));
            /// let av = a.track();
            #[doc = concat!("let x = ", $x, ";")]
            /// let y = x.try_prelu(Channels, &w.var())?;
            /// assert_eq!(y.value().to_vec(), vec![-1.0, 1.0, -0.5, -1.0]);
            /// assert_eq!(y.sum_all().backward().of_param(&w).unwrap().to_vec(), vec![-3.0, -4.0]);
            /// # Ok::<(), axial::Error>(())
            /// ```
            pub fn try_prelu<C>(
                $($r)? self,
                channel: C,
                weight: &Var<'g, T, AxisOf<S, C>, Cpu, Kept>,
            ) -> Result<Var<'g, T, S, Cpu>>
            where
                S: HasAxis<C>,
                AxisOf<S, C>: Shape,
            {
                let _ = channel;
                let w = weight.core()?;
                let x = self.core()?;
                let pos = S::POS as isize;
                let y = match S::POS == 1 {
                    true => x.prelu(&w)?,
                    false if S::RANK == 1 => x.unsqueeze(0)?.prelu(&w)?.squeeze_dims(&[0])?,
                    false => x.movedim(&[pos], &[1])?.prelu(&w)?.movedim(&[1], &[pos])?,
                };
                Ok(Var::from_core(y))
            }
        }
    )*};
}

cnn_ops! {
    [<'g, T: Float, S: Shape> Var<'g, T, S, Cpu, Writable>] [] "&av * 1.0";
    [<'g, T: Float, S: Shape> Var<'g, T, S, Cpu, Kept>] [&] "av.as_kept()";
}

impl<T: Float, S: Shape, R: crate::repr::Data<Cpu>> crate::tensor::TensorBase<T, S, Cpu, R> {
    /// The convolution of this untracked input (data) by a tracked weight
    /// and bias, over the channel axis `C` and the spatial axes `Sp`: the
    /// input is kept for the weight's gradient, so the output borrows it;
    /// no gradient is computed for it.
    ///
    /// # Errors
    /// As [`Var::try_conv`].
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::Param;
    /// axes!(Channels, Time);
    /// let x = Tensor::<f64, shape![Channels: 1, Time: 3]>::from_array([[1.0, 2.0, 3.0]]);
    /// let w = Param::new(Tensor::<f64, shape![1, 1, 2]>::ones());
    /// let grads = x.try_conv_tracked(Channels, (Time,), &w.var(), None, Conv::<1>)?.sum_all().backward();
    /// assert_eq!(grads.of_param(&w).unwrap().to_vec(), vec![3.0, 5.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_conv_tracked<'a, 'g: 'a, C, Sp, Wt, Rl>(
        &'a self,
        channel: C,
        spatial: Sp,
        weight: &Var<'g, T, Wt, Cpu, Kept>,
        bias: Option<&Var<'g, T, <S as ConvShape<C, Sp, Wt, Rl>>::Bias, Cpu, Kept>>,
        rule: Rl,
    ) -> Result<Var<'a, T, <S as ConvShape<C, Sp, Wt, Rl>>::Output, Cpu>>
    where
        S: ConvShape<C, Sp, Wt, Rl>,
        Wt: Shape,
        Rl: ConvRule,
    {
        let _ = (channel, spatial, rule);
        let x = CoreVar::constant_ref(self.raw());
        let w = weight.core()?;
        let b = bias.map(Var::core).transpose()?;
        let positions = S::spatial();
        let o = conv_options::<Rl>(x.shape(), &positions, &w.shape()[2..]);
        let axes = ConvAxes::new(S::CHANNEL, &positions);
        typed("conv", x.conv_axes(&w, b.as_deref(), &axes, &o)?)
    }

    /// The convolution of this untracked input by a tracked weight.
    ///
    /// # Panics
    /// As [`try_conv_tracked`](Self::try_conv_tracked), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels, Time);
    /// let x = Tensor::<f64, shape![Channels: 1, Time: 2]>::from_array([[1.0, 2.0]]);
    /// let w = Tensor::<f64, shape![1, 1, 1]>::full(3.0);
    /// assert_eq!(x.conv_tracked(Channels, (Time,), &w.track(), None, Conv::<1>).value().to_vec(), vec![3.0, 6.0]);
    /// ```
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn conv_tracked<'a, 'g: 'a, C, Sp, Wt, Rl>(
        &'a self,
        channel: C,
        spatial: Sp,
        weight: &Var<'g, T, Wt, Cpu, Kept>,
        bias: Option<&Var<'g, T, <S as ConvShape<C, Sp, Wt, Rl>>::Bias, Cpu, Kept>>,
        rule: Rl,
    ) -> Var<'a, T, <S as ConvShape<C, Sp, Wt, Rl>>::Output, Cpu>
    where
        S: ConvShape<C, Sp, Wt, Rl>,
        Wt: Shape,
        Rl: ConvRule,
    {
        or_panic(self.try_conv_tracked(channel, spatial, weight, bias, rule))
    }
}
