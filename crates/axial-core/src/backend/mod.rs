//! What a device computes: the kernel entry points ([`Backend`]), over
//! operands that are already broadcast to one shape and cast to the
//! dtypes the op needs ([`Input`], [`Output`], [`Arg`]).
//!
//! The device-independent layer ([`crate::TensorRef`] and friends) does
//! broadcasting, promotion, output allocation and the overlap checks; a
//! device implements the primitives' loops, and kernels of its own for the
//! fused ops where it has faster ones. What every device checks at its
//! entry points is written once: the operands' dtypes, shapes and bounds
//! ([`Output::check`], [`Input::check_elementwise`],
//! [`Input::check_source`]), and each op's rules ([`crate::ops`]).

mod operands;

pub(crate) use operands::check_aligned;
pub use operands::{Arg, Input, Output};

use crate::ops::{
    AdamUpdate, Addmm, ChannelAffine, ConvArgs, IndexSelect, LayerNorm, PoolArgs, ScatterAdd,
    Softmax,
};
use crate::{
    ArgReduceOp, BinaryOp, CmpOp, Device, Error, RawTensor, ReduceOp, Result, Scalar, TensorRef,
    UnaryOp,
};

/// The kernels of a device: the primitives every device writes, and the
/// fused ops it may run with kernels of its own (provided methods, whose
/// defaults compose the primitives: [`crate::ops`] has each op's
/// `composite`). Every method checks its operands (each layout fits in its
/// storage; the op's rules, [`crate::ops`]) before it reads or writes, and
/// returns `Err` otherwise.
///
/// Users call these through [`crate::TensorRef`]'s methods, which broadcast,
/// promote and allocate; a device crate implements them. A device chooses
/// the dtype it computes a fused op in: f16 and bf16 reach its kernels as
/// they are (the defaults widen them to f32).
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

    // ---- fused ops, with defaults that compose the primitives ----

    /// `dst = bias + lhs @ rhs` (PyTorch's `addmm`, batched): `bias` is
    /// already broadcast to `dst`'s shape (stride 0 where it repeats). The
    /// default adds it after the product ([`Addmm::composite`]); a device
    /// may fold it into the product.
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
    ) -> Result<()> {
        Addmm.composite(self, bias, lhs, rhs, dst)
    }

    /// `dst = softmax(src)` along `op.dim`, or `log_softmax` when `op.log`
    /// is set: one shape and float dtype for both, any layouts. The default
    /// composes primitives ([`Softmax::composite`]).
    ///
    /// # Errors
    /// As [`Softmax::check`], or a device failure.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, ops::Softmax};
    /// let x = RawTensor::from_vec(vec![0.0f32, 0.0, 1.0, 1.0], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::F32 };
    /// Cpu.softmax(Softmax { dim: 1, log: false }, x.view().input(), dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[0.5; 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn softmax(&self, op: Softmax, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        op.composite(self, src, dst)
    }

    /// Layer normalisation of each row of `src` (`[rows, n]`, the dtype of
    /// `dst`, any layout): `(x − mean)/√(var + op.eps)` with the biased
    /// variance, then `· weight + bias` (each `[n]`, when given). The
    /// default composes primitives ([`LayerNorm::composite`]).
    ///
    /// # Errors
    /// As [`LayerNorm::check`], or a device failure.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, ops::LayerNorm};
    /// let x = RawTensor::from_vec(vec![1.0f32, 3.0], &[1, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1, 2]), dtype: DType::F32 };
    /// Cpu.layer_norm(LayerNorm { eps: 0.0 }, x.view().input(), None, None, dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[-1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn layer_norm(
        &self,
        op: LayerNorm,
        src: Input<'_, Self>,
        weight: Option<Input<'_, Self>>,
        bias: Option<Input<'_, Self>>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        op.composite(self, src, weight, bias, dst)
    }

    /// `dst = src.index_select(dim, index)`: `index` is a 1-D i64 tensor and
    /// `dst` is `src`'s shape with `dim` of the index's length. Every index
    /// is checked first (negative ones count from the end): one out of
    /// range is an error and nothing is written (PyTorch's CPU kernel reads
    /// out of bounds for some of them). The default is a [`Backend::gather`]
    /// with the index broadcast ([`IndexSelect::composite`]).
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
    ) -> Result<()> {
        IndexSelect { dim }.composite(self, src, index, dst)
    }

    /// `dst[..., index[p], ...] += src[p]` along `op.dim` for every position
    /// `p` of `index` (PyTorch's `scatter_add_`): `index` (i64) has `src`'s
    /// shape and is no larger than `dst` off the dim. Every index is checked
    /// first. What the gradients of `gather`, `index_select` and overlapping
    /// views are made of. The default compares the index with each position
    /// and multiplies ([`ScatterAdd::composite`]).
    ///
    /// # Errors
    /// An index out of range, or shapes and dtypes other than those.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, ops::ScatterAdd};
    /// let src = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3])?;
    /// let idx = RawTensor::from_vec(vec![1i64, 0, 1], &[3])?;
    /// let mut s = Storage::from_slice(&[10.0f32, 20.0]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::F32 };
    /// Cpu.scatter_add(ScatterAdd { dim: 0 }, dst, idx.view().input(), src.view().input())?;
    /// assert_eq!(s.as_slice::<f32>()?, &[12.0, 24.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn scatter_add(
        &self,
        op: ScatterAdd,
        dst: Output<'_, Self>,
        index: Input<'_, Self>,
        src: Input<'_, Self>,
    ) -> Result<()> {
        op.composite(self, dst, index, src)
    }

    /// `dst = conv(x, weight) + bias` (PyTorch's `aten::convolution`, not
    /// transposed, zero padding): `x` and `dst` have their channel and
    /// spatial dims where `op` says, the weight is `[out, in / groups,
    /// k...]`, the bias `[out]`; one dtype for all, f32 or f64 (the tensor
    /// layer widens f16 and bf16). Every element of `dst` is written. A
    /// kernel with no composite ([`Lowering::Kernel`](crate::ops::Lowering)):
    /// the default refuses.
    ///
    /// # Errors
    /// Operands that disagree with `op` or each other, or a device with no
    /// convolution kernel.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, ops::ConvArgs};
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[1, 1, 3])?;
    /// let w = RawTensor::from_vec(vec![1.0f32, 10.0], &[1, 1, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1, 1, 2]), dtype: DType::F32 };
    /// Cpu.conv(&ConvArgs::new(1, &[2]), x.view().input(), w.view().input(), None, dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[21.0, 32.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn conv(
        &self,
        op: &ConvArgs,
        x: Input<'_, Self>,
        weight: Input<'_, Self>,
        bias: Option<Input<'_, Self>>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        let _ = (op, x, weight, bias, dst);
        Err(no_kernel(self, "conv"))
    }

    /// `dst = conv_transpose(x, weight) + bias`: the adjoint of
    /// [`Backend::conv`], the weight `[in, out / groups, k...]`; `op.pad`
    /// is the padding removed before each dim, `op.clamp` is not applied.
    ///
    /// # Errors
    /// As [`Backend::conv`].
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, ops::ConvArgs};
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0], &[1, 1, 2])?;
    /// let w = RawTensor::from_vec(vec![1.0f32, 10.0], &[1, 1, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 3]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1, 1, 3]), dtype: DType::F32 };
    /// Cpu.conv_transpose(&ConvArgs::new(1, &[2]), x.view().input(), w.view().input(), None, dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[1.0, 12.0, 20.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn conv_transpose(
        &self,
        op: &ConvArgs,
        x: Input<'_, Self>,
        weight: Input<'_, Self>,
        bias: Option<Input<'_, Self>>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        let _ = (op, x, weight, bias, dst);
        Err(no_kernel(self, "conv_transpose"))
    }

    /// Max or average pooling of `x` into `dst` (same dtype, f32 or f64;
    /// the channel and pooled dims where `op` says), and for max pooling
    /// the flat index of each maximum in its input plane into `indices`
    /// (i64, `dst`'s shape), when given. Every element is written.
    ///
    /// # Errors
    /// Operands that disagree with `op` or each other, or a device with no
    /// pooling kernel.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// # use axial_core::ops::{PoolArgs, PoolReduction};
    /// let x = RawTensor::from_vec(vec![1.0f32, 5.0, 3.0, 2.0], &[1, 4])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1, 2]), dtype: DType::F32 };
    /// Cpu.pool(&PoolArgs::new(Some(0), &[1], &[2], PoolReduction::Max), x.view().input(), dst, None)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[5.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn pool(
        &self,
        op: &PoolArgs,
        x: Input<'_, Self>,
        dst: Output<'_, Self>,
        indices: Option<Output<'_, Self>>,
    ) -> Result<()> {
        let _ = (op, x, dst, indices);
        Err(no_kernel(self, "pool"))
    }

    /// `dst = x·scale[c] + shift[c]` per channel `c` (`scale` and `shift`
    /// hold one value per channel, or one per batch item and channel), `x`
    /// and `dst` of one shape and dtype (f32 or f64), each value of `scale`
    /// and `shift` rounded to that dtype first: batch norm in inference,
    /// and the last step of group and instance norm.
    ///
    /// # Errors
    /// Operands that disagree with `op`, scales of another count, or a
    /// device with no such kernel.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, ops::ChannelAffine};
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::F32 };
    /// let op = ChannelAffine { channel: 1, spatial: vec![] };
    /// Cpu.channel_affine(&op, x.view().input(), &[2.0, 10.0], &[0.5, 0.0], dst)?;
    /// assert_eq!(s.as_slice::<f32>()?, &[2.5, 20.0, 6.5, 40.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn channel_affine(
        &self,
        op: &ChannelAffine,
        x: Input<'_, Self>,
        scale: &[f64],
        shift: &[f64],
        dst: Output<'_, Self>,
    ) -> Result<()> {
        let _ = (op, x, scale, shift, dst);
        Err(no_kernel(self, "channel_affine"))
    }

    /// One Adam or AdamW step ([`AdamUpdate`]) of `param`, with its running
    /// averages `exp_avg` and `exp_avg_sq`, in place and in one pass: a
    /// fused op whose composition of primitives lives with the optimizer
    /// (`axial::optim::Adam`), which runs it wherever this returns
    /// `Ok(false)`. The default has no kernel (`Ok(false)`, nothing
    /// written); the CPU's takes contiguous f32 and f64 operands of one
    /// shape.
    ///
    /// # Errors
    /// A device failure.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, RawTensor, ops::AdamUpdate};
    /// let op = AdamUpdate { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8,
    ///     weight_decay: 0.0, decoupled: false, maximize: false, step: 1.0 };
    /// let g = RawTensor::from_vec(vec![1.0f32], &[1])?;
    /// let [mut p, mut m, mut v] = [0.0f32; 3].map(|x| RawTensor::from_vec(vec![x], &[1]).unwrap());
    /// let (pv, mv, vv) = (p.view_mut(), m.view_mut(), v.view_mut());
    /// assert!(op.fused(&mut { pv }, &g.view(), &mut { mv }, &mut { vv })?);
    /// assert!((p.to_vec::<f32>()?[0] + 0.1).abs() < 1e-6);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn adam_update(
        &self,
        op: &AdamUpdate,
        param: Output<'_, Self>,
        grad: Input<'_, Self>,
        exp_avg: Output<'_, Self>,
        exp_avg_sq: Output<'_, Self>,
    ) -> Result<bool> {
        let _ = (op, param, grad, exp_avg, exp_avg_sq);
        Ok(false)
    }

    /// `dst = g · op′(x)`: the input gradient of an elementwise op from
    /// its input `x` and its output's gradient `g`, in one pass: a fused
    /// form of the derivative that the op table composes of primitives
    /// (`UnaryOp::backward`), which runs wherever this returns `Ok(false)`.
    /// The default has no kernel (`Ok(false)`, nothing written); the CPU's
    /// takes the exact and the tanh GELU and SiLU over contiguous f32
    /// operands of one shape.
    ///
    /// # Errors
    /// A device failure.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, UnaryOp};
    /// let x = RawTensor::from_vec(vec![0.0f32, 100.0], &[2])?;
    /// let g = RawTensor::from_vec(vec![2.0f32, 3.0], &[2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2]), dtype: DType::F32 };
    /// assert!(Cpu.unary_backward(UnaryOp::Gelu, x.view().input(), g.view().input(), dst)?);
    /// assert_eq!(s.as_slice::<f32>()?, &[1.0, 3.0]); // GELU′(0) = ½, GELU′(100) = 1
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn unary_backward(
        &self,
        op: UnaryOp,
        x: Input<'_, Self>,
        g: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<bool> {
        let _ = (op, x, g, dst);
        Ok(false)
    }

    /// `dst = y·(g − Σ g·y)` for softmax, `g − exp(y)·Σ g` for
    /// log-softmax (the sums along `op.dim`): the input gradient from the
    /// op's output `y` and its gradient `g`, one pass per slice, a fused
    /// form of the composed derivative (`Softmax`'s), which runs wherever
    /// this returns `Ok(false)`. The default has no kernel; the CPU's takes
    /// the last dim of contiguous f32 operands of one shape.
    ///
    /// # Errors
    /// A device failure.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, ops::Softmax};
    /// let y = RawTensor::from_vec(vec![0.5f32, 0.5], &[1, 2])?;
    /// let g = RawTensor::from_vec(vec![1.0f32, 0.0], &[1, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1, 2]), dtype: DType::F32 };
    /// let op = Softmax { dim: 1, log: false };
    /// assert!(Cpu.softmax_backward(op, y.view().input(), g.view().input(), dst)?);
    /// assert_eq!(s.as_slice::<f32>()?, &[0.25, -0.25]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn softmax_backward(
        &self,
        op: Softmax,
        y: Input<'_, Self>,
        g: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<bool> {
        let _ = (op, y, g, dst);
        Ok(false)
    }

    /// The gradients of `layer_norm` over the rows of `x` (`[rows, n]`)
    /// from the output's gradient `g` (`[rows, n]`) and the weight (`[n]`,
    /// when the op had one): into `grads`, the input's (`[rows, n]`), the
    /// weight's and the bias's (`[n]` each), each where given. A fused
    /// form of the composed derivative (PyTorch's
    /// `native_layer_norm_backward`), which runs wherever this returns
    /// `Ok(false)`. The default has no kernel; the CPU's takes contiguous
    /// f32 operands.
    ///
    /// # Errors
    /// A device failure.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage, ops::LayerNorm};
    /// let x = RawTensor::from_vec(vec![1.0f32, 3.0], &[1, 2])?;
    /// let g = RawTensor::from_vec(vec![1.0f32, 1.0], &[1, 2])?;
    /// let (mut gx, mut gb) = (Storage::from_slice(&[9.0f32; 2]), Storage::from_slice(&[9.0f32; 2]));
    /// let out = |s, shape: &[usize]| Output { storage: s, layout: Layout::contiguous(shape), dtype: DType::F32 };
    /// let grads = [Some(out(&mut gx, &[1, 2])), None, Some(out(&mut gb, &[2]))];
    /// assert!(Cpu.layer_norm_backward(LayerNorm { eps: 0.0 }, x.view().input(), g.view().input(), None, grads)?);
    /// assert_eq!(gx.as_slice::<f32>()?, &[0.0, 0.0]); // Σ of a normalised row is 0
    /// assert_eq!(gb.as_slice::<f32>()?, &[1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn layer_norm_backward(
        &self,
        op: LayerNorm,
        x: Input<'_, Self>,
        g: Input<'_, Self>,
        weight: Option<Input<'_, Self>>,
        grads: [Option<Output<'_, Self>>; 3],
    ) -> Result<bool> {
        let _ = (op, x, g, weight, grads);
        Ok(false)
    }

    /// `scaled_dot_product_attention` in one pass per head, where the
    /// device has such a kernel for these operands: `None` leaves it to
    /// the composed formula. The operands as
    /// [`TensorRef::scaled_dot_product_attention`]'s (checked there), no
    /// causal mask, `keep` a bool mask when given.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, RawTensor};
    /// let q = RawTensor::from_vec(vec![1.0f32, 2.0], &[1, 1, 2, 1])?;
    /// let v = RawTensor::from_vec(vec![10.0f32, 20.0], &[1, 1, 2, 1])?;
    /// let y = Cpu.attention(&q.view(), &q.view(), &v.view(), None, 0.0)?.expect("a CPU kernel");
    /// assert_eq!(y.to_vec::<f32>()?, vec![15.0, 15.0]); // scale 0: equal weights
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn attention(
        &self,
        query: &TensorRef<'_, Self>,
        key: &TensorRef<'_, Self>,
        value: &TensorRef<'_, Self>,
        keep: Option<&TensorRef<'_, Self>>,
        scale: f64,
    ) -> Result<Option<RawTensor<Self>>> {
        let _ = (query, key, value, keep, scale);
        Ok(None)
    }
}

/// The refusal of a kernel a device does not have.
fn no_kernel<D: Device>(device: &D, op: &'static str) -> Error {
    Error::invalid(
        op,
        format!("no kernel for this op on the device {}", device.name()),
    )
}
