//! The order of reductions over several dims: a float `prod` multiplies one
//! dim at a time, the last first (einops' order with PyTorch, whose `prod`
//! takes one dim), so overflow, underflow and `0 · inf` give the same result
//! in every layout. The other reductions cannot tell orders apart on
//! infinities and NaN: checked on every memory order of a 4-d tensor.

use axial_core::{DType, Element, RawTensor, ReduceOp, einops, einops::Reduction};
use half::f16;

const SHAPE: [usize; 4] = [2, 3, 4, 5];

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = vec![];
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out
}

/// Values whose products overflow (1e20 · 1e20 in f32), underflow, and meet
/// zeros and infinities, from a fixed seed.
fn hazards(n: usize, picks: &[f64]) -> Vec<f64> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            picks[(s % picks.len() as u64) as usize]
        })
        .collect()
}

/// `logical` (row-major values of `SHAPE`) stored in the memory order `perm`
/// (dim `perm[0]` outermost), seen in the logical order again.
fn stored<T: Element>(logical: &[T], perm: &[usize]) -> RawTensor {
    let x = RawTensor::from_vec(logical.to_vec(), &SHAPE).unwrap();
    let p: Vec<isize> = perm.iter().map(|&d| d as isize).collect();
    let moved = x.view().permute(&p).unwrap().to_contiguous().unwrap();
    let mut inverse = vec![0isize; perm.len()];
    for (i, &d) in perm.iter().enumerate() {
        inverse[d] = i as isize;
    }
    moved
        .view()
        .permute(&inverse)
        .unwrap()
        .to_contiguous_strided()
}

trait Strided {
    /// This tensor's storage and layout, kept (not made contiguous).
    fn to_contiguous_strided(self) -> RawTensor;
}

impl Strided for axial_core::TensorRef<'_> {
    fn to_contiguous_strided(self) -> RawTensor {
        RawTensor::from_parts(self.storage().clone(), self.layout().clone(), self.dtype()).unwrap()
    }
}

/// The naive reference: the product over `dims` one dim at a time, the last
/// first, each dim's elements multiplied in index order in `f32` and the
/// result rounded by `round` (the output dtype).
fn nested_prod(logical: &[f32], dims: &[usize], round: impl Fn(f32) -> f32) -> Vec<f32> {
    let (mut shape, mut values) = (SHAPE.to_vec(), logical.to_vec());
    let mut order = dims.to_vec();
    order.sort_unstable_by(|a, b| b.cmp(a));
    for d in order {
        let inner: usize = shape[d + 1..].iter().product();
        let outer: usize = shape[..d].iter().product();
        let n = shape[d];
        let mut out = Vec::with_capacity(outer * inner);
        for o in 0..outer {
            for i in 0..inner {
                let p = (0..n).fold(1.0f32, |acc, k| acc * values[(o * n + k) * inner + i]);
                out.push(round(p));
            }
        }
        shape[d] = 1;
        values = out;
    }
    values
}

/// The product over `dims` of each output's elements in row-major order, in
/// one pass (the order the nested product replaces).
fn flat_prod(logical: &[f32], dims: &[usize]) -> Vec<f32> {
    let kept: Vec<usize> = (0..4)
        .map(|d| if dims.contains(&d) { 1 } else { SHAPE[d] })
        .collect();
    let mut out = vec![1.0f32; kept.iter().product()];
    for (flat, &v) in logical.iter().enumerate() {
        let (mut rem, mut at) = (flat, 0);
        let mut scale = 1;
        for d in (0..4).rev() {
            let i = rem % SHAPE[d];
            rem /= SHAPE[d];
            if !dims.contains(&d) {
                at += i * scale;
                scale *= SHAPE[d];
            }
        }
        out[at] *= v;
    }
    out
}

fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
}

const DIM_SETS: [&[usize]; 7] = [
    &[0, 1, 2, 3],
    &[1, 2, 3],
    &[0, 2],
    &[1, 3],
    &[2, 3],
    &[0, 1],
    &[3],
];

#[test]
fn prod_over_several_dims_is_the_same_in_every_layout() {
    let n: usize = SHAPE.iter().product();
    let logical: Vec<f32> = hazards(
        n,
        &[0.0, 1.0, -1.0, 2.0, 1e20, -1e20, 1e-20, 3e19, f64::INFINITY],
    )
    .into_iter()
    .map(|v| v as f32)
    .collect();
    let mut differs_from_flat = 0;
    for perm in permutations(4) {
        let x = stored(&logical, &perm);
        for dims in DIM_SETS {
            let want = nested_prod(&logical, dims, |p| p);
            let d: Vec<isize> = dims.iter().map(|&d| d as isize).collect();
            let got = x.view().reduce(ReduceOp::Prod, &d, true).unwrap();
            let got = got.to_vec::<f32>().unwrap();
            assert!(
                same_bits(&got, &want),
                "memory order {perm:?}, dims {dims:?}:\n{got:?}\n{want:?}"
            );
            // The data does tell orders apart: one flat product per output
            // in row-major order gives other answers.
            let flat = flat_prod(&logical, dims);
            differs_from_flat += (flat.iter().zip(&want))
                .filter(|(a, b)| !same_bits(&[**a], &[**b]))
                .count();
        }
    }
    assert!(differs_from_flat > 0);
}

#[test]
fn prod_of_halves_rounds_after_each_dim() {
    let n: usize = SHAPE.iter().product();
    let logical: Vec<f16> = hazards(n, &[0.0, 1.0, -1.0, 2.0, 300.0, 1.0 / 300.0, 60000.0])
        .into_iter()
        .map(f16::from_f64)
        .collect();
    let wide: Vec<f32> = logical.iter().map(|x| x.to_f32()).collect();
    for perm in permutations(4) {
        let x = stored(&logical, &perm);
        for dims in DIM_SETS {
            let want = nested_prod(&wide, dims, |p| f16::from_f32(p).to_f32());
            let d: Vec<isize> = dims.iter().map(|&d| d as isize).collect();
            let got = x.view().reduce(ReduceOp::Prod, &d, false).unwrap();
            let got: Vec<f32> = got
                .to_vec::<f16>()
                .unwrap()
                .iter()
                .map(|x| x.to_f32())
                .collect();
            assert!(
                same_bits(&got, &want),
                "memory order {perm:?}, dims {dims:?}"
            );
        }
    }
}

#[test]
fn einops_prod_agrees_in_every_layout() {
    let n: usize = SHAPE.iter().product();
    let logical: Vec<f32> = hazards(n, &[0.0, 1.0, 2.0, 1e20, -1e20, 1e-20])
        .into_iter()
        .map(|v| v as f32)
        .collect();
    let want = nested_prod(&logical, &[1, 2, 3], |p| p);
    for perm in permutations(4) {
        let x = stored(&logical, &perm);
        let y = einops::reduce(&x.view(), "b c h w -> b", Reduction::Prod, &[]).unwrap();
        let got = y.as_ref().to_vec::<f32>().unwrap();
        assert!(
            same_bits(&got, &want),
            "memory order {perm:?}: {got:?} vs {want:?}"
        );
    }
}

#[test]
fn other_reductions_agree_on_infinities_and_nan_in_every_layout() {
    let n: usize = SHAPE.iter().product();
    let picks = [
        0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        2.0,
        2.0,
        1.0,
        0.0,
    ];
    let logical: Vec<f32> = hazards(n, &picks).into_iter().map(|v| v as f32).collect();
    let reference = stored(&logical, &[0, 1, 2, 3]);
    for op in [
        ReduceOp::Sum,
        ReduceOp::Mean,
        ReduceOp::Max,
        ReduceOp::Min,
        ReduceOp::Any,
        ReduceOp::All,
    ] {
        for dims in DIM_SETS {
            let d: Vec<isize> = dims.iter().map(|&d| d as isize).collect();
            let read = |t: &RawTensor| match t.dtype() {
                DType::Bool => t
                    .view()
                    .to_dtype(DType::F32)
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap(),
                _ => t.to_vec::<f32>().unwrap(),
            };
            let want = read(&reference.view().reduce(op, &d, false).unwrap());
            for perm in permutations(4) {
                let x = stored(&logical, &perm);
                let got = read(&x.view().reduce(op, &d, false).unwrap());
                assert!(
                    same_bits(&got, &want),
                    "{op:?} over {dims:?} in memory order {perm:?}"
                );
            }
        }
    }
}
