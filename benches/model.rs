//! Model-level cases beside `bench/torch_cases.py`'s: one MiniLM encoder
//! block (Batch 8, Seq 128, Model 384, 12 heads of 32, MLP 1536) and the
//! whole all-MiniLM-L6-v2 forward on 8 × 40 and 32 × 128 tokens, with the
//! real weights (`bash bench/fetch_minilm.sh`; skipped without them); the
//! forward again with the linear layers in int8 and in bf16
//! (`minilm_int8/*`, `minilm_bf16/*`).
//!
//! `cargo bench --bench model`; `bench/compare.py` runs it with the op cases.

#![allow(missing_docs)]

#[path = "../examples/minilm/bert.rs"]
mod bert;

use std::hint::black_box;
use std::time::Duration;

use axial::{Bf16, Int8, Precision, scope};
use axial_core::Generator;
use criterion::{Criterion, criterion_group, criterion_main};

/// Ids of `b` sentences of `s` tokens (CLS, words, SEP), the second half of
/// the batch padded to half the length.
fn batch(b: usize, s: usize) -> (bert::Tokens, bert::Tokens) {
    let (mut ids, mut mask) = (Vec::new(), Vec::new());
    for i in 0..b {
        let n = if i < b / 2 { s } else { s / 2 };
        for j in 0..s {
            let id = match j {
                0 => 101,
                _ if j + 1 == n => 102,
                _ if j < n => 1000 + ((i * 31 + j * 17) % 20000) as i64,
                _ => 0,
            };
            ids.push(id);
            mask.push((j < n) as i64);
        }
    }
    (
        bert::Tokens::from_vec_dyn(ids, [b, s]),
        bert::Tokens::from_vec_dyn(mask, [b, s]),
    )
}

fn model(c: &mut Criterion) {
    let dir = bert::model_dir();
    if !dir.join("model.safetensors").exists() {
        eprintln!(
            "model: skipped (no weights in {}; run bench/fetch_minilm.sh)",
            dir.display()
        );
        return;
    }
    let model = bert::Bert::load(&dir.join("model.safetensors")).unwrap();
    let mut group = c.benchmark_group("encoder_block");
    let (b, s) = (8, 128);
    let (_, mask) = batch(b, s);
    scope(|scope| {
        let mask = mask.realize_in::<bert::TokenShape<'_>>(scope).unwrap();
        let kept = bert::kept_keys(&mask);
        let x = bert::DynHidden::randn_dyn([b, s], &mut Generator::seed(1))
            .realize_in::<bert::HiddenShape<'_>>(scope)
            .unwrap();
        group.bench_function("8x128", |bench| {
            bench.iter(|| black_box(model.block(0).forward(&x, &kept)))
        });
    });
    group.finish();
    forward(c, "minilm", &model);
    forward(c, "minilm_int8", &model.convert::<Int8>().unwrap());
    forward(c, "minilm_bf16", &model.convert::<Bf16>().unwrap());
}

/// The forward of `model` on 8 × 40 and 32 × 128 tokens.
fn forward<P: Precision>(c: &mut Criterion, name: &str, model: &bert::Bert<P>) {
    let mut group = c.benchmark_group(name);
    for (b, s) in [(8, 40), (32, 128)] {
        let (ids, mask) = batch(b, s);
        group.bench_function(format!("{b}x{s}"), |bench| {
            bench.iter(|| black_box(model.embed(&ids, &mask).unwrap()))
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = model
}
criterion_main!(benches);
