// Reads by index, by element size whatever the dtype (one module):
// `gather_bN` serves both `index_select` and `gather`, and `index_check`
// flags an index out of range before either runs.
#include "common.cuh"

// Sets `*bad` when an element of `idx` is outside `0..size`.
extern "C" __global__ void index_check(u32* bad, const i64* idx, Walk<1> w, i64 size) {
    for_each(w, [&](const i64 (&off)[1]) {
        i64 v = idx[off[0]];
        if (v < 0 || v >= size) atomicOr(bad, 1u);
    });
}

// `o[off0] = a[off1 + idx[off2] · step]` over a walk of the output's shape:
// operand 1 is the source with the indexed dim's stride zeroed, operand 2
// the index, broadcast over the other dims (`index_select`) or of the
// output's shape (`gather`). The indices were checked.
#define GATHER(N, B)                                                                            \
    extern "C" __global__ void gather_b##N(i64 step, B* o, const B* a, const i64* idx, Walk<3> w) { \
        for_each(w, [&](const i64 (&off)[3]) { o[off[0]] = a[off[1] + idx[off[2]] * step]; });     \
    }
GATHER(1, b1)
GATHER(2, b2)
GATHER(4, b4)
GATHER(8, b8)
