//! A tensor read from a file: a storage shared with the file's other views
//! of it, a layout (sizes, strides, offset) and a dtype; and the keyed
//! collections of them that readers return.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use axial::{ArcTensor, Shape};
use axial_core::{DType, Element, Layout, RawTensor, Storage, TensorRef};

use crate::{Error, ForeignTensor, Result};

/// An untyped tensor as a file holds it: its storage (shared, without
/// copying, with every other tensor of the file that views it, and
/// zero-copy from the file's mapping where aligned), its layout and its
/// dtype.
///
/// # Example
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::StoredTensor;
/// let base = StoredTensor::from_raw(RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?.view().view(&[2, 3])?.to_contiguous()?);
/// let t = base.with_layout(base.layout().t()?)?; // a view of the same storage
/// assert!(t.shares_storage_with(&base));
/// assert_eq!((t.shape(), t.strides()), (&[3, 2][..], &[1, 3][..]));
/// assert_eq!(t.to_vec::<f32>()?, vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
/// # Ok::<(), axial_io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct StoredTensor {
    storage: Arc<Storage>,
    layout: Layout,
    dtype: DType,
}

impl StoredTensor {
    /// A tensor of `dtype` with `layout` over `storage`.
    ///
    /// # Errors
    /// The layout reaches past the storage.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use axial_core::{DType, Layout, Storage};
    /// # use axial_io::StoredTensor;
    /// let s = Arc::new(Storage::from_slice(&[1i32, 2, 3, 4]));
    /// assert!(StoredTensor::new(s.clone(), Layout::contiguous(&[2, 2]), DType::I32).is_ok());
    /// assert!(StoredTensor::new(s, Layout::contiguous(&[5]), DType::I32).is_err());
    /// ```
    pub fn new(storage: Arc<Storage>, layout: Layout, dtype: DType) -> Result<Self> {
        layout.check_bounds(storage.len_of(dtype), dtype.size())?;
        Ok(StoredTensor {
            storage,
            layout,
            dtype,
        })
    }

    /// A tensor over `raw`'s storage, without copying.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// let t = StoredTensor::from_raw(RawTensor::zeros(&[2], DType::I64)?);
    /// assert_eq!(t.dtype(), DType::I64);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_raw(raw: RawTensor) -> Self {
        let (storage, layout, dtype) = raw.into_parts();
        StoredTensor {
            storage: Arc::new(storage),
            layout,
            dtype,
        }
    }

    /// Another view of the same storage (a transpose, a slice), checked
    /// against it.
    ///
    /// # Errors
    /// The layout reaches past the storage.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, RawTensor};
    /// # use axial_io::StoredTensor;
    /// let t = StoredTensor::from_raw(RawTensor::zeros(&[12], DType::F32)?);
    /// let w = t.with_layout(Layout::from_parts(&[2, 2], &[4, 1], 5))?;
    /// assert_eq!(w.offset(), 5);
    /// assert!(t.with_layout(Layout::contiguous(&[13])).is_err());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn with_layout(&self, layout: Layout) -> Result<Self> {
        Self::new(Arc::clone(&self.storage), layout, self.dtype)
    }

    /// The dtype.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// assert_eq!(StoredTensor::from_raw(RawTensor::zeros(&[1], DType::BF16)?).dtype(), DType::BF16);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The sizes.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// assert_eq!(StoredTensor::from_raw(RawTensor::zeros(&[2, 5], DType::U8)?).shape(), &[2, 5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// The strides, in elements.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// assert_eq!(StoredTensor::from_raw(RawTensor::zeros(&[2, 5], DType::U8)?).strides(), &[5, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }

    /// The storage offset, in elements.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// assert_eq!(StoredTensor::from_raw(RawTensor::zeros(&[3], DType::F64)?).offset(), 0);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn offset(&self) -> usize {
        self.layout.offset()
    }

    /// The number of elements.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// assert_eq!(StoredTensor::from_raw(RawTensor::zeros(&[2, 5], DType::U8)?).numel(), 10);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }

    /// The layout.
    ///
    /// ```
    /// # use axial_core::{DType, Layout, RawTensor};
    /// # use axial_io::StoredTensor;
    /// let t = StoredTensor::from_raw(RawTensor::zeros(&[3], DType::F64)?);
    /// assert_eq!(t.layout(), &Layout::contiguous(&[3]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The storage, shared by every view of it.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// let t = StoredTensor::from_raw(RawTensor::zeros(&[3], DType::F64)?);
    /// assert_eq!(t.storage().nbytes(), 24);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn storage(&self) -> &Arc<Storage> {
        &self.storage
    }

    /// Whether both tensors view one storage.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// let a = StoredTensor::from_raw(RawTensor::zeros(&[4], DType::F32)?);
    /// let b = StoredTensor::from_raw(RawTensor::zeros(&[4], DType::F32)?);
    /// assert!(a.shares_storage_with(&a.clone()) && !a.shares_storage_with(&b));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn shares_storage_with(&self, other: &StoredTensor) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage) || self.storage.same_as(&other.storage)
    }

    /// A borrowed view, for the core's ops.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, ReduceOp};
    /// # use axial_io::StoredTensor;
    /// let t = StoredTensor::from_raw(RawTensor::arange(0.0, 4.0, 1.0, DType::F32)?);
    /// let s = t.view().reduce(ReduceOp::Sum, &[0], false)?;
    /// assert_eq!(s.to_vec::<f32>()?, vec![6.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn view(&self) -> TensorRef<'_> {
        TensorRef::new_unchecked(&self.storage, self.layout.clone(), self.dtype)
    }

    /// The elements in logical (row-major) order.
    ///
    /// # Errors
    /// `T` is not the dtype.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// let t = StoredTensor::from_raw(RawTensor::arange(0.0, 3.0, 1.0, DType::I16)?);
    /// assert_eq!(t.to_vec::<i16>()?, vec![0, 1, 2]);
    /// assert!(t.to_vec::<f32>().is_err());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        Ok(self.view().to_vec::<T>()?)
    }

    /// An owned copy: contiguous, in a storage of its own.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// let t = StoredTensor::from_raw(RawTensor::zeros(&[2, 3], DType::F32)?);
    /// let r = t.with_layout(t.layout().t()?)?.to_raw()?;
    /// assert_eq!((r.shape(), r.strides()), (&[3, 2][..], &[2, 1][..]));
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn to_raw(&self) -> Result<RawTensor> {
        Ok(self.view().to_contiguous()?)
    }

    /// This tensor as an owned `RawTensor` with the same layout: without a
    /// copy when no other tensor shares its storage (a tensor read alone,
    /// an HDF5 read), else a contiguous copy as [`to_raw`](Self::to_raw).
    ///
    /// # Errors
    /// Out of memory (for the copy).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::StoredTensor;
    /// let t = StoredTensor::from_raw(RawTensor::zeros(&[2, 3], DType::F32)?);
    /// let ptr = t.storage().data_ptr();
    /// let r = t.into_raw()?;
    /// assert_eq!((r.shape(), r.storage().data_ptr()), (&[2, 3][..], ptr));
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn into_raw(self) -> Result<RawTensor> {
        match Arc::try_unwrap(self.storage) {
            Ok(storage) => Ok(RawTensor::from_parts(storage, self.layout, self.dtype)?),
            Err(storage) => StoredTensor {
                storage,
                layout: self.layout,
                dtype: self.dtype,
            }
            .to_raw(),
        }
    }

    /// This tensor as a typed `ArcTensor<T, S>` over the same storage
    /// (copied on the first write while shared): the dtype must be `T`, the
    /// rank `S`'s and each size `S`'s static size.
    ///
    /// # Errors
    /// The dtype, the rank or a size differs; the message names the expected
    /// and the found dtype and shape.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial_core::{DType, RawTensor};
    /// use axial_io::StoredTensor;
    /// axes!(Rows, Cols);
    /// let t = StoredTensor::from_raw(RawTensor::zeros(&[4, 3], DType::F32)?);
    /// let m: ArcTensor<f32, shape![Rows: 4, Cols: Dyn]> = t.typed()?;
    /// assert!(t.typed::<f32, shape![Rows: 4, Cols: 4]>().is_err());
    /// assert!(t.typed::<f64, shape![Rows: 4, Cols: 3]>().is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn typed<T: Element, S: Shape>(&self) -> axial::Result<ArcTensor<T, S>> {
        ArcTensor::try_from_shared(Arc::clone(&self.storage), self.layout.clone(), self.dtype)
    }
}

/// A collection of tensors by key (a safetensors file, an `.npz`, a
/// checkpoint's state dict): lookup, and the checked typed conversion that
/// names the key. A tensor of a dtype axial does not have is still listed:
/// asking for it is an [`Error::UnsupportedDType`] naming it and its dtype,
/// while the collection's other tensors read.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// use axial_core::{DType, RawTensor};
/// use axial_io::{TensorMap, safetensors};
/// axes!(Rows, Cols);
/// let w = RawTensor::zeros(&[4, 3], DType::F32)?;
/// let bytes = safetensors::to_bytes(&[("model_weights", w.view())], &[])?;
/// let file = safetensors::load_bytes(&bytes)?;
/// let err = file.typed::<f32, shape![Rows: 4, Cols: 4]>("model_weights").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "tensor `model_weights`: from_raw: expected a float32 tensor of shape (Rows: 4, Cols: 4), found a float32 tensor of shape [4, 3]"
/// );
/// # Ok::<(), axial_io::Error>(())
/// ```
pub trait TensorMap {
    /// The format's name, for messages.
    fn format(&self) -> &'static str;

    /// The tensor under `key`, if any and if axial has its dtype.
    fn find(&self, key: &str) -> Option<&StoredTensor>;

    /// The dtype's name of the tensor under `key` when the file holds one
    /// there whose dtype axial does not have (`complex32`, `str160`).
    ///
    /// ```
    /// # use axial_io::{TensorMap, npz};
    /// assert_eq!(npz::load_bytes(&npz::to_bytes(&[], false)?)?.unsupported_dtype("x"), None);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    fn unsupported_dtype(&self, key: &str) -> Option<&str> {
        let _ = key;
        None
    }

    /// The tensor under `key`.
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] naming the key and the dtype when the
    /// tensor there has a dtype axial does not have, else
    /// [`Error::NotFound`] naming the key.
    fn tensor(&self, key: &str) -> Result<&StoredTensor> {
        if let Some(t) = self.find(key) {
            return Ok(t);
        }
        Err(match self.unsupported_dtype(key) {
            Some(dtype) => Error::unsupported_dtype(self.format(), Some(key), dtype),
            None => Error::NotFound {
                format: self.format(),
                key: key.to_string(),
            },
        })
    }

    /// The tensor under `key` as a typed `ArcTensor<T, S>`, zero-copy.
    ///
    /// # Errors
    /// As [`tensor`](TensorMap::tensor), or [`Error::Tensor`] naming the
    /// key, the expected and the found dtype and shape.
    fn typed<T: Element, S: Shape>(&self, key: &str) -> Result<ArcTensor<T, S>> {
        self.tensor(key)?.typed().map_err(|source| Error::Tensor {
            key: key.to_string(),
            source,
        })
    }
}

/// A tensor's elements in C order as bytes: borrowed from its storage when
/// it is contiguous, a copy when not.
pub(crate) fn c_order_bytes<'a>(tensor: &TensorRef<'a>) -> Result<Cow<'a, [u8]>> {
    let size = tensor.dtype().size();
    if tensor.layout().is_contiguous() {
        let start = tensor.offset() * size;
        let end = start + tensor.numel() * size;
        let bytes = tensor.storage().as_bytes();
        if let Some(bytes) = bytes.get(start..end) {
            return Ok(Cow::Borrowed(bytes));
        }
    }
    let copy = tensor.to_contiguous()?;
    Ok(Cow::Owned(copy.storage().as_bytes().to_vec()))
}

/// A tensor as a reader found it: of a dtype axial has, or of one it does
/// not (its dtype's name, and its bytes where its elements have a fixed
/// size).
#[derive(Clone, Debug)]
pub(crate) enum Entry {
    Typed(StoredTensor),
    Untyped {
        dtype: String,
        foreign: Option<ForeignTensor>,
    },
}

/// Tensors by name, in the file's order: the tensors of a safetensors file
/// or the arrays of an `.npz`. Those of a dtype axial does not have are
/// kept apart: listed by [`keys`](Self::keys) and
/// [`unsupported`](Self::unsupported), their bytes given by
/// [`foreign`](Self::foreign), and an [`Error::UnsupportedDType`] from
/// [`tensor`](TensorMap::tensor).
///
/// ```
/// use axial_core::{DType, RawTensor};
/// use axial_io::{TensorMap, npz};
/// let x = RawTensor::zeros(&[2], DType::F32)?;
/// let file = npz::load_bytes(&npz::to_bytes(&[("b", x.view()), ("a", x.view())], false)?)?;
/// assert_eq!(file.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(file.tensor("a")?.shape(), &[2]);
/// # Ok::<(), axial_io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct NamedTensors {
    format: &'static str,
    items: Vec<(String, Entry)>,
    index: HashMap<String, usize>,
}

impl NamedTensors {
    pub(crate) fn new(format: &'static str, items: Vec<(String, Entry)>) -> Self {
        let index = items
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (k.clone(), i))
            .collect();
        NamedTensors {
            format,
            items,
            index,
        }
    }

    /// The names of every tensor, in the file's order (those of a dtype
    /// axial does not have included).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::safetensors;
    /// let (a, b) = (RawTensor::zeros(&[1], DType::F64)?, RawTensor::zeros(&[1], DType::U8)?);
    /// let file = safetensors::load_bytes(&safetensors::to_bytes(&[("small", b.view()), ("wide", a.view())], &[])?)?;
    /// assert_eq!(file.keys().collect::<Vec<_>>(), ["wide", "small"]); // the writer puts wider dtypes first
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.items.iter().map(|(k, _)| k.as_str())
    }

    /// The tensors axial has a dtype for, with their names, in the file's
    /// order ([`unsupported`](Self::unsupported) lists the others).
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::safetensors;
    /// let a = RawTensor::zeros(&[2, 2], DType::F32)?;
    /// let file = safetensors::load_bytes(&safetensors::to_bytes(&[("a", a.view())], &[])?)?;
    /// for (key, t) in file.iter() {
    ///     assert_eq!((key, t.shape()), ("a", &[2, 2][..]));
    /// }
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &StoredTensor)> {
        self.items.iter().filter_map(|(k, e)| match e {
            Entry::Typed(t) => Some((k.as_str(), t)),
            Entry::Untyped { .. } => None,
        })
    }

    /// The tensors of a dtype axial does not have: their names and their
    /// dtypes' (`float8_e8m0fnu`, `str160`), in the file's order.
    ///
    /// ```
    /// # use axial_io::npz;
    /// assert_eq!(npz::load_bytes(&npz::to_bytes(&[], false)?)?.unsupported().count(), 0);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn unsupported(&self) -> impl Iterator<Item = (&str, &str)> {
        self.items.iter().filter_map(|(k, e)| match e {
            Entry::Untyped { dtype, .. } => Some((k.as_str(), dtype.as_str())),
            Entry::Typed(_) => None,
        })
    }

    /// The bytes and layout of the tensor `key` when its dtype is one axial
    /// does not have and its elements have a fixed size (not for an array
    /// of Python objects, a structured array or sub-byte floats), as
    /// little-endian numbers.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// # use axial_io::npz;
    /// let file = npz::load_bytes(&npz::to_bytes(&[("x", RawTensor::zeros(&[1], DType::I8)?.view())], false)?)?;
    /// assert!(file.foreign("x").is_none()); // int8 is axial's: `tensor("x")` reads it
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn foreign(&self, key: &str) -> Option<&ForeignTensor> {
        match &self.items[*self.index.get(key)?].1 {
            Entry::Untyped { foreign, .. } => foreign.as_ref(),
            Entry::Typed(_) => None,
        }
    }

    /// The number of tensors, of every dtype.
    ///
    /// ```
    /// # use axial_io::npz;
    /// assert_eq!(npz::load_bytes(&npz::to_bytes(&[], false)?)?.len(), 0);
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there is no tensor.
    ///
    /// ```
    /// # use axial_io::safetensors;
    /// assert!(safetensors::load_bytes(&safetensors::to_bytes(&[], &[])?)?.is_empty());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The tensor named `key`, if any and if axial has its dtype.
    ///
    /// ```
    /// # use axial_io::npz;
    /// assert!(npz::load_bytes(&npz::to_bytes(&[], false)?)?.get("x").is_none());
    /// # Ok::<(), axial_io::Error>(())
    /// ```
    pub fn get(&self, key: &str) -> Option<&StoredTensor> {
        match &self.items[*self.index.get(key)?].1 {
            Entry::Typed(t) => Some(t),
            Entry::Untyped { .. } => None,
        }
    }
}

impl TensorMap for NamedTensors {
    fn format(&self) -> &'static str {
        self.format
    }

    fn find(&self, key: &str) -> Option<&StoredTensor> {
        self.get(key)
    }

    fn unsupported_dtype(&self, key: &str) -> Option<&str> {
        match &self.items[*self.index.get(key)?].1 {
            Entry::Untyped { dtype, .. } => Some(dtype),
            Entry::Typed(_) => None,
        }
    }
}
