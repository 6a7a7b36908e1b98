//! The axial suite: integration tests, compile-fail tests, examples and
//! benchmarks of the axial crates. It has no API of its own; the README below
//! is compiled and run as a doctest, so its examples stay true.
#![doc = include_str!("../README.md")]
