//! [`Isa`] over plain arrays (8 f32 lanes, 4 f64), for CPUs without the
//! vector sets above; the compiler vectorises what its target allows.
//! Every lane is computed as the vector sets compute it (x86's NaN rules
//! for `min`/`max`, one rounding for the fused multiply-add).

use super::Isa;

/// The portable token (no feature needed).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Portable(());

impl Portable {
    /// The token.
    pub(crate) fn new() -> Self {
        Portable(())
    }
}

const N: usize = 8;
const H: usize = N / 2;

#[inline(always)]
fn map<T: Copy, U: Copy + Default, const K: usize>(a: [T; K], f: impl Fn(T) -> U) -> [U; K] {
    let mut out = [U::default(); K];
    for i in 0..K {
        out[i] = f(a[i]);
    }
    out
}

#[inline(always)]
fn zip<T: Copy, U: Copy + Default, const K: usize>(
    a: [T; K],
    b: [T; K],
    f: impl Fn(T, T) -> U,
) -> [U; K] {
    let mut out = [U::default(); K];
    for i in 0..K {
        out[i] = f(a[i], b[i]);
    }
    out
}

/// `2ᵏ` for integral `k` in [-126, 127].
#[inline(always)]
fn pow2(k: f32) -> f32 {
    f32::from_bits(((k as i32 + 127) as u32) << 23)
}

/// `2ᵏ` for integral `k` in [-1022, 1023].
#[inline(always)]
fn pow2_d(k: f64) -> f64 {
    f64::from_bits(((k as i64 + 1023) as u64) << 52)
}

#[inline(always)]
fn x86_max<T: PartialOrd>(a: T, b: T) -> T {
    if a > b { a } else { b }
}

#[inline(always)]
fn x86_min<T: PartialOrd>(a: T, b: T) -> T {
    if a < b { a } else { b }
}

impl Isa for Portable {
    type F = [f32; N];
    type D = [f64; H];
    type I = [i32; N];
    type MF = [bool; N];
    type MD = [bool; H];
    const LANES: usize = N;

    #[inline(always)]
    fn splat(self, v: f32) -> [f32; N] {
        [v; N]
    }
    #[inline(always)]
    unsafe fn load(self, p: *const f32) -> [f32; N] {
        // SAFETY: the caller's contract: `N` readable f32.
        unsafe { p.cast::<[f32; N]>().read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32, v: [f32; N]) {
        // SAFETY: the caller's contract: `N` writable f32.
        unsafe { p.cast::<[f32; N]>().write_unaligned(v) }
    }
    #[inline(always)]
    unsafe fn store_stream(self, p: *mut f32, v: [f32; N]) {
        // SAFETY: as `store`'s.
        unsafe { self.store(p, v) }
    }
    #[inline(always)]
    unsafe fn load_part(self, p: *const f32, n: usize) -> [f32; N] {
        let mut out = [0.0; N];
        // SAFETY: the caller's contract: `n < N` readable f32.
        unsafe { std::ptr::copy_nonoverlapping(p, out.as_mut_ptr(), n) };
        out
    }
    #[inline(always)]
    unsafe fn store_part(self, p: *mut f32, n: usize, v: [f32; N]) {
        // SAFETY: the caller's contract: `n < N` writable f32.
        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), p, n) };
    }
    #[inline(always)]
    fn add(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        zip(a, b, |a, b| a + b)
    }
    #[inline(always)]
    fn sub(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        zip(a, b, |a, b| a - b)
    }
    #[inline(always)]
    fn mul(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        zip(a, b, |a, b| a * b)
    }
    #[inline(always)]
    fn div(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        zip(a, b, |a, b| a / b)
    }
    #[inline(always)]
    fn fma(self, a: [f32; N], b: [f32; N], c: [f32; N]) -> [f32; N] {
        let mut out = [0.0; N];
        for i in 0..N {
            out[i] = a[i].mul_add(b[i], c[i]);
        }
        out
    }
    #[inline(always)]
    fn fms(self, a: [f32; N], b: [f32; N], c: [f32; N]) -> [f32; N] {
        self.fma(a, b, c.map(|c| -c))
    }
    #[inline(always)]
    fn fnma(self, a: [f32; N], b: [f32; N], c: [f32; N]) -> [f32; N] {
        self.fma(a.map(|a| -a), b, c)
    }
    #[inline(always)]
    fn max(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        zip(a, b, x86_max)
    }
    #[inline(always)]
    fn min(self, a: [f32; N], b: [f32; N]) -> [f32; N] {
        zip(a, b, x86_min)
    }
    #[inline(always)]
    fn round(self, a: [f32; N]) -> [f32; N] {
        map(a, f32::round_ties_even)
    }
    #[inline(always)]
    fn lt(self, a: [f32; N], b: [f32; N]) -> [bool; N] {
        zip(a, b, |a, b| a < b)
    }
    #[inline(always)]
    fn le(self, a: [f32; N], b: [f32; N]) -> [bool; N] {
        zip(a, b, |a, b| a <= b)
    }
    #[inline(always)]
    fn eq(self, a: [f32; N], b: [f32; N]) -> [bool; N] {
        zip(a, b, |a, b| a == b)
    }
    #[inline(always)]
    fn is_nan(self, a: [f32; N]) -> [bool; N] {
        map(a, f32::is_nan)
    }
    #[inline(always)]
    fn select(self, m: [bool; N], a: [f32; N], b: [f32; N]) -> [f32; N] {
        let mut out = b;
        for i in 0..N {
            if m[i] {
                out[i] = a[i];
            }
        }
        out
    }
    #[inline(always)]
    fn or_m(self, a: [bool; N], b: [bool; N]) -> [bool; N] {
        zip(a, b, |a, b| a | b)
    }
    #[inline(always)]
    fn any(self, m: [bool; N]) -> bool {
        m.iter().any(|&b| b)
    }
    #[inline(always)]
    fn sum(self, a: [f32; N]) -> f32 {
        // The tree AVX2 sums in: halves, then pairs.
        let q = [a[0] + a[4], a[1] + a[5], a[2] + a[6], a[3] + a[7]];
        let p = [q[0] + q[2], q[1] + q[3]];
        p[0] + p[1]
    }
    #[inline(always)]
    fn max_lane(self, a: [f32; N]) -> f32 {
        if a.iter().any(|v| v.is_nan()) {
            return f32::NAN;
        }
        a.iter().copied().fold(f32::NEG_INFINITY, x86_max)
    }
    #[inline(always)]
    fn to_bits(self, a: [f32; N]) -> [i32; N] {
        map(a, |v| v.to_bits() as i32)
    }
    #[inline(always)]
    fn f_from_bits(self, a: [i32; N]) -> [f32; N] {
        map(a, |v| f32::from_bits(v as u32))
    }
    #[inline(always)]
    fn splat_i(self, v: i32) -> [i32; N] {
        [v; N]
    }
    #[inline(always)]
    fn sub_i(self, a: [i32; N], b: [i32; N]) -> [i32; N] {
        zip(a, b, i32::wrapping_sub)
    }
    #[inline(always)]
    fn and_i(self, a: [i32; N], b: [i32; N]) -> [i32; N] {
        zip(a, b, |a, b| a & b)
    }
    #[inline(always)]
    fn or_i(self, a: [i32; N], b: [i32; N]) -> [i32; N] {
        zip(a, b, |a, b| a | b)
    }
    #[inline(always)]
    fn sra23(self, a: [i32; N]) -> [i32; N] {
        map(a, |v| v >> 23)
    }
    #[inline(always)]
    fn shl23(self, a: [i32; N]) -> [i32; N] {
        map(a, |v| v << 23)
    }
    #[inline(always)]
    fn i_to_f(self, a: [i32; N]) -> [f32; N] {
        map(a, |v| v as f32)
    }
    #[inline(always)]
    fn trunc_i(self, a: [f32; N]) -> [i32; N] {
        // Rust's `as` saturates (and gives 0 for NaN); x86 gives i32::MIN.
        map(a, |v| {
            if v.abs() < 2_147_483_648.0 {
                v as i32
            } else {
                i32::MIN
            }
        })
    }
    #[inline(always)]
    fn lookup8(self, table: &[f32; 8], idx: [i32; N]) -> [f32; N] {
        idx.map(|i| table[(i & 7) as usize])
    }
    #[inline(always)]
    fn scale(self, a: [f32; N], n: [f32; N]) -> [f32; N] {
        zip(a, n, |a, n| {
            let n = n.clamp(-252.0, 252.0);
            let half = (n * 0.5).trunc();
            a * pow2(half) * pow2(n - half)
        })
    }

    #[inline(always)]
    fn splat_d(self, v: f64) -> [f64; H] {
        [v; H]
    }
    #[inline(always)]
    fn add_d(self, a: [f64; H], b: [f64; H]) -> [f64; H] {
        zip(a, b, |a, b| a + b)
    }
    #[inline(always)]
    fn sub_d(self, a: [f64; H], b: [f64; H]) -> [f64; H] {
        zip(a, b, |a, b| a - b)
    }
    #[inline(always)]
    fn mul_d(self, a: [f64; H], b: [f64; H]) -> [f64; H] {
        zip(a, b, |a, b| a * b)
    }
    #[inline(always)]
    fn div_d(self, a: [f64; H], b: [f64; H]) -> [f64; H] {
        zip(a, b, |a, b| a / b)
    }
    #[inline(always)]
    fn recip_d(self, a: [f64; H]) -> [f64; H] {
        map(a, |a| 1.0 / a)
    }
    #[inline(always)]
    fn fma_d(self, a: [f64; H], b: [f64; H], c: [f64; H]) -> [f64; H] {
        let mut out = [0.0; H];
        for i in 0..H {
            out[i] = a[i].mul_add(b[i], c[i]);
        }
        out
    }
    #[inline(always)]
    fn sqrt_d(self, a: [f64; H]) -> [f64; H] {
        map(a, f64::sqrt)
    }
    #[inline(always)]
    fn max_d(self, a: [f64; H], b: [f64; H]) -> [f64; H] {
        zip(a, b, x86_max)
    }
    #[inline(always)]
    fn min_d(self, a: [f64; H], b: [f64; H]) -> [f64; H] {
        zip(a, b, x86_min)
    }
    #[inline(always)]
    fn round_d(self, a: [f64; H]) -> [f64; H] {
        map(a, f64::round_ties_even)
    }
    #[inline(always)]
    fn lt_d(self, a: [f64; H], b: [f64; H]) -> [bool; H] {
        zip(a, b, |a, b| a < b)
    }
    #[inline(always)]
    fn le_d(self, a: [f64; H], b: [f64; H]) -> [bool; H] {
        zip(a, b, |a, b| a <= b)
    }
    #[inline(always)]
    fn select_d(self, m: [bool; H], a: [f64; H], b: [f64; H]) -> [f64; H] {
        let mut out = b;
        for i in 0..H {
            if m[i] {
                out[i] = a[i];
            }
        }
        out
    }
    #[inline(always)]
    fn and_md(self, a: [bool; H], b: [bool; H]) -> [bool; H] {
        zip(a, b, |a, b| a & b)
    }
    #[inline(always)]
    fn any_d(self, m: [bool; H]) -> bool {
        m.iter().any(|&b| b)
    }
    #[inline(always)]
    fn scale_d(self, a: [f64; H], n: [f64; H]) -> [f64; H] {
        zip(a, n, |a, n| {
            let half = (n * 0.5).trunc();
            a * pow2_d(half) * pow2_d(n - half)
        })
    }
    #[inline(always)]
    fn frexp_d(self, a: [f64; H]) -> ([f64; H], [f64; H]) {
        let m = map(a, |v| {
            f64::from_bits((v.to_bits() & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000)
        });
        let e = map(a, |v| ((v.to_bits() >> 52) & 0x7ff) as f64 - 1023.0);
        (m, e)
    }
    #[inline(always)]
    fn widen(self, a: [f32; N]) -> ([f64; H], [f64; H]) {
        let mut lo = [0.0; H];
        let mut hi = [0.0; H];
        for i in 0..H {
            lo[i] = a[i] as f64;
            hi[i] = a[H + i] as f64;
        }
        (lo, hi)
    }
    #[inline(always)]
    fn narrow(self, lo: [f64; H], hi: [f64; H]) -> [f32; N] {
        let mut out = [0.0; N];
        for i in 0..H {
            out[i] = lo[i] as f32;
            out[H + i] = hi[i] as f32;
        }
        out
    }
}
