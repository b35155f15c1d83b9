// tessera_crystal.cuh: block-wide primitives for tile-based query kernels.
//
// The execution model follows chapter 3 of the Crystal thesis (Shanbhag): a thread block, not a
// thread, is the unit of work. A block takes a *tile* of BLOCK_THREADS * ITEMS_PER_THREAD rows,
// each thread holding ITEMS_PER_THREAD of them in registers, and every step of a query (load,
// predicate, probe, scan, compact, store, aggregate) is a block-wide function over that tile.
//
// Conventions used by every function below:
//
//  * Template parameters come first as <BLOCK_THREADS, ITEMS_PER_THREAD>, so that the element type
//    is deduced from the arguments: BlockLoad<128, 4>(col + offset, items, tile_size).
//  * A tile holds tile_size rows (tile_size == BLOCK_THREADS * ITEMS_PER_THREAD for every tile but
//    the last one of a column, the "tail" tile).
//  * Arrangement, i.e. which row of the tile item i of thread t holds (see TileRow):
//      - full tile, ITEMS_PER_THREAD a multiple of 4: groups of four consecutive rows per thread,
//        row = (i / 4) * 4 * BLOCK_THREADS + 4 * t + i % 4, so that a group is one 16-byte vector
//        load for 4-byte types (two for 8-byte types);
//      - any other tile: striped, row = i * BLOCK_THREADS + t.
//    The arrangement depends only on the tile shape and tile_size, never on the element type, so
//    columns of different types loaded for the same tile line up item by item.
//  * Selection flags are int[ITEMS_PER_THREAD], 1 = row selected. Predicates also clear the flags
//    of items past the end of a tail tile, so an item whose flag is set is always a real row.
//  * Functions that use shared memory declare it themselves (one static buffer per template
//    instance and kernel) and synchronize the block at entry and before returning, so they may be
//    called back to back and inside loops over tiles. Hence every thread of the block must call
//    them (no calls under divergent control flow).
//
// The header needs nothing but the CUDA built-ins, so it compiles the same with nvcc and NVRTC.

#ifndef TESSERA_CRYSTAL_CUH
#define TESSERA_CRYSTAL_CUH

#define TESSERA_WARP_THREADS 32
#define TESSERA_FULL_MASK 0xffffffffu
// Key that marks an unused slot of a linear-probing hash table (and a good filler for the unused
// slots of a perfect table whose key range does not start at INT_MIN).
#define TESSERA_EMPTY_KEY (-2147483647 - 1)

namespace tessera {

// ---------------------------------------------------------------------------------------------
// Tile geometry
// ---------------------------------------------------------------------------------------------

// True when a full tile of this shape is loaded in groups of four (vector loads).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__device__ __forceinline__ constexpr bool TileVectorized() {
    return ITEMS_PER_THREAD % 4 == 0;
}

// The row (0 .. tile_size-1) of the tile that item `item` of the calling thread stands for.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__device__ __forceinline__ int TileRow(int item, int tile_size) {
    if (TileVectorized<BLOCK_THREADS, ITEMS_PER_THREAD>() && tile_size == BLOCK_THREADS * ITEMS_PER_THREAD) {
        return (item / 4) * (4 * BLOCK_THREADS) + 4 * (int)threadIdx.x + (item % 4);
    }
    return item * BLOCK_THREADS + (int)threadIdx.x;
}

// Whether item `item` of the calling thread is a real row of a tile of tile_size rows.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__device__ __forceinline__ bool TileValid(int item, int tile_size) {
    return tile_size == BLOCK_THREADS * ITEMS_PER_THREAD || item * BLOCK_THREADS + (int)threadIdx.x < tile_size;
}

// ---------------------------------------------------------------------------------------------
// BlockLoad: global memory -> registers
// ---------------------------------------------------------------------------------------------

namespace detail {

// Loads four consecutive values starting at p into out[0..3]. p must be 16-byte aligned.
// 4-byte types take one 128-bit load, 8-byte types two; other sizes load one value at a time.
template <typename T>
__device__ __forceinline__ void LoadGroupOf4(const T* p, T* out) {
    if constexpr (sizeof(T) == 4) {
        union { int4 vec; T val[4]; } u;
        u.vec = *reinterpret_cast<const int4*>(p);
        out[0] = u.val[0]; out[1] = u.val[1]; out[2] = u.val[2]; out[3] = u.val[3];
    } else if constexpr (sizeof(T) == 8) {
        union { longlong2 vec[2]; T val[4]; } u;
        u.vec[0] = reinterpret_cast<const longlong2*>(p)[0];
        u.vec[1] = reinterpret_cast<const longlong2*>(p)[1];
        out[0] = u.val[0]; out[1] = u.val[1]; out[2] = u.val[2]; out[3] = u.val[3];
    } else {
        out[0] = p[0]; out[1] = p[1]; out[2] = p[2]; out[3] = p[3];
    }
}

}  // namespace detail

// Loads the tile that starts at `tile` (the column's base pointer plus the tile's first row).
// Full tiles use vector loads when the column is 16-byte aligned (cuMemAlloc'ed columns are);
// the tail tile is loaded striped, element by element, with bounds checks. Items past the end of
// the tail tile are set to T() so that no register is read uninitialized.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ __forceinline__ void BlockLoad(const T* tile, T (&items)[ITEMS_PER_THREAD], int tile_size) {
    if (TileVectorized<BLOCK_THREADS, ITEMS_PER_THREAD>() && tile_size == BLOCK_THREADS * ITEMS_PER_THREAD) {
        const bool aligned = (reinterpret_cast<unsigned long long>(tile) & 15ull) == 0;
#pragma unroll
        for (int g = 0; g < ITEMS_PER_THREAD / 4; ++g) {
            const T* p = tile + g * 4 * BLOCK_THREADS + 4 * (int)threadIdx.x;
            if (aligned) {
                detail::LoadGroupOf4(p, &items[4 * g]);
            } else {
#pragma unroll
                for (int k = 0; k < 4; ++k) items[4 * g + k] = p[k];
            }
        }
    } else {
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const int row = i * BLOCK_THREADS + (int)threadIdx.x;
            items[i] = row < tile_size ? tile[row] : T();
        }
    }
}

// Loads only the rows whose flag is set (rows an earlier predicate or probe already rejected are
// not read from global memory); the other items become T(), so no register is left undefined.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ __forceinline__ void BlockLoadSel(const T* tile, T (&items)[ITEMS_PER_THREAD],
                                             const int (&flags)[ITEMS_PER_THREAD], int tile_size) {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        items[i] = flags[i] ? tile[TileRow<BLOCK_THREADS, ITEMS_PER_THREAD>(i, tile_size)] : T();
    }
}

// Sets the flag of every real row of the tile and clears the rest (the start of a conjunction).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__device__ __forceinline__ void BlockInitFlags(int (&flags)[ITEMS_PER_THREAD], int tile_size) {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) flags[i] = TileValid<BLOCK_THREADS, ITEMS_PER_THREAD>(i, tile_size);
}

// ---------------------------------------------------------------------------------------------
// BlockPred: comparisons -> selection flags
// ---------------------------------------------------------------------------------------------

// How a predicate's outcome combines with the flags it is given.
enum class Combine { Set, And, Or };

// Applies pred to every item and combines the outcome with flags. Items past the end of the tail
// tile always end with a cleared flag, whatever the combination.
template <Combine C, int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Pred>
__device__ __forceinline__ void BlockPredApply(const T (&items)[ITEMS_PER_THREAD], int (&flags)[ITEMS_PER_THREAD],
                                               int tile_size, Pred pred) {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        const bool valid = TileValid<BLOCK_THREADS, ITEMS_PER_THREAD>(i, tile_size);
        const bool hit = pred(items[i]);
        if (C == Combine::Set) {
            flags[i] = valid && hit;
        } else if (C == Combine::And) {
            flags[i] = valid && flags[i] && hit;
        } else {
            flags[i] = valid && (flags[i] || hit);
        }
    }
}

namespace pred {
template <typename T> struct GT { T v; __device__ __forceinline__ bool operator()(T x) const { return x > v; } };
template <typename T> struct GE { T v; __device__ __forceinline__ bool operator()(T x) const { return x >= v; } };
template <typename T> struct LT { T v; __device__ __forceinline__ bool operator()(T x) const { return x < v; } };
template <typename T> struct LE { T v; __device__ __forceinline__ bool operator()(T x) const { return x <= v; } };
template <typename T> struct EQ { T v; __device__ __forceinline__ bool operator()(T x) const { return x == v; } };
template <typename T> struct NEQ { T v; __device__ __forceinline__ bool operator()(T x) const { return x != v; } };
// Inclusive on both ends, as SQL's BETWEEN.
template <typename T> struct Between {
    T lo, hi;
    __device__ __forceinline__ bool operator()(T x) const { return x >= lo && x <= hi; }
};
}  // namespace pred

// BlockPred<Op>(items, value, flags, tile_size) sets flags to (item Op value);
// BlockPredAnd<Op> ANDs it into flags; BlockPredOr<Op> ORs it in.
#define TESSERA_BLOCK_PRED(OP)                                                                              \
    template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>                                          \
    __device__ __forceinline__ void BlockPred##OP(const T (&items)[ITEMS_PER_THREAD], T value,              \
                                                  int (&flags)[ITEMS_PER_THREAD], int tile_size) {          \
        BlockPredApply<Combine::Set, BLOCK_THREADS, ITEMS_PER_THREAD>(items, flags, tile_size,              \
                                                                      pred::OP<T>{value});                  \
    }                                                                                                       \
    template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>                                          \
    __device__ __forceinline__ void BlockPredAnd##OP(const T (&items)[ITEMS_PER_THREAD], T value,           \
                                                     int (&flags)[ITEMS_PER_THREAD], int tile_size) {       \
        BlockPredApply<Combine::And, BLOCK_THREADS, ITEMS_PER_THREAD>(items, flags, tile_size,              \
                                                                      pred::OP<T>{value});                  \
    }                                                                                                       \
    template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>                                          \
    __device__ __forceinline__ void BlockPredOr##OP(const T (&items)[ITEMS_PER_THREAD], T value,            \
                                                    int (&flags)[ITEMS_PER_THREAD], int tile_size) {        \
        BlockPredApply<Combine::Or, BLOCK_THREADS, ITEMS_PER_THREAD>(items, flags, tile_size,               \
                                                                     pred::OP<T>{value});                   \
    }

TESSERA_BLOCK_PRED(GT)
TESSERA_BLOCK_PRED(GE)
TESSERA_BLOCK_PRED(LT)
TESSERA_BLOCK_PRED(LE)
TESSERA_BLOCK_PRED(EQ)
TESSERA_BLOCK_PRED(NEQ)
#undef TESSERA_BLOCK_PRED

// lo <= item <= hi.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ __forceinline__ void BlockPredBetween(const T (&items)[ITEMS_PER_THREAD], T lo, T hi,
                                                 int (&flags)[ITEMS_PER_THREAD], int tile_size) {
    BlockPredApply<Combine::Set, BLOCK_THREADS, ITEMS_PER_THREAD>(items, flags, tile_size, pred::Between<T>{lo, hi});
}
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ __forceinline__ void BlockPredAndBetween(const T (&items)[ITEMS_PER_THREAD], T lo, T hi,
                                                    int (&flags)[ITEMS_PER_THREAD], int tile_size) {
    BlockPredApply<Combine::And, BLOCK_THREADS, ITEMS_PER_THREAD>(items, flags, tile_size, pred::Between<T>{lo, hi});
}
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ __forceinline__ void BlockPredOrBetween(const T (&items)[ITEMS_PER_THREAD], T lo, T hi,
                                                   int (&flags)[ITEMS_PER_THREAD], int tile_size) {
    BlockPredApply<Combine::Or, BLOCK_THREADS, ITEMS_PER_THREAD>(items, flags, tile_size, pred::Between<T>{lo, hi});
}

// ---------------------------------------------------------------------------------------------
// Warp and block reductions and scans
// ---------------------------------------------------------------------------------------------

namespace detail {

// Inclusive prefix sum across the 32 lanes of a warp (all lanes must take part).
template <typename T>
__device__ __forceinline__ T WarpInclusiveSum(T value) {
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
#pragma unroll
    for (int delta = 1; delta < TESSERA_WARP_THREADS; delta <<= 1) {
        const T other = __shfl_up_sync(TESSERA_FULL_MASK, value, delta);
        if (lane >= delta) value += other;
    }
    return value;
}

// Sum across the 32 lanes of a warp; the result is valid in lane 0.
template <typename T>
__device__ __forceinline__ T WarpSum(T value) {
#pragma unroll
    for (int delta = TESSERA_WARP_THREADS / 2; delta > 0; delta >>= 1) {
        value += __shfl_down_sync(TESSERA_FULL_MASK, value, delta);
    }
    return value;
}

__device__ __forceinline__ void AtomicAddTo(unsigned long long* target, unsigned long long v) { atomicAdd(target, v); }
// Two's complement addition is the same operation for signed and unsigned 64-bit integers.
__device__ __forceinline__ void AtomicAddTo(long long* target, long long v) {
    atomicAdd(reinterpret_cast<unsigned long long*>(target), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ void AtomicAddTo(double* target, double v) { atomicAdd(target, v); }
__device__ __forceinline__ void AtomicAddTo(int* target, int v) { atomicAdd(target, v); }
__device__ __forceinline__ void AtomicAddTo(unsigned int* target, unsigned int v) { atomicAdd(target, v); }
__device__ __forceinline__ void AtomicAddTo(float* target, float v) { atomicAdd(target, v); }

}  // namespace detail

// BlockScan: exclusive prefix sum of one value per thread across the block, in thread order.
// Returns the sum of the values of all lower-numbered threads and sets block_total (in every
// thread) to the sum over the whole block. Warps scan with shuffles; the warp totals go through
// shared memory and are scanned by the first warp.
template <int BLOCK_THREADS>
__device__ __forceinline__ int BlockScan(int value, int& block_total) {
    static_assert(BLOCK_THREADS % TESSERA_WARP_THREADS == 0 && BLOCK_THREADS <= 1024,
                  "BLOCK_THREADS must be a multiple of 32, at most 1024");
    constexpr int WARPS = BLOCK_THREADS / TESSERA_WARP_THREADS;
    __shared__ int warp_offset[WARPS + 1];  // exclusive offset per warp, then the block total

    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const int warp = (int)threadIdx.x / TESSERA_WARP_THREADS;
    const int inclusive = detail::WarpInclusiveSum(value);

    __syncthreads();  // an earlier call may still be reading warp_offset
    if (lane == TESSERA_WARP_THREADS - 1) warp_offset[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const int total = lane < WARPS ? warp_offset[lane] : 0;
        const int scanned = detail::WarpInclusiveSum(total);
        if (lane < WARPS) warp_offset[lane] = scanned - total;
        if (lane == WARPS - 1) warp_offset[WARPS] = scanned;
    }
    __syncthreads();
    block_total = warp_offset[WARPS];
    return warp_offset[warp] + inclusive - value;
}

// BlockScan over selection flags: offsets[i] becomes the position of item i among the selected
// items of the tile (in thread order, then item order); selected is the tile's selected count.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__device__ __forceinline__ void BlockScanFlags(const int (&flags)[ITEMS_PER_THREAD], int (&offsets)[ITEMS_PER_THREAD],
                                               int& selected) {
    int count = 0;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) count += flags[i] ? 1 : 0;
    int running = BlockScan<BLOCK_THREADS>(count, selected);
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        offsets[i] = running;
        running += flags[i] ? 1 : 0;
    }
}

// Reserves `count` consecutive output slots for the whole block with one atomic on `cursor` and
// returns the first one to every thread (the tile-wide replacement of one atomic per row).
template <int BLOCK_THREADS>
__device__ __forceinline__ unsigned long long BlockReserve(unsigned long long* cursor, int count) {
    __shared__ unsigned long long base;
    __syncthreads();
    if (threadIdx.x == 0) base = count > 0 ? atomicAdd(cursor, (unsigned long long)count) : 0ull;
    __syncthreads();
    return base;
}

// ---------------------------------------------------------------------------------------------
// BlockShuffle and BlockStore: compact selected rows and write them out
// ---------------------------------------------------------------------------------------------

// Moves the selected items to the front of the tile: each selected item goes to
// buffer[offsets[i]] (offsets from BlockScanFlags), then every thread reads the compacted tile
// back in striped order, so that afterwards items[i] holds compacted row i * BLOCK_THREADS + t
// (valid where that is below the selected count). buffer is shared memory of
// BLOCK_THREADS * ITEMS_PER_THREAD elements provided by the kernel.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ __forceinline__ void BlockShuffle(T (&items)[ITEMS_PER_THREAD], const int (&flags)[ITEMS_PER_THREAD],
                                             const int (&offsets)[ITEMS_PER_THREAD], T* buffer) {
    __syncthreads();  // the buffer may still be in use from the previous tile
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        if (flags[i]) buffer[offsets[i]] = items[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = buffer[i * BLOCK_THREADS + (int)threadIdx.x];
}

// Striped store of the first `count` items of a tile held in striped order (as BlockShuffle leaves
// them): row i * BLOCK_THREADS + t goes to out[row]. Consecutive threads write consecutive
// addresses, so every warp store is coalesced.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ __forceinline__ void BlockStore(const T (&items)[ITEMS_PER_THREAD], T* out, int count) {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        const int row = i * BLOCK_THREADS + (int)threadIdx.x;
        if (row < count) out[row] = items[i];
    }
}

// Stores a whole tile as loaded by BlockLoad (same arrangement), for example a projection that
// keeps every row: item i goes to out[TileRow(i)].
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ __forceinline__ void BlockStoreTile(const T (&items)[ITEMS_PER_THREAD], T* out, int tile_size) {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        if (TileValid<BLOCK_THREADS, ITEMS_PER_THREAD>(i, tile_size)) {
            out[TileRow<BLOCK_THREADS, ITEMS_PER_THREAD>(i, tile_size)] = items[i];
        }
    }
}

// ---------------------------------------------------------------------------------------------
// BlockLookup: hash-join probes
// ---------------------------------------------------------------------------------------------

// One slot of a hash table: the build key and its payload, laid out as the C struct
// { K key; V value; } (so {int, int} is 8 bytes, {int, long long} 16 bytes with padding).
template <typename K, typename V>
struct HashSlot {
    K key;
    V value;
};

// Probes a perfect (dense) table: the slot of key k is k - key_min, for slots slots. A key outside
// the range, or whose slot holds another key, clears the row's flag; otherwise values[i] gets the
// payload. The builder fills unused slots with a key that cannot map there (TESSERA_EMPTY_KEY
// unless key_min is that value). Only rows whose flag is set are probed.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ __forceinline__ void BlockLookupPerfect(const K (&keys)[ITEMS_PER_THREAD], V (&values)[ITEMS_PER_THREAD],
                                                   int (&flags)[ITEMS_PER_THREAD], const HashSlot<K, V>* table,
                                                   K key_min, long long slots) {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        if (!flags[i]) continue;
        const long long slot = (long long)keys[i] - (long long)key_min;
        if (slot < 0 || slot >= slots) {
            flags[i] = 0;
            continue;
        }
        const HashSlot<K, V> entry = table[slot];
        if (entry.key == keys[i]) {
            values[i] = entry.value;
        } else {
            flags[i] = 0;
        }
    }
}

// Semi-join probe of a perfect table that holds keys only (a set): keeps the flags of rows whose
// key is present.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ __forceinline__ void BlockLookupPerfectExists(const K (&keys)[ITEMS_PER_THREAD], int (&flags)[ITEMS_PER_THREAD],
                                                         const K* table, K key_min, long long slots) {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        if (!flags[i]) continue;
        const long long slot = (long long)keys[i] - (long long)key_min;
        flags[i] = slot >= 0 && slot < slots && table[slot] == keys[i];
    }
}

// Hash functions for linear probing; both map a key to a slot in [0, 2^log2_slots).
struct HashMultiplyShift {
    // Multiplicative hashing: the top log2_slots bits of key times a 64-bit odd constant.
    __device__ __forceinline__ static unsigned long long Slot(long long key, int log2_slots) {
        const unsigned long long h = (unsigned long long)key * 0x9E3779B97F4A7C15ull;
        return log2_slots == 0 ? 0ull : h >> (64 - log2_slots);
    }
};
struct HashMurmur {
    // The 64-bit finalizer of MurmurHash3, masked to the table size.
    __device__ __forceinline__ static unsigned long long Slot(long long key, int log2_slots) {
        unsigned long long h = (unsigned long long)key;
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        h *= 0xc4ceb9fe1a85ec53ull;
        h ^= h >> 33;
        return h & ((1ull << log2_slots) - 1ull);
    }
};

// Probes a linear-probing table of 2^log2_slots slots, built with the same Hash: walks from the
// key's home slot until the key (payload to values[i]) or an empty slot (key == empty_key: flag
// cleared). The walk is bounded by the table size, so a full table cannot loop forever.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename Hash, typename K, typename V>
__device__ __forceinline__ void BlockLookupLinear(const K (&keys)[ITEMS_PER_THREAD], V (&values)[ITEMS_PER_THREAD],
                                                  int (&flags)[ITEMS_PER_THREAD], const HashSlot<K, V>* table,
                                                  int log2_slots, K empty_key) {
    const unsigned long long mask = (1ull << log2_slots) - 1ull;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        if (!flags[i]) continue;
        unsigned long long slot = Hash::Slot((long long)keys[i], log2_slots);
        int found = 0;
        for (unsigned long long step = 0; step <= mask; ++step) {
            const HashSlot<K, V> entry = table[slot];
            if (entry.key == keys[i]) {
                values[i] = entry.value;
                found = 1;
                break;
            }
            if (entry.key == empty_key) break;
            slot = (slot + 1) & mask;
        }
        flags[i] = found;
    }
}

// ---------------------------------------------------------------------------------------------
// BlockAggregate: hierarchical sums
// ---------------------------------------------------------------------------------------------

// Sum of one value per thread across the block: warps reduce with shuffles, the warp sums meet in
// shared memory and the first warp adds them up. The result is valid in thread 0 only.
template <int BLOCK_THREADS, typename T>
__device__ __forceinline__ T BlockSum(T value) {
    static_assert(BLOCK_THREADS % TESSERA_WARP_THREADS == 0 && BLOCK_THREADS <= 1024,
                  "BLOCK_THREADS must be a multiple of 32, at most 1024");
    constexpr int WARPS = BLOCK_THREADS / TESSERA_WARP_THREADS;
    __shared__ T warp_sum[WARPS];

    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const int warp = (int)threadIdx.x / TESSERA_WARP_THREADS;
    const T partial = detail::WarpSum(value);

    __syncthreads();  // an earlier call may still be reading warp_sum
    if (lane == 0) warp_sum[warp] = partial;
    __syncthreads();
    T total = T();
    if (warp == 0) {
        total = detail::WarpSum(lane < WARPS ? warp_sum[lane] : T());
    }
    return total;
}

// Adds the block's sum of `value` to *result with a single atomic (from thread 0). Types:
// long long, unsigned long long, double (and int, unsigned int, float).
template <int BLOCK_THREADS, typename T>
__device__ __forceinline__ void BlockAggregate(T value, T* result) {
    const T total = BlockSum<BLOCK_THREADS>(value);
    if (threadIdx.x == 0 && total != T()) detail::AtomicAddTo(result, total);
}

// Per-thread sum of the selected items of a tile, in the accumulator type A (for example the
// 64-bit sum of an int column), to be handed to BlockAggregate once per block.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename T>
__device__ __forceinline__ A ThreadSum(const T (&items)[ITEMS_PER_THREAD], const int (&flags)[ITEMS_PER_THREAD]) {
    A sum = A();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        if (flags[i]) sum += (A)items[i];
    }
    return sum;
}

}  // namespace tessera

#endif  // TESSERA_CRYSTAL_CUH
