//! Copies and fills, the primitives every other op rests on: `x.to(dtype)`
//! and `dst.copy_(src)` convert between any two dtypes as PyTorch does
//! (the CPU's `cpu/copy.rs`; CUDA's `copy_b<bytes>`, `transpose_b<bytes>`
//! and `cast_<from>_<to>`), `fill_` writes one value (`fill_b<bytes>`).

use super::{Derivative, Lowering, Op, OpInfo, Saves};
use crate::DType;

/// `x.to(dtype)`, and `dst.copy_(src)` into a tensor of `dtype`: a copy,
/// converted when the dtypes differ.
///
/// # Example
/// ```
/// use axial_core::{DType, ops::{Cast, Op}};
/// assert_eq!(Cast { dtype: DType::F16 }.name(), "to");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cast {
    /// The dtype of the result.
    pub dtype: DType,
}

impl Op for Cast {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "to",
            lowering: Lowering::Primitive,
            derivative: Derivative::Written(Saves::NOTHING),
        }
    }
}

impl Cast {
    /// The CUDA kernels: `copy_b<bytes>` and `transpose_b<bytes>` between
    /// one dtype, `cast_<from>_<to>` between two.
    pub const CUDA_KERNELS: [&'static str; 3] = ["copy", "transpose", "cast"];
}

/// `x.fill_(value)`: one value, converted to the dtype, into every element.
///
/// # Example
/// ```
/// use axial_core::ops::{Fill, Op};
/// assert_eq!(Fill.name(), "fill_");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fill;

impl Op for Fill {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "fill_",
            lowering: Lowering::Primitive,
            derivative: Derivative::Written(Saves::NOTHING),
        }
    }
}

impl Fill {
    /// The CUDA kernels, by element size (`fill_b<bytes>`).
    pub const CUDA_KERNEL: &'static str = "fill";
}

/// PyTorch's `canCast`: no float to integer, no non-bool to bool (what an
/// in-place op may store into its output).
///
/// ```
/// # use axial_core::{can_cast, DType};
/// assert!(can_cast(DType::I64, DType::I32));
/// assert!(!can_cast(DType::F32, DType::I64));
/// assert!(!can_cast(DType::I32, DType::Bool));
/// ```
pub fn can_cast(from: DType, to: DType) -> bool {
    let float_to_int = from.is_float() && !to.is_float();
    let to_bool = from != DType::Bool && to == DType::Bool;
    !float_to_int && !to_bool
}
