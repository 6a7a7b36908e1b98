//! Typed tensors from untyped ones (what a file reader gives): the dtype,
//! the rank and every static size checked against the type once, at the
//! boundary, so that the code after it is proven.

use std::sync::Arc;

use axial_core::{DType, Device, Element, Error, Layout, RawTensor, Result, Storage, TensorRef};
use axial_shape::{GenericArray, Shape};

use crate::repr::{Owned, Shared, View};
use crate::tensor::{ArcTensor, Tensor, TensorBase, TensorView};

/// The shape type `S` as messages show it: `(Rows: 4, Cols: Dyn)`, with
/// `_` for an anonymous axis.
fn describe<S: Shape>() -> String {
    let mut names = GenericArray::<Option<&str>, S::Rank>::default();
    S::write_names(&mut names);
    let mut sizes = GenericArray::<Option<usize>, S::Rank>::default();
    S::write_static_sizes(&mut sizes);
    let axes: Vec<String> = names
        .iter()
        .zip(sizes.iter())
        .map(|(name, size)| {
            let size = size.map_or_else(|| "Dyn".to_string(), |n| n.to_string());
            format!("{}: {size}", name.unwrap_or("_"))
        })
        .collect();
    format!("({})", axes.join(", "))
}

/// Checks that a `dtype` tensor of `layout` over `storage` may be seen as a
/// `Tensor<T, S>`, naming the expected and the found dtype and shape.
fn check<T: Element, S: Shape, D: Device>(
    storage: &Storage<D>,
    layout: &Layout,
    dtype: DType,
) -> Result<()> {
    crate::symbolic::refuse_symbols::<S>("from_raw")?;
    let mut wanted = GenericArray::<Option<usize>, S::Rank>::default();
    S::write_static_sizes(&mut wanted);
    let fits = dtype == T::DTYPE
        && layout.rank() == S::RANK
        && layout
            .shape()
            .iter()
            .zip(wanted.iter())
            .all(|(&have, want)| want.is_none_or(|w| w == have));
    if !fits {
        return Err(Error::invalid(
            "from_raw",
            format!(
                "expected a {} tensor of shape {}, found a {} tensor of shape {:?}",
                T::DTYPE.name(),
                describe::<S>(),
                dtype.name(),
                layout.shape()
            ),
        ));
    }
    layout.check_bounds(storage.len_of(dtype), dtype.size())
}

impl<T: Element, S: Shape, D: Device> Tensor<T, S, D> {
    /// The untyped `raw` as a typed tensor, without copying: its dtype must
    /// be `T`, its rank `S`'s, each size the static size of `S` (any size
    /// for a `Dyn` axis). The boundary check after which code is proven, for
    /// tensors read from files or built at run time.
    ///
    /// # Errors
    /// The dtype, the rank or a static size differs (the message names the
    /// expected and the found dtype and shape), or the layout does not fit
    /// the storage.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial_core::{DType, RawTensor};
    /// axes!(Rows, Cols);
    /// let raw = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?.view().view(&[2, 3])?.to_contiguous()?;
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: Dyn]>::try_from_raw(raw)?;
    /// assert_eq!(m.sizes().as_slice(), &[2, 3]);
    /// let wrong = RawTensor::zeros(&[4, 3], DType::F32)?;
    /// assert_eq!(
    ///     Tensor::<f32, shape![Rows: 4, Cols: 4]>::try_from_raw(wrong).unwrap_err().to_string(),
    ///     "from_raw: expected a float32 tensor of shape (Rows: 4, Cols: 4), found a float32 tensor of shape [4, 3]"
    /// );
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_from_raw(raw: RawTensor<D>) -> Result<Self> {
        let (storage, layout, dtype) = raw.into_parts();
        check::<T, S, D>(&storage, &layout, dtype)?;
        Ok(TensorBase::from_parts(Owned(storage), layout))
    }

    /// The untyped tensor under this one, without copying (what an
    /// exporter or `axial_io::ndarray::into_array` takes).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let m = Tensor::<f32, shape![2, 3]>::arange();
    /// let addr = m.data_ptr();
    /// let raw = m.into_raw();
    /// assert_eq!((raw.shape(), raw.view().data_ptr()), (&[2, 3][..], addr));
    /// ```
    pub fn into_raw(self) -> RawTensor<D> {
        RawTensor::from_parts(self.data.0, self.layout, T::DTYPE)
            .unwrap_or_else(|_| unreachable!("a typed tensor's layout fits its storage"))
    }
}

impl<T: Element, S: Shape, D: Device> ArcTensor<T, S, D> {
    /// A typed tensor over a storage shared with other tensors (the views of
    /// one storage a checkpoint holds), without copying: checked as
    /// [`Tensor::try_from_raw`] checks. Writes copy the storage first while
    /// it is shared.
    ///
    /// # Errors
    /// The dtype, the rank or a static size differs, or the layout does not
    /// fit the storage.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use axial::prelude::*;
    /// use axial_core::{DType, Layout, Storage};
    /// let storage = Arc::new(Storage::from_slice(&[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0]));
    /// let base = Layout::contiguous(&[2, 3]);
    /// let a = ArcTensor::<f32, shape![2, 3]>::try_from_shared(Arc::clone(&storage), base.clone(), DType::F32)?;
    /// let t = ArcTensor::<f32, shape![3, 2]>::try_from_shared(storage, base.t()?, DType::F32)?;
    /// assert!(a.shares_storage_with(&t));
    /// assert_eq!(t.to_vec(), [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_from_shared(storage: Arc<Storage<D>>, layout: Layout, dtype: DType) -> Result<Self> {
        check::<T, S, D>(&storage, &layout, dtype)?;
        Ok(TensorBase::from_parts(Shared(storage), layout))
    }
}

impl<'a, T: Element, S: Shape, D: Device> TensorView<'a, T, S, D> {
    /// The untyped view `view` as a typed one, without copying (an array
    /// imported from NumPy, ndarray or DLPack): checked as
    /// [`Tensor::try_from_raw`] checks.
    ///
    /// # Errors
    /// The dtype, the rank or a static size differs, or the layout does not
    /// fit the storage.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial_core::{DType, RawTensor};
    /// axes!(Rows, Cols);
    /// let raw = RawTensor::arange(0.0, 6.0, 1.0, DType::F64)?;
    /// let grid = raw.view().view(&[2, 3])?.t()?; // (3, 2), strides (1, 3)
    /// let v = TensorView::<f64, shape![Cols: 3, Rows: Dyn]>::try_from_view(grid.clone())?;
    /// assert_eq!((v.strides().as_slice(), v.get([2, 1])), (&[1, 3][..], 5.0));
    /// assert!(TensorView::<f32, shape![Cols: 3, Rows: 2]>::try_from_view(grid).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_from_view(view: TensorRef<'a, D>) -> Result<Self> {
        let storage = view.storage();
        check::<T, S, D>(storage, view.layout(), view.dtype())?;
        Ok(TensorBase::from_parts(View(storage), view.layout().clone()))
    }
}
