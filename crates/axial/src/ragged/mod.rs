//! Nested (ragged) tensors with typed shapes: `Nested<T, S>` with `S =
//! shape![Batch: _, Seq: Dyn, rest...]`, a batch of items whose first axis
//! (`Seq`) has a length per item, in PyTorch's jagged layout (the items'
//! values concatenated, and offsets) over [`axial_core::nested`].
//!
//! Items are built from tensors whose other axes are the nested tensor's:
//! an item whose fixed axes differ (by name, or by static size) does not
//! compile. Ops name their axis: reductions and softmax over the ragged
//! axis work item by item without padding; naming the batch axis does not
//! compile.
//!
//! `Nested<T, S, L>` names its ragged axes in `L` (`names![Seq]` as built,
//! the default): a `transpose` moves the ragged axis, and a product of
//! nested tensors (`q @ k^T`, attention over a ragged batch) has items of
//! `n_i × n_i`, two ragged axes (`names![Seq, Key]`).
//!
//! ```
//! use axial::prelude::*;
//! axes!(Batch, Seq, Features);
//! type Batched = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Features: 3]>;
//! let a = Tensor::<f32, shape![Seq: 2, Features: 3]>::arange();
//! let b = Tensor::<f32, shape![Seq: 4, Features: 3]>::ones();
//! let n = Batched::builder().push(&a).push(&b).build();
//! assert_eq!(n.lengths(), vec![2, 4]);
//! let sums = n.sum::<Seq>(); // a dense Tensor<f32, shape![Batch: Dyn, Features: 3]>
//! assert_eq!(sums.to_vec(), vec![3.0, 5.0, 7.0, 4.0, 4.0, 4.0]);
//! let p = n.softmax::<Seq>(); // each item's column sums to 1, no padding involved
//! assert_eq!(p.sum::<Seq>().to_vec(), vec![1.0; 6]);
//! ```

mod access;
mod product;
mod reduce;
mod rules;

use std::fmt;
use std::marker::PhantomData;

use axial_core::nested::NestedTensor;
use axial_core::{Cpu, Element, Error, Result, TensorRef};
use axial_shape::{Ax, Cons, MatMul, MatMulOut, Nil, Shape};

pub use product::{LastAxis, NestedProduct, ProductNames, ProductResult, RaggedPair, RaggedSingle};
pub use rules::{
    Batched, FixedAxes, FixedAxisFits, ItemAxis, ItemOf, NotBatch, Pick, RaggedAxisFits,
    RaggedShape, ReduceKind, ReduceNested, Renamed,
};

use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase, TensorView};

/// Holds the type parameters without values of them.
type Marker<T> = PhantomData<fn() -> T>;

/// A ragged batch of `T` elements: shape `S = (Batch, Ragged: Dyn,
/// rest...)` as built; `L` names the ragged axes (`names![Ragged]`, the
/// default), wherever a transpose put them, two of them for the scores of a
/// product (`names![Seq, Key]`).
///
/// ```
/// use axial::prelude::*;
/// axes!(Batch, Seq, Features);
/// let items = [Tensor::<f32, shape![Seq: Dyn, Features: 2]>::zeros_dyn(3), Tensor::zeros_dyn(1)];
/// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 2]>::from_items(&items);
/// assert_eq!((n.batch_size(), n.offsets()), (2, &[0, 3, 4][..]));
/// ```
pub struct Nested<T, S, L = Cons<<S as RaggedShape>::Ragged, Nil>> {
    inner: NestedTensor,
    marker: Marker<(T, S, L)>,
}

/// The items of a [`Nested`] tensor, pushed one by one (each may have its
/// own static length).
///
/// ```
/// use axial::prelude::*;
/// axes!(Batch, Seq, Features);
/// let b = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 3]>::builder()
///     .push(&Tensor::<f32, shape![Seq: 1, Features: 3]>::ones())
///     .push(&Tensor::<f32, shape![Seq: 5, Features: 3]>::ones());
/// assert_eq!(b.build().lengths(), vec![1, 5]);
/// ```
pub struct NestedBuilder<T, S> {
    items: Vec<axial_core::RawTensor>,
    marker: Marker<(T, S)>,
}

impl<T: Element, S: RaggedShape> NestedBuilder<T, S> {
    /// Adds an item: its first axis is the ragged one, its others are
    /// `S`'s fixed axes (proven for static sizes).
    ///
    /// # Panics
    /// Out of memory (the item is copied).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<i64, shape![Batch: Dyn, Seq: Dyn]>::builder()
    ///     .push(&Tensor::<i64, shape![Seq: 2]>::arange())
    ///     .build();
    /// assert_eq!(n.values().to_vec(), vec![0, 1]);
    /// ```
    #[track_caller]
    pub fn push<I: ItemOf<S>, R: Data<Cpu>>(mut self, item: &TensorBase<T, I, Cpu, R>) -> Self {
        self.items.push(or_panic(item.raw().to_contiguous()));
        self
    }

    /// The nested tensor of the items pushed.
    ///
    /// # Errors
    /// No items, or a `Dyn` fixed size that differs between them.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let e = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::builder().try_build().unwrap_err();
    /// assert!(e.to_string().ends_with("Cannot construct a nested tensor from an empty tensor list"));
    /// ```
    pub fn try_build(self) -> Result<Nested<T, S>> {
        let views: Vec<TensorRef<'_, Cpu>> = self.items.iter().map(|t| t.view()).collect();
        Nested::checked(NestedTensor::from_tensors(&views)?)
    }

    /// The nested tensor of the items pushed.
    ///
    /// # Panics
    /// As [`try_build`](Self::try_build), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::builder().push(&Tensor::<f32, shape![Seq: 3]>::ones()).build();
    /// assert_eq!(n.batch_size(), 1);
    /// ```
    #[track_caller]
    pub fn build(self) -> Nested<T, S> {
        or_panic(self.try_build())
    }
}

impl<T: Element, S: RaggedShape> Nested<T, S> {
    /// `inner`, after checking its runtime sizes against the static ones of `S`.
    fn checked(inner: NestedTensor) -> Result<Self> {
        crate::symbolic::refuse_symbols::<S>("nested")?;
        let mut sizes = vec![inner.batch_size(), 0];
        sizes.extend_from_slice(&inner.rest_shape());
        let mut want = vec![None; S::RANK];
        S::write_static_sizes(&mut want);
        let mut names = vec![None; S::RANK];
        S::write_names(&mut names);
        if sizes.len() != S::RANK {
            return Err(Error::invalid(
                "nested",
                format!(
                    "items of rank {} for a nested tensor of rank {}",
                    sizes.len() - 1,
                    S::RANK
                ),
            ));
        }
        for (d, ((&have, want), name)) in sizes.iter().zip(&want).zip(&names).enumerate() {
            if let Some(want) = want.filter(|&w| d != 1 && w != have) {
                return Err(Error::invalid(
                    "nested",
                    format!(
                        "axis `{}` has size {have}, but the type says {want}",
                        name.unwrap_or("_")
                    ),
                ));
            }
        }
        Ok(Self::wrap(inner))
    }

    /// An empty list of items, to [`push`](NestedBuilder::push) onto.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::builder().push(&Tensor::<f32, shape![Seq: 2]>::ones()).build();
    /// assert_eq!(n.lengths(), vec![2]);
    /// ```
    pub fn builder() -> NestedBuilder<T, S> {
        NestedBuilder {
            items: Vec::new(),
            marker: PhantomData,
        }
    }

    /// `torch.nested.nested_tensor(items, layout=torch.jagged)` of items of
    /// one type (copied).
    ///
    /// # Errors
    /// No items, or `Dyn` fixed sizes that differ between them (PyTorch's messages).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Features);
    /// type N = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Features: Dyn]>;
    /// let items = [Tensor::<f32, shape![Seq: Dyn, Features: Dyn]>::zeros_dyn([2, 3]), Tensor::zeros_dyn([1, 4])];
    /// assert!(N::try_from_items(&items).is_err());
    /// ```
    pub fn try_from_items<I: ItemOf<S>, R: Data<Cpu>>(
        items: &[TensorBase<T, I, Cpu, R>],
    ) -> Result<Self> {
        let views: Vec<TensorRef<'_, Cpu>> = items.iter().map(|t| t.raw()).collect();
        Self::checked(NestedTensor::from_tensors(&views)?)
    }

    /// `torch.nested.nested_tensor(items)` of items of one type.
    ///
    /// # Panics
    /// As [`try_from_items`](Self::try_from_items), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: 2, Seq: Dyn]>::from_items(&vec![Tensor::<f32, shape![Seq: 3]>::ones(); 2]);
    /// assert_eq!(n.offsets(), &[0, 3, 6]);
    /// ```
    #[track_caller]
    pub fn from_items<I: ItemOf<S>, R: Data<Cpu>>(items: &[TensorBase<T, I, Cpu, R>]) -> Self {
        or_panic(Self::try_from_items(items))
    }

    /// The items of a padded batch: item `i` is the first `lengths[i]` rows
    /// of `padded[i]`.
    ///
    /// # Errors
    /// Not one length per item, or a length past the padded one.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let p = Tensor::<f32, shape![Batch: 2, Seq: Dyn]>::from_vec_dyn(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 3);
    /// let n = Nested::<f32, shape![Batch: 2, Seq: Dyn]>::try_from_padded(&p, &[1, 3])?;
    /// assert_eq!(n.values().to_vec(), vec![1.0, 4.0, 5.0, 6.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_from_padded<R: Data<Cpu>>(
        padded: &TensorBase<T, S, Cpu, R>,
        lengths: &[usize],
    ) -> Result<Self> {
        Self::checked(NestedTensor::from_padded(&padded.raw(), lengths)?)
    }

    /// The same offsets over values computed by `f` from these values (an
    /// elementwise op, or a product that keeps the rows): `nested.map(|v|
    /// v.relu())`.
    ///
    /// # Errors
    /// `f`'s result does not have the values' rows.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::from_array([-1.0, 2.0])]);
    /// let r = n.try_map(|v| v.relu())?;
    /// assert_eq!(r.values().to_vec(), vec![0.0, 2.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_map<T2: Element, I2: Shape>(
        &self,
        f: impl FnOnce(TensorView<'_, T, S::Items>) -> Tensor<T2, I2>,
    ) -> Result<Nested<T2, WithItems<S, I2>>>
    where
        WithItems<S, I2>: RaggedShape,
    {
        let rows = self.inner.values().shape()[0];
        let out = f(self.values());
        if out.layout.shape().first() != Some(&rows) {
            return Err(Error::invalid(
                "nested",
                format!(
                    "the mapped values have shape {:?}, not the {rows} rows of the nested values",
                    out.layout.shape()
                ),
            ));
        }
        let raw = axial_core::RawTensor::from_parts(out.data.0, out.layout.clone(), T2::DTYPE)?;
        let offsets: Vec<i64> = self.offsets().iter().map(|&o| o as i64).collect();
        NestedTensor::from_jagged(raw, &offsets).map(Nested::wrap)
    }

    /// The same offsets over values computed by `f`.
    ///
    /// # Panics
    /// As [`try_map`](Self::try_map), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Features);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 2]>::from_items(&[Tensor::<f32, shape![Seq: 1, Features: 2]>::ones()]);
    /// let row = Tensor::<f32, shape![Features: 2]>::from_array([1.0, 2.0]);
    /// assert_eq!(n.map(|v| v + &row).values().to_vec(), vec![2.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn map<T2: Element, I2: Shape>(
        &self,
        f: impl FnOnce(TensorView<'_, T, S::Items>) -> Tensor<T2, I2>,
    ) -> Nested<T2, WithItems<S, I2>>
    where
        WithItems<S, I2>: RaggedShape,
    {
        or_panic(self.try_map(f))
    }

    /// `self @ weight` for a dense weight whose first axis is the items'
    /// last (by name and size): each row of each item times the weight.
    ///
    /// # Errors
    /// `Dyn` contracted sizes that differ.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Features, Hidden);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 3]>::from_items(&[
    ///     Tensor::<f32, shape![Seq: 1, Features: 3]>::from_array([[18.0, 19.0, 20.0]]),
    /// ]);
    /// let w = Tensor::<f32, shape![Features: 3, Hidden: 2]>::arange();
    /// let y = n.try_matmul(&w)?; // Nested<f32, shape![Batch: Dyn, Seq: Dyn, Hidden: 2]>
    /// assert_eq!(y.values().to_vec(), vec![118.0, 175.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_matmul<SW: Shape, R: Data<Cpu>>(
        &self,
        weight: &TensorBase<T, SW, Cpu, R>,
    ) -> Result<Nested<T, NestedMatMulOut<S, SW>>>
    where
        T: Float,
        S::Items: MatMul<SW>,
        NestedMatMulOut<S, SW>: RaggedShape,
    {
        self.inner.matmul(&weight.raw()).map(Nested::wrap)
    }

    /// `self @ weight`, by name.
    ///
    /// # Panics
    /// As [`try_matmul`](Self::try_matmul), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Features, Hidden);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 2]>::from_items(&[Tensor::<f32, shape![Seq: 3, Features: 2]>::ones()]);
    /// let y = n.matmul(&Tensor::<f32, shape![Features: 2, Hidden: 4]>::ones());
    /// assert_eq!(y.values().sizes().as_slice(), &[3, 4]);
    /// ```
    #[track_caller]
    pub fn matmul<SW: Shape, R: Data<Cpu>>(
        &self,
        weight: &TensorBase<T, SW, Cpu, R>,
    ) -> Nested<T, NestedMatMulOut<S, SW>>
    where
        T: Float,
        S::Items: MatMul<SW>,
        NestedMatMulOut<S, SW>: RaggedShape,
    {
        or_panic(self.try_matmul(weight))
    }
}

/// The nested shape of `S`'s batch axis (name and size) over items of
/// shape `I`: what an op on the items gives.
///
/// ```
/// use axial::prelude::*;
/// use axial::WithItems;
/// axes!(Batch, Seq, Features, Hidden);
/// type S = shape![Batch: Dyn, Seq: Dyn, Features: 3];
/// let _: Option<WithItems<S, shape![Seq: Dyn, Hidden: 2]>> = None::<shape![Batch: Dyn, Seq: Dyn, Hidden: 2]>;
/// ```
pub type WithItems<S, I> = Ax<<S as Batched>::Batch, <S as Batched>::Size, I>;

/// The nested shape of `S`'s items times a weight of shape `SW`.
///
/// ```
/// use axial::prelude::*;
/// use axial::NestedMatMulOut;
/// axes!(Batch, Seq, Features, Hidden);
/// type S = shape![Batch: Dyn, Seq: Dyn, Features: 3];
/// let _: Option<NestedMatMulOut<S, shape![Features: 3, Hidden: 2]>> = None::<shape![Batch: Dyn, Seq: Dyn, Hidden: 2]>;
/// ```
pub type NestedMatMulOut<S, SW> = WithItems<S, MatMulOut<<S as Batched>::Items, SW>>;

impl<T, S, L> fmt::Display for Nested<T, S, L> {
    /// PyTorch's repr: `NestedTensor(size=(2, j1, 3), offsets=tensor([0, 2,
    /// 6]), contiguous=True)`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::ones()]);
    /// assert_eq!(n.to_string(), "NestedTensor(size=(1, j1), offsets=tensor([0, 2]), contiguous=True)");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl<T, S, L> fmt::Debug for Nested<T, S, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.inner, f)
    }
}
