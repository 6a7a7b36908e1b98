//! What the einops macros call: the pattern's types proven against the
//! tensor's shape (the `where` clauses), then einops' recipe run on the
//! layout, the result kept in the input's storage when einops' is a view.

use axial_core::einops;
use axial_core::{Backend, Element, Error, Layout, MaybeOwned, RawTensor, Result, Storage};
use axial_shape::einops::Einops;

use super::recipe::RecipeCell;
use crate::access::owned;
use crate::float::Float;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// The output shape of the pattern on the shape `S`.
type Out<S, Left, Right, News, Pat> = <S as Einops<Left, Right, News, Pat>>::Output;

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
    Ok(match einops::apply(&x.raw()?, recipe, sizes)? {
        MaybeOwned::View(v) => Ran::View(v.layout().clone()),
        MaybeOwned::Owned(o) => Ran::Copy(o),
    })
}

/// A copy where the pattern's types promise a view (never: splitting and
/// dropping size-1 axes, permuting, and adding axes are all views).
fn not_a_view(cell: &RecipeCell) -> Error {
    let pattern = cell
        .get()
        .map(|r| r.pattern().to_owned())
        .unwrap_or_default();
    Error::invalid(
        "einops",
        format!("internal error: \"{pattern}\" copied where a view was expected"),
    )
}

fn storage<D: Backend>(copy: RawTensor<D>) -> (Storage<D>, Layout) {
    let (storage, layout, _) = copy.into_parts();
    (storage, layout)
}

/// `rearrange!` whose output merges no axes: always a view, in the input's
/// storage kind (a mutable view stays writable).
///
/// # Errors
/// A run-time size that does not fit (einops' message).
pub fn rearrange_view<Left, Right, News, Pat, T, S, D, R>(
    x: TensorBase<T, S, D, R>,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<TensorBase<T, Out<S, Left, Right, News, Pat>, D, R>>
where
    T: Element,
    S: Einops<Left, Right, News, Pat>,
    D: Backend,
    R: Data<D>,
{
    match run(&x, cell, sizes)? {
        Ran::View(layout) => Ok(x.relayout(layout)),
        Ran::Copy(_) => Err(not_a_view(cell)),
    }
}

/// `rearrange!` whose output merges axes: a view when einops' is, else a copy.
///
/// # Errors
/// A run-time size that does not fit (einops' message), or the device
/// failed to copy.
pub fn rearrange<Left, Right, News, Pat, T, S, D, R>(
    x: TensorBase<T, S, D, R>,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<TensorBase<T, Out<S, Left, Right, News, Pat>, D, R::MaybeCopy>>
where
    T: Element,
    S: Einops<Left, Right, News, Pat>,
    D: Backend,
    R: Data<D>,
{
    Ok(match run(&x, cell, sizes)? {
        Ran::View(layout) => TensorBase::from_parts(x.data.keep(), layout),
        Ran::Copy(copy) => {
            let (storage, layout) = storage(copy);
            TensorBase::from_parts(R::copied(storage), layout)
        }
    })
}

/// `repeat!` whose output merges no axes: a read-only view (the repeated
/// axes have stride 0).
///
/// # Errors
/// A run-time size that does not fit (einops' message).
pub fn repeat_view<Left, Right, News, Pat, T, S, D, R>(
    x: TensorBase<T, S, D, R>,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<TensorBase<T, Out<S, Left, Right, News, Pat>, D, R::ReadOnly>>
where
    T: Element,
    S: Einops<Left, Right, News, Pat>,
    D: Backend,
    R: Data<D>,
{
    match run(&x, cell, sizes)? {
        Ran::View(layout) => Ok(TensorBase::from_parts(x.data.freeze(), layout)),
        Ran::Copy(_) => Err(not_a_view(cell)),
    }
}

/// The storage kind of [`repeat`]'s result.
type Repeated<D, R> = <<R as Data<D>>::MaybeCopy as Data<D>>::ReadOnly;

/// `repeat!` whose output merges axes: read-only, a view when einops' is
/// (a repeated axis merged with another is copied).
///
/// # Errors
/// A run-time size that does not fit (einops' message), or the device
/// failed to copy.
pub fn repeat<Left, Right, News, Pat, T, S, D, R>(
    x: TensorBase<T, S, D, R>,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<TensorBase<T, Out<S, Left, Right, News, Pat>, D, Repeated<D, R>>>
where
    T: Element,
    S: Einops<Left, Right, News, Pat>,
    D: Backend,
    R: Data<D>,
{
    Ok(match run(&x, cell, sizes)? {
        Ran::View(layout) => TensorBase::from_parts(x.data.keep().freeze(), layout),
        Ran::Copy(copy) => {
            let (storage, layout) = storage(copy);
            TensorBase::from_parts(R::copied(storage).freeze(), layout)
        }
    })
}

/// `reduce!`: a new tensor of `U` (a view when nothing is reduced is copied,
/// and cast when the reduction's dtype differs from `U`, so the result's
/// dtype never depends on the rank `...` covers).
fn reduced<U: Element, Left, Right, News, Pat, T, S, D, R>(
    x: TensorBase<T, S, D, R>,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<Tensor<U, Out<S, Left, Right, News, Pat>, D>>
where
    T: Element,
    S: Einops<Left, Right, News, Pat>,
    D: Backend,
    R: Data<D>,
{
    let raw = match run(&x, cell, sizes)? {
        Ran::View(layout) => {
            let view = x.raw()?;
            let view = axial_core::TensorRef::new(view.storage(), layout, T::DTYPE)?;
            view.to_dtype(U::DTYPE)?
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
pub fn reduce_same<Left, Right, News, Pat, T, S, D, R>(
    x: TensorBase<T, S, D, R>,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<Tensor<T, Out<S, Left, Right, News, Pat>, D>>
where
    T: Element,
    S: Einops<Left, Right, News, Pat>,
    D: Backend,
    R: Data<D>,
{
    reduced::<T, Left, Right, News, Pat, T, S, D, R>(x, cell, sizes)
}

/// `reduce!` by `mean`: floats only (integers are a compile error, as
/// einops' `reduce_mean is not available for non-floating tensors`).
///
/// # Errors
/// As [`rearrange`].
pub fn reduce_mean<Left, Right, News, Pat, T, S, D, R>(
    x: TensorBase<T, S, D, R>,
    cell: &RecipeCell,
    sizes: &[usize],
) -> Result<Tensor<T, Out<S, Left, Right, News, Pat>, D>>
where
    T: Float,
    S: Einops<Left, Right, News, Pat>,
    D: Backend,
    R: Data<D>,
{
    reduced::<T, Left, Right, News, Pat, T, S, D, R>(x, cell, sizes)
}
