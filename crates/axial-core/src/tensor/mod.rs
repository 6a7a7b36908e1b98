//! The runtime (dynamically shaped) tensor: an owned [`RawTensor`], a borrowed
//! [`TensorRef`] and a mutably borrowed [`TensorMut`], in ndarray's ownership
//! model. The typed `axial::Tensor` is a zero-cost wrapper over these.

mod create;
pub use create::Generator;
pub use elementwise::can_cast;
mod elementwise;
mod linalg;
mod reduce;
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
pub struct TensorRef<'a, D: Device = Cpu> {
    storage: &'a Storage<D>,
    layout: Layout,
    dtype: DType,
}

/// A mutable view: writes show through every alias of the storage.
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
    pub fn view(&self) -> TensorRef<'_, D> {
        TensorRef {
            storage: &self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// A mutable view of the whole tensor.
    pub fn view_mut(&mut self) -> TensorMut<'_, D> {
        TensorMut {
            storage: &mut self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// The parts: storage, layout and dtype.
    pub fn into_parts(self) -> (Storage<D>, Layout, DType) {
        (self.storage, self.layout, self.dtype)
    }

    /// The storage (`untyped_storage()`).
    pub fn storage(&self) -> &Storage<D> {
        &self.storage
    }

    /// The storage, mutably: byte writes show through every view.
    pub fn storage_mut(&mut self) -> &mut Storage<D> {
        &mut self.storage
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The dtype.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The sizes.
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// The strides, in elements.
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }
}

macro_rules! shared_accessors {
    ($($ty:ident),*) => {$(
        impl<'a, D: Device> $ty<'a, D> {
            /// The sizes.
            pub fn shape(&self) -> &[usize] {
                self.layout.shape()
            }

            /// The strides, in elements.
            pub fn strides(&self) -> &[isize] {
                self.layout.strides()
            }

            /// The storage offset, in elements.
            pub fn offset(&self) -> usize {
                self.layout.offset()
            }

            /// The layout.
            pub fn layout(&self) -> &Layout {
                &self.layout
            }

            /// The dtype.
            pub fn dtype(&self) -> DType {
                self.dtype
            }

            /// The number of elements.
            pub fn numel(&self) -> usize {
                self.layout.numel()
            }

            /// The rank.
            pub fn dim(&self) -> usize {
                self.layout.rank()
            }

            /// `numel * element_size` (strides ignored, as in PyTorch).
            pub fn nbytes(&self) -> usize {
                self.numel() * self.dtype.size()
            }

            /// Address of the first element: the storage's plus `offset * itemsize`
            /// (0 for an empty tensor).
            pub fn data_ptr(&self) -> usize {
                if self.numel() == 0 {
                    return 0;
                }
                self.storage.data_ptr() + self.offset() * self.dtype.size()
            }

            /// PyTorch's `is_contiguous()`.
            pub fn is_contiguous(&self) -> bool {
                self.layout.is_contiguous()
            }

            /// True when both views read one storage.
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
    pub fn new(storage: &'a Storage<D>, layout: Layout, dtype: DType) -> Result<Self> {
        layout.check_bounds(storage.len_of(dtype), dtype.size())?;
        Ok(TensorRef {
            storage,
            layout,
            dtype,
        })
    }

    /// A view over `storage` whose layout the caller has already checked
    /// against it (a typed tensor keeps that invariant), so hot paths do not
    /// check it again per op. Checked in debug builds; kernels check bounds
    /// before they touch memory in any build, so a layout that does not fit
    /// is an error there, never an access out of bounds.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Storage, TensorRef};
    /// let s = Storage::from_slice(&[1.0f32, 2.0]);
    /// let v = TensorRef::new_prechecked(&s, Layout::contiguous(&[2]), DType::F32);
    /// assert_eq!(v.to_vec::<f32>()?, vec![1.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new_prechecked(storage: &'a Storage<D>, layout: Layout, dtype: DType) -> Self {
        debug_assert!(
            layout
                .check_bounds(storage.len_of(dtype), dtype.size())
                .is_ok()
        );
        TensorRef {
            storage,
            layout,
            dtype,
        }
    }

    /// The storage.
    pub fn storage(&self) -> &'a Storage<D> {
        self.storage
    }

    /// This view as a kernel input.
    pub fn input(&self) -> Input<'a, D> {
        Input {
            storage: Some(self.storage),
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
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
    pub fn new(storage: &'a mut Storage<D>, layout: Layout, dtype: DType) -> Result<Self> {
        layout.check_bounds(storage.len_of(dtype), dtype.size())?;
        Ok(TensorMut {
            storage,
            layout,
            dtype,
        })
    }

    /// A mutable view over `storage` whose layout the caller has already
    /// checked against it, as [`TensorRef::new_prechecked`].
    ///
    /// ```
    /// # use axial_core::{DType, Layout, Storage, TensorMut};
    /// let mut s = Storage::from_slice(&[1.0f32, 2.0]);
    /// TensorMut::new_prechecked(&mut s, Layout::contiguous(&[2]), DType::F32).fill_(0.into())?;
    /// assert_eq!(s.as_bytes(), &[0; 8]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new_prechecked(storage: &'a mut Storage<D>, layout: Layout, dtype: DType) -> Self {
        debug_assert!(
            layout
                .check_bounds(storage.len_of(dtype), dtype.size())
                .is_ok()
        );
        TensorMut {
            storage,
            layout,
            dtype,
        }
    }

    /// A shorter-lived mutable view of the same elements.
    pub fn reborrow(&mut self) -> TensorMut<'_, D> {
        TensorMut {
            storage: self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// A read-only view of the same elements.
    pub fn as_ref(&self) -> TensorRef<'_, D> {
        TensorRef {
            storage: self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// The storage, mutably.
    pub fn storage_mut(&mut self) -> &mut Storage<D> {
        self.storage
    }

    /// This view as a kernel output (refused when two of its elements share memory).
    fn output(&mut self) -> Result<Output<'_, D>> {
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
pub enum MaybeOwned<'a, D: Device = Cpu> {
    /// A view of the input's storage.
    View(TensorRef<'a, D>),
    /// A new tensor.
    Owned(RawTensor<D>),
}

impl<'a, D: Device> MaybeOwned<'a, D> {
    /// A view either way.
    pub fn as_ref(&self) -> TensorRef<'_, D> {
        match self {
            MaybeOwned::View(v) => v.clone(),
            MaybeOwned::Owned(t) => t.view(),
        }
    }

    /// True when no copy was made.
    pub fn is_view(&self) -> bool {
        matches!(self, MaybeOwned::View(_))
    }
}

/// Allocates an output of `layout`'s shape on `device`.
fn alloc_output<D: Backend>(device: &D, layout: Layout, dtype: DType) -> Result<RawTensor<D>> {
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
    fn output(&mut self) -> Output<'_, D> {
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
