//! Axis order and names: `align_to`, `align_as`, `permute`, `transpose`, `t`,
//! `rename`, `refine_names`.

use axial_core::{Device, Element, Layout};
use axial_shape::{
    AlignAsOutput, AlignTo, Aligned, AlignedAs, GenericArray, Permute, RefineNames, Refined,
    Rename, Shape, Transpose, TransposeT, TransposedT,
};

use super::proven;
use crate::device::SameDevice;
use crate::repr::Data;
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Device, R: Data<D>> TensorBase<T, S, D, R> {
    /// The axes in the order of the names list `L` (a view): `...` stands for
    /// the axes not named, in their order; `New<Name>` inserts an axis of
    /// size 1 (stride 0). Without `...`, every axis must be named once.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(N, C, H, W);
    /// let x = Tensor::<f32, shape![N: 2, C: 3, H: 4, W: 5]>::zeros();
    /// let y = x.as_view().align_to::<names![W, H, C, N]>();
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice()), (&[5, 4, 3, 2][..], &[1, 5, 20, 60][..]));
    /// let z = x.as_view().align_to::<names![W, ..., N]>();
    /// assert_eq!(z.names().as_slice(), &[Some("W"), Some("C"), Some("H"), Some("N")]);
    /// ```
    pub fn align_to<L>(self) -> TensorBase<T, Aligned<S, L>, D, R>
    where
        S: AlignTo<L>,
    {
        let layout = aligned::<S::Output>(&self.layout, <S as AlignTo<L>>::plan);
        self.relayout(layout)
    }

    /// `align_to` the names of `other` (a view): a name this tensor lacks
    /// becomes an axis of size 1, stride 0.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(N, C, H);
    /// let c = Tensor::<f32, shape![C: 3]>::zeros();
    /// let nch = Tensor::<f32, shape![N: 2, C: 3, H: 4]>::zeros();
    /// let a = c.as_view().align_as(&nch);
    /// assert_eq!((a.sizes().as_slice(), a.strides().as_slice()), (&[1, 3, 1][..], &[0, 1, 0][..]));
    /// ```
    pub fn align_as<T2, S2, D2, R2>(
        self,
        _other: &TensorBase<T2, S2, D2, R2>,
    ) -> TensorBase<T, AlignedAs<S, S2>, D, R>
    where
        S2: AlignAsOutput<S>,
        AlignedAs<S, S2>: Shape,
        D2: SameDevice<D>,
    {
        let layout = aligned::<AlignedAs<S, S2>>(&self.layout, <S2 as AlignAsOutput<S>>::plan);
        self.relayout(layout)
    }

    /// The axes in the order of `L`, each named exactly once (a view).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let y = x.permute::<names![C, A, B]>();
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice()), (&[5, 3, 4][..], &[1, 20, 5][..]));
    /// ```
    pub fn permute<L>(self) -> TensorBase<T, Aligned<S, L>, D, R>
    where
        S: Permute<L>,
    {
        let layout = aligned::<S::Output>(&self.layout, <S as AlignTo<L>>::plan);
        self.relayout(layout)
    }

    /// The axes `A` and `B` swapped, with their sizes and strides (a view).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(A, B, C);
    /// let x = Tensor::<f32, shape![A: 3, B: 4, C: 5]>::zeros();
    /// let y = x.transpose::<A, C>();
    /// assert_eq!((y.sizes().as_slice(), y.strides().as_slice()), (&[5, 4, 3][..], &[1, 5, 20][..]));
    /// ```
    pub fn transpose<A, B>(self) -> TensorBase<T, <S as Transpose<A, B>>::Output, D, R>
    where
        S: Transpose<A, B>,
    {
        let (a, b) = S::POSITIONS;
        let layout = proven(self.layout.transpose(a as isize, b as isize));
        self.relayout(layout)
    }

    /// The two axes of a matrix swapped; a tensor of 0 or 1 axes unchanged
    /// (a view).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    /// assert_eq!(m.t().names().as_slice(), &[Some("Cols"), Some("Rows")]);
    /// ```
    pub fn t(self) -> TensorBase<T, <S as TransposedT>::Output, D, R>
    where
        S: TransposeT,
    {
        let layout = proven(self.layout.t());
        self.relayout(layout)
    }

    /// The axis `Old` called `New` (the same layout; `New` must be a name no
    /// other axis has).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(N, C, Batch);
    /// let x = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    /// assert_eq!(x.rename::<N, Batch>().names().as_slice(), &[Some("Batch"), Some("C")]);
    /// ```
    pub fn rename<Old, New>(self) -> TensorBase<T, <S as Rename<Old, New>>::Output, D, R>
    where
        S: Rename<Old, New>,
    {
        self.retype()
    }

    /// Names for the anonymous axes, one item of `L` per axis (`_` keeps an
    /// axis as it is); a named axis must keep its name.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(N, C);
    /// let x = Tensor::<f32, shape![2, 3]>::zeros();
    /// let y = x.refine_names::<names![N, C]>();
    /// assert_eq!(y.names().as_slice(), &[Some("N"), Some("C")]);
    /// ```
    pub fn refine_names<L>(self) -> TensorBase<T, Refined<S, L>, D, R>
    where
        S: RefineNames<L>,
    {
        self.retype()
    }
}

/// The layout of an alignment: per output axis, the input axis' size and
/// stride, or size 1 and stride 0 for a new axis (PyTorch's `align_to`).
fn aligned<Out: Shape>(layout: &Layout, plan: fn(&mut [Option<usize>])) -> Layout {
    let mut sources = GenericArray::<Option<usize>, Out::Rank>::default();
    plan(&mut sources);
    let (shape, strides) = (layout.shape(), layout.strides());
    let sizes: GenericArray<usize, Out::Rank> =
        sources.iter().map(|s| s.map_or(1, |p| shape[p])).collect();
    let steps: GenericArray<isize, Out::Rank> = sources
        .iter()
        .map(|s| s.map_or(0, |p| strides[p]))
        .collect();
    Layout::from_parts(&sizes, &steps, layout.offset())
}
