//! Matrix products of f32 and f64 through the `gemm` crate, at the
//! instruction set in use ([`level_at`]). At the AVX-512 level `gemm`'s own
//! dispatch runs (it picks its AVX-512 kernels on such a CPU). Below it,
//! which a CPU without AVX-512 gives and `AXIAL_SIMD` can ask for, the
//! kernels of that level are called directly (`gemm`'s FMA kernels for
//! AVX2, its scalar ones for the portable level), after the same
//! normalisation of the operands' strides that `gemm::gemm` makes, since
//! `gemm`'s own dispatch would detect the CPU again and ignore the level.
//!
//! The direct calls name `gemm`'s internals (`gemm-common`'s generic
//! driver and the microkernel tables of `gemm-f32` and `gemm-f64`), whose
//! versions are pinned with `gemm`'s in the workspace.

use gemm::Parallelism;
use gemm_common::gemm::gemm_basic_generic;

use super::simd::{Level, Site, level_at};

/// `dst = alpha·dst + beta·lhs·rhs` (`dst` read only when `read_dst`): an
/// `m × n` result of an `m × k` and a `k × n` operand, each given by a
/// pointer to its first element, a column stride and a row stride, in
/// elements.
#[derive(Copy, Clone)]
pub(crate) struct Product<T> {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub dst: (*mut T, isize, isize),
    pub read_dst: bool,
    pub lhs: (*const T, isize, isize),
    pub rhs: (*const T, isize, isize),
    pub alpha: T,
    pub beta: T,
}

/// An element `gemm` multiplies at a chosen level.
pub(crate) trait GemmElem: Copy + 'static {
    /// Runs `p` with the kernels of `level` (not [`Level::Avx512`]).
    ///
    /// # Safety
    /// As [`run`], and `p`'s strides normalised as [`normalised`] leaves
    /// them.
    unsafe fn below_avx512(level: Level, p: Product<Self>, par: Parallelism);
}

/// Calls `gemm_basic_generic` with the microkernels of `module` (a
/// `gemm_f32::microkernel::...` or `gemm_f64::...` path), `N` lanes and
/// the `gemm_common::simd` type `simd`.
macro_rules! basic {
    ($module:path, $n:expr, $simd:ty, $t:ty, $p:expr, $par:expr) => {{
        use $module as ukr;
        let p: Product<$t> = $p;
        let simd = <$simd as gemm_common::simd::MixedSimd<$t, $t, $t, $t>>::try_new();
        // The level was detected with every feature the kernels need.
        let Some(simd) = simd else {
            unreachable!("the level in use has the kernels' features")
        };
        gemm_basic_generic::<
            _,
            $t,
            { $n },
            { ukr::MR_DIV_N * $n },
            { ukr::NR },
            { ukr::MR_DIV_N },
            { ukr::H_M },
            { ukr::H_N },
        >(
            simd,
            p.m,
            p.n,
            p.k,
            p.dst.0,
            p.dst.1,
            p.dst.2,
            p.read_dst,
            p.lhs.0,
            p.lhs.1,
            p.lhs.2,
            p.rhs.0,
            p.rhs.1,
            p.rhs.2,
            p.alpha,
            p.beta,
            false,
            false,
            false,
            |a, b, c| a * b + c,
            &ukr::UKR,
            &ukr::H_UKR,
            false,
            $par,
        )
    }};
}

impl GemmElem for f32 {
    unsafe fn below_avx512(level: Level, p: Product<f32>, par: Parallelism) {
        // SAFETY: the caller's contract; the kernels' features are those
        // of `level`, which the CPU has.
        unsafe {
            match level {
                #[cfg(target_arch = "x86_64")]
                Level::Avx2 => basic!(
                    gemm_f32::microkernel::fma::f32,
                    8,
                    gemm_common::simd::V3,
                    f32,
                    p,
                    par
                ),
                _ => basic!(
                    gemm_f32::microkernel::scalar::f32,
                    1,
                    gemm_common::simd::Scalar,
                    f32,
                    p,
                    par
                ),
            }
        }
    }
}

impl GemmElem for f64 {
    unsafe fn below_avx512(level: Level, p: Product<f64>, par: Parallelism) {
        // SAFETY: as for f32.
        unsafe {
            match level {
                #[cfg(target_arch = "x86_64")]
                Level::Avx2 => basic!(
                    gemm_f64::microkernel::fma::f64,
                    4,
                    gemm_common::simd::V3,
                    f64,
                    p,
                    par
                ),
                _ => basic!(
                    gemm_f64::microkernel::scalar::f64,
                    1,
                    gemm_common::simd::Scalar,
                    f64,
                    p,
                    par
                ),
            }
        }
    }
}

/// `p` as `gemm::gemm` hands it to its kernels: transposed when `dst` is
/// column-major, every stride made non-negative.
fn normalised<T>(p: Product<T>) -> Product<T> {
    let mut p = p;
    if p.dst.1.unsigned_abs() < p.dst.2.unsigned_abs() {
        // (lhs·rhs)ᵀ = rhsᵀ·lhsᵀ, into dstᵀ.
        p = Product {
            m: p.n,
            n: p.m,
            dst: (p.dst.0, p.dst.2, p.dst.1),
            lhs: (p.rhs.0, p.rhs.2, p.rhs.1),
            rhs: (p.lhs.0, p.lhs.2, p.lhs.1),
            ..p
        };
    }
    // The last of `count` elements `stride` apart, which a walk with the
    // stride negated starts from.
    let last = |count: usize, stride: isize| (count as isize - 1) * stride;
    if p.dst.2 < 0 && p.m > 0 {
        let (d, l) = (last(p.m, p.dst.2), last(p.m, p.lhs.2));
        p.dst = (p.dst.0.wrapping_offset(d), p.dst.1, -p.dst.2);
        p.lhs = (p.lhs.0.wrapping_offset(l), p.lhs.1, -p.lhs.2);
    }
    if p.dst.1 < 0 && p.n > 0 {
        let (d, r) = (last(p.n, p.dst.1), last(p.n, p.rhs.1));
        p.dst = (p.dst.0.wrapping_offset(d), -p.dst.1, p.dst.2);
        p.rhs = (p.rhs.0.wrapping_offset(r), -p.rhs.1, p.rhs.2);
    }
    if p.lhs.1 < 0 && p.k > 0 {
        let (l, r) = (last(p.k, p.lhs.1), last(p.k, p.rhs.2));
        p.lhs = (p.lhs.0.wrapping_offset(l), -p.lhs.1, p.lhs.2);
        p.rhs = (p.rhs.0.wrapping_offset(r), p.rhs.1, -p.rhs.2);
    }
    p
}

/// Runs `p` with the kernels of the instruction set in use.
///
/// # Safety
/// As `gemm::gemm`: every element `lhs + i·row + j·col` (and `rhs`'s)
/// is readable and every `dst` element writable, `dst` is not read or
/// written by anyone else meanwhile, and its elements are distinct.
pub(crate) unsafe fn run<T: GemmElem>(p: Product<T>, par: Parallelism) {
    match level_at(Site::Gemm) {
        // SAFETY: the caller's contract is `gemm::gemm`'s.
        Level::Avx512 => unsafe {
            gemm::gemm(
                p.m, p.n, p.k, p.dst.0, p.dst.1, p.dst.2, p.read_dst, p.lhs.0, p.lhs.1, p.lhs.2,
                p.rhs.0, p.rhs.1, p.rhs.2, p.alpha, p.beta, false, false, false, par,
            )
        },
        // SAFETY: the same contract, the strides normalised as `gemm::gemm` does.
        level => unsafe { T::below_avx512(level, normalised(p), par) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every level's kernels give the plain sum of products, for row-major,
    /// column-major and reversed results, accumulating or not.
    #[test]
    fn every_level_multiplies() {
        let (m, k, n) = (7usize, 19usize, 11usize);
        let a: Vec<f64> = (0..m * k).map(|i| (i % 13) as f64 - 6.0).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i % 7) as f64 * 0.5 - 1.0).collect();
        let want = |i: usize, j: usize| (0..k).map(|l| a[i * k + l] * b[l * n + j]).sum::<f64>();
        let levels = [Level::Avx2, Level::Portable];
        for level in levels
            .into_iter()
            .filter(|&l| l <= super::super::simd::level())
        {
            for (column_major, reversed) in [(false, false), (true, false), (false, true)] {
                for read_dst in [false, true] {
                    let mut dst = vec![1.0f64; m * n];
                    let (cs, rs) = if column_major { (m, 1) } else { (1, n) };
                    // Reversed: the rows of `a` and of `dst` walked last to first.
                    let (row_a, row_d) = if reversed {
                        (-(k as isize), -(rs as isize))
                    } else {
                        (k as isize, rs as isize)
                    };
                    let first = |rows: usize, row: isize| {
                        if row < 0 {
                            (rows - 1) * row.unsigned_abs()
                        } else {
                            0
                        }
                    };
                    let p = Product {
                        m,
                        n,
                        k,
                        dst: (
                            dst.as_mut_ptr().wrapping_add(first(m, row_d)),
                            cs as isize,
                            row_d,
                        ),
                        read_dst,
                        lhs: (a.as_ptr().wrapping_add(first(m, row_a)), 1, row_a),
                        rhs: (b.as_ptr(), 1, n as isize),
                        alpha: 1.0,
                        beta: 1.0,
                    };
                    // SAFETY: every index is within the three buffers.
                    unsafe { f64::below_avx512(level, normalised(p), Parallelism::None) };
                    for i in 0..m {
                        for j in 0..n {
                            let at = i * rs + j * cs;
                            let base = if read_dst { 1.0 } else { 0.0 };
                            assert_eq!(dst[at], base + want(i, j), "{level:?} ({i}, {j})");
                        }
                    }
                }
            }
        }
    }
}
