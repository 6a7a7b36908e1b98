//! einops on tracked tensors: the same recipe as [`apply`](super::apply)
//! and the same contraction as [`apply_einsum`](super::apply_einsum), each
//! step a tracked op, so the graph records them (a reshape, a permute, a
//! reduction with its derivative, an expand whose gradient sums, a batched
//! matmul).

use super::contract::{Roles, group_order, kept_labels, needed_after};
use super::einsum::plan;
use super::steps::{dims, reduce_op};
use super::{Einsum, Operation, Recipe, Reduction, transform};
use crate::autograd::Var;
use crate::{Backend, Error, Result};

/// `rearrange`, `reduce` or `repeat` by `recipe` on the tracked `x`, each
/// step recorded: the reshape to the elementary axes and the one to the
/// output (views where einops' are, recorded copies otherwise), the
/// permutation, the reduction (`sum`, `mean`, `amax`, `amin` with PyTorch's
/// tie rule, `prod`; `any` and `all` have no derivative), and the new axes
/// as an expand (whose gradient sums the copies).
///
/// # Errors
/// As [`apply`](super::apply); `any` or `all` on a tensor that needs a
/// gradient.
///
/// ```
/// use axial_core::autograd::Var;
/// use axial_core::einops::{self, Operation, Pattern, Recipe};
/// use axial_core::RawTensor;
/// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?)?;
/// let id = x.leaf_id().unwrap();
/// let pattern = Pattern::parse("a b -> b 3 a")?;
/// let recipe = Recipe::new(&pattern, Operation::Repeat, &[])?;
/// let y = einops::apply_tracked(&x, &recipe, &[])?;
/// assert_eq!(y.shape(), &[2, 3, 2]);
/// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
/// assert_eq!(g, vec![3.0; 4]); // three copies of each element
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn apply_tracked<'g, D: Backend>(
    x: &Var<'g, D>,
    recipe: &Recipe,
    sizes: &[usize],
) -> Result<Var<'g, D>> {
    let t = transform(recipe, x.shape(), sizes)?;
    let mut v = x.share();
    if let Some(shape) = &t.init_shape {
        v = v.reshape(&dims(shape))?;
    }
    if let Some(permutation) = &t.permutation {
        v = v.permute(&dims(permutation))?;
    }
    if let Operation::Reduce(reduction) = recipe.operation() {
        if reduction == Reduction::Mean && !v.dtype().is_float() {
            return Err(Error::invalid(
                "reduce",
                "reduce_mean is not available for non-floating tensors",
            ));
        }
        v = match t.reduced_axes.is_empty() {
            true => v.copied()?,
            false => v.reduce(reduce_op(reduction), &dims(&t.reduced_axes), false)?,
        };
    }
    if !t.added_axes.is_empty() {
        for &(at, _) in &t.added_axes {
            v = v.unsqueeze(at as isize)?;
        }
        let mut sizes = dims(v.shape());
        for &(at, length) in &t.added_axes {
            sizes[at] = length as isize;
        }
        v = v.expand(&sizes)?;
    }
    if let Some(shape) = &t.final_shape {
        v = v.reshape(&dims(shape))?;
    }
    Ok(v)
}

/// `einsum` by `spec` of tracked operands, contracted as
/// [`apply_einsum`](super::apply_einsum) contracts (each operand aligned to
/// one dim per label, its own summed labels summed, pairs as one batched
/// matmul), every step recorded. The result is a new tensor.
///
/// # Errors
/// As [`apply_einsum`](super::apply_einsum).
///
/// ```
/// use axial_core::autograd::Var;
/// use axial_core::einops::{self, Einsum, Pattern};
/// use axial_core::RawTensor;
/// let a = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?)?;
/// let b = Var::constant(RawTensor::from_vec(vec![1.0f64, 0.0, 0.0, 2.0], &[2, 2])?);
/// let spec = Einsum::new(&Pattern::parse_einsum("i k, k j -> i j")?)?;
/// let y = einops::apply_einsum_tracked(&spec, &[&a, &b])?;
/// assert_eq!(y.value().to_vec::<f64>()?, vec![1.0, 4.0, 3.0, 8.0]);
/// let id = a.leaf_id().unwrap();
/// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
/// assert_eq!(g, vec![1.0, 2.0, 1.0, 2.0]); // each row of a meets b's row sums
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn apply_einsum_tracked<'g, D: Backend>(
    spec: &Einsum,
    operands: &[&Var<'g, D>],
) -> Result<Var<'g, D>> {
    let values: Vec<_> = operands.iter().map(|v| v.value()).collect();
    let refs: Vec<_> = values.iter().collect();
    let plan = plan(spec, &refs)?;
    let aligned = plan
        .aligned
        .iter()
        .zip(operands)
        .map(|(a, v)| v.as_strided(a.shape(), a.strides(), Some(a.offset())))
        .collect::<Result<Vec<_>>>()?;
    let out_size = plan.out_size;
    let out = match plan.sizes.contains(&0) {
        true => multiplied(&aligned, out_size)?,
        false => contracted(&aligned, out_size)?,
    };
    let fresh = operands.iter().all(|v| !out.storage().same_as(v.storage()));
    match fresh {
        true => Ok(out),
        false => out.copied(),
    }
}

/// The aligned operands multiplied (broadcast) and summed over the labels
/// past the output's: for sizes of 0, which the matmul lowering does not
/// broadcast.
fn multiplied<'g, D: Backend>(aligned: &[Var<'g, D>], out_size: usize) -> Result<Var<'g, D>> {
    let mut acc = aligned[0].share();
    for x in &aligned[1..] {
        acc = acc.mul(x)?;
    }
    let summed: Vec<isize> = (out_size..acc.shape().len()).map(|p| p as isize).collect();
    if !summed.is_empty() {
        acc = acc.sum(&summed, false)?;
    }
    Ok(acc)
}

/// Sums `t` over `labels` (kept as size 1).
fn sum_labels<'g, D: Backend>(t: Var<'g, D>, labels: &[usize]) -> Result<Var<'g, D>> {
    match labels.is_empty() {
        true => Ok(t),
        false => t.sum(&dims(labels), true),
    }
}

/// `t` permuted to `groups` and reshaped to one dim per group.
fn grouped<'g, D: Backend>(t: &Var<'g, D>, groups: &[&[usize]]) -> Result<Var<'g, D>> {
    let (order, sizes) = group_order(t.shape(), groups);
    t.permute(&dims(&order))?.reshape(&dims(&sizes))
}

/// The pair as one batched matmul, laid out with one dim per label again
/// (size 1 where it has none).
fn matmul_pair<'g, D: Backend>(
    left: &Var<'g, D>,
    right: &Var<'g, D>,
    roles: &Roles,
) -> Result<Var<'g, D>> {
    let a = grouped(left, &[&roles.batch, &roles.m, &roles.k])?;
    let b = grouped(right, &[&roles.batch, &roles.k, &roles.n])?;
    let product = a.matmul(&b)?;
    let (kept, kept_sizes) = kept_labels(left.shape(), right.shape(), roles);
    let rank = left.shape().len();
    let rest = (0..rank).filter(|p| !kept.contains(p));
    let order: Vec<usize> = kept.iter().copied().chain(rest).collect();
    let mut shape = kept_sizes;
    shape.resize(rank, 1);
    let mut inverse = vec![0; rank];
    for (i, &p) in order.iter().enumerate() {
        inverse[p] = i as isize;
    }
    product.reshape(&dims(&shape))?.permute(&inverse)
}

/// Contracts the aligned operands left to right, then drops the summed
/// labels.
fn contracted<'g, D: Backend>(aligned: &[Var<'g, D>], out_size: usize) -> Result<Var<'g, D>> {
    let shapes: Vec<&[usize]> = aligned.iter().map(Var::shape).collect();
    let needed = |i: usize, p: usize| needed_after(&shapes, out_size, i, p);
    let first = &aligned[0];
    let own: Vec<usize> = (0..first.shape().len())
        .filter(|&p| first.shape()[p] > 1 && !needed(0, p))
        .collect();
    let mut acc = sum_labels(first.share(), &own)?;
    for (i, operand) in aligned.iter().enumerate().skip(1) {
        let roles = Roles::new(acc.shape(), operand.shape(), |p| needed(i, p));
        let left = sum_labels(acc, &roles.left_only)?;
        let right = sum_labels(operand.share(), &roles.right_only)?;
        acc = matmul_pair(&left, &right, &roles)?;
    }
    let out_shape = acc.shape()[..out_size].to_vec();
    acc.reshape(&dims(&out_shape))
}
