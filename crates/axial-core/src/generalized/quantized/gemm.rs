//! The `u8 × i8 → i32` matrix product of the quantized linear layer:
//! `dot[m, n] = Σ_k a[m, k] · b[n, k]`, exact in `i32`.
//!
//! The weight is packed once (`linear_prepack`) in the layout of x86's VNNI
//! instruction `vpdpbusd`: panels of 16 output columns, and in each panel,
//! per group of 4 `k`, the 16 columns' 4 bytes side by side, so that one
//! 64-byte load feeds 16 lanes × 4 products. The activation is packed per
//! tile of [`MR`] rows: per group of 4 `k`, the rows' 4 bytes as one `i32`,
//! broadcast to the lanes. Zero padding (`k` to a multiple of 4, the
//! columns to a multiple of 16, the rows to a multiple of [`MR`]) adds
//! nothing to the sums.
//!
//! With AVX-512 VNNI (checked at run time) the tile of [`MR`] × 64 outputs
//! stays in 24 registers; elsewhere a portable loop computes the same sums.

use rayon::prelude::*;

/// Rows of a tile.
pub(crate) const MR: usize = 6;
/// Columns of a panel (one 512-bit register of `i32`).
pub(crate) const PANEL: usize = 16;
/// Panels of a tile.
pub(crate) const NV: usize = 4;
/// Groups of 4 `k` per block: the block of the weight a tile reads stays
/// in the L2 cache.
pub(crate) const KB_BLOCK: usize = 512;
/// Rows of the activation one task computes.
const MC: usize = 48;

/// A weight `b` (`n × k`, `i8`) packed for [`gemm`], with its row sums.
#[derive(Clone, Debug)]
pub(crate) struct PackedB {
    /// Output columns (the weight's rows).
    pub(crate) n: usize,
    /// The contracted length.
    pub(crate) k: usize,
    /// Groups of 4 `k` (`k` rounded up, over 4).
    pub(crate) kb: usize,
    /// Panels of 16 columns (`n` rounded up, over 16).
    pub(crate) panels: usize,
    /// `panels × kb × 16 × 4` bytes.
    data: Vec<i8>,
    /// `Σ_k b[n, k]`, per column.
    pub(crate) sums: Vec<i32>,
}

/// Packs the row-major `n × k` weight `b`.
pub(crate) fn pack_b(b: &[i8], n: usize, k: usize) -> PackedB {
    let kb = k.div_ceil(4);
    let panels = n.div_ceil(PANEL);
    let mut data = vec![0i8; panels * kb * PANEL * 4];
    let mut sums = vec![0i32; n];
    for (j, sum) in sums.iter_mut().enumerate() {
        let row = &b[j * k..(j + 1) * k];
        *sum = row.iter().map(|&v| v as i32).sum();
        let (p, lane) = (j / PANEL, j % PANEL);
        for (kk, &v) in row.iter().enumerate() {
            data[((p * kb + kk / 4) * PANEL + lane) * 4 + kk % 4] = v;
        }
    }
    PackedB {
        n,
        k,
        kb,
        panels,
        data,
        sums,
    }
}

/// `a` (`m × k`, `u8`, row-major) times the packed weight: calls
/// `finish(row0, dot, ld, row_sums, out)` once per block of rows from
/// `row0`, with `dot[r * ld + j]` the product of row `row0 + r` and column
/// `j < b.n`, `row_sums[r] = Σ_k a[row0 + r, k]`, and `out` the block's
/// chunk of the output (`out_row` elements per row). Blocks run in parallel.
pub(super) fn gemm<T: Send>(
    a: &[u8],
    m: usize,
    b: &PackedB,
    out: &mut [T],
    out_row: usize,
    finish: impl Fn(usize, &[i32], usize, &[i32], &mut [T]) + Sync,
) {
    let vnni = has_vnni();
    out.par_chunks_mut((MC * out_row).max(1))
        .enumerate()
        .for_each(|(block, out)| {
            let row0 = block * MC;
            let rows = MC.min(m - row0);
            let (ap, sums) = pack_a(&a[row0 * b.k..(row0 + rows) * b.k], rows, b.k, b.kb);
            let mut dot = vec![0i32; rows.div_ceil(MR) * MR * b.panels * PANEL];
            block_product(&ap, rows, b, &mut dot, vnni);
            finish(row0, &dot, b.panels * PANEL, &sums, out);
        });
}

/// Packs `rows` rows of `a` into tiles of [`MR`] rows: per tile, per group
/// of 4 `k`, [`MR`] little-endian `i32`s of 4 bytes. Returns the tiles and
/// each row's sum.
fn pack_a(a: &[u8], rows: usize, k: usize, kb: usize) -> (Vec<i32>, Vec<i32>) {
    let tiles = rows.div_ceil(MR);
    let mut packed = vec![0i32; tiles * kb * MR];
    let mut sums = vec![0i32; rows];
    for (r, sum) in sums.iter_mut().enumerate() {
        let row = &a[r * k..(r + 1) * k];
        *sum = row.iter().map(|&v| v as i32).sum();
        let (t, lane) = (r / MR, r % MR);
        for g in 0..kb {
            let mut bytes = [0u8; 4];
            let end = (4 * g + 4).min(k);
            bytes[..end - 4 * g].copy_from_slice(&row[4 * g..end]);
            packed[(t * kb + g) * MR + lane] = i32::from_le_bytes(bytes);
        }
    }
    (packed, sums)
}

/// The products of one block of rows, into `dot` (tile rows × padded
/// columns, row-major).
fn block_product(ap: &[i32], rows: usize, b: &PackedB, dot: &mut [i32], vnni: bool) {
    let width = b.panels * PANEL;
    let tiles = rows.div_ceil(MR);
    for kb0 in (0..b.kb).step_by(KB_BLOCK) {
        let kbs = KB_BLOCK.min(b.kb - kb0);
        for p0 in (0..b.panels).step_by(NV) {
            let nv = NV.min(b.panels - p0);
            for t in 0..tiles {
                let a_tile = &ap[(t * b.kb + kb0) * MR..(t * b.kb + kb0 + kbs) * MR];
                let c = &mut dot[t * MR * width + p0 * PANEL..];
                tile(a_tile, b, p0, nv, kb0, kbs, c, width, vnni);
            }
        }
    }
}

/// One tile: [`MR`] rows × `nv` panels, `kbs` groups of `k` from `kb0`,
/// added into `c` (row stride `ldc`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn tile(
    a: &[i32],
    b: &PackedB,
    p0: usize,
    nv: usize,
    kb0: usize,
    kbs: usize,
    c: &mut [i32],
    ldc: usize,
    vnni: bool,
) {
    let panel_len = b.kb * PANEL * 4;
    let b_start = p0 * panel_len + kb0 * PANEL * 4;
    assert!(a.len() >= kbs * MR);
    assert!(b.data.len() >= b_start + (nv - 1) * panel_len + kbs * PANEL * 4);
    assert!(c.len() >= (MR - 1) * ldc + nv * PANEL);
    #[cfg(target_arch = "x86_64")]
    if vnni {
        // SAFETY: VNNI is available (checked by `has_vnni`), and the asserts
        // above bound every read of `a` and `b` and every write of `c` the
        // kernel makes: `kbs` groups of MR i32 of `a`, `nv` panels of `kbs`
        // groups of 64 bytes from `b_start` at `panel_len` apart, and MR rows
        // of `nv * 16` i32 of `c` at `ldc` apart.
        unsafe {
            let bp = b.data.as_ptr().add(b_start);
            match nv {
                4 => vnni::tile::<4>(a.as_ptr(), bp, panel_len, kbs, c.as_mut_ptr(), ldc),
                3 => vnni::tile::<3>(a.as_ptr(), bp, panel_len, kbs, c.as_mut_ptr(), ldc),
                2 => vnni::tile::<2>(a.as_ptr(), bp, panel_len, kbs, c.as_mut_ptr(), ldc),
                _ => vnni::tile::<1>(a.as_ptr(), bp, panel_len, kbs, c.as_mut_ptr(), ldc),
            }
        }
        return;
    }
    let _ = vnni;
    for v in 0..nv {
        let panel = &b.data[b_start + v * panel_len..b_start + v * panel_len + kbs * PANEL * 4];
        for r in 0..MR {
            let row = &mut c[r * ldc + v * PANEL..r * ldc + (v + 1) * PANEL];
            for g in 0..kbs {
                let x = a[g * MR + r].to_le_bytes();
                let w = &panel[g * PANEL * 4..(g + 1) * PANEL * 4];
                for (lane, out) in row.iter_mut().enumerate() {
                    let w = &w[lane * 4..lane * 4 + 4];
                    *out += x[0] as i32 * w[0] as i32
                        + x[1] as i32 * w[1] as i32
                        + x[2] as i32 * w[2] as i32
                        + x[3] as i32 * w[3] as i32;
                }
            }
        }
    }
}

/// True when the CPU has AVX-512 VNNI (and the environment does not ask for
/// the portable loop with `AXIAL_NO_VNNI`).
pub(crate) fn has_vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static VNNI: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *VNNI.get_or_init(|| {
            std::env::var_os("AXIAL_NO_VNNI").is_none()
                && std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vnni")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(target_arch = "x86_64")]
mod vnni {
    use std::arch::x86_64::*;

    use super::{MR, PANEL};

    /// `c[r][v*16..v*16+16] += Σ_g a[g][r] ⋅ b[v][g]` for the [`MR`] rows and
    /// `NV` panels of a tile.
    ///
    /// # Safety
    /// AVX-512F/BW/VNNI are available; `a` holds `kbs * MR` i32; `b` holds
    /// `NV` panels of `kbs * 64` bytes, `panel_len` bytes apart; `c` holds
    /// [`MR`] rows of `NV * 16` i32, `ldc` i32 apart.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn tile<const NV: usize>(
        a: *const i32,
        b: *const i8,
        panel_len: usize,
        kbs: usize,
        c: *mut i32,
        ldc: usize,
    ) {
        let mut acc = [[_mm512_setzero_si512(); NV]; MR];
        for g in 0..kbs {
            let mut w = [_mm512_setzero_si512(); NV];
            for (v, w) in w.iter_mut().enumerate() {
                // SAFETY: panel `v`, group `g` is inside `b` (the contract).
                *w = unsafe { _mm512_loadu_si512(b.add(v * panel_len + g * PANEL * 4).cast()) };
            }
            for (r, acc) in acc.iter_mut().enumerate() {
                // SAFETY: group `g`, row `r` is inside `a` (the contract).
                let x = _mm512_set1_epi32(unsafe { *a.add(g * MR + r) });
                for v in 0..NV {
                    acc[v] = _mm512_dpbusd_epi32(acc[v], x, w[v]);
                }
            }
        }
        for (r, acc) in acc.iter().enumerate() {
            for (v, acc) in acc.iter().enumerate() {
                // SAFETY: row `r`, panel `v` of `c` is inside it (the contract).
                unsafe {
                    let p = c.add(r * ldc + v * PANEL);
                    let sum = _mm512_add_epi32(_mm512_loadu_si512(p.cast()), *acc);
                    _mm512_storeu_si512(p.cast(), sum);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The products by the definition.
    fn naive(a: &[u8], b: &[i8], m: usize, n: usize, k: usize) -> Vec<i32> {
        let mut out = vec![0; m * n];
        for i in 0..m {
            for j in 0..n {
                out[i * n + j] = (0..k)
                    .map(|t| a[i * k + t] as i32 * b[j * k + t] as i32)
                    .sum();
            }
        }
        out
    }

    fn product(a: &[u8], b: &PackedB, m: usize, vnni: bool) -> Vec<i32> {
        let (ap, _) = pack_a(a, m, b.k, b.kb);
        let width = b.panels * PANEL;
        let mut dot = vec![0; m.div_ceil(MR) * MR * width];
        block_product(&ap, m, b, &mut dot, vnni);
        (0..m)
            .flat_map(|r| dot[r * width..r * width + b.n].to_vec())
            .collect()
    }

    #[test]
    fn both_kernels_match_the_definition() {
        // Odd sizes: partial tiles, panels, groups of k, and two k blocks.
        for &(m, n, k) in &[
            (1, 1, 1),
            (7, 17, 5),
            (13, 70, 33),
            (6, 64, 2051),
            (2, 3, 4),
        ] {
            let a: Vec<u8> = (0..m * k).map(|i| (i * 37 % 256) as u8).collect();
            let b: Vec<i8> = (0..n * k).map(|i| (i * 91 % 256) as u8 as i8).collect();
            let packed = pack_b(&b, n, k);
            let want = naive(&a, &b, m, n, k);
            assert_eq!(product(&a, &packed, m, false), want, "portable {m}x{n}x{k}");
            if has_vnni() {
                assert_eq!(product(&a, &packed, m, true), want, "vnni {m}x{n}x{k}");
            }
        }
    }

    #[test]
    fn extremes_do_not_saturate() {
        // 255 × -128 four times per lane: vpdpbusd (not the saturating form).
        let (m, n, k) = (1, 16, 64);
        let a = vec![255u8; m * k];
        let b = vec![-128i8; n * k];
        let packed = pack_b(&b, n, k);
        assert_eq!(
            product(&a, &packed, m, has_vnni()),
            vec![255 * -128 * 64; n]
        );
    }
}
