//! Unary ops: `dst = op(src)` for every [`UnaryOp`] and dtype PyTorch has it
//! for, after [`UnaryOp::resolve`] has checked the pair and its arguments.

use super::map::{apply1, apply1_weighted};
use super::math::{self, Float, FloatElem, Int, by_kind, int_pow, int_sign};
use super::strided::COSTLY;
use super::vmath::{VecOp, apply::apply as vector};
use crate::op::{PowScalarKind, Resolved};
use crate::{Bool, Cpu, DType, Element, Error, Input, Output, Result, UnaryOp, with_dtype};

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
            bool => Err(unsupported(op, DType::Bool))),
    }
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

/// `dst = f(src)` computed in the float type's compute type.
fn lift<E: FloatElem>(
    op: UnaryOp,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    f: impl Fn(E::F) -> E::F + Copy + Sync,
) -> Result<()> {
    apply1_weighted(op.name(), weight(op), src, dst, move |x: E| {
        E::store(f(x.load()))
    })
}

/// Units of work of one element: ops that call a math function weigh more.
fn weight(op: UnaryOp) -> usize {
    use UnaryOp::*;
    match op {
        Exp | Log | Log1p | Expm1 | Sin | Cos | Tan | Tanh | Sigmoid | Gelu | GeluTanh | Silu
        | Erf | PowScalar(_) => COSTLY,
        _ => 1,
    }
}

fn float_unary<E: FloatElem>(
    op: UnaryOp,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
) -> Result<()> {
    use UnaryOp::*;
    let (s, d) = (src, dst);
    // The vectorised kernels, unless the input is the output through
    // another layout (their blocks would read what they already wrote).
    let aliased = s.storage.is_none() && s.layout != d.layout;
    if let Some(v) = vector_op::<E>(op).filter(|_| !aliased) {
        match s.dtype {
            DType::F32 => return vector::<f32>(op.name(), v, s, d),
            DType::F16 => return vector::<half::f16>(op.name(), v, s, d),
            DType::BF16 => return vector::<half::bf16>(op.name(), v, s, d),
            _ => {}
        }
    }
    match op {
        Neg => lift::<E>(op, s, d, |x| -x),
        Abs => lift::<E>(op, s, d, Float::abs),
        Sqrt => lift::<E>(op, s, d, Float::sqrt),
        Rsqrt => lift::<E>(op, s, d, math::rsqrt),
        Exp => lift::<E>(op, s, d, Float::exp),
        Log => lift::<E>(op, s, d, Float::ln),
        Log1p => lift::<E>(op, s, d, Float::ln_1p),
        Expm1 => lift::<E>(op, s, d, Float::exp_m1),
        Sin => lift::<E>(op, s, d, Float::sin),
        Cos => lift::<E>(op, s, d, Float::cos),
        Tan => lift::<E>(op, s, d, Float::tan),
        Tanh => lift::<E>(op, s, d, Float::tanh),
        Sigmoid => lift::<E>(op, s, d, math::sigmoid),
        Relu => lift::<E>(op, s, d, math::relu),
        Gelu => lift::<E>(op, s, d, math::gelu),
        GeluTanh => lift::<E>(op, s, d, math::gelu_tanh),
        Silu => lift::<E>(op, s, d, math::silu),
        Erf => lift::<E>(op, s, d, Float::erf),
        Floor => lift::<E>(op, s, d, Float::floor),
        Ceil => lift::<E>(op, s, d, Float::ceil),
        Round => lift::<E>(op, s, d, Float::round_ties_even),
        Trunc => lift::<E>(op, s, d, Float::trunc),
        Sign => lift::<E>(op, s, d, math::sign),
        Reciprocal => lift::<E>(op, s, d, |x| E::F::ONE / x),
        Square => lift::<E>(op, s, d, |x| x * x),
        PowScalar(p) => lift::<E>(op, s, d, math::pow_scalar::<E>(p)),
        Clamp { min, max } => {
            let bound = |v: Option<f64>| v.map(|v| E::from_f64(v).load());
            clamp_by_bounds!(bound(min), bound(max), |f| lift::<E>(op, s, d, f))
        }
        _ => Err(unsupported(op, s.dtype)),
    }
}

/// The vectorised kernel of `op` on `E` elements, if it has one: a scalar
/// power whose exponent PyTorch special-cases ([`PowScalarKind`]) keeps that
/// kernel; f16 and bf16 round the exponent to their type first, as it does.
fn vector_op<E: FloatElem>(op: UnaryOp) -> Option<VecOp> {
    let UnaryOp::PowScalar(p) = op else {
        return VecOp::of(op);
    };
    match PowScalarKind::of(p, E::DTYPE) {
        _ if p.is_nan() => None,
        PowScalarKind::InF64(p) => Some(VecOp::Pow(p)),
        PowScalarKind::InF32(p) => Some(VecOp::Pow(f64::from(p))),
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
    use UnaryOp::*;
    let name = op.name();
    match op {
        Neg => apply1(name, src, dst, I::wrapping_neg),
        Abs => apply1(name, src, dst, I::wrapping_abs),
        Relu => apply1(name, src, dst, |x: I| max_of(x, I::ZERO)),
        Sign => apply1(name, src, dst, int_sign::<I>),
        Square => apply1(name, src, dst, |x: I| x.wrapping_mul(x)),
        PowScalar(p) => {
            let p = I::from_f64(p);
            apply1(name, src, dst, move |x: I| int_pow(x, p))
        }
        Clamp { min, max } => {
            let bound = |v: Option<f64>| v.map(I::from_f64);
            clamp_by_bounds!(bound(min), bound(max), |f| apply1(name, src, dst, f))
        }
        _ => Err(unsupported(op, src.dtype)),
    }
}
