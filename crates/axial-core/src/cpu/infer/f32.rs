//! A linear layer with f32 weights packed once, f32 in and out.
//!
//! The weight is packed when the layer is built: panels of one vector of
//! output columns (the lanes of the instruction set in use), and in each
//! panel, per `k`, the panel's columns side by side. A tile of [`MR`] rows
//! × `NV` panels keeps its sums in registers (4 panels with AVX-512's 32
//! registers, 2 with AVX2's 16); each `k` loads `NV` vectors of the weight
//! and broadcasts one input element per row. The input is read in place,
//! not packed: a tile's rows are `MR` streams over `k`.
//!
//! The bias is added as each output leaves the registers, and an
//! activation can follow it there ([`F32Linear::forward_gelu`]): bias and
//! GELU cost no pass of their own over the output.
//!
//! Each output is one chain of fused multiply-adds over `k` in order,
//! the bias added last, whatever the number of threads: the threads split
//! the rows, never `k`. The sum is the same at every instruction set but
//! for the rounding of the products (each `fma` rounds once), so the three
//! levels give the same bits where the CPU's `fma` and the portable
//! `mul_add` agree, which they do (both round once).

use std::ops::Range;

use super::Features;
use super::rows::{self, Rows};
use crate::cpu::simd::{Isa, WithIsa, dispatch};
use crate::cpu::vmath::Lanewise;
use crate::cpu::vmath::erf::GeluOp;
use crate::{Cpu, RawTensor, Result, TensorRef};

/// Rows of a tile.
const MR: usize = 6;
/// Rows of the input one task multiplies (a multiple of [`MR`]).
const MC: usize = 48;

/// A linear layer's weight (`out_features × in_features`) in f32, packed
/// for the product, with its f32 bias.
///
/// # Example
/// ```
/// use axial_core::RawTensor;
/// use axial_core::cpu::infer::F32Linear;
/// let w = RawTensor::from_vec(vec![1.0f32, -0.5, 0.25, 2.0, 0.0, -1.0], &[2, 3])?;
/// let b = RawTensor::from_vec(vec![0.5f32, -0.5], &[2])?;
/// let layer = F32Linear::new(&w.view(), Some(&b.view()))?;
/// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[1, 3])?;
/// assert_eq!(layer.forward(&x.view())?.to_vec::<f32>()?, vec![1.25, -1.5]);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct F32Linear {
    n: usize,
    k: usize,
    /// Columns of a panel: the lanes of the instruction set in use.
    lanes: usize,
    /// `panels × k × lanes` weights, 0 past `n`.
    packed: Vec<f32>,
    /// The bias, 0 past `n` and without one (`panels × lanes`).
    bias: Vec<f32>,
}

/// The lanes of a vector at the level in use.
struct Lanes;

impl WithIsa for Lanes {
    type Output = usize;
    #[inline(always)]
    fn run<I: Isa>(self, _: I) -> usize {
        I::LANES
    }
}

impl Features for F32Linear {
    fn features(&self) -> (usize, usize) {
        (self.n, self.k)
    }
}

impl F32Linear {
    /// Packs `weight` (f32, `[out_features, in_features]`), with `bias`
    /// (f32, `[out_features]`).
    ///
    /// # Errors
    /// `weight` is not a 2-D f32 tensor; `bias` is not f32 of
    /// `out_features` elements.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::cpu::infer::F32Linear;
    /// let w = RawTensor::zeros(&[2, 3], DType::F64)?;
    /// let e = F32Linear::new(&w.view(), None).unwrap_err();
    /// assert!(e.to_string().starts_with("f32_linear: expected dtype"), "{e}");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(weight: &TensorRef<'_, Cpu>, bias: Option<&TensorRef<'_, Cpu>>) -> Result<Self> {
        const OP: &str = "f32_linear";
        let (w, n, k) = rows::weight(OP, weight, usize::MAX)?;
        let given = rows::bias(OP, bias, n)?;
        let lanes = dispatch(Lanes);
        let panels = n.div_ceil(lanes);
        let mut packed = vec![0f32; panels * k * lanes];
        for (j, row) in w.chunks_exact(k.max(1)).take(n).enumerate() {
            let (p, lane) = (j / lanes, j % lanes);
            for (t, &v) in row.iter().enumerate() {
                packed[(p * k + t) * lanes + lane] = v;
            }
        }
        let mut bias = vec![0f32; panels * lanes];
        if let Some(b) = given {
            bias[..n].copy_from_slice(&b);
        }
        Ok(F32Linear {
            n,
            k,
            lanes,
            packed,
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
    /// # use axial_core::{RawTensor, DType, cpu::infer::F32Linear};
    /// let layer = F32Linear::new(&RawTensor::zeros(&[4, 3], DType::F32)?.view(), None)?;
    /// let x = RawTensor::zeros(&[2, 5, 3], DType::F32)?;
    /// assert_eq!(layer.forward(&x.view())?.shape(), &[2, 5, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn forward(&self, x: &TensorRef<'_, Cpu>) -> Result<RawTensor> {
        self.forward_then(x, Plain)
    }

    /// `gelu(x · wᵀ + b)` (the exact GELU, PyTorch's default), the GELU
    /// applied as the outputs leave the registers. The bits of
    /// [`F32Linear::forward`] followed by an in-place GELU where
    /// `out_features` is a multiple of 16 (the GELU takes a vector's
    /// cheaper path when no lane is below −6, so the bits depend on which
    /// elements share a vector).
    ///
    /// # Errors
    /// As [`F32Linear::forward`].
    ///
    /// ```
    /// # use axial_core::{RawTensor, cpu::infer::F32Linear};
    /// let w = RawTensor::from_vec(vec![1.0f32, -1.0], &[2, 1])?;
    /// let layer = F32Linear::new(&w.view(), None)?;
    /// let x = RawTensor::from_vec(vec![2.0f32], &[1, 1])?;
    /// let y = layer.forward_gelu(&x.view())?.to_vec::<f32>()?;
    /// assert!((y[0] - 1.9545).abs() < 1e-4 && (y[1] + 0.0455).abs() < 1e-4);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn forward_gelu(&self, x: &TensorRef<'_, Cpu>) -> Result<RawTensor> {
        self.forward_then(x, Activation(GeluOp))
    }

    /// The layer over `x`, `then` applied to each output after its bias.
    fn forward_then<E: Epilogue>(&self, x: &TensorRef<'_, Cpu>, then: E) -> Result<RawTensor> {
        let rows = Rows::of("f32_linear", x, self.k, self.n)?;
        rows.compute_uninit(|x, y| self.forward_rows(x, y, then))
    }

    /// The layer over the rows of `x` (`m × k`) into `y` (`m × n`).
    fn forward_rows<E: Epilogue>(&self, x: &[f32], y: &mut [f32], then: E) {
        let n = self.n;
        if y.is_empty() || n == 0 {
            return;
        }
        rows::blocks(y, n, MR, MC, |rows, out| {
            dispatch(Block {
                layer: self,
                x,
                rows,
                out,
                then,
            });
        });
    }
}

/// What each output goes through after its bias, in registers.
trait Epilogue: Copy + Send + Sync {
    fn apply<I: Isa>(self, isa: I, v: I::F) -> I::F;
}

/// The outputs as they are.
#[derive(Copy, Clone)]
struct Plain;

impl Epilogue for Plain {
    #[inline(always)]
    fn apply<I: Isa>(self, _: I, v: I::F) -> I::F {
        v
    }
}

/// An elementwise function of the outputs.
#[derive(Copy, Clone)]
struct Activation<L>(L);

impl<L: Lanewise + Sync> Epilogue for Activation<L> {
    #[inline(always)]
    fn apply<I: Isa>(self, isa: I, v: I::F) -> I::F {
        self.0.apply(isa, v)
    }
}

/// The outputs of a block of rows, every column.
struct Block<'a, E> {
    layer: &'a F32Linear,
    x: &'a [f32],
    rows: Range<usize>,
    /// The block's rows of the output, `n` apart.
    out: &'a mut [f32],
    then: E,
}

impl<E: Epilogue> WithIsa for Block<'_, E> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        if I::LANES >= 16 {
            self.tiles::<I, 4>(isa);
        } else {
            self.tiles::<I, 2>(isa);
        }
    }
}

impl<E: Epilogue> Block<'_, E> {
    /// Every tile of the block: `NV` panels at a time, then the rows.
    #[inline(always)]
    fn tiles<I: Isa, const NV: usize>(self, isa: I) {
        let Block {
            layer,
            x,
            rows,
            out,
            then,
        } = self;
        let (n, k, lanes) = (layer.n, layer.k, layer.lanes);
        assert_eq!(lanes, I::LANES, "packed for the level in use");
        let panels = n.div_ceil(lanes);
        let panel_len = k * lanes;
        assert!(x.len() >= rows.end * k && out.len() >= rows.len() * n);
        for p0 in (0..panels).step_by(NV) {
            let nv = NV.min(panels - p0);
            let cols = (n - p0 * lanes).min(nv * lanes);
            for r0 in (rows.start..rows.end).step_by(MR) {
                let live = MR.min(rows.end - r0);
                // Rows past the block's end read its first row again (their
                // sums are not stored).
                let a = std::array::from_fn(|r| {
                    let row = if r < live { r0 + r } else { r0 };
                    x[row * k..].as_ptr()
                });
                let c = out[(r0 - rows.start) * n + p0 * lanes..].as_mut_ptr();
                let t = Tile {
                    a,
                    b: layer.packed[p0 * panel_len..].as_ptr(),
                    bias: layer.bias[p0 * lanes..].as_ptr(),
                    panel_len,
                    k,
                    c,
                    ldc: n,
                    live,
                    cols,
                };
                // SAFETY: rows `r0..r0 + live` lie in the block, so each
                // `a[r]` reads `k` f32 of `x` (asserted above); panels
                // `p0..p0 + nv` of `k × lanes` each are in `packed`, the
                // padded bias has `nv · lanes` from `p0 · lanes`; the output
                // rows `r0 - rows.start ..+ live`, columns `p0 · lanes ..+
                // cols ≤ n`, lie in `out`.
                unsafe {
                    match nv {
                        n if n == NV => t.run::<I, NV, E>(isa, then),
                        3 => t.run::<I, 3, E>(isa, then),
                        2 => t.run::<I, 2, E>(isa, then),
                        _ => t.run::<I, 1, E>(isa, then),
                    }
                }
            }
        }
    }
}

/// One tile's operands: [`MR`] input rows, `NV` weight panels from `b`
/// (`panel_len` apart) and their bias, the output at `c` (rows `ldc`
/// apart), of which `live` rows and `cols` columns are stored.
struct Tile {
    a: [*const f32; MR],
    b: *const f32,
    bias: *const f32,
    panel_len: usize,
    k: usize,
    c: *mut f32,
    ldc: usize,
    live: usize,
    cols: usize,
}

impl Tile {
    /// `c[r][j] = then(Σ_t a[r][t] · w[j][t] + bias[j])`, summed in `t`
    /// order.
    ///
    /// # Safety
    /// Each `a[r]` reads `k` f32; `b` reads `NV` panels of `k · LANES`
    /// f32, `panel_len` apart; `bias` reads `NV · LANES` f32; `c` writes
    /// `live` rows of `cols ≤ NV · LANES` f32, `ldc` apart.
    #[inline(always)]
    unsafe fn run<I: Isa, const NV: usize, E: Epilogue>(&self, isa: I, then: E) {
        let l = I::LANES;
        let mut acc = [[isa.splat(0.0); NV]; MR];
        for t in 0..self.k {
            // SAFETY: `t < k`: inside each panel and each row (the contract).
            unsafe {
                let w: [I::F; NV] =
                    std::array::from_fn(|v| isa.load(self.b.add(v * self.panel_len + t * l)));
                for (acc, a) in acc.iter_mut().zip(self.a) {
                    let x = isa.splat(*a.add(t));
                    for (acc, &w) in acc.iter_mut().zip(&w) {
                        *acc = isa.fma(x, w, *acc);
                    }
                }
            }
        }
        for (r, acc) in acc.iter().enumerate().take(self.live) {
            for (v, &acc) in acc.iter().enumerate() {
                let lanes = self.cols.saturating_sub(v * l).min(l);
                if lanes == 0 {
                    break;
                }
                // SAFETY: `v · LANES + lanes ≤ cols` of row `r < live`, and
                // the bias's `NV · LANES` (the contract).
                unsafe {
                    let y = then.apply(isa, isa.add(acc, isa.load(self.bias.add(v * l))));
                    isa.store_n(self.c.add(r * self.ldc + v * l), lanes, y);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::infer::sequence;

    #[test]
    fn matches_the_sum_in_order_with_the_bias_last() {
        // Partial tiles and panels, k of 1, rows fewer than a tile.
        for &(m, n, k) in &[
            (1, 1, 1),
            (7, 17, 5),
            (13, 70, 33),
            (50, 130, 384),
            (3, 64, 2),
        ] {
            let x = sequence(m * k, 37, 101, 50.0, 16.0);
            let w = sequence(n * k, 91, 103, 51.0, 32.0);
            let b: Vec<f32> = (0..n).map(|i| i as f32 / 8.0 - 1.0).collect();
            let wt = RawTensor::from_vec(w.clone(), &[n, k]).unwrap();
            let bt = RawTensor::from_vec(b.clone(), &[n]).unwrap();
            let layer = F32Linear::new(&wt.view(), Some(&bt.view())).unwrap();
            let xt = RawTensor::from_vec(x.clone(), &[m, k]).unwrap();
            let got = layer.forward(&xt.view()).unwrap().to_vec::<f32>().unwrap();
            for r in 0..m {
                for j in 0..n {
                    let sum = (0..k).fold(0f32, |s, t| x[r * k + t].mul_add(w[j * k + t], s));
                    let want = sum + b[j];
                    assert_eq!(got[r * n + j], want, "{m}x{n}x{k}: ({r}, {j})");
                }
            }
        }
    }
}
