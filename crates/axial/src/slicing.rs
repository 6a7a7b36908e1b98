//! NumPy-style slicing of the leading axes: `x.slice_s(s![.., 1..3, 0])`.

use std::marker::PhantomData;

use axial_core::{Device, Element, Error, Result};
use axial_shape::Shape;
use axial_shape::slicing::SliceBy;

use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::TensorBase;

/// NumPy-style slicing of the leading axes, one entry per axis, for
/// [`slice_s`](crate::TensorBase::slice_s):
/// - `..` keeps the axis;
/// - `a..b`, `a..`, `..b`, `a..=b` take a range (negative bounds count from
///   the end, as in PyTorch), `;step` after it a step (`..;2`, `1..;3`);
/// - an integer index drops the axis (negative counts from the end).
///
/// Literals are seen by the compiler: a literal range on an axis of static
/// size gives a static size, and a literal index or bound outside such an
/// axis is a compile error. Any other expression (an integer of any type)
/// is checked at run time: an index out of range is an error, range bounds
/// are clamped as in PyTorch, and the axis' size becomes `Dyn`. A literal
/// step of 0 or below is a compile error with Python's words. Axes after
/// the last entry are kept.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(A, B, C);
/// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::arange();
/// let y = x.as_view().slice_s(s![.., 1..;2, 0]); // x[:, 1::2, 0]
/// let _: &TensorView<'_, f32, shape![A: 3, B: 2]> = &y; // sizes known
/// assert_eq!((y.strides().as_slice(), y.storage_offset()), (&[20, 10][..], 5));
/// let start = 1;
/// let z = x.slice_s(s![-1, start..]); // x[-1, 1:]
/// let _: &Tensor<f32, shape![B: Dyn, C: 5]> = &z;
/// assert_eq!(z.sizes().as_slice(), &[3, 5]);
/// ```
#[macro_export]
macro_rules! s {
    ($($tokens:tt)*) => { $crate::__private::s_impl!{ [$crate] $($tokens)* } };
}

/// The entries of `s!`: their types (`Entries`, what the shape becomes) and
/// their run-time values.
///
/// ```
/// use axial::{Slices, s};
/// let spec = s![.., 1..3, 0];
/// assert_eq!(spec.len(), 3);
/// ```
pub struct Slices<Entries, const N: usize> {
    args: [SliceArg; N],
    marker: PhantomData<fn() -> Entries>,
}

/// One entry of `s!` at run time.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceArg {
    /// An index: the axis is dropped.
    Index(isize),
    /// A range: `start..end` by `step`, bounds clamped as in PyTorch.
    Range {
        /// The first element (negative: from the end).
        start: Option<isize>,
        /// One past the last (negative: from the end).
        end: Option<isize>,
        /// The step.
        step: isize,
    },
}

impl<Entries, const N: usize> Slices<Entries, N> {
    #[doc(hidden)]
    pub const fn new(args: [SliceArg; N]) -> Self {
        Slices {
            args,
            marker: PhantomData,
        }
    }

    /// How many leading axes the entries slice.
    ///
    /// ```
    /// assert_eq!(axial::s![0, ..].len(), 2);
    /// ```
    pub const fn len(&self) -> usize {
        N
    }

    /// True for `s![]`, which slices nothing.
    ///
    /// ```
    /// assert!(axial::s![].is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        N == 0
    }
}

/// An integer of any type as an `isize` (saturating: a value beyond
/// `isize` is out of every axis anyway).
#[doc(hidden)]
pub trait SliceInt: Copy {
    /// The value as an `isize`.
    fn to_isize(self) -> isize;
}

macro_rules! slice_int {
    ($($t:ty),*) => {$(
        impl SliceInt for $t {
            fn to_isize(self) -> isize {
                isize::try_from(self).unwrap_or(if self > 0 as $t { isize::MAX } else { isize::MIN })
            }
        }
    )*};
}
slice_int!(
    isize, i8, i16, i32, i64, i128, usize, u8, u16, u32, u64, u128
);

/// An entry's value as an `isize`.
#[doc(hidden)]
pub fn to_isize<I: SliceInt>(value: I) -> isize {
    value.to_isize()
}

/// The end of `..=end`: `end + 1`, or the end of the axis for `-1`.
#[doc(hidden)]
pub fn inclusive_end(end: isize) -> isize {
    match end {
        -1 => isize::MAX,
        end => end.saturating_add(1),
    }
}

impl<T: Element, S: Shape, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// The view `x[entries]` of NumPy and PyTorch, written with [`s!`](crate::s): one
    /// entry per leading axis, an index dropping its axis, a range keeping it
    /// (static when its bounds are literals on a static axis, else `Dyn`).
    ///
    /// # Errors
    /// With values known at run time only: an index outside its axis
    /// (`index 3 is out of bounds for dimension 0 with size 3`), a step of 0
    /// (`slice step cannot be zero`) or below (`step must be greater than
    /// zero`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::arange();
    /// let i = 3;
    /// assert_eq!(
    ///     x.as_view().try_slice_s(s![i]).unwrap_err().to_string(),
    ///     "index 3 is out of bounds for dimension 0 with size 3"
    /// );
    /// let y = x.try_slice_s(s![.., .., 1..4;2])?;
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice(), y.storage_offset()), (&[3, 4, 2][..], &[20, 5, 2][..], 1));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_slice_s<Entries, const N: usize>(
        self,
        entries: Slices<Entries, N>,
    ) -> Result<TensorBase<T, <S as SliceBy<Entries>>::Output, D, R>>
    where
        S: SliceBy<Entries>,
    {
        let mut layout = self.layout.clone();
        // `dim` counts the axes of the result so far, `entry` those of `self`
        // (PyTorch's error names the latter).
        let mut dim = 0;
        for (entry, arg) in entries.args.into_iter().enumerate() {
            layout = match arg {
                SliceArg::Index(index) => {
                    let size = layout.shape()[dim];
                    if index < -(size as isize) || index >= size as isize {
                        return Err(Error::IndexOutOfBounds {
                            index,
                            dim: entry,
                            size,
                        });
                    }
                    layout.select(dim as isize, index)?
                }
                SliceArg::Range { step: 0, .. } => {
                    return Err(Error::invalid("slice", "slice step cannot be zero"));
                }
                SliceArg::Range { step, .. } if step < 0 => {
                    return Err(Error::invalid("slice", "step must be greater than zero"));
                }
                SliceArg::Range { start, end, step } => {
                    dim += 1;
                    layout.slice(dim as isize - 1, start, end, step)?
                }
            };
        }
        Ok(self.relayout(layout))
    }

    /// The view `x[entries]`, written with [`s!`](crate::s).
    ///
    /// # Panics
    /// As [`try_slice_s`](Self::try_slice_s), with its message (only with
    /// values known at run time: a literal cannot be out of a static axis).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let m = Tensor::<i64, shape![Rows: 3, Cols: 4]>::arange();
    /// assert_eq!(m.as_view().slice_s(s![1..3, -1]).to_vec(), vec![7, 11]);
    /// assert_eq!(m.slice_s(s![..;2, ..=1]).to_vec(), vec![0, 1, 8, 9]);
    /// ```
    #[track_caller]
    pub fn slice_s<Entries, const N: usize>(
        self,
        entries: Slices<Entries, N>,
    ) -> TensorBase<T, <S as SliceBy<Entries>>::Output, D, R>
    where
        S: SliceBy<Entries>,
    {
        or_panic(self.try_slice_s(entries))
    }
}
