//! An optimizer's state dict in PyTorch's structure, so a run can stop in
//! one library and go on in the other: [`adam_state_dict`] gives the
//! [`Value`] `torch.optim.Adam.state_dict()` / `AdamW.state_dict()` gives
//! (`state` by parameter index, `param_groups`), which
//! [`torch::save`](crate::torch::save) writes as `torch.save` does, and
//! [`adam_from_state_dict`] makes the optimizer again from one, read by
//! [`torch::load`](crate::torch::load) from a file either wrote.
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

use axial::optim::{Adam, AdamConfig};
use axial_core::{DType, RawTensor};

use crate::{Dict, DictKind, Error, Result, StoredTensor, Value};

/// The state dict of `opt`, as PyTorch's Adam or AdamW (by
/// [`Adam::is_adamw`]) writes it: `state` maps each parameter index that has
/// taken a step to its `step` (a float32 scalar tensor), `exp_avg`,
/// `exp_avg_sq` (and `max_exp_avg_sq` with AMSGrad); `param_groups` is one
/// group with PyTorch's keys, its `params` the indices `0..positions`.
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
        let tensor = |t: &RawTensor| -> Result<Value> {
            Ok(Value::tensor(StoredTensor::from_raw(t.view().to_owned()?)))
        };
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
    let c = opt.config();
    let group = Value::dict([
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
        (
            "params",
            Value::List(
                (0..opt.positions())
                    .map(|i| Value::Int(i as i128))
                    .collect(),
            ),
        ),
    ]);
    Ok(Value::dict([
        ("state", Value::Dict(state)),
        ("param_groups", Value::List(vec![group])),
    ]))
}

/// The Adam or AdamW optimizer (by the group's `decoupled_weight_decay`)
/// a state dict describes: its hyper-parameters from its one parameter
/// group, the state of each parameter index from `state`.
///
/// # Errors
/// What PyTorch's structure needs is missing or of another type (the
/// message names it), there is more than one parameter group, or a state's
/// tensors disagree.
///
/// ```
/// use axial_io::{Value, optim};
/// assert!(optim::adam_from_state_dict(&Value::dict([])).is_err());
/// ```
pub fn adam_from_state_dict(sd: &Value) -> Result<Adam> {
    let missing = |what: &str| Error::format("optimizer state dict", format!("no {what}"));
    let groups = match sd.get("param_groups") {
        Some(Value::List(g)) => g,
        _ => return Err(missing("param_groups list")),
    };
    let [group] = groups.as_slice() else {
        return Err(Error::format(
            "optimizer state dict",
            format!(
                "{} parameter groups: axial's optimizers have one",
                groups.len()
            ),
        ));
    };
    let float = |key: &str| -> Result<f64> {
        group
            .get(key)
            .and_then(|v| v.as_float().or_else(|| v.as_int().map(|i| i as f64)))
            .ok_or_else(|| missing(&format!("number param_groups[0][{key:?}]")))
    };
    let flag = |key: &str| match group.get(key) {
        Some(Value::Bool(b)) => Ok(*b),
        _ => Err(missing(&format!("bool param_groups[0][{key:?}]"))),
    };
    let betas = match group.get("betas") {
        Some(Value::Tuple(b) | Value::List(b)) if b.len() == 2 => (
            b[0].as_float().ok_or_else(|| missing("float beta1"))?,
            b[1].as_float().ok_or_else(|| missing("float beta2"))?,
        ),
        _ => return Err(missing("betas pair")),
    };
    let config = AdamConfig {
        lr: float("lr")?,
        betas,
        eps: float("eps")?,
        weight_decay: float("weight_decay")?,
        amsgrad: flag("amsgrad")?,
        maximize: flag("maximize")?,
    };
    let mut opt = match flag("decoupled_weight_decay")? {
        true => Adam::adamw(config)?,
        false => Adam::new(config)?,
    };
    if let Some(Value::List(params)) = group.get("params") {
        opt.set_positions(params.len());
    }
    let state = sd
        .get("state")
        .and_then(Value::as_dict)
        .ok_or_else(|| missing("state dict"))?;
    for (key, entry) in &state.items {
        let index = key
            .as_int()
            .and_then(|i| usize::try_from(i).ok())
            .ok_or_else(|| missing("integer key in state"))?;
        let tensor = |name: &str| -> Result<Option<RawTensor>> {
            match entry.get(name) {
                None => Ok(None),
                Some(v) => v
                    .as_tensor()
                    .ok_or_else(|| missing(&format!("tensor state[{index}][{name:?}]")))?
                    .to_raw()
                    .map(Some),
            }
        };
        let need =
            |name: &str| tensor(name)?.ok_or_else(|| missing(&format!("state[{index}][{name:?}]")));
        let step = match entry.get("step") {
            Some(Value::Tensor(t)) => t.tensor.view().to_dtype(DType::F64)?.view().item::<f64>()?,
            Some(v) => v
                .as_float()
                .or_else(|| v.as_int().map(|i| i as f64))
                .ok_or_else(|| missing(&format!("number state[{index}][\"step\"]")))?,
            None => return Err(missing(&format!("state[{index}][\"step\"]"))),
        };
        opt.set_state(
            index,
            step as u64,
            need("exp_avg")?,
            need("exp_avg_sq")?,
            tensor("max_exp_avg_sq")?,
        )?;
    }
    Ok(opt)
}
