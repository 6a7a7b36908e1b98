//! Sparse COO and CSR against PyTorch: every case of `tests/data/sparse.json`
//! (coalesce, to/from dense, COO ↔ CSR, transpose, sparse + sparse with
//! PyTorch's merge, scalar products, sparse × dense) replayed; the indices
//! PyTorch accepts unchecked are refused with its checked message.

mod cases;

use axial_core::sparse::{SparseCoo, SparseCsr, dense_matmul};
use axial_core::{BinaryOp, DType, RawTensor, Scalar};
use cases::{assert_close, assert_message, f32s, i64s, load, usizes};
use serde_json::Value;

/// A COO tensor of `indices` (a `sparse_dim × nnz` nested list), values of
/// `values_shape` and size `size`.
fn coo(c: &Value, prefix: &str) -> SparseCoo {
    let key = |k: &str| format!("{prefix}{k}");
    let size = usizes(&c["size"]);
    let idx = &c[key("indices")];
    let sd = idx.as_array().unwrap().len();
    let flat = i64s(idx);
    let nnz = flat.len().checked_div(sd).unwrap_or(0);
    let vshape = match c.get(key("values_shape")) {
        Some(v) => usizes(v),
        None => vec![nnz],
    };
    let indices = RawTensor::from_vec(flat, &[sd, nnz]).unwrap();
    let values = RawTensor::from_vec(f32s(&c[key("values")]), &vshape).unwrap();
    let s = SparseCoo::new(indices, values, &size).unwrap();
    if c.get(key("coalesced")).and_then(Value::as_bool) == Some(true) {
        s.assume_coalesced().unwrap()
    } else {
        s
    }
}

fn cases(op: &str) -> Vec<Value> {
    load("sparse")
        .into_iter()
        .filter(|c| c["op"] == op)
        .collect()
}

fn values(s: &SparseCoo) -> Vec<f32> {
    s.raw_values().to_vec::<f32>().unwrap()
}

fn indices(s: &SparseCoo) -> Vec<i64> {
    s.raw_indices().to_vec::<i64>().unwrap()
}

#[test]
fn structure_matches_pytorch() {
    let all = cases("structure");
    assert!(all.len() >= 50);
    for (i, c) in all.iter().enumerate() {
        let s = coo(c, "");
        assert_eq!(s.nnz() as u64, c["nnz"].as_u64().unwrap(), "case {i}: nnz");
        assert_eq!(
            s.is_coalesced(),
            c["is_coalesced"].as_bool().unwrap(),
            "case {i}: flag"
        );
        let co = s.coalesce().unwrap();
        assert!(co.is_coalesced());
        assert_eq!(
            indices(&co),
            i64s(&c["coalesced_indices"]),
            "case {i}: coalesced indices"
        );
        assert_eq!(
            values(&co),
            f32s(&c["coalesced_values"]),
            "case {i}: coalesced values"
        );
        let dense = s.to_dense().unwrap();
        assert_eq!(
            dense.to_vec::<f32>().unwrap(),
            f32s(&c["dense"]),
            "case {i}: to_dense"
        );
        if let Some(crow) = c.get("crow") {
            let csr = s.to_csr().unwrap();
            assert_eq!(
                csr.crow_indices().to_vec::<i64>().unwrap(),
                i64s(crow),
                "case {i}: crow"
            );
            assert_eq!(
                csr.col_indices().to_vec::<i64>().unwrap(),
                i64s(&c["col"]),
                "case {i}: col"
            );
            assert_eq!(
                csr.values().to_vec::<f32>().unwrap(),
                f32s(&c["csr_values"]),
                "case {i}: csr values"
            );
            assert_eq!(
                csr.to_dense().unwrap().to_vec::<f32>().unwrap(),
                f32s(&c["dense"])
            );
            // CSR → COO → dense round-trips, and from the dense matrix too.
            assert_eq!(
                csr.to_coo()
                    .unwrap()
                    .to_dense()
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap(),
                f32s(&c["dense"])
            );
            let again = SparseCsr::from_dense(&dense.view()).unwrap();
            assert_eq!(
                again.to_dense().unwrap().to_vec::<f32>().unwrap(),
                f32s(&c["dense"])
            );
            let t = s.t().unwrap();
            assert_eq!(indices(&t), i64s(&c["t_indices"]), "case {i}: t()");
            assert_eq!(
                t.is_coalesced(),
                c["t_coalesced"].as_bool().unwrap(),
                "case {i}: t() flag"
            );
            let want_t = dense.view().t().unwrap().to_vec::<f32>().unwrap();
            assert_eq!(
                csr.t()
                    .unwrap()
                    .to_dense()
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap(),
                want_t
            );
        }
    }
}

#[test]
fn add_is_pytorch_merge() {
    let all = cases("add");
    assert!(all.len() >= 50);
    for (i, c) in all.iter().enumerate() {
        let (a, b) = (coo(c, "a_"), coo(c, "b_"));
        assert_eq!(
            a.is_coalesced(),
            c["a_coalesced"].as_bool().unwrap(),
            "case {i}: a flag"
        );
        let r = a.add(&b).unwrap();
        assert_eq!(indices(&r), i64s(&c["indices"]), "case {i}: indices");
        assert_eq!(values(&r), f32s(&c["values"]), "case {i}: values");
        assert_eq!(
            r.is_coalesced(),
            c["is_coalesced"].as_bool().unwrap(),
            "case {i}: flag"
        );
        assert_eq!(
            r.to_dense().unwrap().to_vec::<f32>().unwrap(),
            f32s(&c["dense"]),
            "case {i}: dense"
        );
    }
}

#[test]
fn products_with_a_dense_matrix_match_pytorch() {
    let all = cases("mm");
    assert!(all.len() >= 50);
    for (i, c) in all.iter().enumerate() {
        let s = coo(c, "");
        let d = RawTensor::from_vec(f32s(&c["dense"]), &usizes(&c["dense_shape"])).unwrap();
        let y = s.matmul(&d.view()).unwrap();
        assert_close(
            &y.to_vec::<f32>().unwrap(),
            &f32s(&c["out"]),
            1e-6,
            &format!("case {i}: coo @ dense"),
        );
        let y = s.to_csr().unwrap().matmul(&d.view()).unwrap();
        assert_close(
            &y.to_vec::<f32>().unwrap(),
            &f32s(&c["out_csr"]),
            1e-6,
            &format!("case {i}: csr @ dense"),
        );
        // A transposed (strided) dense operand gives the same product.
        if d.shape().len() == 2 {
            let dt = d.view().t().unwrap().to_contiguous().unwrap();
            let y2 = s.matmul(&dt.view().t().unwrap()).unwrap();
            assert_eq!(
                y2.to_vec::<f32>().unwrap(),
                s.matmul(&d.view()).unwrap().to_vec::<f32>().unwrap()
            );
        }
    }
}

#[test]
fn to_sparse_keeps_the_non_zeros() {
    for (i, c) in cases("to_sparse").iter().enumerate() {
        let x = RawTensor::from_vec(f32s(&c["x"]), &usizes(&c["shape"])).unwrap();
        let s =
            SparseCoo::from_dense(&x.view(), c["sparse_dim"].as_u64().unwrap() as usize).unwrap();
        assert_eq!(
            s.indices().unwrap().to_vec::<i64>().unwrap(),
            i64s(&c["indices"]),
            "case {i}"
        );
        assert_eq!(
            s.values().unwrap().to_vec::<f32>().unwrap(),
            f32s(&c["values"]),
            "case {i}"
        );
        assert_eq!(
            s.values().unwrap().shape(),
            usizes(&c["values_shape"]).as_slice()
        );
        assert_eq!(
            s.to_dense().unwrap().to_vec::<f32>().unwrap(),
            x.to_vec::<f32>().unwrap()
        );
    }
}

#[test]
fn scalar_products_keep_the_structure() {
    for (i, c) in cases("scalar").iter().enumerate() {
        let s = coo(c, "");
        let r = s
            .scalar(BinaryOp::Mul, Scalar::Float(c["scalar"].as_f64().unwrap()))
            .unwrap();
        assert_eq!(values(&r), f32s(&c["out_values"]), "case {i}");
        assert_eq!(r.is_coalesced(), c["is_coalesced"].as_bool().unwrap());
        assert_eq!(indices(&r), indices(&s));
    }
}

#[test]
fn indices_pytorch_accepts_unchecked_are_errors() {
    let all = cases("invalid");
    assert!(all.len() >= 10);
    for (i, c) in all.iter().enumerate() {
        assert!(
            c["pytorch_accepts_unchecked"].as_bool().unwrap(),
            "case {i}"
        );
        let flat = i64s(&c["indices"]);
        let nnz = flat.len() / 2;
        let indices = RawTensor::from_vec(flat, &[2, nnz]).unwrap();
        let values = RawTensor::from_vec(f32s(&c["values"]), &[nnz]).unwrap();
        let e = SparseCoo::new(indices, values, &usizes(&c["size"])).expect_err("refused");
        assert_message(&e, c["error"].as_str().unwrap());
    }
    for (i, c) in cases("csr_invalid").iter().enumerate() {
        let t = |k: &str| {
            let v = i64s(&c[k]);
            RawTensor::from_vec(v.clone(), &[v.len()]).unwrap()
        };
        let vals = f32s(&c["values"]);
        let values = RawTensor::from_vec(vals.clone(), &[vals.len()]).unwrap();
        let e = SparseCsr::with_size(t("crow"), t("col"), values, &usizes(&c["size"]))
            .err()
            .unwrap_or_else(|| panic!("csr case {i}: accepted"));
        assert_message(&e, c["error"].as_str().unwrap());
    }
}

#[test]
fn the_chapter_matrix() {
    let i = RawTensor::from_vec(vec![0i64, 1, 2, 2, 0, 1], &[2, 3]).unwrap();
    let v = RawTensor::from_vec(vec![3.0f32, 4.0, 5.0], &[3]).unwrap();
    let s = SparseCoo::new(i, v, &[1000, 1000]).unwrap();
    assert!(!s.is_coalesced()); // nnz 3, although sorted
    assert_eq!(
        (s.nnz(), s.sparse_dim(), s.dense_dim(), s.nbytes()),
        (3, 2, 0, 60)
    );
    let d = s.to_dense().unwrap();
    assert_eq!(
        (d.shape(), d.strides()),
        (&[1000, 1000][..], &[1000, 1][..])
    );
    assert_eq!(s.sum().unwrap().to_vec::<f32>().unwrap(), vec![12.0]);
    let c = s.to_csr().unwrap();
    assert_eq!(c.nbytes(), 8044);
    assert_eq!(
        &c.crow_indices().to_vec::<i64>().unwrap()[..5],
        &[0, 1, 2, 3, 3]
    );
    assert_eq!(c.col_indices().to_vec::<i64>().unwrap(), vec![2, 0, 1]);
    assert!(s.indices().is_err());
}

#[test]
fn dense_times_sparse_and_errors() {
    let i = RawTensor::from_vec(vec![1i64, 0, 1, 0, 2, 0, 2, 0, 2, 2], &[2, 5]).unwrap();
    let v = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0], &[5]).unwrap();
    let u = SparseCoo::new(i, v, &[3, 3]).unwrap();
    let d = RawTensor::arange(0.0, 6.0, 1.0, DType::F32).unwrap();
    let dt = d.view().view(&[3, 2]).unwrap().t().unwrap();
    assert_eq!(
        dense_matmul(&dt, &u).unwrap().to_vec::<f32>().unwrap(),
        vec![8.0, 0.0, 20.0, 12.0, 0.0, 31.0]
    );
    let vec3 = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
    assert_eq!(
        u.matmul(&vec3.view()).unwrap().to_vec::<f32>().unwrap(),
        vec![18.0, 4.0, 15.0]
    );
    let e = u
        .matmul(&RawTensor::zeros(&[3, 2], DType::F64).unwrap().view())
        .err()
        .unwrap();
    assert_message(&e, "expected scalar type Float but found Double");
    let e = u
        .matmul(&RawTensor::zeros(&[4, 2], DType::F32).unwrap().view())
        .err()
        .unwrap();
    assert_message(
        &e,
        "mat1 and mat2 shapes cannot be multiplied (3x3 and 4x2)",
    );
    let other =
        SparseCoo::from_dense(&RawTensor::zeros(&[2, 2], DType::F32).unwrap().view(), 2).unwrap();
    assert_message(
        &u.add(&other).unwrap_err(),
        "expected sizes of 'self' and 'other' to match, but [3, 3] != [2, 2]",
    );
    assert!(u.scalar(BinaryOp::Add, Scalar::Int(1)).is_err());
    // Integer and half values multiply too (PyTorch's CSR product has f32/f64 only).
    let ints = SparseCoo::from_dense(
        &RawTensor::from_vec(vec![0i64, 2, 3, 0], &[2, 2])
            .unwrap()
            .view(),
        2,
    )
    .unwrap();
    let di = RawTensor::from_vec(vec![1i64, 2, 3, 4], &[2, 2]).unwrap();
    assert_eq!(
        ints.to_csr()
            .unwrap()
            .matmul(&di.view())
            .unwrap()
            .to_vec::<i64>()
            .unwrap(),
        vec![6, 8, 3, 6]
    );
}

#[test]
fn hybrid_matrices_times_dense_match_pytorch_dense_product() {
    let all = cases("hybrid_mm");
    assert!(all.len() >= 50, "{} cases", all.len());
    for (i, c) in all.iter().enumerate() {
        let size = usizes(&c["size"]);
        let idx = i64s(&c["indices"]);
        let nnz = idx.len();
        let s = SparseCoo::new(
            RawTensor::from_vec(idx, &[1, nnz]).unwrap(),
            RawTensor::from_vec(f32s(&c["values"]), &[nnz, size[1]]).unwrap(),
            &size,
        )
        .unwrap();
        assert_eq!((s.sparse_dim(), s.dense_dim()), (1, 1));
        assert_eq!(
            s.to_dense().unwrap().to_vec::<f32>().unwrap(),
            f32s(&c["to_dense"]),
            "case {i}: to_dense"
        );
        let co = s.coalesce().unwrap();
        assert_eq!(
            indices(&co),
            i64s(&c["coalesced_indices"]),
            "case {i}: coalesce"
        );
        assert_eq!(
            values(&co),
            f32s(&c["coalesced_values"]),
            "case {i}: coalesce"
        );
        // torch.sparse.mm refuses a hybrid matrix; the product is the dense
        // one's (integers: exact in any order).
        assert!(
            c["pytorch_refuses"].is_string(),
            "case {i}: PyTorch refuses it"
        );
        let d = RawTensor::from_vec(f32s(&c["dense"]), &usizes(&c["dense_shape"])).unwrap();
        let y = s.matmul(&d.view()).unwrap();
        assert_eq!(
            y.to_vec::<f32>().unwrap(),
            f32s(&c["out"]),
            "case {i}: s @ d"
        );
        // Dense and back.
        let back = SparseCoo::from_dense(&s.to_dense().unwrap().view(), 1).unwrap();
        assert_eq!(
            back.to_dense().unwrap().to_vec::<f32>().unwrap(),
            f32s(&c["to_dense"])
        );
    }
    // Other hybrids are refused: 2 sparse dims and 1 dense.
    let s = SparseCoo::new(
        RawTensor::from_vec(vec![0i64, 1], &[2, 1]).unwrap(),
        RawTensor::from_vec(vec![1.0f32, 2.0], &[1, 2]).unwrap(),
        &[2, 2, 2],
    )
    .unwrap();
    let d = RawTensor::from_vec(vec![1.0f32; 4], &[2, 2]).unwrap();
    assert!(s.matmul(&d.view()).is_err());
}
