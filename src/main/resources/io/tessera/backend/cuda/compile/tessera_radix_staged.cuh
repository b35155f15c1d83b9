// tessera_radix_staged.cuh: onesweep passes of the LSD radix sort (tessera_sort.cuh) whose row numbers never wait
// in registers. Beside tessera_radix_onesweep_* (same arguments, same tile states, same host code: OnesweepRadix):
//
// - the row numbers of the tile are copied to shared memory by cp.async as soon as the tile has its number, so that
//   their reads are in flight while the keys are ranked and the tile looks back, without the registers that held
//   them in tessera_radix_onesweep_12_early (which at 16 pairs a thread did not fit 80 registers without spills);
// - the keys are placed in the tile's digit order in shared memory before the look-back, so that they too hold no
//   registers while it waits, and what is left after it is the copy-out;
// - "early counts", as in CUB's onesweep: the tile first counts its digits by shared-memory atomics and publishes
//   those counts before it ranks a key, so that later tiles find them sooner; the ranks then come out as places
//   in the tile at once (each warp's first place per digit is known before its keys are ranked).
//
// Shared memory: the TILE keys and TILE row numbers dynamic (TILE * 12 bytes: RadixScatter.dynamicShared on the
// host), the per-warp counts static (9 KB).
// Blocks of 256 threads with 12 pairs a thread run four blocks an SM (64 registers, 45 KB each), with 16 and 20
// three (80 registers; 57 and 69 KB); blocks of 384 threads with 15 pairs (CUB's shape for 64-bit keys) two (72
// registers, 81 KB). The host opts in to the dynamic shared memory above 48 KB.

#ifndef TESSERA_RADIX_STAGED_CUH
#define TESSERA_RADIX_STAGED_CUH

#include "tessera_sort.cuh"

namespace tessera {
namespace sort {

#if __CUDA_ARCH__ >= 800
// The shared-memory address of p, as cp.async takes it (PTX, so that NVRTC needs no header for it).
__device__ __forceinline__ unsigned int SharedAddress(const void* p) {
    unsigned int a;
    asm("{ .reg .u64 s; cvta.to.shared.u64 s, %1; cvt.u32.u64 %0, s; }" : "=r"(a) : "l"(p));
    return a;
}
#endif

// Starts copying the first `real` of a warp's run of ITEMS * 32 row numbers, from src, to stage (the run's places in
// the tile). Whole runs at a 16-byte boundary go in 16-byte pieces, others number by number. Nothing is held in
// registers; StagedRowsArrived waits for the copies.
template <int ITEMS>
__device__ __forceinline__ void StageRows(const unsigned int* __restrict__ src, int real, unsigned int* stage,
                                          int lane) {
#if __CUDA_ARCH__ >= 800
    constexpr int PIECES = ITEMS * TESSERA_WARP_THREADS / 4;  // of 16 bytes
    const bool whole = real == ITEMS * TESSERA_WARP_THREADS && (reinterpret_cast<unsigned long long>(src) & 15ull) == 0;
    if (whole) {
#pragma unroll
        for (int c = lane; c < PIECES; c += TESSERA_WARP_THREADS) {
            const unsigned int dst = SharedAddress(stage + 4 * c);
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src + 4 * c) : "memory");
        }
    } else {
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
            const int at = i * TESSERA_WARP_THREADS + lane;
            if (at < real) {
                const unsigned int dst = SharedAddress(stage + at);
                asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(src + at) : "memory");
            }
        }
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#else
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int at = i * TESSERA_WARP_THREADS + lane;
        if (at < real) stage[at] = src[at];
    }
#endif
}

// Waits for this thread's StageRows copies; a barrier after it shows them to the other threads.
__device__ __forceinline__ void StagedRowsArrived() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}

// One pass, as OnesweepPass (tessera_sort.cuh) with the same arguments and tile states, by blocks of THREADS (at
// least 256) threads, ITEMS pairs each; see the top of this file. Thread t < 256 keeps the counts of digit t.
template <int THREADS, int ITEMS>
__device__ __forceinline__ void StagedPass(const unsigned long long* __restrict__ keys_in,
                                           const unsigned int* __restrict__ rows_in, long long n, int shift,
                                           const unsigned int* __restrict__ starts, unsigned long long* states,
                                           unsigned int epoch, unsigned long long* __restrict__ next_tile,
                                           unsigned long long* __restrict__ keys_out,
                                           unsigned int* __restrict__ rows_out, long long* __restrict__ rows_out64) {
    static_assert(THREADS >= TESSERA_RADIX_DIGITS && THREADS % TESSERA_WARP_THREADS == 0, "a thread per digit");
    constexpr int WARPS = THREADS / TESSERA_WARP_THREADS;
    constexpr int TILE = THREADS * ITEMS;
    constexpr int RUN = ITEMS * TESSERA_WARP_THREADS;  // the pairs of one warp, consecutive in the input
    extern __shared__ __align__(16) unsigned long long tessera_staged_shared[];
    unsigned long long* exchange = tessera_staged_shared;  // the tile's keys in digit order
    // the tile's row numbers in input order, then in digit order
    unsigned int* stage = reinterpret_cast<unsigned int*>(tessera_staged_shared + TILE);
    __shared__ unsigned int warp_counts[WARPS][TESSERA_RADIX_DIGITS];
    __shared__ unsigned int bin[TESSERA_RADIX_DIGITS];  // place in the output minus place in the tile, per digit
    __shared__ unsigned int scratch[WARPS + 1];
    __shared__ unsigned int tile_number;
    const int t = (int)threadIdx.x;  // also the digit this thread keeps the counts of, below 256
    const bool keeper = THREADS == TESSERA_RADIX_DIGITS || t < TESSERA_RADIX_DIGITS;
    const int lane = t & (TESSERA_WARP_THREADS - 1);
    const int warp = t / TESSERA_WARP_THREADS;
    if (t == 0) tile_number = (unsigned int)atomicAdd(next_tile, 1ull);
    for (int d = lane; d < TESSERA_RADIX_DIGITS; d += TESSERA_WARP_THREADS) warp_counts[warp][d] = 0u;
    __syncthreads();
    const unsigned int tile = tile_number;
    const long long base = (long long)tile * TILE;
    const long long warp_base = base + (long long)warp * RUN;
    // the warp's pairs below n: pair i * 32 + lane of the run is real when below this
    const int real_in_run = (int)(n - warp_base < RUN ? (n - warp_base > 0 ? n - warp_base : 0) : RUN);
    if (rows_in != nullptr) StageRows<ITEMS>(rows_in + warp_base, real_in_run, stage + warp * RUN, lane);

    unsigned long long key[ITEMS];
    unsigned int at[ITEMS];  // the pair's place in the tile
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int q = i * TESSERA_WARP_THREADS + lane;
        key[i] = q < real_in_run ? keys_in[warp_base + q] : 0ull;
    }
    // the tile's count of each digit, by warp
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        if (i * TESSERA_WARP_THREADS + lane < real_in_run) atomicAdd(&warp_counts[warp][Digit(key[i], shift)], 1u);
    }
    __syncthreads();
    // per digit: the pairs in the warps before each warp, and in the whole tile, published at once
    unsigned int sum = 0u;
    const unsigned long long tag = (unsigned long long)epoch << 32;
    volatile unsigned long long* own = states + (long long)tile * TESSERA_RADIX_DIGITS + t;
    if (keeper) {
#pragma unroll
        for (int w = 0; w < WARPS; ++w) {
            const unsigned int c = warp_counts[w][t];
            warp_counts[w][t] = sum;
            sum += c;
        }
        *own = (tile == 0 ? TESSERA_RADIX_PREFIX : TESSERA_RADIX_AGGREGATE) | tag | sum;
    }
    unsigned int all;
    const unsigned int local_start = BlockExclusiveSum<THREADS>(sum, scratch, all);
    if (keeper) {
#pragma unroll
        for (int w = 0; w < WARPS; ++w) warp_counts[w][t] += local_start;
    }
    __syncthreads();
    // the keys to their places in the tile's digit order: the warp's pairs of a digit take consecutive places from
    // its count, one atomic add by the lowest lane of them
    const unsigned int below = (1u << lane) - 1u;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const bool real = i * TESSERA_WARP_THREADS + lane < real_in_run;
        const unsigned int digit = real ? Digit(key[i], shift) : (unsigned int)TESSERA_RADIX_DIGITS;
        const unsigned int peers = __match_any_sync(TESSERA_FULL_MASK, digit);
        const int leader = __ffs(peers) - 1;
        unsigned int first = 0u;
        if (lane == leader && real) first = atomicAdd(&warp_counts[warp][digit], (unsigned int)__popc(peers));
        at[i] = __shfl_sync(TESSERA_FULL_MASK, first, leader) + __popc(peers & below);
        if (real) exchange[at[i]] = key[i];
    }
    // the look-back, thread t for digit t; a state of another pass (another epoch) is one not yet published
    unsigned int before_tile = 0u;  // fewer than 2^32 rows
    if (keeper && tile != 0) {
        volatile unsigned long long* earlier = own - TESSERA_RADIX_DIGITS;
        while (true) {
            const unsigned long long s = *earlier;
            if ((s & TESSERA_RADIX_EPOCH_MASK) != tag) continue;  // tile j has not published in this pass yet
            before_tile += (unsigned int)s;
            if (s & TESSERA_RADIX_PREFIX) break;
            earlier -= TESSERA_RADIX_DIGITS;
        }
        *own = TESSERA_RADIX_PREFIX | tag | (unsigned long long)(before_tile + sum);
    }
    if (keeper) bin[t] = starts[t] + before_tile - local_start;  // modulo 2^32: bin + place in tile < n
    if (rows_in != nullptr) StagedRowsArrived();
    __syncthreads();  // the keys in place, bin, and every warp's row numbers arrived
    const int in_tile = (int)(n - base < TILE ? n - base : TILE);
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        const int p = t + j * THREADS;
        if (p < in_tile) {
            const unsigned long long k = exchange[p];
            keys_out[bin[Digit(k, shift)] + (unsigned int)p] = k;
        }
    }
    // the row numbers from input order to digit order, through registers (the keys are gone from them now)
    unsigned int row[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int q = warp * RUN + i * TESSERA_WARP_THREADS + lane;
        row[i] = rows_in != nullptr ? stage[q] : (unsigned int)(base + q);
    }
    __syncthreads();  // every row number read before its place is taken
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        if (i * TESSERA_WARP_THREADS + lane < real_in_run) stage[at[i]] = row[i];
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        const int p = t + j * THREADS;
        if (p < in_tile) {
            const unsigned int to = bin[Digit(exchange[p], shift)] + (unsigned int)p;
            if (rows_out64 != nullptr) {
                rows_out64[to] = (long long)stage[p];
            } else {
                rows_out[to] = stage[p];
            }
        }
    }
}

// THREADS a block, ITEMS pairs a thread, BLOCKS the blocks an SM holds (65,536 registers / (THREADS * BLOCKS) at
// most a thread: 64 for 256 threads at 4 blocks, 80 at 3 and for 384 threads at 2).
#define TESSERA_STAGED_KERNEL(NAME, THREADS, ITEMS, BLOCKS)                                                          \
    extern "C" __global__ void __launch_bounds__(THREADS, BLOCKS) NAME(                                              \
        const unsigned long long* __restrict__ keys_in, const unsigned int* __restrict__ rows_in, long long n,      \
        int shift, const unsigned int* __restrict__ starts, unsigned long long* states, unsigned int epoch,        \
        unsigned long long* __restrict__ next_tile, unsigned long long* __restrict__ keys_out,                      \
        unsigned int* __restrict__ rows_out, long long* __restrict__ rows_out64) {                                  \
        StagedPass<THREADS, ITEMS>(keys_in, rows_in, n, shift, starts, states, epoch, next_tile, keys_out, rows_out,\
                                   rows_out64);                                                                      \
    }
TESSERA_STAGED_KERNEL(tessera_radix_staged_12, 256, 12, 4)
TESSERA_STAGED_KERNEL(tessera_radix_staged_16, 256, 16, 3)
TESSERA_STAGED_KERNEL(tessera_radix_staged_20, 256, 20, 3)
TESSERA_STAGED_KERNEL(tessera_radix_staged_15_384, 384, 15, 2)
#undef TESSERA_STAGED_KERNEL

}  // namespace sort
}  // namespace tessera

#endif  // TESSERA_RADIX_STAGED_CUH
