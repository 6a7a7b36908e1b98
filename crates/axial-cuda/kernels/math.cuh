// The scalar math of the elementwise kernels, written as the CPU device's
// (`axial_core::cpu::math`): floats in their compute type (f32 for f16, bf16
// and f32; f64 for f64) with CUDA's own math library, integers wrapping as
// two's complement.
#pragma once
#include "common.cuh"

// ------------------------------------------------------------ float math

__device__ __forceinline__ float m_exp(float x) { return expf(x); }
__device__ __forceinline__ double m_exp(double x) { return exp(x); }
__device__ __forceinline__ float m_log(float x) { return logf(x); }
__device__ __forceinline__ double m_log(double x) { return log(x); }
__device__ __forceinline__ float m_log1p(float x) { return log1pf(x); }
__device__ __forceinline__ double m_log1p(double x) { return log1p(x); }
__device__ __forceinline__ float m_expm1(float x) { return expm1f(x); }
__device__ __forceinline__ double m_expm1(double x) { return expm1(x); }
__device__ __forceinline__ float m_sin(float x) { return sinf(x); }
__device__ __forceinline__ double m_sin(double x) { return sin(x); }
__device__ __forceinline__ float m_cos(float x) { return cosf(x); }
__device__ __forceinline__ double m_cos(double x) { return cos(x); }
__device__ __forceinline__ float m_tan(float x) { return tanf(x); }
__device__ __forceinline__ double m_tan(double x) { return tan(x); }
__device__ __forceinline__ float m_tanh(float x) { return tanhf(x); }
__device__ __forceinline__ double m_tanh(double x) { return tanh(x); }
__device__ __forceinline__ float m_erf(float x) { return erff(x); }
__device__ __forceinline__ double m_erf(double x) { return erf(x); }
__device__ __forceinline__ float m_sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double m_sqrt(double x) { return sqrt(x); }
__device__ __forceinline__ float m_abs(float x) { return fabsf(x); }
__device__ __forceinline__ double m_abs(double x) { return fabs(x); }
__device__ __forceinline__ float m_floor(float x) { return floorf(x); }
__device__ __forceinline__ double m_floor(double x) { return floor(x); }
__device__ __forceinline__ float m_ceil(float x) { return ceilf(x); }
__device__ __forceinline__ double m_ceil(double x) { return ceil(x); }
__device__ __forceinline__ float m_rint(float x) { return rintf(x); }
__device__ __forceinline__ double m_rint(double x) { return rint(x); }
__device__ __forceinline__ float m_trunc(float x) { return truncf(x); }
__device__ __forceinline__ double m_trunc(double x) { return trunc(x); }
__device__ __forceinline__ float m_fmod(float a, float b) { return fmodf(a, b); }
__device__ __forceinline__ double m_fmod(double a, double b) { return fmod(a, b); }
__device__ __forceinline__ float m_pow(float a, float b) { return powf(a, b); }
__device__ __forceinline__ double m_pow(double a, double b) { return pow(a, b); }
__device__ __forceinline__ float m_atan2(float a, float b) { return atan2f(a, b); }
__device__ __forceinline__ double m_atan2(double a, double b) { return atan2(a, b); }
__device__ __forceinline__ float m_copysign(float a, float b) { return copysignf(a, b); }
__device__ __forceinline__ double m_copysign(double a, double b) { return copysign(a, b); }
__device__ __forceinline__ bool m_isnan(float x) { return x != x; }
__device__ __forceinline__ bool m_isnan(double x) { return x != x; }
__device__ __forceinline__ float m_inf(float) { return __int_as_float(0x7f800000); }
__device__ __forceinline__ double m_inf(double) { return __longlong_as_double(0x7ff0000000000000ll); }
__device__ __forceinline__ float m_nan(float) { return __int_as_float(0x7fc00000); }
__device__ __forceinline__ double m_nan(double) { return __longlong_as_double(0x7ff8000000000000ll); }

// `v` rounded to the element type `E` and back: one operation of the
// element type's own arithmetic (f16 and bf16 round every step).
template <class E> __device__ __forceinline__ typename Elem<E>::C round_to(typename Elem<E>::C v) {
    return Elem<E>::load(Elem<E>::store(v));
}

// `std::max(a, b)` and `std::min(a, b)`: a NaN `a` passes through.
template <class C> __device__ __forceinline__ C max_of(C a, C b) { return a < b ? b : a; }
template <class C> __device__ __forceinline__ C min_of(C a, C b) { return b < a ? b : a; }

template <class C> __device__ __forceinline__ C f_sign(C x) {
    C pos = (C)0 < x ? (C)1 : (C)0;
    C neg = x < (C)0 ? (C)1 : (C)0;
    return pos - neg;
}

// Python's `a % b`: fmod moved into the divisor's sign.
template <class C> __device__ __forceinline__ C f_remainder(C a, C b) {
    C m = m_fmod(a, b);
    if (m != (C)0 && ((b < (C)0) != (m < (C)0))) return m + b;
    return m;
}

// Python's `a // b` as PyTorch's vectorised kernel computes it, each step
// rounded to the element type `E`.
template <class E> __device__ __forceinline__ typename Elem<E>::C f_floor_divide(typename Elem<E>::C a,
                                                                                 typename Elem<E>::C b) {
    typedef typename Elem<E>::C C;
    C zero = (C)0, one = (C)1;
    C quotient = round_to<E>(a / b);
    C m = round_to<E>(m_fmod(a, b));
    C inf = m_inf(a);
    C multiple = (m_abs(quotient) == inf && m_abs(a) != inf) ? a : round_to<E>(a - m);
    C div = round_to<E>(multiple / b);
    if (m != zero && ((b < zero) != (m < zero))) div = round_to<E>(div - one);
    C fl = m_floor(div);
    if (round_to<E>(div - fl) > (C)0.5) fl = round_to<E>(fl + one);
    if (div == zero) fl = m_copysign(zero, quotient);
    return b == zero ? quotient : fl;
}

template <class C> __device__ __forceinline__ C f_maximum(C a, C b) {
    if (m_isnan(a) || m_isnan(b)) return m_nan(a);
    return a < b ? b : a;
}
template <class C> __device__ __forceinline__ C f_minimum(C a, C b) {
    if (m_isnan(a) || m_isnan(b)) return m_nan(a);
    return b < a ? b : a;
}

// How `x ** p` is computed for a scalar `p`: `kind` is one of the
// `AXIAL_POW_<KIND>` of `ops.cuh` (`axial_core::ops::PowScalarKind`, chosen
// on the host for the dtype).
template <class E> __device__ __forceinline__ typename Elem<E>::C f_pow_scalar(typename Elem<E>::C x, u32 kind,
                                                                               double p) {
    typedef typename Elem<E>::C C;
    switch (kind) {
        case AXIAL_POW_ONE: return (C)1;
        case AXIAL_POW_IDENTITY: return x;
        case AXIAL_POW_SQRT: return m_sqrt(x);
        case AXIAL_POW_RSQRT: return (C)1 / m_sqrt(x);
        case AXIAL_POW_RECIPROCAL: return (C)1 / x;
        case AXIAL_POW_SQUARE: return x * x;
        case AXIAL_POW_CUBE: return round_to<E>(x * x) * x;
        case AXIAL_POW_INVERSE_SQUARE: return (C)1 / round_to<E>(x * x);
        case AXIAL_POW_IN_F64: return (C)pow((double)x, p);
        default: return (C)powf((float)x, (float)p);
    }
}

// ---------------------------------------------------------- integer math

// The unsigned type of each integer's width, for wrapping arithmetic.
template <class T> struct Unsigned;
template <> struct Unsigned<unsigned char> { typedef unsigned char U; };
template <> struct Unsigned<signed char> { typedef unsigned char U; };
template <> struct Unsigned<short> { typedef unsigned short U; };
template <> struct Unsigned<int> { typedef unsigned int U; };
template <> struct Unsigned<i64> { typedef u64 U; };

template <class T> __device__ __forceinline__ T w_add(T a, T b) {
    typedef typename Unsigned<T>::U U;
    return (T)(U)((U)a + (U)b);
}
template <class T> __device__ __forceinline__ T w_sub(T a, T b) {
    typedef typename Unsigned<T>::U U;
    return (T)(U)((U)a - (U)b);
}
template <class T> __device__ __forceinline__ T w_mul(T a, T b) {
    typedef typename Unsigned<T>::U U;
    return (T)(U)((u64)(U)a * (u64)(U)b);
}
template <class T> __device__ __forceinline__ T w_neg(T a) { return w_sub((T)0, a); }
template <class T> __device__ __forceinline__ T w_abs(T a) { return a < (T)0 ? w_neg(a) : a; }
template <class T> __device__ __forceinline__ T i_sign(T x) { return (T)(((T)0 < x) - (x < (T)0)); }

// Truncating division and remainder; `MIN / -1` wraps to `MIN`, its
// remainder is 0. `b` is not 0.
template <class T> __device__ __forceinline__ T w_div(T a, T b) {
    if (b == (T)-1 && (T)-1 < (T)0) return w_neg(a);
    return (T)(a / b);
}
template <class T> __device__ __forceinline__ T w_rem(T a, T b) {
    if (b == (T)-1 && (T)-1 < (T)0) return (T)0;
    return (T)(a % b);
}

// Floor division (`c10::div_floor_integer`); `b` is not 0.
template <class T> __device__ __forceinline__ T i_floor_divide(T a, T b) {
    T q = w_div(a, b);
    if (((a < (T)0) != (b < (T)0)) && w_rem(a, b) != (T)0) return w_sub(q, (T)1);
    return q;
}

// Python's `a % b`; `b` is not 0.
template <class T> __device__ __forceinline__ T i_remainder(T a, T b) {
    T r = w_rem(a, b);
    if (r != (T)0 && ((r < (T)0) != (b < (T)0))) return w_add(r, b);
    return r;
}

// `a ** b` by squaring, wrapping; `b` is not negative.
template <class T> __device__ __forceinline__ T i_pow(T a, u64 e) {
    T base = a, acc = (T)1;
    while (e != 0) {
        if (e & 1) acc = w_mul(acc, base);
        base = w_mul(base, base);
        e >>= 1;
    }
    return acc;
}
