// `cumsum` along one dim of any layout, for every dtype but bool (one
// module): floats add in their compute float (f16 and bf16 in f32, each
// output rounded), integers in wrapping 64-bit arithmetic (the same bits as
// wrapping in their own width).
//
// `rows` walks the positions of the other dims (output, source strides);
// `line` says how long the scanned dim is and how far its elements are
// apart. When the scanned dim is the source's fast one a block scans one
// row at a time (`cumsum_block_*`, a chunk of `blockDim.x` elements per
// step, each chunk's total carried into the next); else a thread scans one
// row (`cumsum_rows_*`), adjacent threads reading adjacent elements.
#include "block.cuh"

struct ScanLine {
    u64 len;
    i64 dst_step;
    i64 src_step;
};

// The running sum of each element type, and its conversions.
template <class T> struct ScanAcc {
    typedef u64 A;
    static __device__ __forceinline__ A of(T x) { return (u64)Elem<T>::to_i64(x); }
    static __device__ __forceinline__ T out(A a) { return Elem<T>::from_i64((i64)a); }
};
#define FLOAT_SCAN(T, C)                                                                   \
    template <> struct ScanAcc<T> {                                                        \
        typedef C A;                                                                       \
        static __device__ __forceinline__ A of(T x) { return Elem<T>::load(x); }           \
        static __device__ __forceinline__ T out(A a) { return Elem<T>::store(a); }         \
    };
FLOAT_SCAN(float, float)
FLOAT_SCAN(double, double)
FLOAT_SCAN(f16_t, float)
FLOAT_SCAN(bf16_t, float)

template <class T> __device__ __forceinline__ void cumsum_rows(T* o, const T* a, const Walk<2>& w, const ScanLine& l) {
    typedef ScanAcc<T> S;
    for_each(w, [&](const i64 (&off)[2]) {
        typename S::A acc = 0;
        for (u64 k = 0; k < l.len; ++k) {
            acc = acc + S::of(a[off[1] + (i64)k * l.src_step]);
            o[off[0] + (i64)k * l.dst_step] = S::out(acc);
        }
    });
}

template <class T> __device__ __forceinline__ void cumsum_block(T* o, const T* a, const Walk<2>& w, const ScanLine& l) {
    typedef ScanAcc<T> S;
    typedef typename S::A A;
    const Walk<2>* sw = stage(w);
    for (u64 r = blockIdx.x; r < sw->numel; r += gridDim.x) {
        Offs<2> off = offsets_of<2>(sw, r);
        A carry = 0;
        for (u64 base = 0; base < l.len; base += blockDim.x) {
            u64 k = base + threadIdx.x;
            A v = k < l.len ? S::of(a[off.v[1] + (i64)k * l.src_step]) : (A)0;
            A total;
            v = block_scan(v, total) + carry;
            if (k < l.len) o[off.v[0] + (i64)k * l.dst_step] = S::out(v);
            carry = carry + total;
        }
    }
}

#define SCAN(DT, T)                                                                                  \
    extern "C" __global__ void cumsum_rows_##DT(T* o, const T* a, Walk<2> w, ScanLine l) { cumsum_rows<T>(o, a, w, l); } \
    extern "C" __global__ void cumsum_block_##DT(T* o, const T* a, Walk<2> w, ScanLine l) { cumsum_block<T>(o, a, w, l); }
SCAN(u8, unsigned char)
SCAN(i8, signed char)
SCAN(i16, short)
SCAN(i32, int)
SCAN(i64, i64)
SCAN(f16, f16_t)
SCAN(bf16, bf16_t)
SCAN(f32, float)
SCAN(f64, double)
