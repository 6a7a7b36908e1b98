//! axial-cuda: see the crate description.
