//! `einops.einsum`: subscripts aligned as PyTorch's `einsum` aligns them
//! (repeated subscripts as diagonals, `...` broadcast from the right), then
//! contracted operand by operand (see `contract`).

use super::contract;
use super::{Einsum, Pattern};
use axial_pattern::Subscript;

use crate::{Backend, Device, Error, Layout, RawTensor, Result, TensorRef};

/// A dim of the aligned operands: a named subscript, or the k-th dim
/// covered by `...`.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Label<'s> {
    Name(&'s str),
    Ellipsis(usize),
}

fn refuse<T>(message: String) -> Result<T> {
    Err(Error::invalid("einsum", message))
}

fn no_operands<T>() -> Result<T> {
    refuse(
        "`einops.einsum` takes at minimum two arguments: the tensors (at least one), followed by the pattern."
            .to_owned(),
    )
}

/// `einops.einsum(*operands, pattern)`: `"b i j, b j k -> b i k"`. Every
/// contraction of two operands is one batched matmul (float dtypes); axes of
/// one operand only are summed first; integer operands are multiplied and
/// summed instead; more operands are contracted left to right.
///
/// # Errors
/// [`Error::Pattern`] for a pattern einops refuses; [`Error::Invalid`] with
/// PyTorch's message for an operand count, a rank, a repeated subscript's
/// sizes, or sizes that do not broadcast; matmul's errors for mixed dtypes.
///
/// ```
/// # use axial_core::{DType, RawTensor, einops};
/// let a = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?;
/// let a = a.view().view(&[2, 3])?;
/// let b = RawTensor::arange(0.0, 12.0, 1.0, DType::F32)?;
/// let b = b.view().view(&[3, 4])?;
/// let c = einops::einsum("i j, j k -> i k", &[&a, &b])?;
/// assert_eq!(c.shape(), &[2, 4]);
/// assert_eq!(c.view().to_vec::<f32>()?, vec![20.0, 23.0, 26.0, 29.0, 56.0, 68.0, 80.0, 92.0]);
/// let trace = einops::einsum("i i ->", &[&b.narrow(1, 0, 3)?])?;
/// assert_eq!(trace.view().item::<f32>()?, 15.0);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn einsum<D: Backend>(pattern: &str, operands: &[&TensorRef<'_, D>]) -> Result<RawTensor<D>> {
    if operands.is_empty() {
        return no_operands();
    }
    let spec = Pattern::parse_einsum(pattern)
        .and_then(|p| Einsum::new(&p))
        .map_err(|error| Error::Pattern {
            op: "einsum",
            error: Box::new(error),
        })?;
    apply_einsum(&spec, operands)
}

/// [`einsum`] of a pattern parsed and checked once ([`Einsum::new`]).
///
/// # Errors
/// As [`einsum`], less the pattern's (no operands, or a spec with no inputs,
/// is the error for no operands).
///
/// ```
/// # use axial_core::{DType, RawTensor, einops::{self, Einsum, Pattern}};
/// let spec = Einsum::new(&Pattern::parse_einsum("b i, b i -> b")?)?;
/// let x = RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?;
/// let dots = einops::apply_einsum(&spec, &[&x.view(), &x.view()])?;
/// assert_eq!(dots.view().to_vec::<f64>()?, vec![5.0, 25.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn apply_einsum<D: Backend>(
    spec: &Einsum,
    operands: &[&TensorRef<'_, D>],
) -> Result<RawTensor<D>> {
    let plan = plan(spec, operands)?;
    if plan.sizes.contains(&0) {
        let first = operands[0];
        let out = &plan.sizes[..plan.out_size];
        return RawTensor::zeros_on(first.storage().device(), out, first.dtype());
    }
    contract::run(&plan.aligned, plan.out_size)
}

/// The operands aligned to one dim per label (the output's first), checked.
pub(super) struct Plan<'a, D: Device> {
    /// Each operand as a view with one dim per label.
    pub(super) aligned: Vec<TensorRef<'a, D>>,
    /// How many labels are the output's.
    pub(super) out_size: usize,
    /// The broadcast size of each label.
    pub(super) sizes: Vec<usize>,
}

/// Checks the operands against `spec` and aligns them (PyTorch's errors).
pub(super) fn plan<'a, D: Backend>(
    spec: &Einsum,
    operands: &[&TensorRef<'a, D>],
) -> Result<Plan<'a, D>> {
    if operands.is_empty() {
        return no_operands();
    }
    if spec.inputs.len() > operands.len() {
        return refuse("fewer operands were provided than specified in the equation".to_owned());
    }
    if spec.inputs.len() < operands.len() {
        return refuse("more operands were provided than specified in the equation".to_owned());
    }
    let ellipsis_dims = check_ranks(spec, operands)?;
    let (labels, out_size) = labels(spec, ellipsis_dims);
    let aligned = operands
        .iter()
        .zip(&spec.inputs)
        .enumerate()
        .map(|(i, (x, subscripts))| align(x, subscripts, i, &labels, ellipsis_dims))
        .collect::<Result<Vec<_>>>()?;
    let sizes = broadcast(operands, &aligned)?;
    Ok(Plan {
        aligned,
        out_size,
        sizes,
    })
}

/// Checks each operand's rank against its subscripts; the number of dims
/// `...` covers (the most of any operand).
fn check_ranks<D: Backend>(spec: &Einsum, operands: &[&TensorRef<'_, D>]) -> Result<usize> {
    let mut ellipsis_dims = 0;
    for (i, (x, subscripts)) in operands.iter().zip(&spec.inputs).enumerate() {
        let named = subscripts.iter().filter(|s| s.name().is_some()).count();
        let has_ellipsis = named != subscripts.len();
        let ndim = x.dim();
        let fits = if has_ellipsis {
            named <= ndim
        } else {
            named == ndim
        };
        if !fits {
            let (relation, tail) = match has_ellipsis {
                true => ("is more than", ""),
                false => ("does not match", " and no ellipsis was given"),
            };
            return refuse(format!(
                "the number of subscripts in the equation ({named}) {relation} the number of dimensions ({ndim}) for operand {i}{tail}"
            ));
        }
        if has_ellipsis {
            ellipsis_dims = ellipsis_dims.max(ndim - named);
        }
    }
    Ok(ellipsis_dims)
}

/// The dims every operand is aligned to: the output's first (PyTorch's
/// order), then `...` if the output lacks it, then the summed subscripts in
/// order of appearance; and how many are the output's.
fn labels(spec: &Einsum, ellipsis_dims: usize) -> (Vec<Label<'_>>, usize) {
    let ellipsis = || (0..ellipsis_dims).map(Label::Ellipsis);
    let mut labels = Vec::new();
    for s in &spec.output {
        match s {
            Subscript::Label { name, .. } => labels.push(Label::Name(name)),
            Subscript::Ellipsis { .. } => labels.extend(ellipsis()),
        }
    }
    let out_size = labels.len();
    if !spec.output.iter().any(|s| s.name().is_none()) {
        labels.extend(ellipsis());
    }
    for name in spec.inputs.iter().flatten().filter_map(Subscript::name) {
        if !labels.contains(&Label::Name(name)) {
            labels.push(Label::Name(name));
        }
    }
    (labels, out_size)
}

/// `x` as a view with one dim per label: a subscript's dim, the sum of the
/// strides of a repeated subscript (a diagonal), size 1 and stride 0 where
/// `x` lacks the label; `...` right-aligned.
fn align<'a, D: Backend>(
    x: &TensorRef<'a, D>,
    subscripts: &[Subscript],
    operand: usize,
    labels: &[Label<'_>],
    ellipsis_dims: usize,
) -> Result<TensorRef<'a, D>> {
    let position = |label: Label<'_>| labels.iter().position(|&l| l == label).unwrap_or(0);
    let mut shape = vec![1; labels.len()];
    let mut strides = vec![0; labels.len()];
    let mut first_dim: Vec<Option<usize>> = vec![None; labels.len()];
    let named = subscripts.iter().filter(|s| s.name().is_some()).count();
    let covered = x.dim().saturating_sub(named);
    let mut j = 0;
    for s in subscripts {
        let Some(name) = s.name() else {
            for k in ellipsis_dims - covered..ellipsis_dims {
                let p = position(Label::Ellipsis(k));
                (shape[p], strides[p]) = (x.shape()[j], x.strides()[j]);
                j += 1;
            }
            continue;
        };
        let p = position(Label::Name(name));
        match first_dim[p] {
            Some(d) if x.shape()[d] != x.shape()[j] => {
                return refuse(format!(
                    "subscript {name} is repeated for operand {operand} but the sizes don't match, {} != {}",
                    x.shape()[j],
                    x.shape()[d]
                ));
            }
            Some(_) => strides[p] += x.strides()[j],
            None => {
                first_dim[p] = Some(j);
                (shape[p], strides[p]) = (x.shape()[j], x.strides()[j]);
            }
        }
        j += 1;
    }
    let layout = Layout::from_parts(&shape, &strides, x.offset());
    TensorRef::new(x.storage(), layout, x.dtype())
}

/// The broadcast size of every aligned dim, or PyTorch's error.
fn broadcast<D: Backend>(
    operands: &[&TensorRef<'_, D>],
    aligned: &[TensorRef<'_, D>],
) -> Result<Vec<usize>> {
    let mut sizes = aligned[0].shape().to_vec();
    for x in &aligned[1..] {
        for (size, &n) in sizes.iter_mut().zip(x.shape()) {
            if *size != n && *size != 1 && n != 1 {
                let remapped: String = operands
                    .iter()
                    .zip(aligned)
                    .map(|(o, a)| format!(" {:?}->{:?}", o.shape(), a.shape()))
                    .collect();
                return refuse(format!(
                    "operands do not broadcast with remapped shapes [original->remapped]:{remapped}"
                ));
            }
            if n != 1 {
                *size = n;
            }
        }
    }
    Ok(sizes)
}
