//! The shape of a batched matrix product `[..., m, k] @ [..., k, n] ->
//! [..., m, n]`: sizes, each operand's row and column strides, and the batch
//! dims coalesced with the three operands' strides.

use super::{DimVec, Dims, check_no_negative_strides};
use crate::{Error, Layout, Result};

/// Row and column strides of one matrix operand, in elements.
///
/// # Example
/// ```
/// use axial_core::{plan::MatStrides, Layout};
/// let t = Layout::contiguous(&[3, 4]).t()?;
/// assert_eq!(MatStrides::of(&t), MatStrides { row: 1, col: 4 });
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatStrides {
    /// Step between rows.
    pub row: isize,
    /// Step between columns.
    pub col: isize,
}

impl MatStrides {
    /// The strides of the last two dims of `layout` (rank 2 or more).
    ///
    /// # Panics
    /// A layout of rank below 2 ([`MatmulPlan::new`] checks the ranks first).
    ///
    /// ```
    /// # use axial_core::{plan::MatStrides, Layout};
    /// assert_eq!(MatStrides::of(&Layout::contiguous(&[2, 3, 5])), MatStrides { row: 5, col: 1 });
    /// ```
    pub fn of(layout: &Layout) -> Self {
        let st = layout.strides();
        let r = st.len();
        MatStrides {
            row: st[r - 2],
            col: st[r - 1],
        }
    }
}

/// A checked batched matrix product: what every device's matmul runs.
///
/// # Example
/// ```
/// use axial_core::{plan::MatmulPlan, Layout};
/// let (a, b) = (Layout::contiguous(&[4, 2, 3]), Layout::contiguous(&[4, 3, 5]));
/// let p = MatmulPlan::new(&a, &b, &Layout::contiguous(&[4, 2, 5]))?;
/// assert_eq!((p.m, p.k, p.n, p.batch.numel()), (2, 3, 5, 4));
/// assert_eq!(p.batch.strides[0].as_slice(), &[6]); // lhs steps 2·3 per batch
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct MatmulPlan {
    /// Rows of the result.
    pub m: usize,
    /// The contracted size.
    pub k: usize,
    /// Columns of the result.
    pub n: usize,
    /// The left operand's strides.
    pub lhs: MatStrides,
    /// The right operand's strides.
    pub rhs: MatStrides,
    /// The result's strides.
    pub dst: MatStrides,
    /// Batch dims with the strides of lhs, rhs and dst.
    pub batch: Dims<3>,
    /// The operands' storage offsets (lhs, rhs, dst).
    pub offsets: [usize; 3],
    /// Batches may run at once (the output does not overlap itself).
    pub disjoint: bool,
}

impl MatmulPlan {
    /// The plan of `dst = lhs @ rhs`, all three of one rank (2 or more), the
    /// batch dims equal (already broadcast).
    ///
    /// # Errors
    /// Shapes that do not chain, or a negative stride on the output.
    ///
    /// ```
    /// # use axial_core::{plan::MatmulPlan, Layout};
    /// let (a, b) = (Layout::contiguous(&[2, 3]), Layout::contiguous(&[4, 5]));
    /// let err = MatmulPlan::new(&a, &b, &Layout::contiguous(&[2, 5])).unwrap_err();
    /// assert!(err.to_string().contains("[2, 3] and [4, 5] cannot be multiplied"));
    /// ```
    pub fn new(lhs: &Layout, rhs: &Layout, dst: &Layout) -> Result<Self> {
        check_no_negative_strides("matmul", dst)?;
        let r = dst.rank();
        let (a, b, c) = (lhs.shape(), rhs.shape(), dst.shape());
        let ok = r >= 2
            && lhs.rank() == r
            && rhs.rank() == r
            && a[..r - 2] == c[..r - 2]
            && b[..r - 2] == c[..r - 2]
            && a[r - 2] == c[r - 2]
            && b[r - 1] == c[r - 1]
            && a[r - 1] == b[r - 2];
        if !ok {
            return Err(Error::invalid(
                "matmul",
                format!("operands of shapes {a:?} and {b:?} cannot be multiplied into {c:?}"),
            ));
        }
        let batch: DimVec<_> = (0..r - 2)
            .filter(|&d| c[d] != 1)
            .map(|d| (c[d], [lhs.strides()[d], rhs.strides()[d], dst.strides()[d]]))
            .collect();
        Ok(MatmulPlan {
            m: c[r - 2],
            k: a[r - 1],
            n: c[r - 1],
            lhs: MatStrides::of(lhs),
            rhs: MatStrides::of(rhs),
            dst: MatStrides::of(dst),
            batch: Dims::new(batch),
            offsets: [lhs.offset(), rhs.offset(), dst.offset()],
            disjoint: dst.is_non_overlapping(),
        })
    }

    /// Multiply-adds of one product (saturating).
    ///
    /// ```
    /// # use axial_core::{plan::MatmulPlan, Layout};
    /// let (a, b) = (Layout::contiguous(&[2, 3]), Layout::contiguous(&[3, 4]));
    /// assert_eq!(MatmulPlan::new(&a, &b, &Layout::contiguous(&[2, 4]))?.flops(), 24);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn flops(&self) -> usize {
        self.m.saturating_mul(self.k).saturating_mul(self.n)
    }
}
