//! Axis names: marker types declared with `axes!`, anonymous positions, and
//! the items of a names list (`New<Name>`, `...`, `_`).

use core::marker::PhantomData;

use typenum::{Const, ToUInt, U};

use crate::id::{Gone, IdEq, Pos};
use crate::logic::Truth;

/// A zero-sized type that names an axis. Declare names with `axes!`, which
/// also gives each its identity; do not implement this by hand.
///
/// # Example
/// ```
/// use axial_shape::{Anon, AxisName, axes};
/// axes!(Rows);
/// assert_eq!(Rows::NAME, Some("Rows"));
/// assert_eq!(<Anon<1>>::NAME, None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an axis name",
    label = "not an axis name",
    note = "declare axis names with `axes!(Name, ...)`; the anonymous axes of `shape![3, 4]` are `Anon<0>`, `Anon<1>`"
)]
pub trait AxisName: 'static {
    /// The name as printed (`None` for an anonymous axis, like PyTorch's `None`).
    const NAME: Option<&'static str>;
    /// The identity names are compared by (see the `id` module).
    #[doc(hidden)]
    type Id;
}

/// The anonymous axis at position `I` of a `shape!` (`shape![3, 4]` has
/// `Anon<0>` and `Anon<1>`). It keeps its marker when views move it, and can be
/// named later with `refine_names`.
///
/// ```
/// use axial_shape::{Anon, AxisName};
/// assert!(<Anon<0>>::NAME.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Anon<const I: usize>;

impl<const I: usize> AxisName for Anon<I>
where
    Const<I>: ToUInt,
    U<I>: 'static,
{
    const NAME: Option<&'static str> = None;
    type Id = Pos<U<I>>;
}

/// In a names list: a new axis of size 1 named `A` (as PyTorch's `align_to`
/// did for a name the tensor lacks).
///
/// ```
/// use axial_shape::{New, names, axes};
/// axes!(N, H, C);
/// type Nhc = names![N, New<H>, C];
/// ```
pub struct New<A>(PhantomData<fn() -> A>);

/// In a names list: `...`, the axes not named, in their order.
///
/// ```
/// use axial_shape::{Cons, Ellipsis, Nil, names};
/// let _: Option<names![...]> = None::<Cons<Ellipsis, Nil>>;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ellipsis;

/// In a names list: `_`, the axis kept as it is.
///
/// ```
/// use axial_shape::{Cons, Keep, Nil, names};
/// let _: Option<names![_]> = None::<Cons<Keep, Nil>>;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Keep;

/// An axis already taken by an alignment, in the shape being aligned.
pub struct Taken<A>(PhantomData<fn() -> A>);

impl<A: AxisName> AxisName for Taken<A> {
    const NAME: Option<&'static str> = A::NAME;
    type Id = Gone;
}

/// `Out` is `B1` when `Self` and `B` are the same name, else `B0`.
///
/// ```
/// use axial_shape::{SameName, Truth, axes};
/// axes!(Rows, Cols);
/// assert_eq!(<<Rows as SameName<Rows>>::Out as Truth>::VALUE, Some(true));
/// assert_eq!(<<Rows as SameName<Cols>>::Out as Truth>::VALUE, Some(false));
/// ```
pub trait SameName<B> {
    /// The answer.
    type Out: Truth;
}

impl<A: AxisName, B: AxisName> SameName<B> for A
where
    A::Id: IdEq<B::Id>,
{
    type Out = <A::Id as IdEq<B::Id>>::Out;
}

/// What a names-list item is: an axis name, `New<_>`, `...` or `_`.
///
/// ```
/// use axial_shape::{Ellipsis, Item};
/// fn item<I: Item>() {}
/// item::<Ellipsis>();
/// ```
pub trait Item {
    /// One of the `Is*` kinds below.
    type Kind;
}
/// [`Item::Kind`] of an axis name.
pub struct IsName;
/// [`Item::Kind`] of [`New`].
pub struct IsNew;
/// [`Item::Kind`] of [`Ellipsis`].
pub struct IsEllipsis;
/// [`Item::Kind`] of [`Keep`].
pub struct IsKeep;

impl<A: AxisName> Item for A {
    type Kind = IsName;
}
impl<A> Item for New<A> {
    type Kind = IsNew;
}
impl Item for Ellipsis {
    type Kind = IsEllipsis;
}
impl Item for Keep {
    type Kind = IsKeep;
}
