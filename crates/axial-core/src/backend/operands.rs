//! The operands of a kernel: what it reads ([`Input`], [`Arg`]) and writes
//! ([`Output`]), and what every device checks of them before it reads or
//! writes an element (dtypes, shapes, bounds, alignment), written once.

use crate::plan::check_no_negative_strides;
use crate::{DType, Device, Error, Layout, Result, Scalar, Storage};

/// An operand a kernel reads: a layout over a storage, or over the output's
/// own storage (an in-place op reading what it writes).
///
/// # Example
/// ```
/// use axial_core::{DType, Layout, RawTensor};
/// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
/// let operand = x.view().t()?.input();
/// assert_eq!(operand.layout, Layout::from_parts(&[2, 2], &[1, 2], 0));
/// assert_eq!(operand.dtype, DType::F32);
/// assert!(operand.storage.is_some_and(|s| s.same_as(x.storage())));
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct Input<'a, D: Device> {
    /// The storage, or `None` for the output's storage.
    pub storage: Option<&'a Storage<D>>,
    /// Where the elements are; the same shape as the output.
    pub layout: Layout,
    /// Their dtype.
    pub dtype: DType,
}

/// The operand a kernel writes.
///
/// # Example
/// ```
/// use axial_core::{Backend, Cpu, DType, Layout, Output, Scalar, Storage};
/// let mut s = Storage::from_slice(&[0i32; 4]);
/// // The even elements of the storage.
/// let dst = Output { storage: &mut s, layout: Layout::from_parts(&[2], &[2], 0), dtype: DType::I32 };
/// Cpu.fill(dst, Scalar::Int(7))?;
/// assert_eq!(s.as_slice::<i32>()?, &[7, 0, 7, 0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct Output<'a, D: Device> {
    /// The storage written.
    pub storage: &'a mut Storage<D>,
    /// Where the elements go; without internal overlap.
    pub layout: Layout,
    /// Their dtype.
    pub dtype: DType,
}

/// An operand of a binary op or a comparison: elements in memory, or one
/// value for every element (the `2.0` of `x * 2.0`), passed to the kernel as
/// an argument rather than allocated and filled.
///
/// A scalar takes the other operand's dtype: the kernel converts it as
/// [`Scalar::to`] does. At least one operand of a kernel is a tensor.
///
/// # Example
/// ```
/// use axial_core::{Arg, Backend, BinaryOp, Cpu, DType, Layout, Output, RawTensor, Scalar, Storage};
/// let x = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
/// let mut s = Storage::from_slice(&[0.0f32; 2]);
/// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::F32 };
/// // 10 - x, the scalar on the left.
/// Cpu.binary(BinaryOp::Sub, Arg::Scalar(Scalar::Float(10.0)), x.view().input().into(), dst)?;
/// assert_eq!(s.as_slice::<f32>()?, &[9.0, 8.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub enum Arg<'a, D: Device> {
    /// Elements of a tensor, of the output's shape.
    Tensor(Input<'a, D>),
    /// One value for every element.
    Scalar(Scalar),
}

impl<'a, D: Device> From<Input<'a, D>> for Arg<'a, D> {
    fn from(input: Input<'a, D>) -> Self {
        Arg::Tensor(input)
    }
}

impl<'a, D: Device> Arg<'a, D> {
    /// The tensor operand, or `None` for a scalar.
    ///
    /// ```
    /// # use axial_core::{Arg, Cpu, Scalar};
    /// assert!(Arg::<Cpu>::Scalar(Scalar::Int(1)).tensor().is_none());
    /// ```
    pub fn tensor(&self) -> Option<&Input<'a, D>> {
        match self {
            Arg::Tensor(t) => Some(t),
            Arg::Scalar(_) => None,
        }
    }

    /// The operand's dtype: a tensor's own, or `other`'s for a scalar (the
    /// dtype it takes).
    ///
    /// ```
    /// # use axial_core::{Arg, Cpu, DType, Scalar};
    /// assert_eq!(Arg::<Cpu>::Scalar(Scalar::Int(1)).dtype_or(DType::F16), DType::F16);
    /// ```
    pub fn dtype_or(&self, other: DType) -> DType {
        match self {
            Arg::Tensor(t) => t.dtype,
            Arg::Scalar(_) => other,
        }
    }

    /// The dtype of a pair of operands: the first tensor's (both scalars
    /// are refused).
    ///
    /// # Errors
    /// Neither operand is a tensor.
    ///
    /// ```
    /// # use axial_core::{Arg, Cpu, DType, RawTensor, Scalar};
    /// let x = RawTensor::from_vec(vec![1i8], &[1])?;
    /// let (a, b) = (Arg::<Cpu>::Scalar(Scalar::Int(2)), Arg::from(x.view().input()));
    /// assert_eq!(Arg::pair_dtype("add", &a, &b)?, DType::I8);
    /// assert!(Arg::pair_dtype("add", &a, &a).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn pair_dtype(op: &'static str, a: &Arg<'_, D>, b: &Arg<'_, D>) -> Result<DType> {
        match (a.tensor(), b.tensor()) {
            (Some(t), _) | (None, Some(t)) => Ok(t.dtype),
            (None, None) => Err(Error::invalid(op, "at least one operand must be a tensor")),
        }
    }
}

impl<D: Device> Output<'_, D> {
    /// Checks that the output has `dtype` and that its layout fits in its
    /// storage: what every kernel checks before it writes.
    ///
    /// # Errors
    /// Another dtype, or a layout past the storage.
    ///
    /// ```
    /// # use axial_core::{Cpu, DType, Layout, Output, Storage};
    /// let mut s = Storage::from_slice(&[0i32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[5]), dtype: DType::I32 };
    /// assert!(dst.check("fill_", DType::I32).is_err()); // five elements in four
    /// ```
    pub fn check(&self, op: &'static str, dtype: DType) -> Result<()> {
        check_dtype(op, dtype, self.dtype)?;
        self.layout
            .check_bounds(self.storage.len_of(self.dtype), self.dtype.size())?;
        check_aligned(op, self.storage, self.dtype)
    }
}

impl<D: Device> Input<'_, D> {
    /// Checks an elementwise input: its dtype is `dtype`, its shape the
    /// output's, and its layout fits in its storage (the output's storage,
    /// for an input that is the output itself).
    ///
    /// # Errors
    /// Another dtype or shape, or a layout past the storage.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Output, RawTensor, Storage};
    /// let x = RawTensor::from_vec(vec![1.0f32; 3], &[3])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::F32 };
    /// assert!(x.view().input().check_elementwise("neg", DType::F32, &dst).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check_elementwise(
        &self,
        op: &'static str,
        dtype: DType,
        out: &Output<'_, D>,
    ) -> Result<()> {
        check_dtype(op, dtype, self.dtype)?;
        if self.layout.shape() != out.layout.shape() {
            return Err(Error::invalid(
                op,
                format!(
                    "operand of shape {:?} given for an output of shape {:?}",
                    self.layout.shape(),
                    out.layout.shape()
                ),
            ));
        }
        let storage = self.storage.unwrap_or(&*out.storage);
        self.layout
            .check_bounds(storage.len_of(self.dtype), self.dtype.size())?;
        check_aligned(op, storage, self.dtype)
    }

    /// Checks an input whose shape is not the output's (a reduction's
    /// source, a matmul operand): its dtype is `dtype`, it has no negative
    /// stride and a storage of its own, and its layout fits in it.
    ///
    /// # Errors
    /// Any of those.
    ///
    /// ```
    /// # use axial_core::{DType, Input, Layout};
    /// let aliased = Input::<axial_core::Cpu> { storage: None, layout: Layout::contiguous(&[2]), dtype: DType::F32 };
    /// assert!(aliased.check_source("sum", DType::F32).is_err());
    /// ```
    pub fn check_source(&self, op: &'static str, dtype: DType) -> Result<&Storage<D>> {
        check_dtype(op, dtype, self.dtype)?;
        check_no_negative_strides(op, &self.layout)?;
        let Some(storage) = self.storage else {
            return Err(Error::invalid(op, "the input cannot be the output itself"));
        };
        self.layout
            .check_bounds(storage.len_of(self.dtype), self.dtype.size())?;
        check_aligned(op, storage, self.dtype)?;
        Ok(storage)
    }
}

/// Refuses a storage whose memory is not aligned for `dtype` (foreign memory
/// can be anywhere; axial's own is 64-byte aligned), before a kernel reads
/// elements through a typed pointer.
pub(crate) fn check_aligned<D: Device>(
    op: &'static str,
    storage: &Storage<D>,
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

fn check_dtype(op: &'static str, expected: DType, got: DType) -> Result<()> {
    if expected != got {
        return Err(Error::DTypeMismatch { op, expected, got });
    }
    Ok(())
}
