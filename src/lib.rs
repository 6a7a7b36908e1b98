//! The axial suite: integration tests, compile-fail tests, examples and
//! benchmarks of the axial crates. Its one module, [`show`], holds the
//! printing helpers of the chapter's examples; the README below is compiled
//! and run as a doctest, so its examples stay true.
#![doc = include_str!("../README.md")]

pub mod show;
