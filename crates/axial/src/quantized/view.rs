//! Views of quantized tensors by name: the same bytes and parameters, the
//! layout of the dense view op (a per-channel scheme follows its axis by
//! name, which PyTorch's per-channel tensors refuse to do).

use std::fmt;
use std::marker::PhantomData;

use axial_core::Result;
use axial_core::quantized::QuantizedRef;
use axial_shape::{HasAxis, Shape, Transpose, TransposeT};

use super::{Marker, PerTensor, QType, Quantized};
use crate::access::owned;
use crate::or_panic::or_panic;
use crate::tensor::Tensor;

/// A view of a quantized tensor (dtype `Q`, shape `S`, scheme `Scheme`).
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let x = Tensor::<f32, shape![Rows: 3, Cols: 4]>::arange();
/// let q = x.quantize_per_tensor::<QUInt8>(1.0, 3);
/// let v = q.as_view().narrow::<Rows>(1, 2).narrow::<Cols>(1, 2); // m[1:, 1:3]
/// assert_eq!((v.strides(), v.offset()), (&[4, 1][..], 5));
/// assert_eq!(v.int_repr().to_vec(), vec![8, 9, 12, 13]);
/// ```
pub struct QuantizedView<'a, Q, S, Scheme = PerTensor> {
    inner: QuantizedRef<'a>,
    marker: Marker<(Q, S, Scheme)>,
}

impl<'a, Q: QType, S: Shape, Scheme> QuantizedView<'a, Q, S, Scheme> {
    pub(super) fn wrap(inner: QuantizedRef<'a>) -> Self {
        QuantizedView {
            inner,
            marker: PhantomData,
        }
    }

    fn retyped<S2, Scheme2>(inner: QuantizedRef<'a>) -> QuantizedView<'a, Q, S2, Scheme2> {
        QuantizedView {
            inner,
            marker: PhantomData,
        }
    }

    /// The core's view.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::zeros().quantize_per_tensor::<QInt8>(0.5, 0);
    /// assert_eq!(q.as_view().as_core().offset(), 0);
    /// ```
    pub fn as_core(&self) -> &QuantizedRef<'a> {
        &self.inner
    }

    /// The sizes.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2, 3]>::zeros().quantize_per_tensor::<QInt8>(0.5, 0);
    /// assert_eq!(q.as_view().sizes(), &[2, 3]);
    /// ```
    pub fn sizes(&self) -> &[usize] {
        self.inner.shape()
    }

    /// The strides, in elements.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2, 3]>::zeros().quantize_per_tensor::<QInt8>(0.5, 0);
    /// assert_eq!(q.as_view().strides(), &[3, 1]);
    /// ```
    pub fn strides(&self) -> &[isize] {
        self.inner.strides()
    }

    /// The storage offset, in elements.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows);
    /// let q = Tensor::<f32, shape![Rows: 4]>::zeros().quantize_per_tensor::<QInt8>(0.5, 0);
    /// assert_eq!(q.as_view().narrow::<Rows>(2, 2).offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        self.inner.offset()
    }

    /// The axes `A` and `B` swapped (a view; a per-channel scheme keeps its
    /// axis, by name).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
    /// let q = x.quantize_per_channel::<QInt8, Cols>(&[1.0, 0.5, 0.25], &[0, 0, 0]);
    /// let t = q.as_view().transpose::<Rows, Cols>();
    /// assert_eq!(t.dequantize().to_vec(), x.t().to_vec());
    /// ```
    pub fn transpose<A, B>(self) -> QuantizedView<'a, Q, <S as Transpose<A, B>>::Output, Scheme>
    where
        S: Transpose<A, B>,
    {
        let (a, b) = S::POSITIONS;
        Self::retyped(or_panic(self.inner.transpose(a as isize, b as isize)))
    }

    /// The two axes of a matrix swapped (`t()`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![3, 4]>::zeros().quantize_per_tensor::<QUInt8>(0.1, 3);
    /// assert_eq!(q.as_view().t().strides(), &[1, 4]);
    /// ```
    pub fn t(self) -> QuantizedView<'a, Q, <S as axial_shape::TransposedT>::Output, Scheme>
    where
        S: TransposeT,
    {
        Self::retyped(or_panic(self.inner.t()))
    }

    /// `start..start + len` of the axis `A` (a view; on a per-channel
    /// tensor's channel axis, the channels kept).
    ///
    /// # Panics
    /// The range is past the axis.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let q = Tensor::<f32, shape![Rows: 3, Cols: 1]>::ones().quantize_per_channel::<QInt8, Rows>(&[0.1, 0.2, 0.5], &[0; 3]);
    /// let n = q.as_view().narrow::<Rows>(1, 2);
    /// assert_eq!(n.int_repr().to_vec(), vec![5, 2]);
    /// ```
    #[track_caller]
    pub fn narrow<A>(
        self,
        start: usize,
        len: usize,
    ) -> QuantizedView<'a, Q, <S as HasAxis<A>>::Resized, Scheme>
    where
        S: HasAxis<A>,
    {
        Self::retyped(or_panic(self.inner.narrow(
            S::POS as isize,
            start as isize,
            len,
        )))
    }

    /// `dequantize()` of the viewed elements, row-major.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]).quantize_per_tensor::<QInt8>(1.0, 0);
    /// assert_eq!(q.as_view().t().try_dequantize()?.to_vec(), vec![1.0, 3.0, 2.0, 4.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_dequantize(&self) -> Result<Tensor<f32, S>> {
        self.inner.dequantize().map(owned)
    }

    /// `dequantize()` of the viewed elements.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::from_array([1.0, 2.0]).quantize_per_tensor::<QInt8>(1.0, 0);
    /// assert_eq!(q.as_view().dequantize().to_vec(), vec![1.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn dequantize(&self) -> Tensor<f32, S> {
        or_panic(self.try_dequantize())
    }

    /// `int_repr()` of the viewed elements: a new row-major tensor.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]).quantize_per_tensor::<QInt8>(1.0, 0);
    /// let i = q.as_view().t().try_int_repr()?;
    /// assert_eq!((i.to_vec(), i.strides().as_slice()), (vec![1, 3, 2, 4], &[2, 1][..]));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_int_repr(&self) -> Result<Tensor<Q::Repr, S>> {
        self.inner.int_repr().map(owned)
    }

    /// `int_repr()` of the viewed elements.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::from_array([1.0, 2.0]).quantize_per_tensor::<QUInt8>(1.0, 0);
    /// assert_eq!(q.as_view().int_repr().to_vec(), vec![1, 2]);
    /// ```
    #[track_caller]
    pub fn int_repr(&self) -> Tensor<Q::Repr, S> {
        or_panic(self.try_int_repr())
    }

    /// A new quantized tensor of the viewed elements, row-major (`clone()`).
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2, 3]>::zeros().quantize_per_tensor::<QInt8>(0.5, 0);
    /// assert_eq!(q.as_view().t().try_to_owned()?.as_view().strides(), &[2, 1]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_owned(&self) -> Result<Quantized<Q, S, Scheme>> {
        self.inner.to_owned().map(Quantized::wrap)
    }
}

impl<'a, Q: QType, S: Shape> QuantizedView<'a, Q, S, PerTensor> {
    /// Index `index` of the axis `A`, which goes (a view).
    ///
    /// # Panics
    /// `index` is past the axis.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let q = Tensor::<f32, shape![Rows: 2, Cols: 2]>::arange().quantize_per_tensor::<QInt8>(1.0, 0);
    /// let row = q.as_view().select::<Rows>(1);
    /// assert_eq!((row.offset(), row.int_repr().to_vec()), (2, vec![2, 3]));
    /// ```
    #[track_caller]
    pub fn select<A>(
        self,
        index: usize,
    ) -> QuantizedView<'a, Q, <S as HasAxis<A>>::Without, PerTensor>
    where
        S: HasAxis<A>,
    {
        Self::retyped(or_panic(self.inner.select(S::POS as isize, index as isize)))
    }
}

impl<Q, S, Scheme> fmt::Display for QuantizedView<'_, Q, S, Scheme> {
    /// PyTorch's repr of the viewed elements.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let q = Tensor::<f32, shape![2]>::from_array([1.0, 2.0]).quantize_per_tensor::<QInt8>(0.5, 0);
    /// assert!(q.as_view().to_string().ends_with("scale=0.5, zero_point=0)"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}
