//! Replays the convolutions, poolings, batch, group and instance norms and
//! activations that
//! `oracle/torch_cnn_autograd.py` ran forward and backward in
//! `torch.autograd` (`tests/data/torch_cnn_autograd.json`), and compares
//! the output, every input's gradient and the updated running statistics
//! (f32, within 1e-5 of the largest magnitude or of 1). A channels-last
//! case runs on an NHWC copy of the input, by dims, and is permuted back.

use axial_core::autograd::{LeafId, Var};
use axial_core::nn::{ConvAxes, ConvOptions, Padding, PaddingMode, PoolOptions};
use axial_core::{DType, RawTensor};
use serde_json::Value;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/torch_cnn_autograd.json"
);

type R<T> = std::result::Result<T, String>;

fn err(e: axial_core::Error) -> String {
    e.to_string()
}

fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_u64().expect("a size") as usize)
        .collect()
}

fn floats(v: &Value) -> Vec<f64> {
    v["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn raw(v: &Value) -> R<RawTensor> {
    let t = RawTensor::from_vec(floats(v), &usizes(&v["shape"])).map_err(err)?;
    t.view().to_dtype(DType::F32).map_err(err)
}

/// Within `rtol` of the largest magnitude of `want`, or of 1.
fn close(what: &str, got: &RawTensor, want: &Value) -> R<()> {
    let shape = usizes(&want["shape"]);
    if got.shape() != shape.as_slice() {
        return Err(format!(
            "{what}: shape {:?}, PyTorch {shape:?}",
            got.shape()
        ));
    }
    let got = got
        .view()
        .to_contiguous()
        .and_then(|t| t.view().to_dtype(DType::F64))
        .and_then(|t| t.to_vec::<f64>())
        .map_err(err)?;
    let want = floats(want);
    let scale = want.iter().fold(1f64, |m, v| m.max(v.abs()));
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        if (g - w).abs() > 1e-5 * scale || g.is_nan() != w.is_nan() {
            return Err(format!("{what}[{i}]: {g}, PyTorch {w} (largest {scale})"));
        }
    }
    Ok(())
}

/// The permutation to channels-last of a tensor of `rank` dims with its
/// channels at dim 1, and back.
fn to_last(rank: usize) -> (Vec<isize>, Vec<isize>) {
    let mut there: Vec<isize> = vec![0];
    there.extend((2..rank).map(|d| d as isize));
    there.push(1);
    let mut back = vec![0isize; rank];
    for (i, &d) in there.iter().enumerate() {
        back[d as usize] = i as isize;
    }
    (there, back)
}

fn per_dim(p: &Value, key: &str) -> Vec<usize> {
    usizes(&p[key])
}

/// Runs one case; `Err` says what differs.
fn replay(case: &Value) -> R<()> {
    let p = &case["params"];
    let inputs = case["inputs"].as_object().expect("inputs");
    let mut leaves: Vec<(String, Var<'static>)> = Vec::new();
    for (name, v) in inputs {
        leaves.push((name.clone(), Var::leaf(raw(v)?).map_err(err)?));
    }
    let get = |name: &str| leaves.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    let x = get("x").expect("an input x");
    let rank = x.shape().len();
    let last = p["channels_last"].as_bool().unwrap_or(false);
    let (there, back) = to_last(rank);
    let input = match last {
        true => x
            .permute(&there)
            .and_then(|t| t.contiguous())
            .map_err(err)?,
        false => x.share(),
    };
    let channel = if last { rank - 1 } else { 1 };
    let spatial: Vec<usize> = match last {
        true => (1..rank - 1).collect(),
        false => (2..rank).collect(),
    };
    let mut running = None;
    let kind = case["kind"].as_str().expect("kind");
    let out = match kind {
        "conv" | "conv_mode" => {
            let padding = match &p["padding"] {
                Value::String(s) if s == "same" => Padding::Same,
                Value::String(_) => Padding::Valid,
                v => Padding::Both(usizes(v)),
            };
            let o = ConvOptions::new()
                .stride(&per_dim(p, "stride"))
                .dilation(&per_dim(p, "dilation"))
                .groups(p["groups"].as_u64().expect("groups") as usize)
                .padding(padding)
                .padding_mode(match p["padding_mode"].as_str() {
                    Some("reflect") => PaddingMode::Reflect,
                    Some("replicate") => PaddingMode::Replicate,
                    Some("circular") => PaddingMode::Circular,
                    _ => PaddingMode::Zeros,
                });
            let axes = ConvAxes::new(channel, &spatial);
            input.conv_axes(get("w").expect("w"), get("b"), &axes, &o)
        }
        "conv_transpose" => {
            let o = ConvOptions::new()
                .stride(&per_dim(p, "stride"))
                .dilation(&per_dim(p, "dilation"))
                .groups(p["groups"].as_u64().expect("groups") as usize)
                .padding(Padding::Both(per_dim(p, "padding")))
                .output_padding(&per_dim(p, "output_padding"));
            let axes = ConvAxes::new(channel, &spatial);
            input.conv_transpose_axes(get("w").expect("w"), get("b"), &axes, &o)
        }
        "max_pool" | "avg_pool" => {
            let mut o = PoolOptions::new(&per_dim(p, "kernel"))
                .stride(&per_dim(p, "stride"))
                .padding(&per_dim(p, "padding"))
                .ceil_mode(p["ceil_mode"].as_bool().expect("ceil_mode"));
            if kind == "max_pool" {
                o = o.dilation(&per_dim(p, "dilation"));
                input.max_pool_axes(&spatial, &o)
            } else {
                o = o
                    .count_include_pad(p["count_include_pad"].as_bool().expect("count"))
                    .divisor_override(p["divisor_override"].as_u64().map(|d| d as usize));
                input.avg_pool_axes(&spatial, &o)
            }
        }
        "adaptive_avg_pool" => input.adaptive_avg_pool_axes(&spatial, &per_dim(p, "out")),
        "adaptive_max_pool" => input.adaptive_max_pool_axes(&spatial, &per_dim(p, "out")),
        "group_norm" | "instance_norm" => {
            let eps = p["eps"].as_f64().expect("eps");
            let groups = match kind {
                "group_norm" => p["groups"].as_u64().expect("groups") as usize,
                _ => input.shape()[channel],
            };
            input.group_norm_axes(channel, &spatial, groups, get("w"), get("b"), eps)
        }
        "instance_norm_running" => {
            let mut rm = raw(&p["running_mean"])?;
            let mut rv = raw(&p["running_var"])?;
            let eps = p["eps"].as_f64().expect("eps");
            let momentum = p["momentum"].as_f64().expect("momentum");
            let stats = Some((&mut rm.view_mut(), &mut rv.view_mut()));
            let y = input.instance_norm_axes(
                channel,
                &spatial,
                get("w"),
                get("b"),
                stats,
                momentum,
                eps,
            );
            running = Some((rm, rv));
            y
        }
        "batch_norm" => {
            let mut rm = raw(&p["running_mean"])?;
            let mut rv = raw(&p["running_var"])?;
            let eps = p["eps"].as_f64().expect("eps");
            let y = if p["training"].as_bool().expect("training") {
                let momentum = p["momentum"].as_f64().expect("momentum");
                let stats = Some((&mut rm.view_mut(), &mut rv.view_mut()));
                input.batch_norm_train(channel, get("w"), get("b"), stats, momentum, eps)
            } else {
                input.batch_norm_eval(channel, &rm.view(), &rv.view(), get("w"), get("b"), eps)
            };
            running = Some((rm, rv));
            y
        }
        "activation" => match p["name"].as_str().expect("name") {
            "relu6" => input.hardtanh(0.0, 6.0),
            "hardswish" => input.hardswish(),
            "hardsigmoid" => input.hardsigmoid(),
            "leaky_relu" => input.leaky_relu(p["slope"].as_f64().expect("slope")),
            _ => input.prelu(get("w").expect("w")),
        },
        other => return Err(format!("unknown kind {other}")),
    }
    .map_err(err)?;
    let out = match last && kind != "activation" {
        true => out.permute(&back).map_err(err)?,
        false => out,
    };
    close("output", &out.to_raw().map_err(err)?, &case["value"])?;
    if let Some((rm, rv)) = &running {
        close("running_mean", rm, &p["running_mean_after"])?;
        close("running_var", rv, &p["running_var_after"])?;
    }
    let ids: Vec<(String, LeafId)> = leaves
        .iter()
        .map(|(n, v)| (n.clone(), v.leaf_id().expect("a leaf")))
        .collect();
    let seed = raw(&case["seed"])?;
    let grads = out.backward_with(seed).map_err(err)?;
    for (name, id) in ids {
        let got = grads
            .get(id)
            .ok_or_else(|| format!("no gradient of {name}"))?;
        close(
            &format!("gradient of {name}"),
            &got.to_contiguous().map_err(err)?,
            &case["grads"][&name],
        )?;
    }
    Ok(())
}

#[test]
fn cnn_gradients_match_torch_autograd() {
    let text = std::fs::read_to_string(DATA).expect("the oracle's file");
    let data: Value = serde_json::from_str(&text).expect("JSON");
    let cases = data["cases"].as_array().expect("cases");
    assert!(cases.len() >= 200, "{} cases", cases.len());
    let mut failures = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        if let Err(e) = replay(case) {
            failures.push(format!(
                "case {n} ({} {}): {e}",
                case["kind"], case["params"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from PyTorch {}:\n{}",
        failures.len(),
        cases.len(),
        data["torch"],
        failures.join("\n")
    );
}

/// A tracked instance norm makes PyTorch's checks before it computes
/// anything: one element per instance is refused with or without running
/// statistics, and running statistics of the wrong length before the
/// output is made (and before either statistic moves).
#[test]
fn tracked_instance_norm_checks_before_it_computes() {
    let leaf =
        |v: Vec<f32>, shape: &[usize]| Var::leaf(RawTensor::from_vec(v, shape).unwrap()).unwrap();
    let x = leaf(vec![1.0, 2.0], &[2, 1, 1]);
    let err = x
        .instance_norm_axes(1, &[2], None, None, None, 0.1, 1e-5)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("Expected more than 1 spatial element when training, got input size torch.Size([2, 1, 1])"),
        "{err}"
    );
    let x = leaf(vec![1.0, 2.0, 3.0, 5.0], &[1, 2, 2]);
    let mut mean = RawTensor::from_vec(vec![0.0f32; 2], &[2]).unwrap();
    let mut var = RawTensor::from_vec(vec![1.0f32; 3], &[3]).unwrap();
    let running = Some((&mut mean.view_mut(), &mut var.view_mut()));
    let err = x
        .instance_norm_axes(1, &[2], None, None, running, 0.5, 1e-5)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("running_var should contain 2 elements not 3"),
        "{err}"
    );
    assert_eq!(mean.to_vec::<f32>().unwrap(), vec![0.0; 2]);
    // The same input with statistics of the right length trains.
    let mut var = RawTensor::from_vec(vec![1.0f32; 2], &[2]).unwrap();
    let running = Some((&mut mean.view_mut(), &mut var.view_mut()));
    assert!(
        x.instance_norm_axes(1, &[2], None, None, running, 0.5, 1e-5)
            .is_ok()
    );
    assert_eq!(mean.to_vec::<f32>().unwrap(), vec![0.75, 2.0]);
}
