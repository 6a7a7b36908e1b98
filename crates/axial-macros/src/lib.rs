#![forbid(unsafe_code)]
//! Procedural macros of axial.
