//! A list of tensors as one (einops' `stack_on_zeroth_dimension`).

use crate::ops::Stack;
use crate::{Backend, Error, RawTensor, Result, TensorRef};

/// `torch.stack(xs)`: the tensors as one, along a new first dim (dtypes
/// promoted), as einops stacks a list input.
///
/// # Errors
/// An empty list (einops' `TypeError`), or shapes that differ.
///
/// ```
/// # use axial_core::{DType, RawTensor, einops};
/// let x = RawTensor::zeros(&[3, 4], DType::F32)?;
/// assert_eq!(einops::stack(&[x.view(), x.view()])?.shape(), &[2, 3, 4]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn stack<D: Backend>(xs: &[TensorRef<'_, D>]) -> Result<RawTensor<D>> {
    let Some(first) = xs.first() else {
        return Err(Error::invalid(
            "einops",
            "Rearrange/Reduce/Repeat can't be applied to an empty list",
        ));
    };
    let shapes: Vec<&[usize]> = xs.iter().map(|x| x.shape()).collect();
    Stack::new(0, &shapes)?;
    let dtype = xs.iter().fold(first.dtype(), |d, x| d.promote(x.dtype()));
    let mut shape = vec![xs.len()];
    shape.extend_from_slice(first.shape());
    let mut out = RawTensor::zeros_on(first.storage().device(), &shape, dtype)?;
    for (i, x) in xs.iter().enumerate() {
        out.view_mut().select(0, i as isize)?.copy_(x)?;
    }
    Ok(out)
}
