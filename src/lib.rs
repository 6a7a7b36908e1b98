//! The axial suite: integration tests, compile-fail tests, examples and
//! benchmarks of the axial crates. It has no API of its own.
