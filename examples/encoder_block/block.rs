//! A trainable BERT encoder block of MiniLM's sizes (Model 384, 12 heads of
//! 32, MLP 1536), its parameters named as Hugging Face's `BertLayer` names
//! them (`attention.self.query.weight`, …, `output.LayerNorm.bias`), so its
//! state dict is a `BertLayer`'s; one training step is the forward on
//! `[Batch, Seq, Model]` hidden states, the mean of the output's squares as
//! the loss, the backward pass and an AdamW step, as
//! `bench/torch_train.py` runs it in PyTorch (the `train_step/8x128`
//! case of `benches/train.rs`).

// Each includer (the example, the test, the bench) uses a part of this.
#![allow(dead_code)]

use axial::autograd::{Module, Param, Registry, Var};
use axial::optim::{Adam, Optimizer, zero_grad};
use axial::prelude::*;
use axial::shape::{Distinct, StaticShape};

axes!(
    pub(crate) Batch,
    pub(crate) Seq,
    pub(crate) Key,
    pub(crate) Model,
    pub(crate) Inner,
    pub(crate) Heads,
    pub(crate) Head,
    pub(crate) Mlp
);

/// The hidden states a block reads and writes: 8 sequences of 128.
pub(crate) type Hidden = Tensor<f32, shape![Batch: 8, Seq: 128, Model: 384]>;

const EPS: f64 = 1e-12;

/// `nn.Linear(I, O)`: `weight` `[O, I]` and `bias` `[O]`.
pub(crate) struct Linear<W, B> {
    pub(crate) weight: Param<f32, W>,
    pub(crate) bias: Param<f32, B>,
}

impl<W: StaticShape + Distinct, B: StaticShape + Distinct> Linear<W, B> {
    /// PyTorch's default initialisation's bounds: uniform in ±1/√fan_in
    /// (drawn here from a normal of that scale, which the tests and the
    /// benchmark do not depend on).
    fn new(fan_in: usize, rng: &mut Generator) -> Self {
        let scale = 1.0 / (fan_in as f32).sqrt();
        Linear {
            weight: Param::new(Tensor::randn(rng) * scale),
            bias: Param::new(Tensor::randn(rng) * scale),
        }
    }
}

impl<W: StaticShape, B: StaticShape> Module for Linear<W, B> {
    fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
        r.param("weight", &mut self.weight);
        r.param("bias", &mut self.bias);
    }
}

/// `nn.LayerNorm(384)`.
pub(crate) struct Norm {
    pub(crate) weight: Param<f32, shape![Model: 384]>,
    pub(crate) bias: Param<f32, shape![Model: 384]>,
}

impl Norm {
    fn new() -> Self {
        Norm {
            weight: Param::new(Tensor::ones()),
            bias: Param::new(Tensor::zeros()),
        }
    }
}

impl Module for Norm {
    fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
        r.param("weight", &mut self.weight);
        r.param("bias", &mut self.bias);
    }
}

type Projection = Linear<shape![Inner: 384, Model: 384], shape![Inner: 384]>;
type Up = Linear<shape![Mlp: 1536, Model: 384], shape![Mlp: 1536]>;
type AttentionOutput = Output<shape![Model: 384, Inner: 384], shape![Model: 384]>;
type MlpOutput = Output<shape![Model: 384, Mlp: 1536], shape![Model: 384]>;
/// The hidden states, tracked.
type HiddenVar<'a> = Var<'a, f32, shape![Batch: 8, Seq: 128, Model: 384]>;

/// `BertSelfAttention`: the query, key and value projections.
pub(crate) struct SelfAttention {
    pub(crate) query: Projection,
    pub(crate) key: Projection,
    pub(crate) value: Projection,
}

impl Module for SelfAttention {
    fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
        r.module("query", &mut self.query);
        r.module("key", &mut self.key);
        r.module("value", &mut self.value);
    }
}

/// `BertSelfOutput` and `BertOutput`: a projection and a layer norm.
pub(crate) struct Output<W, B> {
    pub(crate) dense: Linear<W, B>,
    pub(crate) norm: Norm,
}

impl<W: StaticShape, B: StaticShape> Module for Output<W, B> {
    fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
        r.module("dense", &mut self.dense);
        r.module("LayerNorm", &mut self.norm);
    }
}

/// `BertAttention`: `self` (the attention) and `output`.
pub(crate) struct Attention {
    pub(crate) attention: SelfAttention,
    pub(crate) output: AttentionOutput,
}

impl Module for Attention {
    fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
        r.module("self", &mut self.attention);
        r.module("output", &mut self.output);
    }
}

/// `BertIntermediate`: the MLP's up projection.
pub(crate) struct Intermediate {
    pub(crate) dense: Up,
}

impl Module for Intermediate {
    fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
        r.module("dense", &mut self.dense);
    }
}

/// `BertLayer`: the attention, the MLP's up projection (`intermediate`)
/// and its down projection with the second norm (`output`).
pub(crate) struct Block {
    pub(crate) attention: Attention,
    pub(crate) intermediate: Intermediate,
    pub(crate) output: MlpOutput,
}

impl Module for Block {
    fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
        r.module("attention", &mut self.attention);
        r.module("intermediate", &mut self.intermediate);
        r.module("output", &mut self.output);
    }
}

impl Block {
    /// A block with weights drawn from `rng`, norms at one and zero.
    pub(crate) fn new(rng: &mut Generator) -> Self {
        Block {
            attention: Attention {
                attention: SelfAttention {
                    query: Linear::new(384, rng),
                    key: Linear::new(384, rng),
                    value: Linear::new(384, rng),
                },
                output: Output {
                    dense: Linear::new(384, rng),
                    norm: Norm::new(),
                },
            },
            intermediate: Intermediate {
                dense: Linear::new(384, rng),
            },
            output: Output {
                dense: Linear::new(1536, rng),
                norm: Norm::new(),
            },
        }
    }

    /// The block over `x`, tracked (BERT's eager attention, no mask and no
    /// dropout): scores `Q·Kᵀ/√32`, softmax over keys, the heads merged,
    /// the attention's output projection added to `x` and normed, the
    /// MLP (GELU) added to that and normed.
    pub(crate) fn forward<'a>(&'a self, x: &'a Hidden) -> HiddenVar<'a> {
        let a = &self.attention.attention;
        let project = |p: &'a Projection| {
            x.linear_tracked(&p.weight.var(), Some(&p.bias.var()))
                .split::<Inner, shape![Heads: 12, Head: 32]>()
        };
        let query = project(&a.query).align_to::<names![Batch, Heads, Seq, Head]>();
        let key = project(&a.key)
            .rename::<Seq, Key>()
            .align_to::<names![Batch, Heads, Head, Key]>();
        let value = project(&a.value)
            .rename::<Seq, Key>()
            .align_to::<names![Batch, Heads, Key, Head]>();
        let scores = query.matmul(key) / 32f32.sqrt();
        let probs = scores.softmax::<Key>();
        let context = probs
            .matmul(value)
            .align_to::<names![Batch, Seq, Heads, Head]>()
            .merge::<names![Heads, Head], Inner>();
        let out = &self.attention.output;
        let attended = context.linear(out.dense.weight.var(), Some(&out.dense.bias.var())) + x;
        let attended = attended
            .layer_norm::<Model>(
                Some(&out.norm.weight.var()),
                Some(&out.norm.bias.var()),
                EPS,
            )
            .into_kept();
        let up = &self.intermediate.dense;
        let hidden = attended
            .linear(up.weight.var(), Some(&up.bias.var()))
            .gelu();
        let down = &self.output;
        let out = hidden.linear(down.dense.weight.var(), Some(&down.dense.bias.var())) + &attended;
        out.layer_norm::<Model>(
            Some(&down.norm.weight.var()),
            Some(&down.norm.bias.var()),
            EPS,
        )
    }

    /// One training step on `x`: the loss (the mean of the output's
    /// squares), its gradients, `opt`'s update; returns the loss.
    pub(crate) fn step(&mut self, opt: &mut Adam, x: &Hidden) -> axial::Result<f32> {
        // The last step's gradients go first, as `opt.zero_grad()` before
        // `loss.backward()` lets them go in PyTorch: not held at the
        // backward pass's peak.
        zero_grad(&mut self.parameters());
        let (loss, mut grads) = {
            let loss = self.forward(x).square().mean_all();
            let value = loss.value().item();
            (value, loss.try_backward()?)
        };
        let mut params = self.parameters();
        grads.accumulate_all(&mut params);
        opt.step(&mut params)?;
        Ok(loss)
    }
}
