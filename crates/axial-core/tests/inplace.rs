//! In-place ops through `TensorMut`: PyTorch's overlap rules, its in-place
//! broadcast rule and its in-place dtype rules.

use axial_core::half::{bf16, f16};
use axial_core::{BinaryOp, Bool, DType, Element, Error, RawTensor, Result, TensorMut, UnaryOp};

fn v1<T: Element>(data: &[T]) -> RawTensor {
    RawTensor::from_vec(data.to_vec(), &[data.len()]).expect("a vector")
}

fn arange(n: usize) -> RawTensor {
    RawTensor::arange(0.0, n as f64, 1.0, DType::F32).expect("a range")
}

const INTERNAL: &str = "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.";
const PARTIAL: &str = "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.";

/// `z` (of 3 elements) expanded to (4, 3).
fn expanded(z: &mut RawTensor) -> Result<TensorMut<'_>> {
    z.view_mut().as_strided(&[4, 3], &[0, 1], None)
}

#[test]
fn writes_into_an_expanded_view_are_refused_but_fills_succeed() -> Result<()> {
    let mut z = RawTensor::zeros(&[3], DType::F32)?;
    let ones = RawTensor::full_on(&axial_core::Cpu, &[4, 3], 1.into(), DType::F32)?;

    let err = expanded(&mut z)?
        .binary_(BinaryOp::Add, &ones.view())
        .unwrap_err();
    assert_eq!(err, Error::InternalOverlap);
    assert_eq!(err.to_string(), INTERNAL);
    let err = expanded(&mut z)?
        .binary_scalar_(BinaryOp::Mul, 2.into())
        .unwrap_err();
    assert_eq!(err, Error::InternalOverlap);
    let err = expanded(&mut z)?.copy_(&ones.view()).unwrap_err();
    assert_eq!(err, Error::InternalOverlap);
    assert_eq!(z.to_vec::<f32>()?, vec![0.0; 3]);

    expanded(&mut z)?.fill_(7.into())?;
    assert_eq!(z.to_vec::<f32>()?, vec![7.0; 3]);
    expanded(&mut z)?.zero_()?;
    assert_eq!(z.to_vec::<f32>()?, vec![0.0; 3]);
    Ok(())
}

#[test]
fn partly_overlapping_operands_are_refused() -> Result<()> {
    let mut a = arange(5);
    let shifted = a.view().slice(0, Some(1), Some(5), 1)?.layout().clone();
    let err = a
        .view_mut()
        .slice(0, Some(0), Some(4), 1)?
        .binary_aliased_(BinaryOp::Add, shifted)
        .unwrap_err();
    assert_eq!(err, Error::PartialOverlap);
    assert_eq!(err.to_string(), PARTIAL);
    assert_eq!(a.to_vec::<f32>()?, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    Ok(())
}

#[test]
fn an_operand_equal_to_the_output_or_disjoint_from_it_works() -> Result<()> {
    let mut a = arange(5);
    let whole = a.layout().clone();
    a.view_mut().binary_aliased_(BinaryOp::Add, whole)?;
    assert_eq!(a.to_vec::<f32>()?, vec![0.0, 2.0, 4.0, 6.0, 8.0]);

    let mut b = arange(6);
    let odd = b.view().slice(0, Some(1), None, 2)?.layout().clone();
    b.view_mut()
        .slice(0, None, None, 2)?
        .binary_aliased_(BinaryOp::Add, odd)?;
    assert_eq!(b.to_vec::<f32>()?, vec![1.0, 1.0, 5.0, 3.0, 9.0, 5.0]);
    Ok(())
}

#[test]
fn a_self_overlapping_strided_view_is_written_in_order() -> Result<()> {
    let mut b = arange(5);
    b.view_mut()
        .as_strided(&[3, 3], &[1, 1], None)?
        .binary_scalar_(BinaryOp::Add, 1.into())?;
    assert_eq!(b.to_vec::<f32>()?, vec![1.0, 3.0, 5.0, 5.0, 5.0]);
    Ok(())
}

#[test]
fn in_place_broadcast_must_keep_the_output_shape() -> Result<()> {
    let row = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[4])?;
    let mut m = RawTensor::zeros(&[3, 4], DType::F32)?;
    m.view_mut().binary_(BinaryOp::Add, &row.view())?;
    assert_eq!(m.to_vec::<f32>()?[4..8], [1.0, 2.0, 3.0, 4.0]);
    let mut r = RawTensor::zeros(&[1, 4], DType::F32)?;
    r.view_mut().binary_(BinaryOp::Add, &row.view())?;
    assert_eq!(r.to_vec::<f32>()?, vec![1.0, 2.0, 3.0, 4.0]);

    let mut v = RawTensor::zeros(&[4], DType::F32)?;
    let err = v.view_mut().binary_(BinaryOp::Add, &r.view()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "output with shape [4] doesn't match the broadcast shape [1, 4]"
    );
    let mut s = RawTensor::from_vec(vec![1.0f32], &[])?;
    let one = RawTensor::from_vec(vec![1.0f32], &[1])?;
    let err = s
        .view_mut()
        .binary_(BinaryOp::Add, &one.view())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "output with shape [] doesn't match the broadcast shape [1]"
    );
    Ok(())
}

#[test]
fn in_place_results_must_cast_to_the_output_dtype() -> Result<()> {
    let mut i = v1(&[1i32, 2]);
    let f = v1(&[0.5f32, 0.5]);
    let err = i.view_mut().binary_(BinaryOp::Add, &f.view()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "result type Float can't be cast to the desired output type Int"
    );
    assert!(
        i.view_mut()
            .binary_scalar_(BinaryOp::Add, 1.5.into())
            .is_err()
    );
    let mut l = v1(&[1i64, 2]);
    let zero_dim = RawTensor::from_vec(vec![1.0f32], &[])?;
    assert!(
        l.view_mut()
            .binary_(BinaryOp::Add, &zero_dim.view())
            .is_err()
    );
    let err = l
        .view_mut()
        .binary_scalar_(BinaryOp::Div, 2.into())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "result type Float can't be cast to the desired output type Long"
    );
    let mut b = v1(&[Bool::TRUE]);
    let err = b
        .view_mut()
        .binary_scalar_(BinaryOp::Add, 1.into())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "result type Long can't be cast to the desired output type Bool"
    );
    let err = l.view_mut().unary_(UnaryOp::Sqrt).unwrap_err();
    assert_eq!(
        err.to_string(),
        "result type Float can't be cast to the desired output type Long"
    );
    assert_eq!(i.to_vec::<i32>()?, vec![1, 2]);
    assert_eq!(l.to_vec::<i64>()?, vec![1, 2]);
    Ok(())
}

#[test]
fn in_place_casts_that_pytorch_allows() -> Result<()> {
    let mut i = v1(&[3i32, -2]);
    i.view_mut()
        .binary_(BinaryOp::Mul, &v1(&[5i64, 1 << 40]).view())?;
    assert_eq!(i.dtype(), DType::I32);
    // −2·2⁴⁰ wraps to 0 in an i32.
    assert_eq!(i.to_vec::<i32>()?, vec![15, 0]);

    let mut u = v1(&[10u8]);
    u.view_mut().binary_(BinaryOp::Mul, &v1(&[30i32]).view())?;
    assert_eq!(u.to_vec::<u8>()?, vec![44]);

    let mut f = v1(&[1.0f32]);
    f.view_mut()
        .binary_(BinaryOp::Add, &v1(&[0.25f64]).view())?;
    assert_eq!(f.to_vec::<f32>()?, vec![1.25]);

    let mut h = v1(&[bf16::from_f32(1.0)]);
    h.view_mut()
        .binary_(BinaryOp::Add, &v1(&[f16::from_f32(0.5)]).view())?;
    assert_eq!(h.to_vec::<bf16>()?, vec![bf16::from_f32(1.5)]);

    let mut b = v1(&[Bool::FALSE, Bool::TRUE]);
    b.view_mut().binary_scalar_(BinaryOp::Add, true.into())?;
    assert_eq!(b.to_vec::<Bool>()?, vec![Bool::TRUE, Bool::TRUE]);

    let mut l = v1(&[-7i64, 7]);
    l.view_mut().binary_scalar_(BinaryOp::FloorDiv, 2.into())?;
    assert_eq!(l.to_vec::<i64>()?, vec![-4, 3]);
    Ok(())
}

#[test]
fn in_place_integer_division_by_zero_fails_without_writing() -> Result<()> {
    let mut l = v1(&[5i64, 6]);
    let err = l
        .view_mut()
        .binary_(BinaryOp::Rem, &v1(&[2i64, 0]).view())
        .unwrap_err();
    assert!(err.to_string().ends_with("ZeroDivisionError"));
    assert_eq!(l.to_vec::<i64>()?, vec![5, 6]);
    Ok(())
}

#[test]
fn unary_in_place_on_strided_views() -> Result<()> {
    let mut m = RawTensor::arange(-3.0, 3.0, 1.0, DType::F32)?;
    m.view_mut().view(&[2, 3])?.t()?.unary_(UnaryOp::Relu)?;
    assert_eq!(m.to_vec::<f32>()?, vec![0.0, 0.0, 0.0, 0.0, 1.0, 2.0]);
    m.view_mut()
        .slice(0, None, None, 2)?
        .unary_(UnaryOp::Clamp {
            min: None,
            max: Some(0.5),
        })?;
    assert_eq!(m.to_vec::<f32>()?, vec![0.0, 0.0, 0.0, 0.0, 0.5, 2.0]);
    let mut b = v1(&[Bool::TRUE, Bool::FALSE]);
    b.view_mut().unary_(UnaryOp::LogicalNot)?;
    assert_eq!(b.to_vec::<Bool>()?, vec![Bool::FALSE, Bool::TRUE]);
    Ok(())
}

#[test]
fn copy_casts_freely_and_broadcasts() -> Result<()> {
    let mut m = RawTensor::zeros(&[2, 3], DType::F32)?;
    let src = RawTensor::from_vec(vec![1.5f64, -2.5, 3.25], &[3])?;
    m.view_mut().copy_(&src.view())?;
    assert_eq!(m.to_vec::<f32>()?, vec![1.5, -2.5, 3.25, 1.5, -2.5, 3.25]);
    let ints = RawTensor::from_vec(vec![1i64, 2, 3, 4, 5, 6], &[3, 2])?;
    m.view_mut().t()?.copy_(&ints.view())?;
    assert_eq!(m.to_vec::<f32>()?, vec![1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
    let mut i = RawTensor::zeros(&[3], DType::I32)?;
    i.view_mut().copy_(&src.view())?;
    assert_eq!(i.to_vec::<i32>()?, vec![1, -2, 3]);
    Ok(())
}

/// A copy larger than the caches of short runs that tile the output
/// (windows of `unfold`) streams them: the same values as element by
/// element, into an aligned output and into one a single element off.
#[test]
fn large_copies_of_short_runs_are_exact() {
    let n = (1 << 22) + 40;
    let x = RawTensor::from_vec((0..n).map(|i| i as f32).collect::<Vec<_>>(), &[n]).unwrap();
    let windows = x.view().unfold(0, 16, 8).unwrap();
    let rows = windows.shape()[0];
    for skip in [0, 1] {
        let mut out = RawTensor::zeros(&[rows * 16 + skip + 1], DType::F32).unwrap();
        let target = out.view_mut().narrow(0, skip as isize, rows * 16).unwrap();
        let mut target = target.view(&[rows as isize, 16]).unwrap();
        target.copy_(&windows).unwrap();
        let got = out.to_vec::<f32>().unwrap();
        assert_eq!(got[..skip], vec![0.0; skip][..]);
        assert_eq!(got[skip + rows * 16], 0.0);
        for (w, row) in got[skip..skip + rows * 16].chunks(16).enumerate() {
            let want: Vec<f32> = (0..16).map(|k| (8 * w + k) as f32).collect();
            assert_eq!(row, &want[..], "window {w}, skip {skip}");
        }
    }
}

/// Windows of the rows of a matrix (`unfold` along its last dim): the runs
/// tile the output in rows of windows, a row's input a fixed stride after
/// the one before; every window of every row lands in place.
#[test]
fn large_copies_of_windows_of_rows_are_exact() {
    let (rows, cols) = (2048, 1030);
    let x = RawTensor::from_vec(
        (0..rows * cols).map(|i| i as f32).collect::<Vec<_>>(),
        &[rows, cols],
    )
    .unwrap();
    let windows = x.view().unfold(1, 12, 4).unwrap();
    let per_row = windows.shape()[1];
    assert_eq!(windows.shape(), &[rows, per_row, 12]);
    let mut out = RawTensor::zeros(&[rows, per_row, 12], DType::F32).unwrap();
    out.view_mut().copy_(&windows).unwrap();
    let got = out.to_vec::<f32>().unwrap();
    for (k, window) in got.chunks(12).enumerate() {
        let (r, w) = (k / per_row, k % per_row);
        let want: Vec<f32> = (0..12).map(|j| (r * cols + 4 * w + j) as f32).collect();
        assert_eq!(window, &want[..], "row {r}, window {w}");
    }
}

/// Transposed copies of 4-byte elements (16×16 blocks in registers, the
/// edges one by one): outputs larger than the caches whose rows start on
/// 32-byte boundaries (streamed) or not, a batch of matrices, an output
/// that is a column slice of a wider tensor; every element lands in place.
#[test]
fn large_transposed_copies_are_exact() {
    for (batch, rows, cols, pad) in [
        (1, 2053, 2048, 0),
        (1, 2050, 2051, 0),
        (3, 700, 1030, 0),
        (1, 1029, 515, 3isize),
    ] {
        let n = batch * rows * cols;
        let x =
            RawTensor::from_vec((0..n as i32).collect::<Vec<_>>(), &[batch, cols, rows]).unwrap();
        let t = x.view().transpose(1, 2).unwrap();
        let wide = cols + pad as usize;
        let mut out = RawTensor::zeros(&[batch, rows, wide], DType::I32).unwrap();
        out.view_mut()
            .narrow(2, pad, cols)
            .unwrap()
            .copy_(&t)
            .unwrap();
        let got = out.to_vec::<i32>().unwrap();
        for (k, &v) in got.iter().enumerate() {
            let (b, r, c) = (k / (rows * wide), k / wide % rows, k % wide);
            let want = match c.checked_sub(pad as usize) {
                Some(c) => (b * rows * cols + c * rows + r) as i32,
                None => 0,
            };
            assert_eq!(v, want, "{batch}×{rows}×{cols}+{pad}: at ({b}, {r}, {c})");
        }
    }
}
