//! Binary ops: `dst = op(lhs, rhs)` for every [`BinaryOp`] and dtype PyTorch
//! has it for, after [`BinaryOp::resolve`] has checked the pair; the
//! kernels are the table's columns ([`crate::ops::binary_table`]). Integer
//! ops that can fail (division by zero, negative powers) read the divisor
//! first, so nothing is written when they do.

use super::map::{any_arg, apply2, apply2_weighted};
use super::math::{FloatElem, Int, by_kind};
use super::strided::COSTLY;
use crate::ops::binary_table;
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
    if op.is_logical() {
        let and = op == BinaryOp::LogicalAnd;
        return with_dtype!(dtype, T => apply2(op.name(), lhs, rhs, dst, move |a: T, b: T| {
            let (a, b) = (a.is_nonzero(), b.is_nonzero());
            Bool::from(if and { a && b } else { a || b })
        }));
    }
    by_kind!(dtype,
        float F => float_binary::<F>(op, lhs, rhs, dst),
        int I => int_binary::<I>(op, lhs, rhs, dst),
        bool => Err(unsupported(op, dtype)),
        other => Err(unsupported(op, dtype)))
}

/// The table's kernels: its float and integer element functions and the
/// weight of one element. Integer ops with a rule for their right operand
/// (division by zero, negative powers) read it first, so that nothing is
/// written when it breaks.
macro_rules! table_kernels {
    ($(
        $(#[$doc:meta])*
        $op:ident = $name:literal ($class:ident) {
            int: $int:tt, bool: $bool:tt, float: $float:tt,
            rhs: $rhs:tt, cost: $cost:ident, derivative: $derivative:tt,
        }
    )*) => {
        fn float_binary<E: FloatElem>(
            op: BinaryOp,
            lhs: &Arg<'_, Cpu>,
            rhs: &Arg<'_, Cpu>,
            dst: &mut Output<'_, Cpu>,
        ) -> Result<()> {
            match op {
                $(BinaryOp::$op => table_kernels!(@float $float, $cost, op, lhs, rhs, dst),)*
            }
        }

        fn int_binary<I: Int>(
            op: BinaryOp,
            lhs: &Arg<'_, Cpu>,
            rhs: &Arg<'_, Cpu>,
            dst: &mut Output<'_, Cpu>,
        ) -> Result<()> {
            let name = op.name();
            if let Some(rule) = op.rhs_rule(I::DTYPE)
                && any_arg(name, rhs, dst, |y: I| rule.breaks(y.to_i64()))?
            {
                return Err(rule.error(name));
            }
            match op {
                $(BinaryOp::$op => table_kernels!(@int $int, $cost, op, lhs, rhs, dst),)*
            }
        }
    };
    (@float -, $cost:ident, $op:ident, $a:ident, $b:ident, $d:ident) => {
        Err(unsupported($op, E::DTYPE))
    };
    (@float ($f:expr), $cost:ident, $op:ident, $a:ident, $b:ident, $d:ident) => {
        lift2::<E>($op, table_kernels!(@weight $cost), $a, $b, $d, $f)
    };
    (@int -, $cost:ident, $op:ident, $a:ident, $b:ident, $d:ident) => {
        Err(unsupported($op, I::DTYPE))
    };
    (@int ($f:expr), $cost:ident, $op:ident, $a:ident, $b:ident, $d:ident) => {
        apply2_weighted($op.name(), table_kernels!(@weight $cost), $a, $b, $d, $f)
    };
    (@weight cheap) => { 1 };
    (@weight costly) => { COSTLY };
}
binary_table!(table_kernels);

/// `dst = f(lhs, rhs)` computed in the float type's compute type, each
/// element weighing `weight` units of work.
fn lift2<E: FloatElem>(
    op: BinaryOp,
    weight: usize,
    lhs: &Arg<'_, Cpu>,
    rhs: &Arg<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(E::F, E::F) -> E::F + Copy + Sync,
) -> Result<()> {
    apply2_weighted(op.name(), weight, lhs, rhs, dst, move |a: E, b: E| {
        E::store(f(a.load(), b.load()))
    })
}

fn unsupported(op: BinaryOp, dtype: DType) -> Error {
    Error::Unsupported {
        op: op.name(),
        dtype,
    }
}
