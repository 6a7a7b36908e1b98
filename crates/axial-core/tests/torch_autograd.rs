//! The differential gradient test against PyTorch: replays the random op
//! graphs that `oracle/torch_autograd.py` ran forward and backward in
//! `torch.autograd` (`tests/data/torch_autograd.json`) and compares the
//! output and every leaf's gradient with PyTorch's: each element within
//! `1e-5` (f32) or `1e-10` (f64) relative to the tensor's largest
//! magnitude, or to 1 when that is smaller (the inputs and the output's
//! gradient are of magnitude 1, so a gradient that is all below 1 is
//! compared at the precision of the arithmetic that made it); the same
//! leaves without a gradient; and PyTorch's in-place error where PyTorch
//! gives it.

use axial_core::autograd::{CrossEntropy, LeafId, Reduction, Var};
use axial_core::{ArgReduceOp, BinaryOp, Bool, DType, RawTensor, ReduceOp, Scalar, UnaryOp};
use serde_json::Value;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/torch_autograd.json"
);

type R<T> = std::result::Result<T, String>;

fn err(e: axial_core::Error) -> String {
    e.to_string()
}

fn floats(v: &Value) -> Vec<f64> {
    (v.as_array().expect("a list").iter())
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn isizes(v: &Value) -> Vec<isize> {
    (v.as_array().expect("a list").iter())
        .map(|x| x.as_i64().expect("an integer") as isize)
        .collect()
}

fn usizes(v: &Value) -> Vec<usize> {
    isizes(v).into_iter().map(|x| x as usize).collect()
}

fn int(v: &Value) -> isize {
    v.as_i64().expect("an integer") as isize
}

fn float(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

fn opt_float(v: &Value) -> Option<f64> {
    v.as_f64()
}

/// A tensor of `dtype` from `{"shape", "values"}` (floats).
fn tensor(v: &Value, dtype: DType) -> R<RawTensor> {
    let shape = usizes(&v["shape"]);
    let t = RawTensor::from_vec(floats(&v["values"]), &shape).map_err(err)?;
    t.view().to_dtype(dtype).map_err(err)
}

/// An i64 constant from `{"shape", "values"}`.
fn index(v: &Value) -> R<Var<'static>> {
    let shape = usizes(&v["shape"]);
    let values: Vec<i64> = isizes(&v["values"]).into_iter().map(|x| x as i64).collect();
    Ok(Var::constant(
        RawTensor::from_vec(values, &shape).map_err(err)?,
    ))
}

/// A bool constant from `{"shape", "values"}`.
fn mask(v: &Value) -> R<Var<'static>> {
    let shape = usizes(&v["shape"]);
    let values: Vec<Bool> = (v["values"].as_array().expect("a list").iter())
        .map(|b| Bool::from(b.as_bool().expect("a bool")))
        .collect();
    Ok(Var::constant(
        RawTensor::from_vec(values, &shape).map_err(err)?,
    ))
}

fn unary_op(name: &str) -> UnaryOp {
    match name {
        "neg" => UnaryOp::Neg,
        "abs" => UnaryOp::Abs,
        "exp" => UnaryOp::Exp,
        "expm1" => UnaryOp::Expm1,
        "sin" => UnaryOp::Sin,
        "cos" => UnaryOp::Cos,
        "tanh" => UnaryOp::Tanh,
        "sigmoid" => UnaryOp::Sigmoid,
        "relu" => UnaryOp::Relu,
        "gelu" => UnaryOp::Gelu,
        "gelu_tanh" => UnaryOp::GeluTanh,
        "silu" => UnaryOp::Silu,
        "erf" => UnaryOp::Erf,
        "square" => UnaryOp::Square,
        "sign" => UnaryOp::Sign,
        "floor" => UnaryOp::Floor,
        "sqrt" => UnaryOp::Sqrt,
        "rsqrt" => UnaryOp::Rsqrt,
        "log" => UnaryOp::Log,
        "log1p" => UnaryOp::Log1p,
        "reciprocal" => UnaryOp::Reciprocal,
        other => panic!("unknown unary op {other}"),
    }
}

fn binary_op(name: &str) -> BinaryOp {
    match name {
        "add" => BinaryOp::Add,
        "sub" => BinaryOp::Sub,
        "mul" => BinaryOp::Mul,
        "div" => BinaryOp::Div,
        "pow" => BinaryOp::Pow,
        "maximum" => BinaryOp::Maximum,
        "minimum" => BinaryOp::Minimum,
        "atan2" => BinaryOp::Atan2,
        other => panic!("unknown binary op {other}"),
    }
}

fn reduction(v: &Value) -> Reduction {
    match v.as_str().expect("a reduction") {
        "mean" => Reduction::Mean,
        "sum" => Reduction::Sum,
        _ => Reduction::None,
    }
}

/// Runs one step on `ts`, appending its results.
fn step(s: &Value, ts: &mut Vec<Var<'static>>) -> R<()> {
    let op = s["op"].as_str().expect("an op");
    let x = |key: &str| s[key].as_u64().expect("a tensor") as usize;
    let new = |v: axial_core::Result<Var<'static>>| v.map_err(err);
    let out = match op {
        "unary" => new(ts[x("x")].unary(unary_op(s["name"].as_str().unwrap_or(""))))?,
        "pow" => new(ts[x("x")].binary_scalar(BinaryOp::Pow, Scalar::Float(float(&s["p"]))))?,
        "clamp" => new(ts[x("x")].unary(UnaryOp::Clamp {
            min: opt_float(&s["min"]),
            max: opt_float(&s["max"]),
        }))?,
        "leaky_relu" => new(ts[x("x")].leaky_relu(float(&s["slope"])))?,
        "hardtanh" => new(ts[x("x")].hardtanh(float(&s["min"]), float(&s["max"])))?,
        "binary" => {
            let op = binary_op(s["name"].as_str().unwrap_or(""));
            new(ts[x("a")].binary(op, &ts[x("b")]))?
        }
        "scalar" => {
            let op = binary_op(s["name"].as_str().unwrap_or(""));
            let v = Scalar::Float(float(&s["s"]));
            match s["left"].as_bool() {
                Some(true) => new(ts[x("x")].scalar_binary(op, v))?,
                _ => new(ts[x("x")].binary_scalar(op, v))?,
            }
        }
        "reduce" => {
            let (dims, keepdim) = (isizes(&s["dims"]), s["keepdim"].as_bool() == Some(true));
            let c = float(&s["correction"]);
            let t = &ts[x("x")];
            match s["name"].as_str().unwrap_or("") {
                "logsumexp" => new(t.logsumexp(&dims, keepdim))?,
                name => {
                    let op = match name {
                        "sum" => ReduceOp::Sum,
                        "mean" => ReduceOp::Mean,
                        "var" => ReduceOp::Var { correction: c },
                        "std" => ReduceOp::Std { correction: c },
                        "amax" => ReduceOp::Max,
                        "amin" => ReduceOp::Min,
                        other => panic!("unknown reduction {other}"),
                    };
                    new(t.reduce(op, &dims, keepdim))?
                }
            }
        }
        "maxdim" => {
            let op = match s["min"].as_bool() {
                Some(true) => ArgReduceOp::ArgMin,
                _ => ArgReduceOp::ArgMax,
            };
            let keepdim = s["keepdim"].as_bool() == Some(true);
            ts[x("x")]
                .max_min_dim(op, int(&s["dim"]), keepdim)
                .map_err(err)?
                .0
        }
        "matmul" => new(ts[x("a")].matmul(&ts[x("b")]))?,
        "linear" => {
            let b = s["b"].as_u64().map(|b| &ts[b as usize]);
            new(ts[x("x")].linear(&ts[x("w")], b))?
        }
        "softmax" => {
            let d = int(&s["dim"]);
            match s["log"].as_bool() {
                Some(true) => new(ts[x("x")].log_softmax(d))?,
                _ => new(ts[x("x")].softmax(d))?,
            }
        }
        "layer_norm" => {
            let t = &ts[x("x")];
            let k = x("k");
            let norm = t.shape()[t.shape().len() - k..].to_vec();
            let w = s["w"].as_u64().map(|i| &ts[i as usize]);
            let b = s["b"].as_u64().map(|i| &ts[i as usize]);
            new(t.layer_norm(&norm, w, b, float(&s["eps"])))?
        }
        "embedding" => new(ts[x("x")].embedding(&index(&s["ids"])?))?,
        "index_select" => new(ts[x("x")].index_select(int(&s["dim"]), &index(&s["index"])?))?,
        "gather" => new(ts[x("x")].gather(int(&s["dim"]), &index(&s["index"])?))?,
        "masked_fill" => {
            let value = Scalar::Float(float(&s["value"]));
            new(ts[x("x")].masked_fill(&mask(&s["mask"])?, value))?
        }
        "where" => new(Var::where_(&mask(&s["cond"])?, &ts[x("a")], &ts[x("b")]))?,
        "cat" | "stack" => {
            let xs: Vec<&Var<'static>> = usizes(&s["xs"]).into_iter().map(|i| &ts[i]).collect();
            match op {
                "cat" => new(Var::cat(&xs, int(&s["dim"])))?,
                _ => new(Var::stack(&xs, int(&s["dim"])))?,
            }
        }
        "split" | "chunk" => {
            let t = &ts[x("x")];
            let parts = match op {
                "split" => t.split(x("size"), int(&s["dim"])),
                _ => t.chunk(x("chunks"), int(&s["dim"])),
            }
            .map_err(err)?;
            ts.extend(parts);
            return Ok(());
        }
        "permute" => new(ts[x("x")].permute(&isizes(&s["dims"])))?,
        "movedim" => new(ts[x("x")].movedim(&[int(&s["src"])], &[int(&s["dst"])]))?,
        "transpose" => new(ts[x("x")].transpose(int(&s["d0"]), int(&s["d1"])))?,
        "unsqueeze" => new(ts[x("x")].unsqueeze(int(&s["dim"])))?,
        "squeeze" => match &s["dims"] {
            Value::Null => new(ts[x("x")].squeeze())?,
            dims => new(ts[x("x")].squeeze_dims(&isizes(dims)))?,
        },
        "reshape" => new(ts[x("x")].reshape(&isizes(&s["shape"])))?,
        "view" => new(ts[x("x")].view(&isizes(&s["shape"])))?,
        "flatten" => new(ts[x("x")].flatten(int(&s["start"]), int(&s["end"])))?,
        "contiguous" => new(ts[x("x")].contiguous())?,
        "dense" => new(ts[x("x")].contiguous().and_then(|c| c.copied()))?,
        "narrow" => new(ts[x("x")].narrow(int(&s["dim"]), int(&s["start"]), x("length")))?,
        "slice" => {
            let start = s["start"].as_i64().map(|v| v as isize);
            let end = s["end"].as_i64().map(|v| v as isize);
            new(ts[x("x")].slice(int(&s["dim"]), start, end, int(&s["step"])))?
        }
        "select" => new(ts[x("x")].select(int(&s["dim"]), int(&s["index"])))?,
        "cumsum" => new(ts[x("x")].cumsum(int(&s["dim"])))?,
        "unfold" => new(ts[x("x")].unfold(int(&s["dim"]), x("size"), x("step")))?,
        "tril" => new(ts[x("x")].triangle(false, int(&s["diagonal"]) as i64))?,
        "triu" => new(ts[x("x")].triangle(true, int(&s["diagonal"]) as i64))?,
        "expand" => new(ts[x("x")].expand(&isizes(&s["sizes"])))?,
        "diagonal" => new(ts[x("x")].diagonal(int(&s["offset"]), int(&s["d1"]), int(&s["d2"])))?,
        "as_strided" => new(ts[x("x")].as_strided(
            &usizes(&s["size"]),
            &isizes(&s["stride"]),
            Some(x("offset")),
        ))?,
        "cross_entropy" | "nll_loss" => {
            let target = index(&s["target"])?;
            let ignore = int(&s["ignore_index"]) as i64;
            let reduction = reduction(&s["reduction"]);
            let t = &ts[x("x")];
            match op {
                "cross_entropy" => new(t.cross_entropy(
                    &target,
                    CrossEntropy {
                        ignore_index: ignore,
                        label_smoothing: float(&s["smoothing"]),
                        reduction,
                    },
                ))?,
                _ => new(t.nll_loss(&target, ignore, reduction))?,
            }
        }
        "mse_loss" => new(ts[x("x")].mse_loss(&ts[x("target")], reduction(&s["reduction"])))?,
        "bce_logits" => new(ts[x("x")]
            .binary_cross_entropy_with_logits(&ts[x("target")], reduction(&s["reduction"])))?,
        "add_" | "mul_" | "masked_fill_" => {
            let i = x("x");
            let mut t = std::mem::replace(
                &mut ts[i],
                Var::constant(RawTensor::zeros(&[], DType::F32).map_err(err)?),
            );
            let r = match op {
                "add_" => t.binary_(BinaryOp::Add, &ts[x("y")]),
                "mul_" => t.binary_scalar_(BinaryOp::Mul, Scalar::Float(float(&s["s"]))),
                _ => t.masked_fill_(&mask(&s["mask"])?, Scalar::Float(0.5)),
            };
            ts[i] = t;
            return r.map_err(err);
        }
        other => panic!("unknown op {other}"),
    };
    ts.push(out);
    Ok(())
}

/// Compares `got` with PyTorch's `want`: each element within `rtol` of the
/// largest magnitude of `want`, or of 1 when that is smaller.
fn close(what: &str, got: &[f64], want: &[f64], rtol: f64) -> R<()> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} elements, PyTorch has {}",
            got.len(),
            want.len()
        ));
    }
    let scale = want.iter().fold(1f64, |m, v| m.max(v.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if (g - w).abs() > rtol * scale {
            return Err(format!("{what}[{i}]: {g}, PyTorch {w} (largest {scale})"));
        }
    }
    Ok(())
}

/// Replays one graph; `Err` says what differs.
fn replay(g: &Value) -> R<()> {
    let (dtype, rtol) = match g["dtype"].as_str() {
        Some("f64") => (DType::F64, 1e-10),
        _ => (DType::F32, 1e-5),
    };
    let mut ts = Vec::new();
    let mut ids: Vec<LeafId> = Vec::new();
    let mut leaves = g["leaves"].as_array().expect("leaves").iter();
    for s in g["steps"].as_array().expect("steps") {
        if s["op"] == "leaf" {
            let leaf = leaves.next().expect("a leaf for each leaf step");
            let v = Var::leaf(tensor(leaf, dtype)?).map_err(err)?;
            ids.extend(v.leaf_id());
            ts.push(v);
            continue;
        }
        step(s, &mut ts).map_err(|e| format!("step {s}: {e}"))?;
    }
    let out = ts.remove(g["out"].as_u64().expect("out") as usize);
    let value = out.value().to_contiguous().map_err(err)?;
    let value = value.view().to_dtype(DType::F64).map_err(err)?;
    close(
        "output",
        &value.to_vec::<f64>().map_err(err)?,
        &floats(&g["value"]),
        rtol,
    )?;
    let seed = RawTensor::from_vec(floats(&g["seed"]), out.shape()).map_err(err)?;
    let seed = seed.view().to_dtype(dtype).map_err(err)?;
    let result = out.backward_with(seed);
    if let Some(expected) = g["error"].as_str() {
        return match result {
            Err(e) if e.to_string().contains(expected) => Ok(()),
            Err(e) => Err(format!("PyTorch says {expected}, axial says {e}")),
            Ok(_) => Err(format!("PyTorch says {expected}, axial computed gradients")),
        };
    }
    let grads = result.map_err(err)?;
    for (i, (id, want)) in ids
        .iter()
        .zip(g["grads"].as_array().expect("grads"))
        .enumerate()
    {
        match (grads.get(*id), want) {
            (None, Value::Null) => {}
            (Some(_), Value::Null) => {
                return Err(format!("leaf {i}: a gradient, PyTorch has none"));
            }
            (None, _) => return Err(format!("leaf {i}: no gradient, PyTorch has one")),
            (Some(got), want) => {
                let got = got.to_contiguous().map_err(err)?;
                let got = got.view().to_dtype(DType::F64).map_err(err)?;
                close(
                    &format!("leaf {i}"),
                    &got.to_vec::<f64>().map_err(err)?,
                    &floats(want),
                    rtol,
                )?;
            }
        }
    }
    Ok(())
}

#[test]
fn gradients_match_torch_autograd() {
    let text = std::fs::read_to_string(DATA).expect("the oracle's file");
    let data: Value = serde_json::from_str(&text).expect("JSON");
    let graphs = data["graphs"].as_array().expect("graphs");
    assert!(graphs.len() >= 2000, "{} graphs", graphs.len());
    let mut failures = Vec::new();
    for (n, g) in graphs.iter().enumerate() {
        if let Err(e) = replay(g) {
            failures.push(format!("graph {n}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} graphs differ from PyTorch {}:\n{}",
        failures.len(),
        graphs.len(),
        data["torch"],
        failures.join("\n")
    );
}
