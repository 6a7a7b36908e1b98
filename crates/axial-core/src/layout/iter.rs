//! The layout of a new elementwise result: PyTorch's TensorIterator
//! (`TensorIterator.cpp`: `fast_set_up`, `reorder_dimensions`,
//! `allocate_or_resize_outputs`), so that `x.t() * 2` has the strides it has
//! in PyTorch.

use super::{Dims, Layout, Strides, contiguity::sort_dims, contiguous_strides, isize_of};

impl Layout {
    /// The layout PyTorch gives the new result of an elementwise op of
    /// `shape` over `inputs` (as the op receives them: after any dtype
    /// conversion, before broadcasting; a scalar operand is a 0-dim layout):
    /// - when every input has the result's shape: row-major if every input is
    ///   contiguous, channels-last if every one is, their strides if all are
    ///   non-overlapping and dense with equal strides;
    /// - otherwise dense strides in the order of the inputs' strides (the
    ///   first input that tells two dims apart orders them; broadcast dims
    ///   tell nothing), row-major where nothing tells.
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let t = Layout::contiguous(&[2, 3]).t()?; // (3, 2) / (1, 3)
    /// let scalar = Layout::contiguous(&[]);
    /// assert_eq!(Layout::elementwise_output(&[&t], &[3, 2]).strides(), &[1, 3]);
    /// assert_eq!(Layout::elementwise_output(&[&t, &scalar], &[3, 2]).strides(), &[1, 3]);
    /// // The first input that orders the dims decides.
    /// let c = Layout::contiguous(&[3, 2]);
    /// assert_eq!(Layout::elementwise_output(&[&c, &t], &[3, 2]).strides(), &[2, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn elementwise_output(inputs: &[&Layout], shape: &[usize]) -> Layout {
        let same_shape = inputs.iter().all(|l| l.shape() == shape);
        if same_shape {
            if inputs.iter().all(|l| l.is_contiguous()) {
                return Layout::contiguous(shape);
            }
            if inputs.iter().all(|l| l.is_channels_last()) {
                return Layout::with(shape.into(), channels_last_strides(shape), 0);
            }
            if let Some(first) = inputs.first() {
                let dense = inputs.iter().all(|l| l.is_non_overlapping_and_dense());
                if dense && inputs.iter().all(|l| l.strides() == first.strides()) {
                    return Layout::with(shape.into(), first.strides().into(), 0);
                }
            }
        }
        let rank = shape.len();
        let broadcast: smallvec::SmallVec<[Strides; 3]> =
            inputs.iter().map(|l| broadcast_strides(l, shape)).collect();
        let perm = if rank == 1 {
            smallvec::smallvec![0]
        } else {
            sort_dims(rank, |d0, d1| {
                for strides in &broadcast {
                    let (s0, s1) = (strides[d0], strides[d1]);
                    if s0 == 0 || s1 == 0 {
                        continue;
                    }
                    if s0 != s1 {
                        return s0.cmp(&s1);
                    }
                    if shape[d0] > shape[d1] {
                        return std::cmp::Ordering::Greater;
                    }
                }
                std::cmp::Ordering::Equal
            })
        };
        if perm.iter().copied().eq((0..rank).rev()) {
            return Layout::contiguous(shape);
        }
        // Dense in the permuted order; a size of 0 multiplies in as it is
        // (PyTorch's `compatible_stride`), so dims outside it get stride 0.
        let mut strides: Strides = smallvec::smallvec![0; rank];
        let mut next = 1isize;
        for &d in &perm {
            strides[d] = next;
            next = next.saturating_mul(isize::try_from(shape[d]).unwrap_or(isize::MAX));
        }
        Layout::with(Dims::from(shape), strides, 0)
    }
}

/// An input's strides over the result's dims: 0 for a dim it lacks or
/// broadcasts from size 1.
fn broadcast_strides(l: &Layout, shape: &[usize]) -> Strides {
    let lead = shape.len().saturating_sub(l.rank());
    (0..shape.len())
        .map(|d| match d.checked_sub(lead) {
            Some(i) if l.shape()[i] == shape[d] => l.strides()[i],
            _ => 0,
        })
        .collect()
}

/// PyTorch's `get_channels_last_strides_2d` (rank 4; others row-major).
fn channels_last_strides(shape: &[usize]) -> Strides {
    let &[_, c, h, w] = shape else {
        return contiguous_strides(shape);
    };
    let (c, h, w) = (isize_of(c), isize_of(h), isize_of(w));
    let wc = w.saturating_mul(c);
    smallvec::smallvec![h.saturating_mul(wc), 1, wc, c]
}

#[cfg(test)]
mod tests {
    use crate::Layout;

    fn out(inputs: &[&Layout], shape: &[usize]) -> Vec<isize> {
        Layout::elementwise_output(inputs, shape).strides().to_vec()
    }

    /// Cases run in PyTorch 2.15.
    #[test]
    fn strides_follow_tensor_iterator() {
        let x = Layout::contiguous(&[2, 3, 4]);
        // x.transpose(0, 2)[:, ::2]: not dense, its dim order kept.
        let v = x.transpose(0, 2).unwrap().slice(1, None, None, 2).unwrap();
        assert_eq!(out(&[&v], &[4, 2, 2]), [1, 4, 8]);
        // A size-1 dim of odd stride: contiguous alone, ordered with a scalar.
        let a = Layout::from_parts(&[2, 1, 3], &[3, 100, 1], 0);
        let scalar = Layout::contiguous(&[]);
        assert_eq!(out(&[&a], &[2, 1, 3]), [3, 3, 1]);
        assert_eq!(out(&[&a, &scalar], &[2, 1, 3]), [3, 6, 1]);
        // Empty and permuted, with a scalar: sizes of 0 multiply in.
        let e = Layout::contiguous(&[2, 0, 3]).permute(&[2, 0, 1]).unwrap();
        assert_eq!(out(&[&e], &[3, 2, 0]), [2, 1, 1]);
        assert_eq!(out(&[&e, &scalar], &[3, 2, 0]), [1, 0, 3]);
        // Broadcasting: the permuted operand decides wherever it stands.
        let p = x.permute(&[2, 0, 1]).unwrap();
        let row = Layout::contiguous(&[3]);
        assert_eq!(out(&[&p, &row], &[4, 2, 3]), [1, 12, 4]);
        assert_eq!(out(&[&row, &p], &[4, 2, 3]), [1, 12, 4]);
        // Broadcast inputs alone give row-major results.
        let ex = Layout::contiguous(&[3]).expand(&[4, 3]).unwrap();
        assert_eq!(out(&[&ex], &[4, 3]), [3, 1]);
        let ex2 = Layout::contiguous(&[3, 1]).expand(&[3, 4]).unwrap();
        assert_eq!(out(&[&ex2, &scalar], &[3, 4]), [4, 1]);
        // Channels-last stays channels-last.
        let cl = Layout::from_parts(&[2, 3, 4, 5], &[60, 1, 15, 3], 0);
        assert_eq!(out(&[&cl, &cl], &[2, 3, 4, 5]), [60, 1, 15, 3]);
        let t = Layout::contiguous(&[2, 3]).t().unwrap();
        assert_eq!(out(&[&t, &t], &[3, 2]), [1, 3]);
        assert_eq!(out(&[&Layout::contiguous(&[3, 2]), &t], &[3, 2]), [2, 1]);
    }
}
