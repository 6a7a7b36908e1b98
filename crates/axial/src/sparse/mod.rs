//! Sparse tensors with typed shapes: [`SparseCoo`] and [`SparseCsr`] carry
//! the element type and the shape (names and sizes) over the core's
//! [`axial_core::sparse`], whose constructors check every index, always.
//!
//! Products with dense tensors contract by name, as dense `matmul` does: a
//! dense operand whose first axis is not the sparse matrix's last does not
//! compile.
//!
//! A hybrid tensor, `SparseCoo<T, S, D>`, keeps a dense block of axes `D`
//! per entry of its sparse axes `S` (a row-sparse matrix: `S = [Rows]`,
//! `D = [Cols]`); only its sparse axes can be transposed (naming a dense
//! one does not compile, PyTorch refuses it at run time).
//!
//! ```
//! use axial::prelude::*;
//! axes!(Rows, Cols, Features);
//! // The chapter's 1000 × 1000 matrix with 3 non-zeros.
//! let s = SparseCoo::<f32, shape![Rows: 1000, Cols: 1000]>::from_entries(&[[0, 2], [1, 0], [2, 1]], &[3.0, 4.0, 5.0]);
//! assert_eq!((s.nnz(), s.as_core().nbytes()), (3, 60));
//! let d = Tensor::<f32, shape![Cols: 1000, Features: 2]>::ones();
//! let y = s.matmul(&d); // shape![Rows: 1000, Features: 2]
//! assert_eq!(y.get([1, 0]), 4.0);
//! ```

use std::fmt;
use std::marker::PhantomData;

use axial_core::sparse::{self as core_s};
use axial_core::{BinaryOp, Cpu, Element, Error, RawTensor, Result, Scalar};
use axial_shape::{GenericArray, MatMul, MatMulOut, Nil, RankIs, Shape, Transpose};

use crate::access::owned;
use crate::ops::SameDType;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// Holds the type parameters without values of them.
type Marker<T> = PhantomData<fn() -> T>;

mod hybrid;

pub use hybrid::{DenseAxes, HybridShape};

/// Checks run-time `sizes` against the static sizes of `S`.
fn check_sizes<S: Shape>(op: &'static str, sizes: &[usize]) -> Result<()> {
    crate::symbolic::refuse_symbols::<S>(op)?;
    let mut names = GenericArray::<Option<&str>, S::Rank>::default();
    S::write_names(&mut names);
    let mut want = GenericArray::<Option<usize>, S::Rank>::default();
    S::write_static_sizes(&mut want);
    for ((&have, want), name) in sizes.iter().zip(want).zip(names) {
        if let Some(want) = want.filter(|&w| w != have) {
            return Err(Error::invalid(
                op,
                format!(
                    "axis `{}` has size {have}, but the type says {want}",
                    name.unwrap_or("_")
                ),
            ));
        }
    }
    Ok(())
}

/// One coordinate list per entry as PyTorch's `sparse_dim × nnz` indices.
fn entry_indices<const N: usize>(indices: &[[i64; N]]) -> Result<RawTensor> {
    let nnz = indices.len();
    let mut idx = vec![0i64; N * nnz];
    for (e, entry) in indices.iter().enumerate() {
        for (d, &i) in entry.iter().enumerate() {
            idx[d * nnz + e] = i;
        }
    }
    RawTensor::from_vec(idx, &[N, nnz])
}

/// The static sizes of `S`, or an error naming a `Dyn` axis.
fn static_sizes<S: Shape>(op: &'static str) -> Result<Vec<usize>> {
    crate::symbolic::refuse_symbols::<S>(op)?;
    let mut names = GenericArray::<Option<&str>, S::Rank>::default();
    S::write_names(&mut names);
    let mut sizes = GenericArray::<Option<usize>, S::Rank>::default();
    S::write_static_sizes(&mut sizes);
    sizes
        .iter()
        .zip(names)
        .map(|(s, name)| {
            s.ok_or_else(|| {
                Error::invalid(
                    op,
                    format!(
                        "axis `{}` is Dyn: give the sizes (`try_with_sizes`)",
                        name.unwrap_or("_")
                    ),
                )
            })
        })
        .collect()
}

/// A sparse tensor in coordinate form, of `T` elements, whose indexed
/// (sparse) axes are `S` and whose values' own (dense) axes are `D`: a
/// hybrid tensor of shape `S` then `D` when `D` has axes
/// (`torch.sparse_coo_tensor` with values of rank above 1), a plain one of
/// shape `S` when it has none (the default).
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let u = SparseCoo::<f32, shape![Rows: 3, Cols: 3]>::from_entries(
///     &[[1, 0], [0, 2], [1, 0], [0, 2], [2, 2]],
///     &[1.0, 2.0, 3.0, 4.0, 5.0],
/// );
/// assert!(!u.is_coalesced());
/// assert_eq!(u.coalesce().nnz(), 3);
/// assert_eq!(u.to_dense().to_vec(), vec![0.0, 0.0, 6.0, 4.0, 0.0, 0.0, 0.0, 0.0, 5.0]);
/// ```
pub struct SparseCoo<T, S, D = Nil> {
    inner: core_s::SparseCoo,
    marker: Marker<(T, S, D)>,
}

/// A sparse matrix in CSR form, of `T` elements and shape `S` (two axes).
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let d = Tensor::<f32, shape![Rows: 3, Cols: 4]>::from_array([[0., 1., 0., 2.], [0., 0., 0., 0.], [3., 0., 4., 0.]]);
/// let c = d.to_sparse_csr();
/// assert_eq!(c.as_core().crow_indices().to_vec::<i64>()?, vec![0, 2, 2, 4]);
/// # Ok::<(), axial::Error>(())
/// ```
pub struct SparseCsr<T, S> {
    inner: core_s::SparseCsr,
    marker: Marker<(T, S)>,
}

impl<T: Element, S: Shape, D> SparseCoo<T, S, D> {
    fn wrap(inner: core_s::SparseCoo) -> Self {
        SparseCoo {
            inner,
            marker: PhantomData,
        }
    }

    /// The core's sparse tensor.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[0, 0]], &[1.0]);
    /// assert_eq!(s.as_core().sparse_dim(), 2);
    /// ```
    pub fn as_core(&self) -> &core_s::SparseCoo {
        &self.inner
    }

    /// The sizes.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![2, 5]>::from_entries(&[[0, 0]], &[1.0]);
    /// assert_eq!(s.sizes(), &[2, 5]);
    /// ```
    pub fn sizes(&self) -> &[usize] {
        self.inner.shape()
    }

    /// The number of stored entries, duplicates included.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[0, 0], [0, 0]], &[1.0, 2.0]);
    /// assert_eq!((s.nnz(), s.coalesce().nnz()), (2, 1));
    /// ```
    pub fn nnz(&self) -> usize {
        self.inner.nnz()
    }

    /// True when the entries are known sorted and unique.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 0], [0, 0]], &[1.0, 2.0]);
    /// assert!(!s.is_coalesced() && s.coalesce().is_coalesced());
    /// ```
    pub fn is_coalesced(&self) -> bool {
        self.inner.is_coalesced()
    }

    /// `coalesce()`: sorted, duplicates summed.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 0], [1, 0]], &[1.0, 2.0]);
    /// assert_eq!(s.try_coalesce()?.as_core().values()?.to_vec::<f32>()?, vec![3.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_coalesce(&self) -> Result<Self> {
        self.inner.coalesce().map(Self::wrap)
    }

    /// `coalesce()`.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![3]>::from_entries(&[[2], [0]], &[1.0, 2.0]);
    /// assert_eq!(s.coalesce().as_core().indices()?.to_vec::<i64>()?, vec![0, 2]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[track_caller]
    pub fn coalesce(&self) -> Self {
        or_panic(self.try_coalesce())
    }

    /// The axes `A` and `B` swapped, by name (their index rows swap).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let s = SparseCoo::<f32, shape![Rows: 2, Cols: 3]>::from_entries(&[[0, 2]], &[1.0]);
    /// let t = s.transpose::<Rows, Cols>(); // shape![Cols: 3, Rows: 2]
    /// assert_eq!(t.to_dense().to_vec(), vec![0.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    /// ```
    pub fn transpose<A, B>(&self) -> SparseCoo<T, <S as Transpose<A, B>>::Output, D>
    where
        S: Transpose<A, B>,
    {
        let (a, b) = S::POSITIONS;
        SparseCoo::wrap(or_panic(self.inner.transpose(a as isize, b as isize)))
    }

    /// `self + other` (PyTorch's merge of the entries): the same shape type.
    ///
    /// # Errors
    /// `Dyn` sizes that differ.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let a = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[0, 0], [1, 1]], &[1.0, 2.0]);
    /// let b = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 1], [0, 1]], &[10.0, 20.0]);
    /// assert_eq!(a.try_add(&b)?.to_dense().to_vec(), vec![1.0, 20.0, 0.0, 12.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_add(&self, other: &SparseCoo<T, S, D>) -> Result<Self> {
        self.inner.add(&other.inner).map(Self::wrap)
    }

    /// `self + other`.
    ///
    /// # Panics
    /// As [`try_add`](Self::try_add), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let a = SparseCoo::<f32, shape![2]>::from_entries(&[[0]], &[1.0]);
    /// assert_eq!(a.add(&a).to_dense().to_vec(), vec![2.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn add(&self, other: &SparseCoo<T, S, D>) -> Self {
        or_panic(self.try_add(other))
    }

    /// `self * value`: the values scaled, the entries kept.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let a = SparseCoo::<f32, shape![2]>::from_entries(&[[1]], &[1.5]);
    /// assert_eq!(a.scale(2.0).to_dense().to_vec(), vec![0.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn scale(&self, value: T) -> Self {
        or_panic(
            self.inner
                .scalar(BinaryOp::Mul, Scalar::of(value))
                .map(Self::wrap),
        )
    }
}

impl<T: Element, S: Shape> SparseCoo<T, S> {
    /// The entries `indices[e]` (one coordinate per axis) with values
    /// `values[e]`, in a tensor whose sizes are `sizes` (checked against
    /// the static ones), each index checked against its axis.
    ///
    /// # Errors
    /// Not one value per entry, a size that contradicts the type, or an
    /// index outside its axis (PyTorch accepts that unless asked to check,
    /// then writes out of bounds).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// type M = SparseCoo<f32, shape![Rows: Dyn, Cols: 3]>;
    /// let s = M::try_with_sizes(&[[5, 2]], &[1.0], [6, 3])?;
    /// assert_eq!(s.sizes(), &[6, 3]);
    /// let e = M::try_with_sizes(&[[5, 2]], &[1.0], [3, 3]).unwrap_err();
    /// assert!(e.to_string().ends_with("size is inconsistent with indices: for dim 0, size is 3 but found index 5"));
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_with_sizes<const N: usize>(
        indices: &[[i64; N]],
        values: &[T],
        sizes: [usize; N],
    ) -> Result<Self>
    where
        S: RankIs<N>,
    {
        check_sizes::<S>("sparse_coo_tensor", &sizes)?;
        let indices = entry_indices(indices)?;
        let values = RawTensor::from_vec(values.to_vec(), &[values.len()])?;
        core_s::SparseCoo::new(indices, values, &sizes).map(Self::wrap)
    }

    /// The entries `indices[e]` with values `values[e]` in a tensor of the
    /// static shape `S`.
    ///
    /// # Errors
    /// As [`try_with_sizes`](Self::try_with_sizes); an axis of `S` is `Dyn`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let e = SparseCoo::<f32, shape![Rows: 3, Cols: 3]>::try_from_entries(&[[0, 5]], &[1.0]).unwrap_err();
    /// assert!(e.to_string().ends_with("for dim 1, size is 3 but found index 5"));
    /// ```
    pub fn try_from_entries<const N: usize>(indices: &[[i64; N]], values: &[T]) -> Result<Self>
    where
        S: RankIs<N>,
    {
        let sizes = static_sizes::<S>("sparse_coo_tensor")?;
        let mut fixed = [0usize; N];
        fixed.copy_from_slice(&sizes);
        Self::try_with_sizes(indices, values, fixed)
    }

    /// The entries `indices[e]` with values `values[e]`.
    ///
    /// # Panics
    /// As [`try_from_entries`](Self::try_from_entries), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let s = SparseCoo::<i64, shape![Rows: 2, Cols: 2]>::from_entries(&[[0, 1]], &[7]);
    /// assert_eq!(s.to_dense().to_vec(), vec![0, 7, 0, 0]);
    /// ```
    #[track_caller]
    pub fn from_entries<const N: usize>(indices: &[[i64; N]], values: &[T]) -> Self
    where
        S: RankIs<N>,
    {
        or_panic(Self::try_from_entries(indices, values))
    }

    /// `to_dense()`: a row-major dense tensor, duplicates summed.
    ///
    /// # Errors
    /// The dense tensor would not fit in memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 1]], &[4.0]);
    /// assert_eq!(s.try_to_dense()?.to_vec(), vec![0.0, 0.0, 0.0, 4.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_dense(&self) -> Result<Tensor<T, S>> {
        self.inner.to_dense().map(owned)
    }

    /// `to_dense()`.
    ///
    /// # Panics
    /// As [`try_to_dense`](Self::try_to_dense), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![3]>::from_entries(&[[1]], &[4.0]);
    /// assert_eq!(s.to_dense().to_vec(), vec![0.0, 4.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn to_dense(&self) -> Tensor<T, S> {
        or_panic(self.try_to_dense())
    }

    /// `self @ dense` for a sparse matrix: the last axis of `self` is
    /// contracted with the first (or only) axis of `dense`, which must have
    /// its name and size; a dense, row-major result.
    ///
    /// # Errors
    /// `Dyn` contracted sizes that differ.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, K);
    /// let s = SparseCoo::<f32, shape![Rows: 2, Cols: Dyn]>::try_with_sizes(&[[0, 1]], &[2.0], [2, 3])?;
    /// let d = Tensor::<f32, shape![Cols: 3, K: 1]>::ones();
    /// assert_eq!(s.try_matmul(&d)?.to_vec(), vec![2.0, 0.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_matmul<T2, S2, R2>(
        &self,
        dense: &TensorBase<T2, S2, Cpu, R2>,
    ) -> Result<Tensor<T, MatMulOut<S, S2>>>
    where
        S: MatMul<S2> + RankIs<2>,
        T2: SameDType<T> + Element,
        S2: Shape,
        R2: Data<Cpu>,
    {
        self.inner.matmul(&dense.raw()).map(owned)
    }

    /// `self @ dense`, by name.
    ///
    /// # Panics
    /// As [`try_matmul`](Self::try_matmul), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let s = SparseCoo::<f32, shape![Rows: 2, Cols: 2]>::from_entries(&[[1, 0]], &[3.0]);
    /// let v = Tensor::<f32, shape![Cols: 2]>::from_array([1.0, 2.0]);
    /// assert_eq!(s.matmul(&v).to_vec(), vec![0.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn matmul<T2, S2, R2>(
        &self,
        dense: &TensorBase<T2, S2, Cpu, R2>,
    ) -> Tensor<T, MatMulOut<S, S2>>
    where
        S: MatMul<S2> + RankIs<2>,
        T2: SameDType<T> + Element,
        S2: Shape,
        R2: Data<Cpu>,
    {
        or_panic(self.try_matmul(dense))
    }

    /// The same matrix in CSR form (coalesced first).
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 0], [0, 1]], &[1.0, 2.0]);
    /// assert_eq!(s.try_to_csr()?.as_core().crow_indices().to_vec::<i64>()?, vec![0, 1, 2]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_csr(&self) -> Result<SparseCsr<T, S>>
    where
        S: RankIs<2>,
    {
        self.inner.to_csr().map(SparseCsr::wrap)
    }

    /// The same matrix in CSR form.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 0]], &[1.0]);
    /// assert_eq!(s.to_csr().nnz(), 1);
    /// ```
    #[track_caller]
    pub fn to_csr(&self) -> SparseCsr<T, S>
    where
        S: RankIs<2>,
    {
        or_panic(self.try_to_csr())
    }
}

impl<T: Element, S: Shape> SparseCsr<T, S> {
    fn wrap(inner: core_s::SparseCsr) -> Self {
        SparseCsr {
            inner,
            marker: PhantomData,
        }
    }

    /// The core's CSR matrix.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let c = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 0]], &[1.0]).to_csr();
    /// assert_eq!(c.as_core().col_indices().to_vec::<i64>()?, vec![0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn as_core(&self) -> &core_s::SparseCsr {
        &self.inner
    }

    /// The number of entries.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let c = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 0], [0, 0]], &[1.0, 2.0]).to_csr();
    /// assert_eq!(c.nnz(), 2);
    /// ```
    pub fn nnz(&self) -> usize {
        self.inner.nnz()
    }

    /// `to_dense()`.
    ///
    /// # Panics
    /// The dense matrix would not fit in memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let c = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 0]], &[5.0]).to_csr();
    /// assert_eq!(c.to_dense().to_vec(), vec![0.0, 0.0, 5.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn to_dense(&self) -> Tensor<T, S> {
        or_panic(self.inner.to_dense().map(owned))
    }

    /// `self @ dense`, by name, as [`SparseCoo::try_matmul`].
    ///
    /// # Errors
    /// `Dyn` contracted sizes that differ.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, K);
    /// let c = SparseCoo::<f32, shape![Rows: 2, Cols: 2]>::from_entries(&[[0, 1]], &[2.0]).to_csr();
    /// let d = Tensor::<f32, shape![Cols: 2, K: 2]>::arange();
    /// assert_eq!(c.try_matmul(&d)?.to_vec(), vec![4.0, 6.0, 0.0, 0.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_matmul<T2, S2, R2>(
        &self,
        dense: &TensorBase<T2, S2, Cpu, R2>,
    ) -> Result<Tensor<T, MatMulOut<S, S2>>>
    where
        S: MatMul<S2>,
        T2: SameDType<T> + Element,
        S2: Shape,
        R2: Data<Cpu>,
    {
        self.inner.matmul(&dense.raw()).map(owned)
    }

    /// `self @ dense`, by name.
    ///
    /// # Panics
    /// As [`try_matmul`](Self::try_matmul), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let c = SparseCoo::<f32, shape![Rows: 2, Cols: 2]>::from_entries(&[[1, 1]], &[2.0]).to_csr();
    /// assert_eq!(c.matmul(&Tensor::<f32, shape![Cols: 2]>::ones()).to_vec(), vec![0.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn matmul<T2, S2, R2>(
        &self,
        dense: &TensorBase<T2, S2, Cpu, R2>,
    ) -> Tensor<T, MatMulOut<S, S2>>
    where
        S: MatMul<S2>,
        T2: SameDType<T> + Element,
        S2: Shape,
        R2: Data<Cpu>,
    {
        or_panic(self.try_matmul(dense))
    }
}

impl<T: Element, S: Shape, R: Data<Cpu>> TensorBase<T, S, Cpu, R> {
    /// `to_sparse()`: the non-zero elements as a coalesced COO tensor
    /// (NaN counts as non-zero, `-0.0` as zero).
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![4]>::from_array([0.0, -0.0, f32::NAN, 1.0]);
    /// assert_eq!(x.try_to_sparse()?.nnz(), 2);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_sparse(&self) -> Result<SparseCoo<T, S>> {
        core_s::SparseCoo::from_dense(&self.raw(), S::RANK).map(SparseCoo::wrap)
    }

    /// `to_sparse()`.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_array([[0.0, 1.0], [2.0, 0.0]]);
    /// assert_eq!(x.to_sparse().nnz(), 2);
    /// ```
    #[track_caller]
    pub fn to_sparse(&self) -> SparseCoo<T, S> {
        or_panic(self.try_to_sparse())
    }

    /// `to_sparse_csr()` of a matrix.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_array([[0.0, 1.0], [2.0, 0.0]]);
    /// assert_eq!(x.try_to_sparse_csr()?.nnz(), 2);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_sparse_csr(&self) -> Result<SparseCsr<T, S>>
    where
        S: RankIs<2>,
    {
        core_s::SparseCsr::from_dense(&self.raw()).map(SparseCsr::wrap)
    }

    /// `to_sparse_csr()` of a matrix.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_array([[0.0, 1.0], [2.0, 0.0]]);
    /// assert_eq!(x.to_sparse_csr().to_dense().to_vec(), x.to_vec());
    /// ```
    #[track_caller]
    pub fn to_sparse_csr(&self) -> SparseCsr<T, S>
    where
        S: RankIs<2>,
    {
        or_panic(self.try_to_sparse_csr())
    }
}

impl<T, S, D> fmt::Display for SparseCoo<T, S, D> {
    /// PyTorch's repr.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let s = SparseCoo::<f32, shape![1000, 1000]>::from_entries(&[[0, 2], [1, 0], [2, 1]], &[3.0, 4.0, 5.0]);
    /// assert!(s.to_string().ends_with("size=(1000, 1000), nnz=3, layout=torch.sparse_coo)"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl<T, S> fmt::Display for SparseCsr<T, S> {
    /// PyTorch's repr.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let c = SparseCoo::<f32, shape![2, 2]>::from_entries(&[[1, 0]], &[1.0]).to_csr();
    /// assert!(c.to_string().ends_with("layout=torch.sparse_csr)"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl<T, S, D> fmt::Debug for SparseCoo<T, S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.inner, f)
    }
}

impl<T, S> fmt::Debug for SparseCsr<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.inner, f)
    }
}
