//! The ops of convolutional networks on tracked tensors: convolutions (any
//! channel dim and spatial dims, stride, padding, dilation, groups, bias),
//! max pooling (the gradient to the index the forward returns, PyTorch's
//! tie rule), average pooling (`count_include_pad`, `ceil_mode`, a divisor
//! override), adaptive average pooling, batch normalisation in training
//! mode (batch statistics, running statistics updated as PyTorch updates
//! them) and with running statistics, and `hardsigmoid`/`hardswish`.
//!
//! Each backward pass is written with forward ops: the gradient of a
//! convolution's input is the transposed convolution of its output's, its
//! weight's a convolution of the input by the output's gradient (batch and
//! channels swapped, stride and dilation swapped), an average pooling's a
//! transposed depthwise convolution by ones, an adaptive pooling's a
//! product by its averaging matrix, a max pooling's a scatter-add at the
//! kept indices.

use super::elementwise::read;
use super::grad::Grad;
use super::node::Saved;
use super::var::Var;
use crate::nn::conv::plan as conv_plan;
use crate::nn::pad::pad_sides;
use crate::nn::{
    ConvAxes, ConvOptions, Padding, PaddingMode, PoolOptions, adaptive_window, per_dim,
};
use crate::ops::grad::{cmp_scalar, div, mean_keep, mul, sub, sum_keep};
use crate::ops::scatter::{index_added, scattered};
use crate::ops::{
    AdaptiveAvgPool, AdaptiveMaxPool, AvgPool, BatchNorm, Convolution, Derivative, MaxPool, Op,
};
use crate::tensor::pad::source_index;
use crate::{
    Backend, BinaryOp, CmpOp, Cpu, DType, Error, Layout, PadMode, RawTensor, Result, Scalar,
    TensorMut, TensorRef, UnaryOp,
};

/// `t`'s dims reordered as `order` into a contiguous tensor of `shape`
/// (the reordered sizes, some merged).
fn gathered(t: &TensorRef<'_, Cpu>, order: &[usize], shape: &[usize]) -> Result<RawTensor<Cpu>> {
    let perm: Vec<isize> = order.iter().map(|&d| d as isize).collect();
    let c = t.clone().permute(&perm)?.to_contiguous()?;
    let (storage, _, dtype) = c.into_parts();
    RawTensor::from_parts(storage, Layout::contiguous(shape), dtype)
}

/// A contiguous `t` of `shape` (its dims in `order`'s order, merged or
/// not) with its dims put back where `order` took them from.
fn scattered_back(t: RawTensor<Cpu>, shape: &[usize], order: &[usize]) -> Result<RawTensor<Cpu>> {
    let (storage, _, dtype) = t.to_contiguous_parts()?;
    let mut inverse = vec![0isize; order.len()];
    for (i, &d) in order.iter().enumerate() {
        inverse[d] = i as isize;
    }
    RawTensor::from_parts(storage, Layout::contiguous(shape).permute(&inverse)?, dtype)
}

/// A max pooling's input gradient: each element of `g` added at the flat
/// index `idx` holds in its plane of the dims `spatial` of an input of
/// `shape` (a scatter-add).
fn to_indices(
    g: &TensorRef<'_, Cpu>,
    idx: &TensorRef<'_, Cpu>,
    shape: &[usize],
    spatial: &[usize],
) -> Result<Grad<Cpu>> {
    let batch = others(shape.len(), spatial);
    let order: Vec<usize> = batch.iter().chain(spatial).copied().collect();
    let planes: usize = batch.iter().map(|&d| shape[d]).product();
    let inner: usize = spatial.iter().map(|&d| shape[d]).product();
    let outer: usize = spatial.iter().map(|&d| g.shape()[d]).product();
    let gs = gathered(g, &order, &[planes, outer])?;
    let is = gathered(idx, &order, &[planes, outer])?;
    let flat = scattered(&[planes, inner], 1, &is.view(), &gs.view())?;
    let full: Vec<usize> = order.iter().map(|&d| shape[d]).collect();
    Ok(Grad::new(scattered_back(flat, &full, &order)?))
}

/// The dims of a tensor of `rank` dims that are not in `skip`, in order.
fn others(rank: usize, skip: &[usize]) -> Vec<usize> {
    (0..rank).filter(|d| !skip.contains(d)).collect()
}

/// A tensor's elements in row-major order from the start of a storage of
/// their own.
trait ContiguousParts {
    fn to_contiguous_parts(self) -> Result<(crate::Storage<Cpu>, Layout, DType)>;
}

impl ContiguousParts for RawTensor<Cpu> {
    fn to_contiguous_parts(self) -> Result<(crate::Storage<Cpu>, Layout, DType)> {
        if self.layout().is_contiguous() && self.layout().offset() == 0 {
            return Ok(self.into_parts());
        }
        Ok(self.view().to_contiguous()?.into_parts())
    }
}

/// What `op` keeps of its operand `i` (the op table's slot), for the
/// backward pass: kept, `v` is read from there, and a write into it in
/// place since is PyTorch's error at `backward`.
fn kept<'g>(op: impl Op, i: usize, v: &Var<'g, Cpu>, needs: &[bool]) -> Option<Saved<'g, Cpu>> {
    match op.info().derivative {
        Derivative::Written(saves) if saves.keeps(i, needs) => Some(v.save()),
        _ => None,
    }
}

/// A kept operand, or the error of one the op table says is not kept.
fn need<'a>(op: impl Op, saved: &'a Option<Saved<'_, Cpu>>) -> Result<TensorRef<'a, Cpu>> {
    read(saved)?
        .ok_or_else(|| Error::invalid(op.name(), "an operand the backward pass reads was not kept"))
}

impl<'g> Var<'g, Cpu> {
    /// A convolution over the dims `axes` names (as
    /// [`TensorRef::conv_axes`]), recorded: the gradient of the input is
    /// the transposed convolution of the output's gradient by the weight,
    /// the weight's a convolution of the input by the output's gradient,
    /// the bias's its sum. Keeps the input and the weight (PyTorch's
    /// `ConvolutionBackward0`). An output clamp is recorded as a
    /// `hardtanh` after the convolution; a padding mode other than zeros as
    /// a recorded padding (its gradient added back to the elements each
    /// padded one copies) before an unpadded convolution, as `nn.Conv2d`
    /// computes it.
    ///
    /// # Errors
    /// As [`TensorRef::conv_axes`].
    ///
    /// ```
    /// use axial_core::nn::{ConvAxes, ConvOptions};
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0], &[1, 1, 3])?)?;
    /// let w = Var::leaf(RawTensor::from_vec(vec![1.0f64, -1.0], &[1, 1, 2])?)?;
    /// let (ix, iw) = (x.leaf_id().unwrap(), w.leaf_id().unwrap());
    /// let y = x.conv_axes(&w, None, &ConvAxes::new(1, &[2]), &ConvOptions::new())?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![-1.0, -1.0]);
    /// let grads = y.sum(&[], false)?.backward()?;
    /// assert_eq!(grads.get(ix).unwrap().to_vec::<f64>()?, vec![1.0, 0.0, -1.0]);
    /// assert_eq!(grads.get(iw).unwrap().to_vec::<f64>()?, vec![3.0, 5.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv_axes(
        &self,
        weight: &Var<'g, Cpu>,
        bias: Option<&Var<'g, Cpu>>,
        axes: &ConvAxes,
        options: &ConvOptions,
    ) -> Result<Var<'g, Cpu>> {
        let mut inputs = vec![self, weight];
        inputs.extend(bias);
        if !Var::tracks(&inputs) {
            let b = bias.map(Var::value);
            return Ok(Var::fresh(self.value().conv_axes(
                &weight.value(),
                b.as_ref(),
                axes,
                options,
            )?));
        }
        if let Some((min, max)) = options.clamp {
            let mut plain = options.clone();
            plain.clamp = None;
            return self
                .conv_axes(weight, bias, axes, &plain)?
                .hardtanh(min, max);
        }
        if options.padding_mode != PaddingMode::Zeros {
            // `nn.Conv2d`'s way: pad (recorded), then convolve unpadded.
            let plan = conv_plan(
                "conv",
                self.shape(),
                weight.shape(),
                bias.map(Var::shape),
                axes,
                options,
                false,
            )?;
            let padded = self.padded(&axes.spatial, &plan.pad, options.padding_mode)?;
            let plain = options
                .clone()
                .padding(Padding::Valid)
                .padding_mode(PaddingMode::Zeros);
            return padded.conv_axes(weight, bias, axes, &plain);
        }
        let b = bias.map(Var::value);
        let value = self
            .value()
            .conv_axes(&weight.value(), b.as_ref(), axes, options)?;
        let plan = conv_plan(
            "conv",
            self.shape(),
            weight.shape(),
            bias.map(Var::shape),
            axes,
            options,
            false,
        )?;
        let mut out = Var::fresh(value);
        let needs = Var::needs(&inputs);
        let (x, w) = (
            kept(Convolution, 0, self, &needs),
            kept(Convolution, 1, weight, &needs),
        );
        let has_bias = bias.is_some();
        let axes = axes.clone();
        let x_shape = self.shape().to_vec();
        let w_shape = weight.shape().to_vec();
        out.attach(
            "Convolution",
            &inputs,
            Box::new(move |g, needs| {
                let g = g.view();
                let n = axes.spatial.len();
                let kernel = &w_shape[2..];
                let mut grads = Vec::with_capacity(3);
                if needs[0] {
                    // The adjoint: a transposed convolution, its output
                    // padded to the input's length.
                    let extra: Vec<usize> = (0..n)
                        .map(|d| {
                            let (i, o) = (x_shape[axes.spatial[d]], g.shape()[axes.spatial[d]]);
                            let (pb, pa) = plan.pad[d];
                            let span = plan.dilation[d] * (kernel[d] - 1) + 1;
                            (i + pb + pa - span) - (o - 1) * plan.stride[d]
                        })
                        .collect();
                    let t = ConvOptions::new()
                        .stride(&plan.stride)
                        .dilation(&plan.dilation)
                        .groups(plan.groups)
                        .padding(Padding::Sides(plan.pad.to_vec()))
                        .output_padding(&extra);
                    let gx = g.conv_transpose_axes(&need(Convolution, &w)?, None, &axes, &t)?;
                    grads.push(Some(Grad::new(gx)));
                } else {
                    grads.push(None);
                }
                if needs[1] {
                    let gw = weight_grad(&need(Convolution, &x)?, &g, &axes, &plan, &w_shape)?;
                    grads.push(Some(Grad::new(gw)));
                } else {
                    grads.push(None);
                }
                if has_bias {
                    grads.push(bias_grad(&g, axes.channel, needs[2])?);
                }
                Ok(grads)
            }),
        );
        Ok(out)
    }

    /// Instance normalisation in training over the dims `spatial`, one
    /// instance per channel (`channel`) and index of the other dims
    /// (recorded as [`group_norm_axes`](Self::group_norm_axes) with a group
    /// per channel), and the running statistics, when given, moved by
    /// `momentum` towards the batch's average of the instances' means and
    /// unbiased variances (PyTorch's `InstanceNorm` with
    /// `track_running_stats=True`, in training).
    ///
    /// # Errors
    /// As [`TensorRef::instance_norm_axes`].
    ///
    /// ```
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 3.0, 5.0, 9.0], &[1, 2, 2])?)?;
    /// let mut mean = RawTensor::from_vec(vec![0.0f64; 2], &[2])?;
    /// let mut var = RawTensor::from_vec(vec![1.0f64; 2], &[2])?;
    /// let running = Some((&mut mean.view_mut(), &mut var.view_mut()));
    /// let y = x.instance_norm_axes(1, &[2], None, None, running, 0.5, 0.0)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![-1.0, 1.0, -1.0, 1.0]);
    /// assert_eq!((mean.to_vec::<f64>()?, var.to_vec::<f64>()?), (vec![1.0, 3.5], vec![1.5, 4.5]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn instance_norm_axes(
        &self,
        channel: usize,
        spatial: &[usize],
        weight: Option<&Var<'g, Cpu>>,
        bias: Option<&Var<'g, Cpu>>,
        running: Option<(&mut TensorMut<'_, Cpu>, &mut TensorMut<'_, Cpu>)>,
        momentum: f64,
        eps: f64,
    ) -> Result<Var<'g, Cpu>> {
        let x = self.value();
        // An absent channel dim: group norm's error.
        let c = match self.shape().get(channel) {
            None => 1,
            Some(_) => {
                let (w, b) = (weight.map(|w| w.value()), bias.map(|b| b.value()));
                let stats = running.as_ref().map(|(m, v)| (m.as_ref(), v.as_ref()));
                x.check_instance(channel, spatial, w.as_ref(), b.as_ref(), stats.as_ref())?
            }
        };
        let y = self.group_norm_axes(channel, spatial, c, weight, bias, eps)?;
        if let Some(running) = running {
            x.move_instance_running(channel, spatial, c, running, momentum)?;
        }
        Ok(y)
    }

    /// A transposed convolution over the dims `axes` names (as
    /// [`TensorRef::conv_transpose_axes`]; the weight `[in, out / groups,
    /// kernel...]`), recorded as PyTorch's `ConvolutionBackward0` with
    /// `transposed=True`: the gradient of the input is the convolution of
    /// the output's gradient by the weight (same stride, padding, dilation
    /// and groups), the weight's the convolution weight gradient with the
    /// roles swapped (the output's gradient as the input, the input as the
    /// output's gradient), the bias's a sum. Keeps the input and the weight.
    ///
    /// # Errors
    /// As [`TensorRef::conv_transpose_axes`].
    ///
    /// ```
    /// use axial_core::nn::{ConvAxes, ConvOptions};
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[1, 1, 2])?)?;
    /// let w = Var::leaf(RawTensor::from_vec(vec![1.0f64, 10.0, 100.0], &[1, 1, 3])?)?;
    /// let (ix, iw) = (x.leaf_id().unwrap(), w.leaf_id().unwrap());
    /// let o = ConvOptions::new().stride(&[2]);
    /// let y = x.conv_transpose_axes(&w, None, &ConvAxes::new(1, &[2]), &o)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![1.0, 10.0, 102.0, 20.0, 200.0]);
    /// let grads = y.sum(&[], false)?.backward()?;
    /// assert_eq!(grads.get(ix).unwrap().to_vec::<f64>()?, vec![111.0, 111.0]);
    /// assert_eq!(grads.get(iw).unwrap().to_vec::<f64>()?, vec![3.0, 3.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv_transpose_axes(
        &self,
        weight: &Var<'g, Cpu>,
        bias: Option<&Var<'g, Cpu>>,
        axes: &ConvAxes,
        options: &ConvOptions,
    ) -> Result<Var<'g, Cpu>> {
        let mut inputs = vec![self, weight];
        inputs.extend(bias);
        let b = bias.map(Var::value);
        let forward =
            || (self.value()).conv_transpose_axes(&weight.value(), b.as_ref(), axes, options);
        if !Var::tracks(&inputs) {
            return Ok(Var::fresh(forward()?));
        }
        if let Some((min, max)) = options.clamp {
            let mut plain = options.clone();
            plain.clamp = None;
            return self
                .conv_transpose_axes(weight, bias, axes, &plain)?
                .hardtanh(min, max);
        }
        let value = forward()?;
        let plan = conv_plan(
            "conv_transpose",
            self.shape(),
            weight.shape(),
            bias.map(Var::shape),
            axes,
            options,
            true,
        )?;
        let mut out = Var::fresh(value);
        let needs = Var::needs(&inputs);
        let (x, w) = (
            kept(Convolution, 0, self, &needs),
            kept(Convolution, 1, weight, &needs),
        );
        let has_bias = bias.is_some();
        let axes = axes.clone();
        let x_shape = self.shape().to_vec();
        let w_shape = weight.shape().to_vec();
        out.attach(
            "Convolution",
            &inputs,
            Box::new(move |g, needs| {
                let g = g.view();
                let mut grads = Vec::with_capacity(3);
                if needs[0] {
                    let o = ConvOptions::new()
                        .stride(&plan.stride)
                        .dilation(&plan.dilation)
                        .groups(plan.groups)
                        .padding(Padding::Sides(plan.pad.to_vec()));
                    let mut gx = g.conv_axes(&need(Convolution, &w)?, None, &axes, &o)?;
                    // An output padding of a stride or more (allowed below
                    // the dilation) leaves windows past the input's end.
                    for &d in &axes.spatial {
                        if gx.shape()[d] > x_shape[d] {
                            gx = gx
                                .view()
                                .narrow(d as isize, 0, x_shape[d])?
                                .to_contiguous()?;
                        }
                    }
                    grads.push(Some(Grad::new(gx)));
                } else {
                    grads.push(None);
                }
                if needs[1] {
                    let gw = weight_grad(&g, &need(Convolution, &x)?, &axes, &plan, &w_shape)?;
                    grads.push(Some(Grad::new(gw)));
                } else {
                    grads.push(None);
                }
                if has_bias {
                    grads.push(bias_grad(&g, axes.channel, needs[2])?);
                }
                Ok(grads)
            }),
        );
        Ok(out)
    }

    /// The dims `dims` padded by `(before, after)` each in `mode` (reflect,
    /// replicate, circular), recorded: each padded element's gradient goes
    /// back to the element it copies (PyTorch's `ReflectionPad`,
    /// `ReplicationPad`, circular `pad`). Keeps nothing.
    fn padded(
        &self,
        dims: &[usize],
        sides: &[(usize, usize)],
        mode: PaddingMode,
    ) -> Result<Var<'g, Cpu>> {
        let mut out = Var::fresh(pad_sides(&self.value(), dims, sides, mode, 0.0)?);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let (pad_mode, name) = match mode {
            PaddingMode::Reflect => (PadMode::Reflect, "ReflectionPad"),
            PaddingMode::Replicate => (PadMode::Replicate, "ReplicationPad"),
            PaddingMode::Circular => (PadMode::Circular, "Pad"),
            PaddingMode::Zeros => (PadMode::Constant(Scalar::Float(0.0)), "ConstantPad"),
        };
        let (shape, dims, sides) = (self.shape().to_vec(), dims.to_vec(), sides.to_vec());
        out.attach(
            name,
            &[self],
            Box::new(move |g, _| {
                let mut t = g.view().to_contiguous()?;
                for (&d, &(lo, hi)) in dims.iter().zip(&sides) {
                    let n = shape[d];
                    let sources: Vec<i64> = (0..n + lo + hi)
                        .map(|o| source_index(pad_mode, o as i64 - lo as i64, n as i64))
                        .collect();
                    let index = RawTensor::from_vec(sources, &[n + lo + hi])?;
                    let mut target = t.shape().to_vec();
                    target[d] = n;
                    t = index_added(&target, d, &index.view(), &t.view())?;
                }
                Ok(vec![Some(Grad::new(t))])
            }),
        );
        Ok(out)
    }

    /// Max pooling over the dims `spatial` (as
    /// [`TensorRef::max_pool_axes`]), recorded: the gradient goes to the
    /// element whose index the forward returns (the first maximum of a
    /// window, NaN winning: PyTorch's rule), and adds up where windows
    /// overlap. Keeps the indices.
    ///
    /// # Errors
    /// As [`TensorRef::max_pool_axes`].
    ///
    /// ```
    /// use axial_core::nn::PoolOptions;
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 5.0, 5.0, 2.0], &[1, 4])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.max_pool_axes(&[1], &PoolOptions::new(&[2]).stride(&[1]))?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![5.0, 5.0, 5.0]);
    /// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![0.0, 2.0, 1.0, 0.0]); // the tie goes to the first
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn max_pool_axes(&self, spatial: &[usize], options: &PoolOptions) -> Result<Var<'g, Cpu>> {
        if !Var::tracks(&[self]) {
            return Ok(Var::fresh(self.value().max_pool_axes(spatial, options)?));
        }
        let (value, idx) = self.value().max_pool_with_indices_axes(spatial, options)?;
        let mut out = Var::fresh(value);
        let idx = Saved::own(idx);
        let x = kept(MaxPool, 0, self, &[true]);
        let (shape, spatial) = (self.shape().to_vec(), spatial.to_vec());
        out.attach(
            "MaxPoolWithIndices",
            &[self],
            Box::new(move |g, _| {
                need(MaxPool, &x)?; // kept as PyTorch keeps it
                let g = to_indices(&g.view(), &idx.get()?, &shape, &spatial)?;
                Ok(vec![Some(g)])
            }),
        );
        Ok(out)
    }

    /// Adaptive max pooling of the dims `spatial` to `sizes` positions each
    /// (as [`TensorRef::adaptive_max_pool_axes`]), recorded: each output's
    /// gradient goes to the index of its maximum (the first of equal ones,
    /// as the forward picks it), summed where windows overlap. Keeps the
    /// input and the indices (`AdaptiveMaxPool2DBackward0`).
    ///
    /// # Errors
    /// As [`TensorRef::adaptive_max_pool_axes`].
    ///
    /// ```
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 9.0, 3.0, 4.0, 2.0], &[1, 5])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.adaptive_max_pool_axes(&[1], &[2])?; // windows 0..3, 2..5
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![9.0, 4.0]);
    /// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![0.0, 1.0, 0.0, 1.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn adaptive_max_pool_axes(
        &self,
        spatial: &[usize],
        sizes: &[usize],
    ) -> Result<Var<'g, Cpu>> {
        let (value, idx) = self.value().adaptive_max_pool_axes(spatial, sizes)?;
        let mut out = Var::fresh(value);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let idx = Saved::own(idx);
        let x = kept(AdaptiveMaxPool, 0, self, &[true]);
        let (shape, spatial) = (self.shape().to_vec(), spatial.to_vec());
        out.attach(
            "AdaptiveMaxPool",
            &[self],
            Box::new(move |g, _| {
                need(AdaptiveMaxPool, &x)?; // kept as PyTorch keeps it
                let g = to_indices(&g.view(), &idx.get()?, &shape, &spatial)?;
                Ok(vec![Some(g)])
            }),
        );
        Ok(out)
    }

    /// Average pooling over the dims `spatial` (as
    /// [`TensorRef::avg_pool_axes`]), recorded: each output's gradient is
    /// spread over its window, divided as the forward divided
    /// (`count_include_pad`, `divisor_override`; `ceil_mode` windows cut at
    /// the padded end). Keeps nothing.
    ///
    /// # Errors
    /// As [`TensorRef::avg_pool_axes`].
    ///
    /// ```
    /// use axial_core::nn::PoolOptions;
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![2.0f64, 4.0, 6.0], &[1, 3])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let o = PoolOptions::new(&[2]).padding(&[1]).count_include_pad(false);
    /// let y = x.avg_pool_axes(&[1], &o)?; // [2, 5]
    /// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![1.0, 0.5, 0.5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn avg_pool_axes(&self, spatial: &[usize], options: &PoolOptions) -> Result<Var<'g, Cpu>> {
        let value = self.value().avg_pool_axes(spatial, options)?;
        let mut out = Var::fresh(value);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let op = "avg_pool";
        let n = spatial.len();
        let kernel = per_dim(op, "kernel_size", &options.kernel, n)?;
        let stride = match options.stride.is_empty() {
            true => kernel.clone(),
            false => per_dim(op, "stride", &options.stride, n)?,
        };
        let pad = per_dim(op, "padding", &options.padding, n)?;
        let shape = self.shape().to_vec();
        let out_shape = out.shape().to_vec();
        let spatial = spatial.to_vec();
        // The divisor of each output position, a product over the dims.
        let mut divisor = vec![1.0f64];
        let mut extra = Vec::with_capacity(n);
        let mut sides = Vec::with_capacity(n);
        for d in 0..n {
            let (i, o) = (shape[spatial[d]] as i64, out_shape[spatial[d]] as i64);
            let (k, s, p) = (kernel[d] as i64, stride[d] as i64, pad[d] as i64);
            let per: Vec<f64> = (0..o)
                .map(|j| {
                    let start = j * s - p;
                    let end = (start + k).min(i + p);
                    let size = end - start;
                    let (start, end) = (start.max(0), end.min(i));
                    match options.count_include_pad {
                        true => size as f64,
                        false => (end - start) as f64,
                    }
                })
                .collect();
            divisor = divisor
                .iter()
                .flat_map(|&a| per.iter().map(move |&b| a * b))
                .collect();
            // The transposed convolution's output cut to the input's length.
            let reach = (o - 1) * s + k - p - i;
            match reach >= 0 {
                true => {
                    sides.push((pad[d], reach as usize));
                    extra.push(0);
                }
                false => {
                    sides.push((pad[d], 0));
                    extra.push((-reach) as usize);
                }
            }
        }
        if let Some(v) = options.divisor_override {
            // The override divides once, whatever the dims.
            divisor.iter_mut().for_each(|d| *d = v as f64);
        }
        let dtype = self.dtype;
        let mut div_shape = vec![1usize; shape.len()];
        for &d in &spatial {
            div_shape[d] = out_shape[d];
        }
        // The divisors laid out along the spatial dims in their order.
        let order: Vec<usize> = others(shape.len(), &spatial)
            .into_iter()
            .chain(spatial.iter().copied())
            .collect();
        let moved: Vec<usize> = order.iter().map(|&d| div_shape[d]).collect();
        let divisor = scattered_back(
            RawTensor::from_vec(divisor, &moved)?
                .view()
                .to_dtype(dtype)?,
            &moved,
            &order,
        )?;
        let divisor = Saved::own(divisor);
        let x = kept(AvgPool, 0, self, &[true]);
        out.attach(
            "AvgPool",
            &[self],
            Box::new(move |g, _| {
                need(AvgPool, &x)?; // kept as PyTorch keeps it
                let scaled = div(&g, &divisor.get()?)?;
                let batch = others(shape.len(), &spatial);
                let planes: usize = batch.iter().map(|&d| shape[d]).product();
                let mut flat = vec![planes, 1];
                flat.extend(spatial.iter().map(|&d| out_shape[d]));
                let gs = gathered(&scaled.view(), &order, &flat)?;
                let mut k_shape = vec![1usize, 1];
                k_shape.extend(kernel.iter());
                let count: usize = kernel.iter().product();
                let ones = RawTensor::from_vec(vec![1.0f64; count], &k_shape)?
                    .view()
                    .to_dtype(dtype)?;
                let t = ConvOptions::new()
                    .stride(&stride)
                    .padding(Padding::Sides(sides.clone()))
                    .output_padding(&extra);
                let axes = ConvAxes::channels_first(n + 2, n);
                let gx = gs
                    .view()
                    .conv_transpose_axes(&ones.view(), None, &axes, &t)?;
                let full: Vec<usize> = order.iter().map(|&d| shape[d]).collect();
                Ok(vec![Some(Grad::new(scattered_back(gx, &full, &order)?))])
            }),
        );
        Ok(out)
    }

    /// Adaptive average pooling of the dims `spatial` to `sizes` (as
    /// [`TensorRef::adaptive_avg_pool_axes`]), recorded: the gradient is
    /// the output's times each dim's averaging matrix. Keeps nothing.
    ///
    /// # Errors
    /// As [`TensorRef::adaptive_avg_pool_axes`].
    ///
    /// ```
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0, 5.0], &[1, 5])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.adaptive_avg_pool_axes(&[1], &[2])?; // windows 0..3, 2..5
    /// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// let third = 1.0 / 3.0;
    /// assert_eq!(g, vec![third, third, 2.0 * third, third, third]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn adaptive_avg_pool_axes(
        &self,
        spatial: &[usize],
        sizes: &[usize],
    ) -> Result<Var<'g, Cpu>> {
        let value = self.value().adaptive_avg_pool_axes(spatial, sizes)?;
        let mut out = Var::fresh(value);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let dtype = self.dtype;
        let matrices = spatial
            .iter()
            .zip(sizes)
            .map(|(&d, &o)| {
                let i = self.shape()[d];
                let mut m = vec![0.0f64; o * i];
                for j in 0..o {
                    let w = adaptive_window(j, i, o);
                    let len = w.len() as f64;
                    for k in w {
                        m[j * i + k] = 1.0 / len;
                    }
                }
                RawTensor::from_vec(m, &[o, i])?.view().to_dtype(dtype)
            })
            .collect::<Result<Vec<_>>>()?;
        let spatial = spatial.to_vec();
        let x = kept(AdaptiveAvgPool, 0, self, &[true]);
        out.attach(
            "AdaptiveAvgPool",
            &[self],
            Box::new(move |g, _| {
                need(AdaptiveAvgPool, &x)?; // kept as PyTorch keeps it
                let mut t = g.view().to_contiguous()?;
                for (&d, m) in spatial.iter().zip(&matrices) {
                    let last = t.shape().len() as isize - 1;
                    let moved = t.view().movedim(&[d as isize], &[last])?;
                    let prod = moved.matmul(&m.view())?;
                    t = prod
                        .view()
                        .movedim(&[last], &[d as isize])?
                        .to_contiguous()?;
                }
                Ok(vec![Some(Grad::new(t))])
            }),
        );
        Ok(out)
    }

    /// Batch normalisation in training mode over the channel dim `channel`
    /// (as [`TensorRef::batch_norm_train`]: the batch's mean and biased
    /// variance; the running statistics, when given, updated with
    /// `momentum` and the unbiased variance, as PyTorch), recorded: `∂x =
    /// w·σ⁻¹·(g − mean(g) − x̂·mean(g·x̂))`, `∂w = Σ g·x̂`, `∂b = Σ g`.
    /// Keeps the input and the weight.
    ///
    /// # Errors
    /// As [`TensorRef::batch_norm_train`].
    ///
    /// ```
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 3.0], &[2, 1])?)?;
    /// let b = Var::leaf(RawTensor::from_vec(vec![0.0f64], &[1])?)?;
    /// let id = b.leaf_id().unwrap();
    /// let y = x.batch_norm_train(1, None, Some(&b), None, 0.1, 0.0)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![-1.0, 1.0]);
    /// assert_eq!(y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn batch_norm_train(
        &self,
        channel: usize,
        weight: Option<&Var<'g, Cpu>>,
        bias: Option<&Var<'g, Cpu>>,
        running: Option<(&mut TensorMut<'_, Cpu>, &mut TensorMut<'_, Cpu>)>,
        momentum: f64,
        eps: f64,
    ) -> Result<Var<'g, Cpu>> {
        let (w, b) = (weight.map(Var::value), bias.map(Var::value));
        let value = self.value().batch_norm_train(
            channel,
            w.as_ref(),
            b.as_ref(),
            running,
            momentum,
            eps,
        )?;
        let mut out = Var::fresh(value);
        let mut inputs = vec![self];
        inputs.extend(weight);
        inputs.extend(bias);
        if !Var::tracks(&inputs) {
            return Ok(out);
        }
        let needs = Var::needs(&inputs);
        let x = kept(BatchNorm, 0, self, &needs);
        let wk = weight.and_then(|w| kept(BatchNorm, 1, w, &needs));
        let (has_w, has_b) = (weight.is_some(), bias.is_some());
        let rank = self.shape().len();
        let c = self.shape()[channel];
        out.attach(
            "NativeBatchNorm",
            &inputs,
            Box::new(move |g, needs| {
                let x = need(BatchNorm, &x)?;
                let dims = others(rank, &[channel]);
                let mut col = vec![1usize; rank];
                col[channel] = c;
                let col: Vec<isize> = col.iter().map(|&n| n as isize).collect();
                let mean = mean_keep(&x, &dims)?;
                let centred = sub(&x, &mean)?;
                let var = mean_keep(&centred.view().unary(UnaryOp::Square)?, &dims)?;
                let invstd = var
                    .view()
                    .binary_scalar(BinaryOp::Add, Scalar::Float(eps))?
                    .view()
                    .unary(UnaryOp::Rsqrt)?;
                let xhat = mul(&centred, &invstd)?;
                let g = g.view();
                let flat = |t: RawTensor<Cpu>| -> Result<Grad<Cpu>> {
                    let (storage, _, dtype) = t.to_contiguous_parts()?;
                    Ok(Grad::new(RawTensor::from_parts(
                        storage,
                        Layout::contiguous(&[c]),
                        dtype,
                    )?))
                };
                let mut it = needs.iter().copied();
                let need_x = it.next().unwrap_or(false);
                let need_w = has_w && it.next().unwrap_or(false);
                let need_b = has_b && it.next().unwrap_or(false);
                let gxhat = mul(&g, &xhat)?;
                let mut grads = Vec::with_capacity(3);
                grads.push(match need_x {
                    true => {
                        let mg = mean_keep(&g, &dims)?;
                        let mgx = mean_keep(&gxhat, &dims)?;
                        let inner = sub(&sub(&g, &mg)?, &mul(&xhat, &mgx)?)?;
                        let mut scale = invstd;
                        if let Some(w) = &wk {
                            scale = mul(&scale, &w.get()?.reshape(&col)?.as_ref())?;
                        }
                        Some(Grad::new(mul(&inner, &scale)?))
                    }
                    false => None,
                });
                if has_w {
                    grads.push(match need_w {
                        true => Some(flat(sum_keep(&gxhat, &dims)?)?),
                        false => None,
                    });
                }
                if has_b {
                    grads.push(match need_b {
                        true => Some(flat(sum_keep(&g, &dims)?)?),
                        false => None,
                    });
                }
                Ok(grads)
            }),
        );
        Ok(out)
    }

    /// Batch normalisation with running statistics (inference, `training=
    /// False`) over the channel dim `channel`: `(x − mean)/√(var + eps)·w +
    /// b`, written with the tracked ops so that the input, the weight and
    /// the bias get gradients (the statistics are constants).
    ///
    /// # Errors
    /// Statistics or parameters that are not one per channel.
    ///
    /// ```
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![4.0f64, 6.0], &[1, 2])?)?;
    /// let m = RawTensor::from_vec(vec![0.0f64, 0.0], &[2])?;
    /// let v = RawTensor::from_vec(vec![4.0f64, 9.0], &[2])?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.batch_norm_eval(1, &m.view(), &v.view(), None, None, 0.0)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![2.0, 2.0]);
    /// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![0.5, 1.0 / 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn batch_norm_eval(
        &self,
        channel: usize,
        running_mean: &TensorRef<'_, Cpu>,
        running_var: &TensorRef<'_, Cpu>,
        weight: Option<&Var<'g, Cpu>>,
        bias: Option<&Var<'g, Cpu>>,
        eps: f64,
    ) -> Result<Var<'g, Cpu>> {
        let rank = self.shape().len();
        let c = *self.shape().get(channel).ok_or(Error::DimOutOfRange {
            dim: channel as isize,
            rank,
        })?;
        for (what, shape) in [
            ("running_mean", Some(running_mean.shape())),
            ("running_var", Some(running_var.shape())),
            ("weight", weight.map(Var::shape)),
            ("bias", bias.map(Var::shape)),
        ] {
            if let Some(s) = shape
                && s != [c]
            {
                return Err(Error::invalid(
                    "batch_norm",
                    format!(
                        "{what} should contain {c} elements not {}",
                        s.iter().product::<usize>()
                    ),
                ));
            }
        }
        let mut col = vec![1isize; rank];
        col[channel] = c as isize;
        let mean = running_mean.reshape(&col)?.as_ref().to_dtype(self.dtype)?;
        let invstd = running_var
            .reshape(&col)?
            .as_ref()
            .to_dtype(self.dtype)?
            .view()
            .binary_scalar(BinaryOp::Add, Scalar::Float(eps))?
            .view()
            .unary(UnaryOp::Rsqrt)?;
        let mut y = self
            .binary(BinaryOp::Sub, &Var::constant(mean))?
            .mul(&Var::constant(invstd))?;
        if let Some(w) = weight {
            y = y.mul(&w.view(&col)?)?;
        }
        if let Some(b) = bias {
            y = y.add(&b.view(&col)?)?;
        }
        Ok(y)
    }
}

impl<'g, D: Backend> Var<'g, D> {
    /// Group normalisation over the channel dim `channel` split into
    /// `groups` consecutive groups (as [`TensorRef::group_norm_axes`]:
    /// each group's statistics over its channels and the dims `spatial`,
    /// separately for each index of the other dims; the variance biased),
    /// then `· weight + bias` per channel; recorded as the ops it is made
    /// of (a permute and reshape to `[items, groups, rest]`, the mean and
    /// variance of the last dim, `(x − mean)·rsqrt(var + eps)`, the affine),
    /// so each gradient is theirs. Instance normalisation is `groups` equal
    /// to the channels.
    ///
    /// # Errors
    /// As [`TensorRef::group_norm_axes`].
    ///
    /// ```
    /// use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 3.0, 10.0, 30.0], &[1, 4])?)?;
    /// let b = Var::leaf(RawTensor::from_vec(vec![0.0f64; 4], &[4])?)?;
    /// let y = x.group_norm_axes(1, &[], 2, None, Some(&b), 0.0)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![-1.0, 1.0, -1.0, 1.0]);
    /// let id = b.leaf_id().unwrap();
    /// assert_eq!(y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![1.0; 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn group_norm_axes(
        &self,
        channel: usize,
        spatial: &[usize],
        groups: usize,
        weight: Option<&Var<'g, D>>,
        bias: Option<&Var<'g, D>>,
        eps: f64,
    ) -> Result<Var<'g, D>> {
        let shape = self.shape().to_vec();
        let c = crate::nn::norm::check_group_norm(
            &shape,
            channel,
            groups,
            weight.map(Var::shape),
            bias.map(Var::shape),
        )?;
        if let Some(&d) = spatial.iter().find(|&&d| d >= shape.len() || d == channel) {
            return Err(Error::invalid(
                "group_norm",
                format!("dim {d} is not a spatial dim of a tensor of shape {shape:?}"),
            ));
        }
        let mut skip = spatial.to_vec();
        skip.push(channel);
        let items = others(shape.len(), &skip);
        let order: Vec<usize> = items
            .iter()
            .chain([&channel])
            .chain(spatial)
            .copied()
            .collect();
        let perm: Vec<isize> = order.iter().map(|&d| d as isize).collect();
        let count: usize = items.iter().map(|&d| shape[d]).product();
        let rest = c / groups * spatial.iter().map(|&d| shape[d]).product::<usize>();
        let grouped =
            self.permute(&perm)?
                .reshape(&[count as isize, groups as isize, rest as isize])?;
        let mean = grouped.reduce(crate::ReduceOp::Mean, &[2], true)?;
        let var = grouped.reduce(crate::ReduceOp::Var { correction: 0.0 }, &[2], true)?;
        let rstd = var
            .binary_scalar(BinaryOp::Add, Scalar::Float(eps))?
            .unary(UnaryOp::Rsqrt)?;
        let normed = grouped
            .binary(BinaryOp::Sub, &mean)?
            .binary(BinaryOp::Mul, &rstd)?;
        let permuted: Vec<isize> = order.iter().map(|&d| shape[d] as isize).collect();
        let mut inverse = vec![0isize; order.len()];
        for (i, &d) in order.iter().enumerate() {
            inverse[d] = i as isize;
        }
        let mut y = normed.reshape(&permuted)?.permute(&inverse)?;
        let mut per_channel = vec![1isize; shape.len()];
        per_channel[channel] = c as isize;
        if let Some(w) = weight {
            y = y.binary(BinaryOp::Mul, &w.reshape(&per_channel)?)?;
        }
        if let Some(b) = bias {
            y = y.binary(BinaryOp::Add, &b.reshape(&per_channel)?)?;
        }
        Ok(y)
    }

    /// `hardsigmoid(x) = min(max(x + 3, 0), 6) / 6`, whose gradient is 1/6
    /// strictly between −3 and 3 and zero elsewhere (PyTorch's).
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![-4.0f64, 0.0, 3.0], &[3])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.hardsigmoid()?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![0.0, 0.5, 1.0]);
    /// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![0.0, 1.0 / 6.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn hardsigmoid(&self) -> Result<Var<'g, D>> {
        self.binary_scalar(BinaryOp::Add, Scalar::Float(3.0))?
            .hardtanh(0.0, 6.0)?
            .binary_scalar(BinaryOp::Div, Scalar::Float(6.0))
    }

    /// `hardswish(x) = x·min(max(x + 3, 0), 6) / 6`, whose gradient is 0
    /// below −3, `x/3 + 1/2` up to 3 included, 1 above (PyTorch's). Keeps
    /// its input.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![-4.0f64, 0.0, 3.0, 4.0], &[4])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.hardswish()?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![0.0, 0.0, 3.0, 4.0]);
    /// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![0.0, 0.5, 1.5, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn hardswish(&self) -> Result<Var<'g, D>> {
        let x = self.value();
        let clamped = x
            .binary_scalar(BinaryOp::Add, Scalar::Float(3.0))?
            .view()
            .unary(UnaryOp::Clamp {
                min: Some(0.0),
                max: Some(6.0),
            })?;
        let value = mul(&x, &clamped)?
            .view()
            .binary_scalar(BinaryOp::Div, Scalar::Float(6.0))?;
        let mut out = Var::fresh(value);
        if Var::tracks(&[self]) {
            let xs = self.save();
            out.attach(
                "Hardswish",
                &[self],
                Box::new(move |g, _| {
                    let x = xs.get()?;
                    let slope = x
                        .binary_scalar(BinaryOp::Div, Scalar::Float(3.0))?
                        .view()
                        .binary_scalar(BinaryOp::Add, Scalar::Float(0.5))?;
                    let below = cmp_scalar(CmpOp::Lt, &x, -3.0)?;
                    let middle = cmp_scalar(CmpOp::Le, &x, 3.0)?;
                    let zero = crate::ops::grad::zeros_like(&slope)?;
                    let one = zero
                        .view()
                        .binary_scalar(BinaryOp::Add, Scalar::Float(1.0))?;
                    let d = middle.view().where_(&slope.view(), &one.view())?;
                    let d = below.view().where_(&zero.view(), &d.view())?;
                    Ok(vec![Some(Grad::new(mul(&g, &d)?))])
                }),
            );
        }
        Ok(out)
    }
}

/// A convolution bias's gradient when `needed`: `g` summed over every dim
/// but `channel`.
fn bias_grad(g: &TensorRef<'_, Cpu>, channel: usize, needed: bool) -> Result<Option<Grad<Cpu>>> {
    if !needed {
        return Ok(None);
    }
    let dims: Vec<isize> = others(g.dim(), &[channel])
        .iter()
        .map(|&d| d as isize)
        .collect();
    Ok(Some(Grad::new(g.reduce(
        crate::ReduceOp::Sum,
        &dims,
        false,
    )?)))
}

/// The gradient of a convolution's weight: a convolution of the input
/// (batch as channels) by the output's gradient (batch as in-channels),
/// stride and dilation swapped, cut to the kernel.
fn weight_grad(
    x: &TensorRef<'_, Cpu>,
    g: &TensorRef<'_, Cpu>,
    axes: &ConvAxes,
    plan: &crate::nn::conv::ConvPlan,
    w_shape: &[usize],
) -> Result<RawTensor<Cpu>> {
    let rank = x.dim();
    let n = axes.spatial.len();
    let batch = others(
        rank,
        &std::iter::once(axes.channel)
            .chain(axes.spatial.iter().copied())
            .collect::<Vec<_>>(),
    );
    let count: usize = batch.iter().map(|&d| x.shape()[d]).product();
    let groups = plan.groups;
    let (cin, cout) = (x.shape()[axes.channel], g.shape()[axes.channel]);
    let per_in = cin / groups;
    // x as [per_in, groups·count, spatial...]: order (channel, batch, spatial).
    let order: Vec<usize> = std::iter::once(axes.channel)
        .chain(batch.iter().copied())
        .chain(axes.spatial.iter().copied())
        .collect();
    let sx: Vec<usize> = axes.spatial.iter().map(|&d| x.shape()[d]).collect();
    let mut shape = vec![groups, per_in, count];
    shape.extend(&sx);
    let xs = gathered(x, &order, &shape)?;
    // [groups, per_in, count, S] → [per_in, groups, count, S] → merged.
    let mut perm: Vec<isize> = vec![1, 0, 2];
    perm.extend((3..3 + n).map(|d| d as isize));
    let mut merged = vec![per_in, groups * count];
    merged.extend(&sx);
    let xs = gathered(
        &xs.view(),
        &perm.iter().map(|&d| d as usize).collect::<Vec<_>>(),
        &merged,
    )?;
    // g as the weight [cout, count, out spatial...].
    let so: Vec<usize> = axes.spatial.iter().map(|&d| g.shape()[d]).collect();
    let mut gshape = vec![cout, count];
    gshape.extend(&so);
    let gs = gathered(g, &order, &gshape)?;
    let o = ConvOptions::new()
        .stride(&plan.dilation)
        .dilation(&plan.stride)
        .groups(groups)
        .padding(Padding::Sides(plan.pad.to_vec()));
    let full = xs
        .view()
        .conv_axes(&gs.view(), None, &ConvAxes::channels_first(n + 2, n), &o)?;
    // [per_in, cout, K'...] cut to the kernel, then [cout, per_in, K...].
    let mut cut = full.view();
    for d in 0..n {
        cut = cut.narrow((2 + d) as isize, 0, w_shape[2 + d])?;
    }
    let mut swap: Vec<isize> = vec![1, 0];
    swap.extend((2..2 + n).map(|d| d as isize));
    cut.permute(&swap)?.to_contiguous()
}
