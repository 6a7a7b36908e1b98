//! axial-io: storage formats and interop for axial.
//!
//! Interop without copies: [`ndarray`] views in both directions, DLPack
//! ([`dlpack`]) export and import; both give an [`Imported`] tensor over
//! memory another library owns.

mod imported;
pub use imported::Imported;

#[cfg(feature = "ndarray")]
pub mod ndarray;

#[cfg(feature = "dlpack")]
pub mod dlpack;
