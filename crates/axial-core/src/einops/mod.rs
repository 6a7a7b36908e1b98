//! einops on the untyped core: `rearrange`, `reduce` and `repeat` run einops'
//! torch-backend recipe (reshape to the elementary axes, permute, reduce,
//! unsqueeze and expand with stride 0, reshape to the output), so the result
//! is a view exactly where einops' is; `einsum` is lowered to batched matmul;
//! errors are einops' words, wrapped as einops wraps them.
//!
//! The grammar and the checks live in [`axial_pattern`] (re-exported here), so
//! a pattern can be parsed and checked once ([`Pattern::parse`],
//! [`Recipe::new`], [`Einsum::new`]) and run many times ([`apply`],
//! [`apply_einsum`]).
//!
//! # Example
//! ```
//! use axial_core::einops::{self, Reduction};
//! use axial_core::{DType, RawTensor};
//! let x = RawTensor::arange(0.0, 24.0, 1.0, DType::F32)?;
//! let x = x.view().view(&[2, 3, 4])?;
//! let y = einops::rearrange(&x, "b c (h w) -> b h w c", &[("w", 2)])?;
//! assert_eq!(y.as_ref().shape(), &[2, 2, 2, 3]);
//! assert!(y.is_view());
//! let err = einops::rearrange(&x, "b c (h w) -> b h w c", &[("w", 3)]).err().unwrap();
//! assert_eq!(
//!     err.to_string(),
//!     " Error while processing rearrange-reduction pattern \"b c (h w) -> b h w c\".\n Input tensor shape: [2, 3, 4]. Additional info: {'w': 3}.\n Shape mismatch, can't divide axis of length 4 in chunks of 3"
//! );
//! # Ok::<(), axial_core::Error>(())
//! ```

mod contract;
mod einsum;
mod shape;
mod stack;
mod steps;
mod tracked;

pub use axial_pattern::{
    Atom, AxisName, Dim, Einsum, ErrorKind, Expression, Operation, Options, Pattern, PatternError,
    Recipe, Reduction, Span, Subscript, Transform, validate_einsum, validate_rearrange,
    validate_reduce, validate_repeat,
};
pub use einsum::{apply_einsum, einsum};
pub use shape::parse_shape;
pub use stack::stack;
pub use tracked::{apply_einsum_tracked, apply_tracked};

pub use crate::error::EinopsError;

use crate::{Backend, Error, MaybeOwned, RawTensor, Result, TensorRef};

/// `einops.rearrange(x, pattern, **sizes)`: a view whenever einops' (torch)
/// result is one, else a new tensor.
///
/// # Errors
/// [`Error::Einops`]: a pattern einops refuses, a rank or sizes that do not
/// fit it.
///
/// ```
/// # use axial_core::{DType, RawTensor, einops};
/// let x = RawTensor::zeros(&[2, 3, 4, 5], DType::F32)?;
/// let y = einops::rearrange(&x.view(), "b c h w -> b (c h w)", &[])?;
/// assert_eq!(y.as_ref().shape(), &[2, 60]);
/// assert!(y.is_view());
/// assert!(!einops::rearrange(&x.view(), "b c h w -> (b h) w c", &[])?.is_view());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn rearrange<'a, D: Backend>(
    x: &TensorRef<'a, D>,
    pattern: &str,
    sizes: &[(&str, usize)],
) -> Result<MaybeOwned<'a, D>> {
    run(x, pattern, Operation::Rearrange, sizes)
}

/// `einops.reduce(x, pattern, reduction, **sizes)`: axes missing on the right
/// are reduced (a view when none is, as einops).
///
/// # Errors
/// [`Error::Einops`] as [`rearrange`]; `mean` of a non-float tensor
/// ([`Error::Invalid`], einops' `reduce_mean is not available for
/// non-floating tensors`); the reduction's own errors.
///
/// ```
/// # use axial_core::{DType, RawTensor, einops::{self, Reduction}};
/// let x = RawTensor::arange(0.0, 24.0, 1.0, DType::F32)?;
/// let x = x.view().view(&[2, 3, 4])?;
/// let y = einops::reduce(&x, "b c (h 2) -> b h", Reduction::Max, &[])?;
/// assert_eq!(y.as_ref().to_vec::<f32>()?, vec![9.0, 11.0, 21.0, 23.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn reduce<'a, D: Backend>(
    x: &TensorRef<'a, D>,
    pattern: &str,
    reduction: Reduction,
    sizes: &[(&str, usize)],
) -> Result<MaybeOwned<'a, D>> {
    run(x, pattern, Operation::Reduce(reduction), sizes)
}

/// `einops.repeat(x, pattern, **sizes)`: new axes are stride-0 views; a copy
/// only where a repeated axis is merged with another (as einops').
///
/// # Errors
/// [`Error::Einops`] as [`rearrange`].
///
/// ```
/// # use axial_core::{DType, RawTensor, einops};
/// let x = RawTensor::zeros(&[30, 40], DType::F32)?;
/// let y = einops::repeat(&x.view(), "h w -> h w c", &[("c", 3)])?;
/// assert_eq!(y.as_ref().strides(), &[40, 1, 0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn repeat<'a, D: Backend>(
    x: &TensorRef<'a, D>,
    pattern: &str,
    sizes: &[(&str, usize)],
) -> Result<MaybeOwned<'a, D>> {
    run(x, pattern, Operation::Repeat, sizes)
}

/// `rearrange`, `reduce` or `repeat` (by `operation`) of a tensor whose
/// axes have `names` (`None` for an anonymous axis): the left side must
/// name them in order, and a group that splits a named axis must be made of
/// its name and of names the tensor does not have (`(H P)` or `(Rows P)` on
/// `H`, never `(W P)` or `(H W)` on `H` of a tensor that has `W`), as the
/// typed macros prove while compiling. einops, which knows no names, would
/// run them all.
///
/// # Errors
/// [`Error::Einops`]: a dim on an axis it does not name
/// ([`ErrorKind::AxisNameDiffers`], [`ErrorKind::GroupWithoutAxis`]), or as
/// [`rearrange`], [`reduce`] and [`repeat`].
///
/// ```
/// # use axial_core::{DType, RawTensor, einops::{self, Operation}};
/// let x = RawTensor::zeros(&[2, 3, 8, 8], DType::F32)?;
/// let names = [Some("B"), Some("C"), Some("H"), Some("W")];
/// let patches = "B C (H P) (W Q) -> B (H W) (C P Q)";
/// let y = einops::with_names(&x.view(), &names, patches, Operation::Rearrange, &[("P", 4), ("Q", 4)])?;
/// assert_eq!(y.as_ref().shape(), &[2, 4, 48]);
/// let swapped = "B C (W P) (H Q) -> B (H W) (C P Q)";
/// let err = einops::with_names(&x.view(), &names, swapped, Operation::Rearrange, &[("P", 4), ("Q", 4)]);
/// assert!(err.err().unwrap().to_string().ends_with(
///     "the group (W P) splits axis `H`, but uses a name of another of the tensor's axes: make it of `H` and names the tensor does not have, as (H ..)"
/// ));
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn with_names<'a, D: Backend>(
    x: &TensorRef<'a, D>,
    names: &[Option<&str>],
    pattern: &str,
    operation: Operation,
    sizes: &[(&str, usize)],
) -> Result<MaybeOwned<'a, D>> {
    let wrapped = |e| {
        wrap(
            operation,
            pattern,
            Some(x.shape()),
            sizes.iter().copied(),
            e,
        )
    };
    Pattern::parse(pattern)
        .and_then(|p| p.check_names(names))
        .map_err(wrapped)?;
    run(x, pattern, operation, sizes)
}

/// Runs a recipe built once (by [`Recipe::new`]) on `x`, with `sizes` for
/// [`Recipe::sized_axes`] in order.
///
/// # Errors
/// [`Error::Einops`]: a rank or sizes that do not fit the recipe; as
/// [`reduce`] for a reduction.
///
/// ```
/// # use axial_core::{DType, RawTensor, einops::{self, Operation, Pattern, Recipe}};
/// let recipe = Recipe::new(&Pattern::parse("(h h1) w -> h (w h1)")?, Operation::Rearrange, &["h1"])?;
/// let x = RawTensor::zeros(&[4, 3], DType::F32)?;
/// let y = einops::apply(&x.view(), &recipe, &[2])?;
/// assert_eq!(y.as_ref().shape(), &[2, 6]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn apply<'a, D: Backend>(
    x: &TensorRef<'a, D>,
    recipe: &Recipe,
    sizes: &[usize],
) -> Result<MaybeOwned<'a, D>> {
    let transform = transform(recipe, x.shape(), sizes)?;
    steps::run(x, recipe.operation(), &transform)
}

/// The recipe's steps for a tensor of `shape`, or einops' error.
fn transform(recipe: &Recipe, shape: &[usize], sizes: &[usize]) -> Result<Transform> {
    recipe.transform(shape, sizes).map_err(|error| {
        let named = recipe
            .sized_axes()
            .iter()
            .map(String::as_str)
            .zip(sizes.iter().copied());
        wrap(
            recipe.operation(),
            recipe.pattern(),
            Some(shape),
            named,
            error,
        )
    })
}

/// `einops.rearrange` of a list: the tensors stacked on a new first dim, then
/// rearranged.
///
/// # Errors
/// An empty list, tensors of different shapes, or as [`rearrange`] (with
/// `Input is list.` in the message).
///
/// ```
/// # use axial_core::{DType, RawTensor, einops};
/// let x = RawTensor::zeros(&[3, 4], DType::F32)?;
/// let list = vec![x.view(); 5];
/// let y = einops::rearrange_list(&list, "b h w -> h (b w)", &[])?;
/// assert_eq!(y.shape(), &[3, 20]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn rearrange_list<D: Backend>(
    xs: &[TensorRef<'_, D>],
    pattern: &str,
    sizes: &[(&str, usize)],
) -> Result<RawTensor<D>> {
    run_list(xs, pattern, Operation::Rearrange, sizes)
}

/// `einops.reduce` of a list (see [`rearrange_list`]).
///
/// # Errors
/// As [`rearrange_list`] and [`reduce`].
///
/// ```
/// # use axial_core::{DType, RawTensor, einops::{self, Reduction}};
/// let x = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
/// let y = RawTensor::from_vec(vec![3.0f32, 5.0], &[2])?;
/// let s = einops::reduce_list(&[x.view(), y.view()], "b w -> w", Reduction::Sum, &[])?;
/// assert_eq!(s.view().to_vec::<f32>()?, vec![4.0, 7.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn reduce_list<D: Backend>(
    xs: &[TensorRef<'_, D>],
    pattern: &str,
    reduction: Reduction,
    sizes: &[(&str, usize)],
) -> Result<RawTensor<D>> {
    run_list(xs, pattern, Operation::Reduce(reduction), sizes)
}

/// `einops.repeat` of a list (see [`rearrange_list`]).
///
/// # Errors
/// As [`rearrange_list`] and [`repeat`].
///
/// ```
/// # use axial_core::{DType, RawTensor, einops};
/// let x = RawTensor::zeros(&[2], DType::F32)?;
/// let y = einops::repeat_list(&[x.view(), x.view()], "b w -> b w c", &[("c", 3)])?;
/// assert_eq!(y.shape(), &[2, 2, 3]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn repeat_list<D: Backend>(
    xs: &[TensorRef<'_, D>],
    pattern: &str,
    sizes: &[(&str, usize)],
) -> Result<RawTensor<D>> {
    run_list(xs, pattern, Operation::Repeat, sizes)
}

/// einops' wrapping of a pattern error.
fn wrap<'s>(
    operation: Operation,
    pattern: &str,
    shape: Option<&[usize]>,
    sizes: impl IntoIterator<Item = (&'s str, usize)>,
    error: PatternError,
) -> Error {
    Error::Einops(Box::new(EinopsError {
        reduction: operation.name(),
        pattern: pattern.to_owned(),
        shape: shape.map(<[usize]>::to_vec),
        sizes: sizes.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
        error,
    }))
}

/// Parses and checks `pattern` for `operation` with the axes of `sizes`.
fn recipe(
    pattern: &str,
    operation: Operation,
    shape: Option<&[usize]>,
    sizes: &[(&str, usize)],
) -> Result<Recipe> {
    let names: Vec<&str> = sizes.iter().map(|s| s.0).collect();
    Pattern::parse(pattern)
        .and_then(|p| Recipe::new(&p, operation, &names))
        .map_err(|e| wrap(operation, pattern, shape, sizes.iter().copied(), e))
}

fn run<'a, D: Backend>(
    x: &TensorRef<'a, D>,
    pattern: &str,
    operation: Operation,
    sizes: &[(&str, usize)],
) -> Result<MaybeOwned<'a, D>> {
    let recipe = recipe(pattern, operation, Some(x.shape()), sizes)?;
    let values: Vec<usize> = sizes.iter().map(|s| s.1).collect();
    apply(x, &recipe, &values)
}

fn run_list<D: Backend>(
    xs: &[TensorRef<'_, D>],
    pattern: &str,
    operation: Operation,
    sizes: &[(&str, usize)],
) -> Result<RawTensor<D>> {
    let stacked = stack::stack(xs)?;
    let recipe = recipe(pattern, operation, None, sizes)?;
    let values: Vec<usize> = sizes.iter().map(|s| s.1).collect();
    let transform = recipe
        .transform(stacked.shape(), &values)
        .map_err(|e| wrap(operation, pattern, None, sizes.iter().copied(), e))?;
    let layout = match steps::run(&stacked.view(), operation, &transform)? {
        MaybeOwned::Owned(t) => return Ok(t),
        MaybeOwned::View(v) => v.layout().clone(),
    };
    let (storage, _, dtype) = stacked.into_parts();
    RawTensor::from_parts(storage, layout, dtype)
}
