//! The typed generalized tensors: quantized, sparse and nested tensors with
//! names and sizes in the type give the core's results (which the replay
//! tests of `crates/axial-core/tests/generalized_*.rs` check against
//! PyTorch), and what only the data decides is an `Err`.

use axial::prelude::*;

axes!(Batch, Seq, Features, Hidden, Rows, Cols, K, In, Out);

#[test]
fn quantized_per_channel_follows_its_axis_by_name() {
    let x =
        Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array([[-1.0, 0.0, 0.5], [1.0, 2.0, 3.0]]);
    let q = x.quantize_per_channel::<QInt8, Cols>(&[0.1, 0.2, 0.5], &[0, 1, -2]);
    assert_eq!(q.int_repr().to_vec(), vec![-10, 1, -1, 10, 11, 4]);
    assert_eq!(q.q_per_channel_axis(), 1);
    // The transposed view keeps `Cols` as the channel axis, now at position 0.
    let t = q.as_view().transpose::<Rows, Cols>();
    assert_eq!(t.strides(), &[1, 3]);
    assert_eq!(t.dequantize().to_vec(), q.dequantize().t().to_vec());
    assert_eq!(t.as_core().q_per_channel_axis().unwrap(), 0);
    // Narrowing the channels keeps theirs.
    let n = q.as_view().narrow::<Cols>(1, 2);
    assert_eq!(
        n.as_core()
            .q_per_channel_scales()
            .unwrap()
            .to_vec::<f64>()
            .unwrap(),
        vec![0.2, 0.5]
    );
    assert_eq!(n.int_repr().to_vec(), vec![1, -1, 11, 4]);
    // Run-time facts are errors: a scale per channel, a positive scale.
    assert!(
        x.try_quantize_per_channel::<QInt8, Cols>(&[0.1, 0.2], &[0, 0])
            .is_err()
    );
    assert!(x.try_quantize_per_tensor::<QUInt8>(-0.1, 0).is_err());
    let nan = Tensor::<f32, shape![2]>::from_array([1.0, f32::NAN]);
    assert!(nan.try_quantize_per_tensor::<QInt8>(0.1, 0).is_err());
}

#[test]
fn quantized_linear_contracts_by_name() {
    let x =
        Tensor::<f32, shape![Batch: 2, In: 3]>::from_array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]);
    let w = Tensor::<f32, shape![Out: 2, In: 3]>::from_array([[1.0, 0.5, -0.5], [-1.0, 2.0, 0.25]]);
    let b = Tensor::<f32, shape![Out: 2]>::from_array([0.1, -0.2]);
    let qx = x.quantize_per_tensor::<QUInt8>(0.05, 64);
    assert_eq!(qx.int_repr().to_vec(), vec![74, 44, 104, 94, 69, 49]);
    let qw = w.quantize_per_tensor::<QInt8>(0.02, 0);
    let y = qx.linear(&qw.prepack_with_bias(&b), 0.1, 10);
    assert_eq!(y.int_repr().to_vec(), vec![1, 0, 31, 0]);
    assert_eq!(
        y.dequantize().to_vec(),
        vec![-0.90000004, -1.0, 2.1000001, -1.0]
    );
    assert_eq!((y.q_scale(), y.q_zero_point()), (0.1, 10));
    // A bad output zero point is an error.
    assert!(qx.try_linear(&qw.prepack(), 0.1, 300).is_err());
    // A per-channel weight along its output axis works the same way.
    let pc = w.quantize_per_channel::<QInt8, Out>(&[0.02, 0.02], &[0, 0]);
    assert_eq!(
        qx.linear(&pc.prepack_with_bias(&b), 0.1, 10)
            .int_repr()
            .to_vec(),
        vec![1, 0, 31, 0]
    );
}

#[test]
fn sparse_matrices_by_name() {
    type M = SparseCoo<f32, shape![Rows: 3, Cols: 3]>;
    let u = M::from_entries(
        &[[1, 0], [0, 2], [1, 0], [0, 2], [2, 2]],
        &[1.0, 2.0, 3.0, 4.0, 5.0],
    );
    let d = Tensor::<f32, shape![Cols: 3, K: 2]>::arange();
    let y = u.matmul(&d);
    assert_eq!(y.names().as_slice(), &[Some("Rows"), Some("K")]);
    assert_eq!(y.to_vec(), vec![24.0, 30.0, 0.0, 4.0, 20.0, 25.0]);
    assert_eq!(u.to_csr().matmul(&d).to_vec(), y.to_vec());
    let t = u.transpose::<Rows, Cols>();
    assert_eq!(t.to_dense().to_vec(), u.to_dense().t().to_vec());
    let sum = u.add(&u.scale(2.0));
    assert_eq!(
        sum.to_dense().to_vec(),
        u.to_dense()
            .to_vec()
            .iter()
            .map(|v| v * 3.0)
            .collect::<Vec<_>>()
    );
    // Indices outside the shape are errors (PyTorch writes out of bounds later).
    assert!(M::try_from_entries(&[[3, 0]], &[1.0]).is_err());
    assert!(M::try_from_entries(&[[0, -1]], &[1.0]).is_err());
    assert!(M::try_from_entries(&[[0, 0]], &[1.0, 2.0]).is_err());
    // A Dyn size is given at run time and checked against the static ones.
    type D = SparseCoo<f32, shape![Rows: Dyn, Cols: 3]>;
    assert!(D::try_with_sizes(&[[4, 2]], &[1.0], [5, 3]).is_ok());
    assert!(D::try_with_sizes(&[[4, 2]], &[1.0], [5, 4]).is_err());
    assert!(D::try_from_entries(&[[0, 0]], &[1.0]).is_err()); // a Dyn axis needs its size
    let dense = Tensor::<f32, shape![Rows: 2, Cols: 2]>::from_array([[0.0, 1.0], [2.0, 0.0]]);
    assert_eq!(dense.to_sparse().to_dense().to_vec(), dense.to_vec());
}

#[test]
fn nested_batches_by_name() {
    type Batched = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Features: 3]>;
    let a = Tensor::<f32, shape![Seq: 2, Features: 3]>::arange();
    let b =
        Tensor::<f32, shape![Seq: 4, Features: 3]>::from_vec((6..18).map(|v| v as f32).collect());
    let c = Tensor::<f32, shape![Seq: 1, Features: 3]>::from_array([[18.0, 19.0, 20.0]]);
    let n = Batched::builder().push(&a).push(&b).push(&c).build();
    assert_eq!(n.offsets(), &[0, 2, 6, 7]);
    assert_eq!(
        n.to_string(),
        "NestedTensor(size=(3, j1, 3), offsets=tensor([0, 2, 6, 7]), contiguous=True)"
    );
    // Reductions: over the ragged axis a dense tensor, over a fixed one nested.
    let sums = n.sum::<Seq>();
    assert_eq!(sums.names().as_slice(), &[Some("Batch"), Some("Features")]);
    assert_eq!(
        sums.to_vec(),
        vec![3.0, 5.0, 7.0, 42.0, 46.0, 50.0, 18.0, 19.0, 20.0]
    );
    assert_eq!(n.mean::<Seq>().to_vec()[..3], [1.5, 2.5, 3.5]);
    assert_eq!(
        n.amax::<Seq>().to_vec(),
        vec![3.0, 4.0, 5.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0]
    );
    let rows = n.sum::<Features>();
    assert_eq!(
        rows.values().to_vec(),
        vec![3.0, 12.0, 21.0, 30.0, 39.0, 48.0, 57.0]
    );
    // Softmax over the ragged axis: column 0 of each item.
    let p = n.softmax::<Seq>();
    let col0: Vec<f32> = p.values().to_vec().chunks(3).map(|r| r[0]).collect();
    let want = [
        0.047426, 0.952574, 0.000117, 0.002355, 0.047309, 0.950219, 1.0,
    ];
    assert!(
        col0.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-6),
        "{col0:?}"
    );
    // Matmul with a dense weight, by name.
    let w = Tensor::<f32, shape![Features: 3, Hidden: 2]>::from_vec(
        (0..6).map(|v| v as f32 / 10.0).collect(),
    );
    let y = n.matmul(&w);
    assert_eq!(y.try_item(2).unwrap().to_vec(), vec![11.8, 17.5]);
    // Padded and back; a padded length too short is an error.
    let padded = n.to_padded(0.0);
    assert_eq!(padded.sizes().as_slice(), &[3, 4, 3]);
    let back = Batched::try_from_padded(&padded, &n.lengths()).unwrap();
    assert_eq!(back.values().to_vec(), n.values().to_vec());
    assert!(n.try_to_padded_len(0.0, 3).is_err());
    // Elementwise: a map over the values, and with a nested of the same offsets.
    let row = Tensor::<f32, shape![Features: 3]>::from_array([1.0, 2.0, 3.0]);
    assert_eq!(
        n.map(|v| v + &row).try_item(2).unwrap().to_vec(),
        vec![19.0, 21.0, 23.0]
    );
    assert_eq!(
        n.try_add(&n).unwrap().values().to_vec()[..3],
        [0.0, 2.0, 4.0]
    );
    let other = Batched::builder().push(&b).push(&a).push(&c).build();
    assert!(n.try_add(&other).is_err());
    // unbind gives views into the values.
    let items = n.unbind();
    assert_eq!(
        items.iter().map(|t| t.storage_offset()).collect::<Vec<_>>(),
        vec![0, 6, 18]
    );
}
