//! Gradients through the einops macros on tracked tensors, against
//! `torch.autograd` (`oracle/torch_einops_grad.py`, einops' torch-backend
//! steps): `rearrange!` as a view and as a copy, `repeat!` (its copies'
//! gradients summed), `reduce!` by sum, mean, max and min (PyTorch's tie
//! rule) and prod (zeros included), and `einsum!` (attention scores, three
//! operands, an outer product, a label summed in one operand), each under
//! the loss `(y · w).sum()` with fixed weights, in f64 (within 1e-10) and
//! f32 (within 1e-5); each tracked result also equals the macro's untracked
//! one. Then f64 finite-difference gradchecks of each kind of pattern.

use axial::autograd::{Var, gradcheck};
use axial::prelude::*;
use axial::shape::{Shape, StaticShape};
use serde_json::Value;

axes!(Batch, Seq, Heads, Head, Key, Rows, Cols, Copies, Inner, Out);

/// The oracle's dtype and gradients (one per input) of a case.
fn oracle(name: &str) -> (String, Vec<Vec<f64>>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/torch_einops_grad.json"
    );
    let record: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let case = &record[name];
    let grads = case["grads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect()
        })
        .collect();
    (case["dtype"].as_str().unwrap().to_owned(), grads)
}

/// The script's inputs: element i of each kind, in f64, cast to `T`.
fn input<T: Float, S: StaticShape + Distinct>(kind: &str) -> Tensor<T, S> {
    let n = Tensor::<f64, S>::zeros().to_vec().len();
    let f = |i: f64| match kind {
        "ramp" => i * 0.1 - 1.0,
        "ramp2" => i * 0.3 - 1.0,
        "positive" => i * 0.1 + 0.5,
        "ties" => (i % 3.0) * 0.5 - 0.5,
        _ => unreachable!("{kind}"),
    };
    Tensor::<f64, S>::from_vec((0..n).map(|i| f(i as f64)).collect()).cast::<T>()
}

/// The weights of the loss: 0.5 + 0.25·j for element j of `y`.
fn weights<T: Float, S: StaticShape + Distinct, W>(y: &Var<'_, T, S, Cpu, W>) -> Tensor<T, S> {
    let n = y.value().to_vec().len();
    Tensor::<f64, S>::from_vec((0..n).map(|j| 0.5 + 0.25 * j as f64).collect()).cast::<T>()
}

/// The gradients of the loss `(y · w).sum()`.
macro_rules! loss_grads {
    ($y:expr) => {{
        let y = $y;
        let w = weights(&y);
        (y * &w).sum_all().backward()
    }};
}

/// A gradient's elements in f64.
fn flat<T: Float, S: Shape>(g: Option<Tensor<T, S>>) -> Option<Vec<f64>> {
    g.map(|g| g.cast::<f64>().to_vec())
}

/// Checks each input's gradient against the oracle's, by its dtype's
/// tolerance.
#[track_caller]
fn assert_grads(name: &str, got: &[Option<Vec<f64>>]) {
    let (dtype, want) = oracle(name);
    let tolerance = match dtype.as_str() {
        "f64" => 1e-10,
        _ => 1e-5,
    };
    assert_eq!(got.len(), want.len(), "{name}: inputs");
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        let g = g.as_ref().unwrap_or_else(|| panic!("{name}: no gradient"));
        assert_eq!(g.len(), w.len(), "{name}[{k}]: elements");
        for (i, (g, w)) in g.iter().zip(w).enumerate() {
            assert!(
                (g - w).abs() <= tolerance * w.abs().max(1.0),
                "{name}[{k}][{i}]: {g} against {w}"
            );
        }
    }
}

#[test]
fn rearrange_splits_heads_with_its_gradient() {
    let x = input::<f64, shape![Batch: 2, Seq: 3, 6]>("ramp");
    let xv = x.track();
    let y = rearrange!(
        xv.clone(),
        "Batch Seq (Heads Head) -> Batch Heads Seq Head",
        Heads = 2
    );
    let untracked = rearrange!(
        x.as_view(),
        "Batch Seq (Heads Head) -> Batch Heads Seq Head",
        Heads = 2
    );
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    assert_eq!(y.grad_fn().as_deref(), Some("PermuteBackward0"));
    assert_grads("split_heads", &[flat(loss_grads!(y).of(&xv))]);

    let x = input::<f32, shape![Batch: 2, Seq: 3, 6]>("ramp");
    let xv = x.track();
    let y = rearrange!(
        xv.clone(),
        "Batch Seq (Heads Head) -> Batch Heads Seq Head",
        Heads = 2
    );
    assert_grads("split_heads_f32", &[flat(loss_grads!(y).of(&xv))]);
}

#[test]
fn rearrange_transposes_with_its_gradient() {
    let x = input::<f64, shape![Rows: 3, Cols: 4]>("ramp");
    let xv = x.track();
    let y = rearrange!(xv.clone(), "Rows Cols -> Cols Rows");
    assert_eq!(
        y.value().to_vec(),
        rearrange!(x.as_view(), "Rows Cols -> Cols Rows").to_vec()
    );
    assert_grads("transpose", &[flat(loss_grads!(y).of(&xv))]);
}

#[test]
fn rearrange_that_copies_records_the_copy() {
    let x = input::<f64, shape![Batch: 2, Heads: 2, Seq: 3, Head: 2]>("ramp");
    let xv = x.track();
    let y = rearrange!(xv.clone(), "Batch Heads Seq Head -> Batch Seq (Heads Head)");
    let untracked = rearrange!(
        x.as_view(),
        "Batch Heads Seq Head -> Batch Seq (Heads Head)"
    );
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    assert_eq!(y.grad_fn().as_deref(), Some("UnsafeViewBackward0"));
    assert_grads("merge_heads", &[flat(loss_grads!(y).of(&xv))]);

    let x = input::<f64, shape![Rows: 3, Cols: 4]>("ramp");
    let xv = x.track();
    let y = rearrange!(
        xv.clone().transpose::<Rows, Cols>(),
        "Cols Rows -> (Cols Rows)"
    );
    assert_eq!(
        y.value().to_vec(),
        rearrange!(
            x.as_view().transpose::<Rows, Cols>(),
            "Cols Rows -> (Cols Rows)"
        )
        .to_vec()
    );
    assert_grads("flatten_transposed", &[flat(loss_grads!(y).of(&xv))]);
}

#[test]
fn repeat_sums_its_copies_gradients() {
    let x = input::<f64, shape![Rows: 2, Cols: 4]>("ramp");
    let xv = x.track();
    let y = repeat!(xv.clone(), "Rows Cols -> Rows Copies Cols", Copies = 3);
    let untracked = repeat!(x.as_view(), "Rows Cols -> Rows Copies Cols", Copies = 3);
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    assert_eq!(y.grad_fn().as_deref(), Some("ExpandBackward0"));
    assert_grads("repeat", &[flat(loss_grads!(y).of(&xv))]);

    let xv = x.track();
    let y = repeat!(xv.clone(), "Rows Cols -> Rows (Copies Cols)", Copies = 2);
    let untracked = repeat!(x.as_view(), "Rows Cols -> Rows (Copies Cols)", Copies = 2);
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    assert_grads("repeat_merged", &[flat(loss_grads!(y).of(&xv))]);
}

#[test]
fn reduce_by_sum_and_mean() {
    let x = input::<f64, shape![Rows: 2, Cols: 3, Inner: 4]>("ramp");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols Inner -> Rows", sum);
    let untracked = reduce!(x.as_view(), "Rows Cols Inner -> Rows", sum);
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    assert_grads("reduce_sum", &[flat(loss_grads!(y).of(&xv))]);

    let x = input::<f64, shape![Rows: 3, Cols: 4]>("ramp");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols -> Rows", mean);
    let untracked = reduce!(x.as_view(), "Rows Cols -> Rows", mean);
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    assert_grads("reduce_mean", &[flat(loss_grads!(y).of(&xv))]);
}

#[test]
fn reduce_by_max_and_min_shares_ties() {
    let x = input::<f64, shape![Rows: 3, Cols: 4]>("ramp");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols -> Rows", max);
    assert_eq!(
        y.value().to_vec(),
        reduce!(x.as_view(), "Rows Cols -> Rows", max).to_vec()
    );
    assert_eq!(y.grad_fn().as_deref(), Some("AmaxBackward0"));
    assert_grads("reduce_max", &[flat(loss_grads!(y).of(&xv))]);

    let x = input::<f64, shape![Rows: 3, Cols: 4]>("ties");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols -> Rows", max);
    assert_grads("reduce_max_ties", &[flat(loss_grads!(y).of(&xv))]);

    let x = input::<f32, shape![Rows: 3, Cols: 4]>("ties");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols -> Rows", max);
    assert_grads("reduce_max_ties_f32", &[flat(loss_grads!(y).of(&xv))]);

    let x = input::<f64, shape![Rows: 2, Cols: 3, Inner: 4]>("ties");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols Inner -> Cols", min);
    assert_eq!(
        y.value().to_vec(),
        reduce!(x.as_view(), "Rows Cols Inner -> Cols", min).to_vec()
    );
    assert_grads("reduce_min_ties", &[flat(loss_grads!(y).of(&xv))]);
}

#[test]
fn reduce_by_prod_with_and_without_zeros() {
    let x = input::<f64, shape![Rows: 3, Cols: 4]>("ramp");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols -> Rows", prod);
    assert_eq!(
        y.value().to_vec(),
        reduce!(x.as_view(), "Rows Cols -> Rows", prod).to_vec()
    );
    assert_eq!(y.grad_fn().as_deref(), Some("ProdBackward0"));
    assert_grads("reduce_prod", &[flat(loss_grads!(y).of(&xv))]);

    let x = input::<f64, shape![Rows: 3, Cols: 4]>("ties");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols -> Rows", prod);
    assert_grads("reduce_prod_zeros", &[flat(loss_grads!(y).of(&xv))]);

    let x = input::<f64, shape![Rows: 2, Cols: 3, Inner: 2]>("positive");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols Inner -> Rows", prod);
    assert_grads("reduce_prod_axes", &[flat(loss_grads!(y).of(&xv))]);

    let x = input::<f32, shape![Rows: 3, Cols: 4]>("ramp");
    let xv = x.track();
    let y = reduce!(xv.clone(), "Rows Cols -> Rows", prod);
    assert_grads("reduce_prod_f32", &[flat(loss_grads!(y).of(&xv))]);
}

#[test]
fn einsum_against_a_constant() {
    let x = input::<f64, shape![Rows: 2, Inner: 3]>("ramp");
    let rhs = Tensor::<f64, shape![Inner: 3, Cols: 4]>::from_vec(
        (0..12).map(|i| 0.3 * i as f64 - 1.0).collect(),
    );
    let xv = x.track();
    let y = einsum!("Rows Inner, Inner Cols -> Rows Cols", xv, rhs);
    let untracked = einsum!("Rows Inner, Inner Cols -> Rows Cols", x, rhs);
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    assert_grads("einsum", &[flat(loss_grads!(y).of(&xv))]);
}

#[test]
fn einsum_of_attention_scores() {
    let q = input::<f64, shape![Batch: 2, Heads: 2, Seq: 3, Head: 4]>("ramp");
    let k = input::<f64, shape![Batch: 2, Heads: 2, Key: 5, Head: 4]>("ramp2");
    let (qv, kv) = (q.track(), k.track());
    let pattern = "Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key";
    let y = einsum!(
        "Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key",
        qv,
        kv
    );
    let untracked = einsum!(
        "Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key",
        q,
        k
    );
    assert_eq!(y.value().to_vec(), untracked.to_vec(), "{pattern}");
    let grads = loss_grads!(y);
    assert_grads(
        "attention_scores",
        &[flat(grads.of(&qv)), flat(grads.of(&kv))],
    );

    let q = input::<f32, shape![Batch: 2, Heads: 2, Seq: 3, Head: 4]>("ramp");
    let k = input::<f32, shape![Batch: 2, Heads: 2, Key: 5, Head: 4]>("ramp2");
    let (qv, kv) = (q.track(), k.track());
    let y = einsum!(
        "Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key",
        qv,
        kv
    );
    let grads = loss_grads!(y);
    assert_grads(
        "attention_scores_f32",
        &[flat(grads.of(&qv)), flat(grads.of(&kv))],
    );
}

#[test]
fn einsum_of_heads_split_from_one_input() {
    let x = input::<f64, shape![Batch: 2, Seq: 3, 8]>("ramp");
    let xv = x.track();
    let q = rearrange!(
        xv.clone(),
        "Batch Seq (Heads Head) -> Batch Heads Seq Head",
        Heads = 2
    );
    let k = rearrange!(
        xv.clone(),
        "Batch Seq (Heads Head) -> Batch Heads Seq Head",
        Heads = 2
    )
    .rename::<Seq, Key>();
    let y = einsum!(
        "Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key",
        q,
        k
    );
    assert_grads("self_attention_scores", &[flat(loss_grads!(y).of(&xv))]);
}

#[test]
fn einsum_of_three_operands_outer_products_and_own_sums() {
    let a = input::<f64, shape![Rows: 2, Inner: 3]>("ramp");
    let b = input::<f64, shape![Inner: 3, Cols: 4]>("ramp2");
    let c = input::<f64, shape![Cols: 4, Out: 2]>("positive");
    let (av, bv, cv) = (a.track(), b.track(), c.track());
    let y = einsum!("Rows Inner, Inner Cols, Cols Out -> Rows Out", av, bv, cv);
    let untracked = einsum!("Rows Inner, Inner Cols, Cols Out -> Rows Out", a, b, c);
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    let grads = loss_grads!(y);
    assert_grads(
        "einsum_three",
        &[
            flat(grads.of(&av)),
            flat(grads.of(&bv)),
            flat(grads.of(&cv)),
        ],
    );

    let a = input::<f64, shape![Batch: 2, Rows: 3]>("ramp");
    let b = input::<f64, shape![Batch: 2, Cols: 4]>("ramp2");
    let (av, bv) = (a.track(), b.track());
    let y = einsum!("Batch Rows, Batch Cols -> Batch Rows Cols", av, bv);
    let grads = loss_grads!(y);
    assert_grads("einsum_outer", &[flat(grads.of(&av)), flat(grads.of(&bv))]);

    let a = input::<f64, shape![Rows: 2, Inner: 3]>("ramp");
    let b = input::<f64, shape![Cols: 4]>("ramp2");
    let (av, bv) = (a.track(), b.track());
    let y = einsum!("Rows Inner, Cols -> Rows Cols", av, bv);
    assert_eq!(
        y.value().to_vec(),
        einsum!("Rows Inner, Cols -> Rows Cols", a, b).to_vec()
    );
    let grads = loss_grads!(y);
    assert_grads(
        "einsum_own_sum",
        &[flat(grads.of(&av)), flat(grads.of(&bv))],
    );
}

#[test]
fn einsum_of_a_tracked_operand_is_a_new_tensor() {
    // "Rows Cols -> Cols Rows" alone is a permutation: the tracked result is
    // still a tensor of its own (writable, not a view of the leaf).
    let x = input::<f64, shape![Rows: 2, Cols: 3]>("ramp");
    let xv = x.track();
    let mut y = einsum!("Rows Cols -> Cols Rows", xv);
    y.add_(1.0);
    assert_eq!(x.to_vec()[1], -0.9);
    let grads = y.sum_all().backward();
    assert_eq!(grads.of(&xv).unwrap().to_vec(), vec![1.0; 6]);
}

#[test]
fn gradchecks_of_each_kind_of_pattern() {
    let x = input::<f64, shape![Batch: 2, Seq: 3, 6]>("ramp");
    gradcheck(
        |v| {
            rearrange!(
                v,
                "Batch Seq (Heads Head) -> Batch Heads Seq Head",
                Heads = 3
            )
        },
        &x,
    )
    .unwrap();
    gradcheck(
        |v| rearrange!(v, "Batch Seq Inner -> (Batch Inner) Seq"),
        &x,
    )
    .unwrap();
    gradcheck(
        |v| repeat!(v, "Batch Seq Inner -> Batch (Seq Copies) Inner", Copies = 2),
        &x,
    )
    .unwrap();
    for reduced in [
        gradcheck(|v| reduce!(v, "Batch Seq Inner -> Batch", sum), &x),
        gradcheck(|v| reduce!(v, "Batch Seq Inner -> Seq", mean), &x),
        gradcheck(|v| reduce!(v, "Batch Seq Inner -> Batch Inner", max), &x),
        gradcheck(|v| reduce!(v, "Batch Seq Inner -> Seq Inner", min), &x),
        gradcheck(|v| reduce!(v, "Batch Seq Inner -> Inner", prod), &x),
    ] {
        reduced.unwrap();
    }
    let q = input::<f64, shape![Batch: 2, Heads: 2, Seq: 3, Head: 4]>("ramp");
    let k = input::<f64, shape![Batch: 2, Heads: 2, Key: 5, Head: 4]>("ramp2");
    gradcheck(
        |v| {
            einsum!(
                "Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key",
                v,
                k
            )
        },
        &q,
    )
    .unwrap();
    gradcheck(
        |v| {
            einsum!(
                "Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key",
                q,
                v
            )
        },
        &k,
    )
    .unwrap();
}
