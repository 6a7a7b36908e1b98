//! Convolutions by axis name: the channel axis and the spatial axes are
//! named, so NCHW and NHWC tensors are the same op, read where they lie.
//! The hyper-parameters are types ([`Conv`], [`Same`], [`TfSame`],
//! [`ConvT`]), so each output length is in the result's type; the in-channels,
//! the groups and each kernel are checked while compiling (see
//! [`axial_shape::conv`]).

use axial_core::nn::{ConvAxes, ConvOptions, Padding, PaddingMode};
use axial_core::{Backend, Device, Error, RawTensor, Result};
use axial_shape::Shape;
use axial_shape::conv::{AxisPad, ConvRule, ConvShape, ConvTShape, Mode};

use crate::access::owned;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase, TensorView};

#[cfg(doc)]
use axial_shape::conv::{Conv, ConvT, Same, TfSame};

/// `raw` as a tensor of `S2`, after checking that its sizes are the ones
/// the type computed while compiling.
pub(crate) fn typed<T, S2: Shape, D: Device>(
    op: &'static str,
    raw: RawTensor<D>,
) -> Result<Tensor<T, S2, D>> {
    let mut sizes = vec![None; S2::RANK];
    S2::write_static_sizes(&mut sizes);
    let agrees = raw.shape().len() == S2::RANK
        && sizes
            .iter()
            .zip(raw.shape())
            .all(|(s, &n)| s.is_none_or(|s| s == n));
    if !agrees {
        return Err(Error::invalid(
            op,
            format!(
                "the result's sizes {:?} are not its type's {sizes:?}",
                raw.shape()
            ),
        ));
    }
    Ok(owned(raw))
}

/// The run-time options of the rule `R` over the spatial dims of `x` with
/// kernel sizes `kernel`: each axis padded per side (TensorFlow's `SAME`
/// resolved from the input's length).
pub(crate) fn conv_options<R: ConvRule>(
    x: &[usize],
    spatial: &[usize],
    kernel: &[usize],
) -> ConvOptions {
    let n = spatial.len();
    let axes: Vec<_> = (0..n).map(R::axis).collect();
    let sides = (0..n)
        .map(|i| {
            let a = &axes[i];
            let k = kernel.get(i).copied().unwrap_or(1);
            let extent = a.dilation * k.saturating_sub(1);
            match a.pad {
                AxisPad::Both(p) => (p, p),
                AxisPad::Same => (extent / 2, extent - extent / 2),
                AxisPad::TfSame => {
                    let len = x[spatial[i]];
                    let out = len.div_ceil(a.stride.max(1));
                    let total = ((out.max(1) - 1) * a.stride + extent + 1).saturating_sub(len);
                    (total / 2, total - total / 2)
                }
            }
        })
        .collect();
    ConvOptions::new()
        .stride(&axes.iter().map(|a| a.stride).collect::<Vec<_>>())
        .dilation(&axes.iter().map(|a| a.dilation).collect::<Vec<_>>())
        .output_padding(&axes.iter().map(|a| a.output_padding).collect::<Vec<_>>())
        .padding(Padding::Sides(sides))
        .groups(R::GROUPS)
        .padding_mode(match R::MODE {
            Mode::Zeros => PaddingMode::Zeros,
            Mode::Reflect => PaddingMode::Reflect,
            Mode::Replicate => PaddingMode::Replicate,
            Mode::Circular => PaddingMode::Circular,
        })
}

impl<T: Float, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// The convolution of this tensor over its channel axis `C` and its
    /// spatial axes `Sp` (`(L,)`, `(H, W)` or `(D, H, W)`, named in any order
    /// of the tensor's axes: NCHW and NHWC alike, no copy), by a weight
    /// `[out, in / groups, kernel...]` (PyTorch's layout; its axes' names
    /// are free) and a bias `[out]`, under the rule `rule` ([`Conv`],
    /// [`Same`], [`TfSame`], or a tuple with one per axis). The result
    /// keeps this tensor's axes: the channel axis of size `out`, each
    /// spatial axis of its output length, computed while compiling for
    /// static sizes ([`ConvShape`]).
    ///
    /// Compile errors: in-channels times groups that are not the input's
    /// channels, groups that do not divide `out`, a kernel larger than its
    /// padded axis, an axis the tensor lacks.
    ///
    /// # Errors
    /// A `Dyn` size that does not fit, with PyTorch's message ("Calculated
    /// padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel
    /// size can't be greater than actual input size").
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Rows, Cols, Channels);
    /// // An NHWC batch, convolved by name: 3×3, stride 2, padding 1.
    /// let x = Tensor::<f32, shape![Batch: 2, Rows: 8, Cols: 8, Channels: 3]>::ones();
    /// let w = Tensor::<f32, shape![4, 3, 3, 3]>::full(1.0);
    /// let y = x.try_conv(Channels, (Rows, Cols), &w, None, Conv::<2, 1>)?;
    /// // Tensor<f32, shape![Batch: 2, Rows: 4, Cols: 4, Channels: 4]>
    /// assert_eq!(y.sizes().as_slice(), &[2, 4, 4, 4]);
    /// assert_eq!(y.get([0, 1, 1, 0]), 27.0); // an inner window: 3·3·3 ones
    /// assert_eq!(y.get([0, 0, 0, 0]), 12.0); // a corner: 2·2·3
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_conv<C, Sp, W, Rl, R2>(
        &self,
        channel: C,
        spatial: Sp,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvShape<C, Sp, W, Rl>>::Bias, D>>,
        rule: Rl,
    ) -> Result<Tensor<T, <S as ConvShape<C, Sp, W, Rl>>::Output, D>>
    where
        S: ConvShape<C, Sp, W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        let _ = (channel, spatial, rule);
        self.conv_clamped::<C, Sp, W, Rl, R2>(weight, bias, None)
    }

    /// [`try_conv`](Self::try_conv) with its output clamped to `clamp`
    /// (`(min, max)`) by the kernel as it writes it.
    #[allow(clippy::type_complexity)]
    fn conv_clamped<C, Sp, W, Rl, R2>(
        &self,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvShape<C, Sp, W, Rl>>::Bias, D>>,
        clamp: Option<(f64, f64)>,
    ) -> Result<Tensor<T, <S as ConvShape<C, Sp, W, Rl>>::Output, D>>
    where
        S: ConvShape<C, Sp, W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        let x = self.raw();
        let w = weight.raw();
        let positions = S::spatial();
        let mut o = conv_options::<Rl>(x.shape(), &positions, &w.shape()[2..]);
        o.clamp = clamp;
        let axes = ConvAxes::new(S::CHANNEL, &positions);
        let b = bias.as_ref().map(|b| b.raw());
        let y = x.conv_axes(&w, b.as_ref(), &axes, &o)?;
        typed("conv", y)
    }

    /// [`conv`](Self::conv) followed by [`relu6`](Self::relu6), in one pass
    /// over the output: the kernel clamps each value to `[0, 6]` as it
    /// writes it (MobileNet's and EfficientNet-Lite's convolution block).
    ///
    /// # Errors
    /// As [`try_conv`](Self::try_conv).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Channels);
    /// let x = Tensor::<f32, shape![Rows: 1, Cols: 3, Channels: 1]>::from_array([[[-1.0], [2.0], [9.0]]]);
    /// let w = Tensor::<f32, shape![1, 1, 1, 1]>::ones();
    /// let y = x.try_conv_relu6(Channels, (Rows, Cols), &w, None, Conv::<1>)?;
    /// assert_eq!(y.to_vec(), vec![0.0, 2.0, 6.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_conv_relu6<C, Sp, W, Rl, R2>(
        &self,
        channel: C,
        spatial: Sp,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvShape<C, Sp, W, Rl>>::Bias, D>>,
        rule: Rl,
    ) -> Result<Tensor<T, <S as ConvShape<C, Sp, W, Rl>>::Output, D>>
    where
        S: ConvShape<C, Sp, W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        let _ = (channel, spatial, rule);
        self.conv_clamped::<C, Sp, W, Rl, R2>(weight, bias, Some((0.0, 6.0)))
    }

    /// [`try_conv_relu6`](Self::try_conv_relu6), panicking.
    ///
    /// # Panics
    /// As [`try_conv`](Self::try_conv), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Rows, Cols, Channels);
    /// let x = Tensor::<f32, shape![Batch: 1, Rows: 4, Cols: 4, Channels: 3]>::full(1.0);
    /// let w = Tensor::<f32, shape![8, 3, 3, 3]>::ones();
    /// let y = x.conv_relu6(Channels, (Rows, Cols), &w, None, Same);
    /// assert_eq!(y.get([0, 1, 1, 0]), 6.0); // 27, clamped
    /// ```
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn conv_relu6<C, Sp, W, Rl, R2>(
        &self,
        channel: C,
        spatial: Sp,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvShape<C, Sp, W, Rl>>::Bias, D>>,
        rule: Rl,
    ) -> Tensor<T, <S as ConvShape<C, Sp, W, Rl>>::Output, D>
    where
        S: ConvShape<C, Sp, W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        or_panic(self.try_conv_relu6(channel, spatial, weight, bias, rule))
    }

    /// The convolution over the channel axis `C` and spatial axes `Sp`.
    ///
    /// # Panics
    /// As [`try_conv`](Self::try_conv), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels, Time);
    /// let x = Tensor::<f64, shape![Channels: 1, Time: 5]>::from_array([[1.0, 2.0, 3.0, 4.0, 5.0]]);
    /// let diff = Tensor::<f64, shape![1, 1, 2]>::from_array([[[-1.0, 1.0]]]);
    /// let y = x.conv(Channels, (Time,), &diff, None, Conv::<1>);
    /// assert_eq!(y.to_vec(), vec![1.0; 4]); // shape![Channels: 1, Time: 4]
    /// ```
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn conv<C, Sp, W, Rl, R2>(
        &self,
        channel: C,
        spatial: Sp,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvShape<C, Sp, W, Rl>>::Bias, D>>,
        rule: Rl,
    ) -> Tensor<T, <S as ConvShape<C, Sp, W, Rl>>::Output, D>
    where
        S: ConvShape<C, Sp, W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        or_panic(self.try_conv(channel, spatial, weight, bias, rule))
    }

    /// [`conv`](Self::conv) over one spatial axis (PyTorch's `conv1d`).
    ///
    /// # Panics
    /// As [`try_conv`](Self::try_conv), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels, Time);
    /// let x = Tensor::<f32, shape![Batch: 1, Channels: 2, Time: 6]>::ones();
    /// let w = Tensor::<f32, shape![3, 2, 3]>::ones();
    /// let y = x.conv1d(Channels, Time, &w, None, Conv::<2>); // stride 2
    /// assert_eq!(y.sizes().as_slice(), &[1, 3, 2]);
    /// ```
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn conv1d<C, L, W, Rl, R2>(
        &self,
        channel: C,
        length: L,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvShape<C, (L,), W, Rl>>::Bias, D>>,
        rule: Rl,
    ) -> Tensor<T, <S as ConvShape<C, (L,), W, Rl>>::Output, D>
    where
        S: ConvShape<C, (L,), W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        self.conv(channel, (length,), weight, bias, rule)
    }

    /// [`conv`](Self::conv) over two spatial axes (PyTorch's `conv2d`).
    ///
    /// # Panics
    /// As [`try_conv`](Self::try_conv), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels, Rows, Cols);
    /// let x = Tensor::<f32, shape![Batch: 1, Channels: 3, Rows: 5, Cols: 5]>::ones();
    /// let w = Tensor::<f32, shape![8, 3, 3, 3]>::ones();
    /// let y = x.conv2d(Channels, Rows, Cols, &w, None, Same);
    /// assert_eq!(y.sizes().as_slice(), &[1, 8, 5, 5]);
    /// ```
    #[track_caller]
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    pub fn conv2d<C, H, Wd, W, Rl, R2>(
        &self,
        channel: C,
        rows: H,
        cols: Wd,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvShape<C, (H, Wd), W, Rl>>::Bias, D>>,
        rule: Rl,
    ) -> Tensor<T, <S as ConvShape<C, (H, Wd), W, Rl>>::Output, D>
    where
        S: ConvShape<C, (H, Wd), W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        self.conv(channel, (rows, cols), weight, bias, rule)
    }

    /// [`conv`](Self::conv) over three spatial axes (PyTorch's `conv3d`:
    /// the chapter's CT scans).
    ///
    /// # Panics
    /// As [`try_conv`](Self::try_conv), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels, Depth, Rows, Cols);
    /// let scan = Tensor::<f32, shape![Batch: 1, Channels: 1, Depth: 8, Rows: 16, Cols: 16]>::ones();
    /// let w = Tensor::<f32, shape![4, 1, 3, 3, 3]>::ones();
    /// let y = scan.conv3d(Channels, Depth, Rows, Cols, &w, None, Conv::<2, 1>);
    /// assert_eq!(y.sizes().as_slice(), &[1, 4, 4, 8, 8]);
    /// ```
    #[track_caller]
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    pub fn conv3d<C, Dp, H, Wd, W, Rl, R2>(
        &self,
        channel: C,
        depth: Dp,
        rows: H,
        cols: Wd,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvShape<C, (Dp, H, Wd), W, Rl>>::Bias, D>>,
        rule: Rl,
    ) -> Tensor<T, <S as ConvShape<C, (Dp, H, Wd), W, Rl>>::Output, D>
    where
        S: ConvShape<C, (Dp, H, Wd), W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        self.conv(channel, (depth, rows, cols), weight, bias, rule)
    }

    /// The transposed convolution (PyTorch's `conv_transposeNd`) over the
    /// channel axis `C` and spatial axes `Sp`, by a weight `[in, out /
    /// groups, kernel...]` and a bias `[out]`, under a [`ConvT`] rule: each
    /// spatial axis `(n − 1)·stride − 2·pad + dil·(k − 1) + out_pad + 1`
    /// long ([`ConvTShape`]).
    ///
    /// # Errors
    /// A `Dyn` size for which the output would be shorter than 0 elements.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels, Rows, Cols);
    /// let x = Tensor::<f32, shape![Channels: 2, Rows: 3, Cols: 3]>::ones();
    /// let w = Tensor::<f32, shape![2, 1, 2, 2]>::ones();
    /// let up = x.try_conv_transpose(Channels, (Rows, Cols), &w, None, ConvT::<2>)?;
    /// assert_eq!(up.sizes().as_slice(), &[1, 6, 6]); // doubled
    /// assert_eq!(up.get([0, 5, 5]), 2.0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_conv_transpose<C, Sp, W, Rl, R2>(
        &self,
        channel: C,
        spatial: Sp,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvTShape<C, Sp, W, Rl>>::Bias, D>>,
        rule: Rl,
    ) -> Result<Tensor<T, <S as ConvTShape<C, Sp, W, Rl>>::Output, D>>
    where
        S: ConvTShape<C, Sp, W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        let _ = (channel, spatial, rule);
        let x = self.raw();
        let w = weight.raw();
        let positions = S::spatial();
        let o = conv_options::<Rl>(x.shape(), &positions, &w.shape()[2..]);
        let axes = ConvAxes::new(S::CHANNEL, &positions);
        let b = bias.as_ref().map(|b| b.raw());
        let y = x.conv_transpose_axes(&w, b.as_ref(), &axes, &o)?;
        typed("conv_transpose", y)
    }

    /// The transposed convolution over the channel axis `C` and spatial
    /// axes `Sp`.
    ///
    /// # Panics
    /// As [`try_conv_transpose`](Self::try_conv_transpose), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels, Time);
    /// let x = Tensor::<f32, shape![Channels: 1, Time: 2]>::from_array([[1.0, 2.0]]);
    /// let w = Tensor::<f32, shape![1, 1, 3]>::from_array([[[1.0, 10.0, 100.0]]]);
    /// let y = x.conv_transpose(Channels, (Time,), &w, None, ConvT::<2>);
    /// assert_eq!(y.to_vec(), vec![1.0, 10.0, 102.0, 20.0, 200.0]);
    /// ```
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn conv_transpose<C, Sp, W, Rl, R2>(
        &self,
        channel: C,
        spatial: Sp,
        weight: &TensorBase<T, W, D, R2>,
        bias: Option<TensorView<'_, T, <S as ConvTShape<C, Sp, W, Rl>>::Bias, D>>,
        rule: Rl,
    ) -> Tensor<T, <S as ConvTShape<C, Sp, W, Rl>>::Output, D>
    where
        S: ConvTShape<C, Sp, W, Rl>,
        W: Shape,
        Rl: ConvRule,
        R2: Data<D>,
    {
        or_panic(self.try_conv_transpose(channel, spatial, weight, bias, rule))
    }
}
