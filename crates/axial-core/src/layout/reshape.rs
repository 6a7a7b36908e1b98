//! `view`, `reshape`, `flatten` and `unflatten`: PyTorch's `infer_size` and
//! `computeStride` (`aten/src/ATen/TensorUtils.cpp`).

use smallvec::smallvec;

use super::{Dims, Layout, Strides, contiguous_strides, wrap_dim};
use crate::{Error, Result};

/// PyTorch's `infer_size`: resolves one `-1` in `shape` for `numel` elements.
///
/// # Errors
/// Two `-1`, another negative size, a product that does not match, or a `-1`
/// beside a 0 (ambiguous).
///
/// ```
/// # use axial_core::layout::infer_size;
/// assert_eq!(infer_size(&[2, -1], 6)?.as_slice(), &[2, 3]);
/// assert_eq!(
///     infer_size(&[5, -1], 24).unwrap_err().to_string(),
///     "shape '[5, -1]' is invalid for input of size 24"
/// );
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn infer_size(shape: &[isize], numel: usize) -> Result<Dims> {
    let mut infer = None;
    // `None` once the product passes `usize::MAX`: no tensor has that many
    // elements, so the shape is invalid (PyTorch's product wraps instead).
    let mut product = Some(1usize);
    for (i, &n) in shape.iter().enumerate() {
        match n {
            -1 if infer.is_some() => {
                return Err(Error::invalid("view", "only one dimension can be inferred"));
            }
            -1 => infer = Some(i),
            n if n < 0 => {
                return Err(Error::invalid(
                    "view",
                    format!("invalid shape dimension {n} at index {i} of shape {shape:?}"),
                ));
            }
            n => product = product.and_then(|p| p.checked_mul(n as usize)),
        }
    }
    let mut out: Dims = shape.iter().map(|&n| n.max(0) as usize).collect();
    match (infer, product) {
        (None, Some(p)) if p == numel => return Ok(out),
        (Some(_), Some(0)) if numel == 0 => {
            return Err(Error::invalid(
                "view",
                format!(
                    "cannot reshape tensor of 0 elements into shape {shape:?} because the unspecified dimension size -1 can be any value and is ambiguous"
                ),
            ));
        }
        (Some(i), Some(p)) if p > 0 && numel.is_multiple_of(p) => {
            out[i] = numel / p;
            return Ok(out);
        }
        _ => {}
    }
    Err(Error::InvalidShape {
        shape: shape.to_vec(),
        numel,
    })
}

/// PyTorch's `computeStride`: strides that show the same elements as `layout`
/// under `new_shape` (same element count), or `None` when no view exists.
///
/// ```
/// # use axial_core::{layout::compute_stride, Layout};
/// let a = Layout::from_parts(&[2, 3, 2], &[12, 2, 1], 0);
/// assert_eq!(compute_stride(&a, &[2, 6]).unwrap().as_slice(), &[12, 1]);
/// assert!(compute_stride(&a, &[12]).is_none());
/// ```
pub fn compute_stride(layout: &Layout, new_shape: &[usize]) -> Option<Strides> {
    let (old, oldstride) = (layout.shape(), layout.strides());
    if old.is_empty() {
        return Some(smallvec![1; new_shape.len()]);
    }
    let numel = layout.numel();
    if numel == 0 {
        if old == new_shape {
            return Some(oldstride.into());
        }
        return Some(contiguous_strides(new_shape));
    }
    let mut st: Strides = smallvec![0; new_shape.len()];
    let mut view_d = new_shape.len() as isize - 1;
    let mut base = oldstride[old.len() - 1];
    let (mut tn, mut vn) = (1usize, 1usize);
    // Sizes and strides multiply within the element count and the span of a
    // layout that fits a storage; one that fits none gets `None` on overflow.
    let times = |n: usize, s: isize| isize::try_from(n).ok()?.checked_mul(s);
    for td in (0..old.len()).rev() {
        tn = tn.checked_mul(old[td])?;
        let chunk_ends =
            td == 0 || (old[td - 1] != 1 && Some(oldstride[td - 1]) != times(tn, base));
        if chunk_ends {
            while view_d >= 0 && (vn < tn || new_shape[view_d as usize] == 1) {
                st[view_d as usize] = times(vn, base)?;
                vn = vn.checked_mul(new_shape[view_d as usize])?;
                view_d -= 1;
            }
            if vn != tn {
                return None;
            }
            if td > 0 {
                base = oldstride[td - 1];
                tn = 1;
                vn = 1;
            }
        }
    }
    (view_d == -1).then_some(st)
}

impl Layout {
    /// `x.view(shape)` (one size may be `-1`): the same elements under another
    /// shape, without a copy; succeeds exactly when PyTorch's does.
    ///
    /// # Errors
    /// A bad shape ([`infer_size`]), or [`Error::NotViewable`] when the layout
    /// cannot be expressed without a copy.
    ///
    /// ```
    /// # use axial_core::{Error, Layout};
    /// let t = Layout::contiguous(&[2, 3]).t()?;
    /// assert_eq!(t.view(&[6]), Err(Error::NotViewable));
    /// assert_eq!(t.view(&[3, 1, 2])?.strides(), &[1, 6, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn view(&self, shape: &[isize]) -> Result<Layout> {
        let shape = infer_size(shape, self.numel())?;
        let strides = compute_stride(self, &shape).ok_or(Error::NotViewable)?;
        Ok(Layout::with(shape, strides, self.offset))
    }

    /// The layout `reshape` gives when it can alias the input (PyTorch's
    /// `_reshape_alias`), `Ok(None)` when it must copy into a contiguous tensor
    /// of the inferred shape.
    ///
    /// # Errors
    /// A bad shape ([`infer_size`]).
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let t = Layout::contiguous(&[2, 3]).t()?;
    /// assert!(t.reshape_view(&[6])?.is_none());
    /// assert!(t.reshape_view(&[3, 2])?.is_some());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reshape_view(&self, shape: &[isize]) -> Result<Option<Layout>> {
        let shape = infer_size(shape, self.numel())?;
        Ok(compute_stride(self, &shape).map(|s| Layout::with(shape, s, self.offset)))
    }

    /// The shape `flatten(start, end)` gives: dims `start..=end` merged into one
    /// (a 0-dim layout gives `[1]`).
    ///
    /// # Errors
    /// A dim out of range, or `start` after `end`.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::contiguous(&[3, 4, 5]).flatten_shape(0, 1)?.as_slice(), &[12, 5]);
    /// assert_eq!(Layout::contiguous(&[]).flatten_shape(0, -1)?.as_slice(), &[1]);
    /// assert!(Layout::contiguous(&[]).flatten_shape(0, 1).is_err()); // dim 1 of a 0-dim layout
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn flatten_shape(&self, start: isize, end: isize) -> Result<Dims> {
        let (s, e) = (wrap_dim(start, self.rank())?, wrap_dim(end, self.rank())?);
        if s > e {
            return Err(Error::invalid(
                "flatten",
                "flatten() has invalid args: start_dim cannot come after end_dim",
            ));
        }
        if self.rank() == 0 {
            return Ok(smallvec![1]);
        }
        let shape = self.shape();
        let mut out: Dims = shape[..s].into();
        out.push(super::checked_numel("flatten", &shape[s..=e])?);
        out.extend_from_slice(&shape[e + 1..]);
        Ok(out)
    }

    /// `x.unflatten(dim, sizes)` (one size may be `-1`): PyTorch's, the
    /// sizes inferred and then [`Layout::view`] to the new shape, which always
    /// exists (a size-1 dim gets the stride a view gives it, not the split dim's).
    ///
    /// # Errors
    /// No sizes, a dim out of range, a 0-dim layout, or sizes that do not
    /// multiply up to the dim (or that [`infer_size`] refuses).
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let y = Layout::contiguous(&[3, 4, 5]).unflatten(-1, &[-1, 5])?;
    /// assert_eq!((y.shape(), y.strides()), (&[3, 4, 1, 5][..], &[20, 5, 5, 1][..]));
    /// // As PyTorch's view: the empty tensor's new dims get contiguous strides.
    /// let e = Layout::contiguous(&[3, 5, 4, 0]).unflatten(3, &[1, -1])?;
    /// assert_eq!(e.strides(), &[20, 4, 1, 1, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unflatten(&self, dim: isize, sizes: &[isize]) -> Result<Layout> {
        if sizes.is_empty() {
            return Err(Error::invalid("unflatten", "sizes must be non-empty"));
        }
        let d = wrap_dim(dim, self.rank())?;
        let Some(&n) = self.shape().get(d) else {
            // PyTorch's message from `sym_size(0)` of a 0-dim tensor.
            return Err(Error::invalid(
                "unflatten",
                format!("Dimension specified as {d} but tensor has no dimensions"),
            ));
        };
        let inner = infer_size(sizes, n).map_err(|e| match e {
            Error::InvalidShape { .. } => Error::invalid(
                "unflatten",
                format!(
                    "Provided sizes {sizes:?} don't multiply up to the size of dim {d} ({n}) in the input tensor"
                ),
            ),
            other => other,
        })?;
        let mut shape: Dims = self.shape()[..d].into();
        shape.extend_from_slice(&inner);
        shape.extend_from_slice(&self.shape()[d + 1..]);
        let strides = compute_stride(self, &shape).ok_or(Error::NotViewable)?;
        Ok(Layout::with(shape, strides, self.offset()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(shape: &[usize], strides: &[isize], new: &[usize]) -> Option<Vec<isize>> {
        compute_stride(&Layout::from_parts(shape, strides, 0), new).map(|s| s.to_vec())
    }

    #[test]
    fn compute_stride_table() {
        let a = ([2, 3, 2], [12, 2, 1]);
        assert_eq!(case(&a.0, &a.1, &[2, 6]), Some(vec![12, 1]));
        assert_eq!(case(&a.0, &a.1, &[2, 1, 3, 2]), Some(vec![12, 6, 2, 1]));
        assert_eq!(case(&a.0, &a.1, &[2, 3, 1, 2]), Some(vec![12, 2, 2, 1]));
        assert_eq!(case(&a.0, &a.1, &[12]), None);
        assert_eq!(case(&[3, 2], &[1, 3], &[6]), None);
        assert_eq!(case(&[3, 2], &[1, 3], &[3, 1, 2]), Some(vec![1, 6, 3]));
        assert_eq!(case(&[3, 2], &[1, 3], &[3, 2, 1]), Some(vec![1, 3, 3]));
        let c = ([3, 2, 4], [4, 12, 1]);
        assert_eq!(case(&c.0, &c.1, &[3, 2, 2, 2]), Some(vec![4, 12, 2, 1]));
        assert_eq!(case(&c.0, &c.1, &[3, 8]), None);
        assert_eq!(case(&c.0, &c.1, &[6, 4]), None);
        let d = ([2, 2, 2, 2], [2, 1, 8, 4]);
        assert_eq!(case(&d.0, &d.1, &[4, 4]), Some(vec![1, 4]));
        assert_eq!(case(&d.0, &d.1, &[2, 8]), None);
        assert_eq!(case(&[4, 3], &[0, 1], &[2, 2, 3]), Some(vec![0, 0, 1]));
        assert_eq!(case(&[4, 3], &[0, 1], &[12]), None);
        assert_eq!(
            case(&[2, 0, 3], &[7, 9, 11], &[2, 0, 3]),
            Some(vec![7, 9, 11])
        );
        assert_eq!(case(&[2, 0, 3], &[7, 9, 11], &[6, 0]), Some(vec![1, 1]));
        assert_eq!(case(&[], &[], &[1, 1]), Some(vec![1, 1]));
    }

    #[test]
    fn infer_size_errors() {
        let msg = |s: &[isize], n| infer_size(s, n).unwrap_err().to_string();
        assert_eq!(
            msg(&[-1, -1], 4),
            "view: only one dimension can be inferred"
        );
        assert_eq!(
            msg(&[-1, -2], 4),
            "view: invalid shape dimension -2 at index 1 of shape [-1, -2]"
        );
        assert_eq!(
            msg(&[-1, 0], 0),
            "view: cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous"
        );
        assert_eq!(infer_size(&[-1, 4], 0).unwrap().as_slice(), &[0, 4]);
    }

    #[test]
    fn unflatten_errors() {
        let x = Layout::contiguous(&[2, 4]);
        assert_eq!(
            x.unflatten(1, &[3, 2]).unwrap_err().to_string(),
            "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 1 (4) in the input tensor"
        );
    }
}
