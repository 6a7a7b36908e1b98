//! View ops as metadata (`aten/src/ATen/native/TensorShape.cpp`).
//! Each returns a new [`Layout`] over the same storage, or PyTorch's error.

use smallvec::smallvec;

use super::{
    Dims, Layout, Strides, checked_numel, isize_of, repeated_dim, storage_offset, wrap_dim,
    wrap_index,
};
use crate::{Error, Result};

impl Layout {
    /// `x.slice(dim, start, end, step)`, Python's `x[start:end:step]` on one dim.
    /// Negative bounds count from the end; bounds are clamped to the dim.
    ///
    /// # Errors
    /// A dim out of range, or `step <= 0`.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let x = Layout::contiguous(&[3, 4, 5]);
    /// let y = x.slice(0, Some(5), Some(10), 1)?; // x[5:10]
    /// assert_eq!((y.shape(), y.offset()), (&[0, 4, 5][..], 60));
    /// let z = x.slice(2, Some(1), Some(4), 2)?; // x[:, :, 1:4:2]
    /// assert_eq!((z.shape(), z.strides(), z.offset()), (&[3, 4, 2][..], &[20, 5, 2][..], 1));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn slice(
        &self,
        dim: isize,
        start: Option<isize>,
        end: Option<isize>,
        step: isize,
    ) -> Result<Layout> {
        if self.rank() == 0 {
            return Err(Error::invalid(
                "slice",
                "slice() cannot be applied to a 0-dim tensor.",
            ));
        }
        let d = wrap_dim(dim, self.rank())?;
        if step <= 0 {
            return Err(Error::invalid("slice", "slice step must be positive"));
        }
        let n = isize_of(self.shape[d]);
        let wrap = |v: isize| if v < 0 { v.saturating_add(n) } else { v };
        let start = wrap(start.unwrap_or(0)).clamp(0, n);
        let end = wrap(end.unwrap_or(n)).clamp(start, n);
        let len = ((end - start) as usize).div_ceil(step as usize);
        let mut out = self.clone();
        // An empty slice moves the offset too (`x[5:10]` of 3 rows is @60).
        out.offset = step_offset("slice", self.offset, start as usize, self.strides[d])?;
        out.shape[d] = len;
        out.strides[d] = self.strides[d].saturating_mul(step);
        Ok(out)
    }

    /// `x.select(dim, index)`: the sub-tensor at `index` of `dim`, with that dim dropped.
    ///
    /// # Errors
    /// A dim out of range, or an index outside `[-size, size)`.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let x = Layout::contiguous(&[3, 4, 5]);
    /// let y = x.select(2, -1)?;
    /// assert_eq!((y.shape(), y.strides(), y.offset()), (&[3, 4][..], &[20, 5][..], 4));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn select(&self, dim: isize, index: isize) -> Result<Layout> {
        if self.rank() == 0 {
            return Err(Error::invalid(
                "select",
                "select() cannot be applied to a 0-dim tensor.",
            ));
        }
        let d = wrap_dim(dim, self.rank())?;
        let i = wrap_index("select", index, d, &self.shape)?;
        let mut out = self.clone();
        out.offset = step_offset("select", self.offset, i, self.strides[d])?;
        out.shape.remove(d);
        out.strides.remove(d);
        Ok(out)
    }

    /// `x.narrow(dim, start, length)`: `length` elements of `dim` from `start`
    /// (negative `start` counts from the end; `start == size` is allowed).
    ///
    /// # Errors
    /// A dim out of range, a start outside `[-size, size]`, or a range past the end.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let x = Layout::contiguous(&[3, 4, 5]);
    /// assert_eq!(x.narrow(-1, -2, 2)?.offset(), 3);
    /// assert_eq!(
    ///     x.narrow(1, 3, 2).unwrap_err().to_string(),
    ///     "narrow: start (3) + length (2) exceeds dimension size (4)."
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn narrow(&self, dim: isize, start: isize, length: usize) -> Result<Layout> {
        if self.rank() == 0 {
            return Err(Error::invalid(
                "narrow",
                "narrow() cannot be applied to a 0-dim tensor.",
            ));
        }
        let d = wrap_dim(dim, self.rank())?;
        let n = isize_of(self.shape[d]);
        if start < -n || start > n {
            return Err(Error::invalid(
                "narrow",
                format!(
                    "start out of range (expected to be in range of [{}, {n}], but got {start})",
                    -n
                ),
            ));
        }
        let start = if start < 0 { start + n } else { start };
        if length > (n - start) as usize {
            return Err(Error::invalid(
                "narrow",
                format!("start ({start}) + length ({length}) exceeds dimension size ({n})."),
            ));
        }
        self.slice(d as isize, Some(start), Some(start + length as isize), 1)
    }

    /// `x.unsqueeze(dim)`: a new size-1 dim at `dim` (in `[-(rank+1), rank]`);
    /// its stride is `size[dim] * stride[dim]`, or 1 at the end.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let x = Layout::contiguous(&[3, 4, 5]);
    /// let y = x.transpose(0, 2)?.unsqueeze(1)?;
    /// assert_eq!((y.shape(), y.strides()), (&[5, 1, 4, 3][..], &[1, 20, 5, 20][..]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unsqueeze(&self, dim: isize) -> Result<Layout> {
        let d = wrap_dim(dim, self.rank() + 1)?;
        let stride = if d < self.rank() {
            isize_of(self.shape[d]).saturating_mul(self.strides[d])
        } else {
            1
        };
        let mut out = self.clone();
        out.shape.insert(d, 1);
        out.strides.insert(d, stride);
        Ok(out)
    }

    /// `x.squeeze()`: every size-1 dim dropped.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::contiguous(&[1, 3, 1, 2]).squeeze().shape(), &[3, 2]);
    /// ```
    pub fn squeeze(&self) -> Layout {
        let keep = |p: &(&usize, &isize)| *p.0 != 1;
        let (shape, strides) = self
            .shape
            .iter()
            .zip(&self.strides)
            .filter(keep)
            .map(|(&n, &s)| (n, s))
            .unzip();
        Layout::with(shape, strides, self.offset)
    }

    /// `x.squeeze(dims)`: the listed dims dropped where their size is 1 (others kept).
    ///
    /// # Errors
    /// A dim out of range, or a dim listed twice.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::contiguous(&[1, 3, 1]).squeeze_dims(&[0, 1])?.shape(), &[3, 1]);
    /// assert!(Layout::contiguous(&[1, 3]).squeeze_dims(&[0, -2]).is_err()); // dim 0 twice
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn squeeze_dims(&self, dims: &[isize]) -> Result<Layout> {
        // PyTorch's `dim_list_to_bitset`: each dim wrapped, then checked for
        // a repeat, in order (a 0-dim layout takes 0 and -1, once).
        let mut seen: smallvec::SmallVec<[bool; 6]> = smallvec![false; self.rank().max(1)];
        for &d in dims {
            let w = wrap_dim(d, self.rank())?;
            if std::mem::replace(&mut seen[w], true) {
                return Err(repeated_dim("squeeze", w));
            }
        }
        let drop = |d: usize| seen[d] && self.shape[d] == 1;
        let mut out = Layout::with(Dims::new(), Strides::new(), self.offset);
        for d in 0..self.rank() {
            if !drop(d) {
                out.shape.push(self.shape[d]);
                out.strides.push(self.strides[d]);
            }
        }
        Ok(out)
    }

    /// `x.expand(sizes)`: aligned from the right; `-1` keeps a size; only size-1
    /// dims may change (their stride becomes 0); new leading dims get stride 0
    /// (or the next dim's extent when their size is 1). Every dim of an
    /// expanded 0-dim layout has stride 0, as PyTorch's.
    ///
    /// Where PyTorch makes a tensor of negative size (a negative size in a new
    /// leading dim, or in place of a dim of size 1), axial returns an error.
    ///
    /// # Errors
    /// Fewer sizes than dims, `-1` in a new leading dim, a non-singleton dim
    /// changed, a negative size, or more than `isize::MAX` elements.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let y = Layout::contiguous(&[3, 1]).expand(&[2, 3, 4])?;
    /// assert_eq!(y.strides(), &[0, 1, 0]);
    /// assert_eq!(Layout::contiguous(&[]).expand(&[2, 1])?.strides(), &[0, 0]);
    /// assert_eq!(
    ///     Layout::contiguous(&[3]).expand(&[4]).unwrap_err().to_string(),
    ///     "expand: The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 0.  Target sizes: [4].  Tensor sizes: [3]"
    /// );
    /// assert!(Layout::contiguous(&[1]).expand(&[-3]).is_err()); // PyTorch: a size of -3
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn expand(&self, sizes: &[isize]) -> Result<Layout> {
        let (ndim, tdim) = (sizes.len(), self.rank());
        if ndim < tdim {
            return Err(Error::invalid(
                "expand",
                format!(
                    "the number of sizes provided ({ndim}) must be greater or equal to the number of dimensions in the tensor ({tdim})"
                ),
            ));
        }
        let negative = |target: isize| {
            Error::invalid(
                "expand",
                format!("Trying to create tensor with negative dimension {target}: {sizes:?}"),
            )
        };
        let leading_minus_one = |i: usize| {
            Error::invalid(
                "expand",
                format!(
                    "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {i}"
                ),
            )
        };
        let mut shape: Dims = smallvec![0; ndim];
        let mut strides: Strides = smallvec![0; ndim];
        for i in (0..ndim).rev() {
            let existing = (i + tdim).checked_sub(ndim);
            let (size, stride) = match existing {
                Some(d) => (self.shape[d], self.strides[d]),
                // PyTorch's `inferExpandGeometry` gives a 0-dim tensor's new
                // dims stride 0 whatever their size.
                None if tdim == 0 => (1, 0),
                None => (1, isize_of(shape[i + 1]).saturating_mul(strides[i + 1])),
            };
            let mut target = sizes[i];
            if target == -1 {
                if existing.is_none() {
                    return Err(leading_minus_one(i));
                }
                target = isize_of(size);
            }
            let mut stride = stride;
            if target != isize_of(size) {
                if size != 1 {
                    return Err(Error::Expand {
                        target,
                        size,
                        dim: i,
                        sizes: sizes.to_vec(),
                        shape: self.shape.to_vec(),
                    });
                }
                stride = 0;
            }
            if target < 0 {
                return Err(negative(target));
            }
            shape[i] = target as usize;
            strides[i] = stride;
        }
        checked_numel("expand", &shape)?;
        Ok(Layout::with(shape, strides, self.offset))
    }

    /// `x.transpose(d0, d1)`: the two dims' sizes and strides swapped.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(Layout::contiguous(&[2, 3]).transpose(0, -1)?.strides(), &[1, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn transpose(&self, d0: isize, d1: isize) -> Result<Layout> {
        let (a, b) = (wrap_dim(d0, self.rank())?, wrap_dim(d1, self.rank())?);
        let mut out = self.clone();
        if self.rank() > 0 {
            out.shape.swap(a, b);
            out.strides.swap(a, b);
        }
        Ok(out)
    }

    /// `x.t()`: transpose of a matrix; 0-D and 1-D layouts are unchanged.
    ///
    /// # Errors
    /// Rank above 2.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// assert_eq!(
    ///     Layout::contiguous(&[2, 3, 4]).t().unwrap_err().to_string(),
    ///     "t: t() expects a tensor with <= 2 dimensions, but self is 3D"
    /// );
    /// ```
    pub fn t(&self) -> Result<Layout> {
        match self.rank() {
            0 | 1 => Ok(self.clone()),
            2 => self.transpose(0, 1),
            r => Err(Error::t_rank(r)),
        }
    }

    /// `x.permute(dims)`: dim `i` of the result is dim `dims[i]` of `x`.
    ///
    /// # Errors
    /// A wrong number of dims, a dim out of range, or a repeated dim.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let y = Layout::contiguous(&[3, 4, 5]).permute(&[2, 0, 1])?;
    /// assert_eq!((y.shape(), y.strides()), (&[5, 3, 4][..], &[1, 20, 5][..]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn permute(&self, dims: &[isize]) -> Result<Layout> {
        if dims.len() != self.rank() {
            return Err(Error::invalid(
                "permute",
                format!(
                    "number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
                    self.rank(),
                    dims.len()
                ),
            ));
        }
        let mut seen: smallvec::SmallVec<[bool; 6]> = smallvec![false; self.rank()];
        let mut out = Layout::with(Dims::new(), Strides::new(), self.offset);
        for &d in dims {
            let d = wrap_dim(d, self.rank())?;
            if std::mem::replace(&mut seen[d], true) {
                return Err(Error::invalid("permute", "duplicate dims are not allowed."));
            }
            out.shape.push(self.shape[d]);
            out.strides.push(self.strides[d]);
        }
        Ok(out)
    }

    /// `x.movedim(source, destination)`: the listed dims moved to the listed
    /// places, the others kept in order.
    ///
    /// # Errors
    /// Lists of different lengths, a dim out of range, or a repeated dim.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let y = Layout::contiguous(&[3, 4, 5]).movedim(&[0], &[-1])?;
    /// assert_eq!((y.shape(), y.strides()), (&[4, 5, 3][..], &[5, 1, 20][..]));
    /// assert_eq!(Layout::contiguous(&[]).movedim(&[0], &[-1])?.rank(), 0); // nothing to move
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn movedim(&self, source: &[isize], destination: &[isize]) -> Result<Layout> {
        let rank = self.rank();
        if source.len() != destination.len() {
            return Err(Error::invalid(
                "movedim",
                format!(
                    "Invalid source or destination dims: source ({source:?} dims) should contain the same number of dims as destination ({destination:?} dims)"
                ),
            ));
        }
        // PyTorch wraps every dim of both lists, then looks for repeats.
        let wrap_all =
            |list: &[isize]| -> Result<Dims> { list.iter().map(|&d| wrap_dim(d, rank)).collect() };
        let (src, dst) = (wrap_all(source)?, wrap_all(destination)?);
        for (wrapped, list, what) in [(&src, source, "source"), (&dst, destination, "destination")]
        {
            if (1..wrapped.len()).any(|i| wrapped[..i].contains(&wrapped[i])) {
                return Err(Error::invalid(
                    "movedim",
                    format!("repeated dim in `{what}` ({list:?})"),
                ));
            }
        }
        if rank == 0 {
            // A 0-dim layout has no dim to move (0 and -1 name it).
            return Ok(self.clone());
        }
        let mut order: smallvec::SmallVec<[Option<usize>; 6]> = smallvec![None; rank];
        for (&s, &d) in src.iter().zip(&dst) {
            order[d] = Some(s);
        }
        let mut rest = (0..rank).filter(|d| !src.contains(d));
        let perm: smallvec::SmallVec<[isize; 6]> = order
            .iter()
            .map(|o| o.unwrap_or_else(|| rest.next().unwrap_or(0)) as isize)
            .collect();
        self.permute(&perm)
    }

    /// `x.diagonal(offset, d1, d2)`: the diagonal of dims `d1`, `d2` (above the
    /// main one for `offset > 0`) as a new last dim of stride `st1 + st2`.
    ///
    /// # Errors
    /// A dim out of range, or `d1 == d2`.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let m = Layout::contiguous(&[3, 4]);
    /// let d = m.diagonal(-1, 0, 1)?;
    /// assert_eq!((d.shape(), d.strides(), d.offset()), (&[2][..], &[5][..], 4));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn diagonal(&self, offset: isize, d1: isize, d2: isize) -> Result<Layout> {
        let (a, b) = (wrap_dim(d1, self.rank())?, wrap_dim(d2, self.rank())?);
        if a == b {
            return Err(Error::invalid(
                "diagonal",
                format!("diagonal dimensions cannot be identical {d1}, {d2}"),
            ));
        }
        let (s1, s2) = (isize_of(self.shape[a]), isize_of(self.shape[b]));
        let len = if offset >= 0 {
            s1.min(s2.saturating_sub(offset)).max(0)
        } else {
            s1.saturating_add(offset).min(s2).max(0)
        };
        let mut out = self.clone();
        if len > 0 {
            // `|offset|` is below a size here, so it has a negation.
            out.offset = if offset >= 0 {
                step_offset("diagonal", self.offset, offset as usize, self.strides[b])?
            } else {
                step_offset("diagonal", self.offset, (-offset) as usize, self.strides[a])?
            };
        }
        let (hi, lo) = (a.max(b), a.min(b));
        out.shape.remove(hi);
        out.shape.remove(lo);
        out.strides.remove(hi);
        out.strides.remove(lo);
        out.shape.push(len as usize);
        out.strides
            .push(self.strides[a].saturating_add(self.strides[b]));
        Ok(out)
    }

    /// `x.unfold(dim, size, step)`: windows of `size` along `dim`, every `step`
    /// elements; dim becomes the window count and a new last dim the window.
    ///
    /// # Errors
    /// A dim out of range, `size` above the dim's size, or `step == 0`.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let w = Layout::contiguous(&[10]).unfold(0, 3, 2)?;
    /// assert_eq!((w.shape(), w.strides()), (&[4, 3][..], &[2, 1][..]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unfold(&self, dim: isize, size: usize, step: usize) -> Result<Layout> {
        let d = wrap_dim(dim, self.rank())?;
        let (n, st) = if self.rank() == 0 {
            (1, 1)
        } else {
            (self.shape[d], self.strides[d])
        };
        if size > n {
            return Err(Error::invalid(
                "unfold",
                format!("maximum size for tensor at dimension {d} is {n} but size is {size}"),
            ));
        }
        if step == 0 {
            return Err(Error::invalid("unfold", "step is 0 but must be > 0"));
        }
        let mut out = self.clone();
        if self.rank() > 0 {
            // Saturates only for a dim past invariant 5, of `usize::MAX` elements.
            out.shape[d] = ((n - size) / step).saturating_add(1);
            // Saturates only where the dim has one window, whose stride
            // addresses nothing.
            out.strides[d] = st.saturating_mul(isize::try_from(step).unwrap_or(isize::MAX));
        }
        out.shape.push(size);
        out.strides.push(st);
        checked_numel("unfold", &out.shape)?;
        Ok(out)
    }
}

/// `offset + index * stride` as a storage offset, refused when it would be
/// negative or past `usize::MAX` (only a layout no storage holds gets there).
fn step_offset(op: &'static str, offset: usize, index: usize, stride: isize) -> Result<usize> {
    storage_offset(op, offset as i128 + index as i128 * stride as i128)
}

#[cfg(test)]
mod tests {
    use crate::Layout;

    fn parts(l: &Layout) -> (Vec<usize>, Vec<isize>, usize) {
        (l.shape().to_vec(), l.strides().to_vec(), l.offset())
    }

    #[test]
    fn semantics_section3_examples() {
        let x = Layout::contiguous(&[3, 4, 5]);
        let cases = [
            (x.select(0, 1).unwrap(), (vec![4, 5], vec![5, 1], 20)),
            (x.select(1, 2).unwrap(), (vec![3, 5], vec![20, 1], 10)),
            (
                x.slice(1, Some(1), None, 2).unwrap(),
                (vec![3, 2, 5], vec![20, 10, 1], 5),
            ),
            (
                x.slice(0, None, None, 10).unwrap(),
                (vec![1, 4, 5], vec![200, 5, 1], 0),
            ),
            (
                x.slice(0, Some(2), Some(1), 1).unwrap(),
                (vec![0, 4, 5], vec![20, 5, 1], 40),
            ),
            (
                x.unsqueeze(1).unwrap().select(2, 1).unwrap(),
                (vec![3, 1, 5], vec![20, 20, 1], 5),
            ),
            (
                x.unsqueeze(1).unwrap(),
                (vec![3, 1, 4, 5], vec![20, 20, 5, 1], 0),
            ),
            (
                x.expand(&[2, 3, 4, 5]).unwrap(),
                (vec![2, 3, 4, 5], vec![0, 20, 5, 1], 0),
            ),
            (
                x.expand(&[1, 3, 4, 5]).unwrap(),
                (vec![1, 3, 4, 5], vec![60, 20, 5, 1], 0),
            ),
            (x.diagonal(1, 1, 2).unwrap(), (vec![3, 4], vec![20, 6], 1)),
            (
                x.unfold(1, 2, 1).unwrap(),
                (vec![3, 3, 5, 2], vec![20, 5, 1, 5], 0),
            ),
        ];
        for (got, want) in cases {
            assert_eq!(parts(&got), want);
        }
        let m = Layout::contiguous(&[3, 4]);
        assert_eq!(parts(&m.diagonal(1, 0, 1).unwrap()), (vec![3], vec![5], 1));
        assert_eq!(parts(&m.diagonal(5, 0, 1).unwrap()), (vec![0], vec![5], 0));
    }

    #[test]
    fn errors_are_pytorchs() {
        let x = Layout::contiguous(&[3, 4, 5]);
        let msg = |r: crate::Result<Layout>| r.unwrap_err().to_string();
        assert_eq!(
            msg(x.select(0, 3)),
            "select(): index 3 out of range for tensor of size [3, 4, 5] at dimension 0"
        );
        assert_eq!(
            msg(x.permute(&[0, 0, 1])),
            "permute: duplicate dims are not allowed."
        );
        assert_eq!(
            msg(x.movedim(&[0, 0], &[1, 2])),
            "movedim: repeated dim in `source` ([0, 0])"
        );
        assert_eq!(
            msg(x.diagonal(0, 1, 1)),
            "diagonal: diagonal dimensions cannot be identical 1, 1"
        );
        assert_eq!(
            msg(Layout::contiguous(&[10]).unfold(0, 11, 1)),
            "unfold: maximum size for tensor at dimension 0 is 10 but size is 11"
        );
        assert_eq!(
            msg(Layout::contiguous(&[10]).unfold(0, 3, 0)),
            "unfold: step is 0 but must be > 0"
        );
        assert_eq!(
            msg(x.expand(&[-1, 3, 4, 5])),
            "expand: The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"
        );
        assert!(x.slice(0, None, None, 0).is_err());
    }

    #[test]
    fn views_with_more_elements_than_isize_max_are_refused() {
        let one = Layout::contiguous(&[1, 1]);
        let huge = 1isize << 40;
        let err = one.expand(&[huge, huge]).unwrap_err();
        assert!(err.to_string().contains("has too many elements"), "{err}");
        assert!(one.expand(&[huge, 1]).is_ok());
        let wide = Layout::contiguous(&[1]).expand(&[huge]).unwrap();
        assert!(wide.unfold(0, 1 << 39, 1).is_err());
        assert_eq!(wide.numel(), 1 << 40);
        // A step past isize::MAX leaves one window, with a stride that is
        // not negative.
        let w = Layout::contiguous(&[5]).unfold(0, 2, usize::MAX).unwrap();
        assert_eq!(w.shape(), &[1, 2]);
        assert!(w.strides().iter().all(|&s| s >= 0));
        let unchecked = Layout::from_parts(&[1 << 40, 1 << 40, 1 << 40], &[0, 0, 0], 0);
        assert_eq!(unchecked.numel(), usize::MAX);
        assert!(unchecked.check_bounds(1, 4).is_err());
    }
}
