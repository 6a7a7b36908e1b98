//! `tril` and `triu` over two axes by name (the rows and the columns of the
//! matrices), wherever they sit: a causal mask is
//! `ones.tril::<Query, Key>(0)`.

use axial_core::{Backend, Element, RawTensor, Result, TensorRef};
use axial_shape::{Shape, Triangle};

use crate::access::owned;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `f` over the matrices of rows `A` and columns `B`: the two moved
    /// last (a view), `f` applied, and moved back.
    fn on_matrices<A, B>(
        &self,
        f: impl FnOnce(&TensorRef<'_, D>) -> Result<RawTensor<D>>,
    ) -> Result<Tensor<T, S, D>>
    where
        S: Triangle<A, B>,
    {
        let (a, b) = <S as Triangle<A, B>>::POSITIONS;
        let (a, b) = (a as isize, b as isize);
        let last = S::RANK as isize - 1;
        let matrices = self.raw().movedim(&[a, b], &[last - 1, last])?;
        let done = f(&matrices)?;
        if (a, b) == (last - 1, last) {
            return Ok(owned(done));
        }
        let back = done.view().movedim(&[last - 1, last], &[a, b])?;
        back.to_contiguous().map(owned)
    }

    /// `torch.tril(x, diagonal)` over the matrices of rows `A` and columns
    /// `B`: the elements on and below the `diagonal`-th diagonal
    /// (`col - row <= diagonal`), zeros above.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Query, Key);
    /// let ones = Tensor::<i32, shape![Query: 2, Key: 3]>::ones();
    /// let causal = ones.try_tril::<Query, Key>(1)?; // query i sees keys up to i + 1
    /// assert_eq!(causal.to_vec(), vec![1, 1, 0, 1, 1, 1]);
    /// // The same axes in the other order: the matrices are the transposes.
    /// assert_eq!(ones.try_tril::<Key, Query>(0)?.to_vec(), vec![1, 1, 1, 0, 1, 1]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_tril<A, B>(&self, diagonal: i64) -> Result<Tensor<T, S, D>>
    where
        S: Triangle<A, B>,
    {
        self.on_matrices::<A, B>(|m| m.tril(diagonal))
    }

    /// `torch.tril(x, diagonal)` over the matrices of rows `A` and columns
    /// `B` (see [`try_tril`](Self::try_tril)).
    ///
    /// # Panics
    /// As [`try_tril`](Self::try_tril), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 2]>::ones();
    /// assert_eq!(x.tril::<Rows, Cols>(0).to_vec(), vec![1.0, 0.0, 1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn tril<A, B>(&self, diagonal: i64) -> Tensor<T, S, D>
    where
        S: Triangle<A, B>,
    {
        or_panic(self.try_tril::<A, B>(diagonal))
    }

    /// `torch.triu(x, diagonal)` over the matrices of rows `A` and columns
    /// `B`: the elements on and above the `diagonal`-th diagonal
    /// (`col - row >= diagonal`), zeros below.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Heads, Query, Key);
    /// let x = Tensor::<i64, shape![Query: 2, Heads: 1, Key: 2]>::ones();
    /// assert_eq!(x.try_triu::<Query, Key>(1)?.to_vec(), vec![0, 1, 0, 0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_triu<A, B>(&self, diagonal: i64) -> Result<Tensor<T, S, D>>
    where
        S: Triangle<A, B>,
    {
        self.on_matrices::<A, B>(|m| m.triu(diagonal))
    }

    /// `torch.triu(x, diagonal)` over the matrices of rows `A` and columns
    /// `B` (see [`try_triu`](Self::try_triu)).
    ///
    /// # Panics
    /// As [`try_triu`](Self::try_triu), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 2]>::ones();
    /// assert_eq!(x.triu::<Rows, Cols>(0).to_vec(), vec![1.0, 1.0, 0.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn triu<A, B>(&self, diagonal: i64) -> Tensor<T, S, D>
    where
        S: Triangle<A, B>,
    {
        or_panic(self.try_triu::<A, B>(diagonal))
    }
}
