#![forbid(unsafe_code)]
//! Compile-time typed tensors.
