//! An optimizer's state dict crosses between PyTorch and axial both ways
//! (`oracle/torch_optim_state.py`): an AdamW (AMSGrad) state dict PyTorch
//! saved after 3 steps loads into axial, whose steps 4 to 6 then give
//! PyTorch's parameters; axial's own state dict after 3 steps, saved with
//! axial-io, loads into `torch.optim.AdamW.load_state_dict`, whose steps 4
//! to 6 give the same (when `bench/.venv` exists; required under
//! `AXIAL_REQUIRE_PYTHON=1`, as `.ci/run` sets).

use std::path::{Path, PathBuf};
use std::process::Command;

use axial::autograd::Param;
use axial::optim::{Adam, AdamConfig, Optimizer, Parameter, zero_grad};
use axial::prelude::*;
use axial_io::{optim, torch};
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn record() -> Value {
    let text = std::fs::read_to_string(root().join("tests/data/torch_adamw_state.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

#[allow(clippy::type_complexity)]
struct Params {
    a: Param<f32, shape![2, 3]>,
    b: Param<f32, shape![4]>,
}

impl Params {
    fn new(values: &Value) -> Self {
        Params {
            a: Param::new(Tensor::from_vec(floats(&values[0]))),
            b: Param::new(Tensor::from_vec(floats(&values[1]))),
        }
    }

    #[allow(clippy::type_complexity)]
    fn list(&mut self) -> [&mut dyn Parameter<Cpu>; 2] {
        [&mut self.a, &mut self.b]
    }

    /// Steps `steps` (from 1) with the recorded gradients.
    fn run(&mut self, opt: &mut Adam, grads: &Value, steps: std::ops::RangeInclusive<usize>) {
        for step in steps {
            zero_grad(&mut self.list());
            let g = &grads[step - 1];
            *self.a.grad_mut() = g[0].as_array().map(|_| Tensor::from_vec(floats(&g[0])));
            *self.b.grad_mut() = g[1].as_array().map(|_| Tensor::from_vec(floats(&g[1])));
            opt.step(&mut self.list()).unwrap();
        }
    }

    fn values(&self) -> Vec<Vec<f32>> {
        vec![self.a.value().to_vec(), self.b.value().to_vec()]
    }
}

#[track_caller]
fn assert_close(got: &[Vec<f32>], want: &Value) {
    for (k, (g, w)) in got.iter().zip(want.as_array().unwrap()).enumerate() {
        for (i, (g, w)) in g.iter().zip(floats(w)).enumerate() {
            assert!(
                (g - w).abs() <= 1e-6 * w.abs().max(1.0),
                "parameter {k}[{i}]: {g} against {w}"
            );
        }
    }
}

#[test]
fn a_pytorch_state_dict_goes_on_in_axial() {
    let r = record();
    let ckpt = torch::load(root().join("tests/data/torch_adamw_state.pt")).unwrap();
    let mut opt = optim::adam_from_state_dict(ckpt.value()).unwrap();
    assert!(opt.is_adamw() && opt.config().amsgrad && opt.config().lr == 1e-2);
    assert_eq!((opt.positions(), opt.steps(0), opt.steps(1)), (2, 3, 2));
    let mut params = Params::new(&r["after3"]);
    params.run(&mut opt, &r["grads"], 4..=6);
    assert_close(&params.values(), &r["after6"]);
}

#[test]
fn an_axial_state_dict_is_pytorchs() {
    let r = record();
    let mut params = Params::new(&r["start"]);
    let mut opt = Adam::adamw(AdamConfig {
        lr: 1e-2,
        amsgrad: true,
        ..AdamConfig::adamw()
    })
    .unwrap();
    params.run(&mut opt, &r["grads"], 1..=3);
    assert_close(&params.values(), &r["after3"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("adamw.pt");
    torch::save(&path, &optim::adam_state_dict(&opt).unwrap()).unwrap();

    // The same structure and values as PyTorch's own file.
    let ours = torch::load(&path).unwrap();
    let theirs = torch::load(root().join("tests/data/torch_adamw_state.pt")).unwrap();
    for key in [
        "state.0.exp_avg",
        "state.0.max_exp_avg_sq",
        "state.1.exp_avg_sq",
        "state.1.step",
    ] {
        let get = |c: &torch::Checkpoint| {
            c.value()
                .at(key)
                .and_then(axial_io::Value::as_tensor)
                .cloned()
                .unwrap()
        };
        let (a, b) = (get(&ours), get(&theirs));
        assert_eq!(a.shape(), b.shape(), "{key}");
        for (x, y) in a
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .zip(b.to_vec::<f32>().unwrap())
        {
            assert!(
                (x - y).abs() <= 1e-6 * y.abs().max(1e-3),
                "{key}: {x} against {y}"
            );
        }
    }

    // Axial's file in PyTorch: loaded by AdamW.load_state_dict, then 3 more steps.
    let Some(python) = python() else {
        assert!(
            std::env::var("AXIAL_REQUIRE_PYTHON").is_err(),
            "AXIAL_REQUIRE_PYTHON is set but bench/.venv is missing: run bench/setup.sh"
        );
        eprintln!("optim_state: PyTorch's side skipped, no bench/.venv");
        return;
    };
    let out = Command::new(python)
        .arg(root().join("oracle/torch_optim_state.py"))
        .arg("--check")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let torch_after6: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_close(
        &torch_after6
            .as_array()
            .unwrap()
            .iter()
            .map(floats)
            .collect::<Vec<_>>(),
        &r["after6"],
    );
}

fn python() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("AXIAL_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let venv = root().join("bench/.venv/bin/python");
    venv.exists().then_some(venv)
}
