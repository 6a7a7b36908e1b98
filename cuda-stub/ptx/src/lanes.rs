//! The operations without memory or control: each reads its sources for
//! all 32 lanes at once, computes every lane in a tight loop (the common
//! forms without a per-lane decision on the operation), and writes the
//! active lanes.

use crate::ir::*;
use crate::num;

/// A value per lane.
pub(crate) type L = [u64; 32];

pub(crate) fn trunc(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

pub(crate) fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

fn map1(a: &L, f: impl Fn(u64) -> u64) -> L {
    std::array::from_fn(|l| f(a[l]))
}

fn map2(a: &L, b: &L, f: impl Fn(u64, u64) -> u64) -> L {
    std::array::from_fn(|l| f(a[l], b[l]))
}

fn map3(a: &L, b: &L, c: &L, f: impl Fn(u64, u64, u64) -> u64) -> L {
    std::array::from_fn(|l| f(a[l], b[l], c[l]))
}

fn f32v(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

fn bits32(x: f32) -> u64 {
    x.to_bits() as u64
}

/// A source's lanes: the register's own, or values made for the read.
// Values live on the stack: boxing them would allocate on every read.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Lanes<'a> {
    Ref(&'a L),
    Own(L),
}

impl std::ops::Deref for Lanes<'_> {
    type Target = L;

    fn deref(&self) -> &L {
        match self {
            Lanes::Ref(l) => l,
            Lanes::Own(l) => l,
        }
    }
}

/// Sources of an operation.
pub(crate) trait Sources {
    fn read(&self, s: Src) -> Lanes<'_>;
    /// The lanes' carry flags.
    fn carry(&self) -> Lanes<'_>;
    fn pred(&self, p: PredSrc) -> [bool; 32] {
        let v = self.read(p.src);
        std::array::from_fn(|l| (v[l] & 1 != 0) != p.neg)
    }
}

/// The results of `op` (its destination registers and values) into `out`.
pub(crate) fn compute(op: &Op, src: &impl Sources, out: &mut Vec<(Reg, L)>) {
    out.clear();
    match op {
        Op::Mov { d, a, bits } => {
            let a = src.read(*a);
            out.push((*d, map1(&a, |x| trunc(x, *bits))));
        }
        Op::Pack { d, parts, bits } => {
            let mut v = [0u64; 32];
            for (k, p) in parts.iter().enumerate() {
                let x = src.read(*p);
                for l in 0..32 {
                    v[l] |= trunc(x[l], *bits) << (k as u32 * bits);
                }
            }
            out.push((*d, v));
        }
        Op::Unpack { ds, a, bits } => {
            let a = src.read(*a);
            for (k, d) in ds.iter().enumerate() {
                if let Some(d) = d {
                    out.push((*d, map1(&a, |x| trunc(x >> (k as u32 * bits), *bits))));
                }
            }
        }
        Op::Cvta {
            to_generic,
            mem,
            d,
            a,
            bits,
        } => {
            let a = src.read(*a);
            let r = match (mem, to_generic) {
                (Mem::Shared, true) => map1(&a, |v| trunc(v, 32) + crate::exec::SHARED_WINDOW),
                (Mem::Local, true) => map1(&a, |v| trunc(v, 32) + crate::exec::LOCAL_WINDOW),
                (Mem::Shared, false) => map1(&a, |v| v.wrapping_sub(crate::exec::SHARED_WINDOW)),
                (Mem::Local, false) => map1(&a, |v| v.wrapping_sub(crate::exec::LOCAL_WINDOW)),
                _ => *a,
            };
            out.push((*d, map1(&r, |v| trunc(v, *bits))));
        }
        Op::Int {
            op,
            ty,
            d,
            a,
            b,
            cc_out,
            cc_in,
            sat,
        } => {
            let (a, b) = (src.read(*a), src.read(*b));
            if *cc_out || *cc_in || *sat {
                let cc = src.carry();
                let mut r = [0u64; 32];
                let mut carry = [0u64; 32];
                for l in 0..32 {
                    let cin = if *cc_in { cc[l] } else { 0 };
                    (r[l], carry[l]) = int_op(*op, *ty, a[l], b[l], cin, *sat);
                }
                let bits = ty.bits();
                out.push((*d, map1(&r, |v| trunc(v, bits))));
                if *cc_out {
                    out.push((CC, carry));
                }
                return;
            }
            out.push((*d, int2(*op, *ty, &a, &b)));
        }
        Op::Mad {
            product,
            ty,
            d,
            a,
            b,
            c,
            cc_out,
            cc_in,
        } => {
            let (a, b, c) = (src.read(*a), src.read(*b), src.read(*c));
            let bits = ty.bits();
            let out_bits = if *product == IntOp::MulWide {
                bits * 2
            } else {
                bits
            };
            let p = int2(*product, *ty, &a, &b);
            let cc = src.carry();
            let mut r = [0u64; 32];
            let mut carry = [0u64; 32];
            for l in 0..32 {
                let cin = if *cc_in { cc[l] & 1 } else { 0 };
                let s = trunc(p[l], out_bits) as u128 + trunc(c[l], out_bits) as u128 + cin as u128;
                r[l] = trunc(s as u64, out_bits);
                carry[l] = ((s >> out_bits) & 1) as u64;
            }
            out.push((*d, r));
            if *cc_out {
                out.push((CC, carry));
            }
        }
        Op::IntUn { op, ty, d, a } => {
            let bits = ty.bits();
            let a = src.read(*a);
            let r = match op {
                IntUnOp::Neg => map1(&a, |x| trunc(x.wrapping_neg(), bits)),
                IntUnOp::Abs => map1(&a, |x| trunc(sext(x, bits).wrapping_abs() as u64, bits)),
                IntUnOp::Not => map1(&a, |x| trunc(!x, bits)),
                IntUnOp::Cnot => map1(&a, |x| (trunc(x, bits) == 0) as u64),
                IntUnOp::Clz => map1(&a, |x| {
                    (trunc(x, bits).leading_zeros() - (64 - bits)) as u64
                }),
                IntUnOp::Popc => map1(&a, |x| trunc(x, bits).count_ones() as u64),
                IntUnOp::Brev => map1(&a, |x| trunc(x, bits).reverse_bits() >> (64 - bits)),
            };
            out.push((*d, r));
        }
        Op::Bfi {
            ty,
            d,
            a,
            b,
            pos,
            len,
        } => {
            let bits = ty.bits();
            let (a, b, p, n) = (src.read(*a), src.read(*b), src.read(*pos), src.read(*len));
            let r = std::array::from_fn(|l| {
                let (x, y, p, n) = (a[l], b[l], p[l] & 0xff, n[l] & 0xff);
                if n == 0 || p >= bits as u64 {
                    trunc(y, bits)
                } else {
                    let n = n.min(bits as u64 - p);
                    let mask = trunc(
                        (if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }) << p,
                        bits,
                    );
                    trunc((y & !mask) | ((x << p) & mask), bits)
                }
            });
            out.push((*d, r));
        }
        Op::Bfe { ty, d, a, pos, len } => {
            let bits = ty.bits();
            let signed = ty.is_signed();
            let (a, p, n) = (src.read(*a), src.read(*pos), src.read(*len));
            let r = std::array::from_fn(|l| {
                let (x, p, n) = (trunc(a[l], bits), p[l] & 0xff, n[l] & 0xff);
                let msb = (p + n).min(bits as u64).saturating_sub(1);
                let sign = signed && n != 0 && (x >> msb.min(63)) & 1 == 1;
                let mut r = 0u64;
                for i in 0..bits as u64 {
                    let bit = if i < n && p + i <= msb {
                        (x >> (p + i)) & 1
                    } else {
                        sign as u64
                    };
                    r |= bit << i;
                }
                trunc(r, bits)
            });
            out.push((*d, r));
        }
        Op::PredLogic { op, d, a, b } => {
            let (a, b) = (src.pred(*a), src.pred(*b));
            let r = std::array::from_fn(|l| match op {
                BoolOp::And => (a[l] && b[l]) as u64,
                BoolOp::Or => (a[l] || b[l]) as u64,
                BoolOp::Xor => (a[l] != b[l]) as u64,
            });
            out.push((*d, r));
        }
        Op::PredNot { d, a } => {
            let a = src.pred(*a);
            out.push((*d, std::array::from_fn(|l| !a[l] as u64)));
        }
        Op::Setp {
            cmp,
            ty,
            ftz,
            p,
            q,
            a,
            b,
            combine,
        } => {
            let (a, b) = (src.read(*a), src.read(*b));
            let t = setp(*cmp, *ty, *ftz, &a, &b);
            let (rp, rq): ([bool; 32], [bool; 32]) = match combine {
                None => (t, t.map(|v| !v)),
                Some((op, c)) => {
                    let c = src.pred(*c);
                    let f = |v: bool, c: bool| match op {
                        BoolOp::And => v && c,
                        BoolOp::Or => v || c,
                        BoolOp::Xor => v != c,
                    };
                    (
                        std::array::from_fn(|l| f(t[l], c[l])),
                        std::array::from_fn(|l| f(!t[l], c[l])),
                    )
                }
            };
            if let Some(p) = p {
                out.push((*p, rp.map(u64::from)));
            }
            if let Some(q) = q {
                out.push((*q, rq.map(u64::from)));
            }
        }
        Op::Selp { ty, d, a, b, c } => {
            let (a, b, c) = (src.read(*a), src.read(*b), src.pred(*c));
            let bits = ty.bits();
            out.push((
                *d,
                std::array::from_fn(|l| trunc(if c[l] { a[l] } else { b[l] }, bits)),
            ));
        }
        Op::Fp {
            op,
            fp,
            mode,
            ftz,
            sat,
            d,
            a,
            b,
        } => {
            let (a, b) = (src.read(*a), src.read(*b));
            let plain = *mode == Mode::Round(Rnd::Nearest) && !ftz && !sat;
            let r = match (fp, plain, op) {
                (Fp::F32, true, FpOp::Add) => map2(&a, &b, |x, y| bits32(f32v(x) + f32v(y))),
                (Fp::F32, true, FpOp::Sub) => map2(&a, &b, |x, y| bits32(f32v(x) - f32v(y))),
                (Fp::F32, true, FpOp::Mul) => map2(&a, &b, |x, y| bits32(f32v(x) * f32v(y))),
                (Fp::F32, true, FpOp::Div) => map2(&a, &b, |x, y| bits32(f32v(x) / f32v(y))),
                (Fp::F64, true, FpOp::Add) => map2(&a, &b, |x, y| {
                    (f64::from_bits(x) + f64::from_bits(y)).to_bits()
                }),
                (Fp::F64, true, FpOp::Sub) => map2(&a, &b, |x, y| {
                    (f64::from_bits(x) - f64::from_bits(y)).to_bits()
                }),
                (Fp::F64, true, FpOp::Mul) => map2(&a, &b, |x, y| {
                    (f64::from_bits(x) * f64::from_bits(y)).to_bits()
                }),
                (Fp::F64, true, FpOp::Div) => map2(&a, &b, |x, y| {
                    (f64::from_bits(x) / f64::from_bits(y)).to_bits()
                }),
                (Fp::F32, _, _) => map2(&a, &b, |x, y| {
                    let r = num::fp32(*op, *mode, *ftz, f32v(x), f32v(y));
                    bits32(if *sat { num::sat32(r) } else { r })
                }),
                (Fp::F64, _, _) => map2(&a, &b, |x, y| {
                    let r = num::fp64(*op, *mode, *ftz, f64::from_bits(x), f64::from_bits(y));
                    (if *sat { num::sat64(r) } else { r }).to_bits()
                }),
            };
            out.push((*d, r));
        }
        Op::Fma {
            fp,
            rnd,
            ftz,
            sat,
            d,
            a,
            b,
            c,
        } => {
            let (a, b, c) = (src.read(*a), src.read(*b), src.read(*c));
            let r = match fp {
                Fp::F32 => map3(&a, &b, &c, |x, y, z| {
                    let r = num::fma32(*rnd, *ftz, f32v(x), f32v(y), f32v(z));
                    bits32(if *sat { num::sat32(r) } else { r })
                }),
                Fp::F64 => map3(&a, &b, &c, |x, y, z| {
                    let r = num::fma64(f64::from_bits(x), f64::from_bits(y), f64::from_bits(z));
                    (if *sat { num::sat64(r) } else { r }).to_bits()
                }),
            };
            out.push((*d, r));
        }
        Op::FpUn {
            op,
            fp,
            mode,
            ftz,
            d,
            a,
        } => {
            let a = src.read(*a);
            let r = match fp {
                Fp::F32 => map1(&a, |x| bits32(num::un32(*op, *mode, *ftz, f32v(x)))),
                Fp::F64 => map1(&a, |x| {
                    num::un64(*op, *mode, *ftz, f64::from_bits(x)).to_bits()
                }),
            };
            out.push((*d, r));
        }
        Op::Cvt {
            dty,
            aty,
            rnd,
            integral,
            ftz,
            sat,
            d,
            a,
        } => {
            let a = src.read(*a);
            let (db, ab) = (dty.bits(), aty.bits());
            let int = |t: Ty| !t.is_float();
            let r = if int(*dty) && int(*aty) && !sat {
                // Integer to integer: truncate, or extend by the source's sign.
                if aty.is_signed() {
                    map1(&a, |x| {
                        let v = sext(x, ab) as u64;
                        if dty.is_signed() {
                            sext(v, db) as u64
                        } else {
                            trunc(v, db)
                        }
                    })
                } else {
                    map1(&a, |x| {
                        let v = trunc(x, ab);
                        if dty.is_signed() {
                            sext(v, db) as u64
                        } else {
                            trunc(v, db)
                        }
                    })
                }
            } else if *dty == Ty::F64 && *aty == Ty::F32 && !ftz && !sat {
                map1(&a, |x| (f32v(x) as f64).to_bits())
            } else {
                map1(&a, |x| {
                    let r = num::cvt(*dty, *aty, *rnd, *integral, *ftz, *sat, trunc(x, ab));
                    // Signed results are kept sign-extended, as loads keep them.
                    if dty.is_signed() {
                        sext(r, db) as u64
                    } else {
                        r
                    }
                })
            };
            out.push((*d, r));
        }
        _ => unreachable!("not an operation on registers: {op:?}"),
    }
}

/// The carry flag's register: the executor maps it to the kernel's.
pub(crate) const CC: Reg = Reg::MAX;

/// An integer operation of two sources for every lane (no carry, no
/// saturation), truncated to its width.
fn int2(op: IntOp, ty: Ty, a: &L, b: &L) -> L {
    let bits = ty.bits();
    let signed = ty.is_signed();
    let r = match op {
        IntOp::Add => map2(a, b, u64::wrapping_add),
        IntOp::Sub => map2(a, b, u64::wrapping_sub),
        IntOp::MulLo => map2(a, b, u64::wrapping_mul),
        IntOp::MulWide if bits <= 32 => {
            return if signed {
                map2(a, b, |x, y| (sext(x, bits) * sext(y, bits)) as u64)
            } else {
                map2(a, b, |x, y| trunc(x, bits) * trunc(y, bits))
            };
        }
        IntOp::And => map2(a, b, |x, y| x & y),
        IntOp::Or => map2(a, b, |x, y| x | y),
        IntOp::Xor => map2(a, b, |x, y| x ^ y),
        IntOp::Shl => map2(a, b, |x, n| {
            if trunc(n, 32) >= bits as u64 {
                0
            } else {
                x << trunc(n, 32)
            }
        }),
        IntOp::Shr if signed => map2(a, b, |x, n| (sext(x, bits) >> trunc(n, 32).min(63)) as u64),
        IntOp::Shr => map2(a, b, |x, n| {
            let n = trunc(n, 32);
            if n >= bits as u64 {
                0
            } else {
                trunc(x, bits) >> n
            }
        }),
        IntOp::Min if signed => map2(a, b, |x, y| sext(x, bits).min(sext(y, bits)) as u64),
        IntOp::Max if signed => map2(a, b, |x, y| sext(x, bits).max(sext(y, bits)) as u64),
        IntOp::Min => map2(a, b, |x, y| trunc(x, bits).min(trunc(y, bits))),
        IntOp::Max => map2(a, b, |x, y| trunc(x, bits).max(trunc(y, bits))),
        _ => {
            let out = if op == IntOp::MulWide { bits * 2 } else { bits };
            return map2(a, b, |x, y| trunc(int_op(op, ty, x, y, 0, false).0, out));
        }
    };
    map1(&r, |v| trunc(v, bits))
}

/// An integer operation on `bits`-wide operands: the result and the carry
/// (or borrow, for subtraction) out.
pub(crate) fn int_op(op: IntOp, ty: Ty, x: u64, y: u64, cin: u64, sat: bool) -> (u64, u64) {
    let bits = ty.bits();
    let signed = ty.is_signed();
    let (ux, uy) = (trunc(x, bits), trunc(y, bits));
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    match op {
        IntOp::Add => {
            if sat && signed {
                let r = (sx as i128 + sy as i128).clamp(i32::MIN as i128, i32::MAX as i128);
                return (r as u64, 0);
            }
            let s = ux as u128 + uy as u128 + (cin & 1) as u128;
            (s as u64, ((s >> bits) & 1) as u64)
        }
        IntOp::Sub => {
            if sat && signed {
                let r = (sx as i128 - sy as i128).clamp(i32::MIN as i128, i32::MAX as i128);
                return (r as u64, 0);
            }
            let s = (ux as u128).wrapping_sub(uy as u128 + (cin & 1) as u128);
            (
                s as u64,
                ((ux as u128) < uy as u128 + (cin & 1) as u128) as u64,
            )
        }
        IntOp::MulLo => (ux.wrapping_mul(uy), 0),
        IntOp::MulHi | IntOp::MulWide => {
            let p: u128 = if signed {
                (sx as i128 * sy as i128) as u128
            } else {
                ux as u128 * uy as u128
            };
            if op == IntOp::MulWide {
                (p as u64, 0)
            } else {
                ((p >> bits) as u64, 0)
            }
        }
        IntOp::Div => {
            if uy == 0 {
                return (u64::MAX, 0);
            }
            (
                if signed {
                    sx.wrapping_div(sy) as u64
                } else {
                    ux / uy
                },
                0,
            )
        }
        IntOp::Rem => {
            if uy == 0 {
                return (ux, 0);
            }
            (
                if signed {
                    sx.wrapping_rem(sy) as u64
                } else {
                    ux % uy
                },
                0,
            )
        }
        IntOp::Min => (
            if signed {
                sx.min(sy) as u64
            } else {
                ux.min(uy)
            },
            0,
        ),
        IntOp::Max => (
            if signed {
                sx.max(sy) as u64
            } else {
                ux.max(uy)
            },
            0,
        ),
        IntOp::And => (ux & uy, 0),
        IntOp::Or => (ux | uy, 0),
        IntOp::Xor => (ux ^ uy, 0),
        IntOp::Shl => {
            let n = trunc(y, 32);
            (if n >= bits as u64 { 0 } else { ux << n }, 0)
        }
        IntOp::Shr => {
            let n = trunc(y, 32).min(bits as u64);
            if signed {
                (sx.wrapping_shr(n.min(63) as u32) as u64, 0)
            } else {
                (if n >= bits as u64 { 0 } else { ux >> n }, 0)
            }
        }
    }
}

/// `setp`'s comparison for every lane.
fn setp(cmp: Cmp, ty: Ty, ftz: bool, a: &L, b: &L) -> [bool; 32] {
    let bits = ty.bits();
    match ty {
        Ty::F32 if !ftz => {
            std::array::from_fn(|l| num::cmp_float(cmp, f32v(a[l]) as f64, f32v(b[l]) as f64))
        }
        Ty::F64 => {
            std::array::from_fn(|l| num::cmp_float(cmp, f64::from_bits(a[l]), f64::from_bits(b[l])))
        }
        t if t.is_float() => std::array::from_fn(|l| {
            let (mut x, mut y) = (num::float_of(t, a[l]), num::float_of(t, b[l]));
            if ftz && t == Ty::F32 {
                x = num::ftz32(x as f32) as f64;
                y = num::ftz32(y as f32) as f64;
            }
            num::cmp_float(cmp, x, y)
        }),
        t if t.is_signed() => {
            let (x, y) = (a.map(|v| sext(v, bits)), b.map(|v| sext(v, bits)));
            ints(cmp, &x, &y)
        }
        _ => {
            let (x, y) = (a.map(|v| trunc(v, bits)), b.map(|v| trunc(v, bits)));
            ints(cmp, &x, &y)
        }
    }
}

fn ints<T: Ord + Copy>(cmp: Cmp, x: &[T; 32], y: &[T; 32]) -> [bool; 32] {
    match cmp {
        Cmp::Eq | Cmp::Equ => std::array::from_fn(|l| x[l] == y[l]),
        Cmp::Ne | Cmp::Neu => std::array::from_fn(|l| x[l] != y[l]),
        Cmp::Lt | Cmp::Ltu => std::array::from_fn(|l| x[l] < y[l]),
        Cmp::Le | Cmp::Leu => std::array::from_fn(|l| x[l] <= y[l]),
        Cmp::Gt | Cmp::Gtu => std::array::from_fn(|l| x[l] > y[l]),
        Cmp::Ge | Cmp::Geu => std::array::from_fn(|l| x[l] >= y[l]),
        Cmp::Num => [true; 32],
        Cmp::Nan => [false; 32],
    }
}
