//! Gradients through the einops patterns on tracked tensors, against
//! `torch.autograd` (`oracle/torch_einops_grad.py`): a rearrangement that
//! is a view (`rearrange!` in `map_view`), a repetition (`repeat!` in
//! `map_broadcast`), the reductions `reduce!` computes (the tracked `mean`
//! and `amax` over the axis), and an `einsum!` contraction (the tracked
//! `matmul`), each under the loss `(y · w).sum()` with fixed weights; the
//! macros themselves refuse a tracked tensor at compile time
//! (`ui-tests/fail/einops_tracked.rs`, `einops_einsum_tracked.rs`), so no
//! pattern drops a graph silently. Each pattern's tracked result is also
//! checked against the macro's own untracked one.

use axial::autograd::Var;
use axial::prelude::*;
use axial::shape::StaticShape;
use serde_json::Value;

axes!(Batch, Seq, Heads, Head, Rows, Cols, Copies, Inner);

fn oracle(name: &str) -> Vec<f64> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/torch_einops_grad.json"
    );
    let record: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    record[name]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// The script's input: 0.1·i − 1 for element i.
fn input<S: StaticShape + Distinct>() -> Tensor<f64, S> {
    let n = Tensor::<f64, S>::zeros().to_vec().len();
    Tensor::from_vec((0..n).map(|i| 0.1 * i as f64 - 1.0).collect())
}

/// The weights of the loss: 0.5 + 0.25·j for element j of `y`.
fn weights<S: StaticShape + Distinct, W>(y: &Var<'_, f64, S, Cpu, W>) -> Tensor<f64, S> {
    let n = y.value().to_vec().len();
    Tensor::from_vec((0..n).map(|j| 0.5 + 0.25 * j as f64).collect())
}

/// The gradients of the loss `(y · w).sum()`.
macro_rules! loss_grads {
    ($y:expr) => {{
        let y = $y;
        let w = weights(&y);
        (y * &w).sum_all().backward()
    }};
}

#[track_caller]
fn assert_close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-10 * w.abs().max(1.0),
            "[{i}]: {g} against {w}"
        );
    }
}

#[test]
fn rearrange_splits_and_permutes_with_its_gradient() {
    let x = input::<shape![Batch: 2, Seq: 3, 6]>();
    let xv = x.track();
    let y = xv.as_kept().map_view(|t| {
        rearrange!(
            t,
            "Batch Seq (Heads Head) -> Batch Heads Seq Head",
            Heads = 2
        )
    });
    let untracked = rearrange!(
        x.as_view(),
        "Batch Seq (Heads Head) -> Batch Heads Seq Head",
        Heads = 2
    );
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    let grads = loss_grads!(y);
    assert_close(&grads.of(&xv).unwrap().to_vec(), &oracle("split_heads"));
}

#[test]
fn rearrange_transposes_with_its_gradient() {
    let x = input::<shape![Rows: 3, Cols: 4]>();
    let xv = x.track();
    let y = xv
        .as_kept()
        .map_view(|t| rearrange!(t, "Rows Cols -> Cols Rows"));
    assert_eq!(
        y.value().to_vec(),
        rearrange!(x.as_view(), "Rows Cols -> Cols Rows").to_vec()
    );
    let grads = loss_grads!(y);
    assert_close(&grads.of(&xv).unwrap().to_vec(), &oracle("transpose"));
}

#[test]
fn repeat_sums_its_copies_gradients() {
    let x = input::<shape![Rows: 2, Cols: 4]>();
    let xv = x.track();
    let y = xv
        .as_kept()
        .map_broadcast(|t| repeat!(t, "Rows Cols -> Rows Copies Cols", Copies = 3));
    let untracked = repeat!(x.as_view(), "Rows Cols -> Rows Copies Cols", Copies = 3);
    assert_eq!(y.value().to_vec(), untracked.to_vec());
    let grads = loss_grads!(y);
    assert_close(&grads.of(&xv).unwrap().to_vec(), &oracle("repeat"));
}

#[test]
fn reductions_have_reduce_values_and_torchs_gradients() {
    let x = input::<shape![Rows: 3, Cols: 4]>();
    let xv = x.track();
    let mean = xv.mean::<Cols>();
    assert_eq!(
        mean.value().to_vec(),
        reduce!(x.as_view(), "Rows Cols -> Rows", mean).to_vec()
    );
    let grads = loss_grads!(mean);
    assert_close(&grads.of(&xv).unwrap().to_vec(), &oracle("reduce_mean"));

    let xv = x.track();
    let max = xv.amax::<Cols>();
    assert_eq!(
        max.value().to_vec(),
        reduce!(x.as_view(), "Rows Cols -> Rows", max).to_vec()
    );
    let grads = loss_grads!(max);
    assert_close(&grads.of(&xv).unwrap().to_vec(), &oracle("reduce_max"));
}

#[test]
fn einsum_contractions_go_through_the_tracked_product() {
    let x = input::<shape![Rows: 2, Inner: 3]>();
    let rhs = Tensor::<f64, shape![Inner: 3, Cols: 4]>::from_vec(
        (0..12).map(|i| 0.3 * i as f64 - 1.0).collect(),
    );
    let xv = x.track();
    let y = xv.matmul(&rhs);
    let untracked = einsum!("Rows Inner, Inner Cols -> Rows Cols", x, rhs);
    assert_close(&y.value().to_vec(), &untracked.to_vec());
    let grads = loss_grads!(y);
    assert_close(&grads.of(&xv).unwrap().to_vec(), &oracle("einsum"));
}
