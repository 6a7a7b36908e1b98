//! Turning kernel operands into raw element pointers, after the checks that
//! make every later access in bounds.

use crate::{Cpu, DType, Element, Error, Input, Output, Result};

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

fn check_dtype<T: Element>(op: &'static str, dtype: DType) -> Result<()> {
    if T::DTYPE != dtype {
        return Err(Error::DTypeMismatch {
            op,
            expected: T::DTYPE,
            got: dtype,
        });
    }
    Ok(())
}

/// Refuses a storage whose memory is not aligned for `dtype` (foreign
/// memory can be anywhere; axial's own is 64-byte aligned), before a kernel
/// reads elements through a typed pointer.
pub(crate) fn check_aligned(
    op: &'static str,
    storage: &crate::Storage<Cpu>,
    dtype: DType,
) -> Result<()> {
    let addr = storage.data_ptr();
    if !addr.is_multiple_of(dtype.size()) {
        return Err(Error::invalid(
            op,
            format!(
                "the storage at {addr:#x} is not aligned for {dtype} ({} bytes); copy it first",
                dtype.size()
            ),
        ));
    }
    Ok(())
}

/// The output's base pointer, after checking its dtype, its alignment and
/// that its layout fits in its storage.
pub(crate) fn out_ptr<T: Element>(
    op: &'static str,
    out: &mut Output<'_, Cpu>,
) -> Result<SendPtr<T>> {
    check_dtype::<T>(op, out.dtype)?;
    out.layout
        .check_bounds(out.storage.len_of(out.dtype), out.dtype.size())?;
    check_aligned(op, out.storage, out.dtype)?;
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
    check_dtype::<T>(op, input.dtype)?;
    if input.layout.shape() != out.layout.shape() {
        return Err(Error::invalid(
            op,
            format!(
                "operand of shape {:?} given for an output of shape {:?}",
                input.layout.shape(),
                out.layout.shape()
            ),
        ));
    }
    let Some(storage) = input.storage else {
        input
            .layout
            .check_bounds(out.storage.len_of(input.dtype), input.dtype.size())?;
        check_aligned(op, out.storage, input.dtype)?;
        return Ok(SendPtr(out_base.0.cast::<T>()));
    };
    input
        .layout
        .check_bounds(storage.len_of(input.dtype), input.dtype.size())?;
    check_aligned(op, storage, input.dtype)?;
    Ok(SendPtr(storage.as_bytes().as_ptr().cast::<T>().cast_mut()))
}

/// Refuses a layout with a negative stride (which `Layout::from_parts` can
/// build), naming the op, before a kernel plans a walk over it.
pub(crate) fn check_strides(op: &'static str, layout: &crate::Layout) -> Result<()> {
    if layout.strides().iter().any(|&s| s < 0) {
        return Err(Error::invalid(
            op,
            format!(
                "negative strides are not supported, got {:?}",
                layout.strides()
            ),
        ));
    }
    Ok(())
}

/// The base pointer of an input whose shape is not the output's (a
/// reduction's source, a matmul operand), after checking its dtype, its
/// strides and its bounds. Such an input must have its own storage.
pub(crate) fn read_ptr<T: Element>(op: &'static str, input: &Input<'_, Cpu>) -> Result<SendPtr<T>> {
    check_dtype::<T>(op, input.dtype)?;
    check_strides(op, &input.layout)?;
    let Some(storage) = input.storage else {
        return Err(Error::invalid(op, "the input cannot be the output itself"));
    };
    input
        .layout
        .check_bounds(storage.len_of(input.dtype), input.dtype.size())?;
    check_aligned(op, storage, input.dtype)?;
    Ok(SendPtr(storage.as_bytes().as_ptr().cast::<T>().cast_mut()))
}
