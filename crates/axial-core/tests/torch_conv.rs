//! The differential test of the window ops against `torch.nn.functional`:
//! replays every configuration `oracle/torch_conv.py` ran in PyTorch
//! (`tests/data/torch_conv.json`, the answers in `torch_conv.bin`) and
//! compares the output's shape exactly and its values within the dtype's
//! rounding (float32: 1e-5 relative; float64: 1e-12; bfloat16: two of its
//! ulps), the indices of max pooling exactly, and for a refused call the
//! error message's text.
//!
//! Inputs are not stored: `values` draws them as the script does. Inputs
//! laid out as `axes` run through the by-dims entry points on the
//! channels-last view (`[N, spatial..., C]`, the channel dim named last),
//! and their outputs are compared in PyTorch's dim order.

use axial_core::nn::{Blocks, ConvAxes, ConvOptions, PadMode, Padding, PaddingMode, PoolOptions};
use axial_core::{BinaryOp, Cpu, DType, RawTensor, Result, Scalar, TensorRef, UnaryOp};
use serde_json::Value;

const JSON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/torch_conv.json");
const BIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/torch_conv.bin");

/// `n` values in [-1, 1): splitmix64 of `seed`, as the script draws them.
fn values(seed: u64, n: usize) -> Vec<f64> {
    (1..=n as u64)
        .map(|i| {
            let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i));
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 40) as f64 / f64::from(1u32 << 23) - 1.0
        })
        .collect()
}

fn dtype_named(name: &str) -> DType {
    match name {
        "float32" => DType::F32,
        "float64" => DType::F64,
        "bfloat16" => DType::BF16,
        other => panic!("unknown dtype {other}"),
    }
}

fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_u64().expect("an integer") as usize)
        .collect()
}

/// The input `seed` of `shape` in `layout`, as the script builds it.
fn tensor(
    seed: u64,
    shape: &[usize],
    dtype: DType,
    layout: &str,
    positive: bool,
) -> RawTensor<Cpu> {
    let r = shape.len();
    let mem: Vec<usize> = match layout {
        "channels_last" => [&[shape[0]], &shape[2..], &[shape[1]]].concat(),
        "strided" => [&shape[..r - 1], &[2 * shape[r - 1]]].concat(),
        "transposed" => [&shape[..r - 2], &[shape[r - 1], shape[r - 2]]].concat(),
        _ => shape.to_vec(),
    };
    let mut v = values(seed, mem.iter().product());
    if positive {
        v.iter_mut().for_each(|x| *x = x.abs() + 0.25);
    }
    let base = RawTensor::from_vec(v, &mem)
        .unwrap()
        .view()
        .to_dtype(dtype)
        .unwrap();
    let view = base.view();
    let layout = match layout {
        "channels_last" => {
            let perm: Vec<isize> = [0, r as isize - 1]
                .into_iter()
                .chain(1..r as isize - 1)
                .collect();
            view.permute(&perm).unwrap().layout().clone()
        }
        "strided" => view
            .slice(r as isize - 1, None, None, 2)
            .unwrap()
            .layout()
            .clone(),
        "transposed" => view.transpose(-1, -2).unwrap().layout().clone(),
        _ => view.layout().clone(),
    };
    let (storage, _, dtype) = base.into_parts();
    RawTensor::from_parts(storage, layout, dtype).unwrap()
}

/// The expected outputs: shape and values (as f64) of each.
struct Expected {
    shape: Vec<usize>,
    values: Vec<f64>,
    int: bool,
}

fn expected(case: &Value, blob: &[u8]) -> Vec<Expected> {
    case["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let (at, len) = (
                o["at"].as_u64().unwrap() as usize,
                o["len"].as_u64().unwrap() as usize,
            );
            let kind = o["kind"].as_str().unwrap();
            let values = match kind {
                "f32" => blob[at..at + 4 * len]
                    .chunks(4)
                    .map(|b| f64::from(f32::from_le_bytes(b.try_into().unwrap())))
                    .collect(),
                "f64" => blob[at..at + 8 * len]
                    .chunks(8)
                    .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
                    .collect(),
                _ => blob[at..at + 8 * len]
                    .chunks(8)
                    .map(|b| i64::from_le_bytes(b.try_into().unwrap()) as f64)
                    .collect(),
            };
            Expected {
                shape: usizes(&o["shape"]),
                values,
                int: kind == "i64",
            }
        })
        .collect()
}

/// The values of `t` in PyTorch's dim order (`perm` undoes an `axes` layout).
fn got(t: &RawTensor<Cpu>, perm: Option<&[isize]>) -> (Vec<usize>, Vec<f64>) {
    let v = t.view();
    let v = match perm {
        Some(p) => v.permute(p).unwrap(),
        None => v,
    };
    (
        v.shape().to_vec(),
        v.to_dtype(DType::F64).unwrap().to_vec::<f64>().unwrap(),
    )
}

/// Within the dtype's rounding: `rtol` of the value, plus `rtol` of an
/// eighth of the output's largest magnitude for values that cancel to
/// near zero (where two orders of summation differ by a rounding of the
/// terms, not of the result).
fn close(a: f64, b: f64, dtype: DType, scale: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a == b {
        return true;
    }
    let rtol = match dtype {
        DType::F64 => 1e-12,
        DType::BF16 => 2.0 / 128.0,
        _ => 1e-5,
    };
    (a - b).abs() <= rtol * (b.abs() + scale / 8.0)
}

/// PyTorch's message for an `axes` case, in the dims of the channels-last
/// view axial was given: its shape printed permuted, its dims renumbered.
fn for_axes(msg: &str, xshape: &[usize]) -> String {
    let r = xshape.len();
    let (to, _) = nhwc(r);
    let permuted: Vec<usize> = to.iter().map(|&d| xshape[d as usize]).collect();
    let mut m = msg.replace(&format!("{xshape:?}"), &format!("{permuted:?}"));
    for d in 0..r {
        let new = to.iter().position(|&t| t as usize == d).unwrap();
        m = m.replace(
            &format!("at dimension {d} "),
            &format!("at dimension \u{0} {new} "),
        );
    }
    m.replace("\u{0} ", "")
}

fn opt_usizes(case: &Value, key: &str, default: &[usize]) -> Vec<usize> {
    if case[key].is_array() {
        usizes(&case[key])
    } else {
        default.to_vec()
    }
}

/// The dims of `[N, C, spatial...]` in the channels-last order the `axes`
/// layout passes (`[N, spatial..., C]`), and the permutation back.
fn nhwc(rank: usize) -> (Vec<isize>, Vec<isize>) {
    let to: Vec<isize> = [0].into_iter().chain(2..rank as isize).chain([1]).collect();
    let back: Vec<isize> = [0, rank as isize - 1]
        .into_iter()
        .chain(1..rank as isize - 1)
        .collect();
    (to, back)
}

/// A case's outputs, and the permutation to PyTorch's dim order.
type Outputs = (Vec<RawTensor<Cpu>>, Option<Vec<isize>>);

fn run(case: &Value) -> Result<Outputs> {
    let op = case["op"].as_str().unwrap();
    let dtype = dtype_named(case["dtype"].as_str().unwrap());
    let seed = case["seed"].as_u64().unwrap();
    let layout = case["layout"].as_str().unwrap_or("contiguous");
    let xshape = usizes(&case["x"]);
    let x_layout = match layout {
        "axes" => "channels_last",
        "unbatched" => "contiguous",
        l => l,
    };
    let error_case = case["error_case"].as_bool().unwrap_or(false);
    let x = tensor(seed, &xshape, dtype, x_layout, false);
    let xv = x.view();
    let axes = layout == "axes";
    let (to, back) = nhwc(xshape.len());
    let xa = if axes {
        xv.clone().permute(&to)?
    } else {
        xv.clone()
    };
    let nd = case["nd"].as_u64().unwrap_or(0) as usize;
    let spatial_axes: Vec<usize> = (1..=nd).collect();
    let perm = axes.then_some(back.clone());
    match op {
        "conv" | "conv_transpose" => {
            let wshape = usizes(&case["w"]);
            let wdtype = case["w_dtype"].as_str().map_or(dtype, dtype_named);
            let w = tensor(seed + 1, &wshape, wdtype, "contiguous", false);
            let bias = if error_case {
                (case["bias_len"].is_u64() || case["bias_dtype"].is_string()).then(|| {
                    let len = case["bias_len"].as_u64().map_or(wshape[0], |l| l as usize);
                    tensor(
                        seed + 2,
                        &[len],
                        case["bias_dtype"].as_str().map_or(dtype, dtype_named),
                        "contiguous",
                        false,
                    )
                })
            } else {
                case["bias"].as_bool().unwrap().then(|| {
                    let c = if op == "conv" {
                        wshape[0]
                    } else {
                        wshape[1] * case["groups"].as_u64().unwrap() as usize
                    };
                    tensor(seed + 2, &[c], dtype, "contiguous", false)
                })
            };
            let mut o = ConvOptions::new()
                .stride(&opt_usizes(case, "stride", &[1]))
                .dilation(&opt_usizes(case, "dilation", &[1]))
                .groups(case["groups"].as_u64().unwrap_or(1) as usize)
                .output_padding(&opt_usizes(case, "output_padding", &[0]));
            o = o.padding(match &case["padding"] {
                Value::String(s) if s == "same" => Padding::Same,
                Value::String(s) if s == "valid" => Padding::Valid,
                Value::Array(_) => Padding::Both(usizes(&case["padding"])),
                _ => Padding::Both(vec![0]),
            });
            o = o.padding_mode(match case["mode"].as_str().unwrap_or("zeros") {
                "reflect" => PaddingMode::Reflect,
                "replicate" => PaddingMode::Replicate,
                "circular" => PaddingMode::Circular,
                _ => PaddingMode::Zeros,
            });
            let (wv, bv) = (w.view(), bias.as_ref().map(RawTensor::view));
            let y = if axes {
                let a = ConvAxes::new(nd + 1, &spatial_axes);
                if op == "conv" {
                    xa.conv_axes(&wv, bv.as_ref(), &a, &o)?
                } else {
                    xa.conv_transpose_axes(&wv, bv.as_ref(), &a, &o)?
                }
            } else {
                match (op, nd) {
                    ("conv", 1) => xv.conv1d(&wv, bv.as_ref(), &o)?,
                    ("conv", 2) => xv.conv2d(&wv, bv.as_ref(), &o)?,
                    ("conv", _) => xv.conv3d(&wv, bv.as_ref(), &o)?,
                    (_, 1) => xv.conv_transpose1d(&wv, bv.as_ref(), &o)?,
                    (_, 2) => xv.conv_transpose2d(&wv, bv.as_ref(), &o)?,
                    _ => xv.conv_transpose3d(&wv, bv.as_ref(), &o)?,
                }
            };
            Ok((vec![y], perm))
        }
        "max" | "avg" => {
            let kernel = usizes(&case["kernel"]);
            let o = PoolOptions::new(&kernel)
                .stride(&opt_usizes(case, "stride", &kernel))
                .padding(&opt_usizes(case, "padding", &[0]))
                .dilation(&opt_usizes(case, "dilation", &[1]))
                .ceil_mode(case["ceil_mode"].as_bool().unwrap_or(false))
                .count_include_pad(case["count_include_pad"].as_bool().unwrap_or(true))
                .divisor_override(case["divisor_override"].as_u64().map(|d| d as usize));
            let outs = match (op, axes) {
                ("max", true) => {
                    let (y, i) = xa.max_pool_with_indices_axes(&spatial_axes, &o)?;
                    // Without indices (another kernel loop): the same values.
                    let plain = xa.max_pool_axes(&spatial_axes, &o)?;
                    let bits = |t: &RawTensor| -> Result<Vec<u64>> {
                        let v = t.view().to_dtype(DType::F64)?.to_vec::<f64>()?;
                        Ok(v.into_iter().map(f64::to_bits).collect())
                    };
                    if bits(&plain)? != bits(&y)? {
                        return Err(axial_core::Error::invalid(
                            "max_pool",
                            "the values without indices differ from those with",
                        ));
                    }
                    vec![y, i]
                }
                ("max", false) => {
                    let (y, i) = xv.max_pool_with_indices(nd, &o)?;
                    vec![y, i]
                }
                (_, true) => vec![xa.avg_pool_axes(&spatial_axes, &o)?],
                _ => vec![match nd {
                    1 => xv.avg_pool1d(&o)?,
                    2 => xv.avg_pool2d(&o)?,
                    _ => xv.avg_pool3d(&o)?,
                }],
            };
            Ok((outs, perm))
        }
        "adaptive_avg" | "adaptive_max" => {
            let out = usizes(&case["output_size"]);
            let outs = match (op, axes) {
                ("adaptive_avg", true) => vec![xa.adaptive_avg_pool_axes(&spatial_axes, &out)?],
                ("adaptive_avg", false) => vec![xv.adaptive_avg_pool(&out)?],
                (_, true) => {
                    let (y, i) = xa.adaptive_max_pool_axes(&spatial_axes, &out)?;
                    vec![y, i]
                }
                _ => {
                    let (y, i) = xv.adaptive_max_pool(&out)?;
                    vec![y, i]
                }
            };
            Ok((outs, perm))
        }
        "batch_norm" | "batch_norm_train" | "group_norm" | "instance_norm" => {
            norm(case, op, &xv, dtype, seed, error_case)
        }
        "unfold" | "fold" => {
            let k = usizes(&case["kernel"]);
            let pair = |key: &str, d: usize| -> [usize; 2] {
                let v = opt_usizes(case, key, &[d]);
                if v.len() == 1 {
                    [v[0], v[0]]
                } else {
                    [v[0], v[1]]
                }
            };
            let b = Blocks::new([k[0], k[1]])
                .dilation(pair("dilation", 1))
                .padding(pair("padding", 0))
                .stride(pair("stride", 1));
            if op == "unfold" {
                Ok((vec![xv.unfold_blocks(&b)?], None))
            } else {
                let size = usizes(&case["size"]);
                Ok((vec![xv.fold_blocks([size[0], size[1]], &b)?], None))
            }
        }
        "pad" => {
            let pads = usizes(&case["pads"]);
            let mode = match case["mode"].as_str().unwrap() {
                "reflect" => PadMode::Reflect,
                "replicate" => PadMode::Replicate,
                "circular" => PadMode::Circular,
                _ => PadMode::Constant(Scalar::Float(case["value"].as_f64().unwrap_or(0.0))),
            };
            Ok((vec![xv.pad(&pads, mode)?], None))
        }
        "act" => {
            let x4 = xv.binary_scalar(BinaryOp::Mul, Scalar::Float(4.0))?;
            let x4 = x4.view();
            let y = match case["act"].as_str().unwrap() {
                "relu6" => x4.relu6()?,
                "hardswish" => x4.hardswish()?,
                "hardsigmoid" => x4.hardsigmoid()?,
                "leaky_relu" => x4.leaky_relu(0.125)?,
                "silu" => x4.unary(UnaryOp::Silu)?,
                "hardtanh" => x4.hardtanh(-0.5, 2.0)?,
                _ => {
                    let n = case["weights"].as_u64().unwrap() as usize;
                    let w = tensor(seed + 1, &[n], dtype, "contiguous", false);
                    x4.prelu(&w.view())?
                }
            };
            Ok((vec![y], None))
        }
        "prelu" => {
            let w = RawTensor::full_on(
                &Cpu,
                &[case["weights"].as_u64().unwrap() as usize],
                Scalar::Float(1.0),
                dtype,
            )?;
            Ok((vec![xv.prelu(&w.view())?], None))
        }
        other => panic!("unknown op {other}"),
    }
}

fn norm(
    case: &Value,
    op: &str,
    x: &TensorRef<'_, Cpu>,
    dtype: DType,
    seed: u64,
    error_case: bool,
) -> Result<Outputs> {
    let c = x.shape()[1];
    let ones = |n: usize| RawTensor::full_on(&Cpu, &[n], Scalar::Float(1.0), dtype).unwrap();
    let zeros = |n: usize| RawTensor::zeros(&[n], dtype).unwrap();
    let eps = case["eps"].as_f64().unwrap_or(1e-5);
    if error_case {
        let r = case["running"].as_u64().map_or(c, |r| r as usize);
        let w = case["weight"].as_u64().map(|n| ones(n as usize));
        let y = match op {
            "batch_norm" => x.batch_norm(
                &zeros(r).view(),
                &ones(r).view(),
                w.as_ref().map(RawTensor::view).as_ref(),
                None,
                eps,
            )?,
            "batch_norm_train" => x.batch_norm_train(1, None, None, None, 0.1, eps)?,
            "group_norm" => x.group_norm(
                case["groups"].as_u64().unwrap() as usize,
                w.as_ref().map(RawTensor::view).as_ref(),
                None,
                eps,
            )?,
            _ => x.instance_norm(None, None, None, 0.1, eps)?,
        };
        return Ok((vec![y], None));
    }
    let affine = case["affine"].as_bool().unwrap();
    let w = affine.then(|| tensor(seed + 1, &[c], dtype, "contiguous", false));
    let b = affine.then(|| tensor(seed + 2, &[c], dtype, "contiguous", false));
    let (wv, bv) = (
        w.as_ref().map(RawTensor::view),
        b.as_ref().map(RawTensor::view),
    );
    let mut rm = tensor(seed + 3, &[c], dtype, "contiguous", false);
    let mut rv = tensor(seed + 4, &[c], dtype, "contiguous", true);
    let groups = case["groups"].as_u64().unwrap() as usize;
    Ok(match op {
        "batch_norm" => (
            vec![x.batch_norm(&rm.view(), &rv.view(), wv.as_ref(), bv.as_ref(), eps)?],
            None,
        ),
        "batch_norm_train" => {
            let y = x.batch_norm_train(
                1,
                wv.as_ref(),
                bv.as_ref(),
                Some((&mut rm.view_mut(), &mut rv.view_mut())),
                0.1,
                eps,
            )?;
            (vec![y, rm, rv], None)
        }
        "group_norm" => (
            vec![x.group_norm(groups, wv.as_ref(), bv.as_ref(), eps)?],
            None,
        ),
        _ => (
            vec![x.instance_norm(wv.as_ref(), bv.as_ref(), None, 0.1, eps)?],
            None,
        ),
    })
}

#[test]
fn window_ops_match_torch_functional() {
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(JSON).unwrap()).unwrap();
    let blob = std::fs::read(BIN).unwrap();
    let cases = meta["cases"].as_array().unwrap();
    assert!(cases.len() >= 500, "{} cases", cases.len());
    let mut failures = Vec::new();
    let (mut values_checked, mut refusals) = (0, 0);
    for (i, case) in cases.iter().enumerate() {
        let dtype = dtype_named(case["dtype"].as_str().unwrap());
        let outcome = std::panic::catch_unwind(|| run(case));
        let label = || format!("case {i}: {}", serde_json::to_string(case).unwrap());
        let outcome = match outcome {
            Ok(o) => o,
            Err(_) => {
                failures.push(format!("{}\n  panicked", label()));
                continue;
            }
        };
        match (outcome, case.get("error")) {
            (Err(e), Some(msg)) => {
                let mut want = case
                    .get("axial")
                    .unwrap_or(msg)
                    .as_str()
                    .unwrap()
                    .to_string();
                if case["layout"] == "axes" {
                    want = for_axes(&want, &usizes(&case["x"]));
                }
                let text = e.to_string();
                if text != want && !text.ends_with(&format!(": {want}")) {
                    failures.push(format!("{}\n  PyTorch: {want}\n  axial:   {text}", label()));
                }
                refusals += 1;
            }
            (Err(e), None) => failures.push(format!("{}\n  axial refused: {e}", label())),
            (Ok(_), Some(msg)) => {
                failures.push(format!("{}\n  axial accepted; PyTorch: {msg}", label()))
            }
            (Ok((outs, perm)), None) => {
                let want = expected(case, &blob);
                for (k, (o, e)) in outs.iter().zip(&want).enumerate() {
                    let (shape, v) = got(o, perm.as_deref());
                    if shape != e.shape {
                        failures.push(format!(
                            "{}\n  output {k}: shape {shape:?}, PyTorch {:?}",
                            label(),
                            e.shape
                        ));
                        continue;
                    }
                    let scale = e.values.iter().fold(0.0f64, |m, x| {
                        if x.is_finite() { m.max(x.abs()) } else { m }
                    });
                    let bad = v.iter().zip(&e.values).position(|(&a, &b)| {
                        if e.int {
                            a != b
                        } else {
                            !close(a, b, dtype, scale)
                        }
                    });
                    if let Some(j) = bad {
                        failures.push(format!(
                            "{}\n  output {k} element {j}: {} vs PyTorch {}",
                            label(),
                            v[j],
                            e.values[j]
                        ));
                    }
                    values_checked += v.len();
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
    assert!(
        values_checked > 50_000 && refusals > 60,
        "{values_checked} values, {refusals} refusals"
    );
}
