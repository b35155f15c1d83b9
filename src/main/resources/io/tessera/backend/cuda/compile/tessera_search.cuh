// tessera_search.cuh: lookups in a sorted array of 64-bit keys (the build side of a sorted-search join, sorted on
// the device), each answered by the first place whose key is not below the lookup (lower bound) and the first whose
// key is above it (upper bound): the range of its duplicates.
//
// Two ways, for the same answers:
//   tessera_search_binary   one thread per lookup, halving the range each step (log2(n) dependent loads)
//   tessera_search_pary_P   p-ary search (Kaldewey et al., "Parallel search on video cards"): a group of P lanes of
//                           a warp per lookup; each step the P lanes read P keys that split the range into P parts,
//                           a ballot says how many lie below the lookup, and the range shrinks to one part
//                           (log_P(n) steps, the P loads of a step issued together)
//   tessera_search_index_G  p-ary search over an index of cache lines (below): a group of G lanes (1 to 16) per
//                           lookup reads one 128-byte line of 16 keys a step, 16 / G keys a lane, and a sum across
//                           the group says how many lie below the lookup (log_16(n) steps of one line each, the
//                           lower and upper bound from the same line while they share it)

#ifndef TESSERA_SEARCH_CUH
#define TESSERA_SEARCH_CUH

#include "tessera_crystal.cuh"

namespace tessera {
namespace search {

// Whether key k stops the search for q: for a lower bound at the first key >= q, for an upper bound at the first > q.
template <bool UPPER>
__device__ __forceinline__ bool Below(unsigned long long k, unsigned long long q) {
    return UPPER ? k <= q : k < q;
}

template <bool UPPER>
__device__ __forceinline__ long long BinaryBound(const unsigned long long* __restrict__ sorted, long long n,
                                                 unsigned long long q) {
    long long lo = 0;
    long long hi = n;
    while (lo < hi) {
        const long long mid = lo + ((hi - lo) >> 1);
        if (Below<UPPER>(__ldg(sorted + mid), q)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

#ifndef TESSERA_SEARCH_DEVICE_ONLY
// lower[i], upper[i]: the bounds of lookups[i] in sorted[0, n), one thread per lookup (upper null: lower bounds only).
extern "C" __global__ void tessera_search_binary(const unsigned long long* __restrict__ sorted, long long n,
                                                 const unsigned long long* __restrict__ lookups, long long m,
                                                 long long* __restrict__ lower, long long* __restrict__ upper) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (long long)gridDim.x * blockDim.x) {
        const unsigned long long q = lookups[i];
        lower[i] = BinaryBound<false>(sorted, n, q);
        if (upper != nullptr) upper[i] = BinaryBound<true>(sorted, n, q);
    }
}
#endif  // TESSERA_SEARCH_DEVICE_ONLY

// The bound of q in sorted[0, n) by a group of P lanes (P a power of two up to 32; the group's lanes are
// consecutive and start at a multiple of P). Every lane of the warp calls it the same number of times (the loop
// runs while any group of the warp still has a range), and every lane of a group gets the answer. The range
// [lo, hi] holds the answer: keys before lo are below q, keys from hi on are not. Lane j of the group reads
// key lo + j * seg (seg = ceil((hi - lo) / P)): the lanes whose key is below q form a prefix of c lanes, so the
// answer lies after lane c - 1's key and at or before lane c's.
template <int P, bool UPPER>
__device__ __forceinline__ long long PAryBound(const unsigned long long* __restrict__ sorted, long long n,
                                               unsigned long long q, bool active) {
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const int j = lane & (P - 1);
    const int group_shift = lane & ~(P - 1);
    const unsigned int group_mask = P == 32 ? TESSERA_FULL_MASK : ((1u << P) - 1u);
    long long lo = 0;
    long long hi = active ? n : 0;
    while (__any_sync(TESSERA_FULL_MASK, lo < hi)) {
        const long long len = hi - lo;
        const long long seg = (len + P - 1) / P;
        const long long at = lo + (long long)j * seg;
        const bool below = lo < hi && at < hi && Below<UPPER>(__ldg(sorted + at), q);
        const unsigned int votes = (__ballot_sync(TESSERA_FULL_MASK, below) >> group_shift) & group_mask;
        const int c = __popc(votes);
        if (lo < hi) {
            const long long next_lo = c > 0 ? lo + (long long)(c - 1) * seg + 1 : lo;
            const long long stop = lo + (long long)c * seg;
            hi = c < P && stop < hi ? stop : hi;
            lo = next_lo;
        }
    }
    return lo;
}

// The bounds of lookups[i] (as tessera_search_binary), P lanes per lookup, 32 / P lookups per warp at a time.
template <int P>
__device__ __forceinline__ void PArySearch(const unsigned long long* __restrict__ sorted, long long n,
                                           const unsigned long long* __restrict__ lookups, long long m,
                                           long long* __restrict__ lower, long long* __restrict__ upper) {
    constexpr int PER_WARP = TESSERA_WARP_THREADS / P;
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / TESSERA_WARP_THREADS;
    const long long warps = ((long long)gridDim.x * blockDim.x) / TESSERA_WARP_THREADS;
    // the same number of rounds in every lane of the warp: the ballots need them all
    for (long long first = warp * PER_WARP; first < m; first += warps * PER_WARP) {
        const long long i = first + lane / P;
        const bool active = i < m;
        const unsigned long long q = active ? lookups[i] : 0ull;
        const long long lo = PAryBound<P, false>(sorted, n, q, active);
        long long hi = 0;
        if (upper != nullptr) hi = PAryBound<P, true>(sorted, n, q, active);
        if (active && (lane & (P - 1)) == 0) {
            lower[i] = lo;
            if (upper != nullptr) upper[i] = hi;
        }
    }
}

#ifndef TESSERA_SEARCH_DEVICE_ONLY
#define TESSERA_PARY_KERNEL(P)                                                                                       \
    extern "C" __global__ void tessera_search_pary_##P(const unsigned long long* __restrict__ sorted, long long n,  \
                                                       const unsigned long long* __restrict__ lookups, long long m, \
                                                       long long* __restrict__ lower, long long* __restrict__ upper) { \
        PArySearch<P>(sorted, n, lookups, m, lower, upper);                                                          \
    }
TESSERA_PARY_KERNEL(4)
TESSERA_PARY_KERNEL(8)
TESSERA_PARY_KERNEL(16)
TESSERA_PARY_KERNEL(32)
#undef TESSERA_PARY_KERNEL
#endif  // TESSERA_SEARCH_DEVICE_ONLY

// ---- p-ary search over an index of cache lines ----
//
// Level h (1 to H) of the index holds the last key of every block of 16^h keys of the sorted array (entry j:
// sorted[min((j + 1) * 16^h, n) - 1]), padded with ~0 to whole lines of 16 entries; the levels lie one after another
// from the top (H, at most 16 entries: one line) down to 1, each 16 entries (128 bytes) aligned, about n / 15 keys
// in all (8.5 MB for 2^24 keys: it stays in the L2 cache). Line b of level h splits block b of 16^(h + 1) keys into
// 16 blocks: the first entry not below the lookup names the block that holds the answer, so a search reads one line
// per level and then one line of the array. SearchIndex (the host) computes the same layout.

#define TESSERA_INDEX_FANOUT 16
#define TESSERA_INDEX_FANOUT_BITS 4

// Entries of level h: blocks of 16^h keys in n.
__device__ __forceinline__ long long IndexEntries(long long n, int h) {
    const int bits = TESSERA_INDEX_FANOUT_BITS * h;
    return bits >= 63 ? 1 : (n + (1ll << bits) - 1) >> bits;
}

__device__ __forceinline__ long long IndexPadded(long long entries) {
    return (entries + TESSERA_INDEX_FANOUT - 1) & ~(long long)(TESSERA_INDEX_FANOUT - 1);
}

#ifndef TESSERA_SEARCH_DEVICE_ONLY
// level[j] = the last key of block j of 2^shift keys, for j < padded (~0 from `entries` on).
extern "C" __global__ void tessera_search_index_level(const unsigned long long* __restrict__ sorted, long long n,
                                                      int shift, long long entries, long long padded,
                                                      unsigned long long* __restrict__ level) {
    for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < padded; j += (long long)gridDim.x * blockDim.x) {
        if (j < entries) {
            const long long end = (j + 1) << shift;
            level[j] = sorted[(end < n ? end : n) - 1];
        } else {
            level[j] = ~0ull;
        }
    }
}
#endif  // TESSERA_SEARCH_DEVICE_ONLY

// This lane's part of a line's count (the line at `line`, 128-byte aligned; lane j of a group of G reads keys
// j * 16 / G on; `limit`: the keys of the line that exist, the rest not read): the keys below q in the low 16 bits,
// those not above q in the high 16 bits, so that one sum across the group gives a lower and an upper bound's step.
template <int G>
__device__ __forceinline__ int LaneCounts(const unsigned long long* __restrict__ line, int limit, unsigned long long q) {
    constexpr int KPL = TESSERA_INDEX_FANOUT / G;
    const int first = ((int)threadIdx.x & (G - 1)) * KPL;
    int c = 0;
    if (KPL >= 2 && limit == TESSERA_INDEX_FANOUT) {
#pragma unroll
        for (int s = 0; s < KPL; s += 2) {
            const ulonglong2 v = __ldg(reinterpret_cast<const ulonglong2*>(line + first + s));
            c += (v.x < q ? 1 : 0) + (v.x <= q ? 1 << 16 : 0);
            c += (v.y < q ? 1 : 0) + (v.y <= q ? 1 << 16 : 0);
        }
    } else {
#pragma unroll
        for (int s = 0; s < KPL; ++s) {
            if (first + s < limit) {
                const unsigned long long k = __ldg(line + first + s);
                c += (k < q ? 1 : 0) + (k <= q ? 1 << 16 : 0);
            }
        }
    }
    return c;
}

// The sum of c over the group of G lanes; every lane of the warp calls it together.
template <int G>
__device__ __forceinline__ int GroupSum(int c) {
#pragma unroll
    for (int d = G / 2; d > 0; d >>= 1) c += __shfl_xor_sync(TESSERA_FULL_MASK, c, d);
    return c;
}

// Lower and upper bound of q through the index (levels H..1) and a line of the array. The two descents share a
// line's load while they are in the same line (a key's duplicates part them only near the bottom); the upper one
// is left out where `upper` is false (the same in every lane). Blocks past the last entry are never chosen: a count
// that reaches past them (every key below q) stays in the last block, whose keys then all count.
template <int G>
__device__ __forceinline__ void IndexBounds(const unsigned long long* __restrict__ sorted, long long n,
                                            const unsigned long long* __restrict__ index, int levels,
                                            unsigned long long q, bool upper, long long& lo, long long& hi) {
    long long lo_block = 0;
    long long hi_block = 0;
    long long off = 0;
    for (int h = levels; h >= 1; --h) {
        const long long entries = IndexEntries(n, h);
        const int lo_part = LaneCounts<G>(index + off + lo_block * TESSERA_INDEX_FANOUT, TESSERA_INDEX_FANOUT, q);
        const bool apart = upper && hi_block != lo_block;
        const int hi_part = apart ? LaneCounts<G>(index + off + hi_block * TESSERA_INDEX_FANOUT, TESSERA_INDEX_FANOUT, q)
                                  : 0;
        const int lo_sum = GroupSum<G>(lo_part);
        const int hi_sum = upper ? GroupSum<G>(hi_part) : 0;
        const int lo_c = lo_sum & 0xffff;
        const int hi_c = (apart ? hi_sum : lo_sum) >> 16;
        const int lo_valid = (int)min((long long)TESSERA_INDEX_FANOUT, entries - lo_block * TESSERA_INDEX_FANOUT);
        const int hi_valid = (int)min((long long)TESSERA_INDEX_FANOUT, entries - hi_block * TESSERA_INDEX_FANOUT);
        lo_block = lo_block * TESSERA_INDEX_FANOUT + min(lo_c, lo_valid - 1);
        hi_block = upper ? hi_block * TESSERA_INDEX_FANOUT + min(hi_c, hi_valid - 1) : lo_block;
        off += IndexPadded(entries);
    }
    const long long lo_first = lo_block * TESSERA_INDEX_FANOUT;
    const long long hi_first = hi_block * TESSERA_INDEX_FANOUT;
    const bool apart = upper && hi_block != lo_block;
    const int lo_part = LaneCounts<G>(sorted + lo_first, (int)min((long long)TESSERA_INDEX_FANOUT, n - lo_first), q);
    const int hi_part =
        apart ? LaneCounts<G>(sorted + hi_first, (int)min((long long)TESSERA_INDEX_FANOUT, n - hi_first), q) : 0;
    const int lo_sum = GroupSum<G>(lo_part);
    const int hi_sum = upper ? GroupSum<G>(hi_part) : 0;
    lo = lo_first + (lo_sum & 0xffff);
    hi = hi_first + ((apart ? hi_sum : lo_sum) >> 16);
}

// ---- the probes of a sorted join table (generated kernels include this header, TESSERA_SEARCH_DEVICE_ONLY) ----
//
// A sorted join table holds its build's keys as words that order as unsigned numbers (KeyWord), sorted on the
// device, and beside them each word's place in the build's output. A probing row finds its key as the range
// [lo, hi) of the sorted places that hold it; lo == hi when it is not there, or the row is not looking.

// A signed key as a word whose unsigned order is the key's order.
__device__ __forceinline__ unsigned long long KeyWord(long long key) {
    return (unsigned long long)key ^ 0x8000000000000000ull;
}

// The range of q in sorted[0, n), one thread's binary search. upper: the whole range of a key that may repeat;
// else one place at most (hi = lo + 1 where sorted[lo] is q), for keys that are unique or only tested for presence.
__device__ __forceinline__ void JoinBinaryBounds(const unsigned long long* __restrict__ sorted, long long n,
                                                 unsigned long long q, bool active, bool upper, long long& lo,
                                                 long long& hi) {
    lo = 0;
    hi = 0;
    if (!active) return;
    lo = BinaryBound<false>(sorted, n, q);
    if (upper) {
        hi = BinaryBound<true>(sorted, n, q);
    } else {
        hi = lo < n && __ldg(sorted + lo) == q ? lo + 1 : lo;
    }
}

// The same answers by the p-ary search over the index of lines (IndexBounds), G lanes a lookup. Every lane of the
// warp calls it together, each with its own lookup: in round r the group of lanes g * G to g * G + G - 1 searches
// lane g * G + r's lookup, so the warp answers 32 / G lookups a round and its 32 in G rounds (a round none of whose
// lookups is active is skipped by the whole warp). Without upper, hi is the end of q's run within the line of the
// array where lo lies, which is past lo exactly when q is there.
template <int G>
__device__ __forceinline__ void JoinIndexBounds(const unsigned long long* __restrict__ sorted, long long n,
                                                const unsigned long long* __restrict__ index, int levels,
                                                unsigned long long q, bool active, bool upper, long long& lo,
                                                long long& hi) {
    lo = 0;
    hi = 0;
    if (n == 0) return;  // the same in every lane: a kernel parameter
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const int group_first = lane & ~(G - 1);
#pragma unroll
    for (int r = 0; r < G; ++r) {
        const unsigned long long q_r = __shfl_sync(TESSERA_FULL_MASK, q, group_first + r);
        const bool active_r = __shfl_sync(TESSERA_FULL_MASK, active, group_first + r);
        if (!__any_sync(TESSERA_FULL_MASK, active_r)) continue;
        long long lo_r = 0;
        long long hi_r = 0;
        IndexBounds<G>(sorted, n, index, levels, q_r, upper, lo_r, hi_r);
        if ((lane & (G - 1)) == r && active) {
            lo = lo_r;
            hi = hi_r;
        }
    }
}

#ifndef TESSERA_SEARCH_DEVICE_ONLY
// The bounds of lookups[i] (as tessera_search_binary) through the index of `levels` levels at `index` (sorted:
// 16-byte aligned, n >= 1), G lanes per lookup, 32 / G lookups per warp at a time.
template <int G>
__device__ __forceinline__ void IndexSearch(const unsigned long long* __restrict__ sorted, long long n,
                                            const unsigned long long* __restrict__ index, int levels,
                                            const unsigned long long* __restrict__ lookups, long long m,
                                            long long* __restrict__ lower, long long* __restrict__ upper) {
    constexpr int PER_WARP = TESSERA_WARP_THREADS / G;
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / TESSERA_WARP_THREADS;
    const long long warps = ((long long)gridDim.x * blockDim.x) / TESSERA_WARP_THREADS;
    // the same rounds in every lane of the warp: the group sums shuffle across all of them
    for (long long first = warp * PER_WARP; first < m; first += warps * PER_WARP) {
        const long long i = first + lane / G;
        const bool active = i < m;
        const unsigned long long q = active ? lookups[i] : 0ull;
        long long lo = 0;
        long long hi = 0;
        IndexBounds<G>(sorted, n, index, levels, q, upper != nullptr, lo, hi);
        if (active && (lane & (G - 1)) == 0) {
            lower[i] = lo;
            if (upper != nullptr) upper[i] = hi;
        }
    }
}

#define TESSERA_INDEX_KERNEL(G)                                                                                      \
    extern "C" __global__ void tessera_search_index_##G(                                                             \
        const unsigned long long* __restrict__ sorted, long long n, const unsigned long long* __restrict__ index,   \
        int levels, const unsigned long long* __restrict__ lookups, long long m, long long* __restrict__ lower,     \
        long long* __restrict__ upper) {                                                                             \
        IndexSearch<G>(sorted, n, index, levels, lookups, m, lower, upper);                                          \
    }
TESSERA_INDEX_KERNEL(1)
TESSERA_INDEX_KERNEL(4)
TESSERA_INDEX_KERNEL(8)
TESSERA_INDEX_KERNEL(16)
#undef TESSERA_INDEX_KERNEL
#endif  // TESSERA_SEARCH_DEVICE_ONLY

}  // namespace search
}  // namespace tessera

#endif  // TESSERA_SEARCH_CUH
