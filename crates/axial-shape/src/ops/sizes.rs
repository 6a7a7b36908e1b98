//! Run-time sizes: a shape's `Dyn` axes given at run time, and index arrays
//! with one coordinate per axis.

use generic_array::GenericArray;
use typenum::{Const, IsEqual, ToUInt, U, U0, U1};

use crate::logic::{Answer, B0, B1, Truth, TruthOf, Unknown};
use crate::report::{AllStatic, Coordinates, SizePerDyn, SymbolicSizes};
use crate::shape::Shape;
use crate::size::{Dyn, StaticSize, Sz};
use crate::symbol::{HasSymbols, NoSymbols};

use super::Disp;

/// Every size of the shape is static (none is `Dyn` or a symbol).
///
/// # Example
/// ```
/// use axial_shape::{StaticShape, axes, shape};
/// axes!(Rows);
/// fn ok<S: StaticShape>() {}
/// ok::<shape![Rows: 3, 4]>();
/// ```
pub trait StaticShape: Shape {}

impl<S: Shape + NoSymbols> StaticShape for S
where
    S::NumDyn: IsEqual<U0, Output: Answer>,
    TruthOf<<S::NumDyn as IsEqual<U0>>::Output>: AllStatic<Disp<S>>,
{
}

/// The run-time sizes of a shape's `Dyn` axes, in order: `()` when there are
/// none, a `usize` for one, `[usize; N]` for `N`. A shape with a symbolic
/// size has none ([`NoSymbols`]): its tensors come from `realize_in`.
///
/// ```
/// use axial_shape::{DynSizes, axes, shape};
/// axes!(Batch, Channels, Time);
/// type S = shape![Batch: Dyn, Channels: 3, Time: Dyn];
/// assert_eq!(DynSizes::<S>::sizes([2, 7]).as_slice(), &[2, 3, 7]);
/// assert_eq!(DynSizes::<shape![Batch: Dyn]>::sizes(5).as_slice(), &[5]);
/// ```
pub trait DynSizes<S: Shape> {
    /// Every size of the shape, the static ones from the type.
    fn sizes(self) -> GenericArray<usize, S::Rank>;
}

impl<S: StaticShape> DynSizes<S> for () {
    fn sizes(self) -> GenericArray<usize, S::Rank> {
        fill::<S>(&[])
    }
}

impl<S: Shape + HasSymbols> DynSizes<S> for usize
where
    S::Out: SizesGiven<usize, S>,
{
    fn sizes(self) -> GenericArray<usize, S::Rank> {
        fill::<S>(&[self])
    }
}

impl<S: Shape + HasSymbols, const N: usize> DynSizes<S> for [usize; N]
where
    S::Out: SizesGiven<[usize; N], S>,
{
    fn sizes(self) -> GenericArray<usize, S::Rank> {
        fill::<S>(&self)
    }
}

/// Run-time sizes `Given` fit the shape `S` (`Self`: whether `S` has a
/// symbolic size): none do when it has one (symbols come from
/// `realize_in`: that is the one error), else one per `Dyn` axis.
///
/// ```
/// use axial_shape::ops::SizesGiven;
/// use axial_shape::{B0, axes, shape};
/// axes!(Batch, Time);
/// fn fits<G, S>() where B0: SizesGiven<G, S> {}
/// fits::<usize, shape![Batch: Dyn, Time: 3]>();
/// fits::<[usize; 2], shape![Batch: Dyn, Time: Dyn]>();
/// ```
pub trait SizesGiven<Given, S> {}
impl<Given, S: Shape> SizesGiven<Given, S> for B1 where B1: SymbolicSizes<Disp<S>> {}
impl<S: Shape> SizesGiven<usize, S> for B0
where
    S::NumDyn: IsEqual<U1, Output: Answer>,
    TruthOf<<S::NumDyn as IsEqual<U1>>::Output>: SizePerDyn<usize, Disp<S>>,
{
}
impl<S: Shape, const N: usize> SizesGiven<[usize; N], S> for B0
where
    Const<N>: ToUInt,
    U<N>: IsEqual<S::NumDyn, Output: Answer>,
    TruthOf<<U<N> as IsEqual<S::NumDyn>>::Output>: SizePerDyn<[usize; N], Disp<S>>,
{
}

/// The static sizes of `S`, with its `Dyn` ones from `dyns` in order.
fn fill<S: Shape>(dyns: &[usize]) -> GenericArray<usize, S::Rank> {
    let mut statics: GenericArray<Option<usize>, S::Rank> = GenericArray::default();
    S::write_static_sizes(&mut statics);
    let mut dyns = dyns.iter().copied();
    GenericArray::from_iter(
        statics
            .iter()
            .map(|s| s.unwrap_or_else(|| dyns.next().unwrap_or_default())),
    )
}

/// An index with one coordinate per axis: `N` is the rank.
///
/// ```
/// use axial_shape::{RankIs, axes, shape};
/// axes!(Rows, Cols);
/// fn ok<S: RankIs<2>>() {}
/// ok::<shape![Rows: 2, Cols: 3]>();
/// ```
pub trait RankIs<const N: usize>: Shape {}

impl<S: Shape, const N: usize> RankIs<N> for S
where
    Const<N>: ToUInt,
    U<N>: IsEqual<S::Rank, Output: Answer>,
    TruthOf<<U<N> as IsEqual<S::Rank>>::Output>: Coordinates<N, Disp<S>>,
{
}

/// Whether an array extent `K` fits a size: known for a static size,
/// `Unknown` for `Dyn` (any extent fits; the size is taken from it).
///
/// ```
/// use axial_shape::{ExtentIs, Truth};
/// assert_eq!(<<typenum::U3 as ExtentIs<3>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<axial_shape::Dyn as ExtentIs<3>>::Out as Truth>::VALUE, None);
/// ```
pub trait ExtentIs<const K: usize> {
    /// The answer.
    type Out: Truth;
}
impl<const K: usize> ExtentIs<K> for Dyn {
    type Out = Unknown;
}
impl<Z: StaticSize, const K: usize> ExtentIs<K> for Z
where
    Sz<K>: StaticSize<Number: IsEqual<Z::Number, Output: Answer>>,
{
    type Out = TruthOf<<<Sz<K> as StaticSize>::Number as IsEqual<Z::Number>>::Output>;
}
