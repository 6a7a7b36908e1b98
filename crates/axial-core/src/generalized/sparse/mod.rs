//! Sparse tensors.
