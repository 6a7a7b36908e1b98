// Kernels that move bits, by element size (1, 2, 4 or 8 bytes) whatever the
// dtype: `where`, fill, the copy between layouts of one dtype, and the tiled
// transposed copy.
#include "common.cuh"

// `o = c ? a : b`.
#define WHERE(N, B)                                                                                         \
    extern "C" __global__ void where_b##N(B* o, const bool_t* c, const B* a, const B* b, Walk<4> w) {     \
        for_each(w, [&](const i64 (&off)[4]) { o[off[0]] = c[off[1]].bits != 0 ? a[off[2]] : b[off[3]]; }); \
    }
// Every element the value `s.bits`.
#define FILL(N, B)                                                                \
    extern "C" __global__ void fill_b##N(B* o, Walk<1> w, Scalars s) {           \
        B v = scalar_of<B>(s);                                                    \
        for_each(w, [&](const i64 (&off)[1]) { o[off[0]] = v; });                 \
    }
// `o = a` between any two layouts.
#define MOVE(N, B)                                                                   \
    extern "C" __global__ void copy_b##N(B* o, const B* a, Walk<2> w) {              \
        for_each(w, [&](const i64 (&off)[2]) { o[off[0]] = a[off[1]]; });            \
    }

// A transposed copy: the output unit-stride along `cols`, the input
// unit-stride (or nearly) along `rows`. A block copies 32×32 tiles through
// shared memory, so both sides are read and written along their fast dim;
// `grid.z` walks the outer dims (`outer`, two operands).
struct Tiles {
    u64 rows, cols;
    i64 out_row, in_row, in_col;
    Walk<2> outer;
};
#define TILE 32
#define TRANSPOSE(N, B)                                                                           \
    extern "C" __global__ void transpose_b##N(B* o, const B* a, Tiles t) {                        \
        __shared__ B tile[TILE][TILE + 1];                                                        \
        const Walk<2>* ow = stage(t.outer);                                                       \
        u64 tiles_c = (t.cols + TILE - 1) / TILE;                                                 \
        u64 tiles_r = (t.rows + TILE - 1) / TILE;                                                 \
        for (u64 z = blockIdx.z; z < ow->numel; z += gridDim.z) {                                 \
            Offs<2> base = offsets_of<2>(ow, z);                                                  \
            for (u64 tr = blockIdx.y; tr < tiles_r; tr += gridDim.y) {                            \
                for (u64 tc = blockIdx.x; tc < tiles_c; tc += gridDim.x) {                        \
                    u64 r0 = tr * TILE, c0 = tc * TILE;                                           \
                    /* read: threadIdx.x along rows, the input's fast dim */                      \
                    for (int j = threadIdx.y; j < TILE; j += blockDim.y) {                        \
                        u64 r = r0 + threadIdx.x, c = c0 + j;                                     \
                        if (r < t.rows && c < t.cols)                                             \
                            tile[j][threadIdx.x] = a[base.v[1] + (i64)r * t.in_row + (i64)c * t.in_col]; \
                    }                                                                             \
                    __syncthreads();                                                              \
                    /* write: threadIdx.x along cols, the output's fast dim */                    \
                    for (int j = threadIdx.y; j < TILE; j += blockDim.y) {                        \
                        u64 r = r0 + j, c = c0 + threadIdx.x;                                     \
                        if (r < t.rows && c < t.cols)                                             \
                            o[base.v[0] + (i64)r * t.out_row + (i64)c] = tile[threadIdx.x][j];    \
                    }                                                                             \
                    __syncthreads();                                                              \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }

#define BY_SIZE(N, B) WHERE(N, B) FILL(N, B) MOVE(N, B) TRANSPOSE(N, B)
BY_SIZE(1, b1)
BY_SIZE(2, b2)
BY_SIZE(4, b4)
BY_SIZE(8, b8)
