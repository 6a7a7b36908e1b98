// Elementwise kernels over any strided layout, for the module's dtype (the
// input's): unary math, binary ops (an operand may be a scalar argument),
// comparisons and logical ops, and casts to every dtype. Each entry point is
// `<family>_<op>_<dtype>`, the op named as `axial_core` names it, so the host
// finds a kernel by name; integer ops and comparisons take the op's number
// as an argument instead (`<family>_<dtype>`). The names and numbers come
// from the op table through `ops.cuh`: a row of the table is a kernel here
// once its element functor `F_<name>` is written.
#include "math.cuh"

// --------------------------------------------------------------- drivers

// o[i] = f(a[i]).
template <class O, class A, class F>
__device__ __forceinline__ void map1(O* o, const A* a, const Walk<2>& w, F f) {
    for_each(w, [&](const i64 (&off)[2]) { o[off[0]] = f(a[off[1]]); });
}

// o[i] = f(a[i], b[i]); `a` or `b` is the scalar `s.bits` when flag bit 0
// or 1 is set.
template <class O, class T, class F>
__device__ __forceinline__ void map2(O* o, const T* a, const T* b, const Walk<3>& w, const Scalars& s, F f) {
    T v = scalar_of<T>(s);
    bool sa = (s.flags & 1) != 0, sb = (s.flags & 2) != 0;
    for_each(w, [&](const i64 (&off)[3]) {
        T x = sa ? v : a[off[1]];
        T y = sb ? v : b[off[2]];
        o[off[0]] = f(x, y);
    });
}

// Element functors lift a computation in the compute type to the storage type.
template <class T, class Op> struct Lift1 {
    Op op;
    __device__ __forceinline__ T operator()(T x) const { return Elem<T>::store(op(Elem<T>::load(x))); }
};
template <class T, class Op> struct Lift2 {
    Op op;
    __device__ __forceinline__ T operator()(T a, T b) const {
        return Elem<T>::store(op(Elem<T>::load(a), Elem<T>::load(b)));
    }
};

// ------------------------------------------------------------ unary ops

#define FLOAT_OP1(NAME, EXPR)                                                             \
    struct NAME {                                                                         \
        template <class C> __device__ __forceinline__ C operator()(C x) const { return EXPR; } \
    };
FLOAT_OP1(F_neg, -x)
FLOAT_OP1(F_abs, m_abs(x))
FLOAT_OP1(F_sqrt, m_sqrt(x))
FLOAT_OP1(F_rsqrt, (C)1 / m_sqrt(x))
FLOAT_OP1(F_exp, m_exp(x))
FLOAT_OP1(F_log, m_log(x))
FLOAT_OP1(F_log1p, m_log1p(x))
FLOAT_OP1(F_expm1, m_expm1(x))
FLOAT_OP1(F_sin, m_sin(x))
FLOAT_OP1(F_cos, m_cos(x))
FLOAT_OP1(F_tan, m_tan(x))
FLOAT_OP1(F_tanh, m_tanh(x))
FLOAT_OP1(F_sigmoid, (C)1 / ((C)1 + m_exp(-x)))
FLOAT_OP1(F_relu, x < (C)0 ? (C)0 : x)
FLOAT_OP1(F_gelu, x * (C)0.5 * ((C)1 + m_erf(x * (C)0.70710678118654752440)))
// PyTorch's gelu(approximate='tanh'): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
FLOAT_OP1(F_gelu_tanh, (C)0.5 * x * ((C)1 + m_tanh((C)0.79788456080286535588 * (x + (C)0.044715 * x * x * x))))
FLOAT_OP1(F_silu, x / ((C)1 + m_exp(-x)))
// PyTorch's softplus (beta 1, threshold 20): x itself above 20.
FLOAT_OP1(F_softplus, x > (C)20 ? x : m_log1p(m_exp(x)))
FLOAT_OP1(F_erf, m_erf(x))
FLOAT_OP1(F_floor, m_floor(x))
FLOAT_OP1(F_ceil, m_ceil(x))
FLOAT_OP1(F_round, m_rint(x))
FLOAT_OP1(F_trunc, m_trunc(x))
FLOAT_OP1(F_sign, f_sign(x))
FLOAT_OP1(F_reciprocal, (C)1 / x)
FLOAT_OP1(F_square, x * x)

#define UNARY_ENTRY(OPNAME, DT, T, BODY)                                                         \
    extern "C" __global__ void unary_##OPNAME##_##DT(T* o, const T* a, Walk<2> w, Scalars s) { \
        BODY;                                                                                    \
    }

// The float kernel of each unary op of the table without arguments.
#define FLOAT_UNARY1(OPNAME, DT, T) UNARY_ENTRY(OPNAME, DT, T, (map1(o, a, w, Lift1<T, F_##OPNAME>{F_##OPNAME{}})))
#define FLOAT_UNARY_DT(DT, T) AXIAL_FLOAT_UNARY(FLOAT_UNARY1, DT, T)
FLOAT_DTYPES(FLOAT_UNARY_DT)

// `x ** p`: the kind in `s.flags`, the exponent in `s.f[0]`.
template <class T> struct F_pow_scalar {
    u32 kind;
    double p;
    __device__ __forceinline__ T operator()(T x) const {
        return Elem<T>::store(f_pow_scalar<T>(Elem<T>::load(x), kind, p));
    }
};
// `clamp`: bounds in `s.f` (flag 1: a lower bound, 2: an upper bound),
// exactly representable in `T`.
template <class T> struct F_clamp {
    u32 flags;
    double lo, hi;
    __device__ __forceinline__ T operator()(T x) const {
        typedef typename Elem<T>::C C;
        C v = Elem<T>::load(x);
        if (flags & 1) v = max_of(v, (C)lo);
        if (flags & 2) v = min_of(v, (C)hi);
        return Elem<T>::store(v);
    }
};
#define FLOAT_ARG_UNARY(DT, T)                                                          \
    UNARY_ENTRY(pow, DT, T, (map1(o, a, w, F_pow_scalar<T>{s.flags, s.f[0]})))          \
    UNARY_ENTRY(clamp, DT, T, (map1(o, a, w, F_clamp<T>{s.flags, s.f[0], s.f[1]})))
FLOAT_DTYPES(FLOAT_ARG_UNARY)

// Integer unary ops, one kernel per dtype (floor and the like are the
// identity, resolved on the host to a copy).
template <class T> struct I_unary {
    int op;
    i64 i0, i1;
    u32 flags;
    __device__ __forceinline__ T operator()(T x) const {
        switch (op) {
            case AXIAL_UNARY_NEG: return w_neg(x);
            case AXIAL_UNARY_ABS: return w_abs(x);
            case AXIAL_UNARY_RELU: return x < (T)0 ? (T)0 : x;
            case AXIAL_UNARY_SIGN: return i_sign(x);
            case AXIAL_UNARY_SQUARE: return w_mul(x, x);
            case AXIAL_UNARY_POW: return i_pow(x, (u64)i0);
            default: {
                T v = x;
                if (flags & 1) v = max_of(v, (T)i0);
                if (flags & 2) v = min_of(v, (T)i1);
                return v;
            }
        }
    }
};
// The op is `s.flags >> 8`, an `AXIAL_UNARY_<NAME>`: neg, abs, relu, sign,
// square, pow (exponent `s.i[0]`) or clamp (bounds `s.i`, flags 1 and 2 as
// for floats).
#define INT_UNARY_DT(DT, T)                                                                           \
    UNARY_ENTRY(int, DT, T, (map1(o, a, w, I_unary<T>{(int)(s.flags >> 8), s.i[0], s.i[1], s.flags})))
INT_DTYPES(INT_UNARY_DT)

// `!x` into bool, for every dtype.
template <class T> struct NotZero {
    __device__ __forceinline__ bool_t operator()(T x) const { return Elem<bool_t>::store(!Elem<T>::nonzero(x)); }
};
#define LOGICAL_NOT(DT, T)                                                                                \
    extern "C" __global__ void unary_logical_not_##DT(bool_t* o, const T* a, Walk<2> w, Scalars s) {   \
        map1(o, a, w, NotZero<T>{});                                                                      \
    }

// ------------------------------------------------------------ binary ops

// Binary functors take the element type `E` (floor division rounds to it).
#define FLOAT_OP2(NAME, EXPR)                                                                      \
    template <class E> struct NAME {                                                               \
        template <class C> __device__ __forceinline__ C operator()(C a, C b) const { return EXPR; } \
    };
FLOAT_OP2(F_add, a + b)
FLOAT_OP2(F_sub, a - b)
FLOAT_OP2(F_mul, a * b)
FLOAT_OP2(F_div, a / b)
FLOAT_OP2(F_remainder, f_remainder(a, b))
FLOAT_OP2(F_pow, m_pow(a, b))
FLOAT_OP2(F_maximum, f_maximum(a, b))
FLOAT_OP2(F_minimum, f_minimum(a, b))
FLOAT_OP2(F_atan2, m_atan2(a, b))
// Floor division rounds to the element type `E` at each step.
template <class E> struct F_floor_divide {
    template <class C> __device__ __forceinline__ C operator()(C a, C b) const { return f_floor_divide<E>(a, b); }
};

#define BINARY_ENTRY(OPNAME, DT, O, T, F)                                                                   \
    extern "C" __global__ void binary_##OPNAME##_##DT(O* o, const T* a, const T* b, Walk<3> w, Scalars s) { \
        map2(o, a, b, w, s, F);                                                                             \
    }

// The float kernel of each binary op of the table but the logical ones.
#define FLOAT_BINARY1(OPNAME, DT, T) BINARY_ENTRY(OPNAME, DT, T, T, (Lift2<T, F_##OPNAME<T> >{}))
#define FLOAT_BINARY_DT(DT, T) AXIAL_FLOAT_BINARY(FLOAT_BINARY1, DT, T)
FLOAT_DTYPES(FLOAT_BINARY_DT)

template <class T> struct I_binary {
    int op;
    __device__ __forceinline__ T operator()(T a, T b) const {
        switch (op) {
            case AXIAL_BINARY_ADD: return w_add(a, b);
            case AXIAL_BINARY_SUB: return w_sub(a, b);
            case AXIAL_BINARY_MUL: return w_mul(a, b);
            case AXIAL_BINARY_MAXIMUM: return a < b ? b : a;
            case AXIAL_BINARY_MINIMUM: return b < a ? b : a;
            case AXIAL_BINARY_REMAINDER: return i_remainder(a, b);
            case AXIAL_BINARY_FLOOR_DIVIDE: return i_floor_divide(a, b);
            default: return i_pow(a, (u64)b);
        }
    }
};
// The op is `s.flags >> 8`, an `AXIAL_BINARY_<NAME>`: add, sub, mul,
// maximum, minimum, remainder, floor_divide or pow.
#define INT_BINARY_DT(DT, T) BINARY_ENTRY(int, DT, T, T, (I_binary<T>{(int)(s.flags >> 8)}))
INT_DTYPES(INT_BINARY_DT)

// `a && b`, `a || b` into bool, for every dtype (bool `+ * max min` resolve
// to these on the host).
template <class T> struct Logical {
    bool and_;
    __device__ __forceinline__ bool_t operator()(T a, T b) const {
        bool x = Elem<T>::nonzero(a), y = Elem<T>::nonzero(b);
        return Elem<bool_t>::store(and_ ? (x && y) : (x || y));
    }
};

// Comparisons into bool: f16 and bf16 compare as f32, bool as false < true.
template <class T> struct Compare {
    int op;
    __device__ __forceinline__ bool_t operator()(T a, T b) const {
        typename Elem<T>::C x = Elem<T>::load(a), y = Elem<T>::load(b);
        bool r = false;
        switch (op) {
#define CMP_CASE(CODE, OP) \
    case CODE: r = x OP y; break;
            AXIAL_COMPARE(CMP_CASE)
#undef CMP_CASE
        }
        return Elem<bool_t>::store(r);
    }
};
// The op is `s.flags >> 8`, an `AXIAL_CMP_<NAME>` (each with its operator
// in `AXIAL_COMPARE`).
#define CMP_ENTRY(DT, T)                                                                          \
    extern "C" __global__ void compare_##DT(bool_t* o, const T* a, const T* b, Walk<3> w, Scalars s) { \
        map2(o, a, b, w, s, Compare<T>{(int)(s.flags >> 8)});                                    \
    }

// Sets `*found` when an element of `b` breaks the rule in `s.flags`
// (`AXIAL_RHS_NONZERO`: it is 0, `AXIAL_RHS_NONNEGATIVE`: it is negative):
// the host refuses integer `%`, `//` and `**` before anything is written.
// Threads that find one set the flag through an atomic: plain stores of one
// address by several threads race.
#define RHS_CHECK(DT, T)                                                                          \
    extern "C" __global__ void check_rhs_##DT(u32* found, const T* b, Walk<1> w, Scalars s) {    \
        for_each(w, [&](const i64 (&off)[1]) {                                                    \
            T v = b[off[0]];                                                               \
            if (((s.flags & AXIAL_RHS_NONZERO) && v == (T)0) || ((s.flags & AXIAL_RHS_NONNEGATIVE) && v < (T)0)) atomicOr(found, 1u); \
        });                                                                                       \
    }
INT_DTYPES(RHS_CHECK)

// ------------------------------------------------------------------ casts

template <class S, class T> struct Cast {
    __device__ __forceinline__ T operator()(S x) const { return cast<S, T>(x); }
};
#define CAST_ENTRY(SN, S, TN, T)                                                       \
    extern "C" __global__ void cast_##SN##_##TN(T* o, const S* a, Walk<2> w) {         \
        map1(o, a, w, Cast<S, T>{});                                                   \
    }
#define CASTS_FROM(SN, S)                \
    CAST_ENTRY(SN, S, bool, bool_t)      \
    CAST_ENTRY(SN, S, u8, unsigned char) \
    CAST_ENTRY(SN, S, i8, signed char)   \
    CAST_ENTRY(SN, S, i16, short)        \
    CAST_ENTRY(SN, S, i32, int)          \
    CAST_ENTRY(SN, S, i64, i64)          \
    CAST_ENTRY(SN, S, f16, f16_t)        \
    CAST_ENTRY(SN, S, bf16, bf16_t)      \
    CAST_ENTRY(SN, S, f32, float)        \
    CAST_ENTRY(SN, S, f64, double)

// The ops every dtype has: logical ones, comparisons, and casts to every dtype.
#define EVERY_DTYPE(DT, T)                                            \
    LOGICAL_NOT(DT, T)                                                \
    BINARY_ENTRY(logical_and, DT, bool_t, T, (Logical<T>{true}))      \
    BINARY_ENTRY(logical_or, DT, bool_t, T, (Logical<T>{false}))      \
    CMP_ENTRY(DT, T)                                                  \
    CASTS_FROM(DT, T)
ALL_DTYPES(EVERY_DTYPE)
