//! Ops on typed tensors: elementwise (with broadcasting by name), in-place
//! twins and `copy_`, comparisons and `where` (`if_else`), reductions by
//! name, `matmul`, softmax, and the layers of models (`linear`,
//! `layer_norm`, `embedding`, `masked_fill`).
//! Each is an inherent method, with a `try_` twin that returns the run-time
//! errors `Dyn` sizes leave (the plain method panics with the same message).

mod activation;
mod arg;
mod arith;
mod attention;
mod binary;
mod compare;
pub(crate) mod conv;
mod copy;
mod dtype;
mod index;
mod join;
mod layers;
mod matmul;
mod mismatch;
mod norm2d;
mod operand;
mod pad;
pub(crate) mod pool;
mod promote;
mod reduce;
mod scan;
mod softmax;
mod topk;
mod triangle;
mod unary;

pub use arg::WithIndices;
pub use arith::AssignInto;
pub use attention::{Attended, Attention, AttentionMask};
pub use compare::{Chosen, Condition};
pub use dtype::{
    Addable, Clampable, Divisible, Logical, Magnitude, Number, Ordered, RealNumber, RealValued,
    ResultTypes, SameDType, Transcendental,
};
pub use index::Selected;
pub use join::{CatAll, Stacked};
pub use layers::AxisOf;
pub use operand::{OpShape, Operand};
pub use pad::{Pad, Padded};
pub use promote::{Promote, Promoted};
