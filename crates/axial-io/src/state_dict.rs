//! A model's state dict in PyTorch's structure, so a checkpoint crosses
//! between the two libraries both ways: [`state_dict`] gives the
//! `OrderedDict` of tensors by dotted path that `model.state_dict()` gives
//! (which [`torch::save`](crate::torch::save) writes as `torch.save` does,
//! and `model.load_state_dict(torch.load(path))` accepts), and
//! [`load_state_dict`] copies one into a model, with PyTorch's strict
//! checks and messages.
//!
//! ```
//! use axial::prelude::*;
//! use axial::autograd::{Module, Param, Registry};
//! use axial_io::{state_dict, torch};
//! axes!(In, Out);
//! struct Linear {
//!     weight: Param<f32, shape![Out: 2, In: 3]>,
//!     bias: Param<f32, shape![Out: 2]>,
//! }
//! impl Module for Linear {
//!     fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
//!         r.param("weight", &mut self.weight);
//!         r.param("bias", &mut self.bias);
//!     }
//! }
//! let mut a = Linear { weight: Param::new(Tensor::full(0.5)), bias: Param::new(Tensor::ones()) };
//! let bytes = torch::to_bytes(&state_dict::state_dict(&mut a)?)?;
//! let mut b = Linear { weight: Param::new(Tensor::zeros()), bias: Param::new(Tensor::zeros()) };
//! state_dict::load_state_dict(&mut b, torch::load_bytes(&bytes)?.value())?;
//! assert_eq!(b.weight.value().to_vec(), vec![0.5; 6]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use axial::autograd::Module;
use axial_core::Cpu;

use crate::{Dict, DictKind, Error, Result, StoredTensor, Value};

/// The state dict of `model`: each parameter under its dotted path, in
/// registration order, as an `OrderedDict` (a copy of each value, laid out
/// contiguously), as PyTorch's `model.state_dict()` gives it.
///
/// The model is borrowed mutably because its [`Module::register`] is one
/// walk that gives write access too; nothing is written.
///
/// # Errors
/// Copying a value failed (memory).
///
/// ```
/// use axial::prelude::*;
/// use axial::autograd::{Module, Param, Registry};
/// use axial_io::state_dict::state_dict;
/// struct Scale(Param<f32, shape![1]>);
/// impl Module for Scale {
///     fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
///         r.param("scale", &mut self.0);
///     }
/// }
/// let sd = state_dict(&mut Scale(Param::new(Tensor::ones())))?;
/// assert_eq!(sd.get("scale").unwrap().as_tensor().unwrap().shape(), &[1]);
/// # Ok::<(), axial_io::Error>(())
/// ```
pub fn state_dict<M: Module<Cpu> + ?Sized>(model: &mut M) -> Result<Value> {
    let mut sd = Dict::new(DictKind::OrderedDict);
    for (name, p) in model.named_parameters() {
        let (value, _) = p.parts();
        let copy = value.as_ref().to_contiguous()?;
        sd.insert(
            Value::from(name.as_str()),
            Value::tensor(StoredTensor::from_raw(copy)),
        );
    }
    Ok(Value::Dict(sd))
}

/// Copies the tensors of the state dict `sd` into `model`'s parameters by
/// their dotted paths, as PyTorch's `model.load_state_dict(sd)` (strict):
/// every parameter must have a tensor of its shape, and every tensor a
/// parameter; a tensor of another floating-point dtype is converted, as
/// PyTorch's `param.copy_(input)` converts it. Unlike PyTorch, which copies
/// what matches before it raises, nothing is copied when anything is wrong.
///
/// # Errors
/// [`Error::StateDict`], worded as PyTorch words it (`Missing key(s) in
/// state_dict: "fc.bias".`, `Unexpected key(s) in state_dict: …`, `size
/// mismatch for fc.weight: copying a param with shape torch.Size([3, 4])
/// from checkpoint, the shape in current model is torch.Size([4, 4]).`),
/// every problem listed; `sd` is not a mapping with string keys; a tensor
/// is of a dtype axial does not have.
///
/// ```
/// use axial::prelude::*;
/// use axial::autograd::{Module, Param, Registry};
/// use axial_io::{Value, state_dict::load_state_dict};
/// struct Scale(Param<f32, shape![1]>);
/// impl Module for Scale {
///     fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
///         r.param("scale", &mut self.0);
///     }
/// }
/// let err = load_state_dict(&mut Scale(Param::new(Tensor::ones())), &Value::ordered_dict([])).unwrap_err();
/// assert!(err.to_string().ends_with("Missing key(s) in state_dict: \"scale\". "));
/// ```
pub fn load_state_dict<M: Module<Cpu>>(model: &mut M, sd: &Value) -> Result<()> {
    let dict = sd.as_dict().ok_or_else(|| {
        Error::format(
            "state dict",
            "Expected state_dict to be dict-like, got another value",
        )
    })?;
    let mut params = model.named_parameters();
    let mut missing = Vec::new();
    let mut mismatches = Vec::new();
    let mut found = Vec::with_capacity(params.len());
    for (name, p) in params.iter_mut() {
        let (value, _) = p.parts();
        let Some(entry) = dict.get(name) else {
            missing.push(name.clone());
            found.push(None);
            continue;
        };
        let tensor = match entry {
            Value::Tensor(t) => &t.tensor,
            Value::Foreign(t) => {
                return Err(Error::UnsupportedDType {
                    format: "torch",
                    key: Some(name.clone()),
                    dtype: t.dtype.clone(),
                });
            }
            _ => {
                mismatches.push(format!(
                    "While copying the parameter named \"{name}\", expected torch.Tensor or Tensor-like object from checkpoint but received another value"
                ));
                found.push(None);
                continue;
            }
        };
        if tensor.shape() != value.shape() {
            mismatches.push(format!(
                "size mismatch for {name}: copying a param with shape {} from checkpoint, the shape in current model is {}.",
                torch_size(tensor.shape()),
                torch_size(value.shape())
            ));
            found.push(None);
            continue;
        }
        found.push(Some(tensor));
    }
    let mut unexpected = Vec::new();
    for (key, _) in &dict.items {
        let Some(key) = key.as_str() else {
            return Err(Error::format(
                "state dict",
                "a key that is not a string: a state dict maps dotted paths to tensors",
            ));
        };
        if !params.iter().any(|(n, _)| n == key) {
            unexpected.push(key.to_string());
        }
    }
    let mut messages = Vec::new();
    if !missing.is_empty() {
        messages.push(format!(
            "Missing key(s) in state_dict: {}. ",
            quoted(&missing)
        ));
    }
    if !unexpected.is_empty() {
        messages.push(format!(
            "Unexpected key(s) in state_dict: {}. ",
            quoted(&unexpected)
        ));
    }
    messages.extend(mismatches);
    if !messages.is_empty() {
        return Err(Error::StateDict {
            module: module_name::<M>(),
            messages,
        });
    }
    for ((_, p), tensor) in params.iter_mut().zip(found) {
        let Some(tensor) = tensor else { continue };
        let (mut value, _) = p.parts();
        let src = tensor.view();
        match src.dtype() == value.dtype() {
            true => value.copy_(&src)?,
            false => value.copy_(&src.to_dtype(value.dtype())?.view())?,
        }
    }
    Ok(())
}

/// `torch.Size([3, 4])`.
fn torch_size(shape: &[usize]) -> String {
    let sizes: Vec<String> = shape.iter().map(usize::to_string).collect();
    format!("torch.Size([{}])", sizes.join(", "))
}

/// `"a", "b"`.
fn quoted(keys: &[String]) -> String {
    let keys: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
    keys.join(", ")
}

/// The model's type name without its path and generics (PyTorch names the
/// module's class).
fn module_name<M>() -> String {
    let full = std::any::type_name::<M>();
    let base = full.split('<').next().unwrap_or(full);
    base.rsplit("::").next().unwrap_or(base).to_string()
}
