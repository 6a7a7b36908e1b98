//! Storage, ownership and elements: bytes, data pointers,
//! sharing, writes through mutable views, copy on write, construction.

use axial::prelude::*;

axes!(Rows, Cols, Batch);

#[test]
fn element_sizes_and_nbytes() {
    assert_eq!(Tensor::<Bool, shape![2]>::zeros().element_size(), 1);
    assert_eq!(Tensor::<u8, shape![2]>::zeros().element_size(), 1);
    assert_eq!(Tensor::<i8, shape![2]>::zeros().element_size(), 1);
    assert_eq!(Tensor::<i16, shape![2]>::zeros().element_size(), 2);
    assert_eq!(Tensor::<f16, shape![2]>::zeros().element_size(), 2);
    assert_eq!(Tensor::<bf16, shape![2]>::zeros().element_size(), 2);
    assert_eq!(Tensor::<i32, shape![2]>::zeros().element_size(), 4);
    assert_eq!(Tensor::<f32, shape![2]>::zeros().element_size(), 4);
    assert_eq!(Tensor::<i64, shape![2]>::zeros().element_size(), 8);
    assert_eq!(Tensor::<f64, shape![2]>::zeros().element_size(), 8);
    let x = Tensor::<f32, shape![Cols: 3]>::zeros();
    let wide = x.as_view().expand::<shape![Rows: 1000, Cols: 3]>();
    assert_eq!(wide.nbytes(), 12000);
    assert_eq!(wide.untyped_storage().nbytes(), 12);
}

#[test]
fn data_ptr_is_storage_plus_offset() {
    let m = Tensor::<f32, shape![Rows: 3, Cols: 4]>::arange();
    let v = m.as_view().slice::<Rows>(1.., 1).slice::<Cols>(1..3, 1);
    assert_eq!(v.sizes().as_slice(), &[2, 2]);
    assert_eq!(v.strides().as_slice(), &[4, 1]);
    assert_eq!(v.storage_offset(), 5);
    assert_eq!(v.data_ptr() - m.data_ptr(), 20);
    assert_eq!(v.untyped_storage().nbytes(), 48);
    assert_eq!(v.nbytes(), 16);
    assert_eq!(m.untyped_storage().data_ptr(), m.data_ptr());
    let empty = Tensor::<f32, shape![0]>::zeros();
    assert_eq!(empty.data_ptr(), 0);
}

#[test]
fn writes_through_a_mutable_view_show_in_the_owner() {
    let mut m = Tensor::<i64, shape![Rows: 3, Cols: 4]>::zeros();
    {
        let mut col = m.as_view_mut().select::<Cols>(2);
        col.fill_(7);
        col.set([0], 1);
    }
    m.as_view_mut().t().set([3, 2], 9);
    assert_eq!(m.to_vec(), vec![0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 7, 9]);
    let mut diag = m.as_view_mut().diagonal::<Rows, Cols, Batch>(0);
    diag.zero_();
    assert_eq!(m.get([1, 1]), 0);
    assert_eq!(m[[2, 2]], 0);
    m[[0, 1]] = 5;
    assert_eq!(m.get([0, 1]), 5);
}

#[test]
fn arc_tensor_copies_on_write() {
    let a = Tensor::<f32, shape![Rows: 2, Cols: 2]>::zeros().into_shared();
    let mut b = a.clone();
    assert!(b.shares_storage_with(&a));
    b.fill_(1.0); // shared: b gets its own storage first
    assert!(!b.shares_storage_with(&a));
    assert_eq!(a.to_vec(), vec![0.0; 4]);
    assert_eq!(b.to_vec(), vec![1.0; 4]);
    let before = b.data_ptr();
    b.set([0, 0], 2.0); // unique now: written in place
    assert_eq!(b.data_ptr(), before);
    // Views of a shared tensor keep sharing.
    let row = a.clone().select::<Rows>(1);
    assert!(row.shares_storage_with(&a));
}

#[test]
fn reshape_of_a_shared_tensor_stays_shared() {
    let a = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange().into_shared();
    type Six = shape![6];
    let flat: ArcTensor<f32, Six> = a.clone().reshape();
    assert!(flat.shares_storage_with(&a));
    let copied: ArcTensor<f32, Six> = a.clone().t().reshape();
    assert!(!copied.shares_storage_with(&a));
    assert_eq!(copied.to_vec(), vec![0., 3., 1., 4., 2., 5.]);
}

#[test]
fn constructors() {
    assert_eq!(Tensor::<f32, shape![2, 2]>::ones().to_vec(), vec![1.0; 4]);
    assert_eq!(Tensor::<i16, shape![3]>::full(-4).to_vec(), vec![-4; 3]);
    assert_eq!(
        Tensor::<f64, shape![2, 3]>::eye().to_vec(),
        vec![1., 0., 0., 0., 1., 0.]
    );
    assert_eq!(
        Tensor::<f32, shape![3]>::linspace(-1.0, 1.0).to_vec(),
        vec![-1.0, 0.0, 1.0]
    );
    let x = Tensor::<bf16, shape![Batch: Dyn, Cols: 2]>::arange_dyn(3);
    assert_eq!(x.sizes().as_slice(), &[3, 2]);
    assert_eq!(x.get([2, 1]), bf16::from_f32(5.0));
    let r1 =
        Tensor::<f32, shape![Rows: Dyn, Cols: Dyn]>::randn_dyn([3, 4], &mut Generator::seed(9));
    let r2 =
        Tensor::<f32, shape![Rows: Dyn, Cols: Dyn]>::randn_dyn([3, 4], &mut Generator::seed(9));
    assert_eq!(r1.to_vec(), r2.to_vec());
    assert_eq!(r1.sizes().as_slice(), &[3, 4]);
    let nested = Tensor::<u8, shape![2, 2, 2]>::from_array([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]);
    assert_eq!(nested.to_vec(), (1..=8).collect::<Vec<u8>>());
    let b = Tensor::<Bool, shape![2]>::from_array([Bool::TRUE, Bool::FALSE]);
    assert_eq!(b.to_vec(), vec![Bool::TRUE, Bool::FALSE]);
    // Sizes beyond typenum's U1024, from any literal.
    let big = Tensor::<u8, shape![Rows: 2000]>::zeros();
    assert_eq!(big.numel(), 2000);
}

#[test]
fn from_vec_checks_the_count() {
    let ok = Tensor::<i32, shape![Rows: 2, Cols: 2]>::from_vec(vec![1, 2, 3, 4]);
    assert_eq!(ok.get([1, 0]), 3);
    let err = Tensor::<i32, shape![Rows: 2, Cols: 2]>::try_from_vec(vec![1, 2, 3]).unwrap_err();
    assert_eq!(err.to_string(), "from_vec: expected 4 elements, got 3");
    let d = Tensor::<i32, shape![Batch: Dyn, Cols: 2]>::try_from_vec_dyn(vec![0; 6], 3).unwrap();
    assert_eq!(d.sizes().as_slice(), &[3, 2]);
}

#[test]
#[should_panic(expected = "from_vec: expected 4 elements, got 3")]
fn from_vec_panics_with_the_same_message() {
    let _ = Tensor::<i32, shape![Rows: 2, Cols: 2]>::from_vec(vec![1, 2, 3]);
}

#[test]
fn element_access() {
    let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
    assert_eq!(m.get([1, -1]), 5.0);
    assert_eq!(m[[0, 2]], 2.0);
    assert_eq!(
        m.try_get([2, 0]).unwrap_err().to_string(),
        "index 2 is out of bounds for dimension 0 with size 2"
    );
    assert_eq!(Tensor::<f32, shape![1]>::full(3.0).item(), 3.0);
    let d = Tensor::<f32, shape![Batch: Dyn]>::zeros_dyn(2);
    assert!(d.try_item().is_err());
}

#[test]
fn casts_copies_and_devices() {
    let x = Tensor::<f32, shape![Rows: 2]>::from_array([1.7, -2.2]);
    assert_eq!(x.cast::<i64>().to_vec(), vec![1, -2]);
    let y = x.to_device(&Cpu);
    assert!(!y.shares_storage_with(&x));
    assert_eq!(y.to_vec(), x.to_vec());
    let t = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange().t();
    let c = t.to_owned();
    assert_eq!(c.strides().as_slice(), &[1, 3]); // dense strides kept, as clone()
    assert_eq!(t.to_cpu().strides().as_slice(), &[2, 1]); // a contiguous copy
    let cloned = c.clone();
    assert!(!cloned.shares_storage_with(&c));
}

#[test]
fn metadata_and_debug() {
    let x = Tensor::<f32, shape![Batch: Dyn, Cols: 3]>::zeros_dyn(2);
    assert_eq!(x.dim(), 2);
    assert_eq!(x.numel(), 6);
    assert_eq!(x.dtype(), DType::F32);
    assert_eq!(x.shape(), x.sizes());
    assert_eq!(
        format!("{x:?}"),
        "Tensor[Batch=2, Cols=3] strides [3, 1] offset 0 torch.float32 on cpu"
    );
    let mut y = Tensor::<u8, shape![2]>::zeros();
    y.untyped_storage_mut().write_byte(0, 4).unwrap();
    assert_eq!(y.to_vec(), vec![4, 0]);
}
