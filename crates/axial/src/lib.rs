#![forbid(unsafe_code)]
//! Compile-time typed tensors: rank, axis names, sizes, dtype and device in
//! the type, over the strided storage of [`axial_core`] with PyTorch's memory
//! model (storage, sizes, strides, offset; views never copy).
//!
//! ```
//! use axial::prelude::*;
//! axes!(Batch, Channels, Rows, Cols);
//!
//! type Images = shape![Batch: Dyn, Channels: 3, Rows: 28, Cols: 28];
//! let imgs = Tensor::<f32, Images>::zeros_dyn(2); // the size of Batch
//! let nhwc = imgs.as_view().align_to::<names![Batch, Rows, Cols, Channels]>();
//! assert_eq!(nhwc.strides().as_slice(), &[2352, 28, 1, 784]);
//! // Check the Dyn size once, then everything downstream is proven.
//! let fixed = imgs.realize::<shape![Batch: 2, Channels: 3, Rows: 28, Cols: 28]>()?;
//! let first = fixed.at::<Batch, 0>(); // index 2 would not compile
//! assert_eq!(first.sizes().as_slice(), &[3, 28, 28]);
//! # Ok::<(), axial::Error>(())
//! ```
//!
//! Ops follow PyTorch's semantics, with names in the proofs: operands
//! broadcast by name from the right, reductions and `matmul` take axes by
//! name, dtypes are equal (no implicit promotion), and float-only ops exist
//! only on floats. Each op is a method with a `try_` twin for what `Dyn`
//! sizes leave to run time, and an in-place `_` twin where the dtype stays.
//!
//! ```
//! use axial::prelude::*;
//! axes!(Batch, Features, Classes);
//! let x = Tensor::<f32, shape![Batch: 2, Features: 3]>::ones();
//! let w = Tensor::<f32, shape![Features: 3, Classes: 4]>::full(0.5);
//! let b = Tensor::<f32, shape![Classes: 4]>::zeros();
//! let logits = x.matmul(&w) + &b; // (Batch, Classes): Features contracted by name
//! let p = logits.softmax::<Classes>();
//! assert_eq!(p.sum::<Classes>().to_vec(), vec![1.0, 1.0]);
//! ```
//!
//! Mistakes PyTorch reports at run time are compile errors here, worded in
//! names: `sum::<Height>()` on a tensor without that axis reads
//! "tensor of shape `(Batch, Channels)` has no axis `Height`".
//!
//! Sizes known only at run time are `Dyn` (checked at each op) or symbols
//! ([`Sym`], bound once in a [`scope`] and proven after, see [`symbolic`]):
//! tensors of `[Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Model: 64]` add
//! and multiply with the proof at compile time.
//!
//! einops patterns and NumPy-style slices are checked while the program
//! compiles too ([`rearrange!`], [`reduce!`], [`repeat!`], [`einsum!`],
//! [`s!`]): a pattern einops refuses, or a left side that does not name the
//! tensor's axes, does not compile.
//!
//! ```
//! use axial::prelude::*;
//! axes!(Batch, Channels, Rows, Cols);
//! let x = Tensor::<f32, shape![Batch: 2, Channels: 3, Rows: 4, Cols: 4]>::zeros();
//! let flat = rearrange!(x.as_view(), "Batch Channels Rows Cols -> Batch (Channels Rows Cols)");
//! assert_eq!(flat.names().as_slice(), &[Some("Batch"), Some("(Channels Rows Cols)")]);
//! let corner = x.as_view().slice_s(s![.., 0, ..2, ..2]);
//! assert_eq!(corner.sizes().as_slice(), &[2, 2, 2]);
//! ```

#[doc(hidden)]
pub mod __private;
mod access;
pub mod autograd;
mod create;
#[cfg(feature = "cuda")]
mod cuda;
mod device;
mod display;
mod einops;
mod extent;
mod float;
pub mod guide;
pub mod loss;
mod meta;
mod nested_array;
mod ops;
pub mod optim;
mod or_panic;
pub mod prelude;
mod quantized;
mod ragged;
mod repr;
mod slicing;
mod sparse;
pub mod symbolic;
mod tensor;
mod views;

pub use access::OneElementShape;
pub use axial_core::cpu::Workspace;
pub use axial_core::float8::{F8E4M3Fn, F8E4M3FnUz, F8E5M2, F8E5M2FnUz};
pub use axial_core::layout::AxisIndex;
pub use axial_core::{Backend, Bool, Cpu, DType, Device, Element, Error, Generator, Result};
pub use axial_shape::{
    self as shape, Anon, AxisName, Composed, Dyn, GenericArray, New, OverAxis, Plus, Shape, Sym,
    Sz, Unnamed,
};
pub use axial_shape::{axes, names, shape};
pub use create::Eye;
#[cfg(feature = "cuda")]
pub use cuda::{Cuda, Event, Pinned, PinnedTensor, Stream};
pub use device::SameDevice;
pub use extent::{Extent, Extents, ExtentsFit, KeepRuntime, RuntimeAxes};
pub use float::Float;
pub use half::{bf16, f16};
pub use nested_array::NestedArray;
/// Complex numbers (`Complex<f32>` is PyTorch's `complex64`,
/// `Complex<f64>` its `complex128`).
pub use num_complex::Complex;
#[doc(hidden)]
pub use ops::AssignInto;
pub use ops::{
    Addable, Attended, Attention, AttentionMask, AxisOf, CatAll, Chosen, Clampable, Condition,
    Divisible, Logical, Magnitude, Number, OpShape, Operand, Ordered, Pad, Padded, Promote,
    Promoted, RealNumber, RealValued, ResultTypes, SameDType, Selected, Stacked, Transcendental,
    WithIndices,
};
pub use quantized::{
    Bf16, Dense, Fp32, Int8, LinearWeight, PackedLinear, PerChannel, PerTensor, Precision, QInt8,
    QInt32, QType, QUInt8, Quantized, QuantizedMatMul, QuantizedView, WeightScheme,
};
pub use ragged::{
    Batched, FixedAxes, FixedAxisFits, ItemAxis, ItemOf, LastAxis, Nested, NestedBuilder,
    NestedMatMulOut, NestedProduct, NotBatch, Pick, ProductNames, ProductResult, RaggedAxisFits,
    RaggedPair, RaggedShape, RaggedSingle, ReduceKind, ReduceNested, Renamed, WithItems,
};
pub use repr::{Broadcast, CowRepr, Data, DataMut, Owned, Shared, View, ViewMut};
pub use slicing::Slices;
pub use sparse::{DenseAxes, HybridShape, SparseCoo, SparseCsr};
pub use symbolic::{Scope, scope};
pub use tensor::{
    ArcTensor, BroadcastTensor, Tensor, TensorBase, TensorCow, TensorView, TensorViewMut,
};
