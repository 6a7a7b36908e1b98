//! The float8 conversions against PyTorch's: every bit pattern's value, and
//! the bits `torch.Tensor.to` gives for ~14000 float32 values per format
//! (neighbours' midpoints and one ulp either side, overflow, infinities,
//! NaNs, signed zeros, subnormals, random bit patterns), recorded by
//! `oracle/torch_float8.py`. The casts of tensors go through the same
//! conversions.

use axial_core::float8::{F8E4M3Fn, F8E4M3FnUz, F8E5M2, F8E5M2FnUz};
use axial_core::{DType, RawTensor};
use serde_json::Value;

fn record() -> Value {
    serde_json::from_str(include_str!("data/torch_float8.json")).unwrap()
}

fn ints(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

type Conv = (fn(u8) -> f32, fn(f32) -> u8, DType);

fn conversions(name: &str) -> Conv {
    match name {
        "float8_e4m3fn" => (
            |b| F8E4M3Fn::from_bits(b).to_f32(),
            |x| F8E4M3Fn::from_f32(x).to_bits(),
            DType::F8E4M3Fn,
        ),
        "float8_e5m2" => (
            |b| F8E5M2::from_bits(b).to_f32(),
            |x| F8E5M2::from_f32(x).to_bits(),
            DType::F8E5M2,
        ),
        "float8_e4m3fnuz" => (
            |b| F8E4M3FnUz::from_bits(b).to_f32(),
            |x| F8E4M3FnUz::from_f32(x).to_bits(),
            DType::F8E4M3FnUz,
        ),
        "float8_e5m2fnuz" => (
            |b| F8E5M2FnUz::from_bits(b).to_f32(),
            |x| F8E5M2FnUz::from_f32(x).to_bits(),
            DType::F8E5M2FnUz,
        ),
        other => panic!("no float8 {other}"),
    }
}

/// Equal bits, or both NaN (torch's NaN bits are kept as they are).
fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn every_bit_pattern_decodes_as_torch_decodes_it() {
    let record = record();
    for (name, entry) in record["dtypes"].as_object().unwrap() {
        let (decode, _, _) = conversions(name);
        for (bits, want) in ints(&entry["decoded"]).into_iter().enumerate() {
            let got = decode(bits as u8);
            assert!(
                same(got, f32::from_bits(want)),
                "{name} {bits:#04x}: {got} vs {}",
                f32::from_bits(want)
            );
        }
    }
}

#[test]
fn float32_values_round_saturate_and_overflow_as_torch_converts_them() {
    let record = record();
    for (name, entry) in record["dtypes"].as_object().unwrap() {
        let (_, encode, _) = conversions(name);
        let inputs = ints(&entry["inputs"]);
        let want = ints(&entry["encoded"]);
        assert!(inputs.len() > 10_000, "{name}");
        let wrong: Vec<String> = inputs
            .iter()
            .zip(&want)
            .filter(|&(&x, &w)| encode(f32::from_bits(x)) as u32 != w)
            .map(|(&x, &w)| {
                format!(
                    "{:e}: {:#04x}, torch {w:#04x}",
                    f32::from_bits(x),
                    encode(f32::from_bits(x))
                )
            })
            .take(10)
            .collect();
        assert!(wrong.is_empty(), "{name}: {}", wrong.join("; "));
    }
}

#[test]
fn tensor_casts_to_and_from_float8_are_the_element_conversions() {
    let record = record();
    for (name, entry) in record["dtypes"].as_object().unwrap() {
        let (decode, _, dtype) = conversions(name);
        let inputs: Vec<f32> = ints(&entry["inputs"])
            .into_iter()
            .map(f32::from_bits)
            .collect();
        let want = ints(&entry["encoded"]);
        let x = RawTensor::from_vec(inputs.clone(), &[inputs.len()]).unwrap();
        let y = x.view().to_dtype(dtype).unwrap();
        assert_eq!(y.dtype(), dtype);
        let back = y
            .view()
            .to_dtype(DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        for (i, (&b, &w)) in back.iter().zip(&want).enumerate() {
            assert!(same(b, decode(w as u8)), "{name}: {} -> {b}", inputs[i]);
        }
    }
}
