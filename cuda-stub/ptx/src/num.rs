//! Float arithmetic as the PTX ISA defines it: every rounding mode of the
//! exact result (`.rn`, `.rz`, `.rm`, `.rp`, `.rna`) for f16, bf16, f32 and
//! f64, flush-to-zero, saturation, the NaN and signed-zero rules of `min`
//! and `max`, and the conversions of `cvt`.
//!
//! Exact results are carried as an f64 `s` and the sign of what it misses
//! (`e`, far below half an ulp of `s`): f32 sums and products are exact in
//! that pair (two-sum, and products of 24-bit significands fit in 53 bits),
//! and quotients and roots give the sign of their remainder through a fused
//! multiply-add. The `.approx` forms are computed to the correctly rounded
//! result, which lies within every error bound the ISA documents for them.

use crate::ir::{Cmp, FpOp, FpUnOp, Mode, Rnd, Ty};

/// A binary float format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Format {
    /// Fraction bits (without the implicit one).
    mant: u32,
    /// Exponent bits.
    ebits: u32,
}

pub(crate) const F16: Format = Format { mant: 10, ebits: 5 };
pub(crate) const BF16: Format = Format { mant: 7, ebits: 8 };
pub(crate) const F32: Format = Format { mant: 23, ebits: 8 };

impl Format {
    /// The canonical NaN the ISA produces (all exponent and fraction bits).
    fn nan(self) -> u64 {
        (1u64 << (self.ebits + self.mant)) - 1
    }

    fn inf(self, negative: bool) -> u64 {
        (((1u64 << self.ebits) - 1) << self.mant) | ((negative as u64) << (self.ebits + self.mant))
    }

    fn max_finite(self, negative: bool) -> u64 {
        self.inf(negative) - 1
    }
}

/// `a + b` exactly, as the rounded sum and its error.
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// The value `s + e` (`e` tiny beside `s`) rounded to `fmt` by `rnd`: its bits.
pub(crate) fn round(s: f64, e: f64, rnd: Rnd, fmt: Format) -> u64 {
    if s.is_nan() {
        return fmt.nan();
    }
    let negative = s.is_sign_negative();
    if s.is_infinite() {
        return fmt.inf(negative);
    }
    let sign_bit = (negative as u64) << (fmt.ebits + fmt.mant);
    if s == 0.0 {
        return sign_bit;
    }
    // The residual along the magnitude.
    let toward = if negative { -e } else { e };
    let bits = s.abs().to_bits();
    let (m, ex) = if bits >> 52 == 0 {
        (bits, -1074i32)
    } else {
        (
            (bits & ((1 << 52) - 1)) | (1 << 52),
            (bits >> 52) as i32 - 1075,
        )
    };
    let top = 63 - m.leading_zeros() as i32 + ex;
    let bias = (1i32 << (fmt.ebits - 1)) - 1;
    let emin = 1 - bias;
    let mant = fmt.mant as i32;
    let mut q = top.max(emin) - mant;
    let shift = q - ex;
    // n: the value in units of 2^q, truncated; class: what was cut off.
    #[derive(PartialEq, PartialOrd, Copy, Clone)]
    enum Cut {
        Exact,
        Below,
        Half,
        Above,
    }
    let (mut n, mut cut) = if shift <= 0 {
        (m << (-shift) as u32, Cut::Exact)
    } else if shift > 60 {
        (0, Cut::Below)
    } else {
        let r = m & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        let cut = if r == 0 {
            Cut::Exact
        } else if r < half {
            Cut::Below
        } else if r == half {
            Cut::Half
        } else {
            Cut::Above
        };
        (m >> shift, cut)
    };
    if toward != 0.0 {
        cut = match (cut, toward > 0.0) {
            (Cut::Exact, true) => Cut::Below,
            (Cut::Exact, false) => {
                n -= 1;
                if n >> mant == 0 && q > emin - mant {
                    // Just below a power of two: the quantum halves.
                    n = (n << 1) | 1;
                    q -= 1;
                }
                Cut::Above
            }
            (Cut::Half, true) => Cut::Above,
            (Cut::Half, false) => Cut::Below,
            (c, _) => c,
        };
    }
    let up = match rnd {
        Rnd::Nearest => cut == Cut::Above || (cut == Cut::Half && n & 1 == 1),
        Rnd::NearestAway => cut >= Cut::Half,
        Rnd::Zero => false,
        Rnd::Down => negative && cut != Cut::Exact,
        Rnd::Up => !negative && cut != Cut::Exact,
    };
    n += up as u64;
    if n == 0 {
        return sign_bit;
    }
    if n >> (mant + 1) != 0 {
        n >>= 1;
        q += 1;
    }
    if n >> mant == 0 {
        // Subnormal (q is emin - mant here).
        return sign_bit | n;
    }
    let exp = q + mant;
    if exp > bias {
        let to_inf = match rnd {
            Rnd::Nearest | Rnd::NearestAway => true,
            Rnd::Zero => false,
            Rnd::Down => negative,
            Rnd::Up => !negative,
        };
        return if to_inf {
            fmt.inf(negative)
        } else {
            fmt.max_finite(negative)
        };
    }
    sign_bit | (((exp + bias) as u64) << fmt.mant) | (n & ((1u64 << fmt.mant) - 1))
}

/// The f64 `s` rounded by `rnd` given the sign of what it misses (`e`).
fn adjust64(s: f64, e: f64, rnd: Rnd) -> f64 {
    if e == 0.0 || !s.is_finite() {
        return s;
    }
    match rnd {
        Rnd::Nearest | Rnd::NearestAway => s,
        Rnd::Down if e < 0.0 => s.next_down(),
        Rnd::Up if e > 0.0 => s.next_up(),
        Rnd::Zero if (e < 0.0) != (s < 0.0) => {
            if s > 0.0 {
                s.next_down()
            } else {
                s.next_up()
            }
        }
        _ => s,
    }
}

pub(crate) fn f32_round(s: f64, e: f64, rnd: Rnd) -> f32 {
    f32::from_bits(round(s, e, rnd, F32) as u32)
}

/// Flushes an f32 subnormal to a zero of its sign.
pub(crate) fn ftz32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn ftz64(x: f64) -> f64 {
    if x.is_subnormal() {
        0.0f64.copysign(x)
    } else {
        x
    }
}

/// The sign of an exact zero sum of `a` and `b`: negative when both are,
/// or when the rounding is toward −∞ (IEEE 754).
fn zero_sum_sign(a: f64, b: f64, rnd: Rnd) -> f64 {
    if a.is_sign_negative() && b.is_sign_negative()
        || rnd == Rnd::Down && a.is_sign_negative() != b.is_sign_negative()
    {
        -0.0
    } else {
        0.0
    }
}

/// A sum `a + b` (exact pair) rounded to f32.
fn sum32(a: f64, b: f64, rnd: Rnd) -> f32 {
    let (s, e) = two_sum(a, b);
    if s == 0.0 && e == 0.0 {
        return zero_sum_sign(a, b, rnd) as f32;
    }
    if !s.is_finite() {
        return s as f32;
    }
    f32_round(s, e, rnd)
}

/// `a op b` in f32.
pub(crate) fn fp32(op: FpOp, mode: Mode, ftz: bool, a: f32, b: f32) -> f32 {
    let (a, b) = if ftz { (ftz32(a), ftz32(b)) } else { (a, b) };
    let rnd = match mode {
        Mode::Round(r) => r,
        Mode::Approx => Rnd::Nearest,
    };
    let r = match op {
        FpOp::Add if rnd == Rnd::Nearest => a + b,
        FpOp::Sub if rnd == Rnd::Nearest => a - b,
        FpOp::Mul if rnd == Rnd::Nearest => a * b,
        FpOp::Add => sum32(a as f64, b as f64, rnd),
        FpOp::Sub => sum32(a as f64, -(b as f64), rnd),
        FpOp::Mul => {
            let p = a as f64 * b as f64;
            if p == 0.0 || !p.is_finite() {
                a * b
            } else {
                f32_round(p, 0.0, rnd)
            }
        }
        FpOp::Div => {
            if mode == Mode::Approx {
                div_approx(a, b)
            } else if rnd == Rnd::Nearest {
                a / b
            } else {
                let (a, b) = (a as f64, b as f64);
                let q = a / b;
                if q == 0.0 || !q.is_finite() {
                    q as f32
                } else {
                    let r = (-q).mul_add(b, a);
                    f32_round(q, r * b.signum(), rnd)
                }
            }
        }
        FpOp::Min => min_max(a as f64, b as f64, false) as f32,
        FpOp::Max => min_max(a as f64, b as f64, true) as f32,
        FpOp::Copysign => b.copysign(a),
    };
    if ftz { ftz32(r) } else { r }
}

/// `div.approx.f32`: `a · (1/b)`; for `2^126 < |b| < 2^128` the ISA gives
/// 0 (NaN for an infinite `a`). Elsewhere the quotient, within its 2 ulp.
fn div_approx(a: f32, b: f32) -> f32 {
    let m = b.abs();
    if m > 2f32.powi(126) && m.is_finite() {
        return if a.is_infinite() {
            f32::NAN
        } else {
            0.0f32.copysign(a) * b.signum()
        };
    }
    a / b
}

/// `a op b` in f64.
pub(crate) fn fp64(op: FpOp, mode: Mode, ftz: bool, a: f64, b: f64) -> f64 {
    let (a, b) = if ftz { (ftz64(a), ftz64(b)) } else { (a, b) };
    let rnd = match mode {
        Mode::Round(r) => r,
        Mode::Approx => Rnd::Nearest,
    };
    let r = match op {
        FpOp::Add | FpOp::Sub => {
            let b = if op == FpOp::Sub { -b } else { b };
            let (s, e) = two_sum(a, b);
            if s == 0.0 && e == 0.0 {
                zero_sum_sign(a, b, rnd)
            } else {
                adjust64(s, e, rnd)
            }
        }
        FpOp::Mul => {
            let p = a * b;
            adjust64(p, a.mul_add(b, -p), rnd)
        }
        FpOp::Div => {
            let q = a / b;
            if q == 0.0 || !q.is_finite() {
                q
            } else {
                adjust64(q, (-q).mul_add(b, a) * b.signum(), rnd)
            }
        }
        FpOp::Min => min_max(a, b, false),
        FpOp::Max => min_max(a, b, true),
        FpOp::Copysign => b.copysign(a),
    };
    if ftz { ftz64(r) } else { r }
}

/// `min`/`max` of floats: a NaN operand gives the other one, two NaNs the
/// canonical NaN; −0 is below +0.
fn min_max(a: f64, b: f64, max: bool) -> f64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => f64::NAN,
        (true, false) => b,
        (false, true) => a,
        _ => {
            if a == b {
                // Equal values differ only in the sign of a zero.
                if max == a.is_sign_negative() { b } else { a }
            } else if (a < b) == max {
                b
            } else {
                a
            }
        }
    }
}

/// `a * b + c` in f32, rounded once.
pub(crate) fn fma32(rnd: Rnd, ftz: bool, a: f32, b: f32, c: f32) -> f32 {
    let (a, b, c) = if ftz {
        (ftz32(a), ftz32(b), ftz32(c))
    } else {
        (a, b, c)
    };
    let r = if rnd == Rnd::Nearest {
        a.mul_add(b, c)
    } else {
        let p = a as f64 * b as f64;
        if !p.is_finite() || !(c as f64).is_finite() {
            a.mul_add(b, c)
        } else {
            sum32(p, c as f64, rnd)
        }
    };
    if ftz { ftz32(r) } else { r }
}

/// `a * b + c` in f64, rounded once (to nearest: the only mode decoded).
pub(crate) fn fma64(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}

/// `.sat`: clamps to [0, 1], NaN to 0.
pub(crate) fn sat32(x: f32) -> f32 {
    if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }
}

pub(crate) fn sat64(x: f64) -> f64 {
    if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }
}

/// One-source f32 operations.
pub(crate) fn un32(op: FpUnOp, mode: Mode, ftz: bool, a: f32) -> f32 {
    let a = if ftz { ftz32(a) } else { a };
    let rnd = match mode {
        Mode::Round(r) => r,
        Mode::Approx => Rnd::Nearest,
    };
    let x = a as f64;
    let r = match op {
        FpUnOp::Neg => -a,
        FpUnOp::Abs => a.abs(),
        FpUnOp::Sqrt if rnd == Rnd::Nearest => a.sqrt(),
        FpUnOp::Sqrt => {
            let s = x.sqrt();
            if s == 0.0 || !s.is_finite() {
                s as f32
            } else {
                f32_round(s, -(s.mul_add(s, -x)), rnd)
            }
        }
        FpUnOp::Rcp if rnd == Rnd::Nearest => 1.0 / a,
        FpUnOp::Rcp => fp32(FpOp::Div, mode, false, 1.0, a),
        FpUnOp::Rsqrt => (1.0 / x.sqrt()) as f32,
        FpUnOp::Ex2 => x.exp2() as f32,
        FpUnOp::Lg2 => x.log2() as f32,
        FpUnOp::Sin => x.sin() as f32,
        FpUnOp::Cos => x.cos() as f32,
        FpUnOp::Tanh => x.tanh() as f32,
    };
    if ftz { ftz32(r) } else { r }
}

/// One-source f64 operations.
pub(crate) fn un64(op: FpUnOp, mode: Mode, ftz: bool, a: f64) -> f64 {
    let a = if ftz { ftz64(a) } else { a };
    let rnd = match mode {
        Mode::Round(r) => r,
        Mode::Approx => Rnd::Nearest,
    };
    let r = match op {
        FpUnOp::Neg => -a,
        FpUnOp::Abs => a.abs(),
        FpUnOp::Sqrt => {
            let s = a.sqrt();
            if s == 0.0 || !s.is_finite() {
                s
            } else {
                adjust64(s, -(s.mul_add(s, -a)), rnd)
            }
        }
        FpUnOp::Rcp => fp64(FpOp::Div, Mode::Round(rnd), false, 1.0, a),
        FpUnOp::Rsqrt => 1.0 / a.sqrt(),
        FpUnOp::Ex2 => a.exp2(),
        FpUnOp::Lg2 => a.log2(),
        FpUnOp::Sin => a.sin(),
        FpUnOp::Cos => a.cos(),
        FpUnOp::Tanh => a.tanh(),
    };
    if ftz { ftz64(r) } else { r }
}

/// A comparison of `setp` on floats (unordered forms true with a NaN).
pub(crate) fn cmp_float(cmp: Cmp, a: f64, b: f64) -> bool {
    let unordered = a.is_nan() || b.is_nan();
    match cmp {
        Cmp::Eq => a == b,
        Cmp::Ne => !unordered && a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        Cmp::Equ => unordered || a == b,
        Cmp::Neu => a != b,
        Cmp::Ltu => unordered || a < b,
        Cmp::Leu => unordered || a <= b,
        Cmp::Gtu => unordered || a > b,
        Cmp::Geu => unordered || a >= b,
        Cmp::Num => !unordered,
        Cmp::Nan => unordered,
    }
}

/// A float value of type `ty` (f16, bf16, f32, f64) from its bits, as f64.
pub(crate) fn float_of(ty: Ty, bits: u64) -> f64 {
    match ty {
        Ty::F16 => half::f16::from_bits(bits as u16).to_f64(),
        Ty::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        Ty::F32 => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

/// `x + e` (exact pair) as bits of float type `ty`, rounded by `rnd`.
fn float_bits(ty: Ty, x: f64, e: f64, rnd: Rnd) -> u64 {
    match ty {
        Ty::F16 => round(x, e, rnd, F16),
        Ty::BF16 => round(x, e, rnd, BF16),
        Ty::F32 => round(x, e, rnd, F32),
        _ => {
            if x.is_nan() {
                f64::NAN.to_bits()
            } else {
                adjust64(x, e, rnd).to_bits()
            }
        }
    }
}

fn round_integral(x: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Nearest => x.round_ties_even(),
        Rnd::NearestAway => x.round(),
        Rnd::Zero => x.trunc(),
        Rnd::Down => x.floor(),
        Rnd::Up => x.ceil(),
    }
}

/// The range of an integer type, as i128.
fn int_range(ty: Ty) -> (i128, i128) {
    let bits = ty.bits();
    if ty.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// An integer of type `ty` from its bits.
pub(crate) fn int_of(ty: Ty, bits: u64) -> i128 {
    let w = ty.bits();
    if ty.is_signed() {
        let shift = 64 - w;
        ((bits << shift) as i64 >> shift) as i128
    } else if w == 64 {
        bits as i128
    } else {
        (bits & ((1u64 << w) - 1)) as i128
    }
}

/// `cvt`: the bits of `a` (of type `aty`) converted to `dty`.
pub(crate) fn cvt(
    dty: Ty,
    aty: Ty,
    rnd: Option<Rnd>,
    integral: bool,
    ftz: bool,
    sat: bool,
    a: u64,
) -> u64 {
    let dbits = dty.bits();
    let mask = if dbits >= 64 {
        u64::MAX
    } else {
        (1u64 << dbits) - 1
    };
    match (aty.is_float(), dty.is_float()) {
        (false, false) => {
            let v = int_of(aty, a);
            let v = if sat {
                let (lo, hi) = int_range(dty);
                v.clamp(lo, hi)
            } else {
                v
            };
            (v as u64) & mask
        }
        (false, true) => {
            let v = int_of(aty, a);
            let hi = v as f64;
            let lo = (v - hi as i128) as f64;
            let r = float_bits(dty, hi, lo, rnd.unwrap_or(Rnd::Nearest));
            let r = if sat { sat_bits(dty, r) } else { r };
            if ftz && dty == Ty::F32 {
                ftz32(f32::from_bits(r as u32)).to_bits() as u64
            } else {
                r
            }
        }
        (true, false) => {
            let mut x = float_of(aty, a);
            if ftz && aty == Ty::F32 {
                x = ftz32(x as f32) as f64;
            }
            if x.is_nan() {
                return 0;
            }
            let x = round_integral(x, rnd.unwrap_or(Rnd::Zero));
            let (lo, hi) = int_range(dty);
            let v = if x <= lo as f64 {
                lo
            } else if x >= hi as f64 {
                hi
            } else {
                x as i128
            };
            (v as u64) & mask
        }
        (true, true) => {
            let mut x = float_of(aty, a);
            if ftz && aty == Ty::F32 {
                x = ftz32(x as f32) as f64;
            }
            let r = if integral {
                let x = if x.is_nan() {
                    x
                } else {
                    round_integral(x, rnd.unwrap_or(Rnd::Nearest))
                };
                float_bits(dty, x, 0.0, Rnd::Nearest)
            } else {
                float_bits(dty, x, 0.0, rnd.unwrap_or(Rnd::Nearest))
            };
            let r = if sat { sat_bits(dty, r) } else { r };
            if ftz && dty == Ty::F32 {
                ftz32(f32::from_bits(r as u32)).to_bits() as u64
            } else {
                r
            }
        }
    }
}

/// `.sat` of a float result: [0, 1], NaN to 0.
fn sat_bits(ty: Ty, bits: u64) -> u64 {
    let x = float_of(ty, bits);
    let c = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    if c == x && !x.is_nan() {
        bits
    } else {
        float_bits(ty, c, 0.0, Rnd::Nearest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slow reference: the f32 neighbours of an exact value `s + e`.
    fn neighbours(s: f64) -> (f32, f32) {
        let r = s as f32;
        if (r as f64) <= s {
            (r, r.next_up())
        } else {
            (r.next_down(), r)
        }
    }

    #[test]
    fn rounding_to_f32_matches_the_hardware_cast_and_the_directed_neighbours() {
        let mut state = 0x1234_5678_9abc_def0u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Values across the whole f32 range, subnormals included.
            let exp = (state >> 52) % 300;
            let x = f64::from_bits((state & ((1 << 52) - 1)) | ((exp + 1023 - 160) << 52));
            let x = if state & 1 == 1 { -x } else { x };
            assert_eq!(
                f32_round(x, 0.0, Rnd::Nearest).to_bits(),
                (x as f32).to_bits(),
                "{x:e}"
            );
            let (lo, hi) = neighbours(x);
            if lo.is_finite() && hi.is_finite() && (lo as f64) < x && x < hi as f64 {
                assert_eq!(f32_round(x, 0.0, Rnd::Down), lo, "{x:e}");
                assert_eq!(f32_round(x, 0.0, Rnd::Up), hi, "{x:e}");
                let toward_zero = if x > 0.0 { lo } else { hi };
                assert_eq!(f32_round(x, 0.0, Rnd::Zero), toward_zero, "{x:e}");
            }
        }
    }

    #[test]
    fn rounding_to_halves_matches_the_half_crate() {
        for bits in (0..u32::MAX).step_by(4099) {
            let x = f32::from_bits(bits);
            let got = round(x as f64, 0.0, Rnd::Nearest, F16) as u16;
            let want = half::f16::from_f32(x);
            if want.is_nan() {
                assert_eq!(got, 0x7fff);
            } else {
                assert_eq!(got, want.to_bits(), "{x:e}");
            }
            let got = round(x as f64, 0.0, Rnd::Nearest, BF16) as u16;
            let want = half::bf16::from_f32(x);
            if !want.is_nan() {
                assert_eq!(got, want.to_bits(), "{x:e}");
            }
        }
    }

    #[test]
    fn a_residual_breaks_ties_and_moves_exact_values() {
        // 1 + 2^-24 is halfway between two f32: a residual decides.
        let half_way = 1.0 + 2f64.powi(-24);
        assert_eq!(f32_round(half_way, 0.0, Rnd::Nearest), 1.0);
        assert_eq!(f32_round(half_way, 1e-30, Rnd::Nearest), 1.0f32.next_up());
        // 1 less a tiny bit, toward zero: the f32 below 1.
        assert_eq!(f32_round(1.0, -1e-30, Rnd::Zero), 1.0f32.next_down());
        assert_eq!(f32_round(1.0, -1e-30, Rnd::Up), 1.0);
        // Overflow: to infinity to nearest, the largest finite toward zero.
        assert_eq!(f32_round(1e39, 0.0, Rnd::Nearest), f32::INFINITY);
        assert_eq!(f32_round(1e39, 0.0, Rnd::Zero), f32::MAX);
        assert_eq!(f32_round(-1e39, 0.0, Rnd::Up), f32::MIN);
    }

    #[test]
    fn fused_multiply_add_rounds_once_in_every_mode() {
        let (a, b, c) = (1.0f32 + f32::EPSILON, 1.0f32 - f32::EPSILON, -1.0f32);
        let exact = (a as f64) * (b as f64) + c as f64;
        assert_eq!(fma32(Rnd::Nearest, false, a, b, c), exact as f32);
        assert!(fma32(Rnd::Down, false, a, b, c) as f64 <= exact);
        assert!(fma32(Rnd::Up, false, a, b, c) as f64 >= exact);
        assert_eq!(
            fma32(Rnd::Down, false, 1.0, 1.0, -1.0).to_bits(),
            (-0.0f32).to_bits()
        );
        assert_eq!(
            fma32(Rnd::Nearest, false, 1.0, 1.0, -1.0).to_bits(),
            0.0f32.to_bits()
        );
    }

    #[test]
    fn min_and_max_skip_one_nan_and_order_zeros() {
        assert_eq!(min_max(f64::NAN, 2.0, false), 2.0);
        assert!(min_max(f64::NAN, f64::NAN, true).is_nan());
        assert!(min_max(0.0, -0.0, false).is_sign_negative());
        assert!(min_max(-0.0, 0.0, true).is_sign_positive());
    }

    #[test]
    fn conversions_saturate_and_round_as_told() {
        let f = |x: f32| x.to_bits() as u64;
        assert_eq!(
            cvt(
                Ty::S32,
                Ty::F32,
                Some(Rnd::Zero),
                false,
                false,
                false,
                f(-2.7)
            ),
            (-2i32) as u32 as u64
        );
        assert_eq!(
            cvt(
                Ty::S32,
                Ty::F32,
                Some(Rnd::Down),
                false,
                false,
                false,
                f(-2.2)
            ),
            (-3i32) as u32 as u64
        );
        assert_eq!(
            cvt(
                Ty::U8,
                Ty::F32,
                Some(Rnd::Nearest),
                false,
                false,
                false,
                f(300.0)
            ),
            255
        );
        assert_eq!(
            cvt(
                Ty::S64,
                Ty::F32,
                Some(Rnd::Zero),
                false,
                false,
                false,
                f(f32::NAN)
            ),
            0
        );
        assert_eq!(cvt(Ty::S8, Ty::S32, None, false, false, true, 1000), 127);
        assert_eq!(
            cvt(Ty::S16, Ty::S8, None, false, false, false, 0xff),
            0xffff
        );
        assert_eq!(
            cvt(
                Ty::F32,
                Ty::F32,
                Some(Rnd::Nearest),
                true,
                false,
                false,
                f(2.5)
            ),
            f(2.0)
        );
        assert_eq!(
            cvt(Ty::F32, Ty::F32, None, false, false, true, f(-3.0)),
            f(0.0)
        );
        let big = (1u64 << 60) + 1;
        assert_eq!(
            cvt(Ty::F32, Ty::U64, Some(Rnd::Up), false, false, false, big),
            f(2f32.powi(60)).wrapping_add(1)
        );
        assert_eq!(
            cvt(
                Ty::F16,
                Ty::F32,
                Some(Rnd::Nearest),
                false,
                false,
                false,
                f(1.0)
            ),
            0x3c00
        );
        assert_eq!(
            cvt(Ty::F32, Ty::BF16, None, false, false, false, 0x3f80),
            f(1.0)
        );
    }
}
