//! The steps of a [`Transform`] on a tensor, as einops' torch backend runs
//! them: each a view where PyTorch's is, a new tensor otherwise.

use super::{Operation, Reduction, Transform};
use crate::{Backend, Device, Error, Layout, MaybeOwned, RawTensor, ReduceOp, Result, TensorRef};

/// `sizes` as the `isize` dims the view ops take.
pub(super) fn dims(sizes: &[usize]) -> Vec<isize> {
    sizes.iter().map(|&n| n as isize).collect()
}

/// `t` over the same storage with another layout.
pub(super) fn with_layout<D: Device>(t: RawTensor<D>, layout: Layout) -> Result<RawTensor<D>> {
    let (storage, _, dtype) = t.into_parts();
    RawTensor::from_parts(storage, layout, dtype)
}

/// A view op (a new layout over the same storage), on a view or a new tensor.
pub(super) fn relayout<'a, D: Device>(
    t: MaybeOwned<'a, D>,
    op: impl FnOnce(&Layout) -> Result<Layout>,
) -> Result<MaybeOwned<'a, D>> {
    Ok(match t {
        MaybeOwned::View(v) => {
            MaybeOwned::View(TensorRef::new(v.storage(), op(v.layout())?, v.dtype())?)
        }
        MaybeOwned::Owned(o) => {
            let layout = op(o.layout())?;
            MaybeOwned::Owned(with_layout(o, layout)?)
        }
    })
}

/// `reshape`: a view when the layout allows one, else a contiguous copy.
pub(super) fn reshape<'a, D: Backend>(
    t: MaybeOwned<'a, D>,
    shape: &[usize],
) -> Result<MaybeOwned<'a, D>> {
    match t {
        MaybeOwned::View(v) => v.reshape(&dims(shape)),
        MaybeOwned::Owned(o) => {
            let layout = match o.layout().reshape_view(&dims(shape))? {
                Some(layout) => layout,
                None => {
                    let copy = o.view().to_contiguous()?;
                    return Ok(MaybeOwned::Owned(with_layout(
                        copy,
                        Layout::contiguous(shape),
                    )?));
                }
            };
            Ok(MaybeOwned::Owned(with_layout(o, layout)?))
        }
    }
}

/// The core's reduction for einops' name.
pub(super) fn reduce_op(reduction: Reduction) -> ReduceOp {
    match reduction {
        Reduction::Min => ReduceOp::Min,
        Reduction::Max => ReduceOp::Max,
        Reduction::Sum => ReduceOp::Sum,
        Reduction::Mean => ReduceOp::Mean,
        Reduction::Prod => ReduceOp::Prod,
        Reduction::Any => ReduceOp::Any,
        Reduction::All => ReduceOp::All,
    }
}

/// einops' `_reduce_axes`: `mean` only of floats, then the backend's reduction.
fn reduce_axes<D: Backend>(
    t: &TensorRef<'_, D>,
    reduction: Reduction,
    axes: &[usize],
) -> Result<RawTensor<D>> {
    if reduction == Reduction::Mean && !t.dtype().is_float() {
        return Err(Error::invalid(
            "reduce",
            "reduce_mean is not available for non-floating tensors",
        ));
    }
    t.reduce(reduce_op(reduction), &dims(axes), false)
}

/// Unsqueezes at each `(position, length)` (increasing positions), then
/// expands those dims to their lengths with stride 0.
fn add_axes(layout: &Layout, added: &[(usize, usize)]) -> Result<Layout> {
    let mut layout = layout.clone();
    for &(at, _) in added {
        layout = layout.unsqueeze(at as isize)?;
    }
    let mut sizes = dims(layout.shape());
    for &(at, length) in added {
        sizes[at] = length as isize;
    }
    layout.expand(&sizes)
}

/// Runs the steps of `transform` for `operation` on `x`.
pub(super) fn run<'a, D: Backend>(
    x: &TensorRef<'a, D>,
    operation: Operation,
    transform: &Transform,
) -> Result<MaybeOwned<'a, D>> {
    let mut t = MaybeOwned::View(x.clone());
    if let Some(shape) = &transform.init_shape {
        t = reshape(t, shape)?;
    }
    if let Some(permutation) = &transform.permutation {
        t = relayout(t, |l| l.permute(&dims(permutation)))?;
    }
    if let (Operation::Reduce(reduction), false) = (operation, transform.reduced_axes.is_empty()) {
        t = MaybeOwned::Owned(reduce_axes(
            &t.as_ref(),
            reduction,
            &transform.reduced_axes,
        )?);
    }
    if !transform.added_axes.is_empty() {
        t = relayout(t, |l| add_axes(l, &transform.added_axes))?;
    }
    if let Some(shape) = &transform.final_shape {
        t = reshape(t, shape)?;
    }
    Ok(t)
}
