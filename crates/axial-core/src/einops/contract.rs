//! Contraction of aligned einsum operands (every operand has one dim per
//! label, the output's labels first), operand by operand: a pair is one
//! batched matmul `[batch, M, K] @ [batch, K, N]`, with each operand's own
//! summed labels summed first, as PyTorch's `sumproduct_pair`.

use super::steps::{dims, reshape, with_layout};
use crate::layout::contiguous_strides;
use crate::{Backend, BinaryOp, Layout, MaybeOwned, RawTensor, ReduceOp, Result, TensorRef};

/// Sums `t` over `labels` (kept as size 1).
fn sum<'a, D: Backend>(t: MaybeOwned<'a, D>, labels: &[usize]) -> Result<MaybeOwned<'a, D>> {
    if labels.is_empty() {
        return Ok(t);
    }
    Ok(MaybeOwned::Owned(t.as_ref().reduce(
        ReduceOp::Sum,
        &dims(labels),
        true,
    )?))
}

/// The labels of a pair, by role.
#[derive(Default)]
pub(super) struct Roles {
    /// Kept, in both.
    pub(super) batch: Vec<usize>,
    /// Kept, in the left only.
    pub(super) m: Vec<usize>,
    /// Kept, in the right only.
    pub(super) n: Vec<usize>,
    /// Summed, in both.
    pub(super) k: Vec<usize>,
    /// Summed, in the left only.
    pub(super) left_only: Vec<usize>,
    /// Summed, in the right only.
    pub(super) right_only: Vec<usize>,
}

impl Roles {
    /// A label is "in" an operand when its size there is above 1 (size-1
    /// dims broadcast).
    pub(super) fn new(left: &[usize], right: &[usize], keep: impl Fn(usize) -> bool) -> Roles {
        let mut roles = Roles::default();
        for (p, (&a, &b)) in left.iter().zip(right).enumerate() {
            let role = match (keep(p), a > 1, b > 1) {
                (_, false, false) => continue,
                (true, true, true) => &mut roles.batch,
                (true, true, false) => &mut roles.m,
                (true, false, true) => &mut roles.n,
                (false, true, true) => &mut roles.k,
                (false, true, false) => &mut roles.left_only,
                (false, false, true) => &mut roles.right_only,
            };
            role.push(p);
        }
        roles
    }
}

/// The order that brings `groups` first (then every other of `rank` dims,
/// all of size 1), and the size of each group in `shape`.
pub(super) fn group_order(shape: &[usize], groups: &[&[usize]]) -> (Vec<usize>, Vec<usize>) {
    let grouped: Vec<usize> = groups.concat();
    let rest = (0..shape.len()).filter(|p| !grouped.contains(p));
    let order: Vec<usize> = grouped.iter().copied().chain(rest).collect();
    let sizes: Vec<usize> = groups
        .iter()
        .map(|g| g.iter().map(|&p| shape[p]).product())
        .collect();
    (order, sizes)
}

/// `t` permuted to `groups` (then every other dim, all of size 1) and
/// reshaped to one dim per group.
fn grouped<'a, D: Backend>(t: &TensorRef<'a, D>, groups: &[&[usize]]) -> Result<MaybeOwned<'a, D>> {
    let (order, sizes) = group_order(t.shape(), groups);
    let permuted = t.permute(&dims(&order))?;
    reshape(MaybeOwned::View(permuted), &sizes)
}

/// The labels a pair's product keeps (batch, then the left's, then the
/// right's) and their sizes.
pub(super) fn kept_labels(
    left: &[usize],
    right: &[usize],
    roles: &Roles,
) -> (Vec<usize>, Vec<usize>) {
    let kept: Vec<usize> = [&roles.batch[..], &roles.m, &roles.n].concat();
    let sizes = kept.iter().map(|&p| left[p].max(right[p])).collect();
    (kept, sizes)
}

/// Whether operand `i`'s label `p` is still needed after it (an output
/// label, or one a later operand has).
pub(super) fn needed_after(shapes: &[&[usize]], out_size: usize, i: usize, p: usize) -> bool {
    p < out_size || shapes[i + 1..].iter().any(|s| s[p] > 1)
}

/// The pair as one batched matmul, the result laid out with one dim per
/// label again (size 1, stride 0 where it has none).
fn matmul_pair<D: Backend>(
    left: &TensorRef<'_, D>,
    right: &TensorRef<'_, D>,
    roles: &Roles,
) -> Result<RawTensor<D>> {
    let a = grouped(left, &[&roles.batch, &roles.m, &roles.k])?;
    let b = grouped(right, &[&roles.batch, &roles.k, &roles.n])?;
    let product = a.as_ref().matmul(&b.as_ref())?;
    let (kept, kept_sizes) = kept_labels(left.shape(), right.shape(), roles);
    let kept_strides = contiguous_strides(&kept_sizes);
    let mut shape = vec![1; left.dim()];
    let mut strides = vec![0; left.dim()];
    for (i, &p) in kept.iter().enumerate() {
        (shape[p], strides[p]) = (kept_sizes[i], kept_strides[i]);
    }
    with_layout(product, Layout::from_parts(&shape, &strides, 0))
}

/// The pair multiplied (broadcast) and summed over `k`, in the operands'
/// promoted dtype: for the dtypes matmul does not take.
fn multiply_pair<D: Backend>(
    left: &TensorRef<'_, D>,
    right: &TensorRef<'_, D>,
    k: &[usize],
) -> Result<RawTensor<D>> {
    let dtype = left.dtype().promote(right.dtype())?;
    let product = left.binary(BinaryOp::Mul, right)?;
    if k.is_empty() {
        return Ok(product);
    }
    let summed = product.view().reduce(ReduceOp::Sum, &dims(k), true)?;
    if summed.dtype() == dtype {
        return Ok(summed);
    }
    summed.view().to_dtype(dtype)
}

/// Contracts `left` with `right`, keeping the labels `keep` says.
fn pair<D: Backend>(
    left: MaybeOwned<'_, D>,
    right: &TensorRef<'_, D>,
    keep: impl Fn(usize) -> bool,
) -> Result<RawTensor<D>> {
    let roles = Roles::new(left.as_ref().shape(), right.shape(), keep);
    let left = sum(left, &roles.left_only)?;
    let right = sum(MaybeOwned::View(right.clone()), &roles.right_only)?;
    let (left, right) = (left.as_ref(), right.as_ref());
    if left.dtype().is_float() || right.dtype().is_float() {
        matmul_pair(&left, &right, &roles)
    } else {
        multiply_pair(&left, &right, &roles.k)
    }
}

/// Contracts the aligned operands left to right (a label is summed as soon as
/// no later operand has it), then drops the summed labels.
pub(super) fn run<D: Backend>(
    operands: &[TensorRef<'_, D>],
    out_size: usize,
) -> Result<RawTensor<D>> {
    let shapes: Vec<&[usize]> = operands.iter().map(TensorRef::shape).collect();
    let needed = |i: usize, p: usize| needed_after(&shapes, out_size, i, p);
    let first = &operands[0];
    let own: Vec<usize> = (0..first.dim())
        .filter(|&p| first.shape()[p] > 1 && !needed(0, p))
        .collect();
    let mut acc = sum(MaybeOwned::View(first.clone()), &own)?;
    for (i, operand) in operands.iter().enumerate().skip(1) {
        acc = MaybeOwned::Owned(pair(acc, operand, |p| needed(i, p))?);
    }
    let out_shape = acc.as_ref().shape()[..out_size].to_vec();
    match reshape(acc, &out_shape)? {
        MaybeOwned::Owned(t) => Ok(t),
        MaybeOwned::View(v) => v.to_contiguous(),
    }
}
