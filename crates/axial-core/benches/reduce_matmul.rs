//! Speed of the reduction and matmul kernels: sums over each axis of a
//! 4096×4096 f32 matrix (bytes read per second, next to a plain parallel read
//! of the same bytes), and square matrix products (multiply-adds × 2 per second).
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use axial_core::{ArgReduceOp, DType, Generator, RawTensor, ReduceOp};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
}

fn reductions(c: &mut Criterion) {
    let n = 4096;
    let mut rng = Generator::seed(1);
    let x = RawTensor::rand(&[n, n], DType::F32, &mut rng).unwrap();
    let mut g = c.benchmark_group("reduce_4096x4096_f32");
    g.throughput(Throughput::Bytes((n * n * 4) as u64));
    let words = x.to_vec::<f32>().unwrap();
    g.bench_function("plain_parallel_read", |b| {
        b.iter(|| {
            words
                .par_chunks(1 << 16)
                .map(|c| c.iter().fold(0u32, |a, v| a ^ v.to_bits()))
                .reduce(|| 0, |a, b| a ^ b)
        })
    });
    for (name, op, dims) in [
        ("sum_rows", ReduceOp::Sum, &[1isize][..]),
        ("sum_cols", ReduceOp::Sum, &[0]),
        ("sum_all", ReduceOp::Sum, &[]),
        ("amax_rows", ReduceOp::Max, &[1]),
        ("amax_cols", ReduceOp::Max, &[0]),
        ("mean_rows", ReduceOp::Mean, &[1]),
        ("var_rows", ReduceOp::Var { correction: 1.0 }, &[1]),
        ("var_cols", ReduceOp::Var { correction: 1.0 }, &[0]),
        ("prod_rows", ReduceOp::Prod, &[1]),
        ("prod_cols", ReduceOp::Prod, &[0]),
        ("prod_all", ReduceOp::Prod, &[]),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| black_box(x.view().reduce(op, dims, false).unwrap()))
        });
    }
    for (name, dim) in [("argmax_rows", 1), ("argmax_cols", 0)] {
        g.bench_function(name, |b| {
            b.iter(|| black_box(x.view().arg_reduce(ArgReduceOp::ArgMax, Some(dim), false)))
        });
    }
    let t = x.view().t().unwrap();
    g.bench_function("sum_rows_of_transpose", |b| {
        b.iter(|| black_box(t.reduce(ReduceOp::Sum, &[1], false).unwrap()))
    });
    g.finish();
}

fn matmuls(c: &mut Criterion) {
    let n = 1024;
    let mut g = c.benchmark_group("matmul_1024");
    g.throughput(Throughput::Elements(2 * (n * n * n) as u64));
    for dtype in [DType::F32, DType::F64, DType::BF16, DType::F16] {
        let mut rng = Generator::seed(2);
        let a = RawTensor::randn(&[n, n], dtype, &mut rng).unwrap();
        let b = RawTensor::randn(&[n, n], dtype, &mut rng).unwrap();
        g.bench_function(dtype.name(), |bench| {
            bench.iter(|| black_box(a.view().matmul(&b.view()).unwrap()))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = reductions, matmuls
}
criterion_main!(benches);
