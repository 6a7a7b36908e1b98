//! An optimizer's state dict in PyTorch's structure, so a run can stop in
//! one library and go on in the other: [`adam_state_dict`] gives the
//! [`Value`] `torch.optim.Adam.state_dict()` / `AdamW.state_dict()` gives
//! (`state` by parameter index, `param_groups` with each group's
//! hyper-parameters and parameter indices), [`sgd_state_dict`]
//! `torch.optim.SGD`'s (each parameter's `momentum_buffer`), which
//! [`torch::save`](crate::torch::save) writes as `torch.save` does; and
//! [`adam_from_state_dict`] and [`sgd_from_state_dict`] make the optimizer
//! again from one, read by [`torch::load`](crate::torch::load) from a file
//! either wrote.
//!
//! ```
//! use axial::prelude::*;
//! use axial::autograd::Param;
//! use axial::optim::{Adam, AdamConfig, Optimizer};
//! use axial_io::{optim, torch};
//! let mut p = Param::new(Tensor::<f32, shape![3]>::ones());
//! let mut opt = Adam::adamw(AdamConfig::adamw())?;
//! *p.grad_mut() = Some(Tensor::full(0.5));
//! opt.step(&mut [&mut p])?;
//! let bytes = torch::to_bytes(&optim::adam_state_dict(&opt)?)?;
//! let back = optim::adam_from_state_dict(torch::load_bytes(&bytes)?.value())?;
//! assert!(back.is_adamw());
//! assert_eq!(back.steps(0), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::Range;

use axial::optim::{Adam, AdamConfig, Sgd, SgdConfig};
use axial_core::{DType, RawTensor};

use crate::{Dict, DictKind, Error, Result, StoredTensor, Value};

/// The state dict of `opt`, as PyTorch's Adam or AdamW (by
/// [`Adam::is_adamw`]) writes it: `state` maps each parameter index that has
/// taken a step to its `step` (a float32 scalar tensor), `exp_avg`,
/// `exp_avg_sq` (and `max_exp_avg_sq` with AMSGrad); `param_groups` has
/// each group's hyper-parameters with PyTorch's keys and its `params`, the
/// indices of its parameters.
///
/// # Errors
/// The device failed to copy a state tensor.
///
/// ```
/// use axial::optim::{Adam, AdamConfig};
/// use axial_io::{Value, optim};
/// let sd = optim::adam_state_dict(&Adam::new(AdamConfig::default())?)?;
/// let group = &sd.at("param_groups").unwrap();
/// assert!(matches!(group, Value::List(g) if g.len() == 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn adam_state_dict(opt: &Adam) -> Result<Value> {
    let mut state = Dict::new(DictKind::Dict);
    for i in 0..opt.positions() {
        let Some((exp_avg, exp_avg_sq, max)) = opt.moments(i) else {
            continue;
        };
        let step = RawTensor::from_vec(vec![opt.steps(i) as f32], &[])?;
        let mut entry = vec![
            ("step", Value::tensor(StoredTensor::from_raw(step))),
            ("exp_avg", tensor(exp_avg)?),
            ("exp_avg_sq", tensor(exp_avg_sq)?),
        ];
        if let Some(max) = max {
            entry.push(("max_exp_avg_sq", tensor(max)?));
        }
        state.insert(Value::Int(i as i128), Value::dict(entry));
    }
    let groups = (0..opt.groups())
        .map(|k| {
            let c = opt.group_config(k).copied().unwrap_or_default();
            Value::dict([
                ("lr", Value::Float(c.lr)),
                (
                    "betas",
                    Value::Tuple(vec![Value::Float(c.betas.0), Value::Float(c.betas.1)]),
                ),
                ("eps", Value::Float(c.eps)),
                ("weight_decay", Value::Float(c.weight_decay)),
                ("amsgrad", Value::Bool(c.amsgrad)),
                ("maximize", Value::Bool(c.maximize)),
                ("foreach", Value::None),
                ("capturable", Value::Bool(false)),
                ("differentiable", Value::Bool(false)),
                ("fused", Value::None),
                ("decoupled_weight_decay", Value::Bool(opt.is_adamw())),
                ("params", indices(opt.group_params(k))),
            ])
        })
        .collect();
    Ok(Value::dict([
        ("state", Value::Dict(state)),
        ("param_groups", Value::List(groups)),
    ]))
}

/// The Adam or AdamW optimizer (by the groups' `decoupled_weight_decay`)
/// a state dict describes: its parameter groups' hyper-parameters and
/// sizes from `param_groups`, the state of each parameter index from
/// `state`.
///
/// # Errors
/// What PyTorch's structure needs is missing or of another type (the
/// message names it), the groups' parameter indices are not `0, 1, 2, …`
/// in order, the groups disagree on `decoupled_weight_decay`, or a
/// state's tensors disagree.
///
/// ```
/// use axial_io::{Value, optim};
/// assert!(optim::adam_from_state_dict(&Value::dict([])).is_err());
/// ```
pub fn adam_from_state_dict(sd: &Value) -> Result<Adam> {
    let groups = param_groups(sd)?;
    let mut configs = Vec::with_capacity(groups.len());
    let mut decoupled = None;
    for (k, (group, len)) in groups.iter().enumerate() {
        let g = Group { group, k };
        let betas = match group.get("betas") {
            Some(Value::Tuple(b) | Value::List(b)) if b.len() == 2 => (
                b[0].as_float().ok_or_else(|| missing("float beta1"))?,
                b[1].as_float().ok_or_else(|| missing("float beta2"))?,
            ),
            _ => return Err(missing(&format!("betas pair in param_groups[{k}]"))),
        };
        let config = AdamConfig {
            lr: g.float("lr")?,
            betas,
            eps: g.float("eps")?,
            weight_decay: g.float("weight_decay")?,
            amsgrad: g.flag("amsgrad")?,
            maximize: g.flag("maximize")?,
        };
        let d = g.flag("decoupled_weight_decay")?;
        if decoupled.is_some_and(|first| first != d) {
            return Err(Error::format(
                "optimizer state dict",
                "the parameter groups disagree on decoupled_weight_decay: axial's Adam is Adam or AdamW for all of them",
            ));
        }
        decoupled = Some(d);
        configs.push((config, *len));
    }
    let decoupled = decoupled.unwrap_or(false);
    let positions = configs.iter().map(|(_, n)| n).sum();
    let mut opt = match configs.as_slice() {
        [(config, _)] if decoupled => Adam::adamw(*config)?,
        [(config, _)] => Adam::new(*config)?,
        _ => Adam::with_groups(configs, decoupled)?,
    };
    opt.set_positions(positions);
    for (index, entry) in states(sd)? {
        let step = match entry.get("step") {
            Some(Value::Tensor(t)) => t.tensor.view().to_dtype(DType::F64)?.view().item::<f64>()?,
            Some(v) => v
                .as_float()
                .or_else(|| v.as_int().map(|i| i as f64))
                .ok_or_else(|| missing(&format!("number state[{index}][\"step\"]")))?,
            None => return Err(missing(&format!("state[{index}][\"step\"]"))),
        };
        let need = |name: &str| {
            state_tensor(entry, index, name)?
                .ok_or_else(|| missing(&format!("state[{index}][{name:?}]")))
        };
        opt.set_state(
            index,
            step as u64,
            need("exp_avg")?,
            need("exp_avg_sq")?,
            state_tensor(entry, index, "max_exp_avg_sq")?,
        )?;
    }
    Ok(opt)
}

/// The state dict of `opt`, as PyTorch's SGD writes it: `state` maps each
/// parameter index that has a momentum buffer to its `momentum_buffer`
/// (none without momentum); `param_groups` has each group's
/// hyper-parameters with PyTorch's keys and its `params`.
///
/// # Errors
/// The device failed to copy a buffer.
///
/// ```
/// use axial::optim::{Sgd, SgdConfig};
/// use axial_io::optim;
/// let sd = optim::sgd_state_dict(&Sgd::new(SgdConfig { momentum: 0.9, ..SgdConfig::default() })?)?;
/// assert_eq!(sd.at("param_groups.0.momentum").and_then(|v| v.as_float()), Some(0.9));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sgd_state_dict(opt: &Sgd) -> Result<Value> {
    let mut state = Dict::new(DictKind::Dict);
    for i in 0..opt.positions() {
        if let Some(buf) = opt.momentum_buffer(i) {
            state.insert(
                Value::Int(i as i128),
                Value::dict([("momentum_buffer", tensor(buf)?)]),
            );
        }
    }
    let groups = (0..opt.groups())
        .map(|k| {
            let c = opt.group_config(k).copied().unwrap_or_default();
            Value::dict([
                ("lr", Value::Float(c.lr)),
                ("momentum", Value::Float(c.momentum)),
                ("dampening", Value::Float(c.dampening)),
                ("weight_decay", Value::Float(c.weight_decay)),
                ("nesterov", Value::Bool(c.nesterov)),
                ("maximize", Value::Bool(c.maximize)),
                ("foreach", Value::None),
                ("differentiable", Value::Bool(false)),
                ("fused", Value::None),
                ("params", indices(opt.group_params(k))),
            ])
        })
        .collect();
    Ok(Value::dict([
        ("state", Value::Dict(state)),
        ("param_groups", Value::List(groups)),
    ]))
}

/// The SGD optimizer a state dict describes: its parameter groups'
/// hyper-parameters and sizes, each parameter's `momentum_buffer`.
///
/// # Errors
/// What PyTorch's structure needs is missing or of another type (the
/// message names it), the groups' parameter indices are not `0, 1, 2, …`
/// in order, or a buffer is not floating-point.
///
/// ```
/// use axial_io::{Value, optim};
/// assert!(optim::sgd_from_state_dict(&Value::dict([])).is_err());
/// ```
pub fn sgd_from_state_dict(sd: &Value) -> Result<Sgd> {
    let groups = param_groups(sd)?;
    let mut configs = Vec::with_capacity(groups.len());
    for (k, (group, len)) in groups.iter().enumerate() {
        let g = Group { group, k };
        let config = SgdConfig {
            lr: g.float("lr")?,
            momentum: g.float("momentum")?,
            dampening: g.float("dampening")?,
            weight_decay: g.float("weight_decay")?,
            nesterov: g.flag("nesterov")?,
            maximize: g.flag("maximize")?,
        };
        configs.push((config, *len));
    }
    let positions = configs.iter().map(|(_, n)| n).sum();
    let mut opt = match configs.as_slice() {
        [(config, _)] => Sgd::new(*config)?,
        _ => Sgd::with_groups(configs)?,
    };
    opt.set_positions(positions);
    for (index, entry) in states(sd)? {
        if let Some(buf) = state_tensor(entry, index, "momentum_buffer")? {
            opt.set_momentum_buffer(index, buf)?;
        }
    }
    Ok(opt)
}

fn missing(what: &str) -> Error {
    Error::format("optimizer state dict", format!("no {what}"))
}

/// A copy of a state tensor, as a value.
fn tensor(t: &RawTensor) -> Result<Value> {
    Ok(Value::tensor(StoredTensor::from_raw(t.view().to_owned()?)))
}

/// `[start, …, end - 1]`.
fn indices(range: Range<usize>) -> Value {
    Value::List(range.map(|i| Value::Int(i as i128)).collect())
}

/// Each parameter group and how many parameters it holds, checking that
/// the groups number their parameters `0, 1, 2, …` in order (as PyTorch's
/// `state_dict()` does).
fn param_groups(sd: &Value) -> Result<Vec<(&Value, usize)>> {
    let groups = match sd.get("param_groups") {
        Some(Value::List(g)) if !g.is_empty() => g,
        _ => return Err(missing("param_groups list")),
    };
    let mut next = 0;
    let mut out = Vec::with_capacity(groups.len());
    for (k, group) in groups.iter().enumerate() {
        let Some(Value::List(params)) = group.get("params") else {
            return Err(missing(&format!("params list in param_groups[{k}]")));
        };
        for p in params {
            if p.as_int() != Some(next) {
                return Err(Error::format(
                    "optimizer state dict",
                    format!(
                        "param_groups[{k}][\"params\"] holds {p:?} where index {next} was due: the groups number their parameters 0, 1, 2, ... in order"
                    ),
                ));
            }
            next += 1;
        }
        out.push((group, params.len()));
    }
    Ok(out)
}

/// The hyper-parameters of group `k`.
struct Group<'a> {
    group: &'a Value,
    k: usize,
}

impl Group<'_> {
    fn float(&self, key: &str) -> Result<f64> {
        self.group
            .get(key)
            .and_then(|v| v.as_float().or_else(|| v.as_int().map(|i| i as f64)))
            .ok_or_else(|| missing(&format!("number param_groups[{}][{key:?}]", self.k)))
    }

    fn flag(&self, key: &str) -> Result<bool> {
        match self.group.get(key) {
            Some(Value::Bool(b)) => Ok(*b),
            _ => Err(missing(&format!("bool param_groups[{}][{key:?}]", self.k))),
        }
    }
}

/// The entries of `state`, by parameter index.
fn states(sd: &Value) -> Result<Vec<(usize, &Value)>> {
    let state = sd
        .get("state")
        .and_then(Value::as_dict)
        .ok_or_else(|| missing("state dict"))?;
    state
        .items
        .iter()
        .map(|(key, entry)| {
            let index = key
                .as_int()
                .and_then(|i| usize::try_from(i).ok())
                .ok_or_else(|| missing("integer key in state"))?;
            Ok((index, entry))
        })
        .collect()
}

/// The tensor `state[index][name]`, if present.
fn state_tensor(entry: &Value, index: usize, name: &str) -> Result<Option<RawTensor>> {
    match entry.get(name) {
        None => Ok(None),
        Some(v) => v
            .as_tensor()
            .ok_or_else(|| missing(&format!("tensor state[{index}][{name:?}]")))?
            .to_raw()
            .map(Some),
    }
}
