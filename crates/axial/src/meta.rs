//! What a tensor is: sizes, strides, offset, names, dtype, bytes, storage.

use axial_core::{DType, Device, Element, Storage};
use axial_shape::{GenericArray, Shape};

use crate::device::SameDevice;
use crate::repr::{Data, DataMut};
use crate::tensor::TensorBase;

/// Copies a slice of the rank's length into a rank-sized array.
pub(crate) fn array_of<X: Copy + Default, S: Shape>(values: &[X]) -> GenericArray<X, S::Rank> {
    let mut out = GenericArray::<X, S::Rank>::default();
    for (o, v) in out.iter_mut().zip(values) {
        *o = *v;
    }
    out
}

impl<T: Element, S: Shape, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// The sizes, outermost first (PyTorch's `size()`).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Batch, Channels);
    /// let x = Tensor::<f32, shape![Batch: Dyn, Channels: 3]>::zeros_dyn(2);
    /// assert_eq!(x.sizes().as_slice(), &[2, 3]);
    /// ```
    pub fn sizes(&self) -> GenericArray<usize, S::Rank> {
        array_of::<_, S>(self.layout.shape())
    }

    /// The device the elements are on (PyTorch's `device`).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::zeros();
    /// assert_eq!(x.device(), &Cpu);
    /// assert_eq!(x.device().name(), "cpu");
    /// ```
    pub fn device(&self) -> &D {
        self.data.storage().device()
    }

    /// The sizes (PyTorch's `shape`); the same as [`sizes`](Self::sizes).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::zeros();
    /// assert_eq!(x.shape(), x.sizes());
    /// ```
    pub fn shape(&self) -> GenericArray<usize, S::Rank> {
        self.sizes()
    }

    /// The strides in elements (PyTorch's `stride()`).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![3, 4, 5]>::zeros();
    /// assert_eq!(x.strides().as_slice(), &[20, 5, 1]);
    /// ```
    pub fn strides(&self) -> GenericArray<isize, S::Rank> {
        array_of::<_, S>(self.layout.strides())
    }

    /// The offset of the first element in the storage, in elements.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows, Cols);
    /// let m = Tensor::<f32, shape![Rows: 3, Cols: 4]>::arange();
    /// assert_eq!(m.select::<Rows>(1).storage_offset(), 4);
    /// ```
    pub fn storage_offset(&self) -> usize {
        self.layout.offset()
    }

    /// The number of elements.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<f32, shape![3, 4]>::zeros().numel(), 12);
    /// ```
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }

    /// The number of axes.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<f32, shape![3, 4]>::zeros().dim(), 2);
    /// ```
    pub fn dim(&self) -> usize {
        S::RANK
    }

    /// The axis names (`None` for an anonymous axis, as PyTorch's `names`).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Batch);
    /// let x = Tensor::<f32, shape![Batch: 2, 3]>::zeros();
    /// assert_eq!(x.names().as_slice(), &[Some("Batch"), None]);
    /// ```
    pub fn names(&self) -> GenericArray<Option<&'static str>, S::Rank> {
        let mut names = GenericArray::default();
        S::write_names(&mut names);
        names
    }

    /// The runtime dtype tag.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<bf16, shape![2]>::zeros().dtype(), DType::BF16);
    /// ```
    pub fn dtype(&self) -> DType {
        T::DTYPE
    }

    /// Bytes per element.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<i16, shape![2]>::zeros().element_size(), 2);
    /// ```
    pub fn element_size(&self) -> usize {
        T::DTYPE.size()
    }

    /// `numel * element_size`, strides ignored (a broadcast counts every element).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Cols: 3]>::zeros();
    /// let wide = x.as_view().expand::<shape![Rows: 1000, Cols: 3]>();
    /// assert_eq!(wide.nbytes(), 12000);
    /// assert_eq!(wide.untyped_storage().nbytes(), 12);
    /// ```
    pub fn nbytes(&self) -> usize {
        self.numel() * self.element_size()
    }

    /// The storage: its bytes, shared by every view.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// assert_eq!(Tensor::<f64, shape![3]>::zeros().untyped_storage().nbytes(), 24);
    /// ```
    pub fn untyped_storage(&self) -> &Storage<D> {
        self.data.storage()
    }

    /// The address of the first element: the storage's plus
    /// `storage_offset * element_size` (0 for an empty tensor).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows, Cols);
    /// let m = Tensor::<f32, shape![Rows: 3, Cols: 4]>::arange();
    /// let v = m.as_view().slice::<Rows>(1.., 1).slice::<Cols>(1..3, 1);
    /// assert_eq!(v.data_ptr() - m.data_ptr(), 20);
    /// ```
    pub fn data_ptr(&self) -> usize {
        if self.numel() == 0 {
            return 0;
        }
        self.data.storage().data_ptr() + self.layout.offset() * T::DTYPE.size()
    }

    /// PyTorch's `is_contiguous()`: row-major, ignoring size-1 axes and the offset.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows, Cols);
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    /// assert!(m.is_contiguous());
    /// assert!(!m.t().is_contiguous());
    /// ```
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    /// Whether `other` reads the same storage (a view of the same tensor).
    /// Both must be on one device.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows);
    /// let x = Tensor::<f32, shape![Rows: 3]>::zeros();
    /// let y = Tensor::<f32, shape![Rows: 3]>::zeros();
    /// assert!(x.as_view().narrow::<Rows>(1, 2).shares_storage_with(&x));
    /// assert!(!y.shares_storage_with(&x));
    /// ```
    pub fn shares_storage_with<T2, S2, D2, R2>(&self, other: &TensorBase<T2, S2, D2, R2>) -> bool
    where
        D2: SameDevice<D>,
        R2: Data<D2>,
    {
        let mine = self.data.storage();
        let theirs = D2::on_same(other.data.storage());
        std::ptr::eq(mine, theirs) || (mine.nbytes() > 0 && mine.data_ptr() == theirs.data_ptr())
    }
}

impl<T: Element, S: Shape, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// The storage, to write bytes (an `ArcTensor` shared with others is
    /// copied first). Writes show through every view.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let mut x = Tensor::<u8, shape![2]>::zeros();
    /// x.untyped_storage_mut().write_byte(1, 9)?;
    /// assert_eq!(x.to_vec(), vec![0, 9]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn untyped_storage_mut(&mut self) -> &mut Storage<D>
    where
        R: DataMut<D>,
    {
        self.data.storage_mut()
    }
}
