//! The runtime (dynamically shaped) tensor: an owned [`RawTensor`], a borrowed
//! [`TensorRef`] and a mutably borrowed [`TensorMut`], in ndarray's ownership
//! model. The typed `axial::Tensor` is a zero-cost wrapper over these.

mod attention;
mod complex;
mod create;
pub use create::Generator;
pub use loss::Reduction;
pub use pad::PadMode;
mod elementwise;
mod index;
mod join;
mod linalg;
mod linear;
mod loss;
mod masked;
mod norm;
pub(crate) mod pad;
mod reduce;
mod scan;
mod topk;
mod views;

use crate::{Backend, Cpu, DType, Device, Element, Error, Input, Layout, Output, Result, Storage};

/// A tensor that owns its storage.
///
/// # Example
/// ```
/// use axial_core::{RawTensor, DType};
/// let x = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?;
/// let m = x.view().view(&[2, 3])?;
/// assert_eq!(m.shape(), &[2, 3]);
/// assert_eq!(m.t()?.strides(), &[1, 3]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct RawTensor<D: Device = Cpu> {
    storage: Storage<D>,
    layout: Layout,
    dtype: DType,
}

/// A view of a tensor's elements: shares the storage, never copies.
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor};
/// let x = RawTensor::arange(0.0, 6.0, 1.0, DType::I64)?;
/// let col = x.view().view(&[2, 3])?.select(1, 2)?; // x.view(2, 3)[:, 2]
/// assert_eq!((col.shape(), col.strides(), col.offset()), (&[2][..], &[3][..], 2));
/// assert_eq!(col.to_vec::<i64>()?, vec![2, 5]);
/// assert!(col.shares_storage_with(&x.view()));
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct TensorRef<'a, D: Device = Cpu> {
    storage: &'a Storage<D>,
    layout: Layout,
    dtype: DType,
}

/// A mutable view: writes show through every alias of the storage.
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor, Scalar};
/// let mut x = RawTensor::zeros(&[2, 3], DType::I32)?;
/// x.view_mut().select(0, 1)?.fill_(Scalar::Int(7))?; // x[1] = 7
/// assert_eq!(x.to_vec::<i32>()?, vec![0, 0, 0, 7, 7, 7]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct TensorMut<'a, D: Device = Cpu> {
    storage: &'a mut Storage<D>,
    layout: Layout,
    dtype: DType,
}

impl<D: Device> Clone for TensorRef<'_, D> {
    fn clone(&self) -> Self {
        TensorRef {
            storage: self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }
}

impl<D: Device> RawTensor<D> {
    /// A tensor over `storage` with `layout` of `dtype` elements.
    ///
    /// # Errors
    /// The layout reaches past the storage ([`Error::OutOfBounds`]).
    ///
    /// ```
    /// # use axial_core::{DType, Layout, RawTensor, Storage};
    /// let s = Storage::from_slice(&[1.0f32, 2.0, 3.0, 4.0]);
    /// assert!(RawTensor::from_parts(s, Layout::contiguous(&[2, 2, 2]), DType::F32).is_err());
    /// ```
    pub fn from_parts(storage: Storage<D>, layout: Layout, dtype: DType) -> Result<Self> {
        layout.check_bounds(storage.len_of(dtype), dtype.size())?;
        Ok(RawTensor {
            storage,
            layout,
            dtype,
        })
    }

    /// A contiguous tensor of `shape` over `storage`, which must hold exactly
    /// the elements.
    ///
    /// # Errors
    /// The storage has another number of elements.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, Storage};
    /// let s = Storage::from_slice(&[1u8, 2, 3, 4, 5, 6]);
    /// let x = RawTensor::from_storage(s, &[3, 2], DType::U8)?;
    /// assert_eq!(x.strides(), &[2, 1]);
    /// assert!(RawTensor::from_storage(Storage::from_slice(&[1u8; 5]), &[3, 2], DType::U8).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_storage(storage: Storage<D>, shape: &[usize], dtype: DType) -> Result<Self> {
        let numel: usize = shape.iter().product();
        if storage.nbytes() != numel * dtype.size() {
            return Err(Error::ElementCount {
                op: "from_storage",
                expected: numel,
                got: storage.nbytes() / dtype.size(),
            });
        }
        Self::from_parts(storage, Layout::contiguous(shape), dtype)
    }

    /// A borrowed view of the whole tensor.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::arange(0.0, 4.0, 1.0, DType::F32)?;
    /// let v = x.view();
    /// assert_eq!(v.data_ptr(), x.storage().data_ptr()); // no copy
    /// assert_eq!(v.to_vec::<f32>()?, vec![0.0, 1.0, 2.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn view(&self) -> TensorRef<'_, D> {
        TensorRef {
            storage: &self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// A mutable view of the whole tensor.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, UnaryOp};
    /// let mut x = RawTensor::from_vec(vec![-1.0f32, 2.0], &[2])?;
    /// x.view_mut().unary_(UnaryOp::Abs)?;
    /// assert_eq!(x.to_vec::<f32>()?, vec![1.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn view_mut(&mut self) -> TensorMut<'_, D> {
        TensorMut {
            storage: &mut self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// The parts: storage, layout and dtype.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, RawTensor};
    /// let x = RawTensor::zeros(&[2, 2], DType::F64)?;
    /// let (storage, layout, dtype) = x.into_parts();
    /// assert_eq!((storage.nbytes(), layout, dtype), (32, Layout::contiguous(&[2, 2]), DType::F64));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn into_parts(self) -> (Storage<D>, Layout, DType) {
        (self.storage, self.layout, self.dtype)
    }

    /// The storage (`untyped_storage()`).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::zeros(&[3], DType::I16)?;
    /// assert_eq!(x.storage().nbytes(), 6);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn storage(&self) -> &Storage<D> {
        &self.storage
    }

    /// The storage, mutably: byte writes show through every view.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let mut x = RawTensor::zeros(&[2], DType::U8)?;
    /// x.storage_mut().write_byte(1, 9)?;
    /// assert_eq!(x.to_vec::<u8>()?, vec![0, 9]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn storage_mut(&mut self) -> &mut Storage<D> {
        &mut self.storage
    }

    /// The layout.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, RawTensor};
    /// let x = RawTensor::zeros(&[4, 5], DType::F32)?;
    /// assert_eq!(x.layout(), &Layout::contiguous(&[4, 5]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The dtype.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// assert_eq!(RawTensor::from_vec(vec![1i8, 2], &[2])?.dtype(), DType::I8);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The sizes.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// assert_eq!(RawTensor::zeros(&[2, 0, 3], DType::F32)?.shape(), &[2, 0, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// The strides, in elements.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// assert_eq!(RawTensor::zeros(&[2, 3, 4], DType::F32)?.strides(), &[12, 4, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }
}

// Accessors of `TensorRef` and `TensorMut`; each example reads both.
macro_rules! shared_accessors {
    ($($ty:ident),*) => {$(
        impl<'a, D: Device> $ty<'a, D> {
            /// The sizes.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 3], DType::F32)?;
            /// assert_eq!(x.view().t()?.shape(), &[3, 2]);
            /// assert_eq!(x.view_mut().shape(), &[2, 3]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn shape(&self) -> &[usize] {
                self.layout.shape()
            }

            /// The strides, in elements.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 3], DType::F32)?;
            /// assert_eq!(x.view().t()?.strides(), &[1, 3]);
            /// assert_eq!(x.view_mut().strides(), &[3, 1]);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn strides(&self) -> &[isize] {
                self.layout.strides()
            }

            /// The storage offset, in elements.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[3, 4], DType::F32)?;
            /// assert_eq!(x.view().select(0, 2)?.offset(), 8); // x[2]
            /// assert_eq!(x.view_mut().narrow(1, 1, 2)?.offset(), 1); // x[:, 1:3]
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn offset(&self) -> usize {
                self.layout.offset()
            }

            /// The layout.
            ///
            /// ```
            /// # use axial_core::{DType, Layout, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 3], DType::F32)?;
            /// assert_eq!(x.view().layout(), &Layout::contiguous(&[2, 3]));
            /// assert_eq!(x.view_mut().t()?.layout(), &Layout::from_parts(&[3, 2], &[1, 3], 0));
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn layout(&self) -> &Layout {
                &self.layout
            }

            /// The dtype.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2], DType::BF16)?;
            /// assert_eq!(x.view().dtype(), DType::BF16);
            /// assert_eq!(x.view_mut().dtype(), DType::BF16);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn dtype(&self) -> DType {
                self.dtype
            }

            /// The number of elements.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[4, 5], DType::F32)?;
            /// assert_eq!(x.view().numel(), 20);
            /// assert_eq!(x.view_mut().narrow(0, 0, 0)?.numel(), 0);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn numel(&self) -> usize {
                self.layout.numel()
            }

            /// The rank.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[4, 5], DType::F32)?;
            /// assert_eq!(x.view().dim(), 2);
            /// assert_eq!(x.view_mut().select(0, 0)?.dim(), 1);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn dim(&self) -> usize {
                self.layout.rank()
            }

            /// `numel * element_size` (strides ignored, as in PyTorch).
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[4, 6], DType::F32)?;
            /// assert_eq!(x.view().nbytes(), 96);
            /// // x[:, ::2]: 12 elements, whatever their strides.
            /// assert_eq!(x.view_mut().slice(1, None, None, 2)?.nbytes(), 48);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn nbytes(&self) -> usize {
                // Saturates only for a layout no storage holds.
                self.numel().saturating_mul(self.dtype.size())
            }

            /// Address of the first element: the storage's plus `offset * itemsize`
            /// (0 for an empty tensor).
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 3], DType::F64)?;
            /// let base = x.storage().data_ptr();
            /// assert_eq!(x.view().select(0, 1)?.data_ptr(), base + 24);
            /// assert_eq!(x.view_mut().narrow(1, 0, 0)?.data_ptr(), 0);
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn data_ptr(&self) -> usize {
                if self.numel() == 0 {
                    return 0;
                }
                // Wraps only for a layout past its storage, whose address
                // means nothing (and is never read through).
                self.storage
                    .data_ptr()
                    .wrapping_add(self.offset().wrapping_mul(self.dtype.size()))
            }

            /// PyTorch's `is_contiguous()`.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let mut x = RawTensor::zeros(&[2, 3], DType::F32)?;
            /// assert!(!x.view().t()?.is_contiguous());
            /// assert!(x.view_mut().select(0, 1)?.is_contiguous());
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn is_contiguous(&self) -> bool {
                self.layout.is_contiguous()
            }

            /// True when both views read one storage.
            ///
            /// ```
            /// # use axial_core::{DType, RawTensor};
            /// let (mut x, y) = (RawTensor::zeros(&[2], DType::F32)?, RawTensor::zeros(&[2], DType::F32)?);
            /// assert!(x.view().select(0, 1)?.shares_storage_with(&x.view()));
            /// assert!(!x.view_mut().shares_storage_with(&y.view()));
            /// # Ok::<(), axial_core::Error>(())
            /// ```
            pub fn shares_storage_with(&self, other: &TensorRef<'_, D>) -> bool {
                self.storage.same_as(other.storage)
            }
        }
    )*};
}
shared_accessors!(TensorRef, TensorMut);

impl<'a, D: Device> TensorRef<'a, D> {
    /// A view over `storage` (checked against it).
    ///
    /// # Errors
    /// The layout reaches past the storage.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Storage, TensorRef};
    /// let s = Storage::from_slice(&[1.0f32, 2.0, 3.0, 4.0]);
    /// let diag = TensorRef::new(&s, Layout::from_parts(&[2], &[3], 0), DType::F32)?;
    /// assert_eq!(diag.to_vec::<f32>()?, vec![1.0, 4.0]);
    /// assert!(TensorRef::new(&s, Layout::from_parts(&[2], &[4], 0), DType::F32).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(storage: &'a Storage<D>, layout: Layout, dtype: DType) -> Result<Self> {
        layout.check_bounds(storage.len_of(dtype), dtype.size())?;
        Ok(TensorRef {
            storage,
            layout,
            dtype,
        })
    }

    /// A view over `storage` that checks nothing: for a layout the caller
    /// has already checked against it (a typed tensor keeps that
    /// invariant), so that hot paths do not check it again per op.
    ///
    /// A layout that does not fit is still safe: every op that reads or
    /// writes through the view checks bounds first (kernels through the
    /// device's [`crate::Backend`] entry points, host copies through
    /// [`crate::Device::copy_to_host`]) and returns `Err`, never an access
    /// out of bounds. [`TensorRef::new`] refuses it up front.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Storage, TensorRef, UnaryOp};
    /// let s = Storage::from_slice(&[1.0f32, 2.0]);
    /// let v = TensorRef::new_unchecked(&s, Layout::contiguous(&[2]), DType::F32);
    /// assert_eq!(v.to_vec::<f32>()?, vec![1.0, 2.0]);
    /// // Three elements do not fit in two: ops on the view fail, none reads past.
    /// let bad = TensorRef::new_unchecked(&s, Layout::contiguous(&[3]), DType::F32);
    /// assert!(bad.to_vec::<f32>().is_err());
    /// assert!(bad.unary(UnaryOp::Exp).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new_unchecked(storage: &'a Storage<D>, layout: Layout, dtype: DType) -> Self {
        TensorRef {
            storage,
            layout,
            dtype,
        }
    }

    /// The storage, borrowed for as long as the view's own borrow.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::zeros(&[2, 3], DType::F32)?;
    /// let row = x.view().select(0, 1)?;
    /// assert_eq!(row.storage().nbytes(), 24); // the whole storage, not the row
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn storage(&self) -> &'a Storage<D> {
        self.storage
    }

    /// This view as a kernel input.
    ///
    /// ```
    /// # use axial_core::{Backend, Cpu, DType, Layout, Output, RawTensor, Storage};
    /// let x = RawTensor::from_vec(vec![1u8, 2, 3, 4], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0u8; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::U8 };
    /// Cpu.copy(x.view().t()?.input(), dst)?;
    /// assert_eq!(s.as_bytes(), &[1, 3, 2, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn input(&self) -> Input<'a, D> {
        Input {
            storage: Some(self.storage),
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// Refuses a layout past the storage (one [`TensorRef::new_unchecked`]
    /// let through) before a host read computes byte offsets from it.
    fn check_in_bounds(&self) -> Result<()> {
        self.layout
            .check_bounds(self.storage.len_of(self.dtype), self.dtype.size())
    }

    fn with_layout(&self, layout: Layout) -> TensorRef<'a, D> {
        TensorRef {
            storage: self.storage,
            layout,
            dtype: self.dtype,
        }
    }
}

impl<'a, D: Device> TensorMut<'a, D> {
    /// A mutable view over `storage` (checked against it).
    ///
    /// # Errors
    /// The layout reaches past the storage.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Scalar, Storage, TensorMut};
    /// let mut s = Storage::from_slice(&[0i32; 4]);
    /// TensorMut::new(&mut s, Layout::from_parts(&[2], &[2], 1), DType::I32)?.fill_(Scalar::Int(5))?;
    /// assert_eq!(s.as_slice::<i32>()?, &[0, 5, 0, 5]);
    /// assert!(TensorMut::new(&mut s, Layout::contiguous(&[5]), DType::I32).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(storage: &'a mut Storage<D>, layout: Layout, dtype: DType) -> Result<Self> {
        layout.check_bounds(storage.len_of(dtype), dtype.size())?;
        Ok(TensorMut {
            storage,
            layout,
            dtype,
        })
    }

    /// A mutable view over `storage` that checks nothing, for a layout the
    /// caller has already checked against it: a layout that does not fit
    /// makes every op on the view return `Err`, as
    /// [`TensorRef::new_unchecked`].
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Storage, TensorMut};
    /// let mut s = Storage::from_slice(&[1.0f32, 2.0]);
    /// TensorMut::new_unchecked(&mut s, Layout::contiguous(&[2]), DType::F32).fill_(0.into())?;
    /// assert_eq!(s.as_bytes(), &[0; 8]);
    /// let mut bad = TensorMut::new_unchecked(&mut s, Layout::contiguous(&[3]), DType::F32);
    /// assert!(bad.fill_(1.into()).is_err());
    /// assert_eq!(s.as_bytes(), &[0; 8]); // nothing written
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new_unchecked(storage: &'a mut Storage<D>, layout: Layout, dtype: DType) -> Self {
        TensorMut {
            storage,
            layout,
            dtype,
        }
    }

    /// A shorter-lived mutable view of the same elements, so that a view op
    /// (which consumes a [`TensorMut`]) leaves this one usable.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, Scalar};
    /// let mut x = RawTensor::zeros(&[2, 2], DType::I64)?;
    /// let mut m = x.view_mut();
    /// m.reborrow().select(0, 0)?.fill_(Scalar::Int(1))?;
    /// m.reborrow().select(1, 1)?.fill_(Scalar::Int(2))?;
    /// assert_eq!(x.to_vec::<i64>()?, vec![1, 2, 0, 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reborrow(&mut self) -> TensorMut<'_, D> {
        TensorMut {
            storage: self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// A read-only view of the same elements.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, ReduceOp};
    /// let mut x = RawTensor::from_vec(vec![1i32, 2, 3], &[3])?;
    /// let m = x.view_mut();
    /// let total = m.as_ref().reduce(ReduceOp::Sum, &[0], false)?;
    /// assert_eq!(total.to_vec::<i64>()?, vec![6]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn as_ref(&self) -> TensorRef<'_, D> {
        TensorRef {
            storage: self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// The storage, mutably: the whole storage, not only the view's elements.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let mut x = RawTensor::zeros(&[2], DType::U8)?;
    /// let mut first = x.view_mut().narrow(0, 0, 1)?;
    /// first.storage_mut().write_byte(1, 3)?; // outside the view
    /// assert_eq!(x.to_vec::<u8>()?, vec![0, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn storage_mut(&mut self) -> &mut Storage<D> {
        self.storage
    }

    /// This view as a kernel output (refused when two of its elements share memory).
    pub(crate) fn output(&mut self) -> Result<Output<'_, D>> {
        self.layout.check_writable()?;
        Ok(Output {
            storage: self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        })
    }

    fn with_layout(self, layout: Layout) -> TensorMut<'a, D> {
        TensorMut {
            storage: self.storage,
            layout,
            dtype: self.dtype,
        }
    }
}

/// A tensor that is either a view of another or a new one (what `reshape` and
/// `contiguous` return).
///
/// # Example
/// ```
/// use axial_core::{DType, MaybeOwned, RawTensor};
/// let x = RawTensor::zeros(&[2, 3], DType::F32)?;
/// let t = x.view().t()?;
/// assert!(matches!(t.contiguous()?, MaybeOwned::Owned(_))); // a copy
/// assert!(matches!(x.view().contiguous()?, MaybeOwned::View(_)));
/// # Ok::<(), axial_core::Error>(())
/// ```
pub enum MaybeOwned<'a, D: Device = Cpu> {
    /// A view of the input's storage.
    View(TensorRef<'a, D>),
    /// A new tensor.
    Owned(RawTensor<D>),
}

impl<'a, D: Device> MaybeOwned<'a, D> {
    /// A view either way.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::arange(0.0, 4.0, 1.0, DType::I64)?;
    /// let copied = x.view().view(&[2, 2])?.t()?.reshape(&[4])?;
    /// assert_eq!(copied.as_ref().to_vec::<i64>()?, vec![0, 2, 1, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn as_ref(&self) -> TensorRef<'_, D> {
        match self {
            MaybeOwned::View(v) => v.clone(),
            MaybeOwned::Owned(t) => t.view(),
        }
    }

    /// True when no copy was made.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::zeros(&[2, 3], DType::F32)?;
    /// assert!(x.view().reshape(&[3, 2])?.is_view());
    /// assert!(!x.view().t()?.reshape(&[6])?.is_view());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn is_view(&self) -> bool {
        matches!(self, MaybeOwned::View(_))
    }
}

/// Allocates an output of `layout`'s shape on `device`.
pub(crate) fn alloc_output<D: Backend>(
    device: &D,
    layout: Layout,
    dtype: DType,
) -> Result<RawTensor<D>> {
    let nbytes = layout
        .required_len()
        .checked_mul(dtype.size())
        .ok_or_else(|| Error::invalid("alloc", "size overflows"))?;
    let storage = Storage::uninit(device, nbytes)?;
    Ok(RawTensor {
        storage,
        layout,
        dtype,
    })
}

impl<D: Device> RawTensor<D> {
    /// The whole tensor as a kernel output (a new tensor's layout, which
    /// has no internal overlap).
    pub(crate) fn output(&mut self) -> Output<'_, D> {
        Output {
            storage: &mut self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }
}

/// Checks that `T` is `dtype`.
fn expect_dtype<T: Element>(op: &'static str, dtype: DType) -> Result<()> {
    if T::DTYPE != dtype {
        return Err(Error::DTypeMismatch {
            op,
            expected: dtype,
            got: T::DTYPE,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{
        ArgReduceOp, BinaryOp, Bool, CmpOp, DType, Error, Layout, RawTensor, ReduceOp, Result,
        Scalar, Storage, TensorMut, TensorRef, UnaryOp,
    };

    /// Layouts that do not fit in a storage of 4 elements: too long, an
    /// offset past the end, a transposed read past the end, a negative stride.
    fn bad_layouts() -> [Layout; 4] {
        [
            Layout::contiguous(&[5]),
            Layout::from_parts(&[2, 2], &[2, 1], 1),
            Layout::from_parts(&[2, 2], &[1, 3], 0),
            Layout::from_parts(&[2], &[-1], 0),
        ]
    }

    /// Asserts that `r` is the bounds check's error for `layout`.
    #[track_caller]
    fn refused<T>(r: Result<T>, layout: &Layout) {
        match r {
            Err(Error::OutOfBounds { .. }) => {}
            Err(Error::Invalid { message, .. }) if message.contains("egative strides") => {}
            Err(e) => panic!("{layout:?}: another error: {e}"),
            Ok(_) => panic!("{layout:?}: accepted"),
        }
    }

    #[test]
    fn unchecked_views_out_of_bounds_are_errors() {
        let s = Storage::from_slice(&[1.0f32, 2.0, 3.0, 4.0]);
        let mask = RawTensor::from_vec(vec![Bool::TRUE], &[]).unwrap();
        for layout in bad_layouts() {
            let v = TensorRef::new_unchecked(&s, layout.clone(), DType::F32);
            let same = || TensorRef::new_unchecked(&s, layout.clone(), DType::F32);
            let last = vec![-1; layout.rank()];
            refused(v.to_vec::<f32>(), &layout);
            refused(v.get::<f32>(&last), &layout);
            refused(v.to_dtype(DType::F64), &layout);
            refused(v.unary(UnaryOp::Neg), &layout);
            refused(v.binary(BinaryOp::Add, &same()), &layout);
            refused(v.binary_scalar(BinaryOp::Mul, Scalar::Float(2.0)), &layout);
            refused(v.compare(CmpOp::Eq, &same()), &layout);
            refused(mask.view().where_(&v, &same()), &layout);
            refused(v.reduce(ReduceOp::Sum, &[], false), &layout);
            refused(v.arg_reduce(ArgReduceOp::ArgMax, Some(0), false), &layout);
            refused(v.matmul(&v.t().unwrap_or(same())), &layout);
        }
    }

    #[test]
    fn unchecked_mutable_views_out_of_bounds_write_nothing() {
        for layout in bad_layouts() {
            let src = RawTensor::zeros(layout.shape(), DType::F32).unwrap();
            let mut s = Storage::from_slice(&[1.0f32, 2.0, 3.0, 4.0]);
            let mut m = TensorMut::new_unchecked(&mut s, layout.clone(), DType::F32);
            refused(m.fill_(Scalar::Float(0.0)), &layout);
            refused(m.zero_(), &layout);
            refused(m.copy_(&src.view()), &layout);
            refused(m.unary_(UnaryOp::Abs), &layout);
            refused(m.binary_(BinaryOp::Sub, &src.view()), &layout);
            refused(m.binary_scalar_(BinaryOp::Add, Scalar::Int(1)), &layout);
            assert_eq!(s.as_slice::<f32>().unwrap(), &[1.0, 2.0, 3.0, 4.0]);
        }
    }
}
