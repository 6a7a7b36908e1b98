//! Views whose result sizes stay in the type: `narrow_to` a length of a
//! known size (static, symbolic, a sum) and `unfold_windows` of a static
//! size and step (the number of windows static where the axis is).

use axial_core::{Device, Element, Result};
use axial_shape::{HasAxis, ResizeAxis, Resized, Shape, UnfoldBy};

use crate::extent::Extent;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// `length` elements of the axis `A` from `start` (a view; `start` may
    /// be negative), `A`'s size becoming `length`'s size type: static for
    /// `Sz::<N>`, the symbol or sum of an extent taken from another tensor
    /// (the last `Seq` keys of a cache of `Plus<Past, Seq>` are `Seq` again).
    ///
    /// # Errors
    /// The range does not fit in `A` (PyTorch's message).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Sz;
    /// axes!(Seq, Model);
    /// let x = Tensor::<f32, shape![Seq: 6, Model: 2]>::arange();
    /// let head: TensorView<'_, f32, shape![Seq: 4, Model: 2]> = x.as_view().try_narrow_to::<Seq, _>(1, Sz::<4>)?;
    /// assert_eq!(head.storage_offset(), 2);
    /// assert!(x.as_view().try_narrow_to::<Seq, _>(3, Sz::<4>).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_narrow_to<A, Z>(
        self,
        start: isize,
        length: impl Into<Extent<Z>>,
    ) -> Result<TensorBase<T, Resized<S, A, Z>, D, R>>
    where
        S: ResizeAxis<A, Z>,
    {
        let n = length.into().get();
        let layout = self
            .layout
            .narrow(<S as HasAxis<A>>::POS as isize, start, n)?;
        Ok(self.relayout(layout))
    }

    /// `length` elements of the axis `A` from `start` (a view), `A`'s size
    /// becoming `length`'s (see [`try_narrow_to`](Self::try_narrow_to)).
    ///
    /// # Panics
    /// As [`try_narrow_to`](Self::try_narrow_to), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Sz;
    /// axes!(Seq, Model);
    /// let x = Tensor::<i64, shape![Seq: 4, Model: 1]>::arange();
    /// let last: Tensor<i64, shape![Seq: 2, Model: 1]> = x.narrow_to::<Seq, _>(-2, Sz::<2>);
    /// assert_eq!(last.to_vec(), vec![2, 3]);
    /// ```
    #[track_caller]
    pub fn narrow_to<A, Z>(
        self,
        start: isize,
        length: impl Into<Extent<Z>>,
    ) -> TensorBase<T, Resized<S, A, Z>, D, R>
    where
        S: ResizeAxis<A, Z>,
    {
        or_panic(self.try_narrow_to::<A, Z>(start, length))
    }

    /// Windows of `SIZE` elements every `STEP` along the axis `A` (a view,
    /// read-only as [`unfold`](Self::unfold)'s): `A` becomes the number of
    /// windows, `(n - SIZE) / STEP + 1`, static where `A` is, and each window
    /// is the new last axis `New` of size `SIZE`. Windows longer than a
    /// static axis, or a step of 0, are compile errors.
    ///
    /// # Errors
    /// Windows longer than a run-time size.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Time, Window);
    /// let x = Tensor::<f32, shape![Time: 10]>::arange();
    /// let w = x.as_view().try_unfold_windows::<Time, Window, 3, 2>()?;
    /// let _: &TensorBase<f32, shape![Time: 4, Window: 3], Cpu, _> = &w;
    /// assert_eq!(w.strides().as_slice(), &[2, 1]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_unfold_windows<A, New, const SIZE: usize, const STEP: usize>(
        self,
    ) -> Result<TensorBase<T, <S as UnfoldBy<A, New, SIZE, STEP>>::Output, D, R::ReadOnly>>
    where
        S: UnfoldBy<A, New, SIZE, STEP>,
    {
        let layout = self
            .layout
            .unfold(<S as HasAxis<A>>::POS as isize, SIZE, STEP)?;
        Ok(TensorBase::from_parts(self.data.freeze(), layout))
    }

    /// Windows of `SIZE` elements every `STEP` along the axis `A` (see
    /// [`try_unfold_windows`](Self::try_unfold_windows)).
    ///
    /// # Panics
    /// As [`try_unfold_windows`](Self::try_unfold_windows), with its message
    /// (only with a run-time size).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Time, Window);
    /// let x = Tensor::<f32, shape![Batch: 2, Time: 5]>::arange();
    /// let w = x.unfold_windows::<Time, Window, 2, 1>(); // shape![Batch: 2, Time: 4, Window: 2]
    /// assert_eq!(w.sizes().as_slice(), &[2, 4, 2]);
    /// assert_eq!(w.sum::<Window>().to_vec(), vec![1.0, 3.0, 5.0, 7.0, 11.0, 13.0, 15.0, 17.0]);
    /// ```
    #[track_caller]
    pub fn unfold_windows<A, New, const SIZE: usize, const STEP: usize>(
        self,
    ) -> TensorBase<T, <S as UnfoldBy<A, New, SIZE, STEP>>::Output, D, R::ReadOnly>
    where
        S: UnfoldBy<A, New, SIZE, STEP>,
    {
        or_panic(self.try_unfold_windows::<A, New, SIZE, STEP>())
    }
}
