//! A GPT-style decoder that generates with a KV cache: the prompt is
//! prefilled and each new token decoded through ONE forward function, whose
//! sequence length and cache length are symbols of the step's scope
//! (`Seq` is the prompt's length when prefilling, 1 when decoding). The
//! cache grows with `cat` along `Key`, its length the sum the type says
//! (`Plus<Past, Seq>`), and the forward has no `try_` and no `unwrap`:
//! every shape in it is proven. The one run-time check of a step is at its
//! boundary, where the token ids and the cache of the step before are
//! realized into the scope.
//!
//! To show that the cache is right, the tokens generated are fed again in
//! one pass without a cache, and each step's logits compared.
//!
//! ```sh
//! cargo run --example decoder
//! ```

// Included by `tests/examples.rs`, which runs `run` and not `main`.
#![allow(dead_code)]

use std::io::Write;

use axial::loss::{CrossEntropy, Mean};
use axial::prelude::*;
use axial::shape::{Distinct, StaticShape};
use axial::{Attention, Extent, Extents, Plus, Shape};

axes!(
    Seq, Key, Past, Model, Heads, Head, Hidden, Vocab, Freq, Layer, Kv
);

/// The heads side by side: what the projections make and `rearrange!` splits.
type Inner = Composed<(Heads, Head)>;

const LAYERS: usize = 2;
const PROMPT: [i64; 5] = [3, 1, 4, 1, 5];
const NEW_TOKENS: usize = 6;

/// The token ids of a step.
type Ids<'id> = Tensor<i64, shape![Seq: Sym<'id, Seq>]>;
/// The hidden states of a step's tokens.
type States<'id> = Tensor<f32, shape![Seq: Sym<'id, Seq>, Model: 32]>;
/// The logits of a step's tokens.
type Logits<'id> = Tensor<f32, shape![Seq: Sym<'id, Seq>, Vocab: 16]>;
/// Every layer's keys and values of the tokens before the step.
type PastCache<'a, 'id> =
    TensorView<'a, f32, shape![Layer: 2, Kv: 2, Heads: 4, Key: Sym<'id, Past>, Head: 8]>;
/// The same, grown by the step's tokens.
type Grown<'id> = Tensor<
    f32,
    shape![Layer: 2, Kv: 2, Heads: 4, Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>, Head: 8],
>;
/// One layer's keys and values before the step, and grown by it.
type LayerPast<'a, 'id> =
    TensorView<'a, f32, shape![Kv: 2, Heads: 4, Key: Sym<'id, Past>, Head: 8]>;
type LayerGrown<'id> =
    Tensor<f32, shape![Kv: 2, Heads: 4, Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>, Head: 8]>;
/// Which keys each query of the step sees.
type Visible<'id> =
    Tensor<Bool, shape![Seq: Sym<'id, Seq>, Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>]>;
/// The cache between steps, when its length is no symbol of a scope.
type Cache = Tensor<f32, shape![Layer: 2, Kv: 2, Heads: 4, Key: Dyn, Head: 8]>;

/// `x·Wᵀ + b`, a weight `[Out, In]` and a bias `[Out]` as PyTorch stores them.
struct Linear<W: Shape, B: Shape> {
    weight: Tensor<f32, W>,
    bias: Tensor<f32, B>,
}

impl<W: StaticShape + Distinct, B: StaticShape + Distinct> Linear<W, B> {
    fn new(rng: &mut Generator, fan_in: f32) -> Self {
        Linear {
            weight: Tensor::randn(rng) * fan_in.sqrt().recip(),
            bias: Tensor::randn(rng) * 0.02,
        }
    }
}

/// The projections into the heads' space, out of it, and of the MLP.
type Projection = Linear<shape![Inner: 32, Model: 32], shape![Inner: 32]>;
type Output = Linear<shape![Model: 32, Inner: 32], shape![Model: 32]>;
type Up = Linear<shape![Hidden: 64, Model: 32], shape![Hidden: 64]>;
type Down = Linear<shape![Model: 32, Hidden: 64], shape![Model: 32]>;
/// The embedding table and the projection to the vocabulary.
type Table = Tensor<f32, shape![Vocab: 16, Model: 32]>;
type ToVocab = Linear<shape![Vocab: 16, Model: 32], shape![Vocab: 16]>;

/// A layer norm's weight and bias.
struct Norm {
    weight: Tensor<f32, shape![Model: 32]>,
    bias: Tensor<f32, shape![Model: 32]>,
}

impl Norm {
    fn new(rng: &mut Generator) -> Self {
        Norm {
            weight: Tensor::<f32, shape![Model: 32]>::randn(rng) * 0.1 + 1.0,
            bias: Tensor::randn(rng) * 0.1,
        }
    }

    fn apply<'id>(&self, x: &States<'id>) -> States<'id> {
        x.layer_norm::<Model>(Some(self.weight.as_view()), Some(self.bias.as_view()), 1e-5)
    }
}

/// One pre-norm block: causal attention over the cache and the step, then
/// a GELU MLP, each with its residual.
struct Block {
    attention_norm: Norm,
    query: Projection,
    key: Projection,
    value: Projection,
    out: Output,
    mlp_norm: Norm,
    up: Up,
    down: Down,
}

impl Block {
    fn new(rng: &mut Generator) -> Self {
        Block {
            attention_norm: Norm::new(rng),
            query: Linear::new(rng, 32.0),
            key: Linear::new(rng, 32.0),
            value: Linear::new(rng, 32.0),
            out: Linear::new(rng, 32.0),
            mlp_norm: Norm::new(rng),
            up: Linear::new(rng, 32.0),
            down: Linear::new(rng, 64.0),
        }
    }

    /// The block over the step's states `x`, its layer of the cache `past`
    /// (`[Kv, Heads, Key: Past, Head]`): the new states, and the layer's
    /// cache grown by the step's keys and values.
    fn forward<'id>(
        &self,
        x: &States<'id>,
        past: LayerPast<'_, 'id>,
    ) -> (States<'id>, LayerGrown<'id>) {
        let h = self.attention_norm.apply(x);
        let project = |l: &Projection| h.linear(&l.weight, Some(l.bias.as_view()));
        let (q, k, v) = (
            project(&self.query),
            project(&self.key),
            project(&self.value),
        );
        let q = rearrange!(q.as_view(), "Seq (Heads Head) -> Heads Seq Head", Heads = 4);
        let k = rearrange!(k.as_view(), "Seq (Heads Head) -> Heads Seq Head", Heads = 4);
        let v = rearrange!(v.as_view(), "Seq (Heads Head) -> Heads Seq Head", Heads = 4);
        // The step's keys and values join the cache: `Key` grows from
        // `Past` to `Past + Seq`, for keys and values alike.
        let new = TensorBase::stack::<Kv, 0, 2>([&k, &v]).rename::<Seq, Key>();
        let grown = past.cat::<Key, _>(&new);
        let keys = grown.as_view().at::<Kv, 0>();
        let values = grown.as_view().at::<Kv, 1>();
        // Query `i` of the step is token `Past + i`: it sees keys `j <= Past + i`.
        let seq = x.extent::<Seq>();
        let every = past.extent::<Key>() + seq;
        let visible = Visible::full_dyn(Extents((seq, every)), Bool::TRUE)
            .tril::<Seq, Key>(past.extent::<Key>().get() as i64);
        let attended =
            q.scaled_dot_product_attention_masked(&keys, &values, &visible, Attention::default());
        let merged = rearrange!(attended.as_view(), "Heads Seq Head -> Seq (Heads Head)");
        let x = x + &merged.linear(&self.out.weight, Some(self.out.bias.as_view()));
        let h = self.mlp_norm.apply(&x);
        let hidden = h
            .linear(&self.up.weight, Some(self.up.bias.as_view()))
            .gelu();
        let y = hidden.linear(&self.down.weight, Some(self.down.bias.as_view()));
        (&x + &y, grown)
    }
}

/// The model: token embeddings, sinusoidal positions, the blocks, a final
/// norm and the projection to the vocabulary.
struct Decoder {
    embed: Table,
    blocks: [Block; LAYERS],
    norm: Norm,
    head: ToVocab,
}

impl Decoder {
    fn new(rng: &mut Generator) -> Self {
        Decoder {
            embed: Tensor::randn(rng),
            blocks: [Block::new(rng), Block::new(rng)],
            norm: Norm::new(rng),
            head: Linear::new(rng, 32.0),
        }
    }

    /// Sinusoids of the positions `Past..Past + Seq`: `sin` then `cos` of
    /// each position times 16 frequencies, joined along the model axis.
    fn positions<'id>(&self, seq: Extent<Sym<'id, Seq>>, past: usize) -> States<'id> {
        let at = Tensor::<f32, shape![Seq: Sym<'id, Seq>]>::arange_dyn(seq) + past as f32;
        let freqs = Tensor::<f32, shape![Freq: 16]>::arange() * (-(10_000f32.ln()) / 16.0);
        let angles = at.unsqueeze::<Freq, 1>() * &freqs.exp(); // [Seq, Freq]
        angles
            .sin()
            .cat::<Freq, _>(&angles.cos())
            .rename::<Freq, Model>()
    }

    /// One step for every size of `Seq` and `Past`: the logits of the
    /// step's tokens and the cache grown by them. No `try_`, no `unwrap`.
    fn forward<'id>(&self, ids: &Ids<'id>, past: PastCache<'_, 'id>) -> (Logits<'id>, Grown<'id>) {
        let embedded = self.embed.index_select::<Vocab, _>(ids); // [Seq, Model]
        let mut x = embedded + &self.positions(ids.extent::<Seq>(), past.extent::<Key>().get());
        let grown = std::array::from_fn::<_, LAYERS, _>(|l| {
            let (y, layer) = self.blocks[l].forward(&x, past.clone().select::<Layer>(l as isize));
            x = y;
            layer
        });
        let x = self.norm.apply(&x);
        let logits = x.linear(&self.head.weight, Some(self.head.bias.as_view()));
        (
            logits,
            TensorBase::stack::<Layer, 0, LAYERS>(grown.each_ref()),
        )
    }

    /// One step at the boundary: the ids and the cache realized into a
    /// fresh scope (binding `Seq` and `Past`), the forward, and the logits
    /// and the grown cache out of the scope with their symbols forgotten.
    fn step(&self, ids: &[i64], cache: &Cache) -> axial::Result<(Vec<Vec<f32>>, Cache)> {
        let ids = Tensor::<i64, shape![Seq: Dyn]>::try_from_vec_dyn(ids.to_vec(), ids.len())?;
        scope(|s| {
            let ids = ids.realize_in::<shape![Seq: Sym<'_, Seq>]>(s)?;
            let past = cache.as_view().realize_in(s)?;
            let (logits, grown) = self.forward(&ids, past);
            let rows = (0..ids.numel() as isize)
                .map(|i| logits.as_view().select::<Seq>(i).to_vec())
                .collect();
            Ok((rows, grown.into_dyn::<Key>()))
        })
    }
}

/// The index of the largest value.
fn argmax(row: &[f32]) -> i64 {
    let best = row
        .iter()
        .enumerate()
        .fold((0, f32::NEG_INFINITY), |best, (i, &v)| {
            if v > best.1 { (i, v) } else { best }
        });
    best.0 as i64
}

/// Generates `NEW_TOKENS` tokens after the prompt, then checks them in one
/// pass without a cache; prints what it did.
pub(crate) fn run(out: &mut impl Write) -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Generator::seed(7);
    let model = Decoder::new(&mut rng);
    let empty = Cache::zeros_dyn(0);

    // Prefill: the prompt in one step (`Seq` = 5, `Past` = 0).
    let (logits, mut cache) = model.step(&PROMPT, &empty)?;
    writeln!(
        out,
        "prefill: {} tokens, cache {:?}",
        PROMPT.len(),
        cache.sizes().as_slice()
    )?;
    let mut steps = vec![logits.last().cloned().unwrap_or_default()];
    let first = Tensor::<f32, shape![Vocab: 16]>::from_vec(steps[0].clone());
    let (top, ids) = first.topk::<Vocab, 3>(true, true);
    writeln!(
        out,
        "first candidates: {:?} (logits {:?})",
        ids.to_vec(),
        top.to_vec()
    )?;

    // Decode: one token a step (`Seq` = 1, `Past` = 5, 6, ...).
    let mut tokens = PROMPT.to_vec();
    for _ in 0..NEW_TOKENS {
        let next = argmax(steps.last().map_or(&[][..], Vec::as_slice));
        tokens.push(next);
        let (logits, grown) = model.step(&[next], &cache)?;
        cache = grown;
        steps.push(logits.last().cloned().unwrap_or_default());
    }
    writeln!(out, "generated: {:?}", &tokens[PROMPT.len()..])?;
    writeln!(out, "cache after decoding: {:?}", cache.sizes().as_slice())?;

    // The same tokens in one pass, no cache: every step's logits again.
    let (all, _) = model.step(&tokens, &empty)?;
    let diff = steps
        .iter()
        .zip(&all[PROMPT.len() - 1..])
        .flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()))
        .fold(0f32, f32::max);
    writeln!(
        out,
        "cached and uncached logits agree within {:.0e}: {}",
        1e-4,
        diff < 1e-4
    )?;

    // The loss of the sequence under the model (next-token cross entropy).
    let logits = Tensor::<f32, shape![Seq: Dyn, Vocab: 16]>::from_vec_dyn(
        all[..tokens.len() - 1].concat(),
        tokens.len() - 1,
    );
    let next =
        Tensor::<i64, shape![Seq: Dyn]>::from_vec_dyn(tokens[1..].to_vec(), tokens.len() - 1);
    let loss = logits.try_cross_entropy::<Vocab, _>(&next, Mean, CrossEntropy::default())?;
    writeln!(out, "next-token loss of the sequence: {:.3}", loss.item())?;
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run(&mut std::io::stdout())
}
