//! Helpers of the fixture tests: each fixture's `.json` (written by the
//! library that wrote the file) says what the file holds.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use axial_core::{DType, Element};
use axial_io::StoredTensor;
use half::{bf16, f16};
use serde_json::Value;

/// The fixture `name` under `tests/fixtures/<format>/`.
pub(crate) fn fixture(format: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format)
        .join(name)
}

/// The `.json` beside a fixture.
pub(crate) fn expected(format: &str, name: &str) -> Value {
    let path = fixture(format, &format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("fixture JSON parses")
}

/// Every fixture of `format` whose name starts with `prefix`.
pub(crate) fn fixtures(format: &str, prefix: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixture(format, ""))
        .expect("fixtures are readable")
        .filter_map(|e| {
            let e = e.ok()?;
            e.file_type().ok()?.is_file().then_some(())?;
            e.file_name().into_string().ok()
        })
        .filter(|n| n.starts_with(prefix) && !n.ends_with(".json"))
        .collect();
    names.sort();
    names
}

fn cast<T: Element + Into<f64>>(t: &StoredTensor) -> Vec<f64> {
    t.to_vec::<T>()
        .unwrap()
        .into_iter()
        .map(Into::into)
        .collect()
}

/// A tensor's elements in logical order, as f64 (exact for every dtype
/// here but i64 beyond 2^53, which the fixtures do not hold).
pub(crate) fn values(t: &StoredTensor) -> Vec<f64> {
    match t.dtype() {
        DType::Bool => t
            .to_vec::<axial_core::Bool>()
            .unwrap()
            .into_iter()
            .map(|b| f64::from(u8::from(bool::from(b))))
            .collect(),
        DType::U8 => cast::<u8>(t),
        DType::I8 => cast::<i8>(t),
        DType::I16 => cast::<i16>(t),
        DType::I32 => cast::<i32>(t),
        DType::I64 => t
            .to_vec::<i64>()
            .unwrap()
            .into_iter()
            .map(|v| v as f64)
            .collect(),
        DType::F16 => t
            .to_vec::<f16>()
            .unwrap()
            .into_iter()
            .map(f64::from)
            .collect(),
        DType::BF16 => t
            .to_vec::<bf16>()
            .unwrap()
            .into_iter()
            .map(f64::from)
            .collect(),
        DType::F32 => cast::<f32>(t),
        DType::F64 => cast::<f64>(t),
        DType::U16 => cast::<u16>(t),
        DType::U32 => cast::<u32>(t),
        DType::U64 => t
            .to_vec::<u64>()
            .unwrap()
            .into_iter()
            .map(|v| v as f64)
            .collect(),
        DType::C64 => t
            .to_vec::<num_complex::Complex<f32>>()
            .unwrap()
            .into_iter()
            .flat_map(|c| [f64::from(c.re), f64::from(c.im)])
            .collect(),
        DType::C128 => t
            .to_vec::<num_complex::Complex<f64>>()
            .unwrap()
            .into_iter()
            .flat_map(|c| [c.re, c.im])
            .collect(),
        d => {
            // The float8s: every value exact in f32.
            let f = t.view().to_dtype(DType::F32).unwrap();
            assert!(d.is_float8());
            f.to_vec::<f32>()
                .unwrap()
                .into_iter()
                .map(f64::from)
                .collect()
        }
    }
}

/// A JSON value as f64 (`true` is 1, `"nan"` and `"inf"` as floats).
pub(crate) fn number(v: &Value) -> f64 {
    match v {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => s.parse().unwrap_or_else(|_| panic!("not a number: {s}")),
        other => panic!("not a number: {other}"),
    }
}

/// Checks `t`'s elements against a fixture entry's `values_flat` (or its
/// `first_values_flat` and `sum_f64` when the tensor is large).
#[track_caller]
pub(crate) fn check_values(what: &str, t: &StoredTensor, entry: &Value) {
    let got = values(t);
    assert_eq!(
        got.len() as u64,
        entry["numel"].as_u64().unwrap(),
        "{what}: numel"
    );
    let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
    if let Some(flat) = entry["values_flat"].as_array() {
        let want: Vec<f64> = flat.iter().map(number).collect();
        assert!(
            got.iter().zip(&want).all(|(a, b)| same(*a, *b)) && got.len() == want.len(),
            "{what}: values {got:?}, expected {want:?}"
        );
    } else {
        let head: Vec<f64> = entry["first_values_flat"]
            .as_array()
            .unwrap()
            .iter()
            .map(number)
            .collect();
        assert!(
            got.iter().zip(&head).all(|(a, b)| same(*a, *b)),
            "{what}: first values"
        );
        let sum: f64 = got.iter().sum();
        let want = number(&entry["sum_f64"]);
        assert!(
            (sum - want).abs() <= 1e-6 * want.abs().max(1.0),
            "{what}: sum {sum}, expected {want}"
        );
    }
}

/// The dtype a fixture names (`"float32"`, or safetensors' `"F32"`).
pub(crate) fn dtype(name: &str) -> DType {
    match name {
        "bool" | "BOOL" | "|b1" => DType::Bool,
        "uint8" | "U8" | "|u1" => DType::U8,
        "int8" | "I8" | "|i1" => DType::I8,
        "int16" | "I16" => DType::I16,
        "int32" | "I32" => DType::I32,
        "int64" | "I64" => DType::I64,
        "float16" | "F16" => DType::F16,
        "bfloat16" | "BF16" => DType::BF16,
        "float32" | "F32" => DType::F32,
        "float64" | "F64" => DType::F64,
        "uint16" | "U16" | "<u2" => DType::U16,
        "uint32" | "U32" | "<u4" => DType::U32,
        "uint64" | "U64" | "<u8" => DType::U64,
        "complex64" | "C64" | "<c8" => DType::C64,
        "complex128" | "<c16" => DType::C128,
        "float8_e4m3fn" | "F8_E4M3" => DType::F8E4M3Fn,
        "float8_e5m2" | "F8_E5M2" => DType::F8E5M2,
        "float8_e4m3fnuz" | "F8_E4M3FNUZ" => DType::F8E4M3FnUz,
        "float8_e5m2fnuz" | "F8_E5M2FNUZ" => DType::F8E5M2FnUz,
        other => panic!("unknown dtype {other}"),
    }
}

/// A JSON array of integers.
pub(crate) fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

/// A JSON array of signed integers.
pub(crate) fn isizes(v: &Value) -> Vec<isize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap() as isize)
        .collect()
}

/// A JSON value's numbers, nested arrays flattened (complex values as
/// `[re, im]` pairs become two numbers).
pub(crate) fn flat_numbers(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(items) => items.iter().flat_map(flat_numbers).collect(),
        other => vec![number(other)],
    }
}
