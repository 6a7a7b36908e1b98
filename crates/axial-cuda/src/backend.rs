//! [`Backend`] for [`Cuda`]: each entry point checks its operands with the
//! device-independent rules of `axial_core` (dtypes, shapes, bounds, the op
//! and dtype, the coalesced plans), then launches the kernels the op table
//! names ([`axial_core::ops::cuda`]): those of
//! [`crate::elementwise`], [`crate::reduce`], [`crate::norm`],
//! [`crate::index`], [`crate::scan`] or [`crate::blas`].

use axial_core::ops::{ChannelAffine, ConvArgs, LayerNorm, PoolArgs, Softmax};
use axial_core::{
    Arg, ArgReduceOp, Backend, BinaryOp, CmpOp, DType, Error, Input, Layout, Output, ReduceOp,
    Result, Scalar, Storage, UnaryOp,
};

use crate::driver::State;
use crate::{Cuda, CudaBuffer, blas, cnn, elementwise, index, norm, reduce, scan};

/// An operand as a kernel takes it: the device address of its storage's
/// first byte, and where its elements are.
pub(crate) struct Operand {
    pub(crate) base: u64,
    pub(crate) layout: Layout,
    pub(crate) dtype: DType,
}

impl Operand {
    /// The address of element offset `offset` (in elements, may be negative
    /// relative to a walk's start but lands in the storage).
    pub(crate) fn at(&self, offset: i64) -> u64 {
        self.base
            .wrapping_add((offset * self.dtype.size() as i64) as u64)
    }
}

/// The storage's buffer, refused when it lives on another device.
pub(crate) fn buffer_on<'a>(
    op: &'static str,
    device: &Cuda,
    storage: &'a Storage<Cuda>,
) -> Result<&'a CudaBuffer> {
    if storage.device() != device {
        return Err(Error::invalid(
            op,
            format!(
                "Expected all tensors to be on the same device, but found at least two devices, {} and {}!",
                device_name(device),
                device_name(storage.device())
            ),
        ));
    }
    Ok(storage.buffer())
}

fn device_name(d: &Cuda) -> String {
    axial_core::Device::name(d)
}

/// The output after [`Output::check`] for `dtype`.
pub(crate) fn output(
    device: &Cuda,
    op: &'static str,
    dst: &Output<'_, Cuda>,
    dtype: DType,
) -> Result<Operand> {
    dst.check(op, dtype)?;
    let b = buffer_on(op, device, dst.storage)?;
    Ok(Operand {
        base: b.ptr,
        layout: dst.layout.clone(),
        dtype: dst.dtype,
    })
}

/// An elementwise input after [`Input::check_elementwise`] for `dtype`. An
/// input that is the output itself through another layout is first copied
/// aside (threads of a kernel would read what others write); through the
/// same layout it is read in place, each element before its write.
pub(crate) fn input(
    device: &Cuda,
    op: &'static str,
    src: &Input<'_, Cuda>,
    dtype: DType,
    dst: &Output<'_, Cuda>,
    spill: &mut Vec<Storage<Cuda>>,
) -> Result<Operand> {
    src.check_elementwise(op, dtype, dst)?;
    match src.storage {
        Some(storage) => Ok(Operand {
            base: buffer_on(op, device, storage)?.ptr,
            layout: src.layout.clone(),
            dtype: src.dtype,
        }),
        None if src.layout == dst.layout => Ok(Operand {
            base: buffer_on(op, device, dst.storage)?.ptr,
            layout: src.layout.clone(),
            dtype: src.dtype,
        }),
        None => {
            let from = Operand {
                base: buffer_on(op, device, dst.storage)?.ptr,
                layout: src.layout.clone(),
                dtype: src.dtype,
            };
            contiguous_copy(device, &from, spill)
        }
    }
}

/// A source whose shape is not the output's (a reduction's, a matmul's),
/// after [`Input::check_source`].
pub(crate) fn source(
    device: &Cuda,
    op: &'static str,
    src: &Input<'_, Cuda>,
    dtype: DType,
) -> Result<Operand> {
    let storage = src.check_source(op, dtype)?;
    Ok(Operand {
        base: buffer_on(op, device, storage)?.ptr,
        layout: src.layout.clone(),
        dtype: src.dtype,
    })
}

/// A new contiguous operand of `shape` and `dtype`, its storage held in
/// `spill` until the caller's launches are queued.
pub(crate) fn scratch(
    device: &Cuda,
    shape: &[usize],
    dtype: DType,
    spill: &mut Vec<Storage<Cuda>>,
) -> Result<Operand> {
    let layout = Layout::contiguous(shape);
    let storage = Storage::uninit(device, layout.numel() * dtype.size())?;
    let op = Operand {
        base: storage.buffer().ptr,
        layout,
        dtype,
    };
    spill.push(storage);
    Ok(op)
}

/// A contiguous copy of `op` (in [`scratch`] memory).
pub(crate) fn contiguous_copy(
    device: &Cuda,
    op: &Operand,
    spill: &mut Vec<Storage<Cuda>>,
) -> Result<Operand> {
    let to = scratch(device, op.layout.shape(), op.dtype, spill)?;
    elementwise::copy_operands(device.state()?, op, &to)?;
    Ok(to)
}

/// `op` itself when its layout is contiguous, else a contiguous copy.
pub(crate) fn contiguous(
    device: &Cuda,
    op: Operand,
    spill: &mut Vec<Storage<Cuda>>,
) -> Result<Operand> {
    if op.layout.is_contiguous() {
        return Ok(op);
    }
    contiguous_copy(device, &op, spill)
}

/// A contiguous operand for a kernel to write in place of `to`: `to`
/// itself when it is contiguous, else [`scratch`] memory that
/// [`write_back`] then copies into `to`.
pub(crate) fn contiguous_target(
    device: &Cuda,
    to: &Operand,
    spill: &mut Vec<Storage<Cuda>>,
) -> Result<Operand> {
    if to.layout.is_contiguous() {
        return Ok(Operand {
            base: to.base,
            layout: to.layout.clone(),
            dtype: to.dtype,
        });
    }
    scratch(device, to.layout.shape(), to.dtype, spill)
}

/// Copies what a kernel wrote into [`contiguous_target`]'s buffer into the
/// output (nothing when the output was the target).
pub(crate) fn write_back(device: &Cuda, target: &Operand, to: &Operand) -> Result<()> {
    if target.base == to.base && target.layout == to.layout {
        return Ok(());
    }
    elementwise::copy_operands(device.state()?, target, to)
}

/// The state of the device, its context current.
pub(crate) fn state_of(device: &Cuda) -> Result<&'static State> {
    device.state()
}

/// An operand of a binary op or comparison: a tensor, or a scalar's bits.
pub(crate) enum Side {
    Tensor(Operand),
    Scalar(Scalar),
}

/// Both operands of a binary op or comparison of `dtype`.
pub(crate) fn sides(
    device: &Cuda,
    op: &'static str,
    [lhs, rhs]: [&Arg<'_, Cuda>; 2],
    dtype: DType,
    dst: &Output<'_, Cuda>,
    spill: &mut Vec<Storage<Cuda>>,
) -> Result<[Side; 2]> {
    let side = |a: &Arg<'_, Cuda>, spill: &mut Vec<Storage<Cuda>>| -> Result<Side> {
        Ok(match a {
            Arg::Tensor(t) => Side::Tensor(input(device, op, t, dtype, dst, spill)?),
            Arg::Scalar(s) => Side::Scalar(*s),
        })
    };
    let l = side(lhs, spill)?;
    let r = side(rhs, spill)?;
    if let (Side::Scalar(_), Side::Scalar(_)) = (&l, &r) {
        Arg::pair_dtype(op, lhs, rhs)?;
    }
    Ok([l, r])
}

impl Backend for Cuda {
    fn copy(&self, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        elementwise::copy(self, src, dst)
    }

    fn fill(&self, dst: Output<'_, Self>, value: Scalar) -> Result<()> {
        elementwise::fill(self, dst, value)
    }

    fn unary(&self, op: UnaryOp, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        elementwise::unary(self, op, src, dst)
    }

    fn binary(
        &self,
        op: BinaryOp,
        lhs: Arg<'_, Self>,
        rhs: Arg<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        elementwise::binary(self, op, lhs, rhs, dst)
    }

    fn compare(
        &self,
        op: CmpOp,
        lhs: Arg<'_, Self>,
        rhs: Arg<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        elementwise::compare(self, op, lhs, rhs, dst)
    }

    fn select_where(
        &self,
        cond: Input<'_, Self>,
        a: Input<'_, Self>,
        b: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        elementwise::select_where(self, cond, a, b, dst)
    }

    fn reduce(
        &self,
        op: ReduceOp,
        src: Input<'_, Self>,
        dims: &[usize],
        dst: Output<'_, Self>,
    ) -> Result<()> {
        reduce::reduce(self, op, src, dims, dst)
    }

    fn arg_reduce(
        &self,
        op: ArgReduceOp,
        src: Input<'_, Self>,
        dim: usize,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        reduce::arg_reduce(self, op, src, dim, dst)
    }

    fn matmul(
        &self,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        blas::matmul(self, lhs, rhs, dst)
    }

    fn addmm(
        &self,
        bias: Input<'_, Self>,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        blas::addmm(self, bias, lhs, rhs, dst)
    }

    fn softmax(&self, op: Softmax, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        norm::softmax(self, op, src, dst)
    }

    fn conv(
        &self,
        op: &ConvArgs,
        x: Input<'_, Self>,
        weight: Input<'_, Self>,
        bias: Option<Input<'_, Self>>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        cnn::conv(self, op, x, weight, bias, dst)
    }

    fn pool(
        &self,
        op: &PoolArgs,
        x: Input<'_, Self>,
        dst: Output<'_, Self>,
        indices: Option<Output<'_, Self>>,
    ) -> Result<()> {
        cnn::pool(self, op, x, dst, indices)
    }

    fn channel_affine(
        &self,
        op: &ChannelAffine,
        x: Input<'_, Self>,
        scale: &[f64],
        shift: &[f64],
        dst: Output<'_, Self>,
    ) -> Result<()> {
        cnn::channel_affine(self, op, x, scale, shift, dst)
    }

    fn layer_norm(
        &self,
        op: LayerNorm,
        src: Input<'_, Self>,
        weight: Option<Input<'_, Self>>,
        bias: Option<Input<'_, Self>>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        norm::layer_norm(self, op, src, weight, bias, dst)
    }

    fn index_select(
        &self,
        src: Input<'_, Self>,
        dim: usize,
        index: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        index::index_select(self, src, dim, index, dst)
    }

    fn gather(
        &self,
        src: Input<'_, Self>,
        dim: usize,
        index: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        index::gather(self, src, dim, index, dst)
    }

    fn cumsum(&self, src: Input<'_, Self>, dim: usize, dst: Output<'_, Self>) -> Result<()> {
        scan::cumsum(self, src, dim, dst)
    }
}
