//! A linear layer with bf16 weights and f32 accumulation, f32 in and out.
//!
//! The weight is rounded to bf16 (to nearest, ties to even) and packed once:
//! panels of 16 output columns, and in each panel, per pair of `k`, the 16
//! columns' two bf16 side by side (64 bytes), the layout of AVX-512 BF16's
//! `vdpbf16ps`, which adds two bf16 products into each f32 lane. The
//! activations are rounded to bf16 as they are packed, per tile of [`MR`]
//! rows: per pair of `k`, the rows' two bf16 as one 32-bit word, broadcast
//! to the lanes. A tile of [`MR`] × 64 outputs stays in 24 registers.
//!
//! Each output is a sum over `k` in a fixed order (pairs in order, the odd
//! product then the even one, as the instruction defines), whatever the
//! number of threads. Without AVX-512 BF16 a portable loop adds the same
//! products in the same order with f32 arithmetic; the instruction flushes
//! subnormal products and sums to zero where the loop keeps them, so the
//! two can differ in the last bits (each is deterministic).

use std::ops::Range;

use rayon::prelude::*;

use super::Features;
use super::rows::{self, Rows};
use crate::cpu::convert::f32_to_bf16;
use crate::cpu::simd::{self, Isa, WithIsa};
use crate::{Cpu, RawTensor, Result, TensorRef};

/// Rows of a tile.
const MR: usize = 6;
/// Columns of a panel (one 512-bit register of f32).
const PANEL: usize = 16;
/// Panels of a tile.
const NV: usize = 4;
/// Rows of the activations one task multiplies (a multiple of [`MR`]).
const MC: usize = 48;
/// Output columns computed per pass over a block of rows (a multiple of
/// `NV · PANEL`).
const NC: usize = 128;

/// A linear layer's weight (`out_features × in_features`) in bf16, packed,
/// with its f32 bias.
///
/// # Example
/// ```
/// use axial_core::RawTensor;
/// use axial_core::cpu::infer::Bf16Linear;
/// let w = RawTensor::from_vec(vec![1.0f32, -0.5, 0.25, 2.0, 0.0, -1.0], &[2, 3])?;
/// let b = RawTensor::from_vec(vec![0.5f32, -0.5], &[2])?;
/// let layer = Bf16Linear::new(&w.view(), Some(&b.view()))?;
/// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[1, 3])?;
/// assert_eq!(layer.forward(&x.view())?.to_vec::<f32>()?, vec![1.25, -1.5]);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Bf16Linear {
    n: usize,
    k: usize,
    /// Pairs of `k` (`k` rounded up, over 2).
    kp: usize,
    /// `panels × kp × 16` words of two bf16.
    packed: Vec<u32>,
    bias: Option<Vec<f32>>,
}

/// Two bf16 in one word, the first in the low half.
fn pair(lo: f32, hi: f32) -> u32 {
    bf16_bits(lo) | bf16_bits(hi) << 16
}

/// The bf16 bits of `x` in the low half: `half`'s rounding, written so
/// that a loop of it vectorises ([`f32_to_bf16`]).
#[inline(always)]
fn bf16_bits(x: f32) -> u32 {
    u32::from(f32_to_bf16(x).to_bits())
}

/// Rounds `row` to bf16 and writes its pairs of `k` one word each, `MR`
/// words apart, from `out[0]` (a lane of a packed tile; an odd last `k`
/// pairs with 0).
fn pack_row(row: &[f32], out: &mut [u32]) {
    simd::dispatch(PackRow { row, out });
}

/// [`pack_row`]'s work: plain loops, compiled with the instruction set's
/// features.
struct PackRow<'a> {
    row: &'a [f32],
    out: &'a mut [u32],
}

impl WithIsa for PackRow<'_> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, _: I) {
        const CHUNK: usize = 64;
        // The k-th bf16 of the row is half k of the words (the low half
        // first, as a little-endian word holds it).
        let half = |k: usize| {
            if cfg!(target_endian = "little") {
                k
            } else {
                k ^ 1
            }
        };
        for (c, chunk) in self.row.chunks(CHUNK).enumerate() {
            let mut words = [0u32; CHUNK / 2];
            let halves: &mut [u16] = bytemuck::cast_slice_mut(&mut words);
            for (k, &x) in chunk.iter().enumerate() {
                halves[half(k)] = bf16_bits(x) as u16;
            }
            let out = &mut self.out[c * CHUNK / 2 * MR..];
            for (i, &w) in words[..chunk.len().div_ceil(2)].iter().enumerate() {
                out[i * MR] = w;
            }
        }
    }
}

impl Features for Bf16Linear {
    fn features(&self) -> (usize, usize) {
        (self.n, self.k)
    }
}

impl Bf16Linear {
    /// Rounds `weight` (f32, `[out_features, in_features]`) to bf16 and
    /// packs it, with `bias` (f32, `[out_features]`).
    ///
    /// # Errors
    /// `weight` is not a 2-D f32 tensor; `bias` is not f32 of
    /// `out_features` elements.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::cpu::infer::Bf16Linear;
    /// let w = RawTensor::zeros(&[2, 3], DType::F64)?;
    /// let e = Bf16Linear::new(&w.view(), None).unwrap_err();
    /// assert!(e.to_string().starts_with("bf16_linear: expected dtype"), "{e}");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(weight: &TensorRef<'_, Cpu>, bias: Option<&TensorRef<'_, Cpu>>) -> Result<Self> {
        const OP: &str = "bf16_linear";
        let (w, n, k) = rows::weight(OP, weight, usize::MAX)?;
        let bias = rows::bias(OP, bias, n)?;
        let kp = k.div_ceil(2);
        let panels = n.div_ceil(PANEL);
        let mut packed = vec![0u32; panels * kp * PANEL];
        for (j, row) in w.chunks_exact(k.max(1)).take(n).enumerate() {
            let (p, lane) = (j / PANEL, j % PANEL);
            for g in 0..kp {
                let hi = row.get(2 * g + 1).copied().unwrap_or(0.0);
                packed[(p * kp + g) * PANEL + lane] = pair(row[2 * g], hi);
            }
        }
        Ok(Bf16Linear {
            n,
            k,
            kp,
            packed,
            bias,
        })
    }

    /// `x · wᵀ + b` for f32 `x` of shape `[..., in_features]`, `x` rounded
    /// to bf16, the products summed in f32: a new contiguous tensor of
    /// shape `[..., out_features]`.
    ///
    /// # Errors
    /// `x` is not f32, or its last dim is not `in_features`.
    ///
    /// ```
    /// # use axial_core::{RawTensor, DType, cpu::infer::Bf16Linear};
    /// let layer = Bf16Linear::new(&RawTensor::zeros(&[4, 3], DType::F32)?.view(), None)?;
    /// let x = RawTensor::zeros(&[2, 5, 3], DType::F32)?;
    /// assert_eq!(layer.forward(&x.view())?.shape(), &[2, 5, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn forward(&self, x: &TensorRef<'_, Cpu>) -> Result<RawTensor> {
        self.forward_then(x, false)
    }

    /// [`Bf16Linear::forward`] followed by the exact GELU, applied to each
    /// output as it is computed: the bits of an in-place GELU after
    /// `forward` where `out_features` is a multiple of 16 (the GELU's
    /// path is chosen per vector of 16).
    ///
    /// # Errors
    /// As [`Bf16Linear::forward`].
    ///
    /// ```
    /// # use axial_core::{RawTensor, cpu::infer::Bf16Linear};
    /// let w = RawTensor::from_vec(vec![1.0f32, -1.0], &[2, 1])?;
    /// let layer = Bf16Linear::new(&w.view(), None)?;
    /// let x = RawTensor::from_vec(vec![2.0f32], &[1, 1])?;
    /// let y = layer.forward_gelu(&x.view())?.to_vec::<f32>()?;
    /// assert!((y[0] - 1.9545).abs() < 1e-4 && (y[1] + 0.0455).abs() < 1e-4, "{y:?}");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn forward_gelu(&self, x: &TensorRef<'_, Cpu>) -> Result<RawTensor> {
        self.forward_then(x, true)
    }

    /// The layer over `x`, then the GELU when `gelu`.
    fn forward_then(&self, x: &TensorRef<'_, Cpu>, gelu: bool) -> Result<RawTensor> {
        let rows = Rows::of("bf16_linear", x, self.k, self.n)?;
        let mut scratch = rows::scratch(rows.count().div_ceil(MR) * self.kp * MR)?;
        let packed: &mut [u32] = bytemuck::cast_slice_mut(scratch.as_bytes_mut());
        rows.compute_uninit(|x, y| self.forward_rows(x, y, packed, gelu))
    }

    /// The layer over the rows of `x` (`m × k`) into `y` (`m × n`, every
    /// element written), the activations packed in `packed` (`⌈m / MR⌉ ·
    /// kp · MR` words, any contents).
    fn forward_rows(&self, x: &[f32], y: &mut [f32], packed: &mut [u32], gelu: bool) {
        let (k, n, kp) = (self.k, self.n, self.kp);
        let m = y.len() / n.max(1);
        if m == 0 || n == 0 {
            return;
        }
        packed
            .par_chunks_mut(kp * MR)
            .enumerate()
            .for_each(|(t, packed)| {
                let live = MR.min(m - t * MR);
                for lane in 0..live {
                    let row = &x[(t * MR + lane) * k..(t * MR + lane + 1) * k];
                    pack_row(row, &mut packed[lane..]);
                }
                // The last tile's rows past `m`: zeros.
                packed.chunks_exact_mut(MR).for_each(|g| g[live..].fill(0));
            });
        let kernel = (has_bf16(), gelu);
        rows::blocks(y, n, MR, MC, |rows, out| {
            for c0 in (0..n).step_by(NC) {
                self.block(packed, kernel, rows.clone(), c0..n.min(c0 + NC), out);
            }
        });
    }

    /// Outputs `rows × cols` (`out` holds the rows, `n` apart), a tile at
    /// a time through a buffer the size of one, the bias (and the GELU when
    /// `gelu`) applied as the tile is copied out; `fast`: AVX-512 BF16.
    fn block(
        &self,
        a: &[u32],
        (fast, gelu): (bool, bool),
        rows: Range<usize>,
        cols: Range<usize>,
        out: &mut [f32],
    ) {
        let (n, kp) = (self.n, self.kp);
        let panels = cols.len().div_ceil(PANEL);
        let mut acc = [0f32; MR * NV * PANEL];
        for p0 in (0..panels).step_by(NV) {
            let nv = NV.min(panels - p0);
            let b = &self.packed[(cols.start / PANEL + p0) * kp * PANEL..];
            let c0 = cols.start + p0 * PANEL;
            let width = (nv * PANEL).min(cols.end - c0);
            let bias = self.bias.as_ref().map(|b| &b[c0..c0 + width]);
            for t in rows.start / MR..rows.end.div_ceil(MR) {
                tile(
                    &a[t * kp * MR..(t + 1) * kp * MR],
                    b,
                    kp,
                    nv,
                    &mut acc,
                    nv * PANEL,
                    fast,
                );
                for r in 0..MR.min(rows.end - t * MR) {
                    let at = (t * MR + r - rows.start) * n + c0;
                    let (src, dst) = (&acc[r * nv * PANEL..][..width], &mut out[at..at + width]);
                    match bias {
                        Some(bias) => {
                            for ((d, &s), &b) in dst.iter_mut().zip(src).zip(bias) {
                                *d = s + b;
                            }
                        }
                        None => dst.copy_from_slice(src),
                    }
                    if gelu {
                        rows::gelu(dst);
                    }
                }
            }
        }
    }
}

/// One tile: [`MR`] rows × `nv` panels over all `kp` pairs, written to `c`
/// (row stride `ldc`).
fn tile(a: &[u32], b: &[u32], kp: usize, nv: usize, c: &mut [f32], ldc: usize, fast: bool) {
    let panel_len = kp * PANEL;
    assert!(a.len() >= kp * MR);
    assert!(b.len() >= (nv - 1) * panel_len + kp * PANEL);
    assert!(c.len() >= (MR - 1) * ldc + nv * PANEL);
    #[cfg(target_arch = "x86_64")]
    if fast {
        // SAFETY: AVX-512 BF16 is available (`has_bf16`), and the asserts
        // above bound every read of `a` and `b` and every write of `c`.
        unsafe {
            let (a, b, c) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
            match nv {
                4 => avx512::tile::<4>(a, b, panel_len, kp, c, ldc),
                3 => avx512::tile::<3>(a, b, panel_len, kp, c, ldc),
                2 => avx512::tile::<2>(a, b, panel_len, kp, c, ldc),
                _ => avx512::tile::<1>(a, b, panel_len, kp, c, ldc),
            }
        }
        return;
    }
    let _ = fast;
    let wide = |w: u32| (f32::from_bits(w << 16), f32::from_bits(w & 0xffff_0000));
    for v in 0..nv {
        let panel = &b[v * panel_len..v * panel_len + kp * PANEL];
        for r in 0..MR {
            let row = &mut c[r * ldc + v * PANEL..r * ldc + (v + 1) * PANEL];
            row.fill(0.0);
            for g in 0..kp {
                let (x0, x1) = wide(a[g * MR + r]);
                for (out, &w) in row.iter_mut().zip(&panel[g * PANEL..(g + 1) * PANEL]) {
                    let (w0, w1) = wide(w);
                    *out = x0.mul_add(w0, x1.mul_add(w1, *out));
                }
            }
        }
    }
}

/// True when the products use AVX-512 BF16: the one detection of the
/// instruction set says so (`AXIAL_SIMD` unset, a CPU with BF16).
fn has_bf16() -> bool {
    crate::cpu::simd::bf16_dot(crate::cpu::simd::Site::Bf16)
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{MR, PANEL};

    /// `c[r][v*16..v*16+16] = Σ_g a[g][r] ⋅ b[v][g]` for the [`MR`] rows and
    /// `NV` panels of a tile.
    ///
    /// # Safety
    /// AVX-512 F and BF16 are available; `a` holds `kp * MR` words; `b`
    /// holds `NV` panels of `kp * 16` words, `panel_len` words apart; `c`
    /// holds [`MR`] rows of `NV * 16` f32, `ldc` apart.
    #[target_feature(enable = "avx512f,avx512bf16")]
    pub(super) unsafe fn tile<const NV: usize>(
        a: *const u32,
        b: *const u32,
        panel_len: usize,
        kp: usize,
        c: *mut f32,
        ldc: usize,
    ) {
        let mut acc = [[_mm512_setzero_ps(); NV]; MR];
        for g in 0..kp {
            let mut w = [_mm512_setzero_si512(); NV];
            for (v, w) in w.iter_mut().enumerate() {
                // SAFETY: panel `v`, pair `g` is inside `b` (the contract).
                *w = unsafe { _mm512_loadu_si512(b.add(v * panel_len + g * PANEL).cast()) };
            }
            for (r, acc) in acc.iter_mut().enumerate() {
                // SAFETY: pair `g`, row `r` is inside `a` (the contract).
                let x = _mm512_set1_epi32(unsafe { *a.add(g * MR + r) } as i32);
                for v in 0..NV {
                    // SAFETY: the same 512 bits, read as 32 bf16.
                    let (x, w) = unsafe {
                        (
                            std::mem::transmute::<__m512i, __m512bh>(x),
                            std::mem::transmute::<__m512i, __m512bh>(w[v]),
                        )
                    };
                    acc[v] = _mm512_dpbf16_ps(acc[v], x, w);
                }
            }
        }
        for (r, acc) in acc.iter().enumerate() {
            for (v, acc) in acc.iter().enumerate() {
                // SAFETY: row `r`, panel `v` of `c` is inside it (the contract).
                unsafe { _mm512_storeu_ps(c.add(r * ldc + v * PANEL), *acc) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use half::bf16;

    use super::*;
    use crate::cpu::infer::sequence;

    #[test]
    fn the_layer_is_the_sum_of_bf16_products_and_the_bias() {
        // Partial tiles, panels and column blocks, several blocks of rows.
        for &(m, n, k) in &[(1, 1, 1), (7, 17, 5), (50, 300, 64), (97, 130, 33)] {
            let x = sequence(m * k, 37, 101, 50.0, 16.0);
            let w = sequence(n * k, 91, 103, 51.0, 32.0);
            let b: Vec<f32> = (0..n).map(|j| j as f32 / 8.0 - 3.0).collect();
            let wt = RawTensor::from_vec(w.clone(), &[n, k]).unwrap();
            let bt = RawTensor::from_vec(b.clone(), &[n]).unwrap();
            let layer = Bf16Linear::new(&wt.view(), Some(&bt.view())).unwrap();
            let xt = RawTensor::from_vec(x.clone(), &[m, k]).unwrap();
            let got = layer.forward(&xt.view()).unwrap().to_vec::<f32>().unwrap();
            let round = |v: f32| f64::from(bf16::from_f32(v).to_f32());
            for r in 0..m {
                for j in 0..n {
                    let want: f64 = (0..k)
                        .map(|t| round(x[r * k + t]) * round(w[j * k + t]))
                        .sum::<f64>()
                        + f64::from(b[j]);
                    let tol = 1e-5
                        * (1.0
                            + (0..k)
                                .map(|t| (x[r * k + t] * w[j * k + t]).abs() as f64)
                                .sum::<f64>());
                    let g = f64::from(got[r * n + j]);
                    assert!(
                        (g - want).abs() <= tol,
                        "{m}x{n}x{k} ({r}, {j}): {g} vs {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn rows_pack_as_pairs() {
        for k in [0usize, 1, 2, 5, 64, 65, 127, 130, 384] {
            let row: Vec<f32> = (0..k).map(|i| (i as f32 * 0.731).sin() * 3.0).collect();
            let kp = k.div_ceil(2);
            let mut got = vec![u32::MAX; kp * MR + 1];
            pack_row(&row, &mut got[1..]);
            for g in 0..kp {
                let hi = row.get(2 * g + 1).copied().unwrap_or(0.0);
                assert_eq!(got[1 + g * MR], pair(row[2 * g], hi), "k {k}, pair {g}");
            }
            assert_eq!(got[0], u32::MAX);
        }
    }

    #[test]
    fn both_kernels_match_the_sum_of_bf16_products() {
        // Odd sizes: partial tiles and panels, an odd k.
        for &(m, n, k) in &[(1, 1, 1), (7, 17, 5), (13, 70, 33), (50, 130, 384)] {
            let x = sequence(m * k, 37, 101, 50.0, 16.0);
            let w = sequence(n * k, 91, 103, 51.0, 32.0);
            let wt = RawTensor::from_vec(w.clone(), &[n, k]).unwrap();
            let layer = Bf16Linear::new(&wt.view(), None).unwrap();
            let round = |v: f32| bf16::from_f32(v).to_f32();
            for fast in [false, true] {
                if fast && !has_bf16() {
                    continue;
                }
                let tiles = m.div_ceil(MR);
                let mut a = vec![0u32; tiles * layer.kp * MR];
                for r in 0..m {
                    for g in 0..layer.kp {
                        let hi = if 2 * g + 1 < k {
                            x[r * k + 2 * g + 1]
                        } else {
                            0.0
                        };
                        a[((r / MR) * layer.kp + g) * MR + r % MR] = pair(x[r * k + 2 * g], hi);
                    }
                }
                let width = n.next_multiple_of(PANEL);
                let mut c = vec![0f32; tiles * MR * width];
                for t in 0..tiles {
                    for p in 0..n.div_ceil(PANEL) {
                        let b = &layer.packed[p * layer.kp * PANEL..];
                        let a = &a[t * layer.kp * MR..];
                        tile(
                            a,
                            b,
                            layer.kp,
                            1,
                            &mut c[t * MR * width + p * PANEL..],
                            width,
                            fast,
                        );
                    }
                }
                for r in 0..m {
                    for j in 0..n {
                        // The exact sum of the rounded products (in f64).
                        let want: f64 = (0..k)
                            .map(|t| {
                                f64::from(round(x[r * k + t])) * f64::from(round(w[j * k + t]))
                            })
                            .sum();
                        let got = c[r * width + j];
                        let tol = 1e-5
                            * (0..k)
                                .map(|t| (x[r * k + t] * w[j * k + t]).abs() as f64)
                                .sum::<f64>();
                        assert!(
                            (f64::from(got) - want).abs() <= tol,
                            "{m}x{n}x{k} fast {fast}: ({r}, {j}) {got} vs {want}"
                        );
                    }
                }
            }
        }
    }
}
