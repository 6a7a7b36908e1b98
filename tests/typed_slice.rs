//! `s!` and `slice_s` against PyTorch's indexing on worked examples: sizes
//! (static where the compiler can know them), strides, offsets, values, and
//! Python's errors for values known only at run time.

use axial::prelude::*;
use axial::{Data, Shape, TensorBase};

axes!(A, B, C);

/// `(sizes)/(strides)@offset`: a layout in one string.
fn layout<T: axial::Element, S: Shape, Rp: Data<Cpu>>(
    t: &TensorBase<T, S, Cpu, Rp>,
) -> (Vec<usize>, Vec<isize>, usize) {
    (t.sizes().to_vec(), t.strides().to_vec(), t.storage_offset())
}

type X = shape![A: 3, B: 4, C: 5];

/// `t` is a view of the shape `S` (checked by the compiler).
fn is_view<S>(_: &TensorView<'_, f32, S>) {}

/// `x = arange(60.).view(3,4,5)`.
fn x() -> Tensor<f32, X> {
    Tensor::arange()
}

#[test]
fn an_index_drops_its_axis() {
    let x = x();
    let first = x.as_view().slice_s(s![1]);
    is_view::<shape![B: 4, C: 5]>(&first);
    assert_eq!(layout(&first), (vec![4, 5], vec![5, 1], 20));
    let second = x.as_view().slice_s(s![.., 2]);
    is_view::<shape![A: 3, C: 5]>(&second);
    assert_eq!(layout(&second), (vec![3, 5], vec![20, 1], 10));
    let last = x.as_view().slice_s(s![.., .., -1]);
    is_view::<shape![A: 3, B: 4]>(&last);
    assert_eq!(layout(&last), (vec![3, 4], vec![20, 5], 4));
    let element = x.as_view().slice_s(s![2, 3, 4]);
    is_view::<shape![]>(&element);
    assert_eq!(element.item(), 59.0);
}

#[test]
fn literal_ranges_have_static_sizes() {
    let x = x();
    let odd = x.as_view().slice_s(s![.., 1..;2]);
    is_view::<shape![A: 3, B: 2, C: 5]>(&odd);
    assert_eq!(layout(&odd), (vec![3, 2, 5], vec![20, 10, 1], 5));
    let inner = x.as_view().slice_s(s![.., .., 1..4;2]);
    is_view::<shape![A: 3, B: 4, C: 2]>(&inner);
    assert_eq!(layout(&inner), (vec![3, 4, 2], vec![20, 5, 2], 1));
    let strided = x.as_view().slice_s(s![..;10]);
    is_view::<shape![A: 1, B: 4, C: 5]>(&strided);
    assert_eq!(layout(&strided), (vec![1, 4, 5], vec![200, 5, 1], 0));
    let empty = x.as_view().slice_s(s![2..1]);
    is_view::<shape![A: 0, B: 4, C: 5]>(&empty);
    assert_eq!(layout(&empty), (vec![0, 4, 5], vec![20, 5, 1], 40));
    let tail = x.as_view().slice_s(s![.., -2.., 0]);
    is_view::<shape![A: 3, B: 2]>(&tail);
    assert_eq!(layout(&tail), (vec![3, 2], vec![20, 5], 10));
    let between = x.as_view().slice_s(s![.., .., -3..-1]);
    is_view::<shape![A: 3, B: 4, C: 2]>(&between);
    assert_eq!(layout(&between), (vec![3, 4, 2], vec![20, 5, 1], 2));
    let whole = x.as_view().slice_s(s![0..3, ..=3, ..=-1]);
    is_view::<X>(&whole);
    assert_eq!(layout(&whole), (vec![3, 4, 5], vec![20, 5, 1], 0));
    let upto = x.as_view().slice_s(s![..=1, 0, 0]);
    is_view::<shape![A: 2]>(&upto);
    assert_eq!(upto.to_vec(), vec![0.0, 20.0]);
}

#[test]
fn run_time_values_give_dyn_sizes_and_clamp() {
    let x = x();
    let (start, end) = (5usize, 10i32);
    let past = x.as_view().slice_s(s![start..end]);
    is_view::<shape![A: Dyn, B: 4, C: 5]>(&past);
    assert_eq!(layout(&past), (vec![0, 4, 5], vec![20, 5, 1], 60));
    let step = 2;
    let stepped = x.as_view().slice_s(s![.., ..;step]);
    is_view::<shape![A: 3, B: Dyn, C: 5]>(&stepped);
    assert_eq!(layout(&stepped), (vec![3, 2, 5], vec![20, 10, 1], 0));
    let i = -1;
    let picked = x.as_view().slice_s(s![i]);
    is_view::<shape![B: 4, C: 5]>(&picked);
    assert_eq!(picked.storage_offset(), 40);
    let last = 1isize;
    let inclusive = x.as_view().slice_s(s![..=last]);
    is_view::<shape![A: Dyn, B: 4, C: 5]>(&inclusive);
    assert_eq!(inclusive.sizes()[0], 2);
    let to_end = -1;
    let everything = x.as_view().slice_s(s![..=to_end]);
    is_view::<shape![A: Dyn, B: 4, C: 5]>(&everything);
    assert_eq!(everything.sizes()[0], 3);
}

#[test]
fn literals_on_dyn_axes_are_checked_at_run_time() {
    let x = Tensor::<f32, shape![A: Dyn, B: 4]>::arange_dyn(3);
    let past = x.as_view().slice_s(s![1..9]);
    is_view::<shape![A: Dyn, B: 4]>(&past);
    assert_eq!(past.sizes().as_slice(), &[2, 4]);
    assert_eq!(
        x.as_view().try_slice_s(s![3]).unwrap_err().to_string(),
        "index 3 is out of bounds for dimension 0 with size 3"
    );
}

#[test]
fn run_time_errors_are_pythons() {
    let x = x();
    let i = 5;
    assert_eq!(
        x.as_view().try_slice_s(s![0, i]).unwrap_err().to_string(),
        "index 5 is out of bounds for dimension 1 with size 4"
    );
    let j = -4;
    assert_eq!(
        x.as_view().try_slice_s(s![j]).unwrap_err().to_string(),
        "index -4 is out of bounds for dimension 0 with size 3"
    );
    let zero = 0;
    assert_eq!(
        x.as_view()
            .try_slice_s(s![..;zero])
            .unwrap_err()
            .to_string(),
        "slice: slice step cannot be zero"
    );
    let negative = -1;
    assert_eq!(
        x.as_view()
            .try_slice_s(s![..;negative])
            .unwrap_err()
            .to_string(),
        "slice: step must be greater than zero"
    );
}

#[test]
#[should_panic(expected = "index 7 is out of bounds for dimension 2 with size 5")]
fn slice_s_panics_with_the_try_message() {
    let k = 7;
    let _ = x().slice_s(s![.., .., k]);
}

#[test]
fn writes_through_a_mutable_slice_show_in_the_owner() {
    let mut x = x();
    x.as_view_mut().slice_s(s![1, ..;2]).fill_(-1.0);
    assert_eq!(x.get([1, 0, 3]), -1.0);
    assert_eq!(x.get([1, 2, 0]), -1.0);
    assert_eq!(x.get([1, 1, 0]), 25.0);
}

#[test]
fn axes_after_the_last_entry_are_kept() {
    let x = x();
    let none = x.as_view().slice_s(s![]);
    is_view::<X>(&none);
    assert_eq!(layout(&none), (vec![3, 4, 5], vec![20, 5, 1], 0));
}
