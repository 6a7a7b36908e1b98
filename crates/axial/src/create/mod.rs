//! Constructors. A static shape needs no sizes (`zeros()`); a shape with
//! `Dyn` axes takes their sizes in the `_dyn` twin (`zeros_dyn(batch)`: a
//! `usize` for one `Dyn` axis, `[usize; N]` for several). The device is `D`'s
//! default (`Cpu`).

mod data;
mod fill;
mod random;
mod raw;

use axial_core::{Backend, Element, RawTensor};
use axial_shape::Shape;

pub use fill::Eye;

use crate::repr::Owned;
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Backend + Default> TensorBase<T, S, D, Owned<D>> {
    /// A contiguous 1-D tensor of `sizes`' element count, seen with `sizes`.
    fn contiguous_as(flat: RawTensor<D>, sizes: &[usize]) -> Self {
        let (storage, _, _) = flat.into_parts();
        Self::from_parts(Owned(storage), axial_core::Layout::contiguous(sizes))
    }
}
