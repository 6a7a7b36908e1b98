//! Views of tracked tensors. Any view of the typed API applies through
//! [`Var::map_view`] (an `align_to`, a split, `s![..]` slicing, an einops
//! pattern that merges nothing, ...): the tracked tensor is then that view
//! of its base, and the gradient of the base is the view's put back where
//! it read (PyTorch's `as_strided` backward over the base, exact for every
//! view of a tensor whose elements do not overlap, which every op's result
//! and every leaf is). Views that may copy (`reshape`, `merge`,
//! `contiguous`) record the copy. The common views are methods.

use axial_core::{Backend, Element, Error, Result};
use axial_shape::{
    AlignTo, Aligned, ExpandTo, HasAxis, Merge, Merged, NoSymbols, Rename, ReshapeTo, Shape, Split,
    Transpose, Unsqueeze,
};

use super::var::{Kept, Var};
use crate::or_panic::or_panic;
use crate::repr::View;
use crate::tensor::{TensorBase, TensorView};
use crate::views::target_sizes;

impl<'g, T: Element, S, D: Backend, W> Var<'g, T, S, D, W> {
    /// A view of this tensor's elements, for a function to view further.
    fn elements(&self) -> TensorView<'_, T, S, D> {
        TensorBase::from_parts(View(self.var.storage()), self.layout.clone())
    }

    /// The layout of `out`, checked to view this tensor's storage.
    fn same_storage<S2, R2: crate::repr::Data<D>>(
        &self,
        out: &TensorBase<T, S2, D, R2>,
    ) -> Result<axial_core::Layout> {
        if !out.data.storage().same_as(self.var.storage()) {
            return Err(Error::invalid(
                "map_view",
                "the function must return a view of the tensor it is given",
            ));
        }
        Ok(out.layout.clone())
    }

    /// This tensor seen through any view of the typed API (a
    /// [`TensorView`] of its elements given to `f`, which returns a view of
    /// it): the same elements and history, the gradient put back where the
    /// view read. Views that keep writability (`align_to`, `split`,
    /// `select`, `s![..]`, ...) keep this tensor's access.
    ///
    /// # Errors
    /// `f` returns a view of another tensor.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f64, shape![Rows: 2, Cols: 3]>::arange();
    /// let xv = x.track();
    /// let corner = xv.as_kept().try_map_view(|t| t.slice_s(s![..1, 1..]))?;
    /// assert_eq!(corner.value().to_vec(), vec![1.0, 2.0]);
    /// let grads = corner.sum_all().backward();
    /// assert_eq!(grads.of(&xv).unwrap().to_vec(), vec![0.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_map_view<S2>(
        self,
        f: impl for<'a> FnOnce(TensorView<'a, T, S, D>) -> TensorView<'a, T, S2, D>,
    ) -> Result<Var<'g, T, S2, D, W>> {
        let layout = self.same_storage(&f(self.elements()))?;
        Ok(self.relaid(layout))
    }

    /// This tensor seen through any view of the typed API.
    ///
    /// # Panics
    /// As [`try_map_view`](Self::try_map_view), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f64, shape![Rows: 2, Cols: 2]>::arange();
    /// let d = x.track().map_view(|t| t.transpose::<Rows, Cols>());
    /// assert_eq!(d.value().to_vec(), vec![0.0, 2.0, 1.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn map_view<S2>(
        self,
        f: impl for<'a> FnOnce(TensorView<'a, T, S, D>) -> TensorView<'a, T, S2, D>,
    ) -> Var<'g, T, S2, D, W> {
        or_panic(self.try_map_view(f))
    }

    /// This tensor seen through a view whose elements may overlap (a
    /// broadcast, `unfold`'s windows, `as_strided`, einops' `repeat!`):
    /// read-only ([`Kept`]); the gradients of elements that share memory
    /// add up.
    ///
    /// # Errors
    /// `f` returns a view of another tensor.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Copies);
    /// let x = Tensor::<f64, shape![Rows: 2]>::ones();
    /// let xv = x.track();
    /// let wide = xv.as_kept().try_map_broadcast(|t| t.expand::<shape![Copies: 3, Rows: 2]>())?;
    /// let grads = wide.sum_all().backward();
    /// assert_eq!(grads.of(&xv).unwrap().to_vec(), vec![3.0, 3.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_map_broadcast<S2>(
        self,
        f: impl for<'a> FnOnce(TensorView<'a, T, S, D>) -> TensorView<'a, T, S2, D>,
    ) -> Result<Var<'g, T, S2, D, Kept>> {
        let layout = self.same_storage(&f(self.elements()))?;
        Ok(self.relaid(layout))
    }

    /// This tensor seen through a view whose elements may overlap.
    ///
    /// # Panics
    /// As [`try_map_broadcast`](Self::try_map_broadcast), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Copies);
    /// let x = Tensor::<f64, shape![Rows: 2]>::ones();
    /// let wide = x.track().map_broadcast(|t| t.expand::<shape![Copies: 2, Rows: 2]>());
    /// assert_eq!(wide.value().sizes().as_slice(), &[2, 2]);
    /// ```
    #[track_caller]
    pub fn map_broadcast<S2>(
        self,
        f: impl for<'a> FnOnce(TensorView<'a, T, S, D>) -> TensorView<'a, T, S2, D>,
    ) -> Var<'g, T, S2, D, Kept> {
        or_panic(self.try_map_broadcast(f))
    }
}

impl<'g, T: Element, S: Shape, D: Backend, W> Var<'g, T, S, D, W> {
    /// The axes in the order of the names list `L` (a view; `...` stands for
    /// the axes not named).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(N, C, H);
    /// let x = Tensor::<f32, shape![N: 2, C: 3, H: 4]>::zeros();
    /// let y = x.track().align_to::<names![H, N, C]>();
    /// assert_eq!(y.value().sizes().as_slice(), &[4, 2, 3]);
    /// ```
    pub fn align_to<L>(self) -> Var<'g, T, Aligned<S, L>, D, W>
    where
        S: AlignTo<L>,
    {
        self.map_view(|t| t.align_to::<L>())
    }

    /// The axes `A` and `B` swapped (a view).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B);
    /// let x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    /// assert_eq!(x.track().transpose::<A, B>().value().sizes().as_slice(), &[3, 2]);
    /// ```
    pub fn transpose<A, B>(self) -> Var<'g, T, <S as Transpose<A, B>>::Output, D, W>
    where
        S: Transpose<A, B>,
    {
        self.map_view(|t| t.transpose::<A, B>())
    }

    /// The axis `Old` called `New` (the same layout).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Seq, Key);
    /// let x = Tensor::<f32, shape![Seq: 2]>::zeros();
    /// assert_eq!(x.track().rename::<Seq, Key>().value().names().as_slice(), &[Some("Key")]);
    /// ```
    pub fn rename<Old, New>(self) -> Var<'g, T, <S as Rename<Old, New>>::Output, D, W>
    where
        S: Rename<Old, New>,
    {
        self.retyped()
    }

    /// The axis `A` split into the axes of `Sub` (a view; one `Dyn` size
    /// inferred).
    ///
    /// # Errors
    /// A `Dyn` size that does not divide.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Inner, Heads, Head);
    /// let x = Tensor::<f32, shape![Inner: 6]>::zeros();
    /// let y = x.track().try_split::<Inner, shape![Heads: 2, Head: 3]>()?;
    /// assert_eq!(y.value().sizes().as_slice(), &[2, 3]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_split<A, Sub: Shape + NoSymbols>(
        self,
    ) -> Result<Var<'g, T, <S as Split<A, Sub>>::Output, D, W>>
    where
        S: Split<A, Sub>,
    {
        let pos = <S as HasAxis<A>>::POS as isize;
        let layout = self.layout.unflatten(pos, &target_sizes::<Sub>())?;
        Ok(self.relaid(layout))
    }

    /// The axis `A` split into the axes of `Sub` (a view).
    ///
    /// # Panics
    /// As [`try_split`](Self::try_split), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Inner, Heads, Head);
    /// let x = Tensor::<f32, shape![Inner: 6]>::zeros();
    /// let y = x.track().split::<Inner, shape![Heads: 3, Head: 2]>();
    /// assert_eq!(y.value().strides().as_slice(), &[2, 1]);
    /// ```
    #[track_caller]
    pub fn split<A, Sub: Shape + NoSymbols>(self) -> Var<'g, T, <S as Split<A, Sub>>::Output, D, W>
    where
        S: Split<A, Sub>,
    {
        or_panic(self.try_split::<A, Sub>())
    }

    /// The sub-tensor at `index` of the axis `A`, which is dropped (a view).
    ///
    /// # Errors
    /// `index` outside `A`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B);
    /// let x = Tensor::<f64, shape![A: 2, B: 2]>::arange();
    /// let xv = x.track();
    /// let row = xv.as_kept().try_select::<A>(1)?;
    /// assert_eq!(row.value().to_vec(), vec![2.0, 3.0]);
    /// assert_eq!(row.sum_all().backward().of(&xv).unwrap().to_vec(), vec![0.0, 0.0, 1.0, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_select<A>(self, index: isize) -> Result<Var<'g, T, S::Without, D, W>>
    where
        S: HasAxis<A>,
    {
        let layout = self.layout.select(S::POS as isize, index)?;
        Ok(self.relaid(layout))
    }

    /// The sub-tensor at `index` of the axis `A`, which is dropped.
    ///
    /// # Panics
    /// As [`try_select`](Self::try_select), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B);
    /// let x = Tensor::<f64, shape![A: 2, B: 2]>::arange();
    /// assert_eq!(x.track().select::<B>(0).value().to_vec(), vec![0.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn select<A>(self, index: isize) -> Var<'g, T, S::Without, D, W>
    where
        S: HasAxis<A>,
    {
        or_panic(self.try_select::<A>(index))
    }

    /// `length` elements of the axis `A` from `start` (a view; the axis
    /// becomes `Dyn`).
    ///
    /// # Errors
    /// A range outside `A`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A);
    /// let x = Tensor::<f64, shape![A: 4]>::arange();
    /// assert_eq!(x.track().try_narrow::<A>(1, 2)?.value().to_vec(), vec![1.0, 2.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_narrow<A>(self, start: isize, length: usize) -> Result<Var<'g, T, S::Resized, D, W>>
    where
        S: HasAxis<A>,
    {
        let layout = self.layout.narrow(S::POS as isize, start, length)?;
        Ok(self.relaid(layout))
    }

    /// `length` elements of the axis `A` from `start` (a view).
    ///
    /// # Panics
    /// As [`try_narrow`](Self::try_narrow), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A);
    /// let x = Tensor::<f64, shape![A: 4]>::arange();
    /// assert_eq!(x.track().narrow::<A>(2, 2).value().to_vec(), vec![2.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn narrow<A>(self, start: isize, length: usize) -> Var<'g, T, S::Resized, D, W>
    where
        S: HasAxis<A>,
    {
        or_panic(self.try_narrow::<A>(start, length))
    }

    /// A new axis `A` of size 1 at position `AT` (a view).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B);
    /// let x = Tensor::<f32, shape![A: 3]>::zeros();
    /// assert_eq!(x.track().unsqueeze::<B, 0>().value().sizes().as_slice(), &[1, 3]);
    /// ```
    pub fn unsqueeze<A, const AT: usize>(self) -> Var<'g, T, <S as Unsqueeze<A, AT>>::Output, D, W>
    where
        S: Unsqueeze<A, AT>,
    {
        self.map_view(|t| t.unsqueeze::<A, AT>())
    }

    /// The same elements as the shape `S2`: a view when the strides allow
    /// it, else a contiguous copy (PyTorch's `reshape`), recorded either way.
    ///
    /// # Errors
    /// A `Dyn` count that does not fit; a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Flat);
    /// let x = Tensor::<f64, shape![Rows: 2, Cols: 2]>::arange();
    /// let flat = x.track().transpose::<Rows, Cols>().try_reshape::<shape![Flat: 4]>()?; // a copy
    /// assert_eq!(flat.value().to_vec(), vec![0.0, 2.0, 1.0, 3.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_reshape<S2: Shape + NoSymbols>(self) -> Result<Var<'g, T, S2, D, W>>
    where
        S: ReshapeTo<S2>,
    {
        let sizes = target_sizes::<S2>();
        Ok(Var::from_core(self.core()?.reshape(&sizes)?))
    }

    /// The same elements as the shape `S2`, a view when possible.
    ///
    /// # Panics
    /// As [`try_reshape`](Self::try_reshape), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f64, shape![2, 2]>::arange();
    /// assert_eq!(x.track().reshape::<shape![4]>().value().to_vec(), vec![0.0, 1.0, 2.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn reshape<S2: Shape + NoSymbols>(self) -> Var<'g, T, S2, D, W>
    where
        S: ReshapeTo<S2>,
    {
        or_panic(self.try_reshape::<S2>())
    }

    /// The adjacent axes of `L` flattened into one axis `New`: a view when
    /// the strides allow it, else a copy, recorded either way.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Heads, Head, Inner);
    /// let x = Tensor::<f64, shape![Heads: 2, Head: 3]>::arange();
    /// let y = x.track().try_merge::<names![Heads, Head], Inner>()?;
    /// assert_eq!(y.value().names().as_slice(), &[Some("Inner")]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_merge<L, New>(self) -> Result<Var<'g, T, Merged<S, L, New>, D, W>>
    where
        S: Merge<L, New>,
    {
        let pos = <S as Merge<L, New>>::POS as isize;
        let len = <S as Merge<L, New>>::LEN as isize;
        if len == 0 {
            return Ok(self.retyped());
        }
        Ok(Var::from_core(self.core()?.flatten(pos, pos + len - 1)?))
    }

    /// The adjacent axes of `L` flattened into one axis `New`.
    ///
    /// # Panics
    /// As [`try_merge`](Self::try_merge), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, AB);
    /// let x = Tensor::<f64, shape![A: 2, B: 2]>::arange();
    /// assert_eq!(x.track().merge::<names![A, B], AB>().value().sizes().as_slice(), &[4]);
    /// ```
    #[track_caller]
    pub fn merge<L, New>(self) -> Var<'g, T, Merged<S, L, New>, D, W>
    where
        S: Merge<L, New>,
    {
        or_panic(self.try_merge::<L, New>())
    }

    /// This tensor when already contiguous, else a contiguous copy with its
    /// history (PyTorch's `contiguous()`).
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B);
    /// let x = Tensor::<f64, shape![A: 2, B: 2]>::arange();
    /// let c = x.track().transpose::<A, B>().try_contiguous()?;
    /// assert!(c.value().is_contiguous());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_contiguous(self) -> Result<Var<'g, T, S, D, W>> {
        if self.layout.is_contiguous() {
            return Ok(self);
        }
        Ok(Var::from_core(self.core()?.contiguous()?))
    }

    /// This tensor when already contiguous, else a contiguous copy.
    ///
    /// # Panics
    /// As [`try_contiguous`](Self::try_contiguous), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B);
    /// let x = Tensor::<f64, shape![A: 2, B: 2]>::arange();
    /// assert!(x.track().contiguous().value().is_contiguous());
    /// ```
    #[track_caller]
    pub fn contiguous(self) -> Var<'g, T, S, D, W> {
        or_panic(self.try_contiguous())
    }

    /// This tensor broadcast to `S2` (a read-only view, [`Kept`]): the
    /// gradient is summed over the axes broadcast.
    ///
    /// # Errors
    /// A `Dyn` size that does not broadcast.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Copies);
    /// let x = Tensor::<f64, shape![Rows: 2]>::ones();
    /// let xv = x.track();
    /// let g = xv.as_kept().try_expand::<shape![Copies: 3, Rows: 2]>()?.sum_all().backward();
    /// assert_eq!(g.of(&xv).unwrap().to_vec(), vec![3.0, 3.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_expand<S2: Shape + NoSymbols>(self) -> Result<Var<'g, T, S2, D, Kept>>
    where
        S: ExpandTo<S2>,
    {
        let layout = self.layout.expand(&target_sizes::<S2>())?;
        Ok(self.relaid(layout))
    }

    /// This tensor broadcast to `S2` (a read-only view).
    ///
    /// # Panics
    /// As [`try_expand`](Self::try_expand), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Copies);
    /// let x = Tensor::<f64, shape![Rows: 2]>::ones();
    /// assert_eq!(x.track().expand::<shape![Copies: 2, Rows: 2]>().value().to_vec(), vec![1.0; 4]);
    /// ```
    #[track_caller]
    pub fn expand<S2: Shape + NoSymbols>(self) -> Var<'g, T, S2, D, Kept>
    where
        S: ExpandTo<S2>,
    {
        or_panic(self.try_expand::<S2>())
    }
}
