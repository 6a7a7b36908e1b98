//! The compile errors: each trait here is a leaf, implemented only for the
//! answer that is fine (`B1`, or `Unknown` when a run-time check follows), so
//! a wrong program stops at one of them and rustc prints its message. The
//! messages name axes and shapes as tuples of names, never typenum numbers.
//!
//! Each is shown failing, with the compiler's full output, by a case of the
//! repository's `ui-tests/fail` (one per mistake).
//!
//! ```compile_fail
//! use axial_shape::{HasAxis, axes, shape};
//! axes!(Batch, Channels, Height);
//! fn select<S: HasAxis<A>, A>() {}
//! // error: tensor of shape `(Batch, Channels)` has no axis `Height`
//! select::<shape![Batch: 2, Channels: 3], Height>();
//! ```

pub use crate::ops::gather::{GatherNames, GatherRank, GatherSizes};
pub use crate::ops::join::{CatNames, CatRank, CatSizes};
pub use crate::ops::pick::{TopkFits, TriangleAxes, WindowFits, WindowStep};
pub use crate::sum::SameSymbolicSize;

/// The answer is true, or unknown until run time.
macro_rules! holds_or_unknown {
    ($trait:ident < $($p:ident),* > $(, const $c:ident)?) => {
        #[diagnostic::do_not_recommend]
        impl<$(const $c: usize,)? $($p),*> $trait<$($c,)? $($p),*> for $crate::logic::B1 {}
        #[diagnostic::do_not_recommend]
        impl<$(const $c: usize,)? $($p),*> $trait<$($c,)? $($p),*> for $crate::logic::Unknown {}
    };
}

mod broadcast;
mod construct;
mod contract;
mod names;
mod refine;
mod views;

pub use broadcast::*;
pub use construct::*;
pub use contract::*;
pub use names::*;
pub use refine::*;
pub use views::*;
