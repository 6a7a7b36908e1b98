//! all-MiniLM-L6-v2 against sentence-transformers: the embeddings of
//! sentences of different lengths, in one padded batch, compared with the
//! reference `tests/data/minilm_reference.json` (made by
//! `bench/minilm_reference.py`): max abs difference ≤ 1e-5 and cosine ≥
//! 0.99999 per sentence, and the token ids equal. Skips, saying so, when the
//! weights are absent (`bash bench/fetch_minilm.sh` fetches them; `.ci/run`
//! does). The same model with its linear layers in int8 and in bf16 stays
//! within a cosine of 0.99 and 0.999 of the reference on every sentence;
//! the model gives the same bits on 1, 2, 3 and 16 threads and from run to
//! run (int8 and bf16: on 1 and 3).

#[path = "../examples/minilm/bert.rs"]
mod bert;

use axial::{Bf16, Fp32, Int8, Precision};
use serde_json::Value;

fn reference() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/minilm_reference.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("the reference is committed"))
        .expect("the reference is JSON")
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("an array")
        .iter()
        .flat_map(|row| {
            row.as_array()
                .expect("rows")
                .iter()
                .map(|x| x.as_i64().expect("an int"))
        })
        .collect()
}

/// The model, the reference's sentences tokenized (checked against the
/// reference's ids), and the reference; `None` without the weights.
fn setup() -> Option<(bert::Bert, bert::Tokens, bert::Tokens, Value)> {
    let dir = bert::model_dir();
    if !dir.join("model.safetensors").exists() {
        eprintln!(
            "minilm: skipped, no model in {} (run bench/fetch_minilm.sh)",
            dir.display()
        );
        return None;
    }
    let r = reference();
    let sentences: Vec<&str> = r["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let tokenizer = bert::load_tokenizer(&dir.join("tokenizer.json")).expect("tokenizer.json");
    let (ids, mask) = bert::tokenize(&tokenizer, &sentences).expect("tokenize");
    assert_eq!(ids.to_vec(), ints(&r["input_ids"]), "token ids");
    assert_eq!(mask.to_vec(), ints(&r["attention_mask"]), "attention mask");
    let model = bert::Bert::load(&dir.join("model.safetensors")).expect("model.safetensors");
    Some((model, ids, mask, r))
}

/// The cosine of each sentence's embedding to the reference's.
fn cosines(got: &[f32], r: &Value) -> Vec<f64> {
    let rows = r["embeddings"].as_array().unwrap();
    rows.iter()
        .enumerate()
        .map(|(i, want)| {
            let want = floats(want);
            let row = &got[i * bert::MODEL..(i + 1) * bert::MODEL];
            let dot: f64 = row.iter().zip(&want).map(|(&a, &b)| a as f64 * b).sum();
            let norms = (row.iter().map(|&a| (a as f64).powi(2)).sum::<f64>()
                * want.iter().map(|b| b * b).sum::<f64>())
            .sqrt();
            dot / norms
        })
        .collect()
}

#[test]
fn int8_and_bf16_stay_near_the_reference() {
    let Some((model, ids, mask, r)) = setup() else {
        return;
    };
    for (name, bound, got) in [
        (
            "int8",
            0.99,
            model.convert::<Int8>().unwrap().embed(&ids, &mask),
        ),
        (
            "bf16",
            0.999,
            model.convert::<Bf16>().unwrap().embed(&ids, &mask),
        ),
    ] {
        let cos = cosines(&got.expect("forward").to_vec(), &r);
        let worst = cos.iter().copied().fold(1.0, f64::min);
        eprintln!("minilm {name}: cosine to the reference per sentence {cos:.6?}");
        assert!(worst >= bound, "{name}: worst cosine {worst} below {bound}");
    }
}

/// The bits of `model`'s embeddings in pools of each size of `pools`
/// (twice in the first), all equal.
fn same_bits<P: Precision>(
    model: &bert::Bert<P>,
    ids: &bert::Tokens,
    mask: &bert::Tokens,
    pools: &[usize],
) {
    let mut first: Option<Vec<u32>> = None;
    for &threads in pools {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for run in 0..if threads == pools[0] { 2 } else { 1 } {
            let emb = pool.install(|| model.embed(ids, mask)).expect("forward");
            let bits: Vec<u32> = emb.to_vec().iter().map(|v| v.to_bits()).collect();
            match &first {
                None => first = Some(bits),
                Some(want) => assert!(
                    *want == bits,
                    "{}: other bits on {threads} threads (run {run})",
                    P::NAME
                ),
            }
        }
    }
}

#[test]
fn the_same_bits_on_any_thread_count() {
    let Some((model, ids, mask, _)) = setup() else {
        return;
    };
    same_bits::<Fp32>(&model, &ids, &mask, &[1, 2, 3, 16]);
    // Their layers are checked on every pool size in axial-core's
    // tests/threads.rs; here the whole model on two.
    same_bits::<Int8>(&model.convert().unwrap(), &ids, &mask, &[1, 3]);
    same_bits::<Bf16>(&model.convert().unwrap(), &ids, &mask, &[1, 3]);
}

#[test]
fn embeddings_match_sentence_transformers() {
    let Some((model, ids, mask, r)) = setup() else {
        return;
    };
    let sentences = r["sentences"].as_array().unwrap();
    let emb = model.embed(&ids, &mask).expect("forward");
    assert_eq!(emb.sizes().as_slice(), &[sentences.len(), bert::MODEL]);
    let got = emb.to_vec();
    for (i, want) in r["embeddings"].as_array().unwrap().iter().enumerate() {
        let want = floats(want);
        let row = &got[i * bert::MODEL..(i + 1) * bert::MODEL];
        let max_abs = row
            .iter()
            .zip(&want)
            .map(|(&a, &b)| (a as f64 - b).abs())
            .fold(0.0, f64::max);
        let dot: f64 = row.iter().zip(&want).map(|(&a, &b)| a as f64 * b).sum();
        let norms = (row.iter().map(|&a| (a as f64).powi(2)).sum::<f64>()
            * want.iter().map(|b| b * b).sum::<f64>())
        .sqrt();
        let cosine = dot / norms;
        assert!(
            max_abs <= 1e-5,
            "sentence {i}: max abs difference {max_abs:e}"
        );
        assert!(cosine >= 0.99999, "sentence {i}: cosine {cosine}");
    }
}
