//! Every view op through the typed API against PyTorch's results on worked
//! examples: sizes, strides, offsets, storage sharing and PyTorch's errors.

use axial::Shape;
use axial::prelude::*;
use axial::{Data, TensorBase};

axes!(
    A, B, C, One, C1, C2, AB, BA, Win, Diag, Rows, Cols, Flat, P, Q, R
);

/// `(sizes)/(strides)@offset`: a layout in one string.
fn layout<T: axial::Element, S: Shape, Rp: Data<Cpu>>(
    t: &TensorBase<T, S, Cpu, Rp>,
) -> (Vec<usize>, Vec<isize>, usize) {
    (t.sizes().to_vec(), t.strides().to_vec(), t.storage_offset())
}

type X = shape![A: 3, B: 4, C: 5];

/// `x = arange(60.).view(3,4,5)`.
fn x() -> Tensor<f32, X> {
    Tensor::arange()
}

#[test]
fn select_drops_the_axis_at_an_offset() {
    let x = x();
    assert_eq!(
        layout(&x.as_view().select::<A>(1)),
        (vec![4, 5], vec![5, 1], 20)
    );
    assert_eq!(
        layout(&x.as_view().select::<B>(2)),
        (vec![3, 5], vec![20, 1], 10)
    );
    assert_eq!(
        layout(&x.as_view().select::<C>(-1)),
        (vec![3, 4], vec![20, 5], 4)
    );
    assert_eq!(
        layout(&x.as_view().at::<A, 2>()),
        (vec![4, 5], vec![5, 1], 40)
    );
    assert_eq!(
        x.try_select::<A>(3).unwrap_err().to_string(),
        "select(): index 3 out of range for tensor of size [3, 4, 5] at dimension 0"
    );
}

#[test]
#[should_panic(
    expected = "select(): index -4 out of range for tensor of size [3, 4, 5] at dimension 0"
)]
fn select_panics_with_the_try_message() {
    let _ = x().select::<A>(-4);
}

#[test]
fn slices_follow_python() {
    let x = x();
    assert_eq!(
        layout(&x.as_view().slice::<B>(1.., 2)),
        (vec![3, 2, 5], vec![20, 10, 1], 5)
    );
    assert_eq!(
        layout(&x.as_view().slice::<C>(1..4, 2)),
        (vec![3, 4, 2], vec![20, 5, 2], 1)
    );
    assert_eq!(
        layout(&x.as_view().slice::<A>(.., 10)),
        (vec![1, 4, 5], vec![200, 5, 1], 0)
    );
    assert_eq!(
        layout(&x.as_view().slice::<A>(5..10, 1)),
        (vec![0, 4, 5], vec![20, 5, 1], 60)
    );
    let (start, end) = (2, 1); // x[2:1]: empty, the offset still moves
    assert_eq!(x.as_view().slice::<A>(start..end, 1).storage_offset(), 40);
    assert_eq!(layout(&x.as_view().slice::<C>(..=-1, 1)).0, vec![3, 4, 5]);
    assert_eq!(
        x.try_slice::<A>(.., 0).unwrap_err().to_string(),
        "slice: slice step cannot be zero"
    );
}

#[test]
fn narrow_and_its_error() {
    let x = x();
    assert_eq!(
        layout(&x.as_view().narrow::<C>(-2, 2)),
        (vec![3, 4, 2], vec![20, 5, 1], 3)
    );
    assert_eq!(
        x.try_narrow::<B>(3, 2).unwrap_err().to_string(),
        "narrow: start (3) + length (2) exceeds dimension size (4)."
    );
}

#[test]
fn unsqueeze_and_none_indexing() {
    let x = x();
    assert_eq!(
        layout(&x.as_view().unsqueeze::<One, 1>()),
        (vec![3, 1, 4, 5], vec![20, 20, 5, 1], 0)
    );
    // x[:, None, 1]
    assert_eq!(
        layout(&x.as_view().unsqueeze::<One, 1>().select::<B>(1)),
        (vec![3, 1, 5], vec![20, 20, 1], 5)
    );
    // x.transpose(0, 2).unsqueeze(1)
    assert_eq!(
        layout(&x.as_view().transpose::<A, C>().unsqueeze::<One, 1>()),
        (vec![5, 1, 4, 3], vec![1, 20, 5, 20], 0)
    );
    let back = x.as_view().unsqueeze::<One, 3>().squeeze::<One>();
    assert_eq!(layout(&back), layout(&x));
}

#[test]
fn squeeze_checks_a_dyn_size_at_run_time() {
    let t = Tensor::<f32, shape![A: Dyn, B: 3]>::zeros_dyn(1);
    assert_eq!(t.as_view().squeeze::<A>().sizes().as_slice(), &[3]);
    let t = Tensor::<f32, shape![A: Dyn, B: 3]>::zeros_dyn(2);
    assert_eq!(
        t.try_squeeze::<A>().unwrap_err().to_string(),
        "squeeze: axis `A` has size 2, not 1"
    );
}

#[test]
fn expand_stretches_size_one_with_stride_zero() {
    let x = x();
    assert_eq!(
        layout(&x.as_view().expand::<shape![2, A: 3, B: 4, C: 5]>()),
        (vec![2, 3, 4, 5], vec![0, 20, 5, 1], 0)
    );
    assert_eq!(
        layout(&x.as_view().expand::<shape![1, A: 3, B: 4, C: 5]>()),
        (vec![1, 3, 4, 5], vec![60, 20, 5, 1], 0)
    );
    let col = Tensor::<f32, shape![B: 3, C: 1]>::zeros();
    assert_eq!(
        layout(&col.as_view().expand::<shape![A: 2, B: 3, C: 4]>()),
        (vec![2, 3, 4], vec![0, 1, 0], 0)
    );
    // A Dyn axis is checked at run time, with PyTorch's message.
    let d = Tensor::<f32, shape![A: Dyn]>::zeros_dyn(3);
    assert!(d.try_expand::<shape![A: 4]>().unwrap_err().to_string().contains(
        "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 0"
    ));
}

#[test]
fn expand_as_takes_the_other_sizes() {
    let bias = Tensor::<f32, shape![Cols: 4]>::from_array([1.0, 2.0, 3.0, 4.0]);
    let x = Tensor::<f32, shape![Rows: Dyn, Cols: 4]>::zeros_dyn(2);
    let b = bias.as_view().expand_as(&x);
    assert_eq!(layout(&b), (vec![2, 4], vec![0, 1], 0));
    assert_eq!(b.to_vec(), vec![1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0]);
    assert!(b.shares_storage_with(&bias));
}

#[test]
fn transpose_permute_and_t() {
    let x = x();
    assert_eq!(
        layout(&x.as_view().permute::<names![C, A, B]>()),
        (vec![5, 3, 4], vec![1, 20, 5], 0)
    );
    // x.movedim(0, -1)
    assert_eq!(
        layout(&x.as_view().align_to::<names![B, C, A]>()),
        (vec![4, 5, 3], vec![5, 1, 20], 0)
    );
    let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
    assert_eq!(layout(&m.as_view().t()), (vec![3, 2], vec![1, 3], 0));
    assert_eq!(layout(&m.as_view().t().t()), layout(&m));
    let v = Tensor::<f32, shape![Rows: 3]>::zeros();
    assert_eq!(layout(&v.as_view().t()), layout(&v));
    // transpose twice is the identity
    assert_eq!(
        layout(&x.as_view().transpose::<A, B>().transpose::<A, B>()),
        layout(&x)
    );
}

#[test]
fn merge_is_a_view_or_a_copy_as_flatten() {
    let x = x();
    let flat = x.as_view().merge::<names![A, B], AB>();
    assert_eq!(layout(&flat), (vec![12, 5], vec![5, 1], 0));
    assert!(flat.shares_storage_with(&x));
    let copied = x.as_view().transpose::<A, B>().merge::<names![B, A], BA>();
    assert!(!copied.shares_storage_with(&x));
    assert_eq!(layout(&copied), (vec![12, 5], vec![5, 1], 0));
    assert_eq!(copied.get([1, 0]), 20.0); // x[1, 0, 0] after the swap
    assert_eq!(flat.names().as_slice(), &[Some("AB"), Some("C")]);
}

#[test]
fn split_unflattens_one_axis() {
    let x = x();
    let y = x.as_view().split::<C, shape![C1: Dyn, C2: 5]>();
    assert_eq!(layout(&y), (vec![3, 4, 1, 5], vec![20, 5, 5, 1], 0));
    assert!(y.shares_storage_with(&x));
    let y = x.as_view().split::<B, shape![C1: 2, C2: 2]>();
    assert_eq!(layout(&y), (vec![3, 2, 2, 5], vec![20, 10, 5, 1], 0));
    let d = Tensor::<f32, shape![A: Dyn]>::zeros_dyn(6);
    assert_eq!(
        d.try_split::<A, shape![C1: 4, C2: 2]>()
            .unwrap_err()
            .to_string(),
        "unflatten: Provided sizes [4, 2] don't multiply up to the size of dim 0 (6) in the input tensor"
    );
}

#[test]
fn diagonal_lengths_and_offsets() {
    let m = Tensor::<f32, shape![Rows: 3, Cols: 4]>::arange();
    assert_eq!(
        layout(&m.as_view().diagonal::<Rows, Cols, Diag>(1)),
        (vec![3], vec![5], 1)
    );
    assert_eq!(
        layout(&m.as_view().diagonal::<Rows, Cols, Diag>(-1)),
        (vec![2], vec![5], 4)
    );
    assert_eq!(
        layout(&m.as_view().diagonal::<Rows, Cols, Diag>(5)),
        (vec![0], vec![5], 0)
    );
    let x = x();
    let d = x.as_view().diagonal::<B, C, Diag>(1);
    assert_eq!(layout(&d), (vec![3, 4], vec![20, 6], 1));
    assert_eq!(d.names().as_slice(), &[Some("A"), Some("Diag")]);
}

#[test]
fn unfold_windows() {
    let t = Tensor::<f32, shape![A: 10]>::arange();
    let w = t.as_view().unfold::<A, Win>(3, 2);
    assert_eq!(layout(&w), (vec![4, 3], vec![2, 1], 0));
    assert_eq!(
        w.to_vec(),
        vec![0., 1., 2., 2., 3., 4., 4., 5., 6., 6., 7., 8.]
    );
    assert_eq!(
        layout(&x().as_view().unfold::<B, Win>(2, 1)),
        (vec![3, 3, 5, 2], vec![20, 5, 1, 5], 0)
    );
    assert!(
        t.as_view()
            .try_unfold::<A, Win>(11, 1)
            .unwrap_err()
            .to_string()
            .contains("maximum size for tensor at dimension 0 is 10 but size is 11")
    );
    assert!(
        t.try_unfold::<A, Win>(2, 0)
            .unwrap_err()
            .to_string()
            .contains("step is 0 but must be > 0")
    );
}

/// `A = arange(24.).view(4,3,2)[::2]` = `(2,3,2)/(12,2,1)`.
type TableA = shape![P: Dyn, Q: 3, R: 2];

fn table_a() -> Tensor<f32, TableA> {
    Tensor::<f32, shape![P: 4, Q: 3, R: 2]>::arange().slice::<P>(.., 2)
}

#[test]
fn view_follows_compute_stride() {
    assert_eq!(
        layout(&table_a().view::<shape![2, 6]>()),
        (vec![2, 6], vec![12, 1], 0)
    );
    assert_eq!(
        layout(&table_a().view::<shape![2, 1, 3, 2]>()),
        (vec![2, 1, 3, 2], vec![12, 6, 2, 1], 0)
    );
    assert_eq!(
        layout(&table_a().view::<shape![2, 3, 1, 2]>()),
        (vec![2, 3, 1, 2], vec![12, 2, 2, 1], 0)
    );
    assert!(table_a().try_view::<shape![12]>().is_err());
    // B: (3,2)/(1,3)
    let b = || Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange().t();
    assert!(b().try_view::<shape![6]>().is_err());
    assert_eq!(
        layout(&b().view::<shape![3, 1, 2]>()),
        (vec![3, 1, 2], vec![1, 6, 3], 0)
    );
    assert_eq!(
        layout(&b().view::<shape![3, 2, 1]>()),
        (vec![3, 2, 1], vec![1, 3, 3], 0)
    );
    // C: arange(24).view(2,3,4).permute(1,0,2) = (3,2,4)/(4,12,1)
    let c = || Tensor::<f32, shape![A: 2, B: 3, C: 4]>::arange().permute::<names![B, A, C]>();
    assert_eq!(
        layout(&c().view::<shape![3, 2, 2, 2]>()),
        (vec![3, 2, 2, 2], vec![4, 12, 2, 1], 0)
    );
    assert!(c().try_view::<shape![3, 8]>().is_err());
    assert!(c().try_view::<shape![6, 4]>().is_err());
    // E: tensor([1,2,3]).expand(4,3)
    let e = Tensor::<f32, shape![C: 3]>::arange();
    let e4 = e.as_view().expand::<shape![A: 4, C: 3]>();
    assert_eq!(
        layout(&e4.clone().view::<shape![2, 2, 3]>()),
        (vec![2, 2, 3], vec![0, 0, 1], 0)
    );
    assert!(e4.try_view::<shape![12]>().is_err());
    // G: 0-dim
    let g = Tensor::<f32, shape![]>::full(7.0);
    assert_eq!(
        layout(&g.view::<shape![1, 1]>()),
        (vec![1, 1], vec![1, 1], 0)
    );
}

#[test]
fn view_of_an_empty_tensor() {
    // F: (2,0,3)/(7,9,11)
    let z = Tensor::<f32, shape![2, 0, 3]>::zeros();
    let f = || {
        z.as_view()
            .as_strided::<shape![2, 0, 3], 3>([2, 0, 3], [7, 9, 11], None)
            .unwrap()
    };
    assert!(f().is_contiguous());
    assert_eq!(layout(&f().view::<shape![2, 0, 3]>()).1, vec![7, 9, 11]);
    assert_eq!(layout(&f().view::<shape![6, 0]>()).1, vec![1, 1]);
}

#[test]
fn reshape_is_a_view_when_it_can_be() {
    let a = table_a();
    let base = a.data_ptr();
    let v = a.reshape::<shape![2, 6]>();
    assert_eq!(v.data_ptr(), base);
    let copy = table_a().reshape::<shape![Flat: 12]>();
    assert_eq!(layout(&copy), (vec![12], vec![1], 0));
    assert_eq!(
        copy.to_vec(),
        vec![0., 1., 2., 3., 4., 5., 12., 13., 14., 15., 16., 17.]
    );
    // A Dyn target size is inferred, like -1.
    let inferred =
        Tensor::<f32, shape![Flat: 12]>::arange().reshape::<shape![Rows: Dyn, Cols: 4]>();
    assert_eq!(inferred.sizes().as_slice(), &[3, 4]);
    let bad = Tensor::<f32, shape![Flat: Dyn]>::zeros_dyn(10);
    assert_eq!(
        bad.try_reshape::<shape![Rows: 3, Cols: 4]>()
            .unwrap_err()
            .to_string(),
        "shape '[3, 4]' is invalid for input of size 10"
    );
}

#[test]
fn contiguous_returns_self_or_copies() {
    let m = Tensor::<f32, shape![Rows: 3, Cols: 4]>::arange();
    let same = m.as_view().slice::<Rows>(1.., 1).contiguous();
    assert!(same.shares_storage_with(&m));
    assert_eq!(same.storage_offset(), 4);
    let t = m.as_view().t();
    assert!(!t.is_contiguous());
    let c = t.contiguous();
    assert!(!c.shares_storage_with(&m));
    assert_eq!(layout(&c), (vec![4, 3], vec![3, 1], 0));
    // Contiguity as PyTorch decides it
    assert!(!m.as_view().slice::<Cols>(..1, 1).is_contiguous());
    assert!(m.as_view().slice::<Rows>(.., 3).is_contiguous());
    assert!(!m.as_view().slice::<Rows>(.., 2).is_contiguous());
    // An owned tensor stays owned through contiguous and reshape.
    let owned: Tensor<f32, _> = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange()
        .t()
        .contiguous();
    assert_eq!(owned.to_vec(), vec![0., 3., 1., 4., 2., 5.]);
}

#[test]
fn as_strided_reads_any_layout_checked() {
    let b = Tensor::<f32, shape![Flat: 10]>::arange();
    let w = b
        .as_view()
        .as_strided::<shape![3, 3], 2>([3, 3], [1, 1], None)
        .unwrap();
    assert_eq!(w.to_vec(), vec![0., 1., 2., 1., 2., 3., 2., 3., 4.]);
    let w = b
        .as_view()
        .as_strided::<shape![2, 2], 2>([2, 2], [3, 1], Some(4))
        .unwrap();
    assert_eq!(w.to_vec(), vec![4., 5., 7., 8.]);
    assert!(
        b.as_view()
            .as_strided::<shape![4], 1>([4], [3], None)
            .is_ok()
    );
    assert!(
        b.as_view()
            .as_strided::<shape![0, 5], 2>([0, 5], [100, 100], Some(50))
            .is_ok()
    );
    let tail = b.as_view().slice::<Flat>(2.., 1);
    assert_eq!(
        tail.as_strided::<shape![2], 1>([2], [1], None)
            .unwrap()
            .storage_offset(),
        2
    );
    let from0 = b
        .as_view()
        .slice::<Flat>(2.., 1)
        .as_strided::<shape![2], 1>([2], [1], Some(0));
    assert_eq!(from0.unwrap().to_vec(), vec![0., 1.]);
    assert_eq!(
        b.as_view()
            .as_strided::<shape![4], 1>([4], [3], Some(1))
            .unwrap_err()
            .to_string(),
        "setStorage: sizes [4], strides [3], storage offset 1, and itemsize 4 requiring a storage size of 44 are out of bounds for storage of size 40"
    );
    assert!(b.as_strided::<shape![4], 1>([5], [1], None).is_err());
}

#[test]
fn views_of_views_keep_their_kind() {
    let x = x();
    let v: TensorView<'_, f32, _> = x.as_view().select::<A>(1).transpose::<B, C>();
    assert!(v.shares_storage_with(&x));
    assert_eq!(layout(&v), (vec![5, 4], vec![1, 5], 20));
    // An owned tensor stays owned (no borrow of a temporary).
    let owned: Tensor<f32, _> = Tensor::<f32, X>::arange().select::<B>(3);
    assert_eq!(owned.get([0, 0]), 15.0);
}

/// Views whose elements may share memory (`unfold`, `as_strided`, `expand`)
/// are read-only in the type, even from a mutable view; `try_into_writable`
/// gives the writable view back exactly when no two elements share memory.
#[test]
fn overlapping_views_are_read_only_until_checked() {
    axes!(Time, Window);
    let mut x = Tensor::<f32, shape![Time: 8]>::arange();
    // Windows of 3 every 1 share elements: refused, with PyTorch's words.
    let err = x
        .as_view_mut()
        .unfold::<Time, Window>(3, 1)
        .try_into_writable()
        .unwrap_err();
    assert!(err.to_string().starts_with("unsupported operation: more than one element of the written-to tensor refers to a single memory location"));
    // Windows of 2 every 2 are apart: writable, and writes show in `x`.
    let apart = x
        .as_view_mut()
        .unfold::<Time, Window>(2, 2)
        .try_into_writable()
        .unwrap();
    apart.select::<Window>(0).fill_(-1.0);
    assert_eq!(x.to_vec(), vec![-1.0, 1.0, -1.0, 3.0, -1.0, 5.0, -1.0, 7.0]);
    // An `as_strided` layout is checked the same way.
    assert!(
        x.as_view_mut()
            .as_strided::<shape![2, 2], 2>([2, 2], [1, 1], None)
            .unwrap()
            .try_into_writable()
            .is_err()
    );
    let mut evens = x
        .as_view_mut()
        .as_strided::<shape![4], 1>([4], [2], None)
        .unwrap()
        .into_writable();
    evens += 10.0;
    assert_eq!(x.to_vec(), vec![9.0, 1.0, 9.0, 3.0, 9.0, 5.0, 9.0, 7.0]);
    // A broadcast that repeats an element is refused; one that does not is writable.
    let mut row = Tensor::<f32, shape![Cols: 3]>::zeros();
    assert!(
        row.as_view_mut()
            .expand::<shape![Rows: 2, Cols: 3]>()
            .try_into_writable()
            .is_err()
    );
    row.as_view_mut()
        .expand::<shape![Rows: 1, Cols: 3]>()
        .into_writable()
        .fill_(2.0);
    assert_eq!(row.to_vec(), vec![2.0; 3]);
}
