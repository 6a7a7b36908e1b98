#![forbid(unsafe_code)]
//! Type-level shapes of axial.
