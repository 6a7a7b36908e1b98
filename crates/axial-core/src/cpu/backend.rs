//! The CPU's [`Backend`]: each entry point in its own module.

use super::{Cpu, copy, fill};
use crate::{
    ArgReduceOp, Backend, BinaryOp, CmpOp, Error, Input, Output, ReduceOp, Result, Scalar, UnaryOp,
};

impl Backend for Cpu {
    fn copy(&self, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        copy::copy(src, dst)
    }

    fn fill(&self, dst: Output<'_, Self>, value: Scalar) -> Result<()> {
        fill::fill(dst, value)
    }

    fn unary(&self, op: UnaryOp, src: Input<'_, Self>, _dst: Output<'_, Self>) -> Result<()> {
        Err(Error::Unsupported {
            op: op.name(),
            dtype: src.dtype,
        })
    }

    fn binary(
        &self,
        op: BinaryOp,
        lhs: Input<'_, Self>,
        _rhs: Input<'_, Self>,
        _dst: Output<'_, Self>,
    ) -> Result<()> {
        Err(Error::Unsupported {
            op: op.name(),
            dtype: lhs.dtype,
        })
    }

    fn compare(
        &self,
        op: CmpOp,
        lhs: Input<'_, Self>,
        _rhs: Input<'_, Self>,
        _dst: Output<'_, Self>,
    ) -> Result<()> {
        Err(Error::Unsupported {
            op: op.name(),
            dtype: lhs.dtype,
        })
    }

    fn select_where(
        &self,
        _cond: Input<'_, Self>,
        a: Input<'_, Self>,
        _b: Input<'_, Self>,
        _dst: Output<'_, Self>,
    ) -> Result<()> {
        Err(Error::Unsupported {
            op: "where",
            dtype: a.dtype,
        })
    }

    fn reduce(
        &self,
        op: ReduceOp,
        src: Input<'_, Self>,
        _dims: &[usize],
        _dst: Output<'_, Self>,
    ) -> Result<()> {
        Err(Error::Unsupported {
            op: op.name(),
            dtype: src.dtype,
        })
    }

    fn arg_reduce(
        &self,
        op: ArgReduceOp,
        src: Input<'_, Self>,
        _dim: usize,
        _dst: Output<'_, Self>,
    ) -> Result<()> {
        Err(Error::Unsupported {
            op: op.name(),
            dtype: src.dtype,
        })
    }

    fn matmul(
        &self,
        lhs: Input<'_, Self>,
        _rhs: Input<'_, Self>,
        _dst: Output<'_, Self>,
    ) -> Result<()> {
        Err(Error::Unsupported {
            op: "matmul",
            dtype: lhs.dtype,
        })
    }
}
