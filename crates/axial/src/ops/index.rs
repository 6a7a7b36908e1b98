//! Reads by index along an axis by name: `gather` (an index of the input's
//! axes, PyTorch's `torch.gather`) and `index_select` (an index of one
//! axis, which takes the place of the axis selected along).

use axial_core::{Backend, Element, Result};
use axial_shape::{GatherBy, HasAxis, IndexAxis, ReplaceAxis, Shape};

use crate::access::owned;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// The shape `index_select::<A>` gives on `S` with an index of one axis
/// `SI`: the index's axis (name and size) in place of `A`.
///
/// ```
/// use axial::prelude::*;
/// use axial::Selected;
/// axes!(Vocab, Model, Token);
/// let _: Option<Selected<shape![Vocab: 100, Model: 8], Vocab, shape![Token: 5]>> =
///     None::<shape![Token: 5, Model: 8]>;
/// ```
pub type Selected<S, A, SI> =
    <S as ReplaceAxis<A, <SI as IndexAxis>::Name, <SI as IndexAxis>::Size>>::Output;

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `torch.gather(self, dim, index)` along the axis `A`: the result has
    /// the index's shape, and at each position the element of `self` there
    /// but along `A`, where the index says which. The index has this
    /// tensor's axes in this order, each at most as long but along `A` (a
    /// longer static one is a compile error).
    ///
    /// # Errors
    /// An index outside `A` (checked before anything is written), a `Dyn`
    /// size that does not fit, or a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Classes);
    /// let scores = Tensor::<f32, shape![Batch: 2, Classes: 3]>::from_array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]]);
    /// let labels = Tensor::<i64, shape![Batch: 2, Classes: 1]>::from_array([[1], [0]]);
    /// let picked = scores.try_gather::<Classes, _>(&labels)?; // shape![Batch: 2, Classes: 1]
    /// assert_eq!(picked.to_vec(), vec![0.7, 0.5]);
    /// let out_of_range = Tensor::<i64, shape![Batch: 2, Classes: 1]>::from_array([[3], [0]]);
    /// assert_eq!(
    ///     scores.try_gather::<Classes, _>(&out_of_range).unwrap_err().to_string(),
    ///     "gather: index 3 is out of bounds for dimension 1 with size 3"
    /// );
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_gather<A, SI>(
        &self,
        index: &TensorBase<i64, SI, D, impl Data<D>>,
    ) -> Result<Tensor<T, SI, D>>
    where
        S: GatherBy<SI, A>,
        SI: Shape,
    {
        let dim = <S as GatherBy<SI, A>>::POS as isize;
        self.raw().gather(dim, &index.raw()).map(owned)
    }

    /// `torch.gather(self, dim, index)` along the axis `A` (see
    /// [`try_gather`](Self::try_gather)).
    ///
    /// # Panics
    /// As [`try_gather`](Self::try_gather), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<i32, shape![Rows: 2, Cols: 2]>::from_array([[1, 2], [3, 4]]);
    /// let i = Tensor::<i64, shape![Rows: 2, Cols: 2]>::from_array([[0, 0], [1, 0]]);
    /// assert_eq!(x.gather::<Cols, _>(&i).to_vec(), vec![1, 1, 4, 3]);
    /// ```
    #[track_caller]
    pub fn gather<A, SI>(&self, index: &TensorBase<i64, SI, D, impl Data<D>>) -> Tensor<T, SI, D>
    where
        S: GatherBy<SI, A>,
        SI: Shape,
    {
        or_panic(self.try_gather::<A, SI>(index))
    }

    /// `torch.index_select(self, dim, index)` along the axis `A`: the
    /// slices of `self` at the positions the one-axis `index` lists, in its
    /// order; the index's axis (name and size) takes `A`'s place. An index
    /// named `A` keeps the name.
    ///
    /// # Errors
    /// An index outside `A` (checked before anything is written), or a
    /// failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Vocab, Model, Token);
    /// let table = Tensor::<f32, shape![Vocab: 3, Model: 2]>::from_array([[0.0, 0.5], [1.0, 1.5], [2.0, 2.5]]);
    /// let ids = Tensor::<i64, shape![Token: 4]>::from_array([2, 0, 2, 1]);
    /// let rows = table.try_index_select::<Vocab, _>(&ids)?; // shape![Token: 4, Model: 2]
    /// assert_eq!(rows.names().as_slice(), &[Some("Token"), Some("Model")]);
    /// assert_eq!(rows.to_vec(), vec![2.0, 2.5, 0.0, 0.5, 2.0, 2.5, 1.0, 1.5]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_index_select<A, SI>(
        &self,
        index: &TensorBase<i64, SI, D, impl Data<D>>,
    ) -> Result<Tensor<T, Selected<S, A, SI>, D>>
    where
        SI: IndexAxis,
        S: ReplaceAxis<A, SI::Name, SI::Size>,
    {
        let dim = <S as HasAxis<A>>::POS as isize;
        self.raw().index_select(dim, &index.raw()).map(owned)
    }

    /// `torch.index_select(self, dim, index)` along the axis `A` (see
    /// [`try_index_select`](Self::try_index_select)).
    ///
    /// # Panics
    /// As [`try_index_select`](Self::try_index_select), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<i64, shape![Rows: 2, Cols: 3]>::arange();
    /// let last_first = Tensor::<i64, shape![Cols: 2]>::from_array([2, 0]);
    /// assert_eq!(x.index_select::<Cols, _>(&last_first).to_vec(), vec![2, 0, 5, 3]);
    /// ```
    #[track_caller]
    pub fn index_select<A, SI>(
        &self,
        index: &TensorBase<i64, SI, D, impl Data<D>>,
    ) -> Tensor<T, Selected<S, A, SI>, D>
    where
        SI: IndexAxis,
        S: ReplaceAxis<A, SI::Name, SI::Size>,
    {
        or_panic(self.try_index_select::<A, SI>(index))
    }
}
