//! Transposed nested tensors and products of nested tensors against
//! PyTorch: the `nested_transpose` cases of `tests/data/nested.json`
//! (PyTorch's jagged `transpose`: the ragged dim moved, the values a
//! transposed view, and ops on the result) and the `nested_product` cases
//! (attention over a ragged batch, `q @ k^T`, softmax, `@ v`, which
//! PyTorch's strided nested tensors compute item by item and its jagged
//! layout refuses; and `k^T @ v`, summed over the ragged dim, dense).

mod cases;

use axial_core::nested::{NestedOrDense, NestedTensor};
use axial_core::{RawTensor, ReduceOp, Scalar, UnaryOp};
use cases::{assert_close, assert_message, f32s, i64s, load, usizes};
use serde_json::Value;

/// A jagged nested tensor of the case's items, `(B, j, shape...)`.
fn jagged(c: &Value, key: &str, shape: &[usize]) -> NestedTensor {
    let lengths = usizes(&c["lengths"]);
    let items: Vec<RawTensor> = c[key]
        .as_array()
        .unwrap()
        .iter()
        .zip(&lengths)
        .map(|(v, &n)| {
            let mut s = vec![n];
            s.extend_from_slice(shape);
            RawTensor::from_vec(f32s(v), &s).unwrap()
        })
        .collect();
    let views: Vec<_> = items.iter().map(RawTensor::view).collect();
    NestedTensor::from_tensors(&views).unwrap()
}

/// Every item's elements, row-major, one after the other.
fn items(n: &NestedTensor) -> Vec<f32> {
    n.unbind()
        .unwrap()
        .iter()
        .flat_map(|t| t.to_vec::<f32>().unwrap())
        .collect()
}

fn values(n: &NestedTensor) -> Vec<f32> {
    n.values().to_vec::<f32>().unwrap()
}

#[test]
fn transposes_match_pytorch_jagged() {
    let all: Vec<Value> = load("nested")
        .into_iter()
        .filter(|c| c["op"] == "nested_transpose")
        .collect();
    assert!(all.len() >= 50, "{} cases", all.len());
    for (i, c) in all.iter().enumerate() {
        let what = |op: &str| format!("case {i}: {op}");
        let nj = jagged(c, "items", &usizes(&c["rest"]));
        let dims = i64s(&c["dims"]);
        let t = nj
            .clone()
            .transpose(dims[0] as isize, dims[1] as isize)
            .unwrap();
        // The layout: the ragged dim, the sizes, values a transposed view.
        let r = c["ragged_idx"].as_u64().unwrap() as usize;
        assert_eq!(t.ragged_dims(), vec![r], "{}", what("_ragged_idx"));
        assert_eq!(
            t.values().shape(),
            usizes(&c["values_shape"]).as_slice(),
            "{}",
            what("values shape")
        );
        assert_eq!(values(&t), f32s(&c["values"]), "{}", what("values"));
        assert_eq!(
            t.to_string(),
            c["repr"].as_str().unwrap(),
            "{}",
            what("repr")
        );
        assert_eq!(items(&t), f32s(&c["unbind"]), "{}", what("unbind"));
        let p = t.to_padded(Scalar::Float(0.0), None).unwrap();
        assert_eq!(
            p.to_vec::<f32>().unwrap(),
            f32s(&c["padded"]),
            "{}",
            what("to_padded")
        );
        // Over the ragged dim: one result per item, dense.
        let sums = t.reduce_ragged(ReduceOp::Sum).unwrap();
        assert_close(
            &sums.to_vec::<f32>().unwrap(),
            &f32s(&c["sum_ragged"]),
            1e-6,
            &what("sum over the ragged dim"),
        );
        match c.get("amax_ragged") {
            Some(want) => assert_eq!(
                t.reduce_ragged(ReduceOp::Max)
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap(),
                f32s(want),
                "{}",
                what("amax over the ragged dim")
            ),
            None => assert!(t.reduce_ragged(ReduceOp::Max).is_err()),
        }
        // Over a fixed dim: nested again, the ragged dim where PyTorch puts it.
        let f = c["fixed_dim"].as_i64().unwrap() as isize;
        let s = t.reduce(ReduceOp::Sum, &[f], false).unwrap();
        let want = &c["sum_fixed"];
        assert_eq!(
            s.ragged_dims(),
            vec![want["ragged_idx"].as_u64().unwrap() as usize],
            "{}",
            what("sum over a fixed dim: _ragged_idx")
        );
        assert_close(
            &s.values().to_contiguous().unwrap().to_vec::<f32>().unwrap(),
            &f32s(&want["values"]),
            1e-6,
            &what("sum over a fixed dim"),
        );
        assert_close(
            &t.softmax(f).unwrap().values().to_vec::<f32>().unwrap(),
            &f32s(&c["softmax_fixed"]),
            2e-6,
            &what("softmax over a fixed dim"),
        );
        assert_eq!(
            values(&t.unary(UnaryOp::Relu).unwrap()),
            f32s(&c["relu"]),
            "{}",
            what("relu")
        );
        assert_eq!(
            values(&t.binary(axial_core::BinaryOp::Add, &t).unwrap()),
            f32s(&c["times_two"]),
            "{}",
            what("t + t")
        );
        // And back: the first layout, its values as they were.
        let back = t.transpose(dims[0] as isize, dims[1] as isize).unwrap();
        assert_eq!(back.ragged_dims(), vec![1]);
        assert_eq!(
            values(&back),
            f32s(&c["back"]),
            "{}",
            what("transposed back")
        );
        assert_eq!(values(&back), values(&nj));
    }
}

/// The case's `q`, `k` or `v` as a jagged `(B, j, w)` tensor, or with heads
/// `(B, j, H, w).transpose(1, 2)`: `(B, H, j, w)`, items `(H, n_i, w)`.
fn operand(c: &Value, key: &str, width: usize) -> NestedTensor {
    match c["heads"].as_u64() {
        None => jagged(c, key, &[width]),
        Some(h) => {
            // The generator's items are (H, n, w), row-major: build them as
            // (n, H, w) items and transpose, as a model does with its heads.
            let h = h as usize;
            let lengths = usizes(&c["lengths"]);
            let items: Vec<RawTensor> = c[key]
                .as_array()
                .unwrap()
                .iter()
                .zip(&lengths)
                .map(|(v, &n)| {
                    let t = RawTensor::from_vec(f32s(v), &[h, n, width]).unwrap();
                    t.view().transpose(0, 1).unwrap().to_contiguous().unwrap()
                })
                .collect();
            let views: Vec<_> = items.iter().map(RawTensor::view).collect();
            let nj = NestedTensor::from_tensors(&views).unwrap();
            nj.transpose(1, 2).unwrap()
        }
    }
}

#[test]
fn attention_over_a_ragged_batch_matches_pytorch() {
    let all: Vec<Value> = load("nested")
        .into_iter()
        .filter(|c| c["op"] == "nested_product")
        .collect();
    assert!(all.len() >= 50, "{} cases", all.len());
    let mut with_heads = 0;
    for (i, c) in all.iter().enumerate() {
        let what = |op: &str| format!("case {i}: {op}");
        let (d, e) = (
            c["d"].as_u64().unwrap() as usize,
            c["e"].as_u64().unwrap() as usize,
        );
        let (q, k, v) = (operand(c, "q", d), operand(c, "k", d), operand(c, "v", e));
        let rank = q.dim() as isize;
        let kt = k.clone().transpose(rank - 2, rank - 1).unwrap();
        let scores = q.matmul_nested(&kt).unwrap().into_nested().unwrap();
        assert_eq!(
            scores.ragged_dims(),
            vec![rank as usize - 2, rank as usize - 1],
            "{}",
            what("two ragged dims")
        );
        assert_close(&items(&scores), &f32s(&c["scores"]), 1e-5, &what("q @ k^T"));
        let probs = scores.softmax(-1).unwrap();
        assert_close(
            &items(&probs),
            &f32s(&c["probs"]),
            2e-6,
            &what("softmax(-1)"),
        );
        let rows = scores.softmax(-2).unwrap();
        assert_close(
            &items(&rows),
            &f32s(&c["probs_rows"]),
            2e-6,
            &what("softmax(-2)"),
        );
        let out = probs.matmul_nested(&v).unwrap().into_nested().unwrap();
        assert_eq!(
            out.ragged_dims(),
            q.ragged_dims(),
            "{}",
            what("out's ragged dim")
        );
        assert_close(&items(&out), &f32s(&c["out"]), 1e-5, &what("probs @ v"));
        // Padded, the scores hold each item in the top-left corner.
        let padded = scores.to_padded(Scalar::Float(0.0), None).unwrap();
        let longest = q.lengths().into_iter().max().unwrap();
        assert_eq!(
            &padded.shape()[padded.shape().len() - 2..],
            &[longest, longest]
        );
        match c.get("kt_v") {
            Some(want) => {
                // PyTorch's jagged layout refuses q @ k^T; it sums k^T @ v over
                // the ragged dim into a dense tensor, as axial does.
                assert!(
                    c["jagged_refuses"]
                        .as_str()
                        .unwrap()
                        .starts_with("matmul(): not supported")
                );
                let NestedOrDense::Dense(kv) = kt.matmul_nested(&v).unwrap() else {
                    panic!("{}", what("k^T @ v is dense"));
                };
                assert_eq!(kv.shape(), &[q.batch_size(), d, e]);
                assert_close(
                    &kv.to_vec::<f32>().unwrap(),
                    &f32s(want),
                    1e-5,
                    &what("k^T @ v"),
                );
            }
            None => with_heads += 1,
        }
    }
    assert!(with_heads >= 10, "{with_heads} cases with heads");
}

#[test]
fn refusals() {
    for c in load("nested") {
        match c["op"].as_str().unwrap() {
            "nested_transpose_error" => {
                let nj = NestedTensor::from_jagged(
                    RawTensor::from_vec(vec![1.0f32; 18], &[6, 3]).unwrap(),
                    &[0, 2, 6],
                )
                .unwrap();
                let dims = i64s(&c["dims"]);
                let e = nj
                    .transpose(dims[0] as isize, dims[1] as isize)
                    .unwrap_err();
                assert_message(&e, c["error"].as_str().unwrap());
            }
            "nested_softmax_ragged_idx" => {
                // PyTorch refuses a softmax along the ragged dim past dim 1;
                // axial computes it within each item.
                assert!(
                    c["pytorch_refuses"]
                        .as_str()
                        .unwrap()
                        .contains("ragged_idx > 1")
                );
            }
            _ => {}
        }
    }
    let v = RawTensor::from_vec((0..18).map(|x| x as f32).collect(), &[6, 3]).unwrap();
    let nj = NestedTensor::from_jagged(v, &[0, 2, 6]).unwrap();
    let t = nj.clone().transpose(1, 2).unwrap();
    let p = t.softmax(2).unwrap();
    let col = |n: &NestedTensor, i| n.item(i).unwrap().to_vec::<f32>().unwrap();
    let want = nj.softmax(1).unwrap().transpose(1, 2).unwrap();
    assert_close(
        &col(&p, 1),
        &col(&want, 1),
        2e-6,
        "softmax along a ragged dim 2",
    );
    // Products that do not go together, with both shapes.
    let other = NestedTensor::from_jagged(
        RawTensor::from_vec(vec![1.0f32; 18], &[6, 3]).unwrap(),
        &[0, 3, 6],
    )
    .unwrap();
    let e = nj
        .matmul_nested(&other.transpose(1, 2).unwrap())
        .unwrap_err();
    assert_message(
        &e,
        "matmul(): not supported between nested inputs of shapes (2, j1, 3) and (2, 3, j1): their items' lengths (offsets) differ",
    );
    let e = nj.matmul_nested(&nj).unwrap_err();
    assert!(
        e.to_string()
            .contains("a ragged dim sums only against a ragged dim"),
        "{e}"
    );
    // Two ragged dims: neither may move, nor be reduced.
    let scores = nj.matmul_nested(&t).unwrap().into_nested().unwrap();
    assert!(scores.clone().transpose(1, 2).is_err());
    assert!(scores.reduce_ragged(ReduceOp::Sum).is_err());
    assert!(scores.reduce(ReduceOp::Sum, &[2], false).is_err());
    assert!(
        scores
            .matmul(
                &RawTensor::from_vec(vec![1.0f32; 4], &[2, 2])
                    .unwrap()
                    .view()
            )
            .is_err()
    );
    // A dense weight against a ragged last dim.
    let w = RawTensor::from_vec(vec![1.0f32; 4], &[2, 2]).unwrap();
    assert!(t.matmul(&w.view()).is_err());
    // Per-item broadcasting after a transpose: a column per fixed index.
    let col3 = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3, 1]).unwrap();
    let y = t
        .binary_dense(axial_core::BinaryOp::Mul, &col3.view())
        .unwrap();
    assert_eq!(col(&y, 0), vec![0.0, 3.0, 2.0, 8.0, 6.0, 15.0]);
    assert!(
        t.binary_dense(
            axial_core::BinaryOp::Add,
            &RawTensor::from_vec(vec![1.0f32; 3], &[3]).unwrap().view()
        )
        .is_err()
    );
}
