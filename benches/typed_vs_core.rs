//! The typed API against `axial-core` on the same ops and the same memory:
//! the typed layer should cost nothing. Each case is a criterion group with
//! the functions `core` (the untyped call) and `typed` (the method a user of
//! `axial` writes); both allocate their result. Large cases are those of
//! `versus_torch` (broadcast add of 4096² and 4096, sums along each axis,
//! a 1024³ matmul); small ones (8×8) show the wrapper's own overhead.
//!
//! Run with `cargo bench --bench typed_vs_core`; add a filter (`-- small`)
//! to run some cases only.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use axial::prelude::*;
use axial_core::{BinaryOp, Layout, RawTensor, ReduceOp, Result, TensorRef, UnaryOp};
use criterion::{Criterion, criterion_group, criterion_main};

axes!(Rows, Cols, Inner);

type Square = shape![Rows: 4096, Cols: 4096];
type Line = shape![Cols: 4096];
type Left = shape![Rows: 1024, Inner: 1024];
type Right = shape![Inner: 1024, Cols: 1024];
type Small = shape![Rows: 8, Cols: 8];
type SmallRow = shape![Cols: 8];
type SmallRight = shape![Cols: 8, Inner: 8];

/// The core's view of a typed, contiguous tensor's memory.
fn core_view<T: axial::Element, S: axial::Shape>(t: &Tensor<T, S>) -> TensorRef<'_, Cpu> {
    let sizes = t.sizes();
    TensorRef::new(t.untyped_storage(), Layout::contiguous(&sizes), T::DTYPE)
        .expect("a contiguous tensor's own layout")
}

/// Registers `core` and `typed` under the group `name`, if the core's op works.
fn pair<X>(
    c: &mut Criterion,
    name: &str,
    mut core: impl FnMut() -> Result<RawTensor>,
    mut typed: impl FnMut() -> X,
) {
    if let Err(err) = core() {
        eprintln!("{name}: skipped ({err})");
        return;
    }
    let mut group = c.benchmark_group(name);
    group.bench_function("core", |b| b.iter(|| black_box(core().unwrap())));
    group.bench_function("typed", |b| b.iter(|| black_box(typed())));
    group.finish();
}

/// `a + b` with `a` 4096² and `b` 4096 (broadcast over rows).
fn broadcast_add(c: &mut Criterion) {
    let mut rng = Generator::seed(3);
    let a = Tensor::<f32, Square>::rand(&mut rng);
    let b = Tensor::<f32, Line>::rand(&mut rng);
    let (ca, cb) = (core_view(&a), core_view(&b));
    pair(
        c,
        "broadcast_add",
        || ca.binary(BinaryOp::Add, &cb),
        || &a + &b,
    );
}

/// `x.sum(dim)` of a 4096² f32, for each axis by name.
fn sum_each_axis(c: &mut Criterion) {
    let a = Tensor::<f32, Square>::rand(&mut Generator::seed(5));
    let ca = core_view(&a);
    pair(
        c,
        "sum_axis0",
        || ca.reduce(ReduceOp::Sum, &[0], false),
        || a.sum::<Rows>(),
    );
    pair(
        c,
        "sum_axis1",
        || ca.reduce(ReduceOp::Sum, &[1], false),
        || a.sum::<Cols>(),
    );
}

/// `a @ b` of two 1024² f32.
fn matmul(c: &mut Criterion) {
    let mut rng = Generator::seed(7);
    let a = Tensor::<f32, Left>::rand(&mut rng);
    let b = Tensor::<f32, Right>::rand(&mut rng);
    let (ca, cb) = (core_view(&a), core_view(&b));
    pair(c, "matmul", || ca.matmul(&cb), || a.matmul(&b));
}

/// 8×8 ops, where the wrapper's work (views, proofs, result types) would show.
fn small(c: &mut Criterion) {
    let mut rng = Generator::seed(11);
    let a = Tensor::<f32, Small>::rand(&mut rng);
    let b = Tensor::<f32, Small>::rand(&mut rng);
    let row = Tensor::<f32, SmallRow>::rand(&mut rng);
    let m = Tensor::<f32, SmallRight>::rand(&mut rng);
    let (ca, cb, crow, cm) = (core_view(&a), core_view(&b), core_view(&row), core_view(&m));
    pair(c, "small_add", || ca.binary(BinaryOp::Add, &cb), || &a + &b);
    pair(
        c,
        "small_broadcast_add",
        || ca.binary(BinaryOp::Add, &crow),
        || &a + &row,
    );
    pair(
        c,
        "small_scalar_mul",
        || ca.binary_scalar(BinaryOp::Mul, 2.0.into()),
        || &a * 2.0,
    );
    pair(c, "small_exp", || ca.unary(UnaryOp::Exp), || a.exp());
    pair(
        c,
        "small_sum",
        || ca.reduce(ReduceOp::Sum, &[1], false),
        || a.sum::<Cols>(),
    );
    pair(c, "small_matmul", || ca.matmul(&cm), || a.matmul(&m));
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = broadcast_add, sum_each_axis, matmul, small
}
criterion_main!(benches);
