//! Every reduction, the arg reductions and matmul against naive references
//! (element by element through the layout, in f64 or wrapping i64) on random
//! layouts: permuted, sliced with steps, offset, broadcast, sizes 0 and 1,
//! every dtype each op supports; and large cases that take the parallel paths.
//! The suite runs on every device (`per_device!`): the CPU, and the GPU
//! when `axial-cuda` is built with its `cuda` feature.

mod support;

use axial_core::{ArgReduceOp, Bool, DType, Element, Kind, Layout, RawTensor, ReduceOp, cast};
use half::{bf16, f16};
use proptest::prelude::*;
use support::{Case, TestDevice, case, case_for, large_case_for, unravel};

/// Runs `$body` once for each listed type, bound to `$T`.
macro_rules! each_type {
    ($T:ident in [$($t:ty),*] => $body:expr) => {{
        $({
            type $T = $t;
            $body;
        })*
    }};
}

/// A reference result: floats in f64, integers and bool in i64.
#[derive(Copy, Clone, Debug)]
enum Want {
    F(f64),
    I(i64),
}

/// Row-major flat index of `idx` in `shape`.
fn ravel(idx: &[usize], shape: &[usize]) -> usize {
    idx.iter().zip(shape).fold(0, |acc, (&i, &n)| acc * n + i)
}

/// The reduced dims as the tensor layer wraps them (empty: all).
fn wrapped(dims: &[isize], rank: usize) -> Vec<usize> {
    if rank == 0 {
        return vec![];
    }
    if dims.is_empty() {
        return (0..rank).collect();
    }
    dims.iter()
        .map(|&d| d.rem_euclid(rank as isize) as usize)
        .collect()
}

/// `op` over `xs` computed naively.
fn reference<T: Element>(op: ReduceOp, xs: &[T]) -> Want {
    let float = T::KIND == Kind::Float;
    let f: Vec<f64> = xs.iter().map(|x| x.to_f64()).collect();
    let i: Vec<i64> = xs.iter().map(|x| x.to_i64()).collect();
    let n = xs.len() as f64;
    let nan = f.iter().any(|v| v.is_nan());
    let moments = |correction: f64| {
        let mean = f.iter().sum::<f64>() / n;
        let m2: f64 = f.iter().map(|v| (v - mean) * (v - mean)).sum();
        m2 / (n - correction).max(0.0)
    };
    match op {
        ReduceOp::Sum if float => Want::F(f.iter().sum()),
        ReduceOp::Sum => Want::I(i.iter().fold(0, |a, &b| a.wrapping_add(b))),
        ReduceOp::Prod if float => Want::F(f.iter().product()),
        ReduceOp::Prod => Want::I(i.iter().fold(1, |a, &b| a.wrapping_mul(b))),
        ReduceOp::Mean => Want::F(f.iter().sum::<f64>() / n),
        ReduceOp::Max | ReduceOp::Min if float && nan => Want::F(f64::NAN),
        ReduceOp::Max if float => Want::F(f.iter().copied().fold(f64::MIN, f64::max)),
        ReduceOp::Min if float => Want::F(f.iter().copied().fold(f64::MAX, f64::min)),
        ReduceOp::Max => Want::I(*i.iter().max().expect("non-empty")),
        ReduceOp::Min => Want::I(*i.iter().min().expect("non-empty")),
        ReduceOp::All => Want::I(xs.iter().all(|x| x.is_nonzero()) as i64),
        ReduceOp::Any => Want::I(xs.iter().any(|x| x.is_nonzero()) as i64),
        ReduceOp::Var { correction } => Want::F(moments(correction)),
        ReduceOp::Std { correction } => Want::F(moments(correction).sqrt()),
        _ => unreachable!("every op is listed"),
    }
}

/// Relative tolerance for a float result of `dtype`.
fn tolerance(dtype: DType, op: ReduceOp) -> f64 {
    let prod = if op == ReduceOp::Prod { 10.0 } else { 1.0 };
    prod * match dtype {
        DType::F64 => 1e-12,
        DType::F32 => 1e-5,
        DType::F16 => 2e-3,
        _ => 1.6e-2,
    }
}

/// `want` rounded to `dtype`, as PyTorch rounds an f64 into it.
fn round_to(dtype: DType, want: f64) -> f64 {
    match dtype {
        DType::F32 => cast::<f64, f32>(want) as f64,
        DType::F16 => cast::<f64, f16>(want).to_f64(),
        DType::BF16 => cast::<f64, bf16>(want).to_f64(),
        _ => want,
    }
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got.is_nan() && want.is_nan())
        || got == want
        || (got - want).abs() <= tol * want.abs().max(1.0)
}

/// Checks `reduce(op, dims, keepdim)` of `c` as `T` against the reference.
fn check_reduce<T: Element, D: TestDevice>(
    dev: &D,
    c: &Case,
    op: ReduceOp,
    dims: &[isize],
    keepdim: bool,
) -> Result<(), TestCaseError> {
    let got = c.tensor_on::<T, D>(dev).view().reduce(op, dims, keepdim);
    let shape = &c.shape;
    let reduced = wrapped(dims, shape.len());
    let empty = (dims.is_empty() && shape.contains(&0)) || reduced.iter().any(|&d| shape[d] == 0);
    if matches!(op, ReduceOp::Max | ReduceOp::Min) && empty {
        prop_assert!(got.is_err());
        return Ok(());
    }
    let got = got.unwrap();
    let kept: Vec<usize> = (0..shape.len())
        .map(|d| if reduced.contains(&d) { 1 } else { shape[d] })
        .collect();
    let want_shape: Vec<usize> = (0..shape.len())
        .filter(|d| keepdim || !reduced.contains(d))
        .map(|d| kept[d])
        .collect();
    prop_assert_eq!(got.shape(), want_shape.as_slice());
    let out_dtype = op.output_dtype(T::DTYPE).unwrap();
    prop_assert_eq!(got.dtype(), out_dtype);

    let mut groups: Vec<Vec<T>> = vec![vec![]; kept.iter().product()];
    for (flat, v) in c.naive::<T>().into_iter().enumerate() {
        let mut idx = unravel(flat, shape);
        for &d in &reduced {
            idx[d] = 0;
        }
        groups[ravel(&idx, &kept)].push(v);
    }
    if out_dtype.is_float() {
        let got = got
            .view()
            .to_dtype(DType::F64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        for (g, xs) in got.iter().zip(&groups) {
            let Want::F(w) = reference(op, xs) else {
                unreachable!("float results are floats")
            };
            let w = round_to(out_dtype, w);
            prop_assert!(
                close(*g, w, tolerance(out_dtype, op)),
                "{:?} of {:?}: got {}, want {}",
                op,
                xs,
                g,
                w
            );
        }
    } else {
        let got = got
            .view()
            .to_dtype(DType::I64)
            .unwrap()
            .to_vec::<i64>()
            .unwrap();
        for (g, xs) in got.iter().zip(&groups) {
            let w = match reference(op, xs) {
                Want::I(w) => w,
                Want::F(w) => w as i64,
            };
            prop_assert_eq!(*g, w, "{:?} of {:?}", op, xs);
        }
    }
    Ok(())
}

/// Products of many elements overflow f32 depending on the order; the
/// property tests multiply elements near 1 instead.
fn tame_for_prod(c: &Case) -> Case {
    let mut c = c.clone();
    for v in &mut c.storage {
        *v = 1.0 + *v / 64.0;
    }
    c
}

/// Checks `op` on `c` for every dtype that has it.
fn check_every_dtype<D: TestDevice>(
    dev: &D,
    c: &Case,
    op: ReduceOp,
    dims: &[isize],
    keepdim: bool,
) -> Result<(), TestCaseError> {
    let tame = tame_for_prod(c);
    let floats = if op == ReduceOp::Prod { &tame } else { c };
    each_type!(T in [f64, f32, f16, bf16] => check_reduce::<T, D>(dev, floats, op, dims, keepdim)?);
    if op.output_dtype(DType::I64).is_ok() {
        each_type!(T in [i64, i32, i16, i8, u8, Bool] => check_reduce::<T, D>(dev, c, op, dims, keepdim)?);
    }
    Ok(())
}

/// The op numbered `i`, with `correction` for var and std.
fn op_at(i: usize, correction: f64) -> ReduceOp {
    [
        ReduceOp::Sum,
        ReduceOp::Prod,
        ReduceOp::Mean,
        ReduceOp::Max,
        ReduceOp::Min,
        ReduceOp::All,
        ReduceOp::Any,
        ReduceOp::Var { correction },
        ReduceOp::Std { correction },
    ][i]
}

/// Dims picked by `mask` from `rank`, some written negative.
fn pick_dims(mask: &[bool], negative: &[bool], rank: usize) -> Vec<isize> {
    (0..rank.min(mask.len()))
        .filter(|&d| mask[d])
        .map(|d| {
            if negative[d] {
                d as isize - rank as isize
            } else {
                d as isize
            }
        })
        .collect()
}

/// Checks argmax/argmin (and max/min with indices) of `c` as `T`.
fn check_arg<T: Element, D: TestDevice>(
    dev: &D,
    c: &Case,
    max: bool,
    dim: Option<usize>,
    keepdim: bool,
) -> Result<(), TestCaseError> {
    let t = c.tensor_on::<T, D>(dev);
    let op = if max {
        ArgReduceOp::ArgMax
    } else {
        ArgReduceOp::ArgMin
    };
    let shape = &c.shape;
    let rank = shape.len();
    let dim = dim.map(|d| if rank == 0 { 0 } else { d % rank });
    let got = t.view().arg_reduce(op, dim.map(|d| d as isize), keepdim);
    let empty = match dim {
        None => shape.contains(&0),
        Some(d) => rank > 0 && shape[d] == 0,
    };
    if T::DTYPE == DType::Bool || empty {
        prop_assert!(got.is_err());
        return Ok(());
    }
    let got = got.unwrap();
    let values = c.naive::<T>();
    // The first index of the extremum in `xs`, a NaN winning.
    let best = |xs: &[f64]| {
        let mut at = 0;
        for (i, &x) in xs.iter().enumerate().skip(1) {
            let b = xs[at];
            if !b.is_nan() && (x.is_nan() || if max { x > b } else { x < b }) {
                at = i;
            }
        }
        at as i64
    };
    let f: Vec<f64> = values.iter().map(|v| v.to_f64()).collect();
    let Some(d) = dim.filter(|_| rank > 0) else {
        let want_shape = if keepdim && dim.is_none() {
            vec![1; rank]
        } else {
            vec![]
        };
        prop_assert_eq!(got.shape(), want_shape.as_slice());
        prop_assert_eq!(got.to_vec::<i64>().unwrap(), vec![best(&f)]);
        return Ok(());
    };
    let mut kept = shape.clone();
    kept[d] = 1;
    let mut groups: Vec<Vec<f64>> = vec![vec![]; kept.iter().product()];
    for (flat, &v) in f.iter().enumerate() {
        let mut idx = unravel(flat, shape);
        idx[d] = 0;
        groups[ravel(&idx, &kept)].push(v);
    }
    let want: Vec<i64> = groups.iter().map(|g| best(g)).collect();
    prop_assert_eq!(got.to_vec::<i64>().unwrap(), want.clone());
    let (vals, idx) = t.view().max_min_dim(op, d as isize, keepdim).unwrap();
    prop_assert_eq!(idx.to_vec::<i64>().unwrap(), want.clone());
    let vals = vals
        .view()
        .to_dtype(DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    for ((v, g), &i) in vals.iter().zip(&groups).zip(&want) {
        let w = g[i as usize];
        prop_assert!(v == &w || (v.is_nan() && w.is_nan()));
    }
    Ok(())
}

crate::per_device! {
proptest! {
    #[test]
    fn reductions_match_naive(
        c in case(true, true),
        op in 0usize..9,
        correction in prop::sample::select(vec![0.0, 1.0, 2.5, 7.0]),
        mask in prop::collection::vec(any::<bool>(), 4),
        negative in prop::collection::vec(any::<bool>(), 4),
        keepdim in any::<bool>(),
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        let dims = pick_dims(&mask, &negative, c.shape.len());
        check_every_dtype(&dev, &c, op_at(op, correction), &dims, keepdim)?;
    }

    #[test]
    fn arg_reductions_match_naive(
        c in case(true, true),
        max in any::<bool>(),
        dim in prop::option::of(0usize..4),
        keepdim in any::<bool>(),
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        each_type!(T in [f64, f32, f16, bf16, i64, i32, i16, i8, u8, Bool] => check_arg::<T, Dev>(&dev, &c, max, dim, keepdim)?);
    }
}

/// Windows over a 1-D storage, as `unfold` makes them: shape `(outer,
/// windows, run)` with strides `(outer_stride, step, 1)` from an offset, the
/// windows overlapping (`step < run`) or apart, the outer dim strided.
fn windows(
    runs: std::ops::RangeInclusive<usize>,
    counts: std::ops::RangeInclusive<usize>,
    large: bool,
) -> impl Strategy<Value = Case> {
    (
        runs,
        counts,
        1usize..=36,
        1usize..=3,
        0usize..=5,
        0usize..=3,
    )
        .prop_flat_map(move |(run, windows, step, outer, gap, offset)| {
            let outer_stride = windows * step + gap;
            let need = offset + (outer - 1) * outer_stride + (windows - 1) * step + run;
            let layout = Layout::from_parts(
                &[outer, windows, run],
                &[outer_stride as isize, step as isize, 1],
                offset,
            );
            let base = if large {
                large_case_for(vec![need], false, true).boxed()
            } else {
                case_for(vec![need], false, true).boxed()
            };
            base.prop_map(move |c| Case {
                shape: layout.shape().to_vec(),
                layout: layout.clone(),
                ..c
            })
        })
}

proptest! {
    #[test]
    fn window_reductions_match_naive(
        c in windows(0..=33, 1..=40, false),
        op in 0usize..9,
        keepdim in any::<bool>(),
        max in any::<bool>(),
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        check_every_dtype(&dev, &c, op_at(op, 1.0), &[-1], keepdim)?;
        each_type!(T in [f64, f32, f16, bf16, i64, i32, i16, i8, u8] => check_arg::<T, Dev>(&dev, &c, max, Some(2), keepdim)?);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn large_window_reductions_match_naive(
        c in windows(1..=33, 2000..=3000, true),
        op in 0usize..9,
        max in any::<bool>(),
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        let op = op_at(op, 1.0);
        let tame = tame_for_prod(&c);
        let floats = if op == ReduceOp::Prod { &tame } else { &c };
        check_reduce::<f32, Dev>(&dev, floats, op, &[-1], false)?;
        check_reduce::<bf16, Dev>(&dev, floats, op, &[-1], false)?;
        if op.output_dtype(DType::I32).is_ok() {
            check_reduce::<i8, Dev>(&dev, &c, op, &[-1], false)?;
        }
        check_arg::<f16, Dev>(&dev, &c, max, Some(2), false)?;
    }
}

/// Shapes of 33K to 400K elements.
fn large_shape() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        (34usize..=48, 33usize..=40, 30usize..=36).prop_map(|(a, b, c)| vec![a, b, c]),
        (300usize..=700, 256usize..=600).prop_map(|(a, b)| vec![a, b]),
        (1usize..=3, 70_000usize..=130_000).prop_map(|(a, b)| vec![a, b]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn large_reductions_match_naive(
        c in large_shape().prop_flat_map(|s| large_case_for(s, true, true)),
        op in 0usize..9,
        mask in prop::collection::vec(any::<bool>(), 3),
        keepdim in any::<bool>(),
        max in any::<bool>(),
        dim in 0usize..3,
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        let dims = pick_dims(&mask, &[false; 3], c.shape.len());
        let op = op_at(op, 1.0);
        let tame = tame_for_prod(&c);
        let floats = if op == ReduceOp::Prod { &tame } else { &c };
        check_reduce::<f32, Dev>(&dev, floats, op, &dims, keepdim)?;
        check_reduce::<f16, Dev>(&dev, floats, op, &dims, keepdim)?;
        if op.output_dtype(DType::I32).is_ok() {
            check_reduce::<i32, Dev>(&dev, &c, op, &dims, keepdim)?;
        }
        check_arg::<f32, Dev>(&dev, &c, max, Some(dim), keepdim)?;
    }
}

/// Matmul operands: batch dims that broadcast (in size and in rank), 1-D
/// operands, sizes 0 and 1, stride-0 matrix dims.
fn matmul_cases() -> impl Strategy<Value = (Case, Case)> {
    let sizes = (0usize..=4, 0usize..=4, 0usize..=4);
    let batch = prop::collection::vec((1usize..=3, any::<bool>(), any::<bool>()), 0..=2);
    (sizes, batch, 0usize..4, any::<bool>()).prop_flat_map(|((m, k, n), batch, kind, drop)| {
        let mut a: Vec<usize> = batch
            .iter()
            .map(|&(s, one, _)| if one { 1 } else { s })
            .collect();
        let b: Vec<usize> = batch
            .iter()
            .map(|&(s, _, one)| if one { 1 } else { s })
            .collect();
        if drop && !a.is_empty() {
            a.remove(0);
        }
        let (a, b) = match kind {
            0 => ([a, vec![m, k]].concat(), [b, vec![k, n]].concat()),
            1 => (vec![k], [b, vec![k, n]].concat()),
            2 => ([a, vec![m, k]].concat(), vec![k]),
            _ => (vec![k], vec![k]),
        };
        (case_for(a, true, false), case_for(b, true, false))
    })
}

/// `a @ b` by the definition, in f64, with PyTorch's 1-D rules.
fn naive_matmul(a: &Case, b: &Case) -> (Vec<usize>, Vec<f64>) {
    let (av, bv) = (a.naive::<f64>(), b.naive::<f64>());
    let a2 = if a.shape.len() == 1 {
        vec![1, a.shape[0]]
    } else {
        a.shape.clone()
    };
    let b2 = if b.shape.len() == 1 {
        vec![b.shape[0], 1]
    } else {
        b.shape.clone()
    };
    let (ra, rb) = (a2.len(), b2.len());
    let (m, k, n) = (a2[ra - 2], a2[ra - 1], b2[rb - 1]);
    let rank = ra.max(rb) - 2;
    let pad = |s: &[usize]| -> Vec<usize> {
        let mut p = vec![1; rank + 2 - s.len()];
        p.extend_from_slice(&s[..s.len() - 2]);
        p
    };
    let (pa, pb) = (pad(&a2), pad(&b2));
    let batch: Vec<usize> = pa.iter().zip(&pb).map(|(&x, &y)| x.max(y)).collect();
    let mut out = vec![];
    for flat in 0..batch.iter().product::<usize>() {
        let bi = unravel(flat, &batch);
        let ia: Vec<usize> = bi
            .iter()
            .zip(&pa)
            .map(|(&i, &s)| if s == 1 { 0 } else { i })
            .collect();
        let ib: Vec<usize> = bi
            .iter()
            .zip(&pb)
            .map(|(&i, &s)| if s == 1 { 0 } else { i })
            .collect();
        let (oa, ob) = (ravel(&ia, &pa) * m * k, ravel(&ib, &pb) * k * n);
        for i in 0..m {
            for j in 0..n {
                out.push(
                    (0..k)
                        .map(|p| av[oa + i * k + p] * bv[ob + p * n + j])
                        .sum(),
                );
            }
        }
    }
    let mut shape = batch;
    if a.shape.len() > 1 {
        shape.push(m);
    }
    if b.shape.len() > 1 {
        shape.push(n);
    }
    (shape, out)
}

/// Checks `a @ b` as `T`: small integers and halves make every product and
/// sum exact, so the only rounding is the final one into `T`.
fn check_matmul<T: Element, D: TestDevice>(
    dev: &D,
    a: &Case,
    b: &Case,
) -> Result<(), TestCaseError> {
    let (shape, want) = naive_matmul(a, b);
    let got = a
        .tensor_on::<T, D>(dev)
        .view()
        .matmul(&b.tensor_on::<T, D>(dev).view())
        .unwrap();
    prop_assert_eq!(got.shape(), shape.as_slice());
    let got: Vec<f64> = got
        .to_vec::<T>()
        .unwrap()
        .iter()
        .map(|v| v.to_f64())
        .collect();
    let want: Vec<f64> = want.iter().map(|&w| cast::<f64, T>(w).to_f64()).collect();
    prop_assert_eq!(got, want);
    Ok(())
}

proptest! {
    #[test]
    fn matmul_matches_naive((a, b) in matmul_cases()) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        each_type!(T in [f64, f32, f16, bf16] => check_matmul::<T, Dev>(&dev, &a, &b)?);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]

    #[test]
    fn large_matmuls_match_naive(
        (a, b) in (84usize..=100, 84usize..=100, 84usize..=100, 1usize..=2)
            .prop_flat_map(|(m, k, n, batch)| (
                large_case_for(vec![batch, m, k], true, false),
                large_case_for(vec![k, n], false, false),
            ))
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        check_matmul::<f32, Dev>(&dev, &a, &b)?;
        check_matmul::<bf16, Dev>(&dev, &a, &b)?;
    }

    #[test]
    fn many_small_matmuls_match_naive(
        (a, b) in (16usize..=20, 150usize..=200)
            .prop_flat_map(|(s, batch)| (
                large_case_for(vec![batch, s, s], true, false),
                large_case_for(vec![batch, s, s], false, false),
            ))
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        check_matmul::<f64, Dev>(&dev, &a, &b)?;
        check_matmul::<f16, Dev>(&dev, &a, &b)?;
    }
}

#[test]
fn the_naive_reference_is_itself_right() {
    let a = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
    let c = Case {
        shape: vec![2, 2],
        layout: a.layout().clone(),
        storage: vec![1.0, 2.0, 3.0, 4.0],
    };
    let (shape, v) = naive_matmul(&c, &c);
    assert_eq!((shape, v), (vec![2, 2], vec![7.0, 10.0, 15.0, 22.0]));
    assert!(matches!(
        reference::<f32>(ReduceOp::Sum, &[1.0, 2.5]),
        Want::F(3.5)
    ));
}
}
