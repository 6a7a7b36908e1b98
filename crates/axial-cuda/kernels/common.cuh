// The element types of axial on the GPU, their conversions, and the strided
// walks every kernel runs on. Compiled to PTX by `gen-ptx.sh` with nvcc 13.0
// (`-arch=compute_80 -fmad=false`), so that each result is rounded as the CPU
// device rounds it: f16 and bf16 computed in f32, casts as PyTorch's.
#pragma once

// The numbers of the ops and the lists of their kernels, generated from the
// op table of axial-core.
#include "ops.cuh"

typedef unsigned long long u64;
typedef long long i64;
typedef unsigned int u32;

// Storage types: f16 and bf16 as their bits, bool as one byte (0 false).
struct f16_t { unsigned short bits; };
struct bf16_t { unsigned short bits; };
struct bool_t { unsigned char bits; };

__device__ __forceinline__ float f16_to_f32(unsigned short h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
__device__ __forceinline__ unsigned short f32_to_f16(float f) {
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}
__device__ __forceinline__ float bf16_to_f32(unsigned short h) {
    return __uint_as_float(((u32)h) << 16);
}
__device__ __forceinline__ unsigned short f32_to_bf16(float f) {
    unsigned short h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}

enum Kind { KIND_BOOL, KIND_INT, KIND_FLOAT };

// A module holds the kernels of one dtype (`gen-ptx.sh` compiles each
// source once per dtype with `-DAXIAL_DT=<id>`), so that the driver compiles
// only the dtypes a program uses, each in a fraction of a second. `ON_<dt>(x)`
// is `x` in the module of that dtype and nothing elsewhere.
#ifndef AXIAL_DT
#define AXIAL_DT -1
#endif
#if AXIAL_DT == 0
#define ON_bool(x) x
#else
#define ON_bool(x)
#endif
#if AXIAL_DT == 1
#define ON_u8(x) x
#else
#define ON_u8(x)
#endif
#if AXIAL_DT == 2
#define ON_i8(x) x
#else
#define ON_i8(x)
#endif
#if AXIAL_DT == 3
#define ON_i16(x) x
#else
#define ON_i16(x)
#endif
#if AXIAL_DT == 4
#define ON_i32(x) x
#else
#define ON_i32(x)
#endif
#if AXIAL_DT == 5
#define ON_i64(x) x
#else
#define ON_i64(x)
#endif
#if AXIAL_DT == 6
#define ON_f16(x) x
#else
#define ON_f16(x)
#endif
#if AXIAL_DT == 7
#define ON_bf16(x) x
#else
#define ON_bf16(x)
#endif
#if AXIAL_DT == 8
#define ON_f32(x) x
#else
#define ON_f32(x)
#endif
#if AXIAL_DT == 9
#define ON_f64(x) x
#else
#define ON_f64(x)
#endif

// `M(dt, T)` for the module's dtype, by family.
#define FLOAT_DTYPES(M) ON_f32(M(f32, float)) ON_f64(M(f64, double)) ON_f16(M(f16, f16_t)) ON_bf16(M(bf16, bf16_t))
#define INT_DTYPES(M) \
    ON_u8(M(u8, unsigned char)) ON_i8(M(i8, signed char)) ON_i16(M(i16, short)) ON_i32(M(i32, int)) ON_i64(M(i64, i64))
#define ALL_DTYPES(M) ON_bool(M(bool, bool_t)) INT_DTYPES(M) FLOAT_DTYPES(M)

// What each element type is computed as, and the conversions of
// `axial_core::Element`: floats to integers truncate toward zero through
// i64 (saturating, NaN to 0, as Rust's `as`) and then wrap; f16 and bf16
// convert through f32.
template <class T> struct Elem;

#define INT_ELEM(T)                                                                  \
    template <> struct Elem<T> {                                                     \
        typedef T C;                                                                 \
        static const int kind = KIND_INT;                                            \
        static __device__ __forceinline__ C load(T x) { return x; }                  \
        static __device__ __forceinline__ T store(C x) { return x; }                 \
        static __device__ __forceinline__ double to_f64(T x) { return (double)x; }   \
        static __device__ __forceinline__ float to_f32(T x) { return (float)x; }     \
        static __device__ __forceinline__ i64 to_i64(T x) { return (i64)x; }         \
        static __device__ __forceinline__ T from_f64(double v) { return (T)__double2ll_rz(v); } \
        static __device__ __forceinline__ T from_f32(float v) { return (T)__float2ll_rz(v); }  \
        static __device__ __forceinline__ T from_i64(i64 v) { return (T)v; }         \
        static __device__ __forceinline__ bool nonzero(T x) { return x != 0; }       \
    };
INT_ELEM(unsigned char)
INT_ELEM(signed char)
INT_ELEM(short)
INT_ELEM(int)
INT_ELEM(i64)

template <> struct Elem<float> {
    typedef float C;
    static const int kind = KIND_FLOAT;
    static __device__ __forceinline__ C load(float x) { return x; }
    static __device__ __forceinline__ float store(C x) { return x; }
    static __device__ __forceinline__ double to_f64(float x) { return (double)x; }
    static __device__ __forceinline__ float to_f32(float x) { return x; }
    static __device__ __forceinline__ i64 to_i64(float x) { return __float2ll_rz(x); }
    static __device__ __forceinline__ float from_f64(double v) { return (float)v; }
    static __device__ __forceinline__ float from_f32(float v) { return v; }
    static __device__ __forceinline__ float from_i64(i64 v) { return (float)v; }
    static __device__ __forceinline__ bool nonzero(float x) { return x != 0.0f; }
};

template <> struct Elem<double> {
    typedef double C;
    static const int kind = KIND_FLOAT;
    static __device__ __forceinline__ C load(double x) { return x; }
    static __device__ __forceinline__ double store(C x) { return x; }
    static __device__ __forceinline__ double to_f64(double x) { return x; }
    static __device__ __forceinline__ float to_f32(double x) { return (float)x; }
    static __device__ __forceinline__ i64 to_i64(double x) { return __double2ll_rz(x); }
    static __device__ __forceinline__ double from_f64(double v) { return v; }
    static __device__ __forceinline__ double from_f32(float v) { return (double)v; }
    static __device__ __forceinline__ double from_i64(i64 v) { return (double)v; }
    static __device__ __forceinline__ bool nonzero(double x) { return x != 0.0; }
};

#define HALF_ELEM(T, TO, FROM)                                                                   \
    template <> struct Elem<T> {                                                                 \
        typedef float C;                                                                         \
        static const int kind = KIND_FLOAT;                                                      \
        static __device__ __forceinline__ C load(T x) { return TO(x.bits); }                     \
        static __device__ __forceinline__ T store(C x) { T r; r.bits = FROM(x); return r; }      \
        static __device__ __forceinline__ double to_f64(T x) { return (double)TO(x.bits); }      \
        static __device__ __forceinline__ float to_f32(T x) { return TO(x.bits); }               \
        static __device__ __forceinline__ i64 to_i64(T x) { return __float2ll_rz(TO(x.bits)); }   \
        static __device__ __forceinline__ T from_f64(double v) { return store((float)v); }       \
        static __device__ __forceinline__ T from_f32(float v) { return store(v); }               \
        static __device__ __forceinline__ T from_i64(i64 v) { return store((float)v); }          \
        static __device__ __forceinline__ bool nonzero(T x) { return TO(x.bits) != 0.0f; }       \
    };
HALF_ELEM(f16_t, f16_to_f32, f32_to_f16)
HALF_ELEM(bf16_t, bf16_to_f32, f32_to_bf16)

template <> struct Elem<bool_t> {
    typedef bool C;
    static const int kind = KIND_BOOL;
    static __device__ __forceinline__ C load(bool_t x) { return x.bits != 0; }
    static __device__ __forceinline__ bool_t store(C x) { bool_t r; r.bits = x ? 1 : 0; return r; }
    static __device__ __forceinline__ double to_f64(bool_t x) { return x.bits != 0 ? 1.0 : 0.0; }
    static __device__ __forceinline__ float to_f32(bool_t x) { return x.bits != 0 ? 1.0f : 0.0f; }
    static __device__ __forceinline__ i64 to_i64(bool_t x) { return x.bits != 0 ? 1 : 0; }
    static __device__ __forceinline__ bool_t from_f64(double v) { return store(v != 0.0); }
    static __device__ __forceinline__ bool_t from_f32(float v) { return store(v != 0.0f); }
    static __device__ __forceinline__ bool_t from_i64(i64 v) { return store(v != 0); }
    static __device__ __forceinline__ bool nonzero(bool_t x) { return x.bits != 0; }
};

// `axial_core::cast`: bool targets test non-zero; floats of at most four
// bytes convert through f32, other floats through f64; integers and bool
// through i64.
template <class S, class T> __device__ __forceinline__ T cast(S s) {
    if (Elem<T>::kind == KIND_BOOL) return Elem<T>::from_i64(Elem<S>::nonzero(s) ? 1 : 0);
    if (Elem<S>::kind == KIND_FLOAT && Elem<T>::kind == KIND_FLOAT && sizeof(S) <= 4 && sizeof(T) <= 4)
        return Elem<T>::from_f32(Elem<S>::to_f32(s));
    if (Elem<S>::kind == KIND_FLOAT) return Elem<T>::from_f64(Elem<S>::to_f64(s));
    return Elem<T>::from_i64(Elem<S>::to_i64(s));
}

// Unsigned carriers of each size, for kernels that move bits.
typedef unsigned char b1;
typedef unsigned short b2;
typedef unsigned int b4;
typedef u64 b8;

// ------------------------------------------------------------------ walks

#define MAX_DIMS 8

// `N` operands over one coalesced shape (`axial_core::plan::Plan`), the
// innermost dim last; element strides per operand. Base pointers are
// already advanced to each operand's storage offset.
template <int N> struct Walk {
    u64 numel;
    u64 sizes[MAX_DIMS];
    i64 strides[N][MAX_DIMS];
    int ndim;
    // 1 when every operand is unit-stride over one dim (no index math).
    int contiguous;
};

// Element offsets of one element, one per operand.
template <int N> struct Offs {
    i64 v[N];
};

// The offsets of flat index `i` (row-major over `sizes`) in a walk held in
// shared memory. Not inlined: one copy of the index math serves every kernel
// of a module (kernels stay small, so the driver compiles them fast), and
// the loop over dims reads shared memory, which indexes cheaply. u32 index
// math when the walk has fewer than 2^32 elements, else u64.
template <int N, class I> __device__ __forceinline__ Offs<N> offsets_in(const Walk<N>* w, I i) {
    Offs<N> o;
#pragma unroll
    for (int k = 0; k < N; ++k) o.v[k] = 0;
#pragma unroll 1
    for (int d = w->ndim - 1; d >= 0; --d) {
        I n = (I)w->sizes[d];
        I q = i / n;
        I r = i - q * n;
        i = q;
#pragma unroll
        for (int k = 0; k < N; ++k) o.v[k] += (i64)r * w->strides[k][d];
    }
    return o;
}
template <int N> __device__ __noinline__ Offs<N> offsets_of(const Walk<N>* w, u64 i) {
    if (w->numel <= 0xffffffffull) return offsets_in<N, u32>(w, (u32)i);
    return offsets_in<N, u64>(w, i);
}

// Shared memory for the walk of a block (the largest walk, of 4 operands).
__shared__ u64 walk_smem[(sizeof(Walk<4>) + 7) / 8];

// Copies the kernel's walk (a parameter) into shared memory.
template <int N> __device__ __forceinline__ const Walk<N>* stage(const Walk<N>& src) {
    const u64* s = reinterpret_cast<const u64*>(&src);
#pragma unroll 1
    for (int k = threadIdx.y * blockDim.x + threadIdx.x; k < (int)(sizeof(Walk<N>) / 8);
         k += blockDim.x * blockDim.y)
        walk_smem[k] = s[k];
    __syncthreads();
    return reinterpret_cast<const Walk<N>*>(walk_smem);
}

// Calls `body(off)` for every element of the walk, each thread taking a
// grid-stride share: the operands' element offsets. One loop, so that each
// kernel holds one copy of its element code; a contiguous walk skips the
// index math (a uniform branch).
template <int N, class F> __device__ __forceinline__ void for_each(const Walk<N>& w, F body) {
    u64 step = (u64)gridDim.x * blockDim.x;
    u64 first = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    u64 n = w.numel;
    bool contiguous = w.contiguous != 0;
    const Walk<N>* sw = contiguous ? (const Walk<N>*)0 : stage(w);
    for (u64 i = first; i < n; i += step) {
        Offs<N> off;
        if (contiguous) {
#pragma unroll
            for (int k = 0; k < N; ++k) off.v[k] = (i64)i;
        } else {
            off = offsets_of<N>(sw, i);
        }
        body(off.v);
    }
}

// Scalar arguments of a kernel: a value's bits in `bits` (a fill value, the
// scalar operand of `x * 2`), op arguments as floats and integers, and flags.
struct Scalars {
    u64 bits;
    double f[2];
    i64 i[2];
    u32 flags;
    u32 pad;
};

// `bits` as a value of `T`.
template <class T> __device__ __forceinline__ T scalar_of(const Scalars& s) {
    union { u64 b; T t; } u;
    u.b = s.bits;
    return u.t;
}
