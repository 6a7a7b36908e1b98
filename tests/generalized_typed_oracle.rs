//! The typed quantized and sparse APIs against PyTorch: the cases of
//! `crates/axial-core/tests/data/{quantized,sparse}.json` (written by
//! `bench/generalized_cases.py` with torch 2.15) through the typed API —
//! `linear` and `linear_relu` (`torch.ops.quantized.linear_relu`) and the
//! quantized `matmul` (`torch.ops.quantized.matmul`) bit for bit, integers
//! quantized already per tensor and per channel
//! (`torch._make_per_channel_quantized_tensor`), hybrid sparse matrices.

use axial::prelude::*;
use axial::{PackedLinear, QType, QuantizedMatMul, WeightScheme};
use serde_json::Value;

axes!(Batch, In, Out, Rows, Inner, Cols, K, Entry);

type Outputs = shape![Batch: Dyn, Out: Dyn];
type Matrix = shape![Rows: Dyn, Cols: Dyn];
type RowsByK = shape![Rows: Dyn, K: Dyn];

fn cases(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/crates/axial-core/tests/data/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    all["cases"].as_array().unwrap().clone()
}

fn floats(v: &Value) -> Vec<f32> {
    match v {
        Value::Array(items) => items.iter().flat_map(floats).collect(),
        x => vec![x.as_f64().unwrap() as f32],
    }
}

fn f64s(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn ints(v: &Value) -> Vec<i64> {
    match v {
        Value::Array(items) => items.iter().flat_map(ints).collect(),
        x => vec![x.as_i64().unwrap()],
    }
}

fn size(c: &Value, key: &str) -> usize {
    c[key].as_u64().unwrap() as usize
}

fn widen<T: Copy + Into<i64>>(v: Vec<T>) -> Vec<i64> {
    v.into_iter().map(Into::into).collect()
}

#[test]
fn linear_and_linear_relu_match_pytorch_bit_for_bit() {
    let (mut plain, mut relu) = (0, 0);
    for (i, c) in cases("quantized").iter().enumerate() {
        if c["op"] != "linear" {
            continue;
        }
        let (m, k, n) = (size(c, "m"), size(c, "k"), size(c, "n"));
        let x = Tensor::<f32, shape![Batch: Dyn, In: Dyn]>::from_vec_dyn(floats(&c["x"]), [m, k]);
        let w = Tensor::<f32, shape![Out: Dyn, In: Dyn]>::from_vec_dyn(floats(&c["w"]), [n, k]);
        let qx = x.quantize_per_tensor::<QUInt8>(
            c["x_scale"].as_f64().unwrap(),
            c["x_zero_point"].as_i64().unwrap(),
        );
        let bias = (!c["bias"].is_null())
            .then(|| Tensor::<f32, shape![Out: Dyn]>::from_vec_dyn(floats(&c["bias"]), n));
        let w = if c["w_per_channel"].as_bool().unwrap() {
            let q = w.quantize_per_channel::<QInt8, Out>(
                &f64s(&c["w_scale"]),
                &ints(&c["w_zero_point"]),
            );
            assert_eq!(
                widen(q.int_repr().to_vec()),
                ints(&c["wq"]),
                "case {i}: weight"
            );
            packed(&q, bias.as_ref())
        } else {
            let q = w.quantize_per_tensor::<QInt8>(
                c["w_scale"].as_f64().unwrap(),
                c["w_zero_point"].as_i64().unwrap(),
            );
            assert_eq!(
                widen(q.int_repr().to_vec()),
                ints(&c["wq"]),
                "case {i}: weight"
            );
            packed(&q, bias.as_ref())
        };
        let (so, zo) = (
            c["out_scale"].as_f64().unwrap(),
            c["out_zero_point"].as_i64().unwrap(),
        );
        let y = if c["relu"].as_bool().unwrap() {
            relu += 1;
            qx.try_linear_relu(&w, so, zo).unwrap()
        } else {
            plain += 1;
            qx.try_linear(&w, so, zo).unwrap()
        };
        let _: &Quantized<QUInt8, Outputs> = &y;
        assert_eq!(
            widen(y.int_repr().to_vec()),
            ints(&c["int_repr"]),
            "case {i}: int_repr"
        );
    }
    assert!(
        plain >= 20 && relu >= 10,
        "{plain} linear, {relu} linear_relu cases"
    );
}

type Weight = shape![Out: Dyn, In: Dyn];

/// The weight packed, with its bias when the case has one.
fn packed<Sch: WeightScheme<Weight>>(
    q: &Quantized<QInt8, Weight, Sch>,
    bias: Option<&Tensor<f32, shape![Out: Dyn]>>,
) -> PackedLinear<Weight> {
    match bias {
        Some(b) => q.prepack_with_bias(b),
        None => q.prepack(),
    }
}

fn quantized_product<Q: QuantizedMatMul>(c: &Value) -> Vec<i64>
where
    Q::Repr: Into<i64>,
{
    let (m, k, n) = (size(c, "m"), size(c, "k"), size(c, "n"));
    let a = Tensor::<f32, shape![Rows: Dyn, Inner: Dyn]>::from_vec_dyn(floats(&c["a"]), [m, k]);
    let b = Tensor::<f32, shape![Inner: Dyn, Cols: Dyn]>::from_vec_dyn(floats(&c["b"]), [k, n]);
    let qa = a.quantize_per_tensor::<Q>(
        c["a_scale"].as_f64().unwrap(),
        c["a_zero_point"].as_i64().unwrap(),
    );
    let qb = b.quantize_per_tensor::<Q>(
        c["b_scale"].as_f64().unwrap(),
        c["b_zero_point"].as_i64().unwrap(),
    );
    let y: Quantized<Q, Matrix> = qa
        .try_matmul(
            &qb,
            c["out_scale"].as_f64().unwrap(),
            c["out_zero_point"].as_i64().unwrap(),
        )
        .unwrap();
    widen(y.int_repr().to_vec())
}

#[test]
fn quantized_matmul_matches_pytorch_bit_for_bit() {
    let mut checked = 0;
    for (i, c) in cases("quantized").iter().enumerate() {
        if c["op"] != "matmul" {
            continue;
        }
        let got = match c["dtype"].as_str().unwrap() {
            "quint8" => quantized_product::<QUInt8>(c),
            _ => quantized_product::<QInt8>(c),
        };
        assert_eq!(got, ints(&c["int_repr"]), "case {i}");
        checked += 1;
    }
    assert!(checked >= 15, "{checked} cases");
}

fn from_ints<Q: QType>(c: &Value, make: impl Fn(i64) -> Q::Repr) -> Vec<f32> {
    let shape: Vec<usize> = ints(&c["shape"]).into_iter().map(|v| v as usize).collect();
    let values: Vec<Q::Repr> = ints(&c["ints"]).into_iter().map(make).collect();
    let [rows, cols] = [shape[0], shape[1]];
    let t = Tensor::<Q::Repr, shape![Rows: Dyn, Cols: Dyn]>::from_vec_dyn(values, [rows, cols]);
    if c["op"] == "from_int_repr" {
        let q = Quantized::<Q, _>::try_from_int_repr(
            t,
            c["scale"].as_f64().unwrap(),
            c["zero_point"].as_i64().unwrap(),
        );
        return q.unwrap().dequantize().to_vec();
    }
    let (scales, zps) = (f64s(&c["scales"]), ints(&c["zero_points"]));
    match c["axis"].as_u64().unwrap() {
        0 => Quantized::<Q, _, PerChannel<Rows>>::try_from_int_repr_per_channel(t, &scales, &zps)
            .unwrap()
            .dequantize()
            .to_vec(),
        _ => Quantized::<Q, _, PerChannel<Cols>>::try_from_int_repr_per_channel(t, &scales, &zps)
            .unwrap()
            .dequantize()
            .to_vec(),
    }
}

#[test]
fn integers_quantized_already_by_name_match_pytorch() {
    let mut checked = 0;
    for (i, c) in cases("quantized").iter().enumerate() {
        let op = c["op"].as_str().unwrap();
        if !op.starts_with("from_int_repr") || ints(&c["shape"]).len() != 2 {
            continue;
        }
        let got = match c["dtype"].as_str().unwrap() {
            "quint8" => from_ints::<QUInt8>(c, |v| v as u8),
            "qint8" => from_ints::<QInt8>(c, |v| v as i8),
            _ => from_ints::<QInt32>(c, |v| v as i32),
        };
        // Where PyTorch's per-tensor qint32 wraps, "dequantize" is the exact value.
        assert_eq!(got, floats(&c["dequantize"]), "case {i}: {op}");
        checked += 1;
    }
    assert!(checked >= 15, "{checked} cases");
}

type RowSparse = SparseCoo<f32, shape![Rows: Dyn], shape![Cols: Dyn]>;

#[test]
fn hybrid_sparse_matrices_match_pytorch() {
    let mut checked = 0;
    for (i, c) in cases("sparse").iter().enumerate() {
        if c["op"] != "hybrid_mm" {
            continue;
        }
        let sizes: Vec<usize> = ints(&c["size"]).into_iter().map(|v| v as usize).collect();
        let rows: Vec<[i64; 1]> = ints(&c["indices"]).into_iter().map(|r| [r]).collect();
        let values = Tensor::<f32, shape![Entry: Dyn, Cols: Dyn]>::from_vec_dyn(
            floats(&c["values"]),
            [rows.len(), sizes[1]],
        );
        let s = RowSparse::try_with_sizes(&rows, &values, [sizes[0]]).unwrap();
        let dense: Tensor<f32, Matrix> = s.to_dense();
        assert_eq!(dense.to_vec(), floats(&c["to_dense"]), "case {i}: to_dense");
        assert_eq!(
            s.coalesce()
                .as_core()
                .values()
                .unwrap()
                .to_vec::<f32>()
                .unwrap(),
            floats(&c["coalesced_values"]),
            "case {i}: coalesce"
        );
        let back = RowSparse::try_from_dense(&dense).unwrap();
        assert_eq!(
            back.to_dense().to_vec(),
            dense.to_vec(),
            "case {i}: from_dense"
        );
        let d = floats(&c["dense"]);
        let shape = ints(&c["dense_shape"]);
        let y = if shape.len() == 1 {
            let v = Tensor::<f32, shape![Cols: Dyn]>::from_vec_dyn(d, sizes[1]);
            let y: Tensor<f32, shape![Rows: Dyn]> = s.matmul(&v);
            y.to_vec()
        } else {
            let m = Tensor::<f32, shape![Cols: Dyn, K: Dyn]>::from_vec_dyn(
                d,
                [sizes[1], shape[1] as usize],
            );
            let y: Tensor<f32, RowsByK> = s.matmul(&m);
            y.to_vec()
        };
        assert_eq!(y, floats(&c["out"]), "case {i}: s @ d");
        checked += 1;
    }
    assert!(checked >= 50, "{checked} cases");
    // A Dyn contracted size that differs is an error; an index past its axis too.
    let values = Tensor::<f32, shape![Entry: 1, Cols: Dyn]>::from_vec_dyn(vec![1.0, 2.0], 2);
    let s = RowSparse::try_with_sizes(&[[0]], &values, [2]).unwrap();
    let wrong = Tensor::<f32, shape![Cols: Dyn, K: 1]>::from_vec_dyn(vec![1.0; 3], 3);
    assert!(s.try_matmul(&wrong).is_err());
    assert!(RowSparse::try_with_sizes(&[[2]], &values, [2]).is_err());
    // Only the sparse axes transpose (a dense one does not compile).
    type Grid = SparseCoo<f32, shape![Rows: 2, Cols: 2], shape![K: 2]>;
    let blocks = Tensor::<f32, shape![Entry: 1, K: 2]>::from_array([[1.0, 2.0]]);
    let g = Grid::from_entries(&[[0, 1]], &blocks);
    let t = g.transpose::<Rows, Cols>();
    assert_eq!(
        t.to_dense().to_vec(),
        vec![0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0]
    );
}
