//! Nested tensors by name: attention over a ragged batch (`q @ k^T`,
//! softmax over `Key`, `@ v`) through the typed API against the cases
//! PyTorch computed (`crates/axial-core/tests/data/nested.json`, written by
//! `bench/generalized_cases.py`), transposes that move the ragged axis, the
//! reductions' `try_` forms and `amax_or`.

use axial::prelude::*;
use serde_json::Value;

axes!(Batch, Seq, Key, Head, Out, Features);

type Queries = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Head: Dyn]>;
type Item = shape![Seq: Dyn, Features: Dyn];
type Scores = shape![Batch: Dyn, Seq: Dyn, Key: Dyn];
type Outputs = shape![Batch: Dyn, Seq: Dyn, Out: Dyn];
type KeyValue = shape![Batch: Dyn, Head: Dyn, Out: Dyn];
type Transposed = shape![Batch: Dyn, Features: 3, Seq: Dyn];
type Rows = shape![Batch: Dyn, Seq: Dyn];
type PerItem = shape![Batch: Dyn, Features: 2];
type Values = Nested<f32, shape![Batch: Dyn, Key: Dyn, Out: Dyn]>;

fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/axial-core/tests/data/nested.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let all: Value = serde_json::from_str(&text).unwrap();
    all["cases"].as_array().unwrap().clone()
}

fn floats(v: &Value) -> Vec<f32> {
    match v {
        Value::Array(items) => items.iter().flat_map(floats).collect(),
        x => vec![x.as_f64().unwrap() as f32],
    }
}

type Items = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Features: Dyn]>;

/// The case's items `key` as a nested tensor of `width` features (renamed
/// by the caller).
fn items(c: &Value, key: &str, width: usize) -> Items {
    let lengths: Vec<usize> = c["lengths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap() as usize)
        .collect();
    let items: Vec<Tensor<f32, Item>> = c[key]
        .as_array()
        .unwrap()
        .iter()
        .zip(&lengths)
        .map(|(v, &n)| Tensor::from_vec_dyn(floats(v), [n, width]))
        .collect();
    Items::try_from_items(&items).unwrap()
}

fn close(got: &[f32], want: &[f32], tol: f32, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= tol * w.abs().max(1.0),
            "{what}: {got:?} vs {want:?}"
        );
    }
}

fn flat<S: axial::Batched, L>(n: &Nested<f32, S, L>) -> Vec<f32> {
    n.unbind().iter().flat_map(|t| t.to_vec()).collect()
}

#[test]
fn attention_over_a_ragged_batch_matches_pytorch() {
    let mut checked = 0;
    for (i, c) in cases().iter().enumerate() {
        if c["op"] != "nested_product" || !c["heads"].is_null() {
            continue;
        }
        let (d, e) = (
            c["d"].as_u64().unwrap() as usize,
            c["e"].as_u64().unwrap() as usize,
        );
        let q: Queries = items(c, "q", d).rename::<Features, Head>();
        let k = items(c, "k", d)
            .rename::<Features, Head>()
            .rename::<Seq, Key>();
        let v: Values = items(c, "v", e)
            .rename::<Features, Out>()
            .rename::<Seq, Key>();
        let kt = k.transpose::<Key, Head>(); // [Batch, Head, Key], names![Key]
        let scores: Nested<f32, Scores, names![Seq, Key]> = q.matmul_nested(&kt);
        close(
            &flat(&scores),
            &floats(&c["scores"]),
            1e-5,
            &format!("case {i}: q @ k^T"),
        );
        let p = scores.softmax::<Key>();
        close(
            &flat(&p),
            &floats(&c["probs"]),
            2e-6,
            &format!("case {i}: softmax over Key"),
        );
        let rows = scores.softmax::<Seq>();
        close(
            &flat(&rows),
            &floats(&c["probs_rows"]),
            2e-6,
            &format!("case {i}: softmax over Seq"),
        );
        let out: Nested<f32, Outputs> = p.matmul_nested(&v);
        close(
            &flat(&out),
            &floats(&c["out"]),
            1e-5,
            &format!("case {i}: p @ v"),
        );
        // Summed over the ragged axis: dense, as PyTorch's jagged k^T @ v.
        let kv: Tensor<f32, KeyValue> = kt.matmul_nested(&v);
        close(
            &kv.to_vec(),
            &floats(&c["kt_v"]),
            1e-5,
            &format!("case {i}: k^T @ v"),
        );
        checked += 1;
    }
    assert!(checked >= 30, "{checked} cases");
}

#[test]
fn transposes_move_the_ragged_axis_by_name() {
    type N = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Features: 3]>;
    let n = N::builder()
        .push(&Tensor::<f32, shape![Seq: 2, Features: 3]>::arange())
        .push(&Tensor::<f32, shape![Seq: 0, Features: 3]>::zeros())
        .push(&Tensor::<f32, shape![Seq: 1, Features: 3]>::full(7.0))
        .build();
    let t: Nested<f32, Transposed, names![Seq]> = n.clone().transpose::<Seq, Features>();
    assert_eq!(
        t.to_string(),
        "NestedTensor(size=(3, 3, j1), offsets=tensor([0, 2, 2, 3]), contiguous=False)"
    );
    assert_eq!(t.values().sizes().as_slice(), &[3, 3]);
    assert_eq!(
        t.try_item(0).unwrap().to_vec(),
        vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    );
    // Reductions by name, wherever the ragged axis is.
    assert_eq!(t.sum::<Seq>().to_vec(), n.sum::<Seq>().to_vec());
    let rows: Nested<f32, Rows> = t.sum::<Features>();
    assert_eq!(rows.values().to_vec(), vec![3.0, 12.0, 21.0]);
    // Padded: the ragged axis padded where it is.
    let p = t.to_padded(-1.0);
    assert_eq!(p.sizes().as_slice(), &[3, 3, 2]);
    assert_eq!(p.to_vec()[..6], [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    assert_eq!(
        t.try_to_padded_len(0.0, 4).unwrap().sizes().as_slice(),
        &[3, 3, 4]
    );
    // amax over the ragged axis: an empty item refuses, unless asked for a value.
    assert!(t.try_amax::<Seq>().is_err());
    assert_eq!(
        t.amax_or::<Seq>(f32::MIN).to_vec(),
        vec![3.0, 4.0, 5.0, f32::MIN, f32::MIN, f32::MIN, 7.0, 7.0, 7.0]
    );
    // And back.
    let back = t.transpose::<Features, Seq>();
    assert_eq!(back.values().to_vec(), n.values().to_vec());
}

#[test]
fn reductions_have_try_forms() {
    type N = Nested<i32, shape![Batch: Dyn, Seq: Dyn, Features: 2]>;
    let n = N::builder()
        .push(&Tensor::<i32, shape![Seq: 2, Features: 2]>::from_array([
            [i32::MAX, 1],
            [1, 2],
        ]))
        .push(&Tensor::<i32, shape![Seq: 0, Features: 2]>::zeros())
        .build();
    // Integers sum to i64, as PyTorch's: no wrap past i32::MAX.
    let s: Tensor<i64, PerItem> = n.try_sum::<Seq>().unwrap();
    assert_eq!(s.to_vec(), vec![i32::MAX as i64 + 1, 3, 0, 0]);
    let f: Nested<i64, Rows> = n.try_sum::<Features>().unwrap();
    assert_eq!(f.values().to_vec(), vec![i32::MAX as i64 + 1, 3]);
    let e = n.try_amax::<Seq>().unwrap_err();
    assert!(e.to_string().contains("reduce_ragged_or"), "{e}");
    assert_eq!(
        n.try_amax_or::<Seq>(i32::MIN).unwrap().to_vec(),
        vec![i32::MAX, 2, i32::MIN, i32::MIN]
    );
    let m = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::builder()
        .push(&Tensor::<f32, shape![Seq: 2]>::from_array([1.0, 2.0]))
        .push(&Tensor::<f32, shape![Seq: 0]>::zeros())
        .build();
    let mean = m.try_mean::<Seq>().unwrap().to_vec();
    assert!(mean[0] == 1.5 && mean[1].is_nan());
}

#[test]
fn products_of_other_sequences_are_errors() {
    type N = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Head: 2]>;
    let a = N::builder()
        .push(&Tensor::<f32, shape![Seq: 1, Head: 2]>::ones())
        .push(&Tensor::<f32, shape![Seq: 2, Head: 2]>::ones())
        .build();
    let b = N::builder()
        .push(&Tensor::<f32, shape![Seq: 2, Head: 2]>::ones())
        .push(&Tensor::<f32, shape![Seq: 1, Head: 2]>::ones())
        .build();
    let kt = b.rename::<Seq, Key>().transpose::<Key, Head>();
    let e = a.try_matmul_nested(&kt).unwrap_err();
    assert!(
        e.to_string()
            .contains("their items' lengths (offsets) differ"),
        "{e}"
    );
}
