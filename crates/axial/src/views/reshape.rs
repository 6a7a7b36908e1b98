//! Views that regroup elements: `expand`, `merge`, `split`, `reshape`,
//! `view`, `contiguous`. Those that may copy (`reshape`, `merge`,
//! `contiguous`) give `R::MaybeCopy`: the same kind when owned or shared, a
//! read-only [`TensorCow`](crate::TensorCow) for a view.

use axial_core::{Backend, Device, Element, Layout, Result};
use axial_shape::{ExpandTo, GenericArray, Merge, Merged, NoSymbols, ReshapeTo, Shape, Split};

use crate::device::SameDevice;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::TensorBase;

/// The sizes of `S` for the core: static ones, and -1 (infer, or keep) for `Dyn`.
pub(crate) fn target_sizes<S: Shape + NoSymbols>() -> GenericArray<isize, S::Rank> {
    let mut sizes = GenericArray::<Option<usize>, S::Rank>::default();
    S::write_static_sizes(&mut sizes);
    sizes.iter().map(|s| s.map_or(-1, |n| n as isize)).collect()
}

impl<T: Element, S: Shape, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// This tensor broadcast to `S2` (a read-only view): axes pair up from the
    /// right, a size-1 axis stretches with stride 0, new axes go in front. A
    /// `Dyn` axis of `S2` keeps this tensor's size.
    ///
    /// # Errors
    /// A `Dyn` size that is neither 1 nor the target's, worded as PyTorch's.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![B: 3, C: 1]>::zeros();
    /// let y = x.try_expand::<shape![A: 2, B: 3, C: 4]>()?;
    /// assert_eq!(y.strides().as_slice(), &[0, 1, 0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_expand<S2: Shape + NoSymbols>(self) -> Result<TensorBase<T, S2, D, R::ReadOnly>>
    where
        S: ExpandTo<S2>,
    {
        let layout = self.layout.expand(&target_sizes::<S2>())?;
        Ok(TensorBase::from_parts(self.data.freeze(), layout))
    }

    /// This tensor broadcast to `S2` (a read-only view). With static sizes
    /// every mismatch is a compile error, so this cannot panic.
    ///
    /// # Panics
    /// As [`try_expand`](Self::try_expand), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let y = x.expand::<shape![2, A: 3, B: 4, C: 5]>();
    /// assert_eq!(y.strides().as_slice(), &[0, 20, 5, 1]);
    /// ```
    #[track_caller]
    pub fn expand<S2: Shape + NoSymbols>(self) -> TensorBase<T, S2, D, R::ReadOnly>
    where
        S: ExpandTo<S2>,
    {
        or_panic(self.try_expand::<S2>())
    }

    /// The same as [`expand`](Self::expand) (PyTorch's other name for it).
    ///
    /// # Panics
    /// As [`try_expand`](Self::try_expand), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![3]>::zeros();
    /// assert_eq!(x.broadcast_to::<shape![2, 3]>().strides().as_slice(), &[0, 1]);
    /// ```
    #[track_caller]
    pub fn broadcast_to<S2: Shape + NoSymbols>(self) -> TensorBase<T, S2, D, R::ReadOnly>
    where
        S: ExpandTo<S2>,
    {
        self.expand::<S2>()
    }

    /// This tensor broadcast to the shape and sizes of `other` (a read-only view).
    ///
    /// # Errors
    /// A size that is neither 1 nor `other`'s.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Cols);
    /// let bias = Tensor::<f32, shape![Cols: 4]>::ones();
    /// let x = Tensor::<f32, shape![Batch: Dyn, Cols: 4]>::zeros_dyn(3);
    /// let b = bias.as_view().try_expand_as(&x)?;
    /// assert_eq!((b.sizes().as_slice(), b.strides().as_slice()), (&[3, 4][..], &[0, 1][..]));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_expand_as<T2, S2: Shape, D2, R2>(
        self,
        other: &TensorBase<T2, S2, D2, R2>,
    ) -> Result<TensorBase<T, S2, D, R::ReadOnly>>
    where
        S: ExpandTo<S2>,
        D2: SameDevice<D>,
    {
        let sizes: Vec<isize> = other.layout.shape().iter().map(|&n| n as isize).collect();
        let layout = self.layout.expand(&sizes)?;
        Ok(TensorBase::from_parts(self.data.freeze(), layout))
    }

    /// This tensor broadcast to the shape and sizes of `other`.
    ///
    /// # Panics
    /// As [`try_expand_as`](Self::try_expand_as), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let row = Tensor::<f32, shape![Rows: 1, Cols: 3]>::ones();
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    /// assert_eq!(row.expand_as(&m).to_vec(), vec![1.0; 6]);
    /// ```
    #[track_caller]
    pub fn expand_as<T2, S2: Shape, D2, R2>(
        self,
        other: &TensorBase<T2, S2, D2, R2>,
    ) -> TensorBase<T, S2, D, R::ReadOnly>
    where
        S: ExpandTo<S2>,
        D2: SameDevice<D>,
    {
        or_panic(self.try_expand_as(other))
    }

    /// The axis `A` unflattened into the axes of `Sub` (a view): their sizes
    /// multiply to `A`'s (proven when static; one `Dyn` in `Sub` is inferred).
    ///
    /// # Errors
    /// With `Dyn` sizes: the sizes do not multiply to `A`'s, or more than one
    /// is `Dyn`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C, C1, C2);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let y = x.try_split::<C, shape![C1: Dyn, C2: 5]>()?;
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice()), (&[3, 4, 1, 5][..], &[20, 5, 5, 1][..]));
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_split<A, Sub: Shape + NoSymbols>(
        self,
    ) -> Result<TensorBase<T, <S as Split<A, Sub>>::Output, D, R>>
    where
        S: Split<A, Sub>,
    {
        let layout = self.layout.unflatten(
            <S as axial_shape::HasAxis<A>>::POS as isize,
            &target_sizes::<Sub>(),
        )?;
        Ok(self.relayout(layout))
    }

    /// The axis `A` unflattened into the axes of `Sub` (a view).
    ///
    /// # Panics
    /// As [`try_split`](Self::try_split), with its message (only with `Dyn` sizes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(N, Pixels, Rows, Cols);
    /// let x = Tensor::<f32, shape![N: 2, Pixels: 6]>::zeros();
    /// let y = x.split::<Pixels, shape![Rows: 2, Cols: 3]>();
    /// assert_eq!(y.strides().as_slice(), &[6, 3, 1]);
    /// ```
    #[track_caller]
    pub fn split<A, Sub: Shape + NoSymbols>(
        self,
    ) -> TensorBase<T, <S as Split<A, Sub>>::Output, D, R>
    where
        S: Split<A, Sub>,
    {
        or_panic(self.try_split::<A, Sub>())
    }

    /// The same elements seen as the shape `S2`, never copying: PyTorch's
    /// `view`, which succeeds exactly when the strides allow it. Static
    /// element counts are proven equal; one `Dyn` size of `S2` is inferred.
    ///
    /// # Errors
    /// The strides do not allow the view, or a `Dyn` count does not fit.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Pixels);
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    /// assert!(m.as_view().try_view::<shape![Pixels: 6]>().is_ok());
    /// assert_eq!(
    ///     m.t().try_view::<shape![Pixels: 6]>().unwrap_err().to_string(),
    ///     "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."
    /// );
    /// ```
    pub fn try_view<S2: Shape + NoSymbols>(self) -> Result<TensorBase<T, S2, D, R>>
    where
        S: ReshapeTo<S2>,
    {
        let layout = self.layout.view(&target_sizes::<S2>())?;
        Ok(self.relayout(layout))
    }

    /// The same elements seen as the shape `S2`, never copying.
    ///
    /// # Panics
    /// As [`try_view`](Self::try_view), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![12]>::arange().view::<shape![3, 4]>();
    /// assert_eq!(x.strides().as_slice(), &[4, 1]);
    /// ```
    #[track_caller]
    pub fn view<S2: Shape + NoSymbols>(self) -> TensorBase<T, S2, D, R>
    where
        S: ReshapeTo<S2>,
    {
        or_panic(self.try_view::<S2>())
    }
}

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// The same elements as the shape `S2`: a view when the strides allow it,
    /// else a contiguous copy (PyTorch's `reshape`). Static element counts are
    /// proven equal; one `Dyn` size of `S2` is inferred.
    ///
    /// # Errors
    /// A `Dyn` count does not fit, or the device failed to copy.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Pixels);
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
    /// let flat = m.as_view().t().try_reshape::<shape![Pixels: 6]>()?;
    /// assert!(!flat.shares_storage_with(&m)); // a copy: the transpose cannot be viewed flat
    /// assert_eq!(flat.to_vec(), vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_reshape<S2: Shape + NoSymbols>(self) -> Result<TensorBase<T, S2, D, R::MaybeCopy>>
    where
        S: ReshapeTo<S2>,
    {
        let sizes = target_sizes::<S2>();
        match self.layout.reshape_view(&sizes)? {
            Some(layout) => Ok(TensorBase::from_parts(self.data.keep(), layout)),
            None => {
                let inferred = axial_core::layout::infer_size(&sizes, self.numel())?;
                self.copy_as(&inferred)
            }
        }
    }

    /// The same elements as the shape `S2`, a view when possible.
    ///
    /// # Panics
    /// As [`try_reshape`](Self::try_reshape), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let grid = Tensor::<f32, shape![12]>::arange().reshape::<shape![3, 4]>();
    /// assert_eq!(grid.get([2, 1]), 9.0);
    /// ```
    #[track_caller]
    pub fn reshape<S2: Shape + NoSymbols>(self) -> TensorBase<T, S2, D, R::MaybeCopy>
    where
        S: ReshapeTo<S2>,
    {
        or_panic(self.try_reshape::<S2>())
    }

    /// The adjacent axes of `L` (in this order) flattened into one axis
    /// `New`: a view when the strides allow it, else a copy (PyTorch's
    /// `flatten(dims, name)`).
    ///
    /// # Errors
    /// The device failed to copy.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(N, C, H, W, CHW);
    /// let x = Tensor::<f32, shape![N: 2, C: 3, H: 4, W: 5]>::zeros();
    /// let y = x.as_view().try_merge::<names![C, H, W], CHW>()?;
    /// assert_eq!(y.names().as_slice(), &[Some("N"), Some("CHW")]);
    /// assert_eq!(y.sizes().as_slice(), &[2, 60]);
    /// assert!(y.shares_storage_with(&x));
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_merge<L, New>(self) -> Result<TensorBase<T, Merged<S, L, New>, D, R::MaybeCopy>>
    where
        S: Merge<L, New>,
    {
        self.merged(<S as Merge<L, New>>::POS, <S as Merge<L, New>>::LEN)
    }

    /// The adjacent axes of `L` flattened into one axis `New`.
    ///
    /// # Panics
    /// As [`try_merge`](Self::try_merge), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Pixels);
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    /// assert_eq!(m.merge::<names![Rows, Cols], Pixels>().sizes().as_slice(), &[6]);
    /// ```
    #[track_caller]
    pub fn merge<L, New>(self) -> TensorBase<T, Merged<S, L, New>, D, R::MaybeCopy>
    where
        S: Merge<L, New>,
    {
        or_panic(self.merged(<S as Merge<L, New>>::POS, <S as Merge<L, New>>::LEN))
    }

    /// This tensor when already contiguous (the same storage), else a
    /// contiguous copy (PyTorch's `contiguous()`).
    ///
    /// # Errors
    /// The device failed to copy.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    /// assert!(m.as_view().try_contiguous()?.shares_storage_with(&m));
    /// let c = m.as_view().t().try_contiguous()?;
    /// assert!(!c.shares_storage_with(&m));
    /// assert_eq!(c.strides().as_slice(), &[2, 1]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_contiguous(self) -> Result<TensorBase<T, S, D, R::MaybeCopy>> {
        if self.is_contiguous() {
            return Ok(TensorBase::from_parts(self.data.keep(), self.layout));
        }
        let sizes = self.layout.shape().to_vec();
        self.copy_as(&sizes)
    }

    /// This tensor when already contiguous, else a contiguous copy.
    ///
    /// # Panics
    /// As [`try_contiguous`](Self::try_contiguous), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::zeros();
    /// assert!(x.t().contiguous().is_contiguous());
    /// ```
    #[track_caller]
    pub fn contiguous(self) -> TensorBase<T, S, D, R::MaybeCopy> {
        or_panic(self.try_contiguous())
    }

    /// The `len` axes from `pos` flattened into one: a view when possible.
    fn merged<S2>(self, pos: usize, len: usize) -> Result<TensorBase<T, S2, D, R::MaybeCopy>> {
        let shape = self.layout.shape();
        let merged: usize = shape[pos..pos + len].iter().product();
        // Inline vectors: a merge in a model's loop allocates nothing.
        let sizes: axial_core::layout::Dims = shape[..pos]
            .iter()
            .copied()
            .chain([merged])
            .chain(shape[pos + len..].iter().copied())
            .collect();
        let signed: axial_core::layout::Strides = sizes.iter().map(|&n| n as isize).collect();
        match self.layout.reshape_view(&signed)? {
            Some(layout) => Ok(TensorBase::from_parts(self.data.keep(), layout)),
            None => self.copy_as(&sizes),
        }
    }

    /// A contiguous copy of the elements, laid out as `sizes`.
    fn copy_as<S2>(self, sizes: &[usize]) -> Result<TensorBase<T, S2, D, R::MaybeCopy>> {
        let (storage, _, _) = self.raw().to_contiguous()?.into_parts();
        Ok(TensorBase::from_parts(
            R::copied(storage),
            Layout::contiguous(sizes),
        ))
    }
}
