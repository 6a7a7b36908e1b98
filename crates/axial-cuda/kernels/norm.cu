// `softmax`, `log_softmax` and `layer_norm` of contiguous operands, for f32,
// f64, f16 and bf16 (one module): f16, bf16 and f32 computed in f32, f64 in
// f64, as PyTorch's CUDA kernels accumulate.
//
// Softmax sees its tensor as `[outer, len, inner]`, reduced over `len`.
// With `inner == 1` each slice is a unit-stride row and a block takes one
// row at a time (`softmax_rows_*`): a pass for the maximum, one for the sum
// of `exp(x − max)`, one that writes, each a block-wide reduction. Else a
// thread takes one slice (`softmax_cols_*`), adjacent threads adjacent
// slices, so every read along `len` is coalesced.
//
// Layer norm takes one row per block: the mean, then the biased variance
// from the deviations (two passes, so a large mean does not cancel the
// variance), `1/√(var + eps)` in f64, then `(x − mean)·rstd·w + b`.
#include "block.cuh"
#include "math.cuh"

struct SoftmaxShape {
    u64 outer, len, inner;
    int log;
    int pad;
};

// The running maximum with NaN winning, as the CPU device's.
template <class C> __device__ __forceinline__ C nan_max(C a, C b) { return (m_isnan(a) || a > b) ? a : b; }

template <class T> __device__ __forceinline__ void softmax_rows(T* o, const T* a, const SoftmaxShape& p) {
    typedef typename Elem<T>::C C;
    C inf = m_inf(C());
    for (u64 r = blockIdx.x; r < p.outer; r += gridDim.x) {
        const T* x = a + r * p.len;
        T* y = o + r * p.len;
        C m = -inf;
        for (u64 j = threadIdx.x; j < p.len; j += blockDim.x) m = nan_max(m, Elem<T>::load(x[j]));
        m = block_reduce(m, [](C u, C v) { return nan_max(u, v); }, -inf);
        C s = 0;
        for (u64 j = threadIdx.x; j < p.len; j += blockDim.x) s += m_exp(Elem<T>::load(x[j]) - m);
        s = block_reduce(s, [](C u, C v) { return u + v; }, (C)0);
        if (p.log) {
            C shift = m + m_log(s);
            for (u64 j = threadIdx.x; j < p.len; j += blockDim.x) y[j] = Elem<T>::store(Elem<T>::load(x[j]) - shift);
        } else {
            C inv = (C)1 / s;
            for (u64 j = threadIdx.x; j < p.len; j += blockDim.x)
                y[j] = Elem<T>::store(m_exp(Elem<T>::load(x[j]) - m) * inv);
        }
    }
}

template <class T> __device__ __forceinline__ void softmax_cols(T* o, const T* a, const SoftmaxShape& p) {
    typedef typename Elem<T>::C C;
    C inf = m_inf(C());
    u64 slices = p.outer * p.inner;
    for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < slices; t += (u64)gridDim.x * blockDim.x) {
        u64 q = t / p.inner;
        u64 at = q * p.len * p.inner + (t - q * p.inner);
        const T* x = a + at;
        T* y = o + at;
        C m = -inf;
        for (u64 j = 0; j < p.len; ++j) m = nan_max(m, Elem<T>::load(x[j * p.inner]));
        C s = 0;
        for (u64 j = 0; j < p.len; ++j) s += m_exp(Elem<T>::load(x[j * p.inner]) - m);
        if (p.log) {
            C shift = m + m_log(s);
            for (u64 j = 0; j < p.len; ++j) y[j * p.inner] = Elem<T>::store(Elem<T>::load(x[j * p.inner]) - shift);
        } else {
            C inv = (C)1 / s;
            for (u64 j = 0; j < p.len; ++j)
                y[j * p.inner] = Elem<T>::store(m_exp(Elem<T>::load(x[j * p.inner]) - m) * inv);
        }
    }
}

struct NormShape {
    u64 rows, n;
    double eps;
};

// `w` and `b` are null when absent.
template <class T>
__device__ __forceinline__ void layer_norm_rows(T* o, const T* a, const T* w, const T* b, const NormShape& p) {
    typedef typename Elem<T>::C C;
    auto add = [](C u, C v) { return u + v; };
    for (u64 r = blockIdx.x; r < p.rows; r += gridDim.x) {
        const T* x = a + r * p.n;
        T* y = o + r * p.n;
        C s = 0;
        for (u64 j = threadIdx.x; j < p.n; j += blockDim.x) s += Elem<T>::load(x[j]);
        C mean = block_reduce(s, add, (C)0) / (C)p.n;
        C q = 0;
        for (u64 j = threadIdx.x; j < p.n; j += blockDim.x) {
            C d = Elem<T>::load(x[j]) - mean;
            q += d * d;
        }
        C var = block_reduce(q, add, (C)0) / (C)p.n;
        C rstd = (C)(1.0 / sqrt((double)var + p.eps));
        for (u64 j = threadIdx.x; j < p.n; j += blockDim.x) {
            C z = (Elem<T>::load(x[j]) - mean) * rstd;
            if (w) z = z * Elem<T>::load(w[j]);
            if (b) z = z + Elem<T>::load(b[j]);
            y[j] = Elem<T>::store(z);
        }
    }
}

#define NORM(DT, T)                                                                                      \
    extern "C" __global__ void softmax_rows_##DT(T* o, const T* a, SoftmaxShape p) { softmax_rows<T>(o, a, p); } \
    extern "C" __global__ void softmax_cols_##DT(T* o, const T* a, SoftmaxShape p) { softmax_cols<T>(o, a, p); } \
    extern "C" __global__ void layer_norm_##DT(T* o, const T* a, const T* w, const T* b, NormShape p) {       \
        layer_norm_rows<T>(o, a, w, b, p);                                                               \
    }
NORM(f32, float)
NORM(f64, double)
NORM(f16, f16_t)
NORM(bf16, bf16_t)
