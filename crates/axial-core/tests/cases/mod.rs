//! The cases `bench/generalized_cases.py` computed with PyTorch 2.15, read
//! from `tests/data/{quantized,sparse,nested}.json`, and the comparisons the
//! replay tests make.

#![allow(dead_code, unreachable_pub)]

use serde_json::Value;

/// The cases of `tests/data/{name}.json`.
pub fn load(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut all: Value = serde_json::from_str(&text).expect("the cases are JSON");
    match all["cases"].take() {
        Value::Array(cases) => cases,
        _ => panic!("{path}: no cases"),
    }
}

/// A float written by the generator: a number, or "nan", "inf", "-inf".
pub fn float(v: &Value) -> f64 {
    match v {
        Value::String(s) if s == "nan" => f64::NAN,
        Value::String(s) if s == "inf" => f64::INFINITY,
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        v => v.as_f64().unwrap_or_else(|| panic!("not a float: {v}")),
    }
}

/// A list of `f32`, flattened from any nesting.
pub fn f32s(v: &Value) -> Vec<f32> {
    f64s(v).into_iter().map(|x| x as f32).collect()
}

/// A list of `f64`, flattened from any nesting.
pub fn f64s(v: &Value) -> Vec<f64> {
    let mut out = Vec::new();
    flatten(v, &mut |x| out.push(float(x)));
    out
}

/// A list of integers, flattened from any nesting.
pub fn i64s(v: &Value) -> Vec<i64> {
    let mut out = Vec::new();
    flatten(v, &mut |x| {
        out.push(x.as_i64().unwrap_or_else(|| panic!("not an integer: {x}")))
    });
    out
}

/// A list of sizes.
pub fn usizes(v: &Value) -> Vec<usize> {
    i64s(v).into_iter().map(|x| x as usize).collect()
}

fn flatten(v: &Value, f: &mut impl FnMut(&Value)) {
    match v {
        Value::Array(items) => items.iter().for_each(|x| flatten(x, f)),
        x => f(x),
    }
}

/// Asserts `got` equals `want` within `tol` relative (and absolute near 0),
/// NaN matching NaN and infinities matching exactly.
#[track_caller]
pub fn assert_close(got: &[f32], want: &[f32], tol: f32, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = if w.is_nan() {
            g.is_nan()
        } else if w.is_infinite() {
            g == w
        } else {
            (g - w).abs() <= tol * w.abs().max(1.0)
        };
        assert!(
            ok,
            "{what}: element {i}: got {g}, want {w}\n got {got:?}\nwant {want:?}"
        );
    }
}

/// Asserts that `err` carries PyTorch's message (the core prefixes the op).
#[track_caller]
pub fn assert_message(err: &axial_core::Error, want: &str) {
    let text = err.to_string();
    assert!(
        text.ends_with(want),
        "message {text:?} does not end with PyTorch's {want:?}"
    );
}
