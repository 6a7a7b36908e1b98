//! A linear layer with int8 weights and dynamically quantized activations,
//! f32 in and out: what a deployed model runs in place of an f32 linear
//! layer.
//!
//! - **Weights**: per output channel, symmetric: `w ≈ sw[n] · q[n, k]` with
//!   `sw[n] = max_k |w[n, k]| / 127` and `q` in `[-127, 127]` (rounded half to
//!   even), packed once for the `u8 × i8` product of the quantized tensors' VNNI kernel.
//! - **Activations**: per token (row), asymmetric, computed at each call:
//!   `x ≈ sx[m] · (a[m, k] − zx[m])` with `a` in `[0, 255]` over the row's
//!   range (widened to hold 0), so one large token does not coarsen the
//!   others' steps as a per-tensor scale does.
//! - **Output**: `y[m, n] = sx[m] · sw[n] · (Σ_k a·q − zx[m] · Σ_k q[n, k]) + b[n]`,
//!   the integer sum exact in `i32`, the rest in f32, the bias added in the
//!   same pass.
//!
//! Every output element is one exact integer sum and a fixed sequence of f32
//! operations on it: the result does not depend on the number of threads,
//! nor on whether the VNNI kernel or the portable loop computed the sums.

use std::ops::Range;

use rayon::prelude::*;

use super::Features;
use super::rows::{self, Rows};
use crate::cpu::simd::{self, Isa, WithIsa};
use crate::generalized::quantized::gemm::{self, KB_BLOCK, MR, NV, PANEL, PackedB};
use crate::generalized::quantized::round_half_even;
use crate::{Cpu, Error, RawTensor, Result, TensorRef};

/// The longest input whose `u8 × i8` sums stay exact in `i32`
/// (`66052 · 255 · 127 < 2³¹`).
const MAX_K: usize = 66052;
/// Rows of the activations one task multiplies (a multiple of [`MR`]).
const MC: usize = 48;
/// Output columns computed per pass over a block of rows (a multiple of
/// `NV · PANEL`).
const NC: usize = 128;

/// A linear layer's weight (`out_features × in_features`) quantized to int8
/// per output channel and packed, with its f32 bias.
///
/// # Example
/// ```
/// use axial_core::RawTensor;
/// use axial_core::cpu::infer::Int8Linear;
/// let w = RawTensor::from_vec(vec![1.0f32, -0.5, 0.25, 2.0, 0.0, -1.0], &[2, 3])?;
/// let b = RawTensor::from_vec(vec![0.5f32, -0.5], &[2])?;
/// let layer = Int8Linear::new(&w.view(), Some(&b.view()))?;
/// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[1, 3])?;
/// let y = layer.forward(&x.view())?.to_vec::<f32>()?; // x·wᵀ + b = [1.25, -1.5]
/// assert!((y[0] - 1.25).abs() < 0.05 && (y[1] + 1.5).abs() < 0.05, "{y:?}");
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Int8Linear {
    packed: PackedB,
    /// `sw[n]`.
    scales: Vec<f32>,
    bias: Option<Vec<f32>>,
}

impl Features for Int8Linear {
    fn features(&self) -> (usize, usize) {
        (self.packed.n, self.packed.k)
    }
}

impl Int8Linear {
    /// Quantizes `weight` (f32, `[out_features, in_features]`) per output
    /// channel and packs it, with `bias` (f32, `[out_features]`).
    ///
    /// # Errors
    /// `weight` is not a 2-D f32 tensor, or holds a value that is not
    /// finite; `bias` is not f32 of `out_features` elements; `in_features`
    /// is past 66052 (where `i32` sums could overflow).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::cpu::infer::Int8Linear;
    /// let w = RawTensor::from_vec(vec![1.0f32, f32::NAN], &[1, 2])?;
    /// let e = Int8Linear::new(&w.view(), None).unwrap_err();
    /// assert_eq!(e.to_string(), "int8_linear: weight row 0 holds a value that is not finite (NaN)");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(weight: &TensorRef<'_, Cpu>, bias: Option<&TensorRef<'_, Cpu>>) -> Result<Self> {
        const OP: &str = "int8_linear";
        let (w, n, k) = rows::weight(OP, weight, MAX_K)?;
        let bias = rows::bias(OP, bias, n)?;
        let mut q = vec![0i8; n * k];
        let mut scales = vec![0f32; n];
        for (j, (row, (q, scale))) in w
            .chunks_exact(k.max(1))
            .zip(q.chunks_exact_mut(k.max(1)).zip(&mut scales))
            .enumerate()
        {
            if let Some(bad) = row.iter().find(|v| !v.is_finite()) {
                return Err(Error::invalid(
                    OP,
                    format!("weight row {j} holds a value that is not finite ({bad})"),
                ));
            }
            let max = row.iter().fold(0f32, |m, v| m.max(v.abs()));
            *scale = if max > 0.0 { max / 127.0 } else { 1.0 };
            let inv = 1.0 / *scale;
            for (q, &v) in q.iter_mut().zip(row) {
                *q = round_half_even(v * inv).clamp(-127.0, 127.0) as i8;
            }
        }
        Ok(Int8Linear {
            packed: gemm::pack_b(&q, n, k),
            scales,
            bias,
        })
    }

    /// `x · wᵀ + b` for f32 `x` of shape `[..., in_features]`: a new
    /// contiguous tensor of shape `[..., out_features]`.
    ///
    /// # Errors
    /// `x` is not f32, or its last dim is not `in_features`.
    ///
    /// ```
    /// # use axial_core::{RawTensor, DType, cpu::infer::Int8Linear};
    /// let layer = Int8Linear::new(&RawTensor::zeros(&[4, 3], DType::F32)?.view(), None)?;
    /// let x = RawTensor::zeros(&[2, 5, 3], DType::F32)?;
    /// assert_eq!(layer.forward(&x.view())?.shape(), &[2, 5, 4]);
    /// let e = layer.forward(&RawTensor::zeros(&[2, 4], DType::F32)?.view()).err().unwrap();
    /// assert_eq!(e.to_string(), "int8_linear: expected an input whose last dim is 3, got shape [2, 4]");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn forward(&self, x: &TensorRef<'_, Cpu>) -> Result<RawTensor> {
        self.forward_then(x, false)
    }

    /// [`Int8Linear::forward`] followed by the exact GELU, applied to each
    /// output as it is computed: the bits of an in-place GELU after
    /// `forward` where `out_features` is a multiple of 16 (the GELU's
    /// path is chosen per vector of 16).
    ///
    /// # Errors
    /// As [`Int8Linear::forward`].
    ///
    /// ```
    /// # use axial_core::{RawTensor, cpu::infer::Int8Linear};
    /// let w = RawTensor::from_vec(vec![1.0f32, -1.0], &[2, 1])?;
    /// let layer = Int8Linear::new(&w.view(), None)?;
    /// let x = RawTensor::from_vec(vec![2.0f32], &[1, 1])?;
    /// let y = layer.forward_gelu(&x.view())?.to_vec::<f32>()?;
    /// assert!((y[0] - 1.9545).abs() < 2e-2 && (y[1] + 0.0455).abs() < 2e-2, "{y:?}");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn forward_gelu(&self, x: &TensorRef<'_, Cpu>) -> Result<RawTensor> {
        self.forward_then(x, true)
    }

    /// The layer over `x`, then the GELU when `gelu`.
    fn forward_then(&self, x: &TensorRef<'_, Cpu>, gelu: bool) -> Result<RawTensor> {
        let rows = Rows::of("int8_linear", x, self.packed.k, self.packed.n)?;
        let words = rows.count().div_ceil(MR) * self.packed.kb * MR;
        let mut scratch = rows::scratch(words)?;
        let packed: &mut [i32] = bytemuck::cast_slice_mut(scratch.as_bytes_mut());
        rows.compute_uninit(|x, y| self.forward_rows(x, y, packed, gelu))
    }

    /// The layer over the rows of `x` (`m × k`, row-major) into `y` (`m ×
    /// n`, every element written), the activations packed in `packed`
    /// (`⌈m / MR⌉ · kb · MR` words, any contents).
    fn forward_rows(&self, x: &[f32], y: &mut [f32], packed: &mut [i32], gelu: bool) {
        let (k, n, kb) = (self.packed.k, self.packed.n, self.packed.kb);
        let m = y.len() / n.max(1);
        if m == 0 || n == 0 {
            return;
        }
        // Quantized and packed per tile of MR rows: per group of 4 k, MR
        // little-endian i32 of 4 bytes (the layout `gemm::tile` reads).
        let tiles = m.div_ceil(MR);
        let mut params = vec![(0f32, 0i32); tiles * MR];
        packed
            .par_chunks_mut(kb * MR)
            .zip(params.par_chunks_mut(MR))
            .enumerate()
            .for_each(|(t, (packed, params))| {
                let mut row = vec![0u8; kb * 4];
                for (lane, p) in params.iter_mut().enumerate() {
                    let r = t * MR + lane;
                    if r >= m {
                        // The last tile's rows past `m`: zeros.
                        packed.chunks_exact_mut(MR).for_each(|g| g[lane] = 0);
                        continue;
                    }
                    *p = quantize_row(&x[r * k..(r + 1) * k], &mut row[..k]);
                    for (g, bytes) in row.chunks_exact(4).enumerate() {
                        packed[g * MR + lane] =
                            i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                    }
                }
            });
        let vnni = gemm::has_vnni();
        rows::blocks(y, n, MR, MC, |rows, out| {
            for c0 in (0..n).step_by(NC) {
                let cols = c0..n.min(c0 + NC);
                self.block(packed, &params, (vnni, gelu), rows.clone(), cols, out);
            }
        });
    }

    /// Outputs `rows × cols` (`out` holds the rows, `n` apart) from the
    /// packed activations.
    fn block(
        &self,
        packed: &[i32],
        params: &[(f32, i32)],
        (vnni, gelu): (bool, bool),
        rows: Range<usize>,
        cols: Range<usize>,
        out: &mut [f32],
    ) {
        let (n, kb) = (self.packed.n, self.packed.kb);
        let p_first = cols.start / PANEL;
        let panels = cols.len().div_ceil(PANEL);
        for p0 in (0..panels).step_by(NV) {
            let nv = NV.min(panels - p0);
            let c0 = cols.start + p0 * PANEL;
            let c = c0..(c0 + nv * PANEL).min(cols.end);
            for t in rows.start / MR..rows.end.div_ceil(MR) {
                let r = t * MR..(t * MR + MR).min(rows.end);
                // One tile's sums, over the blocks of `k` in order.
                let mut dot = [0i32; MR * NV * PANEL];
                for kb0 in (0..kb).step_by(KB_BLOCK) {
                    let kbs = KB_BLOCK.min(kb - kb0);
                    let a = &packed[t * kb * MR + kb0 * MR..t * kb * MR + (kb0 + kbs) * MR];
                    let ldc = nv * PANEL;
                    gemm::tile(
                        a,
                        &self.packed,
                        p_first + p0,
                        nv,
                        kb0,
                        kbs,
                        &mut dot,
                        ldc,
                        vnni,
                    );
                }
                simd::dispatch(Dequantize {
                    dot: &dot,
                    width: nv * PANEL,
                    params: &params[r.clone()],
                    sums: &self.packed.sums[c.clone()],
                    scales: &self.scales[c.clone()],
                    bias: self.bias.as_ref().map(|b| &b[c.clone()]),
                    out: &mut out[(r.start - rows.start) * n + c.start..],
                    n,
                    gelu,
                });
            }
        }
    }
}

/// The f32 outputs of a block from its integer sums: per row `(sx, zx)`,
/// `out[i·n + j] = (dot[i·width + j] − zx · sums[j]) · (sx · scales[j]) + bias[j]`,
/// then the GELU when asked.
struct Dequantize<'a> {
    dot: &'a [i32],
    width: usize,
    params: &'a [(f32, i32)],
    sums: &'a [i32],
    scales: &'a [f32],
    bias: Option<&'a [f32]>,
    out: &'a mut [f32],
    n: usize,
    /// The GELU after the bias.
    gelu: bool,
}

impl WithIsa for Dequantize<'_> {
    type Output = ();

    /// Plain loops, compiled with the instruction set's features.
    #[inline(always)]
    fn run<I: Isa>(self, _: I) {
        let cols = self.sums.len();
        for (i, &(sx, zx)) in self.params.iter().enumerate() {
            let dot = &self.dot[i * self.width..i * self.width + cols];
            let out = &mut self.out[i * self.n..i * self.n + cols];
            let terms = out.iter_mut().zip(dot).zip(self.sums).zip(self.scales);
            // One pass: the output's lines are written once.
            match self.bias {
                Some(b) => {
                    for ((((o, &d), &s), &w), &b) in terms.zip(b) {
                        *o = (d - zx * s) as f32 * (sx * w) + b;
                    }
                }
                None => {
                    for (((o, &d), &s), &w) in terms {
                        *o = (d - zx * s) as f32 * (sx * w);
                    }
                }
            }
            if self.gelu {
                rows::gelu(out);
            }
        }
    }
}

/// Quantizes one row to `[0, 255]` over its range widened to hold 0:
/// returns the scale and the zero point.
/// A row holding a value that is not finite gets a NaN scale: its outputs
/// are NaN.
fn quantize_row(x: &[f32], out: &mut [u8]) -> (f32, i32) {
    simd::dispatch(QuantizeRow { x, out })
}

/// [`quantize_row`] in vector lanes: the range's ends and every step are
/// exact or rounded once, as the scalar definition rounds them, so the
/// bytes are the same on every instruction set.
struct QuantizeRow<'a> {
    x: &'a [f32],
    out: &'a mut [u8],
}

impl WithIsa for QuantizeRow<'_> {
    type Output = (f32, i32);

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) -> (f32, i32) {
        let (x, out) = (self.x, self.out);
        let zero = isa.splat(0.0);
        let (mut lo, mut hi, mut bad) = (zero, zero, isa.lt(zero, zero));
        for c in x.chunks(I::LANES) {
            // SAFETY: `c` holds `c.len() ≤ LANES` f32.
            let v = unsafe { isa.load_n(c.as_ptr(), c.len()) };
            lo = isa.min(lo, v);
            hi = isa.max(hi, v);
            // `v − v` is NaN exactly where `v` is infinite or NaN.
            bad = isa.or_m(bad, isa.is_nan(isa.sub(v, v)));
        }
        if isa.any(bad) {
            out.fill(0);
            return (f32::NAN, 0);
        }
        let (lo, hi) = (-isa.max_lane(isa.sub(zero, lo)), isa.max_lane(hi));
        let scale = if hi > lo { (hi - lo) / 255.0 } else { 1.0 };
        let zero_point = round_half_even(-lo / scale).clamp(0.0, 255.0);
        let (inv, shift, top) = (
            isa.splat(1.0 / scale),
            isa.splat(zero_point),
            isa.splat(255.0),
        );
        // 2²³ added to an integer in [0, 255] leaves it in the low byte of
        // the bits: a truncation the compiler vectorises (the saturating
        // `as u8` of an f32 it does not).
        let magic = isa.splat(8_388_608.0);
        let mut q = [0f32; 16];
        debug_assert!(I::LANES <= q.len());
        for (c, o) in x.chunks(I::LANES).zip(out.chunks_mut(I::LANES)) {
            // SAFETY: `c` holds `c.len() ≤ LANES` f32, `q` at least LANES.
            unsafe {
                let v = isa.round(isa.mul(isa.load_n(c.as_ptr(), c.len()), inv));
                let v = isa.min(isa.max(isa.add(v, shift), zero), top);
                isa.store_n(q.as_mut_ptr(), c.len(), isa.add(v, magic));
            }
            for (o, &q) in o.iter_mut().zip(&q) {
                *o = q.to_bits() as u8;
            }
        }
        (scale, zero_point as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::infer::sequence;

    /// [`quantize_row`] by its definition, one element at a time.
    fn quantize_row_scalar(x: &[f32], out: &mut [u8]) -> (f32, i32) {
        let (lo, hi, finite) = x.iter().fold((0f32, 0f32, true), |(lo, hi, ok), &v| {
            (lo.min(v), hi.max(v), ok & v.is_finite())
        });
        if !finite {
            out.fill(0);
            return (f32::NAN, 0);
        }
        let scale = if hi > lo { (hi - lo) / 255.0 } else { 1.0 };
        let zero = round_half_even(-lo / scale).clamp(0.0, 255.0);
        let inv = 1.0 / scale;
        for (q, &v) in out.iter_mut().zip(x) {
            *q = (round_half_even(v * inv) + zero).clamp(0.0, 255.0) as u8;
        }
        (scale, zero as i32)
    }

    #[test]
    fn rows_quantize_as_the_scalar_definition_on_every_level() {
        let rows: Vec<Vec<f32>> = vec![
            vec![],
            vec![0.0; 5],
            vec![1.5],
            vec![-3.0, -1.0, -2.5],
            (0..37).map(|i| (i as f32 * 0.37).sin() * 4.0).collect(),
            sequence(384, 37, 101, 40.0, 16.0),
            (0..33)
                .map(|i| if i == 20 { 1e30 } else { i as f32 })
                .collect(),
            vec![1.0, f32::NEG_INFINITY, 2.0],
            (0..40)
                .map(|i| if i == 33 { f32::NAN } else { 1.0 })
                .collect(),
        ];
        for row in &rows {
            let mut want = vec![7u8; row.len()];
            let want_params = quantize_row_scalar(row, &mut want);
            for level in simd::available() {
                let mut got = vec![7u8; row.len()];
                let params = simd::dispatch_at(
                    level,
                    QuantizeRow {
                        x: row,
                        out: &mut got,
                    },
                );
                assert_eq!(got, want, "{level:?} {row:?}");
                assert_eq!(
                    (params.0.to_bits(), params.1),
                    (want_params.0.to_bits(), want_params.1),
                    "{level:?}"
                );
            }
        }
    }

    /// The layer by its definition: the same quantized integers, the sums
    /// in i64, the same f32 steps after.
    fn naive(layer: &Int8Linear, w_q: &[i8], x: &[f32], m: usize) -> Vec<f32> {
        let (n, k) = (layer.out_features(), layer.in_features());
        let mut out = vec![0f32; m * n];
        let mut a = vec![0u8; k];
        for r in 0..m {
            let (sx, zx) = quantize_row(&x[r * k..(r + 1) * k], &mut a);
            for j in 0..n {
                let dot: i64 = (0..k)
                    .map(|t| i64::from(a[t]) * i64::from(w_q[j * k + t]))
                    .sum();
                let sum: i64 = (0..k).map(|t| i64::from(w_q[j * k + t])).sum();
                let v = (dot - i64::from(zx) * sum) as i32 as f32 * (sx * layer.scales[j]);
                out[r * n + j] = v + layer.bias.as_ref().map_or(0.0, |b| b[j]);
            }
        }
        out
    }

    #[test]
    fn matches_the_definition_and_stays_near_f32() {
        // Partial tiles, panels and column blocks; a k past one block of groups.
        for &(m, n, k) in &[(1, 1, 1), (7, 17, 5), (50, 130, 384), (13, 300, 2051)] {
            let x = sequence(m * k, 37, 101, 40.0, 16.0);
            let w = sequence(n * k, 91, 103, 51.0, 32.0);
            let b: Vec<f32> = (0..n).map(|j| j as f32 / 8.0).collect();
            let wt = RawTensor::from_vec(w.clone(), &[n, k]).unwrap();
            let bt = RawTensor::from_vec(b.clone(), &[n]).unwrap();
            let layer = Int8Linear::new(&wt.view(), Some(&bt.view())).unwrap();
            let w_q: Vec<i8> = (0..n * k)
                .map(|i| round_half_even(w[i] / layer.scales[i / k]).clamp(-127.0, 127.0) as i8)
                .collect();
            let xt = RawTensor::from_vec(x.clone(), &[m, k]).unwrap();
            let got = layer.forward(&xt.view()).unwrap().to_vec::<f32>().unwrap();
            let want = naive(&layer, &w_q, &x, m);
            assert_eq!(got, want, "{m}x{n}x{k}");
            for r in 0..m {
                for j in 0..n {
                    let exact: f32 =
                        (0..k).map(|t| x[r * k + t] * w[j * k + t]).sum::<f32>() + b[j];
                    let scale: f32 = (0..k).map(|t| (x[r * k + t] * w[j * k + t]).abs()).sum();
                    let err = (got[r * n + j] - exact).abs();
                    assert!(
                        err <= 0.02 * scale + 1e-4,
                        "{m}x{n}x{k} ({r}, {j}): {} vs {exact}",
                        got[r * n + j]
                    );
                }
            }
        }
    }

    #[test]
    fn a_row_that_is_not_finite_gives_nan() {
        let w = RawTensor::from_vec(vec![1.0f32, 2.0], &[1, 2]).unwrap();
        let layer = Int8Linear::new(&w.view(), None).unwrap();
        let x = RawTensor::from_vec(vec![f32::INFINITY, 1.0, 1.0, 1.0], &[2, 2]).unwrap();
        let y = layer.forward(&x.view()).unwrap().to_vec::<f32>().unwrap();
        assert!(y[0].is_nan());
        assert!((y[1] - 3.0).abs() < 0.03, "{}", y[1]);
    }
}
