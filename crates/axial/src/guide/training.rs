//! # Training, for PyTorch users
//!
//! | PyTorch | axial |
//! | --- | --- |
//! | `w = nn.Parameter(t)` | `let mut w = Param::new(t)` ([`Param`](crate::autograd::Param)) |
//! | `x.requires_grad_()` | `x.track()`: a [`Var`](crate::autograd::Var), which records its history |
//! | `loss.backward()` | `let mut grads = loss.backward()`: consumes the graph |
//! | `w.grad` | `grads.accumulate(&mut w); w.grad()`, or `grads.of_param(&w)`, of `w`'s type |
//! | `optimizer.step()` | `opt.step(&mut [&mut w, &mut b])?` ([`crate::optim`]) |
//! | `optimizer.zero_grad()` | `zero_grad(&mut [&mut w, &mut b])` (set to none) |
//! | `torch.no_grad()` | [`no_grad`](crate::autograd::no_grad), or the untracked tensors themselves |
//! | `x.detach()` | `x.detach()` (a copy without history) or `x.value()` (a view) |
//! | `optimizer.state_dict()` | `axial_io::optim::adam_state_dict(&opt)` (`sgd_state_dict` for SGD), saved with `axial_io::torch::save` |
//! | `class Net(nn.Module)` | `impl Module for Net` ([`Module`](crate::autograd::Module)): each parameter and submodule registered under its attribute name |
//! | `model.parameters()` | `model.parameters()`, the list `opt.step` and `zero_grad` take; `grads.accumulate_all(&mut params)` fills their gradients |
//! | `model.state_dict()`, `model.load_state_dict(sd)` | `axial_io::state_dict::state_dict(&mut model)`, `load_state_dict(&mut model, &sd)` (strict, PyTorch's messages) |
//! | `SGD([{"params": a, "lr": 0.1}, {"params": b}])` | `Sgd::with_groups([(config_a, n_a), (config_b, n_b)])`: a step's list holds each group's parameters in turn |
//!
//! ## The loop
//!
//! The forward pass is a function that borrows the parameters and returns
//! the loss; `backward` consumes it, so the borrows end there and the
//! optimizer may write the parameters.
//!
//! ```
//! use axial::prelude::*;
//! use axial::autograd::{CrossEntropy, Param, Var};
//! use axial::optim::{Adam, AdamConfig, Optimizer, zero_grad};
//! axes!(Batch, In, Hidden, Classes);
//!
//! struct Mlp {
//!     w1: Param<f32, shape![Hidden: 16, In: 4]>,
//!     b1: Param<f32, shape![Hidden: 16]>,
//!     w2: Param<f32, shape![Classes: 3, Hidden: 16]>,
//! }
//!
//! impl Mlp {
//!     fn loss<'a>(
//!         &'a self,
//!         x: &'a Tensor<f32, shape![Batch: 6, In: 4]>,
//!         y: &'a Tensor<i64, shape![Batch: 6]>,
//!     ) -> Var<'a, f32, shape![]> {
//!         let h = x.linear_tracked(&self.w1.var(), Some(&self.b1.var())).relu();
//!         h.linear(self.w2.var(), None).cross_entropy::<Classes, _>(y, CrossEntropy::default())
//!     }
//! }
//!
//! let mut rng = Generator::seed(0);
//! let mut model = Mlp {
//!     w1: Param::new(Tensor::randn(&mut rng) * 0.5),
//!     b1: Param::new(Tensor::zeros()),
//!     w2: Param::new(Tensor::randn(&mut rng) * 0.5),
//! };
//! let x = Tensor::<f32, shape![Batch: 6, In: 4]>::randn(&mut rng);
//! let y = Tensor::<i64, shape![Batch: 6]>::from_array([0, 1, 2, 0, 1, 2]);
//! let mut opt = Adam::adamw(AdamConfig { lr: 1e-2, ..AdamConfig::adamw() })?;
//! let first = model.loss(&x, &y).value().item();
//! for _ in 0..100 {
//!     let mut grads = model.loss(&x, &y).backward();
//!     zero_grad(&mut [&mut model.w1, &mut model.b1, &mut model.w2]);
//!     grads.accumulate(&mut model.w1);
//!     grads.accumulate(&mut model.b1);
//!     grads.accumulate(&mut model.w2);
//!     opt.step(&mut [&mut model.w1, &mut model.b1, &mut model.w2])?;
//! }
//! assert!(model.loss(&x, &y).value().item() < first / 4.0);
//! # Ok::<(), axial::Error>(())
//! ```
//!
//! `examples/digits` is this loop on scikit-learn's digits, step for step
//! with a PyTorch script.
//!
//! ## The in-place rule
//!
//! PyTorch saves some tensors for the backward pass and, at `backward()`,
//! refuses a graph whose saved tensor was written in place since. axial
//! refuses the program instead: an op that saves an input borrows it for as
//! long as its result lives, and an op that saves its output gives a
//! [`Kept`](crate::autograd::Kept) tensor, which has no in-place ops. What
//! is saved is PyTorch's choice per op:
//!
//! | saves | ops | so, after `y = op(x)` |
//! | --- | --- | --- |
//! | the output | `exp`, `sigmoid`, `tanh`, `sqrt`, `rsqrt`, `relu`, `softmax`, `log_softmax` | `x.add_(1.0)` compiles, `y.add_(1.0)` does not |
//! | the input | `log`, `pow`, `gelu`, `silu`, `var`, `layer_norm`, `matmul`, `linear` | `x.add_(1.0)` does not compile while `y` lives |
//! | both | `amax`, `logsumexp` | neither |
//! | a factor, when the other needs a gradient | `a * b` | with `b` untracked, `a.mul_(2.0)` compiles |
//! | the denominator | `a / b` | `a` may be written, `b` not |
//!
//! ```
//! use axial::prelude::*;
//! let x = Tensor::<f32, shape![3]>::from_array([0.5, 1.0, 2.0]);
//! let mut h = x.track() * 2.0;
//! let y = h.exp(); // exp keeps its output, not h
//! h.add_(1.0);     // as PyTorch runs it
//! let _ = (y + &h).sum_all().backward();
//! ```
//!
//! ```compile_fail
//! use axial::prelude::*;
//! let x = Tensor::<f32, shape![3]>::from_array([0.5, 1.0, 2.0]);
//! let mut h = x.track() * 2.0;
//! let y = h.as_kept().log(); // log keeps its input: h stays borrowed
//! h.add_(1.0);               // PyTorch: "modified by an inplace operation" at backward
//! let _ = y.sum_all().backward();
//! ```
//!
//! The einops macros take tracked tensors and record their steps, so
//! attention reads as it does untracked:
//!
//! ```
//! use axial::prelude::*;
//! axes!(Batch, Seq, Key, Heads, Head);
//! let x = Tensor::<f64, shape![Batch: 1, Seq: 2, 4]>::arange();
//! let xv = x.track();
//! let q = rearrange!(xv.clone(), "Batch Seq (Heads Head) -> Batch Heads Seq Head", Heads = 2);
//! let k = q.clone().rename::<Seq, Key>();
//! let scores = einsum!("Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key", q, k);
//! let loss = reduce!(scores, "Batch Heads Seq Key -> Batch", max).sum_all();
//! assert!(loss.backward().of(&xv).is_some());
//! ```
//!
//! A second `backward` through the same graph does not compile either
//! (`backward` consumed it), nor does an op without a derivative on a
//! tracked tensor (no silent cut of the graph: take
//! [`value`](crate::autograd::Var::value) or
//! [`detach`](crate::autograd::Var::detach) explicitly). Where only the run
//! time can tell (a storage shared with a file mapping), the storage's
//! version counter gives PyTorch's error as an `Err` at `backward`.
//!
//! ## Optimizers and schedules
//!
//! [`Sgd`](crate::optim::Sgd), [`Adam`](crate::optim::Adam) and AdamW take
//! PyTorch's hyper-parameters with its defaults and update in its order;
//! [`clip_grad_norm`](crate::optim::clip_grad_norm) and the schedules
//! ([`StepLr`](crate::optim::StepLr),
//! [`CosineAnnealingLr`](crate::optim::CosineAnnealingLr),
//! [`LinearLr`](crate::optim::LinearLr)) are PyTorch's too. An optimizer
//! keeps its state by the position of each parameter in the list given to
//! `step`, as PyTorch's `state` is by index: give the same list each time.
//!
//! ## State dicts
//!
//! `axial_io::optim::adam_state_dict` gives the optimizer's state in
//! PyTorch's structure (`state` by parameter index, `param_groups` with each
//! group's hyper-parameters), which `axial_io::torch::save` writes as
//! `torch.save` does, and which `torch.optim.AdamW.load_state_dict` takes;
//! `adam_from_state_dict` makes the optimizer again from a file PyTorch
//! saved; `sgd_state_dict` and `sgd_from_state_dict` do the same for SGD
//! (its `momentum_buffer`s).
//!
//! A model's state dict names each parameter by its path, as PyTorch's
//! does: a [`Module`](crate::autograd::Module) registers its parameters and
//! submodules under their attribute names (`r.module("attention", ..)`,
//! `r.modules("layer", ..)` for a list: `layer.0`, `layer.1`), so
//! `axial_io::state_dict::state_dict` gives `encoder.layer.0.attention.self.query.weight`
//! and the rest, which `model.load_state_dict(torch.load(path))` takes;
//! `axial_io::state_dict::load_state_dict` loads PyTorch's file, and a file
//! that does not fit is PyTorch's error (`Missing key(s) in state_dict:
//! ...`, `size mismatch for fc.weight: ...`), with nothing copied.
//!
//! Second-order gradients are not computed: the backward pass records
//! nothing.
