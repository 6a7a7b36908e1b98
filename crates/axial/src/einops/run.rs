//! What the einops macros call: the pattern's types proven against the
//! tensor's shape (the `where` clauses), then einops' recipe run on the
//! layout, the result kept in the input's storage when einops' is a view;
//! on a tracked tensor, the recipe's steps recorded ([`Subject`]).

use axial_core::einops;
use axial_core::{Backend, Element, Error, Layout, MaybeOwned, RawTensor, Result, TensorRef};
use axial_shape::einops::Einops;

use super::input::Input;
use super::recipe::RecipeCell;
use super::subject::{Subject, Untracked};
use crate::access::owned;
use crate::float::Float;
use crate::ops::ResultTypes;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// The output shape of the pattern on the input `X`.
pub(super) type Out<X, Left, Right, News, Pat> =
    <<X as Subject>::Shape as Einops<Left, Right, News, Pat>>::Output;
/// The tensor type of the input `X`.
type Of<X, Out, Repr> = TensorBase<<X as Input>::Elem, Out, <X as Input>::Device, Repr>;
/// The storage kind of the input `X`.
type ReprOf<X> = <X as Input>::Repr;
/// The device of the input `X`.
type DeviceOf<X> = <X as Input>::Device;
/// The result in the input's storage kind.
pub(super) type Viewed<X, S> = Of<X, S, ReprOf<X>>;
/// The result of an op that may copy.
pub(super) type Copied<X, S> = Of<X, S, MaybeCopy<X>>;
/// The result of a broadcast view.
pub(super) type Broadcast<X, S> = Of<X, S, ReadOnly<X>>;
/// The result of a broadcast that may copy.
pub(super) type BroadcastCopied<X, S> = Of<X, S, Repeated<X>>;
/// What [`rearrange_view`] gives.
type ViewOf<X, L, R, N, P> = <X as Subject>::View<Out<X, L, R, N, P>>;
/// What [`rearrange`] gives.
type CopyOf<X, L, R, N, P> = <X as Subject>::Copied<Out<X, L, R, N, P>>;
/// What [`repeat_view`] gives.
type BroadcastOf<X, L, R, N, P> = <X as Subject>::Broadcast<Out<X, L, R, N, P>>;
/// What [`repeat`] gives.
type RepeatOf<X, L, R, N, P> = <X as Subject>::BroadcastCopied<Out<X, L, R, N, P>>;
/// What a reduction to `U` that keeps nothing gives.
type ReducedOf<X, U, L, R, N, P> = <X as Subject>::Reduced<U, Out<X, L, R, N, P>>;
/// What a reduction to `U` that keeps its output gives.
type KeptOf<X, U, L, R, N, P> = <X as Subject>::Kept<U, Out<X, L, R, N, P>>;
/// What [`reduce_any`] gives.
type AnyOf<X, L, R, N, P> = Tensor<AnyAllOf<X>, Out<X, L, R, N, P>, <X as Untracked>::Device>;
/// The element type of a `sum` or `prod` of the input `X`.
type SumOf<X> = <<X as Subject>::Elem as ResultTypes>::Sum;
/// The element type of an `any` or `all` of the input `X`.
type AnyAllOf<X> = <<X as Subject>::Elem as ResultTypes>::AllAny;

/// The result of the recipe: a layout over the input's storage, or a new tensor.
enum Ran<D: Backend> {
    View(Layout),
    Copy(RawTensor<D>),
}

/// Runs `cell`'s recipe on `x` with `sizes`.
fn run<T: Element, S, D: Backend, R: Data<D>>(
    x: &TensorBase<T, S, D, R>,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<Ran<D>> {
    let recipe = cell.get()?;
    Ok(match einops::apply(&x.raw(), recipe, sizes)? {
        MaybeOwned::View(v) => Ran::View(v.layout().clone()),
        MaybeOwned::Owned(o) => Ran::Copy(o),
    })
}

/// Runs `cell`'s recipe on `x` where the pattern's types promise a view
/// (splitting and dropping size-1 axes, permuting, and adding axes are all
/// views): the view's layout; a copy is an internal error.
fn run_view<T: Element, S, D: Backend, R: Data<D>>(
    x: &TensorBase<T, S, D, R>,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<Layout> {
    match run(x, cell, sizes)? {
        Ran::View(layout) => Ok(layout),
        Ran::Copy(_) => {
            let pattern = cell
                .get()
                .map(|r| r.pattern().to_owned())
                .unwrap_or_default();
            Err(Error::invalid(
                "einops",
                format!("internal error: \"{pattern}\" copied where a view was expected"),
            ))
        }
    }
}

/// The untracked forms, for [`Subject`]'s impl on every [`Input`]: the
/// result's shape `S` is the one the public functions proved.
pub(super) mod untracked {
    use super::*;

    /// Always a view, in the input's storage kind.
    pub(in crate::einops) fn rearrange_view<S, X: Input>(
        x: X,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Viewed<X, S>> {
        let x = x.tensor()?;
        let layout = run_view(&x, cell, sizes)?;
        Ok(x.relayout(layout))
    }

    /// A view when einops' is, else a copy.
    pub(in crate::einops) fn rearrange<S, X: Input>(
        x: X,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Copied<X, S>> {
        let x = x.tensor()?;
        Ok(match run(&x, cell, sizes)? {
            Ran::View(layout) => TensorBase::from_parts(x.data.keep(), layout),
            Ran::Copy(copy) => {
                let (storage, layout, _) = copy.into_parts();
                TensorBase::from_parts(<ReprOf<X>>::copied(storage), layout)
            }
        })
    }

    /// A read-only view.
    pub(in crate::einops) fn repeat_view<S, X: Input>(
        x: X,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Broadcast<X, S>> {
        rearrange_view::<S, X>(x, cell, sizes).map(TensorBase::frozen)
    }

    /// Read-only, a view when einops' is.
    pub(in crate::einops) fn repeat<S, X: Input>(
        x: X,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<BroadcastCopied<X, S>> {
        rearrange::<S, X>(x, cell, sizes).map(TensorBase::frozen)
    }

    /// A new tensor of `U` (a view when nothing is reduced is copied, and
    /// cast when the reduction's dtype differs from `U`, so the result's
    /// dtype never depends on the rank `...` covers).
    pub(in crate::einops) fn reduce<U: Element, S, X: Input>(
        x: X,
        cell: &RecipeCell,
        sizes: &[usize],
    ) -> Result<Tensor<U, S, DeviceOf<X>>> {
        let x = x.tensor()?;
        let raw = match run(&x, cell, sizes)? {
            Ran::View(layout) => {
                let view = x.raw();
                TensorRef::new(view.storage(), layout, view.dtype())?.to_dtype(U::DTYPE)?
            }
            Ran::Copy(copy) if copy.dtype() != U::DTYPE => copy.view().to_dtype(U::DTYPE)?,
            Ran::Copy(copy) => copy,
        };
        Ok(owned(raw))
    }
}

/// `rearrange!` whose output merges no axes: always a view, in the input's
/// storage kind (a mutable view stays writable); on a tracked tensor, the
/// view recorded, of its access.
///
/// # Errors
/// A run-time size that does not fit (einops' message).
pub fn rearrange_view<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<ViewOf<X, Left, Right, News, Pat>>
where
    X: Subject,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    x.rearrange_view(cell, sizes)
}

/// `rearrange!` whose output merges axes: a view when einops' is, else a
/// copy; on a tracked tensor, either recorded (the copy's gradient is
/// reshaped back).
///
/// # Errors
/// A run-time size that does not fit (einops' message), or the device
/// failed to copy.
pub fn rearrange<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<CopyOf<X, Left, Right, News, Pat>>
where
    X: Subject,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    x.rearrange(cell, sizes)
}

/// `repeat!` whose output merges no axes: a read-only view (the repeated
/// axes have stride 0); on a tracked tensor, an expand whose gradient sums
/// the copies.
///
/// # Errors
/// A run-time size that does not fit (einops' message).
pub fn repeat_view<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<BroadcastOf<X, Left, Right, News, Pat>>
where
    X: Subject,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    x.repeat_view(cell, sizes)
}

/// The storage kind of a result that may be a copy.
type MaybeCopy<X> = <ReprOf<X> as Data<DeviceOf<X>>>::MaybeCopy;
/// The storage kind of a read-only view.
type ReadOnly<X> = <ReprOf<X> as Data<DeviceOf<X>>>::ReadOnly;
/// The storage kind of [`repeat`]'s result.
type Repeated<X> = <MaybeCopy<X> as Data<DeviceOf<X>>>::ReadOnly;

/// `repeat!` whose output merges axes: read-only, a view when einops' is
/// (a repeated axis merged with another is copied); on a tracked tensor,
/// recorded.
///
/// # Errors
/// A run-time size that does not fit (einops' message), or the device
/// failed to copy.
pub fn repeat<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<RepeatOf<X, Left, Right, News, Pat>>
where
    X: Subject,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    x.repeat(cell, sizes)
}

/// `reduce!` by `min` or `max`: the input's dtype; on a tracked tensor,
/// `amin`/`amax` with PyTorch's tie rule (equal shares), which keep their
/// output.
///
/// # Errors
/// As [`rearrange`]; an empty reduced axis (no minimum).
pub fn reduce_same<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<KeptOf<X, <X as Subject>::Elem, Left, Right, News, Pat>>
where
    X: Subject,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    x.reduce_kept::<X::Elem, _>(cell, sizes)
}

/// An element type `reduce!` can take the mean of: a float (einops refuses
/// the others at run time; here they do not compile).
///
/// ```
/// use axial::__private::MeanElement;
/// fn mean_of<T: MeanElement>() {}
/// mean_of::<f32>();
/// ```
#[diagnostic::on_unimplemented(
    message = "reduce_mean is not available for non-floating tensors: `{Self}` is not a floating-point type",
    label = "`mean` of `{Self}` elements",
    note = "cast first with `.cast::<f32>()`, or reduce by `sum`"
)]
pub trait MeanElement: Float {}
impl MeanElement for half::f16 {}
impl MeanElement for half::bf16 {}
impl MeanElement for f32 {}
impl MeanElement for f64 {}

/// `reduce!` by `mean`: floats only (integers are a compile error, as
/// einops' `reduce_mean is not available for non-floating tensors`).
///
/// # Errors
/// As [`rearrange`].
pub fn reduce_mean<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<ReducedOf<X, <X as Subject>::Elem, Left, Right, News, Pat>>
where
    X: Subject,
    X::Elem: MeanElement,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    x.reduce::<X::Elem, _>(cell, sizes)
}

/// `reduce!` by `sum`: integers and bools give `i64`.
///
/// # Errors
/// As [`rearrange`].
pub fn reduce_sum<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<ReducedOf<X, SumOf<X>, Left, Right, News, Pat>>
where
    X: Subject,
    X::Elem: ResultTypes,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    x.reduce::<SumOf<X>, _>(cell, sizes)
}

/// `reduce!` by `prod`: integers and bools give `i64`; on a tracked
/// tensor, PyTorch's `prod` backward, which keeps the input and output.
///
/// # Errors
/// As [`rearrange`].
pub fn reduce_prod<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<KeptOf<X, SumOf<X>, Left, Right, News, Pat>>
where
    X: Subject,
    X::Elem: ResultTypes,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    x.reduce_kept::<SumOf<X>, _>(cell, sizes)
}

/// `reduce!` by `any` or `all`: bools (`u8` stays `u8`). They have no
/// derivative, so a tracked tensor does not compile ([`Untracked`]).
///
/// # Errors
/// As [`rearrange`].
pub fn reduce_any<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<AnyOf<X, Left, Right, News, Pat>>
where
    X: Untracked,
    X::Elem: ResultTypes,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    x.reduce_untracked::<AnyAllOf<X>, _>(cell, sizes)
}
