//! Printing: every expected string below is what PyTorch 2.15 prints (`repr`)
//! for the same tensor, checked by running PyTorch on it.

mod support;

use axial_core::half::{bf16, f16};
use axial_core::{Bool, DType, Element, RawTensor, Result};
use proptest::prelude::*;
use support::{Case, case_for, shape};

fn tensor<T: Element>(data: Vec<T>, shape: &[usize]) -> RawTensor {
    RawTensor::from_vec(data, shape).expect("data matches shape")
}

/// `torch.arange(n, dtype=float32) / divisor`, reshaped.
fn arange_over(n: usize, divisor: f32, shape: &[usize]) -> RawTensor {
    tensor((0..n).map(|i| i as f32 / divisor).collect(), shape)
}

fn arange(n: usize, dtype: DType) -> RawTensor {
    RawTensor::arange(0.0, n as f64, 1.0, dtype).expect("arange")
}

fn shaped(t: &RawTensor, shape: &[isize]) -> String {
    t.view().view(shape).expect("view").to_string()
}

#[test]
fn matrix_vector_and_scalar() {
    let m = tensor(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]);
    assert_eq!(m.to_string(), "tensor([[1., 2.],\n        [3., 4.]])");
    assert_eq!(tensor(vec![3.5f32], &[]).to_string(), "tensor(3.5000)");
    assert_eq!(tensor(vec![3i64], &[]).to_string(), "tensor(3)");
    assert_eq!(tensor(vec![Bool::TRUE], &[]).to_string(), "tensor(True)");
    assert_eq!(tensor(vec![f32::NAN], &[]).to_string(), "tensor(nan)");
    assert_eq!(tensor(vec![-0.0f32], &[]).to_string(), "tensor(-0.)");
}

#[test]
fn bools_are_padded_to_the_longest_word() {
    let b = tensor(vec![Bool::TRUE, Bool::FALSE], &[2]);
    assert_eq!(b.to_string(), "tensor([ True, False])");
}

#[test]
fn integers_name_their_dtype_unless_int64() {
    let cases = [
        (
            tensor(vec![1i32, 2, 3], &[3]),
            "tensor([1, 2, 3], dtype=torch.int32)",
        ),
        (
            tensor(vec![-128i8, 0, 127], &[3]),
            "tensor([-128,    0,  127], dtype=torch.int8)",
        ),
        (
            tensor(vec![0u8, 7, 255], &[3]),
            "tensor([  0,   7, 255], dtype=torch.uint8)",
        ),
        (
            tensor(vec![-300i16, 2, 5, 40], &[2, 2]),
            "tensor([[-300,    2],\n        [   5,   40]], dtype=torch.int16)",
        ),
        (
            tensor(vec![i64::MIN, 1], &[2]),
            "tensor([-9223372036854775808,                    1])",
        ),
    ];
    for (t, expected) in cases {
        assert_eq!(t.to_string(), expected);
    }
}

#[test]
fn float_modes() {
    let cases: [(Vec<f32>, &str); 11] = [
        (
            vec![0.5, -1.25, 1.23456],
            "tensor([ 0.5000, -1.2500,  1.2346])",
        ),
        (vec![1e-5, 1.0], "tensor([1.0000e-05, 1.0000e+00])"),
        (vec![0.0; 3], "tensor([0., 0., 0.])"),
        (vec![1.0, 1000.0], "tensor([   1., 1000.])"),
        (vec![1.0, 1001.0], "tensor([1.0000e+00, 1.0010e+03])"),
        (vec![1.0, -1000.0], "tensor([    1., -1000.])"),
        (vec![123456789.0], "tensor([1.2346e+08])"),
        (vec![-1e-5, 2e3], "tensor([-1.0000e-05,  2.0000e+03])"),
        (
            vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.0],
            "tensor([nan, inf, -inf, 1.])",
        ),
        (vec![f32::NAN, 1.5], "tensor([   nan, 1.5000])"),
        (
            vec![f32::INFINITY, 1e-5, 1.0],
            "tensor([       inf, 1.0000e-05, 1.0000e+00])",
        ),
    ];
    for (data, expected) in cases {
        let n = data.len();
        assert_eq!(tensor(data, &[n]).to_string(), expected);
    }
}

#[test]
fn other_float_dtypes_print_their_values_and_name() {
    let h = tensor(vec![f16::from_f32(1.5), f16::from_f32(2.25)], &[2]);
    assert_eq!(
        h.to_string(),
        "tensor([1.5000, 2.2500], dtype=torch.float16)"
    );
    let b = tensor(vec![bf16::from_f32(0.1), bf16::from_f32(100.0)], &[2]);
    assert_eq!(
        b.to_string(),
        "tensor([  0.1001, 100.0000], dtype=torch.bfloat16)"
    );
    let d = tensor(vec![1.0f64, 2.5], &[2]);
    assert_eq!(
        d.to_string(),
        "tensor([1.0000, 2.5000], dtype=torch.float64)"
    );
}

#[test]
fn empty_tensors_give_size_and_any_non_float32_dtype() -> Result<()> {
    assert_eq!(
        RawTensor::zeros(&[0], DType::F32)?.to_string(),
        "tensor([])"
    );
    assert_eq!(
        RawTensor::zeros(&[0, 3], DType::F32)?.to_string(),
        "tensor([], size=(0, 3))"
    );
    assert_eq!(
        RawTensor::zeros(&[0], DType::I64)?.to_string(),
        "tensor([], dtype=torch.int64)"
    );
    assert_eq!(
        RawTensor::zeros(&[2, 0], DType::I32)?.to_string(),
        "tensor([], size=(2, 0), dtype=torch.int32)"
    );
    Ok(())
}

#[test]
fn higher_ranks_separate_blocks_with_blank_lines() {
    let cube = arange(8, DType::F32);
    assert_eq!(
        shaped(&cube, &[2, 2, 2]),
        "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n         [6., 7.]]])"
    );
}

#[test]
fn rows_wrap_at_eighty_columns() {
    assert_eq!(
        arange_over(30, 3.0, &[30]).to_string(),
        "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n        3.0000, 3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333, 5.6667,\n        6.0000, 6.3333, 6.6667, 7.0000, 7.3333, 7.6667, 8.0000, 8.3333, 8.6667,\n        9.0000, 9.3333, 9.6667])"
    );
    assert_eq!(
        arange(100, DType::I64).to_string(),
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,\n        36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,\n        54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71,\n        72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89,\n        90, 91, 92, 93, 94, 95, 96, 97, 98, 99])"
    );
    assert_eq!(
        arange_over(60, 3.0, &[2, 30]).to_string(),
        "tensor([[ 0.0000,  0.3333,  0.6667,  1.0000,  1.3333,  1.6667,  2.0000,  2.3333,\n          2.6667,  3.0000,  3.3333,  3.6667,  4.0000,  4.3333,  4.6667,  5.0000,\n          5.3333,  5.6667,  6.0000,  6.3333,  6.6667,  7.0000,  7.3333,  7.6667,\n          8.0000,  8.3333,  8.6667,  9.0000,  9.3333,  9.6667],\n        [10.0000, 10.3333, 10.6667, 11.0000, 11.3333, 11.6667, 12.0000, 12.3333,\n         12.6667, 13.0000, 13.3333, 13.6667, 14.0000, 14.3333, 14.6667, 15.0000,\n         15.3333, 15.6667, 16.0000, 16.3333, 16.6667, 17.0000, 17.3333, 17.6667,\n         18.0000, 18.3333, 18.6667, 19.0000, 19.3333, 19.6667]])"
    );
}

#[test]
fn a_suffix_that_would_pass_the_line_width_goes_on_its_own_line() {
    let t = tensor((0..20).map(|i| i * 1000).collect::<Vec<i32>>(), &[20]);
    assert_eq!(
        t.to_string(),
        "tensor([    0,  1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,  9000,\n        10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000, 19000],\n       dtype=torch.int32)"
    );
}

#[test]
fn past_a_thousand_elements_only_the_edges_show() {
    assert_eq!(
        arange(1001, DType::F32).to_string(),
        "tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])"
    );
    assert_eq!(
        arange(2000, DType::I64).to_string(),
        "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"
    );
    assert_eq!(
        shaped(&arange(1200, DType::I64), &[2, 3, 200]),
        "tensor([[[   0,    1,    2,  ...,  197,  198,  199],\n         [ 200,  201,  202,  ...,  397,  398,  399],\n         [ 400,  401,  402,  ...,  597,  598,  599]],\n\n        [[ 600,  601,  602,  ...,  797,  798,  799],\n         [ 800,  801,  802,  ...,  997,  998,  999],\n         [1000, 1001, 1002,  ..., 1197, 1198, 1199]]])"
    );
}

/// The format is chosen from the shown elements only: here scientific, because
/// the shown 0.1429 and 285.57 are more than 1000 apart.
#[test]
fn summarised_matrices_cut_rows_and_columns() -> Result<()> {
    let m = arange_over(2000, 7.0, &[40, 50]);
    assert_eq!(
        m.to_string(),
        "tensor([[0.0000e+00, 1.4286e-01, 2.8571e-01,  ..., 6.7143e+00, 6.8571e+00,\n         7.0000e+00],\n        [7.1429e+00, 7.2857e+00, 7.4286e+00,  ..., 1.3857e+01, 1.4000e+01,\n         1.4143e+01],\n        [1.4286e+01, 1.4429e+01, 1.4571e+01,  ..., 2.1000e+01, 2.1143e+01,\n         2.1286e+01],\n        ...,\n        [2.6429e+02, 2.6443e+02, 2.6457e+02,  ..., 2.7100e+02, 2.7114e+02,\n         2.7129e+02],\n        [2.7143e+02, 2.7157e+02, 2.7171e+02,  ..., 2.7814e+02, 2.7829e+02,\n         2.7843e+02],\n        [2.7857e+02, 2.7871e+02, 2.7886e+02,  ..., 2.8529e+02, 2.8543e+02,\n         2.8557e+02]])"
    );
    assert_eq!(
        m.view().t()?.to_string(),
        "tensor([[0.0000e+00, 7.1429e+00, 1.4286e+01,  ..., 2.6429e+02, 2.7143e+02,\n         2.7857e+02],\n        [1.4286e-01, 7.2857e+00, 1.4429e+01,  ..., 2.6443e+02, 2.7157e+02,\n         2.7871e+02],\n        [2.8571e-01, 7.4286e+00, 1.4571e+01,  ..., 2.6457e+02, 2.7171e+02,\n         2.7886e+02],\n        ...,\n        [6.7143e+00, 1.3857e+01, 2.1000e+01,  ..., 2.7100e+02, 2.7814e+02,\n         2.8529e+02],\n        [6.8571e+00, 1.4000e+01, 2.1143e+01,  ..., 2.7114e+02, 2.7829e+02,\n         2.8543e+02],\n        [7.0000e+00, 1.4143e+01, 2.1286e+01,  ..., 2.7129e+02, 2.7843e+02,\n         2.8557e+02]])"
    );
    Ok(())
}

#[test]
fn summarised_rank_four_matches_pytorch() {
    let t = arange(2000, DType::I32);
    assert_eq!(
        shaped(&t, &[10, 10, 10, 2]),
        include_str!("data/print_summarised_4d.txt")
    );
}

#[test]
fn any_layout_prints_its_logical_elements() -> Result<()> {
    let m = tensor(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]);
    assert_eq!(
        m.view().t()?.to_string(),
        "tensor([[1., 3.],\n        [2., 4.]])"
    );
    let row = tensor(vec![1.0f32, 2.0, 3.0], &[3]);
    assert_eq!(
        row.view().expand(&[2, 3])?.to_string(),
        "tensor([[1., 2., 3.],\n        [1., 2., 3.]])"
    );
    let r = arange(10, DType::F32);
    assert_eq!(
        r.view().slice(0, Some(1), None, 3)?.to_string(),
        "tensor([1., 4., 7.])"
    );
    let g = arange(12, DType::F32);
    let inner =
        g.view()
            .view(&[3, 4])?
            .slice(0, Some(1), None, 1)?
            .slice(1, Some(1), Some(3), 1)?;
    assert_eq!(
        inner.to_string(),
        "tensor([[ 5.,  6.],\n        [ 9., 10.]])"
    );
    let col = tensor(vec![0.25f32, 4.0], &[2, 1]);
    assert_eq!(
        col.view().expand(&[2, 1500])?.to_string(),
        "tensor([[0.2500, 0.2500, 0.2500,  ..., 0.2500, 0.2500, 0.2500],\n        [4.0000, 4.0000, 4.0000,  ..., 4.0000, 4.0000, 4.0000]])"
    );
    Ok(())
}

#[test]
fn owned_borrowed_and_mutable_views_print_alike() {
    let mut m = tensor(vec![1i32, 2, 3, 4], &[2, 2]);
    let owned = m.to_string();
    assert_eq!(owned, m.view().to_string());
    assert_eq!(owned, m.view_mut().to_string());
    assert_eq!(
        owned,
        "tensor([[1, 2],\n        [3, 4]], dtype=torch.int32)"
    );
}

/// The printout of `case` and of a contiguous tensor of its elements.
fn strided_and_dense<T: Element>(case: &Case) -> (String, String) {
    let dense = tensor(case.naive::<T>(), &case.shape);
    (case.tensor::<T>().to_string(), dense.to_string())
}

proptest! {
    /// Sizes up to 14 over three dims reach past the summarising threshold.
    #[test]
    fn a_layout_prints_as_its_elements_laid_out_densely(
        case in shape(3, 14).prop_flat_map(|s| case_for(s, true, true))
    ) {
        let (strided, dense) = strided_and_dense::<f32>(&case);
        prop_assert_eq!(strided, dense);
        let (strided, dense) = strided_and_dense::<i16>(&case);
        prop_assert_eq!(strided, dense);
    }
}
