//! The typed ops model code needs, against PyTorch: every case of
//! `tests/data/torch_model_ops.json` (written by
//! `oracle/torch_model_ops.py`) run through axial's typed API, where the
//! shapes and the axes are types: `cat`, `stack`, `gather`,
//! `index_select`, `tril`/`triu` over two named axes, `cumsum`, `pad` in
//! four modes, `topk`, `where`, static windows, attention and the losses.
#![expect(
    clippy::type_complexity,
    reason = "the results' types are written out: they are what these tests check"
)]

use axial::loss::{CrossEntropy, Mean, Reduction, Sum, Unreduced};
use axial::prelude::*;
use axial::{Attention, Data, Pad, Shape, TensorBase};
use serde_json::Value as Json;

axes!(
    Batch, Rows, Cols, Mid, Heads, Seq, Key, Head, Value, Classes, Pos, Layer, Window, Top
);

fn cases() -> Json {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/torch_model_ops.json"
    );
    let text = std::fs::read_to_string(path).expect("the oracle's output is committed");
    let doc: Json = serde_json::from_str(&text).expect("the oracle writes JSON");
    doc["cases"].clone()
}

/// A recorded tensor's values.
fn values(t: &Json) -> Vec<f64> {
    t["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| {
            v.as_f64()
                .or_else(|| v.as_bool().map(f64::from))
                .expect("a number")
        })
        .collect()
}

fn shape_of(t: &Json) -> Vec<usize> {
    t["shape"]
        .as_array()
        .expect("a shape")
        .iter()
        .map(|n| n.as_u64().expect("a size") as usize)
        .collect()
}

/// A recorded tensor as a typed one of the type the caller names.
fn tensor<T: axial::Element, S: Shape + axial::shape::StaticShape + axial::shape::Distinct>(
    t: &Json,
) -> Tensor<T, S> {
    let want: Vec<usize> = {
        let mut sizes = vec![None; S::RANK];
        S::write_static_sizes(&mut sizes);
        sizes.into_iter().map(|s| s.expect("static")).collect()
    };
    assert_eq!(shape_of(t), want, "the recorded shape is the type's");
    Tensor::from_vec(values(t).into_iter().map(T::from_f64).collect())
}

/// Checks a typed result against PyTorch's: its shape, then each value
/// within `tol` relative.
#[track_caller]
fn check<T: axial::Element, S: Shape, R: Data<Cpu>>(
    got: &TensorBase<T, S, Cpu, R>,
    want: &Json,
    tol: f64,
) {
    assert_eq!(got.sizes().to_vec(), shape_of(want), "shape");
    let got: Vec<f64> = got.to_vec().into_iter().map(|v| v.to_f64()).collect();
    let want = values(want);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "element {i}: {g} against PyTorch's {w}\n got {got:?}\nwant {want:?}"
        );
    }
}

const TOL: f64 = 2e-6;

#[test]
fn cat_and_stack() {
    let c = &cases();
    let a = tensor::<f32, shape![Rows: 2, Cols: 3]>(&c["cat"]["a"]);
    let b = tensor::<f32, shape![Rows: 2, Cols: 4]>(&c["cat"]["b"]);
    let joined: Tensor<f32, shape![Rows: 2, Cols: 7]> = a.cat::<Cols, _>(&b);
    check(&joined, &c["cat"]["out"], 0.0);
    let b = tensor::<f32, shape![Rows: 2, Cols: 3]>(&c["stack"]["b"]);
    let stacked: Tensor<f32, shape![Rows: 2, Layer: 2, Cols: 3]> =
        TensorBase::stack::<Layer, 1, 2>([&a, &b]);
    check(&stacked, &c["stack"]["out"], 0.0);
}

#[test]
fn gather_and_index_select() {
    let c = &cases();
    let x = tensor::<f32, shape![Rows: 3, Cols: 4]>(&c["gather"]["x"]);
    let index = tensor::<i64, shape![Rows: 3, Cols: 2]>(&c["gather"]["index"]);
    check(&x.gather::<Cols, _>(&index), &c["gather"]["out"], 0.0);
    let picks = tensor::<i64, shape![Top: 4]>(&c["index_select"]["index"]);
    let rows: Tensor<f32, shape![Top: 4, Cols: 4]> = x.index_select::<Rows, _>(&picks);
    check(&rows, &c["index_select"]["out"], 0.0);
}

#[test]
fn triangles_over_two_named_axes() {
    let c = &cases();
    for (op, upper) in [("tril", false), ("triu", true)] {
        let x = tensor::<f32, shape![Rows: 3, Mid: 2, Cols: 4]>(&c[op]["x"]);
        for (d, want) in c[op]["diagonals"]
            .as_array()
            .unwrap()
            .iter()
            .zip(c[op]["out"].as_array().unwrap())
        {
            let d = d.as_i64().unwrap();
            let got = if upper {
                x.triu::<Rows, Cols>(d)
            } else {
                x.tril::<Rows, Cols>(d)
            };
            check(&got, want, 0.0);
        }
    }
}

#[test]
fn cumsum_by_name() {
    let c = &cases();
    let x = tensor::<f32, shape![Rows: 3, Mid: 2, Cols: 4]>(&c["cumsum"]["x"]);
    let outs = c["cumsum"]["out"].as_array().unwrap();
    check(&x.cumsum::<Rows>(), &outs[0], TOL);
    check(&x.cumsum::<Mid>(), &outs[1], TOL);
    check(&x.cumsum::<Cols>(), &outs[2], TOL);
    let ints = tensor::<i32, shape![Rows: 3, Cols: 4]>(&c["cumsum_int"]["x"]);
    let sums: Tensor<i64, shape![Rows: 3, Cols: 4]> = ints.cumsum::<Cols>();
    check(&sums, &c["cumsum_int"]["out"], 0.0);
}

#[test]
fn pad_in_four_modes() {
    let c = &cases()["pad"];
    let x = tensor::<f32, shape![Batch: 2, Mid: 3, Cols: 5]>(&c["x"]);
    let last = |m: &str| &c["last"][m];
    let y: Tensor<f32, shape![Batch: 2, Mid: 3, Cols: 8]> = x.pad::<Cols, 1, 2>(Pad::Constant(0.5));
    check(&y, last("constant"), 0.0);
    check(&x.pad::<Cols, 1, 2>(Pad::Reflect), last("reflect"), 0.0);
    check(&x.pad::<Cols, 1, 2>(Pad::Replicate), last("replicate"), 0.0);
    check(&x.pad::<Cols, 1, 2>(Pad::Circular), last("circular"), 0.0);
    let middle = |m: &str| &c["middle"][m];
    let y: Tensor<f32, shape![Batch: 2, Mid: 6, Cols: 5]> = x.pad::<Mid, 2, 1>(Pad::Constant(-1.0));
    check(&y, middle("constant"), 0.0);
    check(&x.pad::<Mid, 2, 1>(Pad::Reflect), middle("reflect"), 0.0);
    check(
        &x.pad::<Mid, 2, 1>(Pad::Replicate),
        middle("replicate"),
        0.0,
    );
    check(&x.pad::<Mid, 2, 1>(Pad::Circular), middle("circular"), 0.0);
    check(
        &x.pad_by::<Mid>(2, 1, Pad::Circular),
        middle("circular"),
        0.0,
    );
    let e = x.try_pad::<Mid, 3, 0>(Pad::Reflect).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("pad: {}", c["reflect_too_long"]["err"].as_str().unwrap())
    );
}

#[test]
fn topk_values_and_indices() {
    let c = &cases()["topk"];
    let x = tensor::<f32, shape![Rows: 4, Cols: 7]>(&c["x"]);
    let (v, i) = x.topk::<Cols, 3>(true, true);
    check(&v, &c["largest"][0], 0.0);
    check(&i, &c["largest"][1], 0.0);
    let (v, i) = x.topk::<Cols, 3>(false, true);
    check(&v, &c["smallest"][0], 0.0);
    check(&i, &c["smallest"][1], 0.0);
    let (v, i): (Tensor<f32, shape![Rows: 2, Cols: 7]>, _) = x.topk::<Rows, 2>(true, true);
    check(&v, &c["by_rows"][0], 0.0);
    check(&i, &c["by_rows"][1], 0.0);
}

#[test]
fn where_of_three_operands() {
    let c = &cases()["where"];
    let cond = tensor::<u8, shape![Rows: 3, 1]>(&c["cond"]).gt(0);
    let a = tensor::<f32, shape![1, Cols: 4]>(&c["a"]);
    let b = tensor::<f32, shape![Rows: 3, Cols: 4]>(&c["b"]);
    let got: Tensor<f32, shape![Rows: 3, Cols: 4]> = cond.if_else(&a, &b);
    check(&got, &c["out"], 0.0);
}

#[test]
fn windows_of_a_static_size() {
    let c = &cases()["unfold"];
    let x = tensor::<f32, shape![Rows: 2, Cols: 9]>(&c["x"]);
    let w: TensorBase<f32, shape![Rows: 2, Cols: 4, Window: 3], Cpu, _> =
        x.as_view().unfold_windows::<Cols, Window, 3, 2>();
    check(&w, &c["out"], 0.0);
}

#[test]
fn attention_with_every_mask() {
    let c = &cases()["attention"];
    let q = tensor::<f32, shape![Heads: 2, Seq: 3, Head: 4]>(&c["q"]);
    let k = tensor::<f32, shape![Heads: 2, Key: 5, Head: 4]>(&c["k"]);
    let v = tensor::<f32, shape![Heads: 2, Key: 5, Value: 6]>(&c["v"]);
    let plain: Tensor<f32, shape![Heads: 2, Seq: 3, Value: 6]> =
        q.scaled_dot_product_attention(&k, &v, Attention::default());
    check(&plain, &c["plain"], 1e-5);
    let causal = Attention {
        is_causal: true,
        ..Attention::default()
    };
    check(
        &q.scaled_dot_product_attention(&k, &v, causal),
        &c["causal"],
        1e-5,
    );
    let keep = tensor::<u8, shape![Seq: 3, Key: 5]>(&c["bool_mask"]).gt(0);
    check(
        &q.scaled_dot_product_attention_masked(&k, &v, &keep, Attention::default()),
        &c["bool"],
        1e-5,
    );
    let bias = tensor::<f32, shape![Seq: 3, Key: 5]>(&c["float_mask"]);
    check(
        &q.scaled_dot_product_attention_masked(&k, &v, &bias, Attention::default()),
        &c["float"],
        1e-5,
    );
    let scaled = Attention {
        scale: Some(0.5),
        ..Attention::default()
    };
    check(
        &q.scaled_dot_product_attention(&k, &v, scaled),
        &c["scaled"],
        1e-5,
    );
    let both = Attention {
        is_causal: true,
        scale: None,
    };
    let e = q
        .try_scaled_dot_product_attention_masked(&k, &v, &keep, both)
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("Explicit attn_mask should not be set when is_causal=True")
    );
}

#[test]
fn mse_loss_in_each_reduction() {
    let c = &cases()["mse_loss"];
    let x = tensor::<f32, shape![Rows: 3, Cols: 4]>(&c["x"]);
    let y = tensor::<f32, shape![Rows: 3, Cols: 4]>(&c["y"]);
    check(&x.mse_loss(&y, Unreduced), &c["out"]["none"], TOL);
    check(&x.mse_loss(&y, Mean), &c["out"]["mean"], TOL);
    check(&x.mse_loss(&y, Sum), &c["out"]["sum"], TOL);
}

/// Each reduction's name in the oracle's keys.
fn name<Red: Reduction>() -> &'static str {
    Red::KIND.name()
}

fn cross_entropy_in<Red: Reduction + Copy>(c: &Json, red: Red)
where
    Red::Output<shape![Batch: 2, Pos: 3]>: Shape,
{
    type Logits = shape![Batch: 2, Classes: 5, Pos: 3];
    let logits = tensor::<f32, Logits>(&c["logits"]);
    let target = tensor::<i64, shape![Batch: 2, Pos: 3]>(&c["target"]);
    let weight = tensor::<f32, shape![Classes: 5]>(&c["weight"]);
    let probs = tensor::<f32, Logits>(&c["probs"]);
    let out = |key: &str| &c["out"][format!("{key}_{}", name::<Red>())];
    let plain = CrossEntropy::default();
    let smoothed = CrossEntropy {
        label_smoothing: 0.1,
        ..plain
    };
    check(
        &logits.cross_entropy::<Classes, _>(&target, red, plain),
        out("plain"),
        1e-5,
    );
    let weighted = logits
        .try_cross_entropy_weighted::<Classes, _>(&target, weight.as_view(), red, plain)
        .unwrap();
    check(&weighted, out("weighted"), 1e-5);
    let weighted = logits
        .try_cross_entropy_weighted::<Classes, _>(&target, weight.as_view(), red, smoothed)
        .unwrap();
    check(&weighted, out("smoothed"), 1e-5);
    let soft = CrossEntropy {
        label_smoothing: 0.2,
        ..plain
    };
    let p = logits
        .try_cross_entropy_probs::<Classes, _>(&probs, red, soft)
        .unwrap();
    check(&p, out("probs"), 1e-5);
    let p = logits
        .try_cross_entropy_probs_weighted::<Classes, _>(&probs, weight.as_view(), red, plain)
        .unwrap();
    check(&p, out("probs_weighted"), 1e-5);
}

#[test]
fn cross_entropy_with_pytorch_options() {
    let c = &cases()["cross_entropy"];
    cross_entropy_in(c, Unreduced);
    cross_entropy_in(c, Mean);
    cross_entropy_in(c, Sum);
    let logits = tensor::<f32, shape![Batch: 2, Classes: 5, Pos: 3]>(&c["logits"]);
    let mut bad = tensor::<i64, shape![Batch: 2, Pos: 3]>(&c["target"]);
    bad.set([1, 2], 5);
    let e = logits
        .try_cross_entropy::<Classes, _>(&bad, Mean, CrossEntropy::default())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "cross_entropy: {}",
            c["out_of_range"]["err"].as_str().unwrap()
        )
    );
}
