//! Binary ops: `dst = op(lhs, rhs)` for every [`BinaryOp`] and dtype PyTorch
//! has it for, after [`BinaryOp::resolve`] has checked the pair; the
//! kernels are the table's columns ([`crate::ops::binary_table`]). Integer
//! ops that can fail (division by zero, negative powers) read the divisor
//! first, so nothing is written when they do.

use super::map::{any_arg, apply2, apply2_weighted};
use super::math::{FloatElem, Int, by_kind};
use super::strided::COSTLY;
use crate::float8::{F8E4M3Fn, F8E4M3FnUz, F8E5M2, F8E5M2FnUz};
use crate::ops::binary_table;
use crate::{Arg, BinaryOp, Bool, Cpu, DType, Element, Error, Output, Result, with_dtype};
use num_complex::Complex;

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
    other => match dtype {
        DType::C64 => complex_binary::<f32>(op, lhs, rhs, dst),
        DType::C128 => complex_binary::<f64>(op, lhs, rhs, dst),
        DType::F8E4M3Fn => float8_binary::<F8E4M3Fn>(op, lhs, rhs, dst),
        DType::F8E5M2 => float8_binary::<F8E5M2>(op, lhs, rhs, dst),
        DType::F8E4M3FnUz => float8_binary::<F8E4M3FnUz>(op, lhs, rhs, dst),
        DType::F8E5M2FnUz => float8_binary::<F8E5M2FnUz>(op, lhs, rhs, dst),
        _ => Err(unsupported(op, dtype)),
    })
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
            complex: $complex:tt, uint: $uint:tt, float8: $float8:tt,
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

        /// The `complex` column over `Complex<F>`.
        fn complex_binary<F: num_traits::Float + Send + Sync + 'static>(
            op: BinaryOp,
            lhs: &Arg<'_, Cpu>,
            rhs: &Arg<'_, Cpu>,
            dst: &mut Output<'_, Cpu>,
        ) -> Result<()>
        where
            Complex<F>: Element,
        {
            match op {
                $(BinaryOp::$op => table_kernels!(@complex $complex, $cost, op, lhs, rhs, dst),)*
            }
        }

        /// The `float8` column: the float kernel on f32, rounded once.
        fn float8_binary<T: Element>(
            op: BinaryOp,
            lhs: &Arg<'_, Cpu>,
            rhs: &Arg<'_, Cpu>,
            dst: &mut Output<'_, Cpu>,
        ) -> Result<()> {
            match op {
                $(BinaryOp::$op => table_kernels!(@float8 $float8, $float, $cost, op, lhs, rhs, dst),)*
            }
        }
    };
    (@complex ($f:expr), $cost:ident, $op:ident, $a:ident, $b:ident, $d:ident) => {
        apply2_weighted($op.name(), table_kernels!(@weight $cost), $a, $b, $d, |x: Complex<F>, y: Complex<F>| ($f)(x, y))
    };
    (@complex $other:tt, $cost:ident, $op:ident, $a:ident, $b:ident, $d:ident) => {
        Err(unsupported($op, <Complex<F> as Element>::DTYPE))
    };
    (@float8 ok, ($f:expr), $cost:ident, $op:ident, $a:ident, $b:ident, $d:ident) => {
        apply2_weighted($op.name(), table_kernels!(@weight $cost), $a, $b, $d, |x: T, y: T| {
            T::from_f32(($f)(x.to_f32(), y.to_f32()))
        })
    };
    (@float8 $rule:tt, $f:tt, $cost:ident, $op:ident, $a:ident, $b:ident, $d:ident) => {
        Err(unsupported($op, T::DTYPE))
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
