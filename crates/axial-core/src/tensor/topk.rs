//! `topk`: the `k` largest (or smallest) elements along a dim and their
//! indices. The lines along the dim are read to the host, each selected
//! there (a partial selection, then a sort of the `k` kept), and the two
//! results written back to the tensor's device.

use std::cmp::Ordering;

use super::{RawTensor, TensorRef};
use crate::layout::wrap_dim;
use crate::{Backend, DType, Element, Error, Result, with_real_dtype};

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.topk(x, k, dim, largest, sorted)`: the `k` largest elements
    /// along `dim` (the smallest when `largest` is false) and their `i64`
    /// indices, the dim's size becoming `k`. NaN counts as larger than every
    /// number, as in PyTorch. Sorted, they come largest first (smallest
    /// first when `largest` is false), equal values in the order of their
    /// indices; unsorted (where PyTorch leaves the order open), in the order
    /// of their indices.
    ///
    /// # Errors
    /// `k` larger than the dim, a dim out of range, or a bool tensor.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 5.0, 3.0, 4.0, 2.0, 6.0], &[2, 3])?;
    /// let (values, indices) = x.view().topk(2, 1, true, true)?;
    /// assert_eq!(values.to_vec::<f32>()?, vec![5.0, 3.0, 6.0, 4.0]);
    /// assert_eq!(indices.to_vec::<i64>()?, vec![1, 2, 2, 0]);
    /// let e = x.view().topk(4, 1, true, true).err().unwrap();
    /// assert_eq!(e.to_string(), "topk: selected index k out of range");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn topk(
        &self,
        k: usize,
        dim: isize,
        largest: bool,
        sorted: bool,
    ) -> Result<(RawTensor<D>, RawTensor<D>)> {
        let op = "topk";
        if self.dtype() == DType::Bool {
            return Err(Error::Unsupported {
                op: "topk_cpu",
                dtype: DType::Bool,
            });
        }
        // A 0-dim tensor is one line of one element.
        let lifted = if self.dim() == 0 {
            self.unsqueeze(0)?
        } else {
            self.clone()
        };
        let dim = wrap_dim(dim, lifted.dim())?;
        let n = lifted.shape()[dim];
        if k > n {
            return Err(Error::invalid(op, "selected index k out of range"));
        }
        let last = lifted.dim() as isize - 1;
        let lines = lifted.movedim(&[dim as isize], &[last])?;
        let mut shape = lines.shape().to_vec();
        if let Some(size) = shape.last_mut() {
            *size = k;
        }
        let device = self.storage().device();
        let (values, indices) = with_real_dtype!(self.dtype(), T => {
            let host = lines.to_vec::<T>()?;
            let (values, indices) = select_lines(&host, n, k, largest, sorted);
            (
                RawTensor::from_slice_on(device, &values, &shape)?,
                RawTensor::from_slice_on(device, &indices, &shape)?,
            )
        }, _ => return Err(Error::Unsupported { op: "topk", dtype: self.dtype() }));
        let back = |t: RawTensor<D>| -> Result<RawTensor<D>> {
            if self.dim() == 0 {
                return t.view().squeeze_dims(&[0])?.to_contiguous();
            }
            t.view().movedim(&[last], &[dim as isize])?.to_contiguous()
        };
        Ok((back(values)?, back(indices)?))
    }
}

/// The values in decreasing order, NaN above every number.
fn descending<T: Element + PartialOrd>(a: T, b: T) -> Ordering {
    // NaN, of every dtype: the one value not ordered with itself.
    let nan = |x: T| x.partial_cmp(&x).is_none();
    match (nan(a), nan(b)) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => b.partial_cmp(&a).unwrap_or(Ordering::Equal),
    }
}

/// The `k` first of each line of `n` elements of `host` in `topk`'s order.
fn select_lines<T: Element + PartialOrd>(
    host: &[T],
    n: usize,
    k: usize,
    largest: bool,
    sorted: bool,
) -> (Vec<T>, Vec<i64>) {
    let rows = host.len().checked_div(n).unwrap_or(0);
    let mut values = Vec::with_capacity(rows * k);
    let mut indices = Vec::with_capacity(rows * k);
    let order = |a: &(T, i64), b: &(T, i64)| {
        let by_value = if largest {
            descending(a.0, b.0)
        } else {
            descending(b.0, a.0)
        };
        by_value.then(a.1.cmp(&b.1))
    };
    let mut line: Vec<(T, i64)> = Vec::with_capacity(n);
    for row in host.chunks_exact(n.max(1)).take(rows) {
        line.clear();
        line.extend(row.iter().zip(0i64..).map(|(&v, i)| (v, i)));
        if k < n && k > 0 {
            line.select_nth_unstable_by(k - 1, order);
        }
        line.truncate(k);
        if sorted {
            line.sort_by(order);
        } else {
            line.sort_by_key(|&(_, i)| i);
        }
        values.extend(line.iter().map(|&(v, _)| v));
        indices.extend(line.iter().map(|&(_, i)| i));
    }
    (values, indices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bool;

    #[test]
    fn nan_is_the_largest_and_ties_go_by_index() {
        let x = [1.0f32, f32::NAN, 1.0, 3.0];
        let (v, i) = select_lines(&x, 4, 3, true, true);
        assert!(v[0].is_nan());
        assert_eq!((&v[1..], i), (&[3.0, 1.0][..], vec![1, 3, 0]));
        let (v, i) = select_lines(&x, 4, 2, false, true);
        assert_eq!((v, i), (vec![1.0, 1.0], vec![0, 2]));
        let (_, i) = select_lines(&x, 4, 3, true, false);
        assert_eq!(i, vec![0, 1, 3]);
        assert_eq!(select_lines::<Bool>(&[], 0, 0, true, true).0, vec![]);
    }
}
