//! Hybrid sparse tensors: `SparseCoo<T, S, D>` with dense axes `D`, one
//! dense block of shape `D` per entry of the sparse axes `S`
//! (`torch.sparse_coo_tensor(indices, values)` with values of rank above
//! 1), built from entries or from a dense tensor, made dense again, and a
//! row-sparse matrix times a dense one.

use axial_core::sparse as core_s;
use axial_core::{Cpu, Element, Result};
use axial_shape::{Append, Ax, Concat, MatMul, MatMulOut, RankIs, Shape};

use super::{SparseCoo, check_sizes, entry_indices, static_sizes};
use crate::access::owned;
use crate::ops::SameDType;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// The dense axes of a hybrid tensor: at least one.
///
/// ```
/// use axial::prelude::*;
/// use axial::DenseAxes;
/// axes!(Cols);
/// fn dense<D: DenseAxes>() {}
/// dense::<shape![Cols: 3]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` are not the dense axes of a hybrid sparse tensor",
    label = "a hybrid tensor has at least one dense axis",
    note = "a sparse tensor without dense axes is `SparseCoo<T, S>`"
)]
pub trait DenseAxes: Shape {}
impl<N, Z, T> DenseAxes for Ax<N, Z, T> where Self: Shape {}

/// The shape a hybrid tensor of sparse axes `S` and dense axes `D` holds:
/// `S` then `D`.
///
/// ```
/// use axial::prelude::*;
/// use axial::HybridShape;
/// axes!(Rows, Cols);
/// let _: Option<HybridShape<shape![Rows: 4], shape![Cols: 3]>> = None::<shape![Rows: 4, Cols: 3]>;
/// ```
pub type HybridShape<S, D> = Concat<S, D>;

/// The shape of a hybrid matrix of sparse axes `S` and dense axes `D`
/// times a dense tensor of shape `S2`.
type HybridProduct<S, D, S2> = MatMulOut<HybridShape<S, D>, S2>;

impl<T, S, D> SparseCoo<T, S, D>
where
    T: Element,
    S: Shape + Append<D>,
    D: DenseAxes,
    HybridShape<S, D>: Shape,
{
    /// The entries `indices[e]` (one coordinate per sparse axis) with the
    /// dense blocks `values[e]` (the first axis of `values` runs over the
    /// entries, its others are the dense axes `D`), in a tensor whose sparse
    /// sizes are `sizes` (checked against the static ones), each index
    /// checked against its axis.
    ///
    /// # Errors
    /// Not one block per entry, a size that contradicts the type, or an
    /// index outside its axis (PyTorch accepts that unless asked to check,
    /// then writes out of bounds).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Entry);
    /// type RowSparse = SparseCoo<f32, shape![Rows: Dyn], shape![Cols: 3]>;
    /// let rows = Tensor::<f32, shape![Entry: 2, Cols: 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let m = RowSparse::try_with_sizes(&[[4], [1]], &rows, [5])?;
    /// assert_eq!((m.sizes(), m.nnz()), (&[5, 3][..], 2));
    /// assert!(RowSparse::try_with_sizes(&[[5], [1]], &rows, [5]).is_err()); // row 5 of 5
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_with_sizes<const N: usize, E, SE, R>(
        indices: &[[i64; N]],
        values: &TensorBase<T, Ax<E, SE, D>, Cpu, R>,
        sizes: [usize; N],
    ) -> Result<Self>
    where
        S: RankIs<N>,
        Ax<E, SE, D>: Shape,
        R: Data<Cpu>,
    {
        check_sizes::<S>("sparse_coo_tensor", &sizes)?;
        let values = values.raw().to_contiguous()?;
        let mut size = sizes.to_vec();
        size.extend_from_slice(&values.shape()[1..]);
        core_s::SparseCoo::new(entry_indices(indices)?, values, &size).map(Self::wrap)
    }

    /// The entries `indices[e]` with the dense blocks `values[e]`, in a
    /// tensor of the static sparse sizes of `S`.
    ///
    /// # Errors
    /// As [`try_with_sizes`](Self::try_with_sizes); an axis of `S` is `Dyn`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Entry);
    /// let rows = Tensor::<f32, shape![Entry: 1, Cols: 2]>::from_array([[1.0, 2.0]]);
    /// let e = SparseCoo::<f32, shape![Rows: 3], shape![Cols: 2]>::try_from_entries(&[[3]], &rows).unwrap_err();
    /// assert!(e.to_string().ends_with("for dim 0, size is 3 but found index 3"));
    /// ```
    pub fn try_from_entries<const N: usize, E, SE, R>(
        indices: &[[i64; N]],
        values: &TensorBase<T, Ax<E, SE, D>, Cpu, R>,
    ) -> Result<Self>
    where
        S: RankIs<N>,
        Ax<E, SE, D>: Shape,
        R: Data<Cpu>,
    {
        let sizes = static_sizes::<S>("sparse_coo_tensor")?;
        let mut fixed = [0usize; N];
        fixed.copy_from_slice(&sizes);
        Self::try_with_sizes(indices, values, fixed)
    }

    /// The entries `indices[e]` with the dense blocks `values[e]`.
    ///
    /// # Panics
    /// As [`try_from_entries`](Self::try_from_entries), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Entry);
    /// let rows = Tensor::<i64, shape![Entry: 2, Cols: 2]>::from_array([[1, 2], [3, 4]]);
    /// let m = SparseCoo::<i64, shape![Rows: 3], shape![Cols: 2]>::from_entries(&[[2], [2]], &rows);
    /// assert_eq!(m.to_dense().to_vec(), vec![0, 0, 0, 0, 4, 6]); // duplicates add up
    /// ```
    #[track_caller]
    pub fn from_entries<const N: usize, E, SE, R>(
        indices: &[[i64; N]],
        values: &TensorBase<T, Ax<E, SE, D>, Cpu, R>,
    ) -> Self
    where
        S: RankIs<N>,
        Ax<E, SE, D>: Shape,
        R: Data<Cpu>,
    {
        or_panic(Self::try_from_entries(indices, values))
    }

    /// `x.to_sparse(sparse_dim)` with the sparse axes `S` and the dense
    /// axes `D` of the hybrid type asked for (`x` has `S` then `D`): the
    /// dense blocks with a non-zero element, coalesced (NaN counts as
    /// non-zero, `-0.0` as zero).
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 3, Cols: 2]>::from_array([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]]);
    /// let m = SparseCoo::<f32, shape![Rows: 3], shape![Cols: 2]>::try_from_dense(&x)?;
    /// assert_eq!(m.as_core().indices()?.to_vec::<i64>()?, vec![1]);
    /// assert_eq!(m.to_dense().to_vec(), x.to_vec());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_from_dense<R: Data<Cpu>>(
        x: &TensorBase<T, HybridShape<S, D>, Cpu, R>,
    ) -> Result<Self> {
        core_s::SparseCoo::from_dense(&x.raw(), S::RANK).map(Self::wrap)
    }

    /// `x.to_sparse(sparse_dim)` as the hybrid type asked for.
    ///
    /// # Panics
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Rows, Cols);
    /// let x = Tensor::<f32, shape![Batch: 2, Rows: 2, Cols: 2]>::arange();
    /// let m = SparseCoo::<f32, shape![Batch: 2], shape![Rows: 2, Cols: 2]>::from_dense(&x);
    /// assert_eq!((m.nnz(), m.as_core().dense_dim()), (2, 2));
    /// ```
    #[track_caller]
    pub fn from_dense<R: Data<Cpu>>(x: &TensorBase<T, HybridShape<S, D>, Cpu, R>) -> Self {
        or_panic(Self::try_from_dense(x))
    }

    /// `to_dense()`: the sparse axes then the dense ones, row-major,
    /// duplicates summed.
    ///
    /// # Errors
    /// The dense tensor would not fit in memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Entry);
    /// let rows = Tensor::<f32, shape![Entry: 1, Cols: 2]>::from_array([[1.0, 2.0]]);
    /// let m = SparseCoo::<f32, shape![Rows: 2], shape![Cols: 2]>::from_entries(&[[1]], &rows);
    /// let d: Tensor<f32, shape![Rows: 2, Cols: 2]> = m.try_to_dense()?;
    /// assert_eq!(d.to_vec(), vec![0.0, 0.0, 1.0, 2.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_to_dense(&self) -> Result<Tensor<T, HybridShape<S, D>>> {
        self.as_core().to_dense().map(owned)
    }

    /// `to_dense()`.
    ///
    /// # Panics
    /// As [`try_to_dense`](Self::try_to_dense), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Entry);
    /// let rows = Tensor::<f32, shape![Entry: 1, Cols: 1]>::from_array([[5.0]]);
    /// let m = SparseCoo::<f32, shape![Rows: 2], shape![Cols: 1]>::from_entries(&[[0]], &rows);
    /// assert_eq!(m.to_dense().to_vec(), vec![5.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn to_dense(&self) -> Tensor<T, HybridShape<S, D>> {
        or_panic(self.try_to_dense())
    }

    /// `self @ dense` for a row-sparse matrix (one sparse axis, one dense):
    /// its last axis is contracted with the first (or only) axis of
    /// `dense`, by name and size; each stored row times `dense` by the
    /// dense product, added into its row (PyTorch's sparse products refuse
    /// hybrid tensors; this is the product of the matrix they hold).
    ///
    /// # Errors
    /// `Dyn` contracted sizes that differ.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, K, Entry);
    /// let rows = Tensor::<f32, shape![Entry: 2, Cols: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let m = SparseCoo::<f32, shape![Rows: 3], shape![Cols: 2]>::from_entries(&[[2], [0]], &rows);
    /// let d = Tensor::<f32, shape![Cols: 2, K: 3]>::arange();
    /// let y = m.try_matmul(&d)?; // shape![Rows: 3, K: 3]
    /// assert_eq!(y.to_vec(), vec![12.0, 19.0, 26.0, 0.0, 0.0, 0.0, 6.0, 9.0, 12.0]);
    /// assert_eq!(y.to_vec(), m.to_dense().matmul(&d).to_vec());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_matmul<T2, S2, R2>(
        &self,
        dense: &TensorBase<T2, S2, Cpu, R2>,
    ) -> Result<Tensor<T, HybridProduct<S, D, S2>>>
    where
        HybridShape<S, D>: MatMul<S2> + RankIs<2>,
        T2: SameDType<T> + Element,
        S2: Shape,
        R2: Data<Cpu>,
    {
        self.as_core().matmul(&dense.raw()).map(owned)
    }

    /// `self @ dense` for a row-sparse matrix, by name.
    ///
    /// # Panics
    /// As [`try_matmul`](Self::try_matmul), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols, Entry);
    /// let rows = Tensor::<f32, shape![Entry: 1, Cols: 2]>::from_array([[1.0, 2.0]]);
    /// let m = SparseCoo::<f32, shape![Rows: 2], shape![Cols: 2]>::from_entries(&[[1]], &rows);
    /// let v = Tensor::<f32, shape![Cols: 2]>::from_array([3.0, 4.0]);
    /// assert_eq!(m.matmul(&v).to_vec(), vec![0.0, 11.0]);
    /// ```
    #[track_caller]
    pub fn matmul<T2, S2, R2>(
        &self,
        dense: &TensorBase<T2, S2, Cpu, R2>,
    ) -> Tensor<T, HybridProduct<S, D, S2>>
    where
        HybridShape<S, D>: MatMul<S2> + RankIs<2>,
        T2: SameDType<T> + Element,
        S2: Shape,
        R2: Data<Cpu>,
    {
        or_panic(self.try_matmul(dense))
    }
}
