//! Quantized tensors against PyTorch: every case of `tests/data/quantized.json`
//! (quantize per tensor and per channel, dequantize, the quantized linear and
//! matmul, the errors) replayed bit for bit; where PyTorch quantizes garbage
//! (a scale <= 0, a NaN) axial must refuse.

mod cases;

use axial_core::quantized::{
    PackedLinearWeight, QDType, QuantizedTensor, from_int_repr, from_int_repr_per_channel, linear,
    linear_relu, matmul, quantize_per_channel, quantize_per_tensor,
};
use axial_core::{RawTensor, Result};
use cases::{assert_close, assert_message, f32s, f64s, i64s, load, usizes};
use serde_json::Value;

fn qdtype(c: &Value) -> QDType {
    match c["dtype"].as_str() {
        Some("quint8") => QDType::QUInt8,
        Some("qint8") => QDType::QInt8,
        Some("qint32") => QDType::QInt32,
        d => panic!("dtype {d:?}"),
    }
}

/// The stored integers, widened.
fn ints(q: &QuantizedTensor) -> Vec<i64> {
    let r = q.int_repr().unwrap();
    match q.qdtype() {
        QDType::QUInt8 => r
            .to_vec::<u8>()
            .unwrap()
            .into_iter()
            .map(i64::from)
            .collect(),
        QDType::QInt8 => r
            .to_vec::<i8>()
            .unwrap()
            .into_iter()
            .map(i64::from)
            .collect(),
        QDType::QInt32 => r
            .to_vec::<i32>()
            .unwrap()
            .into_iter()
            .map(i64::from)
            .collect(),
    }
}

fn tensor(c: &Value, key: &str, shape: &[usize]) -> RawTensor {
    RawTensor::from_vec(f32s(&c[key]), shape).unwrap()
}

fn quantize(c: &Value) -> Result<QuantizedTensor> {
    let shape = usizes(&c["shape"]);
    let x = tensor(c, "x", &shape);
    match c["op"].as_str() {
        Some("per_tensor") => quantize_per_tensor(
            &x.view(),
            c["scale"].as_f64().unwrap(),
            c["zero_point"].as_i64().unwrap(),
            qdtype(c),
        ),
        _ => quantize_per_channel(
            &x.view(),
            &f64s(&c["scales"]),
            &i64s(&c["zero_points"]),
            c["axis"].as_u64().unwrap() as usize,
            qdtype(c),
        ),
    }
}

#[test]
fn quantize_and_dequantize_match_pytorch_bit_for_bit() {
    let mut checked = 0;
    for (i, c) in load("quantized").iter().enumerate() {
        if !matches!(c["op"].as_str(), Some("per_tensor" | "per_channel")) {
            continue;
        }
        let got = quantize(c);
        if let Some(e) = c["error"].as_str() {
            assert_message(
                &got.err().unwrap_or_else(|| panic!("case {i}: accepted")),
                e,
            );
        } else if c.get("pytorch_unsafe").is_some() {
            assert!(
                got.is_err(),
                "case {i}: PyTorch quantizes garbage here; axial must refuse"
            );
        } else {
            let q = got.unwrap_or_else(|e| panic!("case {i}: {e}"));
            assert_eq!(ints(&q), i64s(&c["int_repr"]), "case {i}: int_repr");
            let d = q.dequantize().unwrap().to_vec::<f32>().unwrap();
            // PyTorch's qint32 `q - zero_point` wraps in int32 where it
            // overflows; axial's does not (the generator gives the exact value).
            if let Some(wrapped) = c.get("dequantize_pytorch_wraps") {
                assert_ne!(d, f32s(wrapped), "case {i}: PyTorch's wrapped values");
            }
            assert_close(
                &d,
                &f32s(&c["dequantize"]),
                0.0,
                &format!("case {i}: dequantize"),
            );
        }
        checked += 1;
    }
    assert!(checked >= 200, "{checked} cases");
}

#[test]
fn linear_matches_pytorch_x86_engine_bit_for_bit() {
    let mut checked = 0;
    for (i, c) in load("quantized").iter().enumerate() {
        if c["op"] != "linear" {
            continue;
        }
        let (m, k, n) = (
            c["m"].as_u64().unwrap() as usize,
            c["k"].as_u64().unwrap() as usize,
            c["n"].as_u64().unwrap() as usize,
        );
        let x = tensor(c, "x", &[m, k]);
        let w = tensor(c, "w", &[n, k]);
        let qx = quantize_per_tensor(
            &x.view(),
            c["x_scale"].as_f64().unwrap(),
            c["x_zero_point"].as_i64().unwrap(),
            QDType::QUInt8,
        )
        .unwrap();
        let qw = if c["w_per_channel"].as_bool().unwrap() {
            quantize_per_channel(
                &w.view(),
                &f64s(&c["w_scale"]),
                &i64s(&c["w_zero_point"]),
                0,
                QDType::QInt8,
            )
        } else {
            quantize_per_tensor(
                &w.view(),
                c["w_scale"].as_f64().unwrap(),
                c["w_zero_point"].as_i64().unwrap(),
                QDType::QInt8,
            )
        }
        .unwrap();
        assert_eq!(ints(&qx), i64s(&c["xq"]), "case {i}: x quantized");
        assert_eq!(ints(&qw), i64s(&c["wq"]), "case {i}: w quantized");
        let bias = c["bias"].is_array().then(|| tensor(c, "bias", &[n]));
        let packed =
            PackedLinearWeight::new(&qw.view(), bias.as_ref().map(|b| b.view()).as_ref()).unwrap();
        let f = if c["relu"].as_bool().unwrap() {
            linear_relu
        } else {
            linear
        };
        let y = f(
            &qx.view(),
            &packed,
            c["out_scale"].as_f64().unwrap(),
            c["out_zero_point"].as_i64().unwrap(),
        )
        .unwrap();
        assert_eq!(y.shape(), &[m, n]);
        assert_eq!(ints(&y), i64s(&c["int_repr"]), "case {i}: linear");
        checked += 1;
    }
    assert!(checked >= 50, "{checked} cases");
}

#[test]
fn matmul_matches_pytorch() {
    let mut checked = 0;
    for (i, c) in load("quantized").iter().enumerate() {
        if c["op"] != "matmul" {
            continue;
        }
        let (m, k, n) = (
            c["m"].as_u64().unwrap() as usize,
            c["k"].as_u64().unwrap() as usize,
            c["n"].as_u64().unwrap() as usize,
        );
        let q = |key: &str, shape: &[usize]| {
            let t = tensor(c, key, shape);
            let (s, z) = (&c[format!("{key}_scale")], &c[format!("{key}_zero_point")]);
            quantize_per_tensor(
                &t.view(),
                s.as_f64().unwrap(),
                z.as_i64().unwrap(),
                qdtype(c),
            )
            .unwrap()
        };
        let (a, b) = (q("a", &[m, k]), q("b", &[k, n]));
        let y = matmul(
            &a.view(),
            &b.view(),
            c["out_scale"].as_f64().unwrap(),
            c["out_zero_point"].as_i64().unwrap(),
        )
        .unwrap();
        assert_eq!(ints(&y), i64s(&c["int_repr"]), "case {i}: matmul");
        checked += 1;
    }
    assert!(checked >= 10, "{checked} cases");
}

#[test]
fn the_chapter_numbers() {
    // §1.1: mul by the inverse, half to even, zp after rounding, clamping.
    let x = RawTensor::from_vec(vec![0.273_939_94_f32], &[1]).unwrap();
    let q = quantize_per_tensor(&x.view(), 0.00214854861, 0, QDType::QUInt8).unwrap();
    assert_eq!(ints(&q), vec![128]);
    let c = RawTensor::from_vec(
        vec![
            -1000.0f32, -129.0, -128.6, -128.4, 127.4, 127.5, 127.6, 255.5, 1000.0,
        ],
        &[9],
    )
    .unwrap();
    let clamp = |d| ints(&quantize_per_tensor(&c.view(), 1.0, 0, d).unwrap());
    assert_eq!(
        clamp(QDType::QUInt8),
        vec![0, 0, 0, 0, 127, 128, 128, 255, 255]
    );
    assert_eq!(
        clamp(QDType::QInt8),
        vec![-128, -128, -128, -128, 127, 127, 127, 127, 127]
    );
    assert_eq!(
        clamp(QDType::QInt32),
        vec![-1000, -129, -129, -128, 127, 128, 128, 256, 1000]
    );
    // §1.3: wrapping integers already quantized.
    let ints_in = RawTensor::from_vec(vec![0u8, 5, 10], &[3]).unwrap();
    let q = from_int_repr(ints_in, 0.5, 5, QDType::QUInt8).unwrap();
    assert_eq!(
        q.dequantize().unwrap().to_vec::<f32>().unwrap(),
        vec![-2.5, 0.0, 2.5]
    );
    // §1.4: views keep the quantizer and the bytes.
    let m = RawTensor::arange(0.0, 12.0, 1.0, axial_core::DType::F32).unwrap();
    let m = m
        .view()
        .view(&[3, 4])
        .unwrap()
        .binary_scalar(axial_core::BinaryOp::Div, 10.0.into())
        .unwrap();
    let q = quantize_per_tensor(&m.view(), 0.1, 3, QDType::QUInt8).unwrap();
    let w = q
        .view()
        .slice(0, Some(1), None, 1)
        .unwrap()
        .narrow(1, 1, 2)
        .unwrap();
    assert_eq!((w.strides(), w.offset()), (&[4, 1][..], 5));
    let wi = w.int_repr().unwrap();
    assert_eq!(
        (wi.to_vec::<u8>().unwrap(), wi.view().offset()),
        (vec![8, 9, 12, 13], 0)
    );
    let t = q.view().t().unwrap();
    assert_eq!(t.int_repr().unwrap().strides(), &[3, 1]);
    assert_eq!(
        t.int_repr().unwrap().to_vec::<u8>().unwrap(),
        vec![3, 7, 11, 4, 8, 12, 5, 9, 13, 6, 10, 14]
    );
    // Errors PyTorch gives, and the ones it does not.
    let e = quantize_per_tensor(
        &m.view().to_dtype(axial_core::DType::F64).unwrap().view(),
        0.1,
        0,
        QDType::QInt8,
    );
    assert_message(
        &e.err().unwrap(),
        "Quantize only works on Float Tensor, got Double",
    );
    assert!(q.view().q_per_channel_scales().is_err());
}

#[test]
fn per_channel_views_follow_the_channel_axis() {
    let x = RawTensor::arange(0.0, 24.0, 1.0, axial_core::DType::F32).unwrap();
    let x = x
        .view()
        .view(&[2, 3, 4])
        .unwrap()
        .binary_scalar(axial_core::BinaryOp::Div, 10.0.into())
        .unwrap();
    let q =
        quantize_per_channel(&x.view(), &[0.1, 0.2, 0.3], &[0, 1, 2], 1, QDType::QInt8).unwrap();
    let dense = q.dequantize().unwrap();
    // A transposed view dequantizes to the transposed values (PyTorch refuses the view).
    let t = q.view().transpose(0, 2).unwrap();
    assert_eq!(t.q_per_channel_axis().unwrap(), 1);
    let want = dense
        .view()
        .transpose(0, 2)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(t.dequantize().unwrap().to_vec::<f32>().unwrap(), want);
    // Narrowing the channels keeps theirs; selecting one is per tensor.
    let n = q.view().narrow(1, 1, 2).unwrap();
    let want = dense
        .view()
        .narrow(1, 1, 2)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(n.dequantize().unwrap().to_vec::<f32>().unwrap(), want);
    let s = q.view().select(1, 2).unwrap();
    assert_eq!((s.q_scale().unwrap(), s.q_zero_point().unwrap()), (0.3, 2));
    let all = q.int_repr().unwrap();
    let want = all.view().select(1, 2).unwrap().to_vec::<i8>().unwrap();
    assert_eq!(s.int_repr().unwrap().to_vec::<i8>().unwrap(), want);
    // Per tensor now, so dequantized in f32 rather than f64: within an ulp.
    let want = dense.view().select(1, 2).unwrap().to_vec::<f32>().unwrap();
    assert_close(
        &s.dequantize().unwrap().to_vec::<f32>().unwrap(),
        &want,
        2e-7,
        "select",
    );
    // The printout names the parameters.
    assert!(q.to_string().ends_with(
        "scale=tensor([0.1000, 0.2000, 0.3000], dtype=torch.float64),\n       zero_point=tensor([0, 1, 2]), axis=1)"
    ));
}

#[test]
fn the_portable_product_matches_the_vector_one() {
    // A linear large enough for several row blocks, k blocks and panels.
    let (m, k, n) = (101, 2100, 70);
    let x = RawTensor::rand(
        &[m, k],
        axial_core::DType::F32,
        &mut axial_core::Generator::seed(1),
    )
    .unwrap();
    let w = RawTensor::randn(
        &[n, k],
        axial_core::DType::F32,
        &mut axial_core::Generator::seed(2),
    )
    .unwrap();
    let qx = quantize_per_tensor(&x.view(), 1.0 / 255.0, 3, QDType::QUInt8).unwrap();
    let qw = quantize_per_tensor(&w.view(), 0.03, -2, QDType::QInt8).unwrap();
    let y = linear(
        &qx.view(),
        &PackedLinearWeight::new(&qw.view(), None).unwrap(),
        0.7,
        100,
    )
    .unwrap();
    // The definition, in i64: acc, then PyTorch's requantization.
    let (xq, wq) = (ints(&qx), ints(&qw));
    let atw = (1.0f64 / 255.0) as f32 * 0.03f32;
    let mult = atw / 0.7f32;
    let mut want = Vec::with_capacity(m * n);
    for r in 0..m {
        for j in 0..n {
            let acc: i64 = (0..k)
                .map(|t| (xq[r * k + t] - 3) * (wq[j * k + t] + 2))
                .sum();
            let q = ((acc as f32) * mult).round_ties_even() as i64 + 100;
            want.push(q.clamp(0, 255));
        }
    }
    assert_eq!(ints(&y), want);
}

/// The case's integers as the stored dtype of `q`.
fn int_tensor(c: &Value) -> RawTensor {
    let shape = usizes(&c["shape"]);
    let ints = i64s(&c["ints"]);
    match qdtype(c) {
        QDType::QUInt8 => RawTensor::from_vec(ints.iter().map(|&v| v as u8).collect(), &shape),
        QDType::QInt8 => RawTensor::from_vec(ints.iter().map(|&v| v as i8).collect(), &shape),
        QDType::QInt32 => RawTensor::from_vec(ints.iter().map(|&v| v as i32).collect(), &shape),
    }
    .unwrap()
}

#[test]
fn integers_quantized_already_dequantize_as_pytorch_but_never_wrap() {
    let (mut wrapped, mut per_channel_qint32) = (0, 0);
    for (i, c) in load("quantized").iter().enumerate() {
        let q = match c["op"].as_str() {
            Some("from_int_repr") => from_int_repr(
                int_tensor(c),
                c["scale"].as_f64().unwrap(),
                c["zero_point"].as_i64().unwrap(),
                qdtype(c),
            ),
            Some("from_int_repr_per_channel") => {
                per_channel_qint32 += usize::from(qdtype(c) == QDType::QInt32);
                from_int_repr_per_channel(
                    int_tensor(c),
                    &f64s(&c["scales"]),
                    &i64s(&c["zero_points"]),
                    c["axis"].as_u64().unwrap() as usize,
                    qdtype(c),
                )
            }
            _ => continue,
        }
        .unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert_eq!(ints(&q), i64s(&c["ints"]), "case {i}: int_repr");
        let d = q.dequantize().unwrap().to_vec::<f32>().unwrap();
        // Per tensor, PyTorch's qint32 `q - zero_point` wraps in int32 near
        // the ends of the range (a value of the wrong sign); axial's is
        // exact, as PyTorch's own per-channel path is.
        if let Some(pytorch) = c.get("dequantize_pytorch_wraps") {
            wrapped += 1;
            let pytorch = f32s(pytorch);
            assert!(
                d.iter()
                    .zip(&pytorch)
                    .any(|(a, b)| a.signum() != b.signum()),
                "case {i}: a wrapped difference flips the sign"
            );
        }
        assert_close(
            &d,
            &f32s(&c["dequantize"]),
            0.0,
            &format!("case {i}: dequantize"),
        );
    }
    assert!(wrapped >= 3, "{wrapped} cases where PyTorch wraps");
    assert!(
        per_channel_qint32 >= 5,
        "{per_channel_qint32} per-channel qint32 cases"
    );
    // The example of the docs: q = 2^31 - 1, zero point -1000, scale 0.5.
    let ints = RawTensor::from_vec(vec![i32::MAX], &[1]).unwrap();
    let q = from_int_repr(ints, 0.5, -1000, QDType::QInt32).unwrap();
    assert_eq!(
        q.dequantize().unwrap().to_vec::<f32>().unwrap(),
        vec![1_073_742_336.0]
    );
    let ints = RawTensor::from_vec(vec![i32::MAX], &[1]).unwrap();
    let q = from_int_repr_per_channel(ints, &[0.5], &[-1000], 0, QDType::QInt32).unwrap();
    assert_eq!(
        q.dequantize().unwrap().to_vec::<f32>().unwrap(),
        vec![1_073_742_336.0]
    );
    // The checks PyTorch leaves to dequantization, or never makes.
    let ints = || RawTensor::from_vec(vec![1i8, 2, 3, 4], &[2, 2]).unwrap();
    let bad = [
        (vec![0.1, 0.2], vec![0, 300], 0),
        (vec![0.0, 0.2], vec![0, 0], 0),
        (vec![-0.1, 0.2], vec![0, 0], 1),
        (vec![0.1], vec![0], 0),
        (vec![0.1, 0.2], vec![0, 0], 2),
    ];
    for (scales, zps, axis) in bad {
        assert!(
            from_int_repr_per_channel(ints(), &scales, &zps, axis, QDType::QInt8).is_err(),
            "{scales:?} {zps:?} {axis}"
        );
    }
    let wrong = RawTensor::from_vec(vec![1u8, 2], &[2]).unwrap();
    assert!(from_int_repr_per_channel(wrong, &[0.1, 0.1], &[0, 0], 0, QDType::QInt8).is_err());
}
