// tessera_query.cuh: what generated query kernels need beyond the block-wide primitives of
// tessera_crystal.cuh: checked arithmetic with SQL's overflow errors, warp-level reductions for
// the one-atomic-per-warp aggregation of a pipeline without grouping, 64-bit atomic min and max,
// the join tables' inserts and lookups (linear probing, cuckoo, perfect bitmaps), and the global
// group hash table of agg=shared.
//
// Errors: a kernel keeps an int of error bits per thread and ORs it into a global word once at
// its end; the host turns the bits into the same errors the JVM backend raises.

#ifndef TESSERA_QUERY_CUH
#define TESSERA_QUERY_CUH

#include "tessera_crystal.cuh"

#define TESSERA_ERR_OVERFLOW 1      // an integer or decimal result out of range (numeric overflow)
#define TESSERA_ERR_DIV_ZERO 2      // integer division by zero
#define TESSERA_ERR_TABLE_FULL 4    // a hash table had no free slot left
#define TESSERA_ERR_SENTINEL_KEY 8  // a key equal to the empty-slot marker of its table

#define TESSERA_EMPTY_KEY64 (-9223372036854775807LL - 1)
// next[row] of a chained join table (build keys that may repeat) for a row the table did not take; -1 ends a chain
#define TESSERA_NOT_CHAINED (-2LL)

namespace tessera {
namespace q {

// ---- doubles in DuckDB's total order: every NaN one value, above every number; -0.0 equals 0.0 ----
// (backend.lower.NanOrder writes these tests inline where a side is a plain name, and calls these otherwise)

__device__ __forceinline__ bool NanEqual(double a, double b) {
    return a == b || (a != a && b != b);
}

__device__ __forceinline__ bool NanNotEqual(double a, double b) {
    return !NanEqual(a, b);
}

__device__ __forceinline__ bool NanLess(double a, double b) {
    return a < b || (b != b && a == a);
}

__device__ __forceinline__ bool NanLessOrEqual(double a, double b) {
    return a <= b || b != b;
}

// ---- dictionary codes and dates ----

// Whether a dictionary code's bit is set in a mask of one bit per code, 32 a word: a condition over one string
// column computed on the host for every string of its dictionary (a LIKE, SUBSTRING, a long IN list).
__device__ __forceinline__ bool CodeIn(const unsigned int* __restrict__ mask, int code) {
    return (__ldg(mask + (code >> 5)) >> (code & 31)) & 1u;
}

// A DATE (days since 1970-01-01) as year, month (1-12) and day (1-31) of the proleptic Gregorian calendar, as
// java.time.LocalDate gives them: days counted from 0000-03-01 split into eras of 400 years (146,097 days), the
// year of the era, and the day of a year that starts in March (so that February's length matters last).
__device__ __forceinline__ void CivilDate(int days, int& year, int& month, int& day) {
    long long z = (long long)days + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);                                 // day of the era, 0..146096
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;        // year of the era, 0..399
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                      // day of the March year, 0..365
    unsigned mp = (5 * doy + 2) / 153;                                           // month from March, 0..11
    day = (int)(doy - (153 * mp + 2) / 5 + 1);
    month = (int)(mp < 10 ? mp + 3 : mp - 9);
    year = (int)((long long)yoe + era * 400 + (month <= 2 ? 1 : 0));
}

// EXTRACT(unit FROM date) for YEAR (0), QUARTER (1), MONTH (2) and DAY (3), as BIGINT.
__device__ __forceinline__ long long ExtractDate(int days, int unit) {
    int y, m, d;
    CivilDate(days, y, m, d);
    return unit == 0 ? (long long)y : unit == 1 ? (long long)((m - 1) / 3 + 1) : unit == 2 ? (long long)m : (long long)d;
}

// ---- checked arithmetic (Java's Math.*Exact, as the JVM backend computes) ----

__device__ __forceinline__ long long AddChecked(long long a, long long b, int& err) {
    const long long r = (long long)((unsigned long long)a + (unsigned long long)b);
    if (((a ^ r) & (b ^ r)) < 0) err |= TESSERA_ERR_OVERFLOW;
    return r;
}
__device__ __forceinline__ long long SubChecked(long long a, long long b, int& err) {
    const long long r = (long long)((unsigned long long)a - (unsigned long long)b);
    if (((a ^ b) & (a ^ r)) < 0) err |= TESSERA_ERR_OVERFLOW;
    return r;
}
__device__ __forceinline__ long long MulChecked(long long a, long long b, int& err) {
    const long long lo = (long long)((unsigned long long)a * (unsigned long long)b);
    const long long hi = __mul64hi(a, b);
    if (hi != (lo >> 63)) err |= TESSERA_ERR_OVERFLOW;
    return lo;
}
__device__ __forceinline__ int AddChecked(int a, int b, int& err) {
    const long long r = (long long)a + (long long)b;
    if (r != (int)r) err |= TESSERA_ERR_OVERFLOW;
    return (int)r;
}
__device__ __forceinline__ int SubChecked(int a, int b, int& err) {
    const long long r = (long long)a - (long long)b;
    if (r != (int)r) err |= TESSERA_ERR_OVERFLOW;
    return (int)r;
}
__device__ __forceinline__ int MulChecked(int a, int b, int& err) {
    const long long r = (long long)a * (long long)b;
    if (r != (int)r) err |= TESSERA_ERR_OVERFLOW;
    return (int)r;
}
__device__ __forceinline__ int ToIntChecked(long long v, int& err) {
    if (v != (int)v) err |= TESSERA_ERR_OVERFLOW;
    return (int)v;
}
__device__ __forceinline__ long long NegChecked(long long a, int& err) {
    if (a == TESSERA_EMPTY_KEY64) err |= TESSERA_ERR_OVERFLOW;
    return -a;
}
__device__ __forceinline__ int NegChecked(int a, int& err) {
    if (a == TESSERA_EMPTY_KEY) err |= TESSERA_ERR_OVERFLOW;
    return -a;
}
// SQL division of integers truncates toward zero, as C does; dividing by zero is an error.
template <typename T>
__device__ __forceinline__ T DivChecked(T a, T b, int& err) {
    if (b == 0) {
        err |= TESSERA_ERR_DIV_ZERO;
        return 0;
    }
    if (b == -1) return NegChecked(a, err);
    return a / b;
}
template <typename T>
__device__ __forceinline__ T ModChecked(T a, T b, int& err) {
    if (b == 0) {
        err |= TESSERA_ERR_DIV_ZERO;
        return 0;
    }
    return b == -1 ? 0 : a % b;
}
__device__ __forceinline__ long long Pow10(int n) {
    long long p = 1;
    for (int i = 0; i < n; ++i) p *= 10;
    return p;
}
// Moves a scaled integer by `shift` decimal places: up exactly (checked), down rounding half away
// from zero (Runtime.rescale of the JVM backend).
__device__ __forceinline__ long long Rescale(long long v, int shift, int& err) {
    if (shift >= 0) return MulChecked(v, Pow10(shift), err);
    const long long p = Pow10(-shift);
    long long qv = v / p;
    const long long r = v % p;
    if ((r < 0 ? -r : r) * 2 >= p) qv += v < 0 ? -1 : 1;
    return qv;
}

// ---- warp reductions: the sum, min or max of one value per lane, valid in lane 0 ----

__device__ __forceinline__ long long WarpSumChecked(long long v, int& err) {
#pragma unroll
    for (int d = TESSERA_WARP_THREADS / 2; d > 0; d >>= 1) {
        v = AddChecked(v, __shfl_down_sync(TESSERA_FULL_MASK, v, d), err);
    }
    return v;
}
template <typename T>
__device__ __forceinline__ T WarpSum(T v) {
#pragma unroll
    for (int d = TESSERA_WARP_THREADS / 2; d > 0; d >>= 1) v += __shfl_down_sync(TESSERA_FULL_MASK, v, d);
    return v;
}
template <typename T>
__device__ __forceinline__ T WarpMin(T v) {
#pragma unroll
    for (int d = TESSERA_WARP_THREADS / 2; d > 0; d >>= 1) {
        const T o = __shfl_down_sync(TESSERA_FULL_MASK, v, d);
        v = o < v ? o : v;
    }
    return v;
}
template <typename T>
__device__ __forceinline__ T WarpMax(T v) {
#pragma unroll
    for (int d = TESSERA_WARP_THREADS / 2; d > 0; d >>= 1) {
        const T o = __shfl_down_sync(TESSERA_FULL_MASK, v, d);
        v = o > v ? o : v;
    }
    return v;
}

// ---- atomics ----

// Adds v to *target and flags an overflow of the running total (the old value comes for free).
__device__ __forceinline__ void AtomicAddChecked(long long* target, long long v, int& err) {
    const long long old = (long long)atomicAdd(reinterpret_cast<unsigned long long*>(target), (unsigned long long)v);
    AddChecked(old, v, err);
}
__device__ __forceinline__ void AtomicAddCount(unsigned long long* target, unsigned long long v) { atomicAdd(target, v); }
// Adds a 32-bit value to a 64-bit sum in shared memory with native 32-bit atomics (a 64-bit atomicAdd on shared
// memory is a compare-and-swap loop): the low word takes the value, the high word its sign and the carry out of the
// low word. Exact modulo 2^64; the caller makes sure the true total cannot leave the 64-bit range.
__device__ __forceinline__ void SharedAddInt(long long* target, int v) {
    unsigned int* const w = reinterpret_cast<unsigned int*>(target);  // little-endian: w[0] low, w[1] high
    const unsigned int lo = (unsigned int)v;
    const unsigned int old = atomicAdd(&w[0], lo);
    const unsigned int hi = (old + lo < old ? 1u : 0u) + (v < 0 ? 0xFFFFFFFFu : 0u);
    if (hi != 0u) atomicAdd(&w[1], hi);
}
// a block's row counts in shared memory, when they fit in 32 bits (a native shared atomic)
__device__ __forceinline__ void AtomicAddCount(unsigned int* target, unsigned int v) { atomicAdd(target, v); }
__device__ __forceinline__ void AtomicAddDouble(double* target, double v) { atomicAdd(target, v); }
__device__ __forceinline__ void AtomicMin64(long long* target, long long v) { atomicMin(target, v); }
__device__ __forceinline__ void AtomicMax64(long long* target, long long v) { atomicMax(target, v); }
__device__ __forceinline__ void AtomicMinDouble(double* target, double v) {
    unsigned long long* p = reinterpret_cast<unsigned long long*>(target);
    unsigned long long old = *p;
    while (v < __longlong_as_double((long long)old)) {
        const unsigned long long seen = atomicCAS(p, old, (unsigned long long)__double_as_longlong(v));
        if (seen == old) break;
        old = seen;
    }
}
__device__ __forceinline__ void AtomicMaxDouble(double* target, double v) {
    unsigned long long* p = reinterpret_cast<unsigned long long*>(target);
    unsigned long long old = *p;
    while (v > __longlong_as_double((long long)old)) {
        const unsigned long long seen = atomicCAS(p, old, (unsigned long long)__double_as_longlong(v));
        if (seen == old) break;
        old = seen;
    }
}

// ---- probe limit of the linear-probing tables (join builds and probes, agg=shared group tables) ----
//
// An insert walks at most TESSERA_PROBE_LIMIT slots from its key's home slot (fewer in a smaller table). A table
// sized by the executor for its keys (half full at most) never has a run that long; one that filled up because its
// estimate was too small would otherwise make every insert of a new key walk the whole table, which for millions of
// slots never ends. Reaching the limit sets TESSERA_ERR_TABLE_FULL: the executor builds the table again, larger,
// or runs the query on the JVM. Because no key is placed further than the limit from its home slot, a lookup that
// walks as far without meeting the key knows it is absent. A thread whose err already holds the bit skips its
// further inserts (the launch's results are discarded), so that a full table costs each thread one walk at most.
#define TESSERA_PROBE_LIMIT 1024ull

__device__ __forceinline__ unsigned long long ProbeSteps(int log2_slots) {
    const unsigned long long slots = 1ull << log2_slots;
    return slots < TESSERA_PROBE_LIMIT ? slots : TESSERA_PROBE_LIMIT;
}

// ---- join keys of two 32-bit columns, as one 64-bit key: the first in the high word, the second in the low ----

__device__ __forceinline__ long long PackKeys(int a, int b) {
    return (long long)(((unsigned long long)(unsigned int)a << 32) | (unsigned long long)(unsigned int)b);
}
// Two keys of which one or both are 64-bit: packed when both values fit in 32 bits, else the empty marker of
// 64-bit tables (a probe finds no row for it; a build reports it, and the query runs on the JVM).
__device__ __forceinline__ long long PackKeysIf32(long long a, long long b) {
    if (a != (long long)(int)a || b != (long long)(int)b) return TESSERA_EMPTY_KEY64;
    return PackKeys((int)a, (int)b);
}

// ---- hash-join build: insert into a linear-probing table (keys with the empty marker) ----

template <typename Hash>
__device__ __forceinline__ long long LinearInsert(int* keys, int key, int log2_slots, int& err) {
    if (key == TESSERA_EMPTY_KEY) {
        err |= TESSERA_ERR_SENTINEL_KEY;
        return -1;
    }
    if (err & TESSERA_ERR_TABLE_FULL) return -1;
    const unsigned long long mask = (1ull << log2_slots) - 1ull;
    const unsigned long long steps = ProbeSteps(log2_slots);
    unsigned long long slot = Hash::Slot((long long)key, log2_slots);
    for (unsigned long long step = 0; step < steps; ++step) {
        const int seen = atomicCAS(&keys[slot], TESSERA_EMPTY_KEY, key);
        if (seen == TESSERA_EMPTY_KEY || seen == key) return (long long)slot;
        slot = (slot + 1) & mask;
    }
    err |= TESSERA_ERR_TABLE_FULL;
    return -1;
}
template <typename Hash>
__device__ __forceinline__ long long LinearInsert(long long* keys, long long key, int log2_slots, int& err) {
    if (key == TESSERA_EMPTY_KEY64) {
        err |= TESSERA_ERR_SENTINEL_KEY;
        return -1;
    }
    if (err & TESSERA_ERR_TABLE_FULL) return -1;
    const unsigned long long mask = (1ull << log2_slots) - 1ull;
    const unsigned long long steps = ProbeSteps(log2_slots);
    unsigned long long slot = Hash::Slot(key, log2_slots);
    unsigned long long* k = reinterpret_cast<unsigned long long*>(keys);
    for (unsigned long long step = 0; step < steps; ++step) {
        const long long seen = (long long)atomicCAS(&k[slot], (unsigned long long)TESSERA_EMPTY_KEY64, (unsigned long long)key);
        if (seen == TESSERA_EMPTY_KEY64 || seen == key) return (long long)slot;
        slot = (slot + 1) & mask;
    }
    err |= TESSERA_ERR_TABLE_FULL;
    return -1;
}
// The slot of key in a linear-probing table, or -1 when absent. A key equal to the empty marker is
// never in the table (a build that meets one falls back to the JVM), though every empty slot holds it. The walk
// stops after ProbeSteps slots: LinearInsert placed every key within as many of its home slot.
template <typename Hash, typename K>
__device__ __forceinline__ long long LinearFind(const K* keys, K key, K empty, int log2_slots) {
    if (key == empty) return -1;
    const unsigned long long mask = (1ull << log2_slots) - 1ull;
    const unsigned long long steps = ProbeSteps(log2_slots);
    unsigned long long slot = Hash::Slot((long long)key, log2_slots);
    for (unsigned long long step = 0; step < steps; ++step) {
        const K seen = keys[slot];
        if (seen == key) return (long long)slot;
        if (seen == empty) return -1;
        slot = (slot + 1) & mask;
    }
    return -1;
}
// The slot of key in a perfect table over [key_min, key_min + slots), or -1 when absent.
template <typename K>
__device__ __forceinline__ long long PerfectFind(const K* keys, K key, long long key_min, long long slots) {
    const long long s = (long long)key - key_min;
    if (s < 0 || s >= slots) return -1;
    return keys[s] == key ? s : -1;
}

// The slot of key in a perfect table kept as a presence bitmap over [key_min, key_min + slots), or -1 when the key
// is absent or the row not selected. SHARED: the bitmap was copied into the block's shared memory (bm=shared), where
// a warp's lookups cost the bank conflicts among them instead of the L1 lines they touch. The word is read only for
// a selected key in range: a predicated load, no branch, so that a probe called for every row of a tile
// (ppred=predicated) costs the same few instructions whichever rows are still selected.
template <bool SHARED>
__device__ __forceinline__ long long PerfectFindBit(const unsigned int* bits, long long key, long long key_min,
                                                    long long slots, bool selected = true) {
    const long long s = key - key_min;
    unsigned int word = 0;
    if (selected && s >= 0 && s < slots) word = SHARED ? bits[s >> 5] : __ldg(&bits[s >> 5]);
    return (word >> (s & 31)) & 1u ? s : -1;
}

// PerfectFindBit for 32-bit keys, in 32-bit arithmetic: probing kernels are issue-bound, and a 64-bit subtract and
// two 64-bit compares take twice the instructions. (unsigned)(key - min) < slots tests both ends of the range at
// once; it is exact for a range of 32-bit keys (one that ends at INT_MAX at most, with slots below 2^31).
template <bool SHARED>
__device__ __forceinline__ int PerfectFindBit32(const unsigned int* bits, int key, long long key_min, long long slots,
                                                bool selected = true) {
    const unsigned int s = (unsigned int)key - (unsigned int)key_min;
    unsigned int word = 0;
    if (selected && s < (unsigned int)slots) word = SHARED ? bits[s >> 5] : __ldg(&bits[s >> 5]);
    return (word >> (s & 31)) & 1u ? (int)s : -1;
}

// ---- hash-join build and probe: cuckoo hashing with K = 2..4 hash functions (ht=cuckoo2|3|4) ----
//
// Every key sits in one of its K candidate slots, so a probe reads K slots, independently of each
// other, and never walks a run of slots as linear probing does. The K functions derive from the
// genome's hash: multiply-shift with K different odd multipliers (the first one HashMultiplyShift's),
// or murmur's finalizer of the key xor K different salts (the first salt 0: HashMurmur itself).

template <typename Hash>
struct CuckooFamily;

template <>
struct CuckooFamily<HashMultiplyShift> {
    __device__ __forceinline__ static unsigned long long Slot(long long key, int fn, int log2_slots) {
        const unsigned long long m = fn == 0 ? 0x9E3779B97F4A7C15ull
                                   : fn == 1 ? 0xC2B2AE3D27D4EB4Full
                                   : fn == 2 ? 0x165667B19E3779F9ull
                                             : 0xD6E8FEB86659FD93ull;
        const unsigned long long h = (unsigned long long)key * m;
        return log2_slots == 0 ? 0ull : h >> (64 - log2_slots);
    }
};

template <>
struct CuckooFamily<HashMurmur> {
    __device__ __forceinline__ static unsigned long long Slot(long long key, int fn, int log2_slots) {
        const unsigned long long salt = fn == 0 ? 0ull
                                      : fn == 1 ? 0x5851F42D4C957F2Dull
                                      : fn == 2 ? 0x14057B7EF767814Full
                                                : 0x2545F4914F6CDD1Dull;
        return HashMurmur::Slot((long long)((unsigned long long)key ^ salt), log2_slots);
    }
};

__device__ __forceinline__ int AtomicCasKey(int* p, int expected, int v) { return atomicCAS(p, expected, v); }
__device__ __forceinline__ long long AtomicCasKey(long long* p, long long expected, long long v) {
    return (long long)atomicCAS(reinterpret_cast<unsigned long long*>(p), (unsigned long long)expected,
                                (unsigned long long)v);
}
__device__ __forceinline__ int AtomicExchKey(int* p, int v) { return atomicExch(p, v); }
__device__ __forceinline__ long long AtomicExchKey(long long* p, long long v) {
    return (long long)atomicExch(reinterpret_cast<unsigned long long*>(p), (unsigned long long)v);
}

// Evictions one insert may make before it gives up (the JVM backend's cuckoo table allows as many kicks).
__device__ __forceinline__ int CuckooMaxEvictions(int log2_slots) { return 64 + 16 * log2_slots; }

// Inserts key into a cuckoo table of 2^log2_slots keys (empty slots hold `empty`). Keys only: the
// table's payload is written by a second launch (CuckooFind below), because an insert moves keys
// that other threads placed, and a payload written beside a key could be left behind by such a move.
//
// Concurrent inserts: a key is always either in a slot or held by exactly one thread, never both and
// never lost. A thread first tries to claim a free candidate slot with atomicCAS; when all K are
// taken it swaps its key into one of them with atomicExch and goes on inserting the key it got back
// (the victim), whose candidate slots differ. A slot only ever receives a key for which it is a
// candidate. So when every insert has returned, every key sits in one of its candidate slots, unless
// an insert ran out of evictions: then the key it held is in no slot, and the error bit
// TESSERA_ERR_TABLE_FULL makes the executor build a larger table or fall back to the JVM.
//
// Repeated keys (semi and anti joins build keys only, and may see a key many times): a thread that
// meets its key in a candidate slot (the CAS returns it), or swaps it out of one (atomicExch returns
// it), drops its copy; a copy is never lost, so the key stays in the table. Two copies of a key can
// still both land in the table when one is in flight while the other is inserted; a probe finds
// either, and the table holds at most as many keys as there were inserts, so it cannot fill up
// because of them, and no insert loops: each makes at most CuckooMaxEvictions swaps.
template <int K, typename Hash, typename T>
__device__ __forceinline__ void CuckooInsert(T* keys, T key, T empty, int log2_slots, int& err) {
    static_assert(K >= 2 && K <= 4, "cuckoo tables use 2 to 4 hash functions");
    if (key == empty) {
        err |= TESSERA_ERR_SENTINEL_KEY;
        return;
    }
    if (err & TESSERA_ERR_TABLE_FULL) return;  // this launch is discarded: its other inserts need not be made
    T cur = key;
    unsigned long long from = ~0ull;  // the slot cur was swapped out of (none yet)
    // a per-thread xorshift picks which candidate to swap into, so that evictions do not run in cycles
    unsigned int rnd = (threadIdx.x + 1u) * 0x9E3779B9u ^ (blockIdx.x + 1u) * 0x85EBCA6Bu;
    const int max_evictions = CuckooMaxEvictions(log2_slots);
    for (int e = 0; e <= max_evictions; ++e) {
        unsigned long long slot[K];
#pragma unroll
        for (int f = 0; f < K; ++f) slot[f] = CuckooFamily<Hash>::Slot((long long)cur, f, log2_slots);
        // a free candidate slot, or one that holds the key already
#pragma unroll
        for (int f = 0; f < K; ++f) {
            const T seen = AtomicCasKey(&keys[slot[f]], empty, cur);
            if (seen == empty || seen == cur) return;
        }
        // all K taken: swap cur into one of them, not the one it was just swapped out of
        rnd ^= rnd << 13;
        rnd ^= rnd >> 17;
        rnd ^= rnd << 5;
        // (the candidates are selected with constant indices, so that slot[] stays in registers)
        int pick = (int)(rnd % (unsigned int)K);
        unsigned long long target = slot[0];
#pragma unroll
        for (int f = 1; f < K; ++f) target = f == pick ? slot[f] : target;
        if (target == from) {
            pick = pick + 1 == K ? 0 : pick + 1;
#pragma unroll
            for (int f = 0; f < K; ++f) target = f == pick ? slot[f] : target;
        }
        const T victim = AtomicExchKey(&keys[target], cur);
        if (victim == empty || victim == cur) return;
        cur = victim;
        from = target;
    }
    err |= TESSERA_ERR_TABLE_FULL;
}

// The slot of key in a cuckoo table, or -1 when absent: the K candidate slots are read independently
// (unrolled, no loop at run time). A key equal to the empty marker is never in the table. With two
// copies of a repeated key, the slot of the lower-numbered function is returned.
template <int K, typename Hash, typename T>
__device__ __forceinline__ long long CuckooFind(const T* keys, T key, T empty, int log2_slots) {
    static_assert(K >= 2 && K <= 4, "cuckoo tables use 2 to 4 hash functions");
    if (key == empty) return -1;
    long long found = -1;
#pragma unroll
    for (int f = K - 1; f >= 0; --f) {
        const unsigned long long s = CuckooFamily<Hash>::Slot((long long)key, f, log2_slots);
        if (keys[s] == key) found = (long long)s;
    }
    return found;
}

// ---- agg=shared: one global hash table of groups, W 64-bit key words per group ----
//
// state[slot]: 0 free, 1 being claimed, 2 holds a group. A thread claims a free slot with a CAS,
// writes the keys, and publishes them; a thread that meets a slot being claimed waits for it. The walk is bounded
// by ProbeSteps like LinearInsert's: a table the estimate made too small reports TESSERA_ERR_TABLE_FULL at once,
// and the executor runs the pipeline again into a larger one (from cleared buffers, so nothing counts twice).

template <int W, typename Hash>
__device__ __forceinline__ long long GroupFind(const long long (&key)[W], long long* keys, int* state, int log2_slots,
                                               int& err) {
    if (err & TESSERA_ERR_TABLE_FULL) return -1;
    unsigned long long h = 0;
#pragma unroll
    for (int w = 0; w < W; ++w) h = h * 0x9E3779B97F4A7C15ull + (unsigned long long)key[w];
    const unsigned long long mask = (1ull << log2_slots) - 1ull;
    const unsigned long long steps = ProbeSteps(log2_slots);
    unsigned long long slot = Hash::Slot((long long)h, log2_slots);
    for (unsigned long long step = 0; step < steps; ++step) {
        volatile int* st = &state[slot];
        int s = *st;
        if (s == 0) {
            s = atomicCAS(&state[slot], 0, 1);
            if (s == 0) {
#pragma unroll
                for (int w = 0; w < W; ++w) keys[slot * W + w] = key[w];
                __threadfence();
                atomicExch(&state[slot], 2);
                return (long long)slot;
            }
        }
        while (s == 1) s = *st;
        __threadfence();
        bool same = true;
        volatile long long* k = &keys[slot * W];
#pragma unroll
        for (int w = 0; w < W; ++w) same = same && k[w] == key[w];
        if (same) return (long long)slot;
        slot = (slot + 1) & mask;
    }
    err |= TESSERA_ERR_TABLE_FULL;
    return -1;
}

// ---- kernels the executor launches around generated ones ----

// Fills n 64-bit words with v (cuMemsetD32 cannot write a 64-bit pattern).
extern "C" __global__ void tessera_fill64(long long* p, long long v, long long n) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        p[i] = v;
    }
}

// Holds the stream for ns nanoseconds (one thread). Launched before a timed block of rows: the block's start
// event then fires when this ends, by which time the host has queued the block's launch, so the block's time
// leaves out how long the host took to launch it.
extern "C" __global__ void tessera_spin(long long ns) {
    unsigned long long start;
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        __nanosleep(1000);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while ((long long)(now - start) < ns);
}

// Exclusive prefix sum, in place, of the n per-tile row counts of a two-pass materialization
// (mat=twopass, mat=bitmap), and their total into counts[n] (the array has n + 1 words): the offset
// at which each tile writes its rows in the second pass, and the number of rows. One block of
// TESSERA_SCAN_THREADS threads walks the counts in chunks of four per thread, carrying the running
// total from chunk to chunk; there is one count per tile of thousands of rows, so one block suffices.
#define TESSERA_SCAN_THREADS 1024
extern "C" __global__ void __launch_bounds__(TESSERA_SCAN_THREADS)
tessera_scan_counts(unsigned long long* counts, long long n) {
    constexpr int WARPS = TESSERA_SCAN_THREADS / TESSERA_WARP_THREADS;
    constexpr long long CHUNK = TESSERA_SCAN_THREADS * 4LL;
    __shared__ unsigned long long warp_offset[WARPS];
    __shared__ unsigned long long chunk_end;
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const int warp = (int)threadIdx.x / TESSERA_WARP_THREADS;
    unsigned long long carry = 0;  // the sum of the chunks before, the same in every thread
    for (long long base = 0; base < n; base += CHUNK) {
        unsigned long long v[4];
        unsigned long long sum = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const long long idx = base + 4LL * threadIdx.x + k;
            v[k] = idx < n ? counts[idx] : 0ull;
            sum += v[k];
        }
        unsigned long long inclusive = sum;
#pragma unroll
        for (int d = 1; d < TESSERA_WARP_THREADS; d <<= 1) {
            const unsigned long long other = __shfl_up_sync(TESSERA_FULL_MASK, inclusive, d);
            if (lane >= d) inclusive += other;
        }
        if (lane == TESSERA_WARP_THREADS - 1) warp_offset[warp] = inclusive;
        __syncthreads();
        if (warp == 0) {
            const unsigned long long total = lane < WARPS ? warp_offset[lane] : 0ull;
            unsigned long long scanned = total;
#pragma unroll
            for (int d = 1; d < TESSERA_WARP_THREADS; d <<= 1) {
                const unsigned long long other = __shfl_up_sync(TESSERA_FULL_MASK, scanned, d);
                if (lane >= d) scanned += other;
            }
            if (lane < WARPS) warp_offset[lane] = scanned - total;
        }
        __syncthreads();
        unsigned long long running = carry + warp_offset[warp] + inclusive - sum;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const long long idx = base + 4LL * threadIdx.x + k;
            if (idx < n) counts[idx] = running;
            running += v[k];
        }
        if (threadIdx.x == TESSERA_SCAN_THREADS - 1) chunk_end = running;
        __syncthreads();
        carry = chunk_end;
    }
    if (threadIdx.x == 0) counts[n] = carry;
}

// ---- compaction of a group table's non-empty slots, so that the host reads back only those ----
//
// A slot is non-empty when its row count is not 0 and, given a state array (agg=shared; null for
// the dense modes), its state is 2 (it holds a group). Two kernels share one partition of
// [0, slots) into gridDim.x contiguous chunks, so both must be launched with the same grid and the
// same block size (a multiple of 32, at most 1024): tessera_count_slots counts each chunk's
// non-empty slots, tessera_compact_slots writes their indices at the chunk's offset (the counts of
// the chunks before it), in ascending order: the result is the same on every run. The last block
// writes the total.

__device__ __forceinline__ bool SlotUsed(const unsigned long long* __restrict__ rows, const int* __restrict__ state,
                                         long long s) {
    return rows[s] != 0ull && (state == nullptr || state[s] == 2);
}

// The chunk [begin, end) of this block.
__device__ __forceinline__ void SlotChunk(long long slots, long long& begin, long long& end) {
    const long long per = (slots + gridDim.x - 1) / gridDim.x;
    begin = (long long)blockIdx.x * per;
    if (begin > slots) begin = slots;
    end = begin + per < slots ? begin + per : slots;
}

// The sum of v over the block, in every thread. scratch: one word per warp.
__device__ __forceinline__ long long BlockSumAll(long long v, long long* scratch) {
    v = WarpSum(v);
    const int warp = (int)threadIdx.x / TESSERA_WARP_THREADS;
    if (((int)threadIdx.x & (TESSERA_WARP_THREADS - 1)) == 0) scratch[warp] = v;
    __syncthreads();
    long long total = 0;
    const int warps = (int)blockDim.x / TESSERA_WARP_THREADS;
    for (int w = 0; w < warps; ++w) total += scratch[w];
    __syncthreads();  // scratch may be written again
    return total;
}

// block_counts[b]: the number of non-empty slots in block b's chunk.
extern "C" __global__ void tessera_count_slots(const unsigned long long* __restrict__ rows,
                                               const int* __restrict__ state, long long slots,
                                               long long* __restrict__ block_counts) {
    __shared__ long long scratch[32];
    long long begin, end;
    SlotChunk(slots, begin, end);
    long long n = 0;
    for (long long s = begin + threadIdx.x; s < end; s += blockDim.x) n += SlotUsed(rows, state, s) ? 1 : 0;
    n = BlockSumAll(n, scratch);
    if (threadIdx.x == 0) block_counts[blockIdx.x] = n;
}

// out_index[0 .. *total): the non-empty slots in ascending order (block_counts from tessera_count_slots).
extern "C" __global__ void tessera_compact_slots(const unsigned long long* __restrict__ rows,
                                                 const int* __restrict__ state, long long slots,
                                                 const long long* __restrict__ block_counts,
                                                 long long* __restrict__ out_index,
                                                 unsigned long long* __restrict__ total) {
    __shared__ long long scratch[32];
    __shared__ int warp_counts[32];
    long long base = 0;
    for (int b = (int)threadIdx.x; b < (int)blockIdx.x; b += (int)blockDim.x) base += block_counts[b];
    base = BlockSumAll(base, scratch);
    long long begin, end;
    SlotChunk(slots, begin, end);
    const int warp = (int)threadIdx.x / TESSERA_WARP_THREADS;
    const int lane = (int)threadIdx.x & (TESSERA_WARP_THREADS - 1);
    const int warps = (int)blockDim.x / TESSERA_WARP_THREADS;
    // every thread of the block runs the same iterations (t is the same in all), so the ballots and
    // barriers below are reached by all of them
    for (long long t = begin; t < end; t += blockDim.x) {
        const long long s = t + threadIdx.x;
        const bool used = s < end && SlotUsed(rows, state, s);
        const unsigned int ballot = __ballot_sync(TESSERA_FULL_MASK, used);
        if (lane == 0) warp_counts[warp] = __popc(ballot);
        __syncthreads();
        int before = 0;
        int all = 0;
        for (int w = 0; w < warps; ++w) {
            const int c = warp_counts[w];
            before += w < warp ? c : 0;
            all += c;
        }
        if (used) out_index[base + before + __popc(ballot & ((1u << lane) - 1u))] = s;
        base += all;
        __syncthreads();  // warp_counts is written again
    }
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *total = (unsigned long long)base;
}

// dst[i * width + w] = src[index[i] * width + w] for i < count, w < width: gathers the non-empty
// slots of one array (width 64-bit words per slot: 1 for row counts and aggregates, the key width
// for agg=shared's keys).
extern "C" __global__ void tessera_gather64(const unsigned long long* __restrict__ src,
                                            const long long* __restrict__ index, long long count, int width,
                                            unsigned long long* __restrict__ dst) {
    const long long n = count * width;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const long long entry = i / width;
        const long long word = i - entry * width;
        dst[i] = src[index[entry] * width + word];
    }
}

// tessera_gather64 for up to four arrays at the same slots in one launch (a group table's row counts, aggregates
// and keys; a null src is no array): dst_a[i * width_a + w] = src_a[index[i] * width_a + w].
__device__ __forceinline__ void GatherEntry(const unsigned long long* __restrict__ src, int width,
                                            unsigned long long* __restrict__ dst, long long slot, long long i) {
    if (src == nullptr) return;
    for (int w = 0; w < width; ++w) dst[i * width + w] = src[slot * width + w];
}

// The entries a launch works on: count, or where count_at is not null the count a compaction left there, at most
// count (count is then the room the outputs have): the launches after a compaction are queued before the host
// knows how many groups it found.
__device__ __forceinline__ long long CountUpTo(long long count, const unsigned long long* __restrict__ count_at) {
    if (count_at == nullptr) return count;
    const unsigned long long found = *count_at;
    return found < (unsigned long long)count ? (long long)found : count;
}

// count_out (null: none) receives the count at count_at (else count), whole, so that the host reads it back with
// the gathered entries and sees whether they were cut to the room.
extern "C" __global__ void tessera_gather64_many(const long long* __restrict__ index, long long count,
                                                 const unsigned long long* __restrict__ count_at,
                                                 unsigned long long* __restrict__ count_out,
                                                 const unsigned long long* __restrict__ src0, int width0,
                                                 unsigned long long* __restrict__ dst0,
                                                 const unsigned long long* __restrict__ src1, int width1,
                                                 unsigned long long* __restrict__ dst1,
                                                 const unsigned long long* __restrict__ src2, int width2,
                                                 unsigned long long* __restrict__ dst2,
                                                 const unsigned long long* __restrict__ src3, int width3,
                                                 unsigned long long* __restrict__ dst3) {
    if (count_out != nullptr && blockIdx.x == 0 && threadIdx.x == 0) {
        *count_out = count_at != nullptr ? *count_at : (unsigned long long)count;
    }
    const long long n = CountUpTo(count, count_at);
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const long long slot = index[i];
        GatherEntry(src0, width0, dst0, slot, i);
        GatherEntry(src1, width1, dst1, slot, i);
        GatherEntry(src2, width2, dst2, slot, i);
        GatherEntry(src3, width3, dst3, slot, i);
    }
}

// Clears up to eight byte ranges in one launch (the row counts, cursors, error words and marks a pipeline's run
// starts from), where a memset each would take as many driver calls: row y of the grid clears range y (a null
// pointer: none), by 8-byte stores from its start (8-byte aligned), its last bytes one by one.
extern "C" __global__ void tessera_zero_ranges(unsigned char* p0, long long n0, unsigned char* p1, long long n1,
                                               unsigned char* p2, long long n2, unsigned char* p3, long long n3,
                                               unsigned char* p4, long long n4, unsigned char* p5, long long n5,
                                               unsigned char* p6, long long n6, unsigned char* p7, long long n7) {
    unsigned char* p;
    long long n;
    switch (blockIdx.y) {  // a switch, not an indexed array: the parameters stay out of local memory
        case 0: p = p0; n = n0; break;
        case 1: p = p1; n = n1; break;
        case 2: p = p2; n = n2; break;
        case 3: p = p3; n = n3; break;
        case 4: p = p4; n = n4; break;
        case 5: p = p5; n = n5; break;
        case 6: p = p6; n = n6; break;
        default: p = p7; n = n7; break;
    }
    if (p == nullptr) return;
    const long long words = n >> 3;
    unsigned long long* const w = reinterpret_cast<unsigned long long*>(p);
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += (long long)gridDim.x * blockDim.x) {
        w[i] = 0ull;
    }
    if (blockIdx.x == 0 && (long long)threadIdx.x < n - (words << 3)) p[(words << 3) + threadIdx.x] = 0;
}

// dst[i] = src[index[i]] for i < count, elements of `bytes` bytes (8, 4 or 1): a column of a kernel's rows, or its
// NULL flags, in the order a sort left the row numbers in.
extern "C" __global__ void tessera_gather_rows(const unsigned char* __restrict__ src,
                                               const long long* __restrict__ index, long long count, int bytes,
                                               unsigned char* __restrict__ dst) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x) {
        const long long r = index[i];
        if (bytes == 8) {
            reinterpret_cast<unsigned long long*>(dst)[i] = reinterpret_cast<const unsigned long long*>(src)[r];
        } else if (bytes == 4) {
            reinterpret_cast<unsigned int*>(dst)[i] = reinterpret_cast<const unsigned int*>(src)[r];
        } else {
            dst[i] = src[r];
        }
    }
}

// ---- ORDER BY and LIMIT over a small device relation (a query's groups) ----

// How tessera_sort_keys3 reads key j of row i: a signed 64-bit integer, a double's bits, one key of a dense group
// table decoded from the slot number (min + (slot / divisor) % size), a row's count (its NULL flag: 1 where it is
// 0), or from an array of one element per row, a signed 32-bit integer or a byte (1 where it is not 0: a boolean,
// or a NULL flag of a kernel's rows).
#define TESSERA_SORT_SIGNED 0
#define TESSERA_SORT_DOUBLE 1
#define TESSERA_SORT_DENSE_DIGIT 2
#define TESSERA_SORT_NULL_FLAG 3
#define TESSERA_SORT_INT32 4
#define TESSERA_SORT_BYTE 5

// dst[i] = row i's key as a word that orders as unsigned in the ORDER BY's order: word `word` of the `width`
// words of src's row i, encoded by `kind` (TESSERA_SORT_*); descending keys are complemented. A NULL_FLAG key is
// 1 where the row's count (src) is 0, the value then being NULL, and 0 elsewhere (complemented for NULLS FIRST).
__device__ __forceinline__ void EncodeSortKey(const long long* __restrict__ src, int width, int word, long long n,
                                              int kind, long long min, long long divisor, long long size, int desc,
                                              unsigned long long* __restrict__ dst) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        // a 32-bit or byte array is read at its own width: a 64-bit read would pass the end of its last rows
        const long long v = kind == TESSERA_SORT_INT32 ? (long long)reinterpret_cast<const int*>(src)[i]
                : kind == TESSERA_SORT_BYTE ? (long long)reinterpret_cast<const unsigned char*>(src)[i]
                : src[i * width + word];
        unsigned long long key;
        if (kind == TESSERA_SORT_BYTE) {
            key = v != 0 ? 1ULL : 0ULL;
        } else if (kind == TESSERA_SORT_DOUBLE) {
            double d = __longlong_as_double(v);
            // every NaN as the JVM's one NaN, greater than every number (Double.compare); -0.0 before 0.0
            unsigned long long bits = d != d ? 0x7ff8000000000000ULL : (unsigned long long)v;
            key = (bits >> 63) ? ~bits : bits ^ 0x8000000000000000ULL;
        } else if (kind == TESSERA_SORT_DENSE_DIGIT) {
            key = (unsigned long long)(min + (v / divisor) % size) ^ 0x8000000000000000ULL;
        } else if (kind == TESSERA_SORT_NULL_FLAG) {
            key = v == 0 ? 1ULL : 0ULL;
        } else {
            key = (unsigned long long)v ^ 0x8000000000000000ULL;
        }
        dst[i] = desc ? ~key : key;
    }
}

// EncodeSortKey for up to three keys of the same rows in one launch: row y of the grid encodes key y (an ORDER BY
// of one to three keys, the usual, takes one launch). The rows: n, or at most n as count_at says (CountUpTo).
extern "C" __global__ void tessera_sort_keys3(long long n, const unsigned long long* __restrict__ count_at,
        const long long* __restrict__ src0, int width0, int word0, int kind0, long long min0, long long divisor0,
        long long size0, int desc0, unsigned long long* __restrict__ dst0,
        const long long* __restrict__ src1, int width1, int word1, int kind1, long long min1, long long divisor1,
        long long size1, int desc1, unsigned long long* __restrict__ dst1,
        const long long* __restrict__ src2, int width2, int word2, int kind2, long long min2, long long divisor2,
        long long size2, int desc2, unsigned long long* __restrict__ dst2) {
    n = CountUpTo(n, count_at);
    if (blockIdx.y == 0) {
        EncodeSortKey(src0, width0, word0, n, kind0, min0, divisor0, size0, desc0, dst0);
    } else if (blockIdx.y == 1) {
        EncodeSortKey(src1, width1, word1, n, kind1, min1, divisor1, size1, desc1, dst1);
    } else {
        EncodeSortKey(src2, width2, word2, n, kind2, min2, divisor2, size2, desc2, dst2);
    }
}

// Sorts the n rows of `keys` (nkeys words per row from tessera_sort_keys3, key j of row i at keys[j * n + i]) by
// their keys in turn, equal rows by row number (a stable order), in one block: a bitonic sort of m row numbers in
// shared memory, m the power of two at or above n (padding rows sort last), with each row's key words copied into
// shared memory beside them (dynamic shared memory: nkeys * m * 8 + m * 4 bytes). Writes the first out_rows row
// numbers in order to out_index (the LIMIT's rows: offset plus fetch). Where count_at is not null the rows are at
// most n as it says (CountUpTo; the key words still n apart), and m the power of two at or above them: the shared
// memory is sized for the m of n.
extern "C" __global__ void __launch_bounds__(1024)
tessera_sort_small(const unsigned long long* __restrict__ keys, int nkeys, long long n,
                   const unsigned long long* __restrict__ count_at, int m,
                   long long* __restrict__ out_index, long long out_rows) {
    extern __shared__ unsigned long long tessera_sort_shared[];
    const long long key_stride = n;  // the key words of a key are n apart, whatever count_at says
    n = CountUpTo(n, count_at);
    if (count_at != nullptr) {
        m = 2;
        while (m < n) m <<= 1;
    }
    unsigned long long* k = tessera_sort_shared;                         // key j of row r at k[j * m + r]
    int* row = reinterpret_cast<int*>(tessera_sort_shared + (long long)nkeys * m);
    for (int i = threadIdx.x; i < m; i += blockDim.x) {
        for (int j = 0; j < nkeys; j++) {
            k[j * m + i] = i < n ? keys[(long long)j * key_stride + i] : ~0ULL;
        }
        row[i] = i;
    }
    __syncthreads();
    for (int size = 2; size <= m; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            for (int i = threadIdx.x; i < m; i += blockDim.x) {
                const int partner = i ^ stride;
                if (partner > i) {
                    const int a = row[i];
                    const int b = row[partner];
                    // does row b come before row a?
                    int order = 0;
                    for (int j = 0; j < nkeys && order == 0; j++) {
                        const unsigned long long ka = k[j * m + a];
                        const unsigned long long kb = k[j * m + b];
                        order = kb < ka ? -1 : (kb > ka ? 1 : 0);
                    }
                    const bool bFirst = order < 0 || (order == 0 && b < a);
                    if (bFirst == ((i & size) == 0)) {
                        row[i] = b;
                        row[partner] = a;
                    }
                }
            }
            __syncthreads();
        }
    }
    for (long long i = threadIdx.x; i < out_rows && i < n; i += blockDim.x) {
        out_index[i] = row[i];
    }
}

}  // namespace q
}  // namespace tessera

#endif  // TESSERA_QUERY_CUH
