//! `g · f′(x)` in one pass for the activations whose derivative the op
//! table writes as a chain of elementwise steps: the exact and the tanh
//! GELU and SiLU, each step's formula PyTorch's (`GeluBackward`,
//! `silu_backward`), its transcendental functions the forward's lanes.

use rayon::prelude::*;

use super::{load, plain_f32, store, vectors};
use crate::cpu::simd::{Isa, WithIsa, dispatch};
use crate::cpu::strided::PARALLEL_THRESHOLD;
use crate::cpu::vmath::Lanewise;
use crate::cpu::vmath::erf::erf;
use crate::cpu::vmath::exp;
use crate::cpu::vmath::logistic::{SigmoidOp, tanh};
use crate::{Cpu, Input, Output, Result, UnaryOp};

/// The activations with a fused derivative.
#[derive(Copy, Clone)]
enum Slope {
    Gelu,
    GeluTanh,
    Silu,
}

/// `dst = g · op′(x)` when `op` is the exact or the tanh GELU or SiLU and
/// every operand is a contiguous f32 tensor of one shape; `false` (nothing
/// written) otherwise.
pub(crate) fn unary_backward(
    op: UnaryOp,
    x: Input<'_, Cpu>,
    g: Input<'_, Cpu>,
    mut dst: Output<'_, Cpu>,
) -> Result<bool> {
    let slope = match op {
        UnaryOp::Gelu => Slope::Gelu,
        UnaryOp::GeluTanh => Slope::GeluTanh,
        UnaryOp::Silu => Slope::Silu,
        _ => return Ok(false),
    };
    let Some(([x, g], out)) = plain_f32([&x, &g], &mut dst)? else {
        return Ok(false);
    };
    // A piece of this many elements is worth a thread (the functions cost
    // tens of instructions an element).
    const PIECE: usize = PARALLEL_THRESHOLD / 2;
    if out.len() <= PIECE || rayon::current_num_threads() == 1 {
        run(slope, x, g, out);
        return Ok(true);
    }
    out.par_chunks_mut(PIECE)
        .zip(x.par_chunks(PIECE).zip(g.par_chunks(PIECE)))
        .for_each(|(out, (x, g))| run(slope, x, g, out));
    Ok(true)
}

/// One piece, with the CPU's best vectors.
fn run(slope: Slope, x: &[f32], g: &[f32], out: &mut [f32]) {
    debug_assert!(x.len() == out.len() && g.len() == out.len());
    let len = out.len().min(x.len()).min(g.len());
    dispatch(Piece {
        slope,
        x: x.as_ptr(),
        g: g.as_ptr(),
        out: out.as_mut_ptr(),
        len,
    });
}

/// `len` elements of each operand.
struct Piece {
    slope: Slope,
    x: *const f32,
    g: *const f32,
    out: *mut f32,
    len: usize,
}

impl WithIsa for Piece {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let Piece {
            slope,
            x,
            g,
            out,
            len,
        } = self;
        for at in vectors::<I>(len) {
            // SAFETY: `run` passes three slices of at least `len` elements,
            // the output a distinct buffer; every access is below `len`.
            unsafe {
                let (xv, gv) = (load(isa, x, at), load(isa, g, at));
                store(isa, out, at, isa.mul(gv, derivative(isa, slope, xv)));
            }
        }
    }
}

/// `f′(x)` at one vector.
#[inline(always)]
fn derivative<I: Isa>(isa: I, slope: Slope, x: I::F) -> I::F {
    let half = isa.splat(0.5);
    let one = isa.splat(1.0);
    match slope {
        // Φ(x) + x·φ(x), Φ = ½(1 + erf(x/√2)), φ = e^(−x²/2)/√(2π).
        Slope::Gelu => {
            let k = 0.5 * std::f32::consts::FRAC_2_SQRT_PI * std::f32::consts::FRAC_1_SQRT_2;
            let cdf = isa.mul(
                isa.add(
                    erf(isa, isa.mul(x, isa.splat(std::f32::consts::FRAC_1_SQRT_2))),
                    one,
                ),
                half,
            );
            let pdf = isa.mul(
                exp(isa, isa.mul(isa.mul(x, x), isa.splat(-0.5))),
                isa.splat(k),
            );
            isa.add(cdf, isa.mul(pdf, x))
        }
        // ½(1 + t) + ½x·(1 − t²)·β(1 + 3κx²), t = tanh(β(x + κx³)).
        Slope::GeluTanh => {
            const KAPPA: f32 = 0.044715;
            let beta = isa.splat(std::f32::consts::SQRT_2 * std::f32::consts::FRAC_2_SQRT_PI * 0.5);
            let x_sq = isa.mul(x, x);
            let inner = isa.mul(
                isa.add(isa.mul(isa.mul(x_sq, x), isa.splat(KAPPA)), x),
                beta,
            );
            let t = tanh(isa, inner);
            let sech_sq = isa.sub(one, isa.mul(t, t));
            let inner_slope = isa.mul(isa.add(isa.mul(x_sq, isa.splat(3.0 * KAPPA)), one), beta);
            let right = isa.mul(isa.mul(isa.mul(sech_sq, inner_slope), x), half);
            let left = isa.mul(isa.add(t, one), half);
            isa.add(left, right)
        }
        // s·(1 + x·(1 − s)), s = sigmoid(x).
        Slope::Silu => {
            let s = SigmoidOp.apply(isa, x);
            isa.mul(isa.add(isa.mul(isa.sub(one, s), x), one), s)
        }
    }
}
