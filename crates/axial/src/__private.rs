//! What the macros of `axial` expand to. Not a public API: its items may
//! change in any release.

pub use crate::einops::{
    EinsumCell, EinsumOperand, EinsumOperands, EinsumPart, Graph, Input, InputTensor, MeanElement,
    NoGraph, RecipeCell, Subject, Tracking, Untracked, einsum, einsum_operand, rearrange,
    rearrange_view, reduce_any, reduce_mean, reduce_prod, reduce_same, reduce_sum, repeat,
    repeat_view,
};
pub use crate::slicing::{SliceArg, Slices, inclusive_end, to_isize};
pub use axial_core::einops::{Operation, Reduction};
pub use axial_macros::{
    einsum as einsum_impl, rearrange as rearrange_impl, reduce as reduce_impl,
    repeat as repeat_impl, s as s_impl, try_einsum as try_einsum_impl,
    try_rearrange as try_rearrange_impl, try_reduce as try_reduce_impl,
    try_repeat as try_repeat_impl,
};
pub use axial_shape::einops::{
    Around, Axis, Group, Infer, Length, Operand, OutAxis, OutEllipsis, OutGroup, OutNew, Part,
    PartAxis, PartEllipsis, PartNew, Plain, SizedAxis, Unit, Unnamed,
};
pub use axial_shape::slicing::{At, DynIndex, DynRange, FromEnd, Full, Index, Open, Range};
pub use axial_shape::typenum::{B0, B1, UInt, UTerm, consts};
pub use axial_shape::{Ax, Cons, Dyn, Ellipsis, False, Nil, Sz, True};

/// The tensor of a `Result` (what the macros without `try_` give), panicking
/// with the error's message at the caller.
pub use crate::or_panic::or_panic;
