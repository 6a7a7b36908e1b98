//! A model's checkpoint crosses between PyTorch and axial both ways
//! (`oracle/torch_state_dict.py`), its parameters named by their path:
//! the digits MLP's state dict PyTorch saved loads into
//! `examples/digits`'s model, whose logits are then PyTorch's; axial's,
//! saved with axial-io, loads into the PyTorch module with
//! `load_state_dict` (strict), whose logits are then axial's; a state dict
//! that does not fit is refused with PyTorch's own messages, and nothing is
//! copied. The MiniLM-sized encoder block of `examples/encoder_block`
//! (transformers' `BertLayer` names) goes both ways too, its outputs
//! compared, and from PyTorch's weights its training step (the one
//! `benches/train.rs` times) gives PyTorch's losses (the PyTorch side when `bench/.venv` exists; required under
//! `AXIAL_REQUIRE_PYTHON=1`, as `.ci/run` sets).

#[path = "../examples/encoder_block/block.rs"]
mod block;
#[path = "../examples/digits/mlp.rs"]
mod mlp;

use std::path::{Path, PathBuf};
use std::process::Command;

use axial::Generator;
use axial::autograd::Module;
use axial::optim::{Adam, AdamConfig};
use axial_core::{DType, RawTensor};
use axial_io::{StoredTensor, TensorMap, Value, state_dict, torch};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn record() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("tests/data/torch_mlp_state.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// An MLP with the weights `oracle/torch_digits.py` started from (not the
/// ones of the checkpoints here).
fn mlp() -> mlp::Mlp {
    mlp::Mlp::from_reference(&mlp::reference().unwrap()["start"]).unwrap()
}

/// The script's `inputs()`: (7·i mod 17) / 16.
fn inputs() -> mlp::HeldImages {
    mlp::HeldImages::from_vec((0..360 * 64).map(|i| (i * 7 % 17) as f32 / 16.0).collect())
}

#[track_caller]
fn assert_close(got: &[f32], want: &[f32], tol: f32) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * w.abs().max(1.0),
            "[{i}]: {g} against {w}"
        );
    }
}

fn floats(v: &serde_json::Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

fn pytorch_mlp_state() -> Value {
    torch::load(root().join("tests/data/torch_mlp_state.pt"))
        .unwrap()
        .into_value()
}

#[test]
fn parameters_are_named_as_pytorch_names_them() {
    let mut model = mlp();
    let names: Vec<String> = model
        .named_parameters()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let ckpt = torch::load(root().join("tests/data/torch_mlp_state.pt")).unwrap();
    assert_eq!(names, ckpt.keys());
    let mut block = block::Block::new(&mut Generator::seed(0));
    let names: Vec<String> = block
        .named_parameters()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        names,
        [
            "attention.self.query.weight",
            "attention.self.query.bias",
            "attention.self.key.weight",
            "attention.self.key.bias",
            "attention.self.value.weight",
            "attention.self.value.bias",
            "attention.output.dense.weight",
            "attention.output.dense.bias",
            "attention.output.LayerNorm.weight",
            "attention.output.LayerNorm.bias",
            "intermediate.dense.weight",
            "intermediate.dense.bias",
            "output.dense.weight",
            "output.dense.bias",
            "output.LayerNorm.weight",
            "output.LayerNorm.bias",
        ]
    );
}

#[test]
fn a_pytorch_checkpoint_loads_into_the_mlp() {
    let mut model = mlp();
    state_dict::load_state_dict(&mut model, &pytorch_mlp_state()).unwrap();
    assert_close(
        &model.logits(&inputs()).to_vec(),
        &floats(&record()["logits"]),
        1e-5,
    );
}

#[test]
fn a_state_dict_that_does_not_fit_is_pytorchs_error() {
    let r = record();
    let before = mlp().logits(&inputs()).to_vec();
    let edit = |f: &dyn Fn(&mut axial_io::Dict)| {
        let mut sd = pytorch_mlp_state();
        let Value::Dict(d) = &mut sd else {
            panic!("a state dict is a mapping")
        };
        f(d);
        sd
    };
    let tensor = |shape: &[usize]| {
        Value::tensor(StoredTensor::from_raw(
            RawTensor::zeros(shape, DType::F32).unwrap(),
        ))
    };
    let missing = edit(&|d| {
        d.items.retain(|(k, _)| k.as_str() != Some("out.bias"));
        d.insert(Value::from("out.scale"), tensor(&[1]));
    });
    let resized = edit(&|d| d.insert(Value::from("hidden.weight"), tensor(&[32, 64])));
    for (sd, key) in [(missing, "missing_unexpected"), (resized, "size_mismatch")] {
        let mut model = mlp();
        let err = state_dict::load_state_dict(&mut model, &sd).unwrap_err();
        assert_eq!(err.to_string(), r[key].as_str().unwrap());
        assert_eq!(err.kind(), axial_io::ErrorKind::Mismatch);
        // Nothing was copied: the parameters that fit are as they were.
        assert_eq!(model.logits(&inputs()).to_vec(), before);
    }
}

#[test]
fn an_axial_checkpoint_loads_into_pytorchs_mlp() {
    let mut model = mlp();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mlp.pt");
    torch::save(&path, &state_dict::state_dict(&mut model).unwrap()).unwrap();
    // Read back by axial: the same names and values.
    let mut back = mlp::Mlp::from_reference(&mlp::reference().unwrap()["start"]).unwrap();
    state_dict::load_state_dict(&mut back, torch::load(&path).unwrap().value()).unwrap();
    let ours = model.logits(&inputs()).to_vec();
    assert_eq!(back.logits(&inputs()).to_vec(), ours);
    let Some(out) = run_python(&[&"--check-mlp" as &dyn AsArg, &path]) else {
        return;
    };
    let theirs: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_close(&ours, &floats(&theirs), 1e-5);
}

#[test]
fn the_encoder_block_crosses_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    // PyTorch's block in axial: the same outputs.
    let Some(_) = run_python(&[&"--block" as &dyn AsArg, &dir.path()]) else {
        return;
    };
    let mut model = block::Block::new(&mut Generator::seed(3));
    let ckpt = torch::load(dir.path().join("block.pt")).unwrap();
    state_dict::load_state_dict(&mut model, ckpt.value()).unwrap();
    let io = torch::load(dir.path().join("block_io.pt")).unwrap();
    let x = block::Hidden::from_vec(io.tensor("x").unwrap().to_vec::<f32>().unwrap());
    let want = io.tensor("y").unwrap().to_vec::<f32>().unwrap();
    assert_close(&model.forward(&x).value().to_vec(), &want, 1e-4);
    // The benchmarked training step (forward, backward, AdamW) is PyTorch's.
    let mut opt = Adam::adamw(AdamConfig::adamw()).unwrap();
    let losses: Vec<f32> = (0..3).map(|_| model.step(&mut opt, &x).unwrap()).collect();
    assert_close(
        &losses,
        &io.tensor("losses").unwrap().to_vec::<f32>().unwrap(),
        1e-5,
    );

    // Axial's block in PyTorch: another block's state dict, and its output.
    let mut ours = block::Block::new(&mut Generator::seed(4));
    let y = RawTensor::from_vec(ours.forward(&x).value().to_vec(), &[8, 128, 384]).unwrap();
    let (sd_path, io_path) = (dir.path().join("ours.pt"), dir.path().join("ours_io.pt"));
    torch::save(&sd_path, &state_dict::state_dict(&mut ours).unwrap()).unwrap();
    let x_raw = RawTensor::from_vec(x.to_vec(), &[8, 128, 384]).unwrap();
    torch::save(
        &io_path,
        &Value::dict([
            ("x", Value::tensor(StoredTensor::from_raw(x_raw))),
            ("y", Value::tensor(StoredTensor::from_raw(y))),
        ]),
    )
    .unwrap();
    let out = run_python(&[&"--check-block" as &dyn AsArg, &sd_path, &io_path]).unwrap();
    let diff: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let diff = diff["max_abs_diff"].as_f64().unwrap();
    assert!(diff <= 1e-4, "PyTorch's output differs by {diff}");
}

/// An argument of the script.
trait AsArg {
    fn arg(&self) -> &std::ffi::OsStr;
}

impl AsArg for &str {
    fn arg(&self) -> &std::ffi::OsStr {
        self.as_ref()
    }
}

impl AsArg for PathBuf {
    fn arg(&self) -> &std::ffi::OsStr {
        self.as_os_str()
    }
}

impl AsArg for &Path {
    fn arg(&self) -> &std::ffi::OsStr {
        self.as_os_str()
    }
}

/// Runs `oracle/torch_state_dict.py` with `args`; its stdout, or `None`
/// without `bench/.venv` (a failure under `AXIAL_REQUIRE_PYTHON`).
fn run_python(args: &[&dyn AsArg]) -> Option<Vec<u8>> {
    let Some(python) = python() else {
        assert!(
            std::env::var("AXIAL_REQUIRE_PYTHON").is_err(),
            "AXIAL_REQUIRE_PYTHON is set but bench/.venv is missing: run bench/setup.sh"
        );
        eprintln!("state_dict: PyTorch's side skipped, no bench/.venv");
        return None;
    };
    let out = Command::new(python)
        .arg(root().join("oracle/torch_state_dict.py"))
        .args(args.iter().map(|a| a.arg()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out.stdout)
}

fn python() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("AXIAL_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let venv = root().join("bench/.venv/bin/python");
    venv.exists().then_some(venv)
}
