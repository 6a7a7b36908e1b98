//! The untyped runtime of axial: dtypes, strided storage and PyTorch's memory
//! model (storage, shape, strides, offset, zero-copy views), with CPU kernels.
//!
//! The typed `axial` crate wraps this; use it directly when shapes are only
//! known at run time.
//!
//! # Example
//! ```
//! use axial_core::{BinaryOp, DType, RawTensor, ReduceOp};
//! let x = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?;
//! let m = x.view().view(&[2, 3])?;
//! let t = m.t()?; // a view: strides (1, 3)
//! assert_eq!(t.strides(), &[1, 3]);
//! let y = t.binary(BinaryOp::Mul, &t)?;
//! let s = y.view().reduce(ReduceOp::Sum, &[0], false)?;
//! assert_eq!(s.to_vec::<f32>()?, vec![5.0, 50.0]);
//! # Ok::<(), axial_core::Error>(())
//! ```

pub mod autograd;
pub mod backend;
pub mod cpu;
pub mod device;
pub mod dtype;
pub mod einops;
pub mod element;
pub mod error;
pub mod float8;
mod generalized;
pub mod layout;
pub mod nn;
pub mod ops;
pub mod plan;
pub mod print;
pub mod scalar;
pub mod storage;
pub mod tensor;

pub use backend::{Arg, Backend, Input, Output};
pub use cpu::Cpu;
pub use device::Device;
pub use dtype::DType;
pub use element::{Bool, Element, Kind, cast};
pub use error::{Error, Result};
pub use generalized::{nested, quantized, sparse};
pub use layout::Layout;
pub use ops::{ArgReduceOp, BinaryOp, CmpOp, ReduceOp, UnaryOp, can_cast};
pub use scalar::Scalar;
pub use storage::Storage;
pub use tensor::{Generator, MaybeOwned, PadMode, RawTensor, Reduction, TensorMut, TensorRef};

#[doc(hidden)]
pub use half;
#[doc(hidden)]
pub use num_complex;
