//! Choosing between elements: `where` (a primitive: the CPU's
//! `cpu/select.rs`, CUDA's `where_b<bytes>` by element size), and the ops
//! written with it, `masked_fill` and the triangles `tril` and `triu`.

use super::grad::{keep_where, zero_where};
use super::{Derivative, Keep, Lowering, Op, OpInfo, Saves};
use crate::autograd::Grad;
use crate::layout::broadcast_shapes;
use crate::{Backend, DType, Error, Result, TensorRef};

/// `torch.where(cond, a, b)`: `a` where the bool `cond` is true, else `b`,
/// all three broadcast, `a` and `b` promoted to one dtype.
///
/// # Example
/// ```
/// use axial_core::{DType, ops::Where};
/// let (shape, dtype) = Where::output([&[2, 1], &[3], &[]], DType::Bool, [DType::I32, DType::F32])?;
/// assert_eq!((shape, dtype), (vec![2, 3], DType::F32));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Where;

impl Op for Where {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "where",
            lowering: Lowering::Primitive,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Always, Keep::Never, Keep::Never],
                output: false,
            }),
        }
    }
}

impl Where {
    /// The CUDA kernels, by element size (`where_b<bytes>`).
    pub const CUDA_KERNEL: &'static str = "where";

    /// The shape and dtype of the result for a condition, `a` and `b` of
    /// `shapes` and the dtypes given.
    ///
    /// # Errors
    /// A condition that is not bool, or shapes that do not broadcast.
    pub fn output(
        shapes: [&[usize]; 3],
        cond: DType,
        [a, b]: [DType; 2],
    ) -> Result<(Vec<usize>, DType)> {
        if cond != DType::Bool {
            return Err(Error::invalid(
                Where.name(),
                format!(
                    "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
                    cond.scalar_type_name()
                ),
            ));
        }
        let shape = broadcast_shapes(&broadcast_shapes(shapes[0], shapes[1])?, shapes[2])?;
        Ok((shape.to_vec(), a.promote(b)?))
    }
}

/// `x.masked_fill(mask, value)`: `value` where the bool `mask`, broadcast to
/// `x`'s shape, is true; a [`Where`] of the mask, the value and `x`.
///
/// # Example
/// ```
/// use axial_core::{DType, ops::MaskedFill};
/// assert!(MaskedFill::check(&[2, 3], &[3], DType::Bool).is_ok());
/// assert!(MaskedFill::check(&[3], &[2, 3], DType::Bool).is_err()); // x would grow
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MaskedFill;

impl Op for MaskedFill {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "masked_fill",
            lowering: Lowering::Composite,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Never, Keep::Always],
                output: false,
            }),
        }
    }
}

impl MaskedFill {
    /// Checks a mask of `mask` shape and `dtype` for a tensor of `shape`.
    ///
    /// # Errors
    /// A mask that is not bool, or that does not broadcast to `shape`.
    pub fn check(shape: &[usize], mask: &[usize], dtype: DType) -> Result<()> {
        let op = MaskedFill.name();
        if dtype != DType::Bool {
            return Err(Error::invalid(
                op,
                format!(
                    "masked_fill_ only supports boolean masks, but got mask with dtype {}",
                    dtype.name()
                ),
            ));
        }
        let broadcast = broadcast_shapes(mask, shape)?;
        if broadcast.as_slice() != shape {
            return Err(Error::invalid(
                op,
                format!("The size of the mask {mask:?} must broadcast to the tensor's {shape:?}"),
            ));
        }
        Ok(())
    }
}

/// `torch.tril(x, diagonal)` (`upper` false) or `torch.triu(x, diagonal)`:
/// the elements on and below (above) the `diagonal`-th diagonal of the last
/// two dims, zeros elsewhere; a [`Where`] of a mask of `col − row`.
///
/// # Example
/// ```
/// use axial_core::ops::{Op, Triangle};
/// assert_eq!(Triangle { upper: true, diagonal: 1 }.name(), "triu");
/// assert!(Triangle { upper: false, diagonal: 0 }.check(&[3]).is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Triangle {
    /// `triu` rather than `tril`.
    pub upper: bool,
    /// The diagonal: 0 the main one, positive above it.
    pub diagonal: i64,
}

impl Op for Triangle {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: if self.upper { "triu" } else { "tril" },
            lowering: Lowering::Composite,
            derivative: Derivative::Written(Saves::NOTHING),
        }
    }
}

impl Triangle {
    /// Checks a tensor of `shape`.
    ///
    /// # Errors
    /// Fewer than 2 dims.
    pub fn check(&self, shape: &[usize]) -> Result<()> {
        if shape.len() < 2 {
            let op = self.name();
            return Err(Error::invalid(
                op,
                format!("{op}: input tensor must have at least 2 dimensions"),
            ));
        }
        Ok(())
    }
}

impl Where {
    /// The gradients of `a` and `b` in `where(cond, a, b)`: the output's
    /// where `cond` chose each, zero elsewhere (of the output's shape).
    pub(crate) fn backward<D: Backend>(
        cond: &TensorRef<'_, D>,
        g: &Grad<D>,
        needs: [bool; 2],
    ) -> Result<[Option<Grad<D>>; 2]> {
        Ok([
            needs[0]
                .then(|| keep_where(cond, g).map(Grad::new))
                .transpose()?,
            needs[1]
                .then(|| zero_where(cond, g).map(Grad::new))
                .transpose()?,
        ])
    }
}

impl MaskedFill {
    /// The input's gradient: the output's, zero where the mask filled.
    pub(crate) fn backward<D: Backend>(mask: &TensorRef<'_, D>, g: &Grad<D>) -> Result<Grad<D>> {
        Ok(Grad::new(zero_where(mask, g)?))
    }
}

impl Triangle {
    /// The input's gradient: the output's, cut to the same triangle.
    pub(crate) fn backward<D: Backend>(&self, g: &Grad<D>) -> Result<Grad<D>> {
        let v = g.view();
        let t = if self.upper {
            v.triu(self.diagonal)
        } else {
            v.tril(self.diagonal)
        };
        Ok(Grad::new(t?))
    }
}
