//! One bundle trait per view, each with a blanket impl: what a method's
//! `where` clause names. Each proves its op and gives the output shape and
//! the positions the run-time layout needs.
//!
//! # Example
//! What a method such as `transpose` names in its `where` clause, and what
//! it gets from it:
//! ```
//! use axial_shape::{HasAxis, Shape, Transpose, axes, shape};
//! axes!(Batch, Rows, Cols);
//! fn transpose<S: Transpose<A, B>, A, B>() -> [Option<&'static str>; 3] {
//!     let mut names = [None; 3];
//!     <S::Output as Shape>::write_names(&mut names);
//!     names
//! }
//! type S = shape![Batch: 8, Rows: 2, Cols: 3];
//! assert_eq!(transpose::<S, Rows, Cols>(), [Some("Batch"), Some("Cols"), Some("Rows")]);
//! assert_eq!(<S as HasAxis<Cols>>::POS, 2);
//! ```

mod align;
mod attend;
mod axis;
mod broadcast;
mod bundle;
mod distinct;
mod expand;
pub mod gather;
pub mod join;
mod matmul;
mod output;
pub mod pick;
mod realize;
mod reduce;
mod rename;
mod reshape;
mod sizes;
mod swap;
mod two;

pub use align::{AlignAs, AlignTo, Permute};
pub use attend::{Attend, SwapLast};
pub use axis::{HasAxis, IntoDyn, SelectAt, Squeeze, Unsqueeze};
pub use broadcast::{BroadcastOutput, BroadcastWith, Broadcasted, InPlace};
pub use bundle::OverAxis;
pub use distinct::Distinct;
pub use expand::ExpandTo;
pub use gather::{GatherBy, IndexAxis};
pub use join::{CatWith, ReplaceAxis, ResizeAxis, Resized};
pub use matmul::{MatMul, MatMulOut, MatMulOutput};
pub use output::{
    AlignAsOutput, AlignOutput, Aligned, AlignedAs, MergeOutput, Merged, RefineOutput, Refined,
};
pub use pick::{TopK, Triangle, UnfoldBy};
pub use realize::Realize;
pub use reduce::{AxesList, Reduce, ReduceOutput, Reduced, ReducedKeep};
pub use rename::{RefineNames, Rename};
pub use reshape::{Merge, ReshapeTo, Split};
pub use sizes::{DynSizes, ExtentIs, RankIs, SizesGiven, StaticShape};
pub use swap::{Transpose, TransposeT, TransposedT};
pub use two::{Diagonal, Unfold};

use crate::shape::Shape;

/// The display of a shape (what messages print).
pub(crate) type Disp<S> = <S as Shape>::Display;
/// The name of `A` as `S` spells it.
pub(crate) type FName<S, A> = <S as crate::find::Find<A, Disp<S>>>::Name;
/// The size of `A` in `S`.
pub(crate) type FSize<S, A> = <S as crate::find::Find<A, Disp<S>>>::Size;
/// The axes of `S` before `A`.
pub(crate) type FBefore<S, A> = <S as crate::find::Find<A, Disp<S>>>::Before;
/// The axes of `S` after `A`.
pub(crate) type FAfter<S, A> = <S as crate::find::Find<A, Disp<S>>>::After;
