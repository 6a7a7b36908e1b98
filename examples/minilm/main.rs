//! A real model end to end: sentence-transformers/all-MiniLM-L6-v2 from its
//! `model.safetensors`, tokenised by the `tokenizers` crate, its 6-layer
//! BERT encoder run on a padded batch of sentences of different lengths
//! with every shape in the type, mean-pooled under the attention mask and
//! L2-normalised; then the cosine similarity of every pair.
//!
//! ```sh
//! bash bench/fetch_minilm.sh            # the weights and tokenizer (87 MB, once)
//! cargo run --release --example minilm  # or set AXIAL_MINILM to the model folder
//! ```

mod bert;

use axial::prelude::*;
use bert::{Batch, Embeddings};

axes!(Other);

const SENTENCES: [&str; 4] = [
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The girl is carrying a baby.",
    "A woman is playing the violin.",
];

fn main() -> bert::Result<()> {
    let dir = bert::model_dir();
    if !dir.join("model.safetensors").exists() {
        println!(
            "minilm: skipped, no model in {} (run bench/fetch_minilm.sh)",
            dir.display()
        );
        return Ok(());
    }
    let model = bert::Bert::load(&dir.join("model.safetensors"))?;
    let tokenizer = bert::load_tokenizer(&dir.join("tokenizer.json"))?;
    let (ids, mask) = bert::tokenize(&tokenizer, &SENTENCES)?;
    println!(
        "tokens: {:?} of {:?}",
        ids.sizes().as_slice(),
        ids.names().as_slice()
    );
    let start = std::time::Instant::now();
    let emb: Embeddings = model.embed(&ids, &mask)?;
    println!(
        "embeddings: {:?} of {:?} in {:.1} ms",
        emb.sizes().as_slice(),
        emb.names().as_slice(),
        start.elapsed().as_secs_f64() * 1e3
    );
    // [Batch, Model] · [Model, Other]: every sentence against every other.
    let others = emb.as_view().rename::<Batch, Other>().t();
    let cos = emb.try_matmul(&others)?.to_vec();
    println!("cosine similarity:");
    for (i, s) in SENTENCES.iter().enumerate() {
        let row: Vec<String> = (0..SENTENCES.len())
            .map(|j| format!("{:6.3}", cos[i * SENTENCES.len() + j]))
            .collect();
        println!("  {} {s}", row.join(" "));
    }
    Ok(())
}
