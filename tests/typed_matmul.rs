//! `matmul` by name: shapes and names of the product, batches broadcast by
//! name, vectors, half precision, and the run-time errors `Dyn` sizes leave;
//! values against a naive triple loop.

use axial::prelude::*;

axes!(Batch, Heads, Rows, Inner, Cols);

type Left = shape![Batch: 2, Rows: 3, Inner: 4];
type Right = shape![Inner: 4, Cols: 5];

/// Deterministic values with both signs.
fn values(n: usize, seed: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 13 + seed) % 17) as f64 / 4.0 - 2.0)
        .collect()
}

/// `a (b×m×k) · b (k×n)` with `b` shared by every batch.
fn naive(a: &[f64], b: &[f64], batch: usize, m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut out = vec![0.0; batch * m * n];
    for p in 0..batch {
        for i in 0..m {
            for j in 0..n {
                out[(p * m + i) * n + j] =
                    (0..k).map(|l| a[(p * m + i) * k + l] * b[l * n + j]).sum();
            }
        }
    }
    out
}

#[test]
fn batched_product_by_name() {
    let a = Tensor::<f64, Left>::from_vec(values(24, 1));
    let b = Tensor::<f64, Right>::from_vec(values(20, 5));
    let c = a.matmul(&b);
    assert_eq!(
        c.names().as_slice(),
        &[Some("Batch"), Some("Rows"), Some("Cols")]
    );
    assert_eq!(c.sizes().as_slice(), &[2, 3, 5]);
    assert_eq!(c.to_vec(), naive(&a.to_vec(), &b.to_vec(), 2, 3, 4, 5));
}

#[test]
fn batch_axes_broadcast_by_name() {
    let a = Tensor::<f32, shape![Batch: 2, Heads: 1, Rows: 2, Inner: 3]>::ones();
    let b = Tensor::<f32, shape![Heads: 4, Inner: 3, Cols: 2]>::full(2.0);
    let c = a.matmul(&b);
    assert_eq!(
        c.names().as_slice(),
        &[Some("Batch"), Some("Heads"), Some("Rows"), Some("Cols")]
    );
    assert_eq!(c.sizes().as_slice(), &[2, 4, 2, 2]);
    assert_eq!(c.to_vec(), vec![6.0; 32]);
}

#[test]
fn vectors_drop_their_unit_axis() {
    let m = Tensor::<f64, shape![Rows: 2, Inner: 3]>::from_vec(values(6, 2));
    let v = Tensor::<f64, shape![Inner: 3]>::from_vec(values(3, 9));
    let mv = m.matmul(&v);
    assert_eq!(mv.names().as_slice(), &[Some("Rows")]);
    assert_eq!(mv.to_vec(), naive(&m.to_vec(), &v.to_vec(), 1, 2, 3, 1));
    let w = Tensor::<f64, shape![Rows: 2]>::from_vec(values(2, 4));
    let vm = w.matmul(&m);
    assert_eq!(vm.names().as_slice(), &[Some("Inner")]);
    assert_eq!(vm.to_vec(), naive(&w.to_vec(), &m.to_vec(), 1, 1, 2, 3));
    let dot: Tensor<f64, shape![]> = v.matmul(&v);
    let vv = v.to_vec();
    assert_eq!(dot.item(), vv.iter().map(|x| x * x).sum::<f64>());
}

#[test]
fn anonymous_contracted_axes_match_any_name() {
    let a = Tensor::<f32, shape![Rows: 2, 3]>::ones();
    let b = Tensor::<f32, shape![Inner: 3, Cols: 4]>::ones();
    assert_eq!(a.matmul(&b).to_vec(), vec![3.0; 8]);
}

#[test]
fn half_precision_matches_f32() {
    let a32 = Tensor::<f32, shape![Rows: 4, Inner: 8]>::from_vec(
        values(32, 3).iter().map(|&x| x as f32).collect(),
    );
    let b32 = Tensor::<f32, shape![Inner: 8, Cols: 2]>::from_vec(
        values(16, 7).iter().map(|&x| x as f32).collect(),
    );
    let reference = a32.matmul(&b32).to_vec();
    let h = a32
        .cast::<f16>()
        .matmul(&b32.cast::<f16>())
        .cast::<f32>()
        .to_vec();
    let bh = a32
        .cast::<bf16>()
        .matmul(&b32.cast::<bf16>())
        .cast::<f32>()
        .to_vec();
    for ((r, h), b) in reference.iter().zip(&h).zip(&bh) {
        assert!((r - h).abs() <= 0.02 * r.abs().max(1.0), "{r} {h}");
        assert!((r - b).abs() <= 0.05 * r.abs().max(1.0), "{r} {b}");
    }
}

#[test]
fn dyn_sizes_are_checked_at_run_time() {
    let a = Tensor::<f32, shape![Rows: 2, Inner: Dyn]>::ones_dyn(3);
    let b = Tensor::<f32, shape![Inner: 4, Cols: 1]>::ones();
    assert_eq!(
        a.try_matmul(&b).unwrap_err().to_string(),
        "matmul: the contracted axis `Inner` must have one size, but it is 3 in the left operand (Rows: 2, Inner: 3) and 4 in the right operand (Inner: 4, Cols: 1)"
    );
    let batch = Tensor::<f32, shape![Batch: Dyn, Rows: 1, Inner: 4]>::ones_dyn(3);
    let other = Tensor::<f32, shape![Batch: 2, Inner: 4, Cols: 1]>::ones();
    assert_eq!(
        batch.try_matmul(&other).unwrap_err().to_string(),
        "matmul: the batch axis `Batch` has size 3 in the left operand (Batch: 3, Rows: 1, Inner: 4) and 2 in the right operand (Batch: 2, Inner: 4, Cols: 1), and neither is 1"
    );
}
