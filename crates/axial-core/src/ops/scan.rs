//! `cumsum`: running sums along one dim, a primitive (the CPU's
//! `cpu/cumsum.rs`; CUDA's `cumsum_rows_<dtype>`, a thread per row, and
//! `cumsum_block_<dtype>`, a block per long row).

use super::grad::{add, sub, sum_keep};
use super::{Derivative, Lowering, Op, OpInfo, Saves};
use crate::autograd::Grad;
use crate::layout::wrap_dim;
use crate::plan::check_no_negative_strides;
use crate::{Backend, DType, Device, Error, Input, Output, Result};

/// `torch.cumsum(x, dim)`.
///
/// # Example
/// ```
/// use axial_core::ops::{Cumsum, Op};
/// assert_eq!(Cumsum { dim: 0 }.name(), "cumsum");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cumsum {
    /// The dim summed along (wrapped).
    pub dim: usize,
}

impl Op for Cumsum {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "cumsum",
            lowering: Lowering::Primitive,
            derivative: Derivative::Written(Saves::NOTHING),
        }
    }
}

impl Cumsum {
    /// The CUDA kernels (`<name>_<dtype>`): a thread per row, a block per
    /// long row.
    pub const CUDA_KERNELS: [&'static str; 2] = ["cumsum_rows", "cumsum_block"];

    /// The op over `dim` (negative counts from the end) of a tensor of
    /// `dtype` and `rank` dims, and the dtype of its result: integers and
    /// bool give i64 (as PyTorch), floats keep theirs.
    ///
    /// # Errors
    /// A dim out of range.
    ///
    /// ```
    /// # use axial_core::{DType, ops::Cumsum};
    /// assert_eq!(Cumsum::new(-1, DType::U8, 2)?, (Cumsum { dim: 1 }, DType::I64));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(dim: isize, dtype: DType, rank: usize) -> Result<(Cumsum, DType)> {
        Ok((
            Cumsum {
                dim: wrap_dim(dim, rank)?,
            },
            dtype.sum_dtype(),
        ))
    }

    /// Checks the operands a device is handed: one shape and dtype (not
    /// bool), the dim in range (a 0-dim tensor has dim 0), no negative
    /// strides, an output without internal overlap.
    ///
    /// # Errors
    /// Any of those.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Output, RawTensor, Storage, ops::Cumsum};
    /// let x = RawTensor::from_vec(vec![1i64, 2, 3, 4], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0i64; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::I64 };
    /// assert_eq!(
    ///     Cumsum { dim: 2 }.check(&x.view().input(), &dst).unwrap_err().to_string(),
    ///     "cumsum: Dimension out of range (expected to be in range of [-2, 1], but got 2)"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check<D: Device>(&self, src: &Input<'_, D>, dst: &Output<'_, D>) -> Result<()> {
        let op = self.name();
        let rank = dst.layout.rank();
        if self.dim >= rank.max(1) {
            // `wrap_dim`'s words, with the op's name in front.
            let dim = crate::layout::isize_of(self.dim);
            let words = Error::DimOutOfRange { dim, rank }.to_string();
            return Err(Error::invalid(op, words));
        }
        if dst.dtype == DType::Bool {
            return Err(Error::Unsupported {
                op,
                dtype: DType::Bool,
            });
        }
        check_no_negative_strides(op, &src.layout)?;
        check_no_negative_strides(op, &dst.layout)?;
        dst.layout.check_writable()?;
        dst.check(op, dst.dtype)?;
        src.check_elementwise(op, dst.dtype, dst)
    }
}

impl Cumsum {
    /// The input's gradient: the output's summed from the end, `Σ g −
    /// cumsum(g) + g` along the dim.
    pub(crate) fn backward<D: Backend>(&self, g: &Grad<D>) -> Result<Grad<D>> {
        let dim = self.dim as isize;
        let running = g.view().cumsum(dim)?;
        let total = sum_keep(g, &[self.dim])?;
        Ok(Grad::new(add(&sub(&total, &running)?, g)?))
    }
}
