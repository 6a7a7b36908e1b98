//! Zero-copy views between axial tensors and ndarray 0.17
//! arrays, in both directions, and owned conversions that move the buffer.
//!
//! - axial → ndarray: [`array_view`] and [`array_view_mut`] (untyped views),
//!   [`view`] and [`view_mut`] (typed tensors) give an `ArrayView` over the
//!   tensor's storage with its strides and offset as they are. A broadcast
//!   (stride-0) or otherwise overlapping layout views read-only: an
//!   `ArrayViewMut` of it is an `Err` (ndarray refuses aliasing too).
//! - ndarray → axial: [`from_array_view`], [`from_array_ref`] and
//!   [`from_array`] give an [`Imported`] tensor over the array's memory, the
//!   same strides and the same address. An owned `Array` moves its `Vec` in
//!   and [`into_array`] moves it back out.
//! - Negative strides (`a.slice(s![..;-1])`, `invert_axis`): PyTorch's
//!   memory model has none, so the views refuse them with an `Err` that
//!   says so, and [`copy_from_array`] copies on request.
//!
//! # Example
//! ```
//! use axial_core::{DType, RawTensor};
//! let x = RawTensor::arange(0.0, 12.0, 1.0, DType::F32)?;
//! let grid = x.view().view(&[3, 4])?.t()?; // (4, 3), strides (1, 4)
//! let a = axial_io::ndarray::array_view::<f32>(&grid)?;
//! assert_eq!((a.shape(), a.strides()), (&[4, 3][..], &[1, 4][..]));
//! assert_eq!((a[[3, 2]], a.as_ptr() as usize), (11.0, grid.data_ptr()));
//!
//! let back = axial_io::ndarray::from_array_view(a)?; // and back, no copy
//! assert_eq!(back.view().data_ptr(), grid.data_ptr());
//! # Ok::<(), axial::Error>(())
//! ```

use ::ndarray::{
    Array, ArrayBase, ArrayD, ArrayView, ArrayViewD, ArrayViewMutD, DataOwned, Dimension, IxDyn,
    ShapeBuilder,
};
use axial::{Cpu, Data, DataMut, Shape, TensorBase};
use axial_core::storage::KeepAlive;
use axial_core::{DType, Element, Error, Layout, RawTensor, Result, Storage, TensorMut, TensorRef};

use crate::Imported;

/// An ndarray view of an untyped axial view: the same elements at the same
/// addresses, its strides and offset as they are (an empty view takes
/// ndarray's own strides: no element is there to place).
///
/// # Errors
/// `T` is not the view's dtype, or its memory is not aligned for `T`.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// let x = RawTensor::arange(0.0, 6.0, 1.0, DType::F64)?;
/// let row = x.view().view(&[2, 3])?.select(0, 1)?; // offset 3
/// let a = axial_io::ndarray::array_view::<f64>(&row)?;
/// assert_eq!(a.iter().copied().collect::<Vec<_>>(), vec![3.0, 4.0, 5.0]);
/// assert!(axial_io::ndarray::array_view::<f32>(&row).is_err());
/// # Ok::<(), axial::Error>(())
/// ```
pub fn array_view<'a, T: Element>(view: &TensorRef<'a>) -> Result<ArrayViewD<'a, T>> {
    let elements = elements::<T>("array_view", view.storage(), view.dtype())?;
    let (shape, strides, offset) = ndarray_layout(view.layout());
    if view.numel() == 0 {
        // No element to reach: ndarray's own strides, whatever the memory holds.
        return ArrayView::from_shape(IxDyn(&shape), &[][..])
            .map_err(|e| shape_error("array_view", view.layout(), e));
    }
    ArrayView::from_shape(IxDyn(&shape).strides(IxDyn(&strides)), &elements[offset..])
        .map_err(|e| shape_error("array_view", view.layout(), e))
}

/// A mutable ndarray view of an untyped axial view: writes through it show
/// in the tensor.
///
/// # Errors
/// `T` is not the view's dtype, its memory is not aligned for `T`, or two
/// of its elements share memory (a broadcast or `unfold` view):
/// `ArrayViewMut` cannot alias.
///
/// ```
/// use axial_core::{DType, Layout, RawTensor, Storage, TensorMut};
/// let mut x = RawTensor::zeros(&[2, 3], DType::I32)?;
/// let mut col = x.view_mut().select(1, 2)?; // x[:, 2]
/// axial_io::ndarray::array_view_mut::<i32>(&mut col)?.fill(5);
/// assert_eq!(x.to_vec::<i32>()?, vec![0, 0, 5, 0, 0, 5]);
///
/// let mut row = Storage::from_slice(&[0i32; 3]);
/// let mut b = TensorMut::new(&mut row, Layout::from_parts(&[4, 3], &[0, 1], 0), DType::I32)?;
/// assert!(axial_io::ndarray::array_view_mut::<i32>(&mut b).is_err()); // stride 0 aliases
/// # Ok::<(), axial::Error>(())
/// ```
pub fn array_view_mut<'b, T: Element>(view: &'b mut TensorMut<'_>) -> Result<ArrayViewMutD<'b, T>> {
    let layout = view.layout().clone();
    let dtype = view.dtype();
    let numel = view.numel();
    mut_view_of(view.storage_mut(), &layout, dtype, numel)
}

/// An ndarray view of a typed tensor (any storage kind, broadcasts included).
///
/// # Errors
/// The tensor's memory is not aligned for `T` (memory imported from outside).
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
/// let b = m.as_view().select::<Rows>(1).expand::<shape![Rows: 2, Cols: 3]>();
/// let a = axial_io::ndarray::view(&b)?.into_dimensionality::<ndarray::Ix2>().unwrap();
/// assert_eq!((a.strides(), a.row(1).to_vec()), (&[0, 1][..], vec![3.0, 4.0, 5.0])); // stride 0
/// # Ok::<(), axial::Error>(())
/// ```
pub fn view<T: Element, S: Shape, R: Data<Cpu>>(
    tensor: &TensorBase<T, S, Cpu, R>,
) -> Result<ArrayViewD<'_, T>> {
    let layout = Layout::from_parts(&tensor.shape(), &tensor.strides(), tensor.storage_offset());
    array_view(&TensorRef::new(tensor.untyped_storage(), layout, T::DTYPE)?)
}

/// A mutable ndarray view of a writable typed tensor (an `ArcTensor` shared
/// with others is copied first, as every write to it is).
///
/// # Errors
/// The memory is not aligned for `T`, or two elements share memory (an
/// `unfold` or `as_strided` view).
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let mut m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
/// let mut t = m.as_view_mut().t(); // (Cols, Rows)
/// let mut a = axial_io::ndarray::view_mut(&mut t)?.into_dimensionality::<ndarray::Ix2>().unwrap();
/// a.row_mut(1).fill(1.0); // the column Cols = 1
/// drop(a);
/// assert_eq!(m.to_vec(), vec![0.0, 1.0, 0.0, 0.0, 1.0, 0.0]);
/// # Ok::<(), axial::Error>(())
/// ```
pub fn view_mut<T: Element, S: Shape, R: DataMut<Cpu>>(
    tensor: &mut TensorBase<T, S, Cpu, R>,
) -> Result<ArrayViewMutD<'_, T>> {
    let layout = Layout::from_parts(&tensor.shape(), &tensor.strides(), tensor.storage_offset());
    let numel = layout.numel();
    let storage = tensor.untyped_storage_mut();
    layout.check_bounds(storage.len_of(T::DTYPE), T::DTYPE.size())?;
    mut_view_of(storage, &layout, T::DTYPE, numel)
}

fn mut_view_of<'b, T: Element>(
    storage: &'b mut Storage,
    layout: &Layout,
    dtype: DType,
    numel: usize,
) -> Result<ArrayViewMutD<'b, T>> {
    if !layout.is_non_overlapping() {
        return Err(Error::invalid(
            "array_view_mut",
            format!(
                "two elements of the view (sizes {:?}, strides {:?}) share memory, and an ArrayViewMut cannot alias; view it read-only",
                layout.shape(),
                layout.strides()
            ),
        ));
    }
    expect_dtype::<T>("array_view_mut", dtype)?;
    let (shape, strides, offset) = ndarray_layout(layout);
    let elements: &mut [T] = bytemuck::try_cast_slice_mut(storage.as_bytes_mut()).map_err(|e| {
        Error::invalid(
            "array_view_mut",
            format!("storage is not a slice of {dtype}: {e:?}"),
        )
    })?;
    if numel == 0 {
        return ArrayViewMutD::from_shape(IxDyn(&shape), &mut [][..])
            .map_err(|e| shape_error("array_view_mut", layout, e));
    }
    ArrayViewMutD::from_shape(
        IxDyn(&shape).strides(IxDyn(&strides)),
        &mut elements[offset..],
    )
    .map_err(|e| shape_error("array_view_mut", layout, e))
}

/// An axial view of an ndarray view, without a copy: the same shape, strides
/// and address, read-only (an `ArrayView` borrows shared). The view's
/// elements must cover the memory between its first and last one (a
/// contiguous array in any axis order, a transpose, a broadcast): strided
/// views leave gaps that another view of the array may be writing, so
/// import the whole array ([`from_array_ref`]) and slice it in axial.
///
/// # Errors
/// A negative stride (axial has none, like PyTorch), gaps between the
/// elements, or an element type axial does not hold.
///
/// ```
/// use ndarray::{Axis, arr2, s};
/// let a = arr2(&[[1.0f32, 2.0], [3.0, 4.0]]);
/// let x = axial_io::ndarray::from_array_view(a.t())?;
/// assert_eq!((x.view().strides(), x.view().data_ptr()), (&[1, 2][..], a.as_ptr() as usize));
/// let err = axial_io::ndarray::from_array_view(a.slice(s![..;-1, ..])).unwrap_err();
/// assert!(err.to_string().contains("negative strides are not supported"));
/// assert!(axial_io::ndarray::from_array_view(a.slice(s![.., ..1])).is_err()); // a gap
/// # Ok::<(), axial::Error>(())
/// ```
pub fn from_array_view<'a, T: Element, D: Dimension>(
    array: ArrayView<'a, T, D>,
) -> Result<Imported<'a>> {
    let (shape, strides) = checked_layout("from_array_view", array.shape(), array.strides())?;
    if !covers_extent(&shape, &strides) {
        return Err(Error::invalid(
            "from_array_view",
            format!(
                "the view's elements (shape {shape:?}, strides {strides:?}) leave gaps in memory that another view may write; import the whole array with from_array_ref and slice it, or copy it with copy_from_array"
            ),
        ));
    }
    // SAFETY: the elements cover their extent, all of it borrowed shared for
    // 'a by `array`; the storage stays inside the `Imported<'a>`, which never
    // hands it out mutably (read-only, no mutable access for borrowed memory).
    unsafe { borrowed(array.as_ptr(), &shape, &strides) }
}

/// An axial view of an owned ndarray array (or an `ArcArray`) borrowed
/// shared, without a copy: any non-negative strides, gaps included (the
/// borrow covers the whole buffer).
///
/// # Errors
/// A negative stride, or an element type axial does not hold.
///
/// ```
/// use ndarray::{Array, s};
/// let mut a = Array::from_shape_vec((3, 4), (0..12).map(|i| i as f64).collect()).unwrap();
/// a.slice_collapse(s![.., 1..3]); // strides (4, 1), first element 1
/// let x = axial_io::ndarray::from_array_ref(&a)?;
/// assert_eq!(x.view().to_vec::<f64>()?, vec![1.0, 2.0, 5.0, 6.0, 9.0, 10.0]);
/// assert_eq!(x.view().data_ptr(), a.as_ptr() as usize);
/// # Ok::<(), axial::Error>(())
/// ```
pub fn from_array_ref<T, S, D>(array: &ArrayBase<S, D>) -> Result<Imported<'_>>
where
    T: Element,
    S: DataOwned<Elem = T>,
    D: Dimension,
{
    let (shape, strides) = checked_layout("from_array_ref", array.shape(), array.strides())?;
    // SAFETY: the array owns every byte between its first and last element
    // (one buffer), borrowed shared for the `Imported`'s lifetime, which keeps
    // the storage inside and read-only.
    unsafe { borrowed(array.as_ptr(), &shape, &strides) }
}

/// An axial tensor owning an ndarray array's buffer: the `Vec` moves in, no
/// element is copied, and writes through axial show when the array comes
/// back through [`into_array`].
///
/// # Errors
/// A negative stride, or an element type axial does not hold.
///
/// ```
/// use ndarray::arr2;
/// let a = arr2(&[[1i64, 2], [3, 4]]).reversed_axes(); // strides (1, 2)
/// let addr = a.as_ptr() as usize;
/// let mut x = axial_io::ndarray::from_array(a)?;
/// assert_eq!((x.view().strides(), x.view().data_ptr()), (&[1, 2][..], addr));
/// x.view_mut()?.select(0, 0)?.fill_(0.into())?;
/// let back = axial_io::ndarray::into_array::<i64>(x.into_raw()?)?;
/// assert_eq!((back.as_ptr() as usize, back.strides()), (addr, &[1, 2][..]));
/// assert_eq!(back, arr2(&[[0, 0], [2, 4]]).into_dyn()); // a = [[1, 3], [2, 4]], row 0 zeroed
/// # Ok::<(), axial::Error>(())
/// ```
pub fn from_array<T: Element, D: Dimension>(array: Array<T, D>) -> Result<Imported<'static>> {
    let (shape, strides) = checked_layout("from_array", array.shape(), array.strides())?;
    let (mut vec, offset) = array.into_raw_vec_and_offset();
    let ptr = vec.as_mut_ptr().cast::<u8>();
    let nbytes = vec.len() * T::DTYPE.size();
    let layout = Layout::from_parts(&shape, &strides, offset.unwrap_or(0));
    // SAFETY: the Vec's heap block (not moved by moving the Vec) lives as
    // long as the owner, and only this storage uses it; the pointer comes
    // from `as_mut_ptr`, valid for writes.
    let storage = unsafe { Storage::from_owner(ptr, nbytes, KeepAlive::new(vec), true) };
    Imported::new(storage, layout, T::DTYPE)
}

/// A contiguous axial tensor holding a copy of any ndarray view, negative
/// strides included (what [`from_array_view`] refuses).
///
/// # Errors
/// Out of memory.
///
/// ```
/// use ndarray::{arr1, s};
/// let a = arr1(&[1u8, 2, 3]);
/// let x = axial_io::ndarray::copy_from_array(a.slice(s![..;-1]))?;
/// assert_eq!(x.to_vec::<u8>()?, vec![3, 2, 1]);
/// # Ok::<(), axial::Error>(())
/// ```
pub fn copy_from_array<T: Element, D: Dimension>(array: ArrayView<'_, T, D>) -> Result<RawTensor> {
    let values: Vec<T> = array.iter().copied().collect();
    RawTensor::from_vec(values, array.shape())
}

/// An ndarray array of an axial tensor: the buffer moves back without a copy
/// when the tensor owns a `Vec<T>` that came from [`from_array`] (and no
/// other handle shares it) and its layout starts the `Vec` without an
/// offset, as ndarray's constructors need; otherwise the elements are copied
/// into a C-contiguous array.
///
/// # Errors
/// `T` is not the tensor's dtype.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// let x = RawTensor::arange(0.0, 4.0, 1.0, DType::F32)?; // axial's own memory: copied
/// let a = axial_io::ndarray::into_array::<f32>(x.view().view(&[2, 2])?.to_contiguous()?)?;
/// assert_eq!(a, ndarray::arr2(&[[0.0, 1.0], [2.0, 3.0]]).into_dyn());
/// # Ok::<(), axial::Error>(())
/// ```
pub fn into_array<T: Element>(tensor: RawTensor) -> Result<ArrayD<T>> {
    expect_dtype::<T>("into_array", tensor.dtype())?;
    let (storage, layout, dtype) = tensor.into_parts();
    let (ptr, nbytes, writable) = (storage.data_ptr(), storage.nbytes(), storage.is_writable());
    let storage = match storage.into_owner() {
        Ok(owner) => match owner.try_unwrap::<Vec<T>>() {
            Ok(vec) => match moved_back(vec, &layout) {
                Ok(array) => return array,
                Err(vec) => Storage::from_slice(&vec),
            },
            // SAFETY: the same owner keeps the same memory alive under the
            // contract it was imported with; only the handle went round.
            Err(owner) => unsafe { Storage::from_owner(ptr as *mut u8, nbytes, owner, writable) },
        },
        Err(storage) => storage,
    };
    let values = TensorRef::new(&storage, layout.clone(), dtype)?.to_vec::<T>()?;
    Array::from_shape_vec(IxDyn(layout.shape()), values)
        .map_err(|e| shape_error("into_array", &layout, e))
}

/// The `Vec` as an array of `layout` when ndarray takes it as it is (no
/// offset, strides inside the `Vec` that never alias); else the `Vec` back.
fn moved_back<T: Element>(
    vec: Vec<T>,
    layout: &Layout,
) -> std::result::Result<Result<ArrayD<T>>, Vec<T>> {
    let strides: Vec<usize> = layout
        .strides()
        .iter()
        .map(|&s| s.max(0) as usize)
        .collect();
    let shape = IxDyn(layout.shape()).strides(IxDyn(&strides));
    // The checks ndarray makes, on a view first: a refusal would drop the Vec.
    let fits = layout.offset() == 0
        && layout.numel() > 0
        && layout.is_non_overlapping()
        && ArrayView::from_shape(shape.clone(), &vec[..]).is_ok();
    if !fits {
        return Err(vec);
    }
    Ok(Array::from_shape_vec(shape, vec).map_err(|e| shape_error("into_array", layout, e)))
}

/// Shape and strides of an ndarray array in axial's terms, refusing a
/// negative stride as `torch.from_numpy` does.
fn checked_layout(
    op: &'static str,
    shape: &[usize],
    strides: &[isize],
) -> Result<(Vec<usize>, Vec<isize>)> {
    if strides.iter().any(|&s| s < 0) {
        return Err(Error::invalid(
            op,
            format!(
                "the array's strides {strides:?} are negative, and negative strides are not supported (PyTorch's memory model has none); copy it with copy_from_array"
            ),
        ));
    }
    Ok((shape.to_vec(), strides.to_vec()))
}

/// True when the elements of (`shape`, `strides`) touch every element slot
/// between the first and the last: sorted by stride, each dim steps at most
/// one past the reach of the smaller ones.
fn covers_extent(shape: &[usize], strides: &[isize]) -> bool {
    if shape.contains(&0) {
        return true;
    }
    let mut dims: Vec<(isize, usize)> = strides
        .iter()
        .zip(shape)
        .filter(|&(&s, &n)| n > 1 && s > 0)
        .map(|(&s, &n)| (s, n))
        .collect();
    dims.sort_unstable();
    let mut reach = 0isize; // the last slot covered, from the first element
    for (s, n) in dims {
        if s > reach + 1 {
            return false;
        }
        reach += (n as isize - 1) * s;
    }
    true
}

/// A read-only storage over the extent of (`shape`, `strides`) from `first`.
///
/// # Safety
/// Every byte from `first` to the last element is valid for shared reads
/// for as long as the returned import lives, and nothing writes it.
unsafe fn borrowed<'a, T: Element>(
    first: *const T,
    shape: &[usize],
    strides: &[isize],
) -> Result<Imported<'a>> {
    let layout = Layout::from_parts(shape, strides, 0);
    let nbytes = if layout.numel() == 0 {
        0
    } else {
        layout.required_len() * T::DTYPE.size()
    };
    // SAFETY: the caller's contract; read-only, so never written through.
    let storage = unsafe {
        Storage::from_owner(
            first.cast::<u8>().cast_mut(),
            nbytes,
            KeepAlive::new(()),
            false,
        )
    };
    Imported::new(storage, layout, T::DTYPE)
}

/// The storage as a slice of `T`, checked to be the dtype and aligned.
fn elements<'a, T: Element>(
    op: &'static str,
    storage: &'a Storage,
    dtype: DType,
) -> Result<&'a [T]> {
    expect_dtype::<T>(op, dtype)?;
    bytemuck::try_cast_slice(storage.as_bytes())
        .map_err(|e| Error::invalid(op, format!("storage is not a slice of {dtype}: {e:?}")))
}

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

/// Shape, strides (as ndarray's `usize`) and offset of an axial layout,
/// whose strides are never negative.
fn ndarray_layout(layout: &Layout) -> (Vec<usize>, Vec<usize>, usize) {
    let strides = layout
        .strides()
        .iter()
        .map(|&s| s.max(0) as usize)
        .collect();
    (layout.shape().to_vec(), strides, layout.offset())
}

fn shape_error(op: &'static str, layout: &Layout, e: ::ndarray::ShapeError) -> Error {
    Error::invalid(
        op,
        format!(
            "ndarray refused sizes {:?} with strides {:?} at offset {}: {e}",
            layout.shape(),
            layout.strides(),
            layout.offset()
        ),
    )
}
