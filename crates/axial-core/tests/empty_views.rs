//! Empty views whose storage offset lies at or past the end of their storage
//! (`x[:, :, 1:-1:2]` of an empty `x`, `x[5:]` of 3 rows): PyTorch reads,
//! prints, copies and reduces them as empty, and so does axial, in every op.

use axial_core::{
    BinaryOp, CmpOp, DType, Layout, RawTensor, ReduceOp, Scalar, Storage, TensorMut, TensorRef,
    UnaryOp,
};

/// Empty views past the end of their storage: the issue's `[0, 2, 1]` case
/// (a storage of 0 bytes, offset 1), and views at and past the end of a
/// storage that has elements.
fn cases() -> Vec<(Storage, Layout)> {
    let empty = RawTensor::zeros(&[0, 2, 1], DType::F32).unwrap();
    let sliced = empty.view().slice(2, Some(1), Some(-1), 2).unwrap();
    let issue = (empty.storage().clone(), sliced.layout().clone());
    let full = || Storage::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let three_rows = Layout::contiguous(&[3, 2]);
    vec![
        issue,
        (full(), three_rows.slice(0, Some(3), None, 1).unwrap()), // offset 6 of 6
        (full(), Layout::from_parts(&[2, 0], &[1, 1], 40)),       // far past the end
        (full(), Layout::from_parts(&[0], &[1], 7)),
    ]
}

#[test]
fn the_issues_view_lies_past_its_storage() {
    let (storage, layout) = &cases()[0];
    assert_eq!(
        (layout.shape(), layout.strides(), layout.offset()),
        (&[0, 2, 0][..], &[2, 1, 2][..], 1)
    );
    assert_eq!(storage.nbytes(), 0);
}

#[test]
fn empty_views_past_the_end_read_print_and_copy_as_empty() {
    for (storage, layout) in cases() {
        let v = TensorRef::new(&storage, layout.clone(), DType::F32).expect("an empty layout fits");
        assert_eq!(v.to_vec::<f32>().unwrap(), Vec::<f32>::new(), "{layout:?}");
        let size = layout
            .shape()
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>();
        let printed = v.to_string();
        if layout.rank() == 1 {
            assert_eq!(printed, "tensor([])");
        } else {
            assert_eq!(printed, format!("tensor([], size=({}))", size.join(", ")));
        }
        assert_eq!(v.data_ptr(), 0);
        assert!(v.is_contiguous());
        let c = v.to_contiguous().unwrap();
        assert_eq!(
            (c.shape(), c.to_vec::<f32>().unwrap()),
            (layout.shape(), vec![])
        );
        assert_eq!(v.to_owned().unwrap().shape(), layout.shape());
        assert_eq!(
            v.to_dtype(DType::F64).unwrap().to_vec::<f64>().unwrap(),
            vec![]
        );
        assert!(v.contiguous().unwrap().is_view());
        let flat = v.reshape(&[-1]).unwrap();
        assert_eq!(flat.as_ref().to_vec::<f32>().unwrap(), Vec::<f32>::new());
        // Into and out of an empty view, whichever side is past the end.
        let mut other = RawTensor::zeros(layout.shape(), DType::F32).unwrap();
        other.view_mut().copy_(&v).unwrap();
        let mut storage = storage.clone();
        let mut m = TensorMut::new(&mut storage, layout.clone(), DType::F32).unwrap();
        m.copy_(&other.view()).unwrap();
        m.fill_(Scalar::Float(1.0)).unwrap();
        m.zero_().unwrap();
        m.unary_(UnaryOp::Neg).unwrap();
        m.binary_scalar_(BinaryOp::Add, Scalar::Int(1)).unwrap();
    }
}

#[test]
fn empty_views_past_the_end_compute_as_empty() {
    for (storage, layout) in cases() {
        let v = TensorRef::new(&storage, layout.clone(), DType::F32).unwrap();
        let shape = layout.shape();
        assert_eq!(v.unary(UnaryOp::Exp).unwrap().shape(), shape);
        assert_eq!(v.binary(BinaryOp::Add, &v).unwrap().shape(), shape);
        assert_eq!(
            v.binary_scalar(BinaryOp::Mul, Scalar::Int(2))
                .unwrap()
                .shape(),
            shape
        );
        assert_eq!(v.compare(CmpOp::Lt, &v).unwrap().shape(), shape);
        // Reductions over every dim give the identity (max has none).
        let all = v.reduce(ReduceOp::Sum, &[], false).unwrap();
        assert_eq!(all.to_vec::<f32>().unwrap(), vec![0.0]);
        let p = v.reduce(ReduceOp::Prod, &[], false).unwrap();
        assert_eq!(p.to_vec::<f32>().unwrap(), vec![1.0]);
        let mean = v.reduce(ReduceOp::Mean, &[], false).unwrap();
        assert!(mean.to_vec::<f32>().unwrap()[0].is_nan());
        assert!(v.reduce(ReduceOp::Max, &[], false).is_err());
        // Over the empty dim, outputs for the other dims.
        let empty_dim = shape.iter().position(|&n| n == 0).unwrap() as isize;
        let s = v.reduce(ReduceOp::Sum, &[empty_dim], false).unwrap();
        assert_eq!(s.to_vec::<f32>().unwrap(), vec![0.0; s.view().numel()]);
        let any = v.reduce(ReduceOp::Any, &[empty_dim], true).unwrap();
        assert_eq!(any.view().numel(), s.view().numel());
    }
    // [2, 0] past the end, summed over its empty dim: two zeros.
    let storage = Storage::from_slice(&[1.0f32; 4]);
    let v = TensorRef::new(
        &storage,
        Layout::from_parts(&[2, 0], &[1, 1], 40),
        DType::F32,
    )
    .unwrap();
    assert_eq!(
        v.reduce(ReduceOp::Sum, &[1], false)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        vec![0.0, 0.0]
    );
}
