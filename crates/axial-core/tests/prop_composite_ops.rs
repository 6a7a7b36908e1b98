//! The ops written as composites of the others, against naive references
//! on random strided layouts (permuted, sliced, offset, broadcast, sizes 0
//! and 1): `pad` in its four modes along any dim, `topk` (NaN the largest,
//! ties by index), `scaled_dot_product_attention` (causal or not) and the
//! losses `mse_loss` and `cross_entropy` (weights, `ignore_index`, label
//! smoothing, in each reduction).

mod support;

use axial_core::{DType, PadMode, RawTensor, Reduction, Scalar};
use proptest::prelude::*;
use support::{Case, case_for, shape, unravel};

fn f64s(t: &RawTensor) -> Vec<f64> {
    t.view()
        .to_dtype(DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap()
}

/// `|a − b| ≤ tol·(1 + |b|)` element by element (NaN only with NaN).
fn close(got: &[f64], want: &[f64], tol: f64) -> Result<(), TestCaseError> {
    prop_assert_eq!(got.len(), want.len());
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        if w.is_nan() {
            prop_assert!(g.is_nan(), "element {}: {} for NaN", i, g);
        } else {
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

/// Row-major position of a multi-index.
fn ravel(index: &[usize], shape: &[usize]) -> usize {
    index.iter().zip(shape).fold(0, |at, (&i, &n)| at * n + i)
}

/// The input position a padded position `i` (from the input's start) reads.
fn naive_source(mode: PadMode, i: i64, n: i64) -> Option<i64> {
    match mode {
        PadMode::Constant(_) => (0..n).contains(&i).then_some(i),
        PadMode::Replicate => Some(i.clamp(0, n - 1)),
        PadMode::Circular => Some(((i % n) + n) % n),
        PadMode::Reflect => {
            let mut j = i;
            while !(0..n).contains(&j) {
                j = if j < 0 { -j } else { 2 * (n - 1) - j };
            }
            Some(j)
        }
    }
}

/// A case of rank 1..=3, a dim, pads and a mode that the mode accepts.
fn pad_case() -> impl Strategy<Value = (Case, usize, usize, usize, PadMode)> {
    shape(3, 5)
        .prop_filter("rank ≥ 1", |s| !s.is_empty())
        .prop_flat_map(|s| {
            let r = s.len();
            (case_for(s, true, true), 0..r, 0usize..4, 0usize..4, 0..4u8)
        })
        .prop_filter_map("pads the mode accepts", |(case, dim, before, after, m)| {
            let n = case.shape[dim];
            let mode = match m {
                0 => PadMode::Constant(Scalar::Float(-2.5)),
                1 if before < n && after < n => PadMode::Reflect,
                2 if n > 0 => PadMode::Replicate,
                3 if before <= n && after <= n && n > 0 => PadMode::Circular,
                _ => return None,
            };
            Some((case, dim, before, after, mode))
        })
}

/// Class indices in `0..classes`, some of them `ignore`.
fn targets(n: usize, classes: usize, ignore: i64) -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(prop_oneof![4 => 0..classes as i64, 1 => Just(ignore)], n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn pad_reads_what_the_mode_says((case, dim, before, after, mode) in pad_case()) {
        let x = case.tensor::<f32>();
        let r = case.shape.len();
        let mut list = vec![0; 2 * (r - dim)];
        list[2 * (r - 1 - dim)] = before;
        list[2 * (r - 1 - dim) + 1] = after;
        let got = x.view().pad(&list, mode).unwrap();
        let mut shape = case.shape.clone();
        shape[dim] += before + after;
        prop_assert_eq!(got.shape(), shape.as_slice());
        let xs = case.naive::<f64>();
        let want: Vec<f64> = (0..shape.iter().product())
            .map(|at| {
                let mut index = unravel(at, &shape);
                let i = index[dim] as i64 - before as i64;
                match naive_source(mode, i, case.shape[dim] as i64) {
                    Some(j) => {
                        index[dim] = j as usize;
                        xs[ravel(&index, &case.shape)]
                    }
                    None => -2.5,
                }
            })
            .collect();
        close(&f64s(&got), &want, 0.0)?;
    }

    #[test]
    fn topk_is_the_first_k_of_each_line_in_order(
        (case, dim, k_frac) in shape(3, 6)
            .prop_filter("rank ≥ 1", |s| !s.is_empty())
            .prop_flat_map(|s| { let r = s.len(); (case_for(s, true, true), 0..r, 0.0f64..=1.0) }),
        largest in any::<bool>(),
        sorted in any::<bool>(),
    ) {
        let n = case.shape[dim];
        let k = (k_frac * n as f64).floor() as usize;
        let x = case.tensor::<f32>();
        let (values, indices) = x.view().topk(k, dim as isize, largest, sorted).unwrap();
        let mut shape = case.shape.clone();
        shape[dim] = k;
        prop_assert_eq!(values.shape(), shape.as_slice());
        let (got_v, got_i) = (f64s(&values), indices.to_vec::<i64>().unwrap());
        let xs = case.naive::<f64>();
        // NaN above every number; ties by index.
        let key = |v: f64| if v.is_nan() { f64::INFINITY } else { v };
        for at in 0..got_v.len() {
            let index = unravel(at, &shape);
            let line: Vec<(f64, usize)> = (0..n)
                .map(|j| {
                    let mut i = index.clone();
                    i[dim] = j;
                    (xs[ravel(&i, &case.shape)], j)
                })
                .collect();
            let mut order = line.clone();
            order.sort_by(|a, b| {
                let by = if largest { key(b.0).total_cmp(&key(a.0)) } else { key(a.0).total_cmp(&key(b.0)) };
                // NaN is the largest: above infinity too.
                let nan = |v: f64| v.is_nan();
                let by = match (nan(a.0), nan(b.0)) {
                    (true, false) => if largest { std::cmp::Ordering::Less } else { std::cmp::Ordering::Greater },
                    (false, true) => if largest { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Less },
                    _ => by,
                };
                by.then(a.1.cmp(&b.1))
            });
            let mut kept: Vec<(f64, usize)> = order[..k].to_vec();
            if !sorted {
                kept.sort_by_key(|p| p.1);
            }
            let (want_v, want_i) = kept[index[dim]];
            prop_assert_eq!(got_i[at], want_i as i64, "at {:?}", index);
            prop_assert!(got_v[at] == want_v || (got_v[at].is_nan() && want_v.is_nan()));
        }
    }

    #[test]
    fn attention_is_the_softmax_weighted_sum(
        (qc, kc, vc) in (1usize..3, 1usize..4, 1usize..5, 1usize..4, 1usize..3).prop_flat_map(|(b, l, s, e, ev)| (
            case_for(vec![b, l, e], true, false),
            case_for(vec![b, s, e], true, false),
            case_for(vec![b, s, ev], true, false),
        )),
        causal in any::<bool>(),
    ) {
        let (b, l, e) = (qc.shape[0], qc.shape[1], qc.shape[2]);
        let (s, ev) = (kc.shape[1], vc.shape[2]);
        let (q, k, v) = (qc.tensor::<f64>(), kc.tensor::<f64>(), vc.tensor::<f64>());
        let scale = 0.25;
        let got = q.view().scaled_dot_product_attention(&k.view(), &v.view(), None, causal, Some(scale)).unwrap();
        let (qs, ks, vs) = (qc.naive::<f64>(), kc.naive::<f64>(), vc.naive::<f64>());
        let mut want = Vec::new();
        for bi in 0..b {
            for i in 0..l {
                let scores: Vec<f64> = (0..s)
                    .map(|j| {
                        if causal && j > i {
                            return f64::NEG_INFINITY;
                        }
                        (0..e).map(|c| qs[(bi * l + i) * e + c] * ks[(bi * s + j) * e + c]).sum::<f64>() * scale
                    })
                    .collect();
                let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let w: Vec<f64> = scores.iter().map(|x| (x - max).exp()).collect();
                let total: f64 = w.iter().sum();
                for c in 0..ev {
                    want.push((0..s).map(|j| w[j] / total * vs[(bi * s + j) * ev + c]).sum::<f64>());
                }
            }
        }
        close(&f64s(&got), &want, 1e-12)?;
    }

    #[test]
    fn cross_entropy_matches_its_formula(
        (case, target) in (1usize..4, 1usize..5).prop_flat_map(|(n, c)| (case_for(vec![n, c], true, false), targets(n, c, -1))),
        weighted in any::<bool>(),
        smoothing in prop_oneof![Just(0.0), Just(0.1), Just(0.5)],
        reduction in prop_oneof![Just(Reduction::None), Just(Reduction::Mean), Just(Reduction::Sum)],
    ) {
        let (n, c) = (case.shape[0], case.shape[1]);
        let x = case.tensor::<f64>();
        let w: Vec<f64> = (0..c).map(|i| 0.5 + i as f64 * 0.25).collect();
        let wt = RawTensor::from_vec(w.clone(), &[c]).unwrap();
        let tt = RawTensor::from_vec(target.clone(), &[n]).unwrap();
        let weight = weighted.then(|| wt.view());
        let got = x.view().cross_entropy(&tt.view(), 1, weight.as_ref(), -1, reduction, smoothing).unwrap();
        let xs = case.naive::<f64>();
        let wc = |j: usize| if weighted { w[j] } else { 1.0 };
        let (mut nll, mut smooth, mut total) = (Vec::new(), Vec::new(), 0.0);
        for (i, &t) in target.iter().enumerate() {
            let row = &xs[i * c..(i + 1) * c];
            let max = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let lse = max + row.iter().map(|v| (v - max).exp()).sum::<f64>().ln();
            if t < 0 {
                nll.push(0.0);
                smooth.push(0.0);
                continue;
            }
            let t = t as usize;
            nll.push(-wc(t) * (row[t] - lse));
            smooth.push(-(0..c).map(|j| wc(j) * (row[j] - lse)).sum::<f64>());
            total += wc(t);
        }
        let reduce = |v: &[f64]| -> Vec<f64> {
            match reduction {
                Reduction::None => v.to_vec(),
                Reduction::Sum => vec![v.iter().sum()],
                Reduction::Mean => vec![v.iter().sum::<f64>() / total],
            }
        };
        let want: Vec<f64> = reduce(&nll)
            .iter()
            .zip(reduce(&smooth))
            .map(|(a, b)| (1.0 - smoothing) * a + smoothing / c as f64 * b)
            .collect();
        close(&f64s(&got), &want, 1e-12)?;
    }

    #[test]
    fn mse_loss_is_the_mean_square((a, b) in shape(3, 4).prop_flat_map(|s| (case_for(s.clone(), true, false), case_for(s, true, false)))) {
        let (x, y) = (a.tensor::<f64>(), b.tensor::<f64>());
        let d: Vec<f64> = a.naive::<f64>().iter().zip(b.naive::<f64>()).map(|(p, q)| (p - q) * (p - q)).collect();
        close(&f64s(&x.view().mse_loss(&y.view(), Reduction::None).unwrap()), &d, 0.0)?;
        close(&f64s(&x.view().mse_loss(&y.view(), Reduction::Sum).unwrap()), &[d.iter().sum()], 1e-12)?;
        let mean = d.iter().sum::<f64>() / d.len() as f64;
        close(&f64s(&x.view().mse_loss(&y.view(), Reduction::Mean).unwrap()), &[mean], 1e-12)?;
    }
}

#[test]
fn every_key_masked_gives_nan_and_bad_pads_are_errors() {
    let q = RawTensor::from_vec(vec![1.0f32; 4], &[2, 2]).unwrap();
    let keep = RawTensor::from_vec(vec![axial_core::Bool::FALSE; 4], &[2, 2]).unwrap();
    let out = q
        .view()
        .scaled_dot_product_attention(&q.view(), &q.view(), Some(&keep.view()), false, None)
        .unwrap();
    assert!(out.to_vec::<f32>().unwrap().iter().all(|v| v.is_nan()));
    let x = RawTensor::from_vec(vec![1i32, 2], &[2]).unwrap();
    assert!(x.view().pad(&[1], PadMode::Reflect).is_err());
    assert!(x.view().pad(&[0, 0, 1, 1], PadMode::Reflect).is_err());
    assert_eq!(
        x.view()
            .pad(&[3, 0], PadMode::Circular)
            .err()
            .unwrap()
            .to_string(),
        "pad: Padding value causes wrapping around more than once."
    );
    let empty = RawTensor::zeros(&[0], DType::F32).unwrap();
    assert!(empty.view().pad(&[1, 0], PadMode::Replicate).is_err());
    assert_eq!(
        empty
            .view()
            .pad(&[1, 1], PadMode::Constant(Scalar::Float(1.0)))
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        vec![1.0, 1.0]
    );
}
