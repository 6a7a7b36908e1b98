//! Pooling by axis name: max (with its indices), average, adaptive and
//! global pooling over the axes named, any layout, the output lengths in
//! the result's type ([`PoolShape`], [`AdaptiveShape`], [`GlobalShape`]).

use axial_core::nn::PoolOptions;
use axial_core::{Backend, Cpu, Result};
use axial_shape::Shape;
use axial_shape::conv::{AdaptiveShape, AxisPad, GlobalShape, PoolRule, PoolShape};

use super::conv::typed;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

#[cfg(doc)]
use axial_shape::conv::Pool;

/// The run-time options of the pooling rule `R` over `n` axes.
pub(crate) fn pool_options<R: PoolRule>(n: usize) -> PoolOptions {
    let axes: Vec<_> = (0..n).map(R::axis).collect();
    let padding = axes
        .iter()
        .map(|a| match a.pad {
            AxisPad::Both(p) => p,
            AxisPad::Same | AxisPad::TfSame => 0,
        })
        .collect::<Vec<_>>();
    PoolOptions::new(&axes.iter().map(|a| a.kernel).collect::<Vec<_>>())
        .stride(&axes.iter().map(|a| a.stride).collect::<Vec<_>>())
        .dilation(&axes.iter().map(|a| a.dilation).collect::<Vec<_>>())
        .padding(&padding)
        .ceil_mode(R::CEIL)
}

impl<T: Float, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// Max pooling over the axes `Sp` (one to three, by name, any layout)
    /// under the rule `rule` ([`Pool`], or a tuple of one per axis): each
    /// output is the largest element of its window (NaN wins), the
    /// padding `−∞`. The window must fit once and pad at most half of
    /// itself, checked while compiling for static sizes ([`PoolShape`]).
    ///
    /// # Errors
    /// A `Dyn` size the window does not fit, with PyTorch's message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels, Rows, Cols);
    /// let x = Tensor::<f32, shape![Batch: 1, Channels: 2, Rows: 4, Cols: 4]>::arange();
    /// let y = x.try_max_pool((Rows, Cols), Pool::<2>)?; // shape![Batch: 1, Channels: 2, Rows: 2, Cols: 2]
    /// assert_eq!(y.to_vec(), vec![5.0, 7.0, 13.0, 15.0, 21.0, 23.0, 29.0, 31.0]);
    /// let resnet = x.try_max_pool((Rows, Cols), Pool::<3, 2, 1>)?;
    /// assert_eq!(resnet.sizes().as_slice(), &[1, 2, 2, 2]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_max_pool<Sp, Rl: PoolRule>(
        &self,
        spatial: Sp,
        rule: Rl,
    ) -> Result<Tensor<T, <S as PoolShape<Sp, Rl>>::Output, D>>
    where
        S: PoolShape<Sp, Rl>,
    {
        let _ = (spatial, rule);
        let positions = S::spatial();
        let y = self
            .raw()
            .max_pool_axes(&positions, &pool_options::<Rl>(positions.len()))?;
        typed("max_pool", y)
    }

    /// Max pooling over the axes `Sp`.
    ///
    /// # Panics
    /// As [`try_max_pool`](Self::try_max_pool), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels, Time);
    /// let x = Tensor::<f32, shape![Channels: 1, Time: 5]>::from_array([[1.0, 5.0, 2.0, 4.0, 3.0]]);
    /// let y = x.max_pool((Time,), Pool::<2, 2, 0, 1, true>); // ceil_mode: the last window starts at 4
    /// assert_eq!(y.to_vec(), vec![5.0, 4.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn max_pool<Sp, Rl: PoolRule>(
        &self,
        spatial: Sp,
        rule: Rl,
    ) -> Tensor<T, <S as PoolShape<Sp, Rl>>::Output, D>
    where
        S: PoolShape<Sp, Rl>,
    {
        or_panic(self.try_max_pool(spatial, rule))
    }

    /// Max pooling over the axes `Sp` with the flat index of each maximum
    /// in its plane of the pooled axes (`return_indices=True`: `h·W + w`).
    ///
    /// # Errors
    /// As [`try_max_pool`](Self::try_max_pool).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 2]>::from_array([[1.0, 9.0], [3.0, 4.0]]);
    /// let (y, at) = x.try_max_pool_with_indices((Rows, Cols), Pool::<2>)?;
    /// assert_eq!((y.to_vec(), at.to_vec()), (vec![9.0], vec![1]));
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_max_pool_with_indices<Sp, Rl: PoolRule>(
        &self,
        spatial: Sp,
        rule: Rl,
    ) -> Result<(
        Tensor<T, <S as PoolShape<Sp, Rl>>::Output, D>,
        Tensor<i64, <S as PoolShape<Sp, Rl>>::Output, D>,
    )>
    where
        S: PoolShape<Sp, Rl>,
    {
        let _ = (spatial, rule);
        let positions = S::spatial();
        let (y, i) = self
            .raw()
            .max_pool_with_indices_axes(&positions, &pool_options::<Rl>(positions.len()))?;
        Ok((typed("max_pool", y)?, typed("max_pool", i)?))
    }

    /// Average pooling over the axes `Sp`: each output is its window's sum
    /// over the window's size, padding included (PyTorch's default
    /// `count_include_pad=True`; see
    /// [`try_avg_pool_with`](Self::try_avg_pool_with)).
    ///
    /// # Errors
    /// As [`try_max_pool`](Self::try_max_pool).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 4]>::arange();
    /// assert_eq!(x.try_avg_pool((Rows, Cols), Pool::<2>)?.to_vec(), vec![2.5, 4.5]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_avg_pool<Sp, Rl: PoolRule>(
        &self,
        spatial: Sp,
        rule: Rl,
    ) -> Result<Tensor<T, <S as PoolShape<Sp, Rl>>::Output, D>>
    where
        S: PoolShape<Sp, Rl>,
    {
        self.try_avg_pool_with(spatial, rule, true, None)
    }

    /// Average pooling over the axes `Sp`.
    ///
    /// # Panics
    /// As [`try_avg_pool`](Self::try_avg_pool), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Time);
    /// let x = Tensor::<f64, shape![Time: 4]>::from_array([1.0, 3.0, 5.0, 7.0]);
    /// assert_eq!(x.avg_pool((Time,), Pool::<2>).to_vec(), vec![2.0, 6.0]);
    /// ```
    #[track_caller]
    pub fn avg_pool<Sp, Rl: PoolRule>(
        &self,
        spatial: Sp,
        rule: Rl,
    ) -> Tensor<T, <S as PoolShape<Sp, Rl>>::Output, D>
    where
        S: PoolShape<Sp, Rl>,
    {
        or_panic(self.try_avg_pool(spatial, rule))
    }

    /// Average pooling over the axes `Sp`, dividing by the window's size
    /// with its padding (`count_include_pad`) or without it, or by
    /// `divisor`.
    ///
    /// # Errors
    /// As [`try_max_pool`](Self::try_max_pool), and a zero divisor.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Time);
    /// let x = Tensor::<f32, shape![Time: 3]>::from_array([2.0, 4.0, 6.0]);
    /// let padded = Pool::<2, 2, 1>;
    /// assert_eq!(x.try_avg_pool_with((Time,), padded, true, None)?.to_vec(), vec![1.0, 5.0]);
    /// assert_eq!(x.try_avg_pool_with((Time,), padded, false, None)?.to_vec(), vec![2.0, 5.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_avg_pool_with<Sp, Rl: PoolRule>(
        &self,
        spatial: Sp,
        rule: Rl,
        count_include_pad: bool,
        divisor: Option<usize>,
    ) -> Result<Tensor<T, <S as PoolShape<Sp, Rl>>::Output, D>>
    where
        S: PoolShape<Sp, Rl>,
    {
        let _ = (spatial, rule);
        let positions = S::spatial();
        let o = pool_options::<Rl>(positions.len())
            .count_include_pad(count_include_pad)
            .divisor_override(divisor);
        typed("avg_pool", self.raw().avg_pool_axes(&positions, &o)?)
    }
}

impl<T: Float, S: Shape, R: Data<Cpu>> TensorBase<T, S, Cpu, R> {
    /// Adaptive average pooling of the axes `Sp` to the static sizes `Out`
    /// (`(Sz<7>, Sz<7>)`): output `o` of an axis of `n` averages inputs
    /// `⌊o·n/out⌋ .. ⌈(o+1)·n/out⌉`.
    ///
    /// # Errors
    /// An empty pooled axis.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels, Time);
    /// let x = Tensor::<f32, shape![Channels: 1, Time: 5]>::from_array([[1.0, 2.0, 3.0, 4.0, 5.0]]);
    /// let y = x.try_adaptive_avg_pool((Time,), (Sz::<3>,))?;
    /// assert_eq!(y.to_vec(), vec![1.5, 3.0, 4.5]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_adaptive_avg_pool<Sp, Out>(
        &self,
        spatial: Sp,
        out: Out,
    ) -> Result<Tensor<T, <S as AdaptiveShape<Sp, Out>>::Output>>
    where
        S: AdaptiveShape<Sp, Out>,
    {
        let _ = (spatial, out);
        typed(
            "adaptive_avg_pool",
            self.raw()
                .adaptive_avg_pool_axes(&S::spatial(), &S::sizes())?,
        )
    }

    /// Adaptive max pooling of the axes `Sp` to the static sizes `Out`,
    /// with the flat index of each maximum in its plane.
    ///
    /// # Errors
    /// An empty pooled axis.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Time);
    /// let x = Tensor::<f32, shape![Time: 4]>::from_array([1.0, 9.0, 3.0, 4.0]);
    /// let (y, at) = x.try_adaptive_max_pool((Time,), (Sz::<2>,))?;
    /// assert_eq!((y.to_vec(), at.to_vec()), (vec![9.0, 4.0], vec![1, 3]));
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_adaptive_max_pool<Sp, Out>(
        &self,
        spatial: Sp,
        out: Out,
    ) -> Result<(
        Tensor<T, <S as AdaptiveShape<Sp, Out>>::Output>,
        Tensor<i64, <S as AdaptiveShape<Sp, Out>>::Output>,
    )>
    where
        S: AdaptiveShape<Sp, Out>,
    {
        let _ = (spatial, out);
        let (y, i) = self
            .raw()
            .adaptive_max_pool_axes(&S::spatial(), &S::sizes())?;
        Ok((
            typed("adaptive_max_pool", y)?,
            typed("adaptive_max_pool", i)?,
        ))
    }

    /// The mean over the whole of the axes `Sp`, which leave the shape
    /// (global average pooling, by name: `[N, C, H, W]` to `[N, C]`).
    ///
    /// # Errors
    /// An empty pooled axis.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Rows, Cols, Channels);
    /// let x = Tensor::<f32, shape![Batch: 1, Rows: 2, Cols: 2, Channels: 2]>::arange();
    /// let g = x.try_global_avg_pool((Rows, Cols))?; // shape![Batch: 1, Channels: 2]
    /// assert_eq!(g.to_vec(), vec![3.0, 4.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_global_avg_pool<Sp>(
        &self,
        spatial: Sp,
    ) -> Result<Tensor<T, <S as GlobalShape<Sp>>::Output>>
    where
        S: GlobalShape<Sp>,
    {
        let _ = spatial;
        let positions = S::spatial();
        let pooled = self
            .raw()
            .adaptive_avg_pool_axes(&positions, &vec![1; positions.len()])?;
        let dims: Vec<isize> = positions.iter().map(|&p| p as isize).collect();
        let squeezed = pooled.view().squeeze_dims(&dims)?.to_contiguous()?;
        typed("global_avg_pool", squeezed)
    }

    /// The mean over the whole of the axes `Sp`, which leave the shape.
    ///
    /// # Panics
    /// As [`try_global_avg_pool`](Self::try_global_avg_pool), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels, Rows, Cols);
    /// let x = Tensor::<f32, shape![Channels: 2, Rows: 3, Cols: 3]>::ones();
    /// assert_eq!(x.global_avg_pool((Rows, Cols)).to_vec(), vec![1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn global_avg_pool<Sp>(&self, spatial: Sp) -> Tensor<T, <S as GlobalShape<Sp>>::Output>
    where
        S: GlobalShape<Sp>,
    {
        or_panic(self.try_global_avg_pool(spatial))
    }

    /// The maximum over the whole of the axes `Sp`, which leave the shape
    /// (global max pooling; NaN wins).
    ///
    /// # Errors
    /// An empty pooled axis.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Channels, Rows, Cols);
    /// let x = Tensor::<f32, shape![Channels: 2, Rows: 2, Cols: 2]>::arange();
    /// assert_eq!(x.try_global_max_pool((Rows, Cols))?.to_vec(), vec![3.0, 7.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_global_max_pool<Sp>(
        &self,
        spatial: Sp,
    ) -> Result<Tensor<T, <S as GlobalShape<Sp>>::Output>>
    where
        S: GlobalShape<Sp>,
    {
        let _ = spatial;
        let positions = S::spatial();
        let (pooled, _) = self
            .raw()
            .adaptive_max_pool_axes(&positions, &vec![1; positions.len()])?;
        let dims: Vec<isize> = positions.iter().map(|&p| p as isize).collect();
        let squeezed = pooled.view().squeeze_dims(&dims)?.to_contiguous()?;
        typed("global_max_pool", squeezed)
    }
}
