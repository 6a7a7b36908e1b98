//! Storage kinds, in ndarray's model: one tensor type over a storage
//! representation that owns, shares (copy on write), borrows or borrows
//! mutably. [`Data`] can be read; [`DataMut`] can be written.

use std::sync::Arc;

use axial_core::{Device, Storage};

mod sealed {
    pub trait Sealed {}
}

/// Owns its storage ([`crate::Tensor`]).
///
/// ```
/// # use axial::prelude::*;
/// let t: Tensor<f32, shape![2]> = Tensor::zeros(); // TensorBase<_, _, Cpu, Owned<Cpu>>
/// assert_eq!(t.numel(), 2);
/// ```
#[derive(Debug)]
pub struct Owned<D: Device>(pub(crate) Storage<D>);

/// Shares its storage with other `ArcTensor`s, copying it on the first write
/// while shared ([`crate::ArcTensor`]).
///
/// ```
/// # use axial::prelude::*;
/// let a: ArcTensor<f32, shape![2]> = Tensor::zeros().into_shared();
/// assert!(a.clone().shares_storage_with(&a));
/// ```
#[derive(Debug)]
pub struct Shared<D: Device>(pub(crate) Arc<Storage<D>>);

/// Borrows a storage to read ([`crate::TensorView`]).
///
/// ```
/// # use axial::prelude::*;
/// let t = Tensor::<f32, shape![2]>::ones();
/// let v: TensorView<'_, f32, shape![2]> = t.as_view();
/// assert_eq!(v.to_vec(), vec![1.0, 1.0]);
/// ```
#[derive(Debug)]
pub struct View<'a, D: Device>(pub(crate) &'a Storage<D>);

/// Borrows a storage to write; writes show through the owner
/// ([`crate::TensorViewMut`]).
///
/// ```
/// # use axial::prelude::*;
/// let mut t = Tensor::<f32, shape![2]>::zeros();
/// let mut v: TensorViewMut<'_, f32, shape![2]> = t.as_view_mut();
/// v.fill_(3.0);
/// assert_eq!(t.to_vec(), vec![3.0, 3.0]);
/// ```
#[derive(Debug)]
pub struct ViewMut<'a, D: Device>(pub(crate) &'a mut Storage<D>);

/// The result of an op that is a view when it can be and a copy otherwise
/// (`reshape` or `contiguous` of a view): borrowed or owned, read-only
/// ([`crate::TensorCow`]).
///
/// ```
/// # use axial::prelude::*;
/// let m = Tensor::<f32, shape![2, 3]>::zeros();
/// let flat: TensorCow<'_, f32, shape![6]> = m.as_view().reshape(); // a view here
/// assert!(flat.shares_storage_with(&m));
/// ```
#[derive(Debug)]
pub enum CowRepr<'a, D: Device> {
    /// The input's storage.
    Borrowed(&'a Storage<D>),
    /// A new storage.
    Owned(Storage<D>),
}

/// A view whose elements may share memory locations: a broadcast
/// (`expand`, `repeat!`), `unfold` windows, an `as_strided` layout. Writes
/// through it would depend on their order, so it is read-only;
/// [`try_into_writable`](crate::TensorBase::try_into_writable) gives the
/// writable `R` back when no two elements share memory.
///
/// ```
/// # use axial::prelude::*;
/// let b: axial::BroadcastTensor<f32, shape![4, 2]> = Tensor::<f32, shape![2]>::ones().expand();
/// assert_eq!(b.strides().as_slice(), &[0, 1]);
/// ```
#[derive(Debug)]
pub struct Broadcast<R>(pub(crate) R);

/// A storage kind that can be read: every kind is.
///
/// ```
/// use axial::{Cpu, Data, View};
/// fn readable<R: Data<Cpu>>() {}
/// readable::<View<'static, Cpu>>();
/// ```
pub trait Data<D: Device>: sealed::Sealed {
    /// What an op that may copy (`reshape`, `contiguous`, `merge`) gives.
    type MaybeCopy: Data<D>;
    /// What a view whose elements may share memory (`expand`, `unfold`,
    /// `as_strided`) gives: read-only.
    type ReadOnly: Data<D>;

    /// The storage.
    fn storage(&self) -> &Storage<D>;
    /// Kept as the result of an op that did not copy.
    fn keep(self) -> Self::MaybeCopy;
    /// The result of an op that copied into `storage`.
    fn copied(storage: Storage<D>) -> Self::MaybeCopy;
    /// Made read-only.
    fn freeze(self) -> Self::ReadOnly;
}

/// A storage kind that can be written: owned, shared (copied on write) and
/// mutable views.
///
/// ```
/// use axial::{Cpu, DataMut, Owned, ViewMut};
/// fn writable<R: DataMut<Cpu>>() {}
/// writable::<Owned<Cpu>>();
/// writable::<ViewMut<'static, Cpu>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot write through a read-only tensor (`{Self}`)",
    label = "read-only",
    note = "a `TensorView`, a `TensorCow`, a broadcast from `expand` and the windows of `unfold` or `as_strided` (whose elements may share memory) are read-only: write through `as_view_mut()` of the owner, to a copy from `to_owned()`, or check a window with `try_into_writable()`"
)]
pub trait DataMut<D: Device>: Data<D> {
    /// The storage, to write (a shared one is copied first unless unique).
    fn storage_mut(&mut self) -> &mut Storage<D>;
}

/// The owning kinds: kept as they are, read-only as a [`Broadcast`].
macro_rules! owning_data {
    ($($kind:ident: |$storage:ident| $copied:expr;)*) => {$(
        impl<D: Device> sealed::Sealed for $kind<D> {}
        impl<D: Device> Data<D> for $kind<D> {
            type MaybeCopy = $kind<D>;
            type ReadOnly = Broadcast<$kind<D>>;

            fn storage(&self) -> &Storage<D> {
                &self.0
            }
            fn keep(self) -> Self {
                self
            }
            fn copied($storage: Storage<D>) -> Self {
                $copied
            }
            fn freeze(self) -> Broadcast<Self> {
                Broadcast(self)
            }
        }
    )*};
}
owning_data! {
    Owned: |storage| Owned(storage);
    Shared: |storage| Shared(Arc::new(storage));
}

impl<D: Device> DataMut<D> for Owned<D> {
    fn storage_mut(&mut self) -> &mut Storage<D> {
        &mut self.0
    }
}

/// Copy on write: the storage is copied when another `ArcTensor` shares it.
impl<D: Device> DataMut<D> for Shared<D>
where
    Storage<D>: Clone,
{
    fn storage_mut(&mut self) -> &mut Storage<D> {
        Arc::make_mut(&mut self.0)
    }
}
impl<D: Device> Clone for Shared<D> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

/// The borrowed kinds: kept as a [`CowRepr`] of the same borrow; read-only
/// as `$read_only` (a mutable view keeps its borrow, so a checked
/// [`try_into_writable`](crate::TensorBase::try_into_writable) can give it back).
macro_rules! borrowed_data {
    ($($kind:ident => $read_only:ty: |$data:ident| $freeze:expr;)*) => {$(
        impl<D: Device> sealed::Sealed for $kind<'_, D> {}
        impl<'a, D: Device> Data<D> for $kind<'a, D> {
            type MaybeCopy = CowRepr<'a, D>;
            type ReadOnly = $read_only;

            fn storage(&self) -> &Storage<D> {
                self.0
            }
            fn keep(self) -> CowRepr<'a, D> {
                CowRepr::Borrowed(self.0)
            }
            fn copied(storage: Storage<D>) -> CowRepr<'a, D> {
                CowRepr::Owned(storage)
            }
            fn freeze(self) -> $read_only {
                let $data = self;
                $freeze
            }
        }
    )*};
}
borrowed_data! {
    View => View<'a, D>: |view| view;
    ViewMut => Broadcast<ViewMut<'a, D>>: |view| Broadcast(view);
}

impl<D: Device> Clone for View<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: Device> Copy for View<'_, D> {}

impl<D: Device> DataMut<D> for ViewMut<'_, D> {
    fn storage_mut(&mut self) -> &mut Storage<D> {
        self.0
    }
}

impl<D: Device> sealed::Sealed for CowRepr<'_, D> {}
impl<'a, D: Device> Data<D> for CowRepr<'a, D> {
    type MaybeCopy = CowRepr<'a, D>;
    type ReadOnly = CowRepr<'a, D>;

    fn storage(&self) -> &Storage<D> {
        match self {
            CowRepr::Borrowed(s) => s,
            CowRepr::Owned(s) => s,
        }
    }
    fn keep(self) -> Self {
        self
    }
    fn copied(storage: Storage<D>) -> Self {
        CowRepr::Owned(storage)
    }
    fn freeze(self) -> Self {
        self
    }
}

impl<R> sealed::Sealed for Broadcast<R> {}
impl<D: Device, R: Data<D>> Data<D> for Broadcast<R> {
    type MaybeCopy = Broadcast<R::MaybeCopy>;
    type ReadOnly = Broadcast<R>;

    fn storage(&self) -> &Storage<D> {
        self.0.storage()
    }
    fn keep(self) -> Broadcast<R::MaybeCopy> {
        Broadcast(self.0.keep())
    }
    fn copied(storage: Storage<D>) -> Broadcast<R::MaybeCopy> {
        Broadcast(R::copied(storage))
    }
    fn freeze(self) -> Self {
        self
    }
}
impl<R: Clone> Clone for Broadcast<R> {
    fn clone(&self) -> Self {
        Broadcast(self.0.clone())
    }
}

impl<D: Device> Clone for Owned<D>
where
    Storage<D>: Clone,
{
    fn clone(&self) -> Self {
        Owned(self.0.clone())
    }
}

/// Pinned host memory: a CPU storage kind; what may copy gives an owned one.
#[cfg(feature = "cuda")]
mod pinned {
    use axial_core::{Cpu, Storage};

    use super::{Broadcast, Data, DataMut, Owned, sealed};
    use crate::cuda::Pinned;

    impl sealed::Sealed for Pinned {}
    impl Data<Cpu> for Pinned {
        type MaybeCopy = Owned<Cpu>;
        type ReadOnly = Broadcast<Pinned>;

        fn storage(&self) -> &Storage<Cpu> {
            self.0.storage()
        }
        fn keep(self) -> Owned<Cpu> {
            Owned(self.0.into_storage())
        }
        fn copied(storage: Storage<Cpu>) -> Owned<Cpu> {
            Owned(storage)
        }
        fn freeze(self) -> Broadcast<Pinned> {
            Broadcast(self)
        }
    }

    /// Writes wait for the asynchronous copies reading the memory.
    impl DataMut<Cpu> for Pinned {
        fn storage_mut(&mut self) -> &mut Storage<Cpu> {
            self.0.storage_mut()
        }
    }
}
