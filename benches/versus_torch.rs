//! The cases of `bench/torch_cases.py`, on axial-core, for `bench/compare.py`.
//!
//! Each case is a criterion group named as on the PyTorch side; its functions
//! are `alloc` (the form users write, which allocates its result) and `out`
//! (the same computation into an output allocated once, PyTorch's `out=` or
//! `copy_`). A case whose kernel is not there yet (`Err(Unsupported)`) is
//! reported and skipped, so the others still run.
//!
//! Run with `cargo bench --bench versus_torch`; add a filter (`-- add`) to run
//! some cases only.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use axial_core::cpu::infer::F32Linear;
use axial_core::ops::{LayerNorm, Softmax};
use axial_core::{
    Backend, BinaryOp, Cpu, DType, Generator, Output, RawTensor, ReduceOp, Result, TensorRef,
    UnaryOp,
};
use criterion::{Criterion, criterion_group, criterion_main};

/// The side of the square matrices (4096² f32 = 64 MiB).
const N: usize = 4096;
/// Elements of the vector cases (16 Mi f32 = 64 MiB).
const LEN: usize = 1 << 24;
/// The side of the matmul operands.
const MATMUL_N: usize = 1024;
/// `unfold(0, WINDOW, STEP)`: overlapping windows, twice the input's elements.
const WINDOW: usize = 16;
const STEP: usize = 8;

fn random(shape: &[usize], seed: u64) -> RawTensor {
    RawTensor::rand(shape, DType::F32, &mut Generator::seed(seed)).expect("rand of f32")
}

fn empty(shape: &[usize], dtype: DType) -> RawTensor {
    RawTensor::zeros(shape, dtype).expect("zeros")
}

/// An output over `t`'s storage and layout, for the kernels with no
/// `TensorMut` form yet.
fn output(t: &mut RawTensor) -> Output<'_, Cpu> {
    let (layout, dtype) = (t.layout().clone(), t.dtype());
    Output {
        storage: t.storage_mut(),
        layout,
        dtype,
    }
}

/// Runs `op` once; true when it works, else says why the case is skipped.
fn works<T>(case: &str, op: impl FnOnce() -> Result<T>) -> bool {
    match op() {
        Ok(_) => true,
        Err(err) => {
            eprintln!("{case}: skipped ({err})");
            false
        }
    }
}

/// Registers `alloc` (and `out` when given) under the group `case`, if the
/// computation works.
fn case<A, O>(c: &mut Criterion, name: &str, mut alloc: A, out: Option<O>)
where
    A: FnMut() -> Result<RawTensor>,
    O: FnMut() -> Result<()>,
{
    if !works(name, &mut alloc) {
        return;
    }
    let mut group = c.benchmark_group(name);
    group.bench_function("alloc", |b| b.iter(|| black_box(alloc().unwrap())));
    if let Some(mut out) = out {
        group.bench_function("out", |b| b.iter(|| out().unwrap()));
    }
    group.finish();
}

/// `dst.copy_from_slice(src)` split in equal parts over every core.
fn copy_on_all_threads(src: &[f32], dst: &mut [f32]) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let part = src.len().div_ceil(threads);
    std::thread::scope(|s| {
        for (d, from) in dst.chunks_mut(part).zip(src.chunks(part)) {
            s.spawn(move || d.copy_from_slice(from));
        }
    });
}

/// The plain copies of 64 MiB the bandwidth fractions are measured against:
/// on one thread and on all.
fn memcpy(c: &mut Criterion) {
    let src = vec![1.0f32; LEN];
    let mut dst = vec![0.0f32; LEN];
    let mut group = c.benchmark_group("memcpy");
    group.bench_function("copy_from_slice", |b| {
        b.iter(|| dst.copy_from_slice(black_box(&src)))
    });
    group.bench_function("all_threads", |b| {
        b.iter(|| copy_on_all_threads(black_box(&src), &mut dst))
    });
    group.finish();
}

/// A contiguous copy of 64 MiB through axial (`x.clone()`, `out.copy_(x)`).
fn copy(c: &mut Criterion) {
    let a = random(&[N, N], 1);
    let mut out = empty(&[N, N], DType::F32);
    case(
        c,
        "copy",
        || a.view().to_contiguous(),
        Some(|| out.view_mut().copy_(&a.view())),
    );
}

/// `x.t().contiguous()` of a 4096² f32.
fn transpose_contiguous(c: &mut Criterion) {
    let a = random(&[N, N], 2);
    let t = || a.view().t();
    let mut out = empty(&[N, N], DType::F32);
    case(
        c,
        "transpose_contiguous",
        || t()?.to_contiguous(),
        Some(|| out.view_mut().copy_(&t()?)),
    );
}

/// `a + b` with `a` 4096² and `b` 4096 (broadcast over rows).
fn broadcast_add(c: &mut Criterion) {
    let a = random(&[N, N], 3);
    let b = random(&[N], 4);
    let mut out = empty(&[N, N], DType::F32);
    let into_out = || -> Result<()> {
        let rhs = b.view().expand(&[N as isize, N as isize])?;
        Cpu.binary(
            BinaryOp::Add,
            a.view().input().into(),
            rhs.input().into(),
            output(&mut out),
        )
    };
    case(
        c,
        "broadcast_add",
        || a.view().binary(BinaryOp::Add, &b.view()),
        Some(into_out),
    );
}

/// `x.sum(dim)` of a 4096² f32, for each dim (the results are 16 KiB: no `out`).
fn sum_each_axis(c: &mut Criterion) {
    let a = random(&[N, N], 5);
    for dim in [0, 1] {
        case(
            c,
            &format!("sum_axis{dim}"),
            || a.view().reduce(ReduceOp::Sum, &[dim], false),
            None::<fn() -> Result<()>>,
        );
    }
}

/// `x.to(torch.bfloat16)` of 16 Mi f32, and `out.copy_(x)` into a bf16 `out`.
fn cast_bf16(c: &mut Criterion) {
    let a = random(&[LEN], 6);
    let mut out = empty(&[LEN], DType::BF16);
    case(
        c,
        "cast_bf16",
        || a.view().to_dtype(DType::BF16),
        Some(|| out.view_mut().copy_(&a.view())),
    );
}

/// `a @ b` of two 1024² f32.
fn matmul(c: &mut Criterion) {
    let a = random(&[MATMUL_N, MATMUL_N], 7);
    let b = random(&[MATMUL_N, MATMUL_N], 8);
    case(
        c,
        "matmul",
        || a.view().matmul(&b.view()),
        None::<fn() -> Result<()>>,
    );
}

fn windows<'a>(x: &'a RawTensor) -> Result<TensorRef<'a, Cpu>> {
    x.view().unfold(0, WINDOW, STEP)
}

/// `x.unfold(0, 16, 8)` of 16 Mi f32 made contiguous (2 Mi windows of 16), and
/// summed over each window.
fn unfold(c: &mut Criterion) {
    let x = random(&[LEN], 9);
    let shape = windows(&x).expect("unfold").shape().to_vec();
    let mut out = empty(&shape, DType::F32);
    case(
        c,
        "unfold_copy",
        || windows(&x)?.to_contiguous(),
        Some(|| out.view_mut().copy_(&windows(&x)?)),
    );
    case(
        c,
        "unfold_sum",
        || windows(&x)?.reduce(ReduceOp::Sum, &[-1], false),
        None::<fn() -> Result<()>>,
    );
}

/// Transcendental functions of 16 Mi f32, with `out` into a buffer allocated once.
fn math(c: &mut Criterion) {
    // randn-like spread: (rand - 0.5) · 8 covers the interesting ranges.
    let x = random(&[LEN], 10)
        .view()
        .binary_scalar(BinaryOp::Sub, axial_core::Scalar::Float(0.5))
        .and_then(|t| {
            t.view()
                .binary_scalar(BinaryOp::Mul, axial_core::Scalar::Float(8.0))
        })
        .expect("spread");
    let mut out = empty(&[LEN], DType::F32);
    for (name, op) in [
        ("exp", UnaryOp::Exp),
        ("tanh", UnaryOp::Tanh),
        ("erf", UnaryOp::Erf),
        ("gelu", UnaryOp::Gelu),
        ("gelu_tanh", UnaryOp::GeluTanh),
        ("sigmoid", UnaryOp::Sigmoid),
        ("sin", UnaryOp::Sin),
        ("log", UnaryOp::Log),
    ] {
        let src = if op == UnaryOp::Log {
            x.view().unary(UnaryOp::Abs).expect("abs")
        } else {
            x.view().to_owned().expect("copy")
        };
        case(
            c,
            name,
            || src.view().unary(op),
            Some(|| Cpu.unary(op, src.view().input(), output(&mut out))),
        );
    }
}

/// `softmax` of a 4096² f32 over its last and its first dim; `layer_norm`
/// over rows of 384 (MiniLM's width) of 16 Mi f32.
fn softmax_norm(c: &mut Criterion) {
    let a = random(&[N, N], 11);
    let mut out = empty(&[N, N], DType::F32);
    for (name, dim) in [("softmax_last", 1usize), ("softmax_first", 0)] {
        case(
            c,
            name,
            || a.view().softmax(dim as isize),
            Some(|| {
                let op = Softmax { dim, log: false };
                Cpu.softmax(op, a.view().input(), output(&mut out))
            }),
        );
    }
    let rows = LEN / 384;
    let x = random(&[rows, 384], 12);
    let w = random(&[384], 13);
    let b = random(&[384], 14);
    let mut out = empty(&[rows, 384], DType::F32);
    case(
        c,
        "layer_norm",
        || {
            x.view()
                .layer_norm(&[384], Some(&w.view()), Some(&b.view()), 1e-12)
        },
        Some(|| {
            Cpu.layer_norm(
                LayerNorm { eps: 1e-12 },
                x.view().input(),
                Some(w.view().input()),
                Some(b.view().input()),
                output(&mut out),
            )
        }),
    );
}

/// `softmax` over the last dim of a 4096² and `layer_norm` over rows of 384
/// of 16 Mi elements, in f16 and bf16 (computed in f32, rounded once).
fn softmax_norm_half(c: &mut Criterion) {
    for (dtype, name) in [(DType::F16, "f16"), (DType::BF16, "bf16")] {
        let a = random(&[N, N], 11).view().to_dtype(dtype).expect("cast");
        case(
            c,
            &format!("softmax_last_{name}"),
            || a.view().softmax(1),
            None::<fn() -> Result<()>>,
        );
        let rows = LEN / 384;
        let half = |t: RawTensor| t.view().to_dtype(dtype).expect("cast");
        let x = half(random(&[rows, 384], 12));
        let (w, b) = (half(random(&[384], 13)), half(random(&[384], 14)));
        case(
            c,
            &format!("layer_norm_{name}"),
            || {
                x.view()
                    .layer_norm(&[384], Some(&w.view()), Some(&b.view()), 1e-12)
            },
            None::<fn() -> Result<()>>,
        );
    }
}

/// The products of a MiniLM-sized encoder (8 × 128 tokens of 384): the
/// projections, the MLP's first product, and the attention scores per head.
fn transformer_matmuls(c: &mut Criterion) {
    for (name, (m, k, n)) in [
        ("mm_1024x384x384", (1024, 384, 384)),
        ("mm_1024x384x1536", (1024, 384, 1536)),
    ] {
        let a = random(&[m, k], 15);
        let b = random(&[k, n], 16);
        let mut out = empty(&[m, n], DType::F32);
        case(
            c,
            name,
            || a.view().matmul(&b.view()),
            Some(|| Cpu.matmul(a.view().input(), b.view().input(), output(&mut out))),
        );
    }
    // The same products as linear layers (`x·Wᵀ + b`): through the matrix
    // product (addmm), and with the weight packed once (`F32Linear`).
    for (name, (m, k, n)) in [
        ("1024x384x384", (1024, 384, 384)),
        ("1024x384x1536", (1024, 384, 1536)),
    ] {
        let x = random(&[m, k], 19);
        let (w, b) = (random(&[n, k], 20), random(&[n], 21));
        let packed = F32Linear::new(&w.view(), Some(&b.view())).expect("a linear layer");
        case(
            c,
            &format!("linear_{name}"),
            || x.view().linear(&w.view(), Some(&b.view())),
            None::<fn() -> Result<()>>,
        );
        case(
            c,
            &format!("linear_packed_{name}"),
            || packed.forward(&x.view()),
            None::<fn() -> Result<()>>,
        );
    }
    let q = random(&[96, 128, 32], 17);
    let k = random(&[96, 32, 128], 18);
    let mut out = empty(&[96, 128, 128], DType::F32);
    case(
        c,
        "bmm_96x128x32x128",
        || q.view().matmul(&k.view()),
        Some(|| Cpu.matmul(q.view().input(), k.view().input(), output(&mut out))),
    );
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = memcpy, copy, transpose_contiguous, broadcast_add, sum_each_axis,
        cast_bf16, matmul, unfold, math, softmax_norm, softmax_norm_half, transformer_matmuls
}
criterion_main!(benches);
