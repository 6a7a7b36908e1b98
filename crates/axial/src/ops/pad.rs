//! `pad` along an axis by name, PyTorch's four modes: by amounts in the
//! type (the padded size is static where the axis is, a sum with its
//! symbol where it is symbolic), or by amounts known at run time (`Dyn`).

use axial_core::{Backend, Element, PadMode, Result, Scalar};
use axial_shape::{Dyn, HasAxis, ResizeAxis, Shape, SizeAdd, SizeSum, Sz};

use crate::access::owned;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// How `pad` fills the new elements (PyTorch's `mode`, and `value` for a
/// constant).
///
/// ```
/// use axial::prelude::*;
/// use axial::Pad;
/// axes!(Time);
/// let x = Tensor::<i64, shape![Time: 3]>::from_array([1, 2, 3]);
/// assert_eq!(x.pad::<Time, 2, 1>(Pad::Constant(0)).to_vec(), vec![0, 0, 1, 2, 3, 0]);
/// assert_eq!(x.pad::<Time, 2, 1>(Pad::Reflect).to_vec(), vec![3, 2, 1, 2, 3, 2]);
/// assert_eq!(x.pad::<Time, 2, 1>(Pad::Replicate).to_vec(), vec![1, 1, 1, 2, 3, 3]);
/// assert_eq!(x.pad::<Time, 2, 1>(Pad::Circular).to_vec(), vec![2, 3, 1, 2, 3, 1]);
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Pad<T> {
    /// Every new element is the value.
    Constant(T),
    /// The tensor mirrored at its edges, the edge itself not repeated.
    Reflect,
    /// The edge element repeated.
    Replicate,
    /// The tensor wrapped around.
    Circular,
}

impl<T: Element> Pad<T> {
    fn mode(self) -> PadMode {
        match self {
            Pad::Constant(v) => PadMode::Constant(Scalar::of(v)),
            Pad::Reflect => PadMode::Reflect,
            Pad::Replicate => PadMode::Replicate,
            Pad::Circular => PadMode::Circular,
        }
    }
}

/// The size of an axis of size `Z` padded by `BEFORE` and `AFTER`.
///
/// ```
/// use axial::prelude::*;
/// use axial::{Padded, Plus, Sz};
/// axes!(Seq);
/// let _: Option<Padded<Sz<5>, 1, 2>> = None::<Sz<8>>;
/// fn symbolic<'id>() {
///     let _: Option<Padded<Sym<'id, Seq>, 1, 2>> = None::<Plus<Sym<'id, Seq>, Sz<3>>>;
/// }
/// symbolic();
/// ```
pub type Padded<Z, const BEFORE: usize, const AFTER: usize> =
    SizeSum<Z, SizeSum<Sz<BEFORE>, Sz<AFTER>>>;

/// The `pad` positions of `S` for the axis at `pos`: PyTorch's list, the
/// last dim first.
fn pads(rank: usize, pos: usize, before: usize, after: usize) -> Vec<usize> {
    let mut list = vec![0; 2 * (rank - pos)];
    let at = 2 * (rank - 1 - pos);
    list[at] = before;
    list[at + 1] = after;
    list
}

impl<T: Element, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// `torch.nn.functional.pad` of the axis `A` by `BEFORE` elements
    /// before it and `AFTER` after it, in `mode`: `A`'s size grows by
    /// `BEFORE + AFTER` in the type. Any axis, any rank (PyTorch pads the
    /// last dims only in the modes other than constant).
    ///
    /// # Errors
    /// A reflection at least as long as the axis, a wrap longer than it,
    /// an edge to repeat in an empty axis (PyTorch's messages), or a
    /// failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Pad;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let y: Tensor<f32, shape![Rows: 2, Cols: 5]> = x.try_pad::<Cols, 1, 2>(Pad::Replicate)?;
    /// assert_eq!(y.to_vec(), vec![1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 4.0]);
    /// assert!(x.try_pad::<Cols, 2, 0>(Pad::Reflect).is_err()); // 2 is not less than 2
    /// # Ok::<(), axial::Error>(())
    /// ```
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn try_pad<A, const BEFORE: usize, const AFTER: usize>(
        &self,
        mode: Pad<T>,
    ) -> Result<
        Tensor<T, <S as ResizeAxis<A, Padded<<S as HasAxis<A>>::Size, BEFORE, AFTER>>>::Output, D>,
    >
    where
        S: HasAxis<A>,
        Sz<BEFORE>: SizeAdd<Sz<AFTER>>,
        <S as HasAxis<A>>::Size: SizeAdd<SizeSum<Sz<BEFORE>, Sz<AFTER>>>,
        S: ResizeAxis<A, Padded<<S as HasAxis<A>>::Size, BEFORE, AFTER>>,
    {
        let list = pads(S::RANK, <S as HasAxis<A>>::POS, BEFORE, AFTER);
        self.raw().pad(&list, mode.mode()).map(owned)
    }

    /// `torch.nn.functional.pad` of the axis `A` by `BEFORE` and `AFTER`
    /// elements (see [`try_pad`](Self::try_pad)).
    ///
    /// # Panics
    /// As [`try_pad`](Self::try_pad), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Pad;
    /// axes!(Seq);
    /// let x = Tensor::<f32, shape![Seq: 2]>::ones();
    /// let y: Tensor<f32, shape![Seq: 4]> = x.pad::<Seq, 0, 2>(Pad::Constant(-1.0));
    /// assert_eq!(y.to_vec(), vec![1.0, 1.0, -1.0, -1.0]);
    /// ```
    #[track_caller]
    #[expect(
        clippy::type_complexity,
        reason = "the output shape is spelled out for the docs"
    )]
    pub fn pad<A, const BEFORE: usize, const AFTER: usize>(
        &self,
        mode: Pad<T>,
    ) -> Tensor<T, <S as ResizeAxis<A, Padded<<S as HasAxis<A>>::Size, BEFORE, AFTER>>>::Output, D>
    where
        S: HasAxis<A>,
        Sz<BEFORE>: SizeAdd<Sz<AFTER>>,
        <S as HasAxis<A>>::Size: SizeAdd<SizeSum<Sz<BEFORE>, Sz<AFTER>>>,
        S: ResizeAxis<A, Padded<<S as HasAxis<A>>::Size, BEFORE, AFTER>>,
    {
        or_panic(self.try_pad::<A, BEFORE, AFTER>(mode))
    }

    /// `torch.nn.functional.pad` of the axis `A` by amounts known at run
    /// time: `A`'s size becomes `Dyn`.
    ///
    /// # Errors
    /// As [`try_pad`](Self::try_pad).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Pad;
    /// axes!(Seq);
    /// let x = Tensor::<i32, shape![Seq: 3]>::from_array([1, 2, 3]);
    /// let y = x.try_pad_by::<Seq>(1, 1, Pad::Circular)?; // shape![Seq: Dyn]
    /// assert_eq!(y.to_vec(), vec![3, 1, 2, 3, 1]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_pad_by<A>(
        &self,
        before: usize,
        after: usize,
        mode: Pad<T>,
    ) -> Result<Tensor<T, <S as ResizeAxis<A, Dyn>>::Output, D>>
    where
        S: ResizeAxis<A, Dyn>,
    {
        let list = pads(S::RANK, <S as HasAxis<A>>::POS, before, after);
        self.raw().pad(&list, mode.mode()).map(owned)
    }

    /// `torch.nn.functional.pad` of the axis `A` by amounts known at run
    /// time (see [`try_pad_by`](Self::try_pad_by)).
    ///
    /// # Panics
    /// As [`try_pad_by`](Self::try_pad_by), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Pad;
    /// axes!(Seq);
    /// let x = Tensor::<i32, shape![Seq: 2]>::from_array([1, 2]);
    /// assert_eq!(x.pad_by::<Seq>(0, 2, Pad::Replicate).to_vec(), vec![1, 2, 2, 2]);
    /// ```
    #[track_caller]
    pub fn pad_by<A>(
        &self,
        before: usize,
        after: usize,
        mode: Pad<T>,
    ) -> Tensor<T, <S as ResizeAxis<A, Dyn>>::Output, D>
    where
        S: ResizeAxis<A, Dyn>,
    {
        or_panic(self.try_pad_by::<A>(before, after, mode))
    }
}
