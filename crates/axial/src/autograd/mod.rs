//! Training: tracked tensors, their gradients, and PyTorch's in-place rule
//! checked while the program compiles.
//!
//! # Tracked tensors are a type
//!
//! A [`Var`] is a tensor that records the ops it goes through; a
//! [`Tensor`](crate::Tensor) is not, and costs nothing: inference code is
//! untracked code, unchanged. A leaf comes from a tensor
//! ([`track`](crate::TensorBase::track), a borrow) or a [`Param`] (a model's
//! trainable tensor with its gradient slot); [`Var::backward`] gives
//! [`Gradients`], and the gradient of a leaf is a tensor of that leaf's
//! type (names, sizes, dtype, device): [`Gradients::of`],
//! [`Gradients::of_tensor`], [`Gradients::of_param`].
//!
//! # PyTorch's in-place rule, as borrows
//!
//! PyTorch keeps some tensors for the backward pass and checks at
//! `backward()` that none was written in place since ("one of the variables
//! needed for gradient computation has been modified by an inplace
//! operation"). Which ones is each op's choice: `exp`, `sigmoid`, `tanh`,
//! `sqrt`, `rsqrt`, `relu`, `softmax`, `log_softmax` keep their output;
//! `log`, `pow`, `gelu`, `silu`, `var`, `layer_norm` their input; a product,
//! `matmul` and `linear` each operand when the other needs a gradient;
//! `div` its denominator; `amax`, `std` and `logsumexp` both. Here that
//! choice is each method's signature:
//!
//! - an op that keeps an input borrows it for as long as its result lives
//!   (the result's lifetime `'g` is the borrow's), so an in-place write into
//!   it is a borrow error until the graph is gone, which
//!   [`backward`](Var::backward), consuming the graph's output, makes it;
//! - an op that keeps its output gives a [`Kept`] tensor, which has no
//!   in-place ops; the others give [`Writable`] ones, which do, as in
//!   PyTorch (`x += residual`, `scores.masked_fill_(mask, -inf)`);
//! - an op without a derivative does not exist on a [`Var`] (no silent cut
//!   of the graph): its value is at [`value`](Var::value), its elements
//!   without history at [`detach`](Var::detach), and [`no_grad`] runs code
//!   that records nothing.
//! - the einops macros record the graph on a [`Var`]: `rearrange!` as its
//!   reshapes and permutation (views where einops' are, recorded copies
//!   otherwise), `repeat!` as an expand whose gradient sums the copies,
//!   `reduce!` by `sum`, `mean`, `max`, `min` (PyTorch's tie rule) or
//!   `prod` as the tracked reduction, and `einsum!` (tracked operands
//!   mixed with tensors) as permutes, sums and batched matmuls; `reduce!`
//!   by `any` or `all`, which have no derivative, does not compile on one.
//!   `max`, `min` and `prod` keep their output (a [`Kept`] result), as
//!   PyTorch saves it.
//!
//! So `let y = x.exp(); x.add_(1.0)` compiles (as PyTorch runs it) and `let
//! y = x.log(); x.add_(1.0)` does not (PyTorch's error at `backward`). A
//! borrow lasts until the tensors that hold it are dropped: compute a loss
//! in a function or a block, and the parameters are free again once
//! `backward` has run. Where only the run time can tell (a storage a file's
//! mapping or another owner shares, written behind the graph's back
//! through the core's API), the storage's version counter gives PyTorch's
//! error as an `Err` at `backward`, never a wrong gradient. Writes through
//! views whose elements overlap stay refused.
//!
//! Second-order gradients are not computed: the backward pass records
//! nothing. Convolution and transposed convolution, max, average,
//! adaptive and global pooling, batch norm (training and eval), group and
//! instance norm (with running statistics or without), `prelu`,
//! `hardswish` and `hardsigmoid` have derivatives on the CPU (their
//! forward ops are the CPU's), padding modes included.
//!
//! # Example
//! ```
//! use axial::prelude::*;
//! use axial::autograd::{CrossEntropy, Param};
//! axes!(Batch, In, Classes);
//! let mut w = Param::new(Tensor::<f64, shape![Classes: 3, In: 4]>::zeros());
//! let x = Tensor::<f64, shape![Batch: 2, In: 4]>::ones();
//! let labels = Tensor::<i64, shape![Batch: 2]>::from_array([0, 2]);
//! for _ in 0..10 {
//!     let mut grads = {
//!         let logits = x.linear_tracked(&w.var(), None);
//!         logits.cross_entropy::<Classes, _>(&labels, CrossEntropy::default()).backward()
//!     };
//!     grads.accumulate(&mut w);
//!     let g = w.take_grad().unwrap();
//!     *w.value_mut() -= &(g * 0.5);
//! }
//! assert!(w.value().get([1, 0]) < 0.0); // the class no item has is pushed down
//! ```

mod arith;
mod check;
mod cnn;
mod grads;
mod layers;
mod losses;
mod math;
mod module;
mod reduce;
mod var;
mod views;

pub use axial_core::autograd::{CrossEntropy, LeafId, Reduction, is_grad_enabled, no_grad};
pub use check::{GradcheckDtype, gradcheck};
pub use grads::{Gradients, Param};
pub use layers::{LinearWeight, MatmulRhs};
pub use losses::Target;
pub use module::{Module, Registry};
pub use var::{Access, Kept, Var, Writable, WriteInPlace};
