//! Generalized tensors over the strided core: quantized (affine integers),
//! sparse (COO and CSR) and nested (ragged batches, PyTorch's jagged layout).
//!
//! Each kind keeps its own runtime layout and checks what PyTorch leaves
//! unchecked: a zero or negative scale, sparse indices outside the shape,
//! nested offsets that decrease. These are `Err`s here, never garbage or an
//! access out of bounds. The kernels run on the CPU.

pub(crate) mod host;
pub mod nested;
pub mod quantized;
pub mod sparse;
