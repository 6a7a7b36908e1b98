//! Softmax over the ragged dim, item by item without padding: per item,
//! per column, the maximum, the sum of `exp(x - max)`, then the quotients.
//! Items run in parallel; columns are the vector lanes.

use rayon::prelude::*;

use super::NestedTensor;
use crate::generalized::host::{self, vectorized};
use crate::generalized::quantized::round_half_even;
use crate::{BinaryOp, DType, Error, RawTensor, ReduceOp, Result, UnaryOp};

/// `exp(x)` in `f32` without a branch (so that it vectorises): `2^n ·
/// p(r)` with `n = round(x / ln 2)`, `r = x - n ln 2` in two parts, and
/// Cephes' degree-6 polynomial for `exp(r)` on `|r| ≤ ln 2 / 2` (within 2
/// ulp of the exact value). Below the smallest normal result it is 0, above
/// the largest `inf`; NaN stays NaN.
#[inline(always)]
pub(crate) fn exp_f32(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    let c = x.clamp(-87.336_54, 88.722_83);
    let n = round_half_even(c * LOG2E);
    let r = c - n * LN2_HI - n * LN2_LO;
    let z = r * r;
    let p = (((((1.987_569_1e-4 * r + 1.398_199_9e-3) * r + 8.333_452e-3) * r + 4.166_579_6e-2)
        * r
        + 1.666_666_5e-1)
        * r
        + 5e-1)
        * z
        + r
        + 1.0;
    let scale = f32::from_bits(((n as i32 + 127) as u32) << 23);
    let y = p * scale;
    let y = if x > 88.722_83 { f32::INFINITY } else { y };
    let y = if x < -87.336_54 { 0.0 } else { y };
    if x.is_nan() { x } else { y }
}

/// The float types of the kernel.
trait SoftmaxFloat: crate::Element + Copy + Send + Sync {
    const NEG_INF: Self;
    fn max(self, other: Self) -> Self;
    fn sub(self, other: Self) -> Self;
    fn add(self, other: Self) -> Self;
    fn div(self, other: Self) -> Self;
    fn exp(self) -> Self;
}

impl SoftmaxFloat for f32 {
    const NEG_INF: f32 = f32::NEG_INFINITY;
    #[inline(always)]
    fn max(self, other: f32) -> f32 {
        // NaN propagates, as PyTorch's max.
        if self.is_nan() || self > other {
            self
        } else {
            other
        }
    }
    #[inline(always)]
    fn sub(self, other: f32) -> f32 {
        self - other
    }
    #[inline(always)]
    fn add(self, other: f32) -> f32 {
        self + other
    }
    #[inline(always)]
    fn div(self, other: f32) -> f32 {
        self / other
    }
    #[inline(always)]
    fn exp(self) -> f32 {
        exp_f32(self)
    }
}

impl SoftmaxFloat for f64 {
    const NEG_INF: f64 = f64::NEG_INFINITY;
    #[inline(always)]
    fn max(self, other: f64) -> f64 {
        if self.is_nan() || self > other {
            self
        } else {
            other
        }
    }
    #[inline(always)]
    fn sub(self, other: f64) -> f64 {
        self - other
    }
    #[inline(always)]
    fn add(self, other: f64) -> f64 {
        self + other
    }
    #[inline(always)]
    fn div(self, other: f64) -> f64 {
        self / other
    }
    #[inline(always)]
    fn exp(self) -> f64 {
        f64::exp(self)
    }
}

/// Softmax of each item's rows (`offsets`), per column of `inner` elements.
fn ragged_softmax<T: SoftmaxFloat>(v: &[T], offsets: &[usize], inner: usize, out: &mut [T]) {
    // Hand each item its own rows of the output.
    let mut chunks: Vec<(&[T], &mut [T])> = Vec::with_capacity(offsets.len());
    let mut rest = &mut out[..];
    let mut taken = 0;
    for w in offsets.windows(2) {
        let (start, end) = (w[0] * inner, w[1] * inner);
        let (_, tail) = std::mem::take(&mut rest).split_at_mut(start - taken);
        let (mine, tail) = tail.split_at_mut(end - start);
        chunks.push((&v[start..end], mine));
        rest = tail;
        taken = end;
    }
    chunks.into_par_iter().for_each(|(x, y)| {
        vectorized(|| {
            let mut max = vec![T::NEG_INF; inner];
            for row in x.chunks_exact(inner) {
                for (m, &v) in max.iter_mut().zip(row) {
                    *m = m.max(v);
                }
            }
            let mut sum = vec![<T as crate::Element>::ZERO; inner];
            for (row, out) in x.chunks_exact(inner).zip(y.chunks_exact_mut(inner)) {
                for (((o, &v), &m), s) in out.iter_mut().zip(row).zip(&max).zip(sum.iter_mut()) {
                    let e = v.sub(m).exp();
                    *o = e;
                    *s = s.add(e);
                }
            }
            for out in y.chunks_exact_mut(inner) {
                for (o, &s) in out.iter_mut().zip(&sum) {
                    *o = o.div(s);
                }
            }
        });
    });
}

impl NestedTensor {
    /// `softmax(dim)`: over the ragged dim (1), each item's rows without
    /// padding (the padding of a padded batch would take a share of the
    /// sum); over another of the items' dims, along it. Floats only; `f16`
    /// and `bf16` are computed in `f32`. After a transpose, or with two
    /// ragged dims (attention scores `nt @ nt.transpose(1, 2)`), along a
    /// ragged dim is within each item too (PyTorch refuses a ragged dim
    /// past 1).
    ///
    /// # Errors
    /// The batch dim (PyTorch's message), a dim out of range, or an integer
    /// dtype.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::from_vec(vec![0.0f32, 3.0, 1.0], &[3, 1])?, &[0, 2, 3])?;
    /// let p = nj.softmax(1)?.values().to_vec::<f32>()?;
    /// assert!((p[0] - 0.047426).abs() < 1e-6 && (p[1] - 0.952574).abs() < 1e-6 && p[2] == 1.0);
    /// let e = nj.softmax(0).unwrap_err();
    /// assert!(e.to_string().ends_with("softmax(): not supported when reducing across the batch dimension for NestedTensor"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn softmax(&self, dim: isize) -> Result<NestedTensor> {
        let d = crate::layout::wrap_dim(dim, self.dim())?;
        if d == 0 {
            return Err(Error::invalid(
                "nested",
                "softmax(): not supported when reducing across the batch dimension for NestedTensor",
            ));
        }
        if !self.dtype().is_float() {
            return Err(Error::Unsupported {
                op: "softmax",
                dtype: self.dtype(),
            });
        }
        let r = self.ragged();
        if r.contains(d) && !self.is_standard() {
            return self.map_items("softmax", |item| item.softmax(d as isize - 1));
        }
        let values = if r.contains(d) {
            self.softmax_ragged()?
        } else {
            dense_softmax(&self.values, r.value_dim_of(d) as isize)?
        };
        Ok(self.with_values(values))
    }

    fn softmax_ragged(&self) -> Result<RawTensor> {
        let dtype = self.dtype();
        let values = match dtype {
            DType::F32 | DType::F64 => None,
            _ => Some(self.values().to_dtype(DType::F32)?),
        };
        let v = values.as_ref().unwrap_or(&self.values);
        let inner: usize = self.rest_shape().iter().product();
        let shape = v.shape().to_vec();
        let out = if inner == 0 {
            v.view().to_contiguous()?
        } else if v.dtype() == DType::F64 {
            let x = host::elements::<f64>("softmax", &v.view())?;
            host::build::<f64>(&shape, |o| {
                ragged_softmax(&x, &self.offsets, inner, o);
                Ok(())
            })?
        } else {
            let x = host::elements::<f32>("softmax", &v.view())?;
            host::build::<f32>(&shape, |o| {
                ragged_softmax(&x, &self.offsets, inner, o);
                Ok(())
            })?
        };
        if out.dtype() == dtype {
            return Ok(out);
        }
        out.view().to_dtype(dtype)
    }
}

/// Softmax of a dense tensor along `dim`, the maximum subtracted first.
fn dense_softmax(x: &RawTensor, dim: isize) -> Result<RawTensor> {
    if x.layout().numel() == 0 {
        return x.view().to_contiguous();
    }
    let max = x.view().reduce(ReduceOp::Max, &[dim], true)?;
    let shifted = x.view().binary(BinaryOp::Sub, &max.view())?;
    let mut exp = shifted.view().unary(UnaryOp::Exp)?;
    let sum = exp.view().reduce(ReduceOp::Sum, &[dim], true)?;
    exp.view_mut().binary_(BinaryOp::Div, &sum.view())?;
    Ok(exp)
}

#[cfg(test)]
mod tests {
    use super::exp_f32;

    #[test]
    fn exp_is_within_two_ulp() {
        let mut x = -87.0f32;
        while x < 88.0 {
            let (got, want) = (exp_f32(x), (x as f64).exp());
            let ulp = (want as f32).abs() * f32::EPSILON;
            assert!(
                ((got as f64) - want).abs() <= 2.0 * ulp as f64,
                "exp({x}) = {got}, want {want}"
            );
            x += 0.0137;
        }
        assert_eq!(exp_f32(0.0), 1.0);
        assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_f32(-200.0), 0.0);
        assert_eq!(exp_f32(100.0), f32::INFINITY);
        assert!(exp_f32(f32::NAN).is_nan());
    }
}
