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

}  // namespace search
}  // namespace tessera

#endif  // TESSERA_SEARCH_CUH
