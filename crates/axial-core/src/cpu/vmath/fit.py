"""Fits the polynomials of the vectorised math (`cpu/vmath`) and prints
them as Rust constants, highest degree first.

Near-minimax fits by Chebyshev interpolation (mpmath.chebyfit) at 60
digits; each line gives the bound of the fit's error on its interval.

The f64 polynomials serve functions whose result is rounded once to f32
(`log_f64` also serves `pow`, whose error `exp` multiplies by up to 88:
it keeps f64 accuracy). A relative error near 1e-9 before that rounding
moves the result by at most 0.02 ulp of f32, so their degrees stop there
rather than at f64's 1e-16: each degree less is one fused multiply-add
less on half as many lanes.

    python fit.py    # needs mpmath and numpy (torch's environment has both)
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 60
TINY = mp.mpf(10) ** -30


def fit(name, f, a, b, deg, ty):
    coeffs, err = mp.chebyfit(f, [a, b], deg + 1, error=True)
    # The shortest literal that rounds to the coefficient in its type.
    short = (lambda c: repr(float(c))) if ty == "f64" else (lambda c: str(np.float32(c)))
    body = ", ".join(short(c) for c in coeffs)
    print(f"/// Fit error {float(err):.2e} on [{float(a):.6g}, {float(b):.6g}].")
    print(f"pub(super) const {name}: [{ty}; {deg + 1}] = [{body}];")


half_ln2 = mp.log(2) / 2
# e^r = 1 + r + r^2 P(r) on [-ln2/2, ln2/2]
expq = lambda r: (mp.expm1(r) - r) / r**2 if abs(r) > TINY else mp.mpf(1) / 2 + r / 6
fit("EXP_F32", expq, -half_ln2, half_ln2, 5, "f32")
fit("EXP_F64", expq, -half_ln2, half_ln2, 5, "f64")
# log(1+f) = 2 atanh(s), s = f/(2+f): 2s + s^3 R(s^2), |s| <= (sqrt2-1)/(sqrt2+1)
smax = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)
logq = lambda z: (2 * mp.atanh(mp.sqrt(z)) / mp.sqrt(z) - 2) / z if z > TINY else mp.mpf(2) / 3
fit("LOG_F32", logq, 0, smax**2, 3, "f32")
fit("LOG_F64", logq, 0, smax**2, 5, "f64")
# erf(z) = z P(z^2) for |z| < 1
erfq = lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) if z > TINY else 2 / mp.sqrt(mp.pi)
fit("ERF_SMALL", erfq, 0, 1, 6, "f64")
# erfc(z) = t exp(G(t) - z^2), t = 1/(1 + z/2), for z in [1, 10.5]
erfcq = lambda t: (lambda z: mp.log(mp.erfc(z) / t) + z * z)(2 * (1 / t - 1))
fit("ERFC", erfcq, 1 / (1 + mp.mpf(10.5) / 2), 1 / (1 + mp.mpf(1) / 2), 8, "f64")
# sin r = r + r^3 S(r^2), cos r = 1 - r^2/2 + r^4 C(r^2) on |r| <= pi/4
q = (mp.pi / 4) ** 2
sinq = lambda z: (mp.sin(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z > TINY else -mp.mpf(1) / 6
cosq = lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z**2 if z > TINY else mp.mpf(1) / 24
fit("SIN", sinq, 0, q, 3, "f64")
fit("COS", cosq, 0, q, 3, "f64")
# tanh a = a + a^3 T(a^2) on [0, 0.55], the f32-lane tanh's small arguments
tanhq = lambda z: (mp.tanh(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z > TINY else -mp.mpf(1) / 3
fit("TANH_SMALL", tanhq, 0, mp.mpf(0.55) ** 2, 4, "f32")
# the f32-lane sin and cos (|x| < 64): the same quotients in f32
fit("SIN_F32", sinq, 0, q, 3, "f32")
fit("COS_F32", cosq, 0, q, 3, "f32")
# the f32-lane erf: erf(a)/a = c0 + c1 z + z^2 P(z) below a = 1 (z = a^2,
# c0 = 2/sqrt(pi) and c1 = -c0/3 as f32 pairs hi + lo), and above,
# erfc(a) = exp(-a^2 + R(a)) with R = ln erfc(a) + a^2 in d = a - 2.5 on [1, 4]
c0 = 2 / mp.sqrt(mp.pi)
for name, v in (("ERF_C0", c0), ("ERF_C1", -c0 / 3)):
    hi = np.float32(float(v))
    lo = np.float32(float(v - mp.mpf(float(hi))))
    # 2/sqrt(pi) rounded to f32 is std's FRAC_2_SQRT_PI (clippy asks for the name).
    high = "std::f32::consts::FRAC_2_SQRT_PI" if name == "ERF_C0" else str(hi)
    print(f"pub(super) const {name}: [f32; 2] = [{high}, {str(lo)}];")
erf2 = lambda z: (mp.erf(mp.sqrt(z)) / mp.sqrt(z) - c0 + c0 * z / 3) / z**2 if z > mp.mpf(10) ** -8 else c0 / 10
fit("ERF_F32_SMALL", erf2, 0, 1, 5, "f32")
erfc_log = lambda d: mp.log(mp.erfc(d + mp.mpf(2.5))) + (d + mp.mpf(2.5)) ** 2
fit("ERFC_LOG_F32", erfc_log, -mp.mpf(1.5), mp.mpf(1.5), 9, "f32")
