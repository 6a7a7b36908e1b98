//! An optimizer's state dict crosses between PyTorch and axial both ways
//! (`oracle/torch_optim_state.py`): an AdamW (AMSGrad) state dict PyTorch
//! saved after 3 steps loads into axial, whose steps 4 to 6 then give
//! PyTorch's parameters; axial's own state dict after 3 steps, saved with
//! axial-io, loads into `torch.optim.AdamW.load_state_dict`, whose steps 4
//! to 6 give the same (when `bench/.venv` exists; required under
//! `AXIAL_REQUIRE_PYTHON=1`, as `.ci/run` sets). The same both ways for
//! SGD's state dict (`momentum_buffer`) and for several parameter groups
//! with their own hyper-parameters (PyTorch's `param_groups`), SGD and
//! AdamW.

use std::path::{Path, PathBuf};
use std::process::Command;

use axial::autograd::Param;
use axial::optim::{Adam, AdamConfig, Optimizer, Parameter, Sgd, SgdConfig, zero_grad};
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

// Parameter groups, SGD and AdamW: three parameters in two groups with
// their own hyper-parameters (`oracle/torch_optim_state.py`'s GROUPS).

fn groups_record() -> Value {
    let text = std::fs::read_to_string(root().join("tests/data/torch_optim_groups.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[allow(clippy::type_complexity)]
struct Grouped {
    a: Param<f32, shape![2, 3]>,
    b: Param<f32, shape![4]>,
    c: Param<f32, shape![3]>,
}

impl Grouped {
    fn new(values: &Value) -> Self {
        Grouped {
            a: Param::new(Tensor::from_vec(floats(&values[0]))),
            b: Param::new(Tensor::from_vec(floats(&values[1]))),
            c: Param::new(Tensor::from_vec(floats(&values[2]))),
        }
    }

    #[allow(clippy::type_complexity)]
    fn list(&mut self) -> [&mut dyn Parameter<Cpu>; 3] {
        [&mut self.a, &mut self.b, &mut self.c]
    }

    fn run(
        &mut self,
        opt: &mut dyn Optimizer<Cpu>,
        grads: &Value,
        steps: std::ops::RangeInclusive<usize>,
    ) {
        for step in steps {
            zero_grad(&mut self.list());
            let g = &grads[step - 1];
            *self.a.grad_mut() = g[0].as_array().map(|_| Tensor::from_vec(floats(&g[0])));
            *self.b.grad_mut() = g[1].as_array().map(|_| Tensor::from_vec(floats(&g[1])));
            *self.c.grad_mut() = g[2].as_array().map(|_| Tensor::from_vec(floats(&g[2])));
            opt.step(&mut self.list()).unwrap();
        }
    }

    fn values(&self) -> Vec<Vec<f32>> {
        vec![
            self.a.value().to_vec(),
            self.b.value().to_vec(),
            self.c.value().to_vec(),
        ]
    }
}

fn sgd_groups() -> Sgd {
    let first = SgdConfig {
        lr: 0.1,
        momentum: 0.9,
        dampening: 0.1,
        weight_decay: 0.01,
        ..SgdConfig::default()
    };
    let second = SgdConfig {
        lr: 0.05,
        momentum: 0.8,
        nesterov: true,
        ..SgdConfig::default()
    };
    Sgd::with_groups([(first, 2), (second, 1)]).unwrap()
}

fn adamw_groups() -> Adam {
    let first = AdamConfig {
        lr: 1e-2,
        weight_decay: 0.1,
        ..AdamConfig::adamw()
    };
    let second = AdamConfig {
        lr: 5e-3,
        weight_decay: 0.0,
        amsgrad: true,
        ..AdamConfig::adamw()
    };
    Adam::with_groups([(first, 2), (second, 1)], true).unwrap()
}

#[test]
fn pytorchs_grouped_state_dicts_go_on_in_axial() {
    let r = groups_record();
    let load = |kind: &str| {
        torch::load(root().join(format!("tests/data/torch_{kind}_groups_state.pt"))).unwrap()
    };
    let mut sgd = optim::sgd_from_state_dict(load("sgd").value()).unwrap();
    assert_eq!((sgd.groups(), sgd.group_params(1)), (2, 2..3));
    assert_eq!(sgd.group_config(1), sgd_groups().group_config(1));
    assert_eq!(sgd.group_config(0), sgd_groups().group_config(0));
    let mut params = Grouped::new(&r["sgd"]["after3"]);
    params.run(&mut sgd, &r["grads"], 4..=6);
    assert_close(&params.values(), &r["sgd"]["after6"]);

    let mut adamw = optim::adam_from_state_dict(load("adamw").value()).unwrap();
    assert!(adamw.is_adamw());
    assert_eq!(adamw.group_config(1), adamw_groups().group_config(1));
    assert_eq!((adamw.steps(0), adamw.steps(1), adamw.steps(2)), (3, 2, 3));
    let mut params = Grouped::new(&r["adamw"]["after3"]);
    params.run(&mut adamw, &r["grads"], 4..=6);
    assert_close(&params.values(), &r["adamw"]["after6"]);
}

#[test]
fn axial_grouped_state_dicts_are_pytorchs() {
    let r = groups_record();
    let dir = tempfile::tempdir().unwrap();
    for kind in ["sgd", "adamw"] {
        let mut params = Grouped::new(&r["start"]);
        let path = dir.path().join(format!("{kind}.pt"));
        let sd = match kind {
            "sgd" => {
                let mut opt = sgd_groups();
                params.run(&mut opt, &r["grads"], 1..=3);
                optim::sgd_state_dict(&opt).unwrap()
            }
            _ => {
                let mut opt = adamw_groups();
                params.run(&mut opt, &r["grads"], 1..=3);
                optim::adam_state_dict(&opt).unwrap()
            }
        };
        assert_close(&params.values(), &r[kind]["after3"]);
        torch::save(&path, &sd).unwrap();

        // The same groups and state keys as PyTorch's own file.
        let ours = torch::load(&path).unwrap();
        let theirs =
            torch::load(root().join(format!("tests/data/torch_{kind}_groups_state.pt"))).unwrap();
        for key in ["param_groups.0.params", "param_groups.1.params"] {
            assert_eq!(
                format!("{:?}", ours.value().at(key)),
                format!("{:?}", theirs.value().at(key)),
                "{kind}: {key}"
            );
        }
        let keys = |c: &torch::Checkpoint| -> Vec<String> {
            let state = c
                .value()
                .get("state")
                .and_then(axial_io::Value::as_dict)
                .unwrap();
            state
                .items
                .iter()
                .flat_map(|(k, v)| {
                    let k = k.as_int().unwrap();
                    let names = v.as_dict().unwrap().items.iter();
                    names
                        .map(move |(n, _)| format!("{k}.{}", n.as_str().unwrap()))
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        let mut ours_keys = keys(&ours);
        let mut theirs_keys = keys(&theirs);
        ours_keys.sort();
        theirs_keys.sort();
        assert_eq!(ours_keys, theirs_keys, "{kind}");

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
            .args(["--check-groups", kind])
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
            &r[kind]["after6"],
        );
    }
}

#[test]
fn a_step_must_cover_every_group() {
    let r = groups_record();
    let mut params = Grouped::new(&r["start"]);
    let mut opt = sgd_groups();
    let [a, b, _] = params.list();
    let err = opt.step(&mut [a, b]).unwrap_err().to_string();
    assert!(
        err.contains("the parameter groups hold 3 parameters ([2, 1]), but the step was given 2"),
        "{err}"
    );
}
