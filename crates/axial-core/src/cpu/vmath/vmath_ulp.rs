//! The vectorised functions against f64 references, in ulps of f32 (rsqrt
//! against PyTorch's bits, see `rsqrt`), with
//! every instruction set this CPU has: a sweep over the f32 bit patterns
//! (every 2¹⁴th in the default run, every one in the ignored exhaustive
//! test), the special values, the subnormals and the edges of overflow.
//!
//! ```sh
//! cargo test -p axial-core --release --lib vmath_ulp -- --ignored   # all 2³² inputs
//! ```

use crate::UnaryOp;
use crate::cpu::simd::{Level, available};
use crate::cpu::unary::simd_at;

/// The exact value of `op` at `x`, in f64.
fn reference(op: UnaryOp, x: f32) -> f64 {
    let x = x as f64;
    let sigmoid = |x: f64| {
        if x < 0.0 {
            let e = x.exp();
            e / (1.0 + e)
        } else {
            1.0 / (1.0 + (-x).exp())
        }
    };
    match op {
        UnaryOp::Exp => x.exp(),
        UnaryOp::Log => x.ln(),
        UnaryOp::Tanh => x.tanh(),
        UnaryOp::Sigmoid => sigmoid(x),
        UnaryOp::Silu if x == f64::NEG_INFINITY => f64::NAN,
        UnaryOp::Silu => x * sigmoid(x),
        UnaryOp::Erf => libm::erf(x),
        UnaryOp::Gelu if x == f64::NEG_INFINITY => f64::NAN,
        UnaryOp::Gelu => x * 0.5 * libm::erfc(-x * std::f64::consts::FRAC_1_SQRT_2),
        UnaryOp::GeluTanh if x == f64::NEG_INFINITY => f64::NAN,
        UnaryOp::GeluTanh => {
            let y = (2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x);
            x * sigmoid(2.0 * y)
        }
        UnaryOp::Sin => x.sin(),
        UnaryOp::Cos => x.cos(),
        UnaryOp::Rsqrt => 1.0 / x.sqrt(),
        UnaryOp::Softplus if x > 20.0 => x,
        UnaryOp::Softplus => libm::log1p(x.exp()),
        UnaryOp::PowScalar(p) => x.powf(p),
        op => panic!("{op:?} has no vectorised kernel"),
    }
}

/// |got − want| in units of the f32 spacing at `want` (0 when both are the
/// same NaN-ness or infinity; infinite when they differ in kind).
fn ulps(got: f32, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    // Beyond f32's range the correctly rounded value is infinite.
    let rounded = want as f32;
    if rounded.is_infinite() || got.is_infinite() {
        return if rounded == got { 0.0 } else { f64::INFINITY };
    }
    let a = want.abs().max(f32::MIN_POSITIVE as f64);
    let spacing = (2f64).powi(a.log2().floor() as i32 - 23);
    (got as f64 - want).abs() / spacing
}

/// Every op with a vectorised kernel (the rows of the table that name one),
/// and two powers.
fn ops() -> Vec<UnaryOp> {
    let mut ops: Vec<UnaryOp> = UnaryOp::every()
        .filter(|&op| !matches!(op, UnaryOp::PowScalar(_)))
        .filter(|&op| simd_at(Level::Portable, op, &[1.0], &mut [0.0]))
        .collect();
    ops.extend([UnaryOp::PowScalar(2.5), UnaryOp::PowScalar(-0.37)]);
    ops
}

/// The inputs every run checks: specials, subnormals, the edges of
/// overflow and underflow, and dense steps around 0 and ±1.
fn edge_inputs() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        f32::MAX,
        f32::MIN,
        88.722_83,
        88.722_84,
        -87.336_54,
        -103.972_08,
        -103.972_09,
        1.0e6,
        -1.0e6,
        1.0e30,
        3.0e38,
    ];
    for center in [0.0f32, 1.0, -1.0, 88.72, -103.9, 0.0625, 1.41, -13.9, 9.0] {
        let b = center.to_bits() as i64;
        for d in -300i64..300 {
            v.push(f32::from_bits((b + d * 7).clamp(0, u32::MAX as i64) as u32));
        }
    }
    for k in -1600..1600 {
        v.push(k as f32 * 0.01);
    }
    v
}

/// The largest error of `op` over `inputs` with `level`, and where.
fn worst(level: Level, op: UnaryOp, inputs: &[f32]) -> (f64, f32, f32) {
    let mut out = vec![0f32; inputs.len()];
    assert!(simd_at(level, op, inputs, &mut out), "{op:?} is vectorised");
    let mut worst = (0.0, 0.0, 0.0);
    for (&x, &y) in inputs.iter().zip(&out) {
        if op == UnaryOp::Rsqrt {
            // PyTorch's bits: `1/sqrtf(x)`, two roundings.
            let want = 1.0 / x.sqrt();
            let same = want.to_bits() == y.to_bits() || (want.is_nan() && y.is_nan());
            if !same {
                worst = (f64::INFINITY, x, y);
            }
            continue;
        }
        let e = ulps(y, reference(op, x));
        if e > worst.0 || e.is_nan() {
            worst = (e, x, y);
        }
    }
    worst
}

fn check(inputs: &[f32]) {
    for level in available() {
        for op in ops() {
            let (e, x, y) = worst(level, op, inputs);
            assert!(
                e <= 1.0,
                "{op:?} on {level:?}: {e:.3} ulp at x = {x:e} (bits {:#010x}): got {y:e}, want {:e}",
                x.to_bits(),
                reference(op, x)
            );
        }
    }
}

#[test]
fn within_one_ulp_on_the_edges() {
    check(&edge_inputs());
}

#[test]
fn within_one_ulp_on_a_sweep_of_bit_patterns() {
    let inputs: Vec<f32> = (0..1u64 << 18)
        .map(|i| f32::from_bits((i << 14) as u32 | 0x1234))
        .collect();
    check(&inputs);
}

#[test]
fn partial_vectors_and_in_place_runs() {
    for level in available() {
        for len in [0, 1, 7, 8, 15, 16, 17, 33] {
            let x: Vec<f32> = (0..len).map(|i| i as f32 * 0.37 - 3.0).collect();
            let mut y = vec![f32::NAN; len];
            simd_at(level, UnaryOp::Exp, &x, &mut y);
            for (a, b) in x.iter().zip(&y) {
                assert!(ulps(*b, (*a as f64).exp()) <= 1.0);
            }
        }
    }
}

/// Every f32: `cargo test --release -p axial-core --lib exhaustive -- --ignored`.
#[test]
#[ignore = "all 2³² inputs: minutes in release"]
fn exhaustive() {
    let level = available()[0];
    for op in ops() {
        let mut max = (0.0, 0.0f32, 0.0f32);
        for chunk in 0..1u64 << 12 {
            let inputs: Vec<f32> = (0..1u64 << 20)
                .map(|i| f32::from_bits(((chunk << 20) | i) as u32))
                .collect();
            let w = worst(level, op, &inputs);
            if w.0 > max.0 {
                max = w;
            }
        }
        println!(
            "{op:?}: max {:.4} ulp at {:e} (got {:e})",
            max.0, max.1, max.2
        );
        assert!(max.0 <= 1.0);
    }
}

/// The functions computed in f32 lanes (pairs `hi + lo` in their critical
/// steps) on every 2⁷th f32 bit pattern, with every instruction set:
/// `cargo test -p axial-core --release --lib dense -- --ignored`.
#[test]
#[ignore = "2²⁵ inputs per function and instruction set: a minute in release"]
fn f32_lane_functions_on_a_dense_sweep() {
    let inputs: Vec<f32> = (0..1u64 << 25)
        .map(|i| f32::from_bits((i << 7) as u32 | 0x35))
        .collect();
    for level in available() {
        for op in [
            UnaryOp::Tanh,
            UnaryOp::Sigmoid,
            UnaryOp::Silu,
            UnaryOp::Erf,
            UnaryOp::Gelu,
            UnaryOp::Sin,
            UnaryOp::Cos,
        ] {
            let (e, x, y) = worst(level, op, &inputs);
            println!("{op:?} on {level:?}: max {e:.4} ulp at {x:e} (got {y:e})");
            assert!(e <= 1.0, "{op:?} on {level:?}: {e} ulp at {x:e}");
        }
    }
}
