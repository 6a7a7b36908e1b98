//! `topk` along an axis by name: `K` in the type (the result's axis has
//! size `K`, proven to fit where the axis is static), or known at run time.

use axial_core::{Backend, Result};
use axial_shape::{Dyn, HasAxis, ResizeAxis, Shape, TopK};

use super::arg::WithIndices;
use super::dtype::Ordered;
use crate::access::owned;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::TensorBase;

impl<T: Ordered, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `topk` with `k` and the layout of the result.
    fn topk_at<Out>(
        &self,
        k: usize,
        pos: usize,
        largest: bool,
        sorted: bool,
    ) -> Result<WithIndices<T, Out, D>> {
        let (values, indices) = self.raw().topk(k, pos as isize, largest, sorted)?;
        Ok((owned(values), owned(indices)))
    }

    /// `torch.topk(x, K, dim, largest, sorted)` along the axis `A`: the
    /// `K` largest elements (the smallest when `largest` is false) and their
    /// `i64` indices, `A` of size `K`. `K` larger than a static axis is a
    /// compile error. NaN counts as the largest value; sorted, equal values
    /// come in the order of their indices, and unsorted (where PyTorch
    /// leaves the order open) all come in that order.
    ///
    /// # Errors
    /// `K` larger than a run-time size, a bool tensor, or a failure of the
    /// device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Vocab);
    /// let logits = Tensor::<f32, shape![Batch: 2, Vocab: 4]>::from_array([[0.1, 0.9, 0.3, 0.5], [2.0, 1.0, 3.0, 0.0]]);
    /// let (values, ids) = logits.try_topk::<Vocab, 2>(true, true)?; // shape![Batch: 2, Vocab: 2]
    /// assert_eq!(values.to_vec(), vec![0.9, 0.5, 3.0, 2.0]);
    /// assert_eq!(ids.to_vec(), vec![1, 3, 2, 0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_topk<A, const K: usize>(
        &self,
        largest: bool,
        sorted: bool,
    ) -> Result<WithIndices<T, <S as TopK<A, K>>::Output, D>>
    where
        S: TopK<A, K>,
    {
        self.topk_at(K, <S as HasAxis<A>>::POS, largest, sorted)
    }

    /// `torch.topk(x, K, dim, largest, sorted)` along the axis `A` (see
    /// [`try_topk`](Self::try_topk)).
    ///
    /// # Panics
    /// As [`try_topk`](Self::try_topk), with its message (only with a
    /// run-time size).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Vocab);
    /// let x = Tensor::<i64, shape![Vocab: 5]>::from_array([3, 1, 4, 1, 5]);
    /// let (smallest, at) = x.topk::<Vocab, 2>(false, true);
    /// assert_eq!((smallest.to_vec(), at.to_vec()), (vec![1, 1], vec![1, 3]));
    /// ```
    #[track_caller]
    pub fn topk<A, const K: usize>(
        &self,
        largest: bool,
        sorted: bool,
    ) -> WithIndices<T, <S as TopK<A, K>>::Output, D>
    where
        S: TopK<A, K>,
    {
        or_panic(self.try_topk::<A, K>(largest, sorted))
    }

    /// `torch.topk` along the axis `A` with `k` known at run time: `A`
    /// becomes `Dyn`.
    ///
    /// # Errors
    /// `k` larger than the axis (PyTorch's "selected index k out of
    /// range"), a bool tensor, or a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Vocab);
    /// let x = Tensor::<f32, shape![Vocab: 3]>::from_array([0.5, 2.0, 1.0]);
    /// let (v, i) = x.try_topk_by::<Vocab>(2, true, true)?;
    /// assert_eq!((v.to_vec(), i.to_vec()), (vec![2.0, 1.0], vec![1, 2]));
    /// assert_eq!(x.try_topk_by::<Vocab>(4, true, true).unwrap_err().to_string(), "topk: selected index k out of range");
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_topk_by<A>(
        &self,
        k: usize,
        largest: bool,
        sorted: bool,
    ) -> Result<WithIndices<T, <S as ResizeAxis<A, Dyn>>::Output, D>>
    where
        S: ResizeAxis<A, Dyn>,
    {
        self.topk_at(k, <S as HasAxis<A>>::POS, largest, sorted)
    }

    /// `torch.topk` along the axis `A` with `k` known at run time (see
    /// [`try_topk_by`](Self::try_topk_by)).
    ///
    /// # Panics
    /// As [`try_topk_by`](Self::try_topk_by), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Vocab);
    /// let x = Tensor::<f32, shape![Vocab: 3]>::from_array([0.5, 2.0, 1.0]);
    /// assert_eq!(x.topk_by::<Vocab>(1, true, true).1.to_vec(), vec![1]);
    /// ```
    #[track_caller]
    pub fn topk_by<A>(
        &self,
        k: usize,
        largest: bool,
        sorted: bool,
    ) -> WithIndices<T, <S as ResizeAxis<A, Dyn>>::Output, D>
    where
        S: ResizeAxis<A, Dyn>,
    {
        or_panic(self.try_topk_by::<A>(k, largest, sorted))
    }
}
