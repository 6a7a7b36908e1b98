//! Views of one axis found by name: `select`, `at`, `narrow`, `slice`,
//! `squeeze`, `unsqueeze`, and the type-only `into_dyn` and `realize`.

use std::ops::{Bound, RangeBounds};

use axial_core::{Device, Element, Error, Result};
use axial_shape::{
    GenericArray, HasAxis, IntoDyn, NoSymbols, Realize, SelectAt, Shape, Squeeze, Unsqueeze,
};

use super::proven;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// The sub-tensor at `index` of the axis `A`, which is dropped (a view;
    /// negative indices count from the end).
    ///
    /// # Errors
    /// `index` outside `A`, worded as PyTorch's.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let y = x.as_view().try_select::<C>(-1)?;
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice(), y.storage_offset()), (&[3, 4][..], &[20, 5][..], 4));
    /// assert_eq!(
    ///     x.try_select::<A>(3).unwrap_err().to_string(),
    ///     "select(): index 3 out of range for tensor of size [3, 4, 5] at dimension 0"
    /// );
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_select<A>(self, index: isize) -> Result<TensorBase<T, S::Without, D, R>>
    where
        S: HasAxis<A>,
    {
        let layout = self.layout.select(S::POS as isize, index)?;
        Ok(self.relayout(layout))
    }

    /// The sub-tensor at `index` of the axis `A`, which is dropped (a view).
    ///
    /// # Panics
    /// As [`try_select`](Self::try_select), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let y = x.select::<A>(1);
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice(), y.storage_offset()), (&[4, 5][..], &[5, 1][..], 20));
    /// ```
    #[track_caller]
    pub fn select<A>(self, index: isize) -> TensorBase<T, S::Without, D, R>
    where
        S: HasAxis<A>,
    {
        or_panic(self.try_select::<A>(index))
    }

    /// The sub-tensor at the literal index `I` of the axis `A`, proven in
    /// range when `A`'s size is static (a view). `I` is a const generic,
    /// which typenum maps up to 1024 (and powers of 2 and 10 beyond): past
    /// that, use [`select`](Self::select).
    ///
    /// # Errors
    /// `I` outside a `Dyn` axis.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Rows);
    /// let x = Tensor::<f32, shape![Batch: Dyn, Rows: 4]>::zeros_dyn(2);
    /// assert!(x.as_view().try_at::<Batch, 1>().is_ok());
    /// assert!(x.try_at::<Batch, 2>().is_err());
    /// ```
    pub fn try_at<A, const I: usize>(self) -> Result<TensorBase<T, S::Without, D, R>>
    where
        S: SelectAt<A, I>,
    {
        self.try_select::<A>(I as isize)
    }

    /// The sub-tensor at the literal index `I` of the axis `A` (a view). With
    /// static sizes an index out of range is a compile error, so this cannot
    /// panic.
    ///
    /// # Panics
    /// As [`try_at`](Self::try_at), with its message (only for a `Dyn` axis).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let m = Tensor::<i64, shape![Rows: 3, Cols: 4]>::arange();
    /// assert_eq!(m.at::<Rows, 2>().to_vec(), vec![8, 9, 10, 11]);
    /// ```
    #[track_caller]
    pub fn at<A, const I: usize>(self) -> TensorBase<T, S::Without, D, R>
    where
        S: SelectAt<A, I>,
    {
        or_panic(self.try_at::<A, I>())
    }

    /// `length` elements of the axis `A` from `start` (a view; `start` may be
    /// negative). `A`'s size becomes `Dyn`.
    ///
    /// # Errors
    /// The range does not fit in `A`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// assert_eq!(x.as_view().try_narrow::<C>(-2, 2)?.storage_offset(), 3);
    /// assert_eq!(
    ///     x.try_narrow::<B>(3, 2).unwrap_err().to_string(),
    ///     "narrow: start (3) + length (2) exceeds dimension size (4)."
    /// );
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_narrow<A>(
        self,
        start: isize,
        length: usize,
    ) -> Result<TensorBase<T, S::Resized, D, R>>
    where
        S: HasAxis<A>,
    {
        let layout = self.layout.narrow(S::POS as isize, start, length)?;
        Ok(self.relayout(layout))
    }

    /// `length` elements of the axis `A` from `start` (a view).
    ///
    /// # Panics
    /// As [`try_narrow`](Self::try_narrow), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows);
    /// let x = Tensor::<i32, shape![Rows: 5]>::arange();
    /// assert_eq!(x.narrow::<Rows>(1, 3).to_vec(), vec![1, 2, 3]);
    /// ```
    #[track_caller]
    pub fn narrow<A>(self, start: isize, length: usize) -> TensorBase<T, S::Resized, D, R>
    where
        S: HasAxis<A>,
    {
        or_panic(self.try_narrow::<A>(start, length))
    }

    /// `x[range ; step]` along the axis `A` (a view): Python's
    /// `x[start:end:step]`, negative bounds counting from the end, bounds
    /// clamped. `A`'s size becomes `Dyn`.
    ///
    /// # Errors
    /// `step` is 0.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let y = x.as_view().try_slice::<B>(1.., 2)?;
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice(), y.storage_offset()), (&[3, 2, 5][..], &[20, 10, 1][..], 5));
    /// assert!(x.try_slice::<B>(.., 0).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_slice<A>(
        self,
        range: impl RangeBounds<isize>,
        step: usize,
    ) -> Result<TensorBase<T, S::Resized, D, R>>
    where
        S: HasAxis<A>,
    {
        if step == 0 {
            return Err(Error::invalid("slice", "slice step cannot be zero"));
        }
        let start = match range.start_bound() {
            Bound::Included(&s) => Some(s),
            Bound::Excluded(&s) => Some(s + 1),
            Bound::Unbounded => None,
        };
        let end = match range.end_bound() {
            Bound::Included(-1) | Bound::Unbounded => None,
            Bound::Included(&e) => Some(e + 1),
            Bound::Excluded(&e) => Some(e),
        };
        let layout = self
            .layout
            .slice(S::POS as isize, start, end, step as isize)?;
        Ok(self.relayout(layout))
    }

    /// `x[range ; step]` along the axis `A` (a view).
    ///
    /// # Panics
    /// As [`try_slice`](Self::try_slice), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let y = x.slice::<C>(1..4, 2);
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice(), y.storage_offset()), (&[3, 4, 2][..], &[20, 5, 2][..], 1));
    /// ```
    #[track_caller]
    pub fn slice<A>(
        self,
        range: impl RangeBounds<isize>,
        step: usize,
    ) -> TensorBase<T, S::Resized, D, R>
    where
        S: HasAxis<A>,
    {
        or_panic(self.try_slice::<A>(range, step))
    }

    /// The axis `A` of size 1 removed (a view). A static size other than 1 is
    /// a compile error.
    ///
    /// # Errors
    /// A `Dyn` axis whose size is not 1.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Rows);
    /// let x = Tensor::<f32, shape![Batch: Dyn, Rows: 3]>::zeros_dyn(2);
    /// assert_eq!(
    ///     x.try_squeeze::<Batch>().unwrap_err().to_string(),
    ///     "squeeze: axis `Batch` has size 2, not 1"
    /// );
    /// ```
    pub fn try_squeeze<A>(self) -> Result<TensorBase<T, S::Without, D, R>>
    where
        S: Squeeze<A>,
    {
        let size = self.layout.shape()[S::POS];
        if size != 1 {
            let mut names = GenericArray::<Option<&str>, S::Rank>::default();
            S::write_names(&mut names);
            return Err(Error::invalid(
                "squeeze",
                format!(
                    "axis `{}` has size {size}, not 1",
                    names[S::POS].unwrap_or("_")
                ),
            ));
        }
        let layout = proven(self.layout.squeeze_dims(&[S::POS as isize]));
        Ok(self.relayout(layout))
    }

    /// The axis `A` of size 1 removed (a view).
    ///
    /// # Panics
    /// As [`try_squeeze`](Self::try_squeeze), with its message (only for a `Dyn` axis).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(One, Rows);
    /// let x = Tensor::<f32, shape![One: 1, Rows: 3]>::zeros();
    /// assert_eq!(x.squeeze::<One>().sizes().as_slice(), &[3]);
    /// ```
    #[track_caller]
    pub fn squeeze<A>(self) -> TensorBase<T, S::Without, D, R>
    where
        S: Squeeze<A>,
    {
        or_panic(self.try_squeeze::<A>())
    }

    /// A new axis `A` of size 1 at position `AT` (a view; PyTorch's
    /// `unsqueeze(AT)` strides).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C, New1);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let y = x.unsqueeze::<New1, 1>();
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice()), (&[3, 1, 4, 5][..], &[20, 20, 5, 1][..]));
    /// ```
    pub fn unsqueeze<A, const AT: usize>(
        self,
    ) -> TensorBase<T, <S as Unsqueeze<A, AT>>::Output, D, R>
    where
        S: Unsqueeze<A, AT>,
    {
        let layout = proven(self.layout.unsqueeze(AT as isize));
        self.relayout(layout)
    }

    /// The same tensor with the axis `A`'s size forgotten (`Dyn`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Rows);
    /// let x = Tensor::<f32, shape![Batch: 2, Rows: 3]>::zeros();
    /// let y: Tensor<f32, shape![Batch: Dyn, Rows: 3]> = x.into_dyn::<Batch>();
    /// assert_eq!(y.sizes().as_slice(), &[2, 3]);
    /// ```
    pub fn into_dyn<A>(self) -> TensorBase<T, S::Resized, D, R>
    where
        S: IntoDyn<A>,
    {
        self.retype()
    }

    /// The same tensor seen as the shape `S2`, whose names are this tensor's:
    /// each `Dyn` size checked against `S2`'s static one (the boundary check
    /// after which code is proven). To symbolic sizes, see
    /// [`realize_in`](Self::realize_in).
    ///
    /// # Errors
    /// A run-time size differs from `S2`'s.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Channels);
    /// let x = Tensor::<f32, shape![Batch: Dyn, Channels: 3]>::zeros_dyn(2);
    /// assert!(x.as_view().realize::<shape![Batch: 2, Channels: 3]>().is_ok());
    /// assert_eq!(
    ///     x.realize::<shape![Batch: 8, Channels: 3]>().unwrap_err().to_string(),
    ///     "realize: axis `Batch` has size 2, but the type says 8"
    /// );
    /// ```
    pub fn realize<S2: Shape + NoSymbols>(self) -> Result<TensorBase<T, S2, D, R>>
    where
        S: Realize<S2>,
    {
        let mut wanted = GenericArray::<Option<usize>, S2::Rank>::default();
        S2::write_static_sizes(&mut wanted);
        let mut names = GenericArray::<Option<&str>, S::Rank>::default();
        S::write_names(&mut names);
        for ((&have, want), name) in self.layout.shape().iter().zip(wanted).zip(names) {
            if let Some(want) = want.filter(|&w| w != have) {
                return Err(Error::invalid(
                    "realize",
                    format!(
                        "axis `{}` has size {have}, but the type says {want}",
                        name.unwrap_or("_")
                    ),
                ));
            }
        }
        Ok(self.retype())
    }
}
