//! A two-layer network on scikit-learn's digits, trained as
//! `oracle/torch_digits.py` trains it in PyTorch: the same initial weights
//! and split (read from the script's record), the same batches, AdamW.

// Each includer (the example and the tests) uses a part of this.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use axial::autograd::{CrossEntropy, Module, Param, Registry, Var};
use axial::optim::{Adam, AdamConfig, Optimizer, zero_grad};
use axial::prelude::*;
use axial::shape::{Distinct, StaticShape};
use serde_json::Value;

axes!(pub(crate) Batch, pub(crate) Pixels, pub(crate) Hidden, pub(crate) Classes);

pub(crate) type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// The sizes: 8×8 images, 64 hidden units, 10 digits, batches of 64.
pub(crate) const PIXELS: usize = 64;
pub(crate) const BATCH: usize = 64;
/// The number of optimizer steps.
pub(crate) const STEPS: usize = 200;

/// A batch of images and their labels.
pub(crate) type Images = Tensor<f32, shape![Batch: 64, Pixels: 64]>;
pub(crate) type Labels = Tensor<i64, shape![Batch: 64]>;
/// The held-out images and their labels.
pub(crate) type HeldImages = Tensor<f32, shape![Batch: 360, Pixels: 64]>;
pub(crate) type HeldLabels = Tensor<i64, shape![Batch: 360]>;
/// The logits of the held-out images.
pub(crate) type HeldLogits = Tensor<f32, shape![Batch: 360, Classes: 10]>;

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where `bench/fetch_digits.sh` puts the data.
pub(crate) fn data_path() -> PathBuf {
    root().join("target/digits/digits.csv")
}

/// PyTorch's run: split, initial weights, losses, accuracy.
pub(crate) fn reference() -> Result<Value> {
    let text = std::fs::read_to_string(root().join("tests/data/torch_digits.json"))?;
    Ok(serde_json::from_str(&text)?)
}

/// The images (pixels divided by 16) and labels of the CSV, in file order.
pub(crate) fn load(path: &Path) -> Result<(Vec<[f32; PIXELS]>, Vec<i64>)> {
    let text = std::fs::read_to_string(path)?;
    let (mut images, mut labels) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<f32> = line
            .split(',')
            .map(|f| f.trim().parse::<f32>())
            .collect::<std::result::Result<_, _>>()?;
        if fields.len() != PIXELS + 1 {
            return Err(format!(
                "line {}: {} fields, expected {}",
                n + 1,
                fields.len(),
                PIXELS + 1
            )
            .into());
        }
        let mut image = [0.0; PIXELS];
        for (p, v) in image.iter_mut().zip(&fields) {
            *p = v / 16.0;
        }
        images.push(image);
        labels.push(fields[PIXELS] as i64);
    }
    Ok((images, labels))
}

/// The images and labels at `rows`, as tensors of as many items.
pub(crate) fn gather<SX, SY>(
    images: &[[f32; PIXELS]],
    labels: &[i64],
    rows: &[usize],
) -> (Tensor<f32, SX>, Tensor<i64, SY>)
where
    SX: StaticShape + Distinct,
    SY: StaticShape + Distinct,
{
    let x = rows.iter().flat_map(|&r| images[r]).collect();
    let y = rows.iter().map(|&r| labels[r]).collect();
    (Tensor::from_vec(x), Tensor::from_vec(y))
}

/// Linear(64, 64), ReLU, Linear(64, 10): PyTorch's `hidden` and `out`
/// `nn.Linear`s, whose state dict names the parameters `hidden.weight`,
/// `hidden.bias`, `out.weight`, `out.bias`.
#[allow(clippy::type_complexity)]
pub(crate) struct Mlp {
    hidden_w: Param<f32, shape![Hidden: 64, Pixels: 64]>,
    hidden_b: Param<f32, shape![Hidden: 64]>,
    out_w: Param<f32, shape![Classes: 10, Hidden: 64]>,
    out_b: Param<f32, shape![Classes: 10]>,
}

impl Mlp {
    /// The network with the weights PyTorch started from (`start`: the
    /// four parameters' elements, in order).
    pub(crate) fn from_reference(start: &Value) -> Result<Self> {
        let param = |i: usize| -> Result<Vec<f32>> {
            let values = start[i].as_array().ok_or("start: four lists")?;
            Ok(values
                .iter()
                .map(|v| v.as_f64().unwrap_or(f64::NAN) as f32)
                .collect())
        };
        Ok(Mlp {
            hidden_w: Param::new(Tensor::from_vec(param(0)?)),
            hidden_b: Param::new(Tensor::from_vec(param(1)?)),
            out_w: Param::new(Tensor::from_vec(param(2)?)),
            out_b: Param::new(Tensor::from_vec(param(3)?)),
        })
    }

    /// The mean cross-entropy of a batch, tracked.
    fn loss<'a>(&'a self, x: &'a Images, y: &'a Labels) -> Var<'a, f32, shape![]> {
        let h = x
            .linear_tracked(&self.hidden_w.var(), Some(&self.hidden_b.var()))
            .relu();
        let logits = h.linear(self.out_w.var(), Some(&self.out_b.var()));
        logits.cross_entropy::<Classes, _>(y, CrossEntropy::default())
    }

    /// One step: the loss, its gradients, AdamW's update; returns the loss.
    pub(crate) fn step(&mut self, opt: &mut Adam, x: &Images, y: &Labels) -> Result<f32> {
        let (loss, mut grads) = {
            let loss = self.loss(x, y);
            let value = loss.value().item();
            (value, loss.try_backward()?)
        };
        let mut params = self.parameters();
        zero_grad(&mut params);
        grads.accumulate_all(&mut params);
        opt.step(&mut params)?;
        Ok(loss)
    }

    /// The logits of `x`, untracked.
    pub(crate) fn logits(&self, x: &HeldImages) -> HeldLogits {
        let h = x
            .linear(self.hidden_w.value(), Some(self.hidden_b.value().as_view()))
            .relu();
        h.linear(self.out_w.value(), Some(self.out_b.value().as_view()))
    }

    /// The fraction of `x` whose most likely digit is `y`.
    pub(crate) fn accuracy(&self, x: &HeldImages, y: &HeldLabels) -> f64 {
        let predicted = self.logits(x).argmax::<Classes>();
        let hits = predicted
            .to_vec()
            .iter()
            .zip(y.to_vec())
            .filter(|(p, l)| **p == *l)
            .count();
        hits as f64 / HELD_OUT as f64
    }
}

impl Module for Mlp {
    fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
        r.param("hidden.weight", &mut self.hidden_w);
        r.param("hidden.bias", &mut self.hidden_b);
        r.param("out.weight", &mut self.out_w);
        r.param("out.bias", &mut self.out_b);
    }
}

/// What a run gives: the loss at each step and the held-out accuracy.
pub(crate) struct Run {
    pub(crate) losses: Vec<f32>,
    pub(crate) accuracy: f64,
}

/// The images held out from training.
pub(crate) const HELD_OUT: usize = 360;

/// Trains from PyTorch's initial weights on the data at `path`, as the
/// script does: its split, batch `s` the training images `(64·s + k) mod
/// 1437`, AdamW with its learning rate.
pub(crate) fn train(path: &Path, reference: &Value) -> Result<Run> {
    let (images, labels) = load(path)?;
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
    let mut model = Mlp::from_reference(&reference["start"])?;
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
        let (x, y): (Images, Labels) = gather(&images, &labels, &rows);
        losses.push(model.step(&mut opt, &x, &y)?);
    }
    let (x, y): (HeldImages, HeldLabels) = gather(&images, &labels, held);
    Ok(Run {
        losses,
        accuracy: model.accuracy(&x, &y),
    })
}
