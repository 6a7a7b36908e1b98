//! Every elementwise kernel against a naive reference: the scalar op applied
//! to the elements of each operand read one by one, on random layouts
//! (permuted, sliced with steps, offset, broadcast, sizes 0 and 1) of inputs
//! and output, for every dtype. Floats are compared bit for bit where the
//! reference computes as PyTorch's kernel does, as numbers where only the
//! sign of a zero may differ, and within a tolerance where the reference is
//! the f64 function. The output's storage outside its layout must not change,
//! and a failing op must write nothing.
//!
//! The suite runs on every device (`per_device!`): the CPU, and the GPU
//! when `axial-cuda` is built with its `cuda` feature.

mod support;

use axial_core::half::{bf16, f16};
use axial_core::{
    BinaryOp, Bool, CmpOp, DType, Device, Element, Input, Kind, Layout, Output, RawTensor, Result,
    Storage, UnaryOp, cast, with_dtype,
};
use num_traits::Float;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use support::{Case, TestDevice, broadcast_pair, case, case_for, naive_elements};

/// How a kernel's element is compared with the reference's.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Check {
    /// The same bits (any NaN equals any NaN).
    Bits,
    /// The same number (−0 equals +0).
    Value,
    /// Within the dtype's tolerance of the f64 result.
    Near,
}

/// The reference value of one element, or `None` when the op must fail.
type Expected<T> = Option<(T, Check)>;
/// The reference of an op on a dtype, or `None` when the dtype has no such op.
type UnaryRef<T, O = T> = Option<Box<dyn Fn(T) -> Expected<O>>>;
type BinaryRef<T, O = T> = Option<Box<dyn Fn(T, T) -> Expected<O>>>;

/// Storage elements from a case's seeds: bools are `seed > 0` (so both
/// values are common), other types convert as casts do.
fn data<T: Element>(c: &Case) -> Vec<T> {
    c.storage
        .iter()
        .map(|&v| match T::KIND {
            Kind::Bool => cast(Bool::from(v > 0.0)),
            _ => T::from_f64(v),
        })
        .collect()
}

fn tensor<T: Element, D: Device>(dev: &D, c: &Case) -> RawTensor<D> {
    RawTensor::from_parts(
        Storage::from_host_slice(dev, &data::<T>(c)).expect("the device holds the case"),
        c.layout.clone(),
        T::DTYPE,
    )
    .expect("generated layouts are in bounds")
}

fn sizes(shape: &[usize]) -> Vec<isize> {
    shape.iter().map(|&n| n as isize).collect()
}

/// A kernel input over `t`, broadcast to `shape`.
fn input<'a, D: Device>(t: &'a RawTensor<D>, shape: &[usize]) -> Input<'a, D> {
    Input {
        storage: Some(t.storage()),
        layout: t.layout().expand(&sizes(shape)).expect("broadcastable"),
        dtype: t.dtype(),
    }
}

/// The elements of `c` (broadcast to `shape`), read one by one.
fn naive<T: Element>(c: &Case, shape: &[usize]) -> Vec<T> {
    let layout = c.layout.expand(&sizes(shape)).expect("broadcastable");
    naive_elements(&data::<T>(c), &layout)
}

/// `(relative, absolute)` tolerance of [`Check::Near`] for a float dtype:
/// the f32 computation's error, then the rounding to the dtype.
fn tolerance(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::F64 => (1e-13, 1e-300),
        DType::F32 => (4e-6, 1e-6),
        DType::F16 => (1.0 / 512.0, 1e-6),
        _ => (1.0 / 64.0, 1e-6),
    }
}

fn matches<T: Element>(got: T, (want, check): (T, Check)) -> bool {
    if T::KIND == Kind::Complex {
        // Each part as a float: NaN matches NaN, whatever its payload.
        let (g, w) = (got.to_c128(), want.to_c128());
        return matches(g.re, (w.re, check)) && matches(g.im, (w.im, check));
    }
    if T::KIND != Kind::Float {
        return got == want;
    }
    let (g, w) = (got.to_f64(), want.to_f64());
    if g.is_nan() || w.is_nan() {
        return g.is_nan() && w.is_nan();
    }
    match check {
        Check::Bits => g.to_bits() == w.to_bits(),
        Check::Value => g == w,
        Check::Near => {
            let (rel, abs) = tolerance(T::DTYPE);
            g == w || (g - w).abs() <= rel * w.abs() + abs
        }
    }
}

/// Runs `kernel` into a fresh output laid out as `out` (seeded with its
/// storage), then checks it against `expected`.
fn check_kernel<O: Element, D: Device>(
    dev: &D,
    out: &Case,
    expected: Option<Vec<Expected<O>>>,
    kernel: impl FnOnce(Output<'_, D>) -> Result<()>,
) -> Result<(), TestCaseError> {
    let before = data::<O>(out);
    let mut storage = Storage::from_host_slice(dev, &before).expect("the device holds the case");
    let result = kernel(Output {
        storage: &mut storage,
        layout: out.layout.clone(),
        dtype: O::DTYPE,
    });
    let after: Vec<O> = bytemuck::pod_collect_to_vec(&storage.to_host_bytes().expect("readable"));
    let expected = expected.and_then(|e| e.into_iter().collect::<Option<Vec<_>>>());
    let Some(expected) = expected else {
        prop_assert!(result.is_err(), "the op should have failed");
        prop_assert!(
            bits_equal(&after, &before),
            "a failing op wrote into its output"
        );
        return Ok(());
    };
    prop_assert!(result.is_ok(), "{:?}", result);
    let got = naive_elements(&after, &out.layout);
    for (i, (&g, &e)) in got.iter().zip(&expected).enumerate() {
        prop_assert!(
            matches(g, e),
            "element {}: got {:?}, expected {:?}",
            i,
            g,
            e
        );
    }
    // Storage the output layout does not cover is untouched.
    let idx: Vec<usize> = (0..before.len()).collect();
    let mut covered = vec![false; before.len()];
    for i in naive_elements(&idx, &out.layout) {
        covered[i] = true;
    }
    for (i, c) in covered.iter().enumerate() {
        if !c {
            prop_assert!(
                bits_equal(&after[i..=i], &before[i..=i]),
                "wrote outside the layout at {}",
                i
            );
        }
    }
    Ok(())
}

fn bits_equal<T: Element>(a: &[T], b: &[T]) -> bool {
    bytemuck::cast_slice::<T, u8>(a) == bytemuck::cast_slice::<T, u8>(b)
}

// ---------------------------------------------------------------- references

/// A float op computed as PyTorch computes it: in the compute type (f32 for
/// f16, bf16 and f32; f64 for f64), rounded back to `T`.
fn in_compute_type<T: Element>(
    f32_op: impl Fn(f32) -> f32 + 'static,
    f64_op: impl Fn(f64) -> f64 + 'static,
    check: Check,
) -> Box<dyn Fn(T) -> Expected<T>> {
    if T::DTYPE == DType::F64 {
        Box::new(move |x: T| Some((T::from_f64(f64_op(x.to_f64())), check)))
    } else {
        Box::new(move |x: T| Some((T::from_f32(f32_op(x.to_f32())), check)))
    }
}

fn in_compute_type2<T: Element>(
    f32_op: impl Fn(f32, f32) -> f32 + 'static,
    f64_op: impl Fn(f64, f64) -> f64 + 'static,
    check: Check,
) -> Box<dyn Fn(T, T) -> Expected<T>> {
    if T::DTYPE == DType::F64 {
        Box::new(move |a: T, b: T| Some((T::from_f64(f64_op(a.to_f64(), b.to_f64())), check)))
    } else {
        Box::new(move |a: T, b: T| Some((T::from_f32(f32_op(a.to_f32(), b.to_f32())), check)))
    }
}

/// Round half to even, from `round` (half away from zero).
fn round_half_even<C: Float>(x: C) -> C {
    let two = C::one() + C::one();
    if (x - x.trunc()).abs() == C::one() / two {
        two * (x / two).round()
    } else {
        x.round()
    }
}

/// The unary ops computed exactly as PyTorch's kernels (`pow` only for its
/// special exponents), in the compute type `C`.
fn exact_unary<C: Float + 'static>(op: UnaryOp) -> Option<Box<dyn Fn(C) -> C>> {
    use UnaryOp::*;
    let (zero, one) = (C::zero(), C::one());
    Some(match op {
        Neg => Box::new(|x: C| -x),
        Abs => Box::new(|x: C| x.abs()),
        Sqrt | PowScalar(0.5) => Box::new(|x: C| x.sqrt()),
        Rsqrt | PowScalar(-0.5) => Box::new(move |x: C| one / x.sqrt()),
        Floor => Box::new(|x: C| x.floor()),
        Ceil => Box::new(|x: C| x.ceil()),
        Round => Box::new(round_half_even),
        Trunc => Box::new(|x: C| x.trunc()),
        Sign => Box::new(move |x: C| {
            let pos = if x > zero { one } else { zero };
            let neg = if x < zero { one } else { zero };
            pos - neg
        }),
        Reciprocal | PowScalar(-1.0) => Box::new(move |x: C| one / x),
        Square | PowScalar(2.0) => Box::new(|x: C| x * x),
        PowScalar(3.0) => Box::new(|x: C| x * x * x),
        PowScalar(-2.0) => Box::new(move |x: C| one / (x * x)),
        PowScalar(0.0) => Box::new(move |_| one),
        PowScalar(1.0) => Box::new(|x: C| x),
        Relu => Box::new(move |x: C| if x < zero { zero } else { x }),
        _ => return None,
    })
}

/// The unary ops whose reference is the f64 function.
fn f64_unary(op: UnaryOp) -> Option<Box<dyn Fn(f64) -> f64>> {
    use UnaryOp::*;
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    Some(match op {
        Exp => Box::new(f64::exp),
        Log => Box::new(f64::ln),
        Log1p => Box::new(f64::ln_1p),
        Expm1 => Box::new(f64::exp_m1),
        Sin => Box::new(f64::sin),
        Cos => Box::new(f64::cos),
        Tan => Box::new(f64::tan),
        Tanh => Box::new(f64::tanh),
        Erf => Box::new(libm::erf),
        Sigmoid => Box::new(sigmoid),
        Silu => Box::new(move |x| x * sigmoid(x)),
        Softplus => Box::new(|x| if x > 20.0 { x } else { libm::log1p(x.exp()) }),
        Gelu => Box::new(|x| 0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2))),
        GeluTanh => Box::new(|x| {
            let k = (2.0 / std::f64::consts::PI).sqrt();
            0.5 * x * (1.0 + (k * (x + 0.044715 * x * x * x)).tanh())
        }),
        PowScalar(p) => Box::new(move |x: f64| x.powf(p)),
        _ => return None,
    })
}

/// The range of a dtype's values, as PyTorch checks a scalar against it.
fn limits(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::U8 => (0.0, 255.0),
        DType::I8 => (-128.0, 127.0),
        DType::I16 => (-32768.0, 32767.0),
        DType::I32 => (i32::MIN as f64, i32::MAX as f64),
        DType::I64 => (i64::MIN as f64, i64::MAX as f64),
        DType::F16 => (-65504.0, 65504.0),
        DType::BF16 => (-3.3895313892515355e38, 3.3895313892515355e38),
        DType::F32 => (f32::MIN as f64, f32::MAX as f64),
        _ => (f64::MIN, f64::MAX),
    }
}

/// A scalar bound as the kernel sees it, or `None` when PyTorch refuses it.
fn bound<T: Element>(v: f64) -> Option<T> {
    let (lo, hi) = limits(T::DTYPE);
    let float_ok = T::KIND == Kind::Float && (v.is_nan() || v.is_infinite());
    (float_ok || (lo..=hi).contains(&v)).then(|| T::from_f64(v))
}

/// `clamp` on floats: bounds rounded to `T` (refused beyond its range); a
/// NaN bound makes every element NaN.
fn float_clamp_ref<T: Element>(min: Option<f64>, max: Option<f64>) -> UnaryRef<T> {
    let lo = min.map(bound::<T>).map_or(Some(None), |b| b.map(Some))?;
    let hi = max.map(bound::<T>).map_or(Some(None), |b| b.map(Some))?;
    if min.is_some_and(f64::is_nan) || max.is_some_and(f64::is_nan) {
        return Some(Box::new(|_| Some((T::from_f64(f64::NAN), Check::Bits))));
    }
    clamp_ref(lo, hi)
}

/// `clamp` on integers: a bound beyond the range that cannot bind is
/// dropped; one that would bind every element is refused.
fn int_clamp_ref<T: Element>(min: Option<f64>, max: Option<f64>) -> UnaryRef<T> {
    let (lowest, highest) = limits(T::DTYPE);
    let lo = match min {
        Some(v) if v < lowest => None,
        Some(v) => Some(bound::<T>(v)?),
        None => None,
    };
    let hi = match max {
        Some(v) if v > highest => None,
        Some(v) => Some(bound::<T>(v)?),
        None => None,
    };
    if lo.is_none() && hi.is_none() {
        return (min.is_some() || max.is_some())
            .then(|| -> Box<dyn Fn(T) -> Expected<T>> { Box::new(|x| Some((x, Check::Bits))) });
    }
    clamp_ref(lo, hi)
}

/// `x` clamped to the bounds present (compared as f64: exact for every
/// value of these dtypes in the tests).
fn clamp_ref<T: Element>(lo: Option<T>, hi: Option<T>) -> UnaryRef<T> {
    lo.or(hi)?;
    Some(Box::new(move |x: T| {
        let mut y = x;
        if let Some(lo) = lo
            && y.to_f64() < lo.to_f64()
        {
            y = lo;
        }
        if let Some(hi) = hi
            && y.to_f64() > hi.to_f64()
        {
            y = hi;
        }
        Some((y, Check::Bits))
    }))
}

/// `pow` by a scalar where its dtype departs from f32's special cases: f16
/// has none (it is `pow` in f32), bf16 rounds the square of `x³` and `x⁻²`.
fn half_pow_ref<T: Element>(p: f64) -> UnaryRef<T> {
    let round = |v: f32| T::from_f32(v).to_f32();
    match (T::DTYPE, p) {
        (_, 0.0 | 1.0) => None,
        (DType::F16, _) => Some(Box::new(move |x: T| {
            Some((T::from_f64(x.to_f64().powf(p)), Check::Near))
        })),
        (DType::BF16, 3.0) => Some(Box::new(move |x: T| {
            let x = x.to_f32();
            Some((T::from_f32(round(x * x) * x), Check::Bits))
        })),
        (DType::BF16, -2.0) => Some(Box::new(move |x: T| {
            let x = x.to_f32();
            Some((T::from_f32(1.0 / round(x * x)), Check::Bits))
        })),
        _ => None,
    }
}

fn float_unary_ref<T: Element>(op: UnaryOp) -> UnaryRef<T> {
    if let UnaryOp::Clamp { min, max } = op {
        return float_clamp_ref::<T>(min, max);
    }
    if let UnaryOp::PowScalar(p) = op
        && let Some(r) = half_pow_ref::<T>(p)
    {
        return Some(r);
    }
    if let (Some(f32_op), Some(f64_op)) = (exact_unary::<f32>(op), exact_unary::<f64>(op)) {
        return Some(in_compute_type::<T>(f32_op, f64_op, Check::Bits));
    }
    let f = f64_unary(op)?;
    Some(Box::new(move |x: T| {
        Some((T::from_f64(f(x.to_f64())), Check::Near))
    }))
}

/// Integers are computed in i128 and wrapped.
fn wrap<T: Element>(v: i128) -> T {
    T::from_i64(v as i64)
}

fn int_unary_ref<T: Element>(op: UnaryOp) -> UnaryRef<T> {
    use UnaryOp::*;
    let int = |f: fn(i128) -> i128| -> UnaryRef<T> {
        Some(Box::new(move |x: T| {
            Some((wrap(f(x.to_i64() as i128)), Check::Bits))
        }))
    };
    match op {
        Neg => int(|x| -x),
        Abs => int(i128::abs),
        Relu => int(|x| x.max(0)),
        Floor | Ceil | Round | Trunc => int(|x| x),
        Sign => int(i128::signum),
        Square => int(|x| x * x),
        PowScalar(p) if p.fract() != 0.0 || p < 0.0 => None,
        PowScalar(p) => {
            let e = bound::<T>(p)?.to_i64() as u32;
            Some(Box::new(move |x: T| {
                Some((wrap((x.to_i64() as i128).wrapping_pow(e)), Check::Bits))
            }))
        }
        Clamp { min, max } => int_clamp_ref::<T>(min, max),
        _ => None,
    }
}

fn bool_unary_ref(op: UnaryOp) -> UnaryRef<Bool> {
    use UnaryOp::*;
    let same = |x: Bool| Some((x, Check::Bits));
    match op {
        Sign | Square => Some(Box::new(same)),
        PowScalar(p) if p.fract() != 0.0 || p < 0.0 => None,
        PowScalar(0.0) => Some(Box::new(|_| Some((Bool::TRUE, Check::Bits)))),
        PowScalar(_) => Some(Box::new(same)),
        _ => None,
    }
}

fn unary_ref<T: Element>(op: UnaryOp) -> UnaryRef<T> {
    match T::KIND {
        Kind::Float => float_unary_ref::<T>(op),
        Kind::Int => int_unary_ref::<T>(op),
        Kind::Bool => {
            let r = bool_unary_ref(op)?;
            Some(Box::new(move |x: T| r(cast(x)).map(|(v, c)| (cast(v), c))))
        }
        // The elementwise properties run over `DType::ALL`; complex numbers
        // are checked against PyTorch in `torch_dtypes.rs`.
        Kind::Complex => None,
    }
}

fn float_binary_ref<T: Element>(op: BinaryOp) -> BinaryRef<T> {
    use BinaryOp::*;
    let near = |f: fn(f64, f64) -> f64| -> BinaryRef<T> {
        Some(Box::new(move |a: T, b: T| {
            Some((T::from_f64(f(a.to_f64(), b.to_f64())), Check::Near))
        }))
    };
    // Exact in f64 for the small values of the tests, up to the sign of zero.
    let value = |f: fn(f64, f64) -> f64| -> BinaryRef<T> {
        Some(Box::new(move |a: T, b: T| {
            Some((T::from_f64(f(a.to_f64(), b.to_f64())), Check::Value))
        }))
    };
    let nan_or = |f: fn(f64, f64) -> f64| {
        move |a: f64, b: f64| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                f(a, b)
            }
        }
    };
    match op {
        Add => Some(in_compute_type2::<T>(
            |a, b| a + b,
            |a, b| a + b,
            Check::Bits,
        )),
        Sub => Some(in_compute_type2::<T>(
            |a, b| a - b,
            |a, b| a - b,
            Check::Bits,
        )),
        Mul => Some(in_compute_type2::<T>(
            |a, b| a * b,
            |a, b| a * b,
            Check::Bits,
        )),
        Div => Some(in_compute_type2::<T>(
            |a, b| a / b,
            |a, b| a / b,
            Check::Bits,
        )),
        FloorDiv => value(|a, b| (a / b).floor()),
        Rem => value(|a, b| a - b * (a / b).floor()),
        Maximum => {
            let f = nan_or(f64::max);
            Some(Box::new(move |a: T, b: T| {
                Some((T::from_f64(f(a.to_f64(), b.to_f64())), Check::Value))
            }))
        }
        Minimum => {
            let f = nan_or(f64::min);
            Some(Box::new(move |a: T, b: T| {
                Some((T::from_f64(f(a.to_f64(), b.to_f64())), Check::Value))
            }))
        }
        Pow => near(f64::powf),
        Atan2 => near(f64::atan2),
        _ => None,
    }
}

/// Python's `a % b`: the remainder in the divisor's sign.
fn py_mod(a: i128, b: i128) -> i128 {
    ((a % b) + b) % b
}

fn int_binary_ref<T: Element>(op: BinaryOp) -> BinaryRef<T> {
    use BinaryOp::*;
    let int = |f: fn(i128, i128) -> Option<i128>| -> BinaryRef<T> {
        Some(Box::new(move |a: T, b: T| {
            f(a.to_i64() as i128, b.to_i64() as i128).map(|v| (wrap(v), Check::Bits))
        }))
    };
    match op {
        Add => int(|a, b| Some(a + b)),
        Sub => int(|a, b| Some(a - b)),
        Mul => int(|a, b| Some(a * b)),
        Maximum => int(|a, b| Some(a.max(b))),
        Minimum => int(|a, b| Some(a.min(b))),
        Rem => int(|a, b| (b != 0).then(|| py_mod(a, b))),
        FloorDiv => int(|a, b| (b != 0).then(|| (a - py_mod(a, b)) / b)),
        Pow => int(|a, b| (b >= 0).then(|| a.wrapping_pow(b as u32))),
        _ => None,
    }
}

fn bool_binary_ref<T: Element>(op: BinaryOp) -> BinaryRef<T> {
    let f: fn(bool, bool) -> bool = match op {
        BinaryOp::Add | BinaryOp::Maximum => |a, b| a || b,
        BinaryOp::Mul | BinaryOp::Minimum => |a, b| a && b,
        _ => return None,
    };
    Some(Box::new(move |a: T, b: T| {
        Some((
            cast(Bool::from(f(a.is_nonzero(), b.is_nonzero()))),
            Check::Bits,
        ))
    }))
}

fn binary_ref<T: Element>(op: BinaryOp) -> BinaryRef<T> {
    match T::KIND {
        Kind::Float => float_binary_ref::<T>(op),
        Kind::Int => int_binary_ref::<T>(op),
        Kind::Bool => bool_binary_ref::<T>(op),
        Kind::Complex => None,
    }
}

// ------------------------------------------------------------------ checks

fn expected1<T: Element, O: Element>(r: UnaryRef<T, O>, x: &[T]) -> Option<Vec<Expected<O>>> {
    r.map(|f| x.iter().map(|&v| f(v)).collect())
}

fn expected2<T: Element, O: Element>(
    r: BinaryRef<T, O>,
    a: &[T],
    b: &[T],
) -> Option<Vec<Expected<O>>> {
    r.map(|f| a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect())
}

fn check_unary<T: Element, D: TestDevice>(
    dev: &D,
    op: UnaryOp,
    x: &Case,
    out: &Case,
) -> Result<(), TestCaseError> {
    let t = tensor::<T, D>(dev, x);
    let xs = naive::<T>(x, &x.shape);
    let run = |o: Output<'_, D>| dev.unary(op, input(&t, &x.shape), o);
    if op == UnaryOp::LogicalNot {
        let not: UnaryRef<T, Bool> = Some(Box::new(|v: T| {
            Some((Bool::from(!v.is_nonzero()), Check::Bits))
        }));
        return check_kernel::<Bool, D>(dev, out, expected1(not, &xs), run);
    }
    check_kernel::<T, D>(dev, out, expected1(unary_ref::<T>(op), &xs), run)
}

fn check_binary<T: Element, D: TestDevice>(
    dev: &D,
    op: BinaryOp,
    (a, b): &(Case, Case),
    out: &Case,
) -> Result<(), TestCaseError> {
    let shape = &out.shape;
    let (ta, tb) = (tensor::<T, D>(dev, a), tensor::<T, D>(dev, b));
    let (xs, ys) = (naive::<T>(a, shape), naive::<T>(b, shape));
    let run =
        |o: Output<'_, D>| dev.binary(op, input(&ta, shape).into(), input(&tb, shape).into(), o);
    if let BinaryOp::LogicalAnd | BinaryOp::LogicalOr = op {
        let and = op == BinaryOp::LogicalAnd;
        let logical: BinaryRef<T, Bool> = Some(Box::new(move |x: T, y: T| {
            let (x, y) = (x.is_nonzero(), y.is_nonzero());
            Some((Bool::from(if and { x && y } else { x || y }), Check::Bits))
        }));
        return check_kernel::<Bool, D>(dev, out, expected2(logical, &xs, &ys), run);
    }
    check_kernel::<T, D>(dev, out, expected2(binary_ref::<T>(op), &xs, &ys), run)
}

fn check_compare<T: Element, D: TestDevice>(
    dev: &D,
    op: CmpOp,
    (a, b): &(Case, Case),
    out: &Case,
) -> Result<(), TestCaseError> {
    let shape = &out.shape;
    let (ta, tb) = (tensor::<T, D>(dev, a), tensor::<T, D>(dev, b));
    let (xs, ys) = (naive::<T>(a, shape), naive::<T>(b, shape));
    // As f64: exact for every value the tests generate, bools as 0 and 1.
    let f: fn(f64, f64) -> bool = match op {
        CmpOp::Eq => |x, y| x == y,
        CmpOp::Ne => |x, y| x != y,
        CmpOp::Lt => |x, y| x < y,
        CmpOp::Le => |x, y| x <= y,
        CmpOp::Gt => |x, y| x > y,
        CmpOp::Ge => |x, y| x >= y,
    };
    let r: BinaryRef<T, Bool> = Some(Box::new(move |x: T, y: T| {
        Some((Bool::from(f(x.to_f64(), y.to_f64())), Check::Bits))
    }));
    check_kernel::<Bool, D>(dev, out, expected2(r, &xs, &ys), |o| {
        dev.compare(op, input(&ta, shape).into(), input(&tb, shape).into(), o)
    })
}

fn check_where<T: Element, D: TestDevice>(
    dev: &D,
    cond: &Case,
    (a, b): &(Case, Case),
    out: &Case,
) -> Result<(), TestCaseError> {
    let shape = &out.shape;
    let (tc, ta, tb) = (
        tensor::<Bool, D>(dev, cond),
        tensor::<T, D>(dev, a),
        tensor::<T, D>(dev, b),
    );
    let cs = naive::<Bool>(cond, shape);
    let (xs, ys) = (naive::<T>(a, shape), naive::<T>(b, shape));
    let expected = cs
        .iter()
        .zip(xs.iter().zip(&ys))
        .map(|(c, (&x, &y))| Some((if c.get() { x } else { y }, Check::Bits)))
        .collect();
    check_kernel::<T, D>(dev, out, Some(expected), |o| {
        dev.select_where(input(&tc, shape), input(&ta, shape), input(&tb, shape), o)
    })
}

fn check_copy<S: Element, O: Element, D: TestDevice>(
    dev: &D,
    x: &Case,
    out: &Case,
) -> Result<(), TestCaseError> {
    let t = tensor::<S, D>(dev, x);
    let xs = naive::<S>(x, &x.shape);
    let r: UnaryRef<S, O> = Some(Box::new(|v: S| Some((cast::<S, O>(v), Check::Bits))));
    check_kernel::<O, D>(dev, out, expected1(r, &xs), |o| {
        dev.copy(input(&t, &x.shape), o)
    })
}

// -------------------------------------------------------------- strategies

fn unary_op() -> impl Strategy<Value = UnaryOp> {
    use UnaryOp::*;
    let plain = prop::sample::select(vec![
        Neg, Abs, Sqrt, Rsqrt, Exp, Log, Log1p, Expm1, Sin, Cos, Tan, Tanh, Sigmoid, Relu, Gelu,
        GeluTanh, Silu, Softplus, Erf, Floor, Ceil, Round, Trunc, Sign, Reciprocal, Square,
        LogicalNot,
    ]);
    let power = prop::sample::select(vec![
        0.0, 1.0, 0.5, -0.5, -1.0, 2.0, 3.0, -2.0, 1.5, 4.0, -3.0,
    ])
    .prop_map(PowScalar);
    let limit = prop_oneof![
        3 => Just(None),
        6 => (-8i32..8).prop_map(|v| Some(v as f64 / 2.0)),
        1 => prop::sample::select(vec![f64::NAN, 1e5, -1e5, f64::INFINITY]).prop_map(Some),
    ];
    let clamp = (limit.clone(), limit).prop_map(|(min, max)| Clamp { min, max });
    prop_oneof![6 => plain, 2 => power, 2 => clamp]
}

fn binary_op() -> impl Strategy<Value = BinaryOp> {
    use BinaryOp::*;
    prop::sample::select(vec![
        Add, Sub, Mul, Div, Rem, FloorDiv, Pow, Maximum, Minimum, Atan2, LogicalAnd, LogicalOr,
    ])
}

/// A few ops to check on one case.
fn several<T: std::fmt::Debug>(op: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(op, 4)
}

fn cmp_op() -> impl Strategy<Value = CmpOp> {
    prop::sample::select(vec![
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ])
}

/// An input case (maybe broadcast) and an output layout of its shape.
fn unary_cases() -> impl Strategy<Value = (Case, Case)> {
    case(true, true).prop_flat_map(|x| {
        let shape = x.shape.clone();
        (Just(x), case_for(shape, false, false))
    })
}

/// Two inputs of shapes that broadcast, and an output of the broadcast shape.
fn binary_cases() -> impl Strategy<Value = ((Case, Case), Case)> {
    broadcast_pair(true).prop_flat_map(|(a, b)| {
        let shape = broadcast_shape(&a.shape, &b.shape);
        (Just((a, b)), case_for(shape, false, false))
    })
}

fn broadcast_shape(a: &[usize], b: &[usize]) -> Vec<usize> {
    axial_core::layout::broadcast_shapes(a, b)
        .expect("broadcastable")
        .to_vec()
}

/// A condition (maybe broadcast), two inputs and an output, of one shape.
fn where_cases() -> impl Strategy<Value = (Case, (Case, Case), Case)> {
    binary_cases().prop_flat_map(|(pair, out)| {
        let shape = out.shape.clone();
        (case_for(shape, true, false), Just(pair), Just(out))
    })
}

/// Shapes of more than the parallel threshold (32K elements): two long
/// dims, one long run, and many short rows.
fn big_shape() -> impl Strategy<Value = Vec<usize>> {
    prop::sample::select(vec![vec![181, 190], vec![3, 1, 11_111], vec![2, 130, 131]])
}

fn big_unary_cases() -> impl Strategy<Value = (Case, Case)> {
    big_shape().prop_flat_map(|s| (case_for(s.clone(), true, true), case_for(s, false, false)))
}

fn big_binary_cases() -> impl Strategy<Value = ((Case, Case), Case)> {
    big_shape().prop_flat_map(|s| {
        let pair = (
            case_for(s.clone(), false, true),
            case_for(s.clone(), true, true),
        );
        (pair, case_for(s, false, false))
    })
}

/// A transposed (rows, cols) view of every `step`-th row of a contiguous
/// (cols·step, rows) base, and a contiguous output of its shape.
fn transposed_case(rows: usize, cols: usize, step: usize) -> (Case, Case) {
    let base = Layout::contiguous(&[cols * step, rows]);
    let layout = base
        .slice(0, None, None, step as isize)
        .unwrap()
        .t()
        .unwrap();
    let storage: Vec<f64> = (0..cols * step * rows)
        .map(|i| (i % 251) as f64 - 125.0)
        .collect();
    let shape = vec![rows, cols];
    let x = Case {
        shape: shape.clone(),
        layout,
        storage,
    };
    let out = Case {
        layout: Layout::contiguous(&shape),
        shape,
        storage: vec![0.0; rows * cols],
    };
    (x, out)
}

crate::per_device! {
/// One property test module per dtype.
macro_rules! per_dtype {
    ($($name:ident: $t:ty,)*) => {$(
        mod $name {
            use super::*;

            proptest! {
                #[test]
                fn unary_matches_reference((x, out) in unary_cases(), ops in several(unary_op())) {
                    let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
                    for op in ops {
                        check_unary::<$t, Dev>(&dev, op, &x, &out)?;
                    }
                }

                #[test]
                fn binary_matches_reference((pair, out) in binary_cases(), ops in several(binary_op())) {
                    let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
                    for op in ops {
                        check_binary::<$t, Dev>(&dev, op, &pair, &out)?;
                    }
                }

                #[test]
                fn compare_matches_reference((pair, out) in binary_cases(), op in cmp_op()) {
                    let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
                    check_compare::<$t, Dev>(&dev, op, &pair, &out)?;
                }

                #[test]
                fn where_matches_reference((cond, pair, out) in where_cases()) {
                    let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
                    check_where::<$t, Dev>(&dev, &cond, &pair, &out)?;
                }
            }
        }
    )*};
}

per_dtype! {
    bool_: Bool,
    u8_: u8,
    i8_: i8,
    i16_: i16,
    i32_: i32,
    i64_: i64,
    f16_: f16,
    bf16_: bf16,
    f32_: f32,
    f64_: f64,
}

proptest! {
    #[test]
    fn copy_converts_between_any_layouts_and_dtypes(
        (x, out) in unary_cases(),
        src in prop::sample::select(Dev::DTYPES.to_vec()),
        dst in prop::sample::select(Dev::DTYPES.to_vec()),
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        with_dtype!(src, S => with_dtype!(dst, O => check_copy::<S, O, Dev>(&dev, &x, &out)))?;
    }

    #[test]
    fn transposed_copies_match_reference(
        rows in 0usize..80,
        cols in 0usize..80,
        step in 1usize..3,
        src in prop::sample::select(Dev::DTYPES.to_vec()),
        dst in prop::sample::select(Dev::DTYPES.to_vec()),
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        let (x, out) = transposed_case(rows, cols, step);
        with_dtype!(src, S => with_dtype!(dst, O => check_copy::<S, O, Dev>(&dev, &x, &out)))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Copies of more than the threshold of plain ops (256K elements):
    /// transposed (tiled on several threads) or contiguous (memmove pieces).
    #[test]
    fn big_copies_of_plain_layouts_run_in_parallel_like_reference(
        rows in 512usize..640,
        cols in 512usize..640,
        transposed in any::<bool>(),
        src in prop::sample::select(Dev::DTYPES.to_vec()),
        dst in prop::sample::select(Dev::DTYPES.to_vec()),
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        let (x, out) = if transposed {
            transposed_case(rows, cols, 1)
        } else {
            let (x, out) = transposed_case(cols, rows, 1);
            let x = Case { layout: Layout::contiguous(&out.shape), shape: out.shape.clone(), ..x };
            (x, out)
        };
        with_dtype!(src, S => with_dtype!(dst, O => check_copy::<S, O, Dev>(&dev, &x, &out)))?;
    }

    #[test]
    fn big_unary_runs_in_parallel_like_reference((x, out) in big_unary_cases(), op in unary_op()) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        check_unary::<f32, Dev>(&dev, op, &x, &out)?;
        check_unary::<bf16, Dev>(&dev, op, &x, &out)?;
    }

    #[test]
    fn big_binary_runs_in_parallel_like_reference((pair, out) in big_binary_cases(), op in binary_op()) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        check_binary::<f32, Dev>(&dev, op, &pair, &out)?;
        check_binary::<i32, Dev>(&dev, op, &pair, &out)?;
        check_compare::<f16, Dev>(&dev, CmpOp::Lt, &pair, &out)?;
        check_where::<i64, Dev>(&dev, &out, &pair, &out)?;
    }

    #[test]
    fn big_copies_run_in_parallel_like_reference(
        (x, out) in big_unary_cases(),
        src in prop::sample::select(DType::ALL.to_vec()),
        dst in prop::sample::select(DType::ALL.to_vec()),
    ) {
        let Some(dev) = Dev::get(module_path!()) else { return Ok(()) };
        with_dtype!(src, S => with_dtype!(dst, O => check_copy::<S, O, Dev>(&dev, &x, &out)))?;
    }
}
}
