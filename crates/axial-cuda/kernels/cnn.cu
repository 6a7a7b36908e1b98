// Convolution, pooling and the per-channel affine map of batch norm, for f32
// and f64 (one module; the tensor layer widens f16 and bf16 to f32). Every
// operand is contiguous in the canonical order `[batch, C, D, H, W]` (the
// host permutes a tensor's dims to it and copies where the result is not
// dense), with fewer than three spatial dims given as leading dims of one.
//
// One thread per output element, grid-stride, adjacent threads adjacent
// output columns: the direct convolution sums over the input channels of
// its group and the taps inside the input (zero padding), in that order,
// then adds the bias and clamps (NaN stays); pooling walks its window's taps
// inside the input in row-major order, as the CPU's kernels do, so a max and
// its index (the flat position in the input plane, NaN winning, the first
// tap inside the input when every value is −∞) are the CPU's.
#include "math.cuh"

struct ConvShape {
    u64 batch, cin, cout, groups;
    u64 in[3], out[3], k[3], stride[3], dil[3], pad[3];
    int clamp;
    int pad_;
    double lo, hi;
};

template <class T> __device__ __forceinline__ void conv_direct(T* y, const T* x, const T* w, const T* b, const ConvShape& p) {
    u64 cg = p.cin / p.groups, og = p.cout / p.groups;
    u64 plane = p.out[0] * p.out[1] * p.out[2];
    u64 inplane = p.in[0] * p.in[1] * p.in[2];
    u64 taps = p.k[0] * p.k[1] * p.k[2];
    u64 n = p.batch * p.cout * plane;
    for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += (u64)gridDim.x * blockDim.x) {
        u64 ow = t % p.out[2];
        u64 oh = t / p.out[2] % p.out[1];
        u64 od = t / (p.out[2] * p.out[1]) % p.out[0];
        u64 co = t / plane % p.cout;
        u64 bi = t / (plane * p.cout);
        u64 g = co / og;
        i64 s0 = (i64)(od * p.stride[0]) - (i64)p.pad[0];
        i64 s1 = (i64)(oh * p.stride[1]) - (i64)p.pad[1];
        i64 s2 = (i64)(ow * p.stride[2]) - (i64)p.pad[2];
        T acc = 0;
        for (u64 ci = 0; ci < cg; ++ci) {
            const T* xp = x + (bi * p.cin + g * cg + ci) * inplane;
            const T* wp = w + (co * cg + ci) * taps;
            for (u64 k0 = 0; k0 < p.k[0]; ++k0) {
                i64 i0 = s0 + (i64)(k0 * p.dil[0]);
                if (i0 < 0 || i0 >= (i64)p.in[0]) continue;
                for (u64 k1 = 0; k1 < p.k[1]; ++k1) {
                    i64 i1 = s1 + (i64)(k1 * p.dil[1]);
                    if (i1 < 0 || i1 >= (i64)p.in[1]) continue;
                    for (u64 k2 = 0; k2 < p.k[2]; ++k2) {
                        i64 i2 = s2 + (i64)(k2 * p.dil[2]);
                        if (i2 < 0 || i2 >= (i64)p.in[2]) continue;
                        acc += xp[((u64)i0 * p.in[1] + (u64)i1) * p.in[2] + (u64)i2] *
                               wp[(k0 * p.k[1] + k1) * p.k[2] + k2];
                    }
                }
            }
        }
        if (b) acc += b[co];
        if (p.clamp) {
            T lo = (T)p.lo, hi = (T)p.hi;
            if (acc < lo) acc = lo;
            else if (acc > hi) acc = hi;
        }
        y[t] = acc;
    }
}

struct PoolShape {
    u64 planes;
    u64 in[3], out[3], k[3], stride[3], dil[3], pad[3];
    int max;
    int count_include_pad;
    u64 divisor;  // 0: none
};

template <class T>
__device__ __forceinline__ void pool_windows(T* y, i64* idx, const T* x, const PoolShape& p) {
    u64 plane = p.out[0] * p.out[1] * p.out[2];
    u64 inplane = p.in[0] * p.in[1] * p.in[2];
    u64 n = p.planes * plane;
    for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += (u64)gridDim.x * blockDim.x) {
        u64 o[3] = {t / (p.out[2] * p.out[1]) % p.out[0], t / p.out[2] % p.out[1], t % p.out[2]};
        const T* xp = x + t / plane * inplane;
        i64 start[3], end[3];
        u64 padded = 1, inside = 1;
        for (int d = 0; d < 3; ++d) {
            start[d] = (i64)(o[d] * p.stride[d]) - (i64)p.pad[d];
            end[d] = start[d] + (i64)((p.k[d] - 1) * p.dil[d]) + 1;
            i64 hi = end[d] < (i64)(p.in[d] + p.pad[d]) ? end[d] : (i64)(p.in[d] + p.pad[d]);
            padded *= hi - start[d] > 0 ? (u64)(hi - start[d]) : 0;
            i64 s = start[d] > 0 ? start[d] : 0;
            i64 e = end[d] < (i64)p.in[d] ? end[d] : (i64)p.in[d];
            inside *= e - s > 0 ? (u64)(e - s) : 0;
        }
        T m = p.max ? -m_inf(T()) : (T)0;
        i64 arg = -1;
        for (u64 k0 = 0; k0 < p.k[0]; ++k0) {
            i64 i0 = start[0] + (i64)(k0 * p.dil[0]);
            if (i0 < 0 || i0 >= (i64)p.in[0]) continue;
            for (u64 k1 = 0; k1 < p.k[1]; ++k1) {
                i64 i1 = start[1] + (i64)(k1 * p.dil[1]);
                if (i1 < 0 || i1 >= (i64)p.in[1]) continue;
                for (u64 k2 = 0; k2 < p.k[2]; ++k2) {
                    i64 i2 = start[2] + (i64)(k2 * p.dil[2]);
                    if (i2 < 0 || i2 >= (i64)p.in[2]) continue;
                    i64 flat = (i0 * (i64)p.in[1] + i1) * (i64)p.in[2] + i2;
                    T v = xp[flat];
                    if (p.max) {
                        if (arg < 0) arg = flat;
                        if (v > m || m_isnan(v)) {
                            m = v;
                            arg = flat;
                        }
                    } else {
                        m += v;
                    }
                }
            }
        }
        if (p.max) {
            y[t] = m;
            if (idx) idx[t] = arg < 0 ? 0 : arg;
        } else {
            u64 div = p.divisor ? p.divisor : (p.count_include_pad ? padded : inside);
            y[t] = m / (T)div;
        }
    }
}

struct AffineShape {
    u64 n, channels, inner, per_item;
};

// `y = x·scale[c] + shift[c]` over a contiguous `[items, C, inner]`; with
// `per_item` the scale and shift are `[items, C]`.
template <class T>
__device__ __forceinline__ void affine(T* y, const T* x, const T* scale, const T* shift, const AffineShape& p) {
    for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < p.n; t += (u64)gridDim.x * blockDim.x) {
        u64 c = t / p.inner % p.channels;
        u64 s = p.per_item ? t / p.inner : c;
        y[t] = x[t] * scale[s] + shift[s];
    }
}

#define CNN(DT, T)                                                                                       \
    extern "C" __global__ void conv_direct_##DT(T* y, const T* x, const T* w, const T* b, ConvShape p) { \
        conv_direct<T>(y, x, w, b, p);                                                                   \
    }                                                                                                    \
    extern "C" __global__ void pool_##DT(T* y, i64* idx, const T* x, PoolShape p) { pool_windows<T>(y, idx, x, p); } \
    extern "C" __global__ void channel_affine_##DT(T* y, const T* x, const T* s, const T* h, AffineShape p) { \
        affine<T>(y, x, s, h, p);                                                                        \
    }
CNN(f32, float)
CNN(f64, double)
