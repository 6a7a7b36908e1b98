//! The ops model code needs, against naive references on random strided
//! layouts: softmax and log_softmax on every dim, layer_norm, linear,
//! index_select and embedding, gather, cat/stack/split/chunk, cumsum,
//! masked_fill, tril/triu, and the vectorised unary kernels through
//! strided runs and f16/bf16 blocks.

mod support;

use axial_core::{Bool, DType, RawTensor, Scalar, UnaryOp};
use half::bf16;
use proptest::prelude::*;
use support::{Case, case_for, large_case_for, shape, unravel};

/// `|a − b| ≤ tol·(1 + |b|)` element by element (NaN only with NaN).
#[track_caller]
fn close(got: &[f64], want: &[f64], tol: f64) -> Result<(), TestCaseError> {
    prop_assert_eq!(got.len(), want.len());
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        if w.is_nan() {
            prop_assert!(g.is_nan(), "element {}: {} for NaN", i, g);
        } else if g != w {
            prop_assert!(
                (g - w).abs() <= tol * (1.0 + w.abs()),
                "element {}: {} vs {}",
                i,
                g,
                w
            );
        }
    }
    Ok(())
}

fn f64s(t: &RawTensor) -> Vec<f64> {
    t.view()
        .to_dtype(DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap()
}

/// The flat positions of the slice through `at` along `dim`.
fn line(shape: &[usize], dim: usize, at: usize) -> Vec<usize> {
    let strides: Vec<usize> = (0..shape.len())
        .map(|d| shape[d + 1..].iter().product())
        .collect();
    let start = at - unravel(at, shape)[dim] * strides[dim];
    (0..shape[dim]).map(|j| start + j * strides[dim]).collect()
}

fn naive_softmax(x: &[f64], shape: &[usize], dim: usize, log: bool) -> Vec<f64> {
    (0..x.len())
        .map(|at| {
            let l = line(shape, dim, at);
            let max = l.iter().map(|&i| x[i]).fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = l.iter().map(|&i| (x[i] - max).exp()).sum();
            if log {
                x[at] - max - sum.ln()
            } else {
                (x[at] - max).exp() / sum
            }
        })
        .collect()
}

/// A case of rank 1..=4 whose values are spread (softmax of small integers
/// is too easy), with the dim to reduce.
fn with_dim() -> impl Strategy<Value = (Case, usize)> {
    shape(4, 6)
        .prop_filter("rank ≥ 1", |s| !s.is_empty())
        .prop_flat_map(|s| {
            let r = s.len();
            (case_for(s, true, false), 0..r)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn softmax_and_log_softmax_match_the_naive_formula((case, dim) in with_dim(), log in any::<bool>()) {
        let x = case.tensor::<f32>();
        let want = naive_softmax(&case.naive::<f64>(), &case.shape, dim, log);
        let got = if log { x.view().log_softmax(dim as isize) } else { x.view().softmax(dim as isize) };
        close(&f64s(&got.unwrap()), &want, 2e-6)?;
        let x = case.tensor::<f64>();
        let got = if log { x.view().log_softmax(dim as isize) } else { x.view().softmax(dim as isize) };
        close(&f64s(&got.unwrap()), &want, 1e-12)?;
        let x = case.tensor::<bf16>();
        let got = x.view().softmax(dim as isize).unwrap();
        prop_assert_eq!(got.dtype(), DType::BF16);
        if !log {
            close(&f64s(&got), &naive_softmax(&case.naive::<f64>(), &case.shape, dim, false), 1e-2)?;
        }
    }

    #[test]
    fn layer_norm_matches_the_naive_formula(
        case in shape(3, 6).prop_filter("rank ≥ 1", |s| !s.is_empty()).prop_flat_map(|s| case_for(s, true, false)),
        two in any::<bool>(),
    ) {
        let r = case.shape.len();
        let k = if two && r >= 2 { 2 } else { 1 };
        let norm = case.shape[r - k..].to_vec();
        let n: usize = norm.iter().product();
        let w: Vec<f32> = (0..n).map(|i| 1.0 + i as f32 * 0.25).collect();
        let b: Vec<f32> = (0..n).map(|i| i as f32 - 2.0).collect();
        let wt = RawTensor::from_vec(w.clone(), &norm).unwrap();
        let bt = RawTensor::from_vec(b.clone(), &norm).unwrap();
        let x = case.tensor::<f32>();
        let got = x.view().layer_norm(&norm, Some(&wt.view()), Some(&bt.view()), 1e-5).unwrap();
        let xs = case.naive::<f64>();
        let want: Vec<f64> = xs
            .chunks(n.max(1))
            .flat_map(|row| {
                let mean = row.iter().sum::<f64>() / n as f64;
                let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n as f64;
                let rstd = 1.0 / (var + 1e-5).sqrt();
                row.iter()
                    .enumerate()
                    .map(|(j, v)| (v - mean) * rstd * w[j] as f64 + b[j] as f64)
                    .collect::<Vec<_>>()
            })
            .collect();
        close(&f64s(&got), &want[..xs.len()], 1e-5)?;
    }

    #[test]
    fn index_select_and_gather_read_the_right_elements(
        (case, dim) in with_dim(),
        picks in prop::collection::vec(0usize..64, 0..6),
    ) {
        let x = case.tensor::<i32>();
        let xs = case.naive::<i32>();
        let size = case.shape[dim];
        if size == 0 {
            return Ok(());
        }
        let ids: Vec<i64> = picks.iter().map(|&p| (p % size) as i64).collect();
        let index = RawTensor::from_vec(ids.clone(), &[ids.len()]).unwrap();
        let got = x.view().index_select(dim as isize, &index.view()).unwrap();
        let mut out_shape = case.shape.clone();
        out_shape[dim] = ids.len();
        let want: Vec<i32> = (0..out_shape.iter().product())
            .map(|flat| {
                let mut at = unravel(flat, &out_shape);
                at[dim] = ids[at[dim]] as usize;
                xs[at.iter().zip(&case.shape).fold(0, |acc, (&i, &n)| acc * n + i)]
            })
            .collect();
        prop_assert_eq!(got.shape(), out_shape.as_slice());
        prop_assert_eq!(got.to_vec::<i32>().unwrap(), want.clone());
        // gather with an index of the output's shape (its other dims those of x).
        let gidx: Vec<i64> = (0..want.len()).map(|f| ids[unravel(f, &out_shape)[dim]]).collect();
        let gi = RawTensor::from_vec(gidx, &out_shape).unwrap();
        prop_assert_eq!(x.view().gather(dim as isize, &gi.view()).unwrap().to_vec::<i32>().unwrap(), want);
        // One index past the end: refused, whatever the others.
        let mut bad = ids.clone();
        bad.push(size as i64);
        let bad = RawTensor::from_vec(bad.clone(), &[bad.len()]).unwrap();
        prop_assert!(x.view().index_select(dim as isize, &bad.view()).is_err());
    }

    #[test]
    fn split_then_cat_is_the_identity((case, dim) in with_dim(), cut in 0usize..8) {
        let x = case.tensor::<f32>();
        let size = case.shape[dim];
        let first = cut.min(size);
        let parts = x.view().split_with_sizes(&[first, size - first], dim as isize).unwrap();
        let back = RawTensor::cat(&parts, dim as isize).unwrap();
        prop_assert_eq!(back.shape(), case.shape.as_slice());
        prop_assert_eq!(back.to_vec::<f32>().unwrap(), case.naive::<f32>());
        for n in 1..4 {
            let chunks = x.view().chunk(n, dim as isize).unwrap();
            prop_assert!(chunks.len() <= n.max(1));
            let back = RawTensor::cat(&chunks, dim as isize).unwrap();
            prop_assert_eq!(back.to_vec::<f32>().unwrap(), case.naive::<f32>());
        }
        let stacked = RawTensor::stack(&[x.view(), x.view()], dim as isize).unwrap();
        let mut s = case.shape.clone();
        s.insert(dim, 2);
        prop_assert_eq!(stacked.shape(), s.as_slice());
        if stacked.view().numel() > 0 {
            let second = stacked.view().select(dim as isize, 1).unwrap();
            prop_assert_eq!(second.to_vec::<f32>().unwrap(), case.naive::<f32>());
        }
    }

    #[test]
    fn cumsum_is_the_running_sum((case, dim) in with_dim()) {
        let xs = case.naive::<i64>();
        let want: Vec<i64> = (0..xs.len())
            .map(|at| {
                let l = line(&case.shape, dim, at);
                l.iter().take_while(|&&i| i <= at).map(|&i| xs[i]).sum()
            })
            .collect();
        let got = case.tensor::<i32>().view().cumsum(dim as isize).unwrap();
        prop_assert_eq!(got.dtype(), DType::I64);
        prop_assert_eq!(got.to_vec::<i64>().unwrap(), want.clone());
        // Floats keep their halves (sums of such values are exact in f32).
        let xf = case.naive::<f64>();
        let want: Vec<f64> = (0..xf.len())
            .map(|at| line(&case.shape, dim, at).iter().take_while(|&&i| i <= at).map(|&i| xf[i]).sum())
            .collect();
        let got = case.tensor::<f32>().view().cumsum(dim as isize).unwrap();
        prop_assert_eq!(got.dtype(), DType::F32);
        close(&f64s(&got), &want, 0.0)?;
    }

    #[test]
    fn masked_fill_tril_and_triu_keep_the_right_elements(
        case in (2usize..5, 1usize..5, 1usize..5).prop_flat_map(|(a, b, c)| case_for(vec![a, b, c], true, false)),
        k in -3i64..4,
    ) {
        let x = case.tensor::<f32>();
        let xs = case.naive::<f32>();
        let (m, n) = (case.shape[1], case.shape[2]);
        let tril = x.view().tril(k).unwrap().to_vec::<f32>().unwrap();
        let triu = x.view().triu(k).unwrap().to_vec::<f32>().unwrap();
        for (f, &v) in xs.iter().enumerate() {
            let at = unravel(f, &case.shape);
            let (i, j) = (at[1] as i64, at[2] as i64);
            prop_assert_eq!(tril[f], if j - i <= k { v } else { 0.0 });
            prop_assert_eq!(triu[f], if j - i >= k { v } else { 0.0 });
        }
        // A key-padding mask [n] broadcast over the rest.
        let pad: Vec<Bool> = (0..n).map(|j| Bool::from(j as i64 >= k)).collect();
        let mask = RawTensor::from_vec(pad.clone(), &[n]).unwrap();
        let filled = x.view().masked_fill(&mask.view(), Scalar::Float(-1e4)).unwrap().to_vec::<f32>().unwrap();
        for (f, &v) in xs.iter().enumerate() {
            let j = unravel(f, &case.shape)[2];
            prop_assert_eq!(filled[f], if pad[j].get() { -1e4 } else { v });
        }
        let _ = m;
    }

    #[test]
    fn linear_is_x_times_w_transposed_plus_b(
        x in (1usize..4, 1usize..6, 1usize..7).prop_flat_map(|(a, r, i)| case_for(vec![a, r, i], false, false)),
        out in 1usize..9,
        with_bias in any::<bool>(),
    ) {
        let inf = x.shape[2];
        let w: Vec<f32> = (0..out * inf).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
        let b: Vec<f32> = (0..out).map(|i| i as f32 * 0.5).collect();
        let wt = RawTensor::from_vec(w.clone(), &[out, inf]).unwrap();
        let bt = RawTensor::from_vec(b.clone(), &[out]).unwrap();
        let t = x.tensor::<f32>();
        let got = t.view().linear(&wt.view(), with_bias.then(|| bt.view()).as_ref()).unwrap();
        prop_assert_eq!(got.shape(), &[x.shape[0], x.shape[1], out][..]);
        let xs = x.naive::<f64>();
        let want: Vec<f64> = xs
            .chunks(inf)
            .flat_map(|row| {
                (0..out)
                    .map(|o| {
                        let dot: f64 = (0..inf).map(|i| row[i] * w[o * inf + i] as f64).sum();
                        dot + if with_bias { b[o] as f64 } else { 0.0 }
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        close(&f64s(&got), &want, 1e-6)?;
    }

    #[test]
    fn vectorised_unary_ops_on_strided_layouts_and_half_types(
        case in shape(3, 40).prop_flat_map(|s| large_case_for(s, true, true)),
        op in prop::sample::select(vec![
            UnaryOp::Exp, UnaryOp::Log, UnaryOp::Tanh, UnaryOp::Sigmoid, UnaryOp::Silu,
            UnaryOp::Erf, UnaryOp::Gelu, UnaryOp::GeluTanh, UnaryOp::Sin, UnaryOp::Cos,
            UnaryOp::Rsqrt, UnaryOp::PowScalar(1.7),
        ]),
    ) {
        // The f64 kernel is the scalar reference; f32 and bf16 go through the
        // vectorised kernels (strided runs through the stack block).
        let want = f64s(&case.tensor::<f64>().view().unary(op).unwrap());
        close(&f64s(&case.tensor::<f32>().view().unary(op).unwrap()), &want, 1e-6)?;
        close(&f64s(&case.tensor::<bf16>().view().unary(op).unwrap()), &want, 1e-2)?;
    }
}

#[test]
fn softmax_of_nan_and_all_minus_infinity_slices_is_nan() {
    let x = RawTensor::from_vec(
        vec![
            1.0f32,
            f32::NAN,
            2.0,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        ],
        &[2, 3],
    )
    .unwrap();
    for dim in [1, 0] {
        let s = x.view().softmax(dim).unwrap().to_vec::<f32>().unwrap();
        let l = x.view().log_softmax(dim).unwrap().to_vec::<f32>().unwrap();
        for v in [s, l] {
            if dim == 1 {
                assert!(v.iter().all(|v| v.is_nan()), "{v:?}");
            } else {
                assert!(v[1].is_nan() && v[4].is_nan());
            }
        }
    }
    assert!(
        RawTensor::from_vec(vec![1i64, 2], &[2])
            .unwrap()
            .view()
            .softmax(0)
            .is_err()
    );
}

#[test]
fn softmax_over_columns_whose_maximum_grows_from_minus_infinity() {
    // Down each column the running maximum starts at −∞ (rescaling a sum
    // still 0), grows, and meets a +∞ (a NaN column, as PyTorch).
    let inf = f32::INFINITY;
    let data = vec![
        -inf, -inf, 1.0, -inf, 2.0, 5.0, -inf, 3.0, 3.0, inf, -inf, 0.5,
    ];
    let x = RawTensor::from_vec(data.clone(), &[4, 3]).unwrap();
    let xs: Vec<f64> = data.iter().map(|&v| v as f64).collect();
    for log in [false, true] {
        let got = if log {
            x.view().log_softmax(0)
        } else {
            x.view().softmax(0)
        };
        let got = f64s(&got.unwrap());
        let want = naive_softmax(&xs, &[4, 3], 0, log);
        for (g, w) in got.iter().zip(&want) {
            let same =
                (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= 1e-6 * w.abs().max(1.0);
            assert!(same, "{got:?} vs {want:?}");
        }
    }
}

#[test]
fn softmax_of_an_output_larger_than_the_caches() {
    // 16 MiB of rows: computed in a scratch row and streamed out of it.
    let (rows, n) = (1024, 4096);
    let mut data: Vec<f32> = (0..rows * n)
        .map(|i| ((i * 37) % 101) as f32 * 0.1)
        .collect();
    data[5 * n + 7] = f32::NAN;
    let x = RawTensor::from_vec(data.clone(), &[rows, n]).unwrap();
    for log in [false, true] {
        let got = if log {
            x.view().log_softmax(1)
        } else {
            x.view().softmax(1)
        };
        let got = got.unwrap().to_vec::<f32>().unwrap();
        assert!(got[5 * n..6 * n].iter().all(|v| v.is_nan()));
        for r in [0, 6, 511, rows - 1] {
            let xs: Vec<f64> = data[r * n..(r + 1) * n].iter().map(|&v| v as f64).collect();
            let want = naive_softmax(&xs, &[n], 0, log);
            for (g, w) in got[r * n..(r + 1) * n].iter().zip(&want) {
                assert!(
                    (*g as f64 - w).abs() <= 1e-6 * w.abs().max(1e-3),
                    "row {r}: {g} vs {w}"
                );
            }
        }
    }
}

#[test]
fn softmax_of_long_rows_and_wide_columns() {
    // Rows longer than a vector and a thread's share; columns wider than a vector.
    let n = 3 * 4096 + 5;
    let data: Vec<f32> = (0..2 * n).map(|i| ((i * 37) % 101) as f32 * 0.1).collect();
    let x = RawTensor::from_vec(data.clone(), &[2, n]).unwrap();
    let xs: Vec<f64> = data.iter().map(|&v| v as f64).collect();
    for dim in [0usize, 1] {
        let got = f64s(&x.view().softmax(dim as isize).unwrap());
        let want = naive_softmax(&xs, &[2, n], dim, false);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() <= 1e-6 * w.max(1e-6) + 1e-9, "{g} vs {w}");
        }
    }
}

#[test]
fn embedding_rejects_ids_out_of_range_and_negative_ones() {
    let table = RawTensor::from_vec(vec![0.0f32; 6], &[3, 2]).unwrap();
    for bad in [3i64, -1] {
        let ids = RawTensor::from_vec(vec![0i64, bad], &[1, 2]).unwrap();
        let e = table
            .view()
            .embedding(&ids.view())
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains(&format!(
                "index {bad} is out of bounds for dimension 0 with size 3"
            )),
            "{e}"
        );
    }
}
