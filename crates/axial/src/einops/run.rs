//! What the einops macros call: the pattern's types proven against the
//! tensor's shape (the `where` clauses), then einops' recipe run on the
//! layout, the result kept in the input's storage when einops' is a view.

use axial_core::einops;
use axial_core::{Backend, Element, Error, Layout, MaybeOwned, RawTensor, Result, TensorRef};
use axial_shape::einops::Einops;

use super::input::Input;
use super::recipe::RecipeCell;
use crate::access::owned;
use crate::float::Float;
use crate::ops::ResultTypes;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// The output shape of the pattern on the input `X`.
type Out<X, Left, Right, News, Pat> =
    <<X as Input>::Shape as Einops<Left, Right, News, Pat>>::Output;
/// The tensor type of the input `X`.
type Of<X, Out, Repr> = TensorBase<<X as Input>::Elem, Out, <X as Input>::Device, Repr>;
/// The storage kind of the input `X`.
type ReprOf<X> = <X as Input>::Repr;
/// The device of the input `X`.
type DeviceOf<X> = <X as Input>::Device;
/// The result in the input's storage kind.
type Viewed<X, L, Ri, N, P> = Of<X, Out<X, L, Ri, N, P>, ReprOf<X>>;
/// The result of an op that may copy.
type Copied<X, L, Ri, N, P> = Of<X, Out<X, L, Ri, N, P>, MaybeCopy<X>>;
/// The result of a broadcast view.
type Broadcast<X, L, Ri, N, P> = Of<X, Out<X, L, Ri, N, P>, ReadOnly<X>>;
/// The result of a broadcast that may copy.
type BroadcastCopied<X, L, Ri, N, P> = Of<X, Out<X, L, Ri, N, P>, Repeated<X>>;
/// A new tensor of `U`.
type New<U, X, L, Ri, N, P> = Tensor<U, Out<X, L, Ri, N, P>, DeviceOf<X>>;
/// The element type of a `sum` or `prod` of the input `X`.
type SumOf<X> = <<X as Input>::Elem as ResultTypes>::Sum;
/// The element type of an `any` or `all` of the input `X`.
type AnyAllOf<X> = <<X as Input>::Elem as ResultTypes>::AllAny;

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

/// `rearrange!` whose output merges no axes: always a view, in the input's
/// storage kind (a mutable view stays writable).
///
/// # Errors
/// A run-time size that does not fit (einops' message).
pub fn rearrange_view<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<Viewed<X, Left, Right, News, Pat>>
where
    X: Input,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    let x = x.tensor()?;
    let layout = run_view(&x, cell, sizes)?;
    Ok(x.relayout(layout))
}

/// `rearrange!` whose output merges axes: a view when einops' is, else a copy.
///
/// # Errors
/// A run-time size that does not fit (einops' message), or the device
/// failed to copy.
pub fn rearrange<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<Copied<X, Left, Right, News, Pat>>
where
    X: Input,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    let x = x.tensor()?;
    Ok(match run(&x, cell, sizes)? {
        Ran::View(layout) => TensorBase::from_parts(x.data.keep(), layout),
        Ran::Copy(copy) => {
            let (storage, layout, _) = copy.into_parts();
            TensorBase::from_parts(<ReprOf<X>>::copied(storage), layout)
        }
    })
}

/// `repeat!` whose output merges no axes: a read-only view (the repeated
/// axes have stride 0).
///
/// # Errors
/// A run-time size that does not fit (einops' message).
pub fn repeat_view<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<Broadcast<X, Left, Right, News, Pat>>
where
    X: Input,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    rearrange_view(x, cell, sizes).map(TensorBase::frozen)
}

/// The storage kind of a result that may be a copy.
type MaybeCopy<X> = <ReprOf<X> as Data<DeviceOf<X>>>::MaybeCopy;
/// The storage kind of a read-only view.
type ReadOnly<X> = <ReprOf<X> as Data<DeviceOf<X>>>::ReadOnly;
/// The storage kind of [`repeat`]'s result.
type Repeated<X> = <MaybeCopy<X> as Data<DeviceOf<X>>>::ReadOnly;

/// `repeat!` whose output merges axes: read-only, a view when einops' is
/// (a repeated axis merged with another is copied).
///
/// # Errors
/// A run-time size that does not fit (einops' message), or the device
/// failed to copy.
pub fn repeat<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<BroadcastCopied<X, Left, Right, News, Pat>>
where
    X: Input,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    rearrange(x, cell, sizes).map(TensorBase::frozen)
}

/// `reduce!`: a new tensor of `U` (a view when nothing is reduced is copied,
/// and cast when the reduction's dtype differs from `U`, so the result's
/// dtype never depends on the rank `...` covers).
fn reduced<U: Element, Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<New<U, X, Left, Right, News, Pat>>
where
    X: Input,
    X::Shape: Einops<Left, Right, News, Pat>,
{
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

/// `reduce!` by `min` or `max`: the input's dtype.
///
/// # Errors
/// As [`rearrange`]; an empty reduced axis (no minimum).
pub fn reduce_same<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<New<X::Elem, X, Left, Right, News, Pat>>
where
    X: Input,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    reduced::<X::Elem, Left, Right, News, Pat, X>(x, cell, sizes)
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
) -> Result<New<X::Elem, X, Left, Right, News, Pat>>
where
    X: Input,
    X::Elem: MeanElement,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    reduced::<X::Elem, Left, Right, News, Pat, X>(x, cell, sizes)
}

/// `reduce!` by `sum` or `prod`: integers and bools give `i64`.
///
/// # Errors
/// As [`rearrange`].
pub fn reduce_sum<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<New<SumOf<X>, X, Left, Right, News, Pat>>
where
    X: Input,
    X::Elem: ResultTypes,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    reduced::<SumOf<X>, Left, Right, News, Pat, X>(x, cell, sizes)
}

/// `reduce!` by `any` or `all`: bools (`u8` stays `u8`).
///
/// # Errors
/// As [`rearrange`].
pub fn reduce_any<Left, Right, News, Pat, X>(
    x: X,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<New<AnyAllOf<X>, X, Left, Right, News, Pat>>
where
    X: Input,
    X::Elem: ResultTypes,
    X::Shape: Einops<Left, Right, News, Pat>,
{
    reduced::<AnyAllOf<X>, Left, Right, News, Pat, X>(x, cell, sizes)
}
