//! The fused Adam update ([`AdamUpdate`]) over contiguous f32 and f64
//! tensors: one pass, in pieces shared among threads (each element's
//! update is independent of the others, so the split changes no bit).

use rayon::prelude::*;

use super::strided::PLAIN_PARALLEL_THRESHOLD;
use crate::ops::AdamUpdate;
use crate::{Cpu, DType, Input, Output, Result};

/// The arithmetic the update needs, in the element's own precision.
trait Real: Copy + Send + Sync + bytemuck::Pod + crate::Element {
    fn of(x: f64) -> Self;
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
    fn mul(self, b: Self) -> Self;
    fn div(self, b: Self) -> Self;
    fn sqrt(self) -> Self;
}

macro_rules! real {
    ($($t:ty),*) => {$(
        impl Real for $t {
            fn of(x: f64) -> Self { x as $t }
            fn add(self, b: Self) -> Self { self + b }
            fn sub(self, b: Self) -> Self { self - b }
            fn mul(self, b: Self) -> Self { self * b }
            fn div(self, b: Self) -> Self { self / b }
            fn sqrt(self) -> Self { <$t>::sqrt(self) }
        }
    )*};
}
real!(f32, f64);

/// Runs `op` in one pass when every operand is a contiguous f32 or f64
/// tensor of one dtype; `false` (nothing written) otherwise.
pub(crate) fn adam_update(
    op: &AdamUpdate,
    param: Output<'_, Cpu>,
    grad: Input<'_, Cpu>,
    exp_avg: Output<'_, Cpu>,
    exp_avg_sq: Output<'_, Cpu>,
) -> Result<bool> {
    let dtype = param.dtype;
    let same = [grad.dtype, exp_avg.dtype, exp_avg_sq.dtype]
        .iter()
        .all(|&d| d == dtype);
    let layouts = [
        &param.layout,
        &grad.layout,
        &exp_avg.layout,
        &exp_avg_sq.layout,
    ];
    let n = param.layout.numel();
    let plain = layouts
        .iter()
        .all(|l| l.is_contiguous() && l.shape() == param.layout.shape());
    let Some(grad_storage) = grad.storage else {
        return Ok(false);
    };
    if !same || !plain {
        return Ok(false);
    }
    let at = layouts.map(|l| l.offset()..l.offset() + n);
    match dtype {
        DType::F32 => run::<f32>(op, param, grad_storage, exp_avg, exp_avg_sq, at)?,
        DType::F64 => run::<f64>(op, param, grad_storage, exp_avg, exp_avg_sq, at)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// The update over the elements at `at` (the parameter's, the
/// gradient's and the two averages' ranges), split among threads when
/// large.
fn run<T: Real>(
    op: &AdamUpdate,
    param: Output<'_, Cpu>,
    grad: &crate::Storage<Cpu>,
    exp_avg: Output<'_, Cpu>,
    exp_avg_sq: Output<'_, Cpu>,
    at: [std::ops::Range<usize>; 4],
) -> Result<()> {
    let [pa, ga, ma, va] = at;
    let g = &grad.as_slice::<T>()?[ga];
    let p = &mut param.storage.as_mut_slice::<T>()?[pa];
    let m = &mut exp_avg.storage.as_mut_slice::<T>()?[ma];
    let v = &mut exp_avg_sq.storage.as_mut_slice::<T>()?[va];
    let (w, far) = op.lerp(T::DTYPE == DType::F32);
    let k = Constants {
        maximize: op.maximize,
        decay: (op.weight_decay != 0.0).then_some(op.decoupled),
        keep: T::of(1.0 - op.lr * op.weight_decay),
        weight_decay: T::of(op.weight_decay),
        w: T::of(w),
        far: far.map(T::of),
        beta2: T::of(op.beta2),
        one_minus_beta2: T::of(1.0 - op.beta2),
        bc2_sqrt: T::of(op.bias_correction2_sqrt()),
        eps: T::of(op.eps),
        neg_step: T::of(-op.step_size()),
    };
    const PIECE: usize = 1 << 14;
    if p.len() < PLAIN_PARALLEL_THRESHOLD || rayon::current_num_threads() == 1 {
        piece(&k, p, g, m, v);
        return Ok(());
    }
    p.par_chunks_mut(PIECE)
        .zip(g.par_chunks(PIECE))
        .zip(m.par_chunks_mut(PIECE))
        .zip(v.par_chunks_mut(PIECE))
        .for_each(|(((p, g), m), v)| piece(&k, p, g, m, v));
    Ok(())
}

/// The update's scalars, each rounded to the dtype once.
struct Constants<T> {
    maximize: bool,
    /// `Some(decoupled)` when there is a weight decay.
    decay: Option<bool>,
    keep: T,
    weight_decay: T,
    w: T,
    far: Option<T>,
    beta2: T,
    one_minus_beta2: T,
    bc2_sqrt: T,
    eps: T,
    neg_step: T,
}

fn piece<T: Real>(k: &Constants<T>, p: &mut [T], g: &[T], m: &mut [T], v: &mut [T]) {
    let minus_one = T::of(-1.0);
    for (((p, &g), m), v) in p.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
        let mut g = if k.maximize { g.mul(minus_one) } else { g };
        match k.decay {
            Some(true) => *p = p.mul(k.keep),
            Some(false) => g = g.add(p.mul(k.weight_decay)),
            None => {}
        }
        let diff = g.sub(*m);
        *m = match k.far {
            None => m.add(diff.mul(k.w)),
            Some(one_minus) => g.sub(diff.mul(one_minus)),
        };
        *v = v.mul(k.beta2).add(g.mul(k.one_minus_beta2).mul(g));
        let denom = v.sqrt().div(k.bc2_sqrt).add(k.eps);
        *p = p.add(m.mul(k.neg_step).div(denom));
    }
}
