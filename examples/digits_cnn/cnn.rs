//! A small convolutional network on scikit-learn's digits, trained as
//! `oracle/torch_digits_cnn.py` trains it in PyTorch: the same initial
//! weights and split (read from the script's record), the same batches,
//! batch norm in training mode with its running statistics, AdamW; the
//! held-out accuracy in eval mode. The images are NCHW, every shape in
//! the type: `[Batch, Channels: 1, Rows: 8, Cols: 8]` to `[Batch, Channels:
//! 16, Rows: 2, Cols: 2]`, flattened by name into 64 features.

use std::path::Path;

use axial::autograd::{CrossEntropy, Param, Var};
use axial::optim::{Adam, AdamConfig, Optimizer, Parameter, zero_grad};
use axial::prelude::*;
use serde_json::Value;

// The data loading is shared with the MLP (whose file allows the dead code
// of each includer); its network is not used here.
#[path = "../digits/mlp.rs"]
mod mlp;

pub(crate) use mlp::{HELD_OUT, Result, STEPS, data_path};

axes!(pub(crate) Batch, pub(crate) Channels, pub(crate) Rows, pub(crate) Cols, pub(crate) Features, pub(crate) Classes);

/// The batch size.
const BATCH: usize = 64;
/// Batch norm's momentum and epsilon (PyTorch's defaults).
const MOMENTUM: f64 = 0.1;
const EPS: f64 = 1e-5;

/// A batch of images and their labels.
type Images = Tensor<f32, shape![Batch: 64, Channels: 1, Rows: 8, Cols: 8]>;
type Labels = Tensor<i64, shape![Batch: 64]>;
/// The held-out images and their labels.
type HeldImages = Tensor<f32, shape![Batch: 360, Channels: 1, Rows: 8, Cols: 8]>;
type HeldLabels = Tensor<i64, shape![Batch: 360]>;
/// A per-channel vector of the first block.
type PerChannel = Tensor<f32, shape![Channels: 8]>;

/// The parameters, in PyTorch's order: Conv2d(1, 8, 3, padding=1,
/// bias=False) (batch norm cancels a bias), BatchNorm2d(8), Conv2d(8, 16, 3, padding=1), Linear(64, 10).
#[allow(clippy::type_complexity)]
pub(crate) struct Weights {
    conv1_w: Param<f32, shape![8, 1, 3, 3]>,
    bn_w: Param<f32, shape![Channels: 8]>,
    bn_b: Param<f32, shape![Channels: 8]>,
    conv2_w: Param<f32, shape![16, 8, 3, 3]>,
    conv2_b: Param<f32, shape![16]>,
    fc_w: Param<f32, shape![Classes: 10, Features: 64]>,
    fc_b: Param<f32, shape![Classes: 10]>,
}

/// Batch norm's running statistics (buffers, not parameters).
pub(crate) struct Running {
    pub(crate) mean: PerChannel,
    pub(crate) var: PerChannel,
}

impl Weights {
    /// The weights PyTorch started from (`start`: the seven parameters'
    /// elements, in order).
    fn from_reference(start: &Value) -> Result<Self> {
        let param = |i: usize| -> Result<Vec<f32>> {
            let values = start[i].as_array().ok_or("start: seven lists")?;
            Ok(values
                .iter()
                .map(|v| v.as_f64().unwrap_or(f64::NAN) as f32)
                .collect())
        };
        Ok(Weights {
            conv1_w: Param::new(Tensor::from_vec(param(0)?)),
            bn_w: Param::new(Tensor::from_vec(param(1)?)),
            bn_b: Param::new(Tensor::from_vec(param(2)?)),
            conv2_w: Param::new(Tensor::from_vec(param(3)?)),
            conv2_b: Param::new(Tensor::from_vec(param(4)?)),
            fc_w: Param::new(Tensor::from_vec(param(5)?)),
            fc_b: Param::new(Tensor::from_vec(param(6)?)),
        })
    }

    /// The parameters, in PyTorch's order.
    fn parameters(&mut self) -> [&mut dyn Parameter<Cpu>; 7] {
        [
            &mut self.conv1_w,
            &mut self.bn_w,
            &mut self.bn_b,
            &mut self.conv2_w,
            &mut self.conv2_b,
            &mut self.fc_w,
            &mut self.fc_b,
        ]
    }

    /// The mean cross-entropy of a batch in training mode, tracked; batch
    /// norm updates `running`.
    fn loss<'a>(
        &'a self,
        running: &mut Running,
        x: &'a Images,
        y: &'a Labels,
    ) -> Result<Var<'a, f32, shape![]>> {
        let h = x.try_conv_tracked(
            Channels,
            (Rows, Cols),
            &self.conv1_w.var(),
            None,
            Conv::<1, 1>,
        )?;
        let h = h
            .try_batch_norm_train(
                Channels,
                Some(&self.bn_w.var()),
                Some(&self.bn_b.var()),
                Some((&mut running.mean, &mut running.var)),
                MOMENTUM,
                EPS,
            )?
            .relu()
            .try_max_pool((Rows, Cols), Pool::<2>)?;
        let h = h
            .try_conv(
                Channels,
                (Rows, Cols),
                &self.conv2_w.var(),
                Some(&self.conv2_b.var()),
                Conv::<1, 1>,
            )?
            .relu()
            .try_max_pool((Rows, Cols), Pool::<2>)?
            .try_merge::<names![Channels, Rows, Cols], Features>()?;
        let logits = h.try_linear(self.fc_w.var(), Some(&self.fc_b.var()))?;
        Ok(logits.try_cross_entropy::<Classes, _>(y, CrossEntropy::default())?)
    }

    /// One step: the loss, its gradients, AdamW's update; returns the loss.
    fn step(
        &mut self,
        running: &mut Running,
        opt: &mut Adam,
        x: &Images,
        y: &Labels,
    ) -> Result<f32> {
        let (loss, mut grads) = {
            let loss = self.loss(running, x, y)?;
            let value = loss.value().item();
            (value, loss.try_backward()?)
        };
        let mut params = self.parameters();
        zero_grad(&mut params);
        grads.accumulate_all(&mut params);
        opt.step(&mut params)?;
        Ok(loss)
    }

    /// The fraction of `x` whose most likely digit is `y`, in eval mode
    /// (batch norm with the running statistics), untracked.
    fn accuracy(&self, running: &Running, x: &HeldImages, y: &HeldLabels) -> Result<f64> {
        let h = x.try_conv(
            Channels,
            (Rows, Cols),
            self.conv1_w.value(),
            None,
            Conv::<1, 1>,
        )?;
        let h = h
            .try_batch_norm(
                Channels,
                running.mean.as_view(),
                running.var.as_view(),
                Some(self.bn_w.value().as_view()),
                Some(self.bn_b.value().as_view()),
                EPS,
            )?
            .relu()
            .try_max_pool((Rows, Cols), Pool::<2>)?;
        let h = h
            .try_conv(
                Channels,
                (Rows, Cols),
                self.conv2_w.value(),
                Some(self.conv2_b.value().as_view()),
                Conv::<1, 1>,
            )?
            .relu()
            .try_max_pool((Rows, Cols), Pool::<2>)?
            .merge::<names![Channels, Rows, Cols], Features>();
        let predicted = h
            .linear(self.fc_w.value(), Some(self.fc_b.value().as_view()))
            .argmax::<Classes>();
        let hits = predicted
            .to_vec()
            .iter()
            .zip(y.to_vec())
            .filter(|(p, l)| **p == *l)
            .count();
        Ok(hits as f64 / HELD_OUT as f64)
    }
}

/// PyTorch's run: split, initial weights, losses, statistics, accuracy.
pub(crate) fn reference() -> Result<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/data/torch_digits_cnn.json"))?;
    Ok(serde_json::from_str(&text)?)
}

/// What a run gives: the loss at each step, the final running statistics
/// and the held-out accuracy.
pub(crate) struct Run {
    pub(crate) losses: Vec<f32>,
    pub(crate) running: Running,
    pub(crate) accuracy: f64,
}

/// Trains from PyTorch's initial weights on the data at `path`, as the
/// script does: its split, batch `s` the training images `(64·s + k) mod
/// 1437`, AdamW with its learning rate.
pub(crate) fn train(path: &Path, reference: &Value) -> Result<Run> {
    let (images, labels) = mlp::load(path)?;
    let perm: Vec<usize> = reference["permutation"]
        .as_array()
        .ok_or("permutation")?
        .iter()
        .map(|v| v.as_u64().map(|i| i as usize).ok_or("an index"))
        .collect::<std::result::Result<_, _>>()?;
    let n_train = reference["train"].as_u64().ok_or("train")? as usize;
    if perm.len() != images.len() || perm.len() != n_train + HELD_OUT {
        return Err(format!("{} images, a permutation of {}", images.len(), perm.len()).into());
    }
    let (train, held) = perm.split_at(n_train);
    let mut weights = Weights::from_reference(&reference["start"])?;
    let mut running = Running {
        mean: Tensor::zeros(),
        var: Tensor::ones(),
    };
    let lr = reference["lr"].as_f64().ok_or("lr")?;
    let mut opt = Adam::adamw(AdamConfig {
        lr,
        ..AdamConfig::adamw()
    })?;
    let mut losses = Vec::with_capacity(STEPS);
    for s in 0..STEPS {
        let rows: Vec<usize> = (0..BATCH)
            .map(|k| train[(BATCH * s + k) % n_train])
            .collect();
        let (x, y): (Images, Labels) = mlp::gather(&images, &labels, &rows);
        losses.push(weights.step(&mut running, &mut opt, &x, &y)?);
    }
    let (x, y): (HeldImages, HeldLabels) = mlp::gather(&images, &labels, held);
    let accuracy = weights.accuracy(&running, &x, &y)?;
    Ok(Run {
        losses,
        running,
        accuracy,
    })
}
