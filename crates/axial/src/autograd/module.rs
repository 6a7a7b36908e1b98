//! A model's parameters named by their path, as PyTorch's `state_dict()`
//! names them: [`Module`] says which parameters and submodules a model
//! has, under which names; [`Registry`] joins the names into dotted paths
//! (`encoder.layer.0.attention.self.query.weight`).

use axial_core::{Cpu, Device};

use crate::optim::Parameter;

/// A model: its parameters and submodules, each under its name, in the
/// order PyTorch registers them (the order of `__init__`'s assignments),
/// which is the order of [`named_parameters`](Module::named_parameters),
/// of a state dict and of the list an optimizer steps over.
///
/// The names are PyTorch's attribute names, so a checkpoint crosses
/// between the two libraries (`axial_io::state_dict`): a field's name in
/// Rust need not be its name in the state dict (BERT's `self` attention is
/// a keyword in Rust).
///
/// # Example
/// ```
/// use axial::prelude::*;
/// use axial::autograd::{Module, Param, Registry};
/// axes!(In, Out);
/// struct Linear {
///     weight: Param<f32, shape![Out: 2, In: 3]>,
///     bias: Param<f32, shape![Out: 2]>,
/// }
/// impl Module for Linear {
///     fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
///         r.param("weight", &mut self.weight);
///         r.param("bias", &mut self.bias);
///     }
/// }
/// struct Net {
///     layers: Vec<Linear>,
/// }
/// impl Module for Net {
///     fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
///         r.modules("layers", &mut self.layers);
///     }
/// }
/// let linear = || Linear { weight: Param::new(Tensor::zeros()), bias: Param::new(Tensor::zeros()) };
/// let mut net = Net { layers: vec![linear(), linear()] };
/// let names: Vec<String> = net.named_parameters().into_iter().map(|(n, _)| n).collect();
/// assert_eq!(names, ["layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias"]);
/// assert_eq!(net.parameters().len(), 4); // what an optimizer steps over
/// ```
pub trait Module<D: Device = Cpu> {
    /// Gives `r` each parameter ([`Registry::param`]) and submodule
    /// ([`Registry::module`], [`Registry::modules`]) under its name.
    fn register<'a>(&'a mut self, r: &mut Registry<'a, D>);

    /// The parameters with their dotted paths, in registration order
    /// (PyTorch's `named_parameters()`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::{Module, Param, Registry};
    /// struct Scale(Param<f32, shape![1]>);
    /// impl Module for Scale {
    ///     fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
    ///         r.param("scale", &mut self.0);
    ///     }
    /// }
    /// let mut m = Scale(Param::new(Tensor::ones()));
    /// assert_eq!(m.named_parameters()[0].0, "scale");
    /// ```
    fn named_parameters(&mut self) -> Vec<(String, &mut dyn Parameter<D>)> {
        let mut r = Registry::new();
        self.register(&mut r);
        r.entries
    }

    /// The parameters in registration order, as an optimizer's
    /// [`step`](crate::optim::Optimizer::step) takes them (PyTorch's
    /// `model.parameters()`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::{Module, Param, Registry};
    /// use axial::optim::zero_grad;
    /// struct Scale(Param<f32, shape![1]>);
    /// impl Module for Scale {
    ///     fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
    ///         r.param("scale", &mut self.0);
    ///     }
    /// }
    /// let mut m = Scale(Param::new(Tensor::ones()));
    /// *m.0.grad_mut() = Some(Tensor::ones());
    /// zero_grad(&mut m.parameters());
    /// assert!(m.0.grad().is_none());
    /// ```
    fn parameters(&mut self) -> Vec<&mut dyn Parameter<D>> {
        self.named_parameters()
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    }
}

/// Collects a [`Module`]'s parameters under their dotted paths: the names
/// of the submodules it went through, then the parameter's own.
///
/// ```
/// use axial::prelude::*;
/// use axial::autograd::{Param, Registry};
/// let mut p = Param::new(Tensor::<f32, shape![2]>::zeros());
/// let mut r = Registry::new();
/// r.param("bias", &mut p);
/// assert_eq!(r.names(), ["bias"]);
/// ```
pub struct Registry<'a, D: Device = Cpu> {
    prefix: String,
    entries: Vec<(String, &'a mut dyn Parameter<D>)>,
}

impl<D: Device> Default for Registry<'_, D> {
    fn default() -> Self {
        Registry {
            prefix: String::new(),
            entries: Vec::new(),
        }
    }
}

impl<'a, D: Device> Registry<'a, D> {
    /// An empty registry at the root (no prefix).
    ///
    /// ```
    /// use axial::autograd::Registry;
    /// assert!(Registry::<axial::Cpu>::new().names().is_empty());
    /// ```
    pub fn new() -> Self {
        Registry::default()
    }

    /// The parameter `param` under `name` (PyTorch's
    /// `register_parameter`, or an attribute that is an `nn.Parameter`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::{Param, Registry};
    /// let mut w = Param::new(Tensor::<f32, shape![2, 2]>::zeros());
    /// let mut r = Registry::new();
    /// r.param("weight", &mut w);
    /// assert_eq!(r.names(), ["weight"]);
    /// ```
    pub fn param(&mut self, name: &str, param: &'a mut dyn Parameter<D>) {
        self.entries.push((self.path(name), param));
    }

    /// The submodule `module` under `name`: its parameters' names begin
    /// with `name.`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::{Module, Param, Registry};
    /// struct Norm(Param<f32, shape![4]>);
    /// impl Module for Norm {
    ///     fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
    ///         r.param("weight", &mut self.0);
    ///     }
    /// }
    /// let mut norm = Norm(Param::new(Tensor::ones()));
    /// let mut r = Registry::new();
    /// r.module("LayerNorm", &mut norm);
    /// assert_eq!(r.names(), ["LayerNorm.weight"]);
    /// ```
    pub fn module(&mut self, name: &str, module: &'a mut dyn Module<D>) {
        let inner = self.path(name);
        let outer = std::mem::replace(&mut self.prefix, inner);
        module.register(self);
        self.prefix = outer;
    }

    /// The submodules `modules` under `name.0`, `name.1`, … (PyTorch's
    /// `nn.ModuleList` and `nn.Sequential`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::{Module, Param, Registry};
    /// struct Bias(Param<f32, shape![2]>);
    /// impl Module for Bias {
    ///     fn register<'a>(&'a mut self, r: &mut Registry<'a>) {
    ///         r.param("bias", &mut self.0);
    ///     }
    /// }
    /// let mut layers = [Bias(Param::new(Tensor::zeros())), Bias(Param::new(Tensor::zeros()))];
    /// let mut r = Registry::new();
    /// r.modules("layer", &mut layers);
    /// assert_eq!(r.names(), ["layer.0.bias", "layer.1.bias"]);
    /// ```
    pub fn modules<M: Module<D>>(&mut self, name: &str, modules: &'a mut [M]) {
        let inner = self.path(name);
        let outer = std::mem::replace(&mut self.prefix, inner);
        for (i, m) in modules.iter_mut().enumerate() {
            self.module(&i.to_string(), m);
        }
        self.prefix = outer;
    }

    /// The dotted paths registered so far, in order.
    ///
    /// ```
    /// use axial::autograd::Registry;
    /// assert_eq!(Registry::<axial::Cpu>::new().names().len(), 0);
    /// ```
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The parameters with their dotted paths, in registration order.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::autograd::{Param, Registry};
    /// let mut w = Param::new(Tensor::<f32, shape![2]>::zeros());
    /// let mut r = Registry::new();
    /// r.param("w", &mut w);
    /// assert_eq!(r.into_entries()[0].0, "w");
    /// ```
    pub fn into_entries(self) -> Vec<(String, &'a mut dyn Parameter<D>)> {
        self.entries
    }

    fn path(&self, name: &str) -> String {
        match self.prefix.is_empty() {
            true => name.to_string(),
            false => format!("{}.{name}", self.prefix),
        }
    }
}
