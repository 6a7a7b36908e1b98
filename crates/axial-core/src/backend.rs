//! What a device computes: the kernel entry points, over operands that are
//! already broadcast to one shape and cast to the dtypes the op needs.
//!
//! The device-independent layer ([`crate::TensorRef`] and friends) does
//! broadcasting, promotion, output allocation and the overlap checks; a device
//! implements only the loops. What every device checks at its entry points is
//! here too, written once: each operand's dtype, shape and bounds
//! ([`Output::check`], [`Input::check_elementwise`], [`Input::check_source`]),
//! PyTorch's rules for an op and dtype ([`UnaryOp::resolve`],
//! [`BinaryOp::resolve`], [`ReduceOp::checked_plan`],
//! [`crate::op::matmul_plan`]), and the coalesced walks ([`crate::plan`]).

use crate::plan::check_no_negative_strides;
use crate::{
    ArgReduceOp, BinaryOp, CmpOp, DType, Device, Error, Layout, ReduceOp, Result, Scalar, Storage,
    UnaryOp,
};

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

/// The kernels of a device. Every method checks that each layout fits in its
/// storage before it reads or writes, and returns `Err` otherwise.
///
/// Users call these through [`crate::TensorRef`]'s methods, which broadcast,
/// promote and allocate; a device crate implements them.
///
/// # Example
/// ```
/// use axial_core::{Backend, Cpu, DType, Layout, Output, Scalar, Storage};
/// let mut s = Storage::from_slice(&[0.0f32; 2]);
/// // Three elements do not fit in a storage of two: an error, not a write.
/// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[3]), dtype: DType::F32 };
/// assert!(Cpu.fill(dst, Scalar::Float(1.0)).is_err());
/// ```
pub trait Backend: Device {
    /// `dst.copy_(src)`: same shapes; converts between any two dtypes.
    ///
    /// # Errors
    /// A layout outside its storage, shapes that differ, or a device failure.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let src = RawTensor::from_vec(vec![1.5f32, -2.5], &[2])?;
    /// let mut s = Storage::from_slice(&[0i64; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::I64 };
    /// Cpu.copy(src.view().input(), dst)?;
    /// assert_eq!(s.as_slice::<i64>()?, &[1, -2]); // truncated toward zero
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn copy(&self, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()>;

    /// `dst.fill_(value)`, the value converted to `dst`'s dtype.
    ///
    /// # Errors
    /// `dst`'s layout is outside its storage.
    ///
    /// ```
    /// # use axial_core::{Backend, Bool, Cpu, DType, Layout, Output, Scalar, Storage};
    /// let mut s = Storage::from_slice(&[Bool::FALSE; 3]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[3]), dtype: DType::Bool };
    /// Cpu.fill(dst, Scalar::Float(0.5))?;
    /// assert_eq!(s.as_slice::<Bool>()?, &[Bool::TRUE; 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn fill(&self, dst: Output<'_, Self>, value: Scalar) -> Result<()>;

    /// `dst = op(src)`: `src` and `dst` share a dtype (for
    /// [`UnaryOp::LogicalNot`], `dst` is bool).
    ///
    /// # Errors
    /// Wrong dtypes, a layout outside its storage, or shapes that differ.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, UnaryOp};
    /// let x = RawTensor::from_vec(vec![-1.0f32, 4.0], &[2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::F32 };
    /// Cpu.unary(UnaryOp::Abs, x.view().input(), dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[1.0, 4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn unary(&self, op: UnaryOp, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()>;

    /// `dst = op(lhs, rhs)`: all three share a dtype (for the logical ops,
    /// `dst` is bool); either operand may be a scalar ([`Arg`]).
    ///
    /// # Errors
    /// Wrong dtypes, a layout outside its storage, shapes that differ, or
    /// two scalars.
    ///
    /// ```
    /// # use axial_core::{Backend, BinaryOp, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let a = RawTensor::from_vec(vec![7i32, -7], &[2])?;
    /// let b = RawTensor::from_vec(vec![2i32, 2], &[2])?;
    /// let mut s = Storage::from_slice(&[0i32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::I32 };
    /// Cpu.binary(BinaryOp::FloorDiv, a.view().input().into(), b.view().input().into(), dst)?;
    /// assert_eq!(s.as_slice::<i32>()?, &[3, -4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn binary(
        &self,
        op: BinaryOp,
        lhs: Arg<'_, Self>,
        rhs: Arg<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = op(lhs, rhs)`: `lhs` and `rhs` share a dtype (either may be a
    /// scalar); `dst` is bool.
    ///
    /// # Errors
    /// Wrong dtypes, a layout outside its storage, shapes that differ, or
    /// two scalars.
    ///
    /// ```
    /// # use axial_core::{Backend, Bool, CmpOp, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let a = RawTensor::from_vec(vec![1.0f64, 5.0], &[2])?;
    /// let b = RawTensor::from_vec(vec![3.0f64, 3.0], &[2])?;
    /// let mut s = Storage::from_slice(&[Bool::FALSE; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::Bool };
    /// Cpu.compare(CmpOp::Lt, a.view().input().into(), b.view().input().into(), dst)?;
    /// assert_eq!(s.as_slice::<Bool>()?, &[Bool::TRUE, Bool::FALSE]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn compare(
        &self,
        op: CmpOp,
        lhs: Arg<'_, Self>,
        rhs: Arg<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = where(cond, a, b)`: `cond` is bool; `a`, `b`, `dst` share a dtype.
    ///
    /// # Errors
    /// Wrong dtypes, a layout outside its storage, or shapes that differ.
    ///
    /// ```
    /// # use axial_core::{Backend, Bool, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let cond = RawTensor::from_vec(vec![Bool::TRUE, Bool::FALSE], &[2])?;
    /// let a = RawTensor::from_vec(vec![1u8, 2], &[2])?;
    /// let b = RawTensor::from_vec(vec![8u8, 9], &[2])?;
    /// let mut s = Storage::from_slice(&[0u8; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::U8 };
    /// Cpu.select_where(cond.view().input(), a.view().input(), b.view().input(), dst)?;
    /// assert_eq!(s.as_bytes(), &[1, 9]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn select_where(
        &self,
        cond: Input<'_, Self>,
        a: Input<'_, Self>,
        b: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// Reduces `src` over `dims` into `dst`, whose layout is `src`'s shape with
    /// those dims of size 1; `dst`'s dtype is [`ReduceOp::output_dtype`].
    ///
    /// # Errors
    /// A dtype or shape of `dst` other than the above, a layout outside its
    /// storage, or a max/min over no elements.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, ReduceOp, Storage};
    /// let x = RawTensor::from_vec(vec![1i32, 2, 3, 4, 5, 6], &[2, 3])?;
    /// let mut s = Storage::from_slice(&[0i64; 2]); // sums of i32 are i64
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 1]), dtype: DType::I64 };
    /// Cpu.reduce(ReduceOp::Sum, x.view().input(), &[1], dst)?;
    /// assert_eq!(s.as_slice::<i64>()?, &[6, 15]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn reduce(
        &self,
        op: ReduceOp,
        src: Input<'_, Self>,
        dims: &[usize],
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// Index of the max/min along `dim` into the i64 `dst` (shape as in `reduce`).
    ///
    /// # Errors
    /// As [`Backend::reduce`].
    ///
    /// ```
    /// # use axial_core::{ArgReduceOp, Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let x = RawTensor::from_vec(vec![3.0f32, 9.0, 1.0, 7.0], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0i64; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1, 2]), dtype: DType::I64 };
    /// Cpu.arg_reduce(ArgReduceOp::ArgMax, x.view().input(), 0, dst)?;
    /// assert_eq!(s.as_slice::<i64>()?, &[0, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn arg_reduce(
        &self,
        op: ArgReduceOp,
        src: Input<'_, Self>,
        dim: usize,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = lhs @ rhs` for `[..., M, K] @ [..., K, N] -> [..., M, N]`, with the
    /// batch dims equal (already broadcast); one float dtype throughout.
    ///
    /// # Errors
    /// Shapes that do not chain, other dtypes, or a layout outside its storage.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let a = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let swap = RawTensor::from_vec(vec![0.0f32, 1.0, 1.0, 0.0], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::F32 };
    /// Cpu.matmul(a.view().input(), swap.view().input(), dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[2.0, 1.0, 4.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn matmul(
        &self,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = bias + lhs @ rhs` (PyTorch's `addmm`, batched): `bias` is
    /// already broadcast to `dst`'s shape (stride 0 where it repeats); the
    /// sum is folded into the product (no second pass over `dst`).
    ///
    /// # Errors
    /// As [`Backend::matmul`], and a bias of another shape or dtype.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let a = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let b = RawTensor::from_vec(vec![10.0f32, 20.0], &[2])?;
    /// let bias = b.view().expand(&[2, 2])?; // one bias per column
    /// let mut s = Storage::from_slice(&[0.0f32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::F32 };
    /// Cpu.addmm(bias.input(), a.view().input(), a.view().input(), dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[17.0, 30.0, 25.0, 42.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn addmm(
        &self,
        bias: Input<'_, Self>,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = softmax(src, dim)`, or `log_softmax` when `log` is set, fused
    /// over `dim`. Both operands contiguous, of one dtype the device
    /// computes in (f32 or f64 on the CPU; the core converts the others).
    ///
    /// # Errors
    /// Layouts or dtypes other than those, or a `dim` out of range.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let x = RawTensor::from_vec(vec![0.0f32, 0.0, 1.0, 1.0], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::F32 };
    /// Cpu.softmax(x.view().input(), 1, false, dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[0.5; 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn softmax(
        &self,
        src: Input<'_, Self>,
        dim: usize,
        log: bool,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// Layer normalisation of each row of `src` (`[rows, n]`, contiguous,
    /// the dtype the device computes in): `(x − mean)/√(var + eps)`, the
    /// biased variance, then `· weight + bias` (each `[n]`, contiguous, when
    /// given). Mean and variance come from one pass over the row.
    ///
    /// # Errors
    /// Shapes, layouts or dtypes other than those.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let x = RawTensor::from_vec(vec![1.0f32, 3.0], &[1, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1, 2]), dtype: DType::F32 };
    /// Cpu.layer_norm(x.view().input(), None, None, 0.0, dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[-1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn layer_norm(
        &self,
        src: Input<'_, Self>,
        weight: Option<Input<'_, Self>>,
        bias: Option<Input<'_, Self>>,
        eps: f64,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = src.index_select(dim, index)`: `index` is a 1-D i64 tensor and
    /// `dst` is `src`'s shape with `dim` of the index's length. Every index
    /// is checked first (negative ones count from the end): one out of
    /// range is an error and nothing is written (PyTorch's CPU kernel reads
    /// out of bounds for some of them).
    ///
    /// # Errors
    /// An index out of range, or shapes and dtypes other than those.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let table = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[3, 2])?;
    /// let ids = RawTensor::from_vec(vec![2i64, 0], &[2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::F32 };
    /// Cpu.index_select(table.view().input(), 0, ids.view().input(), dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[5.0, 6.0, 1.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn index_select(
        &self,
        src: Input<'_, Self>,
        dim: usize,
        index: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = src.gather(dim, index)`: `index` (i64) has `dst`'s shape and
    /// `dst[..., i, ...] = src[..., index[..., i, ...], ...]` along `dim`;
    /// the other dims of `index` are at most `src`'s. Every index is checked
    /// first.
    ///
    /// # Errors
    /// An index out of range, or shapes and dtypes other than those.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let x = RawTensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2])?;
    /// let idx = RawTensor::from_vec(vec![1i64, 1, 0, 1], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0i32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::I32 };
    /// Cpu.gather(x.view().input(), 1, idx.view().input(), dst)?;
    /// assert_eq!(s.as_slice::<i32>()?, &[2, 2, 3, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn gather(
        &self,
        src: Input<'_, Self>,
        dim: usize,
        index: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()>;

    /// `dst = cumsum(src, dim)`: running sums along `dim`, in `dst`'s dtype
    /// (`src` converted first when they differ).
    ///
    /// # Errors
    /// Shapes that differ, a `dim` out of range, or a bool `dst`.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let x = RawTensor::from_vec(vec![1i64, 2, 3, 4], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0i64; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::I64 };
    /// Cpu.cumsum(x.view().input(), 0, dst)?;
    /// assert_eq!(s.as_slice::<i64>()?, &[1, 2, 4, 6]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn cumsum(&self, src: Input<'_, Self>, dim: usize, dst: Output<'_, Self>) -> Result<()>;
}
