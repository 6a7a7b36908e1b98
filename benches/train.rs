//! A training step of a MiniLM-sized encoder block (Batch 8, Seq 128,
//! Model 384, 12 heads of 32, MLP 1536): the forward on random hidden
//! states, the mean of the output's squares, the backward pass and an
//! AdamW step (`examples/encoder_block/block.rs`), beside
//! `bench/torch_train.py`'s same step in PyTorch eager.
//!
//! `cargo bench --bench train`; `bench/compare.py` runs it with the op cases.

#![allow(missing_docs)]

#[path = "../examples/encoder_block/block.rs"]
mod block;

use std::hint::black_box;
use std::time::Duration;

use axial::Generator;
use axial::optim::{Adam, AdamConfig};
use criterion::{Criterion, criterion_group, criterion_main};

fn train(c: &mut Criterion) {
    let mut rng = Generator::seed(1);
    let mut model = block::Block::new(&mut rng);
    let x = block::Hidden::randn(&mut rng);
    let mut opt = Adam::adamw(AdamConfig::adamw()).unwrap();
    let mut group = c.benchmark_group("train_step");
    group.bench_function("8x128", |bench| {
        bench.iter(|| black_box(model.step(&mut opt, &x).unwrap()))
    });
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
    targets = train
}
criterion_main!(benches);
