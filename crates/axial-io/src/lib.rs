//! axial-io: see the crate description.
