//! The generalized tensors' cases of `bench/torch_generalized.py`, on
//! axial-core, for `bench/compare_generalized.py`: sparse × dense at 0.1%
//! density of 4096² (COO, CSR, and the dense product), the quantized linear
//! layer 1024 × 1024 (int8, and dequantized to f32 first), and softmax over
//! a ragged batch (and over the same batch padded).
//!
//! Run with `cargo bench -p axial-core --bench generalized`.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use axial_core::nested::NestedTensor;
use axial_core::quantized::{PackedLinearWeight, QDType, linear, quantize_per_tensor};
use axial_core::sparse::SparseCoo;
use axial_core::{BinaryOp, DType, Generator, RawTensor, Scalar};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};

/// The sparse matrix's side, and its entries (0.1% of 4096²).
const SIDE: usize = 4096;
const NNZ: usize = SIDE * SIDE / 1000;
/// The dense operand's columns.
const COLS: usize = 256;
/// The quantized linear layer: `M × K` activations, `N × K` weight.
const QM: usize = 1024;
const QK: usize = 1024;
const QN: usize = 1024;
/// The ragged batch: items of 16 to 512 rows of 128 features.
const ITEMS: usize = 32;
const FEATURES: usize = 128;

fn random(shape: &[usize], seed: u64) -> RawTensor {
    RawTensor::rand(shape, DType::F32, &mut Generator::seed(seed)).expect("rand")
}

/// A `SIDE²` matrix with `NNZ` distinct random entries, coalesced.
fn sparse() -> SparseCoo {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
    let mut seen = std::collections::BTreeSet::new();
    while seen.len() < NNZ {
        seen.insert((
            rng.random_range(0..SIDE as i64),
            rng.random_range(0..SIDE as i64),
        ));
    }
    let (rows, cols): (Vec<i64>, Vec<i64>) = seen.into_iter().unzip();
    let indices = RawTensor::from_vec([rows, cols].concat(), &[2, NNZ]).expect("indices");
    let values = random(&[NNZ], 1);
    SparseCoo::new(indices, values, &[SIDE, SIDE])
        .expect("coo")
        .coalesce()
        .expect("coalesce")
}

fn spmm(c: &mut Criterion) {
    let coo = sparse();
    let csr = coo.to_csr().expect("csr");
    let dense_a = coo.to_dense().expect("dense");
    let d = random(&[SIDE, COLS], 2);
    let mut group = c.benchmark_group("spmm");
    group.bench_function("coo", |b| {
        b.iter(|| black_box(coo.matmul(&d.view()).unwrap()))
    });
    group.bench_function("csr", |b| {
        b.iter(|| black_box(csr.matmul(&d.view()).unwrap()))
    });
    group.bench_function("dense", |b| {
        b.iter(|| black_box(dense_a.view().matmul(&d.view()).unwrap()))
    });
    group.finish();
}

fn qlinear(c: &mut Criterion) {
    let x = random(&[QM, QK], 3);
    let w = RawTensor::randn(&[QN, QK], DType::F32, &mut Generator::seed(4)).expect("randn");
    let w = w
        .view()
        .binary_scalar(BinaryOp::Mul, Scalar::Float(0.05))
        .expect("scale");
    let bias = random(&[QN], 5);
    let qx = quantize_per_tensor(&x.view(), 1.0 / 255.0, 0, QDType::QUInt8).expect("qx");
    let qw = quantize_per_tensor(&w.view(), 0.002, 0, QDType::QInt8).expect("qw");
    let packed = PackedLinearWeight::new(&qw.view(), Some(&bias.view())).expect("prepack");
    let (out_scale, out_zp) = (0.05, 128);
    let mut group = c.benchmark_group("qlinear");
    group.bench_function("int8", |b| {
        b.iter(|| black_box(linear(&qx.view(), &packed, out_scale, out_zp).unwrap()))
    });
    // The same layer computed on dequantized f32 operands, then requantized.
    group.bench_function("dequantize_f32", |b| {
        b.iter(|| {
            let xf = qx.dequantize().unwrap();
            let wf = qw.dequantize().unwrap();
            let y = xf.view().matmul(&wf.view().t().unwrap()).unwrap();
            let y = y.view().binary(BinaryOp::Add, &bias.view()).unwrap();
            black_box(quantize_per_tensor(&y.view(), out_scale, out_zp, QDType::QUInt8).unwrap())
        })
    });
    group.finish();
}

/// Item lengths 16..=512, seeded.
fn lengths() -> Vec<usize> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
    (0..ITEMS).map(|_| rng.random_range(16..=512)).collect()
}

fn softmax(c: &mut Criterion) {
    let lengths = lengths();
    let total: usize = lengths.iter().sum();
    let values = random(&[total, FEATURES], 6);
    let mut offsets = vec![0i64];
    for &l in &lengths {
        offsets.push(offsets[offsets.len() - 1] + l as i64);
    }
    let ragged = NestedTensor::from_jagged(values, &offsets).expect("nested");
    let padded = ragged
        .to_padded(Scalar::Float(f64::NEG_INFINITY), None)
        .expect("padded");
    let padded = NestedTensor::from_dense(padded).expect("as nested");
    let mut group = c.benchmark_group("softmax");
    group.bench_function("ragged", |b| {
        b.iter(|| black_box(ragged.softmax(1).unwrap()))
    });
    group.bench_function("padded", |b| {
        b.iter(|| black_box(padded.softmax(1).unwrap()))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = spmm, qlinear, softmax
}
criterion_main!(benches);
