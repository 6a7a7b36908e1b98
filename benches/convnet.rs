//! The convolution cases of `bench/torch_efficientnet.py`, for
//! `bench/compare.py`: the ops EfficientNet-Lite0 spends its time in, on
//! NHWC f32 at batch 8 (the core API, `conv_axes` over `[N, H, W, C]`),
//! and the whole network's forward at batch 1 and 8 on 224×224 images
//! (`examples/efficientnet`, the real weights: `bash
//! bench/fetch_efficientnet.sh`; skipped without them).
//!
//! | case | computation |
//! | --- | --- |
//! | `conv/stem_3x3s2` | 3 → 32 channels, 3×3, stride 2, padding 1, 224² → 112² |
//! | `conv/pointwise` | 1×1, 24 → 144 channels, 56² |
//! | `conv/depthwise_3x3` | depthwise 3×3, 144 channels, 56², padding 1 |
//! | `conv/depthwise_3x3s2` | depthwise 3×3, 96 channels, stride 2, 112² → 56² |
//! | `conv/depthwise_5x5` | depthwise 5×5, 240 channels, 28², padding 2 |
//! | `conv/resnet_3x3` | ResNet-50's 3×3, 64 → 64 channels, 56², padding 1 |
//! | `conv/resnet_1x1` | ResNet-50's 1×1, 256 → 64 channels, 56² |
//! | `conv/resnet_3x3s2` | ResNet-50's 3×3, 128 → 128 channels, stride 2, 56² → 28² |
//! | `pool/max_3x3s2` | max pooling 3×3, stride 2, padding 1, 64 channels, 112² → 56² (ResNet's stem) |
//! | `norm/batch_norm` | batch norm with running statistics, 256 channels, 56² |
//!
//! Each convolution has a bias, as the network's (batch norm folded in).
//! `cargo bench --bench convnet`.

#![allow(missing_docs)]

#[path = "../examples/efficientnet/lite0.rs"]
mod lite0;

use std::hint::black_box;
use std::time::Duration;

use axial_core::nn::{ConvAxes, ConvOptions, Padding, PoolOptions};
use axial_core::{DType, Generator, RawTensor};
use criterion::{Criterion, criterion_group, criterion_main};

/// Batch of the op cases.
const BATCH: usize = 8;

fn randn(shape: &[usize], seed: u64) -> RawTensor {
    RawTensor::randn(shape, DType::F32, &mut Generator::seed(seed)).expect("randn of f32")
}

/// One op case: NHWC input of `side`² × `cin`, `cout` filters of `k`×`k`
/// over `cin / groups` channels.
struct Case {
    name: &'static str,
    side: usize,
    cin: usize,
    cout: usize,
    k: usize,
    stride: usize,
    groups: usize,
}

const CASES: [Case; 8] = [
    Case {
        name: "stem_3x3s2",
        side: 224,
        cin: 3,
        cout: 32,
        k: 3,
        stride: 2,
        groups: 1,
    },
    Case {
        name: "pointwise",
        side: 56,
        cin: 24,
        cout: 144,
        k: 1,
        stride: 1,
        groups: 1,
    },
    Case {
        name: "depthwise_3x3",
        side: 56,
        cin: 144,
        cout: 144,
        k: 3,
        stride: 1,
        groups: 144,
    },
    Case {
        name: "depthwise_3x3s2",
        side: 112,
        cin: 96,
        cout: 96,
        k: 3,
        stride: 2,
        groups: 96,
    },
    Case {
        name: "depthwise_5x5",
        side: 28,
        cin: 240,
        cout: 240,
        k: 5,
        stride: 1,
        groups: 240,
    },
    Case {
        name: "resnet_3x3",
        side: 56,
        cin: 64,
        cout: 64,
        k: 3,
        stride: 1,
        groups: 1,
    },
    Case {
        name: "resnet_1x1",
        side: 56,
        cin: 256,
        cout: 64,
        k: 1,
        stride: 1,
        groups: 1,
    },
    Case {
        name: "resnet_3x3s2",
        side: 56,
        cin: 128,
        cout: 128,
        k: 3,
        stride: 2,
        groups: 1,
    },
];

fn ops(c: &mut Criterion) {
    let mut group = c.benchmark_group("conv");
    let axes = ConvAxes::new(3, &[1, 2]);
    for (i, case) in CASES.iter().enumerate() {
        let seed = 10 * i as u64;
        let x = randn(&[BATCH, case.side, case.side, case.cin], seed);
        let w = randn(
            &[case.cout, case.cin / case.groups, case.k, case.k],
            seed + 1,
        );
        let b = randn(&[case.cout], seed + 2);
        let o = ConvOptions::new()
            .stride(&[case.stride])
            .padding(Padding::Both(vec![case.k / 2]))
            .groups(case.groups);
        let run = || x.view().conv_axes(&w.view(), Some(&b.view()), &axes, &o);
        run().expect("the case's convolution");
        group.bench_function(case.name, |bench| bench.iter(|| black_box(run().unwrap())));
    }
    group.finish();
}

/// Max pooling and batch norm (running statistics) on NHWC f32 at batch 8.
fn pool_and_norm(c: &mut Criterion) {
    let x = randn(&[BATCH, 112, 112, 64], 100);
    let o = PoolOptions::new(&[3]).stride(&[2]).padding(&[1]);
    let pool = || x.view().max_pool_axes(&[1, 2], &o);
    pool().expect("the max pooling");
    let mut group = c.benchmark_group("pool");
    group.bench_function("max_3x3s2", |bench| {
        bench.iter(|| black_box(pool().unwrap()))
    });
    group.finish();

    let x = randn(&[BATCH, 56, 56, 256], 101);
    let (w, b, mean) = (randn(&[256], 102), randn(&[256], 103), randn(&[256], 104));
    let var = randn(&[256], 105)
        .view()
        .unary(axial_core::UnaryOp::Abs)
        .expect("abs");
    let norm = || {
        (x.view()).batch_norm_axes(
            3,
            &mean.view(),
            &var.view(),
            Some(&w.view()),
            Some(&b.view()),
            1e-5,
        )
    };
    norm().expect("the batch norm");
    let mut group = c.benchmark_group("norm");
    group.bench_function("batch_norm", |bench| {
        bench.iter(|| black_box(norm().unwrap()))
    });
    group.finish();
}

fn network(c: &mut Criterion) {
    let path = lite0::data_dir().join("efficientnet-lite0.pth");
    if !path.exists() {
        eprintln!(
            "efficientnet: skipped (no {}; run bench/fetch_efficientnet.sh)",
            path.display()
        );
        return;
    }
    let model = lite0::EfficientNetLite0::load(&path).expect("the checkpoint");
    let mut group = c.benchmark_group("efficientnet");
    for b in [1, 8] {
        let x = lite0::Images::randn_dyn(b, &mut Generator::seed(2));
        group.bench_function(format!("b{b}"), |bench| {
            bench.iter(|| black_box(model.forward(&x)))
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
    targets = ops, pool_and_norm, network
}
criterion_main!(benches);
