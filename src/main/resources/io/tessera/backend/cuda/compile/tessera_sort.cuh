// tessera_sort.cuh: ORDER BY over device relations of any size, on key words that order as unsigned numbers
// (tessera_sort_keys3 of tessera_query.cuh writes them, one array per key word).
//
// LSD radix sort of row numbers: the key words are sorted from the least significant word to the most, each word
// 8 bits at a time from its low digit to its high one, every pass a stable counting sort of (key, row) pairs, so
// that after the last pass the rows are in the order of all words, ties in row order. As in CUB's onesweep, one
// kernel counts every digit of a word before its passes (tessera_radix_digit_totals: where each digit's run
// starts), and a pass is one kernel, tessera_radix_scatter: per tile of TESSERA_RADIX_TILE pairs it ranks the pairs
// stably in shared memory, learns how many pairs of each digit the tiles before it hold by decoupled look-back
// (each tile publishes its own counts, then the sums that include all tiles before it) and writes the pairs to
// their places; tessera_radix_clear readies its tile states.
// A digit that is the same in every row orders nothing: tessera_radix_bits computes each word's AND and OR over
// all rows, and the host skips the passes whose digit has no bit that differs (RadixPasses). Between words,
// tessera_radix_gather_keys reads the next word in the order the rows have reached.
//
// Bitonic top-k (the Crystal thesis, chapter 4): for ORDER BY ... LIMIT k over one key word, each block sorts a
// tile of TESSERA_TOPK_TILE (key, row) pairs into runs of k in shared memory, then halves the tile by merges (the
// smaller of two opposite runs' items, position by position, holds the k smallest of both as one bitonic run)
// and rebuilds sorted runs until k remain; launched again over the blocks' results until one block is left.
//
// Over many rows a filter comes first (tessera_topk_sample, tessera_topk_filter): the k-th pair of an evenly spaced
// sample of the rows is at or after the k-th pair of all rows, so only the pairs at or before it can be among the
// first k; one read of the keys copies those out, and the bitonic launches run over them alone.
//
// Row numbers are 32-bit: the host sorts fewer than 2^32 - 1 rows this way.

#ifndef TESSERA_SORT_CUH
#define TESSERA_SORT_CUH

#include "tessera_crystal.cuh"

#define TESSERA_RADIX_BITS 8
#define TESSERA_RADIX_DIGITS 256
#define TESSERA_RADIX_THREADS 256
#define TESSERA_RADIX_ITEMS 8
#define TESSERA_RADIX_TILE (TESSERA_RADIX_THREADS * TESSERA_RADIX_ITEMS)
#define TESSERA_RADIX_WARPS (TESSERA_RADIX_THREADS / TESSERA_WARP_THREADS)
#define TESSERA_RADIX_SCAN_THREADS 1024

#define TESSERA_TOPK_THREADS 512
#define TESSERA_TOPK_TILE 4096
#define TESSERA_TOPK_PAIRS (TESSERA_TOPK_TILE / 2 / TESSERA_TOPK_THREADS)
#define TESSERA_TOPK_ITEMS (TESSERA_TOPK_TILE / TESSERA_TOPK_THREADS)

namespace tessera {
namespace sort {

// The exclusive prefix sum of one value per thread over a block of THREADS threads (a multiple of 32, at most
// 1024), and the block's total in `total`. scratch: one word per warp plus one.
template <int THREADS>
__device__ __forceinline__ unsigned int BlockExclusiveSum(unsigned int v, unsigned int* scratch, unsigned int& total) {
    constexpr int WARPS = THREADS / TESSERA_WARP_THREADS;
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const int warp = (int)threadIdx.x / TESSERA_WARP_THREADS;
    unsigned int inclusive = v;
#pragma unroll
    for (int d = 1; d < TESSERA_WARP_THREADS; d <<= 1) {
        const unsigned int other = __shfl_up_sync(TESSERA_FULL_MASK, inclusive, d);
        if (lane >= d) inclusive += other;
    }
    if (lane == TESSERA_WARP_THREADS - 1) scratch[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const unsigned int w = lane < WARPS ? scratch[lane] : 0u;
        unsigned int scanned = w;
#pragma unroll
        for (int d = 1; d < TESSERA_WARP_THREADS; d <<= 1) {
            const unsigned int other = __shfl_up_sync(TESSERA_FULL_MASK, scanned, d);
            if (lane >= d) scanned += other;
        }
        if (lane < WARPS) scratch[lane] = scanned - w;
        if (lane == WARPS - 1) scratch[WARPS] = scanned;
    }
    __syncthreads();
    const unsigned int result = scratch[warp] + inclusive - v;
    total = scratch[WARPS];
    __syncthreads();  // scratch may be written again
    return result;
}

__device__ __forceinline__ unsigned int Digit(unsigned long long key, int shift) {
    return (unsigned int)(key >> shift) & (TESSERA_RADIX_DIGITS - 1);
}

// ---- LSD radix sort ----

// bits[2w] = ~0 (the AND of word w so far), bits[2w + 1] = 0 (its OR), for `words` words.
extern "C" __global__ void tessera_radix_bits_init(unsigned long long* bits, int words) {
    for (int i = (int)threadIdx.x; i < 2 * words; i += (int)blockDim.x) bits[i] = (i & 1) ? 0ull : ~0ull;
}

// bits[0] &= every key, bits[1] |= every key: a bit that is 1 in the AND or 0 in the OR is the same in all rows.
extern "C" __global__ void tessera_radix_bits(const unsigned long long* __restrict__ keys, long long n,
                                              unsigned long long* bits) {
    unsigned long long all = ~0ull;
    unsigned long long any = 0ull;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const unsigned long long k = keys[i];
        all &= k;
        any |= k;
    }
#pragma unroll
    for (int d = TESSERA_WARP_THREADS / 2; d > 0; d >>= 1) {
        all &= __shfl_xor_sync(TESSERA_FULL_MASK, all, d);
        any |= __shfl_xor_sync(TESSERA_FULL_MASK, any, d);
    }
    if ((threadIdx.x & (TESSERA_WARP_THREADS - 1)) == 0) {
        atomicAnd(&bits[0], all);
        atomicOr(&bits[1], any);
    }
}

// words[i] = 0 for i < n: the look-back's tile states and tile counter before each pass, the digit totals before
// each word.
extern "C" __global__ void tessera_radix_clear(unsigned long long* __restrict__ words, long long n) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        words[i] = 0ull;
    }
}

// totals[p * 256 + d] += the keys whose digit at shift 8p is d, for each p (0 to 7) with bit p of `digits` set
// (the passes that run; a constant digit would make every lane of a warp add to one count). Each block counts in
// shared memory and adds its counts to totals, which start at zero.
extern "C" __global__ void __launch_bounds__(TESSERA_RADIX_THREADS)
tessera_radix_digit_totals(const unsigned long long* __restrict__ keys, long long n, unsigned int digits,
                           unsigned int* __restrict__ totals) {
    constexpr int PLACES = 64 / TESSERA_RADIX_BITS;
    __shared__ unsigned int hist[PLACES * TESSERA_RADIX_DIGITS];
    for (int i = (int)threadIdx.x; i < PLACES * TESSERA_RADIX_DIGITS; i += TESSERA_RADIX_THREADS) hist[i] = 0u;
    __syncthreads();
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const unsigned long long k = keys[i];
#pragma unroll
        for (int p = 0; p < PLACES; ++p) {
            if ((digits >> p) & 1u) atomicAdd(&hist[p * TESSERA_RADIX_DIGITS + Digit(k, p * TESSERA_RADIX_BITS)], 1u);
        }
    }
    __syncthreads();
    for (int i = (int)threadIdx.x; i < PLACES * TESSERA_RADIX_DIGITS; i += TESSERA_RADIX_THREADS) {
        if (hist[i] != 0u) atomicAdd(&totals[i], hist[i]);
    }
}

// tessera_radix_bits and tessera_radix_digit_totals over one word in one read, for a sort sure to run radix passes
// (the word is the one they start with where it varies): bits[0] &= every key, bits[1] |= every key, and
// totals[p * 256 + d] += the keys whose digit at shift 8p is d, for every place p (which ones vary is not known yet).
// Where a place's digit is the same in all lanes of a warp, one lane counts them all. The loop runs while any lane
// of the warp has a key (lane 0 then has one), so that the lanes vote together.
extern "C" __global__ void __launch_bounds__(TESSERA_RADIX_THREADS)
tessera_radix_bits_totals(const unsigned long long* __restrict__ keys, long long n, unsigned long long* bits,
                          unsigned int* __restrict__ totals) {
    constexpr int PLACES = 64 / TESSERA_RADIX_BITS;
    __shared__ unsigned int hist[PLACES * TESSERA_RADIX_DIGITS];
    for (int i = (int)threadIdx.x; i < PLACES * TESSERA_RADIX_DIGITS; i += TESSERA_RADIX_THREADS) hist[i] = 0u;
    __syncthreads();
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const long long step = (long long)gridDim.x * blockDim.x;  // a multiple of 32: a warp's lanes stay together
    unsigned long long all = ~0ull;
    unsigned long long any = 0ull;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i - lane < n; i += step) {
        const bool real = i < n;
        const unsigned long long k = real ? keys[i] : 0ull;
        if (real) {
            all &= k;
            any |= k;
        }
        const unsigned long long first = __shfl_sync(TESSERA_FULL_MASK, k, 0);
        const unsigned int present = __popc(__ballot_sync(TESSERA_FULL_MASK, real));
#pragma unroll
        for (int p = 0; p < PLACES; ++p) {
            const unsigned int d = Digit(k, p * TESSERA_RADIX_BITS);
            const unsigned int d0 = Digit(first, p * TESSERA_RADIX_BITS);
            if (__all_sync(TESSERA_FULL_MASK, !real || d == d0)) {
                if (lane == 0) atomicAdd(&hist[p * TESSERA_RADIX_DIGITS + d0], present);
            } else if (real) {
                atomicAdd(&hist[p * TESSERA_RADIX_DIGITS + d], 1u);
            }
        }
    }
#pragma unroll
    for (int d = TESSERA_WARP_THREADS / 2; d > 0; d >>= 1) {
        all &= __shfl_xor_sync(TESSERA_FULL_MASK, all, d);
        any |= __shfl_xor_sync(TESSERA_FULL_MASK, any, d);
    }
    if (lane == 0) {
        atomicAnd(&bits[0], all);
        atomicOr(&bits[1], any);
    }
    __syncthreads();
    for (int i = (int)threadIdx.x; i < PLACES * TESSERA_RADIX_DIGITS; i += TESSERA_RADIX_THREADS) {
        if (hist[i] != 0u) atomicAdd(&totals[i], hist[i]);
    }
}

// A tile's state per digit in the look-back, one 64-bit word (flag and count written and read at once): 0 not yet
// published; TESSERA_RADIX_AGGREGATE | the tile's own pairs of the digit; TESSERA_RADIX_PREFIX | the pairs of the
// digit in this tile and all tiles before it.
#define TESSERA_RADIX_AGGREGATE (1ull << 62)
#define TESSERA_RADIX_PREFIX (1ull << 63)
#define TESSERA_RADIX_COUNT_MASK (TESSERA_RADIX_AGGREGATE - 1ull)

// One tile per block, tiles in the order the blocks start (a counter at *next_tile, zero before the pass): each (key,
// row) pair of the tile goes to keys_out/rows_out at the start of its digit (totals: the keys of each digit in all
// rows; the sum of those of the smaller digits), plus the pairs with its digit in earlier tiles (the look-back over
// states: tiles * 256 words, zero before the pass), plus those before it in its tile. rows_in null: row i is i. Each
// warp ranks a run of TESSERA_RADIX_ITEMS * 32 consecutive pairs of the tile alone, 32 at a time in row order: among
// the 32 by __match_any_sync, against the ones before by a count per digit of its own in shared memory (no barrier of
// the block); one barrier later a count per digit of the warps before gives the ranks in the tile. The pairs are then
// placed in shared memory in digit order and written out from there, so that consecutive threads write consecutive
// places of a digit's run. A block waits only for tiles whose blocks took their numbers before it, so had started, and
// each publishes its own counts before it waits: the look-back always ends.
extern "C" __global__ void __launch_bounds__(TESSERA_RADIX_THREADS)
tessera_radix_scatter(const unsigned long long* __restrict__ keys_in, const unsigned int* __restrict__ rows_in,
                      long long n, int shift, const unsigned int* __restrict__ totals,
                      unsigned long long* states, unsigned long long* __restrict__ next_tile,
                      unsigned long long* __restrict__ keys_out, unsigned int* __restrict__ rows_out) {
    __shared__ unsigned int scratch[TESSERA_RADIX_WARPS + 1];
    __shared__ unsigned int tile_number;  // tiles < 2^32 / TESSERA_RADIX_TILE
    __shared__ unsigned int place[TESSERA_RADIX_DIGITS];        // where the tile's run of a digit goes
    __shared__ unsigned int local_start[TESSERA_RADIX_DIGITS];  // where it starts in the tile's digit order
    __shared__ unsigned int warp_counts[TESSERA_RADIX_WARPS][TESSERA_RADIX_DIGITS];
    __shared__ unsigned long long tile_keys[TESSERA_RADIX_TILE];
    __shared__ unsigned int tile_rows[TESSERA_RADIX_TILE];
    const int t = (int)threadIdx.x;  // also the digit this thread keeps the counts of
    const int lane = t & (TESSERA_WARP_THREADS - 1);
    const int warp = t / TESSERA_WARP_THREADS;
    if (t == 0) tile_number = (unsigned int)atomicAdd(next_tile, 1ull);
    __syncthreads();
    const unsigned int tile = tile_number;
    const long long base = (long long)tile * TESSERA_RADIX_TILE;
    const long long warp_base = base + (long long)warp * TESSERA_RADIX_ITEMS * TESSERA_WARP_THREADS;
    for (int d = lane; d < TESSERA_RADIX_DIGITS; d += TESSERA_WARP_THREADS) warp_counts[warp][d] = 0u;
    __syncwarp();

    unsigned long long key[TESSERA_RADIX_ITEMS];
    unsigned int row[TESSERA_RADIX_ITEMS];
    unsigned int digit[TESSERA_RADIX_ITEMS];  // TESSERA_RADIX_DIGITS past the end of the rows
    unsigned int rank[TESSERA_RADIX_ITEMS];   // among the warp's pairs of the same digit before it
#pragma unroll
    for (int i = 0; i < TESSERA_RADIX_ITEMS; ++i) {
        const long long idx = warp_base + (long long)i * TESSERA_WARP_THREADS + lane;
        const bool real = idx < n;
        key[i] = real ? keys_in[idx] : 0ull;
        row[i] = real ? (rows_in != nullptr ? rows_in[idx] : (unsigned int)idx) : 0u;
        digit[i] = real ? Digit(key[i], shift) : (unsigned int)TESSERA_RADIX_DIGITS;
    }
    const unsigned int below = (1u << lane) - 1u;
#pragma unroll
    for (int i = 0; i < TESSERA_RADIX_ITEMS; ++i) {
        const unsigned int peers = __match_any_sync(TESSERA_FULL_MASK, digit[i]);
        const bool real = digit[i] < TESSERA_RADIX_DIGITS;
        const unsigned int earlier = real ? warp_counts[warp][digit[i]] : 0u;
        __syncwarp();  // every lane read the count before it grows
        const unsigned int before = __popc(peers & below);
        if (real && before == 0) warp_counts[warp][digit[i]] = earlier + __popc(peers);
        __syncwarp();
        rank[i] = earlier + before;
    }
    __syncthreads();
    // per digit: the pairs in the warps before each warp, and in the whole tile
    unsigned int sum = 0u;
#pragma unroll
    for (int w = 0; w < TESSERA_RADIX_WARPS; ++w) {
        const unsigned int c = warp_counts[w][t];
        warp_counts[w][t] = sum;
        sum += c;
    }
    // the look-back, thread t for digit t: the pairs of the digit in the tiles before this one
    volatile unsigned long long* state = states;
    unsigned int before_tile = 0u;  // fewer than 2^32 rows
    if (tile == 0) {
        state[t] = TESSERA_RADIX_PREFIX | sum;
    } else {
        volatile unsigned long long* own = state + (long long)tile * TESSERA_RADIX_DIGITS + t;
        *own = TESSERA_RADIX_AGGREGATE | sum;
        volatile unsigned long long* earlier = own - TESSERA_RADIX_DIGITS;  // the tile before, then earlier ones
        while (true) {
            const unsigned long long s = *earlier;
            if (s == 0ull) continue;  // tile j has not published yet
            before_tile += (unsigned int)(s & TESSERA_RADIX_COUNT_MASK);
            if (s & TESSERA_RADIX_PREFIX) break;
            earlier -= TESSERA_RADIX_DIGITS;
        }
        *own = TESSERA_RADIX_PREFIX | (unsigned long long)(before_tile + sum);
    }
    // the digits' starts summed only now, so that the kernel fits in 64 registers (4 blocks an SM)
    unsigned int all;
    place[t] = BlockExclusiveSum<TESSERA_RADIX_THREADS>(totals[t], scratch, all) + before_tile;
    local_start[t] = BlockExclusiveSum<TESSERA_RADIX_THREADS>(sum, scratch, all);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TESSERA_RADIX_ITEMS; ++i) {
        if (digit[i] < TESSERA_RADIX_DIGITS) {
            const unsigned int at = local_start[digit[i]] + warp_counts[warp][digit[i]] + rank[i];
            tile_keys[at] = key[i];
            tile_rows[at] = row[i];
        }
    }
    __syncthreads();
    const int in_tile = (int)(n - base < TESSERA_RADIX_TILE ? n - base : TESSERA_RADIX_TILE);
    for (int j = t; j < in_tile; j += TESSERA_RADIX_THREADS) {
        const unsigned long long k = tile_keys[j];
        const unsigned int d = Digit(k, shift);
        const unsigned int to = place[d] + (unsigned int)j - local_start[d];
        keys_out[to] = k;
        rows_out[to] = tile_rows[j];
    }
}

// ---- onesweep-style scatter (a variant beside tessera_radix_scatter; RadixScatter on the host) ----
//
// The same stable pass with larger tiles (THREADS * ITEMS pairs) and less work around them: the digits' starts come
// from tessera_radix_starts (once per word, not a block scan per tile); the tile states carry the pass's number
// (`epoch`, from 1), so that one clear before the sort readies every pass (a state of an earlier pass reads as not
// yet published), and each pass takes its tile numbers from a counter of its own; the keys and then the row numbers
// are reordered through the same shared memory, so that the global writes are runs of one digit; the last pass may
// write the row numbers as 64-bit numbers straight into the result (rows_out64), which saves a launch over all rows.
// Three blocks an SM (at most 80 registers a thread, 42 KB of shared memory a block at 16 pairs a thread).

#define TESSERA_ONESWEEP_THREADS 256
#define TESSERA_ONESWEEP_WARPS (TESSERA_ONESWEEP_THREADS / TESSERA_WARP_THREADS)
#define TESSERA_RADIX_EPOCH_MASK (((1ull << 30) - 1ull) << 32)

// starts[p * 256 + d] = the keys of the digits below d at place p, from the counts tessera_radix_digit_totals left
// there (8 places; one block of 256 threads, thread d for digit d).
extern "C" __global__ void __launch_bounds__(TESSERA_RADIX_DIGITS)
tessera_radix_starts(unsigned int* __restrict__ totals) {
    __shared__ unsigned int scratch[TESSERA_RADIX_DIGITS / TESSERA_WARP_THREADS + 1];
    constexpr int PLACES = 64 / TESSERA_RADIX_BITS;
    for (int p = 0; p < PLACES; ++p) {
        unsigned int all;
        const unsigned int own = totals[p * TESSERA_RADIX_DIGITS + threadIdx.x];
        totals[p * TESSERA_RADIX_DIGITS + threadIdx.x] = BlockExclusiveSum<TESSERA_RADIX_DIGITS>(own, scratch, all);
    }
}

// One pass over n pairs in tiles of THREADS * ITEMS. starts: where each digit's run begins (tessera_radix_starts);
// states: tiles * 256 words, zero or of earlier passes; next_tile: this pass's counter, zero before it. rows_in
// null: row i is i. rows_out64 not null: the row numbers go there as 64-bit numbers (and not to rows_out).
// EARLY_ROWS: the row numbers are read before the look-back, in flight while it waits (80 registers a thread
// instead of 72 at 12 pairs); else only once the keys are written.
template <int ITEMS, bool EARLY_ROWS>
__device__ __forceinline__ void OnesweepPass(const unsigned long long* __restrict__ keys_in,
                                             const unsigned int* __restrict__ rows_in, long long n, int shift,
                                             const unsigned int* __restrict__ starts, unsigned long long* states,
                                             unsigned int epoch, unsigned long long* __restrict__ next_tile,
                                             unsigned long long* __restrict__ keys_out,
                                             unsigned int* __restrict__ rows_out, long long* __restrict__ rows_out64) {
    static_assert(TESSERA_ONESWEEP_THREADS == TESSERA_RADIX_DIGITS, "thread t keeps the counts of digit t");
    constexpr int TILE = TESSERA_ONESWEEP_THREADS * ITEMS;
    __shared__ unsigned long long exchange[TILE];  // the tile's keys in digit order, then its row numbers
    __shared__ unsigned int warp_counts[TESSERA_ONESWEEP_WARPS][TESSERA_RADIX_DIGITS];
    __shared__ unsigned int bin[TESSERA_RADIX_DIGITS];  // place in the output minus place in the tile, per digit
    __shared__ unsigned int scratch[TESSERA_ONESWEEP_WARPS + 1];
    __shared__ unsigned int tile_number;
    const int t = (int)threadIdx.x;  // also the digit this thread keeps the counts of
    const int lane = t & (TESSERA_WARP_THREADS - 1);
    const int warp = t / TESSERA_WARP_THREADS;
    if (t == 0) tile_number = (unsigned int)atomicAdd(next_tile, 1ull);
    for (int d = lane; d < TESSERA_RADIX_DIGITS; d += TESSERA_WARP_THREADS) warp_counts[warp][d] = 0u;
    __syncthreads();
    const unsigned int tile = tile_number;
    const long long base = (long long)tile * TILE;
    const long long warp_base = base + (long long)warp * ITEMS * TESSERA_WARP_THREADS;

    unsigned long long key[ITEMS];
    unsigned int at[ITEMS];  // first the rank among the warp's pairs of its digit, then the place in the tile
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const long long idx = warp_base + (long long)i * TESSERA_WARP_THREADS + lane;
        key[i] = idx < n ? keys_in[idx] : 0ull;
    }
    const unsigned int below = (1u << lane) - 1u;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const long long idx = warp_base + (long long)i * TESSERA_WARP_THREADS + lane;
        const unsigned int digit = idx < n ? Digit(key[i], shift) : (unsigned int)TESSERA_RADIX_DIGITS;
        const unsigned int peers = __match_any_sync(TESSERA_FULL_MASK, digit);
        const bool real = digit < TESSERA_RADIX_DIGITS;
        const unsigned int earlier = real ? warp_counts[warp][digit] : 0u;
        __syncwarp();  // every lane read the count before it grows
        const unsigned int before = __popc(peers & below);
        if (real && before == 0) warp_counts[warp][digit] = earlier + __popc(peers);
        __syncwarp();
        at[i] = earlier + before;
    }
    __syncthreads();
    // per digit: the pairs in the warps before each warp, and in the whole tile
    unsigned int sum = 0u;
#pragma unroll
    for (int w = 0; w < TESSERA_ONESWEEP_WARPS; ++w) {
        const unsigned int c = warp_counts[w][t];
        warp_counts[w][t] = sum;
        sum += c;
    }
    unsigned int row[EARLY_ROWS ? ITEMS : 1];
    if (EARLY_ROWS) {
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
            const long long idx = warp_base + (long long)i * TESSERA_WARP_THREADS + lane;
            row[i] = idx < n ? (rows_in != nullptr ? rows_in[idx] : (unsigned int)idx) : 0u;
        }
    }
    // the look-back, thread t for digit t; a state of another pass (another epoch) is one not yet published
    const unsigned long long tag = (unsigned long long)epoch << 32;
    volatile unsigned long long* own = states + (long long)tile * TESSERA_RADIX_DIGITS + t;
    unsigned int before_tile = 0u;  // fewer than 2^32 rows
    if (tile != 0) {
        *own = TESSERA_RADIX_AGGREGATE | tag | sum;
        volatile unsigned long long* earlier = own - TESSERA_RADIX_DIGITS;
        while (true) {
            const unsigned long long s = *earlier;
            if ((s & TESSERA_RADIX_EPOCH_MASK) != tag) continue;  // tile j has not published in this pass yet
            before_tile += (unsigned int)s;
            if (s & TESSERA_RADIX_PREFIX) break;
            earlier -= TESSERA_RADIX_DIGITS;
        }
    }
    *own = TESSERA_RADIX_PREFIX | tag | (unsigned long long)(before_tile + sum);
    unsigned int all;
    const unsigned int local_start = BlockExclusiveSum<TESSERA_ONESWEEP_THREADS>(sum, scratch, all);
    bin[t] = starts[t] + before_tile - local_start;  // modulo 2^32: bin + place in tile < n
#pragma unroll
    for (int w = 0; w < TESSERA_ONESWEEP_WARPS; ++w) warp_counts[w][t] += local_start;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const long long idx = warp_base + (long long)i * TESSERA_WARP_THREADS + lane;
        if (idx < n) {
            at[i] += warp_counts[warp][Digit(key[i], shift)];
            exchange[at[i]] = key[i];
        }
    }
    __syncthreads();
    const int in_tile = (int)(n - base < TILE ? n - base : TILE);
    unsigned int to[ITEMS];  // where place t + j * THREADS of the tile goes
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        const int p = t + j * TESSERA_ONESWEEP_THREADS;
        if (p < in_tile) {
            const unsigned long long k = exchange[p];
            to[j] = bin[Digit(k, shift)] + (unsigned int)p;
            keys_out[to[j]] = k;
        }
    }
    __syncthreads();  // every key read from the exchange: the row numbers take its place
    unsigned int* rows_exchange = reinterpret_cast<unsigned int*>(exchange);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const long long idx = warp_base + (long long)i * TESSERA_WARP_THREADS + lane;
        if (idx < n) {
            rows_exchange[at[i]] = EARLY_ROWS ? row[EARLY_ROWS ? i : 0]
                                              : (rows_in != nullptr ? rows_in[idx] : (unsigned int)idx);
        }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        const int p = t + j * TESSERA_ONESWEEP_THREADS;
        if (p < in_tile) {
            if (rows_out64 != nullptr) {
                rows_out64[to[j]] = (long long)rows_exchange[p];
            } else {
                rows_out[to[j]] = rows_exchange[p];
            }
        }
    }
}

#define TESSERA_ONESWEEP_KERNEL(NAME, ITEMS, EARLY_ROWS)                                                             \
    extern "C" __global__ void __launch_bounds__(TESSERA_ONESWEEP_THREADS, 3) NAME(                                  \
        const unsigned long long* __restrict__ keys_in, const unsigned int* __restrict__ rows_in, long long n,      \
        int shift, const unsigned int* __restrict__ starts, unsigned long long* states, unsigned int epoch,        \
        unsigned long long* __restrict__ next_tile, unsigned long long* __restrict__ keys_out,                      \
        unsigned int* __restrict__ rows_out, long long* __restrict__ rows_out64) {                                  \
        OnesweepPass<ITEMS, EARLY_ROWS>(keys_in, rows_in, n, shift, starts, states, epoch, next_tile, keys_out,      \
                                        rows_out, rows_out64);                                                       \
    }
TESSERA_ONESWEEP_KERNEL(tessera_radix_onesweep_12, 12, false)
TESSERA_ONESWEEP_KERNEL(tessera_radix_onesweep_12_early, 12, true)
TESSERA_ONESWEEP_KERNEL(tessera_radix_onesweep_16, 16, false)
#undef TESSERA_ONESWEEP_KERNEL

// out[i] = word[rows[i]]: the next key word in the order the rows have reached.
extern "C" __global__ void tessera_radix_gather_keys(const unsigned long long* __restrict__ word,
                                                     const unsigned int* __restrict__ rows, long long n,
                                                     unsigned long long* __restrict__ out) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        out[i] = word[rows[i]];
    }
}

// out_index[i] = rows[i] for i < n, as 64-bit row numbers; rows null: the rows in their order (i).
extern "C" __global__ void tessera_sort_rows_out(const unsigned int* __restrict__ rows, long long n,
                                                 long long* __restrict__ out_index) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        out_index[i] = rows != nullptr ? (long long)rows[i] : i;
    }
}

// ---- bitonic top-k ----

// Whether pair (ka, ra) comes before pair (kb, rb): by key, then by row (row numbers are unique, so the order is
// total and the top-k equals the first k of a stable sort).
__device__ __forceinline__ bool Before(unsigned long long ka, unsigned int ra, unsigned long long kb, unsigned int rb) {
    return ka < kb || (ka == kb && ra < rb);
}

// One step of a bitonic network over the first m pairs in shared memory: pair i and i + inc, i with bit inc
// clear; ascending where i & dir is 0, else descending.
__device__ __forceinline__ void BitonicStep(unsigned long long* keys, unsigned int* rows, int m, int inc, int dir) {
    for (int t = (int)threadIdx.x; t < m / 2; t += TESSERA_TOPK_THREADS) {
        const int i = 2 * t - (t & (inc - 1));
        const int j = i + inc;
        const unsigned long long ki = keys[i];
        const unsigned long long kj = keys[j];
        const unsigned int ri = rows[i];
        const unsigned int rj = rows[j];
        const bool ascending = (i & dir) == 0;
        if (ascending ? Before(kj, rj, ki, ri) : Before(ki, ri, kj, rj)) {
            keys[i] = kj;
            keys[j] = ki;
            rows[i] = rj;
            rows[j] = ri;
        }
    }
    __syncthreads();
}

// The steps of stride INC, 2 and 1 (those not above `len`) of a bitonic network over the TESSERA_TOPK_ITEMS pairs
// a thread holds in registers, places first .. first + TESSERA_TOPK_ITEMS - 1 of the tile: a pair's partner at a
// stride below TESSERA_TOPK_ITEMS is in the same thread, so these steps need no shared memory and no barrier (the
// thesis's "do work before writing").
__device__ __forceinline__ void RegisterSteps(unsigned long long (&k)[TESSERA_TOPK_ITEMS],
                                              unsigned int (&r)[TESSERA_TOPK_ITEMS], int first, int len, int dir) {
#pragma unroll
    for (int inc = TESSERA_TOPK_ITEMS / 2; inc > 0; inc >>= 1) {
        if (inc <= len) {
#pragma unroll
            for (int a = 0; a < TESSERA_TOPK_ITEMS; ++a) {
                if ((a & inc) == 0) {
                    const int b = a + inc;
                    const bool ascending = ((first + a) & dir) == 0;
                    if (ascending ? Before(k[b], r[b], k[a], r[a]) : Before(k[a], r[a], k[b], r[b])) {
                        const unsigned long long tk = k[a];
                        const unsigned int tr = r[a];
                        k[a] = k[b];
                        r[a] = r[b];
                        k[b] = tk;
                        r[b] = tr;
                    }
                }
            }
        }
    }
}

__device__ __forceinline__ void ToRegisters(const unsigned long long* sk, const unsigned int* sr, int first,
                                            unsigned long long (&k)[TESSERA_TOPK_ITEMS],
                                            unsigned int (&r)[TESSERA_TOPK_ITEMS]) {
#pragma unroll
    for (int a = 0; a < TESSERA_TOPK_ITEMS; ++a) {
        k[a] = sk[first + a];
        r[a] = sr[first + a];
    }
}

__device__ __forceinline__ void ToShared(unsigned long long* sk, unsigned int* sr, int first,
                                         const unsigned long long (&k)[TESSERA_TOPK_ITEMS],
                                         const unsigned int (&r)[TESSERA_TOPK_ITEMS]) {
#pragma unroll
    for (int a = 0; a < TESSERA_TOPK_ITEMS; ++a) {
        sk[first + a] = k[a];
        sr[first + a] = r[a];
    }
}

// One tile of TESSERA_TOPK_TILE pairs per block (the keys from keys; rows from rows, or the pair's index where rows
// is null); the k (a power of two, TESSERA_TOPK_ITEMS to TESSERA_TOPK_TILE / 4) first pairs of the tile, in order,
// are written to out_keys and out_rows at block * k. Past the end of the n pairs the tile holds pairs after every
// real one. Each thread holds TESSERA_TOPK_ITEMS consecutive pairs in registers for the network's short strides;
// the longer ones go through shared memory. Dynamic shared memory: TESSERA_TOPK_TILE * 12 bytes.
extern "C" __global__ void __launch_bounds__(TESSERA_TOPK_THREADS)
tessera_topk_tile(const unsigned long long* __restrict__ keys, const unsigned int* __restrict__ rows, long long n,
                  int k, unsigned long long* __restrict__ out_keys, unsigned int* __restrict__ out_rows) {
    extern __shared__ unsigned long long tessera_topk_shared[];
    unsigned long long* sk = tessera_topk_shared;
    unsigned int* sr = reinterpret_cast<unsigned int*>(tessera_topk_shared + TESSERA_TOPK_TILE);
    const long long base = (long long)blockIdx.x * TESSERA_TOPK_TILE;
    const int first = (int)threadIdx.x * TESSERA_TOPK_ITEMS;  // the places this thread holds in registers
    unsigned long long rk[TESSERA_TOPK_ITEMS];
    unsigned int rr[TESSERA_TOPK_ITEMS];
#pragma unroll
    for (int a = 0; a < TESSERA_TOPK_ITEMS; ++a) {
        const long long idx = base + first + a;
        const bool real = idx < n;
        rk[a] = real ? keys[idx] : ~0ull;
        rr[a] = real ? (rows != nullptr ? rows[idx] : (unsigned int)idx) : ~0u;
    }
    // local sort: sorted runs of k, ascending and descending in turn
    for (int len = 1; len < k; len <<= 1) {
        if (len >= TESSERA_TOPK_ITEMS) {
            ToShared(sk, sr, first, rk, rr);
            __syncthreads();
            for (int inc = len; inc >= TESSERA_TOPK_ITEMS; inc >>= 1) BitonicStep(sk, sr, TESSERA_TOPK_TILE, inc, len << 1);
            ToRegisters(sk, sr, first, rk, rr);
        }
        RegisterSteps(rk, rr, first, len, len << 1);
    }
    ToShared(sk, sr, first, rk, rr);
    __syncthreads();
    // merge and rebuild until one run of k is left
    for (int m = TESSERA_TOPK_TILE; m > k; m >>= 1) {
        // pair run 2q (ascending) with run 2q + 1 (descending): the smaller of their items at each position
        unsigned long long mk[TESSERA_TOPK_PAIRS];
        unsigned int mr[TESSERA_TOPK_PAIRS];
#pragma unroll
        for (int p = 0; p < TESSERA_TOPK_PAIRS; ++p) {
            const int t = (int)threadIdx.x + p * TESSERA_TOPK_THREADS;
            if (t < m / 2) {
                const int q = t / k;
                const int i = 2 * q * k + (t - q * k);
                const int j = i + k;
                const bool before = Before(sk[i], sr[i], sk[j], sr[j]);
                mk[p] = before ? sk[i] : sk[j];
                mr[p] = before ? sr[i] : sr[j];
            }
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < TESSERA_TOPK_PAIRS; ++p) {
            const int t = (int)threadIdx.x + p * TESSERA_TOPK_THREADS;
            if (t < m / 2) {
                sk[t] = mk[p];
                sr[t] = mr[p];
            }
        }
        __syncthreads();
        // each run of k is bitonic now: sort it, in the direction its place asks for (the last one ascending)
        const int half = m >> 1;
        for (int inc = k >> 1; inc >= TESSERA_TOPK_ITEMS; inc >>= 1) BitonicStep(sk, sr, half, inc, k);
        if (first < half) {
            ToRegisters(sk, sr, first, rk, rr);
            RegisterSteps(rk, rr, first, k >> 1, k);
            ToShared(sk, sr, first, rk, rr);
        }
        __syncthreads();
    }
    for (int i = (int)threadIdx.x; i < k; i += TESSERA_TOPK_THREADS) {
        out_keys[(long long)blockIdx.x * k + i] = sk[i];
        out_rows[(long long)blockIdx.x * k + i] = sr[i];
    }
}

// The sample of the filter: pair i is (keys[i * stride], i * stride) for i < s. Also sets *count, which
// tessera_topk_filter counts in, to zero (it runs after this kernel, on the same stream).
extern "C" __global__ void tessera_topk_sample(const unsigned long long* __restrict__ keys, long long stride,
                                               long long s, unsigned long long* __restrict__ out_keys,
                                               unsigned int* __restrict__ out_rows,
                                               unsigned long long* __restrict__ count) {
    if (blockIdx.x == 0 && threadIdx.x == 0) *count = 0ull;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < s; i += (long long)gridDim.x * blockDim.x) {
        out_keys[i] = keys[i * stride];
        out_rows[i] = (unsigned int)(i * stride);
    }
}

// Copies every pair (keys[i], i), i < n, that is not after the pair (*limit_key, *limit_row) to the next free
// place of cand_keys/cand_rows, in no particular order; *count ends as the number of such pairs, of which only the
// first `capacity` are written (the host sees a count above it and does without the filter). The warp takes its
// places with one atomic; the loop runs while any lane of the warp has a row, so that every lane votes.
extern "C" __global__ void tessera_topk_filter(const unsigned long long* __restrict__ keys, long long n,
                                               const unsigned long long* __restrict__ limit_key,
                                               const unsigned int* __restrict__ limit_row,
                                               unsigned long long* __restrict__ cand_keys,
                                               unsigned int* __restrict__ cand_rows, long long capacity,
                                               unsigned long long* __restrict__ count) {
    const unsigned long long lk = *limit_key;
    const unsigned int lr = *limit_row;
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const unsigned int below = (1u << lane) - 1u;
    const long long step = (long long)gridDim.x * blockDim.x;  // a multiple of 32: a warp's lanes stay together
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i - lane < n; i += step) {
        const bool real = i < n;
        const unsigned long long key = real ? keys[i] : ~0ull;
        const bool keep = real && !Before(lk, lr, key, (unsigned int)i);
        const unsigned int voters = __ballot_sync(TESSERA_FULL_MASK, keep);
        if (voters == 0u) continue;
        unsigned long long at = 0ull;
        if (lane == 0) at = atomicAdd(count, (unsigned long long)__popc(voters));
        at = __shfl_sync(TESSERA_FULL_MASK, at, 0) + (unsigned long long)__popc(voters & below);
        if (keep && at < (unsigned long long)capacity) {
            cand_keys[at] = key;
            cand_rows[at] = (unsigned int)i;
        }
    }
}

}  // namespace sort
}  // namespace tessera

#endif  // TESSERA_SORT_CUH
