//! What typical code needs: `use axial::prelude::*;`, with the bounds
//! generic code most often asks ([`Float`], [`OverAxis`], [`Distinct`]) and
//! [`Scope`] for model functions over symbolic sizes.
//!
//! ```
//! use axial::prelude::*;
//! axes!(Rows, Cols);
//! let m: Tensor<f32, shape![Rows: 2, Cols: 3]> = Tensor::zeros();
//! assert_eq!(m.names().as_slice(), &[Some("Rows"), Some("Cols")]);
//! ```

pub use crate::shape::Distinct;
pub use crate::shape::conv::{Conv, ConvT, Pool, Same, SameWith, TfSame};
pub use crate::{
    Anon, ArcTensor, Bool, Composed, Cpu, DType, Device, Dyn, Error, Float, Generator, New,
    OverAxis, Scope, Sym, Sz, Tensor, TensorBase, TensorCow, TensorView, TensorViewMut, Unnamed,
    axes, bf16, f16, names, scope, shape,
};
#[cfg(feature = "cuda")]
pub use crate::{Cuda, Stream};
pub use crate::{
    Nested, PerChannel, PerTensor, QInt8, QInt32, QUInt8, Quantized, SparseCoo, SparseCsr,
};
pub use crate::{
    einsum, rearrange, reduce, repeat, s, try_einsum, try_rearrange, try_reduce, try_repeat,
};
