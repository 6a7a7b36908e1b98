//! Elementwise ops on hand-picked values: broadcasting, type promotion and
//! division, and PyTorch's results for the math
//! functions, rounding, NaN handling and half precision.

use axial_core::half::{bf16, f16};
use axial_core::{
    BinaryOp, Bool, CmpOp, DType, Element, Error, RawTensor, Result, Scalar, UnaryOp,
};

fn t<T: Element>(data: &[T], shape: &[usize]) -> RawTensor {
    RawTensor::from_vec(data.to_vec(), shape).expect("data matches shape")
}

fn v1<T: Element>(data: &[T]) -> RawTensor {
    t(data, &[data.len()])
}

fn unary<T: Element>(x: &RawTensor, op: UnaryOp) -> Result<Vec<T>> {
    x.view().unary(op)?.to_vec()
}

fn binary<T: Element>(a: &RawTensor, op: BinaryOp, b: &RawTensor) -> Result<Vec<T>> {
    a.view().binary(op, &b.view())?.to_vec()
}

/// The error of a result expected to fail.
fn error_of<T>(r: Result<T>) -> Error {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    }
}

fn bools(data: &[bool]) -> Vec<Bool> {
    data.iter().map(|&b| Bool::from(b)).collect()
}

/// Within `tol` of each expected value (relative to its size, at least 1).
fn assert_close(got: &[f32], expected: &[f64], tol: f64) {
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(expected) {
        assert!(
            (*g as f64 - e).abs() <= tol * e.abs().max(1.0),
            "got {got:?}, expected {expected:?}"
        );
    }
}

#[test]
fn broadcast_shapes_follow_pytorch() -> Result<()> {
    let shape_of = |a: &[usize], b: &[usize]| -> Result<Vec<usize>> {
        let x = RawTensor::zeros(a, DType::F32)?;
        let y = RawTensor::zeros(b, DType::F32)?;
        Ok(x.view().binary(BinaryOp::Add, &y.view())?.shape().to_vec())
    };
    assert_eq!(shape_of(&[5, 1, 4, 1], &[3, 1, 1])?, vec![5, 3, 4, 1]);
    assert_eq!(shape_of(&[], &[2, 3])?, vec![2, 3]);
    assert_eq!(shape_of(&[0], &[1])?, vec![0]);
    assert_eq!(shape_of(&[2, 1], &[1, 0])?, vec![2, 0]);
    assert_eq!(
        error_of(shape_of(&[0], &[2])).to_string(),
        "The size of tensor a (0) must match the size of tensor b (2) at non-singleton dimension 0"
    );
    Ok(())
}

#[test]
fn broadcast_values_repeat_along_size_one_dims() -> Result<()> {
    let col = t(&[1i64, 2, 3], &[3, 1]);
    let row = t(&[10i64, 20], &[1, 2]);
    assert_eq!(
        binary::<i64>(&col, BinaryOp::Mul, &row)?,
        vec![10, 20, 20, 40, 30, 60]
    );
    let scalar = RawTensor::from_vec(vec![0.5f32], &[])?;
    let m = t(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]);
    assert_eq!(
        binary::<f32>(&scalar, BinaryOp::Sub, &m)?,
        vec![-0.5, -1.5, -2.5, -3.5]
    );
    Ok(())
}

#[test]
fn division_follows_python() -> Result<()> {
    let a = v1(&[7i64, -7, 7, -7]);
    let b = v1(&[2i64, 2, -2, -2]);
    let quotient = a.view().binary(BinaryOp::Div, &b.view())?;
    assert_eq!(quotient.dtype(), DType::F32);
    assert_eq!(quotient.to_vec::<f32>()?, vec![3.5, -3.5, -3.5, 3.5]);
    assert_eq!(
        binary::<i64>(&a, BinaryOp::FloorDiv, &b)?,
        vec![3, -4, -4, 3]
    );
    assert_eq!(binary::<i64>(&a, BinaryOp::Rem, &b)?, vec![1, 1, -1, -1]);
    let (fa, fb) = (v1(&[-7.0f32, 5.5, 7.5]), v1(&[2.0f32, -2.0, 2.0]));
    assert_eq!(
        binary::<f32>(&fa, BinaryOp::FloorDiv, &fb)?,
        vec![-4.0, -3.0, 3.0]
    );
    assert_eq!(
        binary::<f32>(&fa, BinaryOp::Rem, &fb)?,
        vec![1.0, -0.5, 1.5]
    );
    Ok(())
}

#[test]
fn division_by_zero() -> Result<()> {
    let (a, zero) = (v1(&[1i64, -1, 0]), v1(&[0i64, 0, 0]));
    let q = binary::<f32>(&a, BinaryOp::Div, &zero)?;
    assert_eq!(&q[..2], &[f32::INFINITY, f32::NEG_INFINITY]);
    assert!(q[2].is_nan());
    for op in [BinaryOp::FloorDiv, BinaryOp::Rem] {
        let err = error_of(a.view().binary(op, &zero.view()));
        assert!(err.to_string().ends_with("ZeroDivisionError"), "{err}");
        let err = error_of(a.view().binary_scalar(op, 0.into()));
        assert!(err.to_string().ends_with("ZeroDivisionError"), "{err}");
    }
    // Float floor division by zero is IEEE's quotient.
    let f = v1(&[1.0f32, -1.0]);
    assert_eq!(
        f.view()
            .binary_scalar(BinaryOp::FloorDiv, 0.0.into())?
            .to_vec::<f32>()?,
        vec![f32::INFINITY, f32::NEG_INFINITY]
    );
    Ok(())
}

#[test]
fn scalars_promote_as_wrapped_numbers() -> Result<()> {
    let u = v1(&[1u8, 100]);
    let r = u.view().binary_scalar(BinaryOp::Add, 1000.into())?;
    assert_eq!(r.dtype(), DType::U8);
    assert_eq!(r.to_vec::<u8>()?, vec![233, 76]);

    let i = v1(&[1i32, 2]);
    let r = i.view().binary_scalar(BinaryOp::Add, 5.5.into())?;
    assert_eq!(r.dtype(), DType::F32);
    assert_eq!(r.to_vec::<f32>()?, vec![6.5, 7.5]);

    let b = v1(&bools(&[true, false]));
    let r = b.view().binary_scalar(BinaryOp::Add, true.into())?;
    assert_eq!(r.dtype(), DType::Bool);
    assert_eq!(r.to_vec::<Bool>()?, bools(&[true, true]));
    let r = b.view().binary_scalar(BinaryOp::Add, 5.into())?;
    assert_eq!(r.dtype(), DType::I64);
    assert_eq!(r.to_vec::<i64>()?, vec![6, 5]);
    Ok(())
}

#[test]
fn tensors_promote_by_the_table() -> Result<()> {
    let r = v1(&[200u8, 0])
        .view()
        .binary(BinaryOp::Add, &v1(&[-1i8, -1]).view())?;
    assert_eq!(r.dtype(), DType::I16);
    assert_eq!(r.to_vec::<i16>()?, vec![199, -1]);
    let h = v1(&[f16::from_f32(1.5)]);
    let bh = v1(&[bf16::from_f32(2.0)]);
    let r = h.view().binary(BinaryOp::Mul, &bh.view())?;
    assert_eq!(r.dtype(), DType::F32);
    assert_eq!(r.to_vec::<f32>()?, vec![3.0]);
    Ok(())
}

#[test]
fn integers_wrap() -> Result<()> {
    assert_eq!(
        v1(&[127i8])
            .view()
            .binary_scalar(BinaryOp::Add, 1.into())?
            .to_vec::<i8>()?,
        vec![-128]
    );
    assert_eq!(
        binary::<u8>(&v1(&[0u8, 16]), BinaryOp::Sub, &v1(&[1u8, 0]))?,
        vec![255, 16]
    );
    assert_eq!(
        binary::<i32>(&v1(&[65536i32]), BinaryOp::Mul, &v1(&[65536i32]))?,
        vec![0]
    );
    assert_eq!(
        unary::<i8>(&v1(&[-128i8, -3]), UnaryOp::Abs)?,
        vec![-128, 3]
    );
    assert_eq!(unary::<u8>(&v1(&[1u8, 0]), UnaryOp::Neg)?, vec![255, 0]);
    assert_eq!(unary::<i16>(&v1(&[300i16]), UnaryOp::Square)?, vec![24464]);
    Ok(())
}

#[test]
fn unary_dtype_rules() -> Result<()> {
    let r = v1(&[4i64, 9]).view().unary(UnaryOp::Sqrt)?;
    assert_eq!(r.dtype(), DType::F32);
    assert_eq!(r.to_vec::<f32>()?, vec![2.0, 3.0]);
    let r = v1(&bools(&[true, false])).view().unary(UnaryOp::Sqrt)?;
    assert_eq!(r.to_vec::<f32>()?, vec![1.0, 0.0]);
    let err = error_of(v1(&bools(&[true])).view().unary(UnaryOp::Neg));
    assert!(
        err.to_string()
            .contains("Negation, the `-` operator, on a bool tensor is not supported")
    );
    let err = error_of(v1(&bools(&[true])).view().unary(UnaryOp::Relu));
    assert!(
        err.to_string()
            .ends_with("Boolean inputs not supported for relu")
    );
    let ints = v1(&[-3i32, 4]);
    for op in [
        UnaryOp::Floor,
        UnaryOp::Ceil,
        UnaryOp::Round,
        UnaryOp::Trunc,
    ] {
        assert_eq!(unary::<i32>(&ints, op)?, vec![-3, 4]);
    }
    assert_eq!(unary::<i32>(&ints, UnaryOp::Relu)?, vec![0, 4]);
    assert_eq!(unary::<i32>(&ints, UnaryOp::Sign)?, vec![-1, 1]);
    Ok(())
}

#[test]
fn powers() -> Result<()> {
    let i = v1(&[2i64, -3, 0]);
    assert_eq!(
        unary::<i64>(&i, UnaryOp::PowScalar(10.0))?,
        vec![1024, 59049, 0]
    );
    assert_eq!(
        i.view()
            .binary_scalar(BinaryOp::Pow, 3.into())?
            .to_vec::<i64>()?,
        vec![8, -27, 0]
    );
    let msg = "Integers to negative integer powers are not allowed.";
    assert!(
        error_of(i.view().unary(UnaryOp::PowScalar(-1.0)))
            .to_string()
            .ends_with(msg)
    );
    let err = error_of(i.view().binary_scalar(BinaryOp::Pow, (-1).into()));
    assert!(err.to_string().ends_with(msg), "{err}");
    let f = v1(&[4.0f32, -8.0, 2.0]);
    let roots = unary::<f32>(&f, UnaryOp::PowScalar(0.5))?;
    assert_eq!(roots[0], 2.0);
    assert!(roots[1].is_nan());
    assert_eq!(
        unary::<f32>(&f, UnaryOp::PowScalar(-2.0))?,
        vec![0.0625, 0.015625, 0.25]
    );
    assert_eq!(unary::<f32>(&f, UnaryOp::PowScalar(0.0))?, vec![1.0; 3]);
    assert_close(
        &unary::<f32>(&f, UnaryOp::PowScalar(1.5))?[..1],
        &[8.0],
        1e-7,
    );
    Ok(())
}

/// `torch.nn.functional.softplus` of f32 beyond the threshold, at it, and
/// where the result is subnormal, 0, or special.
#[test]
fn softplus_edges_match_pytorch() -> Result<()> {
    let x = v1(&[
        -30.0f32,
        19.5,
        20.0,
        25.0,
        -100.0,
        -88.0,
        -104.5,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ]);
    let want = [
        9.357_623e-14,
        19.5,
        20.0,
        25.0,
        3.8e-44,
        6.054_601e-39,
        0.0,
        f32::NAN,
        f32::INFINITY,
        0.0,
    ];
    let got = unary::<f32>(&x, UnaryOp::Softplus)?;
    for (g, w) in got.iter().zip(want) {
        assert!(
            g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
            "{g} != {w}"
        );
    }
    Ok(())
}

#[test]
fn activations_match_pytorch() -> Result<()> {
    let x = v1(&[-3.0f32, -1.0, 0.0, 0.5, 1.0, 2.0]);
    // torch.nn.functional.gelu / torch.erf / torch.sigmoid / silu / softplus of x, float32.
    let gelu = [
        -0.0040496886,
        -0.15865526,
        0.0,
        0.34573123,
        0.8413447,
        1.9544997,
    ];
    let erf = [-0.9999779, -0.8427008, 0.0, 0.5204999, 0.8427008, 0.9953223];
    let sigmoid = [
        0.047425874,
        0.26894143,
        0.5,
        0.62245935,
        0.7310586,
        0.8807971,
    ];
    let silu = [
        -0.14227763,
        -0.26894143,
        0.0,
        0.31122968,
        0.7310586,
        1.7615942,
    ];
    assert_close(&unary(&x, UnaryOp::Gelu)?, &gelu, 1e-6);
    assert_close(&unary(&x, UnaryOp::Erf)?, &erf, 1e-6);
    assert_close(&unary(&x, UnaryOp::Sigmoid)?, &sigmoid, 1e-6);
    assert_close(&unary(&x, UnaryOp::Silu)?, &silu, 1e-6);
    let softplus = [
        0.048587352,
        0.31326169,
        std::f64::consts::LN_2, // torch: 0.6931472
        0.974077,
        1.3132616,
        2.126928,
    ];
    assert_close(&unary(&x, UnaryOp::Softplus)?, &softplus, 1e-6);
    assert_eq!(
        unary::<f32>(&x, UnaryOp::Relu)?,
        vec![0.0, 0.0, 0.0, 0.5, 1.0, 2.0]
    );
    Ok(())
}

#[test]
fn round_is_half_to_even() -> Result<()> {
    let x = v1(&[0.5f32, 1.5, 2.5, -0.5, -2.5, 2.6]);
    let r = unary::<f32>(&x, UnaryOp::Round)?;
    assert_eq!(r, vec![0.0, 2.0, 2.0, -0.0, -2.0, 3.0]);
    assert!(r[3].is_sign_negative());
    let h = v1(&[bf16::from_f32(2.5), bf16::from_f32(-3.5)]);
    assert_eq!(
        unary::<bf16>(&h, UnaryOp::Round)?,
        vec![bf16::from_f32(2.0), bf16::from_f32(-4.0)]
    );
    Ok(())
}

#[test]
fn nan_handling_of_extrema_and_clamp() -> Result<()> {
    let a = v1(&[1.0f32, f32::NAN, 3.0]);
    let b = v1(&[f32::NAN, 2.0, 1.0]);
    for op in [BinaryOp::Maximum, BinaryOp::Minimum] {
        let r = binary::<f32>(&a, op, &b)?;
        assert!(r[0].is_nan() && r[1].is_nan(), "{op:?}");
    }
    assert_eq!(binary::<f32>(&a, BinaryOp::Maximum, &b)?[2], 3.0);
    assert_eq!(binary::<f32>(&a, BinaryOp::Minimum, &b)?[2], 1.0);

    let clamp = |min, max| unary::<f32>(&a, UnaryOp::Clamp { min, max });
    let r = clamp(Some(2.0), Some(2.5))?;
    assert_eq!((r[0], r[2]), (2.0, 2.5));
    assert!(r[1].is_nan());
    // min > max gives max everywhere but NaN.
    assert_eq!(clamp(Some(5.0), Some(4.0))?[0], 4.0);
    // A NaN bound, alone or not, makes every element NaN.
    assert!(clamp(Some(f64::NAN), Some(1.0))?.iter().all(|x| x.is_nan()));
    assert!(clamp(Some(f64::NAN), None)?.iter().all(|x| x.is_nan()));
    assert!(clamp(None, Some(f64::NAN))?.iter().all(|x| x.is_nan()));
    assert_eq!(
        error_of(a.view().unary(UnaryOp::Clamp {
            min: None,
            max: None
        }))
        .to_string(),
        "clamp: torch.clamp: At least one of 'min' or 'max' must not be None"
    );
    let half = v1(&[f16::ONE]);
    assert_eq!(
        error_of(half.view().unary(UnaryOp::Clamp {
            min: None,
            max: Some(1e5)
        }))
        .to_string(),
        "clamp: value cannot be converted to type c10::Half without overflow"
    );
    Ok(())
}

#[test]
fn integer_clamp_bounds_beyond_the_type() -> Result<()> {
    let clamp = |x: &RawTensor, min, max| x.view().unary(UnaryOp::Clamp { min, max });
    let i = v1(&[-5i32, 0, 7]);
    assert_eq!(
        clamp(&i, Some(-1.0), Some(3.0))?.to_vec::<i32>()?,
        vec![-1, 0, 3]
    );
    // A bound that cannot bind is dropped; one that would bind everything is refused.
    let u = v1(&[1u8, 200]);
    assert_eq!(clamp(&u, Some(-1.0), None)?.to_vec::<u8>()?, vec![1, 200]);
    assert_eq!(clamp(&u, None, Some(300.0))?.to_vec::<u8>()?, vec![1, 200]);
    assert_eq!(
        error_of(clamp(&u, None, Some(-1.0))).to_string(),
        "clamp: Clamp max value -1 is outside the representable range of Byte"
    );
    assert_eq!(
        error_of(clamp(&v1(&[1i8]), Some(1000.0), None)).to_string(),
        "clamp: Clamp min value 1000 is outside the representable range of Char"
    );
    assert_eq!(
        error_of(clamp(&v1(&bools(&[true])), Some(0.0), None)).to_string(),
        "\"clamp_min_scalar_cpu\" not implemented for 'Bool'"
    );
    Ok(())
}

#[test]
fn sign_of_nan_is_zero() -> Result<()> {
    let x = v1(&[f32::NAN, -0.0, -2.0, 3.0]);
    let s = unary::<f32>(&x, UnaryOp::Sign)?;
    assert_eq!(s, vec![0.0, 0.0, -1.0, 1.0]);
    assert!(s[1].is_sign_positive());
    Ok(())
}

#[test]
fn half_precision_computes_in_f32_and_rounds_to_nearest_even() -> Result<()> {
    let h = |x: f32| f16::from_f32(x);
    let b = |x: f32| bf16::from_f32(x);
    // 65504 + 16 is halfway to 65536, which rounds (to even) to infinity.
    assert_eq!(
        binary::<f16>(
            &v1(&[h(65504.0), h(1.0)]),
            BinaryOp::Add,
            &v1(&[h(16.0), h(0.0004)])
        )?,
        vec![f16::INFINITY, h(1.0)]
    );
    // 256 + 1 is halfway between bf16's 256 and 258: even is 256.
    assert_eq!(
        binary::<bf16>(
            &v1(&[b(256.0), b(258.0)]),
            BinaryOp::Add,
            &v1(&[b(1.0), b(1.0)])
        )?,
        vec![b(256.0), b(260.0)]
    );
    assert_eq!(
        unary::<f16>(&v1(&[h(2.0)]), UnaryOp::Sqrt)?,
        vec![h(1.4140625)]
    );
    assert_eq!(
        unary::<bf16>(&v1(&[b(2.0)]), UnaryOp::Sqrt)?,
        vec![b(1.4140625)]
    );
    assert_eq!(
        unary::<bf16>(&v1(&[b(1.0)]), UnaryOp::Sigmoid)?,
        vec![b(0.73046875)]
    );
    let nan = unary::<f16>(&v1(&[f16::NAN]), UnaryOp::Exp)?;
    assert!(nan[0].is_nan());
    Ok(())
}

#[test]
fn half_floor_division_rounds_every_step_as_pytorch() -> Result<()> {
    // PyTorch 2.15 gives -101 here: a − fmod(a, b) and the quotient are
    // rounded to bf16 before the correction (the exact floor is -100).
    let a = v1(&[bf16::from_bits(0xc019)]);
    let b = v1(&[bf16::from_bits(0x3cc4)]);
    assert_eq!(a.view().get::<bf16>(&[0])?.to_f32(), -2.390625);
    assert_eq!(
        binary::<bf16>(&a, BinaryOp::FloorDiv, &b)?,
        vec![bf16::from_f32(-101.0)]
    );
    Ok(())
}

#[test]
fn casts_round_to_nearest_even_and_keep_nan() -> Result<()> {
    let x = v1(&[1.0f32 + 1.0 / 256.0, 1.0 + 3.0 / 256.0, f32::NAN, -2.7, 1e6]);
    let bf = x.view().to_dtype(DType::BF16)?.to_vec::<bf16>()?;
    assert_eq!(bf[0], bf16::from_f32(1.0));
    assert_eq!(bf[1].to_f32(), 1.0 + 4.0 / 256.0);
    assert!(bf[2].is_nan());
    let half = x.view().to_dtype(DType::F16)?.to_vec::<f16>()?;
    assert_eq!(half[0], f16::from_f32(1.0 + 1.0 / 256.0));
    assert!(half[2].is_nan());
    assert_eq!(half[4], f16::INFINITY);
    assert_eq!(x.view().to_dtype(DType::I32)?.to_vec::<i32>()?[3], -2);
    Ok(())
}

#[test]
fn logical_ops_and_comparisons() -> Result<()> {
    let x = v1(&[0.0f32, f32::NAN, 2.0, -0.0]);
    assert_eq!(
        unary::<Bool>(&x, UnaryOp::LogicalNot)?,
        bools(&[true, false, false, true])
    );
    let y = v1(&[1i64, 0, 3, 0]);
    assert_eq!(
        binary::<Bool>(&x, BinaryOp::LogicalAnd, &y)?,
        bools(&[false, false, true, false])
    );
    assert_eq!(
        binary::<Bool>(&x, BinaryOp::LogicalOr, &y)?,
        bools(&[true, true, true, false])
    );
    let cmp = |op| -> Result<Vec<Bool>> { x.view().compare(op, &x.view())?.to_vec() };
    assert_eq!(cmp(CmpOp::Eq)?, bools(&[true, false, true, true]));
    assert_eq!(cmp(CmpOp::Ne)?, bools(&[false, true, false, false]));
    assert_eq!(cmp(CmpOp::Le)?, bools(&[true, false, true, true]));
    // u8 200 against i8 -1 compares in i16.
    let r = v1(&[200u8])
        .view()
        .compare(CmpOp::Gt, &v1(&[-1i8]).view())?;
    assert_eq!(r.to_vec::<Bool>()?, bools(&[true]));
    let h = v1(&[f16::from_f32(0.5), f16::NAN]);
    let r = h
        .view()
        .compare(CmpOp::Lt, &v1(&[f16::ONE, f16::ONE]).view())?;
    assert_eq!(r.to_vec::<Bool>()?, bools(&[true, false]));
    Ok(())
}

#[test]
fn bool_arithmetic() -> Result<()> {
    let a = v1(&bools(&[true, true, false]));
    let b = v1(&bools(&[true, false, false]));
    assert_eq!(
        binary::<Bool>(&a, BinaryOp::Mul, &b)?,
        bools(&[true, false, false])
    );
    assert_eq!(
        binary::<Bool>(&a, BinaryOp::Maximum, &b)?,
        bools(&[true, true, false])
    );
    let refusal = |r: Result<RawTensor>| error_of(r).to_string();
    assert_eq!(
        refusal(a.view().binary(BinaryOp::FloorDiv, &b.view())),
        "\"div_floor_cpu\" not implemented for 'Bool'"
    );
    assert_eq!(
        refusal(a.view().binary(BinaryOp::Rem, &b.view())),
        "\"remainder_cpu\" not implemented for 'Bool'"
    );
    assert_eq!(
        refusal(a.view().unary(UnaryOp::Abs)),
        "\"abs_cpu\" not implemented for 'Bool'"
    );
    assert_eq!(
        refusal(a.view().unary(UnaryOp::Floor)),
        "\"floor_vml_cpu\" not implemented for 'Bool'"
    );
    assert!(a.view().binary(BinaryOp::Sub, &b.view()).is_err());
    Ok(())
}

#[test]
fn where_selects_with_broadcast_and_promotion() -> Result<()> {
    let cond = t(&bools(&[true, false]), &[2, 1]);
    let a = v1(&[1i32, 2, 3]);
    let b = RawTensor::from_vec(vec![0.5f64], &[])?;
    let r = cond.view().where_(&a.view(), &b.view())?;
    assert_eq!(r.dtype(), DType::F64);
    assert_eq!(r.shape(), &[2, 3]);
    assert_eq!(r.to_vec::<f64>()?, vec![1.0, 2.0, 3.0, 0.5, 0.5, 0.5]);
    let err = error_of(a.view().where_(&a.view(), &a.view()));
    assert!(
        err.to_string()
            .contains("where expected condition to be a boolean tensor")
    );
    Ok(())
}

#[test]
fn atan2_and_transcendentals_of_integers_are_f32() -> Result<()> {
    let y = v1(&[1i32, -1]);
    let x = v1(&[1i32, 0]);
    let r = y.view().binary(BinaryOp::Atan2, &x.view())?;
    assert_eq!(r.dtype(), DType::F32);
    assert_close(
        &r.to_vec::<f32>()?,
        &[std::f64::consts::FRAC_PI_4, -std::f64::consts::FRAC_PI_2],
        1e-7,
    );
    let e = unary::<f32>(&v1(&[0i64, 1]), UnaryOp::Exp)?;
    assert_close(&e, &[1.0, std::f64::consts::E], 1e-7);
    Ok(())
}

/// A copy larger than the caches streams its runs (cpu/stream.rs): from an
/// offset view into another offset view, every element lands where it
/// should and nothing around them is touched.
#[test]
fn large_copies_stream_exactly() -> Result<()> {
    let n = 4_500_007; // 18 MB of f32, past the streaming threshold; exact in f32
    let src = RawTensor::arange(0.0, n as f64, 1.0, DType::F32)?;
    let src_view = src.view().slice(0, Some(3), None, 1)?;
    let mut dst = RawTensor::zeros(&[n + 5], DType::F32)?;
    dst.view_mut()
        .slice(0, Some(5), Some(n as isize + 2), 1)?
        .copy_(&src_view)?;
    let got = dst.to_vec::<f32>()?;
    assert!(got[..5].iter().all(|&v| v == 0.0));
    assert!((5..n + 2).all(|i| got[i] == (i - 2) as f32));
    assert!(got[n + 2..].iter().all(|&v| v == 0.0));
    Ok(())
}

/// Elementwise outputs larger than the caches are computed a block at a
/// time and streamed (cpu/map.rs): unary, binary with a broadcast operand
/// and a cast, from offset views, give what element-by-element evaluation
/// gives, for outputs of 2, 4 and 8 bytes.
#[test]
fn large_elementwise_outputs_stream_exactly() -> Result<()> {
    let n = 4_500_007;
    let x = RawTensor::arange(0.0, n as f64, 1.0, DType::F32)?;
    let a = x.view().slice(0, Some(3), None, 1)?;
    let expected = |i: usize| (i + 3) as f32;

    let neg = a.unary(UnaryOp::Neg)?.to_vec::<f32>()?;
    assert!((0..n - 3).all(|i| neg[i] == -expected(i)));

    let half = v1(&[0.5f32]);
    let sum = a.binary(BinaryOp::Add, &half.view().expand(&[n as isize - 3])?)?;
    let sum = sum.to_vec::<f32>()?;
    assert!((0..n - 3).all(|i| sum[i] == expected(i) + 0.5));

    let wide = a.to_dtype(DType::F64)?.to_vec::<f64>()?;
    assert!((0..n - 3).all(|i| wide[i] == f64::from(expected(i))));
    let narrow = a.to_dtype(DType::I16)?.to_vec::<i16>()?;
    assert!((0..n - 3).all(|i| narrow[i] == expected(i) as i64 as i16));

    // The vectorised functions: `exp` streams its output on some CPUs,
    // `sigmoid` stores it in place; both within an ulp of f64's.
    let small = x.view().binary_scalar(BinaryOp::Mul, Scalar::Float(1e-6))?;
    let small = small.view().slice(0, Some(1), None, 1)?;
    let inputs = small.to_vec::<f32>()?;
    for (op, f) in [
        (UnaryOp::Exp, f64::exp as fn(f64) -> f64),
        (UnaryOp::Sigmoid, |v: f64| 1.0 / (1.0 + (-v).exp())),
    ] {
        let got = small.unary(op)?.to_vec::<f32>()?;
        let bad = inputs.iter().zip(&got).position(|(&v, &g)| {
            let want = f(f64::from(v));
            (f64::from(g) - want).abs() > want.abs() * f64::from(f32::EPSILON)
        });
        assert_eq!(bad, None, "{op:?} at {bad:?}");
    }
    Ok(())
}
