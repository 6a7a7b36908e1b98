//! Binary ops: `dst = op(lhs, rhs)` for every [`BinaryOp`] and dtype PyTorch
//! has it for, after [`BinaryOp::resolve`] has checked the pair. Integer ops
//! that can fail (division by zero, negative powers) read the divisor first,
//! so nothing is written when they do.

use super::map::{any_arg, apply2, apply2_weighted};
use super::math::{self, Float, FloatElem, Int, by_kind, int_floor_divide, int_pow, int_remainder};
use super::strided::COSTLY;
use crate::{Arg, BinaryOp, Bool, Cpu, DType, Element, Error, Output, Result, with_dtype};

/// `dst = op(lhs, rhs)`: all three share a dtype (bool `dst` for the logical ops).
pub(crate) fn binary(
    op: BinaryOp,
    lhs: Arg<'_, Cpu>,
    rhs: Arg<'_, Cpu>,
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let dtype = Arg::pair_dtype(op.name(), &lhs, &rhs)?;
    let op = op.resolve(dtype)?;
    let (lhs, rhs, dst) = (&lhs, &rhs, &mut dst);
    if let BinaryOp::LogicalAnd | BinaryOp::LogicalOr = op {
        let and = op == BinaryOp::LogicalAnd;
        return with_dtype!(dtype, T => apply2(op.name(), lhs, rhs, dst, move |a: T, b: T| {
            let (a, b) = (a.is_nonzero(), b.is_nonzero());
            Bool::from(if and { a && b } else { a || b })
        }));
    }
    by_kind!(dtype,
        float F => float_binary::<F>(op, lhs, rhs, dst),
        int I => int_binary::<I>(op, lhs, rhs, dst),
        bool => Err(unsupported(op, dtype)))
}

/// `dst = f(lhs, rhs)` computed in the float type's compute type.
fn lift2<E: FloatElem>(
    op: BinaryOp,
    lhs: &Arg<'_, Cpu>,
    rhs: &Arg<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(E::F, E::F) -> E::F + Copy + Sync,
) -> Result<()> {
    apply2_weighted(op.name(), weight(op), lhs, rhs, dst, move |a: E, b: E| {
        E::store(f(a.load(), b.load()))
    })
}

/// Units of work of one element: ops that call a math function or divide
/// integers weigh more.
fn weight(op: BinaryOp) -> usize {
    use BinaryOp::*;
    match op {
        Rem | FloorDiv | Pow | Atan2 => COSTLY,
        _ => 1,
    }
}

fn float_binary<E: FloatElem>(
    op: BinaryOp,
    lhs: &Arg<'_, Cpu>,
    rhs: &Arg<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
) -> Result<()> {
    use BinaryOp::*;
    let (a, b, d) = (lhs, rhs, dst);
    match op {
        Add => lift2::<E>(op, a, b, d, |x, y| x + y),
        Sub => lift2::<E>(op, a, b, d, |x, y| x - y),
        Mul => lift2::<E>(op, a, b, d, |x, y| x * y),
        Div => lift2::<E>(op, a, b, d, |x, y| x / y),
        Rem => lift2::<E>(op, a, b, d, math::remainder),
        FloorDiv => lift2::<E>(op, a, b, d, math::floor_divide::<E>),
        Pow => lift2::<E>(op, a, b, d, Float::powf),
        Maximum => lift2::<E>(op, a, b, d, math::maximum),
        Minimum => lift2::<E>(op, a, b, d, math::minimum),
        Atan2 => lift2::<E>(op, a, b, d, Float::atan2),
        _ => Err(unsupported(op, E::DTYPE)),
    }
}

fn int_binary<I: Int>(
    op: BinaryOp,
    lhs: &Arg<'_, Cpu>,
    rhs: &Arg<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
) -> Result<()> {
    use BinaryOp::*;
    let name = op.name();
    let (a, b, d) = (lhs, rhs, dst);
    match op {
        Add => apply2(name, a, b, d, I::wrapping_add),
        Sub => apply2(name, a, b, d, I::wrapping_sub),
        Mul => apply2(name, a, b, d, I::wrapping_mul),
        Maximum => apply2(name, a, b, d, |x: I, y: I| x.max(y)),
        Minimum => apply2(name, a, b, d, |x: I, y: I| x.min(y)),
        Rem | FloorDiv | Pow => {
            if let Some(rule) = op.rhs_rule(I::DTYPE)
                && any_arg(name, b, d, |y: I| rule.breaks(y.to_i64()))?
            {
                return Err(rule.error(name));
            }
            match op {
                Rem => apply2_weighted(name, COSTLY, a, b, d, int_remainder::<I>),
                FloorDiv => apply2_weighted(name, COSTLY, a, b, d, int_floor_divide::<I>),
                _ => apply2_weighted(name, COSTLY, a, b, d, int_pow::<I>),
            }
        }
        _ => Err(unsupported(op, I::DTYPE)),
    }
}

fn unsupported(op: BinaryOp, dtype: DType) -> Error {
    Error::Unsupported {
        op: op.name(),
        dtype,
    }
}
