//! Named-tensor behaviour (PyTorch's named tensors) through the typed API: what
//! PyTorch checked at run time is proven here, so these are the worked
//! examples that compile.

use axial::prelude::*;

axes!(N, C, H, W, Batch, D, Out, Rows, Cols);

type Nchw = shape![N: 2, C: 3, H: 4, W: 5];

fn nchw() -> Tensor<f32, Nchw> {
    Tensor::zeros()
}

#[test]
fn align_to_permutes_by_name() {
    let x = nchw();
    let y = x.as_view().align_to::<names![W, H, C, N]>();
    assert_eq!(y.sizes().as_slice(), &[5, 4, 3, 2]);
    assert_eq!(y.strides().as_slice(), &[1, 5, 20, 60]);
    assert!(y.shares_storage_with(&x));
}

#[test]
fn align_to_with_ellipsis_keeps_the_rest_in_order() {
    let x = nchw();
    let y = x.as_view().align_to::<names![W, ..., N]>();
    assert_eq!(
        y.names().as_slice(),
        &[Some("W"), Some("C"), Some("H"), Some("N")]
    );
    assert_eq!(y.sizes().as_slice(), &[5, 3, 4, 2]);
    let z = x.as_view().align_to::<names![...]>();
    assert_eq!(z.strides().as_slice(), x.strides().as_slice());
    let front = x.as_view().align_to::<names![..., N]>();
    assert_eq!(
        front.names().as_slice(),
        &[Some("C"), Some("H"), Some("W"), Some("N")]
    );
}

#[test]
fn align_to_inserts_new_axes_of_size_one_stride_zero() {
    let x = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    let y = x.as_view().align_to::<names![N, New<H>, C]>();
    assert_eq!(y.sizes().as_slice(), &[2, 1, 3]);
    assert_eq!(y.strides().as_slice(), &[3, 0, 1]);
    assert_eq!(y.names().as_slice(), &[Some("N"), Some("H"), Some("C")]);
}

#[test]
fn align_as_takes_the_other_names() {
    let c = Tensor::<f32, shape![C: 3]>::zeros();
    let nch = Tensor::<f32, shape![N: 2, C: 3, H: 4]>::zeros();
    let a = c.as_view().align_as(&nch);
    assert_eq!(a.sizes().as_slice(), &[1, 3, 1]);
    assert_eq!(a.strides().as_slice(), &[0, 1, 0]);
    assert_eq!(a.names().as_slice(), &[Some("N"), Some("C"), Some("H")]);
}

/// PyTorch's `align_as(other)`, which is `align_to(other.names)`
/// (ATen's `NamedTensor.cpp`): each of `other`'s names in its order takes
/// self's size and stride when self has it, else size 1 and stride 0; the
/// storage offset is self's.
fn torch_align_as(
    names: &[Option<&str>],
    sizes: &[usize],
    strides: &[isize],
    other: &[Option<&str>],
) -> (Vec<usize>, Vec<isize>) {
    other
        .iter()
        .map(|name| match names.iter().position(|n| n == name) {
            Some(at) => (sizes[at], strides[at]),
            None => (1, 0),
        })
        .unzip()
}

/// `a` is PyTorch's `align_as` of `x` to a tensor named `other`.
fn is_torch_align_as<S1: axial::Shape, S2: axial::Shape>(
    x: &TensorView<'_, f32, S1>,
    a: &TensorView<'_, f32, S2>,
    other: &[Option<&str>],
) {
    let (sizes, strides) = torch_align_as(&x.names(), &x.sizes(), &x.strides(), other);
    assert_eq!(a.names().as_slice(), other);
    assert_eq!(a.sizes().as_slice(), sizes.as_slice());
    assert_eq!(a.strides().as_slice(), strides.as_slice());
    assert_eq!(a.storage_offset(), x.storage_offset());
    assert!(a.shares_storage_with(x));
}

/// A per-channel bias on feature maps: `[Out]` as `[Batch, Out, Rows, Cols]`
/// is the `[1, Out, 1, 1]` view PyTorch's `align_as` gives, and the sum
/// broadcasts it over the other axes.
#[test]
fn align_as_lines_a_bias_up_with_feature_maps() {
    let x = Tensor::<f32, shape![Batch: 2, Out: 3, Rows: 4, Cols: 5]>::zeros();
    let bias = Tensor::<f32, shape![Out: 3]>::from_array([1.0, 2.0, 3.0]);
    let other = [Some("Batch"), Some("Out"), Some("Rows"), Some("Cols")];
    let a = bias.as_view().align_as(&x);
    type AlignedBias = shape![Batch: 1, Out: 3, Rows: 1, Cols: 1];
    let _: &TensorView<'_, f32, AlignedBias> = &a;
    is_torch_align_as(&bias.as_view(), &a, &other);
    assert_eq!(a.strides().as_slice(), &[0, 1, 0, 0]);
    let y = &x + &a;
    for (b, o, r, c) in [(0, 0, 0, 0), (1, 2, 3, 4), (1, 1, 2, 0)] {
        assert_eq!(y.get([b, o, r, c]), [1.0, 2.0, 3.0][o as usize]);
    }
    // With a run-time batch size the view is the same.
    let d = Tensor::<f32, shape![Batch: Dyn, Out: 3, Rows: 4, Cols: 5]>::zeros_dyn(2);
    let ad = bias.as_view().align_as(&d);
    is_torch_align_as(&bias.as_view(), &ad, &other);
    assert_eq!((&d + &ad).to_vec(), y.to_vec());
}

/// Self's own strides and offset carry over whatever its layout: a
/// transposed, sliced `[Cols, Out]` as `[Batch, Out, Rows, Cols]`.
#[test]
fn align_as_keeps_strides_of_any_layout() {
    let x = Tensor::<f32, shape![Batch: 2, Out: 3, Rows: 4, Cols: 5]>::zeros();
    let w = Tensor::<f32, shape![Out: 3, Cols: 6]>::arange();
    let narrowed = w.as_view().narrow::<Cols>(1, 5);
    let cols_out = narrowed.t();
    let a = cols_out.as_view().align_as(&x);
    type Aligned = shape![Batch: 1, Out: 3, Rows: 1, Cols: Dyn];
    let _: &TensorView<'_, f32, Aligned> = &a;
    let other = [Some("Batch"), Some("Out"), Some("Rows"), Some("Cols")];
    is_torch_align_as(&cols_out.as_view(), &a, &other);
    assert_eq!(a.strides().as_slice(), &[0, 6, 0, 1]);
    assert_eq!(a.storage_offset(), 1);
    assert_eq!(a.get([0, 2, 0, 4]), w.get([2, 5]));
}

#[test]
fn refine_names_names_anonymous_axes_only() {
    let x = Tensor::<f32, shape![2, C: 3]>::zeros();
    assert_eq!(x.names().as_slice(), &[None, Some("C")]);
    let y = x.as_view().refine_names::<names![N, C]>();
    assert_eq!(y.names().as_slice(), &[Some("N"), Some("C")]);
    let kept = x.as_view().refine_names::<names![_, C]>();
    assert_eq!(kept.names().as_slice(), &[None, Some("C")]);
    // The same layout: only the type changed.
    assert_eq!(y.strides().as_slice(), x.strides().as_slice());
    assert!(y.shares_storage_with(&x));
}

#[test]
fn rename_changes_one_name_and_shares_storage() {
    let x = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    let y = x.as_view().rename::<N, Batch>();
    assert_eq!(y.names().as_slice(), &[Some("Batch"), Some("C")]);
    assert!(y.shares_storage_with(&x));
    let same = x.as_view().rename::<C, C>();
    assert_eq!(same.names().as_slice(), &[Some("N"), Some("C")]);
}

#[test]
fn names_propagate_as_in_pytorch() {
    let x = Tensor::<f32, shape![N: 2, C: 3, H: 4, W: 5]>::zeros();
    // transpose and t() swap names
    let t = x.as_view().transpose::<C, W>();
    assert_eq!(
        t.names().as_slice(),
        &[Some("N"), Some("W"), Some("H"), Some("C")]
    );
    // select drops the name, slicing keeps names
    assert_eq!(
        x.as_view().select::<H>(0).names().as_slice(),
        &[Some("N"), Some("C"), Some("W")]
    );
    assert_eq!(
        x.as_view().narrow::<H>(0, 2).names().as_slice(),
        x.names().as_slice()
    );
    // flatten(['C','H','W'], 'CHW') -> [N, CHW]
    axes!(CHW);
    let f = x.as_view().merge::<names![C, H, W], CHW>();
    assert_eq!(f.names().as_slice(), &[Some("N"), Some("CHW")]);
    // expand adds anonymous axes on the left
    let e = x.as_view().expand::<shape![7, N: 2, C: 3, H: 4, W: 5]>();
    assert_eq!(e.names()[0], None);
}

#[test]
fn anonymous_axes_are_addressed_by_their_marker() {
    let grid = Tensor::<i64, shape![3, 4]>::arange();
    let t = grid.as_view().transpose::<Anon<0>, Anon<1>>();
    assert_eq!(t.sizes().as_slice(), &[4, 3]);
    assert_eq!(grid.as_view().select::<Anon<1>>(2).to_vec(), vec![2, 6, 10]);
}

#[test]
fn realize_checks_dyn_sizes_once() {
    let x = Tensor::<f32, shape![N: Dyn, C: 3]>::zeros_dyn(2);
    let fixed = x.as_view().realize::<shape![N: 2, C: 3]>().unwrap();
    assert_eq!(fixed.sizes().as_slice(), &[2, 3]);
    assert_eq!(
        x.as_view()
            .realize::<shape![N: 4, C: 3]>()
            .unwrap_err()
            .to_string(),
        "realize: axis `N` has size 2, but the type says 4"
    );
    // Back to Dyn, and a Dyn target accepts any size.
    let again = fixed.into_dyn::<N>();
    assert!(again.realize::<shape![N: Dyn, C: 3]>().is_ok());
}

#[test]
fn names_are_compared_by_spelling() {
    mod other {
        axial::axes!(N);
    }
    // Two markers spelled `N` are one axis name, as PyTorch's string names.
    let x = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    assert_eq!(
        x.as_view().select::<other::N>(1).names().as_slice(),
        &[Some("C")]
    );
}

#[test]
fn many_axes_have_no_ceiling() {
    axes!(
        A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14
    );
    type Wide = shape![A0: 1, A1: 1, A2: 1, A3: 1, A4: 1, A5: 1, A6: 1, A7: 1, A8: 1, A9: 1, A10: 1, A11: 1, A12: 1, A13: 2, A14: 3];
    let x = Tensor::<f32, Wide>::zeros();
    assert_eq!(x.dim(), 15);
    let y = x.as_view().transpose::<A0, A14>();
    assert_eq!(y.sizes()[0], 3);
    let z = x.as_view().align_to::<names![A14, ...]>();
    assert_eq!(z.names()[0], Some("A14"));
    assert_eq!(z.names()[14], Some("A13"));
}
