//! What every nested tensor has, wherever its ragged axes are: its items,
//! padded or not, elementwise ops with a nested tensor of the same items,
//! and softmax along an axis of the items.

use axial_core::nested::NestedTensor;
use axial_core::{BinaryOp, Element, Result, Scalar};

use super::{Batched, ItemAxis, Nested};
use crate::access::owned;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::View;
use crate::tensor::{Tensor, TensorBase, TensorView};

impl<T: Element, S: Batched, L> Nested<T, S, L> {
    pub(crate) fn wrap(inner: NestedTensor) -> Self {
        Nested {
            inner,
            marker: std::marker::PhantomData,
        }
    }

    /// The core's nested tensor.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::ones()]);
    /// assert_eq!(n.as_core().dim(), 2);
    /// ```
    pub fn as_core(&self) -> &NestedTensor {
        &self.inner
    }

    /// The number of items.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&vec![Tensor::<f32, shape![Seq: 2]>::ones(); 3]);
    /// assert_eq!(n.batch_size(), 3);
    /// ```
    pub fn batch_size(&self) -> usize {
        self.inner.batch_size()
    }

    /// The offsets of the items in [`values`](Self::values) (`B + 1`).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&vec![Tensor::<f32, shape![Seq: 2]>::ones(); 2]);
    /// assert_eq!(n.offsets(), &[0, 2, 4]);
    /// ```
    pub fn offsets(&self) -> &[usize] {
        self.inner.offsets()
    }

    /// Each item's length along the ragged axis.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::ones()]);
    /// assert_eq!(n.lengths(), vec![2]);
    /// ```
    pub fn lengths(&self) -> Vec<usize> {
        self.inner.lengths()
    }

    /// Item `i`, a view into the values.
    ///
    /// # Errors
    /// `i` is not below the batch size.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::ones()]);
    /// assert_eq!(n.try_item(0)?.sizes().as_slice(), &[2]);
    /// assert!(n.try_item(1).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_item(&self, i: usize) -> Result<TensorView<'_, T, S::Items>> {
        let v = self.inner.item(i)?;
        Ok(TensorBase::from_parts(
            View(v.storage()),
            v.layout().clone(),
        ))
    }

    /// `unbind()`: every item, as views into the values.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&vec![Tensor::<f32, shape![Seq: 2]>::ones(); 2]);
    /// let items = n.unbind();
    /// assert_eq!((items.len(), items[1].storage_offset()), (2, 2));
    /// ```
    pub fn unbind(&self) -> Vec<TensorView<'_, T, S::Items>> {
        (0..self.batch_size())
            .map(|i| or_panic(self.try_item(i)))
            .collect()
    }

    /// `to_padded_tensor(pad)`: a dense tensor of shape `S`, the ragged axis
    /// as long as the longest item, `pad` elsewhere.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::builder()
    ///     .push(&Tensor::<f32, shape![Seq: 1]>::ones())
    ///     .push(&Tensor::<f32, shape![Seq: 2]>::ones())
    ///     .build();
    /// assert_eq!(n.try_to_padded(-1.0)?.to_vec(), vec![1.0, -1.0, 1.0, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_padded(&self, pad: T) -> Result<Tensor<T, S>> {
        self.inner.to_padded(Scalar::of(pad), None).map(owned)
    }

    /// `to_padded_tensor(pad)`.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<i32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<i32, shape![Seq: 2]>::ones()]);
    /// assert_eq!(n.to_padded(0).sizes().as_slice(), &[1, 2]);
    /// ```
    #[track_caller]
    pub fn to_padded(&self, pad: T) -> Tensor<T, S> {
        or_panic(self.try_to_padded(pad))
    }

    /// `to_padded_tensor(pad, output_size)` with the ragged axis `len` long.
    ///
    /// # Errors
    /// `len` is shorter than the longest item (PyTorch truncates silently).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 3]>::ones()]);
    /// assert_eq!(n.try_to_padded_len(0.0, 5)?.sizes().as_slice(), &[1, 5]);
    /// assert!(n.try_to_padded_len(0.0, 2).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_padded_len(&self, pad: T, len: usize) -> Result<Tensor<T, S>> {
        let mut size = self.inner.padded_shape();
        for d in self.inner.ragged_dims() {
            size[d] = len;
        }
        self.inner
            .to_padded(Scalar::of(pad), Some(&size))
            .map(owned)
    }

    /// `self ∘ other` elementwise, for a nested tensor of the same shape
    /// type and offsets.
    ///
    /// # Errors
    /// The offsets differ (PyTorch's message).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::from_array([1.0, 2.0])]);
    /// assert_eq!(n.try_mul(&n)?.values().to_vec(), vec![1.0, 4.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_mul(&self, other: &Nested<T, S, L>) -> Result<Self> {
        self.inner
            .binary(axial_core::BinaryOp::Mul, &other.inner)
            .map(Self::wrap)
    }

    /// `self + other` elementwise, for a nested tensor of the same offsets.
    ///
    /// # Errors
    /// The offsets differ (PyTorch's message).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::from_array([1.0, 2.0])]);
    /// assert_eq!(n.try_add(&n)?.values().to_vec(), vec![2.0, 4.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_add(&self, other: &Nested<T, S, L>) -> Result<Self> {
        self.inner
            .binary(axial_core::BinaryOp::Add, &other.inner)
            .map(Self::wrap)
    }

    /// `self * value`: every element scaled (the attention scores' `1 /
    /// sqrt(d)`).
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::from_array([1.0, 2.0])]);
    /// assert_eq!(n.try_scale(0.5)?.values().to_vec(), vec![0.5, 1.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_scale(&self, value: T) -> Result<Self> {
        self.inner
            .binary_scalar(BinaryOp::Mul, Scalar::of(value))
            .map(Self::wrap)
    }

    /// `self * value`.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<i64, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<i64, shape![Seq: 2]>::from_array([1, 2])]);
    /// assert_eq!(n.scale(3).values().to_vec(), vec![3, 6]);
    /// ```
    #[track_caller]
    pub fn scale(&self, value: T) -> Self {
        or_panic(self.try_scale(value))
    }
}

impl<T: Float, S: Batched, L> Nested<T, S, L> {
    /// `softmax` along the axis `A`: along the ragged axis, within each item
    /// without padding (padding would take a share of each sum); along a
    /// fixed axis, within each row. The batch axis does not compile.
    ///
    /// # Errors
    /// A failure of the kernel (out of memory).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::builder()
    ///     .push(&Tensor::<f32, shape![Seq: 2]>::from_array([0.0, 3.0]))
    ///     .push(&Tensor::<f32, shape![Seq: 1]>::from_array([18.0]))
    ///     .build();
    /// let p = n.try_softmax::<Seq>()?.values().to_vec();
    /// assert!((p[0] - 0.047426).abs() < 1e-6 && p[2] == 1.0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_softmax<A>(&self) -> Result<Self>
    where
        S: ItemAxis<A>,
    {
        self.inner
            .softmax(<S as ItemAxis<A>>::DIM as isize)
            .map(Self::wrap)
    }

    /// `softmax` along the axis `A`.
    ///
    /// # Panics
    /// As [`try_softmax`](Self::try_softmax), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Features);
    /// let n = Nested::<f64, shape![Batch: Dyn, Seq: Dyn, Features: 2]>::from_items(&[Tensor::<f64, shape![Seq: 1, Features: 2]>::zeros()]);
    /// assert_eq!(n.softmax::<Features>().values().to_vec(), vec![0.5, 0.5]);
    /// ```
    #[track_caller]
    pub fn softmax<A>(&self) -> Self
    where
        S: ItemAxis<A>,
    {
        or_panic(self.try_softmax::<A>())
    }
}

impl<T, S, L> Clone for Nested<T, S, L> {
    /// A copy of the values (in a new storage) and the offsets; out of
    /// memory panics, as `Vec`'s clone does.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::ones()]);
    /// let c = n.clone();
    /// assert!(!c.values().shares_storage_with(&n.values()));
    /// ```
    fn clone(&self) -> Self {
        Nested {
            inner: self.inner.clone(),
            marker: std::marker::PhantomData,
        }
    }
}
