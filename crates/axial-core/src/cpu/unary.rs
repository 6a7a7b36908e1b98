//! Unary ops: `dst = op(src)` for every [`UnaryOp`] and dtype PyTorch has it for.

use super::map::{apply1, apply1_weighted};
use super::math::{
    self, Float, FloatElem, Int, Limits, by_kind, checked_scalar, int_pow, int_sign,
};
use super::strided::COSTLY;
use super::vmath::{VecOp, apply::apply as vector};
use crate::{Bool, Cpu, DType, Element, Error, Input, Output, Result, UnaryOp, with_dtype};

/// `dst = op(src)`; `src` and `dst` share a dtype, except for `logical_not`
/// (bool output).
pub(crate) fn unary(op: UnaryOp, src: Input<'_, Cpu>, mut dst: Output<'_, Cpu>) -> Result<()> {
    let (src, dst) = (&src, &mut dst);
    if op == UnaryOp::LogicalNot {
        return with_dtype!(src.dtype, T => apply1(op.name(), src, dst, |x: T| {
            Bool::from(!x.is_nonzero())
        }));
    }
    by_kind!(src.dtype,
        float F => float_unary::<F>(op, src, dst),
        int I => int_unary::<I>(op, src, dst),
        bool => bool_unary(op, src, dst))
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

fn float_unary<E: FloatElem + Limits>(
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
        Clamp { min, max } => float_clamp::<E>(op, s, d, min, max),
        _ => Err(unsupported(op, s.dtype)),
    }
}

/// The vectorised kernel of `op` on `E` elements, if it has one: a scalar
/// power whose exponent PyTorch special-cases (`pow_scalar`) keeps that
/// kernel; f16 and bf16 round the exponent to their type first, as it does.
fn vector_op<E: FloatElem>(op: UnaryOp) -> Option<VecOp> {
    let UnaryOp::PowScalar(p) = op else {
        return VecOp::of(op);
    };
    let special = match p {
        0.0 | 1.0 => true,
        0.5 | -0.5 | -1.0 | 2.0 | 3.0 | -2.0 => E::DTYPE != DType::F16,
        _ => false,
    };
    if special || p.is_nan() {
        return None;
    }
    Some(VecOp::Pow(if E::DTYPE.size() == 2 {
        E::from_f64(p).to_f32() as f64
    } else {
        p
    }))
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
            (None, None) => Err(no_clamp_bounds()),
        }
    };
}

/// `clamp` on floats: the bounds are rounded to the element type first (and
/// refused beyond its range); a NaN bound makes every element NaN.
fn float_clamp<E: FloatElem + Limits>(
    op: UnaryOp,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    min: Option<f64>,
    max: Option<f64>,
) -> Result<()> {
    let bound = |v: Option<f64>| {
        v.map(|v| checked_scalar::<E>(op.name(), v).map(E::load))
            .transpose()
    };
    let (lo, hi) = (bound(min)?, bound(max)?);
    if min.is_some_and(f64::is_nan) || max.is_some_and(f64::is_nan) {
        return lift::<E>(op, src, dst, |_| E::F::NAN);
    }
    clamp_by_bounds!(lo, hi, |f| lift::<E>(op, src, dst, f))
}

/// `clamp` on integers: a bound beyond the type's range on the side that
/// cannot bind is dropped; on the other side PyTorch refuses it.
fn int_clamp<I: Int>(
    op: UnaryOp,
    src: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    min: Option<f64>,
    max: Option<f64>,
) -> Result<()> {
    let name = op.name();
    let out_of_range = |which: &str, v: f64| {
        Error::invalid(
            name,
            format!(
                "Clamp {which} value {v} is outside the representable range of {}",
                src.dtype.scalar_type_name()
            ),
        )
    };
    let lo = match min {
        Some(v) if v < I::LOWEST => None,
        Some(v) if v > I::MAX => return Err(out_of_range("min", v)),
        Some(v) => Some(checked_scalar::<I>(name, v)?),
        None => None,
    };
    let hi = match max {
        Some(v) if v > I::MAX => None,
        Some(v) if v < I::LOWEST => return Err(out_of_range("max", v)),
        Some(v) => Some(checked_scalar::<I>(name, v)?),
        None => None,
    };
    if min.is_none() && max.is_none() {
        return Err(no_clamp_bounds());
    }
    match (lo, hi) {
        (None, None) => apply1(name, src, dst, |x: I| x),
        (lo, hi) => clamp_by_bounds!(lo, hi, |f| apply1(name, src, dst, f)),
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

fn no_clamp_bounds() -> Error {
    Error::invalid(
        "clamp",
        "torch.clamp: At least one of 'min' or 'max' must not be None",
    )
}

/// The name of PyTorch's CPU kernel that refuses bool, as its error gives it.
fn bool_kernel_name(op: UnaryOp) -> &'static str {
    use UnaryOp::*;
    match op {
        Abs => "abs_cpu",
        Floor => "floor_vml_cpu",
        Ceil => "ceil_vml_cpu",
        Round => "round_vml_cpu",
        Trunc => "trunc_vml_cpu",
        Clamp {
            min: Some(_),
            max: None,
        } => "clamp_min_scalar_cpu",
        Clamp {
            min: None,
            max: Some(_),
        } => "clamp_max_scalar_cpu",
        Clamp { .. } => "clamp_scalar_cpu",
        _ => op.name(),
    }
}

fn unsupported(op: UnaryOp, dtype: DType) -> Error {
    Error::Unsupported {
        op: op.name(),
        dtype,
    }
}

fn negative_power() -> Error {
    Error::invalid(
        "pow",
        "Integers to negative integer powers are not allowed.",
    )
}

fn int_unary<I: Int>(op: UnaryOp, src: &Input<'_, Cpu>, dst: &mut Output<'_, Cpu>) -> Result<()> {
    use UnaryOp::*;
    let name = op.name();
    match op {
        Neg => apply1(name, src, dst, I::wrapping_neg),
        Abs => apply1(name, src, dst, I::wrapping_abs),
        Relu => apply1(name, src, dst, |x: I| max_of(x, I::ZERO)),
        Floor | Ceil | Round | Trunc => apply1(name, src, dst, |x: I| x),
        Sign => apply1(name, src, dst, int_sign::<I>),
        Square => apply1(name, src, dst, |x: I| x.wrapping_mul(x)),
        PowScalar(p) if p.fract() != 0.0 || p.is_nan() => Err(unsupported(op, src.dtype)),
        PowScalar(p) => {
            if p < 0.0 {
                return Err(negative_power());
            }
            let p = checked_scalar::<I>(name, p)?;
            apply1(name, src, dst, move |x: I| int_pow(x, p))
        }
        Clamp { min, max } => int_clamp::<I>(op, src, dst, min, max),
        _ => Err(unsupported(op, src.dtype)),
    }
}

/// The few unary ops bool has: `sign` is the identity, `square` and a
/// positive integer power are the identity too (`x·x = x` for 0 and 1).
fn bool_unary(op: UnaryOp, src: &Input<'_, Cpu>, dst: &mut Output<'_, Cpu>) -> Result<()> {
    use UnaryOp::*;
    let name = op.name();
    let identity = |x: Bool| Bool::from(x.get());
    match op {
        Sign | Square => apply1(name, src, dst, identity),
        PowScalar(p) if p.fract() != 0.0 || p.is_nan() => Err(unsupported(op, DType::Bool)),
        PowScalar(p) if p < 0.0 => Err(negative_power()),
        PowScalar(0.0) => apply1(name, src, dst, |_: Bool| Bool::TRUE),
        PowScalar(_) => apply1(name, src, dst, identity),
        Neg => Err(Error::invalid(
            "neg",
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
        )),
        Relu => Err(Error::invalid(
            "relu",
            "Boolean inputs not supported for relu",
        )),
        _ => Err(Error::Unsupported {
            op: bool_kernel_name(op),
            dtype: DType::Bool,
        }),
    }
}
