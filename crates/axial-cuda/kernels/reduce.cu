// Reductions over any set of dims of any layout (`axial_core::plan::ReducePlan`),
// for the module's dtype (the input's), with the CPU device's accumulators:
// floats in their compute float (f64 for variance), integers and bool in
// i64, NaN propagating through max and min, the first index winning ties.
//
// A block reduces `blockDim.y` outputs along `threadIdx.x` when the reduced
// dim is the source's fast one (`along_x`), else `blockDim.x` outputs along
// `threadIdx.y`; the lanes of an output combine in shared memory. When there
// are few outputs, `gridDim.y` splits each reduction, the splits write
// partial results, and `reduce_<op>_<dt>_finish` combines them in order.
#include "math.cuh"

struct Reduction {
    Walk<2> kept;  // the outputs: source and output strides
    Walk<1> red;   // the reduced elements of one output: source strides
    u64 split;     // reduced elements per split
    int along_x;
    int pad;
    double correction;
};

// The reduction's parameters, staged to shared memory.
__device__ __forceinline__ const Reduction* stage_reduction(const Reduction& src) {
    __shared__ u64 smem[(sizeof(Reduction) + 7) / 8];
    const u64* s = reinterpret_cast<const u64*>(&src);
#pragma unroll 1
    for (int k = threadIdx.y * blockDim.x + threadIdx.x; k < (int)(sizeof(Reduction) / 8);
         k += blockDim.x * blockDim.y)
        smem[k] = s[k];
    __syncthreads();
    return reinterpret_cast<const Reduction*>(smem);
}

// The offsets of element `i` of a walk: one dim without index math.
template <int N> __device__ __forceinline__ Offs<N> at(const Walk<N>* w, u64 i) {
    if (w->ndim <= 1) {
        Offs<N> o;
#pragma unroll
        for (int k = 0; k < N; ++k) o.v[k] = w->ndim == 0 ? 0 : (i64)i * w->strides[k][0];
        return o;
    }
    return offsets_of<N>(w, i);
}

// The widened value of each element type: floats in their compute float,
// integers and bool in i64.
template <class T> struct Wide {
    typedef typename Elem<T>::C W;
    static __device__ __forceinline__ W of(T x) { return Elem<T>::load(x); }
    static __device__ __forceinline__ T narrow(W w) { return Elem<T>::store(w); }
    static __device__ __forceinline__ W lowest() { return -m_inf(W()); }
    static __device__ __forceinline__ W highest() { return m_inf(W()); }
    static __device__ __forceinline__ bool isnan(W w) { return m_isnan(w); }
};
#define INT_WIDE(T)                                                                    \
    template <> struct Wide<T> {                                                       \
        typedef i64 W;                                                                 \
        static __device__ __forceinline__ W of(T x) { return Elem<T>::to_i64(x); }     \
        static __device__ __forceinline__ T narrow(W w) { return Elem<T>::from_i64(w); } \
        static __device__ __forceinline__ W lowest() { return (i64)0x8000000000000000ull; } \
        static __device__ __forceinline__ W highest() { return 0x7fffffffffffffffll; } \
        static __device__ __forceinline__ bool isnan(W) { return false; }              \
    };
INT_WIDE(bool_t)
INT_WIDE(unsigned char)
INT_WIDE(signed char)
INT_WIDE(short)
INT_WIDE(int)
INT_WIDE(i64)

// The output of a sum or product: the element type for floats, i64 otherwise.
template <class T> struct SumOut { typedef T O; };
#define SUM_TO_I64(T) \
    template <> struct SumOut<T> { typedef i64 O; };
SUM_TO_I64(bool_t)
SUM_TO_I64(unsigned char)
SUM_TO_I64(signed char)
SUM_TO_I64(short)
SUM_TO_I64(int)

template <class W> __device__ __forceinline__ W add_w(W a, W b) { return a + b; }
template <> __device__ __forceinline__ i64 add_w(i64 a, i64 b) { return w_add(a, b); }
template <class W> __device__ __forceinline__ W mul_w(W a, W b) { return a * b; }
template <> __device__ __forceinline__ i64 mul_w(i64 a, i64 b) { return w_mul(a, b); }

template <class T> __device__ __forceinline__ typename SumOut<T>::O sum_out(typename Wide<T>::W w) {
    return Elem<typename SumOut<T>::O>::from_i64(w);
}
template <> __device__ __forceinline__ float sum_out<float>(float w) { return w; }
template <> __device__ __forceinline__ double sum_out<double>(double w) { return w; }
template <> __device__ __forceinline__ f16_t sum_out<f16_t>(float w) { return Elem<f16_t>::store(w); }
template <> __device__ __forceinline__ bf16_t sum_out<bf16_t>(float w) { return Elem<bf16_t>::store(w); }

// ---------------------------------------------------------------- reducers
// Each: `Acc identity()`, `Acc step(Acc, T, u64 index)`, `Acc combine(Acc a,
// Acc b)` (a covers earlier positions), `Out finish(Acc, u64 count)`.

// `sum` (PROD false) or `prod`: floats in their compute float, integers
// and bool in wrapping i64.
template <class T, bool PROD> struct R_fold {
    typedef T In;
    typedef typename Wide<T>::W Acc;
    typedef typename SumOut<T>::O Out;
    double correction;
    __device__ Acc identity() const { return PROD ? (Acc)1 : (Acc)0; }
    __device__ Acc combine(Acc a, Acc b) const { return PROD ? mul_w(a, b) : add_w(a, b); }
    __device__ Acc step(Acc a, T x, u64) const { return combine(a, Wide<T>::of(x)); }
    __device__ Out finish(Acc a, u64) const { return sum_out<T>(a); }
};
// PyTorch divides the f32 (f64) sum, then rounds once to f16/bf16.
template <class T> struct R_mean {
    typedef T In;
    typedef typename Wide<T>::W Acc;
    typedef T Out;
    double correction;
    __device__ Acc identity() const { return (Acc)0; }
    __device__ Acc step(Acc a, T x, u64) const { return a + Wide<T>::of(x); }
    __device__ Acc combine(Acc a, Acc b) const { return a + b; }
    __device__ Out finish(Acc a, u64 n) const { return Wide<T>::narrow(a / (Acc)n); }
};
// `b` replaces `a` as the running max (min): beyond it, or NaN (which stays).
template <class W> __device__ __forceinline__ bool takes(bool max, W a, W b) {
    return (max ? b > a : b < a) || m_isnan(b);
}
template <> __device__ __forceinline__ bool takes(bool max, i64 a, i64 b) { return max ? b > a : b < a; }
template <class T, bool MAX> struct R_ext {
    typedef T In;
    typedef typename Wide<T>::W Acc;
    typedef T Out;
    double correction;
    __device__ Acc identity() const { return MAX ? Wide<T>::lowest() : Wide<T>::highest(); }
    __device__ Acc combine(Acc a, Acc b) const { return takes(MAX, a, b) ? b : a; }
    __device__ Acc step(Acc a, T x, u64) const { return combine(a, Wide<T>::of(x)); }
    __device__ Out finish(Acc a, u64) const { return Wide<T>::narrow(a); }
};
// `all` (ALL) or `any`: a non-zero test (NaN counts), written as 0/1 in `O`.
template <class T, class O, bool ALL> struct R_truth {
    typedef T In;
    typedef bool Acc;
    typedef O Out;
    double correction;
    __device__ Acc identity() const { return ALL; }
    __device__ Acc combine(Acc a, Acc b) const { return ALL ? (a && b) : (a || b); }
    __device__ Acc step(Acc a, T x, u64) const { return combine(a, Elem<T>::nonzero(x)); }
    __device__ Out finish(Acc a, u64) const { return Elem<O>::from_i64(a ? 1 : 0); }
};
// Welford's count, mean and sum of squared deviations, in f64 as PyTorch's
// CPU kernel keeps them for every float dtype.
struct Welford {
    double count, mean, m2;
};
template <class T, bool SQRT> struct R_moments {
    typedef T In;
    typedef Welford Acc;
    typedef T Out;
    double correction;
    __device__ Acc identity() const { return Welford{0.0, 0.0, 0.0}; }
    __device__ Acc step(Acc a, T x, u64) const {
        double v = Elem<T>::to_f64(x);
        double count = a.count + 1.0;
        double delta = v - a.mean;
        double mean = a.mean + delta / count;
        return Welford{count, mean, a.m2 + delta * (v - mean)};
    }
    __device__ Acc combine(Acc a, Acc b) const {
        if (a.count == 0.0) return b;
        if (b.count == 0.0) return a;
        double count = a.count + b.count;
        double delta = b.mean - a.mean;
        double share = b.count / count;
        return Welford{count, a.mean + delta * share, a.m2 + b.m2 + delta * delta * a.count * share};
    }
    __device__ Out finish(Acc a, u64) const {
        // A divisor that would be <= 0 is 0, so m2/0 is inf or NaN.
        double divisor = a.count - correction;
        if (!(divisor > 0.0)) divisor = 0.0;
        double var = a.m2 / divisor;
        return Elem<T>::from_f64(SQRT ? sqrt(var) : var);
    }
};
// `argmax` (MAX) or `argmin`: the first index of the extremum, or of the
// first NaN; index -1 while nothing was seen. A 4-byte value (f32, the
// compute type of f16 and bf16) sits beside explicit padding written as 0,
// so that copying the accumulator whole (through shared memory, into a
// split's partial results) reads no byte that was never written.
template <class W, bool NARROW = (sizeof(W) < sizeof(i64))> struct Best {
    W value;
    i64 index;
    static __device__ __forceinline__ Best of(W v, i64 i) { return Best{v, i}; }
};
template <class W> struct Best<W, true> {
    W value;
    u32 pad;
    i64 index;
    static __device__ __forceinline__ Best of(W v, i64 i) { return Best{v, 0u, i}; }
};
template <class T, bool MAX> struct R_arg {
    typedef T In;
    typedef Best<typename Wide<T>::W> Acc;
    typedef i64 Out;
    double correction;
    // `b` beats `a` strictly: a NaN beats any number, nothing beats a NaN.
    __device__ bool beats(typename Wide<T>::W a, typename Wide<T>::W b) const {
        return !Wide<T>::isnan(a) && takes(MAX, a, b);
    }
    __device__ Acc identity() const { return Acc::of((typename Wide<T>::W)0, -1); }
    __device__ Acc step(Acc a, T x, u64 i) const {
        typename Wide<T>::W v = Wide<T>::of(x);
        if (a.index < 0 || beats(a.value, v)) return Acc::of(v, (i64)i);
        return a;
    }
    __device__ Acc combine(Acc a, Acc b) const {
        if (b.index < 0) return a;
        if (a.index < 0 || beats(a.value, b.value)) return b;
        bool tie = a.value == b.value || (Wide<T>::isnan(a.value) && Wide<T>::isnan(b.value));
        return (tie && b.index < a.index) ? b : a;
    }
    __device__ Out finish(Acc a, u64) const { return a.index; }
};

// One name per reducer, for the entry-point macros.
template <class T> using R_sum = R_fold<T, false>;
template <class T> using R_prod = R_fold<T, true>;
template <class T> using R_amax = R_ext<T, true>;
template <class T> using R_amin = R_ext<T, false>;
template <class T> using R_argmax = R_arg<T, true>;
template <class T> using R_argmin = R_arg<T, false>;
template <class T> using R_all = R_truth<T, bool_t, true>;
template <class T> using R_any = R_truth<T, bool_t, false>;
template <class T> using R_all_u8 = R_truth<T, unsigned char, true>;
template <class T> using R_any_u8 = R_truth<T, unsigned char, false>;
template <class T> using R_var = R_moments<T, false>;
template <class T> using R_std = R_moments<T, true>;

// ----------------------------------------------------------------- drivers

template <class R>
__device__ __forceinline__ void reduce_into(typename R::Out* o, const typename R::In* a, const Reduction& p,
                                            typename R::Acc* partial, R r) {
    typedef typename R::Acc Acc;
    const Reduction* q = stage_reduction(p);
    bool along_x = q->along_x != 0;
    u64 out = along_x ? (u64)blockIdx.x * blockDim.y + threadIdx.y : (u64)blockIdx.x * blockDim.x + threadIdx.x;
    u32 lane = along_x ? threadIdx.x : threadIdx.y;
    u32 lanes = along_x ? blockDim.x : blockDim.y;
    u64 count = q->red.numel;
    u64 begin = (u64)blockIdx.y * q->split;
    u64 end = begin + q->split < count ? begin + q->split : count;
    Acc acc = r.identity();
    Offs<2> kept = {{0, 0}};
    bool live = out < q->kept.numel;
    if (live) {
        kept = at<2>(&q->kept, out);
        for (u64 j = begin + lane; j < end; j += lanes) acc = r.step(acc, a[kept.v[0] + at<1>(&q->red, j).v[0]], j);
    }
    extern __shared__ __align__(16) unsigned char dyn_smem[];
    Acc* sm = reinterpret_cast<Acc*>(dyn_smem);
    u32 t = threadIdx.y * blockDim.x + threadIdx.x;
    u32 apart = along_x ? 1 : blockDim.x;
    sm[t] = acc;
    __syncthreads();
    for (u32 s = lanes / 2; s > 0; s >>= 1) {
        if (lane < s) sm[t] = r.combine(sm[t], sm[t + s * apart]);
        __syncthreads();
    }
    if (lane == 0 && live) {
        if (gridDim.y == 1)
            o[kept.v[1]] = r.finish(sm[t], count);
        else
            partial[out * gridDim.y + blockIdx.y] = sm[t];
    }
}

// Combines the `splits` partial results of each output, in order.
template <class R>
__device__ __forceinline__ void finish_into(typename R::Out* o, const typename R::Acc* partial, const Reduction& p,
                                            u32 splits, R r) {
    const Reduction* q = stage_reduction(p);
    u64 out = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (out >= q->kept.numel) return;
    typename R::Acc acc = partial[out * splits];
    for (u32 s = 1; s < splits; ++s) acc = r.combine(acc, partial[out * splits + s]);
    o[at<2>(&q->kept, out).v[1]] = r.finish(acc, q->red.numel);
}

#define REDUCE_ENTRY(OPNAME, DT, R)                                                                          \
    extern "C" __global__ void reduce_##OPNAME##_##DT(R::Out* o, const R::In* a, Reduction p, R::Acc* partial) { \
        reduce_into<R>(o, a, p, partial, R{p.correction});                                                   \
    }                                                                                                        \
    extern "C" __global__ void reduce_##OPNAME##_##DT##_finish(R::Out* o, const R::Acc* partial, Reduction p,  \
                                                               u32 splits) {                                 \
        finish_into<R>(o, partial, p, splits, R{p.correction});                                              \
    }

#define EVERY_REDUCE(DT, T)             \
    REDUCE_ENTRY(sum, DT, R_sum<T>)     \
    REDUCE_ENTRY(prod, DT, R_prod<T>)   \
    REDUCE_ENTRY(amax, DT, R_amax<T>)   \
    REDUCE_ENTRY(amin, DT, R_amin<T>)   \
    REDUCE_ENTRY(argmax, DT, R_argmax<T>) \
    REDUCE_ENTRY(argmin, DT, R_argmin<T>) \
    REDUCE_ENTRY(all, DT, R_all<T>)     \
    REDUCE_ENTRY(any, DT, R_any<T>)
#define FLOAT_REDUCE(DT, T)             \
    REDUCE_ENTRY(mean, DT, R_mean<T>)   \
    REDUCE_ENTRY(var, DT, R_var<T>)     \
    REDUCE_ENTRY(std, DT, R_std<T>)
ALL_DTYPES(EVERY_REDUCE)
FLOAT_DTYPES(FLOAT_REDUCE)
// `all` and `any` of u8 are written as u8.
ON_u8(REDUCE_ENTRY(all_u8out, u8, R_all_u8<unsigned char>))
ON_u8(REDUCE_ENTRY(any_u8out, u8, R_any_u8<unsigned char>))
