//! The typed tensor: one struct over a storage kind, with aliases for each.

use std::fmt;
use std::marker::PhantomData;

use axial_core::{Cpu, Device, Element, Layout, Result, TensorMut, TensorRef};

use crate::repr::{Broadcast, CowRepr, Data, DataMut, Owned, Shared, View, ViewMut};

/// A tensor of `T` elements whose axes are the shape `S` (names and sizes),
/// on the device `D`, over the storage kind `R`.
///
/// Use the aliases: [`Tensor`] owns, [`ArcTensor`] shares (copy on write),
/// [`TensorView`] borrows, [`TensorViewMut`] borrows to write. Every view op
/// takes `self` and keeps the storage kind, so views of views stay views and
/// an owned tensor stays owned; borrow first with
/// [`as_view`](TensorBase::as_view) to keep the owner. The wrapper costs
/// nothing over `axial_core`: a storage, a [`Layout`] and zero-sized types.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
/// let t = m.as_view().transpose::<Rows, Cols>();
/// assert_eq!(t.sizes().as_slice(), &[3, 2]);
/// assert_eq!(t.strides().as_slice(), &[1, 3]);
/// assert!(t.shares_storage_with(&m));
/// ```
pub struct TensorBase<T, S, D: Device, R> {
    pub(crate) data: R,
    pub(crate) layout: Layout,
    marker: Marker<(T, S, D)>,
}

/// Holds the element, shape and device types without values of them.
type Marker<T> = PhantomData<fn() -> T>;

/// A tensor that owns its storage.
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let m: Tensor<f32, shape![Rows: 2, Cols: 2]> = Tensor::from_vec(vec![1.0, 2.0, 3.0, 4.0]);
/// assert_eq!(m.to_vec(), [1.0, 2.0, 3.0, 4.0]);
/// ```
pub type Tensor<T, S, D = Cpu> = TensorBase<T, S, D, Owned<D>>;
/// A tensor that shares its storage, copying it on the first write while shared.
///
/// ```
/// use axial::prelude::*;
/// let a: ArcTensor<f32, shape![3]> = Tensor::zeros().into_shared();
/// let mut b = a.clone();
/// assert!(b.shares_storage_with(&a));
/// b.set([0], 1.0);
/// assert!(!b.shares_storage_with(&a));
/// assert_eq!((a.to_vec(), b.to_vec()), (vec![0.0; 3], vec![1.0, 0.0, 0.0]));
/// ```
pub type ArcTensor<T, S, D = Cpu> = TensorBase<T, S, D, Shared<D>>;
/// A read-only view: shares the storage, never copies.
///
/// ```
/// use axial::prelude::*;
/// let m = Tensor::<f32, shape![2, 3]>::arange();
/// let v: TensorView<'_, f32, shape![2, 3]> = m.as_view();
/// assert!(v.shares_storage_with(&m));
/// assert_eq!(v.to_vec(), m.to_vec());
/// ```
pub type TensorView<'a, T, S, D = Cpu> = TensorBase<T, S, D, View<'a, D>>;
/// A mutable view: writes show through the owner and every alias.
///
/// ```
/// use axial::prelude::*;
/// let mut m = Tensor::<f32, shape![2]>::zeros();
/// let mut v: TensorViewMut<'_, f32, shape![2]> = m.as_view_mut();
/// v.set([1], 5.0);
/// assert_eq!(m.to_vec(), [0.0, 5.0]);
/// ```
pub type TensorViewMut<'a, T, S, D = Cpu> = TensorBase<T, S, D, ViewMut<'a, D>>;
/// A view or a copy, read-only (what `reshape` and `contiguous` of a view give).
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
/// let same: TensorCow<'_, f32, shape![Rows: 2, Cols: 3]> = m.as_view().contiguous();
/// assert!(same.shares_storage_with(&m));
/// let copied: TensorCow<'_, f32, shape![Cols: 3, Rows: 2]> = m.as_view().t().contiguous();
/// assert!(!copied.shares_storage_with(&m));
/// assert_eq!(copied.to_vec(), [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
/// ```
pub type TensorCow<'a, T, S, D = Cpu> = TensorBase<T, S, D, CowRepr<'a, D>>;
/// A broadcast of an owned tensor (read-only).
///
/// ```
/// use axial::prelude::*;
/// let row = Tensor::<f32, shape![3]>::arange();
/// let b: axial::BroadcastTensor<f32, shape![2, 3]> = row.expand();
/// assert_eq!(b.strides().as_slice(), &[0, 1]);
/// assert_eq!(b.to_vec(), [0.0, 1.0, 2.0, 0.0, 1.0, 2.0]);
/// ```
pub type BroadcastTensor<T, S, D = Cpu> = TensorBase<T, S, D, Broadcast<Owned<D>>>;

impl<T, S, D: Device, R> TensorBase<T, S, D, R> {
    /// A tensor over `data` with `layout`; the caller keeps the invariants
    /// (the layout fits the storage, its rank is `S`'s).
    pub(crate) fn from_parts(data: R, layout: Layout) -> Self {
        TensorBase {
            data,
            layout,
            marker: PhantomData,
        }
    }

    /// The same storage with another layout and shape type.
    pub(crate) fn relayout<S2>(self, layout: Layout) -> TensorBase<T, S2, D, R> {
        TensorBase::from_parts(self.data, layout)
    }

    /// The same storage and layout under another shape type (names only).
    pub(crate) fn retype<S2>(self) -> TensorBase<T, S2, D, R> {
        TensorBase::from_parts(self.data, self.layout)
    }

    /// The same storage and layout, read-only.
    pub(crate) fn frozen(self) -> TensorBase<T, S, D, R::ReadOnly>
    where
        R: Data<D>,
    {
        TensorBase::from_parts(self.data.freeze(), self.layout)
    }
}

impl<T: Element, S, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// This tensor as the untyped core's view.
    pub(crate) fn raw(&self) -> TensorRef<'_, D> {
        TensorRef::new_unchecked(self.data.storage(), self.layout.clone(), T::DTYPE)
    }

    /// A read-only view of the whole tensor (`self` stays usable).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows);
    /// let x = Tensor::<f32, shape![Rows: 3]>::zeros();
    /// let v = x.as_view();
    /// assert!(v.shares_storage_with(&x));
    /// ```
    pub fn as_view(&self) -> TensorView<'_, T, S, D> {
        TensorBase::from_parts(View(self.data.storage()), self.layout.clone())
    }
}

impl<T: Element, S, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// This tensor as the untyped core's mutable view.
    pub(crate) fn raw_mut(&mut self) -> TensorMut<'_, D>
    where
        R: DataMut<D>,
    {
        let layout = self.layout.clone();
        TensorMut::new_unchecked(self.data.storage_mut(), layout, T::DTYPE)
    }

    /// This tensor as the core's mutable view for an in-place op, refused
    /// when two of its elements share memory (an `unfold` or `as_strided`
    /// view): the result would depend on the order of the writes.
    pub(crate) fn raw_mut_disjoint(&mut self) -> Result<TensorMut<'_, D>>
    where
        R: DataMut<D>,
    {
        if !self.layout.is_non_overlapping() {
            return Err(axial_core::Error::InternalOverlap);
        }
        Ok(self.raw_mut())
    }

    /// A mutable view of the whole tensor: writes through it (and through
    /// views of it) show in `self`. An `ArcTensor` shared with others is
    /// copied first.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows, Cols);
    /// let mut x = Tensor::<i64, shape![Rows: 2, Cols: 2]>::zeros();
    /// x.as_view_mut().select::<Rows>(1).fill_(7);
    /// assert_eq!(x.to_vec(), vec![0, 0, 7, 7]);
    /// ```
    pub fn as_view_mut(&mut self) -> TensorViewMut<'_, T, S, D>
    where
        R: DataMut<D>,
    {
        let layout = self.layout.clone();
        TensorBase::from_parts(ViewMut(self.data.storage_mut()), layout)
    }
}

impl<T, S, D: Device, R: Clone> Clone for TensorBase<T, S, D, R> {
    /// Clones the storage kind: a copy of an owned storage, another handle of
    /// a shared one, the same borrow for a view.
    fn clone(&self) -> Self {
        TensorBase::from_parts(self.data.clone(), self.layout.clone())
    }
}

impl<T: Element, S: axial_shape::Shape, D: Device, R: Data<D>> fmt::Debug
    for TensorBase<T, S, D, R>
{
    /// The names and sizes, strides, offset, dtype and device:
    /// `Tensor[Rows=2, Cols=3] strides [3, 1] offset 0 f32 on cpu`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names = vec![None; S::RANK];
        S::write_names(&mut names);
        f.write_str("Tensor[")?;
        for (i, (name, size)) in names.iter().zip(self.layout.shape()).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}={size}", name.unwrap_or("_"))?;
        }
        write!(
            f,
            "] strides {:?} offset {} {} on {}",
            self.layout.strides(),
            self.layout.offset(),
            T::DTYPE,
            self.data.storage().device().name()
        )
    }
}
