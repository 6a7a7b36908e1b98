//! Turning kernel operands into raw element pointers, after the checks that
//! make every later access in bounds.

use crate::{Cpu, Element, Input, Output, Result};

/// A pointer that may cross threads: each thread touches disjoint elements.
#[derive(Copy, Clone)]
pub(crate) struct SendPtr<T>(pub(crate) *mut T);

// SAFETY: kernels split work so that no two threads write one element, and
// inputs are only read; the pointee outlives the parallel scope.
unsafe impl<T> Send for SendPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for SendPtr<T> {}

impl<T> SendPtr<T> {
    /// The pointer (a method, so closures capture the whole `SendPtr`).
    pub(crate) fn get(self) -> *mut T {
        self.0
    }
}

/// The output's base pointer, after checking its dtype and that its layout
/// fits in its storage.
pub(crate) fn out_ptr<T: Element>(
    op: &'static str,
    out: &mut Output<'_, Cpu>,
) -> Result<SendPtr<T>> {
    out.check(op, T::DTYPE)?;
    Ok(SendPtr(out.storage.as_bytes_mut().as_mut_ptr().cast::<T>()))
}

/// The output's base pointer as bytes, for inputs that alias it.
pub(crate) fn bytes<T>(p: SendPtr<T>) -> SendPtr<u8> {
    SendPtr(p.0.cast())
}

/// An input's base pointer, after checking its dtype, its shape against the
/// output's and its bounds. An input that aliases the output (no storage of
/// its own) reads through `out_base`, the output's pointer, so that reads and
/// writes share one provenance.
pub(crate) fn in_ptr<T: Element>(
    op: &'static str,
    input: &Input<'_, Cpu>,
    out: &Output<'_, Cpu>,
    out_base: SendPtr<u8>,
) -> Result<SendPtr<T>> {
    input.check_elementwise(op, T::DTYPE, out)?;
    Ok(match input.storage {
        None => SendPtr(out_base.0.cast::<T>()),
        Some(storage) => SendPtr(storage.as_bytes().as_ptr().cast::<T>().cast_mut()),
    })
}

/// The base pointer of an input whose shape is not the output's (a
/// reduction's source, a matmul operand), after checking its dtype, its
/// strides and its bounds. Such an input must have its own storage.
pub(crate) fn read_ptr<T: Element>(op: &'static str, input: &Input<'_, Cpu>) -> Result<SendPtr<T>> {
    let storage = input.check_source(op, T::DTYPE)?;
    Ok(SendPtr(storage.as_bytes().as_ptr().cast::<T>().cast_mut()))
}
