//! The activations of convolutional networks beyond `relu`, `sigmoid`
//! and `silu`: `relu6`, `hardtanh`, `hardsigmoid`, `hardswish`,
//! `leaky_relu`, and `prelu` with one slope per channel of an axis named.

use axial_core::{Cpu, Result};
use axial_shape::{HasAxis, Shape};

use super::conv::typed;
use crate::float::Float;
use crate::ops::AxisOf;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase, TensorView};

impl<T: Float, S: Shape, R: Data<Cpu>> TensorBase<T, S, Cpu, R> {
    /// `min(max(x, min), max)` elementwise (PyTorch's `hardtanh`; NaN stays).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![3]>::from_array([-2.0, 0.5, 2.0]);
    /// assert_eq!(x.hardtanh(-1.0, 1.0).to_vec(), vec![-1.0, 0.5, 1.0]);
    /// ```
    pub fn hardtanh(&self, min: f64, max: f64) -> Tensor<T, S> {
        or_panic(
            self.raw()
                .hardtanh(min, max)
                .and_then(|y| typed("hardtanh", y)),
        )
    }

    /// `min(max(x, 0), 6)` elementwise (PyTorch's `relu6`, MobileNet's and
    /// EfficientNet-Lite's activation).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![3]>::from_array([-1.0, 3.0, 7.0]);
    /// assert_eq!(x.relu6().to_vec(), vec![0.0, 3.0, 6.0]);
    /// ```
    pub fn relu6(&self) -> Tensor<T, S> {
        self.hardtanh(0.0, 6.0)
    }

    /// `min(max(x + 3, 0), 6) / 6` elementwise (PyTorch's `hardsigmoid`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![3]>::from_array([-4.0, 0.0, 3.0]);
    /// assert_eq!(x.hardsigmoid().to_vec(), vec![0.0, 0.5, 1.0]);
    /// ```
    pub fn hardsigmoid(&self) -> Tensor<T, S> {
        or_panic(
            self.raw()
                .hardsigmoid()
                .and_then(|y| typed("hardsigmoid", y)),
        )
    }

    /// `x · min(max(x + 3, 0), 6) / 6` elementwise (PyTorch's `hardswish`,
    /// MobileNetV3's activation).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::from_array([-4.0, 4.0]);
    /// assert_eq!(x.hardswish().to_vec(), vec![-0.0, 4.0]);
    /// ```
    pub fn hardswish(&self) -> Tensor<T, S> {
        or_panic(self.raw().hardswish().and_then(|y| typed("hardswish", y)))
    }

    /// `x` where `x > 0`, else `x · slope` (PyTorch's `leaky_relu`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::from_array([-2.0, 3.0]);
    /// assert_eq!(x.leaky_relu(0.5).to_vec(), vec![-1.0, 3.0]);
    /// ```
    pub fn leaky_relu(&self, slope: f64) -> Tensor<T, S> {
        or_panic(
            self.raw()
                .leaky_relu(slope)
                .and_then(|y| typed("leaky_relu", y)),
        )
    }

    /// PReLU along the axis `C`: `x` where `x > 0`, else `x · weight[c]`
    /// with the slope of its index along `C` (the weight is `[C]`).
    ///
    /// # Errors
    /// A `Dyn` size of `C` that differs from the weight's.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels);
    /// let x = Tensor::<f32, shape![Batch: 1, Channels: 2]>::from_array([[-1.0, -1.0]]);
    /// let w = Tensor::<f32, shape![Channels: 2]>::from_array([0.25, 0.5]);
    /// assert_eq!(x.try_prelu(Channels, w.as_view())?.to_vec(), vec![-0.25, -0.5]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_prelu<C>(
        &self,
        channel: C,
        weight: TensorView<'_, T, AxisOf<S, C>>,
    ) -> Result<Tensor<T, S>>
    where
        S: HasAxis<C>,
        AxisOf<S, C>: Shape,
    {
        let _ = channel;
        typed("prelu", self.raw().prelu_axes(S::POS, &weight.raw())?)
    }
}
