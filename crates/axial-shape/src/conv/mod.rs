//! Convolution and pooling by axis name, with output lengths computed
//! while compiling.
//!
//! A window op names its axes: the channel axis and the spatial axes of a
//! convolution, the pooled axes of a pooling; they are found by name, so an
//! NCHW and an NHWC tensor are two types of one op. The hyper-parameters
//! are types ([`Conv`], [`Same`], [`SameWith`], [`TfSame`], [`ConvT`], [`Pool`]), so for
//! static sizes each output length, `(n + 2·pad − dil·(k − 1) − 1) / stride + 1`,
//! is a number the compiler knows: a layer after a flatten is checked
//! against the real feature count. `Dyn` sizes stay `Dyn` (checked at run
//! time), and a symbolic size stays its symbol where the rule keeps the
//! length.
//!
//! The mistakes PyTorch finds at run time are compile errors here
//! ([`report`]): in-channels that do not match, groups that do not divide,
//! a kernel larger than its padded axis, a pooling window that does not
//! fit, an axis the tensor lacks.
//!
//! ```
//! use axial_shape::conv::{Conv, ConvShape, Pool, PoolShape};
//! use axial_shape::{Shape, axes, shape};
//! axes!(N, C, H, W);
//! type Image = shape![N: 1, C: 3, H: 224, W: 224];
//! type Stem = <Image as ConvShape<C, (H, W), shape![64, 3, 7, 7], Conv<2, 3>>>::Output;
//! type Pooled = <Stem as PoolShape<(H, W), Pool<3, 2, 1>>>::Output;
//! let mut sizes = [None; 4];
//! Pooled::write_static_sizes(&mut sizes);
//! assert_eq!(sizes, [Some(1), Some(64), Some(56), Some(56)]);
//! ```

mod len;
pub mod report;
mod rules;
mod shape;

pub use len::{KeepSymbol, Keeps, Shown, StaticLength, Windowed};
pub use rules::{
    AxisPad, AxisRule, AxisWindow, Conv, ConvRule, ConvT, Mode, Padded, Pool, PoolRule, Same,
    SameWith, TfSame,
};
pub use shape::{
    AdaptiveShape, Chain, ConvShape, ConvTShape, Drop, GlobalShape, PadsHalf, PoolShape, SetSize,
    Without,
};
