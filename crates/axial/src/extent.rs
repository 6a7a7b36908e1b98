//! Run-time sizes with their size type: an [`Extent<Z>`](Extent) is a
//! `usize` proven to be the size `Z`, so that a tensor can be made at a
//! symbolic size (`zeros_dyn(extent)`) and a view cut to one
//! (`narrow_to`), with no check.
//!
//! An extent of a symbol comes only from what proves it: a tensor's axis of
//! that size ([`extent`](TensorBase::extent)) or the scope's binding
//! ([`Scope::extent`]). Static ones are free (`Extent::from(Sz::<4>)`), as
//! are extents of `Dyn` (`Extent::from(n)`), and extents add as their
//! sizes do ([`SizeSum`]).

use std::fmt;
use std::marker::PhantomData;
use std::ops::Add;

use axial_core::Device;
use axial_shape::sum::{IsDyn, IsStatic, IsSymbolic, SizeKind};
use axial_shape::{
    Ax, Cons, Dyn, DynSizes, GenericArray, HasAxis, Nil, Shape, Size, SizeAdd, SizeSum, Sym,
    SymbolTag, Sz,
};

use crate::symbolic::Scope;
use crate::tensor::TensorBase;

/// A run-time size proven to be the size `Z` (see the module docs).
///
/// ```
/// use axial::prelude::*;
/// use axial::{Extent, Plus, Sz};
/// axes!(Past, Seq, Key, Model);
/// let cache = Tensor::<f32, shape![Key: Dyn, Model: 4]>::zeros_dyn(3);
/// let new = Tensor::<f32, shape![Seq: Dyn, Model: 4]>::zeros_dyn(2);
/// scope(|s| -> axial::Result<()> {
///     let cache = cache.realize_in::<shape![Key: Sym<'_, Past>, Model: 4]>(s)?;
///     let new = new.realize_in::<shape![Seq: Sym<'_, Seq>, Model: 4]>(s)?;
///     let total: Extent<Plus<Sym<'_, Past>, Sym<'_, Seq>>> = cache.extent::<Key>() + new.extent::<Seq>();
///     assert_eq!(total.get(), 5);
///     // A mask at the joined length, made with no check.
///     let mask = Tensor::<Bool, shape![Key: Plus<Sym<'_, Past>, Sym<'_, Seq>>]>::full_dyn(total, Bool::TRUE);
///     assert_eq!(mask.sizes().as_slice(), &[5]);
///     assert_eq!(Extent::from(Sz::<4>).get() + Extent::from(7).get(), 11);
///     Ok(())
/// })?;
/// # Ok::<(), axial::Error>(())
/// ```
pub struct Extent<Z> {
    n: usize,
    size: PhantomData<fn() -> Z>,
}

impl<Z> Extent<Z> {
    /// An extent whose size the caller has proven.
    pub(crate) fn proven(n: usize) -> Self {
        Extent {
            n,
            size: PhantomData,
        }
    }

    /// The size.
    ///
    /// ```
    /// use axial::{Extent, Sz};
    /// assert_eq!(Extent::from(Sz::<3>).get(), 3);
    /// ```
    pub fn get(self) -> usize {
        self.n
    }
}

impl<Z> Clone for Extent<Z> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Z> Copy for Extent<Z> {}
impl<Z> PartialEq for Extent<Z> {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n
    }
}
impl<Z> Eq for Extent<Z> {}
impl<Z> fmt::Debug for Extent<Z> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Extent({})", self.n)
    }
}

/// A static size is its own proof.
impl<const N: usize> From<Sz<N>> for Extent<Sz<N>>
where
    Sz<N>: Size,
{
    fn from(_: Sz<N>) -> Self {
        Extent::proven(N)
    }
}

/// Any size is a `Dyn` one.
impl From<usize> for Extent<Dyn> {
    fn from(n: usize) -> Self {
        Extent::proven(n)
    }
}

/// Extents add as their sizes do: `Extent<A> + Extent<B>` is an
/// `Extent<SizeSum<A, B>>` (saturating, as no tensor is that large).
impl<A: SizeAdd<B>, B> Add<Extent<B>> for Extent<A> {
    type Output = Extent<SizeSum<A, B>>;

    fn add(self, other: Extent<B>) -> Self::Output {
        Extent::proven(self.n.saturating_add(other.n))
    }
}

impl<T, S: Shape, D: Device, R> TensorBase<T, S, D, R> {
    /// The size of the axis `A`, with its size type: the proof of a
    /// symbolic size, to make other tensors at it.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let x = Tensor::<f32, shape![Rows: 2, Cols: Dyn]>::zeros_dyn(5);
    /// assert_eq!((x.extent::<Rows>().get(), x.extent::<Cols>().get()), (2, 5));
    /// let same = Tensor::<i64, shape![Cols: Dyn]>::zeros_dyn(x.extent::<Cols>());
    /// assert_eq!(same.sizes().as_slice(), &[5]);
    /// ```
    pub fn extent<A>(&self) -> Extent<<S as HasAxis<A>>::Size>
    where
        S: HasAxis<A>,
    {
        Extent::proven(self.layout.shape()[S::POS])
    }
}

impl<'id> Scope<'id> {
    /// The size bound to the symbol `Tag` in this scope, as the extent of
    /// `Sym<'id, Tag>` (`None` while unbound).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Ctx, Key, Model);
    /// scope(|s| {
    ///     assert!(s.extent::<Ctx>().is_none());
    ///     s.bind::<Ctx>(6)?;
    ///     let ctx = s.extent::<Ctx>().expect("bound above");
    ///     let keys = Tensor::<f32, shape![Key: Sym<'_, Ctx>, Model: 4]>::zeros_dyn(ctx);
    ///     assert_eq!(keys.sizes().as_slice(), &[6, 4]);
    ///     Ok::<(), axial::Error>(())
    /// })?;
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn extent<Tag: SymbolTag>(&self) -> Option<Extent<Sym<'id, Tag>>> {
        self.value::<Tag>().map(Extent::proven)
    }
}

/// The sizes of a shape known only at run time (`Dyn`, symbols and their
/// sums), in order: what a constructor takes one extent of each.
///
/// ```
/// use axial::prelude::*;
/// use axial::RuntimeAxes;
/// use axial::shape::{Cons, Nil};
/// axes!(Batch, Seq);
/// fn runtime<'id>() {
///     type L<'id> = <shape![Batch: Dyn, 3, Seq: Sym<'id, Seq>] as RuntimeAxes>::List;
///     let _: Option<L<'id>> = None::<Cons<Dyn, Cons<Sym<'id, Seq>, Nil>>>;
/// }
/// runtime();
/// ```
pub trait RuntimeAxes {
    /// The run-time sizes, a `Cons` list.
    type List;
}
impl RuntimeAxes for Nil {
    type List = Nil;
}
impl<N, Z: SizeKind, T: RuntimeAxes> RuntimeAxes for Ax<N, Z, T>
where
    Z::Kind: KeepRuntime<Z, T::List>,
{
    type List = <Z::Kind as KeepRuntime<Z, T::List>>::Out;
}

/// [`RuntimeAxes`] of one size, by its kind.
pub trait KeepRuntime<Z, Rest> {
    /// The list from here on.
    type Out;
}
impl<Z, Rest> KeepRuntime<Z, Rest> for IsStatic {
    type Out = Rest;
}
impl<Z, Rest> KeepRuntime<Z, Rest> for IsDyn {
    type Out = Cons<Z, Rest>;
}
impl<Z, Rest> KeepRuntime<Z, Rest> for IsSymbolic {
    type Out = Cons<Z, Rest>;
}

/// Every size of `S`, the run-time ones from `given` in order.
fn filled<S: Shape>(given: &[usize]) -> GenericArray<usize, S::Rank> {
    let mut statics = GenericArray::<Option<usize>, S::Rank>::default();
    S::write_static_sizes(&mut statics);
    let mut given = given.iter().copied();
    GenericArray::from_iter(
        statics
            .iter()
            .map(|s| s.unwrap_or_else(|| given.next().unwrap_or_default())),
    )
}

/// The extents given are the run-time sizes of the shape, in order
/// (`Self`: the shape's run-time sizes).
///
/// ```
/// use axial::prelude::*;
/// use axial::ExtentsFit;
/// use axial::shape::{Cons, Nil};
/// fn fits<L: ExtentsFit<Given, Disp>, Given, Disp>() {}
/// fits::<Cons<Dyn, Nil>, Cons<Dyn, Nil>, ()>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the extents given do not fit the run-time sizes of `{Disp}`",
    label = "one extent per run-time size is needed, each of that size",
    note = "a shape of `{Disp}` takes the extents of its run-time sizes `{Self}` in order, as `Extents((a, b))` for two; this gives `{Given}`"
)]
pub trait ExtentsFit<Given, Disp> {}
impl<L, Disp> ExtentsFit<L, Disp> for L {}

/// One extent for a shape of one run-time axis.
impl<S: Shape + RuntimeAxes, Z> DynSizes<S> for Extent<Z>
where
    S::List: ExtentsFit<Cons<Z, Nil>, S::Display>,
{
    fn sizes(self) -> GenericArray<usize, S::Rank> {
        filled::<S>(&[self.n])
    }
}

/// Extents of several run-time axes, one per axis in order, as a tuple:
/// `Extents((rows, cols))`.
///
/// ```
/// use axial::prelude::*;
/// use axial::{Extent, Extents};
/// axes!(Seq, Key);
/// let q = Tensor::<f32, shape![Seq: Dyn]>::zeros_dyn(2);
/// let k = Tensor::<f32, shape![Key: Dyn]>::zeros_dyn(3);
/// let mask = Tensor::<Bool, shape![Seq: Dyn, Key: Dyn]>::full_dyn(Extents((q.extent::<Seq>(), k.extent::<Key>())), Bool::TRUE);
/// assert_eq!(mask.sizes().as_slice(), &[2, 3]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extents<T>(pub T);

macro_rules! extent_tuples {
    ($(($($z:ident $e:ident),+): $list:ty;)*) => {$(
        impl<S: Shape + RuntimeAxes, $($z),+> DynSizes<S> for Extents<($(Extent<$z>,)+)>
        where
            S::List: ExtentsFit<$list, S::Display>,
        {
            fn sizes(self) -> GenericArray<usize, S::Rank> {
                let ($($e,)+) = self.0;
                filled::<S>(&[$($e.n),+])
            }
        }
    )*};
}
extent_tuples! {
        (Z1 a, Z2 b): Cons<Z1, Cons<Z2, Nil>>;
    (Z1 a, Z2 b, Z3 c): Cons<Z1, Cons<Z2, Cons<Z3, Nil>>>;
    (Z1 a, Z2 b, Z3 c, Z4 d): Cons<Z1, Cons<Z2, Cons<Z3, Cons<Z4, Nil>>>>;
}
