//! Nested (jagged) tensors against PyTorch: every case of
//! `tests/data/nested.json` (offsets, to_padded, reductions and softmax over
//! the ragged dim and the last dim, matmul with a dense weight, elementwise
//! ops) replayed; what PyTorch gets wrong silently is an `Err`.

mod cases;

use axial_core::nested::NestedTensor;
use axial_core::{ArgReduceOp, BinaryOp, Cpu, DType, RawTensor, ReduceOp, Scalar, UnaryOp};
use cases::{assert_close, assert_message, f32s, i64s, load, usizes};
use serde_json::Value;

fn nested(c: &Value) -> NestedTensor {
    let rest = usizes(&c["rest"]);
    let lengths = usizes(&c["lengths"]);
    let items: Vec<RawTensor> = c["items"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&lengths)
        .map(|(v, &l)| {
            let mut shape = vec![l];
            shape.extend_from_slice(&rest);
            RawTensor::from_vec(f32s(v), &shape).unwrap()
        })
        .collect();
    let views: Vec<_> = items.iter().map(RawTensor::view).collect();
    NestedTensor::from_tensors(&views).unwrap()
}

fn values(n: &NestedTensor) -> Vec<f32> {
    n.values().to_vec::<f32>().unwrap()
}

#[test]
fn nested_ops_match_pytorch() {
    let all: Vec<Value> = load("nested")
        .into_iter()
        .filter(|c| c["op"] == "nested")
        .collect();
    assert!(all.len() >= 200, "{} cases", all.len());
    for (i, c) in all.iter().enumerate() {
        let what = |op: &str| format!("case {i}: {op}");
        let n = nested(c);
        let offsets: Vec<i64> = n.offsets().iter().map(|&o| o as i64).collect();
        assert_eq!(offsets, i64s(&c["offsets"]), "{}", what("offsets"));
        let pad = c["pad"].as_f64().unwrap();
        let p = n.to_padded(Scalar::Float(pad), None).unwrap();
        assert_eq!(
            p.shape(),
            usizes(&c["padded_shape"]).as_slice(),
            "{}",
            what("padded shape")
        );
        assert_eq!(
            p.to_vec::<f32>().unwrap(),
            f32s(&c["padded"]),
            "{}",
            what("to_padded")
        );
        // And back: the items cut out of the padded batch.
        let back = NestedTensor::from_padded(&p.view(), &n.lengths()).unwrap();
        assert_eq!(values(&back), values(&n), "{}", what("from_padded"));
        if c.get("sum").is_none() {
            continue;
        }
        let ragged = |op| n.reduce_ragged(op).unwrap().to_vec::<f32>().unwrap();
        assert_close(
            &ragged(ReduceOp::Sum),
            &f32s(&c["sum"]),
            1e-6,
            &what("sum(dim=1)"),
        );
        assert_close(
            &ragged(ReduceOp::Mean),
            &f32s(&c["mean"]),
            1e-6,
            &what("mean(dim=1)"),
        );
        if let Some(amax) = c.get("amax") {
            assert_eq!(ragged(ReduceOp::Max), f32s(amax), "{}", what("amax(dim=1)"));
            let arg = n.arg_reduce_ragged(ArgReduceOp::ArgMax).unwrap();
            assert_eq!(
                arg.to_vec::<i64>().unwrap(),
                i64s(&c["argmax"]),
                "{}",
                what("max(dim=1).indices")
            );
        } else {
            // An empty item: PyTorch gives -FLT_MAX, a value no item holds;
            // axial refuses unless asked for it.
            assert!(
                n.reduce_ragged(ReduceOp::Max).is_err(),
                "{}",
                what("amax of an empty item")
            );
            let asked = n
                .reduce_ragged_or(ReduceOp::Max, Scalar::Float(f32::MIN as f64))
                .unwrap();
            assert_eq!(
                asked.to_vec::<f32>().unwrap(),
                f32s(&c["amax_pytorch_unsafe"]),
                "{}",
                what("amax_or(-FLT_MAX)")
            );
        }
        let sm = n.softmax(1).unwrap();
        assert_eq!(sm.offsets(), n.offsets());
        assert_close(
            &values(&sm),
            &f32s(&c["softmax"]),
            2e-6,
            &what("softmax(dim=1)"),
        );
        assert_close(
            &values(&n.softmax(-1).unwrap()),
            &f32s(&c["softmax_last"]),
            2e-6,
            &what("softmax(dim=-1)"),
        );
        let s = n.reduce(ReduceOp::Sum, &[-1], false).unwrap();
        assert_close(
            &values(&s),
            &f32s(&c["sum_last"]),
            1e-6,
            &what("sum(dim=-1)"),
        );
        let w = RawTensor::from_vec(f32s(&c["weight"]), &usizes(&c["weight_shape"])).unwrap();
        let y = n.matmul(&w.view()).unwrap();
        assert_close(&values(&y), &f32s(&c["matmul"]), 1e-5, &what("nj @ W"));
        let row = f32s(&c["row"]);
        let row = RawTensor::from_vec(row.clone(), &[row.len()]).unwrap();
        let plus = n.binary_dense(BinaryOp::Add, &row.view()).unwrap();
        assert_eq!(values(&plus), f32s(&c["plus_row"]), "{}", what("nj + row"));
        assert_eq!(
            values(&n.unary(UnaryOp::Relu).unwrap()),
            f32s(&c["relu"]),
            "{}",
            what("relu")
        );
        assert_eq!(
            values(&n.binary(BinaryOp::Mul, &n).unwrap()),
            f32s(&c["times_self"]),
            "{}",
            what("nj * nj")
        );
    }
}

#[test]
fn errors_match_pytorch_and_unsafe_corners_are_refused() {
    let errors = [
        "nested_error",
        "nested_reduce_error",
        "nested_softmax_error",
        "nested_padded_truncates",
    ];
    for c in load("nested")
        .into_iter()
        .filter(|c| errors.contains(&c["op"].as_str().unwrap()))
    {
        let a = RawTensor::full_on(&Cpu, &[2, 3], Scalar::Float(1.0), DType::F32).unwrap();
        let b = RawTensor::full_on(&Cpu, &[4, 3], Scalar::Float(1.0), DType::F32).unwrap();
        let nj = NestedTensor::from_tensors(&[a.view(), b.view()]).unwrap();
        match c["op"].as_str().unwrap() {
            "nested_error" => {
                let items: Vec<RawTensor> = c["shapes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| {
                        RawTensor::full_on(&Cpu, &usizes(s), Scalar::Float(1.0), DType::F32)
                            .unwrap()
                    })
                    .collect();
                let views: Vec<_> = items.iter().map(RawTensor::view).collect();
                let e = NestedTensor::from_tensors(&views).expect_err("refused");
                assert_message(&e, c["error"].as_str().unwrap());
            }
            "nested_reduce_error" => {
                let e = nj.reduce(ReduceOp::Sum, &[0], false).expect_err("refused");
                assert_message(&e, c["error"].as_str().unwrap());
            }
            "nested_softmax_error" => {
                assert_message(
                    &nj.softmax(0).expect_err("refused"),
                    c["error"].as_str().unwrap(),
                );
            }
            "nested_padded_truncates" => {
                let size = usizes(&c["output_size"]);
                assert_eq!(
                    usizes(&c["pytorch_unsafe"]),
                    size,
                    "PyTorch truncates to the size asked"
                );
                assert!(nj.to_padded(Scalar::Float(0.0), Some(&size)).is_err());
                let bigger = nj.to_padded(Scalar::Float(0.0), Some(&[2, 5, 3])).unwrap();
                assert_eq!(bigger.shape(), &[2, 5, 3]);
            }
            op => panic!("unknown case {op}"),
        }
    }
}

#[test]
fn the_worked_example() {
    let t = |a: f64, b: f64, rows: usize| {
        RawTensor::arange(a, b, 1.0, DType::F32)
            .unwrap()
            .view()
            .view(&[rows as isize, 3])
            .unwrap()
            .to_contiguous()
            .unwrap()
    };
    let (a, b, c) = (t(0.0, 6.0, 2), t(6.0, 18.0, 4), t(18.0, 21.0, 1));
    let nj = NestedTensor::from_tensors(&[a.view(), b.view(), c.view()]).unwrap();
    assert_eq!(
        nj.to_string(),
        "NestedTensor(size=(3, j1, 3), offsets=tensor([0, 2, 6, 7]), contiguous=True)"
    );
    assert_eq!(
        (nj.dim(), nj.numel(), nj.values().shape()),
        (3, 21, &[7, 3][..])
    );
    // unbind: views into values at byte offsets 0, 24, 72.
    let offsets: Vec<usize> = nj
        .unbind()
        .unwrap()
        .iter()
        .map(|v| v.offset() * 4)
        .collect();
    assert_eq!(offsets, vec![0, 24, 72]);
    assert!(nj.unbind().unwrap()[1].shares_storage_with(&nj.values()));
    // from_jagged shares values; bad offsets are refused (PyTorch accepts them).
    let v = RawTensor::arange(0.0, 24.0, 1.0, DType::F32).unwrap();
    let v = v.view().view(&[8, 3]).unwrap().to_contiguous().unwrap();
    let fj = NestedTensor::from_jagged(v, &[0, 3, 8]).unwrap();
    assert_eq!(fj.item_shapes(), vec![vec![3, 3], vec![5, 3]]);
    for bad in [&[0, 3, 9][..], &[0, 5, 3, 8], &[1, 8], &[0]] {
        let v = RawTensor::zeros(&[8, 3], DType::F32).unwrap();
        assert!(NestedTensor::from_jagged(v, bad).is_err(), "{bad:?}");
    }
    // An empty item: sum 0, mean NaN; amax refused (PyTorch: -FLT_MAX).
    let empty = RawTensor::zeros(&[0, 3], DType::F32).unwrap();
    let z = NestedTensor::from_tensors(&[empty.view(), b.view()]).unwrap();
    let sums = z
        .reduce_ragged(ReduceOp::Sum)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(&sums[..3], &[0.0, 0.0, 0.0]);
    assert!(
        z.reduce_ragged(ReduceOp::Mean)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()[0]
            .is_nan()
    );
    assert!(z.reduce_ragged(ReduceOp::Max).is_err());
    assert_eq!(z.softmax(1).unwrap().values().shape(), &[4, 3]);
    // Per-item dense operands, and shapes that do not go together.
    let per_item = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3, 1, 1]).unwrap();
    let y = nj.binary_dense(BinaryOp::Add, &per_item.view()).unwrap();
    assert_eq!(
        y.item(2).unwrap().to_vec::<f32>().unwrap(),
        vec![21.0, 22.0, 23.0]
    );
    let other = NestedTensor::from_tensors(&[b.view(), a.view(), c.view()]).unwrap();
    let e = nj.binary(BinaryOp::Add, &other).unwrap_err();
    assert_message(
        &e,
        "cannot call binary pointwise function add.Tensor with inputs of shapes (3, j1, 3) and (3, j2, 3)",
    );
    // f64, f16 and bf16 softmax over the ragged dim agree with f32.
    let want = nj.softmax(1).unwrap().values().to_vec::<f32>().unwrap();
    for dtype in [DType::F64, DType::F16, DType::BF16] {
        let v = nj.values().to_dtype(dtype).unwrap();
        let n = NestedTensor::from_jagged(v, &[0, 2, 6, 7]).unwrap();
        let got = n
            .softmax(1)
            .unwrap()
            .values()
            .to_dtype(DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        let tol = if dtype == DType::F64 { 1e-6 } else { 1e-2 };
        assert_close(&got, &want, tol, &format!("{dtype}"));
    }
}

/// Softmax over the ragged dim gives, item by item, the bits of the dense
/// softmax of that item along its first dim: every float dtype, rows of one
/// element and of many, items empty, short and long (past the parallel
/// threshold), values with rows past the last offset (left 0).
#[test]
fn ragged_softmax_is_the_dense_softmax_of_each_item() {
    for inner in [1usize, 3, 40] {
        let lens = [0usize, 1, 5, 0, 17, 70_000 / inner, 2];
        let rows: usize = lens.iter().sum();
        let data: Vec<f32> = (0..(rows + 2) * inner)
            .map(|i| ((i * 7919 % 1013) as f32 - 506.0) / 37.0)
            .collect();
        let mut offsets = vec![0i64];
        for l in lens {
            offsets.push(offsets[offsets.len() - 1] + l as i64);
        }
        for dtype in [DType::F32, DType::F64, DType::F16, DType::BF16] {
            let values = RawTensor::from_vec(data.clone(), &[rows + 2, inner]).unwrap();
            let values = values.view().to_dtype(dtype).unwrap();
            let nj = NestedTensor::from_jagged(values.view().to_contiguous().unwrap(), &offsets)
                .unwrap();
            let got = nj.softmax(1).unwrap();
            let got = got.values();
            assert_eq!(got.dtype(), dtype);
            for (i, w) in offsets.windows(2).enumerate() {
                let (start, len) = (w[0] as isize, (w[1] - w[0]) as usize);
                let item = values.view().narrow(0, start, len).unwrap();
                let want = item.softmax(0).unwrap();
                let want = want.view().to_dtype(DType::F64).unwrap();
                let have = got.narrow(0, start, len).unwrap();
                let have = have.to_dtype(DType::F64).unwrap();
                assert_eq!(
                    have.to_vec::<f64>().unwrap(),
                    want.to_vec::<f64>().unwrap(),
                    "{dtype}, inner {inner}, item {i}"
                );
            }
            let tail = got.narrow(0, rows as isize, 2).unwrap();
            let tail = tail.to_dtype(DType::F64).unwrap().to_vec::<f64>().unwrap();
            assert!(
                tail.iter().all(|&x| x == 0.0),
                "{dtype}: rows past the offsets"
            );
        }
    }
}
