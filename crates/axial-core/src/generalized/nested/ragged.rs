//! Where a nested tensor's ragged dims are, how its dims map onto the dims
//! of `values`, `transpose`, and nested tensors assembled from per-item
//! results.

use super::NestedTensor;
use crate::{DType, Error, RawTensor, Result};

/// The ragged dims of a nested tensor: `count` dims side by side from the
/// nested dim `dim` (at least 1), all of each item's length. In `values`
/// they are one dim, `dim - 1`, holding `n_i^count` rows per item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ragged {
    /// The first ragged dim (PyTorch's `_ragged_idx`).
    pub(super) dim: usize,
    /// 1, or 2 for an item times its own transpose.
    pub(super) count: usize,
}

impl Ragged {
    /// `(B, j, rest...)`, as built.
    pub(super) const STANDARD: Ragged = Ragged { dim: 1, count: 1 };

    /// True when the nested dim `d` is ragged.
    pub(super) fn contains(self, d: usize) -> bool {
        d >= self.dim && d < self.dim + self.count
    }

    /// The dim of `values` that holds the items' rows.
    pub(super) fn value_dim(self) -> usize {
        self.dim - 1
    }

    /// The dim of `values` of the nested dim `d`, neither the batch nor a
    /// ragged dim.
    pub(super) fn value_dim_of(self, d: usize) -> usize {
        if d < self.dim { d - 1 } else { d - self.count }
    }

    /// The rows an item of length `n` takes in `values`: `n^count`.
    pub(super) fn rows(self, n: usize) -> Result<usize> {
        n.checked_pow(self.count as u32).ok_or_else(|| {
            Error::invalid(
                "nested",
                format!("an item of length {n} has too many elements"),
            )
        })
    }

    /// Where each item's rows start in `values`, for `offsets`.
    pub(super) fn starts(self, offsets: &[usize]) -> Result<Vec<usize>> {
        let mut starts = Vec::with_capacity(offsets.len());
        starts.push(0usize);
        for w in offsets.windows(2) {
            let end = starts[starts.len() - 1]
                .checked_add(self.rows(w[1] - w[0])?)
                .ok_or_else(|| Error::invalid("nested", "the items have too many elements"))?;
            starts.push(end);
        }
        Ok(starts)
    }
}

impl NestedTensor {
    /// Which dims are ragged.
    pub(super) fn ragged(&self) -> Ragged {
        self.ragged
    }

    /// True for the layout the constructors give: one ragged dim, dim 1.
    pub(super) fn is_standard(&self) -> bool {
        self.ragged == Ragged::STANDARD
    }

    /// The same items over new values of the same layout of dims (an
    /// elementwise result).
    pub(super) fn with_values(&self, values: RawTensor) -> NestedTensor {
        NestedTensor {
            values,
            offsets: self.offsets.clone(),
            ragged: self.ragged,
            starts: self.starts.clone(),
        }
    }

    /// The same items over new values whose ragged dims start at `dim`
    /// (a reduction of dims before them).
    pub(super) fn moved(&self, values: RawTensor, dim: usize) -> NestedTensor {
        NestedTensor {
            values,
            offsets: self.offsets.clone(),
            ragged: Ragged {
                dim,
                count: self.ragged.count,
            },
            starts: self.starts.clone(),
        }
    }

    /// A nested tensor of `offsets` whose ragged dims are `ragged` and
    /// whose item `i` is `items[i]` (of `dtype`, its ragged dims `n_i`
    /// long), copied into new contiguous values; `rest` is the items'
    /// other sizes, for a batch whose items all hold nothing.
    pub(super) fn assemble(
        offsets: Vec<usize>,
        ragged: Ragged,
        rest: &[usize],
        dtype: DType,
        items: &[RawTensor],
    ) -> Result<NestedTensor> {
        let starts = ragged.starts(&offsets)?;
        let vd = ragged.value_dim();
        let mut shape = rest.to_vec();
        shape.insert(vd, starts[starts.len() - 1]);
        let mut values = RawTensor::zeros(&shape, dtype)?;
        for (i, item) in items.iter().enumerate() {
            let rows = starts[i + 1] - starts[i];
            let mut src_shape: Vec<isize> = shape.iter().map(|&n| n as isize).collect();
            src_shape[vd] = rows as isize;
            let src = item.view().reshape(&src_shape)?;
            values
                .view_mut()
                .narrow(vd as isize, starts[i] as isize, rows)?
                .copy_(&src.as_ref())?;
        }
        Ok(NestedTensor {
            values,
            offsets,
            ragged,
            starts,
        })
    }

    /// `f(item)` for each item, assembled into a nested tensor of the same
    /// offsets and ragged dims: `f` keeps each item's shape.
    pub(super) fn map_items(
        &self,
        op: &'static str,
        f: impl Fn(&crate::TensorRef<'_, crate::Cpu>) -> Result<RawTensor>,
    ) -> Result<NestedTensor> {
        let items = self.unbind()?;
        let mut out = Vec::with_capacity(items.len());
        let mut dtype = self.dtype();
        for item in &items {
            let r = f(item)?;
            if r.shape() != item.shape() {
                return Err(Error::invalid(
                    op,
                    format!(
                        "an item of shape {:?} would become {:?}: the items' shapes must stay",
                        item.shape(),
                        r.shape()
                    ),
                ));
            }
            dtype = r.dtype();
            out.push(r);
        }
        Self::assemble(
            self.offsets.clone(),
            self.ragged,
            &self.rest_shape(),
            dtype,
            &out,
        )
    }

    /// `transpose(d0, d1)` (negative from the end): a view, `values`
    /// transposed and the ragged dim moved with its dim, as PyTorch's
    /// jagged `transpose`. With two ragged dims, only two other dims may
    /// swap.
    ///
    /// # Errors
    /// A dim out of range, the batch dim (PyTorch's message), or a ragged
    /// dim of a nested tensor with two.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::nested::NestedTensor;
    /// let v = RawTensor::arange(0.0, 18.0, 1.0, DType::F32)?;
    /// let nj = NestedTensor::from_jagged(v.view().view(&[6, 3])?.to_contiguous()?, &[0, 2, 6])?;
    /// let t = nj.transpose(1, 2)?; // (2, 3, j1)
    /// assert_eq!((t.ragged_dims(), t.values().shape()), (vec![2], &[3, 6][..]));
    /// assert_eq!(t.item(0)?.to_vec::<f32>()?, vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    /// let e = t.transpose(0, 1).unwrap_err();
    /// assert!(e.to_string().ends_with("Transpose is not supported on the batch dimension for jagged NT"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn transpose(self, d0: isize, d1: isize) -> Result<NestedTensor> {
        let rank = self.dim();
        let (a, b) = (
            crate::layout::wrap_dim(d0, rank)?,
            crate::layout::wrap_dim(d1, rank)?,
        );
        if a == 0 || b == 0 {
            return Err(Error::invalid(
                "transpose",
                "Transpose is not supported on the batch dimension for jagged NT",
            ));
        }
        if a == b {
            return Ok(self);
        }
        let r = self.ragged;
        let (va, vb, dim) = if r.count == 1 {
            let dim = match r.dim {
                d if d == a => b,
                d if d == b => a,
                d => d,
            };
            (a - 1, b - 1, dim)
        } else if r.contains(a) || r.contains(b) {
            return Err(Error::invalid(
                "transpose",
                format!(
                    "cannot transpose dims {a} and {b} of a nested tensor of shape {}: dims {} and {} are both ragged and stay in place",
                    super::ops::shape_text(&self, "j1"),
                    r.dim,
                    r.dim + 1
                ),
            ));
        } else {
            (r.value_dim_of(a), r.value_dim_of(b), r.dim)
        };
        let (storage, layout, dtype) = self.values.into_parts();
        let layout = layout.transpose(va as isize, vb as isize)?;
        Ok(NestedTensor {
            values: RawTensor::from_parts(storage, layout, dtype)?,
            offsets: self.offsets,
            ragged: Ragged {
                dim,
                count: r.count,
            },
            starts: self.starts,
        })
    }
}
