//! A tensor over memory another library owns: what the ndarray, DLPack and
//! NumPy bridges import, without a copy.

use std::fmt;
use std::marker::PhantomData;

use axial::{Shape, Tensor, TensorView};
use axial_core::{DType, Element, Error, Layout, RawTensor, Result, Storage, TensorMut, TensorRef};

/// An axial tensor over memory that another library owns and keeps alive (a
/// DLPack producer, a NumPy array, an ndarray array), imported without a
/// copy. The lifetime `'a` is how long that memory is borrowed: `'static`
/// when the import owns a handle of it (DLPack, NumPy, an `Array` moved in),
/// the array's borrow for an ndarray view.
///
/// Memory the producer marked read-only (a DLPack `READ_ONLY` flag, a NumPy
/// array that is not writeable, an ndarray `ArrayView`) gives read-only
/// views only: [`view_mut`](Imported::view_mut) and
/// [`into_raw`](Imported::into_raw) return `Err` where PyTorch would write
/// through (`torch.from_dlpack` of a read-only array makes a writable
/// tensor). Borrowed memory (`'a` shorter than `'static`) has no mutable
/// access at all: a mutable view hands out its storage, which could then
/// outlive the borrow.
///
/// # Example
/// ```
/// use axial_io::Imported;
/// let mut data = vec![1.0f32, 2.0, 3.0, 4.0];
/// let addr = data.as_ptr() as usize;
/// let array = ndarray::Array::from_shape_vec((2, 2), data).unwrap();
/// let mut x: Imported = axial_io::ndarray::from_array(array)?; // the Vec moved in
/// assert_eq!(x.view().data_ptr(), addr);
/// x.view_mut()?.fill_(0.0.into())?;
/// assert_eq!(x.view().to_vec::<f32>()?, vec![0.0; 4]);
/// # Ok::<(), axial::Error>(())
/// ```
pub struct Imported<'a> {
    raw: RawTensor,
    borrow: PhantomData<&'a ()>,
}

impl<'a> Imported<'a> {
    /// An import over `storage` (external memory the caller has set up) with
    /// `layout` of `dtype` elements, checked against it.
    ///
    /// The storage never leaves an `Imported<'a>` except by value through
    /// [`into_raw`](Imported::into_raw), which exists only for `'static`
    /// imports: views hand out shared borrows of it (and mutable ones to
    /// writable memory), so memory borrowed for `'a` is not used after `'a`.
    pub(crate) fn new(storage: Storage, layout: Layout, dtype: DType) -> Result<Self> {
        Ok(Imported {
            raw: RawTensor::from_parts(storage, layout, dtype)?,
            borrow: PhantomData,
        })
    }

    /// A view of the imported tensor: its shape, strides and offset as the
    /// producer gave them.
    ///
    /// ```
    /// let a = ndarray::arr2(&[[1i64, 2, 3], [4, 5, 6]]);
    /// let x = axial_io::ndarray::from_array_view(a.t())?;
    /// assert_eq!((x.view().shape(), x.view().strides()), (&[3, 2][..], &[1, 3][..]));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn view(&self) -> TensorRef<'_> {
        self.raw.view()
    }

    /// True when the producer marked the memory read-only.
    ///
    /// ```
    /// let a = ndarray::arr1(&[1u8, 2]);
    /// assert!(axial_io::ndarray::from_array_view(a.view())?.is_read_only());
    /// assert!(!axial_io::ndarray::from_array(a)?.is_read_only());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn is_read_only(&self) -> bool {
        !self.raw.storage().is_writable()
    }

    /// The import as a typed view, checked as
    /// [`TensorView::try_from_view`](axial::TensorView::try_from_view) checks.
    ///
    /// # Errors
    /// The dtype, the rank or a static size differs from `T` and `S`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let a = ndarray::arr2(&[[1.0f32, 2.0], [3.0, 4.0]]);
    /// let x = axial_io::ndarray::from_array_view(a.view())?;
    /// let v = x.typed::<f32, shape![Rows: 2, Cols: Dyn]>()?;
    /// assert_eq!(v.sum::<Cols>().to_vec(), vec![3.0, 7.0]);
    /// assert!(x.typed::<f64, shape![Rows: 2, Cols: 2]>().is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn typed<T: Element, S: Shape>(&self) -> Result<TensorView<'_, T, S>> {
        TensorView::try_from_view(self.raw.view())
    }

    fn check_writable(&self, op: &'static str) -> Result<()> {
        if self.is_read_only() {
            return Err(Error::invalid(
                op,
                "the imported memory is read-only (its producer said so); copy it with `view().to_contiguous()` to write",
            ));
        }
        Ok(())
    }
}

impl Imported<'static> {
    /// A mutable view: writes go to the producer's memory and show there.
    ///
    /// # Errors
    /// The memory is read-only.
    ///
    /// ```
    /// let mut x = axial_io::ndarray::from_array(ndarray::arr1(&[1i32, 2]))?;
    /// x.view_mut()?.fill_(7.into())?;
    /// assert_eq!(x.view().to_vec::<i32>()?, vec![7, 7]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn view_mut(&mut self) -> Result<TensorMut<'_>> {
        self.check_writable("view_mut")?;
        Ok(self.raw.view_mut())
    }

    /// The import as an untyped tensor that owns its handle of the memory:
    /// writes show in the producer's memory.
    ///
    /// # Errors
    /// The memory is read-only.
    ///
    /// ```
    /// let x = axial_io::ndarray::from_array(ndarray::arr1(&[1i16, 2]))?;
    /// assert_eq!(x.into_raw()?.to_vec::<i16>()?, vec![1, 2]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn into_raw(self) -> Result<RawTensor> {
        self.check_writable("into_raw")?;
        Ok(self.raw)
    }

    /// The import as an untyped tensor, read-only or not: a read-only
    /// import's storage copies itself on the first write (as an `ArcTensor`
    /// shared with others does), so no write reaches the producer's memory.
    /// For wrappers that keep the read-only flag themselves (the Python
    /// module refuses writes to it).
    ///
    /// ```
    /// use axial_core::{DType, Layout, Storage};
    /// let mut s = Storage::from_slice(&[1u8, 2]);
    /// let ro = axial_io::dlpack::export::<dlpark::ffi::DLManagedTensorVersioned>(&mut s, &Layout::contiguous(&[2]), DType::U8, true)?;
    /// let mut raw = axial_io::dlpack::from_dlpack(ro)?.into_raw_copy_on_write();
    /// raw.view_mut().fill_(9.into())?; // writes to a copy
    /// assert_eq!((s.as_bytes(), raw.to_vec::<u8>()?), (&[1, 2][..], vec![9, 9]));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn into_raw_copy_on_write(self) -> RawTensor {
        self.raw
    }

    /// The import as a typed tensor, checked as
    /// [`Tensor::try_from_raw`](axial::Tensor::try_from_raw) checks.
    ///
    /// # Errors
    /// The memory is read-only, or the dtype, the rank or a static size
    /// differs from `T` and `S`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = axial_io::ndarray::from_array(ndarray::arr1(&[1.0f64, 2.0, 3.0]))?;
    /// let mut t = x.into_typed::<f64, shape![3]>()?;
    /// t.add_(&Tensor::<f64, shape![3]>::ones());
    /// assert_eq!(t.to_vec(), vec![2.0, 3.0, 4.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn into_typed<T: Element, S: Shape>(self) -> Result<Tensor<T, S>> {
        Tensor::try_from_raw(self.into_raw()?)
    }
}

impl fmt::Debug for Imported<'_> {
    /// `Imported(sizes [2, 3], strides [3, 1], offset 0, torch.float32, read-only)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Imported(sizes {:?}, strides {:?}, offset {}, {}{})",
            self.raw.shape(),
            self.raw.strides(),
            self.raw.layout().offset(),
            self.raw.dtype(),
            if self.is_read_only() {
                ", read-only"
            } else {
                ""
            }
        )
    }
}
