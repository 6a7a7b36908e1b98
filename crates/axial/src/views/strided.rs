//! Views with strides of their own: `as_strided`, `diagonal`, `unfold`.
//! The elements of an `as_strided` or `unfold` view may share memory, so
//! those views are read-only in the type (as a broadcast is), and
//! [`try_into_writable`](TensorBase::try_into_writable) checks the layout
//! to write through one.

use axial_core::{Device, Element, Error, Result};
use axial_shape::{Diagonal, GenericArray, HasAxis, NoSymbols, RankIs, Shape, Unfold};

use super::proven;
use crate::or_panic::or_panic;
use crate::repr::{Broadcast, Data, DataMut};
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// Any layout over the same storage, as the shape `S2`: `sizes` (static
    /// ones must agree with `S2`), `strides` in elements, and an `offset`
    /// absolute in the storage (default: this tensor's). Checked against the
    /// storage; overlapping elements are allowed, so the view is read-only
    /// ([`try_into_writable`](Self::try_into_writable) checks that no two
    /// elements share memory, to write through it).
    ///
    /// # Errors
    /// A size that contradicts `S2`, a layout past the end of the storage
    /// (worded as PyTorch's `setStorage`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let b = Tensor::<f32, shape![10]>::arange();
    /// let w = b.as_view().as_strided::<shape![3, 3], 2>([3, 3], [1, 1], None)?;
    /// assert_eq!(w.to_vec(), vec![0.0, 1.0, 2.0, 1.0, 2.0, 3.0, 2.0, 3.0, 4.0]);
    /// let e = b.as_strided::<shape![4], 1>([4], [3], Some(1)).unwrap_err();
    /// assert!(e.to_string().ends_with("requiring a storage size of 44 are out of bounds for storage of size 40"));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn as_strided<S2: RankIs<N> + NoSymbols, const N: usize>(
        self,
        sizes: [usize; N],
        strides: [isize; N],
        offset: Option<usize>,
    ) -> Result<TensorBase<T, S2, D, R::ReadOnly>> {
        let mut wanted = GenericArray::<Option<usize>, S2::Rank>::default();
        S2::write_static_sizes(&mut wanted);
        if let Some((i, (want, have))) = wanted
            .iter()
            .zip(sizes)
            .enumerate()
            .find(|(_, (w, h))| w.is_some_and(|w| w != *h))
        {
            return Err(Error::invalid(
                "as_strided",
                format!(
                    "size {have} at dimension {i} contradicts the shape's static size {want:?}"
                ),
            ));
        }
        let len = self.data.storage().len_of(T::DTYPE);
        let layout = self
            .layout
            .as_strided(&sizes, &strides, offset, len, T::DTYPE.size())?;
        Ok(TensorBase::from_parts(self.data.freeze(), layout))
    }

    /// The diagonal of the axes `A` and `B` (a view): both removed, the
    /// diagonal appended as the axis `New`. `offset > 0` is above the main
    /// diagonal (toward larger `B`), `< 0` below.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Diag);
    /// let m = Tensor::<f32, shape![Rows: 3, Cols: 4]>::arange();
    /// let d = m.as_view().diagonal::<Rows, Cols, Diag>(1);
    /// assert_eq!((d.sizes().as_slice(), d.strides().as_slice(), d.storage_offset()), (&[3][..], &[5][..], 1));
    /// assert_eq!(d.to_vec(), vec![1.0, 6.0, 11.0]);
    /// ```
    pub fn diagonal<A, B, New>(
        self,
        offset: isize,
    ) -> TensorBase<T, <S as Diagonal<A, B, New>>::Output, D, R>
    where
        S: Diagonal<A, B, New>,
    {
        let (a, b) = S::POSITIONS;
        let layout = proven(self.layout.diagonal(offset, a as isize, b as isize));
        self.relayout(layout)
    }

    /// Windows of `size` elements every `step` along the axis `A` (a view):
    /// `A` becomes the number of windows, and each window is the new last
    /// axis `New`. Windows that overlap share elements, so the view is
    /// read-only ([`try_into_writable`](Self::try_into_writable) checks
    /// the layout, to write through windows that do not overlap).
    ///
    /// # Errors
    /// `size` larger than `A`, or `step` 0, worded as PyTorch's.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Time, Window);
    /// let x = Tensor::<f32, shape![Time: 10]>::arange();
    /// let w = x.as_view().try_unfold::<Time, Window>(3, 2)?;
    /// assert_eq!((w.sizes().as_slice(), w.strides().as_slice()), (&[4, 3][..], &[2, 1][..]));
    /// assert!(x.try_unfold::<Time, Window>(11, 1).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_unfold<A, New>(
        self,
        size: usize,
        step: usize,
    ) -> Result<TensorBase<T, <S as Unfold<A, New>>::Output, D, R::ReadOnly>>
    where
        S: Unfold<A, New>,
    {
        let layout = self
            .layout
            .unfold(<S as HasAxis<A>>::POS as isize, size, step)?;
        Ok(TensorBase::from_parts(self.data.freeze(), layout))
    }

    /// Windows of `size` elements every `step` along the axis `A` (a view).
    ///
    /// # Panics
    /// As [`try_unfold`](Self::try_unfold), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C, Win);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let w = x.unfold::<B, Win>(2, 1);
    /// assert_eq!((w.sizes().as_slice(), w.strides().as_slice()), (&[3, 3, 5, 2][..], &[20, 5, 1, 5][..]));
    /// ```
    #[track_caller]
    pub fn unfold<A, New>(
        self,
        size: usize,
        step: usize,
    ) -> TensorBase<T, <S as Unfold<A, New>>::Output, D, R::ReadOnly>
    where
        S: Unfold<A, New>,
    {
        or_panic(self.try_unfold::<A, New>(size, step))
    }
}

impl<T: Element, S: Shape, D: Device, R: DataMut<D>> TensorBase<T, S, D, Broadcast<R>> {
    /// The writable tensor under a read-only view whose elements could share
    /// memory (`expand`, `unfold`, `as_strided` of a writable tensor), when
    /// none do. PyTorch lets such views be written and refuses the write
    /// later, or not at all; here the check comes first and is the only one.
    ///
    /// # Errors
    /// Two elements share a memory location (PyTorch's message for a write
    /// through such a view).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Time, Window);
    /// let mut x = Tensor::<f32, shape![Time: 6]>::zeros();
    /// // Windows of 2 every 2: apart, so they may be written.
    /// let mut apart = x.as_view_mut().unfold::<Time, Window>(2, 2).try_into_writable()?;
    /// apart.fill_(1.0);
    /// assert_eq!(x.to_vec(), vec![1.0; 6]);
    /// // Windows of 2 every 1 share elements: refused.
    /// assert!(x.as_view_mut().unfold::<Time, Window>(2, 1).try_into_writable().is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_into_writable(self) -> Result<TensorBase<T, S, D, R>> {
        if !self.layout.is_non_overlapping() {
            return Err(Error::InternalOverlap);
        }
        Ok(TensorBase::from_parts(self.data.0, self.layout))
    }

    /// The writable tensor under a read-only view whose elements could share
    /// memory, when none do.
    ///
    /// # Panics
    /// As [`try_into_writable`](Self::try_into_writable), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let mut x = Tensor::<f32, shape![4]>::zeros();
    /// let mut y = x.as_view_mut().as_strided::<shape![2], 1>([2], [2], None)?.into_writable();
    /// y.fill_(3.0);
    /// assert_eq!(x.to_vec(), vec![3.0, 0.0, 3.0, 0.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[track_caller]
    pub fn into_writable(self) -> TensorBase<T, S, D, R> {
        or_panic(self.try_into_writable())
    }
}
