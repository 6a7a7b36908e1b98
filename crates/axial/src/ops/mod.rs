//! Ops on typed tensors: elementwise (with broadcasting by name), in-place
//! twins and `copy_`, comparisons and `where` (`if_else`), reductions by
//! name, `matmul`, softmax, and the layers of models (`linear`,
//! `layer_norm`, `embedding`, `masked_fill`).
//! Each is an inherent method, with a `try_` twin that returns the run-time
//! errors `Dyn` sizes leave (the plain method panics with the same message).

mod activation;
mod arg;
mod arith;
mod binary;
mod compare;
mod conv;
mod copy;
mod dtype;
mod layers;
mod matmul;
mod mismatch;
mod norm2d;
mod operand;
mod pool;
mod promote;
mod reduce;
mod softmax;
mod unary;

pub use arg::WithIndices;
pub use arith::AssignInto;
pub use compare::{Chosen, Condition};
pub use dtype::{Number, ResultTypes, SameDType};
pub use layers::AxisOf;
pub use operand::{OpShape, Operand};
pub use promote::{Promote, Promoted};
