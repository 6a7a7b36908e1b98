//! Joining tensors by axis name: `cat` along an axis they share (its sizes
//! add in the type: `Sz<3> + Sz<4>` is `Sz<7>`, and a symbol's sum is a
//! [`Plus`](axial_shape::Plus) the type can say, so a KV cache grows in
//! typed code), `cat_all` of several alike, and `stack` along a new axis.

use axial_core::{Backend, Element, RawTensor, Result};
use axial_shape::{CatWith, HasAxis, ResizeAxis, Resized, Shape, SizeMul, SizeProd, Sz, Unsqueeze};

use super::dtype::SameDType;
use super::operand::Operand;
use crate::access::owned;
use crate::device::SameDevice;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// The shape `stack::<New, AT, K>` gives on `K` tensors of shape `S`: a new
/// axis `New` of size `K` at position `AT`.
///
/// ```
/// use axial::prelude::*;
/// use axial::Stacked;
/// axes!(Layer, Model);
/// let _: Option<Stacked<shape![Model: 4], Layer, 0, 3>> = None::<shape![Layer: 3, Model: 4]>;
/// ```
pub type Stacked<S, New, const AT: usize, const K: usize> =
    Resized<<S as Unsqueeze<New, AT>>::Output, New, Sz<K>>;

/// The shape `cat_all::<A, K>` gives on `K` tensors of shape `S`: `A`'s
/// size times `K` (static, or `Dyn` for a run-time size).
///
/// ```
/// use axial::prelude::*;
/// use axial::CatAll;
/// axes!(Rows, Cols);
/// let _: Option<CatAll<shape![Rows: 2, Cols: 3], Rows, 4>> = None::<shape![Rows: 8, Cols: 3]>;
/// ```
pub type CatAll<S, A, const K: usize> = Resized<S, A, SizeProd<Sz<K>, <S as HasAxis<A>>::Size>>;

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `torch.cat([self, other], dim)` along the axis `A`, by name: the
    /// tensors have the same axes in the same order, of equal sizes but
    /// along `A`, whose sizes add (static sizes in the type; a symbol's sum
    /// is a [`Plus`](axial_shape::Plus), proven equal to every other sum of
    /// the same terms). A copy.
    ///
    /// # Errors
    /// A `Dyn` size that differs at run time (PyTorch's message), or a
    /// failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Seq, Model);
    /// let a = Tensor::<f32, shape![Seq: 2, Model: 3]>::zeros();
    /// let b = Tensor::<f32, shape![Seq: Dyn, Model: Dyn]>::ones_dyn([1, 2]);
    /// let e = a.try_cat::<Seq, _>(&b).unwrap_err();
    /// assert_eq!(e.to_string(), "cat: Sizes of tensors must match except in dimension 0. Expected size 3 but got size 2 for tensor number 1 in the list.");
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_cat<A, O>(
        &self,
        other: O,
    ) -> Result<Tensor<T, <S as CatWith<O::Shape, A>>::Output, D>>
    where
        O: Operand<D>,
        O::Elem: SameDType<T>,
        O::Device: SameDevice<D>,
        S: CatWith<O::Shape, A>,
    {
        let pos = <S as CatWith<O::Shape, A>>::POS as isize;
        let device = self.data.storage().device();
        let other = other.value().held(device, T::DTYPE)?;
        RawTensor::cat(&[self.raw(), other.view()], pos).map(owned)
    }

    /// `torch.cat([self, other], dim)` along the axis `A`, by name (see
    /// [`try_cat`](Self::try_cat)).
    ///
    /// # Panics
    /// As [`try_cat`](Self::try_cat), with its message (only with `Dyn`
    /// sizes, or when the device fails).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Seq, Model);
    /// let a = Tensor::<f32, shape![Seq: 2, Model: 3]>::zeros();
    /// let b = Tensor::<f32, shape![Seq: 1, Model: 3]>::ones();
    /// let c: Tensor<f32, shape![Seq: 3, Model: 3]> = a.cat::<Seq, _>(&b);
    /// assert_eq!(c.to_vec(), vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn cat<A, O>(&self, other: O) -> Tensor<T, <S as CatWith<O::Shape, A>>::Output, D>
    where
        O: Operand<D>,
        O::Elem: SameDType<T>,
        O::Device: SameDevice<D>,
        S: CatWith<O::Shape, A>,
    {
        or_panic(self.try_cat::<A, O>(other))
    }

    /// `torch.cat(tensors, dim)` of `K` tensors of one type along the axis
    /// `A`: its size becomes `K` times as large (static when it was, else
    /// `Dyn`). A copy.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let a = Tensor::<i64, shape![Rows: 1, Cols: 2]>::from_array([[1, 2]]);
    /// let b = Tensor::<i64, shape![Rows: 1, Cols: 2]>::from_array([[3, 4]]);
    /// let c = TensorBase::try_cat_all::<Cols, 2>([&a, &b])?; // shape![Rows: 1, Cols: 4]
    /// assert_eq!(c.to_vec(), vec![1, 2, 3, 4]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_cat_all<A, const K: usize>(
        tensors: [&Self; K],
    ) -> Result<Tensor<T, CatAll<S, A, K>, D>>
    where
        S: HasAxis<A>,
        Sz<K>: SizeMul<<S as HasAxis<A>>::Size>,
        S: ResizeAxis<A, SizeProd<Sz<K>, <S as HasAxis<A>>::Size>>,
    {
        let raws: Vec<_> = tensors.iter().map(|t| t.raw()).collect();
        RawTensor::cat(&raws, <S as HasAxis<A>>::POS as isize).map(owned)
    }

    /// `torch.cat(tensors, dim)` of `K` tensors of one type along the axis
    /// `A` (see [`try_cat_all`](Self::try_cat_all)).
    ///
    /// # Panics
    /// As [`try_cat_all`](Self::try_cat_all), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let a = Tensor::<i64, shape![Rows: 1, Cols: 2]>::ones();
    /// let c: Tensor<i64, shape![Rows: 3, Cols: 2]> = TensorBase::cat_all::<Rows, 3>([&a, &a, &a]);
    /// assert_eq!(c.sum_all().item(), 6);
    /// ```
    #[track_caller]
    pub fn cat_all<A, const K: usize>(tensors: [&Self; K]) -> Tensor<T, CatAll<S, A, K>, D>
    where
        S: HasAxis<A>,
        Sz<K>: SizeMul<<S as HasAxis<A>>::Size>,
        S: ResizeAxis<A, SizeProd<Sz<K>, <S as HasAxis<A>>::Size>>,
    {
        or_panic(Self::try_cat_all::<A, K>(tensors))
    }

    /// `torch.stack(tensors, dim)` of `K` tensors of one type: a new axis
    /// `New` of size `K` at position `AT`. A copy.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Layer, Model);
    /// let a = Tensor::<f32, shape![Model: 2]>::from_array([1.0, 2.0]);
    /// let b = Tensor::<f32, shape![Model: 2]>::from_array([3.0, 4.0]);
    /// let s = TensorBase::try_stack::<Layer, 1, 2>([&a, &b])?; // shape![Model: 2, Layer: 2]
    /// assert_eq!(s.names().as_slice(), &[Some("Model"), Some("Layer")]);
    /// assert_eq!(s.to_vec(), vec![1.0, 3.0, 2.0, 4.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_stack<New, const AT: usize, const K: usize>(
        tensors: [&Self; K],
    ) -> Result<Tensor<T, Stacked<S, New, AT, K>, D>>
    where
        S: Unsqueeze<New, AT>,
        <S as Unsqueeze<New, AT>>::Output: ResizeAxis<New, Sz<K>>,
    {
        let raws: Vec<_> = tensors.iter().map(|t| t.raw()).collect();
        RawTensor::stack(&raws, AT as isize).map(owned)
    }

    /// `torch.stack(tensors, dim)` of `K` tensors of one type along a new
    /// axis `New` at position `AT` (see [`try_stack`](Self::try_stack)).
    ///
    /// # Panics
    /// As [`try_stack`](Self::try_stack), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Layer, Model);
    /// let a = Tensor::<f32, shape![Model: 2]>::ones();
    /// let s: Tensor<f32, shape![Layer: 3, Model: 2]> = TensorBase::stack::<Layer, 0, 3>([&a, &a, &a]);
    /// assert_eq!(s.to_vec(), vec![1.0; 6]);
    /// ```
    #[track_caller]
    pub fn stack<New, const AT: usize, const K: usize>(
        tensors: [&Self; K],
    ) -> Tensor<T, Stacked<S, New, AT, K>, D>
    where
        S: Unsqueeze<New, AT>,
        <S as Unsqueeze<New, AT>>::Output: ResizeAxis<New, Sz<K>>,
    {
        or_panic(Self::try_stack::<New, AT, K>(tensors))
    }
}
