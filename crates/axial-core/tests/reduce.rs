//! Reductions against PyTorch's documented results: the
//! worked examples, the error messages, output dtypes, NaN, empty and 0-dim
//! inputs, and the accuracy of long f32 sums.

use axial_core::{ArgReduceOp, Bool, Cpu, DType, Generator, RawTensor, ReduceOp, Scalar};
use half::f16;

/// `arange(24).view(2, 3, 4)` as i64.
fn x() -> RawTensor {
    let flat = RawTensor::arange(0.0, 24.0, 1.0, DType::I64).unwrap();
    let (storage, _, dtype) = flat.into_parts();
    RawTensor::from_storage(storage, &[2, 3, 4], dtype).unwrap()
}

fn err(r: axial_core::Result<RawTensor>) -> String {
    r.err().expect("an error").to_string()
}

#[test]
fn sum_examples() {
    let x = x();
    let all = x.view().reduce(ReduceOp::Sum, &[], false).unwrap();
    assert_eq!(all.shape(), &[] as &[usize]);
    assert_eq!(all.view().item::<i64>().unwrap(), 276);
    let s = x.view().reduce(ReduceOp::Sum, &[0, 2], false).unwrap();
    assert_eq!(s.to_vec::<i64>().unwrap(), vec![60, 92, 124]);
    let k = x.view().reduce(ReduceOp::Sum, &[0, 2], true).unwrap();
    assert_eq!(k.shape(), &[1, 3, 1]);
    assert_eq!(k.to_vec::<i64>().unwrap(), vec![60, 92, 124]);
    let neg = x.view().reduce(ReduceOp::Sum, &[-1, -3], false).unwrap();
    assert_eq!(neg.to_vec::<i64>().unwrap(), vec![60, 92, 124]);
}

#[test]
fn max_and_argmax_examples() {
    let x = x();
    let (values, indices) = x.view().max_min_dim(ArgReduceOp::ArgMax, 1, false).unwrap();
    assert_eq!(indices.shape(), &[2, 4]);
    assert_eq!(indices.to_vec::<i64>().unwrap(), vec![2; 8]);
    assert_eq!(
        values.to_vec::<i64>().unwrap(),
        vec![8, 9, 10, 11, 20, 21, 22, 23]
    );
    let a = x
        .view()
        .arg_reduce(ArgReduceOp::ArgMax, Some(2), false)
        .unwrap();
    assert_eq!(a.shape(), &[2, 3]);
    assert_eq!(a.to_vec::<i64>().unwrap(), vec![3; 6]);
    let k = x
        .view()
        .arg_reduce(ArgReduceOp::ArgMax, None, true)
        .unwrap();
    assert_eq!(k.shape(), &[1, 1, 1]);
    assert_eq!(k.to_vec::<i64>().unwrap(), vec![23]);
    let t = RawTensor::from_vec(vec![1i64, 3, 3, 2], &[4]).unwrap();
    let first = t
        .view()
        .arg_reduce(ArgReduceOp::ArgMax, None, false)
        .unwrap();
    assert_eq!(first.shape(), &[] as &[usize]);
    assert_eq!(first.view().item::<i64>().unwrap(), 1);
    let min = t
        .view()
        .arg_reduce(ArgReduceOp::ArgMin, None, false)
        .unwrap();
    assert_eq!(min.view().item::<i64>().unwrap(), 0);
}

#[test]
fn argmax_of_a_transposed_view_indexes_the_flattened_view() {
    let m = RawTensor::from_vec(vec![1.0f32, 9.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    let t = m.view().t().unwrap(); // [[1, 4], [9, 5], [3, 6]]
    let flat = t.arg_reduce(ArgReduceOp::ArgMax, None, false).unwrap();
    assert_eq!(flat.view().item::<i64>().unwrap(), 2);
    let rows = t.arg_reduce(ArgReduceOp::ArgMax, Some(1), false).unwrap();
    assert_eq!(rows.to_vec::<i64>().unwrap(), vec![1, 0, 1]);
}

#[test]
fn errors_are_pytorchs() {
    let x = x();
    let v = x.view();
    assert_eq!(
        err(v.reduce(ReduceOp::Sum, &[0, -3], false)),
        "sum: dim 0 appears multiple times in the list of dims"
    );
    assert_eq!(
        err(v.reduce(ReduceOp::Sum, &[3], false)),
        "Dimension out of range (expected to be in range of [-3, 2], but got 3)"
    );
    assert_eq!(
        err(v.arg_reduce(ArgReduceOp::ArgMax, Some(-4), false)),
        "Dimension out of range (expected to be in range of [-3, 2], but got -4)"
    );
    assert_eq!(
        err(v.reduce(ReduceOp::Mean, &[], false)),
        "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    );
    assert_eq!(
        err(v.reduce(ReduceOp::Std { correction: 1.0 }, &[0], false)),
        "std and var only support floating point and complex dtypes"
    );
    let empty = RawTensor::zeros(&[0], DType::F32).unwrap();
    let msg = "Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.";
    assert_eq!(
        err(empty.view().reduce(ReduceOp::Max, &[], false)),
        format!("amax: {msg}")
    );
    // PyTorch's argmax says less here than amax.
    assert_eq!(
        err(empty.view().arg_reduce(ArgReduceOp::ArgMax, None, false)),
        "argmax: Expected reduction dim to be specified for input.numel() == 0."
    );
    let e03 = RawTensor::zeros(&[0, 3], DType::F32).unwrap();
    let v = e03.view();
    assert_eq!(
        v.max_min_dim(ArgReduceOp::ArgMax, 0, false)
            .err()
            .unwrap()
            .to_string(),
        "max: Expected reduction dim 0 to have non-zero size."
    );
    assert_eq!(
        err(v.reduce(ReduceOp::Min, &[0], false)),
        "amin: Expected reduction dim 0 to have non-zero size."
    );
    // Reducing the non-empty dim of an empty tensor is fine.
    assert_eq!(v.reduce(ReduceOp::Max, &[1], false).unwrap().shape(), &[0]);
    let b = RawTensor::from_vec(vec![Bool::TRUE, Bool::FALSE], &[2]).unwrap();
    assert_eq!(
        err(b.view().arg_reduce(ArgReduceOp::ArgMax, None, false)),
        "argmax: does not support bool input" // PyTorch: `argmax(): does not ...`
    );
}

#[test]
fn output_dtypes_follow_pytorch() {
    let i32s = RawTensor::from_vec(vec![1i32, 2, 3], &[3]).unwrap();
    let s = i32s.view().reduce(ReduceOp::Sum, &[], false).unwrap();
    assert_eq!(
        (s.dtype(), s.view().item::<i64>().unwrap()),
        (DType::I64, 6)
    );
    let p = i32s.view().reduce(ReduceOp::Prod, &[], false).unwrap();
    assert_eq!(
        (p.dtype(), p.view().item::<i64>().unwrap()),
        (DType::I64, 6)
    );
    let m = i32s.view().reduce(ReduceOp::Max, &[], false).unwrap();
    assert_eq!(
        (m.dtype(), m.view().item::<i32>().unwrap()),
        (DType::I32, 3)
    );

    let u8s = RawTensor::from_vec(vec![3u8, 0, 7], &[3]).unwrap();
    let all = u8s.view().reduce(ReduceOp::All, &[], false).unwrap();
    assert_eq!(
        (all.dtype(), all.view().item::<u8>().unwrap()),
        (DType::U8, 0)
    );
    let any = u8s.view().reduce(ReduceOp::Any, &[], false).unwrap();
    assert_eq!(
        (any.dtype(), any.view().item::<u8>().unwrap()),
        (DType::U8, 1)
    );

    let bools = RawTensor::from_vec(vec![Bool::TRUE, Bool::TRUE, Bool::FALSE], &[3]).unwrap();
    let n = bools.view().reduce(ReduceOp::Sum, &[], false).unwrap();
    assert_eq!(
        (n.dtype(), n.view().item::<i64>().unwrap()),
        (DType::I64, 2)
    );
    let (v, i) = bools
        .view()
        .max_min_dim(ArgReduceOp::ArgMin, 0, false)
        .unwrap();
    assert_eq!(v.view().item::<Bool>().unwrap(), Bool::FALSE);
    assert_eq!(i.view().item::<i64>().unwrap(), 2);

    let f32s = RawTensor::from_vec(vec![0.0f32, 2.0], &[2]).unwrap();
    let any = f32s.view().reduce(ReduceOp::Any, &[], false).unwrap();
    assert_eq!(any.dtype(), DType::Bool);
    assert_eq!(any.view().item::<Bool>().unwrap(), Bool::TRUE);

    let halves: Vec<f16> = [1.0f32, 2.0, 4.0]
        .iter()
        .map(|&v| f16::from_f32(v))
        .collect();
    let h = RawTensor::from_vec(halves, &[3]).unwrap();
    let mean = h.view().reduce(ReduceOp::Mean, &[], false).unwrap();
    assert_eq!(mean.dtype(), DType::F16);
    assert_eq!(mean.view().item::<f16>().unwrap(), f16::from_f32(7.0 / 3.0));
}

#[test]
fn f16_sums_accumulate_in_f32() {
    // 4096 × 1.0 then 1.0 more: an f16 accumulator would stop at 2048.
    let h = RawTensor::full_on(&Cpu, &[4097], Scalar::from(1.0), DType::F16).unwrap();
    let s = h.view().reduce(ReduceOp::Sum, &[], false).unwrap();
    assert_eq!(s.view().item::<f16>().unwrap(), f16::from_f32(4096.0));
}

#[test]
fn nan_propagates() {
    let v = RawTensor::from_vec(vec![1.0f32, f32::NAN, 5.0, f32::NAN], &[4]).unwrap();
    for op in [
        ReduceOp::Sum,
        ReduceOp::Prod,
        ReduceOp::Mean,
        ReduceOp::Max,
        ReduceOp::Min,
        ReduceOp::Var { correction: 1.0 },
        ReduceOp::Std { correction: 0.0 },
    ] {
        let r = v.view().reduce(op, &[], false).unwrap();
        assert!(r.view().item::<f32>().unwrap().is_nan(), "{op:?}");
    }
    for op in [ArgReduceOp::ArgMax, ArgReduceOp::ArgMin] {
        let i = v.view().arg_reduce(op, Some(0), false).unwrap();
        assert_eq!(i.view().item::<i64>().unwrap(), 1, "{op:?}");
        let (value, index) = v.view().max_min_dim(op, 0, false).unwrap();
        assert!(value.view().item::<f32>().unwrap().is_nan());
        assert_eq!(index.view().item::<i64>().unwrap(), 1);
    }
    // NaN counts as true.
    let any = v.view().reduce(ReduceOp::All, &[], false).unwrap();
    assert_eq!(any.view().item::<Bool>().unwrap(), Bool::TRUE);
}

#[test]
fn empty_reductions() {
    let e = RawTensor::zeros(&[0], DType::F32).unwrap();
    let item = |op| {
        let r = e.view().reduce(op, &[], false).unwrap();
        assert_eq!(r.shape(), &[] as &[usize]);
        let r = r.view().to_dtype(DType::F64).unwrap();
        r.view().item::<f64>().unwrap()
    };
    assert_eq!(item(ReduceOp::Sum), 0.0);
    assert_eq!(item(ReduceOp::Prod), 1.0);
    assert!(item(ReduceOp::Mean).is_nan());
    assert!(item(ReduceOp::Var { correction: 0.0 }).is_nan());
    assert_eq!(item(ReduceOp::All), 1.0);
    assert_eq!(item(ReduceOp::Any), 0.0);
    let e03 = RawTensor::zeros(&[0, 3], DType::I32).unwrap();
    let s = e03.view().reduce(ReduceOp::Sum, &[0], false).unwrap();
    assert_eq!(
        (s.shape(), s.to_vec::<i64>().unwrap()),
        (&[3][..], vec![0; 3])
    );
    let k = e03.view().reduce(ReduceOp::Prod, &[0], true).unwrap();
    assert_eq!(
        (k.shape(), k.to_vec::<i64>().unwrap()),
        (&[1, 3][..], vec![1; 3])
    );
    let none = e03.view().reduce(ReduceOp::Sum, &[1], false).unwrap();
    assert_eq!(none.shape(), &[0]);
}

#[test]
fn zero_dim_inputs_take_dim_0_and_minus_1() {
    let s = RawTensor::from_vec(vec![5.0f32], &[]).unwrap();
    for dims in [[0isize], [-1]] {
        for keepdim in [false, true] {
            let r = s.view().reduce(ReduceOp::Sum, &dims, keepdim).unwrap();
            assert_eq!(r.shape(), &[] as &[usize]);
            assert_eq!(r.view().item::<f32>().unwrap(), 5.0);
        }
        let a = s
            .view()
            .arg_reduce(ArgReduceOp::ArgMax, Some(dims[0]), false)
            .unwrap();
        assert_eq!((a.shape(), a.view().item::<i64>().unwrap()), (&[][..], 0));
    }
    assert_eq!(
        err(s.view().reduce(ReduceOp::Sum, &[1], false)),
        "Dimension out of range (expected to be in range of [-1, 0], but got 1)"
    );
    assert_eq!(
        err(s.view().reduce(ReduceOp::Sum, &[0, -1], false)),
        "sum: dim 0 appears multiple times in the list of dims"
    );
    let a = s
        .view()
        .arg_reduce(ArgReduceOp::ArgMin, None, true)
        .unwrap();
    assert_eq!((a.shape(), a.view().item::<i64>().unwrap()), (&[][..], 0));
}

#[test]
fn variance_follows_correction() {
    let v = RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[4]).unwrap();
    let var = |c: f64| {
        v.view()
            .reduce(ReduceOp::Var { correction: c }, &[], false)
            .unwrap()
            .view()
            .item::<f64>()
            .unwrap()
    };
    assert!((var(1.0) - 5.0 / 3.0).abs() < 1e-15);
    assert_eq!(var(0.0), 1.25);
    assert_eq!(var(4.0), f64::INFINITY);
    assert_eq!(var(6.5), f64::INFINITY);
    let std = v
        .view()
        .reduce(ReduceOp::Std { correction: 0.0 }, &[0], true)
        .unwrap();
    assert_eq!(std.shape(), &[1]);
    assert_eq!(std.view().item::<f64>().unwrap(), 1.25f64.sqrt());
    let one = RawTensor::from_vec(vec![3.0f32], &[1]).unwrap();
    let r = one
        .view()
        .reduce(ReduceOp::Var { correction: 1.0 }, &[], false)
        .unwrap();
    assert!(r.view().item::<f32>().unwrap().is_nan());
}

#[test]
fn long_f32_sums_stay_exact_on_ones() {
    // A sequential f32 sum stops growing at 2^24 = 16_777_216.
    let n = (1 << 24) + (1 << 21);
    let ones = RawTensor::full_on(&Cpu, &[n], Scalar::from(1.0), DType::F32).unwrap();
    let s = ones.view().reduce(ReduceOp::Sum, &[], false).unwrap();
    assert_eq!(s.view().item::<f32>().unwrap(), n as f32);
    let cols = ones.view().view(&[-1, 8]).unwrap();
    let c = cols.reduce(ReduceOp::Sum, &[0], false).unwrap();
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![(n / 8) as f32; 8]);
}

#[test]
fn long_f32_sums_match_an_f64_reference() {
    let n = 1 << 24;
    let mut rng = Generator::seed(7);
    let x = RawTensor::rand(&[n], DType::F32, &mut rng).unwrap();
    let data = x.to_vec::<f32>().unwrap();
    let close = |got: f32, want: f64| {
        let rel = (got as f64 - want).abs() / want.abs();
        assert!(rel < 1e-6, "{got} vs {want}: relative error {rel}");
    };
    let want: f64 = data.iter().map(|&v| v as f64).sum();
    let got = x.view().reduce(ReduceOp::Sum, &[], false).unwrap();
    close(got.view().item::<f32>().unwrap(), want);
    let mean = x.view().reduce(ReduceOp::Mean, &[], false).unwrap();
    close(mean.view().item::<f32>().unwrap(), want / n as f64);
    // Column sums of (n/4, 4): the outer walk.
    let cols = x.view().view(&[-1, 4]).unwrap();
    let got = cols.reduce(ReduceOp::Sum, &[0], false).unwrap();
    for (j, g) in got.to_vec::<f32>().unwrap().into_iter().enumerate() {
        close(g, data.iter().skip(j).step_by(4).map(|&v| v as f64).sum());
    }
}

/// Row sums read several rows side by side: each row's sum (and mean)
/// has the same bits as that row summed alone, for lengths around the
/// accumulators' width and the cascade's leaf, and any count of rows.
#[test]
fn row_sums_do_not_depend_on_the_rows_beside_them() {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    for len in [1, 15, 16, 17, 100, 1023, 1024, 1025, 2048, 3001, 4099] {
        for rows in [1, 3, 4, 5, 9] {
            let values: Vec<f32> = (0..rows * len)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    // Magnitudes over 2⁴⁰ so that the order of additions shows.
                    let m = (s >> 40) as f32 / (1u64 << 24) as f32 - 0.5;
                    m * 2f32.powi((s % 40) as i32)
                })
                .collect();
            let x = RawTensor::from_vec(values.clone(), &[rows, len]).unwrap();
            for op in [ReduceOp::Sum, ReduceOp::Mean] {
                let all = x
                    .view()
                    .reduce(op, &[1], false)
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap();
                for (r, got) in all.iter().enumerate() {
                    let row =
                        RawTensor::from_vec(values[r * len..][..len].to_vec(), &[1, len]).unwrap();
                    let alone = row.view().reduce(op, &[1], false).unwrap().to_vec::<f32>();
                    assert_eq!(
                        got.to_bits(),
                        alone.unwrap()[0].to_bits(),
                        "{op:?} of row {r} of {rows} × {len}"
                    );
                }
            }
        }
    }
}
