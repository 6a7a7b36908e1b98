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
pub(crate) mod cnn;
pub(crate) mod compare;
pub(crate) mod compose;
pub(crate) mod copy;
pub mod cuda;
pub(crate) mod grad;
pub(crate) mod index;
pub(crate) mod join;
pub(crate) mod matmul;
pub(crate) mod norm;
pub(crate) mod optim;
pub(crate) mod reduce;
pub(crate) mod scalar;
pub(crate) mod scan;
pub(crate) mod scatter;
pub(crate) mod select;
pub(crate) mod softmax;
pub(crate) mod unary;

pub use binary::{BinaryOp, RhsRule};
pub use cnn::{
    AdaptiveAvgPool, AdaptiveMaxPool, AvgPool, BatchNorm, ChannelAffine, ConvArgs, Convolution,
    MaxPool, PoolArgs, PoolReduction, canonical_order,
};
pub use compare::CmpOp;
pub use copy::{Cast, Fill, can_cast};
pub use index::{Embedding, Gather, IndexSelect, check_index_dtype, checked_index};
pub use join::{Cat, Stack};
pub use matmul::{Addmm, Linear, Matmul, MatmulShapes};
pub use norm::LayerNorm;
pub use optim::AdamUpdate;
pub use reduce::{ArgReduceOp, LogSumExp, ReduceOp};
pub use scalar::checked_scalar;
pub use scan::Cumsum;
pub use scatter::ScatterAdd;
pub use select::{MaskedFill, Triangle, Where};
pub use softmax::{Softmax, SoftmaxShape};
pub use unary::{PowScalarKind, Resolved, UnaryOp};

pub(crate) use binary::binary_table;
pub(crate) use compare::compare_table;
pub(crate) use unary::unary_table;

/// An op's derivative: whether the op has one, and what its backward pass
/// keeps. The formula itself is the op's `backward`, written with forward
/// ops beside its forward rule in the op's file, so that every device that
/// runs the forward ops runs the gradients too.
///
/// What an op keeps is PyTorch's choice for that op (its
/// `grad_fn._saved_*`, checked against torch), because it decides which
/// tensors the graph holds until the backward pass: an in-place write into
/// one of them is PyTorch's "modified by an inplace operation" error, which
/// the typed `Var` of the `axial` crate turns into a borrow error.
///
/// # Example
/// ```
/// use axial_core::ops::{Derivative, Keep, Op, Saves};
/// use axial_core::{BinaryOp, UnaryOp};
/// // `exp` keeps its output, `log` its input: `x.add_(1)` after `y = x.exp()` is fine.
/// assert_eq!(UnaryOp::Exp.info().derivative, Derivative::Written(Saves::OUTPUT));
/// assert_eq!(UnaryOp::Log.info().derivative, Derivative::Written(Saves::INPUT));
/// // A product keeps each operand when the other needs a gradient.
/// let Derivative::Written(mul) = BinaryOp::Mul.info().derivative else { unreachable!() };
/// assert_eq!(mul.inputs, &[Keep::IfGradOf(1), Keep::IfGradOf(0)]);
/// // No derivative: a tracked tensor cannot go through the op.
/// assert_eq!(BinaryOp::FloorDiv.info().derivative, Derivative::None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Derivative {
    /// The op has no derivative (its result is discrete: comparisons,
    /// logical ops, indices, `floor_divide`), as in PyTorch: a tracked
    /// tensor cannot go through it.
    None,
    /// The op's `backward` computes its inputs' gradients, keeping what
    /// [`Saves`] lists.
    Written(Saves),
}

/// What an op keeps for its backward pass: each tensor operand (in the
/// order of the op's arguments) and its output.
///
/// # Example
/// ```
/// use axial_core::ops::{Keep, Saves};
/// assert_eq!(Saves::INPUT.inputs, &[Keep::Always]);
/// assert!(Saves::OUTPUT.output && !Saves::NOTHING.output);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Saves {
    /// Whether each operand is kept.
    pub inputs: &'static [Keep],
    /// Whether the output is kept.
    pub output: bool,
}

impl Saves {
    /// A one-operand op that keeps nothing (`neg`, `sum`, a view).
    pub const NOTHING: Saves = Saves {
        inputs: &[Keep::Never],
        output: false,
    };
    /// A one-operand op that keeps its input (`log`, `gelu`, `var`).
    pub const INPUT: Saves = Saves {
        inputs: &[Keep::Always],
        output: false,
    };
    /// A one-operand op that keeps its output (`exp`, `sigmoid`, `softmax`).
    pub const OUTPUT: Saves = Saves {
        inputs: &[Keep::Never],
        output: true,
    };
    /// A one-operand op that keeps both (`amax`, `logsumexp`, `std`).
    pub const BOTH: Saves = Saves {
        inputs: &[Keep::Always],
        output: true,
    };
    /// An op of any number of operands that keeps none of them (`cat`,
    /// `stack`): an operand past the end of `inputs` is never kept.
    pub const MANY: Saves = Saves {
        inputs: &[],
        output: false,
    };

    /// Whether operand `i` is kept, given which operands need a gradient.
    ///
    /// ```
    /// use axial_core::ops::Saves;
    /// assert!(Saves::INPUT.keeps(0, &[true]) && !Saves::MANY.keeps(3, &[true; 4]));
    /// ```
    pub fn keeps(&self, i: usize, needs: &[bool]) -> bool {
        self.inputs.get(i).is_some_and(|k| k.kept(needs))
    }

    /// Whether the output is kept, given which operands need a gradient.
    pub fn keeps_output(&self, needs: &[bool]) -> bool {
        self.output && needs.iter().any(|&n| n)
    }
}

/// Whether an op keeps one of its operands for the backward pass.
///
/// # Example
/// ```
/// use axial_core::ops::Keep;
/// // `x * w`: `x` is kept only when `w` needs a gradient.
/// assert!(Keep::IfGradOf(1).kept(&[true, false]) == false);
/// assert!(Keep::IfGradOf(0).kept(&[true, false]));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Never kept.
    Never,
    /// Always kept (when any operand needs a gradient).
    Always,
    /// Kept when the operand at this position needs a gradient (a product
    /// keeps each factor for the other's gradient).
    IfGradOf(usize),
}

impl Keep {
    /// Whether the operand is kept, given which operands need a gradient.
    pub fn kept(self, needs: &[bool]) -> bool {
        match self {
            Keep::Never => false,
            Keep::Always => needs.iter().any(|&n| n),
            Keep::IfGradOf(i) => needs.get(i).copied().unwrap_or(false),
        }
    }
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
    /// A provided method of [`Backend`](crate::Backend) with no composite
    /// (the convolutional ops of [`nn`](crate::nn)): the devices that have
    /// a kernel (the CPU, CUDA) write it, and the default refuses, naming
    /// the device.
    Kernel,
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
