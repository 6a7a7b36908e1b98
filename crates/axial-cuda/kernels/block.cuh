// Block-wide reductions and scans over one-dimensional blocks whose size is
// a multiple of 32: warp shuffles, then one value per warp in shared memory.
#pragma once
#include "common.cuh"

// Shared memory for one value per warp (up to 32 warps of 8-byte values).
__shared__ u64 block_smem[32];

// `op` folded over the block's `v`, identity `id`; every thread gets the
// result. Safe to call repeatedly (it synchronises before reusing memory).
template <class C, class Op> __device__ __forceinline__ C block_reduce(C v, Op op, C id) {
    C* sm = reinterpret_cast<C*>(block_smem);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_down_sync(0xffffffffu, v, o));
    u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    __syncthreads();
    if (lane == 0) sm[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < warps ? sm[lane] : id;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_down_sync(0xffffffffu, v, o));
        if (lane == 0) sm[0] = v;
    }
    __syncthreads();
    return sm[0];
}

// The block's inclusive prefix sums of `v` (in thread order), and in
// `total` the sum of all of them.
template <class C> __device__ __forceinline__ C block_scan(C v, C& total) {
    C* sm = reinterpret_cast<C*>(block_smem);
    u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        C u = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= (u32)o) v = v + u;
    }
    __syncthreads();
    if (lane == 31) sm[warp] = v;
    __syncthreads();
    if (warp == 0) {
        C w = lane < warps ? sm[lane] : (C)0;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            C u = __shfl_up_sync(0xffffffffu, w, o);
            if (lane >= (u32)o) w = w + u;
        }
        if (lane < warps) sm[lane] = w;
    }
    __syncthreads();
    if (warp > 0) v = v + sm[warp - 1];
    total = sm[warps - 1];
    return v;
}
