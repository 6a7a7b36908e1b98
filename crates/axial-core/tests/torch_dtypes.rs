//! The dtypes with few kernels (uint16/32/64, complex64/128, the float8s)
//! against PyTorch: casts between every pair of dtypes, the elementwise
//! ops, comparisons and reductions PyTorch has for them (its refusals with
//! its messages), complex matmul, abs, angle, conj, and the printouts, as
//! `oracle/torch_dtypes.py` recorded them.
//!
//! Exact where PyTorch's result is exact (casts, `+ - *`, negation,
//! conjugation, comparisons, printouts); within a few ulps of the
//! element's precision for complex division, transcendental functions and
//! matmul, whose order of operations differs from PyTorch's kernels.

use axial_core::{ArgReduceOp, BinaryOp, Bool, CmpOp, DType, RawTensor, ReduceOp, Result, UnaryOp};
use num_complex::Complex;
use serde_json::Value;

fn record() -> Value {
    serde_json::from_str(include_str!("data/torch_dtypes.json")).unwrap()
}

fn dtype(name: &str) -> DType {
    DType::EVERY
        .into_iter()
        .find(|d| d.name() == name)
        .unwrap_or_else(|| panic!("no dtype {name}"))
}

fn float(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            s => panic!("not a number: {s}"),
        },
        other => panic!("not a number: {other}"),
    }
}

/// A recorded tensor, made as its dtype: integers from their exact
/// values, floats and complex numbers from f64 (exact: the values came
/// from the dtype).
fn tensor(t: &Value) -> RawTensor {
    let d = dtype(t["dtype"].as_str().unwrap());
    let shape: Vec<usize> = t["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    let values = t["values"].as_array().unwrap();
    let raw = if d.is_complex() {
        let v: Vec<Complex<f64>> = values
            .chunks(2)
            .map(|p| Complex::new(float(&p[0]), float(&p[1])))
            .collect();
        RawTensor::from_vec(v, &shape)
    } else if d == DType::U64 {
        RawTensor::from_vec(values.iter().map(|v| v.as_u64().unwrap()).collect(), &shape)
    } else if d.is_int() || d == DType::Bool {
        RawTensor::from_vec(values.iter().map(|v| v.as_i64().unwrap()).collect(), &shape)
    } else {
        RawTensor::from_vec(values.iter().map(float).collect(), &shape)
    };
    raw.unwrap().view().to_dtype(d).unwrap()
}

/// A tensor's values as the record writes them: complex as (re, im)
/// pairs, integers exactly, floats as f64.
fn values(t: &RawTensor) -> Vec<f64> {
    let d = t.dtype();
    if d.is_complex() {
        let c = t.view().to_dtype(DType::C128).unwrap();
        return c
            .to_vec::<Complex<f64>>()
            .unwrap()
            .into_iter()
            .flat_map(|z| [z.re, z.im])
            .collect();
    }
    if d == DType::U64 {
        return t
            .to_vec::<u64>()
            .unwrap()
            .into_iter()
            .map(|v| v as f64)
            .collect();
    }
    if d == DType::Bool {
        return t
            .to_vec::<Bool>()
            .unwrap()
            .into_iter()
            .map(|b| f64::from(u8::from(b.get())))
            .collect();
    }
    if d.is_int() {
        return t
            .view()
            .to_dtype(DType::I64)
            .unwrap()
            .to_vec::<i64>()
            .unwrap()
            .into_iter()
            .map(|v| v as f64)
            .collect();
    }
    t.view()
        .to_dtype(DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap()
}

fn recorded_values(t: &Value) -> Vec<f64> {
    t["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| match v {
            Value::Number(n) if n.is_u64() => n.as_u64().unwrap() as f64,
            v => float(v),
        })
        .collect()
}

/// The relative tolerance of an op's values in `dtype` (0: exact).
fn tolerance(op: &str, d: DType) -> f64 {
    let exact = [
        "cast",
        "add",
        "sub",
        "mul",
        "neg",
        "conj",
        "eq",
        "ne",
        "lt",
        "le",
        "gt",
        "ge",
        "maximum",
        "minimum",
        "logical_and",
        "logical_or",
        "logical_not",
        "relu",
        "floor",
        "ceil",
        "round",
        "trunc",
        "square",
        "amax",
        "argmax",
    ];
    // A complex product's parts are sums of two products, which kernels
    // may fuse (one rounding fewer).
    let fused = d.is_complex() && matches!(op, "mul" | "square");
    if (exact.contains(&op) && !fused) || d.is_float8() || d.is_int() || d == DType::Bool {
        return 0.0;
    }
    match d {
        DType::C128 | DType::F64 => 1e-13,
        _ => 4e-6,
    }
}

fn close(got: f64, want: f64, tol: f64, scale: f64) -> bool {
    if got.is_nan() || want.is_nan() {
        return got.is_nan() && want.is_nan();
    }
    if got == want {
        return true;
    }
    tol > 0.0 && (got - want).abs() <= tol * scale.max(want.abs())
}

fn binary(op: &str) -> Option<BinaryOp> {
    Some(match op {
        "add" => BinaryOp::Add,
        "sub" => BinaryOp::Sub,
        "mul" => BinaryOp::Mul,
        "div" => BinaryOp::Div,
        "remainder" => BinaryOp::Rem,
        "floor_divide" => BinaryOp::FloorDiv,
        "pow" => BinaryOp::Pow,
        "maximum" => BinaryOp::Maximum,
        "minimum" => BinaryOp::Minimum,
        "atan2" => BinaryOp::Atan2,
        "logical_and" => BinaryOp::LogicalAnd,
        "logical_or" => BinaryOp::LogicalOr,
        _ => return None,
    })
}

fn compare(op: &str) -> Option<CmpOp> {
    Some(match op {
        "eq" => CmpOp::Eq,
        "ne" => CmpOp::Ne,
        "lt" => CmpOp::Lt,
        "le" => CmpOp::Le,
        "gt" => CmpOp::Gt,
        "ge" => CmpOp::Ge,
        _ => return None,
    })
}

fn unary(op: &str) -> Option<UnaryOp> {
    Some(match op {
        "neg" => UnaryOp::Neg,
        "abs" => UnaryOp::Abs,
        "sqrt" => UnaryOp::Sqrt,
        "rsqrt" => UnaryOp::Rsqrt,
        "exp" => UnaryOp::Exp,
        "log" => UnaryOp::Log,
        "log1p" => UnaryOp::Log1p,
        "expm1" => UnaryOp::Expm1,
        "sin" => UnaryOp::Sin,
        "cos" => UnaryOp::Cos,
        "tan" => UnaryOp::Tan,
        "tanh" => UnaryOp::Tanh,
        "sigmoid" => UnaryOp::Sigmoid,
        "relu" => UnaryOp::Relu,
        "silu" => UnaryOp::Silu,
        "erf" => UnaryOp::Erf,
        "floor" => UnaryOp::Floor,
        "ceil" => UnaryOp::Ceil,
        "round" => UnaryOp::Round,
        "trunc" => UnaryOp::Trunc,
        "sign" => UnaryOp::Sign,
        "reciprocal" => UnaryOp::Reciprocal,
        "square" => UnaryOp::Square,
        "logical_not" => UnaryOp::LogicalNot,
        "pow_scalar_2" => UnaryOp::PowScalar(2.0),
        "pow_scalar_half" => UnaryOp::PowScalar(0.5),
        _ => return None,
    })
}

/// Runs a recorded case in axial: its result, or its printout.
fn run(case: &Value) -> Result<Outcome> {
    let op = case["op"].as_str().unwrap();
    let inputs: Vec<RawTensor> = case["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(tensor)
        .collect();
    let x = inputs[0].view();
    let all: Vec<isize> = (0..x.dim() as isize).collect();
    let out = if let Some(b) = binary(op) {
        x.binary(b, &inputs[1].view())?
    } else if let Some(c) = compare(op) {
        x.compare(c, &inputs[1].view())?
    } else if let Some(u) = unary(op) {
        x.unary(u)?
    } else {
        match op {
            "cast" => x.to_dtype(dtype(case["args"]["dtype"].as_str().unwrap()))?,
            "angle" => x.angle()?,
            "conj" => x.conj()?,
            "sum" => x.reduce(ReduceOp::Sum, &all, false)?,
            "prod" => x.reduce(ReduceOp::Prod, &all, false)?,
            "mean" => x.reduce(ReduceOp::Mean, &all, false)?,
            "var" => x.reduce(ReduceOp::Var { correction: 1.0 }, &all, false)?,
            "std" => x.reduce(ReduceOp::Std { correction: 1.0 }, &all, false)?,
            "reduce" => {
                let args = &case["args"];
                let dims: Vec<isize> = (args["dims"].as_array().unwrap().iter())
                    .map(|d| d.as_i64().unwrap() as isize)
                    .collect();
                let correction = args["correction"].as_f64().unwrap_or(0.0);
                let op = match args["kind"].as_str().unwrap() {
                    "sum" => ReduceOp::Sum,
                    "prod" => ReduceOp::Prod,
                    "mean" => ReduceOp::Mean,
                    "var" => ReduceOp::Var { correction },
                    "std" => ReduceOp::Std { correction },
                    other => panic!("no reduction {other}"),
                };
                x.reduce(op, &dims, args["keepdim"].as_bool().unwrap())?
            }
            "amax" => x.reduce(ReduceOp::Max, &all, false)?,
            "argmax" => x.arg_reduce(ArgReduceOp::ArgMax, None, false)?,
            "matmul" => x.matmul(&inputs[1].view())?,
            "matmul_t" => x.matmul(&inputs[1].view().t()?)?,
            "repr" => return Ok(Outcome::Repr(x.to_string())),
            other => panic!("no op {other}"),
        }
    };
    Ok(Outcome::Tensor(out))
}

enum Outcome {
    Tensor(RawTensor),
    Repr(String),
}

#[test]
fn new_dtypes_compute_cast_and_print_as_pytorch() {
    let record = record();
    let cases = record["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let op = case["op"].as_str().unwrap();
        let what = format!(
            "{op}({}){}",
            case["inputs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["dtype"].as_str().unwrap())
                .collect::<Vec<_>>()
                .join(", "),
            case["args"]["dtype"]
                .as_str()
                .map(|d| format!(" to {d}"))
                .unwrap_or_default()
        );
        match (run(case), case.get("error")) {
            (Err(e), Some(want)) => {
                if e.to_string() != want.as_str().unwrap() {
                    failures.push(format!("{what}: error `{e}`, torch `{want}`"));
                }
            }
            (Err(e), None) => failures.push(format!("{what}: error `{e}`, torch computes it")),
            (Ok(_), Some(want)) => {
                failures.push(format!("{what}: computed, torch refuses: {want}"))
            }
            (Ok(Outcome::Repr(s)), None) => {
                let want = case["repr"].as_str().unwrap();
                if s != want {
                    failures.push(format!("{what}:\n{s}\ntorch:\n{want}"));
                }
            }
            (Ok(Outcome::Tensor(t)), None) => {
                let want = &case["output"];
                let wd = want["dtype"].as_str().unwrap();
                let shape: Vec<usize> = want["shape"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap() as usize)
                    .collect();
                if t.dtype().name() != wd || t.shape() != shape.as_slice() {
                    failures.push(format!(
                        "{what}: {} {:?}, torch {wd} {shape:?}",
                        t.dtype(),
                        t.shape()
                    ));
                    continue;
                }
                let (got, want) = (values(&t), recorded_values(want));
                let tol = tolerance(op, t.dtype());
                let scale = want
                    .iter()
                    .filter(|v| v.is_finite())
                    .fold(0.0f64, |m, v| m.max(v.abs()));
                if got.len() != want.len()
                    || got
                        .iter()
                        .zip(&want)
                        .any(|(&g, &w)| !close(g, w, tol, scale))
                {
                    failures.push(format!("{what}: {got:?}, torch {want:?}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
