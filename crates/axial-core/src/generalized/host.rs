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

/// `t` with its elements contiguous from offset 0 in a storage of exactly
/// their size (copied unless it already is).
pub(crate) fn compact(t: RawTensor) -> Result<RawTensor> {
    let exact = t.storage().nbytes() == t.layout().numel() * t.dtype().size();
    if t.view().is_contiguous() && t.view().offset() == 0 && exact {
        return Ok(t);
    }
    t.view().to_contiguous()
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

/// Element arithmetic for the sparse and nested kernels: `f16` and `bf16`
/// computed in `f32` and rounded once per operation, `Bool` as logical
/// or/and (PyTorch's sum and product of booleans).
pub(crate) trait Num: Element {
    /// `self + other`.
    fn add(self, other: Self) -> Self;
    /// `self * other`.
    fn mul(self, other: Self) -> Self;
}

macro_rules! num_float {
    ($($t:ty),*) => {$(
        impl Num for $t {
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self + other
            }
            #[inline(always)]
            fn mul(self, other: Self) -> Self {
                self * other
            }
        }
    )*};
}
num_float!(f32, f64);

macro_rules! num_int {
    ($($t:ty),*) => {$(
        impl Num for $t {
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            #[inline(always)]
            fn mul(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
        }
    )*};
}
num_int!(u8, i8, i16, i32, i64, u16, u32, u64);

macro_rules! num_half {
    ($($t:ty),*) => {$(
        impl Num for $t {
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                <$t>::from_f32(self.to_f32() + other.to_f32())
            }
            #[inline(always)]
            fn mul(self, other: Self) -> Self {
                <$t>::from_f32(self.to_f32() * other.to_f32())
            }
        }
    )*};
}
num_half!(half::f16, half::bf16);

impl Num for crate::Bool {
    fn add(self, other: Self) -> Self {
        (self.get() || other.get()).into()
    }
    fn mul(self, other: Self) -> Self {
        (self.get() && other.get()).into()
    }
}

/// Runs `f` compiled for AVX2 when the instruction set in use has it, so
/// that the loops inlined into it use 256-bit vectors; else as built.
/// Rust never fuses a multiply and an add on its own, so both give the same
/// bits.
#[inline(always)]
pub(crate) fn vectorized<R>(f: impl FnOnce() -> R) -> R {
    crate::cpu::simd::avx2_loops(crate::cpu::simd::Site::Host, f)
}
