//! Unary ops: `dst = op(src)` for every [`UnaryOp`] and dtype PyTorch has it
//! for, after [`UnaryOp::resolve`] has checked the pair and its arguments.
//! The kernels of the table's rows are its own columns
//! ([`crate::ops::unary_table`]): the element functions for floats and
//! integers, the vectorised f32 function, the work of one element; `pow`
//! and `clamp` (scalar arguments) and `logical_not` are written here.

use super::map::{apply1, apply1_weighted};
use super::math::{FloatElem, Int, by_kind, int_pow};
use super::strided::COSTLY;
use super::vmath::pow::PowOp;
use super::vmath::{Lanewise, apply::apply as vector};
use crate::ops::{PowScalarKind, Resolved, unary_table};
use crate::{Bool, Cpu, DType, Element, Error, Input, Output, Result, UnaryOp, with_dtype};
use num_complex::Complex;

/// `dst = op(src)`; `src` and `dst` share a dtype, except for `logical_not`
/// (bool output).
pub(crate) fn unary(op: UnaryOp, src: Input<'_, Cpu>, mut dst: Output<'_, Cpu>) -> Result<()> {
    let (src, dst) = (&src, &mut dst);
    let name = op.name();
    match op.resolve(src.dtype)? {
        Resolved::Op(UnaryOp::LogicalNot) => {
            with_dtype!(src.dtype, T => apply1(name, src, dst, |x: T| {
                Bool::from(!x.is_nonzero())
            }))
        }
        Resolved::Identity => with_dtype!(src.dtype, T => apply1(name, src, dst, |x: T| x)),
        Resolved::Fill(v) => with_dtype!(src.dtype, T => {
            let v = v.to::<T>();
            apply1(name, src, dst, move |_: T| v)
        }),
        Resolved::Op(op) => by_kind!(src.dtype,
            float F => float_unary::<F>(op, src, dst),
            int I => int_unary::<I>(op, src, dst),
            bool => Err(unsupported(op, DType::Bool)),
            other => match src.dtype {
                DType::C64 => table_complex::<f32>(op, src, dst),
                DType::C128 => table_complex::<f64>(op, src, dst),
                d if d.is_float8() => with_dtype!(d, T => table_float8::<T>(op, src, dst)),
                _ => None,
            }
            .unwrap_or_else(|| Err(unsupported(op, src.dtype)))),
    }
}

/// The table's kernels: its float and integer element functions, its
/// vectorised functions, and the weight of one element.
macro_rules! table_kernels {
    ($(
        $(#[$doc:meta])*
        $op:ident $(with $fields:tt)? = $name:literal ($class:ident) {
            int: $int:tt, bool: $bool:tt, float: $float:tt,
            complex: $complex:tt, uint: $uint:tt, float8: $float8:tt, simd: $simd:tt,
            cost: $cost:ident, cuda: $cuda:literal, derivative: $derivative:tt,
        }
    )*) => {
        /// Runs the row's float kernel; `None` for the rows written here.
        fn table_float<E: FloatElem>(
            op: UnaryOp,
            src: &Input<'_, Cpu>,
            dst: &mut Output<'_, Cpu>,
        ) -> Option<Result<()>> {
            match op {
                $(UnaryOp::$op { .. } => table_kernels!(@float $float, $cost, op, src, dst),)*
            }
        }

        /// Runs the row's integer kernel; `None` for the rows without one.
        fn table_int<I: Int>(
            op: UnaryOp,
            src: &Input<'_, Cpu>,
            dst: &mut Output<'_, Cpu>,
        ) -> Option<Result<()>> {
            match op {
                $(UnaryOp::$op { .. } => table_kernels!(@int $int, op, src, dst),)*
            }
        }

        /// Runs the row's `complex` kernel over `Complex<F>`; `None` for
        /// the rows without one.
        fn table_complex<F>(
            op: UnaryOp,
            src: &Input<'_, Cpu>,
            dst: &mut Output<'_, Cpu>,
        ) -> Option<Result<()>>
        where
            F: num_traits::Float + Element,
            Complex<F>: Element,
        {
            match op {
                $(UnaryOp::$op { .. } => table_kernels!(@complex $complex, $cost, op, src, dst),)*
            }
        }

        /// Runs the row's float kernel on f32 for a float8 `T` (rounded
        /// once); `None` for the rows the float8s do not have.
        fn table_float8<T: Element>(
            op: UnaryOp,
            src: &Input<'_, Cpu>,
            dst: &mut Output<'_, Cpu>,
        ) -> Option<Result<()>> {
            match op {
                $(UnaryOp::$op { .. } => table_kernels!(@float8 $float8, $float, op, src, dst),)*
            }
        }

        /// Runs the row's vectorised kernel over f32, f16 or bf16
        /// elements; `None` for the rows and dtypes without one.
        fn table_simd<E: FloatElem>(
            op: UnaryOp,
            src: &Input<'_, Cpu>,
            dst: &mut Output<'_, Cpu>,
        ) -> Option<Result<()>> {
            match op {
                $(UnaryOp::$op { .. } => table_kernels!(@simd $simd, op, src, dst),)*
            }
        }

        /// Runs the vectorised kernel of `op` over f32 slices at `level`
        /// (the ulp tests); false when it has none.
        #[cfg(test)]
        pub(crate) fn simd_at(
            level: super::simd::Level,
            op: UnaryOp,
            src: &[f32],
            dst: &mut [f32],
        ) -> bool {
            if let UnaryOp::PowScalar(p) = op {
                super::vmath::run_at(level, PowOp(p), src, dst);
                return true;
            }
            match op {
                $(UnaryOp::$op { .. } => table_kernels!(@simd_at $simd, level, src, dst),)*
            }
        }
    };
    (@float -, $cost:ident, $op:ident, $src:ident, $dst:ident) => { None };
    (@float ($f:expr), $cost:ident, $op:ident, $src:ident, $dst:ident) => {
        Some(lift::<E>($op, table_kernels!(@weight $cost), $src, $dst, $f))
    };
    (@int -, $op:ident, $src:ident, $dst:ident) => { None };
    (@int ($f:expr), $op:ident, $src:ident, $dst:ident) => {
        Some(apply1($op.name(), $src, $dst, $f))
    };
    (@complex (modulus), $cost:ident, $op:ident, $src:ident, $dst:ident) => {
        Some(apply1($op.name(), $src, $dst, |z: Complex<F>| z.norm()))
    };
    (@complex (power), $cost:ident, $op:ident, $src:ident, $dst:ident) => {
        match $op {
            UnaryOp::PowScalar(p) => {
                let p = F::from(p).unwrap_or_else(F::nan);
                Some(apply1_weighted($op.name(), COSTLY, $src, $dst, move |z: Complex<F>| {
                    crate::cpu::math::complex_pow(z, Complex::new(p, F::zero()))
                }))
            }
            _ => None,
        }
    };
    (@complex ($f:expr), $cost:ident, $op:ident, $src:ident, $dst:ident) => {
        Some(apply1_weighted($op.name(), table_kernels!(@weight $cost), $src, $dst, $f))
    };
    (@complex $rule:tt, $cost:ident, $op:ident, $src:ident, $dst:ident) => { None };
    (@float8 ok, ($f:expr), $op:ident, $src:ident, $dst:ident) => {
        Some(apply1($op.name(), $src, $dst, |x: T| T::from_f32(($f)(x.to_f32()))))
    };
    (@float8 $rule:tt, $f:tt, $op:ident, $src:ident, $dst:ident) => { None };
    (@simd -, $op:ident, $src:ident, $dst:ident) => { None };
    (@simd ($t:path), $op:ident, $src:ident, $dst:ident) => {
        vectorised::<E, _>($op, $t, $src, $dst)
    };
    (@simd_at -, $level:ident, $src:ident, $dst:ident) => { false };
    (@simd_at ($t:path), $level:ident, $src:ident, $dst:ident) => {{
        super::vmath::run_at($level, $t, $src, $dst);
        true
    }};
    (@weight cheap) => { 1 };
    (@weight costly) => { COSTLY };
}
unary_table!(table_kernels);

/// `dst = lanewise(src)` for f32, f16 and bf16 elements; `None` for f64.
fn vectorised<E: FloatElem, O: Lanewise + Sync>(
    op: UnaryOp,
    lanewise: O,
    s: &Input<'_, Cpu>,
    d: &mut Output<'_, Cpu>,
) -> Option<Result<()>> {
    let name = op.name();
    Some(match E::DTYPE {
        DType::F32 => vector::<f32, O>(name, lanewise, s, d),
        DType::F16 => vector::<half::f16, O>(name, lanewise, s, d),
        DType::BF16 => vector::<half::bf16, O>(name, lanewise, s, d),
        _ => return None,
    })
}

/// Clamps with the bounds present: binds `$f` to the clamp of one element
/// and evaluates `$run` (which lifts it into a kernel).
macro_rules! clamp_by_bounds {
    ($lo:expr, $hi:expr, |$f:ident| $run:expr) => {
        match ($lo, $hi) {
            (Some(lo), Some(hi)) => {
                let $f = move |x| min_of(max_of(x, lo), hi);
                $run
            }
            (Some(lo), None) => {
                let $f = move |x| max_of(x, lo);
                $run
            }
            (None, Some(hi)) => {
                let $f = move |x| min_of(x, hi);
                $run
            }
            // `UnaryOp::resolve` gives a clamp at least one bound.
            (None, None) => Err(Error::invalid("clamp", "no bound to clamp to")),
        }
    };
}

/// `dst = f(src)` computed in the float type's compute type, each element
/// weighing `weight` units of work.
fn lift<E: FloatElem>(
    op: UnaryOp,
    weight: usize,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(E::F) -> E::F + Copy + Sync,
) -> Result<()> {
    apply1_weighted(op.name(), weight, src, dst, move |x: E| {
        E::store(f(x.load()))
    })
}

fn float_unary<E: FloatElem>(
    op: UnaryOp,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
) -> Result<()> {
    let (s, d) = (src, dst);
    // The vectorised kernels, unless the input is the output through
    // another layout (their blocks would read what they already wrote).
    let aliased = s.storage.is_none() && s.layout != d.layout;
    if !aliased && let Some(done) = vector_kernel::<E>(op, s, d) {
        return done;
    }
    if let Some(done) = table_float::<E>(op, s, d) {
        return done;
    }
    match op {
        UnaryOp::PowScalar(p) => lift::<E>(op, COSTLY, s, d, super::math::pow_scalar::<E>(p)),
        UnaryOp::Clamp { min, max } => {
            let bound = |v: Option<f64>| v.map(|v| E::from_f64(v).load());
            clamp_by_bounds!(bound(min), bound(max), |f| lift::<E>(op, 1, s, d, f))
        }
        _ => Err(unsupported(op, s.dtype)),
    }
}

/// The vectorised kernel of `op` on `E` elements, if it has one: a scalar
/// power whose exponent PyTorch special-cases ([`PowScalarKind`]) keeps that
/// kernel; f16 and bf16 round the exponent to their type first, as it does.
fn vector_kernel<E: FloatElem>(
    op: UnaryOp,
    s: &Input<'_, Cpu>,
    d: &mut Output<'_, Cpu>,
) -> Option<Result<()>> {
    let UnaryOp::PowScalar(p) = op else {
        return table_simd::<E>(op, s, d);
    };
    match PowScalarKind::of(p, E::DTYPE) {
        _ if p.is_nan() => None,
        PowScalarKind::InF64(p) => vectorised::<E, _>(op, PowOp(p), s, d),
        PowScalarKind::InF32(p) => vectorised::<E, _>(op, PowOp(f64::from(p)), s, d),
        _ => None,
    }
}

/// `std::max(a, b)`: `b` only when `a < b`, so a NaN `a` passes through.
#[inline(always)]
fn max_of<T: PartialOrd>(a: T, b: T) -> T {
    if a < b { b } else { a }
}

/// `std::min(a, b)`: `b` only when `b < a`, so a NaN `a` passes through.
#[inline(always)]
fn min_of<T: PartialOrd>(a: T, b: T) -> T {
    if b < a { b } else { a }
}

fn unsupported(op: UnaryOp, dtype: DType) -> Error {
    Error::Unsupported {
        op: op.name(),
        dtype,
    }
}

fn int_unary<I: Int>(op: UnaryOp, src: &Input<'_, Cpu>, dst: &mut Output<'_, Cpu>) -> Result<()> {
    let name = op.name();
    match op {
        UnaryOp::PowScalar(p) => {
            let p = I::from_f64(p);
            apply1(name, src, dst, move |x: I| int_pow(x, p))
        }
        UnaryOp::Clamp { min, max } => {
            let bound = |v: Option<f64>| v.map(I::from_f64);
            clamp_by_bounds!(bound(min), bound(max), |f| apply1(name, src, dst, f))
        }
        _ => table_int::<I>(op, src, dst).unwrap_or_else(|| Err(unsupported(op, src.dtype))),
    }
}
