//! The op table: every op of the core as a value, one file per family,
//! each op's rules, kernels and derivative side by side.
//!
//! An op value (a [`UnaryOp`], a [`Softmax`], a [`Matmul`], ...) carries:
//!
//! - its **name**, PyTorch's, which starts every error it gives;
//! - its **dtype rule** and **shape rule**, written once and run twice: by
//!   the tensor layer before it allocates (broadcasting, promotion, the
//!   output's shape) and by every device at its entry point (the operands
//!   it was handed). They are the one home of the op's error texts;
//! - its **kernels**: the CPU's (for the elementwise ops, the row of the
//!   table holds the element function itself; the others name the module
//!   of `cpu/` the CPU's [`Backend`](crate::Backend) calls) and the CUDA
//!   kernel's name and number ([`cuda`]), from which the header the `.cu`
//!   files include is generated;
//! - how a device may run it ([`Lowering`]): a **primitive** every device
//!   writes, or a **fused** op a device may run with a kernel of its own,
//!   in the compute dtype it chooses, whose default composes primitives;
//! - its **derivative** ([`Derivative`]), the slot the gradients fill.
//!
//! The elementwise ops are rows of one table each (the macros
//! `unary_table!`, `binary_table!` and `compare_table!`), read by every
//! consumer: the op's definition here, the CPU's kernels, the vectorised
//! functions, the CUDA header. Adding such an op is adding a row.

pub(crate) mod binary;
pub(crate) mod compare;
pub(crate) mod compose;
pub(crate) mod copy;
pub mod cuda;
pub(crate) mod index;
pub(crate) mod join;
pub(crate) mod matmul;
pub(crate) mod norm;
pub(crate) mod reduce;
pub(crate) mod scalar;
pub(crate) mod scan;
pub(crate) mod select;
pub(crate) mod softmax;
pub(crate) mod unary;

pub use binary::{BinaryOp, RhsRule};
pub use compare::CmpOp;
pub use copy::{Cast, Fill, can_cast};
pub use index::{Embedding, Gather, IndexSelect, check_index_dtype, checked_index};
pub use join::{Cat, Stack};
pub use matmul::{Addmm, Linear, Matmul, MatmulShapes};
pub use norm::LayerNorm;
pub use reduce::{ArgReduceOp, ReduceOp};
pub use scalar::checked_scalar;
pub use scan::Cumsum;
pub use select::{MaskedFill, Triangle, Where};
pub use softmax::{Softmax, SoftmaxShape};
pub use unary::{PowScalarKind, Resolved, UnaryOp};

pub(crate) use binary::binary_table;
pub(crate) use compare::compare_table;
pub(crate) use unary::unary_table;

/// An op's derivative: the gradient of its inputs from the gradient of its
/// output, written with forward ops. Each op has this slot beside its
/// forward rule; the gradients fill it.
///
/// # Example
/// ```
/// use axial_core::ops::{Derivative, Op};
/// use axial_core::UnaryOp;
/// assert_eq!(UnaryOp::Exp.info().derivative, Derivative::Missing);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Derivative {
    /// Not written yet: a tracked tensor cannot go through the op.
    Missing,
}

/// How devices run an op.
///
/// # Example
/// ```
/// use axial_core::ops::{Lowering, Op, Softmax};
/// use axial_core::UnaryOp;
/// assert_eq!(UnaryOp::Exp.info().lowering, Lowering::Primitive);
/// assert_eq!(Softmax { dim: 0, log: false }.info().lowering, Lowering::Fused);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lowering {
    /// A primitive: every device writes its kernel (a required method of
    /// [`Backend`](crate::Backend)).
    Primitive,
    /// A fused op: a device may run a kernel of its own, computing f16 and
    /// bf16 in the dtype it chooses; the default (a provided method of
    /// [`Backend`](crate::Backend)) composes primitives, f16 and bf16
    /// widened to f32.
    Fused,
    /// Written by the core with other ops; no device has a kernel of it.
    Composite,
}

/// What every op declares, whatever its family.
///
/// # Example
/// ```
/// use axial_core::ops::{Op, Matmul};
/// assert_eq!(Matmul.info().name, "matmul");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// PyTorch's name of the op, which starts each of its errors.
    pub name: &'static str,
    /// Whether every device writes a kernel of it.
    pub lowering: Lowering,
    /// Its derivative.
    pub derivative: Derivative,
}

/// An op of the table: a value that says what it is.
///
/// # Example
/// ```
/// use axial_core::ops::{Cumsum, Op};
/// assert_eq!(Cumsum { dim: 1 }.name(), "cumsum");
/// ```
pub trait Op: Copy + std::fmt::Debug {
    /// The op's name, lowering and derivative.
    fn info(&self) -> OpInfo;

    /// PyTorch's name of the op.
    fn name(&self) -> &'static str {
        self.info().name
    }
}
