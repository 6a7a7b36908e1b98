//! The same bits on any number of threads: every kernel whose result
//! combines many elements (reductions, scans, softmax, layer norm, matrix
//! products, the fused derivatives) fixes its order of operations by the data's shape, never by how
//! the work is split among threads. Each case runs in rayon pools of 1, 2,
//! 3 and 16 threads (twice on one thread), and every result must have the
//! bits of the first. The sizes are above the thresholds at which the kernels split
//! work (outputs split among threads; one long reduction split into
//! halves; bands of lanes; batches of products in parallel; a large
//! product's blocks on several threads).

use axial_core::autograd::Var;
use axial_core::cpu::infer::{Bf16Linear, F32Linear, Int8Linear};
use axial_core::{ArgReduceOp, DType, Generator, RawTensor, ReduceOp, UnaryOp};
use half::{bf16, f16};

const POOLS: [usize; 4] = [1, 2, 3, 16];

/// The bit patterns of `t`'s elements, whatever its dtype.
fn bits(t: &RawTensor) -> Vec<u64> {
    match t.dtype() {
        DType::F32 => t
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits().into())
            .collect(),
        DType::F64 => t
            .to_vec::<f64>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect(),
        DType::BF16 => t
            .to_vec::<bf16>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits().into())
            .collect(),
        DType::F16 => t
            .to_vec::<f16>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits().into())
            .collect(),
        DType::I64 => t
            .to_vec::<i64>()
            .unwrap()
            .iter()
            .map(|&v| v as u64)
            .collect(),
        other => panic!("no bit view of {other:?}"),
    }
}

/// Runs `f` in a pool of each size of [`POOLS`] (twice in the first) and
/// checks that every result has the bits of the first.
fn same_bits(case: &str, f: impl Fn() -> RawTensor + Sync) {
    let mut first: Option<Vec<u64>> = None;
    for threads in POOLS {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for run in 0..if threads == POOLS[0] { 2 } else { 1 } {
            let got = bits(&pool.install(&f));
            match &first {
                None => first = Some(got),
                Some(want) => {
                    let differ = want.iter().zip(&got).filter(|(a, b)| a != b).count();
                    assert!(
                        want.len() == got.len() && differ == 0,
                        "{case}: {differ} of {} elements differ on {threads} threads (run {run})",
                        want.len()
                    );
                }
            }
        }
    }
}

/// Normal values of mean 1 (sums whose order shows in their last bits).
fn randn(shape: &[usize], dtype: DType, seed: u64) -> RawTensor {
    let x = RawTensor::randn(shape, DType::F32, &mut Generator::seed(seed)).unwrap();
    let x = x
        .view()
        .binary_scalar(axial_core::BinaryOp::Add, 1.0.into())
        .unwrap();
    x.view().to_dtype(dtype).unwrap()
}

#[test]
fn reductions_of_every_shape_of_walk() {
    // (shape, reduced dims): outputs split among threads; few outputs, each
    // a long run split into halves; rows added into lanes (the outer walk),
    // with many and with few lanes; a middle dim; everything.
    let cases: [(&[usize], &[isize]); 7] = [
        (&[64, 4096], &[1]),
        (&[2, 1 << 19], &[1]),
        (&[4096, 256], &[0]),
        (&[1 << 16, 8], &[0]),
        (&[512, 2048], &[0]),
        (&[16, 512, 64], &[1]),
        (&[1 << 20], &[]),
    ];
    for (i, (shape, dims)) in cases.into_iter().enumerate() {
        let x = randn(shape, DType::F32, i as u64);
        // Sum and variance on every walk; the others share their walks.
        let others = [
            ReduceOp::Mean,
            ReduceOp::Max,
            ReduceOp::Std { correction: 0.0 },
        ];
        let ops = [
            ReduceOp::Sum,
            ReduceOp::Var { correction: 1.0 },
            others[i % 3],
        ];
        for op in ops {
            same_bits(&format!("{op:?} over {dims:?} of {shape:?}"), || {
                x.view().reduce(op, dims, false).unwrap()
            });
        }
    }
}

#[test]
fn reductions_of_other_dtypes() {
    for dtype in [DType::F64, DType::BF16, DType::F16] {
        for (shape, dims) in [(&[8, 1 << 17][..], &[1][..]), (&[4096, 64], &[0])] {
            let x = randn(shape, dtype, 7);
            same_bits(&format!("sum over {dims:?} of {shape:?} {dtype:?}"), || {
                x.view().reduce(ReduceOp::Sum, dims, false).unwrap()
            });
        }
    }
    // Products of values near 1 keep their rounding in the last bits.
    let x = randn(&[4, 1 << 16], DType::F64, 8)
        .view()
        .binary_scalar(axial_core::BinaryOp::Div, 64.0.into())
        .unwrap()
        .view()
        .binary_scalar(axial_core::BinaryOp::Add, 0.99.into())
        .unwrap();
    same_bits("prod of f64", || {
        x.view().reduce(ReduceOp::Prod, &[1], false).unwrap()
    });
}

#[test]
fn scans_and_arg_reductions() {
    let x = randn(&[64, 4096], DType::F32, 9);
    for dim in [0, 1] {
        same_bits(&format!("cumsum over {dim}"), || {
            x.view().cumsum(dim).unwrap()
        });
        same_bits(&format!("argmax over {dim}"), || {
            x.view()
                .arg_reduce(ArgReduceOp::ArgMax, Some(dim), false)
                .unwrap()
        });
    }
}

#[test]
fn softmax_and_layer_norm() {
    let x = randn(&[512, 1024], DType::F32, 10);
    for dim in [0, 1] {
        same_bits(&format!("softmax over {dim}"), || {
            x.view().softmax(dim).unwrap()
        });
        same_bits(&format!("log_softmax over {dim}"), || {
            x.view().log_softmax(dim).unwrap()
        });
    }
    let x = randn(&[4096, 384], DType::F32, 11);
    let w = randn(&[384], DType::F32, 12);
    let b = randn(&[384], DType::F32, 13);
    same_bits("layer_norm", || {
        x.view()
            .layer_norm(&[384], Some(&w.view()), Some(&b.view()), 1e-12)
            .unwrap()
    });
}

/// The gradient of `Σ f(x)·g` for each input, through the autograd engine
/// (the derivatives the CPU fuses: GELU, SiLU, softmax, layer norm).
fn gradients(
    inputs: &[&RawTensor],
    g: &RawTensor,
    f: impl for<'g> Fn(&[Var<'g>]) -> Var<'g>,
) -> Vec<RawTensor> {
    let leaves: Vec<Var<'_>> = inputs
        .iter()
        .map(|t| Var::leaf(t.view().to_contiguous().unwrap()).unwrap())
        .collect();
    let ids: Vec<_> = leaves.iter().map(|v| v.leaf_id().unwrap()).collect();
    let weight = Var::constant(g.view().to_contiguous().unwrap());
    let loss = f(&leaves).mul(&weight).unwrap().sum(&[], false).unwrap();
    let grads = loss.backward().unwrap();
    ids.iter()
        .map(|&id| grads.get(id).unwrap().to_contiguous().unwrap())
        .collect()
}

#[test]
fn fused_derivatives() {
    let x = randn(&[512, 384], DType::F32, 30);
    let g = randn(&[512, 384], DType::F32, 31);
    for op in [UnaryOp::Gelu, UnaryOp::GeluTanh, UnaryOp::Silu] {
        same_bits(&format!("the derivative of {op:?}"), || {
            gradients(&[&x], &g, |v| v[0].unary(op).unwrap()).remove(0)
        });
    }
    for log in [false, true] {
        same_bits(&format!("the derivative of softmax (log: {log})"), || {
            let grads = gradients(&[&x], &g, |v| match log {
                true => v[0].log_softmax(-1).unwrap(),
                false => v[0].softmax(-1).unwrap(),
            });
            grads.into_iter().next().unwrap()
        });
    }
    let w = randn(&[384], DType::F32, 32);
    let b = randn(&[384], DType::F32, 33);
    for i in 0..3 {
        same_bits(&format!("layer norm's gradient {i}"), || {
            let grads = gradients(&[&x, &w, &b], &g, |v| {
                v[0].layer_norm(&[384], Some(&v[1]), Some(&v[2]), 1e-5)
                    .unwrap()
            });
            grads.into_iter().nth(i).unwrap()
        });
    }
}

#[test]
fn matrix_products() {
    // One large product (blocks on several threads), many small ones
    // (batches in parallel), MiniLM's attention products, and the widened
    // bf16 path.
    let cases: [(&[usize], &[usize], DType); 5] = [
        (&[320, 384], &[384, 1536], DType::F32),
        (&[96, 128, 32], &[96, 32, 128], DType::F32),
        (&[8, 12, 40, 32], &[8, 12, 32, 40], DType::F32),
        (&[256, 300], &[300, 200], DType::F64),
        (&[64, 128, 64], &[64, 64, 96], DType::BF16),
    ];
    for (i, (a, b, dtype)) in cases.into_iter().enumerate() {
        let x = randn(a, dtype, 20 + i as u64);
        let y = randn(b, dtype, 40 + i as u64);
        same_bits(&format!("matmul {a:?} @ {b:?} {dtype:?}"), || {
            x.view().matmul(&y.view()).unwrap()
        });
    }
    // A linear layer with its bias (addmm), its weight read transposed.
    let x = randn(&[320, 384], DType::F32, 60);
    let w = randn(&[1536, 384], DType::F32, 61);
    let b = randn(&[1536], DType::F32, 62);
    same_bits("linear", || {
        x.view().linear(&w.view(), Some(&b.view())).unwrap()
    });
    // The inference layers: f32 weights packed (with and without GELU),
    // int8 weights with activations quantized per token, and bf16 weights.
    let f32 = F32Linear::new(&w.view(), Some(&b.view())).unwrap();
    same_bits("f32 linear", || f32.forward(&x.view()).unwrap());
    same_bits("f32 linear gelu", || f32.forward_gelu(&x.view()).unwrap());
    let int8 = Int8Linear::new(&w.view(), Some(&b.view())).unwrap();
    same_bits("int8 linear", || int8.forward(&x.view()).unwrap());
    let bf16 = Bf16Linear::new(&w.view(), Some(&b.view())).unwrap();
    same_bits("bf16 linear", || bf16.forward(&x.view()).unwrap());
}
