//! Reverse-mode gradients: [`Var`], a tensor that records the ops it goes
//! through, [`Var::backward`], which walks them back, and [`Gradients`],
//! what the walk gives each leaf. The formulas are the ops' own: each op of
//! [`crate::ops`] carries its [`Derivative`](crate::ops::Derivative) (what
//! its backward pass keeps) and a `backward` written with forward ops
//! beside its forward rule, so that every device that runs the forward ops
//! runs the gradients. This module holds the tape, the gradient store and
//! the reverse walk.
//!
//! # Design
//!
//! **The graph is the tensors'.** A [`Var`] holds its elements (a shared
//! storage, or one it borrows for `'g`), and the node of the op that made it:
//! the op's backward function, with what it keeps, and the edges to its
//! inputs' nodes. There is no tape object to pass around: the graph lives as
//! long as some tensor of it does, as PyTorch's. A [leaf](Var::leaf) is a
//! node without edges whose gradient is the walk's result, filed by its
//! [`LeafId`] (a parameter keeps its own id across steps).
//!
//! **The walk** ([`Var::backward`], which consumes the output and with it
//! the graph) counts the edges into each node, then runs each op's backward
//! function once all of its output's gradient has arrived, adding the
//! gradients of an input reached along several paths. A node is let go as
//! soon as it has run, so what it kept is freed during the walk. Gradients
//! in flight are views where they can be (the gradient of a transpose is a
//! transpose of the gradient, of a broadcast a sum, of `cat` a slice).
//! Second-order gradients are not computed: the walk records nothing.
//!
//! **What an op keeps** is PyTorch's choice for that op (its
//! `grad_fn._saved_*`): `exp`, `sigmoid`, `tanh`, `sqrt`, `rsqrt`, `relu`,
//! `softmax` and `log_softmax` keep their output; `log`, `pow`, `gelu`,
//! `silu`, `var`, `layer_norm`, `gather` their input; `matmul` and `linear`
//! each operand when the other needs a gradient, and so does a product;
//! `div` its denominator; `amax`, `std` and `logsumexp` both. The typed
//! layer (the `axial` crate's `Var`) turns this into borrows: an op that
//! keeps an input borrows it for as long as its result lives, and an op
//! that keeps its output gives a read-only result, so an in-place write
//! into a kept tensor does not compile.
//!
//! **In-place writes** ([`Var::binary_`], [`Var::unary_`], ...) follow
//! PyTorch: the history of the tensor written becomes the in-place op's,
//! whose first input is the tensor as it was; an op whose derivative reads
//! what the write overwrites keeps a copy first (PyTorch's
//! `original_self`). Each write bumps the storage's version (PyTorch's
//! version counter); a kept tensor remembers the version it had, and the
//! walk refuses one written since with PyTorch's error ("modified by an
//! inplace operation"), never a wrong gradient. A write into a storage
//! another tensor views (a view made with `&self`) is refused outright,
//! since it could not show through every alias; a storage only the graph
//! shares is copied before the write, and the graph finds out at the walk.
//! A leaf that needs a gradient cannot be written outside [`no_grad`].
//!
//! **No silent cuts.** An op without a derivative
//! ([`Derivative::None`](crate::ops::Derivative::None)) on a tensor that
//! needs a gradient is an error, not a result without history;
//! [`Var::detach`] and [`no_grad`] are the explicit ways out.
//!
//! # Example
//! ```
//! use axial_core::autograd::{CrossEntropy, Var};
//! use axial_core::{DType, Generator, RawTensor, UnaryOp};
//! let mut rng = Generator::seed(0);
//! let w = Var::leaf(RawTensor::randn(&[3, 4], DType::F32, &mut rng)?)?;
//! let x = Var::constant(RawTensor::randn(&[5, 4], DType::F32, &mut rng)?);
//! let labels = Var::constant(RawTensor::from_vec(vec![0i64, 2, 1, 1, 0], &[5])?);
//! let logits = x.linear(&w, None)?.unary(UnaryOp::Tanh)?;
//! let loss = logits.cross_entropy(&labels, CrossEntropy::default())?;
//! let grads = loss.backward()?;
//! let g = grads.get(w.leaf_id().unwrap()).unwrap();
//! assert_eq!(g.shape(), w.shape()); // the parameter's shape
//! # Ok::<(), axial_core::Error>(())
//! ```

mod check;
mod cnn;
mod elementwise;
mod engine;
mod grad;
mod index;
mod linalg;
mod mode;
mod nn;
mod node;
mod reduce;
mod var;
mod views;

pub use check::{F64, Jacobian, Tolerance, gradcheck, gradcheck_by, gradcheck_with};
pub use grad::{Grad, Gradients};
pub use mode::{is_grad_enabled, no_grad};
pub use nn::{CrossEntropy, Reduction};
pub use var::{LeafId, Var};
