//! Nested tensors.
