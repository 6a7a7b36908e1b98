//! Host access shared by the generalized tensors: a CPU view's elements as a
//! slice, borrowed when the view is contiguous.

use std::borrow::Cow;

use crate::{Cpu, Element, Error, RawTensor, Result, TensorRef};

/// The elements of `t` in row-major order: borrowed from the storage when
/// `t` is contiguous, else copied.
pub(crate) fn elements<'a, T: Element>(
    op: &'static str,
    t: &TensorRef<'a, Cpu>,
) -> Result<Cow<'a, [T]>> {
    if T::DTYPE != t.dtype() {
        return Err(Error::DTypeMismatch {
            op,
            expected: T::DTYPE,
            got: t.dtype(),
        });
    }
    if !t.is_contiguous() {
        return t.to_vec().map(Cow::Owned);
    }
    let storage = t.storage();
    t.layout()
        .check_bounds(storage.len_of(t.dtype()), t.dtype().size())?;
    let all = storage.as_slice::<T>()?;
    let start = t.offset();
    Ok(Cow::Borrowed(&all[start..start + t.numel()]))
}

/// A new contiguous CPU tensor of `shape` and `T` elements, zeroed, then
/// written by `fill` (which sees the elements in row-major order).
pub(crate) fn build<T: Element>(
    shape: &[usize],
    fill: impl FnOnce(&mut [T]) -> Result<()>,
) -> Result<RawTensor> {
    let mut out = RawTensor::zeros(shape, T::DTYPE)?;
    fill(out.storage_mut().as_mut_slice::<T>()?)?;
    Ok(out)
}
