//! 32 cases of einops' documentation through `rearrange!`, `reduce!` and
//! `repeat!` (case 19 is a compile error: `ui-tests/fail/einops_ellipsis_in_parenthesis.rs`),
//! each checked for its output type (names and sizes), its values against a
//! naive evaluation of einops' definition, and whether it is a view; then
//! `einsum!`, and the errors only run time can see (sizes of `Dyn` axes and
//! run-time values), in einops' words.

use axial::prelude::*;
use axial::{Composed, Unnamed};

axes!(
    A, A1, A2, B, C, D, E, E1, E2, H, H1, H2, W, W1, W2, P, X, Y, Copies, Copy1, Copy2, I, J, K,
    Seq, Keys, Inner, Heads, HeadDim
);

/// `t` is a view of the shape `S` (checked by the compiler).
fn is_view<S>(_: &TensorView<'_, f32, S>) {}

/// `t` is a view or a copy of the shape `S`.
fn is_cow<S>(_: &TensorCow<'_, f32, S>) {}

/// `t` is a new tensor of the shape `S`.
fn is_owned<S>(_: &Tensor<f32, S>) {}

/// The row-major position of `index` in `shape` (the value of an `arange`).
fn ravel(index: &[usize], shape: &[usize]) -> usize {
    index.iter().zip(shape).fold(0, |at, (&i, &n)| at * n + i)
}

/// Every index of `shape`, in row-major order.
fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let count: usize = shape.iter().product();
    (0..count)
        .map(|mut flat| {
            let mut index = vec![0; shape.len()];
            for (i, &n) in index.iter_mut().zip(shape).rev() {
                *i = flat % n;
                flat /= n;
            }
            index
        })
        .collect()
}

/// `values` (row-major, of `shape`) are `expected` at every index.
fn check(values: Vec<f32>, shape: &[usize], expected: impl Fn(&[usize]) -> f32) {
    let want: Vec<f32> = indices(shape).iter().map(|i| expected(i)).collect();
    assert_eq!(values, want);
}

/// `arange` of the shape `S`: the value at an index is its row-major position.
fn arange<S: axial::shape::StaticShape + axial::shape::Distinct>() -> Tensor<f32, S> {
    Tensor::arange()
}

type Bchw = shape![B: 2, C: 3, H: 4, W: 5];
const BCHW: [usize; 4] = [2, 3, 4, 5];

/// `x[b, c, h, w]` of the `arange` of `BCHW`.
fn bchw(b: usize, c: usize, h: usize, w: usize) -> f32 {
    ravel(&[b, c, h, w], &BCHW) as f32
}

#[test]
fn case_01_permutation_is_a_view() {
    let x = arange::<Bchw>();
    let y = rearrange!(x.as_view(), "B C H W -> B H W C");
    is_view::<shape![B: 2, H: 4, W: 5, C: 3]>(&y);
    assert!(y.shares_storage_with(&x));
    assert_eq!(y.strides().as_slice(), &[60, 5, 1, 20]);
    check(y.to_vec(), &y.sizes(), |i| bchw(i[0], i[3], i[1], i[2]));
}

#[test]
fn case_02_merging_trailing_axes_is_a_view() {
    let x = arange::<Bchw>();
    let y = rearrange!(x.as_view(), "B C H W -> B (C H W)");
    is_cow::<shape![B: 2, Composed<(C, H, W)>: 60]>(&y);
    assert_eq!(y.names()[1], Some("(C H W)"));
    assert!(y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| (i[0] * 60 + i[1]) as f32);
}

#[test]
fn case_03_merging_across_a_permutation_copies() {
    let x = arange::<Bchw>();
    let y = rearrange!(x.as_view(), "B C H W -> (B H) W C");
    is_cow::<shape![Composed<(B, H)>: 8, W: 5, C: 3]>(&y);
    assert!(!y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        bchw(i[0] / 4, i[2], i[0] % 4, i[1])
    });
}

#[test]
fn case_04_decomposition_is_a_view() {
    let x = arange::<shape![B: 2, C: 3, H: 4, 6]>();
    let y = rearrange!(x.as_view(), "B C H (W1 W2) -> B C H W1 W2", W2 = 2);
    is_view::<shape![B: 2, C: 3, H: 4, W1: 3, W2: 2]>(&y);
    assert!(y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        ravel(&[i[0], i[1], i[2], i[3] * 2 + i[4]], &[2, 3, 4, 6]) as f32
    });
}

#[test]
fn case_05_space_to_depth() {
    let x = arange::<shape![B: 2, C: 3, H: 4, W: 6]>();
    let y = rearrange!(
        x.as_view(),
        "B C (H H1) (W W1) -> B (C H1 W1) H W",
        H1 = 2,
        W1 = 2
    );
    is_cow::<shape![B: 2, Composed<(C, H1, W1)>: 12, H: 2, W: 3]>(&y);
    assert!(!y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        let (c, h1, w1) = (i[1] / 4, i[1] / 2 % 2, i[1] % 2);
        ravel(&[i[0], c, i[2] * 2 + h1, i[3] * 2 + w1], &[2, 3, 4, 6]) as f32
    });
}

#[test]
fn case_06_a_group_decomposes_an_axis_of_any_name() {
    let x = arange::<shape![B: 2, 12, H: 4, W: 5]>();
    let y = rearrange!(x.as_view(), "B (H1 C) H W -> B C (H H1) W", H1 = 2);
    is_cow::<shape![B: 2, C: 6, Composed<(H, H1)>: 8, W: 5]>(&y);
    assert!(!y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        let (h, h1) = (i[2] / 2, i[2] % 2);
        ravel(&[i[0], h1 * 6 + i[1], h, i[3]], &[2, 12, 4, 5]) as f32
    });
}

#[test]
fn case_07_ellipsis_merged() {
    let x = arange::<Bchw>();
    let y = rearrange!(x.as_view(), "B ... -> B (...)");
    is_cow::<shape![B: 2, Composed<(C, H, W)>: 60]>(&y);
    assert!(y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| (i[0] * 60 + i[1]) as f32);
}

#[test]
fn case_08_ellipsis_moved() {
    let x = arange::<Bchw>();
    let y = rearrange!(x.as_view(), "... W -> W ...");
    is_view::<shape![W: 5, B: 2, C: 3, H: 4]>(&y);
    assert!(y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| bchw(i[1], i[2], i[3], i[0]));
}

#[test]
fn case_09_everything_flattened() {
    let x = arange::<Bchw>();
    let y = rearrange!(x.as_view(), "... -> (...)");
    is_cow::<shape![Composed<(B, C, H, W)>: 120]>(&y);
    assert!(y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| i[0] as f32);
}

#[test]
fn case_10_11_units_added() {
    let x = arange::<shape![A: 2, B: 3]>();
    let y = rearrange!(x.as_view(), "A B -> A 1 B");
    is_view::<shape![A: 2, Unnamed<1>: 1, B: 3]>(&y);
    assert_eq!(y.names().as_slice(), &[Some("A"), None, Some("B")]);
    assert!(y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| (i[0] * 3 + i[2]) as f32);
    let z = rearrange!(x.as_view(), "A B -> A () B ()");
    is_view::<shape![A: 2, Unnamed<1>: 1, B: 3, Unnamed<3>: 1]>(&z);
    assert!(z.shares_storage_with(&x));
    check(z.to_vec(), &z.sizes(), |i| (i[0] * 3 + i[2]) as f32);
}

#[test]
fn case_12_13_units_dropped() {
    axes!(One);
    let x = arange::<shape![A: 2, One: 1, B: 3]>();
    let y = rearrange!(x.as_view(), "A 1 B -> A B");
    is_view::<shape![A: 2, B: 3]>(&y);
    assert!(y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| (i[0] * 3 + i[1]) as f32);
    let z = rearrange!(x.as_view(), "A () B -> B A");
    is_view::<shape![B: 3, A: 2]>(&z);
    assert!(z.shares_storage_with(&x));
    check(z.to_vec(), &z.sizes(), |i| (i[1] * 3 + i[0]) as f32);
}

#[test]
fn case_14_split_with_one_size_given() {
    let x = arange::<shape![6]>();
    let y = rearrange!(x.as_view(), "(A B) -> A B", A = 2);
    is_view::<shape![A: 2, B: 3]>(&y);
    assert!(y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| (i[0] * 3 + i[1]) as f32);
}

type Abcde = shape![A: 2, B: 3, C: 4, D: 5, E: 6];
const ABCDE: [usize; 5] = [2, 3, 4, 5, 6];

fn abcde(a: usize, b: usize, c: usize, d: usize, e: usize) -> f32 {
    ravel(&[a, b, c, d, e], &ABCDE) as f32
}

#[test]
fn case_15_groups_in_any_order() {
    let x = arange::<Abcde>();
    let y = rearrange!(x.as_view(), "A B C D E -> (E A) D (C B)");
    is_cow::<shape![Composed<(E, A)>: 12, D: 5, Composed<(C, B)>: 12]>(&y);
    assert!(!y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        abcde(i[0] % 2, i[2] % 3, i[2] / 3, i[1], i[0] / 2)
    });
}

#[test]
fn case_16_ellipsis_inside_a_group() {
    let x = arange::<Abcde>();
    let y = rearrange!(x.as_view(), "A B ... E -> B (A ...) E");
    is_cow::<shape![B: 3, Composed<(A, C, D)>: 40, E: 6]>(&y);
    assert!(!y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        let (a, c, d) = (i[1] / 20, i[1] / 5 % 4, i[1] % 5);
        abcde(a, i[0], c, d, i[2])
    });
}

#[test]
fn case_17_zero_dims() {
    let x = Tensor::<f32, shape![]>::full(7.0);
    let y = rearrange!(x.as_view(), "... -> ...");
    is_view::<shape![]>(&y);
    assert!(y.shares_storage_with(&x));
    assert_eq!(y.item(), 7.0);
}

#[test]
fn case_18_decomposition_with_ellipsis() {
    let x = arange::<shape![4, B: 5, C: 6, D: 3]>();
    let y = rearrange!(x.as_view(), "(A A2) B C ... -> B (C A2) (A ...)", A2 = 2);
    is_cow::<shape![B: 5, Composed<(C, A2)>: 12, Composed<(A, D)>: 6]>(&y);
    assert!(!y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        let (c, a2, a, d) = (i[1] / 2, i[1] % 2, i[2] / 3, i[2] % 3);
        ravel(&[a * 2 + a2, i[0], c, d], &[4, 5, 6, 3]) as f32
    });
}

#[test]
fn case_20_mean() {
    let x = arange::<Bchw>();
    let y = reduce!(x.as_view(), "B C H W -> B C", mean);
    is_owned::<shape![B: 2, C: 3]>(&y);
    check(y.to_vec(), &y.sizes(), |i| {
        // The mean of h * 5 + w over h < 4, w < 5.
        bchw(i[0], i[1], 0, 0) + 9.5
    });
}

/// `x[b, c, h, w]` of the `arange` of `(2, 3, 4, 6)`.
fn pooled(b: usize, c: usize, h: usize, w: usize) -> f32 {
    ravel(&[b, c, h, w], &[2, 3, 4, 6]) as f32
}

#[test]
fn case_21_max_pooling_with_sizes() {
    let x = arange::<shape![B: 2, C: 3, H: 4, W: 6]>();
    let y = reduce!(
        x.as_view(),
        "B C (H H2) (W W2) -> B C H W",
        max,
        H2 = 2,
        W2 = 2
    );
    is_owned::<shape![B: 2, C: 3, H: 2, W: 3]>(&y);
    check(y.to_vec(), &y.sizes(), |i| {
        pooled(i[0], i[1], 2 * i[2] + 1, 2 * i[3] + 1)
    });
}

#[test]
fn case_22_max_pooling_with_anonymous_axes() {
    let x = arange::<shape![B: 2, C: 3, H: 4, W: 6]>();
    let y = reduce!(x.as_view(), "B C (H 2) (W 2) -> B C H W", max);
    is_owned::<shape![B: 2, C: 3, H: 2, W: 3]>(&y);
    check(y.to_vec(), &y.sizes(), |i| {
        pooled(i[0], i[1], 2 * i[2] + 1, 2 * i[3] + 1)
    });
}

#[test]
fn case_23_inferred_sizes_are_static() {
    let x = arange::<shape![B: 10, C: 20, 30, 40]>();
    let y = reduce!(
        x.as_view(),
        "B C (H1 H2) (W1 W2) -> B C H1 W1",
        max,
        H1 = 3,
        W1 = 4
    );
    is_owned::<shape![B: 10, C: 20, H1: 3, W1: 4]>(&y);
    check(y.to_vec(), &y.sizes(), |i| {
        ravel(
            &[i[0], i[1], i[2] * 10 + 9, i[3] * 10 + 9],
            &[10, 20, 30, 40],
        ) as f32
    });
}

#[test]
fn case_24_units_kept_or_added() {
    let x = arange::<Bchw>();
    let y = reduce!(x.as_view(), "B C H W -> B C () ()", mean);
    is_owned::<shape![B: 2, C: 3, Unnamed<2>: 1, Unnamed<3>: 1]>(&y);
    check(y.to_vec(), &y.sizes(), |i| bchw(i[0], i[1], 0, 0) + 9.5);
    let z = reduce!(x.as_view(), "B C H W -> 1 C 1 1", mean);
    is_owned::<shape![Unnamed<0>: 1, C: 3, Unnamed<2>: 1, Unnamed<3>: 1]>(&z);
    check(z.to_vec(), &z.sizes(), |i| bchw(0, i[1], 0, 0) + 9.5 + 30.0);
}

#[test]
fn case_25_sum_of_everything() {
    let x = arange::<Abcde>();
    let y = reduce!(x.as_view(), "A B C D E -> ", sum);
    is_owned::<shape![]>(&y);
    assert_eq!(y.item(), (0..720).sum::<usize>() as f32);
}

#[test]
fn case_26_min_into_a_group() {
    let x = arange::<Abcde>();
    let y = reduce!(x.as_view(), "A B C D E -> (E C) A", min);
    is_owned::<shape![Composed<(E, C)>: 24, A: 2]>(&y);
    check(y.to_vec(), &y.sizes(), |i| {
        abcde(i[1], 0, i[0] % 4, 0, i[0] / 4)
    });
}

#[test]
fn case_27_sum_through_groups_and_an_ellipsis() {
    let x = arange::<Abcde>();
    let y = reduce!(x.as_view(), "(A A2) ... (E1 E) -> ", sum, A = 1, E = 2);
    is_owned::<shape![]>(&y);
    assert_eq!(y.item(), (0..720).sum::<usize>() as f32);
}

#[test]
fn reductions_give_pytorchs_dtypes() {
    let x = Tensor::<i32, shape![A: 2, B: 3]>::arange();
    let sums: Tensor<i64, shape![A: 2]> = reduce!(x.as_view(), "A B -> A", sum);
    assert_eq!(sums.to_vec(), vec![3, 12]);
    let products: Tensor<i64, shape![B: 3]> = reduce!(x.as_view(), "A B -> B", prod);
    assert_eq!(products.to_vec(), vec![0, 4, 10]);
    let any: Tensor<Bool, shape![A: 2]> = reduce!(x.as_view(), "A B -> A", any);
    assert_eq!(any.to_vec(), vec![Bool::TRUE, Bool::TRUE]);
    let all: Tensor<Bool, shape![A: 2]> = reduce!(x.as_view(), "A B -> A", all);
    assert_eq!(all.to_vec(), vec![Bool::FALSE, Bool::TRUE]);
    let bytes = Tensor::<u8, shape![A: 2, B: 3]>::arange();
    let all_bytes: Tensor<u8, shape![A: 2]> = reduce!(bytes, "A B -> A", all);
    assert_eq!(all_bytes.to_vec(), vec![0, 1]);
    let max: Tensor<i32, shape![B: 3]> = reduce!(x.as_view(), "A B -> B", max);
    assert_eq!(max.to_vec(), vec![3, 4, 5]);
}

#[test]
fn reducing_nothing_still_gives_the_reductions_dtype() {
    let x = Tensor::<i32, shape![A: 2]>::arange();
    // `...` stands for no axes here: nothing is reduced, the dtype is still i64.
    let y: Tensor<i64, shape![A: 2]> = reduce!(x.as_view(), "A ... -> A", sum);
    assert_eq!(y.to_vec(), vec![0, 1]);
}

#[test]
fn case_28_repeat_is_a_stride_0_view() {
    let x = arange::<shape![H: 30, W: 40]>();
    let y = repeat!(x.as_view(), "H W -> H W C", C = 3);
    is_view::<shape![H: 30, W: 40, C: 3]>(&y);
    assert!(y.shares_storage_with(&x));
    assert_eq!(y.strides().as_slice(), &[40, 1, 0]);
    check(y.to_vec(), &y.sizes(), |i| (i[0] * 40 + i[1]) as f32);
}

#[test]
fn case_29_repeat_into_groups_copies() {
    let x = arange::<shape![H: 30, W: 40]>();
    let y = repeat!(x.as_view(), "H W -> (H H2) (W W2)", H2 = 2, W2 = 2);
    is_cow::<shape![Composed<(H, H2)>: 60, Composed<(W, W2)>: 80]>(&y);
    assert!(!y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        (i[0] / 2 * 40 + i[1] / 2) as f32
    });
}

#[test]
fn case_30_repeat_around_an_ellipsis() {
    let x = arange::<shape![A: 2, B: 3, C: 5]>();
    let y = repeat!(x.as_view(), "... -> Copy1 ... Copy2", Copy1 = 2, Copy2 = 3);
    is_view::<shape![Copy1: 2, A: 2, B: 3, C: 5, Copy2: 3]>(&y);
    assert!(y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        ravel(&i[1..4], &[2, 3, 5]) as f32
    });
}

#[test]
fn case_31_repeat_with_units_and_lengths() {
    let x = arange::<shape![X: 1, B: 2, C: 4, D: 6]>();
    let y = repeat!(x.as_view(), "1 B C D -> (D Copies 1) 3 B C", Copies = 3);
    is_cow::<shape![Composed<(D, Copies)>: 18, Unnamed<1>: 3, B: 2, C: 4]>(&y);
    assert!(!y.shares_storage_with(&x));
    check(y.to_vec(), &y.sizes(), |i| {
        ravel(&[i[2], i[3], i[0] / 3], &[2, 4, 6]) as f32
    });
}

#[test]
fn case_32_a_list_is_stacked() {
    type Hw = shape![H: 3, W: 4];
    let xs: Vec<Tensor<f32, Hw>> = (0..5)
        .map(|k| Tensor::from_vec((0..12).map(|v| (k * 12 + v) as f32).collect()))
        .collect();
    let y = rearrange!(xs, "B H W -> H (B W)");
    is_owned::<shape![H: 3, Composed<(B, W)>: Dyn]>(&y);
    assert_eq!(y.sizes().as_slice(), &[3, 20]);
    check(y.to_vec(), &y.sizes(), |i| {
        ravel(&[i[1] / 4, i[0], i[1] % 4], &[5, 3, 4]) as f32
    });
    let pair = [
        arange::<shape![H: 3, W: 4]>(),
        arange::<shape![H: 3, W: 4]>(),
    ];
    let z = rearrange!(pair, "B H W -> H (B W)");
    is_owned::<shape![H: 3, Composed<(B, W)>: 8]>(&z);
}

#[test]
fn a_mutable_permutation_stays_writable() {
    let mut x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    let mut t = rearrange!(x.as_view_mut(), "A B -> B A");
    t.set([2, 1], 5.0);
    assert_eq!(x.get([1, 2]), 5.0);
}

#[test]
fn owned_inputs_keep_their_storage() {
    let x = arange::<shape![A: 2, B: 3]>();
    let y = rearrange!(x, "A B -> (A B)");
    is_owned::<shape![Composed<(A, B)>: 6]>(&y);
    assert_eq!(y.to_vec(), (0..6).map(|v| v as f32).collect::<Vec<_>>());
}

#[test]
fn anonymous_axes_take_the_patterns_names() {
    let x = Tensor::<f32, shape![2, 3]>::arange();
    let y = rearrange!(x.as_view(), "A B -> B A");
    is_view::<shape![B: 3, A: 2]>(&y);
    assert_eq!(y.names().as_slice(), &[Some("B"), Some("A")]);
}

#[test]
fn dyn_axes_decompose_at_run_time() {
    let x = Tensor::<f32, shape![B: 2, Dyn]>::arange_dyn(6);
    let y = try_rearrange!(x.as_view(), "B (H W) -> B H W", W = 3).unwrap();
    is_view::<shape![B: 2, H: Dyn, W: 3]>(&y);
    assert_eq!(y.sizes().as_slice(), &[2, 2, 3]);
    let n = 2;
    let z = rearrange!(x.as_view(), "B (H W) -> B H W", W = n);
    is_view::<shape![B: 2, H: Dyn, W: Dyn]>(&z);
    assert_eq!(z.sizes().as_slice(), &[2, 3, 2]);
    // A literal size given for a `Dyn` axis is checked, then known.
    let fixed = rearrange!(x.as_view(), "B X -> X B", X = 6);
    is_view::<shape![X: 6, B: 2]>(&fixed);
    let wrong = try_rearrange!(x.as_view(), "B X -> X B", X = 5).unwrap_err();
    assert!(wrong.to_string().ends_with("\n Shape mismatch, 6 != 5"));
}

#[test]
fn run_time_sizes_that_do_not_fit_are_einops_errors() {
    let x = Tensor::<f32, shape![B: 2, Dyn]>::zeros_dyn(6);
    let err = try_rearrange!(x.as_view(), "B (H P) -> B H P", P = 4).unwrap_err();
    assert_eq!(
        err.to_string(),
        " Error while processing rearrange-reduction pattern \"B (H P) -> B H P\".\n Input tensor shape: [2, 6]. Additional info: {'P': 4}.\n Shape mismatch, can't divide axis of length 6 in chunks of 4"
    );
    let fixed = Tensor::<f32, shape![B: 2, 6]>::zeros();
    let four = 4;
    let err = try_rearrange!(fixed.as_view(), "B (H P) -> B H P", H = 2, P = four).unwrap_err();
    assert!(err.to_string().ends_with("\n Shape mismatch, 6 != 8"));
    let units = Tensor::<f32, shape![A: 2, X: Dyn, B: 3]>::zeros_dyn(2);
    let err = try_rearrange!(units.as_view(), "A 1 B -> A B").unwrap_err();
    assert!(err.to_string().ends_with("\n Shape mismatch, 2 != 1"));
    let given = Tensor::<f32, shape![A: Dyn, B: 3]>::zeros_dyn(2);
    let err = try_repeat!(given.as_view(), "A B -> A B C", A = 3, C = 2).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(" Error while processing repeat-reduction pattern")
    );
    assert!(err.to_string().ends_with("\n Shape mismatch, 2 != 3"));
}

#[test]
#[should_panic(expected = "Shape mismatch, can't divide axis of length 6 in chunks of 4")]
fn the_plain_macro_panics_with_the_message() {
    let x = Tensor::<f32, shape![B: 2, Dyn]>::zeros_dyn(6);
    let _ = rearrange!(x.as_view(), "B (H P) -> B H P", P = 4);
}

#[test]
fn an_empty_list_is_an_error() {
    let xs: Vec<Tensor<f32, shape![H: 3]>> = Vec::new();
    let err = try_rearrange!(xs, "B H -> H B").unwrap_err();
    assert_eq!(
        err.to_string(),
        "einops: Rearrange/Reduce/Repeat can't be applied to an empty list"
    );
}

#[test]
fn einsum_contracts_by_name() {
    let a = arange::<shape![B: 2, I: 2, J: 3]>();
    let b = arange::<shape![B: 2, J: 3, K: 4]>();
    let c = einsum!("B I J, B J K -> B I K", a, b);
    is_owned::<shape![B: 2, I: 2, K: 4]>(&c);
    check(c.to_vec(), &c.sizes(), |i| {
        (0..3)
            .map(|j| {
                ravel(&[i[0], i[1], j], &[2, 2, 3]) as f32
                    * ravel(&[i[0], j, i[2]], &[2, 3, 4]) as f32
            })
            .sum()
    });
    let trace_like = einsum!("B I J -> B", a);
    is_owned::<shape![B: 2]>(&trace_like);
    check(trace_like.to_vec(), &trace_like.sizes(), |i| {
        (0..6).map(|k| (i[0] * 6 + k) as f32).sum()
    });
}

#[test]
fn einsum_with_ellipsis_keeps_the_batch_axes() {
    let a = arange::<shape![B: 2, I: 2, J: 3]>();
    let b = arange::<shape![B: 2, J: 3, K: 1]>();
    let c = einsum!("... I J, ... J K -> ... I K", a.as_view(), b.as_view());
    is_owned::<shape![B: 2, I: 2, K: 1]>(&c);
    check(c.to_vec(), &c.sizes(), |i| {
        (0..3)
            .map(|j| ravel(&[i[0], i[1], j], &[2, 2, 3]) as f32 * (i[0] * 3 + j) as f32)
            .sum()
    });
}

#[test]
fn einsum_sizes_of_dyn_axes_are_checked_at_run_time() {
    let a = Tensor::<f32, shape![I: 2, J: Dyn]>::zeros_dyn(3);
    let b = Tensor::<f32, shape![J: Dyn, K: 2]>::zeros_dyn(4);
    assert!(try_einsum!("I J, J K -> I K", a, b).is_err());
}

/// A group on the left splits the axis at its place when it names it, or
/// the axis is exactly the group merged: `(H W)` splits back the axis
/// `(H W)` that a merge made (a round trip), while `(W H)` would not compile
/// (nor would `(W P)` on `H`).
#[test]
fn groups_split_the_axis_they_name_or_compose() {
    let x = arange::<shape![B: 2, H: 3, W: 4]>();
    let merged = rearrange!(x.as_view(), "B H W -> B (H W)");
    let back = rearrange!(merged.as_view(), "B (H W) -> B H W", W = 4);
    is_view::<shape![B: 2, H: 3, W: 4]>(&back);
    assert_eq!(back.to_vec(), x.to_vec());
    // A group that names its axis among new parts: `(H P)` on `H`.
    let halves = rearrange!(x.as_view(), "B H (W P) -> B H W P", P = 2);
    is_view::<shape![B: 2, H: 3, W: 2, P: 2]>(&halves);
}

/// The head split of attention: a group of new names splits a named axis
/// (`Inner` is gone, `Heads` and `HeadDim` take its place, 384 / 12 = 32
/// inferred while compiling), as a view with einops' values; the merge back
/// is the composed axis `(Heads HeadDim)`, equal to the input.
#[test]
fn a_group_of_new_names_splits_a_named_axis() {
    let q = arange::<shape![B: 2, Seq: 3, Inner: 384]>();
    let heads = rearrange!(
        q.as_view(),
        "B Seq (Heads HeadDim) -> B Heads Seq HeadDim",
        Heads = 12
    );
    is_view::<shape![B: 2, Heads: 12, Seq: 3, HeadDim: 32]>(&heads);
    assert!(heads.shares_storage_with(&q));
    assert_eq!(heads.strides().as_slice(), &[1152, 32, 384, 1]);
    check(heads.to_vec(), &heads.sizes(), |i| {
        ravel(&[i[0], i[2], i[1] * 32 + i[3]], &[2, 3, 384]) as f32
    });
    let merged = rearrange!(
        heads.as_view(),
        "B Heads Seq HeadDim -> B Seq (Heads HeadDim)"
    );
    is_cow::<shape![B: 2, Seq: 3, Composed<(Heads, HeadDim)>: 384]>(&merged);
    assert_eq!(merged.to_vec(), q.to_vec());
    let renamed = merged.rename::<Composed<(Heads, HeadDim)>, Inner>();
    assert_eq!(renamed.names()[2], Some("Inner"));
    // reduce! and repeat! take the same groups.
    let per_head = reduce!(
        q.as_view(),
        "B Seq (Heads HeadDim) -> B Heads",
        sum,
        Heads = 12
    );
    is_owned::<shape![B: 2, Heads: 12]>(&per_head);
    check(per_head.to_vec(), &per_head.sizes(), |i| {
        (0..3)
            .flat_map(|s| (0..32).map(move |d| (s, d)))
            .map(|(s, d)| ravel(&[i[0], s, i[1] * 32 + d], &[2, 3, 384]) as f32)
            .sum()
    });
    let copies = repeat!(
        q.as_view(),
        "B Seq (Heads HeadDim) -> B Heads Seq HeadDim Copies",
        Heads = 12,
        Copies = 2
    );
    is_view::<shape![B: 2, Heads: 12, Seq: 3, HeadDim: 32, Copies: 2]>(&copies);
}

/// A group that names its axis among new names keeps the name for the part
/// left to infer: `(Inner P)` on `Inner` of 384 gives `Inner: 96` and
/// `P: 4`, as `(Heads HeadDim)` gives `Heads` and `HeadDim`: in both the
/// parts are the result's names, as written.
#[test]
fn a_group_that_names_its_axis_keeps_the_name_for_its_part() {
    let q = arange::<shape![B: 2, Seq: 3, Inner: 384]>();
    let split = rearrange!(q.as_view(), "B Seq (Inner P) -> B P Seq Inner", P = 4);
    is_view::<shape![B: 2, P: 4, Seq: 3, Inner: 96]>(&split);
    check(split.to_vec(), &split.sizes(), |i| {
        ravel(&[i[0], i[2], i[3] * 4 + i[1]], &[2, 3, 384]) as f32
    });
    // A merged axis splits into new names as well.
    let flat = rearrange!(q.as_view(), "B Seq Inner -> B (Seq Inner)");
    let rows = rearrange!(
        flat.as_view(),
        "B (Heads HeadDim) -> B Heads HeadDim",
        HeadDim = 64
    );
    is_view::<shape![B: 2, Heads: 18, HeadDim: 64]>(&rows);
    assert_eq!(rows.to_vec(), q.to_vec());
}

/// The einops lines of a transformer's attention, as model code writes
/// them, against the same attention computed element by element.
#[test]
fn the_einops_lines_of_attention() {
    type Hidden = shape![B: 2, Seq: 3, Inner: 8];
    let values = |offset: f32| -> Tensor<f32, Hidden> {
        Tensor::from_vec(
            (0..48)
                .map(|v| ((v as f32 + offset) * 0.37).sin())
                .collect(),
        )
    };
    let (q, k, v) = (values(0.0), values(11.0), values(23.0));
    let q = rearrange!(
        q.as_view(),
        "B Seq (Heads HeadDim) -> B Heads Seq HeadDim",
        Heads = 2
    );
    let k = rearrange!(
        k.as_view().rename::<Seq, Keys>(),
        "B Keys (Heads HeadDim) -> B Heads Keys HeadDim",
        Heads = 2
    );
    let v = rearrange!(
        v.as_view().rename::<Seq, Keys>(),
        "B Keys (Heads HeadDim) -> B Heads Keys HeadDim",
        Heads = 2
    );
    let scores = einsum!(
        "B Heads Seq HeadDim, B Heads Keys HeadDim -> B Heads Seq Keys",
        q,
        k
    );
    let weights = (&scores * 0.5).softmax::<Keys>();
    let mixed = einsum!(
        "B Heads Seq Keys, B Heads Keys HeadDim -> B Heads Seq HeadDim",
        weights,
        v
    );
    let out = rearrange!(mixed, "B Heads Seq HeadDim -> B Seq (Heads HeadDim)");
    is_owned::<shape![B: 2, Seq: 3, Composed<(Heads, HeadDim)>: 8]>(&out);

    let at = |offset: f32, b: usize, s: usize, i: usize| {
        ((ravel(&[b, s, i], &[2, 3, 8]) as f32 + offset) * 0.37).sin() as f64
    };
    let mut expected = Vec::new();
    for b in 0..2 {
        for s in 0..3 {
            for h in 0..2 {
                let score = |t: usize| {
                    (0..4)
                        .map(|d| at(0.0, b, s, h * 4 + d) * at(11.0, b, t, h * 4 + d))
                        .sum::<f64>()
                        * 0.5
                };
                let exps: Vec<f64> = (0..3).map(|t| score(t).exp()).collect();
                let total: f64 = exps.iter().sum();
                for d in 0..4 {
                    let mix: f64 = (0..3)
                        .map(|t| exps[t] / total * at(23.0, b, t, h * 4 + d))
                        .sum();
                    expected.push(mix);
                }
            }
        }
    }
    for (got, want) in out.to_vec().iter().zip(&expected) {
        assert!((f64::from(*got) - want).abs() < 1e-6, "{got} vs {want}");
    }
    assert_eq!(out.to_vec().len(), expected.len());
}
