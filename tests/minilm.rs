//! all-MiniLM-L6-v2 against sentence-transformers: the embeddings of
//! sentences of different lengths, in one padded batch, compared with the
//! reference `tests/data/minilm_reference.json` (made by
//! `bench/minilm_reference.py`): max abs difference ≤ 1e-5 and cosine ≥
//! 0.99999 per sentence, and the token ids equal. Skips, saying so, when the
//! weights are absent (`bash bench/fetch_minilm.sh` fetches them; `.ci/run`
//! does).

#[path = "../examples/minilm/bert.rs"]
mod bert;

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

#[test]
fn embeddings_match_sentence_transformers() {
    let dir = bert::model_dir();
    if !dir.join("model.safetensors").exists() {
        eprintln!(
            "minilm: skipped, no model in {} (run bench/fetch_minilm.sh)",
            dir.display()
        );
        return;
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
