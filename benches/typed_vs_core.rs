//! The typed API against `axial-core` on the same ops and the same memory:
//! the typed layer should cost nothing. Each case is a criterion group with
//! the functions `core` (the call a user of `axial-core` writes on the
//! tensors it holds, `a.view().binary(..)`) and `typed` (the method a user
//! of `axial` writes); both allocate their result. Large cases are those of
//! `versus_torch` (broadcast add of 4096² and 4096, sums along each axis,
//! a 1024³ matmul); small ones (8×8) show the wrapper's own overhead.
//!
//! Run with `cargo bench --bench typed_vs_core`; add a filter (`-- small`)
//! to run some cases only.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use axial::prelude::*;
use axial_core::{
    BinaryOp, DType, Layout, RawTensor, ReduceOp, Result, Storage, TensorRef, UnaryOp,
};
use criterion::{Criterion, criterion_group, criterion_main};

axes!(Rows, Cols, Inner);

type Square = shape![Rows: 4096, Cols: 4096];
type Line = shape![Cols: 4096];
type Left = shape![Rows: 1024, Inner: 1024];
type Right = shape![Inner: 1024, Cols: 1024];
type Small = shape![Rows: 8, Cols: 8];
type SmallRow = shape![Cols: 8];
type SmallRight = shape![Cols: 8, Inner: 8];

/// The core's handle on a typed tensor's memory, from which each call takes
/// a view as a user of `axial-core` does (`raw.view()`: the layout cloned,
/// nothing checked). Both sides read the same memory: two copies could sit
/// on differently backed pages and differ by more than the wrapper costs.
struct Core<'a> {
    storage: &'a Storage<Cpu>,
    layout: Layout,
}

impl Core<'_> {
    fn view(&self) -> TensorRef<'_, Cpu> {
        TensorRef::new_unchecked(self.storage, self.layout.clone(), DType::F32)
    }
}

fn core_of<S: axial::Shape>(t: &Tensor<f32, S>) -> Core<'_> {
    Core {
        storage: t.untyped_storage(),
        layout: Layout::contiguous(&t.sizes()),
    }
}

/// Registers `core` and `typed` under the group `name`, if the core's op
/// works. `typed` is timed interleaved with the core's op, one call each in
/// turn (in alternating order), so both see the same machine; the median ratio of their times over
/// the samples is printed (`typed/core`), which a busy machine disturbs far
/// less than two separate estimates.
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
    let mut ratios = Vec::new();
    let mut group = c.benchmark_group(name);
    group.bench_function("core", |b| b.iter(|| black_box(core().unwrap())));
    group.bench_function("typed", |b| {
        b.iter_custom(|iters| {
            let (mut core_time, mut typed_time) = (Duration::ZERO, Duration::ZERO);
            for i in 0..iters {
                // Alternate which goes first, so neither gains from the
                // other's allocations or caches.
                let start = Instant::now();
                if i % 2 == 0 {
                    black_box(core().unwrap());
                } else {
                    black_box(typed());
                }
                let middle = Instant::now();
                if i % 2 == 0 {
                    black_box(typed());
                } else {
                    black_box(core().unwrap());
                }
                let end = Instant::now();
                let (first, second) = (middle - start, end - middle);
                let (c, t) = if i % 2 == 0 {
                    (first, second)
                } else {
                    (second, first)
                };
                core_time += c;
                typed_time += t;
            }
            ratios.push(typed_time.as_secs_f64() / core_time.as_secs_f64());
            typed_time
        })
    });
    group.finish();
    report(name, &mut ratios);
}

/// Prints the median and quartiles of the ratios, if the case ran.
fn report(name: &str, ratios: &mut [f64]) {
    if ratios.is_empty() {
        return;
    }
    ratios.sort_by(f64::total_cmp);
    let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "{name}: typed/core = {:.3} (quartiles {:.3} to {:.3}, {} samples)",
        at(0.5),
        at(0.25),
        at(0.75),
        ratios.len()
    );
}

/// `a + b` with `a` 4096² and `b` 4096 (broadcast over rows).
fn broadcast_add(c: &mut Criterion) {
    let mut rng = Generator::seed(3);
    let a = Tensor::<f32, Square>::rand(&mut rng);
    let b = Tensor::<f32, Line>::rand(&mut rng);
    let (ca, cb) = (core_of(&a), core_of(&b));
    pair(
        c,
        "broadcast_add",
        || ca.view().binary(BinaryOp::Add, &cb.view()),
        || &a + &b,
    );
}

/// `x.sum(dim)` of a 4096² f32, for each axis by name.
fn sum_each_axis(c: &mut Criterion) {
    let a = Tensor::<f32, Square>::rand(&mut Generator::seed(5));
    let ca = core_of(&a);
    pair(
        c,
        "sum_axis0",
        || ca.view().reduce(ReduceOp::Sum, &[0], false),
        || a.sum::<Rows>(),
    );
    pair(
        c,
        "sum_axis1",
        || ca.view().reduce(ReduceOp::Sum, &[1], false),
        || a.sum::<Cols>(),
    );
}

/// `a @ b` of two 1024² f32.
fn matmul(c: &mut Criterion) {
    let mut rng = Generator::seed(7);
    let a = Tensor::<f32, Left>::rand(&mut rng);
    let b = Tensor::<f32, Right>::rand(&mut rng);
    let (ca, cb) = (core_of(&a), core_of(&b));
    pair(
        c,
        "matmul",
        || ca.view().matmul(&cb.view()),
        || a.matmul(&b),
    );
}

/// 8×8 ops, where the wrapper's work (views, proofs, result types) would show.
fn small(c: &mut Criterion) {
    let mut rng = Generator::seed(11);
    let a = Tensor::<f32, Small>::rand(&mut rng);
    let b = Tensor::<f32, Small>::rand(&mut rng);
    let row = Tensor::<f32, SmallRow>::rand(&mut rng);
    let m = Tensor::<f32, SmallRight>::rand(&mut rng);
    let (ca, cb, crow, cm) = (core_of(&a), core_of(&b), core_of(&row), core_of(&m));
    pair(
        c,
        "small_add",
        || ca.view().binary(BinaryOp::Add, &cb.view()),
        || &a + &b,
    );
    pair(
        c,
        "small_broadcast_add",
        || ca.view().binary(BinaryOp::Add, &crow.view()),
        || &a + &row,
    );
    pair(
        c,
        "small_scalar_mul",
        || ca.view().binary_scalar(BinaryOp::Mul, 2.0.into()),
        || &a * 2.0,
    );
    pair(c, "small_exp", || ca.view().unary(UnaryOp::Exp), || a.exp());
    pair(
        c,
        "small_sum",
        || ca.view().reduce(ReduceOp::Sum, &[1], false),
        || a.sum::<Cols>(),
    );
    pair(
        c,
        "small_matmul",
        || ca.view().matmul(&cm.view()),
        || a.matmul(&m),
    );
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
