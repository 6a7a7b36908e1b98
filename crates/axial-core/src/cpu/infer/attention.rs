//! Attention over the key axis in one pass per head: for each query row,
//! its scores against every key, the mask, the softmax and the weighted
//! sum of the values, without the scores leaving the caches.
//!
//! Per batch entry and head (one task each), the keys are laid out
//! `[Head, Key]` in a scratch block so that the scores of one query are
//! computed a vector of keys at a time: one chain of fused multiply-adds
//! over the head's dims per score. The softmax is PyTorch's (the maximum
//! subtracted, `exp`, the sum, one reciprocal), a query whose keys are all
//! masked giving NaN as PyTorch's `softmax` of a row of `−∞` does. The
//! weighted sum runs over the keys in order, a vector of head dims at a
//! time, and is scaled by the reciprocal last. The order of every sum is
//! fixed by the sizes: the same bits on any number of threads.

use std::borrow::Cow;

use rayon::prelude::*;

use crate::cpu::simd::{Isa, WithIsa, dispatch};
use crate::cpu::vmath::exp;
use crate::{Cpu, DType, Error, Layout, RawTensor, Result, TensorRef};

/// Floats of a task's scratch on the stack (the keys laid out `[Head,
/// Key]` and [`QR`] rows of scores: 512 keys of 32 dims); larger heads
/// take a heap block.
const SCRATCH: usize = 20 << 10;
/// Queries computed together.
const QR: usize = 4;

/// PyTorch's `scaled_dot_product_attention` in one pass per head:
/// `softmax(q·kᵀ · scale, −∞ where `keep` is false) · v`.
///
/// `query` is `[B, H, S, D]`, `key` and `value` are `[B, H, T, D]` (any
/// strides: each is read in place when its last axis is unit-stride, else
/// copied once), `keep` a bool tensor that broadcasts to `[B, H, S, T]`,
/// true where a query attends to a key (PyTorch's `attn_mask`). The result
/// is `[B, H, S, D]` laid out `[B, S, H, D]` in memory, as PyTorch's CPU
/// kernel lays it out: the heads side by side per query, so that merging
/// them for the projection that follows is a view.
///
/// # Errors
/// Any operand not f32 (the mask not bool), not 4-D, or of sizes that
/// disagree; a mask that does not broadcast to `[B, H, S, T]`.
///
/// ```
/// use axial_core::{Bool, RawTensor};
/// use axial_core::cpu::infer::attention;
/// // One head, two queries, two keys of one dim.
/// let q = RawTensor::from_vec(vec![1.0f32, 2.0], &[1, 1, 2, 1])?;
/// let k = RawTensor::from_vec(vec![1.0f32, 3.0], &[1, 1, 2, 1])?;
/// let v = RawTensor::from_vec(vec![10.0f32, 20.0], &[1, 1, 2, 1])?;
/// let y = attention(&q.view(), &k.view(), &v.view(), None, 1.0)?;
/// let p = 1.0 / (1.0 + (2.0f32).exp()); // softmax([1, 3])[0]
/// assert!((y.to_vec::<f32>()?[0] - (10.0 * p + 20.0 * (1.0 - p))).abs() < 1e-4);
/// // The second key left out.
/// let first = RawTensor::from_vec(vec![Bool::TRUE, Bool::FALSE], &[1, 1, 1, 2])?;
/// let y = attention(&q.view(), &k.view(), &v.view(), Some(&first.view()), 1.0)?;
/// assert_eq!(y.to_vec::<f32>()?, vec![10.0, 10.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn attention(
    query: &TensorRef<'_, Cpu>,
    key: &TensorRef<'_, Cpu>,
    value: &TensorRef<'_, Cpu>,
    keep: Option<&TensorRef<'_, Cpu>>,
    scale: f64,
) -> Result<RawTensor> {
    const OP: &str = "attention";
    let (&[b, h, s, d], &[kb, kh, t, kd], vs) = (query.shape(), key.shape(), value.shape()) else {
        return Err(Error::invalid(
            OP,
            format!(
                "expected 4-D query, key and value ([B, H, S, D], [B, H, T, D]), got {:?} and {:?}",
                query.shape(),
                key.shape()
            ),
        ));
    };
    if (kb, kh, kd) != (b, h, d) || vs != key.shape() {
        return Err(Error::invalid(
            OP,
            format!(
                "query {:?}, key {:?} and value {vs:?} disagree: expected key and value [{b}, {h}, T, {d}]",
                query.shape(),
                key.shape()
            ),
        ));
    }
    let mask = match keep {
        None => None,
        Some(keep) if keep.dtype() == DType::Bool => {
            Some(keep.expand(&[b as isize, h as isize, s as isize, t as isize])?)
        }
        Some(keep) => {
            return Err(Error::DTypeMismatch {
                op: OP,
                expected: DType::Bool,
                got: keep.dtype(),
            });
        }
    };
    let (q, k, v) = (
        Operand::of(OP, query)?,
        Operand::of(OP, key)?,
        Operand::of(OP, value)?,
    );
    let m = mask.as_ref().map(Mask::of).transpose()?;
    let mut out = crate::tensor::alloc_output(&Cpu, Layout::contiguous(&[b, s, h, d]), DType::F32)?;
    let y = out.storage_mut().as_mut_slice::<f32>()?;
    let heads = Heads {
        s,
        t,
        d,
        h,
        scale: scale as f32,
    };
    if t == 0 {
        // No keys: an empty weighted sum, as the product of an empty
        // softmax with an empty value.
        y.fill(0.0);
    } else if !y.is_empty() {
        run_heads(&q, &k, &v, m.as_ref(), heads, b, y);
    }
    let (storage, layout, dtype) = out.into_parts();
    RawTensor::from_parts(storage, layout.permute(&[0, 2, 1, 3])?, dtype)
}

/// Every batch entry and head, one task each, into `y` (`[B, S, H, D]`).
fn run_heads(
    q: &Operand<'_>,
    k: &Operand<'_>,
    v: &Operand<'_>,
    m: Option<&Mask<'_>>,
    heads: Heads,
    b: usize,
    y: &mut [f32],
) {
    let Heads { s, d, h, .. } = heads;
    // One task per batch entry and head; their outputs interleave (the
    // heads side by side), so each task is handed its rows' starts.
    let y = SharedOut(y.as_mut_ptr());
    (0..b * h).into_par_iter().for_each(|bh| {
        let (bi, hi) = (bh / h, bh % h);
        let head = Head {
            q: q.head(bi, hi),
            k: k.head(bi, hi),
            v: v.head(bi, hi),
            mask: m,
            at: (bi, hi),
            // SAFETY: row `i` of this head is `y[((bi·s + i)·h + hi)·d ..+ d]`,
            // written by this task alone.
            y: y.at((bi * s * h + hi) * d),
            sizes: heads,
        };
        dispatch(head);
    });
}

/// The output's base pointer, shared by the tasks (each writes its own rows).
#[derive(Copy, Clone)]
struct SharedOut(*mut f32);
impl SharedOut {
    /// The output `i` elements on.
    fn at(self, i: usize) -> *mut f32 {
        self.0.wrapping_add(i)
    }
}

// SAFETY: the tasks write disjoint rows of the output.
unsafe impl Send for SharedOut {}
// SAFETY: as above.
unsafe impl Sync for SharedOut {}

/// A 4-D f32 operand whose last axis is unit-stride: its storage's
/// elements (or a contiguous copy), offset and strides.
struct Operand<'a> {
    data: Cow<'a, [f32]>,
    offset: usize,
    strides: [usize; 4],
    rows: usize,
    d: usize,
}

impl<'a> Operand<'a> {
    /// Read in place when the last axis is unit-stride and the others
    /// non-negative, else copied.
    fn of(op: &'static str, t: &TensorRef<'a, Cpu>) -> Result<Self> {
        if t.dtype() != DType::F32 {
            return Err(Error::DTypeMismatch {
                op,
                expected: DType::F32,
                got: t.dtype(),
            });
        }
        let sh = t.shape();
        let st = t.strides();
        if st[3] == 1 && st.iter().all(|&x| x >= 0) {
            let storage = t.storage();
            t.layout().check_bounds(storage.len_of(DType::F32), 4)?;
            return Ok(Operand {
                data: Cow::Borrowed(storage.as_slice::<f32>()?),
                offset: t.offset(),
                strides: [st[0] as usize, st[1] as usize, st[2] as usize, 1],
                rows: sh[2],
                d: sh[3],
            });
        }
        let (rows, d) = (sh[2], sh[3]);
        Ok(Operand {
            data: Cow::Owned(t.to_vec::<f32>()?),
            offset: 0,
            strides: [sh[1] * rows * d, rows * d, d, 1],
            rows,
            d,
        })
    }

    /// The rows of head `(b, h)`: `rows` slices of `d`.
    fn head(&self, b: usize, h: usize) -> Rows<'_> {
        Rows {
            data: &self.data,
            start: self.offset + b * self.strides[0] + h * self.strides[1],
            stride: self.strides[2],
            d: self.d,
            rows: self.rows,
        }
    }
}

/// The rows of one head of an [`Operand`].
#[derive(Copy, Clone)]
struct Rows<'a> {
    data: &'a [f32],
    start: usize,
    stride: usize,
    d: usize,
    rows: usize,
}

impl Rows<'_> {
    /// Row `i` (`i < rows`): in bounds, the layout was checked.
    #[inline(always)]
    fn row(&self, i: usize) -> &[f32] {
        let at = self.start + i * self.stride;
        &self.data[at..at + self.d]
    }

    /// The rows as columns: `out[c·tp + j] = row(j)[c]` (`tp ≥ rows`).
    fn transpose_into(&self, out: &mut [f32], tp: usize) {
        let (rows, d) = (self.rows, self.d);
        assert!(tp >= rows && out.len() >= d * tp);
        if rows == 0 || d == 0 {
            return;
        }
        // Every row is inside `data` (the layout was checked).
        assert!(self.start + (rows - 1) * self.stride + d <= self.data.len());
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::transpose::available() {
            // SAFETY: AVX2 is available; the kernel reads `data[start +
            // c + j·stride]` for `c < d`, `j < rows` (inside, the assert)
            // and writes `out[c·tp + j]` (inside, the assert).
            unsafe {
                crate::cpu::transpose::transpose_rows(
                    out.as_mut_ptr().cast(),
                    self.data.as_ptr().add(self.start).cast(),
                    (d, rows),
                    (tp as isize, self.stride as isize),
                    false,
                );
            }
            return;
        }
        for j in 0..rows {
            for (c, &x) in self.row(j).iter().enumerate() {
                out[c * tp + j] = x;
            }
        }
    }
}

/// A bool mask of `[B, H, S, T]`, read through its strides (broadcast axes
/// stride 0).
struct Mask<'a> {
    bytes: &'a [u8],
    offset: isize,
    strides: [isize; 4],
}

impl<'a> Mask<'a> {
    fn of(mask: &TensorRef<'a, Cpu>) -> Result<Self> {
        let storage = mask.storage();
        mask.layout().check_bounds(storage.nbytes(), 1)?;
        let st = mask.strides();
        Ok(Mask {
            bytes: storage.as_bytes(),
            offset: mask.offset() as isize,
            strides: [st[0], st[1], st[2], st[3]],
        })
    }

    /// Sets `−∞` in `row` (query `i` of head `(b, h)`, one score per key)
    /// where the mask leaves the key out (is false).
    fn fill_dropped(&self, (b, h): (usize, usize), i: usize, row: &mut [f32]) {
        let [sb, sh, si, sj] = self.strides;
        let at = self.offset + b as isize * sb + h as isize * sh + i as isize * si;
        // In bounds: the layout was checked against the storage.
        if sj == 1 {
            let keep = &self.bytes[at as usize..at as usize + row.len()];
            for (x, &k) in row.iter_mut().zip(keep) {
                *x = if k == 0 { f32::NEG_INFINITY } else { *x };
            }
        } else {
            for (j, x) in row.iter_mut().enumerate() {
                if self.bytes[(at + j as isize * sj) as usize] == 0 {
                    *x = f32::NEG_INFINITY;
                }
            }
        }
    }
}

#[derive(Copy, Clone)]
struct Heads {
    s: usize,
    t: usize,
    d: usize,
    /// Heads: output rows of one head are `h · d` apart.
    h: usize,
    /// The factor of the scores.
    scale: f32,
}

/// One batch entry and head: its queries, keys and values (contiguous,
/// `[S, D]` and `[T, D]`) and where its output rows start.
struct Head<'a> {
    q: Rows<'a>,
    k: Rows<'a>,
    v: Rows<'a>,
    mask: Option<&'a Mask<'a>>,
    at: (usize, usize),
    y: *mut f32,
    sizes: Heads,
}

impl WithIsa for Head<'_> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let Heads { s, t, d, .. } = self.sizes;
        let l = I::LANES;
        // Keys laid out [D, T'] (T' = T rounded up to the lanes, 0 past T),
        // and a row of scores.
        let tp = t.next_multiple_of(l);
        let need = (d + QR) * tp;
        let mut stack = [0f32; SCRATCH];
        let mut heap = Vec::new();
        let scratch: &mut [f32] = if need <= SCRATCH {
            &mut stack[..need]
        } else {
            heap.resize(need, 0.0);
            &mut heap
        };
        let (kt, scores) = scratch.split_at_mut(d * tp);
        self.k.transpose_into(kt, tp);
        // [`QR`] queries at a time: each vector of keys (and of values)
        // loaded once serves all of them.
        for i0 in (0..s).step_by(QR) {
            let live = QR.min(s - i0);
            // Rows past the end repeat the first (their results are dropped).
            let q: [&[f32]; QR] =
                std::array::from_fn(|r| self.q.row(if r < live { i0 + r } else { i0 }));
            // Scores two vectors of keys at a time (eight chains of
            // fused multiply-adds in flight): Σ_c q[c]·k[j][c] in c order.
            let pairs = tp / l / 2 * 2 * l;
            for j in (0..pairs).step_by(2 * l) {
                self.scores::<I, 2>(isa, kt, tp, j, &q, scores);
            }
            if pairs < tp {
                self.scores::<I, 1>(isa, kt, tp, pairs, &q, scores);
            }
            for row in scores.chunks_exact_mut(tp) {
                // Keys past `t` (0 in `kt`) weigh nothing.
                row[t..].fill(f32::NEG_INFINITY);
            }
            let mut recip = [0f32; QR];
            for (r, recip) in recip.iter_mut().enumerate().take(live) {
                let row = &mut scores[r * tp..(r + 1) * tp];
                *recip = self.softmax_row(isa, row, i0 + r);
            }
            // Σ_j e_j·v[j], two vectors of head dims at a time, then · 1/sum.
            let mut c = 0;
            while c < d {
                let lanes = (2 * l).min(d - c);
                if lanes > l {
                    self.weighted::<I, 2>(isa, c, lanes, t, tp, scores, &recip, i0, live);
                } else {
                    self.weighted::<I, 1>(isa, c, lanes, t, tp, scores, &recip, i0, live);
                }
                c += lanes;
            }
        }
    }
}

impl Head<'_> {
    /// The scores of the [`QR`] queries `q` against the `NJ` vectors of
    /// keys from `j`, times the scale, into `scores` (rows `tp` apart).
    #[inline(always)]
    fn scores<I: Isa, const NJ: usize>(
        &self,
        isa: I,
        kt: &[f32],
        tp: usize,
        j: usize,
        q: &[&[f32]; QR],
        scores: &mut [f32],
    ) {
        let (l, d) = (I::LANES, self.sizes.d);
        assert!(j + NJ * l <= tp && kt.len() >= d * tp && scores.len() >= QR * tp);
        assert!(q.iter().all(|q| q.len() >= d));
        let mut acc = [[isa.splat(0.0); QR]; NJ];
        for c in 0..d {
            for (v, acc) in acc.iter_mut().enumerate() {
                // SAFETY: `c·tp + j + (v + 1)·l ≤ d·tp` (the asserts).
                let k = unsafe { isa.load(kt.as_ptr().add(c * tp + j + v * l)) };
                for (acc, q) in acc.iter_mut().zip(q) {
                    // SAFETY: `c < d ≤ q.len()`.
                    let qc = unsafe { *q.get_unchecked(c) };
                    *acc = isa.fma(isa.splat(qc), k, *acc);
                }
            }
        }
        let scale = isa.splat(self.sizes.scale);
        for (v, acc) in acc.iter().enumerate() {
            for (r, acc) in acc.iter().enumerate() {
                // SAFETY: `r·tp + j + (v + 1)·l ≤ QR·tp` (the asserts).
                unsafe {
                    isa.store(
                        scores.as_mut_ptr().add(r * tp + j + v * l),
                        isa.mul(*acc, scale),
                    )
                };
            }
        }
    }

    /// Head dims `c ..+ lanes` (`lanes ≤ NC` vectors) of the outputs of
    /// queries `i0 ..+ live`: `Σ_j e_j·v[j][c..]` over the `t` keys in
    /// order, times each query's `1/Σ`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn weighted<I: Isa, const NC: usize>(
        &self,
        isa: I,
        c: usize,
        lanes: usize,
        t: usize,
        tp: usize,
        scores: &[f32],
        recip: &[f32; QR],
        i0: usize,
        live: usize,
    ) {
        let (l, Heads { d, h, .. }) = (I::LANES, self.sizes);
        let width = |v: usize| lanes.saturating_sub(v * l).min(l);
        assert!(c + lanes <= d && lanes <= NC * l && t <= tp && scores.len() >= QR * tp);
        assert!(t <= self.v.rows && live <= QR);
        let mut acc = [[isa.splat(0.0); QR]; NC];
        for j in 0..t {
            let vj = self.v.row(j)[c..c + lanes].as_ptr();
            for (v, acc) in acc.iter_mut().enumerate() {
                // SAFETY: the row's dims `c + v·l ..+ width(v)` are inside it.
                let vj = unsafe { isa.load_n(vj.add(v * l), width(v)) };
                for (r, acc) in acc.iter_mut().enumerate() {
                    // SAFETY: `r·tp + j < QR·tp` (the asserts).
                    let e = unsafe { *scores.get_unchecked(r * tp + j) };
                    *acc = isa.fma(isa.splat(e), vj, *acc);
                }
            }
        }
        for (v, acc) in acc.iter().enumerate() {
            for (r, acc) in acc.iter().enumerate().take(live) {
                // SAFETY: row `i0 + r` of this head's output, dims
                // `c + v·l ..+ width(v) ≤ d` (the caller's pointer: rows
                // `h · d` apart).
                unsafe {
                    isa.store_n(
                        self.y.add((i0 + r) * h * d + c + v * l),
                        width(v),
                        isa.mul(*acc, isa.splat(recip[r])),
                    );
                }
            }
        }
    }

    /// Query `i`'s scores in `row` (`tp` of them, `−∞` past the keys)
    /// masked and turned into `e^(x − max)` in place; returns `1/Σ`. A row
    /// whose keys are all masked (or with a NaN) gives NaN, as PyTorch's
    /// softmax.
    #[inline(always)]
    fn softmax_row<I: Isa>(&self, isa: I, row: &mut [f32], i: usize) -> f32 {
        let l = I::LANES;
        if let Some(mask) = self.mask {
            mask.fill_dropped(self.at, i, &mut row[..self.sizes.t]);
        }
        let mut max = isa.splat(f32::NEG_INFINITY);
        let mut nan = isa.lt(max, max);
        for x in row.chunks_exact(l) {
            // SAFETY: `x` holds LANES f32.
            let x = unsafe { isa.load(x.as_ptr()) };
            max = isa.max(max, x);
            nan = isa.or_m(nan, isa.is_nan(x));
        }
        let max = if isa.any(nan) {
            f32::NAN
        } else {
            isa.max_lane(max)
        };
        let mv = isa.splat(max);
        let mut sum = isa.splat(0.0);
        for x in row.chunks_exact_mut(l) {
            // SAFETY: `x` holds LANES f32.
            unsafe {
                let e = exp(isa, isa.sub(isa.load(x.as_ptr()), mv));
                isa.store(x.as_mut_ptr(), e);
            }
        }
        for x in row.chunks_exact(l) {
            // SAFETY: as above.
            sum = isa.add(sum, unsafe { isa.load(x.as_ptr()) });
        }
        1.0 / isa.sum(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bool;

    /// The composition: `q·kᵀ · scale`, `−∞` where `keep` is false,
    /// softmax over keys, `·v`.
    fn composed(
        q: &RawTensor,
        k: &RawTensor,
        v: &RawTensor,
        keep: &TensorRef<'_, Cpu>,
        scale: f64,
    ) -> Vec<f32> {
        let mut scores = q.view().matmul(&k.view().transpose(2, 3).unwrap()).unwrap();
        scores
            .view_mut()
            .binary_scalar_(crate::BinaryOp::Mul, crate::Scalar::Float(scale))
            .unwrap();
        let dropped = keep
            .compare_scalar(crate::CmpOp::Eq, crate::Scalar::Bool(false))
            .unwrap();
        let scores = scores
            .view()
            .masked_fill(&dropped.view(), crate::Scalar::Float(f64::NEG_INFINITY))
            .unwrap();
        let probs = scores.view().softmax(3).unwrap();
        probs
            .view()
            .matmul(&v.view())
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
    }

    fn rand(shape: &[usize], seed: usize) -> RawTensor {
        let n: usize = shape.iter().product();
        let x = (0..n)
            .map(|i| (((i + seed) * 7919 % 1009) as f32 - 504.0) / 300.0)
            .collect();
        RawTensor::from_vec(x, shape).unwrap()
    }

    #[test]
    fn a_mask_per_query_read_through_strides_matches_the_composition() {
        let (s, t, d) = (7, 37, 24);
        let (q, k, v) = (
            rand(&[1, 2, s, d], 4),
            rand(&[1, 2, t, d], 5),
            rand(&[1, 2, t, d], 6),
        );
        // Stored [T, S] and viewed transposed: the keys are `s` apart.
        // Query `i` keeps key 0 and the keys past `3·i`.
        let keep: Vec<Bool> = (0..t * s)
            .map(|x| Bool::from(x / s == 0 || x / s > 3 * (x % s)))
            .collect();
        let keep = RawTensor::from_vec(keep, &[1, 1, t, s]).unwrap();
        let keep = keep.view().transpose(2, 3).unwrap();
        let got = attention(&q.view(), &k.view(), &v.view(), Some(&keep), 0.3).unwrap();
        let want = composed(&q, &k, &v, &keep, 0.3);
        for (i, (g, w)) in got.to_vec::<f32>().unwrap().iter().zip(&want).enumerate() {
            assert!((g - w).abs() <= 1e-5 * (1.0 + w.abs()), "[{i}]: {g} vs {w}");
        }
    }

    #[test]
    fn matches_the_composition() {
        for &(b, h, s, t, d) in &[
            (2, 3, 5, 7, 4),
            (1, 2, 17, 40, 32),
            (2, 1, 3, 19, 20),
            (1, 1, 1, 1, 1),
            (1, 2, 6, 64, 40),
            (1, 1, 9, 33, 16),
        ] {
            let (q, k, v) = (
                rand(&[b, h, s, d], 1),
                rand(&[b, h, t, d], 2),
                rand(&[b, h, t, d], 3),
            );
            // Key padding: batch entry 0 keeps every key, the others drop
            // their last third.
            let keep: Vec<Bool> = (0..b * t)
                .map(|i| Bool::from(!(i / t > 0 && i % t >= t - t / 3)))
                .collect();
            let keep = RawTensor::from_vec(keep, &[b, 1, 1, t]).unwrap();
            let scale = 1.0 / (d as f64).sqrt();
            let got =
                attention(&q.view(), &k.view(), &v.view(), Some(&keep.view()), scale).unwrap();
            assert_eq!(
                (got.shape(), got.strides()[2]),
                (&[b, h, s, d][..], (h * d) as isize)
            );
            let want = composed(&q, &k, &v, &keep.view(), scale);
            for (i, (g, w)) in got.to_vec::<f32>().unwrap().iter().zip(&want).enumerate() {
                assert!(
                    (g - w).abs() <= 1e-5 * (1.0 + w.abs()),
                    "{b}x{h}x{s}x{t}x{d} [{i}]: {g} vs {w}"
                );
            }
        }
    }

    #[test]
    fn all_keys_dropped_give_nan_and_strided_operands_are_read() {
        let (q, k, v) = (
            rand(&[1, 2, 3, 4], 1),
            rand(&[1, 2, 5, 4], 2),
            rand(&[1, 2, 5, 4], 3),
        );
        let none = RawTensor::from_vec(vec![Bool::FALSE; 5], &[1, 1, 1, 5]).unwrap();
        let y = attention(&q.view(), &k.view(), &v.view(), Some(&none.view()), 1.0).unwrap();
        assert!(y.to_vec::<f32>().unwrap().iter().all(|x| x.is_nan()));
        // The key as a transposed view of [B, H, D, T].
        let kt = k.view().transpose(2, 3).unwrap().to_contiguous().unwrap();
        let kv = kt.view().transpose(2, 3).unwrap();
        let a = attention(&q.view(), &kv, &v.view(), None, 0.5).unwrap();
        let b = attention(&q.view(), &k.view(), &v.view(), None, 0.5).unwrap();
        assert_eq!(a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
        let bad = RawTensor::zeros(&[1, 1, 1, 4], DType::Bool).unwrap();
        assert!(attention(&q.view(), &k.view(), &v.view(), Some(&bad.view()), 1.0).is_err());
        assert!(attention(&q.view(), &q.view(), &v.view(), None, 1.0).is_err());
        // No keys: zeros, as the composition.
        let (k0, v0) = (rand(&[1, 2, 0, 4], 2), rand(&[1, 2, 0, 4], 3));
        let y = attention(&q.view(), &k0.view(), &v0.view(), None, 1.0).unwrap();
        assert_eq!(y.to_vec::<f32>().unwrap(), vec![0.0; 24]);
    }
}
