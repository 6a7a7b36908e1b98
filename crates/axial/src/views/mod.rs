//! Views by name. Each takes `self` and keeps the storage kind (a view of a
//! view is a view, an owned tensor stays owned); the shape type says what the
//! view is, and the layout is the core's op at the positions the names give.

mod align;
mod axis;
mod reshape;
mod sized;
mod strided;

pub(crate) use reshape::target_sizes;

use axial_core::{Layout, Result};

/// The layout of a view whose validity the shape types proved (positions
/// come from names, so no dim can be out of range).
#[track_caller]
pub(crate) fn proven(layout: Result<Layout>) -> Layout {
    match layout {
        Ok(layout) => layout,
        Err(e) => unreachable!("the shape types prove this view valid: {e}"),
    }
}
