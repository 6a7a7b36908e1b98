//! Reductions by name, index reductions and softmax
//! through the typed API, against a naive evaluation on the same data.

use axial::prelude::*;

axes!(A, B, C, Rows, Cols);

type Cube = shape![A: 2, B: 3, C: 4];
type Grid = shape![Rows: 3, Cols: 5];

/// `arange(24).view(2, 3, 4)`, PyTorch's worked example of reductions.
fn cube() -> Tensor<i64, Cube> {
    Tensor::arange()
}

/// Values with ties, negatives and a spread, row-major over `Grid`.
fn grid() -> Tensor<f64, Grid> {
    Tensor::from_vec((0..15).map(|i| ((i * 7) % 11) as f64 - 4.5).collect())
}

/// Row-major `values` of `Grid` reduced along `Cols` by `f`.
fn by_rows(values: &[f64], f: impl Fn(&[f64]) -> f64) -> Vec<f64> {
    values.chunks(5).map(f).collect()
}

/// Row-major `values` of `Grid` reduced along `Rows` by `f`.
fn by_cols(values: &[f64], f: impl Fn(&[f64]) -> f64) -> Vec<f64> {
    (0..5)
        .map(|c| f(&[values[c], values[5 + c], values[10 + c]]))
        .collect()
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
}

#[test]
fn semantics_sum_examples() {
    let x = cube();
    let total: Tensor<i64, shape![]> = x.sum_all();
    assert_eq!(total.item(), 276);
    let s = x.sum::<names![A, C]>();
    assert_eq!(s.names().as_slice(), &[Some("B")]);
    assert_eq!(s.to_vec(), vec![60, 92, 124]);
    let k = x.sum_keepdim::<names![A, C]>();
    assert_eq!(k.sizes().as_slice(), &[1, 3, 1]);
    assert_eq!(k.names().as_slice(), &[Some("A"), Some("B"), Some("C")]);
    // The order of the names does not matter.
    assert_eq!(x.sum::<names![C, A]>().to_vec(), vec![60, 92, 124]);
}

#[test]
fn sum_of_integers_is_i64_and_u8_all_stays_u8() {
    let small = Tensor::<i8, shape![Cols: 3]>::from_array([100, 100, 100]);
    let s: Tensor<i64, shape![]> = small.sum::<Cols>();
    assert_eq!(s.item(), 300);
    let flags = Tensor::<u8, shape![Cols: 3]>::from_array([1, 2, 0]);
    let all: Tensor<u8, shape![]> = flags.all::<Cols>();
    assert_eq!(all.item(), 0);
    let bools = Tensor::<Bool, shape![Cols: 2]>::from_array([Bool::TRUE, Bool::TRUE]);
    let count: Tensor<i64, shape![]> = bools.sum_all();
    assert_eq!(count.item(), 2);
    let any: Tensor<Bool, shape![]> = bools.any_all();
    assert!(any.item().get());
}

#[test]
fn float_reductions_against_naive() {
    let x = grid();
    let v = x.to_vec();
    let n = |s: &[f64]| s.len() as f64;
    let mean = |s: &[f64]| s.iter().sum::<f64>() / n(s);
    let var = |s: &[f64]| {
        let m = mean(s);
        s.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n(s) - 1.0)
    };
    let max = |s: &[f64]| s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let prod = |s: &[f64]| s.iter().product::<f64>();
    assert!(close(&x.mean::<Cols>().to_vec(), &by_rows(&v, mean)));
    assert!(close(&x.mean::<Rows>().to_vec(), &by_cols(&v, mean)));
    assert!(close(&x.var::<Cols>(1.0).to_vec(), &by_rows(&v, var)));
    let std: Vec<f64> = by_cols(&v, var).iter().map(|v| v.sqrt()).collect();
    assert!(close(&x.std::<Rows>(1.0).to_vec(), &std));
    assert_eq!(x.amax::<Cols>().to_vec(), by_rows(&v, max));
    assert!(close(&x.prod::<Rows>().to_vec(), &by_cols(&v, prod)));
    let kept = x.mean_keepdim::<Rows>();
    assert_eq!(kept.sizes().as_slice(), &[1, 5]);
    assert!(close(&kept.to_vec(), &by_cols(&v, mean)));
    assert!((x.mean_all().item() - mean(&v)).abs() < 1e-12);
}

#[test]
fn semantics_index_reductions() {
    let x = cube();
    let (values, indices) = x.max::<B>();
    assert_eq!(indices.sizes().as_slice(), &[2, 4]);
    assert!(indices.to_vec().iter().all(|&i| i == 2));
    assert_eq!(
        values.to_vec(),
        (0..24).filter(|v| v / 4 % 3 == 2).collect::<Vec<_>>()
    );
    let arg = x.argmax::<C>();
    assert_eq!(arg.names().as_slice(), &[Some("A"), Some("B")]);
    assert!(arg.to_vec().iter().all(|&i| i == 3));
    assert_eq!(x.argmax_keepdim::<C>().sizes().as_slice(), &[2, 3, 1]);
    let ties = Tensor::<i64, shape![Cols: 4]>::from_array([1, 3, 3, 2]);
    assert_eq!(ties.argmax::<Cols>().item(), 1);
    assert_eq!(ties.argmax_all().item(), 1);
    assert_eq!(ties.argmin_all().item(), 0);
}

#[test]
fn index_reductions_against_naive() {
    let x = grid();
    let v = x.to_vec();
    let argmax = |s: &[f64]| {
        let m = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        s.iter().position(|&y| y == m).unwrap_or(0) as f64
    };
    let got: Vec<f64> = x
        .argmax::<Cols>()
        .to_vec()
        .iter()
        .map(|&i| i as f64)
        .collect();
    assert_eq!(got, by_rows(&v, argmax));
    let (mins, at) = x.min::<Rows>();
    let naive_min = |s: &[f64]| s.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(mins.to_vec(), by_cols(&v, naive_min));
    for (c, &row) in at.to_vec().iter().enumerate() {
        assert_eq!(v[row as usize * 5 + c], mins.to_vec()[c]);
    }
}

#[test]
fn empty_reductions() {
    type Empty = shape![Rows: Dyn, Cols: 3];
    let e = Tensor::<f32, Empty>::zeros_dyn(0);
    assert_eq!(e.sum::<Rows>().to_vec(), vec![0.0; 3]);
    assert!(e.mean_all().item().is_nan());
    assert_eq!(
        e.try_amax::<Rows>().unwrap_err().to_string(),
        "amax: Expected reduction dim 0 to have non-zero size."
    );
    assert_eq!(
        e.try_argmax::<Rows>().unwrap_err().to_string(),
        "argmax: Expected reduction dim 0 to have non-zero size."
    );
}

#[test]
fn softmax_against_naive() {
    let x = grid();
    let v = x.to_vec();
    let p = x.softmax::<Cols>();
    let naive: Vec<f64> = v
        .chunks(5)
        .flat_map(|row| {
            let m = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = row.iter().map(|x| (x - m).exp()).collect();
            let s: f64 = e.iter().sum();
            e.into_iter().map(move |x| x / s)
        })
        .collect();
    assert!(close(&p.to_vec(), &naive));
    let logs = x.log_softmax::<Cols>().to_vec();
    let ln: Vec<f64> = naive.iter().map(|p| p.ln()).collect();
    assert!(close(&logs, &ln));
    let along_rows = x.softmax::<Rows>().sum::<Rows>();
    assert!(along_rows.to_vec().iter().all(|s| (s - 1.0).abs() < 1e-12));
}

#[test]
fn softmax_of_large_and_half_precision_inputs() {
    let big = Tensor::<f32, shape![Cols: 2]>::from_array([1000.0, 1000.0]);
    assert_eq!(big.softmax::<Cols>().to_vec(), vec![0.5, 0.5]);
    let h = Tensor::<bf16, shape![Cols: 4]>::full(bf16::from_f32(3.0));
    assert_eq!(h.softmax::<Cols>().to_vec(), vec![bf16::from_f32(0.25); 4]);
    let empty = Tensor::<f32, shape![Rows: 2, Cols: Dyn]>::zeros_dyn(0);
    assert_eq!(empty.softmax::<Cols>().numel(), 0);
}
