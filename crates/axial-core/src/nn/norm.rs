//! Batch, group and instance normalisation: statistics of groups of
//! channels (over the batch, or per batch item), then one scale and shift
//! per channel, with PyTorch's checks and messages.

use super::alloc::{alloc_on, like, output};
use super::conv::{as_dtype, compute_dtype, or_view};
use crate::cpu::conv::norm::{Scope, moments};
use crate::ops::ChannelAffine;
use crate::{Backend, Cpu, DType, Error, RawTensor, Result, TensorMut, TensorRef};

/// The values of a 1-d per-channel parameter as f64, checked to hold `c`
/// elements (PyTorch's "weight should contain 2 elements not 3").
fn params<D: Backend>(
    what: &str,
    p: Option<&TensorRef<'_, D>>,
    c: usize,
    op: &'static str,
) -> Result<Option<Vec<f64>>> {
    let Some(p) = p else { return Ok(None) };
    if p.numel() != c {
        return Err(Error::invalid(
            op,
            format!("{what} should contain {c} elements not {}", p.numel()),
        ));
    }
    Ok(Some(
        p.reshape(&[c as isize])?
            .as_ref()
            .to_dtype(DType::F64)?
            .to_vec::<f64>()?,
    ))
}

/// The last (up to three) dims other than `channel`: the positions of a
/// batch norm's grid (the rest are batch items; both are reduced).
fn positions(rank: usize, channel: usize) -> Vec<usize> {
    let others: Vec<usize> = (0..rank).filter(|&d| d != channel).collect();
    others[others.len().saturating_sub(3)..].to_vec()
}

impl<D: Backend> TensorRef<'_, D> {
    /// `y = x·scale + shift` per channel (or per item and channel), in the
    /// dtype the kernels compute this tensor's dtype in.
    fn scaled(
        &self,
        op: &'static str,
        channel: usize,
        spatial: &[usize],
        scale: &[f64],
        shift: &[f64],
    ) -> Result<RawTensor<D>> {
        let dtype = compute_dtype(self.dtype()).ok_or(Error::Unsupported {
            op,
            dtype: self.dtype(),
        })?;
        let widened = as_dtype(self, dtype)?;
        let x = or_view(&widened, self);
        let device = x.storage().device().clone();
        let mut y = alloc_on(&device, like(x.layout(), x.shape()), dtype)?;
        let op = ChannelAffine {
            channel,
            spatial: spatial.to_vec(),
        };
        device.channel_affine(&op, x.input(), scale, shift, output(&mut y))?;
        if dtype == self.dtype() {
            Ok(y)
        } else {
            y.view().to_dtype(self.dtype())
        }
    }

    /// Batch normalisation with running statistics (inference,
    /// `F.batch_norm(..., training=False)`) over the channel dim `channel`
    /// (any layout): `(x − mean) / √(var + eps) · weight + bias` per channel.
    ///
    /// # Errors
    /// A running statistic, weight or bias without one element per channel
    /// (PyTorch's "running_mean should contain 2 elements not 3"); integer
    /// tensors.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// // NHWC [1, 1, 2, 2]: channels are dim 3.
    /// let x = RawTensor::from_vec(vec![1.0f32, 10.0, 3.0, 30.0], &[1, 1, 2, 2])?;
    /// let mean = RawTensor::from_vec(vec![2.0f32, 20.0], &[2])?;
    /// let var = RawTensor::from_vec(vec![1.0f32, 100.0], &[2])?;
    /// let y = x.view().batch_norm_axes(3, &mean.view(), &var.view(), None, None, 0.0)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![-1.0, -1.0, 1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn batch_norm_axes(
        &self,
        channel: usize,
        running_mean: &TensorRef<'_, D>,
        running_var: &TensorRef<'_, D>,
        weight: Option<&TensorRef<'_, D>>,
        bias: Option<&TensorRef<'_, D>>,
        eps: f64,
    ) -> Result<RawTensor<D>> {
        let op = "batch_norm";
        let c = self
            .shape()
            .get(channel)
            .copied()
            .ok_or(Error::DimOutOfRange {
                dim: channel as isize,
                rank: self.dim(),
            })?;
        let mean = params("running_mean", Some(running_mean), c, op)?.unwrap_or_default();
        let var = params("running_var", Some(running_var), c, op)?.unwrap_or_default();
        let w = params("weight", weight, c, op)?;
        let b = params("bias", bias, c, op)?;
        let (scale, shift) = affine_of(&mean, &var, w.as_deref(), b.as_deref(), eps, self.dtype());
        self.scaled(op, channel, &positions(self.dim(), channel), &scale, &shift)
    }

    /// `F.batch_norm(x, running_mean, running_var, weight, bias,
    /// training=False, eps=eps)`: the channel dim is dim 1.
    ///
    /// # Errors
    /// As [`batch_norm_axes`](Self::batch_norm_axes).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![4.0f64, 6.0], &[1, 2])?;
    /// let m = RawTensor::from_vec(vec![0.0f64, 0.0], &[2])?;
    /// let v = RawTensor::from_vec(vec![4.0f64, 9.0], &[2])?;
    /// assert_eq!(x.view().batch_norm(&m.view(), &v.view(), None, None, 0.0)?.to_vec::<f64>()?, vec![2.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn batch_norm(
        &self,
        running_mean: &TensorRef<'_, D>,
        running_var: &TensorRef<'_, D>,
        weight: Option<&TensorRef<'_, D>>,
        bias: Option<&TensorRef<'_, D>>,
        eps: f64,
    ) -> Result<RawTensor<D>> {
        if self.dim() < 2 {
            return Err(Error::invalid(
                "batch_norm",
                format!(
                    "running_mean should contain 0 elements not {}",
                    running_mean.numel()
                ),
            ));
        }
        self.batch_norm_axes(1, running_mean, running_var, weight, bias, eps)
    }
}

impl TensorRef<'_, Cpu> {
    /// Means and biased variances of groups of channels.
    fn stats(
        &self,
        op: &'static str,
        channel: usize,
        spatial: &[usize],
        scope: Scope,
    ) -> Result<Vec<(f64, f64)>> {
        let dtype = compute_dtype(self.dtype()).ok_or(Error::Unsupported {
            op,
            dtype: self.dtype(),
        })?;
        let widened = as_dtype(self, dtype)?;
        moments(or_view(&widened, self).input(), channel, spatial, scope)
    }

    /// Batch normalisation in training mode (`F.batch_norm(...,
    /// training=True)`) over the channel dim `channel`: each channel
    /// normalised by the mean and biased variance of its elements in this
    /// batch; the running statistics, when given, become `(1 − momentum)·
    /// running + momentum·batch` (the variance unbiased), as PyTorch
    /// updates them.
    ///
    /// # Errors
    /// One value per channel (PyTorch's "Expected more than 1 value per
    /// channel when training"); parameters of another length.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 3.0], &[2, 1])?;
    /// let mut mean = RawTensor::from_vec(vec![0.0f32], &[1])?;
    /// let mut var = RawTensor::from_vec(vec![1.0f32], &[1])?;
    /// let y = x.view().batch_norm_train(1, None, None, Some((&mut mean.view_mut(), &mut var.view_mut())), 0.5, 0.0)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![-1.0, 1.0]);
    /// assert_eq!((mean.to_vec::<f32>()?, var.to_vec::<f32>()?), (vec![1.0], vec![1.5]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn batch_norm_train(
        &self,
        channel: usize,
        weight: Option<&TensorRef<'_, Cpu>>,
        bias: Option<&TensorRef<'_, Cpu>>,
        running: Option<(&mut TensorMut<'_, Cpu>, &mut TensorMut<'_, Cpu>)>,
        momentum: f64,
        eps: f64,
    ) -> Result<RawTensor<Cpu>> {
        let op = "batch_norm";
        let c = self
            .shape()
            .get(channel)
            .copied()
            .ok_or(Error::DimOutOfRange {
                dim: channel as isize,
                rank: self.dim(),
            })?;
        let count = self.numel().checked_div(c).unwrap_or(0);
        if count <= 1 {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected more than 1 value per channel when training, got input size torch.Size({:?})",
                    self.shape()
                ),
            ));
        }
        let w = params("weight", weight, c, op)?;
        let b = params("bias", bias, c, op)?;
        if let Some((m, v)) = &running {
            params("running_mean", Some(&m.as_ref()), c, op)?;
            params("running_var", Some(&v.as_ref()), c, op)?;
        }
        let spatial = positions(self.dim(), channel);
        let stats = self.stats(
            op,
            channel,
            &spatial,
            Scope {
                per_item: false,
                groups: c,
            },
        )?;
        let (mean, var): (Vec<f64>, Vec<f64>) = stats.into_iter().unzip();
        let (scale, shift) = affine_of(&mean, &var, w.as_deref(), b.as_deref(), eps, self.dtype());
        let y = self.scaled(op, channel, &spatial, &scale, &shift)?;
        if let Some((rm, rv)) = running {
            let unbiased = count as f64 / (count as f64 - 1.0);
            update(rm, &mean, momentum, 1.0)?;
            update(rv, &var, momentum, unbiased)?;
        }
        Ok(y)
    }

    /// Group normalisation over the channel dim `channel` split into
    /// `groups` consecutive groups, the statistics of each group taken over
    /// its channels and the dims `spatial`, separately for each index of
    /// the other dims; then `· weight + bias` per channel.
    ///
    /// # Errors
    /// Groups that do not divide the channels, a weight or bias of another
    /// length (PyTorch's messages), more than three `spatial` dims.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 3.0, 10.0, 30.0], &[1, 4])?;
    /// let y = x.view().group_norm_axes(1, &[], 2, None, None, 0.0)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![-1.0, 1.0, -1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn group_norm_axes(
        &self,
        channel: usize,
        spatial: &[usize],
        groups: usize,
        weight: Option<&TensorRef<'_, Cpu>>,
        bias: Option<&TensorRef<'_, Cpu>>,
        eps: f64,
    ) -> Result<RawTensor<Cpu>> {
        let op = "group_norm";
        let c = check_group_norm(
            self.shape(),
            channel,
            groups,
            weight.map(TensorRef::shape),
            bias.map(TensorRef::shape),
        )?;
        let w = params("weight", weight, c, op)?;
        let b = params("bias", bias, c, op)?;
        let stats = self.stats(
            op,
            channel,
            spatial,
            Scope {
                per_item: true,
                groups,
            },
        )?;
        let width = c / groups;
        let items = stats.len() / groups;
        let (mut scale, mut shift) = (Vec::with_capacity(items * c), Vec::with_capacity(items * c));
        let r = rounding(self.dtype());
        for item in 0..items {
            for ch in 0..c {
                let (mean, var) = stats[item * groups + ch / width];
                let rstd = r(1.0 / r(r(var) + eps).sqrt());
                let s = r(rstd * w.as_ref().map_or(1.0, |w| w[ch]));
                scale.push(s);
                shift.push(r(b.as_ref().map_or(0.0, |b| b[ch]) - r(mean) * s));
            }
        }
        self.scaled(op, channel, spatial, &scale, &shift)
    }

    /// `F.group_norm(x, groups, weight, bias, eps)`: `x` is `[N, C, ...]`
    /// (at most three dims after `C`).
    ///
    /// # Errors
    /// As [`group_norm_axes`](Self::group_norm_axes), and fewer than two dims.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![0.0f64, 0.0, 2.0, 2.0], &[1, 2, 2])?;
    /// let y = x.view().group_norm(1, None, None, 0.0)?; // mean 1, variance 1
    /// assert_eq!(y.to_vec::<f64>()?, vec![-1.0, -1.0, 1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn group_norm(
        &self,
        groups: usize,
        weight: Option<&TensorRef<'_, Cpu>>,
        bias: Option<&TensorRef<'_, Cpu>>,
        eps: f64,
    ) -> Result<RawTensor<Cpu>> {
        if self.dim() < 2 {
            return Err(too_few_dims("group_norm", self.dim()));
        }
        let spatial: Vec<usize> = (2..self.dim()).collect();
        self.group_norm_axes(1, &spatial, groups, weight, bias, eps)
    }

    /// `F.instance_norm(x, running_mean, running_var, weight, bias,
    /// use_input_stats=True, momentum, eps)`: each channel of each batch
    /// item of `[N, C, ...]` normalised by its own statistics; the running
    /// statistics, when given, move towards the batch's average of them
    /// (PyTorch's update).
    ///
    /// # Errors
    /// As [`instance_norm_axes`](Self::instance_norm_axes).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 3.0, 5.0, 9.0], &[1, 2, 2])?;
    /// let y = x.view().instance_norm(None, None, None, 0.1, 0.0)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![-1.0, 1.0, -1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn instance_norm(
        &self,
        weight: Option<&TensorRef<'_, Cpu>>,
        bias: Option<&TensorRef<'_, Cpu>>,
        running: Option<(&mut TensorMut<'_, Cpu>, &mut TensorMut<'_, Cpu>)>,
        momentum: f64,
        eps: f64,
    ) -> Result<RawTensor<Cpu>> {
        if self.dim() < 2 {
            return Err(too_few_dims("instance_norm", self.dim()));
        }
        let spatial: Vec<usize> = (2..self.dim()).collect();
        self.instance_norm_axes(1, &spatial, weight, bias, running, momentum, eps)
    }

    /// Instance normalisation over the dims `spatial`, one instance per
    /// channel (`channel`) and index of the other dims (the batch), in any
    /// layout: as [`instance_norm`](Self::instance_norm), whose `[N, C,
    /// ...]` is `channel` 1 and `spatial` `2..`.
    ///
    /// # Errors
    /// One element per instance (PyTorch's "Expected more than 1 spatial
    /// element when training"); parameters of another length.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// // NLC: two items, two channels last, three positions each.
    /// let x = RawTensor::from_vec(vec![1.0f64, 0.0, 2.0, 0.0, 3.0, 0.0, 5.0, 2.0, 5.0, 4.0, 5.0, 6.0], &[2, 3, 2])?;
    /// let mut mean = RawTensor::from_vec(vec![0.0f64; 2], &[2])?;
    /// let mut var = RawTensor::from_vec(vec![1.0f64; 2], &[2])?;
    /// let running = (&mut mean.view_mut(), &mut var.view_mut());
    /// x.view().instance_norm_axes(2, &[1], None, None, Some(running), 0.5, 1e-5)?;
    /// // The items' means (2, 5 and 0, 4) averaged, half way from 0.
    /// assert_eq!(mean.to_vec::<f64>()?, vec![1.75, 1.0]);
    /// // Their unbiased variances (1, 0 and 0, 4) averaged, half way from 1.
    /// assert_eq!(var.to_vec::<f64>()?, vec![0.75, 1.5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn instance_norm_axes(
        &self,
        channel: usize,
        spatial: &[usize],
        weight: Option<&TensorRef<'_, Cpu>>,
        bias: Option<&TensorRef<'_, Cpu>>,
        running: Option<(&mut TensorMut<'_, Cpu>, &mut TensorMut<'_, Cpu>)>,
        momentum: f64,
        eps: f64,
    ) -> Result<RawTensor<Cpu>> {
        let stats = running.as_ref().map(|(m, v)| (m.as_ref(), v.as_ref()));
        let c = self.check_instance(channel, spatial, weight, bias, stats.as_ref())?;
        let y = self.group_norm_axes(channel, spatial, c, weight, bias, eps)?;
        if let Some(running) = running {
            self.move_instance_running(channel, spatial, c, running, momentum)?;
        }
        Ok(y)
    }

    /// PyTorch's checks of an instance norm in training, each made once
    /// and before anything is computed: the dims, more than one element per
    /// instance, and the lengths of the weight, the bias and the running
    /// statistics (the channel count, which it returns).
    pub(crate) fn check_instance(
        &self,
        channel: usize,
        spatial: &[usize],
        weight: Option<&TensorRef<'_, Cpu>>,
        bias: Option<&TensorRef<'_, Cpu>>,
        running: Option<&(TensorRef<'_, Cpu>, TensorRef<'_, Cpu>)>,
    ) -> Result<usize> {
        let c = self.instance_params(channel, spatial, [("weight", weight), ("bias", bias)])?;
        if let Some((m, v)) = running {
            self.instance_params(
                channel,
                spatial,
                [("running_mean", Some(m)), ("running_var", Some(v))],
            )?;
        }
        Ok(c)
    }

    /// PyTorch's checks of an instance norm in training, and of the lengths
    /// of its per-channel `params`: the channel count.
    fn instance_params(
        &self,
        channel: usize,
        spatial: &[usize],
        params: [(&str, Option<&TensorRef<'_, Cpu>>); 2],
    ) -> Result<usize> {
        let op = "instance_norm";
        let shape = self.shape();
        let Some(&c) = shape.get(channel) else {
            return Err(Error::invalid(
                op,
                format!("no dim {channel} in a tensor of {} dims", shape.len()),
            ));
        };
        if let Some(&d) = spatial.iter().find(|&&d| d >= shape.len() || d == channel) {
            return Err(Error::invalid(
                op,
                format!(
                    "dim {d} cannot be a spatial dim of a tensor of {} dims, channel {channel}",
                    shape.len()
                ),
            ));
        }
        let n: usize = (0..shape.len())
            .filter(|d| *d != channel && !spatial.contains(d))
            .map(|d| shape[d])
            .product();
        let per = spatial.iter().map(|&d| shape[d]).product::<usize>();
        if per <= 1 {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected more than 1 spatial element when training, got input size torch.Size({shape:?})"
                ),
            ));
        }
        // PyTorch checks the parameters of the batch norm it runs over
        // `[1, N·C, ...]`.
        for (what, p) in params {
            if let Some(p) = p
                && p.numel() != c
            {
                return Err(Error::invalid(
                    op,
                    format!(
                        "{what} should contain {} elements not {}",
                        n * c,
                        p.numel() * n
                    ),
                ));
            }
        }
        Ok(c)
    }

    /// The running statistics of an instance norm in training moved by
    /// `momentum` towards the batch's average of the instances' means and
    /// unbiased variances, as PyTorch updates them (after checking the
    /// instance norm as [`instance_norm_axes`](Self::instance_norm_axes)).
    ///
    /// # Errors
    /// As [`instance_norm_axes`](Self::instance_norm_axes).
    pub fn update_instance_running(
        &self,
        channel: usize,
        spatial: &[usize],
        (rm, rv): (&mut TensorMut<'_, Cpu>, &mut TensorMut<'_, Cpu>),
        momentum: f64,
    ) -> Result<()> {
        let (m, v) = (rm.as_ref(), rv.as_ref());
        let c = self.instance_params(
            channel,
            spatial,
            [("running_mean", Some(&m)), ("running_var", Some(&v))],
        )?;
        self.move_instance_running(channel, spatial, c, (rm, rv), momentum)
    }

    /// [`update_instance_running`](Self::update_instance_running) once its
    /// checks are made (`c` channels).
    pub(crate) fn move_instance_running(
        &self,
        channel: usize,
        spatial: &[usize],
        c: usize,
        (rm, rv): (&mut TensorMut<'_, Cpu>, &mut TensorMut<'_, Cpu>),
        momentum: f64,
    ) -> Result<()> {
        let op = "instance_norm";
        let stats = self.stats(
            op,
            channel,
            spatial,
            Scope {
                per_item: true,
                groups: c,
            },
        )?;
        let items = stats.len() / c.max(1);
        let per = spatial.iter().map(|&d| self.shape()[d]).product::<usize>();
        let unbiased = per as f64 / (per as f64 - 1.0);
        let avg = |f: &dyn Fn((f64, f64)) -> f64| -> Vec<f64> {
            (0..c)
                .map(|ch| (0..items).map(|i| f(stats[i * c + ch])).sum::<f64>() / items as f64)
                .collect()
        };
        update(rm, &avg(&|s| s.0), momentum, 1.0)?;
        update(rv, &avg(&|s| s.1), momentum, unbiased)
    }
}

/// `scale = weight / √(var + eps)`, `shift = bias − mean·scale`, each
/// rounded as the kernels' dtype (f32 for f32, f16 and bf16).
fn affine_of(
    mean: &[f64],
    var: &[f64],
    w: Option<&[f64]>,
    b: Option<&[f64]>,
    eps: f64,
    dtype: DType,
) -> (Vec<f64>, Vec<f64>) {
    let r = rounding(dtype);
    let mut scale = Vec::with_capacity(mean.len());
    let mut shift = Vec::with_capacity(mean.len());
    for c in 0..mean.len() {
        let invstd = r(1.0 / r(r(var[c]) + eps).sqrt());
        let s = r(invstd * w.map_or(1.0, |w| r(w[c])));
        scale.push(s);
        shift.push(r(b.map_or(0.0, |b| r(b[c])) - r(mean[c]) * s));
    }
    (scale, shift)
}

/// Rounds a value as the kernels' dtype for `dtype` holds it (f32 for f32,
/// f16 and bf16), so that `x·scale + shift` cancels exactly where PyTorch's
/// does.
fn rounding(dtype: DType) -> fn(f64) -> f64 {
    if dtype == DType::F64 {
        |v| v
    } else {
        |v| v as f32 as f64
    }
}

/// `running ← (1 − momentum)·running + momentum·factor·batch`.
fn update(
    running: &mut TensorMut<'_, Cpu>,
    batch: &[f64],
    momentum: f64,
    factor: f64,
) -> Result<()> {
    let old = running
        .as_ref()
        .reshape(&[-1])?
        .as_ref()
        .to_dtype(DType::F64)?
        .to_vec::<f64>()?;
    let new: Vec<f64> = old
        .iter()
        .zip(batch)
        .map(|(&r, &b)| (1.0 - momentum) * r + momentum * b * factor)
        .collect();
    let shape = running.shape().to_vec();
    let t = RawTensor::from_vec(new, &shape)?
        .view()
        .to_dtype(running.dtype())?;
    running.copy_(&t.view())
}

/// PyTorch's error for a group or instance norm of an input with fewer than
/// two dims (batch and channels).
fn too_few_dims(op: &'static str, dims: usize) -> Error {
    Error::invalid(
        op,
        format!("Expected at least 2 dimensions for input tensor but received {dims}"),
    )
}

/// Checks a group norm's operands (PyTorch's messages): the channel dim
/// `channel` of `shape` divided into `groups`, a weight and a bias of one
/// element per channel. The channel count.
pub(crate) fn check_group_norm(
    shape: &[usize],
    channel: usize,
    groups: usize,
    weight: Option<&[usize]>,
    bias: Option<&[usize]>,
) -> Result<usize> {
    let op = "group_norm";
    let c = shape.get(channel).copied().ok_or(Error::DimOutOfRange {
        dim: channel as isize,
        rank: shape.len(),
    })?;
    if groups == 0 || c % groups != 0 {
        return Err(Error::invalid(
            op,
            format!(
                "Expected number of channels in input to be divisible by num_groups, but got input of shape {shape:?} and num_groups={groups}"
            ),
        ));
    }
    for (what, p) in [("weight", weight), ("bias", bias)] {
        if let Some(p) = p
            && (p.len() != 1 || p[0] != c)
        {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected {what} to be a vector of size equal to the number of channels in input, but got {what} of shape {p:?} and input of shape {shape:?}"
                ),
            ));
        }
    }
    Ok(c)
}
