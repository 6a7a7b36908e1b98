//! Nested tensors' laws on random batches (items of length 0 to 4, fixed
//! sizes 0 to 3, strided values from transposes of fixed dims): a
//! transpose is a view whose items are the dense items transposed, and
//! transposing twice gives the values back; a product of nested tensors is
//! each item's dense product, whatever the layout of the values; padded,
//! every item sits in its corner.

use axial_core::nested::NestedTensor;
use axial_core::{BinaryOp, RawTensor, Scalar};
use proptest::prelude::*;

/// A standard nested tensor `(B, j, rest...)` of distinct values.
fn nested(lengths: &[usize], rest: &[usize]) -> NestedTensor {
    let row: usize = rest.iter().product();
    let mut next = 0.0f32;
    let items: Vec<RawTensor> = lengths
        .iter()
        .map(|&n| {
            let mut shape = vec![n];
            shape.extend_from_slice(rest);
            let values: Vec<f32> = (0..n * row)
                .map(|_| {
                    next += 1.0;
                    (next * 0.37).sin()
                })
                .collect();
            RawTensor::from_vec(values, &shape).unwrap()
        })
        .collect();
    let views: Vec<_> = items.iter().map(RawTensor::view).collect();
    NestedTensor::from_tensors(&views).unwrap()
}

fn item_vecs(n: &NestedTensor) -> Vec<Vec<f32>> {
    n.unbind()
        .unwrap()
        .iter()
        .map(|t| t.to_vec::<f32>().unwrap())
        .collect()
}

fn batch() -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
    (
        prop::collection::vec(0usize..5, 1..5),
        prop::collection::vec(0usize..4, 1..3),
    )
}

proptest! {
    #[test]
    fn a_transpose_transposes_every_item((lengths, rest) in batch(), a in 1usize..4, b in 1usize..4) {
        let n = nested(&lengths, &rest);
        let rank = n.dim();
        let (a, b) = (a % rank, b % rank);
        prop_assume!(a != 0 && b != 0);
        let t = n.clone().transpose(a as isize, b as isize).unwrap();
        prop_assert!(t.values().shares_storage_with(&t.values()));
        for (i, item) in n.unbind().unwrap().iter().enumerate() {
            let want = item.clone().transpose(a as isize - 1, b as isize - 1).unwrap();
            let got = t.item(i).unwrap();
            prop_assert_eq!(got.shape(), want.shape());
            prop_assert_eq!(got.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
        }
        // Padded: each item in its corner, the rest the pad.
        let p = t.to_padded(Scalar::Float(-9.0), None).unwrap();
        for (i, item) in t.unbind().unwrap().iter().enumerate() {
            let mut corner = p.view().select(0, i as isize).unwrap();
            for (d, &len) in item.shape().iter().enumerate() {
                corner = corner.narrow(d as isize, 0, len).unwrap();
            }
            prop_assert_eq!(corner.to_vec::<f32>().unwrap(), item.to_vec::<f32>().unwrap());
        }
        let back = t.transpose(a as isize, b as isize).unwrap();
        prop_assert_eq!(back.ragged_dims(), vec![1]);
        prop_assert_eq!(item_vecs(&back), item_vecs(&n));
        prop_assert_eq!(back.values().to_vec::<f32>().unwrap(), n.values().to_vec::<f32>().unwrap());
    }

    #[test]
    fn a_product_is_each_items_dense_product(
        lengths in prop::collection::vec(0usize..5, 1..5),
        d in 0usize..4,
        heads in 0usize..3,
    ) {
        // (B, j, H, d) transposed to (B, H, j, d) when there are heads: its
        // values a strided view.
        let rest: Vec<usize> = if heads > 0 { vec![heads, d] } else { vec![d] };
        let make = |shift: f64| {
            let n = nested(&lengths, &rest).binary_scalar(BinaryOp::Add, Scalar::Float(shift)).unwrap();
            if heads > 0 { n.transpose(1, 2).unwrap() } else { n }
        };
        let (q, k) = (make(0.0), make(0.5));
        let r = q.dim() as isize;
        let kt = k.clone().transpose(r - 2, r - 1).unwrap();
        let scores = q.matmul_nested(&kt).unwrap().into_nested().unwrap();
        prop_assert_eq!(scores.ragged_dims(), vec![r as usize - 2, r as usize - 1]);
        let (qi, ki) = (q.unbind().unwrap(), k.unbind().unwrap());
        for (i, s) in scores.unbind().unwrap().iter().enumerate() {
            let want = qi[i].matmul(&ki[i].clone().transpose(-2, -1).unwrap()).unwrap();
            prop_assert_eq!(s.shape(), want.shape());
            prop_assert_eq!(s.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
        }
        // The scores times the keys: ragged where the queries are.
        let out = scores.matmul_nested(&k).unwrap().into_nested().unwrap();
        prop_assert_eq!(out.ragged_dims(), q.ragged_dims());
        for (i, o) in out.unbind().unwrap().iter().enumerate() {
            let s = scores.item(i).unwrap();
            let want = s.matmul(&ki[i]).unwrap();
            prop_assert_eq!(o.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
        }
        // Summed over the ragged dim: dense, one product per item.
        let kv = kt.matmul_nested(&k).unwrap().into_dense().unwrap();
        prop_assert_eq!(kv.shape()[0], lengths.len());
        for (i, item) in ki.iter().enumerate() {
            let want = item.clone().transpose(-2, -1).unwrap().matmul(item).unwrap();
            let got = kv.view().select(0, i as isize).unwrap();
            prop_assert_eq!(got.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
        }
    }
}
